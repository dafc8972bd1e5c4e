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

/// A piece of the status bar: its forms from the fullest to the shortest (the last may be
/// empty: the piece can go), each with how much it matters.
struct Piece<'a> {
    forms: Vec<(u8, Vec<Span<'a>>)>,
    form: usize,
    /// A text that may be cut to the room left once the bar fits (with its style).
    elastic: Option<(String, Style)>,
}

impl<'a> Piece<'a> {
    fn new(rank: u8, forms: Vec<Vec<Span<'a>>>) -> Self {
        Self::ranked(forms.into_iter().map(|f| (rank, f)).collect())
    }
    fn ranked(forms: Vec<(u8, Vec<Span<'a>>)>) -> Self {
        Piece {
            forms,
            form: 0,
            elastic: None,
        }
    }
    fn width(&self) -> usize {
        self.forms[self.form].1.iter().map(Span::width).sum()
    }
}

/// Most important: never shortened.
const KEEP: u8 = u8::MAX;

pub(super) fn status_bar(f: &mut Frame, app: &App, doc: &Doc, area: Rect) {
    let t = &app.theme;
    let base = Style::default().fg(t.status_fg).bg(t.status_bg);
    let mut pieces: Vec<Piece> = Vec::new();
    live_state(app, doc, base, &mut pieces);
    input_and_session(app, doc, base, &mut pieces);
    position_and_counts(app, doc, base, &mut pieces);
    search_and_filters(app, base, &mut pieces);
    fit(&mut pieces, usize::from(area.width));
    let spans: Vec<Span> = pieces
        .into_iter()
        .flat_map(|mut p| p.forms.swap_remove(p.form).1)
        .collect();
    f.render_widget(Paragraph::new(Line::from(spans)).style(base), area);
}

/// Reading or following, what happened to the input, lines that could not be read, and the
/// hang verdicts: what a stuck session is about, so first.
fn live_state(app: &App, doc: &Doc, base: Style, pieces: &mut Vec<Piece<'static>>) {
    let t = &app.theme;
    let bold = base.add_modifier(Modifier::BOLD);
    if !doc.done {
        let long = if app.opts.follow {
            format!(
                " following{} ",
                if app.autoscroll { " ●" } else { " (paused)" }
            )
        } else {
            match doc.progress {
                Some((a, b)) if b > 0 && a > 0 => format!(" indexing {}% ", a * 100 / b),
                _ => " indexing… ".to_owned(),
            }
        };
        let st = base.add_modifier(Modifier::BOLD | Modifier::REVERSED);
        pieces.push(Piece::new(KEEP - 1, vec![vec![Span::styled(long, st)]]));
    } else if app.opts.follow {
        pieces.push(Piece::new(
            KEEP - 1,
            vec![vec![Span::styled(
                " ended ",
                base.add_modifier(Modifier::REVERSED),
            )]],
        ));
    }
    if let Some(n) = &doc.notice {
        pieces.push(Piece::new(
            60,
            vec![
                vec![Span::styled(format!(" {} ", visible(n)), bold)],
                vec![],
            ],
        ));
    }
    // Lines the input could not be read at: `check` exits 2 on them, the viewer says so.
    if let Some((first, reason)) = doc.skipped.first() {
        let n = doc.skipped.len();
        let st = base
            .fg(Color::Black)
            .bg(t.error)
            .add_modifier(Modifier::BOLD);
        let what = crate::tui::plural(n, "unreadable line");
        pieces.push(Piece::new(
            70,
            vec![
                vec![Span::styled(
                    format!(" {what} (line {first}: {}) ", visible(reason)),
                    st,
                )],
                vec![Span::styled(format!(" {what} "), st)],
            ],
        ));
    }
    for h in &doc.hangs {
        // What is owed and the state it is in (searching, silent, gone), in `check`'s words;
        // short of room, the verdict and the process's class alone (the violations pane has
        // the sentence).
        let short = match h.summary.match_indices("; ").nth(1) {
            Some((i, _)) if !h.summary.starts_with("the engine owes nothing") => &h.summary[..i],
            _ => &h.summary,
        };
        let class = h
            .process
            .as_ref()
            .map_or(String::new(), |p| format!(" [{}]", p.state.as_str()));
        let st = base
            .fg(Color::Black)
            .bg(t.hang)
            .add_modifier(Modifier::BOLD);
        let long = format!(" {}{class}: {} ", visible(h.label), visible(short));
        let mut p = Piece::ranked(vec![
            (25, vec![Span::styled(long.clone(), st)]),
            (
                90,
                vec![Span::styled(format!(" {}{class} ", visible(h.label)), st)],
            ),
        ]);
        p.elastic = Some((long, st));
        pieces.push(p);
    }
}

/// The file, its format, and the session of the selected line.
fn input_and_session(app: &App, doc: &Doc, base: Style, pieces: &mut Vec<Piece<'static>>) {
    let bold = base.add_modifier(Modifier::BOLD);
    // The same numbering as the session list and `session:N`: every session of the decoder.
    let sessions: Vec<String> = doc
        .decoder()
        .sessions()
        .map(|s| {
            let p = s.protocol.map_or("?", |p| p.name());
            match (&s.label, &s.engine_name) {
                (Some(l), _) => format!("{}: {p}", visible(l)),
                (None, Some(e)) => format!("{p} {}", visible(e)),
                (None, None) => p.to_owned(),
            }
        })
        .collect();
    let file = visible(&doc.file);
    let base_name = file.rsplit('/').next().unwrap_or(&file).to_owned();
    pieces.push(Piece::ranked(vec![
        (28, vec![Span::styled(format!(" {file} "), bold)]),
        (40, vec![Span::styled(format!(" {base_name} "), bold)]),
        (40, vec![Span::raw(" ")]),
    ]));
    pieces.push(Piece::new(
        10,
        vec![
            vec![Span::styled(format!("· {} · ", doc.format), base)],
            vec![],
        ],
    ));
    let shown_sessions: Vec<usize> = doc
        .decoder()
        .sessions()
        .enumerate()
        .filter(|(_, s)| s.protocol.is_some() || s.counts[0] + s.counts[1] > 0)
        .map(|(i, _)| i)
        .collect();
    // Numbered as the list's `s` column, the session list (`l`) and `session:N`: every
    // session the decoder has, from 1.
    let numbered = |s: usize| {
        format!(
            "session {}/{} {}",
            s + 1,
            sessions.len(),
            sessions.get(s).cloned().unwrap_or_default()
        )
    };
    let line_session = app
        .selected()
        .and_then(|r| doc.rows.get(r))
        .map(|r| usize::from(r.session()));
    let session = match (shown_sessions.len(), app.session, line_session) {
        (0, None, _) => "no session".to_owned(),
        (1, None, _) if sessions.len() == 1 => sessions[shown_sessions[0]].clone(),
        (_, None, Some(s)) => numbered(s),
        (_, None, None) => format!("{} sessions", sessions.len()),
        (_, Some(s), _) => format!("only {}", numbered(usize::from(s))),
    };
    pieces.push(Piece::new(
        20,
        vec![vec![Span::styled(format!("{session} · "), base)], vec![]],
    ));
}

/// Where the cursor is, how much there is, and the findings' counts: never dropped.
fn position_and_counts(app: &App, doc: &Doc, base: Style, pieces: &mut Vec<Piece<'static>>) {
    let t = &app.theme;
    let c = doc.counts();
    // Where the cursor is and how much there is: never dropped.
    let at = app.selected().map(|r| doc.line(r)).filter(|&l| l > 0);
    let total = doc.rows.len();
    let position = match (at, app.filtered()) {
        (Some(l), false) => format!("L{l} · {total} lines "),
        (Some(l), true) => format!("L{l} · {}/{total} shown ", app.view.len()),
        (None, _) => format!("{total} lines "),
    };
    pieces.push(Piece::new(
        KEEP,
        vec![vec![Span::styled(position.clone(), base)]],
    ));
    pieces.push(Piece::new(
        KEEP,
        vec![vec![
            Span::styled(
                format!("· {}E ", c[0]),
                base.fg(if c[0] > 0 { Color::Red } else { t.status_fg }),
            ),
            Span::styled(format!("{}W ", c[1]), base),
            Span::styled(format!("{}N ", c[2]), base),
        ]],
    ));
}

/// The search and its matches, and the filters on.
fn search_and_filters(app: &App, base: Style, pieces: &mut Vec<Piece<'static>>) {
    if app.search.is_some() {
        let count = match app.match_count() {
            Some((k, n, true)) => format!(" {k}/{n}"),
            Some((_, n, false)) => format!(" {n}+ matches…"),
            None => String::new(),
        };
        pieces.push(Piece::new(
            80,
            vec![
                vec![Span::styled(
                    format!("· /{}/{count} ", visible(&app.search_text)),
                    base,
                )],
                vec![Span::styled(format!("·{count} "), base)],
            ],
        ));
    }
    let filters = app.filter_summary();
    if !filters.is_empty() {
        pieces.push(Piece::new(
            50,
            vec![
                vec![Span::styled(
                    format!("· filter: {} ", visible(&filters)),
                    base,
                )],
                vec![Span::styled("· filtered ", base)],
            ],
        ));
    }
}

/// Shortens the pieces that matter least, one form at a time, until the bar fits; then gives
/// the room left to a shortened piece that can show part of its fuller text.
fn fit(pieces: &mut [Piece], width: usize) {
    loop {
        let used: usize = pieces.iter().map(Piece::width).sum();
        if used <= width {
            break;
        }
        let next = pieces
            .iter_mut()
            .filter(|p| p.form + 1 < p.forms.len())
            .min_by_key(|p| p.forms[p.form].0);
        match next {
            Some(p) => p.form += 1,
            None => return,
        }
    }
    let used: usize = pieces.iter().map(Piece::width).sum();
    let mut spare = width.saturating_sub(used);
    for p in pieces.iter_mut().filter(|p| p.form > 0) {
        let Some((text, style)) = p.elastic.clone() else {
            continue;
        };
        let now = p.width();
        let room = now + spare;
        if room < now + 8 {
            continue;
        }
        let cut: String = text.chars().take(room.saturating_sub(2)).collect();
        let cut = format!("{}… ", cut.trim_end());
        spare = room.saturating_sub(cut.chars().count());
        p.forms[p.form].1 = vec![Span::styled(cut, style)];
    }
}

pub(super) fn hint_line(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let line = if let Some(p) = &app.prompt {
        let label = match p.kind {
            PromptKind::Search => "/".to_owned(),
            PromptKind::HelpSearch => "help /".to_owned(),
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
    } else if app.zoom == crate::tui::layout::Zoom::Line {
        Line::styled(
            "j/k space pgup g/G scroll the line · esc q enter: back to the list · ? help",
            Style::default().fg(t.dim),
        )
    } else {
        Line::styled(app.keys.hints(), Style::default().fg(t.dim))
    };
    f.render_widget(Paragraph::new(line), area);
}
