//! Runner logs as they are on disk: fastchess appends every run to its `-log` file, and a run
//! may stop in the middle of its games (tests/fixtures/fastchess-tournament: run 1 SIGKILLed
//! during games 9 and 10, run 2 appended after it).

use crate::common::kibitzer;
use serde_json::Value;

const LOG: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/fastchess-tournament/tournament.log.gz"
);

fn check_json() -> Value {
    let out = kibitzer()
        .args(["check", "--format", "json", LOG])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).expect("check --format json")
}

/// Run 1 lasted from 02:57:13 to 02:58:36 (its last line); run 2 began at 02:58:40.
const RUN_1_SPAN_NS: u64 = 84_000_000_000;

#[test]
fn no_wait_is_measured_across_two_runs_of_one_log() {
    let v = check_json();
    let hangs: Vec<&Value> = v["files"][0]["hangs"].as_array().unwrap().iter().collect();
    let run1: Vec<&&Value> = hangs
        .iter()
        .filter(|h| !h["session"].as_str().unwrap_or("").contains("run 2"))
        .collect();
    assert!(
        !run1.is_empty(),
        "the games cut by the kill owe moves: {hangs:#?}"
    );
    for h in &run1 {
        let waited = h["waiting_ns"].as_u64().unwrap_or(0);
        assert!(
            waited < RUN_1_SPAN_NS,
            "a run-1 session measured into run 2: {h:#}"
        );
    }
    // The games the kill cut: their engines owed a move when the log stopped, and say so.
    assert!(
        run1.iter().any(|h| h["summary"]
            .as_str()
            .is_some_and(|s| s.contains("the runner's log stops here"))),
        "{run1:#?}"
    );
}

#[test]
fn the_second_run_has_sessions_of_its_own() {
    let out = kibitzer().args(["dump", LOG]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("[run 2]"), "no session of run 2");
    assert!(text.contains("log_ends"), "run 1's sessions do not end");
    // The near miss: a log of one run has neither.
    let one = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/fastchess/concurrent.log.gz"
    );
    let out = kibitzer().args(["dump", one]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("[run 2]") && !text.contains("log_ends"));
}
