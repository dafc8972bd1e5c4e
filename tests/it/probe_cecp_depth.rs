//! CECP depth: `new` must remove a depth limit set by `sd` (CECP-NEW-STATE, decided by the
//! probe, which set the limit itself), the `sd` step comes last so a limit kept cannot leak
//! into other steps, `?` that tested nothing is never passed, and an engine that drops into
//! its console mode after `analyze`/`exit` is named at that step.

use crate::common::kibitzer;
use crate::probe_support::*;

fn cecp_sd(flags: &[&str]) -> Probed {
    let s = script("cecp_sd.py");
    let mut engine = vec!["python3", s.as_str()];
    engine.extend_from_slice(flags);
    probe(&["--protocol", "xboard", "--timeout", "3"], &engine)
}

#[test]
fn an_engine_keeping_sd_after_new_is_cecp_new_state() {
    let p = cecp_sd(&["--keep-sd"]);
    let f = p.expect("cecp.new-resets-depth", "CECP-NEW-STATE", Severity::Warning);
    assert!(f.message.contains("depth 8"), "{f:?}");
    assert_eq!(p.status, 0, "a warning: {}", p.text());
    // Only there: no other step ran under the limit.
    let elsewhere: Vec<&str> = p
        .report
        .steps
        .iter()
        .filter(|s| s.id != "cecp.new-resets-depth")
        .flat_map(|s| &s.findings)
        .map(|f| f.rule.as_str())
        .filter(|r| *r == "CECP-NEW-STATE")
        .collect();
    assert!(elsewhere.is_empty(), "{}", p.text());
}

#[test]
fn an_engine_that_drops_sd_on_new_passes_the_step() {
    let p = cecp_sd(&[]);
    assert_eq!(
        p.status_of("cecp.new-resets-depth"),
        Status::Passed,
        "{}",
        p.text()
    );
    assert!(!p.all_rules().contains(&"CECP-NEW-STATE"), "{}", p.text());
    assert!(
        p.step("cecp.new-resets-depth")
            .observations
            .iter()
            .any(|o| o.contains("the depth limit is gone")),
        "{:?}",
        p.step("cecp.new-resets-depth").observations
    );
}

#[test]
fn a_fall_back_to_the_console_after_exit_is_named_at_the_analyze_step() {
    let p = cecp_sd(&["--console-after-exit"]);
    let analyze = p.step("cecp.analyze");
    assert!(
        analyze
            .observations
            .iter()
            .any(|o| o.contains("left xboard mode") && o.contains("White (1)")),
        "{:?}",
        analyze.observations
    );
    // The near miss: the same engine without it.
    let plain = cecp_sd(&[]);
    assert!(
        plain
            .report
            .steps
            .iter()
            .flat_map(|s| &s.observations)
            .all(|o| !o.contains("left xboard mode")),
        "{}",
        plain.text()
    );
}

#[test]
fn move_now_that_tested_nothing_is_never_passed_and_fairy_max_keeps_sd() {
    let fm = crate::common::engine("fairymax");
    let p = probe(&["--protocol", "xboard"], &[fm.to_str().unwrap()]);
    let step = p.step("cecp.move-now");
    assert_eq!(step.status, Status::NotApplicable, "{}", p.text());
    let why = step.reason.as_deref().unwrap_or_default();
    assert!(
        why.contains("does not take ?") || why.contains("moved before ?"),
        "{why}"
    );
    p.expect("cecp.new-resets-depth", "CECP-NEW-STATE", Severity::Warning);
    assert_eq!(p.status, 0, "{}", p.text());
}

#[test]
fn c2w_suggest_does_not_credit_fairy_max_with_move_now() {
    let fm = crate::common::engine("fairymax");
    let dir = tempfile::tempdir().unwrap();
    let out = kibitzer()
        .args(["c2w", "suggest", "--format", "json", "-o"])
        .arg(dir.path().join("fm.c2w"))
        .arg("--recording")
        .arg(dir.path().join("s.jsonl"))
        .arg("--")
        .arg(&fm)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&out.stderr));
    });
    // It answers `Error (unknown command): ?`: 0, or undecided when it moved before `?`.
    let move_now = &json["found"]["move_now"];
    assert_ne!(move_now, &serde_json::Value::Bool(true), "{json:#}");
    let profile = json["profile"].as_str().unwrap_or_default();
    assert!(!profile.contains("EngineMoveNow=1"), "{profile}");
}
