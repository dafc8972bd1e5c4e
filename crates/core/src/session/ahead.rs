//! Parsing lines ahead of the decoder, on the thread that reads the input: parsing a line into
//! its message depends only on the protocol, the direction and the text, so it can be done
//! before the decoder gets there, and on a long input it is a good part of the decoding.
//!
//! The protocol is the one the session's first GUI or engine line says, as streaming
//! detection would take it. The decoder uses a message parsed ahead only when it decodes
//! that line under the same protocol and direction ([`super::Decoder::push_ahead_into`]), and
//! parses the line itself otherwise, so what the decoder makes of a line never depends on it.
//!
//! A UCI engine's PVs are checked here too, from the standard chess position of the GUI's last
//! `position` command ([`PvAhead`]): on a long analysis that check is a good part of the
//! decoding as well. The verdict names the position it holds for, and the decoder takes it only
//! for the same position ([`super::pv::PvCache::agrees`]).

use super::pv::{PvCache, RootKey};
use crate::game::{ChessVariant, PositionCache};
use crate::protocol::{self, Diagnostic, Dir, Msg, Protocol, Spare, uci};
use crate::recording::{Event, Source};

/// A line parsed ahead: what [`protocol::parse_reusing`] gives for it under `protocol`.
#[derive(Debug)]
pub struct Parsed {
    pub protocol: Protocol,
    pub dir: Dir,
    pub msg: Msg,
    pub diags: Vec<Diagnostic>,
    /// The byte rules' facts about the text, worked out here while the text is at hand.
    pub text: super::LineText,
    /// For a UCI `info` line: every move of its PV is legal from the position with this key.
    pub pv_legal_from: Option<RootKey>,
}

impl Parsed {
    /// A message the decoder is done with, on its way back to the parser that made it (in the
    /// slot its line came in: see `input::pipeline::Slot::give_back`). Only `msg` means
    /// anything.
    pub fn returned(msg: Msg) -> Parsed {
        Parsed {
            protocol: Protocol::Uci,
            dir: Dir::FromEngine,
            msg,
            diags: Vec::new(),
            text: super::LineText::default(),
            pv_legal_from: None,
        }
    }
}

/// One UCI session's PVs checked ahead: the position of its GUI's last `position` command,
/// played as standard chess (a session in another variant or in Chess960 gets keys its
/// decoder's positions never have), and the PV cache over it.
#[derive(Default)]
struct PvAhead {
    positions: PositionCache,
    /// Bumped with every `position` command, for the PV cache.
    root_id: u64,
    /// `None` when the last command did not set up a position.
    key: Option<RootKey>,
    pv: PvCache,
}

impl PvAhead {
    fn position(&mut self, p: &uci::Position) {
        self.root_id += 1;
        let set = self.positions.apply(
            p.fen.as_deref(),
            p.moves.as_str(),
            &ChessVariant::Standard,
            false,
        );
        self.key = match set {
            Ok(_) => self.positions.board().and_then(RootKey::of),
            Err(_) => None,
        };
    }

    fn info(&mut self, info: &uci::Info) -> Option<RootKey> {
        // The decoder leaves the other lines of a multi-PV search unchecked: checking them
        // here would only make the cache forget the main line.
        if info.multipv.is_some_and(|n| n > 1) {
            return None;
        }
        let (key, pv, board) = (self.key?, info.pv.as_ref()?, self.positions.board()?);
        self.pv
            .verify(self.root_id, board, pv.as_str())
            .then_some(key)
    }
}

/// Sessions whose PVs are checked ahead at a time. A tournament log brings two sessions a
/// game, and only those in play need a board: the least recently used one is forgotten (a
/// session that comes back starts afresh, which costs time, never a verdict).
const PV_SESSIONS: usize = 32;

/// Parses the GUI and engine lines of an input ahead of its decoder.
#[derive(Default)]
pub struct Ahead {
    /// Per session label: the protocol its first GUI or engine line says, if it says one.
    per: Vec<(Option<String>, Option<Protocol>)>,
    last: super::last_session::LastSession,
    spare: Spare,
    /// PVs checked ahead, per session (its index in `per`), with when each was last used.
    pvs: Vec<(usize, u64, PvAhead)>,
    /// Where in `pvs` the last session used is: runs of lines of one session find it there.
    last_pvs: usize,
    uses: u64,
}

impl Ahead {
    /// The line's message under the protocol its session seems to speak; `None` for other
    /// events and for sessions whose first line said nothing, and when not `eager` (the
    /// session is still learnt from the line: the decoder parses it itself).
    pub fn parse(&mut self, ev: &Event, eager: bool) -> Option<Parsed> {
        let dir = match ev.src {
            Source::Gui => Dir::ToEngine,
            Source::Engine => Dir::FromEngine,
            Source::Stderr | Source::Proxy => return None,
        };
        let per = &mut self.per;
        let i = self.last.index(&ev.session, |label| {
            per.iter()
                .rposition(|(l, _)| l.as_deref() == label)
                .unwrap_or_else(|| {
                    let first = protocol::detect([(dir, ev.text.as_str())]).map(|d| d.protocol);
                    per.push((label.map(str::to_owned), first));
                    per.len() - 1
                })
        });
        let protocol = self.per.get(i)?.1?;
        if !eager {
            // A `position` command left to the decoder leaves these verdicts with a stale key,
            // which no decoder position has.
            return None;
        }
        let (msg, diags) = protocol::parse_reusing(protocol, dir, &ev.text, &mut self.spare);
        let pv_legal_from = match &msg {
            Msg::Uci(uci::Msg::Position(p)) if dir == Dir::ToEngine => {
                self.pvs_of(i).position(p);
                None
            }
            Msg::Uci(uci::Msg::Info(info)) if dir == Dir::FromEngine => self.pvs_of(i).info(info),
            _ => None,
        };
        Some(Parsed {
            protocol,
            dir,
            msg,
            diags,
            text: super::LineText::of(&ev.text),
            pv_legal_from,
        })
    }

    /// The PVs checked ahead for session `i`, made (in place of the least recently used
    /// session's, when [`PV_SESSIONS`] have some) if it has none.
    fn pvs_of(&mut self, i: usize) -> &mut PvAhead {
        self.uses += 1;
        let k = match self.pvs.get(self.last_pvs) {
            Some((s, ..)) if *s == i => self.last_pvs,
            _ => match self.pvs.iter().position(|(s, ..)| *s == i) {
                Some(k) => k,
                None if self.pvs.len() < PV_SESSIONS => {
                    self.pvs.push((i, 0, PvAhead::default()));
                    self.pvs.len() - 1
                }
                None => {
                    let k = (0..self.pvs.len())
                        .min_by_key(|&k| self.pvs[k].1)
                        .unwrap_or(0);
                    self.pvs[k] = (i, 0, PvAhead::default());
                    k
                }
            },
        };
        self.last_pvs = k;
        let entry = &mut self.pvs[k];
        entry.1 = self.uses;
        &mut entry.2
    }

    /// Takes back a message the decoder is done with, so later lines reuse what it owns.
    pub fn reclaim(&mut self, msg: Msg) {
        self.spare.reclaim(msg);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(session: &str, src: Source, text: &str) -> Event {
        let mut ev = Event::line(1, 0, src, text);
        ev.session = Some(session.into());
        ev
    }

    /// Plays one search of `session` through `ahead`: whether its PV was vouched for.
    fn search(ahead: &mut Ahead, session: &str) -> bool {
        for text in ["position startpos moves e2e4", "go movetime 100"] {
            ahead.parse(&line(session, Source::Gui, text), true);
        }
        let info = line(
            session,
            Source::Engine,
            "info depth 1 score cp 20 pv e7e5 g1f3",
        );
        ahead
            .parse(&info, true)
            .is_some_and(|p| p.pv_legal_from.is_some())
    }

    #[test]
    fn only_the_sessions_in_play_keep_a_board() {
        let mut ahead = Ahead::default();
        for s in 0..100 {
            assert!(search(&mut ahead, &format!("E({s})")), "session {s}");
        }
        assert_eq!(ahead.pvs.len(), PV_SESSIONS);
        // The oldest went first; the last ones are kept.
        assert!(ahead.pvs.iter().all(|(s, ..)| *s >= 100 - PV_SESSIONS));
        // A forgotten session that comes back starts afresh and is vouched for again.
        assert!(search(&mut ahead, "E(0)"));
        assert!(ahead.pvs.iter().any(|(s, ..)| *s == 0));
        assert!(!ahead.pvs.iter().any(|(s, ..)| *s == 100 - PV_SESSIONS));
        // Two sessions taking turns keep theirs.
        for _ in 0..3 {
            assert!(search(&mut ahead, "E(98)") && search(&mut ahead, "E(99)"));
        }
        assert_eq!(ahead.pvs.len(), PV_SESSIONS);
    }
}
