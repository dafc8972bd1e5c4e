//! Rules about the order of a protocol's commands: what may come first, what must precede a
//! search, what must not come during one. Each protocol keeps a few flags per session; the
//! decoder's facts (searches started and ended, obligations) and state (modes, features, the
//! handshake) answer the rest.
//!
//! One file per protocol, each an `impl Tracker` block with that protocol's flags
//! (`UciRules`, `CecpRules`, `NboardRules`); here only what they share.

mod cecp_rules;
mod nboard_rules;
mod uci_rules;

use super::judge::{Out, Tracker};
use crate::session::Session;

pub(crate) use cecp_rules::CecpRules;
pub(crate) use nboard_rules::NboardRules;
pub(crate) use uci_rules::UciRules;

impl Tracker {
    /// Rules about how a session starts apply when the input holds the start.
    fn at_start(&self) -> bool {
        self.saw_start && self.starts_mid == Some(false)
    }

    /// Rules decided once the session's input is over.
    pub(crate) fn session_end(&mut self, s: Option<&Session>, out: &mut Out<'_>) {
        self.uci_session_end(out);
        if let Some(s) = s {
            self.cecp_session_end(s, out);
        }
    }
}
