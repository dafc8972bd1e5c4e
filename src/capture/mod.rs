//! The tee proxy (`kibitzer record`): spawns the engine, forwards bytes both ways unchanged,
//! and records every line with its timestamp.
pub mod launch;
pub mod leftovers;
pub mod lines;
pub mod output_path;
pub mod process;
pub mod procfs;
pub mod proxy;
pub mod pumps;
pub mod reaper;
pub mod recorder;
pub mod sampler;
