//! Time in the judge: when a request's answer is due, which rule its lateness breaks, and the
//! latencies the report tables. Kept apart from the per-line dispatch because deadlines are
//! the one part of judging that looks past the current line: a request opened now is judged
//! on a later line (or at the end), against a budget the protocol and the profile set.

use std::cmp::Reverse;
use std::collections::BTreeMap;

use super::{Out, Pending, Tracker, secs};
use crate::protocol::Protocol;
use crate::recording::{Event, Source};
use crate::rules::catalogue::RuleId;
use crate::rules::finding::Place;
use crate::rules::latency::LatencyStats;
use crate::rules::profile::Profile;
use crate::session::{Decoded, Decoder, Obligation, Owed, Request};

/// What a latency row counts: the answers to one kind of request, or a search's time beyond
/// what it was given or reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum LatencyKey {
    Answer(Request),
    BeyondMovetime,
    BeyondReported,
}

impl LatencyKey {
    pub fn label(self) -> &'static str {
        match self {
            LatencyKey::Answer(r) => r.label(),
            LatencyKey::BeyondMovetime => "go→bestmove beyond movetime",
            LatencyKey::BeyondReported => "go→bestmove beyond reported time",
        }
    }
}

/// Answers: latency, and lateness against the request's budget and the profile.
pub(super) fn answered(
    tr: &mut Tracker,
    ev: &Event,
    d: &Decoded,
    place: Place,
    profile: &Profile,
    out: &mut Out<'_>,
) {
    for o in d.closed() {
        let pending = tr.pending.remove(&o.opened.seq);
        if o.cancelled && o.owed == Owed::NboardMove {
            out.add_at(
                RuleId::NboardGoNoMove,
                pending.as_ref().map_or(place, |p| p.place),
                format!(
                    "go was never answered with === (withdrawn by `{}`)",
                    ev.text.trim()
                ),
            );
        }
        if o.cancelled {
            let by_quit = ev.src == Source::Gui && ev.text.trim() == "quit";
            let mut pending = pending;
            // Withdrawn (`quit`, `force`): a deadline that passed before is still late.
            if let Some(p) = pending.as_mut()
                && !p.timed_out
                && let Some((rule, allowed, why)) = deadline(tr, profile, o, p)
                && place.t.saturating_sub(o.opened.t) > allowed
            {
                p.timed_out = true;
                p.timed_out_by = Some(rule);
                out.add_at(
                    rule,
                    p.place,
                    format!(
                        "no {} within {} of `{}` ({why}); withdrawn {} later by `{}`",
                        o.owed,
                        secs(allowed),
                        p.text,
                        secs(place.t.saturating_sub(o.opened.t)),
                        ev.text.trim()
                    ),
                );
            }
            if by_quit && let Some(p) = pending {
                tr.withdrawn_at_quit.push((o.clone(), p));
            }
            continue;
        }
        let latency = place.t.saturating_sub(o.opened.t);
        count_latency(tr, d, o, latency);
        if let Some(p) = pending
            && !p.timed_out
            && let Some((rule, allowed, why)) = deadline(tr, profile, o, &p)
            && latency > allowed
        {
            tr.deadline_passed(rule);
            out.add(
                rule,
                format!(
                    "{} came {} after `{}` ({why}, {} allowed)",
                    o.owed,
                    secs(latency),
                    p.text,
                    secs(allowed)
                ),
            );
        }
    }
}

/// Keeps the requests `ev` opened as pending, each with its budget, and queues the time its
/// deadline can first pass.
pub(super) fn opened(
    tr: &mut Tracker,
    ev: &Event,
    d: &Decoded,
    dec: &Decoder,
    place: Place,
    profile: &Profile,
) {
    // New requests: the obligations this line opened and did not close again at once.
    for o in d.opened().filter(|o| o.opened.seq == ev.seq) {
        let closed_at_once = d.closed().any(|c| c.opened == o.opened && c.owed == o.owed);
        if closed_at_once || tr.pending.contains_key(&o.opened.seq) {
            continue;
        }
        let (budget_ms, budget_is_clock) = tr.budget_for(o, dec, d.session);
        let p = Pending {
            place,
            text: ev.text.trim().to_owned(),
            budget_ms,
            budget_is_clock,
            timed_out: false,
            timed_out_by: None,
        };
        if let Some((_, allowed, _)) = deadline(tr, profile, o, &p) {
            tr.due
                .push(Reverse((o.opened.t.saturating_add(allowed), o.opened.seq)));
        }
        tr.pending.insert(o.opened.seq, p);
    }
}

/// Reports the pending requests whose deadline passed by `place`.
pub(super) fn overdue(
    tr: &mut Tracker,
    dec: &Decoder,
    session: usize,
    place: Place,
    profile: &Profile,
    out: &mut Out<'_>,
) {
    // Those past their deadline. A deadline only ever grows (`feature done=0`), so one
    // found not yet passed when looked at again goes back with its new time.
    let mut past = Vec::new();
    while let Some(&Reverse((due, seq))) = tr.due.peek() {
        if due >= place.t {
            break;
        }
        tr.due.pop();
        let Some(o) = dec.session(session).and_then(|s| {
            s.obligations
                .binary_search_by_key(&seq, |o| o.opened.seq)
                .ok()
                .map(|i| &s.obligations[i])
        }) else {
            continue;
        };
        let Some(p) = tr.pending.get(&seq).filter(|p| !p.timed_out) else {
            continue;
        };
        if o.closed.is_some() {
            continue;
        }
        match deadline(tr, profile, o, p) {
            Some((rule, allowed, why)) if place.t.saturating_sub(o.opened.t) > allowed => {
                past.push((seq, rule, allowed, why, o.owed.clone()));
            }
            Some((_, allowed, _)) => {
                tr.due
                    .push(Reverse((o.opened.t.saturating_add(allowed), seq)));
            }
            None => {}
        }
    }
    for (seq, rule, allowed, why, owed) in past {
        let Some(p) = tr.pending.get_mut(&seq) else {
            continue;
        };
        p.timed_out = true;
        p.timed_out_by = Some(rule);
        let (at, text) = (p.place, p.text.clone());
        tr.deadline_passed(rule);
        out.add_at(
            rule,
            at,
            format!("no {owed} within {} of `{text}` ({why})", secs(allowed)),
        );
        // What the process did in the silence is told by the samples that follow.
        if tr.has_samples() {
            tr.overdue.push(super::process::Overdue {
                seq,
                owed: owed.to_string(),
                request: text,
                at,
            });
        }
    }
}

impl Tracker {
    /// A deadline of `rule` passed, seen wherever it is (at the late answer, at a later event
    /// such as a sample, at the end): a CECP side's clock running out loses the game.
    pub(super) fn deadline_passed(&mut self, rule: RuleId) {
        if rule == RuleId::XClockUnderflow && self.protocol == Some(Protocol::Cecp) {
            self.cecp.game_ended("a loss on time");
        }
    }

    /// What a request allows in milliseconds: `go movetime`, the side's clock, CECP `st` or
    /// `time`.
    fn budget_for(&self, o: &Obligation, dec: &Decoder, session: usize) -> (Option<i64>, bool) {
        match (&o.owed, self.protocol) {
            (Owed::BestMove, _) if matches!(o.kind, Request::Go { .. }) => {
                let Some(go) = &self.uci.last_go else {
                    return (None, false);
                };
                // A ponder search's clock starts at ponderhit; an infinite one has none.
                if go.ponder || go.infinite {
                    return (None, false);
                }
                if let Some(mt) = go.movetime {
                    return (Some(mt), false);
                }
                let clock = match dec.white_to_move(session) {
                    Some(true) => go.wtime,
                    Some(false) => go.btime,
                    None => None,
                };
                (clock, clock.is_some())
            }
            (Owed::Move, _) => match (self.cecp_st, self.cecp_time_cs) {
                (Some(st), _) => (i64::try_from(st.saturating_mul(1000)).ok(), false),
                (None, Some(cs)) => (Some(cs.saturating_mul(10)), true),
                _ => (None, false),
            },
            _ => (None, false),
        }
    }
}

/// Why a request was allowed the time it was, put in words only for a finding: a deadline is
/// worked out for every request and every line that may pass it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Allowance {
    /// The profile named sets the time.
    Profile(&'static str),
    /// CECP `feature done=0`.
    DoneZero,
    /// The side's clock.
    Clock,
    /// The search's time limit, plus the profile's overrun.
    TimeLimit { overrun_ms: u128 },
}

impl std::fmt::Display for Allowance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Allowance::Profile(name) => write!(f, "{name} profile"),
            Allowance::DoneZero => f.write_str("done=0 extends the wait to an hour"),
            Allowance::Clock => f.write_str("the side's remaining clock"),
            Allowance::TimeLimit { overrun_ms } => {
                write!(f, "its time limit plus {overrun_ms} ms")
            }
        }
    }
}

/// The rule, the allowed time (ns) and why, for an obligation under a profile.
pub(super) fn deadline(
    tr: &Tracker,
    profile: &Profile,
    o: &Obligation,
    p: &Pending,
) -> Option<(RuleId, u64, Allowance)> {
    let ns = |d: std::time::Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
    let ms_ns = |ms: i64| {
        u64::try_from(ms.max(0))
            .unwrap_or(0)
            .saturating_mul(1_000_000)
    };
    let named = |d: Option<std::time::Duration>, rule: RuleId| {
        d.map(|d| (rule, ns(d), Allowance::Profile(profile.name)))
    };
    match &o.owed {
        Owed::UciOk => named(profile.uciok, RuleId::UciUciokTimeout),
        Owed::ReadyOk => named(profile.ping, RuleId::UciIsreadyTimeout),
        Owed::Pong(_) => named(
            profile.ping,
            if tr.protocol == Some(Protocol::Nboard) {
                RuleId::NboardPongTimeout
            } else {
                RuleId::CecpPongTimeout
            },
        ),
        Owed::FeatureDone => {
            if tr.done0 {
                Some((
                    RuleId::CecpFeatureTimeout,
                    3_600_000_000_000,
                    Allowance::DoneZero,
                ))
            } else {
                named(profile.features, RuleId::CecpFeatureTimeout)
            }
        }
        Owed::BestMove if o.kind == Request::Stop => {
            named(profile.after_stop, RuleId::UciBestmoveMissingAfterStop)
        }
        Owed::BestMove | Owed::Move => {
            let budget = p.budget_ms?;
            if p.budget_is_clock {
                Some((RuleId::XClockUnderflow, ms_ns(budget), Allowance::Clock))
            } else {
                let rule = if o.owed == Owed::Move {
                    RuleId::CecpStExceeded
                } else {
                    RuleId::UciBestmoveLate
                };
                Some((
                    rule,
                    ms_ns(budget).saturating_add(ns(profile.overrun)),
                    Allowance::TimeLimit {
                        overrun_ms: profile.overrun.as_millis(),
                    },
                ))
            }
        }
        _ => None,
    }
}

/// Counts an answer's latency. An open-ended search (`go infinite`, `go ponder`) lasts as long
/// as the GUI lets it: not the engine's latency, so not counted.
fn count_latency(tr: &mut Tracker, d: &Decoded, o: &Obligation, ns: u64) {
    if o.kind == (Request::Go { open_ended: true }) {
        return;
    }
    let mut add = |key: LatencyKey, ns: u64| tr.latencies.entry(key).or_default().add_ns(ns);
    add(LatencyKey::Answer(o.kind), ns);
    if o.kind != (Request::Go { open_ended: false }) {
        return;
    }
    if let Some(movetime) = o.go.and_then(|g| g.movetime_ms) {
        add(
            LatencyKey::BeyondMovetime,
            ns.saturating_sub(movetime.saturating_mul(1_000_000)),
        );
    }
    let reported = d.facts.iter().rev().find_map(|f| match f {
        crate::session::Fact::SearchEnded { reported_ms } => *reported_ms,
        _ => None,
    });
    if let Some(ms) = reported {
        add(
            LatencyKey::BeyondReported,
            ns.saturating_sub(ms.saturating_mul(1_000_000)),
        );
    }
}

/// The latency rows of `table`, with what the profile allows for each kind of request.
pub(super) fn stats(
    table: &BTreeMap<LatencyKey, crate::rules::latency::Histogram>,
    profile: &Profile,
) -> Vec<LatencyStats> {
    table
        .iter()
        .map(|(k, h)| {
            let allowed = match k {
                LatencyKey::Answer(r) => profile.allowed(*r),
                _ => None,
            };
            LatencyStats::of(
                k.label(),
                h.clone(),
                allowed.map(|d| d.as_secs_f64() * 1000.0),
            )
        })
        .collect()
}
