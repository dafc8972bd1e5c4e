//! Rendering decoded games as PGN (chess) and GGF (Othello), sans-IO: pure functions from the
//! [`crate::session`] model to text.

mod ggf;
mod pair;
mod pgn;

pub use ggf::{ggf_game, ggf_session};
pub use pair::{Exported, games as paired_games, without_id};
pub use pgn::{pgn_exported, pgn_game, pgn_session};

use crate::session::{Game, Session};

/// What the export knows about the session besides the games.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// PGN `Event` / GGF `PC`-style label.
    pub event: String,
    /// PGN `Site`.
    pub site: String,
    /// RFC 3339 start time of the recording (the date is taken from it).
    pub started: String,
}

/// The name to print for each side: the engine on the side(s) whose moves it sent, the GUI
/// on the other. An engine playing itself (python-chess `play` in a loop) gets both.
pub(crate) fn players(session: &Session, game: &Game) -> (String, String) {
    let engine = session
        .engine_name
        .clone()
        .unwrap_or_else(|| "engine".to_owned());
    let (white, black) = pair::engine_colours(game);
    if !white && !black {
        return ("?".to_owned(), "?".to_owned());
    }
    let name = |engine_plays: bool| {
        if engine_plays {
            engine.clone()
        } else {
            "GUI".to_owned()
        }
    };
    // Othello lists Black first: callers map (first colour, second colour) themselves.
    match game.kind {
        crate::session::GameKind::Chess => (name(white), name(black)),
        crate::session::GameKind::Othello => (name(black), name(white)),
    }
}

/// `2024-05-01T...` -> `2024.05.01`, `????.??.??` when unknown.
pub(crate) fn pgn_date(started: &str) -> String {
    let d = started.get(..10).unwrap_or("");
    let ok = d.len() == 10
        && d.bytes().enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            _ => b.is_ascii_digit(),
        });
    if ok && !d.starts_with("1970") {
        d.replace('-', ".")
    } else {
        "????.??.??".to_owned()
    }
}
