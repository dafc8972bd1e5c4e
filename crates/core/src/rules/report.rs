//! The report `kibitzer check --format json` prints: typed, versioned (`schema`), documented in
//! `docs/check-report.md` with a JSON Schema in `docs/check-report.schema.json`.

use super::catalogue::{Severity, Side};
use super::finding::Finding;
use super::hang::HangVerdict;
use super::latency::LatencyStats;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

/// Bumped when a field changes meaning or goes away; fields may be added within a version.
pub const SCHEMA: &str = "kibitzer-check/3";

/// The report `kibitzer check --format json` prints.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct CheckReport {
    /// The report's name and version: fields may be added within a version, none changes
    /// meaning or goes away.
    #[serde(deserialize_with = "schema_tag")]
    #[schemars(extend("const" = SCHEMA))]
    pub schema: crate::serde_static::StaticStr,
    /// `kibitzer VERSION`.
    pub tool: String,
    /// The deadline profile the timing rules used.
    #[schemars(extend("enum" = super::profile::Profile::NAMES))]
    pub profile: String,
    /// `--c2w`: the Chess Academy profile the C2W- rules held CECP sessions to (absolute path).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub c2w: Option<String>,
    pub files: Vec<FileReport>,
    pub totals: Totals,
}

/// Everything found in one input file.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct FileReport {
    /// The file as named on the command line (`<stdin>` for `-`).
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
    /// Who owed whom what when the input ended (or at `--at`), per session.
    pub hangs: Vec<HangVerdict>,
    /// What the runner that wrote the log (fastchess, cutechess, xboard, python-chess...)
    /// itself said went wrong with an engine, with kibitzer's check of the claim where the log
    /// allows one. Not findings of kibitzer's: they do not change the exit status.
    pub runner_verdicts: Vec<crate::session::verdicts::VerdictSeen>,
    /// Findings per rule, most severe first.
    pub rule_counts: Vec<RuleCount>,
    /// Latencies per request kind.
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
    /// Its findings by severity.
    pub counts: Counts,
}

/// A session of the file.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SessionInfo {
    /// Its label in a log of several engines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::serde_static::interned_opt"
    )]
    #[schemars(extend("enum" = ["uci", "xboard", "nboard"]))]
    pub protocol: Option<crate::serde_static::StaticStr>,
    /// The engine's name (`id name`, `myname`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

/// How many findings of a rule.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct RuleCount {
    pub rule: crate::rules::catalogue::RuleId,
    pub severity: Severity,
    pub side: Side,
    pub count: usize,
}

/// What its findings make of a run, in every command that judges: an error fails it, a
/// warning leaves it `passed with warnings`, notes and chat leave it `passed`. Commands with
/// a verdict beyond findings add to it, never take from it (a probe step the engine did not
/// do fails the card; a replay that diverged fails whatever its findings).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    Passed,
    PassedWithWarnings,
    Failed,
}

impl Standing {
    /// As the text reports say it.
    pub fn as_str(self) -> &'static str {
        match self {
            Standing::Passed => "passed",
            Standing::PassedWithWarnings => "passed with warnings",
            Standing::Failed => "failed",
        }
    }

    /// The exit status of the convention: 1 for a failed run, else 0 (2, bad input, is
    /// decided before anything is judged).
    pub fn exit_status(self) -> i32 {
        i32::from(self == Standing::Failed)
    }
}

/// Findings by severity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Counts {
    pub error: usize,
    pub warning: usize,
    pub note: usize,
    pub chat: usize,
}

impl Counts {
    /// What these findings make of a run ([`Standing`]).
    pub fn standing(&self) -> Standing {
        if self.error > 0 {
            Standing::Failed
        } else if self.warning > 0 {
            Standing::PassedWithWarnings
        } else {
            Standing::Passed
        }
    }

    pub fn add(&mut self, s: Severity) {
        self.add_n(s, 1);
    }

    /// `n` more of severity `s` (saturating: counts merged from many reports never wrap).
    pub fn add_n(&mut self, s: Severity, n: usize) {
        let c = match s {
            Severity::Error => &mut self.error,
            Severity::Warning => &mut self.warning,
            Severity::Note => &mut self.note,
            Severity::Chat => &mut self.chat,
        };
        *c = c.saturating_add(n);
    }

    /// Every time a rule was broken: a folded finding counts as often as it happened.
    pub fn of<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Counts {
        let mut c = Counts::default();
        for f in findings {
            c.add_n(f.severity, usize::try_from(f.count).unwrap_or(usize::MAX));
        }
        c
    }
}

/// Over every file.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Totals {
    /// Files checked.
    pub files: usize,
    /// Files that could not be read.
    pub unreadable_files: usize,
    pub findings: Counts,
    /// Hang verdicts.
    pub hangs: usize,
}

fn schema_tag<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    crate::serde_static::tag(d, SCHEMA)
}

/// Findings per rule (a folded finding as often as it happened), most severe first, then
/// most frequent, then by id.
pub fn rule_counts(findings: &[Finding]) -> Vec<RuleCount> {
    let mut counts: Vec<RuleCount> = Vec::new();
    for f in findings {
        let n = usize::try_from(f.count).unwrap_or(usize::MAX);
        match counts
            .iter_mut()
            .find(|c| c.rule == f.rule && c.side == f.side)
        {
            Some(c) => c.count += n,
            None => counts.push(RuleCount {
                rule: f.rule,
                severity: f.severity,
                side: f.side,
                count: n,
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

#[cfg(test)]
mod standing_tests {
    use super::{Counts, Standing};
    use crate::rules::Severity;

    /// One finding of each severity: the run's standing is what the severity's meaning says,
    /// and only a failed run gets exit status 1.
    #[test]
    fn a_severity_means_one_standing() {
        for s in [
            Severity::Chat,
            Severity::Note,
            Severity::Warning,
            Severity::Error,
        ] {
            let mut c = Counts::default();
            c.add(s);
            let expected = if s.fails() {
                Standing::Failed
            } else if s.counts_against() {
                Standing::PassedWithWarnings
            } else {
                Standing::Passed
            };
            assert_eq!(c.standing(), expected, "{s:?}");
            assert_eq!(c.standing().exit_status(), i32::from(s == Severity::Error));
        }
        assert_eq!(Counts::default().standing(), Standing::Passed);
        assert_eq!(Counts::default().standing().as_str(), "passed");
    }
}
