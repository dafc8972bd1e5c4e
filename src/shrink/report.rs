//! The shrink report: typed, serialised as `shrink --format json` (schema
//! `docs/shrink-report.schema.json`, `"schema"` [`SCHEMA`]) and printed as text.

use crate::untrusted::Untrusted;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt::Write as _;

/// What the JSON report's `schema` field says (`kibitzer-NAME/N`, N bumped on any incompatible
/// change), the convention of every report.
pub const SCHEMA: &str = "kibitzer-shrink/1";

/// The report `kibitzer shrink --format json` prints.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ShrinkReport {
    /// The report's name and version.
    #[serde(deserialize_with = "schema_tag")]
    #[schemars(extend("const" = SCHEMA))]
    pub schema: crate::serde_static::StaticStr,
    pub original: Session,
    /// The engine the candidates ran against: command and arguments.
    pub engine_argv: Vec<String>,
    /// The fault kept, in words (`UCI-BESTMOVE-ILLEGAL (engine)`, `crash ...`).
    pub fault: String,
    /// The rule id when the fault is a rule's finding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Tries per candidate, and how many of them must show the fault.
    pub tries: usize,
    pub min_repro: usize,
    /// Engines run side by side.
    pub jobs: usize,
    /// How often the original showed the fault.
    pub original_rate: Rate,
    pub result: Session,
    /// How often the result showed it, in tries of its own.
    pub result_rate: Rate,
    /// The result's GUI lines, in order (the `--script` file).
    pub script: Vec<String>,
    /// The result's recording (`-o`), when written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recording: Option<String>,
    /// Engine runs, all candidates together.
    pub tries_made: usize,
    pub elapsed_ms: u64,
    /// `--budget` ran out: the result is the best found by then.
    pub budget_exhausted: bool,
    /// Where each phase left the session.
    pub phases: Vec<PhaseResult>,
}

/// A session's size.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Session {
    /// As named on the command line (the original only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// GUI lines.
    pub lines: usize,
    pub games: usize,
    /// `go` lines.
    pub searches: usize,
}

/// Tries that showed the fault, of those made.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
pub struct Rate {
    pub reproduced: usize,
    pub tried: usize,
}

impl Rate {
    fn text(self) -> String {
        format!(
            "{} of {} tries ({:.0}%)",
            self.reproduced,
            self.tried,
            100.0 * self.reproduced as f64 / self.tried.max(1) as f64
        )
    }
}

/// One phase of the search.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct PhaseResult {
    pub phase: String,
    /// GUI lines of the best candidate after it.
    pub lines: usize,
    /// Engine runs so far.
    pub tries: usize,
    pub elapsed_ms: u64,
}

fn schema_tag<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    crate::serde_static::tag(d, SCHEMA)
}

impl ShrinkReport {
    /// The summary, then the result's lines.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let (o, r) = (&self.original, &self.result);
        let _ = writeln!(
            s,
            "shrink of {}: {}",
            Untrusted(o.file.as_deref().unwrap_or("-")),
            self.fault
        );
        let _ = writeln!(
            s,
            "from {} lines / {} games / {} searches to {} lines / {} games / {} searches",
            o.lines, o.games, o.searches, r.lines, r.games, r.searches
        );
        let _ = writeln!(
            s,
            "{} tries in {:.1} s ({} per candidate, reproduced when {} show it; {} side by side){}",
            self.tries_made,
            self.elapsed_ms as f64 / 1000.0,
            self.tries,
            self.min_repro,
            self.jobs,
            if self.budget_exhausted {
                "; the budget ran out: the best found by then"
            } else {
                ""
            }
        );
        let _ = writeln!(
            s,
            "the original reproduced it in {}; the result in {}",
            self.original_rate.text(),
            self.result_rate.text()
        );
        if let Some(rec) = &self.recording {
            let _ = writeln!(s, "recording: {}", Untrusted(rec));
        }
        let _ = writeln!(s, "GUI lines:");
        for l in &self.script {
            let _ = writeln!(s, "  {}", Untrusted(l));
        }
        s
    }
}
