//! The NBoard suite (placeholder while it is written).
use super::run::Step;

pub fn suite() -> Vec<Step<()>> {
    Vec::new()
}
