//! The rules `kibitzer check` applies to decoded sessions.
//!
//! [`catalogue`] names every rule the design knows; the checks themselves are added one id at a
//! time, and [`implemented_ids`] records which exist so that `docs/rules.md` can tell users.
pub mod catalogue;

pub use catalogue::{Decidable, Family, RULES, Rule, Severity, Side, render_markdown, rule};

/// Ids of the rules that have a check in the code. `docs/rules.md` shows this list as each
/// rule's status, so adding a check means adding its id here and regenerating the page.
pub fn implemented_ids() -> &'static [&'static str] {
    &[]
}
