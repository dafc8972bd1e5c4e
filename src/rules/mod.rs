//! The one judge: every rule `kibitzer check` applies, with the catalogue they come from.
//!
//! [`catalogue`] names every rule the design knows. The decoder (`session/`) reports what one
//! line breaks, by rule id; [`judge`] passes that on and adds the rules over several lines and
//! over time (order of commands, deadlines from a [`profile`], floods, how the session ended),
//! then [`hang`] says who owes whom what at the end. Each catalogue row records whether a
//! check exists, so that `docs/rules.md` can tell users.
mod c2w_rules;
pub mod catalogue;
pub mod checker;
pub mod finding;
pub mod hang;
pub mod judge;
pub mod profile;
mod protocol_rules;
pub mod report;

pub use crate::rules::catalogue::{
    Decidable, Family, RULES, Rule, RuleId, Severity, Side, render_markdown, rule,
};
pub use checker::{CheckOptions, Checked, Checker, FindingFilter};
pub use finding::{Finding, Place};
pub use hang::{HangClass, HangVerdict};
pub use judge::{Judge, LatencyStats};
pub use profile::Profile;
