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

/// Parses the GUI and engine lines of an input ahead of its decoder.
#[derive(Default)]
pub struct Ahead {
    /// Per session label: the protocol its first GUI or engine line says, if it says one, and
    /// its PVs checked ahead.
    per: Vec<(Option<String>, Option<Protocol>, PvAhead)>,
    last: super::last_session::LastSession,
    spare: Spare,
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
                .rposition(|(l, _, _)| l.as_deref() == label)
                .unwrap_or_else(|| {
                    let first = protocol::detect([(dir, ev.text.as_str())]).map(|d| d.protocol);
                    per.push((label.map(str::to_owned), first, PvAhead::default()));
                    per.len() - 1
                })
        });
        let (_, protocol, pvs) = self.per.get_mut(i)?;
        let protocol = (*protocol)?;
        if !eager {
            // A `position` command left to the decoder leaves these verdicts with a stale key,
            // which no decoder position has.
            return None;
        }
        let (msg, diags) = protocol::parse_reusing(protocol, dir, &ev.text, &mut self.spare);
        let pv_legal_from = match &msg {
            Msg::Uci(uci::Msg::Position(p)) if dir == Dir::ToEngine => {
                pvs.position(p);
                None
            }
            Msg::Uci(uci::Msg::Info(info)) if dir == Dir::FromEngine => pvs.info(info),
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

    /// Takes back a message the decoder is done with, so later lines reuse what it owns.
    pub fn reclaim(&mut self, msg: Msg) {
        self.spare.reclaim(msg);
    }
}
