//! Lines folded to a width before they are drawn, so a pane knows how many rows its text
//! takes: what scrolls, and whether something is cut, is counted in the rows on the screen.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// `lines` folded into rows of at most `width` columns, at a space when the row has one.
pub(super) fn fold(lines: Vec<Line<'_>>, width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width).max(1);
    let mut rows = Vec::new();
    for line in lines {
        let base = line.style;
        let cells: Vec<(String, Style, usize)> = line
            .spans
            .iter()
            .flat_map(|s| {
                let style = base.patch(s.style);
                s.content.chars().map(move |c| {
                    let g = c.to_string();
                    let w = Span::raw(g.as_str()).width();
                    (g, style, w)
                })
            })
            .collect();
        if cells.is_empty() {
            rows.push(Line::default());
            continue;
        }
        let mut start = 0;
        while start < cells.len() {
            // A row that continues a line does not start with the space it was broken at.
            if start > 0 && cells[start].0 == " " {
                start += 1;
                continue;
            }
            let mut used = 0;
            let mut end = start;
            while end < cells.len() && used + cells[end].2 <= width {
                used += cells[end].2;
                end += 1;
            }
            if end == start {
                end = start + 1;
            }
            if end < cells.len()
                && cells[end].0 != " "
                && let Some(sp) = (start + 1..end).rev().find(|&i| cells[i - 1].0 == " ")
            {
                end = sp;
            }
            rows.push(row(&cells[start..end]));
            start = end;
        }
    }
    rows
}

/// Cells back into spans, one per run of a style.
fn row(cells: &[(String, Style, usize)]) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut text = String::new();
    let mut style = None;
    for (g, s, _) in cells {
        if style.is_some_and(|x| x != *s) {
            spans.push(Span::styled(
                std::mem::take(&mut text),
                style.unwrap_or_default(),
            ));
        }
        style = Some(*s);
        text.push_str(g);
    }
    if !text.is_empty() {
        spans.push(Span::styled(text, style.unwrap_or_default()));
    }
    Line::from(spans)
}
