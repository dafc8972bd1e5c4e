//! The judge over the decoder's streaming detection: lines decoded only once a later line
//! decided the protocol are judged at their own place.

use crate::protocol;
use crate::rules::catalogue::RuleId;
use crate::rules::{Judge, Profile};
use crate::session::tests::transcript;
use crate::session::{At, Decoder};

#[test]
fn streaming_detection_replays_earlier_lines_at_their_time_with_their_findings() {
    // `go` alone decides nothing; the engine's `info` does, two lines later.
    let ev = transcript(
        "
        < Stockfish 16 by the Stockfish developers
        > go
        < info depth 1 score cp 10 pv e2e5
    ",
    );
    let mut d = Decoder::new(None);
    let mut judge = Judge::new(Profile::named("spec").unwrap());
    let mut findings = Vec::new();
    let mut out = Vec::new();
    for (i, e) in ev.iter().enumerate() {
        d.set_input_line(i as u64 + 10);
        let decoded = d.push(e);
        judge.line(e, Some(i as u64 + 10), &decoded, &d, &mut findings);
        out.push(decoded);
    }
    assert!(out[1].msg.is_none(), "undecided when it came");
    let earlier = &out[2].earlier;
    assert_eq!(earlier.len(), 2);
    assert_eq!(
        earlier[1].at,
        At {
            seq: 2,
            t: 100_000_000
        }
    );
    assert_eq!(earlier[1].line, Some(11));
    assert!(matches!(earlier[1].msg, protocol::Msg::Uci(_)));
    // The banner's finding is no longer dropped, and the judge places it on its own line.
    assert_eq!(earlier[0].breaches[0].rule, RuleId::UciUnknownCommand);
    let banner = findings
        .iter()
        .find(|f| f.rule == RuleId::UciUnknownCommand);
    assert_eq!(
        banner.map(|f| (f.line, f.seq, f.t_ns)),
        Some((Some(10), 1, 0))
    );
    let owed: Vec<_> = d.open_obligations(0).cloned().collect();
    assert_eq!(owed.len(), 1, "{owed:?}");
    assert_eq!(
        owed[0].opened,
        At {
            seq: 2,
            t: 100_000_000
        }
    );
}

#[test]
fn a_search_given_a_movetime_is_measured_against_it() {
    // `go movetime 100` answered 300 ms later: 200 ms beyond its movetime.
    let ev = transcript(
        "
        > uci
        < uciok
        > isready
        < readyok
        > position startpos
        > go movetime 100
        < info depth 1 time 150 score cp 10 pv e2e4
        < info depth 2 time 250 score cp 12 pv e2e4
        < bestmove e2e4
    ",
    );
    let mut d = Decoder::new(None);
    let mut judge = Judge::new(Profile::named("spec").unwrap());
    let mut findings = Vec::new();
    for (i, e) in ev.iter().enumerate() {
        d.set_input_line(i as u64 + 1);
        let decoded = d.push(e);
        judge.line(e, Some(i as u64 + 1), &decoded, &d, &mut findings);
    }
    let (_, latencies) = judge.finish(&d, None, &mut findings);
    let row = |name: &str| {
        latencies
            .whole
            .iter()
            .find(|l| l.request == name)
            .map(|l| (l.count, l.max_ms))
    };
    assert_eq!(row("go→bestmove").map(|r| r.0), Some(1));
    let beyond = row("go→bestmove beyond movetime").map(|(n, ms)| (n, ms.round() as u64));
    // Within the histogram's 1/8.
    assert!(
        beyond.is_some_and(|(n, ms)| n == 1 && (175..=225).contains(&ms)),
        "{beyond:?}"
    );
    let reported = row("go→bestmove beyond reported time").map(|r| r.0);
    assert_eq!(reported, Some(1));
}
