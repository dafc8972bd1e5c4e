//! The tee proxy (`kibitzer record`): spawns the engine, forwards bytes both ways unchanged,
//! and records every line with its timestamp.
pub mod lines;
pub mod output_path;
pub mod proxy;
pub mod reaper;
pub mod recorder;
