//! The end of the input: what only the end decides (requests never answered, how each
//! session ended, who owes whom at the last line), and the same verdicts taken early for a
//! live view. Apart from the per-line judging because it reads every session at once, after
//! (or without) the line that would close them.

use super::timing::deadline;
use super::transport::block_burst;
use super::{Judge, Out, Tracker, secs};
use crate::rules::catalogue::{RuleId, Side as Party};
use crate::rules::finding::{Finding, Place};
use crate::rules::hang::{self, HangVerdict};
use crate::rules::latency::LatencyStats;
use crate::rules::profile::Profile;
use crate::session::{Decoder, Obligation, Owed};

/// Where a session's observation ends: the end of the input, or earlier where the runner's
/// log stops for it (`log_ends`: a new run of the runner begins in the same log).
fn session_end(tr: &super::Tracker, input_now: u64) -> u64 {
    tr.log_ends.map_or(input_now, |t| t.min(input_now))
}

impl Judge {
    /// The hang verdict of every session at `now` (ns since the start) without ending the
    /// input: what a live view shows while a recording is still being written. A deadline
    /// passed since the last line makes the verdict a timeout, as [`Judge::finish`] would;
    /// no finding is added and nothing is changed.
    pub fn verdicts_at(&mut self, dec: &Decoder, now: u64) -> Vec<HangVerdict> {
        let mut verdicts = Vec::new();
        let input_now = now;
        for (i, tr) in self.trackers.iter_mut().enumerate() {
            let now = session_end(tr, input_now);
            let open: Vec<Obligation> = dec.open_obligations(i).cloned().collect();
            let mut marked = Vec::new();
            for o in &open {
                if let Some(p) = tr.pending.get(&o.opened.seq)
                    && !p.timed_out
                    && deadline(tr, &self.profile, o, p)
                        .is_some_and(|(_, allowed, _)| now.saturating_sub(o.opened.t) > allowed)
                {
                    marked.push(o.opened.seq);
                }
            }
            for seq in &marked {
                if let Some(p) = tr.pending.get_mut(seq) {
                    p.timed_out = true;
                }
            }
            verdicts.extend(hang::diagnose(tr, &open, &self.profile, now));
            for seq in &marked {
                if let Some(p) = tr.pending.get_mut(seq) {
                    p.timed_out = false;
                }
            }
        }
        verdicts
    }

    /// Ends the input (at `now` ns, the last event's time unless given): requests never
    /// answered, session-level rules, and the hang verdict of every session.
    pub fn finish(
        mut self,
        dec: &Decoder,
        now: Option<u64>,
        findings: &mut Vec<Finding>,
    ) -> (Vec<HangVerdict>, Latencies) {
        let now = now.unwrap_or(self.last.t);
        let end = Place {
            t: now,
            ..self.last
        };
        let mut verdicts = Vec::new();
        let input_now = now;
        for (i, tr) in self.trackers.iter_mut().enumerate() {
            let now = session_end(tr, input_now);
            let end = Place { t: now, ..end };
            let label = tr.label.clone();
            let mut out = Out {
                findings,
                place: end,
                side: None,
                session: label.as_deref(),
                veto: None,
            };
            let mut open: Vec<Obligation> = dec.open_obligations(i).cloned().collect();
            tr.unanswered_at_end(&open, &self.profile, now, &mut out);
            tr.ended_owing(&open, end, &mut out);
            block_burst(tr, &mut out);
            tr.session_end(dec.session(i), &mut out);
            let owed_at_quit = tr.owed_when_killed_after_quit(&mut open);
            if let Some(v) = hang::diagnose(tr, &open, &self.profile, now) {
                verdicts.push(tr.hang_verdict(v, &owed_at_quit, end, &self.profile, &mut out));
            }
        }
        let latencies = self.latencies();
        (verdicts, latencies)
    }

    /// The answers' latencies, over every session and per session.
    fn latencies(&self) -> Latencies {
        let mut whole = std::collections::BTreeMap::new();
        for tr in &self.trackers {
            for (k, h) in &tr.latencies {
                whole
                    .entry(*k)
                    .or_insert_with(crate::rules::latency::Histogram::default)
                    .merge(h);
            }
        }
        Latencies {
            whole: super::timing::stats(&whole, &self.profile),
            sessions: self
                .trackers
                .iter()
                .map(|tr| super::timing::stats(&tr.latencies, &self.profile))
                .collect(),
        }
    }
}

impl Tracker {
    /// Requests still open at the end whose deadline has passed by then.
    fn unanswered_at_end(
        &mut self,
        open: &[Obligation],
        profile: &Profile,
        now: u64,
        out: &mut Out<'_>,
    ) {
        for o in open {
            if let Some(p) = self.pending.get(&o.opened.seq)
                && !p.timed_out
                && let Some((rule, allowed, why)) = deadline(self, profile, o, p)
                && now.saturating_sub(o.opened.t) > allowed
            {
                let place = p.place;
                if let Some(p) = self.pending.get_mut(&o.opened.seq) {
                    p.timed_out = true;
                    p.timed_out_by = Some(rule);
                }
                self.deadline_passed(rule);
                let text = self
                    .pending
                    .get(&o.opened.seq)
                    .map(|p| p.text.clone())
                    .unwrap_or_default();
                out.add_at(
                    rule,
                    place,
                    format!(
                        "no {} within {} of `{text}` ({why}); none by the end of the input",
                        o.owed,
                        secs(allowed),
                    ),
                );
            }
        }
    }

    /// What a session that ended still owed: an NBoard move, a CECP game's result.
    fn ended_owing(&mut self, open: &[Obligation], end: Place, out: &mut Out<'_>) {
        let ended = self.exit.is_some() || self.engine_eof.is_some() || self.gui_eof.is_some();
        for o in open.iter().filter(|o| o.owed == Owed::NboardMove && ended) {
            let place = self.pending.get(&o.opened.seq).map_or(end, |p| p.place);
            out.side = Some(Party::Engine);
            out.add_at(
                RuleId::NboardGoNoMove,
                place,
                "go was never answered with === before the session ended",
            );
        }
        if let Some(how) = self.cecp.take_ended_by_rule() {
            out.side = Some(Party::Gui);
            out.add(
                RuleId::CecpResultMissing,
                format!("the game ended ({how}) and the GUI sent no result"),
            );
        }
    }

    /// A deadlock the GUI gave up on with `quit`, and the engine had to be killed: what it
    /// owed then is the verdict, not "owes nothing". Puts those requests back in `open` and
    /// names them (empty when there are none).
    fn owed_when_killed_after_quit(&mut self, open: &mut Vec<Obligation>) -> String {
        let mut owed_at_quit = String::new();
        if open.is_empty() && self.killed_after_quit && !self.withdrawn_at_quit.is_empty() {
            for (o, p) in std::mem::take(&mut self.withdrawn_at_quit) {
                if !owed_at_quit.is_empty() {
                    owed_at_quit.push_str(", ");
                }
                owed_at_quit.push_str(&format!("{} for `{}`", o.owed, p.text));
                self.pending.insert(o.opened.seq, p);
                open.push(o);
            }
        }
        owed_at_quit
    }

    /// The session's hang verdict, completed with how its observation ended, and its findings.
    fn hang_verdict(
        &mut self,
        mut v: HangVerdict,
        owed_at_quit: &str,
        end: Place,
        profile: &Profile,
        out: &mut Out<'_>,
    ) -> HangVerdict {
        if self.log_ends.is_some() {
            v.summary.push_str(
                "; the runner's log stops here (a new run begins in the same log), so \
                 nothing later was seen",
            );
        }
        if !owed_at_quit.is_empty() {
            v.summary.push_str(&format!(
                "; owed when the GUI sent `quit`: {owed_at_quit}; the engine then had to \
                 be killed"
            ));
        }
        // The probe gives up on a missing answer itself: where the request's own deadline
        // rule already said so as an error, the hang would count that one cause twice. (A
        // deadline rule that is a warning, `CECP-ST-EXCEEDED`, leaves the hang its error.)
        let restated = self.gui_is_probe
            && v.request_place
                .and_then(|at| self.pending.get(&at.seq))
                .and_then(|p| p.timed_out_by)
                .is_some_and(|rule| {
                    profile
                        .severity_of(rule)
                        .unwrap_or(rule.rule().severity)
                        .fails()
                });
        if v.is_timeout && !restated {
            out.side = Some(v.at_fault);
            out.add_at(
                RuleId::XHang,
                v.request_place.unwrap_or(end),
                v.summary.clone(),
            );
        }
        // What the process did in the silence, when the samples tell: a deadline
        // passed, so whose fault the silence is matters.
        if v.is_timeout
            && let (Some(pv), Some(at)) = (&v.process, v.request_place)
        {
            super::process::explain(
                self,
                at.seq,
                pv,
                v.owed.as_deref().unwrap_or("an answer"),
                v.request.as_deref().unwrap_or_default(),
                at,
                out,
            );
        }
        if v.no_watchdog {
            out.side = Some(Party::Gui);
            out.add(
                RuleId::XNoWatchdog,
                format!(
                    "the GUI waited {} for {} without giving up",
                    secs(v.waiting_ns.unwrap_or(0)),
                    v.owed.as_deref().unwrap_or("an answer")
                ),
            );
        }
        v
    }
}

/// The answers' latencies of a finished input.
#[derive(Debug, Clone, Default)]
pub struct Latencies {
    /// Over every session.
    pub whole: Vec<LatencyStats>,
    /// Per session, in the decoder's order.
    pub sessions: Vec<Vec<LatencyStats>>,
}
