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

use crate::protocol::Protocol;
use crate::recording::C2wNote;
use crate::replay::driver::Driver;
use crate::session::Decoder;
use report::{EngineInfo, ProbeReport, Status, StepReport, Summary, TimeoutsMs};
use run::{Outcome, Run, Timeouts};
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
    let (protocol, reason) = match cfg.protocol {
        Some(p) => (p, "given".to_owned()),
        None => detect::detect(&cfg.engine, &cfg.timeouts).map_err(ProbeError::Engine)?,
    };
    let argv: Vec<String> = cfg
        .engine
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut header = crate::capture::proxy::session_header(&cfg.engine);
    header.label = Some("kibitzer probe".to_owned());
    header.protocol = Some(protocol.name().to_owned());
    header.c2w = cfg.c2w.clone();
    let c2w = cfg.cecp.profile.as_ref();
    // The live decoder keeps the history: the suites read finished searches' bestmoves.
    let decoder =
        Decoder::new(Some(protocol)).with_fen_command(c2w.and_then(|p| p.fen_command.clone()));
    let driver = Driver::spawn_with(
        &cfg.engine,
        cfg.dir.as_deref(),
        Some(&cfg.output),
        &header,
        decoder,
    )
    .map_err(|e| ProbeError::Engine(e.to_string()))?;
    let mut run = Run::new(driver, cfg.timeouts);
    match protocol {
        Protocol::Uci => run.suite(&uci::suite(), &mut uci::State::default()),
        Protocol::Cecp => run.suite(
            &cecp::suite(&cfg.cecp),
            &mut cecp::State::new(cfg.cecp.clone()),
        ),
        Protocol::Nboard => run.suite(&nboard::suite(), &mut ()),
    }
    let (runs, ended) = run.finish();
    let profile = verdict::profile(&cfg.timeouts);
    let judged =
        verdict::judge(&cfg.output, protocol, &profile, c2w, &runs).map_err(ProbeError::Other)?;
    let mut steps = Vec::new();
    for (i, (r, mut j)) in runs.into_iter().zip(judged.steps).enumerate() {
        cause::drop_restated(&mut j.findings);
        j.findings
            .sort_by_key(|f| (std::cmp::Reverse(f.severity), f.line.unwrap_or(u64::MAX)));
        let (status, reason) = match r.outcome {
            Outcome::NotApplicable(why) => (Status::NotApplicable, Some(why)),
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
        steps.push(StepReport {
            index: i + 1,
            id: r.id,
            title: r.title,
            status,
            reason,
            lines: j.first_line.zip(j.last_line).map(|(a, b)| [a, b]),
            findings: j.findings,
            hangs: j.hangs,
            observations: r.observations,
        });
    }
    let ms = |d: std::time::Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    let t = &cfg.timeouts;
    let mut report = ProbeReport {
        schema: report::SCHEMA,
        tool: concat!("kibitzer ", env!("CARGO_PKG_VERSION")).to_owned(),
        engine: EngineInfo {
            argv,
            protocol: protocol.name(),
            protocol_reason: reason,
            name: judged.engine_name,
            author: judged.engine_author,
        },
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
        },
        steps,
        other_findings: judged.outside,
        other_hangs: judged.hangs_outside,
        exit: ended.exit,
        killed: ended.killed,
        summary: Summary::default(),
        cause: None,
        verdict: "passed",
        exit_status: 0,
    };
    report.conclude();
    Ok(report)
}
