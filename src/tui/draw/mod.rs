//! One frame, drawn from the state alone (no side effects but the returned areas, which the
//! mouse needs).
//!
//! This file lays the frame out and holds what every pane shares (borders, colours, the
//! escaping of untrusted text); each pane is its own file, so a change to one pane's look is
//! read and reviewed without the others.

mod detail;
mod overlays;
mod position;
mod proc_chart;
mod sample;
mod status;
mod transcript;
mod violations;
mod wrap;

use super::app::{App, Areas};
use super::doc::Doc;
use crate::recording::Source;
use crate::rules::Severity;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders};

pub fn draw(f: &mut Frame, app: &App, doc: &Doc) -> Areas {
    let area = f.area();
    let plan = crate::tui::layout::plan(area.width, area.height, app.wants());
    let sel = app.selected();
    if let Some(line) = plan.line {
        line_view(f, app, doc, sel, line);
    } else {
        transcript::traffic(f, app, doc, plan.list);
    }
    if let Some(d) = plan.detail {
        if app.show_chart && !doc.samples.is_empty() {
            let [e, p] =
                Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)])
                    .areas(d);
            detail::chart(f, app, doc, sel, e);
            proc_chart::proc_chart(f, app, doc, sel, p);
        } else if app.show_chart {
            detail::chart(f, app, doc, sel, d);
        } else {
            detail::detail(f, app, doc, sel, d);
        }
    }
    if let Some(r) = plan.right {
        let [b, s] = Layout::vertical([Constraint::Length(12), Constraint::Min(3)]).areas(r);
        position::board_pane(f, app, doc, sel, b);
        position::search_pane(f, app, doc, sel, s);
    }
    if let Some(v) = plan.violations {
        violations::violations(f, app, doc, v);
    }
    status::status_bar(f, app, doc, plan.status);
    status::hint_line(f, app, plan.hint);
    if app.prompt.is_some() && !app.candidates.is_empty() {
        overlays::candidates(f, app, plan.status);
    }
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
        list: if plan.line.is_some() {
            Rect::default()
        } else {
            plan.list
        },
        violations: plan.violations.unwrap_or_default(),
        detail: plan.detail.filter(|_| !app.show_chart).unwrap_or_default(),
    }
}

/// One line on the whole screen (mitmproxy's Enter): everything the detail says, unfolded
/// and scrollable, with the board and the search beside it when there is room.
fn line_view(f: &mut Frame, app: &App, doc: &Doc, sel: Option<usize>, area: Rect) {
    let Some(r) = sel else {
        return;
    };
    let side = crate::tui::layout::right_width(area.width);
    let position = crate::tui::board::position_at(doc, r);
    // The board beside the text, or under it on a narrow screen that is tall enough; with
    // no room for either, its FEN (or GGF board) is a line of the text.
    let (text, right, below) = if area.width >= side + 40 {
        let [t, s] =
            Layout::horizontal([Constraint::Min(40), Constraint::Length(side)]).areas(area);
        (t, Some(s), None)
    } else if area.height >= 28 && position.is_some() {
        let [t, b] = Layout::vertical([Constraint::Min(10), Constraint::Length(12)]).areas(area);
        (t, None, Some(b))
    } else {
        (area, None, None)
    };
    let title = match doc.line(r) {
        0 => "the line · esc closes".to_owned(),
        l => format!("line {l} · esc closes"),
    };
    let mut lines = detail::detail_lines(app, doc, r);
    if let (None, None, Some(p)) = (right, below, &position) {
        lines.push(ratatui::text::Line::from(vec![
            Span::styled("board  ", Style::default().fg(app.theme.dim)),
            Span::raw(visible(&p.text)),
        ]));
    }
    detail::scrolled(f, app, &title, lines, text);
    if let Some(s) = right {
        let [b, p] = Layout::vertical([Constraint::Length(12), Constraint::Min(3)]).areas(s);
        position::board_pane(f, app, doc, sel, b);
        position::search_pane(f, app, doc, sel, p);
    }
    if let Some(b) = below {
        position::board_pane(f, app, doc, sel, b);
    }
}

/// What kibitzer found of a runner's verdict, when it could check it: `kibitzer agrees: WHY`
/// or `kibitzer disagrees: WHY`, escaped.
fn kibitzer_on(v: &crate::session::verdicts::VerdictSeen) -> Option<String> {
    use crate::session::verdicts::VerdictCheck;
    match v.kibitzer.as_ref()? {
        VerdictCheck::Agrees(why) => Some(format!("kibitzer agrees: {}", visible(why))),
        VerdictCheck::Disagrees(why) => Some(format!("kibitzer disagrees: {}", visible(why))),
    }
}

/// The help's lines as text (what `/` in the help searches).
pub fn help_texts(app: &App) -> Vec<String> {
    overlays::help_lines(app)
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
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
