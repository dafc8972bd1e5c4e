//! What the board and search panes show at a line, looked up in the decoded session (the
//! games' plies and searches) and computed when the cursor lands there.

use super::doc::Doc;
use crate::game::{ChessBoard, ChessVariant};
use crate::session::{Game, GameKind, Session};

/// The board after a line.
#[derive(Debug, Clone, PartialEq)]
pub struct Position {
    pub kind: GameKind,
    /// FEN (chess) or the GGF board (`8 ---...--- *`, Othello): what `y` copies.
    pub text: String,
    /// Rank 8 (row 1 for Othello) first; `.` empty; chess letters, Othello `*` black `O` white.
    pub cells: Vec<Vec<char>>,
    /// `White`/`Black` to move, when the text says.
    pub to_move: Option<&'static str>,
    /// Squares of the last move as (file, rank-from-top) indices.
    pub last: Vec<(usize, usize)>,
    /// The last move in SAN (chess) or as sent.
    pub last_san: Option<String>,
    pub ply: usize,
    pub game: usize,
}

pub(crate) fn session_of(doc: &Doc, r: usize) -> Option<&Session> {
    doc.decoder()
        .session(usize::from(doc.rows.get(r)?.session()))
}

pub(crate) fn game_at(s: &Session, game: usize) -> Option<&Game> {
    s.games.get(game)
}

/// The board after row `r`, when the line is inside a game with a known board.
pub fn position_at(doc: &Doc, r: usize) -> Option<Position> {
    let p = doc.pos(r)?;
    let g = game_at(session_of(doc, r)?, p.game)?;
    let text = g.position_after(p.ply)?;
    let last_ply = p.ply.checked_sub(1).and_then(|i| g.plies.get(i));
    let last_san = last_ply.map(|x| x.san().unwrap_or(x.text()).to_owned());
    let canonical = last_ply
        .and_then(|x| x.canonical().map(str::to_owned))
        .unwrap_or_default();
    let (cells, to_move, last) = match g.kind {
        GameKind::Chess => {
            let placement = text.split(' ').next().unwrap_or("");
            let mut cells = Vec::new();
            for rank in placement.split('/') {
                let mut row = Vec::new();
                for c in rank.chars() {
                    match c.to_digit(10) {
                        Some(n) => row.extend(std::iter::repeat_n('.', n as usize)),
                        None if c.is_ascii_alphabetic() => row.push(c),
                        None => {}
                    }
                }
                cells.push(row);
            }
            let to_move = match text.split(' ').nth(1) {
                Some("w") => Some("White"),
                Some("b") => Some("Black"),
                _ => None,
            };
            let squares = [canonical.get(0..2), canonical.get(2..4)];
            let last = squares.iter().flatten().filter_map(|s| square(s)).collect();
            (cells, to_move, last)
        }
        GameKind::Othello => {
            let mut parts = text.split(' ');
            let board: Vec<char> = parts.next().unwrap_or("").chars().collect();
            let cells = board
                .chunks(8)
                .map(|c| c.iter().map(|&x| if x == '-' { '.' } else { x }).collect())
                .collect();
            let to_move = match parts.next() {
                Some("*") => Some("Black"),
                Some("O") => Some("White"),
                _ => None,
            };
            let last = square(&canonical.to_ascii_lowercase())
                .into_iter()
                .map(|(f, r)| (f, 7 - r))
                .collect();
            (cells, to_move, last)
        }
    };
    Some(Position {
        kind: g.kind,
        text: match g.kind {
            GameKind::Chess => text,
            // The GGF `BO` form NBoard uses: what other Othello tools read.
            GameKind::Othello => format!("8 {text}"),
        },
        cells,
        to_move,
        last,
        last_san,
        ply: p.ply,
        game: p.game,
    })
}

/// `e4` as (file, rank from the top).
fn square(s: &str) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    let (f, r) = (*b.first()?, *b.get(1)?);
    if !(b'a'..=b'h').contains(&f) || !(b'1'..=b'8').contains(&r) {
        return None;
    }
    Some((usize::from(f - b'a'), 7 - usize::from(r - b'1')))
}

/// `pv` (UCI moves) as SAN with move numbers from the position after `ply` plies of `g`;
/// `None` when the board or a move does not replay.
pub(crate) fn san_line(g: &Game, ply: usize, pv: &str) -> Option<String> {
    let fen = g.position_after(ply)?;
    let mut b = ChessBoard::from_fen(&fen, ChessVariant::from_cecp(&g.variant), g.chess960).ok()?;
    let mut out = String::new();
    for (i, mv) in pv.split_ascii_whitespace().enumerate() {
        let white = b.turn() == crate::game::Side::White;
        let n = b.fullmove();
        let played = b.play_uci(mv).ok()?;
        if white {
            out.push_str(&format!("{n}. "));
        } else if i == 0 {
            out.push_str(&format!("{n}... "));
        }
        out.push_str(&played.san);
        out.push(' ');
    }
    Some(out.trim_end().to_owned())
}

/// Evaluations of a game's plies from White's (chess) or Black's (Othello, first to move)
/// point of view, in pawns or discs, mates clamped to ±`clamp`: (ply, value).
pub fn eval_series(doc: &Doc, r: usize, clamp: f64) -> Option<(Vec<(f64, f64)>, usize)> {
    let p = doc.pos(r)?;
    let g = game_at(session_of(doc, r)?, p.game)?;
    let first_is_second_player = g
        .start
        .as_deref()
        .is_some_and(|s| s.split(' ').nth(1) == Some("b") || s.ends_with(" O"));
    let pts = g
        .plies
        .iter()
        .enumerate()
        .filter_map(|(i, ply)| {
            let e = ply.eval?;
            let v = match e {
                crate::session::Eval::Cp(cp) => cp as f64 / 100.0,
                crate::session::Eval::Mate(m) => {
                    if m >= 0 {
                        clamp
                    } else {
                        -clamp
                    }
                }
                crate::session::Eval::Discs(d) => d,
            };
            // The engine scores its own move: flip for the second player.
            let second = (i % 2 == 1) != first_is_second_player;
            let v = if second { -v } else { v };
            Some(((i + 1) as f64, v.clamp(-clamp, clamp)))
        })
        .collect();
    Some((pts, p.ply))
}
