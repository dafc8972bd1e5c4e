//! The report `kibitzer check --format json` prints: typed, versioned (`schema`), documented in
//! `docs/check-report.md` with a JSON Schema in `docs/check-report.schema.json`.

use super::catalogue::{Severity, Side};
use super::finding::Finding;
use super::hang::HangVerdict;
use super::judge::LatencyStats;
use serde::Serialize;

/// Bumped when a field changes meaning or goes away; fields may be added within a version.
pub const SCHEMA: &str = "kibitzer-check/1";

#[derive(Debug, Clone, Serialize)]
pub struct CheckReport {
    pub schema: &'static str,
    pub tool: String,
    /// The deadline profile the timing rules used.
    pub profile: String,
    /// `--c2w`: the Chess Academy profile the C2W- rules held CECP sessions to (absolute path).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub c2w: Option<String>,
    pub files: Vec<FileReport>,
    pub totals: Totals,
}

/// Everything found in one input file.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    pub file: String,
    /// `recording` or the log format it was read as.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// Why the file could not be read (then nothing else is filled in).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub sessions: Vec<SessionInfo>,
    /// In input order.
    pub findings: Vec<Finding>,
    pub hangs: Vec<HangVerdict>,
    /// What the runner that wrote the log (fastchess, cutechess, xboard, python-chess...)
    /// itself said went wrong with an engine, with kibitzer's check of the claim where the log
    /// allows one. Not findings of kibitzer's: they do not change the exit status.
    pub runner_verdicts: Vec<crate::session::verdicts::VerdictSeen>,
    /// Findings per rule, most severe first.
    pub rule_counts: Vec<RuleCount>,
    pub latencies: Vec<LatencyStats>,
    /// Lines of a recording that could not be read (a torn last line included).
    pub skipped_lines: Vec<u64>,
    /// Of those, the lines lost (all but a torn last line): the input is then unreadable in
    /// part and the exit status is 2.
    pub lost_lines: usize,
    /// The `.c2w` profile this file was held to because its recording was made under it
    /// (`record --c2w` notes it in the header), when `--c2w` did not name one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub c2w_from_header: Option<String>,
    pub counts: Counts,
}

#[derive(Debug, Clone, Serialize)]
pub struct SessionInfo {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RuleCount {
    pub rule: crate::rules::catalogue::RuleId,
    pub severity: Severity,
    pub side: Side,
    pub count: usize,
}

/// Findings by severity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub error: usize,
    pub warning: usize,
    pub note: usize,
    pub chat: usize,
}

impl Counts {
    pub fn add(&mut self, s: Severity) {
        match s {
            Severity::Error => self.error += 1,
            Severity::Warning => self.warning += 1,
            Severity::Note => self.note += 1,
            Severity::Chat => self.chat += 1,
        }
    }

    pub fn of(findings: &[Finding]) -> Counts {
        let mut c = Counts::default();
        for f in findings {
            c.add(f.severity);
        }
        c
    }
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Totals {
    pub files: usize,
    pub unreadable_files: usize,
    pub findings: Counts,
    pub hangs: usize,
}

/// Findings per rule, most severe first, then most frequent, then by id.
pub fn rule_counts(findings: &[Finding]) -> Vec<RuleCount> {
    let mut counts: Vec<RuleCount> = Vec::new();
    for f in findings {
        match counts
            .iter_mut()
            .find(|c| c.rule == f.rule && c.side == f.side)
        {
            Some(c) => c.count += 1,
            None => counts.push(RuleCount {
                rule: f.rule,
                severity: f.severity,
                side: f.side,
                count: 1,
            }),
        }
    }
    counts.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then(b.count.cmp(&a.count))
            .then(a.rule.as_str().cmp(b.rule.as_str()))
    });
    counts
}
