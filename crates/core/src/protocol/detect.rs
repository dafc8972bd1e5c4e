//! Protocol detection from the first lines of a session.
//!
//! The GUI's opening word decides (`uci`, `xboard`/`protover`, `nboard`). GUIs that probe
//! (Arena's "Auto" type sends `xboard`, then `uci` when the engine does not answer) send several
//! opening words: then the one the engine's answers confirm wins. Sessions recorded mid-way have
//! no opening word: the vocabulary of either side decides, strongest evidence first.

use super::{Dir, Protocol};

/// The detected protocol and the index (in the given sequence) of the line that decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Detection {
    pub protocol: Protocol,
    pub line: usize,
    /// Why: e.g. "GUI sent 'uci'", "engine sent 'uciok'".
    pub reason: &'static str,
}

/// Opening words of the GUI.
fn handshake(line: &str) -> Option<(Protocol, &'static str)> {
    let mut t = line.split_ascii_whitespace();
    match t.next()? {
        "uci" => Some((Protocol::Uci, "GUI sent 'uci'")),
        "xboard" => Some((Protocol::Cecp, "GUI sent 'xboard'")),
        "protover" => Some((Protocol::Cecp, "GUI sent 'protover'")),
        "nboard" => Some((Protocol::Nboard, "GUI sent 'nboard'")),
        _ => None,
    }
}

/// Evidence strength: 2 = only this protocol says it, 1 = typical but shared or weak.
fn vocabulary(dir: Dir, line: &str) -> Option<(Protocol, u8, &'static str)> {
    let mut t = line.split_ascii_whitespace();
    let first = t.next()?;
    let second = t.next();
    Some(match dir {
        Dir::FromEngine => match (first, second) {
            ("uciok", _) => (Protocol::Uci, 2, "engine sent 'uciok'"),
            ("id", Some("name" | "author")) => (Protocol::Uci, 2, "engine sent 'id'"),
            ("bestmove", _) => (Protocol::Uci, 2, "engine sent 'bestmove'"),
            ("readyok", _) => (Protocol::Uci, 2, "engine sent 'readyok'"),
            ("info", Some("depth" | "string" | "score" | "nodes" | "currmove")) => {
                (Protocol::Uci, 2, "engine sent 'info'")
            }
            ("option", Some("name")) => (Protocol::Uci, 2, "engine sent 'option name'"),
            ("feature", _) => (Protocol::Cecp, 2, "engine sent 'feature'"),
            ("move", Some(_)) => (Protocol::Cecp, 2, "engine sent 'move'"),
            ("===", _) => (Protocol::Nboard, 2, "engine sent '==='"),
            ("set", Some("myname")) => (Protocol::Nboard, 2, "engine sent 'set myname'"),
            ("nodestats", _) => (Protocol::Nboard, 2, "engine sent 'nodestats'"),
            // NBoard engines answer ping with pong too, so this alone is weak.
            ("pong", _) => (Protocol::Cecp, 1, "engine sent 'pong'"),
            _ => return None,
        },
        Dir::ToEngine => match (first, second) {
            ("isready" | "ucinewgame" | "setoption" | "position", _) => {
                (Protocol::Uci, 2, "GUI sent a UCI command")
            }
            ("go", Some(_)) => (Protocol::Uci, 1, "GUI sent 'go' with parameters"),
            ("level" | "usermove" | "setboard" | "otim" | "new" | "force", _) => {
                (Protocol::Cecp, 2, "GUI sent a CECP command")
            }
            ("set", Some("game" | "depth" | "contempt")) => {
                (Protocol::Nboard, 2, "GUI sent an NBoard 'set'")
            }
            _ => return None,
        },
    })
}

/// Detects the protocol from a sequence of (direction, line). `None` when nothing tells.
pub fn detect<'a, I>(lines: I) -> Option<Detection>
where
    I: IntoIterator<Item = (Dir, &'a str)>,
{
    let mut d = Detector::default();
    for (dir, line) in lines {
        d.push(dir, line);
    }
    d.finish()
}

/// [`detect`] one line at a time, keeping what the lines showed rather than the lines.
#[derive(Debug, Default, Clone)]
pub struct Detector {
    /// First GUI opening word per protocol: (protocol, line index, why).
    opening: Vec<(Protocol, usize, &'static str)>,
    /// Best engine/GUI vocabulary evidence per protocol: (protocol, strength, line index, why).
    evidence: Vec<(Protocol, u8, usize, &'static str)>,
    lines: usize,
}

impl Detector {
    pub fn push(&mut self, dir: Dir, line: &str) {
        let i = self.lines;
        self.lines += 1;
        if dir == Dir::ToEngine
            && let Some((p, why)) = handshake(line)
        {
            if !self.opening.iter().any(|(q, _, _)| *q == p) {
                self.opening.push((p, i, why));
            }
            return;
        }
        if let Some((p, strength, why)) = vocabulary(dir, line)
            && !self
                .evidence
                .iter()
                .any(|(q, s, _, _)| *q == p && *s >= strength)
        {
            self.evidence.retain(|(q, _, _, _)| *q != p);
            self.evidence.push((p, strength, i, why));
        }
    }

    /// Lines pushed so far.
    pub fn lines(&self) -> usize {
        self.lines
    }

    pub fn finish(&self) -> Option<Detection> {
        let best_evidence = |among: &dyn Fn(Protocol) -> bool| {
            self.evidence
                .iter()
                .filter(|(p, _, _, _)| among(*p))
                .max_by_key(|(_, s, i, _)| (*s, std::cmp::Reverse(*i)))
                .copied()
        };
        match self.opening.as_slice() {
            [] => best_evidence(&|_| true).map(|(protocol, _, line, reason)| Detection {
                protocol,
                line,
                reason,
            }),
            [(protocol, line, reason)] => Some(Detection {
                protocol: *protocol,
                line: *line,
                reason,
            }),
            several => {
                let confirmed = best_evidence(&|p| several.iter().any(|(q, _, _)| *q == p))
                    .and_then(|e| several.iter().find(|(q, _, _)| *q == e.0).copied());
                let (protocol, line, reason) = confirmed.or(several.first().copied())?;
                Some(Detection {
                    protocol,
                    line,
                    reason,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Dir::{FromEngine as E, ToEngine as G};

    fn detect_lines(lines: &[(Dir, &str)]) -> Option<(Protocol, usize)> {
        detect(lines.iter().copied()).map(|d| (d.protocol, d.line))
    }

    #[test]
    fn gui_opening_word_decides() {
        assert_eq!(
            detect_lines(&[(E, "Stockfish 16 by the Stockfish developers"), (G, "uci")]),
            Some((Protocol::Uci, 1))
        );
        assert_eq!(
            detect_lines(&[(G, "xboard"), (G, "protover 2"), (E, "feature done=1")]),
            Some((Protocol::Cecp, 0))
        );
        assert_eq!(
            detect_lines(&[(G, "nboard 2"), (G, "set depth 6"), (E, "pong 1")]),
            Some((Protocol::Nboard, 0))
        );
    }

    #[test]
    fn arena_auto_probe_is_decided_by_the_engine_answer() {
        // arena__igel-185: Arena sends xboard, then uci; a UCI engine answers uciok.
        let lines = [
            (G, "xboard"),
            (E, "Igel 2.8.0 64 BMI2 AVX2 by V. Medvedev, V. Shcherbyna"),
            (G, "uci"),
            (E, "id name Igel 2.8.0"),
            (E, "uciok"),
        ];
        assert_eq!(detect_lines(&lines), Some((Protocol::Uci, 2)));
        // Without any engine answer the first opening word stands.
        assert_eq!(
            detect_lines(&[(G, "xboard"), (G, "uci")]),
            Some((Protocol::Cecp, 0))
        );
    }

    #[test]
    fn mid_session_logs_fall_back_to_vocabulary() {
        assert_eq!(
            detect_lines(&[
                (G, "position startpos moves e2e4"),
                (G, "go wtime 1 btime 1")
            ]),
            Some((Protocol::Uci, 0))
        );
        assert_eq!(
            detect_lines(&[(E, "pong 1"), (E, "=== d6 -1.00 0.0")]),
            Some((Protocol::Nboard, 1))
        );
        assert_eq!(
            detect_lines(&[(E, "tellics say Fairy-Max"), (E, "feature myname=\"x\"")]),
            Some((Protocol::Cecp, 1))
        );
        assert_eq!(detect_lines(&[(E, "hello"), (G, "")]), None);
    }
}
