//! Helpers of the probe tests: `kibitzer probe --format json` run on an engine, its report
//! validated against docs/probe-report.schema.json, and questions asked of it.
#![allow(dead_code)]

use crate::common::{kibitzer, schema};
pub use kibitzer::probe::report::Status;
use kibitzer::probe::report::{ProbeReport, StepReport};
use kibitzer::rules::Finding;
pub use kibitzer::rules::Severity;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub fn script(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines")
        .join(name)
        .to_str()
        .expect("utf-8 path")
        .to_owned()
}

/// A finished probe: the report, the exit status, the recording and what went to stderr.
pub struct Probed {
    pub report: ProbeReport,
    pub status: i32,
    pub recording: PathBuf,
    pub stderr: String,
    _dir: tempfile::TempDir,
}

/// `kibitzer probe OUTPUT... --recording REC ARGS... -- ENGINE...` in a new directory, which
/// holds REC: (what it did, the directory, REC).
fn run_probe(
    output: &[&str],
    args: &[&str],
    engine: &[&str],
) -> (std::process::Output, tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("probe.jsonl");
    let out = kibitzer()
        .arg("probe")
        .args(output)
        .arg("--recording")
        .arg(&rec)
        .args(args)
        .arg("--")
        .args(engine)
        .output()
        .expect("run kibitzer probe");
    (out, dir, rec)
}

/// `kibitzer probe --format json -o REC ARGS... -- ENGINE...`; the report must follow the
/// schema and name the recording, which must exist.
pub fn probe(args: &[&str], engine: &[&str]) -> Probed {
    let (out, dir, rec) = run_probe(&["--format", "json"], args, engine);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let status = out.status.code().unwrap_or(-1);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "probe of {engine:?}: not JSON ({e}), status {status}; stderr: {stderr}\nstdout: {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    let s = schema::load("probe-report.schema.json");
    if let Err(e) = s.validate(&json) {
        panic!("probe report of {engine:?} breaks its schema: {e}\n{json:#}");
    }
    let report: ProbeReport = serde_json::from_value(json).expect("a probe report");
    assert_eq!(Some(report.recording.as_str()), rec.to_str());
    assert!(rec.is_file(), "the recording is kept");
    assert_eq!(report.exit_status, status);
    Probed {
        report,
        status,
        recording: rec,
        stderr,
        _dir: dir,
    }
}

impl Probed {
    pub fn step(&self, id: &str) -> &StepReport {
        self.report
            .steps
            .iter()
            .find(|s| s.id == id)
            .unwrap_or_else(|| panic!("no step {id} in {:#?}", self.report))
    }

    pub fn status_of(&self, id: &str) -> Status {
        self.step(id).status
    }

    /// Rule ids of the step's findings.
    pub fn rules_of(&self, id: &str) -> Vec<&str> {
        self.step(id)
            .findings
            .iter()
            .map(|f| f.rule.as_str())
            .collect()
    }

    /// Every finding in the report, steps and outside.
    pub fn all_findings(&self) -> impl Iterator<Item = &Finding> {
        self.report
            .steps
            .iter()
            .flat_map(|s| &s.findings)
            .chain(&self.report.other_findings)
    }

    /// Every rule id in the report, steps and outside.
    pub fn all_rules(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.all_findings().map(|f| f.rule.as_str()).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The step's finding of `rule`, which must be there with `severity`, on a line of the
    /// step; the finding.
    pub fn expect(&self, id: &str, rule: &str, severity: Severity) -> &Finding {
        let st = self.step(id);
        let f = st
            .findings
            .iter()
            .find(|f| f.rule == rule)
            .unwrap_or_else(|| {
                panic!(
                    "step {id} has no {rule}: {:?}\n{}",
                    self.rules_of(id),
                    self.text()
                )
            });
        assert_eq!(f.severity, severity, "{f:?}");
        let line = f.line.expect("a finding of a probe has a line");
        let [a, b] = st.lines.expect("a step that ran has its lines");
        assert!(
            a <= line && line <= b,
            "{rule} at line {line}, outside {id}'s {a}..{b}"
        );
        assert_eq!(st.status, Status::Violated, "{id}: {st:#?}");
        f
    }

    /// Statuses of all steps, `id=status`, for messages.
    pub fn text(&self) -> String {
        self.report
            .steps
            .iter()
            .map(|s| {
                format!(
                    "{} {} {:?}\n",
                    s.id,
                    s.status.as_str(),
                    s.findings
                        .iter()
                        .map(|f| format!("{}@{}", f.rule, f.line.unwrap_or(0)))
                        .collect::<Vec<_>>()
                )
            })
            .collect()
    }
}

/// `kibitzer probe --color never ARGS... -- ENGINE...` as text: the card and the exit status.
pub fn probe_text(args: &[&str], engine: &[&str]) -> (String, i32) {
    let (out, _dir, _) = run_probe(&["--color", "never"], args, engine);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

impl Probed {
    /// Error-severity findings of the whole report, by rule id (repeats kept).
    pub fn errors(&self) -> Vec<&str> {
        self.all_findings()
            .filter(|f| f.severity == Severity::Error)
            .map(|f| f.rule.as_str())
            .collect()
    }
}
