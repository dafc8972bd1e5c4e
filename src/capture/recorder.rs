//! The recording side of the proxy: turns forwarded chunks into JSONL events on disk.
//!
//! A pump calls [`Recorder::chunk`] and then [`Recorder::flush`] *before* it forwards a read,
//! so whatever either side has received is already in the file (handed to the kernel). `chunk` only encodes the lines into a shared buffer under a short lock, so the order
//! of the file is the order in which data entered the proxy: an engine's reply can never be
//! recorded before the GUI line that caused it, however the two pumps are scheduled. `flush`
//! writes the buffer (one `write` per read batch) under a second lock held only by writers, so
//! a slow disk never blocks encoding. Failures to write never propagate: the first one is
//! reported once on stderr and recording stops, while forwarding carries on.

use super::lines::LineAssembler;
use crate::recording::writer::{Stamp, encode_event, encode_header, encode_line};
use crate::recording::{Event, Header, ProxyKind, Source};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

/// Where recorded bytes go. A trait so tests can inject a failing sink.
pub trait Sink: Send {
    fn write_record(&mut self, buf: &[u8]) -> std::io::Result<()>;
}

impl Sink for std::fs::File {
    fn write_record(&mut self, buf: &[u8]) -> std::io::Result<()> {
        Write::write_all(self, buf)
    }
}

/// What encoding needs.
struct State {
    seq: u64,
    last_t: u64,
    gui: LineAssembler,
    engine: LineAssembler,
    stderr: LineAssembler,
    /// Encoded events not yet written.
    buf: Vec<u8>,
    /// `engine_exit` was recorded and nothing may follow it (see [`Recorder::record_after_exit`]).
    closed: bool,
}

/// What writing needs.
struct Output {
    sink: Option<Box<dyn Sink>>,
    path_for_messages: String,
    /// The buffer being written, swapped with `State::buf` so encoding can go on meanwhile.
    spare: Vec<u8>,
}

/// Engine output (stdout and stderr) recorded after the GUI closed the input.
pub const AFTER_GUI_EOF_LIMIT: u64 = 16 << 20;

pub struct Recorder {
    /// What comes after `engine_exit` is recorded too (`record`: the GUI's lines in the moment
    /// after the death, a leftover's output); otherwise `engine_exit` stays the last event
    /// (`probe`, `replay`, `c2w suggest`: kibitzer is the GUI, and what it still sends after
    /// the engine's end reached no one).
    after_exit: AtomicBool,
    gui_gone: AtomicBool,
    after_gui_eof: AtomicU64,
    start: Instant,
    /// Unix ns of `start`, for each event's `ts`.
    epoch: Option<u64>,
    state: Mutex<State>,
    output: Mutex<Output>,
    activity: Activity,
}

/// When each side last spoke (ns since the start; 0 = never): what the process sampler paces
/// itself by. Stored as the lines are encoded, never read on the forwarding path.
#[derive(Default)]
pub struct Activity {
    pub gui: AtomicU64,
    /// Any engine line.
    pub engine: AtomicU64,
    /// An engine line that answers (not search progress: `info`, CECP thinking output,
    /// NBoard `status`).
    pub answer: AtomicU64,
}

/// Search progress rather than an answer: UCI `info`, CECP thinking lines (they start with
/// the depth), NBoard `status`/`nodestats`.
fn is_progress(line: &[u8]) -> bool {
    let l = line.trim_ascii_start();
    l.starts_with(b"info")
        || l.first().is_some_and(u8::is_ascii_digit)
        || l.starts_with(b"status")
        || l.starts_with(b"nodestats")
}

impl Recorder {
    /// `sink` is `None` when the recording could not even be opened (already warned about).
    pub fn new(
        start: Instant,
        sink: Option<Box<dyn Sink>>,
        path_for_messages: String,
        header: &Header,
    ) -> Self {
        let mut buf = Vec::with_capacity(128 * 1024);
        encode_header(&mut buf, header);
        let rec = Recorder {
            after_exit: AtomicBool::new(false),
            gui_gone: AtomicBool::new(false),
            after_gui_eof: AtomicU64::new(0),
            start,
            epoch: header.start_unix_ns(),
            activity: Activity::default(),
            state: Mutex::new(State {
                seq: 0,
                last_t: 0,
                gui: LineAssembler::default(),
                engine: LineAssembler::default(),
                stderr: LineAssembler::default(),
                buf,
                closed: false,
            }),
            output: Mutex::new(Output {
                sink,
                path_for_messages,
                spare: Vec::with_capacity(128 * 1024),
            }),
        };
        rec.flush();
        rec
    }

    /// When each side last spoke.
    pub fn activity(&self) -> &Activity {
        &self.activity
    }

    /// Keep recording after `engine_exit` (`record`).
    pub fn record_after_exit(&self) {
        self.after_exit.store(true, Ordering::Release);
    }

    /// Monotonic nanoseconds since the recording's start.
    pub fn now(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    /// Encodes a chunk read from `src` at time `t`; call [`flush`](Self::flush) before
    /// forwarding it.
    pub fn chunk(&self, src: Source, t: u64, bytes: &[u8]) {
        if src != Source::Gui && self.over_limit_after_gui_eof(bytes.len()) {
            return;
        }
        self.encode_lines(src, t, |a, emit| a.push(bytes, emit));
    }

    /// The GUI closed the input: from now on the engine's output is recorded up to
    /// [`AFTER_GUI_EOF_LIMIT`] bytes.
    pub fn gui_gone(&self) {
        self.gui_gone.store(true, Ordering::Release);
    }

    /// Counts engine output after the GUI left; true once past the limit, when the first time
    /// records why the rest is missing. Without a bound, an engine flooding its output during
    /// the EOF grace period grows the recording by gigabytes that nobody reads.
    fn over_limit_after_gui_eof(&self, n: usize) -> bool {
        if !self.gui_gone.load(Ordering::Acquire) {
            return false;
        }
        let before = self.after_gui_eof.fetch_add(n as u64, Ordering::AcqRel);
        if before.saturating_add(n as u64) <= AFTER_GUI_EOF_LIMIT {
            return false;
        }
        if before <= AFTER_GUI_EOF_LIMIT {
            self.proxy_event(
                ProxyKind::Note,
                &format!(
                    "recording limit: the engine wrote more than {} MiB after the GUI closed the input; the rest of its output is forwarded but not recorded",
                    AFTER_GUI_EOF_LIMIT >> 20
                ),
                |_| {},
            );
        }
        true
    }

    /// Records the end of a stream: an unterminated last line is written with `eol: none`.
    pub fn end_of_stream(&self, src: Source) {
        self.encode_lines(src, self.now(), |a, emit| a.finish(emit));
        self.flush();
    }

    fn encode_lines(
        &self,
        src: Source,
        t: u64,
        feed: impl FnOnce(&mut LineAssembler, &mut dyn FnMut(&[u8], crate::recording::Eol, bool)),
    ) {
        let mut guard = lock(&self.state);
        let st = &mut *guard;
        if st.closed {
            return;
        }
        let t = st.stamp(t);
        let ts = self.epoch.map(|e| e + t);
        let State {
            seq,
            buf,
            gui,
            engine,
            stderr,
            ..
        } = st;
        let assembler = match src {
            Source::Gui => gui,
            Source::Engine => engine,
            Source::Stderr | Source::Proxy => stderr,
        };
        let activity = &self.activity;
        feed(assembler, &mut |line, eol, more| {
            match src {
                Source::Gui => activity.gui.store(t.max(1), Ordering::Relaxed),
                Source::Engine => {
                    activity.engine.store(t.max(1), Ordering::Relaxed);
                    if !is_progress(line) {
                        activity.answer.store(t.max(1), Ordering::Relaxed);
                    }
                }
                _ => {}
            }
            *seq += 1;
            encode_line(buf, Stamp { seq: *seq, t, ts }, src, line, eol, more);
        });
    }

    /// Records a proxy observation; `fill` sets the kind-specific fields.
    pub fn proxy_event(&self, kind: ProxyKind, message: &str, fill: impl FnOnce(&mut Event)) {
        let t = self.now();
        {
            let mut st = lock(&self.state);
            if st.closed {
                return;
            }
            st.closed = kind == ProxyKind::EngineExit && !self.after_exit.load(Ordering::Acquire);
            let t = st.stamp(t);
            st.seq += 1;
            let mut e = Event::proxy(st.seq, t, kind, message).with_epoch(self.epoch);
            fill(&mut e);
            encode_event(&mut st.buf, &e);
        }
        self.flush();
    }

    /// Writes everything encoded so far, in order.
    pub fn flush(&self) {
        let mut out = lock(&self.output);
        let out = &mut *out;
        {
            let mut st = lock(&self.state);
            if st.buf.is_empty() {
                return;
            }
            std::mem::swap(&mut st.buf, &mut out.spare);
        }
        if let Some(sink) = out.sink.as_mut()
            && let Err(e) = sink.write_record(&out.spare)
        {
            crate::eprintln_safe!(
                "kibitzer: warning: cannot write recording {}: {e}; the engine keeps running, recording stopped",
                out.path_for_messages
            );
            out.sink = None;
        }
        out.spare.clear();
    }
}

/// A panic while holding a lock must not stop the other pump from forwarding.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl State {
    /// Keeps `t` non-decreasing in file order even though the two pumps race for the lock.
    fn stamp(&mut self, t: u64) -> u64 {
        self.last_t = self.last_t.max(t);
        self.last_t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Sink for Shared {
        fn write_record(&mut self, buf: &[u8]) -> std::io::Result<()> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(())
        }
    }
    struct Full;
    impl Sink for Full {
        fn write_record(&mut self, _: &[u8]) -> std::io::Result<()> {
            Err(std::io::Error::other("No space left on device"))
        }
    }

    fn recorder_into(sink: Box<dyn Sink>) -> Recorder {
        Recorder::new(
            Instant::now(),
            Some(sink),
            "x".into(),
            &Header::new("t", "s"),
        )
    }

    #[test]
    fn every_chunk_reaches_the_sink_before_the_next() {
        let out = Shared::default();
        let rec = recorder_into(Box::new(out.clone()));
        rec.chunk(Source::Gui, 5, b"uci\npartial");
        rec.flush();
        let after_first = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert!(after_first.contains(r#""text":"uci""#));
        assert!(!after_first.contains("partial"));
        rec.chunk(Source::Engine, 3, b"uciok\n");
        rec.flush();
        rec.end_of_stream(Source::Gui);
        let all = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let parsed = crate::recording::read_all(all.as_bytes()).unwrap();
        let texts: Vec<_> = parsed
            .events
            .iter()
            .map(|e| (e.seq, e.t, e.text.as_str()))
            .collect();
        // The engine chunk was stamped earlier than the GUI one but is written later: t is clamped.
        assert_eq!(
            texts,
            vec![(1, 5, "uci"), (2, 5, "uciok"), (3, texts[2].1, "partial")]
        );
        assert!(texts[2].1 >= 5);
        assert_eq!(parsed.events[2].eol, crate::recording::Eol::None);
    }

    #[test]
    fn engine_exit_is_the_last_event_unless_asked_otherwise() {
        for after in [false, true] {
            let out = Shared::default();
            let rec = recorder_into(Box::new(out.clone()));
            if after {
                rec.record_after_exit();
            }
            rec.proxy_event(ProxyKind::EngineExit, "engine exited with code 0", |e| {
                e.code = Some(0)
            });
            rec.chunk(Source::Gui, 9, b"late\n");
            rec.flush();
            let all = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
            let parsed = crate::recording::read_all(all.as_bytes()).unwrap();
            assert_eq!(parsed.events.len(), if after { 2 } else { 1 });
            assert_eq!(parsed.events[0].kind, Some(ProxyKind::EngineExit));
        }
    }

    #[test]
    fn failing_sink_does_not_panic() {
        let rec = recorder_into(Box::new(Full));
        rec.chunk(Source::Gui, 1, b"uci\n");
        rec.flush();
        rec.proxy_event(ProxyKind::GuiEof, "", |_| {});
    }
}
