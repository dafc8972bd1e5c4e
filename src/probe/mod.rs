//! `kibitzer probe`: a conformance run against any engine. A suite of steps that real GUIs
//! take (docs/probe.md) is sent to the engine through the replay [`Driver`], which records
//! every line in the recording format; the recording is then read back and judged by the one
//! judge, and each finding lands in the step whose lines it is on: the report card.
//!
//! - [`run`]: the step runner (waits, timeouts, giving up on a hanging engine);
//! - [`uci`], [`cecp`], [`nboard`]: the suites, one per protocol;
//! - [`detect`]: which protocol the engine speaks, when not given;
//! - [`verdict`]: the recording judged, findings placed in steps;
//! - [`report`]: the typed report card and its text form.
//!
//! [`Driver`]: crate::replay::driver::Driver

pub mod cause;
pub mod cecp;
pub mod detect;
pub mod nboard;
pub mod positions;
pub mod report;
pub mod run;
pub mod suggest;
pub mod uci;
pub mod verdict;
#[cfg(test)]
mod verdict_table_tests;

use crate::protocol::Protocol;
use crate::recording::{C2wNote, Header};
use crate::replay::driver::Driver;
use crate::session::Decoder;
use report::{EngineInfo, ProbeReport, StartReport, Status, StepReport, Summary, TimeoutsMs};
use run::{Outcome, Run, StartRun, Timeouts};
use std::ffi::OsString;
use std::path::PathBuf;

/// How to probe.
#[derive(Debug, Clone)]
pub struct Config {
    /// The engine command and its arguments.
    pub engine: Vec<OsString>,
    /// `None`: detect (uci, then xboard, then nboard).
    pub protocol: Option<Protocol>,
    /// The recording.
    pub output: PathBuf,
    pub timeouts: Timeouts,
    /// How the CECP suite sets up positions and clocks, as a GUI would.
    pub cecp: cecp::Style,
    /// The engine's working directory (a `.c2w` profile's `EnginePath`); `None`: ours.
    pub dir: Option<PathBuf>,
    /// Chess Academy's profile the run follows (its style is `cecp`), noted in the
    /// recording's header so that `check` holds the recording to it too.
    pub c2w: Option<C2wNote>,
    /// `--quick`: the short suite for CI (no restart after a give-up).
    pub quick: bool,
}

/// The steps `--quick` runs: what fastchess --compliance checks (handshake, isready,
/// ucinewgame, positions, clock searches, a game) and the cheap checks it lacks (a search
/// with one side's clock, `stop` in `go infinite`, `isready` during a search, legality in a
/// FEN with en passant, `quit`); the CECP and NBoard equivalents.
pub const QUICK: &[&str] = &[
    "uci.handshake",
    "uci.isready-idle",
    "uci.newgame",
    "uci.go-depth",
    "uci.go-clock-increment",
    "uci.go-one-clock",
    "uci.go-infinite-stop",
    "uci.isready-searching",
    "uci.position-fen",
    "uci.quit",
    "cecp.handshake",
    "cecp.ping-idle",
    "cecp.force-moves",
    "cecp.go-clocks",
    "cecp.ping-thinking",
    "cecp.position-fen",
    "cecp.quit",
    "nboard.handshake",
    "nboard.ping-idle",
    "nboard.go-start",
    "nboard.go-game",
    "nboard.quit",
];

/// The suite, or its `--quick` part.
fn pick<S>(steps: Vec<run::Step<S>>, quick: bool) -> Vec<run::Step<S>> {
    if quick {
        steps
            .into_iter()
            .filter(|s| QUICK.contains(&s.id))
            .collect()
    } else {
        steps
    }
}

/// Restarts after the engine was given up on: enough for a few independent faults, bounded
/// so that an engine that hangs on every step still gets its verdict in bounded time.
pub const MAX_RESTARTS: u32 = 4;

/// Appends the lines of every restart (recorded beside the recording while it ran) to the
/// recording, each start its own session (`start N`), numbered and timed on from the first
/// start, so that one file holds the whole run and `check` judges each start by itself.
fn merge_parts(output: &std::path::Path, starts: &[StartRun]) -> anyhow::Result<()> {
    use std::io::Write as _;
    let parts: Vec<(u32, &std::path::Path)> = starts
        .iter()
        .filter_map(|s| s.part.as_deref().map(|p| (s.number, p)))
        .collect();
    if parts.is_empty() {
        return Ok(());
    }
    let main = crate::replay::read_back(output)?;
    let (mut seq, mut t) = main.last().map_or((0, 0), |(e, _)| (e.seq, e.t));
    let mut buf = Vec::new();
    for (n, part) in &parts {
        // A restart follows the end of the start before it at once: its clock goes on from
        // there, so that time never runs backwards in the file.
        let base = t;
        let label: std::sync::Arc<str> = format!("start {n}").into();
        for (mut ev, _) in crate::replay::read_back(part)? {
            seq += 1;
            ev.seq = seq;
            ev.session = Some(label.clone());
            ev.t = base.saturating_add(ev.t).max(t);
            t = ev.t;
            crate::recording::writer::encode_event(&mut buf, &ev);
        }
    }
    let mut f = std::fs::OpenOptions::new().append(true).open(output)?;
    f.write_all(&buf)?;
    f.flush()?;
    for (_, part) in parts {
        let _ = std::fs::remove_file(part);
    }
    Ok(())
}

/// Why a probe could not run at all.
#[derive(Debug)]
pub enum ProbeError {
    /// The engine could not be started (or no protocol was detected): exit status 2.
    Engine(String),
    /// Anything else (the recording could not be written or read back).
    Other(anyhow::Error),
}

impl std::fmt::Display for ProbeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProbeError::Engine(e) => f.write_str(e),
            ProbeError::Other(e) => write!(f, "{e:#}"),
        }
    }
}

impl std::error::Error for ProbeError {}

/// Runs the suite for the engine's protocol and judges the recording.
pub fn probe(cfg: &Config) -> Result<ProbeReport, ProbeError> {
    let setup = Setup {
        cfg,
        fen_command: cfg
            .cecp
            .profile
            .as_ref()
            .and_then(|p| p.fen_command.clone()),
    };
    let (protocol, reason, kept) = setup.protocol()?;
    let mut run = setup.run(protocol, kept)?;
    run_suite(&mut run, cfg, protocol);
    let (runs, starts) = run.finish();
    merge_parts(&cfg.output, &starts).map_err(ProbeError::Other)?;
    let profile = verdict::profile(&cfg.timeouts);
    let c2w = cfg.cecp.profile.as_ref();
    let judged =
        verdict::judge(&cfg.output, protocol, &profile, c2w, &runs).map_err(ProbeError::Other)?;
    let steps = runs
        .into_iter()
        .zip(judged.steps)
        .enumerate()
        .map(|(i, (r, j))| step_report(i + 1, r, j))
        .collect();
    let engine = EngineInfo {
        argv: cfg
            .engine
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        protocol: protocol.name(),
        protocol_reason: reason,
        name: judged.engine_name,
        author: judged.engine_author,
    };
    let ms = |d: std::time::Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    let t = &cfg.timeouts;
    let mut report = ProbeReport {
        schema: report::SCHEMA,
        tool: concat!("kibitzer ", env!("CARGO_PKG_VERSION")).to_owned(),
        engine,
        recording: cfg.output.display().to_string(),
        c2w: cfg.c2w.as_ref().map(|n| report::C2wDrive {
            file: n.file.clone(),
            engine: format!("{} {}", n.name, n.version),
            drive: cfg.cecp.describe(),
        }),
        timeouts_ms: TimeoutsMs {
            answer: ms(t.answer),
            handshake: ms(t.handshake),
            search: ms(t.search),
            quit: ms(t.quit),
            ready: ms(t.ready),
        },
        steps,
        other_findings: judged.outside,
        other_hangs: judged.hangs_outside,
        exit: starts.last().and_then(|s| s.ended.exit.clone()),
        killed: starts.last().is_some_and(|s| s.ended.killed),
        starts: starts
            .iter()
            .map(|s| StartReport {
                number: s.number,
                first_step: s.first_step,
                exit: s.ended.exit.clone(),
                killed: s.ended.killed,
                stderr_tail: judged.stderr.get(&s.number).cloned().unwrap_or_default(),
            })
            .collect(),
        summary: Summary::default(),
        cause: None,
        verdict: "passed",
        exit_status: 0,
    };
    report.conclude();
    Ok(report)
}

/// How each start of the engine is set up for a protocol.
struct Setup<'c> {
    cfg: &'c Config,
    /// The `.c2w` profile's FEN command, which the decoders read positions by.
    fen_command: Option<crate::protocol::c2w::Command>,
}

impl Setup<'_> {
    /// The recording's header.
    fn header(&self, protocol: Protocol) -> Header {
        let mut header = crate::capture::proxy::session_header(&self.cfg.engine);
        header.label = Some("kibitzer probe".to_owned());
        header.protocol = Some(protocol.name().to_owned());
        header.c2w = self.cfg.c2w.clone();
        header
    }

    /// The live decoder keeps the history: the suites read finished searches' bestmoves.
    fn decoder(&self, protocol: Protocol) -> Decoder {
        Decoder::new(Some(protocol)).with_fen_command(self.fen_command.clone())
    }

    /// The first step of each suite whose request is detection's opening: a start that
    /// answered it goes on as the run's.
    fn first_step(&self, protocol: Protocol) -> Option<(&'static str, &'static str)> {
        match protocol {
            Protocol::Uci => uci::suite().first().map(|s| (s.id, s.title)),
            Protocol::Cecp => cecp::suite(&self.cfg.cecp).first().map(|s| (s.id, s.title)),
            Protocol::Nboard => None,
        }
    }

    /// The protocol given, or detected (and why), with the start detection keeps going.
    fn protocol(&self) -> Result<(Protocol, String, Option<detect::Kept>), ProbeError> {
        let cfg = self.cfg;
        if let Some(p) = cfg.protocol {
            return Ok((p, "given".to_owned(), None));
        }
        let prepare = |protocol: Protocol| {
            (
                self.header(protocol),
                self.decoder(protocol),
                self.first_step(protocol),
            )
        };
        let d = detect::detect(
            &cfg.engine,
            cfg.dir.as_deref(),
            &cfg.timeouts,
            &cfg.output,
            &prepare,
        )
        .map_err(|e| ProbeError::Engine(e.message))?;
        Ok((d.protocol, d.reason, d.kept))
    }

    /// The run on the kept start or a new one, restarting the engine when it is given up on
    /// (each restart recorded beside the recording).
    fn run(&self, protocol: Protocol, kept: Option<detect::Kept>) -> Result<Run, ProbeError> {
        let cfg = self.cfg;
        let mut run = match kept {
            Some(k) => Run::begun(k.driver, cfg.timeouts, k.request, k.sent_at),
            None => {
                let driver = Driver::spawn_with(
                    &cfg.engine,
                    cfg.dir.as_deref(),
                    Some(&cfg.output),
                    &self.header(protocol),
                    self.decoder(protocol),
                )
                .map_err(|e| ProbeError::Engine(e.to_string()))?;
                Run::new(driver, cfg.timeouts)
            }
        };
        run.quick = cfg.quick;
        let (engine, dir) = (cfg.engine.clone(), cfg.dir.clone());
        let again = self.header(protocol);
        let fen_command = self.fen_command.clone();
        run.restart_with(
            Box::new(move |part| {
                let decoder = Decoder::new(Some(protocol)).with_fen_command(fen_command.clone());
                Driver::spawn_with(&engine, dir.as_deref(), Some(part), &again, decoder)
            }),
            if cfg.quick { 0 } else { MAX_RESTARTS },
            cfg.output.clone(),
        );
        Ok(run)
    }
}

/// The protocol's suite (the quick one with `--quick`), restarting the engine as needed.
fn run_suite(run: &mut Run, cfg: &Config, protocol: Protocol) {
    let q = cfg.quick;
    match protocol {
        Protocol::Uci => run.suite_restarting(
            &pick(uci::suite(), q),
            &mut uci::State::default(),
            uci::again,
        ),
        Protocol::Cecp => run.suite_restarting(
            &pick(cecp::suite(&cfg.cecp), q),
            &mut cecp::State::new(cfg.cecp.clone()),
            cecp::again,
        ),
        Protocol::Nboard => run.suite_restarting(&pick(nboard::suite(), q), &mut (), nboard::again),
    }
}

/// Step `index` (1-based) as it ran and as its lines were judged.
fn step_report(index: usize, r: run::StepRun, mut j: verdict::StepJudged) -> StepReport {
    j.findings
        .sort_by_key(|f| (std::cmp::Reverse(f.severity), f.line.unwrap_or(u64::MAX)));
    let (status, reason) = match r.outcome {
        // A step found not applicable after it sent something still fails on what the
        // engine broke meanwhile.
        Outcome::NotApplicable(why) if !j.findings.iter().any(verdict::violates) => {
            (Status::NotApplicable, Some(why))
        }
        Outcome::NotApplicable(why) => (Status::Violated, Some(why)),
        Outcome::NotRun(why) => (Status::NotRun, Some(why)),
        Outcome::Ran | Outcome::Stalled(_) if j.findings.iter().any(verdict::violates) => {
            let why = match r.outcome {
                Outcome::Stalled(w) => Some(w),
                _ => None,
            };
            (Status::Violated, why)
        }
        Outcome::Stalled(why) => (Status::Stalled, Some(why)),
        Outcome::Ran => (Status::Passed, None),
    };
    StepReport {
        index,
        start: r.start,
        id: r.id,
        title: r.title,
        status,
        reason,
        lines: j.first_line.zip(j.last_line).map(|(a, b)| [a, b]),
        findings: j.findings,
        hangs: j.hangs,
        observations: r.observations,
        culprit: r.culprit,
    }
}
