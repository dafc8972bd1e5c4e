//! `kibitzer probe -- ENGINE ARGS...`: the conformance suite of docs/probe.md run against an
//! engine; a report card per step, the recording kept.

use super::format::{ColorChoice, OutputFormat};
use crate::capture::output_path;
use crate::probe::run::Timeouts;
use crate::probe::{Config, ProbeError, cecp};
use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Drive an engine through the steps real GUIs take (handshake, options, isready/ping, every
/// kind of go, stop, positions, Chess960, ponder, a game, quit), judge the recording by every
/// rule of `check`, and print a report card: each step passed, violated (rule id, severity,
/// recording line), stalled, not applicable or not run.
///
/// Exit status: 0 no error, 1 an error-severity finding or a stalled step, 2 bad usage or an
/// engine that cannot be started.
#[derive(Args)]
#[command(arg_required_else_help = true)]
pub struct ProbeArgs {
    /// The engine, after `--`: command and arguments, run without a shell (with --c2w: the
    /// profile's engine unless one is given here)
    #[arg(last = true, value_name = "ENGINE", required_unless_present = "c2w")]
    engine: Vec<OsString>,
    /// Drive the engine as Chess Academy does under this `.c2w` profile (positions, clocks,
    /// ?, hint, draw and hash in the profile's forms) and judge it by the C2W- rules too: do
    /// the profile and the engine agree? Starts the engine the profile names.
    #[arg(long, value_name = "PROFILE.c2w")]
    c2w: Option<PathBuf>,
    /// With --c2w: the directory standing for Chess Academy's own, against which a relative
    /// EnginePath is resolved (default: the profile's directory)
    #[arg(long, value_name = "DIR", requires = "c2w")]
    c2w_home: Option<PathBuf>,
    /// With --c2w: start the engine even when the profile's EnginePath lies outside its home
    /// (absolute elsewhere, or climbing out with ..): the profile then names any program
    #[arg(long, requires = "c2w")]
    c2w_allow_outside: bool,
    /// The engine's protocol; detected when not given (uci, then xboard, then nboard)
    #[arg(long, value_enum, ignore_case = true, value_name = "PROTOCOL")]
    protocol: Option<super::judging::ProtocolArg>,
    /// Write the report card to FILE instead of standard output
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Keep the session's recording here (default: a new file in the recordings directory,
    /// as `record`)
    #[arg(long, value_name = "REC.jsonl")]
    recording: Option<PathBuf>,
    /// The report card as text or as JSON (docs/probe-report.schema.json)
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
    /// Seconds an answer may take (isready, ping, stop, quit); the handshake gets twice that
    /// and a depth- or nodes-limited search six times. Also the judge's deadlines.
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = parse_secs)]
    timeout: Duration,
    /// CECP: how positions are set up: auto (setboard when the engine declares it, else
    /// edit), setboard or edit
    #[arg(long, value_enum, default_value = "auto", conflicts_with = "c2w")]
    cecp_position: CecpPosition,
    /// CECP: the time control of the session: level (with time/otim, as xboard) or st; sd
    /// is tried with either (the two exclude each other in one session)
    #[arg(long, value_enum, default_value = "level", conflicts_with = "c2w")]
    cecp_clock: CecpClock,
    /// The short suite for CI: what fastchess --compliance checks and the cheap checks it
    /// lacks (docs/probe.md lists the steps), shorter think times, no restart after a
    /// give-up
    #[arg(long)]
    quick: bool,
    /// Colour: auto (on a terminal, unless NO_COLOR is set), always, never
    #[arg(long, value_enum, default_value = "auto")]
    color: ColorChoice,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum CecpClock {
    Level,
    St,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum CecpPosition {
    Auto,
    Setboard,
    Edit,
}

pub(super) fn parse_secs(s: &str) -> Result<Duration, String> {
    s.parse::<f64>()
        .ok()
        .filter(|v| *v > 0.0)
        .and_then(|v| Duration::try_from_secs_f64(v).ok())
        .ok_or_else(|| format!("`{s}` is not a positive number of seconds"))
}

pub fn run(mut a: ProbeArgs) -> Result<i32> {
    let mut protocol = a.protocol.map(crate::protocol::Protocol::from);
    let mut dir = None;
    let mut c2w = None;
    if let Some(path) = &a.c2w {
        let loaded = super::c2w::load(path)?;
        if protocol.is_some_and(|p| p != crate::protocol::Protocol::Cecp) {
            bail!("--c2w: Chess Academy profiles drive WinBoard (xboard) engines only");
        }
        protocol = Some(crate::protocol::Protocol::Cecp);
        if a.engine.is_empty() {
            let cmd =
                super::c2w::engine_command(&loaded, a.c2w_home.as_deref(), a.c2w_allow_outside)?;
            a.engine = cmd.argv;
            dir = Some(cmd.dir);
        }
        c2w = Some(loaded);
    }
    let Some(program) = a.engine.first() else {
        bail!("no engine command given after --");
    };
    // Before the one flag scheme, `-o` named the recording: a `.jsonl` there still does, said.
    if a.recording.is_none()
        && let Some(o) = a
            .output
            .take_if(|o| o.extension().is_some_and(|e| e == "jsonl"))
    {
        crate::eprintln_safe!(
            "kibitzer: probe -o {0}: -o now writes the report card; keep the session with \
             --recording {0} (taken as the recording this time)",
            o.display()
        );
        a.recording = Some(o);
    }
    let output = match &a.recording {
        Some(p) => p.clone(),
        None => {
            let dir = output_path::recordings_dir(None, |k| std::env::var_os(k));
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create recordings directory {}", dir.display()))?;
            dir.join(output_path::file_name(
                chrono::Local::now(),
                program,
                std::process::id(),
                Some("probe"),
            ))
        }
    };
    let style = match &c2w {
        Some(l) => cecp::Style::from_profile(&l.profile),
        None => cecp::Style {
            position: match a.cecp_position {
                CecpPosition::Auto => cecp::PositionSetup::Auto,
                CecpPosition::Setboard => cecp::PositionSetup::Setboard,
                CecpPosition::Edit => cecp::PositionSetup::Edit,
            },
            clock: match a.cecp_clock {
                CecpClock::Level => cecp::ClockFamily::Level,
                CecpClock::St => cecp::ClockFamily::St,
            },
            move_now: true,
            profile: None,
        },
    };
    let cfg = Config {
        engine: a.engine.clone(),
        protocol,
        output,
        timeouts: Timeouts::from_answer(a.timeout),
        cecp: style,
        dir,
        c2w: c2w.as_ref().map(super::c2w::Loaded::note),
        quick: a.quick,
    };
    let report = match crate::probe::probe(&cfg) {
        Ok(r) => r,
        Err(ProbeError::Engine(e)) => bail!("{e}"),
        Err(ProbeError::Other(e)) => return Err(e),
    };
    let color = a.color.enabled_for(a.output.as_deref());
    let mut out = super::output::Sink::open(a.output.as_deref(), &cfg.output)?;
    let written = match a.format {
        OutputFormat::Json => serde_json::to_writer_pretty(&mut out, &report)
            .map_err(std::io::Error::from)
            .and_then(|()| out.write_all(b"\n")),
        OutputFormat::Text => {
            crate::untrusted::write_guarded(&mut out, &report.render_text(color), color)
        }
    };
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
        _ => out.finish()?,
    }
    if a.format == OutputFormat::Json || a.output.is_some() {
        // The text form names the recording at its end; JSON readers get it in the report.
        crate::eprintln_safe!("kibitzer: recording kept: {}", report.recording);
    }
    Ok(report.exit_status)
}
