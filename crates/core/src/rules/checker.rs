//! The one pipeline every judging command runs: `check`, `decode`, `view`, `replay` and
//! `probe` feed events to a [`Checker`] and read the same findings back, so their verdicts
//! cannot drift apart.
//!
//! [`CheckOptions`] carries what the user chose (protocol, deadline profile, `.c2w` profile,
//! PV checking, which findings to keep) and what the input says of itself (a `record --c2w`
//! recording's profile), and builds the decoder from it, so a front end that only decodes
//! (`export`, `replay`'s script) decodes the same way.

use super::finding::Finding;
use super::hang::HangVerdict;
use super::judge::Judge;
use super::latency::LatencyStats;
use super::profile::Profile;
use crate::protocol::Protocol;
use crate::protocol::c2w::EngineProfile;
use crate::recording::{Event, Header};
use crate::rules::catalogue::{Family, RuleId, Severity};
use crate::session::{Decoded, Decoder};
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// Which findings to keep: the severity floor, the rules asked for by id, the rules left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindingFilter {
    pub min: Severity,
    pub only: Vec<RuleId>,
    pub ignore: Vec<RuleId>,
    /// Keep the `REPLAY-` rules without being asked for them by id (what `replay` reads).
    pub replay: bool,
}

impl Default for FindingFilter {
    fn default() -> Self {
        FindingFilter {
            min: Severity::Chat,
            only: Vec::new(),
            ignore: Vec::new(),
            replay: false,
        }
    }
}

impl FindingFilter {
    pub fn keeps(&self, f: &Finding) -> bool {
        // Replay's diagnostics say what a replay would need, not a protocol fault: they show
        // only when asked for by id.
        let replay_unasked =
            f.rule.family() == Family::Replay && !self.replay && !self.only.contains(&f.rule);
        f.severity >= self.min
            && (self.only.is_empty() || self.only.contains(&f.rule))
            && !self.ignore.contains(&f.rule)
            && !replay_unasked
    }
}

/// How an input is decoded and judged.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// Every session's protocol, instead of detecting it.
    pub protocol: Option<Protocol>,
    /// The GUI's deadlines and severity changes.
    pub profile: Profile,
    /// The Chess Academy profile the GUI drove the engine with: its FEN command is decoded
    /// and the `C2W-` rules apply.
    pub c2w: Option<EngineProfile>,
    /// Check the moves of engine PVs for legality.
    pub pv_check: bool,
    pub filter: FindingFilter,
    /// One finding per rule and session, with the count and the last line: a rule broken on
    /// every move is one finding, not hundreds (`check`, `decode`, `view`; off for `probe`,
    /// which places each finding in its step, and `replay`).
    pub fold_repeats: bool,
}

impl CheckOptions {
    pub fn new(profile: Profile) -> CheckOptions {
        CheckOptions {
            protocol: None,
            profile,
            c2w: None,
            pv_check: true,
            filter: FindingFilter::default(),
            fold_repeats: false,
        }
    }

    /// The options for one input: a recording made with `record --c2w` (or `probe --c2w`)
    /// carries its profile and is held to it, unless the user named another. A header whose
    /// profile does not parse is read without it; the returned note says so.
    pub fn for_input(&self, header: Option<&Header>) -> (CheckOptions, Option<String>) {
        let mut opts = self.clone();
        let mut note = None;
        if opts.c2w.is_none()
            && let Some(c2w) = header.and_then(|h| h.c2w.as_ref())
        {
            match crate::protocol::c2w::parse(&c2w.text) {
                Ok(p) => opts.c2w = Some(p),
                Err(_) => {
                    note = Some(format!(
                        "the .c2w profile in its header ({}) does not parse; not used",
                        c2w.file
                    ));
                }
            }
        }
        (opts, note)
    }

    /// The decoder these options call for, given the sessions' protocols as detected.
    pub fn decoder(&self, detected: Vec<(Option<String>, Protocol, String)>) -> Decoder {
        Decoder::new(self.protocol)
            .with_detected(detected)
            .with_fen_command(self.c2w.as_ref().and_then(|p| p.fen_command.clone()))
            .check_pv_moves(self.pv_check)
    }
}

/// Decodes and judges one input, event by event.
pub struct Checker {
    decoder: Decoder,
    judge: Option<Judge>,
    profile: Profile,
    filter: FindingFilter,
    /// With `fold_repeats`: where in `findings` each (session, rule) first was.
    first_of: Option<HashMap<(Option<String>, RuleId), usize>>,
    decoded: Decoded,
    findings: Vec<Finding>,
    scratch: Vec<Finding>,
    hangs: Vec<HangVerdict>,
    latencies: Vec<LatencyStats>,
    session_latencies: Vec<Vec<LatencyStats>>,
    usage: Vec<Option<crate::rules::forensics::ProcessUsage>>,
}

impl Checker {
    /// A checker under `opts`, decoding with `decoder` (from [`CheckOptions::decoder`], with
    /// whatever the front end keeps of the history).
    pub fn new(opts: &CheckOptions, decoder: Decoder) -> Checker {
        let mut judge = Judge::new(opts.profile.clone());
        if let Some(p) = &opts.c2w {
            judge = judge.with_c2w(p.clone());
        }
        Checker {
            decoder,
            judge: Some(judge),
            profile: opts.profile.clone(),
            filter: opts.filter.clone(),
            first_of: opts.fold_repeats.then(HashMap::new),
            decoded: Decoded::default(),
            findings: Vec::new(),
            scratch: Vec::new(),
            hangs: Vec::new(),
            latencies: Vec::new(),
            session_latencies: Vec::new(),
            usage: Vec::new(),
        }
    }

    /// Decodes and judges one event; `line` is its line in the input file, when known.
    /// Returns the index of the first finding this event gave rise to: those from there on
    /// in [`Checker::findings`] are new.
    pub fn push(&mut self, ev: &Event, line: Option<u64>) -> usize {
        self.push_ahead(ev, line, &mut None)
    }

    /// [`Checker::push`] with the line's message parsed ahead
    /// ([`crate::session::Decoder::push_ahead_into`]).
    pub fn push_ahead(
        &mut self,
        ev: &Event,
        line: Option<u64>,
        ahead: &mut Option<crate::session::Parsed>,
    ) -> usize {
        if let Some(l) = line {
            self.decoder.set_input_line(l);
        }
        self.decoder.push_ahead_into(ev, ahead, &mut self.decoded);
        let from = self.findings.len();
        if let Some(judge) = self.judge.as_mut() {
            judge.line(
                ev,
                line.or(ev.line),
                &self.decoded,
                &self.decoder,
                &mut self.scratch,
            );
            self.keep_scratch();
        }
        from
    }

    /// Judges profile severities and the user's filter into the kept findings, folding a
    /// rule's repeats in a session into its first finding when asked to.
    fn keep_scratch(&mut self) {
        self.profile.adjust(&mut self.scratch);
        let filter = &self.filter;
        let Some(first_of) = self.first_of.as_mut() else {
            self.findings
                .extend(self.scratch.drain(..).filter(|f| filter.keeps(f)));
            return;
        };
        for f in self.scratch.drain(..).filter(|f| filter.keeps(f)) {
            match first_of.entry((f.session.clone(), f.rule)) {
                Entry::Occupied(e) => {
                    let first = &mut self.findings[*e.get()];
                    first.count += 1;
                    first.last_line = f.line.or(first.last_line);
                }
                Entry::Vacant(e) => {
                    e.insert(self.findings.len());
                    self.findings.push(f);
                }
            }
        }
    }

    /// The end of the input (or the moment `now`, ns since the start): deadlines never met,
    /// the session-level rules, the hang verdicts. Returns the index of the first finding
    /// this added. Later calls do nothing.
    pub fn finish(&mut self, now: Option<u64>) -> usize {
        let from = self.findings.len();
        if let Some(judge) = self.judge.take() {
            self.usage = judge.process_usage();
            let (hangs, latencies) = judge.finish(&self.decoder, now, &mut self.scratch);
            self.keep_scratch();
            self.hangs = hangs;
            self.latencies = latencies.whole;
            self.session_latencies = latencies.sessions;
        }
        from
    }

    /// The hang verdicts at `now` (ns since the start) while the input is still being
    /// written, without ending it; after [`Checker::finish`], the final verdicts.
    pub fn verdicts_at(&mut self, now: u64) -> Vec<HangVerdict> {
        match self.judge.as_mut() {
            Some(j) => j.verdicts_at(&self.decoder, now),
            None => self.hangs.clone(),
        }
    }

    pub fn is_finished(&self) -> bool {
        self.judge.is_none()
    }

    /// What the last event decoded to.
    pub fn decoded(&self) -> &Decoded {
        &self.decoded
    }

    /// The last event's decoding, for a front end that takes parts of it (the closed
    /// obligations) instead of copying them.
    pub fn decoded_mut(&mut self) -> &mut Decoded {
        &mut self.decoded
    }

    /// A message parsed ahead that the decoder is done with, to go back to its parser.
    pub fn take_spent(&mut self) -> Option<crate::protocol::Msg> {
        self.decoder.take_spent()
    }

    /// [`Decoder::adopt_detected`].
    pub fn adopt_detected(&mut self, detected: &[(Option<String>, Protocol, String)]) -> bool {
        self.decoder.adopt_detected(detected)
    }

    pub fn decoder(&self) -> &Decoder {
        &self.decoder
    }

    /// Hands over the findings kept so far: a front end that streams them (`report`) keeps
    /// its memory flat however long the input. Folding starts afresh after.
    pub fn take_findings(&mut self) -> Vec<Finding> {
        if let Some(first_of) = self.first_of.as_mut() {
            first_of.clear();
        }
        std::mem::take(&mut self.findings)
    }

    /// The findings kept so far, in the order they were found.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// The hang verdicts, once finished.
    pub fn hangs(&self) -> &[HangVerdict] {
        &self.hangs
    }

    /// Latencies per request type over the whole input, once finished.
    pub fn latencies(&self) -> &[LatencyStats] {
        &self.latencies
    }

    /// Finishes (if not yet) and hands over what was found.
    pub fn into_checked(mut self, now: Option<u64>) -> Checked {
        self.finish(now);
        Checked {
            decoder: self.decoder,
            findings: self.findings,
            hangs: self.hangs,
            latencies: self.latencies,
            session_latencies: self.session_latencies,
            usage: self.usage,
        }
    }
}

/// Everything a finished [`Checker`] found.
pub struct Checked {
    pub decoder: Decoder,
    /// In the order found; [`Checked::sort_findings`] puts them in input order.
    pub findings: Vec<Finding>,
    pub hangs: Vec<HangVerdict>,
    pub latencies: Vec<LatencyStats>,
    /// Per session (the decoder's order), its latencies.
    pub session_latencies: Vec<Vec<LatencyStats>>,
    /// Per session (the decoder's order), what its engine used, from the proxy's samples.
    pub usage: Vec<Option<crate::rules::forensics::ProcessUsage>>,
}

impl Checked {
    /// Puts the findings in the order of the input's lines.
    pub fn sort_findings(&mut self) {
        self.findings
            .sort_by_key(|f| (f.line.unwrap_or(u64::MAX), f.seq));
    }
}
