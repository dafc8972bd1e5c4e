//! The runner's games (its PGN) beside the engines' recordings: UCI carries no result, so an
//! engine-side recording cannot know how its game ended; the runner's PGN, which a tournament
//! always has, can. Each recorded game is matched to the runner's game it was (same start, its
//! moves the runner's, the engine's name on its side, inside the game's start and end times)
//! and takes the result and the runner's reason from there.
//!
//! The PGNs are read before the recordings are judged; matching is done from every worker at
//! once, so the games a recording matched are marked with atomics.

use crate::game::Side;
use crate::game::pgn::{self, PgnGame};
use anyhow::{Context, Result};
use std::collections::HashMap;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// The standard start, as the key of games without a `FEN` tag.
const STANDARD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

/// How far outside a runner's game times a recorded game may lie: PGN times are whole seconds,
/// and the runner and the proxy read the clock at different moments.
const SLACK_NS: i128 = 3_000_000_000;

/// One game of the runner.
#[derive(Debug)]
pub struct RunnerGame {
    /// The PGN file, as the report names it, and the game's first line in it.
    pub file: String,
    pub line: u64,
    /// The runner's names for the players (`White`, `Black`) and the engines' own
    /// (`EngineWhiteName`... as fastchess writes them).
    pub players: [String; 2],
    pub engines: [Option<String>; 2],
    pub result: String,
    pub reason: String,
    /// How kibitzer's board says the game ended after the runner's moves (`checkmate`,
    /// `stalemate`...), when it did.
    pub board_end: Option<&'static str>,
    start: String,
    moves: Vec<String>,
    /// The moves could be followed to the end.
    followed: bool,
    /// Start and end, Unix ns, when the PGN gives them.
    window: Option<(i128, i128)>,
    matched: [AtomicBool; 2],
}

impl RunnerGame {
    fn from_pgn(file: &str, g: &PgnGame) -> RunnerGame {
        let (moves, followed, board_end) = match g.played() {
            Ok((m, end)) => (m, true, end),
            Err((m, _)) => (m, false, None),
        };
        let time = |tag: &str| g.tag(tag).and_then(pgn_time);
        let window = match (time("GameStartTime"), time("GameEndTime")) {
            (Some(a), Some(b)) => Some((a, b.max(a))),
            _ => None,
        };
        RunnerGame {
            file: file.to_owned(),
            line: g.line,
            players: [
                g.tag("White").unwrap_or_default().to_owned(),
                g.tag("Black").unwrap_or_default().to_owned(),
            ],
            engines: [
                g.tag("EngineWhiteName").map(str::to_owned),
                g.tag("EngineBlackName").map(str::to_owned),
            ],
            result: g.result().to_owned(),
            reason: g.reason(),
            board_end,
            start: g.fen().map_or_else(|| STANDARD.to_owned(), position_key),
            moves,
            followed,
            window,
            matched: [AtomicBool::new(false), AtomicBool::new(false)],
        }
    }

    /// Whether the engine named so played `side` here.
    fn names(&self, side: Side, engine: Option<&str>, label: Option<&str>) -> bool {
        let i = side_index(side);
        engine.is_some_and(|e| self.engines[i].as_deref() == Some(e) || self.players[i] == e)
            || label.is_some_and(|l| self.players[i] == l)
    }
}

/// A game as one engine's session saw it, to find among the runner's.
pub struct Seen<'a> {
    /// The start position's FEN (`None`: the standard start).
    pub start: Option<&'a str>,
    /// Its moves as UCI, in the board's convention.
    pub moves: Vec<&'a str>,
    /// `id name` and the session's label (without a runner's `[thread K]`...).
    pub engine: Option<&'a str>,
    pub label: Option<&'a str>,
    /// The engine's colour, when the session knows it.
    pub side: Option<Side>,
    /// First and last moment of the game, Unix ns, when the input has a date.
    pub window: Option<(i128, i128)>,
}

/// Every runner game read, indexed by start position.
#[derive(Debug, Default)]
pub struct RunnerGames {
    games: Vec<RunnerGame>,
    by_start: HashMap<String, Vec<usize>>,
    /// The PGN files read, as named in the report.
    pub files: Vec<String>,
}

impl RunnerGames {
    /// Reads the runner's games in `path` (plain or gzipped PGN).
    pub fn read(&mut self, path: &Path, shown: &str) -> Result<()> {
        let text = read_text(path).with_context(|| format!("cannot read {shown}"))?;
        let games = pgn::games(&text);
        if games.is_empty() {
            anyhow::bail!("{shown}: no PGN game in it");
        }
        for g in &games {
            let game = RunnerGame::from_pgn(shown, g);
            self.by_start
                .entry(game.start.clone())
                .or_default()
                .push(self.games.len());
            self.games.push(game);
        }
        self.files.push(shown.to_owned());
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// The runner's games no recording was matched to.
    pub fn unmatched(&self) -> impl Iterator<Item = &RunnerGame> {
        self.games
            .iter()
            .filter(|g| !g.matched.iter().any(|m| m.load(Ordering::Relaxed)))
    }

    /// The runner's game `seen` was, and the engine's side in it. Its moves must be the
    /// runner's (one move more at most: a move the runner did not take, sent after it had
    /// ended the game); when the game's times are known on both sides they must overlap. A
    /// game the engine's name is on is preferred; without one, only a game whose moves and
    /// times leave no doubt (several moves, one candidate) is taken. Each side of a game is
    /// given out once.
    pub fn find(&self, seen: &Seen) -> Option<(&RunnerGame, Side)> {
        let key = seen.start.map_or_else(|| STANDARD.to_owned(), position_key);
        let candidates = self.by_start.get(&key)?;
        let fits = |g: &RunnerGame| {
            let moves_fit = seen.moves.len() <= g.moves.len() + 1
                && seen
                    .moves
                    .iter()
                    .zip(&g.moves)
                    .all(|(a, b)| *a == b.as_str())
                && (g.followed || seen.moves.len() <= g.moves.len());
            let times_fit = match (seen.window, g.window) {
                (Some((a, b)), Some((s, e))) => a >= s - SLACK_NS && b <= e + SLACK_NS,
                _ => true,
            };
            // A game with no move of its own proves nothing by its moves: only its times can.
            let evidence = !seen.moves.is_empty() || (seen.window.is_some() && g.window.is_some());
            moves_fit && times_fit && evidence
        };
        let sides: &[Side] = match seen.side {
            Some(Side::White) => &[Side::White],
            Some(Side::Black) => &[Side::Black],
            None => &[Side::White, Side::Black],
        };
        let free = |g: &RunnerGame, side: Side| {
            g.matched[side_index(side)]
                .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        };
        for &i in candidates {
            let g = &self.games[i];
            if !fits(g) {
                continue;
            }
            for &side in sides {
                if g.names(side, seen.engine, seen.label) && free(g, side) {
                    return Some((g, side));
                }
            }
        }
        // No name to go by (a runner naming engines its own way, a recording without a
        // label): only an unambiguous game.
        let side = seen.side?;
        if seen.moves.len() < 8 || seen.window.is_none() {
            return None;
        }
        let mut fitting = candidates
            .iter()
            .map(|&i| &self.games[i])
            .filter(|g| fits(g));
        let g = fitting.next()?;
        if fitting.next().is_some() || !free(g, side) {
            return None;
        }
        Some((g, side))
    }
}

fn side_index(side: Side) -> usize {
    match side {
        Side::White => 0,
        Side::Black => 1,
    }
}

/// The placement, side, castling and en passant fields: move counters differ between
/// writers (a runner's PGN restarts them at `0 1`).
fn position_key(fen: &str) -> String {
    fen.split_ascii_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `2026-11-29T02:58:40 +0000` (fastchess), `2026-11-29T02:58:40Z`, as Unix ns.
fn pgn_time(text: &str) -> Option<i128> {
    let t = text.trim();
    let parsed = chrono::DateTime::parse_from_str(t, "%Y-%m-%dT%H:%M:%S %z")
        .or_else(|_| chrono::DateTime::parse_from_rfc3339(t))
        .ok()?;
    parsed.timestamp_nanos_opt().map(i128::from)
}

/// An RFC 3339 time as Unix ns.
pub fn unix_ns(rfc3339: &str) -> Option<i128> {
    chrono::DateTime::parse_from_rfc3339(rfc3339)
        .ok()?
        .timestamp_nanos_opt()
        .map(i128::from)
}

fn read_text(path: &Path) -> std::io::Result<String> {
    let mut bytes = std::fs::read(path)?;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(bytes.as_slice()).read_to_end(&mut out)?;
        bytes = out;
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Whether a file is a PGN: by its name (`.pgn`, `.pgn.gz`) or, for a file named on the
/// command line, by its first line being a tag pair.
pub fn is_pgn(path: &Path, look_inside: bool) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if name.ends_with(".pgn") || name.ends_with(".pgn.gz") {
        return true;
    }
    if !look_inside {
        return false;
    }
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::new();
    if file.take(4096).read_to_end(&mut head).is_err() {
        return false;
    }
    let text = String::from_utf8_lossy(&head);
    let first = text
        .trim_start_matches('\u{feff}')
        .lines()
        .find(|l| !l.trim().is_empty());
    first.is_some_and(|l| {
        let l = l.trim();
        l.starts_with("[Event \"") || l.starts_with("[White \"") || l.starts_with("[Site \"")
    })
}
