//! A file that is still being written, read as it grows: a recording that `kibitzer record`
//! writes, or any log a GUI or tournament runner writes (xboard.debug, cutechess-cli
//! `-debug`, fastchess, ...). At the end the reader waits for more instead of ending, and lets
//! the caller do something meanwhile (the viewer's live hang verdict). A file that does not
//! exist yet is waited for; one that is truncated is read again from the start, and one that
//! is replaced (log rotation, a new tournament) is reopened, and the caller is told. Events
//! and unreadable lines come out as every other input's do ([`Item`]).

use super::{ControlFlow, Item, Skipped};
use crate::import::LogFormat;
use crate::import::live::LiveLog;
use crate::recording::{Event, Reader, Source};
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the end of a growing file is looked at again.
const POLL: Duration = Duration::from_millis(100);

/// Bytes of a log looked at to tell its format before giving up.
const DETECT_WITHIN: usize = 256 * 1024;

/// What happened to the file, for the caller to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// The file does not exist (yet).
    Waiting,
    /// It exists now, or again.
    Opened,
    /// It became shorter than what was read: read again from the start.
    Truncated,
    /// Another file took its name (rotation): the new one is read from its start.
    Replaced,
    /// The format of the log, once known.
    Format(&'static str),
}

/// Why a [`Tail`] stopped giving bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reopen {
    Truncated,
    Replaced,
}

/// The file being followed: at its end, waits (running `idle`) until it grows, is stopped,
/// or is truncated or replaced (then it ends, and says which in `reopen`).
struct Tail<'a> {
    path: &'a Path,
    file: std::fs::File,
    pos: u64,
    stop: &'a AtomicBool,
    idle: &'a mut dyn FnMut(),
    reopen: Option<Reopen>,
    /// Give `Ok(0)` at the end instead of waiting (logs: the caller flushes, then waits).
    return_at_end: bool,
}

impl Tail<'_> {
    /// Whether the file at `path` is no longer the one being read, or shorter.
    fn changed(&self) -> Option<Reopen> {
        let now = std::fs::metadata(self.path).ok()?;
        let mine = self.file.metadata().ok()?;
        if now.ino() != mine.ino() || now.dev() != mine.dev() {
            Some(Reopen::Replaced)
        } else if now.len() < self.pos {
            Some(Reopen::Truncated)
        } else {
            None
        }
    }
}

impl Read for Tail<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            if self.reopen.is_some() {
                return Ok(0);
            }
            let n = self.file.read(buf)?;
            self.pos += n as u64;
            if n > 0 || self.stop.load(Ordering::Relaxed) {
                return Ok(n);
            }
            if let Some(why) = self.changed() {
                self.reopen = Some(why);
                return Ok(0);
            }
            if self.return_at_end {
                return Ok(0);
            }
            (self.idle)();
            std::thread::sleep(POLL);
        }
    }
}

/// Waits for `path` to exist; `false` when stopped first.
fn wait_for(
    path: &Path,
    stop: &AtomicBool,
    idle: &mut dyn FnMut(),
    notice: &mut dyn FnMut(Notice),
) -> Option<std::fs::File> {
    let mut said = false;
    loop {
        match std::fs::File::open(path) {
            Ok(f) => {
                if said {
                    notice(Notice::Opened);
                }
                return Some(f);
            }
            Err(_) if stop.load(Ordering::Relaxed) => return None,
            Err(_) => {
                if !said {
                    notice(Notice::Waiting);
                    said = true;
                }
                idle();
                std::thread::sleep(POLL);
            }
        }
    }
}

/// Reads the file at `path` as it is written, giving each event (with its line) and each
/// unreadable line to `f` until `f` breaks or `stop` is set; `idle` runs whenever the reader
/// waits, `notice` is told when the file is waited for, truncated or replaced. A recording is
/// read as one; anything else as a log of `format` (detected from its first lines when
/// `None`). Errors: a log whose format cannot be told.
pub fn follow(
    path: &Path,
    format: Option<LogFormat>,
    stop: &AtomicBool,
    idle: &mut dyn FnMut(),
    notice: &mut dyn FnMut(Notice),
    mut f: impl FnMut(Item<'_>) -> ControlFlow<()>,
) -> anyhow::Result<()> {
    let mut seq = 0u64;
    let mut said_format = false;
    loop {
        let Some(file) = wait_for(path, stop, idle, notice) else {
            return Ok(());
        };
        let mut tail = Tail {
            path,
            file,
            pos: 0,
            stop,
            idle: &mut *idle,
            reopen: None,
            return_at_end: true,
        };
        // The first bytes tell a recording from a log.
        let mut head = Vec::new();
        let mut chunk = vec![0u8; 64 * 1024];
        let kind = loop {
            if stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            let n = tail.read(&mut chunk)?;
            head.extend_from_slice(&chunk[..n]);
            if tail.reopen.is_some() {
                break None;
            }
            let complete = head.iter().filter(|&&b| b == b'\n').count();
            if format.is_none()
                && head.first() == Some(&b'{')
                && complete >= 1
                && crate::recording::reader::looks_like_recording(&head)
            {
                break Some(Content::Recording);
            }
            if let Some(fmt) = format {
                if complete >= 1 {
                    break Some(Content::Log(fmt));
                }
            } else if complete >= 1
                && let Some(fmt) = LiveLog::detect(&head)
                    .filter(|_| complete >= crate::import::DETECT_SAMPLE_LINES || n == 0)
            {
                break Some(Content::Log(fmt));
            }
            if head.len() > DETECT_WITHIN {
                anyhow::bail!(
                    "{}: not a recording, and no log format kibitzer reads (--input-format NAME names one)",
                    path.display()
                );
            }
            if n == 0 {
                (tail.idle)();
                std::thread::sleep(POLL);
            }
        };
        let ended = match kind {
            None => false,
            Some(Content::Recording) => {
                if !said_format {
                    notice(Notice::Format("recording"));
                    said_format = true;
                }
                tail.return_at_end = false;
                let reader_input = std::io::Cursor::new(std::mem::take(&mut head)).chain(&mut tail);
                follow_recording(reader_input, path, stop, &mut seq, &mut f)?
            }
            Some(Content::Log(fmt)) => {
                if !said_format {
                    notice(Notice::Format(fmt.name()));
                    said_format = true;
                }
                follow_log(&mut tail, head, fmt, &mut seq, &mut f)?
            }
        };
        if ended || stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        match tail.reopen {
            Some(Reopen::Truncated) => notice(Notice::Truncated),
            Some(Reopen::Replaced) => notice(Notice::Replaced),
            None => return Ok(()),
        }
    }
}

/// What a followed file's first bytes show it to be.
enum Content {
    Recording,
    Log(LogFormat),
}

/// A recording, until `f` breaks (`true`) or the file is stopped, truncated or replaced.
fn follow_recording(
    input: impl Read,
    path: &Path,
    stop: &AtomicBool,
    seq: &mut u64,
    f: &mut impl FnMut(Item<'_>) -> ControlFlow<()>,
) -> anyhow::Result<bool> {
    let mut reader = Reader::new(std::io::BufReader::new(input))
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let from = *seq;
    let mut ev = Event::line(0, 0, Source::Proxy, String::new());
    while let Some(item) = reader.read_into(&mut ev) {
        let flow = match item {
            Ok(()) => {
                ev.seq += from;
                *seq = (*seq).max(ev.seq);
                f(Item::Event(&ev, Some(reader.line())))
            }
            Err(issue) => f(Item::Skipped(&Skipped::from_issue(&issue))),
        };
        if flow.is_break() {
            return Ok(true);
        }
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    Ok(false)
}

/// A log, line by line: each line's events as soon as the next line starts, and all of them
/// whenever the writer pauses. Until `f` breaks (`true`), or the file is stopped, truncated
/// or replaced.
fn follow_log(
    tail: &mut Tail<'_>,
    head: Vec<u8>,
    format: LogFormat,
    seq: &mut u64,
    f: &mut impl FnMut(Item<'_>) -> ControlFlow<()>,
) -> anyhow::Result<bool> {
    let mut log = LiveLog::new(format, &head).numbered_from(*seq);
    let mut buf = head;
    let mut events = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        // Every complete line in the buffer.
        let mut start = 0;
        while let Some(i) = memchr::memchr(b'\n', &buf[start..]) {
            let end = start + i;
            let line = buf[start..end]
                .strip_suffix(b"\r")
                .unwrap_or(&buf[start..end]);
            log.line(line);
            start = end + 1;
        }
        buf.drain(..start);
        // A writer that never ends its line (a runaway engine, a binary file) is not kept
        // growing: the importer skips a line that long anyway.
        if buf.len() > crate::import::MAX_LOG_LINE_BYTES {
            log.line(&buf);
            buf.clear();
        }
        let n = tail.read(&mut chunk)?;
        let paused = n == 0;
        log.take(paused, &mut events);
        // Lines no rule explains (a GUI's own chatter) are left out, as every reader does.
        log.take_unclassified();
        for ev in events.drain(..) {
            *seq = (*seq).max(ev.seq);
            let line = ev.line;
            if f(Item::Event(&ev, line)).is_break() {
                return Ok(true);
            }
        }
        if paused {
            if tail.reopen.is_some() || tail.stop.load(Ordering::Relaxed) {
                return Ok(false);
            }
            (tail.idle)();
            std::thread::sleep(POLL);
        } else {
            buf.extend_from_slice(&chunk[..n]);
        }
    }
}
