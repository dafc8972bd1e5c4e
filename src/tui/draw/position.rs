//! The right-hand column of a wide terminal: the board and the engine's search as they stood
//! at the selected line, so a move or a score can be judged where it was said.

use super::{block, visible};
use crate::protocol::uci::Bound;
use crate::session::GameKind;
use crate::tui::app::{App, secs};
use crate::tui::board::{self, Position};
use crate::tui::doc::Doc;
use crate::tui::pv;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub(super) fn board_pane(f: &mut Frame, app: &App, doc: &Doc, sel: Option<usize>, area: Rect) {
    let t = &app.theme;
    let pos = sel.and_then(|r| board::position_at(doc, r));
    let title = match &pos {
        Some(p) => format!("board · game {} ply {}", p.game + 1, p.ply),
        None => "board".to_owned(),
    };
    let b = block(app, &title, false);
    let Some(p) = pos else {
        f.render_widget(
            Paragraph::new(Line::styled(
                "no board at this line",
                Style::default().fg(t.dim),
            ))
            .block(b),
            area,
        );
        return;
    };
    let mut lines = Vec::new();
    for (rank, cells) in p.cells.iter().enumerate() {
        let mut spans = vec![Span::styled(
            match p.kind {
                GameKind::Chess => format!("{} ", 8 - rank),
                GameKind::Othello => format!("{} ", rank + 1),
            },
            Style::default().fg(t.dim),
        )];
        for (file, &c) in cells.iter().enumerate() {
            spans.push(square(app, &p, file, rank, c));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::styled(
        "  a b c d e f g h",
        Style::default().fg(t.dim),
    ));
    lines.push(Line::from(vec![
        Span::raw(
            p.to_move
                .map(|s| format!("{s} to move"))
                .unwrap_or_default(),
        ),
        Span::styled(
            p.last_san
                .as_ref()
                .map(|m| format!(" · last {m}"))
                .unwrap_or_default(),
            Style::default().fg(t.dim),
        ),
    ]));
    f.render_widget(Paragraph::new(lines).block(b), area);
}

fn square<'a>(app: &App, p: &Position, file: usize, rank: usize, c: char) -> Span<'a> {
    if app.opts.no_color {
        return plain_square(app, p, file, rank, c);
    }
    let t = &app.theme;
    let bg = if p.last.contains(&(file, rank)) {
        t.last_move
    } else if p.kind == GameKind::Othello {
        Color::Rgb(0x2e, 0x7d, 0x32)
    } else if (file + rank).is_multiple_of(2) {
        t.light_square
    } else {
        t.dark_square
    };
    let (glyph, fg) = match (p.kind, c) {
        (_, '.') => (" ".to_owned(), t.fg),
        (GameKind::Othello, '*') => (
            if app.opts.ascii { "*" } else { "●" }.to_owned(),
            Color::Black,
        ),
        (GameKind::Othello, _) => (
            if app.opts.ascii { "O" } else { "●" }.to_owned(),
            Color::White,
        ),
        (GameKind::Chess, c) => {
            let fg = if c.is_ascii_uppercase() {
                t.white_piece
            } else {
                t.black_piece
            };
            let g = if app.opts.ascii {
                c.to_string()
            } else {
                match c.to_ascii_lowercase() {
                    'k' => "♚",
                    'q' => "♛",
                    'r' => "♜",
                    'b' => "♝",
                    'n' => "♞",
                    'p' => "♟",
                    _ => "?",
                }
                .to_owned()
            };
            (g, fg)
        }
    };
    Span::styled(format!("{glyph} "), Style::default().fg(fg).bg(bg))
}

/// A square without colours (`NO_COLOR`): white pieces in outline, black ones filled,
/// Othello's white disc as ○, empty squares as a dot, the last move in reverse video.
fn plain_square<'a>(app: &App, p: &Position, file: usize, rank: usize, c: char) -> Span<'a> {
    let glyph = match (p.kind, c) {
        (_, '.') => if app.opts.ascii { "." } else { "·" }.to_owned(),
        (GameKind::Othello, '*') => if app.opts.ascii { "*" } else { "●" }.to_owned(),
        (GameKind::Othello, _) => if app.opts.ascii { "O" } else { "○" }.to_owned(),
        (GameKind::Chess, c) if app.opts.ascii => c.to_string(),
        (GameKind::Chess, c) => {
            let white = c.is_ascii_uppercase();
            match (c.to_ascii_lowercase(), white) {
                ('k', true) => "♔",
                ('q', true) => "♕",
                ('r', true) => "♖",
                ('b', true) => "♗",
                ('n', true) => "♘",
                ('p', true) => "♙",
                ('k', false) => "♚",
                ('q', false) => "♛",
                ('r', false) => "♜",
                ('b', false) => "♝",
                ('n', false) => "♞",
                ('p', false) => "♟",
                _ => "?",
            }
            .to_owned()
        }
    };
    let style = if p.last.contains(&(file, rank)) {
        Style::default().add_modifier(ratatui::style::Modifier::REVERSED)
    } else {
        Style::default()
    };
    Span::styled(format!("{glyph} "), style)
}

pub(super) fn search_pane(f: &mut Frame, app: &App, doc: &Doc, sel: Option<usize>, area: Rect) {
    let t = &app.theme;
    let dim = Style::default().fg(t.dim);
    let Some(s) = sel.and_then(|r| pv::search_at(doc, r)) else {
        let b = block(app, "search", false);
        f.render_widget(
            Paragraph::new(Line::styled("no search in this game yet", dim)).block(b),
            area,
        );
        return;
    };
    let state = match (&s.ended_by, s.running) {
        (Some(by), _) => visible(by),
        (None, true) => "running".to_owned(),
        (None, false) => "ended".to_owned(),
    };
    let title = format!("search · {} · {state}", visible(&s.request));
    let b = block(app, &title, false);
    let inner = b.inner(area);
    let n = |v: Option<u64>| v.map_or("-".to_owned(), human);
    let mut lines = vec![Line::from(vec![
        Span::styled("nodes ", dim),
        Span::raw(n(s.nodes)),
        Span::styled("  nps ", dim),
        Span::raw(n(s.nps)),
        Span::styled("  time ", dim),
        Span::raw(s.time_ms.map_or("-".into(), |ms| secs(ms * 1_000_000))),
    ])];
    if s.lines.is_empty() {
        lines.push(Line::styled("no report yet", dim));
    }
    // Every line gets its share of the rows, the best first: a long PV of line 1 never hides
    // line 3, and a pane with room shows them whole.
    let rows = usize::from(inner.height).saturating_sub(1);
    let width = usize::from(inner.width).max(8);
    let share = (rows / s.lines.len().max(1)).max(1);
    let several = s.lines.len() > 1;
    for l in &s.lines {
        let bound = match (l.bound, app.opts.ascii) {
            (Some(Bound::Lower), false) => "≥",
            (Some(Bound::Upper), false) => "≤",
            (Some(Bound::Lower), true) => ">=",
            (Some(Bound::Upper), true) => "<=",
            _ => "",
        };
        let depth = match (l.depth, l.seldepth) {
            (Some(d), Some(sd)) => format!("d{d}/{sd}"),
            (Some(d), None) => format!("d{d}"),
            _ => "d-".into(),
        };
        let head = if several {
            format!("{} ", l.multipv)
        } else {
            String::new()
        };
        let score = format!("{bound}{}", visible(l.score.as_deref().unwrap_or("-")));
        let pv = visible(&l.pv);
        let lead = head.chars().count() + score.chars().count() + depth.chars().count() + 3;
        let mut pieces = fold(&pv, width.saturating_sub(lead).max(4), width, share);
        let first = pieces.first().cloned().unwrap_or_default();
        lines.push(Line::from(vec![
            Span::styled(head, Style::default().fg(t.title)),
            Span::styled(score, Style::default().add_modifier(Modifier::BOLD)),
            Span::styled(format!(" {depth} "), dim),
            Span::raw(first),
        ]));
        for p in pieces.drain(..).skip(1) {
            lines.push(Line::raw(format!("  {p}")));
        }
    }
    f.render_widget(Paragraph::new(lines).block(b), area);
}

/// `text` cut at spaces into pieces of `first` characters, then `rest - 2`, at most `max`
/// pieces, the last one ending in `…` when something was left out.
fn fold(text: &str, first: usize, rest: usize, max: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let room = |n: usize| {
        if n == 0 {
            first
        } else {
            rest.saturating_sub(2).max(4)
        }
    };
    let mut words = text.split(' ').filter(|w| !w.is_empty()).peekable();
    while let Some(w) = words.next() {
        let need = cur.chars().count() + usize::from(!cur.is_empty()) + w.chars().count();
        if !cur.is_empty() && need > room(out.len()) {
            out.push(std::mem::take(&mut cur));
            if out.len() == max {
                if let Some(last) = out.last_mut() {
                    last.push('…');
                }
                return out;
            }
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(w);
        if words.peek().is_none() {
            out.push(std::mem::take(&mut cur));
        }
    }
    out
}

/// `1.2M`, `850k`, `42`.
fn human(v: u64) -> String {
    match v {
        0..10_000 => v.to_string(),
        10_000..10_000_000 => format!("{}k", v / 1000),
        _ => format!("{:.1}M", v as f64 / 1e6),
    }
}
