use crate::import::{LogFormat, Unclassified};
use crate::input::ControlFlow;
use crate::input::Item;
use crate::recording::Event;
use crate::recording::writer::{encode_event, encode_header, write_recording};
use anyhow::{Context, Result};
use clap::Args;
use std::io::Write;
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
    /// Read the log as this format instead of detecting it
    #[arg(long, value_name = "NAME")]
    input_format: Option<String>,
    /// Earlier spelling of `--input-format`
    #[arg(long, value_name = "NAME", hide = true)]
    format: Option<String>,
    /// List the log lines that are neither traffic nor a known tool message
    #[arg(long)]
    show_unclassified: bool,
}

pub fn run(a: ImportArgs) -> Result<i32> {
    super::output::refuse_same_file(&a.log, &a.output)?;
    let format = crate::input::input_format(a.input_format.as_deref(), a.format.as_deref())?;
    let input = crate::input::Input::open_with(&a.log, format)?;
    let shown = input.shown().to_owned();
    // Nothing is written to the target until the import succeeded: an existing file stays as
    // it was when the input turns out unreadable.
    let mut out = super::output::AtomicFile::create(&a.output)?;
    let mut seen = Seen::default();
    let (unclassified, lost) = match (input.log(), input.recording_header()) {
        (Some(log), _) => (import_log(log, &shown, &a, &mut out, &mut seen)?, 0),
        (None, header) => {
            let mut buf = Vec::with_capacity(64 * 1024);
            if let Some(h) = header {
                encode_header(&mut buf, h);
            }
            let (outcome, stopped) = input.read(|item| {
                match item {
                    Item::Event(e, _) => {
                        seen.note(e);
                        encode_event(&mut buf, e);
                        if buf.len() > 60 * 1024 {
                            out.write_all(&buf)?;
                            buf.clear();
                        }
                    }
                    Item::Skipped(s) => crate::eprintln_safe!("{shown}:{}: {}", s.line, s.reason),
                }
                Ok(ControlFlow::Continue(()))
            })?;
            stopped
                .and_then(|()| out.write_all(&buf))
                .with_context(|| format!("cannot write {}", a.output.display()))?;
            (Vec::new(), outcome.lost_lines())
        }
    };
    out.commit()?;
    crate::eprintln_safe!(
        "{shown}: {} -> {}: {} events, sessions: {}; {} unclassified lines{}",
        input.format_name(),
        a.output.display(),
        seen.events,
        seen.session_names(),
        unclassified.len(),
        if lost > 0 {
            format!("; {lost} unreadable line(s) skipped")
        } else {
            String::new()
        }
    );
    if a.show_unclassified {
        for u in &unclassified {
            crate::eprintln_safe!("{shown}:{}: {} ({})", u.line, u.text, u.reason);
        }
    }
    Ok(if lost > 0 { 2 } else { 0 })
}

/// Streams a log into the recording in two passes over the mapped file: the header comes
/// first in a recording but is only known at the end (parsers fill session headers in as they
/// go), so the first pass parses for it and the second writes the events. Neither keeps more
/// than a few thousand lines' events.
fn import_log(
    log: &crate::input::MappedLog,
    shown: &str,
    a: &ImportArgs,
    out: &mut super::output::AtomicFile,
    seen: &mut Seen,
) -> Result<Vec<Unclassified>> {
    let size = log.size() as u64;
    let bar = (size >= crate::input::PROGRESS_THRESHOLD)
        .then(|| crate::input::progress_bar(2 * size, shown));
    let mut first = log.events()?;
    let mut total = 0u64;
    while first.next().is_some() {
        total += 1;
        if let Some(b) = bar.as_ref().filter(|_| total.is_multiple_of(1 << 16)) {
            b.set_position(first.bytes_read() as u64);
        }
    }
    let header = crate::input::imported_header(shown, log.format(), &first.session_headers());
    let unclassified = first.take_unclassified();
    let epoch = header.start_unix_ns();
    let events = log.events()?.map(|mut e| {
        e.ts = epoch.map(|s| s.saturating_add(e.t));
        seen.note(&e);
        if let Some(b) = bar.as_ref().filter(|_| seen.events.is_multiple_of(1 << 16)) {
            b.set_position(size + size * seen.events / total.max(1));
        }
        e
    });
    write_recording(out, &header, events)
        .with_context(|| format!("cannot write {}", a.output.display()))?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    log.check_unchanged()?;
    Ok(unclassified)
}

/// What the summary line reports: events written, session labels in order of appearance.
#[derive(Default)]
struct Seen {
    events: u64,
    sessions: Vec<String>,
}

impl Seen {
    fn note(&mut self, e: &Event) {
        self.events += 1;
        if let Some(s) = e.session.as_deref()
            && self.sessions.last().is_none_or(|l| l != s)
            && !self.sessions.iter().any(|l| l == s)
        {
            self.sessions.push(s.to_owned());
        }
    }

    /// The labels, the first few only: a tournament log can hold hundreds of engine sessions.
    fn session_names(&self) -> String {
        const SHOWN: usize = 12;
        if self.sessions.is_empty() {
            return "-".into();
        }
        let mut names = self.sessions[..self.sessions.len().min(SHOWN)].join(", ");
        if self.sessions.len() > SHOWN {
            names.push_str(&format!(" ... ({} in all)", self.sessions.len()));
        }
        names
    }
}
