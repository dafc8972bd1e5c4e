//! What the viewer shows, built by a reader thread: one compact row per line of the input,
//! and the one decoder and judge that `decode` and `check` run, fed the same events.
//!
//! The UI thread draws from this under a lock (trippy's snapshot model): the reader appends
//! rows in batches, so a frame never waits for more than one batch.

use crate::protocol::Protocol;
use crate::recording::{Eol, Event, Source};
use crate::rules::{Finding, HangVerdict, Judge, LatencyStats, Profile, Severity};
use crate::session::{Decoded, Decoder, PosRef};
use std::collections::HashMap;

/// One line of the input, as the list needs it. The decoded message itself is not kept: the
/// detail pane parses the selected line again with the same parser.
#[derive(Debug, Clone)]
pub struct Row {
    pub seq: u64,
    /// Nanoseconds since the start of the input.
    pub t: u64,
    /// Line of the input file (0: unknown).
    pub line: u64,
    pub text: Box<str>,
    /// The exact bytes, when `text` is not them (invalid UTF-8).
    pub raw: Option<Box<[u8]>>,
    /// The board after the line.
    pub pos: Option<PosRef>,
    /// Decoded kind (`go`, `bestmove`, `info`...), `-` when undecoded.
    pub kind: &'static str,
    pub session: u16,
    pub src: Source,
    pub eol: Eol,
    /// The worst finding on the line.
    pub sev: Option<Severity>,
    /// The line changed the board.
    pub moved: bool,
    /// The line answered a request: how long after it (ns).
    pub latency: Option<u64>,
    /// The line is a request the engine still owes an answer to.
    pub open: bool,
}

/// Everything the reader built so far.
pub struct Doc {
    /// The file as messages name it.
    pub file: String,
    /// `recording` or the log format.
    pub format: String,
    pub rows: Vec<Row>,
    pub findings: Vec<Finding>,
    /// Findings by row index.
    pub row_findings: HashMap<u32, Vec<u32>>,
    pub decoder: Decoder,
    judge: Option<Judge>,
    profile: Profile,
    decoded: Decoded,
    /// Hang verdicts: at the end of the input, or live while following.
    pub hangs: Vec<HangVerdict>,
    pub latencies: Vec<LatencyStats>,
    /// Unreadable lines: (line, reason).
    pub skipped: Vec<(u64, String)>,
    /// The whole input is read (or, following, the engine exited).
    pub done: bool,
    /// Bytes read and total, when known.
    pub progress: Option<(u64, u64)>,
    pub error: Option<String>,
    /// Bumped whenever something changes: the UI redraws only then.
    pub generation: u64,
    /// Wall-clock ns of the first event, when the input tells.
    pub wall_start: Option<u64>,
}

impl Doc {
    pub fn new(
        file: impl Into<String>,
        format: impl Into<String>,
        decoder: Decoder,
        profile: Profile,
    ) -> Doc {
        Doc {
            file: file.into(),
            format: format.into(),
            rows: Vec::new(),
            findings: Vec::new(),
            row_findings: HashMap::new(),
            decoder,
            judge: Some(Judge::new(profile.clone())),
            profile,
            decoded: Decoded::default(),
            hangs: Vec::new(),
            latencies: Vec::new(),
            skipped: Vec::new(),
            done: false,
            progress: None,
            error: None,
            generation: 0,
            wall_start: None,
        }
    }

    /// A decoder as `check` sets it up, keeping what the panes need (games, searches,
    /// obligations) but not the lines.
    pub fn decoder(
        protocol: Option<Protocol>,
        presets: Vec<(Option<String>, Protocol, String)>,
    ) -> Decoder {
        Decoder::new(protocol).with_detected(presets)
    }

    /// Decodes and judges one event and adds its row.
    pub fn push(&mut self, ev: &Event, line: Option<u64>) {
        if let Some(l) = line {
            self.decoder.set_input_line(l);
        }
        self.decoder.push_into(ev, &mut self.decoded);
        let from = self.findings.len();
        if let Some(j) = self.judge.as_mut() {
            j.line(
                ev,
                line.or(ev.line),
                &self.decoded,
                &self.decoder,
                &mut self.findings,
            );
        }
        if self.wall_start.is_none() {
            self.wall_start = ev.ts.map(|ts| ts.saturating_sub(ev.t));
        }
        let d = &self.decoded;
        let raw = ev.hex.as_ref().map(|_| ev.line_bytes().into_boxed_slice());
        self.rows.push(Row {
            seq: ev.seq,
            t: ev.t,
            line: line.or(ev.line).unwrap_or(0),
            text: ev.text.as_str().into(),
            raw,
            pos: d.position,
            kind: match (&d.msg, ev.kind) {
                (Some(m), _) => m.kind(),
                (None, Some(k)) => k.as_str(),
                (None, None) => "-",
            },
            session: u16::try_from(d.session).unwrap_or(u16::MAX),
            src: ev.src,
            eol: ev.eol,
            sev: None,
            moved: d.moved,
            latency: None,
            open: false,
        });
        for e in &self.decoded.earlier {
            let kind = e.msg.kind();
            if let Some(r) = self.row_of_seq(e.at.seq) {
                self.rows[r].kind = kind;
            }
        }
        let closed: Vec<(u64, Option<u64>)> = self
            .decoded
            .closed
            .iter()
            .filter(|o| !o.cancelled)
            .map(|o| (o.opened.t, Some(ev.t.saturating_sub(o.opened.t))))
            .collect();
        if let Some((_, lat)) = closed.first()
            && let Some(last) = self.rows.last_mut()
        {
            last.latency = *lat;
        }
        self.place_findings(from);
        self.generation += 1;
    }

    /// Files findings from index `from` on under their rows, at the profile's severity.
    /// Replay's diagnostics say what a replay would need, not a protocol fault: `check` shows
    /// them only when asked for by id, the viewer never.
    fn place_findings(&mut self, from: usize) {
        let mut i = from;
        while i < self.findings.len() {
            if self.findings[i].rule.starts_with("REPLAY-") {
                self.findings.swap_remove(i);
            } else {
                i += 1;
            }
        }
        self.profile.adjust(&mut self.findings[from..]);
        for i in from..self.findings.len() {
            let f = &self.findings[i];
            let Some(r) = self.row_of_seq(f.seq) else {
                continue;
            };
            let sev = f.severity;
            let row = &mut self.rows[r];
            row.sev = row.sev.max(Some(sev));
            self.row_findings
                .entry(r as u32)
                .or_default()
                .push(i as u32);
        }
    }

    /// The row of event `seq` (events come in `seq` order; imported logs of several engines
    /// too, as the importer numbers them in file order).
    pub fn row_of_seq(&self, seq: u64) -> Option<usize> {
        let i = self.rows.partition_point(|r| r.seq < seq);
        if self.rows.get(i).is_some_and(|r| r.seq == seq) {
            return Some(i);
        }
        self.rows.iter().rposition(|r| r.seq == seq)
    }

    /// An unreadable line of the input.
    pub fn skip(&mut self, line: u64, reason: String) {
        self.skipped.push((line, reason));
        self.generation += 1;
    }

    /// Live hang verdicts at `now` (ns since the start) while the input is still written.
    pub fn live_verdicts(&mut self, now: u64) {
        if let Some(j) = self.judge.as_mut() {
            let v = j.verdicts_at(&self.decoder, now);
            if v != self.hangs {
                self.hangs = v;
                self.generation += 1;
            }
        }
    }

    /// The end of the input: deadlines never met, session-level rules, the hang verdicts.
    pub fn finish(&mut self, at: Option<u64>) {
        let Some(judge) = self.judge.take() else {
            return;
        };
        let from = self.findings.len();
        let (hangs, latencies) = judge.finish(&self.decoder, at, &mut self.findings);
        self.hangs = hangs;
        self.latencies = latencies;
        self.place_findings(from);
        let open: Vec<u64> = (0..self.decoder.sessions().len())
            .flat_map(|s| self.decoder.open_obligations(s).map(|o| o.opened.seq))
            .collect();
        for seq in open {
            if let Some(r) = self.row_of_seq(seq) {
                self.rows[r].open = true;
            }
        }
        self.done = true;
        self.generation += 1;
    }

    /// Findings on row `r`, worst first.
    pub fn findings_of(&self, r: usize) -> Vec<&Finding> {
        let mut v: Vec<&Finding> = self
            .row_findings
            .get(&(r as u32))
            .into_iter()
            .flatten()
            .filter_map(|&i| self.findings.get(i as usize))
            .collect();
        v.sort_by_key(|f| std::cmp::Reverse(f.severity));
        v
    }

    /// Counts of findings by severity: error, warning, note.
    pub fn counts(&self) -> [usize; 3] {
        let mut c = [0; 3];
        for f in &self.findings {
            match f.severity {
                Severity::Error => c[0] += 1,
                Severity::Warning => c[1] += 1,
                Severity::Note => c[2] += 1,
                Severity::Chat => {}
            }
        }
        c
    }
}
