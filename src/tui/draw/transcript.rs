//! The traffic list, the viewer's main pane: one row per line of the session, with the
//! gutter marks, the time column in the chosen mode and the search highlight. Kept apart
//! from the other panes because it is the one that scrolls over the whole input and must
//! stay cheap per frame.

use super::{arrow, block, src_color, visible};
use crate::rules::Severity;
use crate::tui::app::{App, Focus, TimeMode};
use crate::tui::doc::Doc;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

fn time_cell(app: &App, doc: &Doc, view_i: usize, r: usize) -> String {
    let row = &doc.rows[r];
    match app.time_mode {
        TimeMode::SinceStart => format!("{:>11.6}", row.t as f64 / 1e9),
        TimeMode::Delta => {
            let prev = view_i
                .checked_sub(1)
                .and_then(|i| app.view.get(i))
                .map_or(row.t, |&p| doc.rows[p as usize].t);
            format!("+{:>10.6}", row.t.saturating_sub(prev) as f64 / 1e9)
        }
        TimeMode::Absolute => match doc.wall_start {
            Some(w) => {
                let ns = w + row.t;
                chrono::DateTime::from_timestamp(
                    (ns / 1_000_000_000) as i64,
                    (ns % 1_000_000_000) as u32,
                )
                .map_or_else(|| "?".into(), |d| d.format("%H:%M:%S%.3f").to_string())
            }
            None => format!("{:>11.6}", row.t as f64 / 1e9),
        },
        // An answer: since its request; a line of a search: since the search started.
        TimeMode::SinceRequest => match (doc.latency(r), doc.search_of(r)) {
            (Some(l), _) => format!("↳{:>10.6}", l as f64 / 1e9),
            (None, Some(x)) if x.start as usize != r => {
                let since = row.t.saturating_sub(doc.rows[x.start as usize].t);
                format!("+{:>10.6}", since as f64 / 1e9)
            }
            _ => " ".repeat(11),
        },
    }
}

pub(super) fn traffic(f: &mut Frame, app: &App, doc: &Doc, area: Rect) {
    let t = &app.theme;
    let sessions = doc.decoder().sessions().len();
    let title = format!(
        "traffic · {} · time {}",
        if app.filter.is_some() || app.session.is_some() {
            format!("{} of {} lines", app.view.len(), doc.rows.len())
        } else {
            format!("{} lines", doc.rows.len())
        },
        app.time_mode.label()
    );
    let b = block(app, &title, app.focus == Focus::List);
    let inner = b.inner(area);
    f.render_widget(b, area);
    let height = usize::from(inner.height.saturating_sub(1));
    let mut lines = vec![Line::styled(
        format!(
            "   {:<11} {}{}{:<12} text",
            "time",
            if sessions > 1 { "s  " } else { "" },
            "   ",
            "kind"
        ),
        Style::default().fg(t.dim),
    )];
    for (k, &r) in app.view.iter().enumerate().skip(app.offset).take(height) {
        let row = &doc.rows[r as usize];
        let text = doc.text(r as usize);
        let selected = k == app.cursor;
        let gutter = match row.sev() {
            Some(Severity::Error) => Span::styled("●", Style::default().fg(t.error)),
            Some(Severity::Warning) => Span::styled("▲", Style::default().fg(t.warning)),
            Some(Severity::Note) => Span::styled("•", Style::default().fg(t.note)),
            _ => Span::raw(" "),
        };
        let mark = app
            .marks
            .iter()
            .find(|(_, m)| **m == r)
            .map_or(" ".to_owned(), |(c, _)| c.to_string());
        let color = src_color(app, row.src());
        let mut text_style = Style::default().fg(color);
        if app.search.as_ref().is_some_and(|re| re.is_match(&text)) {
            text_style = text_style.bg(t.match_bg);
        }
        let mut spans = vec![
            gutter,
            Span::styled(mark, Style::default().fg(t.focus)),
            Span::raw(" "),
            Span::styled(
                time_cell(app, doc, k, r as usize),
                Style::default().fg(t.dim),
            ),
            Span::raw(" "),
        ];
        if sessions > 1 {
            spans.push(Span::styled(
                format!("{:<2} ", row.session + 1),
                Style::default().fg(t.dim),
            ));
        }
        spans.extend([
            Span::styled(
                format!("{} ", arrow(app, row.src())),
                Style::default().fg(color),
            ),
            Span::styled(
                format!("{:<12} ", doc.kind(r as usize)),
                Style::default().fg(t.dim),
            ),
            Span::styled(visible(&text), text_style),
        ]);
        if row.open() {
            spans.push(Span::styled("  ⏳ unanswered", Style::default().fg(t.hang)));
        }
        let mut line = Line::from(spans);
        if selected {
            line = line.style(
                Style::default()
                    .bg(t.selected_bg)
                    .add_modifier(Modifier::BOLD),
            );
        }
        lines.push(line);
    }
    if app.view.is_empty() {
        lines.push(Line::styled(
            match (doc.done, doc.rows.is_empty()) {
                (true, true) => "the input has no lines",
                (true, false) => "no line matches the filter",
                (false, _) => "reading…",
            },
            Style::default().fg(t.dim),
        ));
    }
    f.render_widget(Paragraph::new(lines), inner);
}
