//! The decoded session, sans-IO: one model that every front end uses (decode, export, and
//! later check, view and replay).
//!
//! Events are split by their `session` label (a recording has none: one session). Per session
//! the protocol is detected (or given), every traffic line is decoded with
//! [`crate::protocol::parse`], and the session state follows it: handshake, features and
//! options, obligations (request -> expected answer), games with their boards, searches,
//! clocks and modes. What is off on a line becomes a [`Breach`] on that line.
//!
//! [`Decoder`] streams (one event in, one [`Decoded`] out, flat memory with
//! `retain_history(false)`); [`decode`] builds the whole model, lines included.

mod ahead;
mod cecp;
mod decoder;
mod last_session;
mod line_text;
mod model;
mod move_text;
mod nboard;
mod pv;
mod uci;
pub mod verdicts;

#[cfg(test)]
pub(crate) mod tests;

pub use ahead::{Ahead, Parsed};
pub use decoder::{Decoded, Decoder, EarlierLine};
pub use line_text::{LineText, RanTogether};
pub use model::{
    At, Breach, Clocks, Eval, Fact, FeatureState, Game, GameKind, GameOutcome, Gap, GoLimits,
    Handshake, Line, Modes, Mover, Obligation, OptionSet, OutcomeBy, Owed, Party, Ply, PosRef,
    Request, RunnerResult, Search, SearchReport, Session, Severity,
};

use crate::protocol::{self, Dir, Protocol};
use crate::recording::{Event, Source};

/// How many traffic lines per session [`detect_sessions`] looks at.
const DETECT_LINES: usize = 2000;

/// Detects the protocol of every session (by `session` label, in order of appearance) from
/// its first lines. Sessions nothing decides are left out.
pub fn detect_sessions<'a>(
    events: impl IntoIterator<Item = &'a Event>,
) -> Vec<(Option<String>, Protocol, String)> {
    let mut d = SessionDetector::default();
    for ev in events {
        d.push(ev);
    }
    d.finish()
}

/// [`detect_sessions`] one event at a time, for inputs too big to hold: it keeps what each
/// session's lines showed, not the lines.
#[derive(Default)]
pub struct SessionDetector {
    /// Per session label, in order of appearance.
    per: Vec<(Option<String>, protocol::Detector)>,
    /// The session of the last event: a tournament's log holds thousands.
    last: last_session::LastSession,
}

impl SessionDetector {
    pub fn push(&mut self, ev: &Event) {
        let dir = match ev.src {
            Source::Gui => Dir::ToEngine,
            Source::Engine => Dir::FromEngine,
            _ => return,
        };
        let per = &mut self.per;
        let i = self.last.index(&ev.session, |label| {
            per.iter()
                .rposition(|(l, _)| l.as_deref() == label)
                .unwrap_or_else(|| {
                    per.push((label.map(str::to_owned), protocol::Detector::default()));
                    per.len() - 1
                })
        });
        let d = &mut self.per[i].1;
        if d.lines() < DETECT_LINES {
            d.push(dir, &ev.text);
        }
    }

    /// Every session seen so far has all the lines detection looks at.
    pub fn saturated(&self) -> bool {
        !self.per.is_empty() && self.per.iter().all(|(_, d)| d.lines() >= DETECT_LINES)
    }

    /// The protocol of each session that its lines decide, with the reason.
    pub fn finish(self) -> Vec<(Option<String>, Protocol, String)> {
        self.per
            .into_iter()
            .filter_map(|(label, d)| {
                let d = d.finish()?;
                Some((label, d.protocol, d.reason.to_owned()))
            })
            .collect()
    }
}

/// Decodes a whole input: every session with its lines, games, searches and obligations.
/// `protocol` forces one protocol for all sessions.
pub fn decode(events: &[Event], protocol: Option<Protocol>) -> Vec<Session> {
    let mut d = Decoder::new(protocol)
        .with_detected(detect_sessions(events))
        .keep_lines(true);
    for ev in events {
        d.push(ev);
    }
    d.finish()
}

/// The line a GUI opens a handshake with (`uci`, `xboard`, `nboard`): a new engine process
/// when it follows the engine's end in the same session.
pub fn is_handshake_opener(text: &str) -> bool {
    matches!(text.trim(), "uci" | "xboard" | "nboard") || text.trim().starts_with("nboard ")
}
