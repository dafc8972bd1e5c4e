//! kibitzer: record, decode, check and replay GUI <-> engine protocol traffic.
//!
//! The pipeline, one module per stage (see `docs/` and the README):
//! `capture` (the tee proxy) and `import` (foreign logs) produce `recording` events;
//! `protocol` turns lines into typed messages; `session` and `game` build the decoded session
//! (obligations, searches, boards); the `cli` front ends print it.
//! `recording`, `protocol`, `session` and `game` are sans-IO: no processes, files or terminals.
#![deny(unsafe_code)]

pub mod capture;
pub mod cli;
pub mod export;
pub mod game;
pub mod import;
pub mod probe;
pub mod protocol;
pub mod recording;
pub mod replay;
pub mod rules;
pub mod session;
mod swar;
pub mod tui;
