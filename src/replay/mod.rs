//! `kibitzer replay`: the GUI side of a recording (or of one session of a log) sent to a fresh
//! engine, paced on the answers the original got, recorded in the same format, and compared.
//!
//! - [`analysis`]: a session decoded by the one session model and judged by the one judge;
//! - [`script`]: the lines to send and the answers to wait for before each;
//! - [`rewrite`]: `--deterministic`, replay.md's rewrites;
//! - [`driver`]: a running engine behind `capture/`'s plumbing, decoded live (reused by `probe`);
//! - [`run`]: pacing and the watchdog;
//! - [`compare`] (protocol behaviour, hangs, the verdict), [`searches`] (search by search) and
//!   [`mask`] (the volatile fields), and `rules::replay_drift` (drift warnings): the semantic diff;
//! - [`report`]: the typed report;
//! - [`answers`] and [`as_engine`]: `--as-engine`, the recorded engine answering a real GUI.

pub mod analysis;
pub mod answers;
pub mod as_engine;
pub mod compare;
pub mod driver;
pub mod mask;
pub mod report;
pub mod rewrite;
pub mod run;
pub mod script;
pub mod searches;

use crate::recording::{Event, ReplayOf};
use crate::rules::CheckOptions;
use analysis::Analysis;
use report::{OriginalInfo, ReplayInfo, ReplayReport, Rewrite};
use run::{Limits, Pace};
use script::Script;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// What the original was, for the report and the new recording's header.
#[derive(Debug, Clone)]
pub struct Origin {
    /// As named on the command line.
    pub file: String,
    /// `recording` or the log format.
    pub format: String,
    /// The original's `started`, for a recording.
    pub started: Option<String>,
    /// The session of a log (`--session`).
    pub session: Option<String>,
}

/// How to replay.
#[derive(Debug, Clone)]
pub struct Config {
    pub engine: Vec<OsString>,
    pub pace: Pace,
    pub limits: Limits,
    /// Engine lines a run may print before the engine is stopped as a flood: twice what the
    /// original's engine printed (at least [`driver::FLOOD_LINES`]).
    pub max_engine_lines: u64,
    pub deterministic: bool,
    /// The new recording.
    pub output: PathBuf,
    /// How the original and the replay are judged (deadline profile, `.c2w` profile); the
    /// protocol is the original's.
    pub check: CheckOptions,
    /// Say the drift warnings on stderr as soon as the engine has introduced itself. Off when
    /// the card, which lists them too, goes to the same terminal: a warning is said once.
    pub warn_early: bool,
}

/// A script ready to run, with what was changed and what is known to go wrong.
pub struct Prepared {
    pub script: Script,
    pub rewrites: Vec<Rewrite>,
    pub warnings: Vec<crate::rules::Finding>,
}

/// Which part of the original to replay.
#[derive(Debug, Clone, Copy, Default)]
pub struct Subset {
    /// Up to this input line.
    pub until: Option<u64>,
    /// This game (1-based), with the handshake before the first game.
    pub game: Option<usize>,
    /// This game and those after it.
    pub from_game: Option<usize>,
}

/// The script for `o` (the part `subset` names), rewritten when `deterministic`. `Err` says
/// why the subset does not exist.
pub fn prepare(o: &Analysis, deterministic: bool, subset: Subset) -> Result<Prepared, String> {
    let mut script = Script::from_analysis(o);
    match (subset.game, subset.from_game) {
        (Some(n), _) => script.games(o, n, false)?,
        (None, Some(n)) => script.games(o, n, true)?,
        (None, None) => {}
    }
    if let Some(l) = subset.until {
        script.until_line(l);
    }
    let rewrites = if deterministic {
        rewrite::deterministic(&mut script, o)
    } else {
        Vec::new()
    };
    Ok(Prepared {
        script,
        rewrites,
        warnings: crate::rules::replay_drift::before(&o.findings, deterministic),
    })
}

/// Runs the prepared script against `cfg.engine` and compares the new recording with `o`.
pub fn execute(
    o: &Analysis,
    origin: &Origin,
    prepared: Prepared,
    cfg: &Config,
) -> anyhow::Result<ReplayReport> {
    let protocol = o.session.protocol;
    let replay_of = ReplayOf {
        file: origin.file.clone(),
        started: origin.started.clone(),
        session: origin.session.clone(),
        pace: cfg.pace.name().to_owned(),
        deterministic: cfg.deterministic,
    };
    // Drift is said as soon as the engine has introduced itself, before the searches.
    let mut live = |s: &crate::session::Session| {
        if !cfg.warn_early {
            return;
        }
        for w in crate::rules::replay_drift::drift(&o.session, s) {
            crate::eprintln_safe!(
                "kibitzer: {}[{}]: {}",
                w.severity.as_str(),
                w.rule,
                w.message
            );
        }
    };
    let (outcome, r) = run_once(
        &prepared.script,
        protocol,
        replay_of,
        &cfg.output,
        cfg,
        &mut live,
    )?;
    let cmp = compare::compare(o, &r, &prepared.script, &outcome);
    let mut preflight = prepared.warnings;
    preflight.extend(crate::rules::replay_drift::drift(&o.session, &r.session));
    let lines_sent = prepared
        .script
        .steps
        .iter()
        .take(outcome.done)
        .filter(|s| s.send.is_some())
        .count();
    Ok(ReplayReport {
        schema: report::SCHEMA,
        original: OriginalInfo {
            file: origin.file.clone(),
            format: origin.format.clone(),
            session: origin.session.clone(),
            protocol: protocol.map(|p| p.name()),
            engine: o.session.engine_name.clone(),
            gui_lines: o.gui_lines().count(),
            searches: o.session.searches.len(),
        },
        replay: ReplayInfo {
            engine_argv: cfg
                .engine
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            engine: r.session.engine_name.clone(),
            recording: Some(cfg.output.display().to_string()),
            pace: cfg.pace.name(),
            speed: match cfg.pace {
                Pace::Recorded { speed } => Some(speed),
                _ => None,
            },
            deterministic: cfg.deterministic,
            level: match (cfg.pace, cfg.deterministic) {
                (_, true) => "L2",
                (Pace::Sync, false) => "L1",
                _ => "L0",
            },
            lines_sent,
            lines_total: prepared.script.lines(),
            exit: outcome.ended.exit.clone(),
            stall: outcome.stall.clone(),
        },
        rewrites: prepared.rewrites,
        preflight,
        verdict: cmp.verdict,
        searches: cmp.tally,
        search_diffs: cmp.searches,
        differences: cmp.differences,
        first_divergence: cmp.first_divergence,
        hang: cmp.hang,
        verification: None,
    })
}

/// Level L3 of replay.md: the new recording (whose searches are bounded after
/// `--deterministic`) replayed once more, to `output`, must give the same answers. Records the
/// outcome in `report` and raises its level when they match.
pub fn verify(report: &mut ReplayReport, cfg: &Config, output: &Path) -> anyhow::Result<()> {
    let first = analysis::analyse(read_back(&cfg.output)?, &cfg.check);
    let script = Script::from_analysis(&first);
    let replay_of = ReplayOf {
        file: cfg.output.display().to_string(),
        started: None,
        session: None,
        pace: "sync".to_owned(),
        deterministic: false,
    };
    let again = Config {
        pace: Pace::Sync,
        ..cfg.clone()
    };
    let (outcome, second) = run_once(
        &script,
        first.session.protocol,
        replay_of,
        output,
        &again,
        &mut |_| {},
    )?;
    let cmp = compare::compare(&first, &second, &script, &outcome);
    let same = cmp.verdict.kind == report::VerdictKind::Reproduced && cmp.tally.expected == 0;
    if same && report.replay.deterministic {
        report.replay.level = "L3";
    }
    report.verification = Some(report::Verification {
        recording: output.display().to_string(),
        identical: same,
        searches: cmp.tally,
        verdict: cmp.verdict,
    });
    Ok(())
}

/// Runs `script` against the engine into a new recording at `output`, and reads it back
/// (`shrink` runs its candidates through it too).
pub(crate) fn run_once(
    script: &Script,
    protocol: Option<crate::protocol::Protocol>,
    replay_of: ReplayOf,
    output: &Path,
    cfg: &Config,
    on_handshake: &mut dyn FnMut(&crate::session::Session),
) -> anyhow::Result<(run::Outcome, Analysis)> {
    let mut header = crate::capture::proxy::session_header(&cfg.engine);
    header.protocol = protocol.map(|p| p.name().to_owned());
    header.replay_of = Some(replay_of);
    let mut driver = driver::Driver::spawn(&cfg.engine, Some(output), &header, protocol)?;
    driver.allow_engine_lines(cfg.max_engine_lines);
    let outcome = run::run(driver, script, cfg.pace, cfg.limits, on_handshake);
    let r = analysis::analyse(
        read_back(output)?,
        &CheckOptions {
            protocol,
            ..cfg.check.clone()
        },
    );
    Ok((outcome, r))
}

/// The new recording, with each event's line, read as every command reads a recording; an
/// unreadable line is said on stderr with its place, as `check` says it.
pub fn read_back(path: &Path) -> anyhow::Result<Vec<(Event, Option<u64>)>> {
    use crate::input::{ControlFlow, Input, Item};
    let input = Input::open_with(path, crate::input::FormatChoice::Recording)
        .map_err(|e| anyhow::anyhow!("cannot read the new recording {}: {e:#}", path.display()))?;
    let mut out = Vec::new();
    let (_, stopped) = input.read(|item| {
        match item {
            Item::Event(ev, line) => out.push((ev.clone(), line)),
            Item::Skipped(s) => {
                crate::eprintln_safe!("{}:{}: {}", input.shown(), s.line, s.reason)
            }
        }
        Ok(ControlFlow::Continue(()))
    })?;
    stopped?;
    Ok(out)
}
