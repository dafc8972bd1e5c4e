//! The two bottom lines: the status bar (what is read, the live state, the hang verdict, the
//! counts) and the hint line (the prompt being typed, the last message, or the key summary).
//! They are what a reader looks at first when a session is stuck, so they are drawn from
//! the same state the panes use and never from their own copy.

use super::visible;
use crate::tui::app::{App, PromptKind};
use crate::tui::doc::Doc;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub(super) fn status_bar(f: &mut Frame, app: &App, doc: &Doc, area: Rect) {
    let t = &app.theme;
    let base = Style::default().fg(t.status_fg).bg(t.status_bg);
    let sessions: Vec<String> = doc
        .decoder()
        .sessions()
        .filter(|s| s.protocol.is_some() || s.counts[0] + s.counts[1] > 0)
        .map(|s| {
            let p = s.protocol.map_or("?", |p| p.name());
            match (&s.label, &s.engine_name) {
                (Some(l), _) => format!("{}: {p}", visible(l)),
                (None, Some(e)) => format!("{p} {}", visible(e)),
                (None, None) => p.to_owned(),
            }
        })
        .collect();
    let c = doc.counts();
    // The live state and the hang verdict first: they are what a stuck session is about.
    let mut spans = Vec::new();
    if !doc.done {
        spans.push(Span::styled(
            if app.opts.follow {
                format!(
                    " following{} ",
                    if app.autoscroll { " ●" } else { " (paused)" }
                )
            } else {
                match doc.progress {
                    Some((a, b)) if b > 0 && a > 0 => format!(" indexing {}% ", a * 100 / b),
                    _ => " indexing… ".to_owned(),
                }
            },
            base.add_modifier(Modifier::BOLD | Modifier::REVERSED),
        ));
    } else if app.opts.follow {
        spans.push(Span::styled(
            " ended ",
            base.add_modifier(Modifier::REVERSED),
        ));
    }
    if let Some(n) = &doc.notice {
        spans.push(Span::styled(
            format!(" {} ", visible(n)),
            base.add_modifier(Modifier::BOLD),
        ));
    }
    // Lines the input could not be read at: `check` exits 2 on them, the viewer says so.
    if let Some((first, reason)) = doc.skipped.first() {
        let n = doc.skipped.len();
        spans.push(Span::styled(
            format!(
                " {} (line {first}: {}) ",
                crate::tui::plural(n, "unreadable line"),
                visible(reason)
            ),
            base.fg(Color::Black)
                .bg(t.error)
                .add_modifier(Modifier::BOLD),
        ));
    }
    for h in &doc.hangs {
        // What is owed and the state it is in (searching, silent, gone), in `check`'s words.
        let short = match h.summary.match_indices("; ").nth(1) {
            Some((i, _)) if !h.summary.starts_with("the engine owes nothing") => &h.summary[..i],
            _ => &h.summary,
        };
        spans.push(Span::styled(
            format!(" {}: {} ", visible(h.label), visible(short)),
            base.fg(Color::Black)
                .bg(t.hang)
                .add_modifier(Modifier::BOLD),
        ));
    }
    spans.extend([
        Span::styled(
            format!(" {} ", visible(&doc.file)),
            base.add_modifier(Modifier::BOLD),
        ),
        Span::styled(format!("· {} · ", doc.format), base),
        Span::styled(
            match (sessions.len(), app.session) {
                (0, _) => "no session".to_owned(),
                (1, _) => sessions[0].clone(),
                (n, None) => format!("{n} sessions"),
                (n, Some(s)) => format!(
                    "session {}/{n} {}",
                    s + 1,
                    sessions.get(usize::from(s)).cloned().unwrap_or_default()
                ),
            },
            base,
        ),
        Span::styled(format!(" · {} lines · ", doc.rows.len()), base),
        Span::styled(
            format!("{}E ", c[0]),
            base.fg(if c[0] > 0 { Color::Red } else { t.status_fg }),
        ),
        Span::styled(format!("{}W ", c[1]), base),
        Span::styled(format!("{}N ", c[2]), base),
    ]);
    let filters = app.filter_summary();
    if !filters.is_empty() {
        spans.push(Span::styled(
            format!(" · filter: {}", visible(&filters)),
            base,
        ));
    }
    if app.search.is_some() {
        let count = match app.match_count() {
            Some((k, n, true)) => format!(" {k}/{n}"),
            Some((_, n, false)) => format!(" {n}+ matches…"),
            None => String::new(),
        };
        spans.push(Span::styled(
            format!(" · /{}/{count}", visible(&app.search_text)),
            base,
        ));
    }
    f.render_widget(Paragraph::new(Line::from(spans)).style(base), area);
}

pub(super) fn hint_line(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let line = if let Some(p) = &app.prompt {
        let label = match p.kind {
            PromptKind::Search => "/".to_owned(),
            PromptKind::Filter => "filter: ".to_owned(),
            PromptKind::EditFilter(i) => format!("filter {}: ", i + 1),
            PromptKind::Command => ":".to_owned(),
        };
        let chars: Vec<char> = p.edit.text().chars().collect();
        let at = p.edit.cursor().min(chars.len());
        let before: String = chars[..at].iter().collect();
        let under: String = chars.get(at).map_or(" ".to_owned(), |c| c.to_string());
        let after: String = chars
            .get(at + 1..)
            .map_or(String::new(), |r| r.iter().collect());
        // Keep the cursor on the screen: a long line shows its end.
        let room = usize::from(area.width).saturating_sub(label.chars().count() + 2);
        let before_shown = visible(&before);
        let skip = before_shown.chars().count().saturating_sub(room);
        Line::from(vec![
            Span::styled(
                label,
                Style::default().fg(t.focus).add_modifier(Modifier::BOLD),
            ),
            Span::raw(before_shown.chars().skip(skip).collect::<String>()),
            Span::styled(
                visible(&under),
                Style::default().add_modifier(Modifier::REVERSED),
            ),
            Span::raw(visible(&after)),
        ])
    } else if let Some((m, err)) = &app.message {
        Line::styled(
            visible(m),
            Style::default().fg(if *err { t.error } else { t.fg }),
        )
    } else {
        Line::styled(app.keys.hints(), Style::default().fg(t.dim))
    };
    f.render_widget(Paragraph::new(line), area);
}
