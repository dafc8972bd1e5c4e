//! The process findings through the judge: each class fires its rule when a deadline passed
//! in silence, and stays quiet when the engine answered in time or the silence was short.

use crate::recording::{Event, ProcSample, ProxyKind};
use crate::rules::catalogue::RuleId;
use crate::rules::{Finding, HangVerdict, Judge, Profile};
use crate::session::Decoder;
use crate::session::tests::transcript;

const MS: u64 = 1_000_000;

/// How a silent engine's samples grow: CPU ms and run-queue ms per second, thread states,
/// threads reading their input.
type Class = (u64, u64, &'static str, u32);

/// A sample whose counters grow by `cpu_ms`/`delay_ms` per second, threads in `states`.
fn sample(at_ms: u64, cpu_per_s: u64, delay_per_s: u64, states: &str, reading: u32) -> ProcSample {
    crate::rules::forensics::test_sample(
        at_ms * cpu_per_s / 1000,
        at_ms * delay_per_s / 1000,
        states,
        Some(reading),
    )
}

/// Handshake, `go movetime 100` at 0.6 s, samples every 250 ms for `silence_ms`, then
/// `answer` (an engine line) if any. The findings and hang verdicts.
fn judge(silence_ms: u64, class: Class, answer: Option<&str>) -> (Vec<Finding>, Vec<HangVerdict>) {
    let mut ev = transcript(
        "
        > uci
        < id name t
        < uciok
        > isready
        < readyok
        > position startpos
        > go movetime 100
    ",
    );
    let go_t = ev.last().map_or(0, |e| e.t);
    let mut seq = ev.len() as u64;
    let mut t = go_t;
    while t < go_t + silence_ms * MS {
        t += 250 * MS;
        seq += 1;
        let mut e = Event::proxy(seq, t, ProxyKind::Sample, "process sample");
        let (cpu, delay, states, reading) = class;
        e.sample = Some(Box::new(sample(t / MS, cpu, delay, states, reading)));
        ev.push(e);
    }
    if let Some(a) = answer {
        seq += 1;
        ev.push(Event::line(
            seq,
            t + MS,
            crate::recording::Source::Engine,
            a,
        ));
    }
    let mut d = Decoder::new(None);
    let mut judge = Judge::new(Profile::default_profile());
    let mut findings = Vec::new();
    for (i, e) in ev.iter().enumerate() {
        let decoded = d.push(e);
        judge.line(e, Some(i as u64 + 1), &decoded, &d, &mut findings);
    }
    let (verdicts, _) = judge.finish(&d, None, &mut findings);
    (findings, verdicts)
}

fn process_rules(f: &[Finding]) -> Vec<RuleId> {
    f.iter()
        .map(|f| f.rule)
        .filter(|r| r.as_str().starts_with("X-HANG-"))
        .collect()
}

const CLASSES: [(RuleId, Class); 6] = [
    (RuleId::XHangSpinning, (950, 10, "R", 0)),
    (RuleId::XHangStarved, (10, 950, "R", 0)),
    (RuleId::XHangWaiting, (1, 0, "S", 1)),
    (RuleId::XHangAsleep, (1, 0, "SS", 0)),
    (RuleId::XHangStopped, (0, 0, "T", 0)),
    (RuleId::XHangBlocked, (5, 0, "D", 0)),
];

#[test]
fn each_class_of_silence_past_the_deadline_fires_its_rule_once() {
    for (rule, class) in CLASSES {
        let (findings, verdicts) = judge(3000, class, None);
        assert_eq!(process_rules(&findings), vec![rule], "{findings:#?}");
        let v = &verdicts[0];
        assert_eq!(v.evidence, "traffic+process");
        let p = v.process.as_ref().expect("a process verdict");
        assert!(v.summary.contains(p.state.as_str()), "{}", v.summary);
        // Placed at the request it explains.
        let f = findings.iter().find(|f| f.rule == rule).unwrap();
        assert_eq!(f.seq, 7, "{f:?}");
    }
}

#[test]
fn an_answer_in_time_or_a_short_silence_fires_none() {
    for (rule, class) in CLASSES {
        // Answered within the deadline (100 ms + 500 ms), samples and all.
        let (findings, verdicts) = judge(500, class, Some("bestmove e2e4"));
        assert!(process_rules(&findings).is_empty(), "{rule}: {findings:#?}");
        assert!(verdicts.is_empty(), "{verdicts:?}");
        // Owed at the end of the input, but no deadline passed yet: no one is at fault.
        let (findings, _) = judge(500, class, None);
        assert!(process_rules(&findings).is_empty(), "{rule}: {findings:#?}");
    }
}

#[test]
fn a_log_without_samples_is_judged_from_the_traffic_alone() {
    let ev = transcript(
        "
        > uci
        < uciok
        > go movetime 100
        > isready
        > isready
        > isready
        > isready
        > isready
        > isready
        > isready
        > isready
        > isready
        > isready
        > isready
        > isready
        > isready
        > isready
    ",
    );
    let mut d = Decoder::new(None);
    let mut judge = Judge::new(Profile::default_profile());
    let mut findings = Vec::new();
    for (i, e) in ev.iter().enumerate() {
        let decoded = d.push(e);
        judge.line(e, Some(i as u64 + 1), &decoded, &d, &mut findings);
    }
    let (verdicts, _) = judge.finish(&d, None, &mut findings);
    assert!(process_rules(&findings).is_empty());
    assert_eq!(verdicts[0].evidence, "traffic");
    assert!(verdicts[0].process.is_none());
}
