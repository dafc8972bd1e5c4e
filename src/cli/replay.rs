//! `kibitzer replay FILE -- ENGINE [ARGS...]`: the GUI side of a recording or a log's session
//! sent to a fresh engine, recorded, and compared with the original.

use super::format::OutputFormat;
use crate::capture::output_path;
use crate::input::ControlFlow;
use crate::input::{Input, Item};
use crate::protocol::Protocol;
use crate::recording::Event;
use crate::replay::report::ReplayReport;
use crate::replay::run::{Limits, Pace};
use crate::replay::{self, Config, Origin};
use crate::rules::{CheckOptions, Profile};
use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Replay a recording (or one engine session of a log) against an engine and say where its
/// behaviour differs: `kibitzer replay FILE -- ENGINE [ARGS...]`.
///
/// The GUI's lines go to a fresh engine, each once the answers the original had received before
/// it have come (uciok, readyok, pong, bestmove, `===`, feature done=1); a watchdog ends a
/// replay whose engine does not answer. The new session is recorded (its header names the
/// original) and compared: protocol behaviour (obligations answered, findings, the engine's
/// end, hangs) apart from search results (bestmove, ponder, depth, score, PV; time, nps,
/// hashfull, currmove masked), where clock-limited searches are expected to differ.
///
/// Exit status: 0 reproduced, 1 diverged or hang reproduced, 2 bad input or usage.
#[derive(Args)]
#[command(arg_required_else_help = true)]
pub struct ReplayArgs {
    /// The recording or log to replay (`-` for standard input)
    file: PathBuf,
    /// The engine to replay against, after `--`: command and arguments, run without a shell
    #[arg(last = true, value_name = "ENGINE")]
    engine: Vec<OsString>,
    /// sync: each line once the original's answers before it came; recorded: at the
    /// original's times (see --speed); fast: as fast as the engine reads
    #[arg(long, value_enum, default_value = "sync")]
    pace: PaceArg,
    /// With --pace recorded (and --as-engine): play the original's timing this many times
    /// faster, from 0.001 (a thousand times slower) to 1000
    #[arg(long, value_name = "X", default_value = "1", value_parser = parse_speed)]
    speed: f64,
    /// Rewrite the GUI side so searches are reproducible (clock-based `go` to `go nodes N`,
    /// Threads 1, ucinewgame + isready, CECP `sd`); the rewrites are shown before running
    #[arg(long)]
    deterministic: bool,
    /// The watchdog allows an answer ten times the original's latency, and at least this long
    #[arg(long, value_name = "SECS", default_value = "30", value_parser = parse_secs)]
    watchdog: Secs,
    /// Seconds the engine may run after the input was closed before it gets SIGTERM
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = parse_secs)]
    eof_grace: Secs,
    /// The engine session of a log to replay (its label, as `kibitzer decode` shows it)
    #[arg(long, value_name = "LABEL")]
    session: Option<String>,
    /// Replay only up to this line of the input (the engine's answers to it are awaited)
    #[arg(long, value_name = "LINE")]
    until: Option<u64>,
    /// Replay only game N (1-based, as `kibitzer decode` counts them), after the handshake
    #[arg(long, value_name = "N", conflicts_with = "from_game")]
    game: Option<usize>,
    /// Replay from game N (1-based) to the end, after the handshake
    #[arg(long, value_name = "N")]
    from_game: Option<usize>,
    /// Keep the new session's recording here [default: a new file in the recordings
    /// directory]
    #[arg(long, value_name = "REC.jsonl")]
    recording: Option<PathBuf>,
    /// The earlier spelling of --recording
    #[arg(
        short = 'w',
        long = "write",
        value_name = "FILE",
        hide = true,
        conflicts_with = "recording"
    )]
    write: Option<PathBuf>,
    /// Recordings directory for the new recording (as `record --dir`)
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Output: text or the JSON report (schema in docs/replay-report.schema.json)
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
    /// Write the report to FILE instead of standard output
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Read the input as this format instead of detecting it
    #[arg(long, value_name = "NAME")]
    input_format: Option<String>,
    #[command(flatten)]
    protocol: super::judging::ProtocolFlag,
    /// Deadlines the findings of both sessions are judged by (as `check --profile`)
    #[arg(long, value_enum, ignore_case = true, default_value = "cutechess")]
    profile: super::judging::ProfileArg,
    /// Level L3: replay the new recording once more and check the engine gives the same
    /// answers (its recording is the new one's name with `.verify` before `.jsonl`)
    #[arg(long)]
    verify: bool,
    /// Act as the engine: answer a GUI on stdin/stdout from FILE's engine side, with its
    /// delays (--speed), stderr and exit; the engine after `--` is only for
    /// --on-mismatch forward
    #[arg(long)]
    as_engine: bool,
    /// With --as-engine, a command the recording has no answer to is reported on stderr and
    /// skipped (report), handed with everything after it to the engine after `--`, which was
    /// sent every line so far (forward), or ends kibitzer with status 1 (exit)
    #[arg(long, value_enum, default_value = "report", requires = "as_engine")]
    on_mismatch: MismatchArg,
    /// Show the script (lines, sync points, rewrites) and exit without running an engine
    #[arg(long)]
    dry_run: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PaceArg {
    Sync,
    Recorded,
    Fast,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum MismatchArg {
    Report,
    Forward,
    Exit,
}

#[derive(Debug, Clone, Copy)]
struct Secs(Duration);

fn parse_secs(s: &str) -> Result<Secs, String> {
    s.parse::<f64>()
        .ok()
        .and_then(|v| Duration::try_from_secs_f64(v).ok())
        .map(Secs)
        .ok_or_else(|| format!("`{s}` is not a number of seconds"))
}

pub fn run(mut a: ReplayArgs) -> Result<i32> {
    if let Some(w) = a.write.take() {
        crate::eprintln_safe!(
            "kibitzer: replay -w/--write is now --recording (one spelling for every command that \
             runs an engine); -w still works"
        );
        a.recording = Some(w);
    }
    if a.as_engine {
        return as_engine(&a);
    }
    if a.engine.is_empty() && !a.dry_run {
        bail!(
            "no engine to replay against: give it after `--` (kibitzer replay FILE -- ENGINE [ARGS...])"
        );
    }
    if !(a.speed.is_finite() && a.speed > 0.0) {
        bail!("--speed must be a positive number, not {}", a.speed);
    }
    if a.speed != 1.0 && a.pace != PaceArg::Recorded {
        bail!("--speed applies to --pace recorded only");
    }
    let input = Input::open_with(
        &a.file,
        crate::input::FormatChoice::from_name(a.input_format.as_deref())?,
    )?;
    let (origin, original, check) = original_session(&a, &input)?;
    let subset = replay::Subset {
        until: a.until,
        game: a.game,
        from_game: a.from_game,
    };
    let prepared = replay::prepare(&original, a.deterministic, subset)
        .map_err(|e| anyhow::anyhow!("{}: {e}", origin.file))?;
    if prepared.script.lines() == 0 {
        bail!("{}: the session has no GUI line to replay", origin.file);
    }
    let warn_early = say_what_will_run(&a, &origin, &prepared);
    if a.dry_run {
        print!(
            "{}",
            crate::untrusted::guard(&show_script(&prepared.script))
        );
        return Ok(0);
    }
    let output = recording_path(&a)?;
    super::output::refuse_same_file(&a.file, &output)?;
    let cfg = replay_config(&a, &original, check, warn_early, output);
    let mut report = replay::execute(&original, &origin, prepared, &cfg)?;
    if a.verify {
        let second = cfg.output.with_extension("verify.jsonl");
        replay::verify(&mut report, &cfg, &second)?;
    }
    write_report(&a, &report)?;
    let mut status = report.verdict.kind.exit_status();
    if report.verification.as_ref().is_some_and(|v| !v.identical) && status == 0 {
        status = 1;
    }
    Ok(status)
}

/// The session to replay, decoded as `check` decodes it, with the options it was checked by.
fn original_session(
    a: &ReplayArgs,
    input: &Input,
) -> Result<(Origin, replay::analysis::Analysis, CheckOptions)> {
    let protocol = a.protocol.get();
    let profile = a.profile.profile();
    let (origin, events) = read_session(input, a.session.as_deref())?;
    let forced = protocol.or_else(|| {
        input
            .recording_header()
            .and_then(|h| h.protocol.as_deref())
            .and_then(Protocol::from_name)
    });
    let mut check = CheckOptions::new(profile);
    check.protocol = forced;
    let (check, note) = check.for_input(input.recording_header());
    if let Some(note) = note {
        crate::eprintln_safe!("kibitzer: {}: {note}", origin.file);
    }
    let original = replay::analysis::analyse(events, &check);
    if original.session.protocol.is_none() {
        bail!(
            "{}: the protocol of the session is unknown (no uci, xboard or nboard line); give it with --protocol",
            origin.file
        );
    }
    Ok((origin, original, check))
}

/// Shows the rewrites before anything runs, as the diff the user agrees to, and the warnings
/// when the card will not show them on the same terminal. Returns whether the warnings were
/// said here.
fn say_what_will_run(a: &ReplayArgs, origin: &Origin, prepared: &replay::Prepared) -> bool {
    if a.deterministic && prepared.rewrites.is_empty() {
        crate::eprintln_safe!("--deterministic: nothing to rewrite in {}", origin.file);
    } else {
        eprint!(
            "{}",
            crate::untrusted::guard(&show_rewrites(&origin.file, &prepared.rewrites))
        );
    }
    // The card lists the warnings too: on a terminal that shows both, they are said once,
    // there; with the card in a file or in JSON, they are said here as well, before the run.
    let warn_early = {
        use std::io::IsTerminal;
        !(a.format == OutputFormat::Text
            && std::io::stdout().is_terminal()
            && std::io::stderr().is_terminal())
    };
    for w in prepared.warnings.iter().filter(|_| warn_early) {
        crate::eprintln_safe!(
            "kibitzer: {}[{}]: {}",
            w.severity.as_str(),
            w.rule,
            w.message
        );
    }
    warn_early
}

/// How the replay runs: paced and limited as asked, judged as the original was.
fn replay_config(
    a: &ReplayArgs,
    original: &replay::analysis::Analysis,
    check: CheckOptions,
    warn_early: bool,
    output: PathBuf,
) -> Config {
    Config {
        engine: a.engine.clone(),
        pace: match a.pace {
            PaceArg::Sync => Pace::Sync,
            PaceArg::Recorded => Pace::Recorded { speed: a.speed },
            PaceArg::Fast => Pace::Fast,
        },
        limits: Limits {
            watchdog_floor: a.watchdog.0,
            eof_grace: a.eof_grace.0,
        },
        deterministic: a.deterministic,
        output,
        check,
        warn_early,
        max_engine_lines: 2 * original
            .events
            .iter()
            .filter(|e| e.src == crate::recording::Source::Engine)
            .count() as u64,
    }
}

/// The replay's recording: as given, or a new file in the recordings directory.
fn recording_path(a: &ReplayArgs) -> Result<PathBuf> {
    if let Some(p) = &a.recording {
        return Ok(p.clone());
    }
    let dir = output_path::recordings_dir(a.dir.as_deref(), |k| std::env::var_os(k));
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create recordings directory {}", dir.display()))?;
    Ok(dir.join(output_path::file_name(
        chrono::Local::now(),
        &a.engine[0],
        std::process::id(),
        Some("replay"),
    )))
}

/// `--as-engine`: stdout belongs to the GUI; everything kibitzer says goes to stderr.
fn as_engine(a: &ReplayArgs) -> Result<i32> {
    use crate::replay::as_engine::{self, OnMismatch};
    if !(a.speed.is_finite() && a.speed > 0.0) {
        bail!("--speed must be a positive number, not {}", a.speed);
    }
    if a.file.as_os_str() == "-" {
        bail!("with --as-engine standard input is the GUI's: give the recording as a file");
    }
    let on_mismatch = match a.on_mismatch {
        MismatchArg::Report => OnMismatch::Report,
        MismatchArg::Forward => OnMismatch::Forward,
        MismatchArg::Exit => OnMismatch::Exit,
    };
    if on_mismatch == OnMismatch::Forward && a.engine.is_empty() {
        bail!("--on-mismatch forward needs the engine to forward to: give it after `--`");
    }
    if on_mismatch != OnMismatch::Forward && !a.engine.is_empty() {
        bail!("an engine after `--` is only used with --on-mismatch forward");
    }
    let protocol = a.protocol.get();
    let input = Input::open_with(
        &a.file,
        crate::input::FormatChoice::from_name(a.input_format.as_deref())?,
    )?;
    let (origin, events) = read_session(&input, a.session.as_deref())?;
    let forced = protocol.or_else(|| {
        input
            .recording_header()
            .and_then(|h| h.protocol.as_deref())
            .and_then(Protocol::from_name)
    });
    let mut check = CheckOptions::new(Profile::default_profile());
    check.protocol = forced;
    let (check, _) = check.for_input(input.recording_header());
    let original = replay::analysis::analyse(events, &check);
    let answers = crate::replay::answers::Answers::from_analysis(&original);
    let status = as_engine::serve(
        answers,
        as_engine::Config {
            speed: a.speed,
            on_mismatch,
            engine: a.engine.clone(),
            shown: origin.file,
        },
    )?;
    Ok(status)
}

/// An event with its line in the input.
pub(super) type Numbered = (Event, Option<u64>);

/// The events of the session to replay, with their lines.
pub(super) fn read_session(
    input: &Input,
    session: Option<&str>,
) -> Result<(Origin, Vec<Numbered>)> {
    let mut events = Vec::new();
    let mut skipped = Vec::new();
    let (_, stopped) = input.read(|item| {
        match item {
            Item::Event(ev, line) => events.push((ev.clone(), line.or(ev.line))),
            Item::Skipped(s) if !s.torn_tail => {
                skipped.push(format!("{}:{}: {}", input.shown(), s.line, s.reason))
            }
            Item::Skipped(_) => {}
        }
        Ok(ControlFlow::Continue(()))
    })?;
    stopped?;
    if let Some(first) = skipped.first() {
        bail!("{first} (a replay needs every line of the original)");
    }
    // Engine sessions, in order of appearance; the tool's own lines (`[cutechess]`) are none.
    let mut labels: Vec<Option<String>> = Vec::new();
    for (ev, _) in &events {
        if ev.is_traffic() && !labels.iter().any(|l| l.as_deref() == ev.session.as_deref()) {
            labels.push(ev.session.as_deref().map(str::to_owned));
        }
    }
    let chosen = match (session, labels.as_slice()) {
        (Some(s), _) => {
            if !labels.iter().any(|l| l.as_deref() == Some(s)) {
                bail!(
                    "{}: no session `{s}`; the sessions are: {}",
                    input.shown(),
                    list(&labels)
                );
            }
            Some(s.to_owned())
        }
        (None, [one]) => one.clone(),
        (None, []) => bail!("{}: no GUI or engine line to replay", input.shown()),
        (None, _) => bail!(
            "{}: {} engine sessions; choose one with --session: {}",
            input.shown(),
            labels.len(),
            list(&labels)
        ),
    };
    events.retain(|(ev, _)| ev.session.as_deref() == chosen.as_deref());
    let origin = Origin {
        file: input.shown().to_owned(),
        format: input.format_name().to_owned(),
        started: input.recording_header().map(|h| h.started.clone()),
        session: chosen,
    };
    Ok((origin, events))
}

fn list(labels: &[Option<String>]) -> String {
    labels
        .iter()
        .map(|l| l.as_deref().unwrap_or("(unlabelled)"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn show_rewrites(file: &str, rewrites: &[crate::replay::report::Rewrite]) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    if rewrites.is_empty() {
        return s;
    }
    let _ = writeln!(
        s,
        "--deterministic rewrites of {file} ({}):",
        rewrites.len()
    );
    for r in rewrites {
        let at = r.line.map_or("   (new)".to_owned(), |l| format!("{l:>8}"));
        if let Some(o) = &r.original {
            let _ = writeln!(s, "{at} - {o}");
        }
        match &r.replayed {
            Some(n) => {
                let pad = if r.original.is_some() {
                    " ".repeat(at.len())
                } else {
                    at.clone()
                };
                let _ = writeln!(s, "{pad} + {n}   ({})", r.why);
            }
            None => {
                let _ = writeln!(s, "{}   (dropped: {})", " ".repeat(at.len()), r.why);
            }
        }
    }
    s
}

fn show_script(script: &crate::replay::script::Script) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    for (i, step) in script.steps.iter().enumerate() {
        let waits: Vec<String> = step
            .waits
            .iter()
            .map(|w| format!("{} (step {})", w.owed, w.step + 1))
            .collect();
        let _ = writeln!(
            s,
            "{:>5} {:>8} {}{}{}",
            i + 1,
            step.line.map(|l| l.to_string()).unwrap_or_default(),
            if waits.is_empty() {
                String::new()
            } else {
                format!("[after {}] ", waits.join(", "))
            },
            step.busy_gap
                .map(|g| format!("[{:.3} s later] ", g as f64 / 1e9))
                .unwrap_or_default(),
            step.text
        );
    }
    s
}

fn write_report(a: &ReplayArgs, report: &ReplayReport) -> Result<()> {
    let mut out = super::output::Sink::open(a.output.as_deref(), &a.file)?;
    match a.format {
        OutputFormat::Text => crate::untrusted::write_guarded(&mut out, &report.text(), false)?,
        OutputFormat::Json => {
            serde_json::to_writer_pretty(&mut out, report)?;
            out.write_all(b"\n")?;
        }
    }
    out.finish()
}

/// The slowest and fastest `--speed`: beyond them a delay is either a hang or no delay at all.
const SPEED_RANGE: std::ops::RangeInclusive<f64> = 0.001..=1000.0;

fn parse_speed(text: &str) -> std::result::Result<f64, String> {
    let x: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    if x.is_finite() && SPEED_RANGE.contains(&x) {
        Ok(x)
    } else {
        Err(format!(
            "{text} is outside {}..={} (a thousand times slower to a thousand times faster)",
            SPEED_RANGE.start(),
            SPEED_RANGE.end()
        ))
    }
}
