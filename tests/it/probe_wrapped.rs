//! Real Stockfish wrapped to break one rule each (tests/engines/sf_wrap.py): the faults
//! fastchess --compliance checks and those it misses, each named by its rule id (or by the
//! card's note) with the right exit status, and the unwrapped control passing.

use crate::probe_support::*;

fn wrapped(args: &[&str], fault: &[&str]) -> Probed {
    let s = script("sf_wrap.py");
    let mut engine = vec!["python3", s.as_str()];
    engine.extend_from_slice(fault);
    let mut all = vec!["--protocol", "uci"];
    all.extend_from_slice(args);
    probe(&all, &engine)
}

#[test]
fn the_wrapper_alone_passes() {
    let p = wrapped(&[], &["none"]);
    assert_eq!(p.errors(), Vec::<&str>::new(), "{}", p.text());
    assert_eq!(p.status, 0, "{}", p.text());
    assert_eq!(p.report.starts.len(), 1);
}

#[test]
fn no_id_author_is_uci_id_missing_a_warning() {
    let p = wrapped(&[], &["no-author"]);
    let f = p.expect("uci.handshake", "UCI-ID-MISSING", Severity::Warning);
    assert!(f.message.contains("id author"), "{f:?}");
    assert_eq!(
        p.status,
        0,
        "a warning does not fail the card: {}",
        p.text()
    );
    assert_eq!(p.report.verdict, "passed with warnings");
}

#[test]
fn no_uciok_is_uci_uciok_timeout_alone() {
    let p = wrapped(&["--timeout", "2"], &["no-uciok"]);
    p.expect("uci.handshake", "UCI-UCIOK-TIMEOUT", Severity::Error);
    assert_eq!(p.errors(), ["UCI-UCIOK-TIMEOUT"], "{}", p.text());
    assert_eq!(p.status, 1);
}

#[test]
fn a_crash_on_a_one_sided_clock_fails_with_its_traceback_on_the_card() {
    let p = wrapped(&[], &["one-sided-clock"]);
    p.expect("uci.go-one-clock", "X-ENGINE-EXIT", Severity::Error);
    assert_eq!(p.status, 1);
    let first = &p.report.starts[0];
    assert!(
        first.stderr_tail.iter().any(|l| l.contains("RuntimeError")),
        "{first:?}"
    );
    // The rest ran on a fresh start, and passed.
    assert_eq!(p.status_of("uci.quit"), Status::Passed, "{}", p.text());
    assert_eq!(p.step("uci.quit").start, Some(2));
}

#[test]
fn a_search_without_any_score_gets_a_note() {
    let p = wrapped(&[], &["no-score"]);
    let step = p.step("uci.go-depth");
    assert!(
        step.observations
            .iter()
            .any(|o| o.starts_with("note: no `info ... score`")),
        "{:?}",
        step.observations
    );
    assert_eq!(p.status, 0, "a note does not fail the card: {}", p.text());
    // Stockfish itself scores every search: no such note.
    let control = wrapped(&[], &["none"]);
    assert!(
        control
            .report
            .steps
            .iter()
            .flat_map(|s| &s.observations)
            .all(|o| !o.contains("no `info ... score`")),
        "{}",
        control.text()
    );
}

#[test]
fn a_crash_on_setoption_names_the_option() {
    let p = wrapped(&[], &["crash-on-option", "Threads"]);
    p.expect("uci.options", "X-ENGINE-EXIT", Severity::Error);
    let cause = p.report.cause.as_ref().expect("a cause");
    assert!(cause.what.contains("setoption name Threads"), "{cause:?}");
    assert_eq!(p.status, 1);
}

#[test]
fn an_ignored_stop_is_uci_bestmove_missing_after_stop() {
    let p = wrapped(&["--timeout", "2"], &["ignore-stop"]);
    p.expect(
        "uci.go-infinite-stop",
        "UCI-BESTMOVE-MISSING-AFTER-STOP",
        Severity::Error,
    );
    assert_eq!(p.status, 1);
}

#[test]
fn an_illegal_bestmove_is_uci_bestmove_illegal() {
    let p = wrapped(&[], &["illegal-bestmove"]);
    p.expect("uci.go-depth", "UCI-BESTMOVE-ILLEGAL", Severity::Error);
    assert_eq!(p.status, 1);
}

#[test]
fn quick_runs_the_short_suite_and_still_names_the_fault() {
    let p = wrapped(&["--quick"], &["none"]);
    let ids: Vec<&str> = p.report.steps.iter().map(|s| s.id).collect();
    assert_eq!(
        ids,
        kibitzer::probe::QUICK
            .iter()
            .copied()
            .filter(|id| id.starts_with("uci."))
            .collect::<Vec<_>>()
    );
    assert_eq!(p.status, 0, "{}", p.text());
    let bad = wrapped(&["--quick"], &["illegal-bestmove"]);
    bad.expect("uci.go-depth", "UCI-BESTMOVE-ILLEGAL", Severity::Error);
    assert_eq!(bad.status, 1);
    // No restart under --quick.
    let crash = wrapped(&["--quick"], &["one-sided-clock"]);
    crash.expect("uci.go-one-clock", "X-ENGINE-EXIT", Severity::Error);
    assert_eq!(crash.report.starts.len(), 1);
    assert_eq!(crash.status_of("uci.quit"), Status::NotRun);
}
