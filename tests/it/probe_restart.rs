//! A give-up does not hide the rest: after the engine is given up on (a hang, an exit) it is
//! started again, shakes hands again, and the remaining steps run on the fresh process; the
//! card says which step ran on which start, and the restarts are bounded.

use crate::common::kibitzer;
use crate::probe_support::*;

#[test]
fn the_card_says_which_start_each_step_ran_on_and_one_recording_holds_them_all() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("p.jsonl");
    let s = script("scenario_engine.py");
    let out = kibitzer()
        .args([
            "probe",
            "--color",
            "never",
            "--protocol",
            "uci",
            "--timeout",
            "3",
        ])
        .arg("--recording")
        .arg(&rec)
        .args(["--", "python3", &s, "crash-mid-search"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let nodes = text
        .lines()
        .find(|l| l.contains("uci.go-nodes") && !l.starts_with("FAILED"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        nodes.contains("passed") && nodes.ends_with("[start 2]"),
        "{text}"
    );
    assert!(text.contains("engine start 2 (steps 6-): "), "{text}");
    assert!(
        text.contains("start 2, handshake again: uciok after"),
        "{text}"
    );
    // The restarts' lines are in the one recording, each start its own session, and no part
    // file is left beside it.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["p.jsonl"]);
    let recording = std::fs::read_to_string(&rec).unwrap();
    assert!(recording.contains(r#""session":"start 2""#));
    let check = kibitzer().arg("check").arg(&rec).output().unwrap();
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(said.contains("X-ENGINE-EXIT"), "{said}");
    assert!(
        !String::from_utf8_lossy(&check.stderr).contains("time goes backwards"),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
}

#[test]
fn an_engine_that_cannot_shake_hands_is_not_restarted() {
    let p = probe(
        &["--protocol", "uci", "--timeout", "2"],
        &["python3", &script("uci_faulty.py"), "--no-uciok"],
    );
    assert_eq!(p.report.starts.len(), 1, "{}", p.text());
    assert!(
        p.report.steps[1..]
            .iter()
            .all(|s| s.status == Status::NotRun),
        "{}",
        p.text()
    );
}

#[test]
fn a_hang_after_the_handshake_is_restarted_and_the_restarts_are_bounded() {
    // Never answers `stop`: each start hangs at its first `stop`, the restarts are bounded.
    let p = probe(
        &["--protocol", "uci", "--timeout", "2"],
        &["python3", &script("scenario_engine.py"), "ignores-stop"],
    );
    p.expect(
        "uci.go-infinite-stop",
        "UCI-BESTMOVE-MISSING-AFTER-STOP",
        Severity::Error,
    );
    assert!(p.report.starts.len() >= 2, "{}", p.text());
    assert!(p.report.starts.len() <= 5, "bounded: {}", p.text());
    let first = &p.report.starts[0];
    assert!(first.killed, "{first:?}");
    assert!(
        p.report
            .steps
            .iter()
            .any(|s| s.start == Some(2) && s.status != Status::NotRun),
        "{}",
        p.text()
    );
}
