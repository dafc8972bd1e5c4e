//! Marker transcripts: a direction glyph, a space, the line.
//!
//! - Stockfish "Debug Log File" (engine side): `>> ` received (GUI → engine), `<< ` sent.
//! - NBoard: `< `/`> `, with NBoard 2's blank line on each direction change; the NBoard
//!   document contradicts itself about which glyph is which, so the vocabulary decides.
//! - Plain transcripts (uci-proxy-gen `> `/`< `, Substitute `hh:nn:ss:zzz >> `, hand-made
//!   `>>>`...): the vocabulary decides which glyph is the GUI; with no evidence `>` is the GUI
//!   (the most common convention: xboard, cutechess, Arena, Stockfish, lc0, uci-proxy-gen).
//!
//! Vocabulary: every line's first word is classified as GUI-only or engine-only
//! (`vocab::side_of`); the glyph whose lines more often look like GUI commands is the GUI one.
//! A `** ` line (Substitute) is a note. Lines with no marker are unclassified.

use super::Parser;
use crate::import::builder::Builder;
use crate::import::clock::{Stamp, time_of_day};
use crate::import::lines::{Lines, trim_start};
use crate::import::vocab::{Side, side_of};
use crate::recording::{ProxyKind, Source};

pub struct Transcript {
    /// Is `>` (and `>>`, `>>>`) the GUI → engine direction?
    gt_is_gui: bool,
    label: &'static str,
    /// NBoard 2's `<< (name) cmd` summary lines are notes, not traffic.
    nboard: bool,
}

/// → (stamp, glyph is `>`, payload).
pub fn split(line: &[u8]) -> Option<(Option<i128>, bool, &[u8])> {
    let (tod, rest) = match time_of_day(line) {
        Some((tod, used)) if line.get(used) == Some(&b' ') => (Some(tod), line.get(used + 1..)?),
        _ => (None, line),
    };
    let glyph = *rest.first()?;
    if glyph != b'>' && glyph != b'<' {
        return None;
    }
    let n = rest.iter().take_while(|&&c| c == glyph).count();
    if n > 3 {
        return None;
    }
    let after = rest.get(n..)?;
    let payload = match after.strip_prefix(b" ") {
        Some(p) => p,
        None if after.is_empty() => after,
        None => return None,
    };
    Some((tod, glyph == b'>', payload))
}

/// Votes: how often `>` lines look like GUI commands vs engine lines, and the same for `<`.
pub fn orientation(data: &[u8]) -> Option<bool> {
    let mut score: i64 = 0; // > 0: `>` is the GUI.
    for line in Lines::new(data).take(5000) {
        let Some((_, gt, payload)) = split(line.bytes) else {
            continue;
        };
        let Some(side) = std::str::from_utf8(payload).ok().and_then(side_of) else {
            continue;
        };
        let vote = match (gt, side) {
            (true, Side::Gui) | (false, Side::Engine) => 1,
            _ => -1,
        };
        score += vote;
    }
    match score {
        0 => None,
        s => Some(s > 0),
    }
}

impl Transcript {
    pub fn stockfish() -> Self {
        Transcript {
            gt_is_gui: true,
            label: "engine",
            nboard: false,
        }
    }

    pub fn by_vocabulary(data: &[u8]) -> Self {
        Transcript {
            gt_is_gui: orientation(data).unwrap_or(true),
            label: "engine",
            nboard: false,
        }
    }

    pub fn nboard(data: &[u8]) -> Self {
        // NBoard 2 (Java) writes `< ` to the engine.
        Transcript {
            gt_is_gui: orientation(data).unwrap_or(false),
            label: "engine",
            nboard: true,
        }
    }
}

impl Parser for Transcript {
    fn line(&mut self, line: &[u8], b: &mut Builder) {
        let sid = b.session(self.label);
        if let Some((tod, gt, payload)) = split(line) {
            let t = b.t(tod.map(Stamp::TimeOfDay));
            // NBoard 2's EngineSynchronizer summaries: `<< (name) go`, `>> (name)response`.
            if self.nboard && (line.starts_with(b"<< (") || line.starts_with(b">> (")) {
                b.proxy(sid, ProxyKind::Note, t, line);
                return;
            }
            let src = if gt == self.gt_is_gui {
                Source::Gui
            } else {
                Source::Engine
            };
            b.traffic(sid, src, t, payload);
            return;
        }
        let (tod, rest) = match time_of_day(line) {
            Some((tod, used)) => (Some(tod), trim_start(line.get(used..).unwrap_or(&[]))),
            None => (None, line),
        };
        let t = b.t(tod.map(Stamp::TimeOfDay));
        if let Some(note) = rest.strip_prefix(b"** ") {
            b.proxy(sid, ProxyKind::Note, t, note);
        } else {
            b.unclassified(line, "no `>`/`<` direction marker");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyphs_and_orientation() {
        assert_eq!(split(b">> uci"), Some((None, true, &b"uci"[..])));
        assert_eq!(split(b"<< uciok"), Some((None, false, &b"uciok"[..])));
        assert_eq!(
            split(b"12:00:01:123 >> go"),
            Some((Some(43_201_123_000_000), true, &b"go"[..]))
        );
        assert_eq!(split(b">>>> x"), None);
        assert_eq!(split(b">x"), None);
        // python-chess orientation: `<<` is what the GUI sent.
        assert_eq!(
            orientation(b"<< uci\n>> uciok\n<< isready\n>> readyok\n"),
            Some(false)
        );
        assert_eq!(orientation(b">> uci\n<< id name SF\n"), Some(true));
        assert_eq!(orientation(b"> hello\n"), None);
    }
}
