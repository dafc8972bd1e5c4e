//! `kibitzer c2w`: Chess Academy `.c2w` profiles. `c2w suggest -- ENGINE` tries a WinBoard
//! engine out and writes the profile it needs, with a comment per line saying what was seen.

use super::format::OutputFormat;
use crate::capture::output_path;
use crate::probe::ProbeError;
use crate::probe::run::Timeouts;
use crate::probe::suggest::{self, Location};
use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Chess Academy `.c2w` engine profiles (record, check and probe take one with --c2w).
#[derive(Args)]
pub struct C2wArgs {
    #[command(subcommand)]
    command: C2wCommand,
}

#[derive(Subcommand)]
enum C2wCommand {
    Suggest(SuggestArgs),
}

/// Try a WinBoard engine out (setboard or edit, st, sd or depth, the level forms and time,
/// ?, hint, draw) and write the `.c2w` profile Chess Academy needs for it, with a comment
/// above each line saying what the engine did. The session is recorded and kept.
///
/// Exit status: 0 profile written, 1 written but the engine broke an error-severity rule on
/// the way (listed on stderr), 2 bad usage or an engine that cannot be started or says
/// nothing to xboard, or answers in UCI.
#[derive(Args)]
#[command(arg_required_else_help = true)]
struct SuggestArgs {
    /// The engine, after `--`: command and arguments, run without a shell, in its own
    /// directory (as Chess Academy runs it)
    #[arg(last = true, value_name = "ENGINE", required = true)]
    engine: Vec<OsString>,
    /// Write the profile to this file (default: standard output)
    #[arg(short, long, value_name = "FILE.c2w")]
    output: Option<PathBuf>,
    /// Replace the output file when it exists
    #[arg(long)]
    force: bool,
    /// Keep the recording of the session here (default: a new file in the recordings
    /// directory, as `record`)
    #[arg(long, value_name = "REC.jsonl")]
    recording: Option<PathBuf>,
    /// The profile as text (to standard output unless -o), or a JSON report holding it and
    /// what was observed (docs/c2w-suggestion.schema.json); -o still writes the profile
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
    /// Seconds an answer may take; the handshake gets twice that, a search without a known
    /// clock six times
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = super::probe::parse_secs)]
    timeout: Duration,
}

pub fn run(a: C2wArgs) -> Result<i32> {
    match a.command {
        C2wCommand::Suggest(s) => suggest_cmd(s),
    }
}

/// The executable a command names: a path, or a name looked up in `PATH` as the shell does.
fn resolve(program: &Path) -> Result<PathBuf> {
    if program.components().count() > 1 {
        let p = std::path::absolute(program)
            .with_context(|| format!("cannot resolve {}", program.display()))?;
        if !p.is_file() {
            bail!("no engine at {}", p.display());
        }
        return Ok(p);
    }
    // PATH, then /usr/games, as `record`, `probe` and `replay` start an engine.
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
        .or_else(|| crate::capture::proxy::games_fallback(program.as_os_str()))
        .map(|p| std::path::absolute(&p).unwrap_or(p))
        .with_context(|| format!("no engine `{}` in PATH or /usr/games", program.display()))
}

/// `EngineSwitch`'s words: quoted when they hold blanks, as the profile parser reads them.
fn switch_word(w: &str) -> String {
    if w.contains(char::is_whitespace) {
        format!("\"{w}\"")
    } else {
        w.to_owned()
    }
}

fn suggest_cmd(a: SuggestArgs) -> Result<i32> {
    let Some(program) = a.engine.first() else {
        bail!("no engine command given after --");
    };
    if let Some(out) = &a.output
        && out.exists()
        && !a.force
    {
        bail!(
            "{} exists; give --force to replace it, or another --output",
            out.display()
        );
    }
    let exe = resolve(Path::new(program))?;
    let (Some(dir), Some(file)) = (exe.parent(), exe.file_name()) else {
        bail!("cannot tell the directory of {}", exe.display());
    };
    let loc = location(dir, file, &a.engine[1..]);
    let recording = recording_path(&a, program)?;
    let mut argv = vec![exe.clone().into_os_string()];
    argv.extend(a.engine[1..].iter().cloned());
    let done = match suggest::suggest(
        &argv,
        Some(dir),
        &recording,
        Timeouts::from_answer(a.timeout),
    ) {
        Ok(d) => d,
        Err(ProbeError::Engine(e)) => bail!("{e}"),
        Err(ProbeError::Other(e)) => return Err(e),
    };
    let tool = concat!("kibitzer ", env!("CARGO_PKG_VERSION"));
    let text = suggest::render(&done.found, &loc, &recording.display().to_string(), tool);
    // What we write must be what we read: a profile our own parser refuses is a bug here.
    if let Err(errors) = crate::protocol::c2w::parse(&text) {
        let e: Vec<String> = errors.iter().map(ToString::to_string).collect();
        bail!(
            "internal error: the suggested profile does not parse: {}",
            e.join("; ")
        );
    }
    if let Some(p) = &a.output {
        std::fs::write(p, &text).with_context(|| format!("cannot write {}", p.display()))?;
    }
    let exit_status = i32::from(!done.engine_errors.is_empty());
    let stdout = match a.format {
        OutputFormat::Json => {
            let report = suggest::SuggestionReport {
                schema: suggest::SCHEMA,
                tool: tool.to_owned(),
                engine: argv
                    .iter()
                    .map(|w| w.to_string_lossy().into_owned())
                    .collect(),
                recording: recording.display().to_string(),
                output: a.output.as_ref().map(|p| p.display().to_string()),
                profile: text.clone(),
                found: done.found.clone(),
                engine_errors: done.engine_errors.clone(),
                engine_warnings: done.engine_warnings.clone(),
                exit_status,
            };
            let mut j = serde_json::to_string_pretty(&report)?;
            j.push('\n');
            Some(j)
        }
        OutputFormat::Text if a.output.is_none() => Some(text),
        OutputFormat::Text => None,
    };
    if let Some(t) = stdout {
        let mut out = std::io::stdout().lock();
        match crate::untrusted::write_guarded(&mut out, &t, false) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
            _ => {}
        }
    }
    tell_on_stderr(&a, &done, &recording);
    Ok(exit_status)
}

/// Where the profile says the engine is: its directory, and `EngineSwitch`'s words.
fn location(dir: &Path, file: &std::ffi::OsStr, args: &[OsString]) -> Location {
    let mut words = vec![switch_word(&file.to_string_lossy())];
    words.extend(args.iter().map(|w| switch_word(&w.to_string_lossy())));
    Location {
        dir: dir.display().to_string(),
        switch: words.join(" "),
        program: file.to_string_lossy().into_owned(),
    }
}

/// Where the session's recording is kept: as given, or a new file in the recordings
/// directory, as `record` names one.
fn recording_path(a: &SuggestArgs, program: &OsString) -> Result<PathBuf> {
    if let Some(p) = &a.recording {
        return Ok(p.clone());
    }
    let rdir = output_path::recordings_dir(None, |k| std::env::var_os(k));
    std::fs::create_dir_all(&rdir)
        .with_context(|| format!("cannot create recordings directory {}", rdir.display()))?;
    Ok(rdir.join(output_path::file_name(
        chrono::Local::now(),
        program,
        std::process::id(),
        Some("c2w-suggest"),
    )))
}

/// The engine's errors and warnings, where the profile and the recording went, and what to
/// run next.
fn tell_on_stderr(a: &SuggestArgs, done: &suggest::Suggested, recording: &Path) {
    for f in done.engine_errors.iter().chain(&done.engine_warnings) {
        let at = f
            .line
            .map(|l| format!("{}:{l}: ", recording.display()))
            .unwrap_or_default();
        crate::eprintln_safe!(
            "{at}{}[{}] engine: {}",
            f.severity.as_str(),
            f.rule,
            f.message
        );
    }
    if let Some(p) = &a.output {
        crate::eprintln_safe!("kibitzer: profile written to {}", p.display());
    }
    crate::eprintln_safe!("kibitzer: recording kept: {}", recording.display());
    let shown = a
        .output
        .as_ref()
        .map_or("PROFILE.c2w".to_owned(), |p| p.display().to_string());
    crate::eprintln_safe!(
        "kibitzer: check engine and profile together: kibitzer probe --c2w {shown}"
    );
}
