//! kibitzer's sans-IO core: what every command builds on, with no processes, files,
//! terminals, threads or runtime (its dependency tree says so, and `tests/it/layers.rs` checks
//! it). The front ends (the proxy, the importers, the input module, the report, replay, probe,
//! the viewer, the command line) are the `kibitzer` crate above it.
//!
//! The layers, bottom first (a module uses its own layer or those below; the `kibitzer`
//! crate's `layers.rs` test reads the sources of both crates):
//!
//! - `untrusted` (the one output-safety rule: what engines and logs say is shown escaped),
//!   `serde_static` (reading reports back: their `&'static str` texts), `swar` (byte
//!   scanning), `rules::catalogue` (the `RuleId` enum and every rule's row: side, severity,
//!   spec sentence);
//! - `recording` (events and the JSONL format), `game` (boards: chess, Othello, GGF, PGN);
//! - `protocol` (a line to a typed message; no findings of its own but syntax);
//! - `session` (the decoder: messages to the session model, obligations, searches, boards,
//!   and the facts each line breaks, named by `RuleId`);
//! - `rules` (the judge: facts plus profile and `.c2w` to findings with the catalogue's
//!   severity, deadlines, the hang verdict).
#![deny(unsafe_code)]

pub mod game;
pub mod protocol;
pub mod recording;
pub mod rules;
#[doc(hidden)]
pub mod serde_static;
pub mod session;
#[doc(hidden)]
pub mod swar;
pub mod units;
pub mod untrusted;
