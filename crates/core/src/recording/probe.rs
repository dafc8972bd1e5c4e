//! What `kibitzer probe` did or found that the traffic alone does not show, kept typed in its
//! recording so that every reader (the probe's own verdict, `check`, `view`) takes the same
//! fact from it, never words parsed back.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A probe's fact, written as a `note` event carrying a `probe` object (readers that predate
/// it read a note) and read back as kind `probe`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "fact", rename_all = "snake_case")]
pub enum ProbeFact {
    /// A step of the suite begins: the lines up to the next step are its.
    Step {
        /// 1-based, in the order the suite runs them.
        n: u32,
        id: String,
        title: String,
    },
    /// The probe set a depth limit (`sd LIMIT`), then sent `new`, which removes it: how deep a
    /// search on the same clock went with no limit set yet (`before`) and after `new`
    /// (`after`).
    DepthAfterNew { limit: u32, before: u32, after: u32 },
}

impl ProbeFact {
    /// The words the note carries for a reader of the raw file.
    pub fn describe(&self) -> String {
        match self {
            ProbeFact::Step { n, id, title } => format!("probe step {n}: {id} ({title})"),
            ProbeFact::DepthAfterNew {
                limit,
                before,
                after,
            } => format!(
                "probe: on one clock, depth {before} before `sd {limit}`, depth {after} after `new`"
            ),
        }
    }
}
