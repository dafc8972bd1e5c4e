//! The one judge: every rule `kibitzer check` applies, with the catalogue they come from.
//!
//! [`catalogue`] names every rule the design knows (the `RuleId` enum and each rule's row).
//! The decoder (`session/`) reports facts: a line breaks a rule ([`crate::session::Breach`]),
//! a request opened or closed an obligation, a search started or ended
//! ([`crate::session::Fact`]). [`judge`] alone turns facts into [`Finding`]s,
//! weighed by the catalogue and placed in the input, and adds the rules over several lines
//! and over time (order of commands, deadlines from a [`profile`], floods, how the session
//! ended); [`hang`] says who owes whom what at the end. [`checker`] is the one pipeline every
//! command runs: decoder, judge, profile and the user's choice of findings together.
mod c2w_rules;
pub mod catalogue;
pub mod checker;
pub mod finding;
pub mod forensics;
#[cfg(test)]
mod forensics_tests;
pub mod hang;
pub mod judge;
pub mod latency;
pub mod profile;
mod protocol_rules;
pub mod replay_drift;
pub mod report;
#[cfg(test)]
mod streaming_tests;

pub use crate::rules::catalogue::{
    Decidable, Family, RULES, Rule, RuleId, Severity, Side, render_markdown, rule,
};
pub use checker::{CheckOptions, Checked, Checker, FindingFilter};

pub use finding::{Finding, Place};
pub use hang::{HangClass, HangVerdict};
pub use judge::Judge;
pub use latency::{Histogram, LatencyStats};
pub use profile::Profile;
