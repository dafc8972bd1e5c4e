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
    // Lines the input could not be read at: `check` exits 2 on them, the viewer says so.
    if let Some((first, reason)) = doc.skipped.first() {
        let n = doc.skipped.len();
        spans.push(Span::styled(
            format!(
                " {n} unreadable line{} (line {first}: {}) ",
                if n == 1 { "" } else { "s" },
                visible(reason)
            ),
            base.fg(Color::Black)
                .bg(t.error)
                .add_modifier(Modifier::BOLD),
        ));
    }
    for h in &doc.hangs {
        let short = h.summary.split("; ").next().unwrap_or(&h.summary);
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
    if !app.filter_text.is_empty() {
        spans.push(Span::styled(
            format!(" · filter: {}", app.filter_text),
            base,
        ));
    }
    f.render_widget(Paragraph::new(Line::from(spans)).style(base), area);
}

pub(super) fn hint_line(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let line = if let Some((kind, text)) = &app.prompt {
        Line::from(vec![
            Span::styled(
                match kind {
                    PromptKind::Search => "/",
                    PromptKind::Filter => "filter: ",
                },
                Style::default().fg(t.focus).add_modifier(Modifier::BOLD),
            ),
            Span::raw(visible(text)),
            Span::styled("█", Style::default().fg(t.focus)),
        ])
    } else if let Some((m, err)) = &app.message {
        Line::styled(
            visible(m),
            Style::default().fg(if *err { t.error } else { t.fg }),
        )
    } else {
        Line::styled(
            "? help  / search  f filter  v/V finding  e/E error  s/S silence  {/} game  x violations  l sessions  c chart  y copy  q quit",
            Style::default().fg(t.dim),
        )
    };
    f.render_widget(Paragraph::new(line), area);
}
