use crate::import::LogFormat;
use crate::recording::writer::write_recording;
use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;

/// Convert a log from another tool into a kibitzer recording (JSONL).
///
/// The format is detected from the content; every engine in the log keeps its label in each
/// event's `session` field, and every event keeps its original log line number.
#[derive(Args)]
#[command(after_help = format!("Formats: {}", LogFormat::names().join(", ")))]
pub struct ImportArgs {
    /// The log to import (`-` for standard input)
    log: PathBuf,
    /// Output recording (JSONL)
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Force the input format instead of detecting it
    #[arg(long, value_name = "NAME")]
    format: Option<String>,
    /// List the log lines that are neither traffic nor a known tool message
    #[arg(long)]
    show_unclassified: bool,
}

pub fn run(a: ImportArgs) -> Result<i32> {
    let file = super::input::InputFile::open(&a.log)?;
    let input = super::input::load(file.path(), a.format.as_deref())?;
    for i in &input.issues {
        eprintln!("{}:{i}", a.log.display());
    }
    let out = std::fs::File::create(&a.output)
        .with_context(|| format!("cannot create {}", a.output.display()))?;
    let mut w = out;
    write_recording(&mut w, &input.header, &input.events)
        .with_context(|| format!("cannot write {}", a.output.display()))?;
    let mut sessions: Vec<&str> = Vec::new();
    for e in &input.events {
        if let Some(s) = e.session.as_deref()
            && !sessions.contains(&s)
        {
            sessions.push(s);
        }
    }
    eprintln!(
        "{}: {} -> {}: {} events, sessions: {}; {} unclassified lines",
        a.log.display(),
        input.format.map(|f| f.name()).unwrap_or("recording"),
        a.output.display(),
        input.events.len(),
        if sessions.is_empty() {
            "-".to_string()
        } else {
            sessions.join(", ")
        },
        input.unclassified.len(),
    );
    if a.show_unclassified {
        for u in &input.unclassified {
            eprintln!("{}:{}: {} ({})", a.log.display(), u.line, u.text, u.reason);
        }
    }
    Ok(0)
}
