//! A log read while a GUI or a tournament runner is still writing it, one line at a time:
//! the same parsers and builder as [`super::import`], but events are handed out as soon as
//! their line is complete rather than after a window of later lines (a viewer following a
//! game wants the `go` that was just written, not 4,096 lines later).

use super::builder::Builder;
use super::{LogFormat, Unclassified, detect, feed, formats, lines};
use crate::recording::Event;

/// See the module.
pub struct LiveLog {
    parser: Box<dyn formats::Parser>,
    builder: Builder,
    seq: u64,
    line: u64,
}

impl LiveLog {
    /// The format of a log from its first lines, when they tell.
    pub fn detect(head: &[u8]) -> Option<LogFormat> {
        if lines::is_blank(head) {
            return None;
        }
        detect(head).map(|d| d.format)
    }

    /// A reader of a `format` log whose first bytes are `head` (some parsers look at them,
    /// e.g. for a version banner).
    pub fn new(format: LogFormat, head: &[u8]) -> LiveLog {
        LiveLog {
            parser: formats::parser_for(format, head),
            builder: Builder::new(format),
            seq: 0,
            line: 0,
        }
    }

    /// Numbers the events on from `seq` (a log read again after it was rotated).
    pub fn numbered_from(mut self, seq: u64) -> LiveLog {
        self.seq = seq;
        self
    }

    /// The next line of the log (without its line ending).
    pub fn line(&mut self, bytes: &[u8]) {
        self.line += 1;
        let end = bytes.len();
        feed(
            self.parser.as_mut(),
            &mut self.builder,
            lines::Line {
                no: self.line,
                bytes,
                start: 0,
                end,
            },
        );
    }

    /// The events that are ready: those of lines before the last one, or (`all`, when the
    /// writer has paused) every one. Numbered on from the last.
    pub fn take(&mut self, all: bool, out: &mut Vec<Event>) {
        let before = if all { u64::MAX } else { self.line };
        let from = out.len();
        self.builder.drain_settled(before, out);
        for e in &mut out[from..] {
            self.seq += 1;
            e.seq = self.seq;
        }
    }

    /// Lines no rule explained since the last call.
    pub fn take_unclassified(&mut self) -> Vec<Unclassified> {
        std::mem::take(&mut self.builder.unclassified)
    }
}
