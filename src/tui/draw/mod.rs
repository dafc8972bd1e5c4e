//! One frame, drawn from the state alone (no side effects but the returned areas, which the
//! mouse needs).
//!
//! This file lays the frame out and holds what every pane shares (borders, colours, the
//! escaping of untrusted text); each pane is its own file, so a change to one pane's look is
//! read and reviewed without the others.

mod detail;
mod overlays;
mod position;
mod status;
mod transcript;
mod violations;

use super::app::{App, Areas};
use super::doc::Doc;
use crate::recording::Source;
use crate::rules::Severity;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders};

pub fn draw(f: &mut Frame, app: &App, doc: &Doc) -> Areas {
    let area = f.area();
    let [body, status, hint] = Layout::vertical([
        Constraint::Min(6),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let bottom_h = (body.height * 2 / 5)
        .max(7)
        .min(body.height.saturating_sub(5));
    let [top, bottom] =
        Layout::vertical([Constraint::Min(5), Constraint::Length(bottom_h)]).areas(body);
    let (list_area, right) = if app.panes_shown() {
        let [l, r] = Layout::horizontal([Constraint::Min(40), Constraint::Length(34)]).areas(top);
        (l, Some(r))
    } else {
        (top, None)
    };
    let (detail_area, viol_area) = if app.show_violations {
        let [d, v] = Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)])
            .areas(bottom);
        (d, Some(v))
    } else {
        (bottom, None)
    };
    let sel = app.selected();
    transcript::traffic(f, app, doc, list_area);
    if app.show_chart {
        detail::chart(f, app, doc, sel, detail_area);
    } else {
        detail::detail(f, app, doc, sel, detail_area);
    }
    if let Some(r) = right {
        let [b, s] = Layout::vertical([Constraint::Length(12), Constraint::Min(3)]).areas(r);
        position::board_pane(f, app, doc, sel, b);
        position::search_pane(f, app, doc, sel, s);
    }
    if let Some(v) = viol_area {
        violations::violations(f, app, doc, v);
    }
    status::status_bar(f, app, doc, status);
    status::hint_line(f, app, hint);
    if app.show_sessions {
        overlays::sessions(f, app, doc, area);
    }
    if app.show_filters {
        overlays::filters(f, app, area);
    }
    if app.show_help {
        overlays::help(f, app, area);
    }
    Areas {
        list: list_area,
        violations: viol_area.unwrap_or_default(),
    }
}

/// Lines of the help screen (to keep its scrolling within them).
pub fn help_len(app: &App) -> usize {
    overlays::help_lines(app).len()
}

fn block<'a>(app: &App, title: &'a str, focused: bool) -> Block<'a> {
    let t = &app.theme;
    Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(if focused { t.focus } else { t.border }))
        .title(Span::styled(
            format!(" {title} "),
            Style::default().fg(t.title).add_modifier(Modifier::BOLD),
        ))
}

pub fn sev_color(app: &App, s: Severity) -> Color {
    match s {
        Severity::Error => app.theme.error,
        Severity::Warning => app.theme.warning,
        Severity::Note => app.theme.note,
        Severity::Chat => app.theme.chat,
    }
}

fn src_color(app: &App, s: Source) -> Color {
    match s {
        Source::Gui => app.theme.gui,
        Source::Engine => app.theme.engine,
        Source::Stderr => app.theme.stderr,
        Source::Proxy => app.theme.proxy,
    }
}

fn arrow(app: &App, s: Source) -> &'static str {
    match (s, app.opts.ascii) {
        (Source::Gui, false) => "→",
        (Source::Engine, false) => "←",
        (Source::Gui, true) => ">",
        (Source::Engine, true) => "<",
        (Source::Stderr, _) => "!",
        (Source::Proxy, _) => "*",
    }
}

/// Untrusted text made visible: control and format characters escaped by the one
/// output-safety rule ([`crate::untrusted`]), so every line stays one line and nothing an
/// engine wrote reaches the terminal (ratatui would silently drop them, making two
/// different names look the same).
pub fn visible(text: &str) -> String {
    crate::untrusted::escape(text).into_owned()
}
