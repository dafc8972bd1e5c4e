//! One input file, opened, decoded and judged: the loop `check` and `report` share, so a file
//! is judged the same way whichever command reads it. A front end that wants more than the
//! findings (the report's games and latencies) looks at the checker after every line.

use super::{ControlFlow, Input, Item, Skipped};
use crate::rules::{CheckOptions, Checked, Checker};
use anyhow::Result;
use std::path::Path;

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
    /// Lines of a recording that could not be read (a torn last line included).
    pub skipped: Vec<u64>,
    /// Of those, the lines lost: all but a torn last line.
    pub lost: usize,
}

/// How to judge an input.
pub struct JudgeInput<'a> {
    /// `--input-format`.
    pub input_format: Option<&'a str>,
    pub opts: &'a CheckOptions,
    /// The user named a `.c2w` profile (a recording's own is then not used).
    pub c2w_named: bool,
    /// Judge the input as it stood this many ns after its start.
    pub at_ns: Option<u64>,
    /// Keep finished games in the decoder (the report reads their outcomes as they end).
    pub keep_games: bool,
}

impl JudgeInput<'_> {
    /// Opens, decodes and judges `path`. `each` sees the checker after every line it judged;
    /// `skipped` each line of a recording that could not be read.
    pub fn run(
        &self,
        path: &Path,
        mut each: impl FnMut(&mut Checker),
        mut skipped: impl FnMut(&str, &Skipped),
    ) -> Result<Judged> {
        let input = Input::open(path, self.input_format)?;
        let (opts, note) = self.opts.for_input(input.recording_header());
        if let Some(note) = note {
            crate::eprintln_safe!("kibitzer: {}: {note}", input.shown());
        }
        let c2w_from_header = (opts.c2w.is_some() && !self.c2w_named)
            .then(|| input.recording_header().and_then(|h| h.c2w.as_ref()))
            .flatten()
            .map(|n| n.file.clone());
        let decoder = opts
            .decoder(input.protocols(opts.protocol)?)
            .retain_history(self.keep_games)
            .retain_searches(false);
        let mut checker = Checker::new(&opts, decoder);
        let mut skipped_lines = Vec::new();
        let mut lost = 0;
        let shown = input.shown().to_owned();
        let at_ns = self.at_ns;
        let (_, stopped) = input.read(|item| {
            match item {
                Item::Event(ev, line) => {
                    if at_ns.is_some_and(|t| ev.t > t) {
                        // Past --at: the rest of the input did not happen yet.
                        return Ok(ControlFlow::Break(()));
                    }
                    checker.push(ev, line);
                    each(&mut checker);
                }
                Item::Skipped(s) => {
                    skipped(&shown, s);
                    skipped_lines.push(s.line);
                    lost += usize::from(!s.torn_tail);
                }
            }
            Ok(ControlFlow::Continue(()))
        })?;
        stopped?;
        checker.finish(at_ns);
        each(&mut checker);
        Ok(Judged {
            shown,
            format: input.format_name(),
            c2w_from_header,
            engine_command: input
                .recording_header()
                .and_then(|h| h.argv.first().cloned()),
            checked: checker.into_checked(at_ns),
            skipped: skipped_lines,
            lost,
        })
    }
}
