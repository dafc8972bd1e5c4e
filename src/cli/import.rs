use crate::import::{LogFormat, Unclassified};
use crate::recording::writer::{encode_event, encode_header};
use crate::recording::{Event, Header, Source};
use anyhow::{Context, Result};
use clap::Args;
use std::io::Write as _;
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
    let out = std::fs::File::create(&a.output)
        .with_context(|| format!("cannot create {}", a.output.display()))?;
    let mut w = Output {
        file: std::io::BufWriter::with_capacity(1 << 20, out),
        buf: Vec::with_capacity(64 * 1024),
        events: 0,
        sessions: Vec::new(),
    };
    let written = match super::input::open_recording(file.path(), a.format.as_deref())? {
        Some(mut reader) => {
            w.header(&reader.header().clone())?;
            let mut ev = Event::line(0, 0, Source::Proxy, String::new());
            while let Some(item) = reader.read_into(&mut ev) {
                match item {
                    Ok(()) => w.event(&ev)?,
                    Err(issue) => eprintln!("{}:{issue}", a.log.display()),
                }
            }
            ("recording", Vec::new())
        }
        None => {
            let log = super::input::open_log(file.path(), a.format.as_deref())?;
            let unclassified = import_log(&log, &a.log, &mut w)?;
            (log.format().name(), unclassified)
        }
    };
    w.finish()
        .with_context(|| format!("cannot write {}", a.output.display()))?;
    let (format, unclassified) = written;
    // A tournament log can hold hundreds of engine sessions: name the first few.
    const SHOWN: usize = 12;
    let mut names = w
        .sessions
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if names.is_empty() {
        names.push('-');
    }
    if w.sessions.len() > SHOWN {
        names.push_str(&format!(" ... ({} in all)", w.sessions.len()));
    }
    eprintln!(
        "{}: {format} -> {}: {} events, sessions: {names}; {} unclassified lines",
        a.log.display(),
        a.output.display(),
        w.events,
        unclassified.len(),
    );
    if a.show_unclassified {
        for u in &unclassified {
            eprintln!("{}:{}: {} ({})", a.log.display(), u.line, u.text, u.reason);
        }
    }
    Ok(0)
}

/// Streams a log into the recording in two passes over the mapped file: the header comes
/// first in a recording but is only known at the end (parsers fill session headers in as they
/// go), so the first pass parses for it and the second writes the events. Neither keeps more
/// than a few thousand lines' events.
fn import_log(
    log: &super::input::MappedLog,
    shown: &std::path::Path,
    w: &mut Output,
) -> Result<Vec<Unclassified>> {
    let bar = (log.size() as u64 >= super::input::PROGRESS_THRESHOLD)
        .then(|| super::input::progress_bar(2 * log.size() as u64, shown));
    let tick = |done: usize| {
        if let Some(b) = &bar {
            b.set_position(done as u64);
        }
    };
    let mut first = log.events()?;
    let mut n = 0u64;
    while first.next().is_some() {
        n += 1;
        if n.is_multiple_of(1 << 16) {
            tick(first.bytes_read());
        }
    }
    let header = super::input::imported_header(shown, log.format(), &first.session_headers());
    let unclassified = first.take_unclassified();
    let epoch = header.start_unix_ns();
    w.header(&header)?;
    let mut second = log.events()?;
    while let Some(mut e) = second.next() {
        e.ts = epoch.map(|s| s.saturating_add(e.t));
        w.event(&e)?;
        if w.events.is_multiple_of(1 << 16) {
            tick(log.size() + second.bytes_read());
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(unclassified)
}

/// The recording being written, and what the summary line reports.
struct Output {
    file: std::io::BufWriter<std::fs::File>,
    buf: Vec<u8>,
    events: u64,
    /// Session labels in order of first appearance.
    sessions: Vec<String>,
}

impl Output {
    fn header(&mut self, h: &Header) -> std::io::Result<()> {
        encode_header(&mut self.buf, h);
        self.flush_buf()
    }

    fn event(&mut self, e: &Event) -> std::io::Result<()> {
        encode_event(&mut self.buf, e);
        self.events += 1;
        if let Some(s) = e.session.as_deref()
            && self.sessions.last().is_none_or(|l| l != s)
            && !self.sessions.iter().any(|l| l == s)
        {
            self.sessions.push(s.to_owned());
        }
        if self.buf.len() > 60 * 1024 {
            self.flush_buf()?;
        }
        Ok(())
    }

    fn flush_buf(&mut self) -> std::io::Result<()> {
        self.file.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }

    fn finish(&mut self) -> std::io::Result<()> {
        self.flush_buf()?;
        self.file.flush()
    }
}
