//! Command-line front end. Each subcommand is a thin shell over the library stages.
mod c2w;
mod c2w_cmd;
mod check;
mod decode;
mod dump;
mod export;
mod format;
mod import;
mod judging;
mod output;
mod probe;
mod record;
mod replay;
mod report;
mod shrink;
mod view;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "kibitzer",
    version,
    about = "Record, decode and inspect the traffic between board-game GUIs and engines (UCI, CECP/xboard, NBoard)",
    after_help = "Put `kibitzer record -- ENGINE ARGS...` where your GUI expects the engine command,\nthen read the recording with `kibitzer dump FILE`."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Record(record::RecordArgs),
    Dump(dump::DumpArgs),
    Decode(decode::DecodeArgs),
    Export(export::ExportArgs),
    Import(import::ImportArgs),
    Check(check::CheckArgs),
    View(view::ViewArgs),
    Report(report::ReportArgs),
    Replay(replay::ReplayArgs),
    Shrink(shrink::ShrinkArgs),
    Probe(probe::ProbeArgs),
    C2w(c2w_cmd::C2wArgs),
    /// Internal: the guard `replay` starts to kill the engine's process group if the proxy is
    /// SIGKILLed.
    #[command(name = "__guard", hide = true)]
    Guard {
        pgid: i32,
    },
}

/// Runs the CLI and returns the process exit status.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Record(a) => record::run(a),
        Command::Dump(a) => dump::run(a),
        Command::Decode(a) => decode::run(a),
        Command::Export(a) => export::run(a),
        Command::Import(a) => import::run(a),
        Command::Check(a) => check::run(a),
        Command::View(a) => view::run(a),
        Command::Report(a) => report::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Shrink(a) => shrink::run(a),
        Command::Probe(a) => probe::run(a),
        Command::C2w(a) => c2w_cmd::run(a),
        Command::Guard { pgid } => Ok(crate::capture::reaper::guard_main(pgid)),
    };
    match result {
        Ok(code) => code,
        // Status 2 is for unreadable input and bad usage, as clap's own usage errors;
        // 1 is kept for findings (`check`).
        Err(e) => {
            crate::eprintln_safe!("kibitzer: {e:#}");
            2
        }
    }
}
