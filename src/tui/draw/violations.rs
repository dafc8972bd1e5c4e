//! The violations panel: the findings grouped by severity and rule, the way a reader
//! triages them, next to the detail pane.

use super::{block, sev_color, visible};
use crate::tui::app::{App, Focus, ViolationItem};
use crate::tui::doc::Doc;
use crate::tui::plural;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{List, ListItem, ListState, Paragraph};

pub(super) fn violations(f: &mut Frame, app: &App, doc: &Doc, area: Rect) {
    let t = &app.theme;
    let c = doc.counts();
    let title = format!(
        "violations · {} {} {}",
        plural(c[0], "error"),
        plural(c[1], "warning"),
        plural(c[2], "note")
    );
    let b = block(app, &title, app.focus == Focus::Violations);
    let items: Vec<ListItem> = app.violations.iter().map(|it| item(app, doc, it)).collect();
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

/// One entry of the pane: a group's heading, or one hang, runner verdict, unreadable line or
/// finding under it.
fn item(app: &App, doc: &Doc, it: &ViolationItem) -> ListItem<'static> {
    let t = &app.theme;
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let heading = |word: &str, color, text: String| {
        ListItem::new(Line::from(vec![
            Span::styled(format!("{word} "), Style::default().fg(color)),
            Span::styled(text, bold),
        ]))
    };
    match it {
        ViolationItem::HangGroup { count } => {
            heading("hang", t.hang, plural(*count, "hang verdict"))
        }
        ViolationItem::Hang(i) => doc
            .hangs
            .get(*i)
            .map_or_else(|| ListItem::new(""), |h| hang(app, h)),
        ViolationItem::Group {
            severity,
            rule,
            count,
        } => heading(
            severity.as_str(),
            sev_color(app, *severity),
            format!("{rule} ×{count}"),
        ),
        ViolationItem::RunnerGroup { count } => heading(
            "runner",
            t.hang,
            format!("the runner's own verdicts ×{count}"),
        ),
        ViolationItem::Runner(si, k) => runner(app, doc, *si, *k),
        ViolationItem::UnreadableGroup { count } => {
            heading("input", t.error, plural(*count, "unreadable line"))
        }
        ViolationItem::Unreadable(i) => {
            let (line, why) = &doc.skipped[*i];
            ListItem::new(Line::from(vec![
                Span::styled(format!("  L{line} "), Style::default().fg(t.dim)),
                Span::raw(visible(why)),
            ]))
        }
        ViolationItem::Entry(i) => finding(app, &doc.findings()[*i]),
    }
}

/// A hang verdict: the request's line, the label and the process's class, the summary.
fn hang(app: &App, h: &crate::rules::HangVerdict) -> ListItem<'static> {
    let t = &app.theme;
    let at = h
        .request_line
        .or(h.request_place.as_ref().and_then(|p| p.line))
        .map_or(String::new(), |l| format!("L{l}"));
    let process = h
        .process
        .as_ref()
        .map_or(String::new(), |p| format!(" [{}]", p.state.as_str()));
    ListItem::new(Line::from(vec![
        Span::styled(format!("  {at} "), Style::default().fg(t.dim)),
        Span::styled(
            format!("{}{process}", visible(h.label)),
            Style::default().fg(t.hang).add_modifier(Modifier::BOLD),
        ),
        Span::raw(format!(": {}", visible(&h.summary))),
    ]))
}

/// The runner's own verdict `k` of session `si`, and whether kibitzer agrees.
fn runner(app: &App, doc: &Doc, si: usize, k: usize) -> ListItem<'static> {
    let t = &app.theme;
    let Some(v) = doc
        .decoder()
        .sessions()
        .nth(si)
        .and_then(|s| s.verdicts.get(k))
    else {
        return ListItem::new("");
    };
    let check = super::kibitzer_on(v).map_or(String::new(), |s| format!(" ({s})"));
    ListItem::new(Line::from(vec![
        Span::styled(
            format!("  {} ", v.line.map_or(String::new(), |l| format!("L{l}"))),
            Style::default().fg(t.dim),
        ),
        Span::raw(format!(
            "runner[{}] {}: \"{}\"",
            v.verdict.kind.as_str(),
            visible(v.verdict.engine.as_deref().unwrap_or("engine")),
            visible(&v.text)
        )),
        Span::styled(check, Style::default().fg(t.dim)),
    ]))
}

/// A finding: where, whose, what, and how often.
fn finding(app: &App, fnd: &crate::rules::Finding) -> ListItem<'static> {
    let t = &app.theme;
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
