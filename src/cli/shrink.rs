//! `kibitzer shrink FILE -- ENGINE [ARGS...]`: the shortest session that still shows the
//! original's fault against ENGINE.

use super::format::OutputFormat;
use crate::protocol::Protocol;
use crate::recording::{ReplayOf, Source};
use crate::replay::run::{Limits, Pace};
use crate::replay::script::Script;
use crate::replay::{self, Config};
use crate::rules::{CheckOptions, RuleId};
use crate::shrink::candidate::Candidate;
use crate::shrink::fault::Fault;
use crate::shrink::report::{Rate, Session, ShrinkReport};
use crate::shrink::trial::Runner;
use crate::shrink::units;
use anyhow::{Context, Result, bail};
use clap::Args;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Shrink a recording (or one engine session of a log) to the shortest session that still
/// shows the same fault against an engine: `kibitzer shrink FILE -- ENGINE [ARGS...]`.
///
/// The fault is the first error `check` finds in the original unless named (--rule, --crash,
/// --hang, --illegal-move, --predicate). The original is first replayed to see that it shows
/// the fault with this engine; then whole games, searches, option settings, isready and
/// ucinewgame lines are dropped by delta debugging, move lists cut to the FEN before them and
/// search limits lowered, each candidate replayed against a fresh engine as `kibitzer replay`
/// does and judged by the same rules.
///
/// Exit status: 0 shrunk and the result reproduces, 1 the fault not reproduced, 2 bad input or
/// usage.
#[derive(Args)]
#[command(arg_required_else_help = true)]
pub struct ShrinkArgs {
    /// The recording or log to shrink
    file: PathBuf,
    /// The engine, after `--`: command and arguments, run without a shell
    #[arg(last = true, value_name = "ENGINE")]
    engine: Vec<OsString>,
    /// Keep a finding of this rule (any side) instead of the original's first error
    #[arg(long, value_name = "ID", group = "fault")]
    rule: Option<String>,
    /// Keep a crash: the engine dies by a signal or exits non-zero
    #[arg(long, group = "fault")]
    crash: bool,
    /// Keep a hang: an answer that never comes (the watchdog fires, or the session ends owing
    /// it and the engine has to be killed)
    #[arg(long, group = "fault")]
    hang: bool,
    /// Keep an illegal move played by the engine
    #[arg(long, group = "fault")]
    illegal_move: bool,
    /// Keep what CMD says: run by `sh -c` with the candidate's recording as its last argument
    /// (and in $KIBITZER_RECORDING); exit status 0 = reproduced
    #[arg(long, value_name = "CMD", group = "fault")]
    predicate: Option<String>,
    /// Tries per candidate (engines are not deterministic)
    #[arg(long, value_name = "N", default_value = "1")]
    tries: usize,
    /// Rewrite the session as `replay --deterministic` does (one thread, fixed hash, searches
    /// by nodes) before shrinking: every candidate is that session cut down, and the lines the
    /// rewriting added stay in each
    #[arg(long)]
    deterministic: bool,
    /// A candidate reproduces when at least K of its tries show the fault: a count, or a share
    /// of --tries such as 30%
    #[arg(long, value_name = "K", default_value = "1")]
    min_repro: String,
    /// Tries of the result, for its reproduction rate [default: --tries, at least 3]
    #[arg(long, value_name = "N")]
    confirm: Option<usize>,
    /// Engines run side by side [default: the cores]
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// End the search after this long with the best found so far (90s, 10m, 1h; a bare number
    /// is seconds)
    #[arg(long, value_name = "TIME", value_parser = parse_duration)]
    budget: Option<Duration>,
    /// Write the result's recording (a replay of it, any command reads it) here
    #[arg(short, long, value_name = "REC.jsonl")]
    output: Option<PathBuf>,
    /// Write the result's GUI lines here as plain text (`ENGINE < FILE` sends them)
    #[arg(long, value_name = "FILE")]
    script: Option<PathBuf>,
    /// Output: text or the JSON report (schema in docs/shrink-report.schema.json)
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
    /// The watchdog allows an answer ten times the original's latency, and at least this long
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = parse_duration)]
    watchdog: Duration,
    /// Seconds the engine may run after the input was closed before it gets SIGTERM
    #[arg(long, value_name = "SECS", default_value = "1", value_parser = parse_duration)]
    eof_grace: Duration,
    /// The engine session of a log (its label, as `kibitzer decode` shows it)
    #[arg(long, value_name = "LABEL")]
    session: Option<String>,
    /// Read the input as this format instead of detecting it
    #[arg(long, value_name = "NAME")]
    input_format: Option<String>,
    #[command(flatten)]
    protocol: super::judging::ProtocolFlag,
    /// Deadlines the sessions are judged by (as `check --profile`)
    #[arg(long, value_enum, ignore_case = true, default_value = "cutechess")]
    profile: super::judging::ProfileArg,
    /// Internal: make one try of a candidate (what the parent asks, as JSON) and answer on
    /// standard output
    #[arg(long, value_name = "REQ.json", hide = true)]
    try_request: Option<PathBuf>,
}

/// `90`, `90s`, `10m`, `1h`, `1.5`.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (num, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => (&t[..i], &t[i..]),
        None => (t, "s"),
    };
    let scale = match unit {
        "ms" => 0.001,
        "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => return Err(format!("`{text}`: the unit is ms, s, m or h")),
    };
    num.trim()
        .parse::<f64>()
        .ok()
        .and_then(|v| Duration::try_from_secs_f64(v * scale).ok())
        .ok_or_else(|| format!("`{text}` is not a duration (90s, 10m, 1h)"))
}

/// `K` or `P%` of `tries`, in 1..=tries.
fn min_repro(text: &str, tries: usize) -> Result<usize> {
    let t = text.trim();
    let k = match t.strip_suffix('%') {
        Some(p) => {
            let p: f64 = p
                .trim()
                .parse()
                .ok()
                .filter(|p: &f64| p.is_finite() && *p > 0.0 && *p <= 100.0)
                .with_context(|| format!("--min-repro {text}: a share is 1% to 100%"))?;
            (p / 100.0 * tries as f64).ceil() as usize
        }
        None => t
            .parse()
            .ok()
            .with_context(|| format!("--min-repro {text}: a count or a share such as 30%"))?,
    };
    if k == 0 || k > tries {
        bail!("--min-repro {text}: between 1 and --tries ({tries})");
    }
    Ok(k)
}

pub fn run(a: ShrinkArgs) -> Result<i32> {
    let started = Instant::now();
    if a.engine.is_empty() {
        bail!(
            "no engine to shrink against: give it after `--` (kibitzer shrink FILE -- ENGINE [ARGS...])"
        );
    }
    if a.tries == 0 {
        bail!("--tries must be at least 1");
    }
    let k = min_repro(&a.min_repro, a.tries)?;
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    for out in [&a.output, &a.script].into_iter().flatten() {
        super::output::refuse_same_file(&a.file, out)?;
    }
    let input = crate::input::Input::open_with(
        &a.file,
        crate::input::FormatChoice::from_name(a.input_format.as_deref())?,
    )?;
    let (origin, events) = super::replay::read_session(&input, a.session.as_deref())?;
    let forced = a.protocol.get().or_else(|| {
        input
            .recording_header()
            .and_then(|h| h.protocol.as_deref())
            .and_then(Protocol::from_name)
    });
    let mut check = CheckOptions::new(a.profile.profile());
    check.protocol = forced;
    let (check, note) = check.for_input(input.recording_header());
    if let Some(note) = note {
        crate::eprintln_safe!("kibitzer: {}: {note}", origin.file);
    }
    let original = replay::analysis::analyse(events, &check);
    let protocol = original.session.protocol;
    if protocol.is_none() {
        bail!(
            "{}: the protocol of the session is unknown (no uci, xboard or nboard line); give it with --protocol",
            origin.file
        );
    }
    let mut base = Script::from_analysis(&original);
    if a.deterministic {
        let rewrites = replay::rewrite::deterministic(&mut base, &original);
        if rewrites.is_empty() && a.try_request.is_none() {
            crate::eprintln_safe!("--deterministic: nothing to rewrite in {}", origin.file);
        }
    }
    if base.lines() == 0 {
        bail!("{}: the session has no GUI line to replay", origin.file);
    }
    let cfg = replay_config(&a, &original, std::env::temp_dir().join("unused.jsonl"));
    let replay_of = ReplayOf {
        file: origin.file.clone(),
        started: origin.started.clone(),
        session: origin.session.clone(),
        pace: "sync".to_owned(),
        deterministic: a.deterministic,
    };
    if let Some(req) = &a.try_request {
        let text = std::fs::read(req).with_context(|| format!("cannot read {}", req.display()))?;
        let req: crate::shrink::attempt::Request =
            serde_json::from_slice(&text).context("a try request")?;
        let answer = crate::shrink::attempt::run(&base, &cfg, replay_of, &req);
        let mut out = std::io::stdout().lock();
        serde_json::to_writer(&mut out, &answer)?;
        out.write_all(b"\n")?;
        return Ok(0);
    }
    let fault = match (&a.rule, &a.predicate) {
        (Some(r), _) => Fault::Rule {
            rule: RuleId::from_name(r)
                .with_context(|| format!("--rule {r}: no such rule (kibitzer check lists them)"))?,
            side: None,
        },
        (None, Some(cmd)) => Fault::Predicate(cmd.clone()),
        _ if a.crash => Fault::Crash,
        _ if a.hang => Fault::Hang,
        _ if a.illegal_move => Fault::IllegalMove,
        _ => Fault::first_error(&original).with_context(|| {
            format!(
                "{}: check finds no error in it; name the fault to keep (--rule, --crash, --hang, --illegal-move, --predicate)",
                origin.file
            )
        })?,
    };
    let dir = std::env::temp_dir().join(format!(
        "kibitzer-shrink-{}-{}",
        std::process::id(),
        chrono::Utc::now().timestamp_nanos_opt().unwrap_or(0)
    ));
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create a directory for the tries: {}", dir.display()))?;
    let result = Shrinking {
        a: &a,
        origin: &origin,
        original: &original,
        base: &base,
        fault: &fault,
        jobs,
        k,
        started,
    }
    .run(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// How each try replays: sync-paced as `replay`, judged as the original was.
fn replay_config(a: &ShrinkArgs, original: &replay::analysis::Analysis, output: PathBuf) -> Config {
    Config {
        engine: a.engine.clone(),
        pace: Pace::Sync,
        limits: Limits {
            watchdog_floor: a.watchdog,
            eof_grace: a.eof_grace,
        },
        max_engine_lines: 2 * original
            .events
            .iter()
            .filter(|e| e.src == Source::Engine)
            .count() as u64,
        deterministic: a.deterministic,
        output,
        check: CheckOptions {
            protocol: original.session.protocol,
            ..CheckOptions::new(a.profile.profile())
        },
        warn_early: false,
    }
}

/// The options a try's process reads the original with, as this one did.
fn child_args(a: &ShrinkArgs) -> Vec<OsString> {
    let mut v: Vec<OsString> = vec!["shrink".into(), a.file.clone().into_os_string()];
    let mut opt = |name: &str, value: String| {
        v.push(name.into());
        v.push(value.into());
    };
    if let Some(s) = &a.session {
        opt("--session", s.clone());
    }
    if let Some(f) = &a.input_format {
        opt("--input-format", f.clone());
    }
    if let Some(p) = a.protocol.get() {
        opt("--protocol", p.name().to_owned());
    }
    if let Some(p) = clap::ValueEnum::to_possible_value(&a.profile) {
        opt("--profile", p.get_name().to_owned());
    }
    opt("--watchdog", format!("{}s", a.watchdog.as_secs_f64()));
    opt("--eof-grace", format!("{}s", a.eof_grace.as_secs_f64()));
    if a.deterministic {
        v.push("--deterministic".into());
    }
    v
}

/// A shrink to make: the session read, the script that replays it, and the fault kept.
struct Shrinking<'a> {
    a: &'a ShrinkArgs,
    origin: &'a replay::Origin,
    original: &'a replay::analysis::Analysis,
    base: &'a Script,
    fault: &'a Fault,
    jobs: usize,
    /// Of the tries of a candidate, how many must reproduce the fault.
    k: usize,
    started: Instant,
}

impl Shrinking<'_> {
    /// Shrinks with the tries made in `dir`, and prints the report.
    fn run(&self, dir: &Path) -> Result<i32> {
        let (a, origin, base, fault) = (self.a, self.origin, self.base, self.fault);
        let runner = Runner {
            exe: std::env::current_exe().context("cannot find this program to run the tries")?,
            child_args: child_args(a),
            engine: a.engine.clone(),
            fault,
            dir: dir.to_path_buf(),
            tries: a.tries,
            min_repro: self.k,
            jobs: self.jobs,
            deadline: a.budget.map(|b| self.started + b),
            made: Default::default(),
            error: Default::default(),
        };
        crate::eprintln_safe!(
            "shrink: {}: {} lines; keeping {}; {} tries per candidate, {} side by side",
            origin.file,
            base.lines(),
            fault.describe(),
            a.tries,
            self.jobs
        );
        let confirm = a.confirm.unwrap_or(a.tries.max(3)).max(1);
        let shrunk = match crate::shrink::shrink(self.original, base, &runner, confirm) {
            Ok(s) => s,
            Err(e) => {
                if let Some(err) = e.error {
                    bail!("{}: the engine could not be run: {err}", origin.file);
                }
                crate::eprintln_safe!(
                    "kibitzer: {}: {}: the original does not reproduce it with this engine: {} tries",
                    origin.file,
                    fault.describe(),
                    e.tries
                );
                return Ok(1);
            }
        };
        let report = self.report(&runner, shrunk)?;
        let reproduced = report.result_rate.reproduced;
        let mut out = std::io::stdout().lock();
        match a.format {
            OutputFormat::Text => crate::untrusted::write_guarded(&mut out, &report.text(), false)?,
            OutputFormat::Json => {
                serde_json::to_writer_pretty(&mut out, &report)?;
                out.write_all(b"\n")?;
            }
        }
        out.flush()?;
        Ok(if reproduced > 0 { 0 } else { 1 })
    }

    /// The report of a shrink, with the script and the recording written where asked.
    fn report(&self, runner: &Runner, shrunk: crate::shrink::Shrunk) -> Result<ShrinkReport> {
        let (a, base, fault) = (self.a, self.base, self.fault);
        let game_units = units::games(base, self.original);
        let size = |cand: &Candidate, file: Option<String>| size_of(base, &game_units, cand, file);
        let plain = shrunk.best.plain(base);
        if let Some(p) = &a.script {
            std::fs::write(p, &plain).with_context(|| format!("cannot write {}", p.display()))?;
        }
        let mut recording = None;
        if let (Some(p), Some(from)) = (&a.output, &shrunk.result.recording) {
            std::fs::copy(from, p).with_context(|| format!("cannot write {}", p.display()))?;
            recording = Some(p.display().to_string());
        }
        Ok(ShrinkReport {
            schema: crate::shrink::report::SCHEMA,
            original: size(&Candidate::whole(base), Some(self.origin.file.clone())),
            engine_argv: a
                .engine
                .iter()
                .map(|s| s.to_string_lossy().into_owned())
                .collect(),
            fault: fault.describe(),
            rule: match fault {
                Fault::Rule { rule, .. } => Some(rule.to_string()),
                _ => None,
            },
            tries: a.tries,
            min_repro: self.k,
            jobs: self.jobs,
            original_rate: Rate {
                reproduced: shrunk.original.reproduced,
                tried: shrunk.original.tried,
            },
            result: size(&shrunk.best, None),
            result_rate: Rate {
                reproduced: shrunk.result.reproduced,
                tried: shrunk.result.tried,
            },
            script: plain.lines().map(str::to_owned).collect(),
            recording,
            tries_made: runner.made.load(std::sync::atomic::Ordering::Relaxed),
            elapsed_ms: u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX),
            budget_exhausted: shrunk.out_of_time,
            phases: shrunk.phases,
        })
    }
}

/// The size of a candidate: its lines, games and searches.
fn size_of(
    base: &Script,
    game_units: &[units::Unit],
    cand: &Candidate,
    file: Option<String>,
) -> Session {
    Session {
        file,
        lines: cand.lines(base),
        // A game counts when one of its searches is kept, or (CECP, NBoard) a line that
        // plays or sets up its position.
        games: game_units
            .iter()
            .filter(|u| {
                u.steps.iter().any(|&s| {
                    let text = &base.steps[s].text;
                    cand.keep[s]
                        && (matches!(units::head(text), "go" | "setboard" | "undo" | "move")
                            || crate::shrink::cecp_moves::is_gui_move(text))
                })
            })
            .count(),
        searches: base
            .steps
            .iter()
            .zip(&cand.keep)
            .filter(|(s, k)| **k && units::head(&s.text) == "go")
            .count(),
    }
}
