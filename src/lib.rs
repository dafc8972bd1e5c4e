//! kibitzer: record, decode, check, view, replay and probe GUI <-> engine protocol traffic.
//!
//! The layers, bottom first (a module uses its own layer or those below; `layers.rs` tests
//! it). The first five are the sans-IO core, the crate `kibitzer-core` (crates/core), which
//! the compiler keeps below the rest:
//!
//! - `untrusted` (the one output-safety rule: what engines and logs say is shown escaped),
//!   `serde_static` (reading reports back: their `&'static str` texts),
//!   `rules::catalogue` (the `RuleId` enum, born in `rules/` and below every other layer and every rule's row: side, severity, spec sentence),
//!   `signals` (the one place that installs signal handlers);
//! - `recording` (events and the JSONL format), `game` (boards: chess, Othello, GGF);
//! - `protocol` (a line to a typed message; no findings of its own but syntax);
//! - `session` (the decoder: messages to the session model, obligations, searches, boards,
//!   and the facts each line breaks, named by `RuleId`);
//! - `rules` (the judge: facts plus profile and `.c2w` to findings with the catalogue's
//!   severity, deadlines, the hang verdict);
//! - `import` (foreign logs to events), `export` (PGN, GGF), `capture` (the tee proxy);
//! - `input` (opens any recording, log, `-` or `.gz` for every command; follows live files);
//! - `replay` (a session sent to an engine, or answered as one), `shrink` (a session cut to
//!   the shortest that still shows its fault), `probe` (the conformance run), `schemas` (the
//!   reports' JSON Schemas in docs/, generated from their types), `tui` (the viewer), `cli`
//!   (the commands).
//!
//! Data flow (docs/architecture.md draws it): every command that reads opens its input
//! through `input` (recording, log, `-`, `.gz`, or a recording still being written) and gets
//! events and unreadable lines the same way. Every command that judges feeds the events to
//! one `rules::Checker`, built from `rules::CheckOptions` (protocol, deadline profile, the
//! `.c2w` profile given or found in a recording's header, the findings asked for): its
//! `session::Decoder` turns lines into the session model and typed facts (`Breach`: a line
//! breaks rule X; `session::Fact`: obligations opened and closed with their `Request` kind,
//! searches started and ended), and its `rules::Judge` alone weighs
//! facts into `Finding`s with the catalogue's severity, adds the rules over time, and gives
//! the hang verdict. `check` prints the findings, `decode` prints them under the lines they
//! are about, `view` files them under its rows, `replay` judges the original and the new
//! recording with it, and `probe` judges the recording of its run with it. `protocol`,
//! `session`, `game` and `rules` are sans-IO: no processes, files or terminals.
#![deny(unsafe_code)]

// The sans-IO core is a crate of its own (crates/core): the compiler keeps it free of the
// front ends. Its modules are re-exported here, so `crate::rules` reads the same everywhere.
pub use kibitzer_core::{
    eprintln_safe, game, protocol, recording, rules, serde_static, session, swar, units, untrusted,
};

pub mod capture;
pub mod cli;
pub mod export;
pub mod import;
pub mod input;
#[cfg(test)]
mod layers;
pub mod probe;
pub mod replay;
pub mod report;
pub mod schemas;
#[cfg(test)]
mod shape;
pub mod shrink;
mod signals;
pub mod style;
/// For the binary's constructor, which runs before `main` (see `signals`).
pub use signals::note_inherited_sigpipe;
pub mod tui;
