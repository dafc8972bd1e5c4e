//! What the rules stage reports: a finding, located in the input.

use crate::rules::catalogue::{RuleId, Severity, Side};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A rule of the catalogue broken at one place of the input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Finding {
    /// Catalogue id.
    pub rule: RuleId,
    pub severity: Severity,
    /// Who is at fault.
    pub side: Side,
    pub message: String,
    /// The session's label in a log of several engines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// Line of the input file (the log's own line for imported logs), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// Event number and time since the start (ns) of the line the finding is on.
    pub seq: u64,
    /// Nanoseconds since the start.
    pub t_ns: u64,
    /// How many times the session broke the rule, when the judge folds repeats (`check`,
    /// `decode` and `view` do, unless `--every`): this finding is the first, and a rule broken
    /// on every move is one finding with its count. Absent when 1.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    #[schemars(range(min = 2))]
    pub count: u64,
    /// The input line of the last time, when folded and known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_line: Option<u64>,
}

fn one() -> u64 {
    1
}

fn is_one(n: &u64) -> bool {
    *n == 1
}

/// Where a finding is: the event the judge was looking at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Place {
    pub line: Option<u64>,
    pub seq: u64,
    pub t: u64,
}

impl Finding {
    /// `(N times, last at line L)` for a folded finding, nothing for a single one.
    pub fn repeats_note(&self) -> Option<String> {
        (self.count > 1).then(|| match self.last_line {
            Some(l) => format!("{} times in the session, the last at line {l}", self.count),
            None => format!("{} times in the session", self.count),
        })
    }

    /// A finding of rule `id` at `place`; `side` resolves rules of either side.
    pub fn new(
        id: RuleId,
        side: Option<Side>,
        place: Place,
        session: Option<&str>,
        message: impl Into<String>,
    ) -> Finding {
        let (severity, side) = crate::rules::catalogue::weigh(id, side);
        Finding {
            rule: id,
            severity,
            side,
            message: message.into(),
            session: session.map(str::to_owned),
            line: place.line,
            seq: place.seq,
            t_ns: place.t,
            count: 1,
            last_line: None,
        }
    }
}
