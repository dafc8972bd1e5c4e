//! `kibitzer report INPUT...`: a tournament's health per engine, over thousands of recordings
//! and logs, judged on every core; text, JSON or one self-contained HTML file; reports made on
//! several machines merged with `--merge`.

use crate::report::{self, Report, walk};
use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// A tournament's health at a glance: every input judged as `check` judges it, then per
/// engine its sessions, games, results and how they ended (as the runner said and as kibitzer
/// judges), its findings by rule with the first places and a `kibitzer view` command for
/// each, its hangs and its latencies per request type.
///
/// Exit status: 0 no errors, 1 errors found, 2 an input could not be read or bad usage.
#[derive(Args)]
pub struct ReportArgs {
    /// Recordings and logs (`.gz` read), the runner's PGN, directories (walked), `-` for a
    /// list of paths on standard input, and reports made with `--format json` (`*.json`) to
    /// add into this one
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Add up reports made with `--format json` (on other machines, or of other games): the
    /// `*.json` files among the inputs, wherever the flag stands (`report --merge a.json
    /// b.json`; a named `.json` input is a report to merge with or without it)
    #[arg(long)]
    merge: bool,
    /// Output: text for the terminal, the JSON report (schema in docs/report.md), or one
    /// self-contained HTML page
    #[arg(long, value_enum, default_value = "text")]
    format: ReportFormat,
    /// Read the inputs as this format instead of detecting it: recording, or an importer name
    #[arg(long, value_name = "NAME")]
    input_format: Option<String>,
    #[command(flatten)]
    judge: super::judging::JudgeFlags,
    /// Threads judging inputs (default: one per core)
    #[arg(short, long, value_name = "N", default_value_t = 0)]
    jobs: usize,
    /// Write the report to FILE instead of standard output
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ReportFormat {
    Text,
    Json,
    Html,
}

pub fn run(a: ReportArgs) -> Result<i32> {
    let judging = a.judge.judging()?;
    let input_format = crate::input::FormatChoice::from_name(a.input_format.as_deref())?;
    let mut opts = judging.options.clone();
    // Every time a rule is broken counts, and places each game's faults.
    opts.fold_repeats = false;
    let c2w = judging.c2w_file.as_ref().map(|f| f.display().to_string());
    let empty = Report::empty(opts.profile.name, c2w);
    // Named `.json` files are reports to merge: the flag may stand anywhere.
    let (merge, named): (Vec<PathBuf>, Vec<PathBuf>) =
        a.inputs.iter().cloned().partition(|p| is_report_json(p));
    if a.merge && merge.is_empty() {
        bail!("--merge: no report (`*.json`) among the inputs");
    }
    let inputs = walk::inputs(&named)?;
    let judge = crate::input::judged::JudgeInput {
        input_format,
        opts: &opts,
        c2w_named: a.judge.c2w.is_some(),
        at_ns: None,
        keep_games: true,
        // Many inputs are judged one per core already; a reading thread each would only
        // fight them for the cores (and `--jobs 1` asks for one).
        read_on_thread: inputs.len() == 1 && a.jobs != 1,
    };
    let bar = progress(inputs.len());
    let tick = || bar.inc(1);
    let mut whole = report::run(&inputs, &judge, &empty, a.jobs, &tick)?;
    bar.finish_and_clear();
    for m in &merge {
        let text =
            std::fs::read_to_string(m).with_context(|| format!("cannot read {}", m.display()))?;
        let other: Report = serde_json::from_str(&text).with_context(|| {
            format!(
                "{} is not a kibitzer report ({})",
                m.display(),
                report::SCHEMA
            )
        })?;
        if let Some(why) = other.problem() {
            bail!("{} is not a report kibitzer made: {why}", m.display());
        }
        if other.profile != whole.profile || other.c2w != whole.c2w {
            bail!(
                "{} was judged under the deadline profile {}{}, this report under {}{}: \
                 reports merge only when judged alike (--profile, --c2w)",
                m.display(),
                other.profile,
                other
                    .c2w
                    .as_deref()
                    .map(|c| format!(" with {c}"))
                    .unwrap_or_default(),
                whole.profile,
                whole
                    .c2w
                    .as_deref()
                    .map(|c| format!(" with {c}"))
                    .unwrap_or_default(),
            );
        }
        whole.merge(other);
    }
    whole.settle();
    let first = a.inputs.first().cloned().unwrap_or_default();
    if let Some(o) = &a.output {
        for f in &a.inputs {
            super::output::refuse_same_file(f, o)?;
        }
    }
    let mut out = super::output::Sink::open(a.output.as_deref(), &first)?;
    let written = match a.format {
        ReportFormat::Json => serde_json::to_writer_pretty(&mut out, &whole)
            .map_err(std::io::Error::from)
            .and_then(|()| out.write_all(b"\n")),
        ReportFormat::Html => out.write_all(report::html::render(&whole).as_bytes()),
        ReportFormat::Text => {
            let mut text = String::new();
            report::text::render(&whole, &mut text);
            crate::untrusted::write_guarded(&mut out, &text, false)
        }
    };
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
        _ => out.finish()?,
    }
    for p in &whole.inputs.unreadable_files {
        crate::eprintln_safe!("kibitzer: {}: {}", p.file, p.error);
    }
    Ok(if whole.inputs.unreadable > 0 {
        2
    } else {
        whole.findings.standing().exit_status()
    })
}

/// A bar on standard error when it is a terminal and there is more than one input.
fn progress(n: usize) -> indicatif::ProgressBar {
    if n < 2 || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    crate::input::progress::bar(
        n as u64,
        crate::input::progress::Counting::Inputs,
        "judging".to_owned(),
    )
}

/// A report to merge: a named file ending in `.json`.
fn is_report_json(p: &std::path::Path) -> bool {
    p.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}
