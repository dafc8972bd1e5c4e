//! The windows drawn over the panes: the session picker and the help screen (generated from
//! the key table, so it cannot drift from the bindings).

use super::{block, visible};
use crate::rules::Severity;
use crate::tui::app::App;
use crate::tui::doc::Doc;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, List, ListItem, ListState, Paragraph};

fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

pub(super) fn sessions(f: &mut Frame, app: &App, doc: &Doc, area: Rect) {
    let t = &app.theme;
    let mut items = vec![ListItem::new("all sessions")];
    for (i, s) in doc.decoder().sessions().enumerate() {
        items.push(ListItem::new(format!(
            "{} {} {} {} · {} lines · {} errors",
            i + 1,
            visible(s.label.as_deref().unwrap_or("-")),
            s.protocol.map_or("?", |p| p.name()),
            visible(s.engine_name.as_deref().unwrap_or("")),
            s.counts.iter().sum::<u64>(),
            doc.findings()
                .iter()
                .filter(|f| f.severity == Severity::Error && f.session == s.label)
                .count(),
        )));
    }
    let r = centered(area, 70, (items.len() as u16 + 2).min(20));
    f.render_widget(Clear, r);
    let list = List::new(items)
        .block(block(app, "sessions · enter: show only this one", true))
        .highlight_style(
            Style::default()
                .bg(t.selected_bg)
                .add_modifier(Modifier::BOLD),
        );
    let mut state = ListState::default().with_selected(Some(app.session_cursor));
    f.render_stateful_widget(list, r, &mut state);
}

/// The help screen, generated from the key table.
pub(super) fn help(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let mut lines: Vec<Line> = app
        .keys
        .help_lines()
        .into_iter()
        .map(|(k, h)| {
            Line::from(vec![
                Span::styled(format!("{k:>22}  "), Style::default().fg(t.focus)),
                Span::raw(h),
            ])
        })
        .collect();
    lines.push(Line::raw(""));
    for l in [
        "filter terms (all must match, ! negates): gui engine stderr proxy",
        "  kind:NAME  rule:ID (ID* prefix)  sev:LEVEL  open  lat>500ms  session:N  REGEX",
        "marks: m then a letter sets, ' then the letter jumps",
    ] {
        lines.push(Line::styled(l, Style::default().fg(t.dim)));
    }
    let r = centered(area, 92, area.height.saturating_sub(2));
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines)
            .block(block(app, "help · any key closes", true))
            .scroll((app.help_offset as u16, 0)),
        r,
    );
}
