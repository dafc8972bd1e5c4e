//! Findings from the proxy's samples: what the engine's process did while an answer it owed
//! was overdue, each class a rule of its own whose severity says whose fault it is.
use super::{Out, Tracker};
use crate::rules::catalogue::{RuleId, Side as Party};
use crate::rules::finding::Place;
use crate::rules::forensics::{ProcessState, ProcessVerdict};

/// The rule a class of silence is, and whom it blames; `None` when the samples do not decide.
/// A silence that is not the engine's doing is laid at the side that runs it: the GUI or
/// runner, its host and its concurrency, whoever stopped the process.
pub(crate) fn rule_of(state: ProcessState) -> Option<(RuleId, Party)> {
    Some(match state {
        ProcessState::Starved => (RuleId::XHangStarved, Party::Gui),
        ProcessState::Waiting => (RuleId::XHangWaiting, Party::Engine),
        ProcessState::Asleep => (RuleId::XHangAsleep, Party::Engine),
        ProcessState::Spinning => (RuleId::XHangSpinning, Party::Engine),
        ProcessState::Stopped => (RuleId::XHangStopped, Party::Gui),
        ProcessState::Blocked => (RuleId::XHangBlocked, Party::Gui),
        ProcessState::Undecided => return None,
    })
}

/// The process finding for request `seq` (`owed` for `request`, placed at `at`), once per
/// request: the first window that decides is the one reported.
pub(super) fn explain(
    tr: &mut Tracker,
    seq: u64,
    verdict: &ProcessVerdict,
    owed: &str,
    request: &str,
    at: Place,
    out: &mut Out<'_>,
) {
    if tr.explained == Some(seq) {
        return;
    }
    let Some((rule, side)) = rule_of(verdict.state) else {
        return;
    };
    tr.explained = Some(seq);
    out.side = Some(side);
    out.add_at(
        rule,
        at,
        format!("{owed} for `{request}` overdue; {}", verdict.detail),
    );
}

/// When the engine last fell silent on request `opened_t`: its last line, if after.
pub(super) fn silent_since(tr: &Tracker, opened_t: u64) -> u64 {
    tr.last_engine
        .as_ref()
        .map_or(opened_t, |(t, _, _)| (*t).max(opened_t))
}

/// A request past its deadline whose silence no sample window has explained yet.
pub(crate) struct Overdue {
    pub seq: u64,
    pub owed: String,
    pub request: String,
    pub at: Place,
}

/// Below this a window is too short to blame anyone mid-session: the end of the input still
/// judges what is left.
const DECIDING_WINDOW_NS: u64 = 1_000_000_000;

/// A sample came at `now`: each overdue request still open whose silence now spans a
/// deciding window gets its process finding.
pub(super) fn sampled(tr: &mut Tracker, now: u64, out: &mut Out<'_>) {
    if tr.overdue.is_empty() {
        return;
    }
    let waiting = std::mem::take(&mut tr.overdue);
    for o in waiting {
        if !tr.pending.contains_key(&o.seq) || tr.explained == Some(o.seq) {
            continue;
        }
        let from = silent_since(tr, o.at.t);
        match tr.process_between(from, now) {
            Some(pv) if pv.window_ns >= DECIDING_WINDOW_NS => {
                explain(tr, o.seq, &pv, &o.owed, &o.request, o.at, out);
            }
            _ => tr.overdue.push(o),
        }
    }
}
