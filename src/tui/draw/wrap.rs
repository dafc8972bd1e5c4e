//! Lines folded to a width before they are drawn, so a pane knows how many rows its text
//! takes: what scrolls, and whether something is cut, is counted in the rows on the screen.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Columns a character takes (the text is escaped already: no control characters).
fn width_of(c: char) -> usize {
    if c.is_ascii() {
        1
    } else {
        let mut buf = [0u8; 4];
        Span::raw(&*c.encode_utf8(&mut buf)).width()
    }
}

/// `lines` folded into rows of at most `width` columns, at a space when the row has one.
pub(super) fn fold(lines: Vec<Line<'_>>, width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width).max(1);
    let mut rows = Vec::new();
    let mut cells: Vec<(char, usize, u8)> = Vec::new();
    for line in lines {
        let styles: Vec<Style> = line
            .spans
            .iter()
            .map(|s| line.style.patch(s.style))
            .collect();
        cells.clear();
        for (k, s) in line.spans.iter().enumerate() {
            cells.extend(
                s.content
                    .chars()
                    .map(|c| (c, k, u8::try_from(width_of(c)).unwrap_or(2))),
            );
        }
        // Short lines (most of them) are taken whole.
        if cells.iter().map(|c| usize::from(c.2)).sum::<usize>() <= width {
            rows.push(row(&cells, &styles));
            continue;
        }
        let mut start = 0;
        while start < cells.len() {
            // A row that continues a line does not start with the space it was broken at.
            if start > 0 && cells[start].0 == ' ' {
                start += 1;
                continue;
            }
            let mut used = 0;
            let mut end = start;
            while end < cells.len() && used + usize::from(cells[end].2) <= width {
                used += usize::from(cells[end].2);
                end += 1;
            }
            if end == start {
                end = start + 1;
            }
            if end < cells.len()
                && cells[end].0 != ' '
                && let Some(sp) = (start + 1..end).rev().find(|&i| cells[i - 1].0 == ' ')
            {
                end = sp;
            }
            rows.push(row(&cells[start..end], &styles));
            start = end;
        }
    }
    rows
}

/// Cells back into spans, one per run of a span's style.
fn row(cells: &[(char, usize, u8)], styles: &[Style]) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut text = String::new();
    let mut at = None;
    for &(c, k, _) in cells {
        if at.is_some_and(|x| x != k) {
            let style = at.and_then(|x| styles.get(x)).copied().unwrap_or_default();
            spans.push(Span::styled(std::mem::take(&mut text), style));
        }
        at = Some(k);
        text.push(c);
    }
    if !text.is_empty() {
        let style = at.and_then(|x| styles.get(x)).copied().unwrap_or_default();
        spans.push(Span::styled(text, style));
    }
    Line::from(spans)
}
