//! Parsing lines ahead of the decoder, on the thread that reads the input: parsing a line into
//! its message depends only on the protocol, the direction and the text, so it can be done
//! before the decoder gets there, and on a long input it is a good part of the decoding.
//!
//! The protocol is the one the session's first GUI or engine line says, as streaming
//! detection would take it. The decoder uses a message parsed ahead only when it decodes
//! that line under the same protocol and direction ([`super::Decoder::push_ahead_into`]), and
//! parses the line itself otherwise, so what the decoder makes of a line never depends on it.

use crate::protocol::{self, Diagnostic, Dir, Msg, Protocol, Spare};
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
        }
    }
}

/// Parses the GUI and engine lines of an input ahead of its decoder.
#[derive(Default)]
pub struct Ahead {
    /// Per session label: the protocol its first GUI or engine line says, if it says one.
    per: Vec<(Option<String>, Option<Protocol>)>,
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
                .rposition(|(l, _)| l.as_deref() == label)
                .unwrap_or_else(|| {
                    let first = protocol::detect([(dir, ev.text.as_str())]).map(|d| d.protocol);
                    per.push((label.map(str::to_owned), first));
                    per.len() - 1
                })
        });
        let protocol = self.per.get(i)?.1?;
        if !eager {
            return None;
        }
        let (msg, diags) = protocol::parse_reusing(protocol, dir, &ev.text, &mut self.spare);
        Some(Parsed {
            protocol,
            dir,
            msg,
            diags,
            text: super::LineText::of(&ev.text),
        })
    }

    /// Takes back a message the decoder is done with, so later lines reuse what it owns.
    pub fn reclaim(&mut self, msg: Msg) {
        self.spare.reclaim(msg);
    }
}
