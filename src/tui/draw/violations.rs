//! The violations panel: the findings grouped by severity and rule, the way a reader
//! triages them, next to the detail pane.

use super::{block, sev_color, visible};
use crate::tui::app::{App, Focus, ViolationItem};
use crate::tui::doc::Doc;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{List, ListItem, ListState, Paragraph};

pub(super) fn violations(f: &mut Frame, app: &App, doc: &Doc, area: Rect) {
    let t = &app.theme;
    let c = doc.counts();
    let title = format!(
        "violations · {} errors {} warnings {} notes",
        c[0], c[1], c[2]
    );
    let b = block(app, &title, app.focus == Focus::Violations);
    let items: Vec<ListItem> = app
        .violations
        .iter()
        .map(|it| match it {
            ViolationItem::Group {
                severity,
                rule,
                count,
            } => ListItem::new(Line::from(vec![
                Span::styled(
                    format!("{} ", severity.as_str()),
                    Style::default().fg(sev_color(app, *severity)),
                ),
                Span::styled(
                    format!("{rule} ×{count}"),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
            ])),
            ViolationItem::Entry(i) => {
                let fnd = &doc.findings()[*i];
                ListItem::new(Line::from(vec![
                    Span::styled(
                        format!(
                            "  {} ",
                            fnd.line
                                .map_or(format!("#{}", fnd.seq), |l| format!("L{l}"))
                        ),
                        Style::default().fg(t.dim),
                    ),
                    Span::raw(format!("{}: {}", fnd.side.as_str(), visible(&fnd.message))),
                    Span::styled(
                        fnd.repeats_note()
                            .map(|n| format!(" ({n})"))
                            .unwrap_or_default(),
                        Style::default().fg(t.dim),
                    ),
                ]))
            }
        })
        .collect();
    if items.is_empty() {
        let msg = if doc.done {
            "no findings"
        } else {
            "checking…"
        };
        f.render_widget(
            Paragraph::new(Line::styled(msg, Style::default().fg(t.dim))).block(b),
            area,
        );
        return;
    }
    let list = List::new(items).block(b).highlight_style(
        Style::default()
            .bg(if app.focus == Focus::Violations {
                t.selected_bg
            } else {
                t.bg
            })
            .add_modifier(Modifier::BOLD),
    );
    let mut state = ListState::default().with_selected(Some(app.viol_cursor));
    f.render_stateful_widget(list, area, &mut state);
}
