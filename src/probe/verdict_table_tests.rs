//! One rule for every card: the counts, the verdict, the exit status and the verdict line
//! agree in every combination of step outcomes and findings, and a step that did not run is
//! never counted as passed.

use super::report::{ProbeReport, Status};
use serde_json::json;

const STATUSES: [(Status, &str); 5] = [
    (Status::Passed, "passed"),
    (Status::Violated, "violated"),
    (Status::Stalled, "stalled"),
    (Status::NotApplicable, "not_applicable"),
    (Status::NotRun, "not_run"),
];

fn finding(severity: &str) -> serde_json::Value {
    json!({"rule": "X-ENGINE-EXIT", "severity": severity, "side": "engine",
           "message": "m", "line": 5, "seq": 4, "t_ns": 1})
}

/// A card with one step of each status in `steps`, and a finding of `severity` on the first
/// step (`on_step`) or on no step's lines.
fn card(steps: &[&str], severity: Option<&str>, on_step: bool) -> ProbeReport {
    let mut list: Vec<serde_json::Value> = steps
        .iter()
        .enumerate()
        .map(|(i, status)| {
            json!({"index": i + 1, "id": "uci.handshake", "title": "t", "status": status,
                   "findings": [], "hangs": [], "observations": []})
        })
        .collect();
    let mut other = Vec::new();
    if let Some(sev) = severity {
        match list.first_mut().filter(|_| on_step) {
            Some(step) => step["findings"] = json!([finding(sev)]),
            None => other.push(finding(sev)),
        }
    }
    let v = json!({
        "schema": "kibitzer-probe/3", "tool": "kibitzer", "recording": "r.jsonl",
        "engine": {"argv": ["e"], "protocol": "uci", "protocol_reason": "given"},
        "timeouts_ms": {"answer": 1, "handshake": 1, "search": 1, "quit": 1, "ready": 1},
        "steps": list, "other_findings": other, "other_hangs": [], "killed": false,
        "starts": [], "summary": {"passed": 0, "violated": 0, "stalled": 0,
        "not_applicable": 0, "not_run": 0, "errors": 0, "warnings": 0, "notes": 0},
        "verdict": "passed", "exit_status": 0
    });
    serde_json::from_value(v).expect("a card")
}

#[test]
fn counts_verdict_exit_status_and_verdict_line_agree_in_every_combination() {
    let mut cards = 0;
    for mask in 0u32..(1 << STATUSES.len()) {
        let steps: Vec<&str> = STATUSES
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, (_, name))| *name)
            .collect();
        for severity in [None, Some("note"), Some("warning"), Some("error")] {
            for on_step in [true, false] {
                let mut r = card(&steps, severity, on_step);
                r.conclude();
                cards += 1;
                let s = r.summary;
                let has = |name: &str| steps.contains(&name);
                let what = format!("steps {steps:?}, finding {severity:?} on a step: {on_step}");
                // Each step counted once, as what it was: a step not run is never passed.
                assert_eq!(
                    (s.passed, s.violated, s.stalled, s.not_applicable, s.not_run),
                    (
                        usize::from(has("passed")),
                        usize::from(has("violated")),
                        usize::from(has("stalled")),
                        usize::from(has("not_applicable")),
                        usize::from(has("not_run"))
                    ),
                    "{what}"
                );
                let errors = usize::from(severity == Some("error"));
                let warnings = usize::from(severity == Some("warning"));
                assert_eq!((s.errors, s.warnings), (errors, warnings), "{what}");
                let failed = errors > 0 || has("stalled") || has("not_run");
                assert_eq!(r.exit_status, i32::from(failed), "{what}");
                let clean = !failed && !has("violated") && warnings == 0;
                let expected = match (failed, clean) {
                    (true, _) => "failed",
                    (false, true) => "passed",
                    (false, false) => "passed with warnings",
                };
                assert_eq!(r.verdict, expected, "{what}");
                assert_eq!(
                    r.cause.is_some(),
                    failed,
                    "{what}: a failed card leads with a cause"
                );
                let text = r.render_text(false);
                let line = text
                    .lines()
                    .find(|l| l.starts_with("verdict: "))
                    .unwrap_or_default();
                let shown = match expected {
                    "failed" => "verdict: FAILED",
                    "passed" => "verdict: PASSED",
                    _ => "verdict: PASSED WITH WARNINGS",
                };
                assert!(line.starts_with(shown), "{what}: {line}");
                if expected == "passed" {
                    assert_eq!(line, "verdict: PASSED", "{what}");
                }
            }
        }
    }
    assert_eq!(cards, 32 * 4 * 2);
}
