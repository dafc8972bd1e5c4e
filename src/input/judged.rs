//! One input file, opened, decoded and judged: the loop `check`, `report`, `decode` and the
//! viewer share ([`judge_lines`]), so a file is judged the same way whichever command reads
//! it. A front end that wants more than the findings (the report's games and latencies,
//! decode's transcript, the viewer's index) looks at what judged after every line.

use super::pipeline::{ReadOptions, Slot};
use super::{ControlFlow, FormatChoice, Input, ReadOutcome, Skipped};
use crate::recording::Event;
use crate::rules::{CheckOptions, Checked, Checker};
use anyhow::Result;
use std::path::Path;

/// A line of the input as [`judge_lines`] hands it on.
pub enum Line<'a> {
    /// Decoded and judged: the event, its line in the file (when known), and the index in
    /// the checker's findings of the first it drew.
    Judged {
        ev: &'a Event,
        line: Option<u64>,
        first_finding: usize,
    },
    /// A line that could not be read.
    Unreadable(&'a Skipped),
}

/// What judges the lines [`judge_lines`] reads: a checker, or the viewer's document, which
/// keeps one and indexes each line besides.
pub trait Judging {
    /// Decodes and judges one event (`at`: where its text is in the input, when the reader
    /// located it); the index of the first finding it drew.
    fn judge(
        &mut self,
        ev: &Event,
        line: Option<u64>,
        at: Option<u64>,
        ahead: &mut Option<crate::session::Parsed>,
    ) -> usize;
    /// The parsed message the last line is done with, to be parsed into again.
    fn take_spent(&mut self) -> Option<crate::protocol::Msg>;
}

impl Judging for Checker {
    fn judge(
        &mut self,
        ev: &Event,
        line: Option<u64>,
        _at: Option<u64>,
        ahead: &mut Option<crate::session::Parsed>,
    ) -> usize {
        self.push_ahead(ev, line, ahead)
    }

    fn take_spent(&mut self) -> Option<crate::protocol::Msg> {
        Checker::take_spent(self)
    }
}

/// The one loop of every command that judges a file as it reads it (`check`, `report`,
/// `decode`, the viewer's reader): each readable line is decoded and judged by `judge` in
/// order, then `each` sees it, before its parsed message goes back to the reader to be
/// parsed into again; each unreadable line is handed on as it is. Nothing past `at_ns` (ns
/// since the start) is read.
pub fn judge_lines<J: Judging>(
    input: &Input,
    opts: ReadOptions,
    checker: &mut J,
    at_ns: Option<u64>,
    mut each: impl FnMut(&mut J, Line<'_>) -> std::io::Result<ControlFlow<()>>,
) -> Result<(ReadOutcome, std::io::Result<()>)> {
    input.read_slots(opts, |slot| {
        let Slot {
            ev,
            line,
            skipped,
            ahead,
            at,
        } = slot;
        if let Some(s) = skipped {
            return each(checker, Line::Unreadable(s));
        }
        if at_ns.is_some_and(|t| ev.t > t) {
            // Past --at: the rest of the input did not happen yet.
            return Ok(ControlFlow::Break(()));
        }
        let first_finding = checker.judge(ev, *line, *at, ahead);
        let flow = each(
            checker,
            Line::Judged {
                ev,
                line: *line,
                first_finding,
            },
        )?;
        let spent = checker.take_spent();
        slot.give_back(spent);
        Ok(flow)
    })
}

/// What judging one input gave.
pub struct Judged {
    /// The file as messages name it.
    pub shown: String,
    /// `recording` or the log format it was read as.
    pub format: &'static str,
    /// The `.c2w` profile the file was held to because its recording names it, when the user
    /// named none.
    pub c2w_from_header: Option<String>,
    pub checked: Checked,
    /// The engine program a recording was made of (its header's command), for engines that
    /// never say their name.
    pub engine_command: Option<String>,
    /// When the input's time 0 was, by the wall clock (RFC 3339): a recording's start, or a
    /// log's first date stamp; `None` when the input gives no date.
    pub started: Option<String>,
    /// Lines of a recording that could not be read (a torn last line included).
    pub skipped: Vec<u64>,
    /// Of those, the lines lost: all but a torn last line.
    pub lost: usize,
}

/// How to judge an input.
pub struct JudgeInput<'a> {
    /// `--input-format`.
    pub input_format: FormatChoice,
    pub opts: &'a CheckOptions,
    /// The user named a `.c2w` profile (a recording's own is then not used).
    pub c2w_named: bool,
    /// Judge the input as it stood this many ns after its start.
    pub at_ns: Option<u64>,
    /// Keep finished games in the decoder (the report reads their outcomes as they end).
    pub keep_games: bool,
    /// A big log may be read on a thread of its own ([`super::pipeline`]); off where inputs
    /// are already judged on every core.
    pub read_on_thread: bool,
}

impl JudgeInput<'_> {
    /// Opens, decodes and judges `path`. `each` sees the checker after every line it judged
    /// (with the line's number in the file, when known);
    /// `skipped` each line of a recording that could not be read. When a log has to be judged
    /// again from the top (below), `restart` is called first: `each` then sees every line
    /// again, on a new checker.
    ///
    /// A log's sessions need their protocols before their first lines are decoded, and a
    /// session can start anywhere in the log: detecting them takes a pass over the whole
    /// log. Instead, the log is judged while it is read, each session's protocol detected
    /// from its first line, and the detection over the whole log made on the way; when the
    /// two agree, as they do on logs whose sessions open with the GUI's `uci`, `xboard` or
    /// `nboard`, the judgement is the one the detection would have given
    /// ([`crate::session::Decoder::adopt_detected`]), at the cost of one pass. Otherwise
    /// the log is judged again under the whole log's detection.
    pub fn run(
        &self,
        path: &Path,
        mut each: impl FnMut(&mut Checker, Option<u64>),
        mut skipped: impl FnMut(&str, &Skipped),
        mut restart: impl FnMut(),
    ) -> Result<Judged> {
        let input = Input::open_with(path, self.input_format)?;
        let (opts, note) = self.opts.for_input(input.recording_header());
        if let Some(note) = note {
            crate::eprintln_safe!("kibitzer: {}: {note}", input.shown());
        }
        let one_pass = input.log().is_some() && opts.protocol.is_none() && self.at_ns.is_none();
        let detected = if one_pass {
            let (mut checker, mut read) =
                self.judge(&input, &opts, Vec::new(), true, &mut each, &mut skipped)?;
            match read.detected.take() {
                Some(d) if checker.adopt_detected(&d) => {
                    return Ok(self.judged(&input, &opts, checker, read));
                }
                Some(d) => d,
                None => input.protocols(opts.protocol)?,
            }
        } else {
            input.protocols(opts.protocol)?
        };
        if one_pass {
            restart();
        }
        let (checker, read) =
            self.judge(&input, &opts, detected, false, &mut each, &mut skipped)?;
        Ok(self.judged(&input, &opts, checker, read))
    }

    /// One pass over `input`, judged with each session's protocol as `detected` says (the
    /// rest detected as they come).
    fn judge(
        &self,
        input: &Input,
        opts: &CheckOptions,
        detected: Vec<(Option<String>, crate::protocol::Protocol, String)>,
        detect: bool,
        each: &mut impl FnMut(&mut Checker, Option<u64>),
        skipped: &mut impl FnMut(&str, &Skipped),
    ) -> Result<(Checker, Read)> {
        let decoder = opts
            .decoder(detected)
            .retain_history(self.keep_games)
            .retain_searches(false);
        let mut checker = Checker::new(opts, decoder);
        let mut read = Read::default();
        let shown = input.shown();
        let at_ns = self.at_ns;
        let opts = ReadOptions {
            detect,
            ahead: true,
            in_place: !self.read_on_thread,
            locate: false,
        };
        let (outcome, stopped) = judge_lines(input, opts, &mut checker, at_ns, |checker, l| {
            match l {
                Line::Judged { line, .. } => {
                    each(checker, line);
                    if detect && checker.decoder().detected_late() {
                        // This pass cannot stand for the detection over the whole log: no
                        // use reading on.
                        return Ok(ControlFlow::Break(()));
                    }
                }
                Line::Unreadable(s) => {
                    skipped(shown, s);
                    read.skipped.push(s.line);
                    read.lost += usize::from(!s.torn_tail);
                }
            }
            Ok(ControlFlow::Continue(()))
        })?;
        stopped?;
        // Lines lost without a slot of their own (a log line too long to parse).
        for s in &outcome.skipped {
            if !read.skipped.contains(&s.line) {
                skipped(shown, s);
                read.skipped.push(s.line);
                read.lost += usize::from(!s.torn_tail);
            }
        }
        read.detected = outcome.detected;
        read.started = outcome.log_started.filter(|s| !s.is_empty());
        checker.finish(at_ns);
        each(&mut checker, None);
        Ok((checker, read))
    }

    fn judged(&self, input: &Input, opts: &CheckOptions, checker: Checker, read: Read) -> Judged {
        let c2w_from_header = (opts.c2w.is_some() && !self.c2w_named)
            .then(|| input.recording_header().and_then(|h| h.c2w.as_ref()))
            .flatten()
            .map(|n| n.file.clone());
        Judged {
            shown: input.shown().to_owned(),
            format: input.format_name(),
            c2w_from_header,
            engine_command: input
                .recording_header()
                .and_then(|h| h.argv.first().cloned()),
            checked: checker.into_checked(self.at_ns),
            started: input
                .recording_header()
                .map(|h| h.started.clone())
                .filter(|s| !s.is_empty())
                .or(read.started),
            skipped: read.skipped,
            lost: read.lost,
        }
    }
}

/// What one pass read besides the events it judged.
#[derive(Default)]
struct Read {
    skipped: Vec<u64>,
    lost: usize,
    detected: Option<crate::input::pipeline::Detected>,
    started: Option<String>,
}
