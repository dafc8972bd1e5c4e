//! `kibitzer view`: the terminal viewer, a thin shell over the same decoded session and rules
//! stage as `decode` and `check`.
//!
//! `doc` holds what the reader thread built (rows, findings, the decoder and judge), `app`
//! the viewer's state and its one `update` (every key is an [`keys::Action`]), `draw` one
//! frame from both, `term` the terminal and the event loop.

pub mod app;
pub mod board;
pub mod config;
pub mod doc;
pub mod draw;
pub mod filter;
pub mod keys;
pub mod layout;
pub mod load;
pub mod prompt;
pub mod pv;
pub mod term;
pub mod theme;

pub use app::{App, Options};
pub use doc::Doc;
pub use keys::{Action, KeyMap};
pub use theme::Theme;

/// `3 lines`, `1 line`: every count the viewer says in words.
pub fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}
