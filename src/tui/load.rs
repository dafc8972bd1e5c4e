//! The reader thread: the input's events into the [`Doc`], in batches, through the one input
//! module; `--follow` keeps reading a recording as the recorder appends to it.

use super::doc::Doc;
use crate::input::ControlFlow;
use crate::input::judged::{Judging, Line, judge_lines};
use crate::input::{Input, Item};
use crate::recording::ProxyKind;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Events decoded per lock of the document: the UI thread never waits longer than a batch.
const BATCH: usize = 2048;

pub fn lock(doc: &Mutex<Doc>) -> MutexGuard<'_, Doc> {
    // A panic on the reader thread leaves the document as far as it got: still worth showing.
    doc.lock().unwrap_or_else(|e| e.into_inner())
}

/// How often the screen is told of new lines at most while the input is read.
const NOTIFY_EVERY: Duration = Duration::from_millis(20);

/// Events looked at to detect the sessions' protocols before the screen opens.
const PRESCAN: usize = 50_000;

/// The protocols of the sessions, as `check` detects them but from the input's first events
/// only: a pass over all of a 1 GB log takes seconds before the first screen could show. A
/// session that starts later is detected as its lines come (streaming detection, which keeps
/// the lines before the deciding one at their own time and with their findings).
pub fn presets(
    input: &Input,
    forced: Option<crate::protocol::Protocol>,
) -> anyhow::Result<Vec<(Option<String>, crate::protocol::Protocol, String)>> {
    if forced.is_some() {
        return Ok(Vec::new());
    }
    if input
        .recording_header()
        .is_some_and(|h| h.imported_from.is_none())
    {
        // One session: its detection stops after its first lines anyway.
        return input.protocols(forced);
    }
    let mut detector = crate::session::SessionDetector::default();
    let mut n = 0;
    let (_, stopped) = input.read(|item| {
        if let Item::Event(ev, _) = item {
            detector.push(ev);
            n += 1;
            if n >= PRESCAN {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    })?;
    stopped?;
    Ok(detector.finish())
}

/// Maps the input (the file, or its temporary copy for standard input and gzip) so that rows
/// point into it instead of keeping their text; `true` with a recording.
/// A file truncated while it is shown would fault (SIGBUS): the map's guard maps zeros
/// instead, and the lines past the end then say they can no longer be read.
pub fn map_input(input: &Input) -> Option<(crate::input::mapguard::MappedFile, bool)> {
    let f = std::fs::File::open(input.path()).ok()?;
    let map = crate::input::mapguard::MappedFile::map(&f).ok()?;
    let recording = input.recording_header().is_some();
    // What is mapped must be what is read: a recording's JSON lines.
    if recording && !crate::recording::reader::looks_like_recording(map.bytes()) {
        return None;
    }
    Some((map, recording))
}

/// The document, judging through the one loop of every command ([`judge_lines`]) with its lock
/// held over a batch of lines, as long as the screen can wait (a lock per line cost a third
/// more on a 1 GB recording).
struct Batched<'a> {
    doc: &'a Mutex<Doc>,
    held: Option<MutexGuard<'a, Doc>>,
}

impl Batched<'_> {
    fn doc(&mut self) -> &mut Doc {
        self.held.get_or_insert_with(|| lock(self.doc))
    }
}

impl Judging for Batched<'_> {
    fn judge(
        &mut self,
        ev: &crate::recording::Event,
        line: Option<u64>,
        at: Option<u64>,
        ahead: &mut Option<crate::session::Parsed>,
    ) -> usize {
        self.doc().push_ahead(ev, line, at, ahead)
    }

    fn take_spent(&mut self) -> Option<crate::protocol::Msg> {
        self.doc().take_spent()
    }
}

/// Reads the whole input into `doc`; `notify` is called after each batch. A mapped
/// input's rows point into the map ([`Doc::use_map`] before). `stop` ends the reading early
/// (the viewer quit).
pub fn load(input: &Input, doc: &Mutex<Doc>, stop: &AtomicBool, notify: &dyn Fn()) {
    // A big log is read and its lines parsed on a thread of its own; each line is decoded
    // here from its slot (nothing copied), and its parsed message goes back to that thread to
    // be parsed into again.
    let opts = crate::input::pipeline::ReadOptions {
        ahead: true,
        // Where each row's text is comes with it: the map is not read again to find it.
        locate: true,
        ..Default::default()
    };
    let mut since_notice = 0usize;
    let mut last_notice = Instant::now();
    let mut notified: Option<Instant> = None;
    let mut batched = Batched { doc, held: None };
    let read = judge_lines(input, opts, &mut batched, None, |b, l| {
        if let Line::Unreadable(s) = l {
            b.doc().skip(s.line, s.reason.clone());
        }
        since_notice += 1;
        // The first screen comes early; later batches are bigger.
        // The clock is read every 64 lines, not every line (it cost 2.5% of indexing).
        if since_notice >= BATCH
            || (since_notice.is_multiple_of(64)
                && last_notice.elapsed() > Duration::from_millis(50))
        {
            let d = b.doc();
            if let Some((map, at)) = d.map() {
                d.progress = Some((at as u64, map.len() as u64));
            }
            d.release_read_pages();
            b.held = None;
            // The screen draws news at most every 100 ms anyway: waking it for each batch cost
            // both threads more than the drawing itself.
            if notified.is_none_or(|n: Instant| n.elapsed() >= NOTIFY_EVERY) {
                notify();
                notified = Some(Instant::now());
            }
            since_notice = 0;
            last_notice = Instant::now();
            if stop.load(Ordering::Relaxed) {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    });
    drop(batched);
    let mut d = lock(doc);
    match read {
        Ok((_, Err(e))) => d.error = Some(format!("{}: {e}", d.file)),
        Err(e) => d.error = Some(format!("{e:#}")),
        Ok(_) => {}
    }
    if d.map_shrunk() {
        d.error = Some(format!("{}: the file shrank while it was read", d.file));
    }
    d.finish(None);
    drop(d);
    notify();
}

/// The last event's time and wall-clock time, and when it was read.
type LastEvent = (u64, Option<u64>, Instant);

/// Follows a file being written: a recording (by `kibitzer record`) or a log (by a GUI or a
/// tournament runner). Decodes each line as it is appended (a line is taken once complete),
/// updates the hang verdict as time passes, and stops at a recording's last event
/// (`engine_exit`) or `stop`; a log is followed until the viewer quits. Waiting for the file,
/// and a file truncated or replaced, are said in the status bar.
pub fn follow(
    path: &std::path::Path,
    format: Option<crate::import::LogFormat>,
    doc: &Mutex<Doc>,
    stop: &AtomicBool,
    notify: &dyn Fn(),
) {
    use crate::input::follow::Notice;
    // Time of the last event, and when it was read: the recording's clock runs on meanwhile.
    let clock: Mutex<Option<LastEvent>> = Mutex::new(None);
    let mut idle = || {
        let last = *clock.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((t, ts, seen)) = last {
            let now = match ts {
                // Wall clock when the events carry it: right even if we started late.
                Some(ts) => {
                    let wall = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_nanos() as u64);
                    t + wall.saturating_sub(ts)
                }
                None => t + seen.elapsed().as_nanos() as u64,
            };
            lock(doc).live_verdicts(now);
            notify();
        }
    };
    let recording = std::cell::Cell::new(false);
    let mut notice = |n: Notice| {
        let mut d = lock(doc);
        let file = d.file.clone();
        match n {
            Notice::Waiting => d.notice = Some(format!("waiting for {file} to appear")),
            Notice::Opened => d.notice = None,
            Notice::Truncated => {
                let at = u32::try_from(d.rows.len()).unwrap_or(u32::MAX);
                d.restarts.push(at);
                d.notice = Some(format!(
                    "{file} was truncated: reading it again from the start"
                ))
            }
            Notice::Replaced => {
                let at = u32::try_from(d.rows.len()).unwrap_or(u32::MAX);
                d.restarts.push(at);
                d.notice = Some(format!("{file} was replaced: reading the new file"))
            }
            Notice::Format(f) => {
                recording.set(f == "recording");
                d.format = format!("{f} (following)");
            }
        }
        d.generation += 1;
        drop(d);
        notify();
    };
    let read = crate::input::follow::follow(path, format, stop, &mut idle, &mut notice, |item| {
        let mut d = lock(doc);
        let mut ended = false;
        match item {
            Item::Event(ev, line) => {
                d.push(ev, line);
                *clock.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some((ev.t, ev.ts, Instant::now()));
                ended = recording.get() && ev.kind == Some(ProxyKind::EngineExit);
                if !ended {
                    d.live_verdicts(ev.t);
                }
            }
            Item::Skipped(s) => d.skip(s.line, s.reason.clone()),
        }
        drop(d);
        notify();
        if ended {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    if let Err(e) = read {
        lock(doc).error = Some(format!("{e:#}"));
        notify();
        return;
    }
    lock(doc).finish(None);
    notify();
}

/// Reads a whole input into a new document on this thread (tests, and inputs read before
/// the screen opens): what the viewer shows once its reader is done.
pub fn read_file(
    path: &std::path::Path,
    input_format: Option<&str>,
    protocol: Option<crate::protocol::Protocol>,
    profile: crate::rules::Profile,
) -> anyhow::Result<Doc> {
    read_file_with(path, input_format, protocol, profile, true)
}

/// [`read_file`], the recording's text kept (`map` false) or read from a map (true).
pub fn read_file_with(
    path: &std::path::Path,
    input_format: Option<&str>,
    protocol: Option<crate::protocol::Protocol>,
    profile: crate::rules::Profile,
    map: bool,
) -> anyhow::Result<Doc> {
    let input = Input::open(path, input_format)?;
    let opts = crate::rules::CheckOptions {
        protocol,
        fold_repeats: true,
        ..crate::rules::CheckOptions::new(profile)
    };
    let mut d = Doc::for_input(&input, &opts, presets(&input, protocol)?);
    if map && let Some((m, recording)) = map_input(&input) {
        d.use_map(m, recording);
    }
    let doc = Mutex::new(d);
    load(&input, &doc, &AtomicBool::new(false), &|| {});
    Ok(doc.into_inner().unwrap_or_else(|e| e.into_inner()))
}
