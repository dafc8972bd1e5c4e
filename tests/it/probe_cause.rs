//! One root cause, one error: the probe's own giving up (closing the input, SIGTERM after a
//! stall) is not counted as the engine's fault a second time, and a failed card says first
//! why it failed and what to fix.

use crate::probe_support::*;

const TIMEOUT: &str = "2";

fn faulty(fault: &str) -> Vec<String> {
    vec!["python3".into(), script("uci_faulty.py"), fault.into()]
}

fn as_strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn a_missing_uciok_is_one_error_named_first_on_the_card() {
    let engine = faulty("--no-uciok");
    let p = probe(
        &["--protocol", "uci", "--timeout", TIMEOUT],
        &as_strs(&engine),
    );
    assert_eq!(p.errors(), ["UCI-UCIOK-TIMEOUT"], "{}", p.text());
    assert_eq!(p.report.summary.errors, 1);
    assert_eq!(p.status, 1);
    let cause = p.report.cause.as_ref().expect("a failed card has a cause");
    assert_eq!(cause.rule.map(|r| r.as_str()), Some("UCI-UCIOK-TIMEOUT"));
    assert_eq!(cause.step_id.as_deref(), Some("uci.handshake"));
    assert!(cause.fix.contains("uciok"), "{cause:?}");

    let (text, status) = probe_text(
        &["--protocol", "uci", "--timeout", TIMEOUT],
        &as_strs(&engine),
    );
    assert_eq!(status, 1);
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("FAILED because step 1 uci.handshake: UCI-UCIOK-TIMEOUT")
            && first.contains("; fix: "),
        "{text}"
    );
    assert!(!text.contains("X-HANG"), "{text}");
}

#[test]
fn a_never_answered_isready_is_one_error() {
    let engine = faulty("--no-readyok");
    let p = probe(
        &["--protocol", "uci", "--timeout", TIMEOUT],
        &as_strs(&engine),
    );
    let errors = p.errors();
    assert!(
        errors.iter().all(|r| *r == "UCI-ISREADY-TIMEOUT") && !errors.is_empty(),
        "{errors:?}\n{}",
        p.text()
    );
    assert!(!p.all_rules().contains(&"X-HANG"), "{}", p.text());
    assert!(!p.all_rules().contains(&"X-ENGINE-EXIT"), "{}", p.text());
}

#[test]
fn an_ignored_stop_is_one_error() {
    let p = probe(
        &["--protocol", "uci", "--timeout", TIMEOUT],
        &["python3", &script("scenario_engine.py"), "ignores-stop"],
    );
    let step = p.step("uci.go-infinite-stop");
    let errors: Vec<&str> = step
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.rule.as_str())
        .collect();
    assert_eq!(errors, ["UCI-BESTMOVE-MISSING-AFTER-STOP"], "{}", p.text());
    let cause = p.report.cause.as_ref().expect("a cause");
    assert_eq!(
        cause.rule.map(|r| r.as_str()),
        Some("UCI-BESTMOVE-MISSING-AFTER-STOP")
    );
}

#[test]
fn a_passed_card_has_no_cause() {
    let p = probe(
        &["--protocol", "uci", "--timeout", "3"],
        &["python3", &script("scenario_engine.py"), "well-behaved"],
    );
    if p.report.verdict == "failed" {
        assert!(p.report.cause.is_some());
    } else {
        assert!(p.report.cause.is_none(), "{:?}", p.report.cause);
    }
}

/// An engine that answers the handshake and then exits, owing nothing: the rest of the suite
/// is not run, and a card with steps not run is never PASSED.
#[test]
fn an_engine_gone_after_the_handshake_fails_with_the_reason() {
    let script = "import sys\nfor l in sys.stdin:\n    if l.startswith('uci'):\n        print('id name gone'); print('uciok'); sys.stdout.flush(); sys.exit(0)\n";
    let p = probe(
        &["--protocol", "uci", "--timeout", TIMEOUT],
        &["python3", "-c", script],
    );
    assert!(p.report.summary.not_run > 0, "{}", p.text());
    assert_eq!(p.report.verdict, "failed", "{}", p.text());
    assert_eq!(p.status, 1);
    // Whether the next request was already owed when it went (X-ENGINE-EXIT) or not (the
    // steps not run), the card says why it failed.
    let cause = p.report.cause.as_ref().expect("a failed card has a cause");
    assert!(
        ["exited", "gone", "closed its output"]
            .iter()
            .any(|w| cause.what.contains(w)),
        "{cause:?}"
    );
    assert!(!p.text().contains("verdict: PASSED"), "{}", p.text());
}
