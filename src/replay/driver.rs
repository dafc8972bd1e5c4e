//! The engine driver: a fresh engine behind `capture/`'s process plumbing (own process group,
//! guard process, sweep of leftovers), every line both ways recorded in the recording format,
//! and the engine's output decoded live by the one session model so a caller can wait on its
//! obligations.
//!
//! It knows nothing about recordings: `replay` feeds it the GUI side of one, `probe` will feed
//! it scripted GUI behaviour. Everything runs on the caller's thread except three small readers
//! (stdout, stderr, exit) that record what arrives and pass it on through a channel, so a wait
//! is a `recv_timeout`, never a sleep that races the engine.

use crate::capture::lines::LineAssembler;
use crate::capture::proxy;
use crate::capture::reaper;
use crate::capture::recorder::{Recorder, Sink};
use crate::protocol::Protocol;
use crate::recording::{Eol, Event, Header, ProxyKind, Source};
use crate::session::{Decoded, Decoder, Obligation, Owed};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::path::Path;
use std::process::{ChildStdin, ExitStatus};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

/// Engine lines one run may print before the engine is stopped as a flood: what is kept of a
/// run (its recording, read back and judged) stays bounded. A real engine's probe, or a
/// thousand-move game, prints a few thousand lines; replay raises the bound to what the
/// original printed ([`Driver::allow_engine_lines`]).
pub const FLOOD_LINES: u64 = 200_000;

/// Bytes of output a run may print, whatever its lines: an engine writing without a newline
/// makes few lines of 4 MiB each ([`crate::recording::PIECE_BYTES`]), and those must not
/// grow the recording and the memory of kibitzer without end.
pub const FLOOD_BYTES: u64 = 128 << 20;

/// What [`Driver`] keeps of each recent engine line: the answers `probe` reads there are
/// short, and 512 lines of 4 MiB would be 2 GiB.
const RECENT_LINE_BYTES: usize = 4096;

/// After SIGTERM, how long the engine gets before SIGKILL.
const TERM_GRACE: Duration = Duration::from_secs(2);
/// How long to wait for the engine's output to drain once it exited.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(2);

/// What the reader threads pass on.
enum Note {
    Line(Source, Vec<u8>, Eol, u64),
    Eof(Source),
    Exit(io::Result<ExitStatus>),
}

/// How a wait ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waited {
    /// The condition holds.
    Done,
    /// The deadline passed first.
    TimedOut,
    /// The engine exited (or closed its output) first.
    EngineGone,
}

/// How the engine's run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    /// `engine exited with code 0`, `engine killed by SIGKILL (9)`...
    pub exit: Option<String>,
    /// The driver had to kill it (it outlived the input, or a watchdog fired).
    pub killed: bool,
}

/// A running engine with a recording and a live decoder.
pub struct Driver {
    recorder: Arc<Recorder>,
    stdin: Option<ChildStdin>,
    rx: Receiver<Note>,
    decoder: Decoder,
    decoded: Decoded,
    /// Sequence numbers of the live decoder's events (not the recording's).
    seq: u64,
    start: Instant,
    pid: u32,
    guard: Option<reaper::Guard>,
    status: Option<io::Result<ExitStatus>>,
    stdout_open: bool,
    /// The engine's stderr is still open: its last words (a traceback, an assertion) come as
    /// it dies, and must be in the recording before its exit.
    stderr_open: bool,
    killed: bool,
    /// Engine lines seen, for callers that follow the output (`probe`).
    engine_lines: u64,
    /// Stops the engine once it printed more than a run may keep.
    gate: Arc<FloodGate>,
    /// The engine's latest lines with their sequence numbers: what `probe` reads of answers
    /// the session model has no obligation for (`Hint:`, `Error (...)`).
    recent: VecDeque<(u64, String)>,
    /// Samples the engine's processes into the recording, as `record` does.
    sampler: Option<crate::capture::sampler::Sampler>,
}

/// Engine lines [`Driver::engine_lines_after`] can still give.
const RECENT_LINES: usize = 512;

impl Driver {
    /// Starts `argv` with the recording written to `output` (after `header`). `protocol` is
    /// the protocol the live decoder reads the session as.
    pub fn spawn(
        argv: &[OsString],
        output: Option<&Path>,
        header: &Header,
        protocol: Option<Protocol>,
    ) -> io::Result<Driver> {
        let decoder = Decoder::new(protocol).retain_history(false);
        Driver::spawn_with(argv, None, output, header, decoder)
    }

    /// [`Driver::spawn`] with a live decoder set up by the caller: `probe` keeps the history
    /// (finished searches, their `bestmove`s) to choose what to send next. `dir`: the
    /// engine's working directory (a `.c2w` profile's `EnginePath`).
    pub fn spawn_with(
        argv: &[OsString],
        dir: Option<&Path>,
        output: Option<&Path>,
        header: &Header,
        mut decoder: Decoder,
    ) -> io::Result<Driver> {
        let Some(program) = argv.first() else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "no engine command given",
            ));
        };
        let start = Instant::now();
        let sink: Option<Box<dyn Sink>> = match output {
            Some(p) => Some(Box::new(std::fs::File::create(p).map_err(|e| {
                io::Error::new(e.kind(), format!("cannot create {}: {e}", p.display()))
            })?)),
            None => None,
        };
        let shown = output.map(|p| p.display().to_string()).unwrap_or_default();
        let recorder = Arc::new(Recorder::new(start, sink, shown, header));
        reaper::become_subreaper();
        let mut child = match proxy::spawn_engine(program, &argv[1..], dir) {
            Ok(c) => c,
            Err(e) => {
                let msg = format!("cannot start engine {}: {e}", program.to_string_lossy());
                recorder.proxy_event(ProxyKind::SpawnFailed, &msg, |_| {});
                return Err(io::Error::new(e.kind(), msg));
            }
        };
        let pid = child.id();
        // Its own thread waits for it: no other start's sweep may count it or reap it.
        reaper::own(i32::try_from(pid).unwrap_or(i32::MAX));
        recorder.proxy_event(ProxyKind::Spawned, &proxy::display_argv(argv), |e| {
            e.pid = Some(pid)
        });
        let guard = reaper::Guard::spawn(pid);
        let (Some(stdin), Some(out), Some(err)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            return Err(io::Error::other("engine pipes missing"));
        };
        let (tx, rx) = channel();
        let gate = Arc::new(FloodGate {
            limit: std::sync::atomic::AtomicU64::new(FLOOD_LINES),
            lines: std::sync::atomic::AtomicU64::new(0),
            byte_limit: std::sync::atomic::AtomicU64::new(FLOOD_BYTES),
            bytes: std::sync::atomic::AtomicU64::new(0),
            tripped: std::sync::atomic::AtomicBool::new(false),
            pid,
        });
        spawn_reader(
            out,
            Source::Engine,
            &recorder,
            tx.clone(),
            Arc::clone(&gate),
        );
        spawn_reader(
            err,
            Source::Stderr,
            &recorder,
            tx.clone(),
            Arc::clone(&gate),
        );
        std::thread::spawn(move || {
            let _ = tx.send(Note::Exit(child.wait()));
        });
        let sampler = i32::try_from(pid).ok().and_then(|p| {
            crate::capture::sampler::Sampler::start(
                p,
                Arc::clone(&recorder),
                crate::capture::sampler::SamplerConfig::default(),
            )
        });
        let mut decoded = Decoded::default();
        let mut seq = 1;
        decoder.push_into(
            &Event::proxy(seq, 0, ProxyKind::Spawned, "engine started"),
            &mut decoded,
        );
        seq += 1;
        Ok(Driver {
            recorder,
            stdin: Some(stdin),
            rx,
            decoder,
            decoded,
            seq,
            start,
            pid,
            guard,
            status: None,
            stdout_open: true,
            stderr_open: true,
            killed: false,
            engine_lines: 0,
            gate,
            recent: VecDeque::new(),
            sampler,
        })
    }

    /// Nanoseconds since the engine was started.
    pub fn now(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    /// The live decoder (obligations, searches, the board).
    pub fn decoder(&self) -> &Decoder {
        &self.decoder
    }

    /// Lets the engine print up to `lines` lines before it is stopped as a flood (never
    /// fewer than [`FLOOD_LINES`]).
    pub fn allow_engine_lines(&mut self, lines: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        self.gate.limit.store(lines.max(FLOOD_LINES), Relaxed);
        // A kilobyte a line: engines' longest lines (a deep PV) are a few hundred bytes.
        self.gate
            .byte_limit
            .store(lines.saturating_mul(1024).max(FLOOD_BYTES), Relaxed);
    }

    /// Lowers the bytes this run may read from the engine (protocol detection's attempts).
    pub fn limit_engine_bytes(&mut self, bytes: u64) {
        self.gate
            .byte_limit
            .store(bytes, std::sync::atomic::Ordering::Relaxed);
    }

    /// Back to the run's whole allowance ([`FLOOD_BYTES`]) after a smaller limit.
    pub fn restore_engine_bytes(&self) {
        self.gate
            .byte_limit
            .store(FLOOD_BYTES, std::sync::atomic::Ordering::Relaxed);
    }

    /// Engine lines seen so far.
    pub fn engine_lines(&self) -> u64 {
        self.engine_lines
    }

    /// The engine's lines after the line `seq` (of the latest `RECENT_LINES`), oldest first.
    pub fn engine_lines_after(&self, seq: u64) -> impl Iterator<Item = &str> {
        self.recent
            .iter()
            .filter(move |(s, _)| *s > seq)
            .map(|(_, t)| t.as_str())
    }

    /// The engine was stopped for printing more than a run may keep.
    pub fn flooded(&self) -> bool {
        self.gate.tripped.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The engine is still running with its output open.
    pub fn alive(&self) -> bool {
        self.status.is_none() && self.stdout_open
    }

    /// Sends one GUI line (exact bytes, terminator included). Returns the live decoder's
    /// sequence number of the line (what [`Obligation::opened`] holds for what it asked), or
    /// `None` when the engine no longer reads its input.
    pub fn send(&mut self, bytes: &[u8]) -> Option<u64> {
        self.drain();
        let t = self.recorder.now();
        // In the recording before the engine can answer it, as in the proxy.
        self.recorder.chunk(Source::Gui, t, bytes);
        self.recorder.flush();
        let w = self.stdin.as_mut()?;
        if let Err(e) = w.write_all(bytes).and_then(|()| w.flush()) {
            self.recorder.proxy_event(
                ProxyKind::WriteError,
                &format!("writing to the engine failed: {e}"),
                |_| {},
            );
            self.stdin = None;
            return None;
        }
        let seq = self.seq;
        let mut assembler = LineAssembler::default();
        let mut lines = Vec::new();
        assembler.push(bytes, &mut |l: &[u8], eol, _| lines.push((l.to_vec(), eol)));
        assembler.finish(&mut |l: &[u8], eol, _| lines.push((l.to_vec(), eol)));
        for (l, eol) in lines {
            self.push_event(Event::from_bytes(self.seq, t, Source::Gui, &l, eol));
        }
        Some(seq)
    }

    /// Closes the engine's input, as a GUI that leaves does. Once the engine has exited
    /// there is nobody to leave: the pipe is closed without a `gui_eof`, as the proxy, which
    /// ends with its engine, records none.
    pub fn close_input(&mut self) {
        self.drain();
        if !self.stdout_open && self.status.is_none() {
            // An engine that closed its output is usually exiting: the exit comes a moment
            // after the EOF.
            self.wait_exit(Instant::now() + Duration::from_secs(1));
        }
        if self.status.is_some() {
            self.stdin = None;
            return;
        }
        if self.stdin.take().is_some() {
            self.recorder.end_of_stream(Source::Gui);
            self.recorder.gui_gone();
            self.recorder.proxy_event(
                ProxyKind::GuiEof,
                "replay closed the input; engine stdin closed",
                |_| {},
            );
            let t = self.now();
            self.push_event(Event::proxy(self.seq, t, ProxyKind::GuiEof, "input closed"));
        }
    }

    /// Records a note of the driver's own (a watchdog that fired, a line not sent).
    pub fn note(&self, message: &str) {
        self.recorder.proxy_event(ProxyKind::Note, message, |_| {});
    }

    /// Records a fact of the probe's, typed, with its words for a reader of the raw file.
    pub fn probe_fact(&self, fact: crate::recording::ProbeFact) {
        let words = fact.describe();
        self.recorder
            .proxy_event(ProxyKind::Probe, &words, |e| e.probe = Some(Box::new(fact)));
    }

    /// Is the obligation the line `seq` opened, owing `owed`, still open?
    pub fn is_open(&self, seq: u64, owed: &Owed) -> bool {
        self.open_obligations()
            .any(|o| o.opened.seq == seq && &o.owed == owed)
    }

    /// The obligations still open, oldest first.
    pub fn open_obligations(&self) -> impl Iterator<Item = &Obligation> {
        self.decoder.open_obligations(0)
    }

    /// Handles what the engine said until `done` holds, the deadline passes, or the engine
    /// goes away.
    pub fn wait_until(
        &mut self,
        deadline: Instant,
        mut done: impl FnMut(&Driver) -> bool,
    ) -> Waited {
        loop {
            self.drain();
            if done(self) {
                return Waited::Done;
            }
            if !self.alive() {
                return Waited::EngineGone;
            }
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                return Waited::TimedOut;
            };
            match self.rx.recv_timeout(left) {
                Ok(n) => self.handle(n),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Waited::EngineGone,
            }
        }
    }

    /// Handles the engine's output for `d` (a paced send, a GUI's think time).
    pub fn pause(&mut self, d: Duration) {
        let deadline = Instant::now() + d;
        self.wait_until(deadline, |_| false);
    }

    /// Ends the run: closes the input, gives the engine `grace` to exit (then SIGTERM, then
    /// SIGKILL to its whole group, recorded as `killed`), sweeps whatever it left behind and
    /// records `engine_exit` last.
    pub fn finish(mut self, grace: Duration) -> Ended {
        self.close_input();
        let deadline = Instant::now() + grace;
        if !self.wait_exit(deadline) {
            self.kill(&format!(
                "engine still running {:.1} s after the input was closed",
                grace.as_secs_f64()
            ));
        }
        self.end()
    }

    /// Kills the engine's process group now (SIGTERM, then SIGKILL), saying why in the
    /// recording, and ends the run.
    pub fn abort(mut self, why: &str) -> Ended {
        self.kill(why);
        self.end()
    }

    fn kill(&mut self, why: &str) {
        let pgid = Pid::from_raw(i32::try_from(self.pid).unwrap_or(i32::MAX));
        for (sig, wait) in [(Signal::SIGTERM, TERM_GRACE), (Signal::SIGKILL, TERM_GRACE)] {
            if self.status.is_some() {
                break;
            }
            // In the recording before the signal: the engine's end it causes can never come
            // first and pass for an exit of the engine's own.
            let pid = self.pid;
            let text = format!("{why}; sent {}", sig.as_str());
            self.recorder.proxy_event(ProxyKind::Killed, &text, |e| {
                e.signal = Some(sig.as_str().to_owned());
                e.pid = Some(pid);
            });
            if let Err(e) = killpg(pgid, sig) {
                self.note(&format!("{why}: sending {} failed: {e}", sig.as_str()));
            }
            self.killed = true;
            let deadline = Instant::now() + wait;
            self.wait_exit(deadline);
        }
    }

    /// Handles the engine's output until it exited (true) or the deadline passed.
    pub fn wait_exit(&mut self, deadline: Instant) -> bool {
        loop {
            self.drain();
            if self.status.is_some() {
                return true;
            }
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                return false;
            };
            match self.rx.recv_timeout(left) {
                Ok(n) => self.handle(n),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return self.status.is_some(),
            }
        }
    }

    fn end(mut self) -> Ended {
        self.stdin = None;
        if let Some(s) = self.sampler.take() {
            s.stop();
        }
        let except: Vec<i32> = self.guard.iter().map(reaper::Guard::pid).collect();
        reaper::sweep(&self.recorder, self.pid, &except);
        // What the readers still hold goes into the recording before `engine_exit`.
        let deadline = Instant::now() + DRAIN_TIMEOUT;
        while (self.stdout_open || self.stderr_open) && Instant::now() < deadline {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(n) => self.handle(n),
                Err(_) => break,
            }
        }
        self.wait_exit(deadline);
        reaper::disown(i32::try_from(self.pid).unwrap_or(i32::MAX));
        if let Some(g) = self.guard.take() {
            g.release();
        }
        let exit = match self.status.take() {
            Some(Ok(status)) => {
                proxy::record_exit(&self.recorder, status);
                Some(proxy::describe(status))
            }
            Some(Err(e)) => Some(format!("cannot wait for the engine: {e}")),
            None => None,
        };
        self.recorder.flush();
        Ended {
            exit,
            killed: self.killed,
        }
    }

    fn drain(&mut self) {
        while let Ok(n) = self.rx.try_recv() {
            self.handle(n);
        }
    }

    fn handle(&mut self, n: Note) {
        match n {
            Note::Line(src, bytes, eol, t) => {
                if self.gate.tripped.load(std::sync::atomic::Ordering::Relaxed) {
                    // The reader stopped the engine: it is no engine that ended on its own.
                    self.killed = true;
                }
                if src == Source::Engine {
                    self.engine_lines += 1;
                    if self.recent.len() == RECENT_LINES {
                        self.recent.pop_front();
                    }
                    let kept = &bytes[..bytes.len().min(RECENT_LINE_BYTES)];
                    let text = String::from_utf8_lossy(kept).trim_end().to_owned();
                    self.recent.push_back((self.seq, text));
                }
                self.push_event(Event::from_bytes(self.seq, t, src, &bytes, eol));
            }
            Note::Eof(src) => {
                if src == Source::Stderr {
                    self.stderr_open = false;
                }
                if src == Source::Engine {
                    self.stdout_open = false;
                    let t = self.now();
                    self.push_event(Event::proxy(
                        self.seq,
                        t,
                        ProxyKind::EngineEof,
                        "engine closed its output",
                    ));
                }
            }
            Note::Exit(status) => {
                let text = match &status {
                    Ok(s) => proxy::describe(*s),
                    Err(e) => format!("cannot wait for the engine: {e}"),
                };
                let t = self.now();
                self.push_event(Event::proxy(self.seq, t, ProxyKind::EngineExit, text));
                self.status = Some(status);
            }
        }
    }

    fn push_event(&mut self, ev: Event) {
        self.seq += 1;
        let mut d = std::mem::take(&mut self.decoded);
        self.decoder.push_into(&ev, &mut d);
        self.decoded = d;
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // A caller that bails out early (an error, a panic) must not leave the engine behind.
        if self.status.is_none() {
            let pgid = Pid::from_raw(i32::try_from(self.pid).unwrap_or(i32::MAX));
            let _ = killpg(pgid, Signal::SIGKILL);
        }
        reaper::disown(i32::try_from(self.pid).unwrap_or(i32::MAX));
    }
}

/// What stops an engine that prints more than a run may keep: checked where its output is
/// read, so that neither the recording nor the lines waiting for the driver outgrow the bound
/// however far behind the driver is.
struct FloodGate {
    limit: std::sync::atomic::AtomicU64,
    /// Lines read from the engine's stdout and stderr together.
    lines: std::sync::atomic::AtomicU64,
    /// Bytes, the same way, and how many a run may print.
    byte_limit: std::sync::atomic::AtomicU64,
    bytes: std::sync::atomic::AtomicU64,
    tripped: std::sync::atomic::AtomicBool,
    pid: u32,
}

impl FloodGate {
    /// Counts `n` more lines of `bytes` bytes; past either limit (the first time), records
    /// why and kills the engine's process group. True once the gate has tripped: read no
    /// more.
    fn count(&self, n: u64, bytes: u64, rec: &Recorder) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        let lines = self.lines.fetch_add(n, Relaxed) + n;
        let total = self.bytes.fetch_add(bytes, Relaxed) + bytes;
        let (limit, byte_limit) = (self.limit.load(Relaxed), self.byte_limit.load(Relaxed));
        if lines <= limit && total <= byte_limit {
            return self.tripped.load(Relaxed);
        }
        if !self.tripped.swap(true, Relaxed) {
            let why = if lines > limit {
                format!(
                    "output flood: more than {limit} lines from the engine in one run, past \
                     what kibitzer keeps of a run"
                )
            } else {
                format!(
                    "output flood: more than {} MiB from the engine in one run, past what \
                     kibitzer keeps of a run",
                    byte_limit >> 20
                )
            };
            rec.proxy_event(ProxyKind::FloodStopped, &why, |_| {});
            let pgid = Pid::from_raw(i32::try_from(self.pid).unwrap_or(i32::MAX));
            let text = match killpg(pgid, Signal::SIGKILL) {
                Ok(()) => format!("{why}; sent SIGKILL"),
                Err(e) => format!("{why}; sending SIGKILL failed: {e}"),
            };
            let pid = self.pid;
            rec.proxy_event(ProxyKind::Killed, &text, |e| {
                e.signal = Some("SIGKILL".to_owned());
                e.pid = Some(pid);
            });
        }
        true
    }
}

fn spawn_reader(
    mut from: impl Read + Send + 'static,
    src: Source,
    recorder: &Arc<Recorder>,
    tx: Sender<Note>,
    gate: Arc<FloodGate>,
) {
    let rec = Arc::clone(recorder);
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 64 * 1024];
        let mut assembler = LineAssembler::default();
        loop {
            let n = match from.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            let t = rec.now();
            rec.chunk(src, t, &buf[..n]);
            rec.flush();
            let mut lines = 0;
            assembler.push(&buf[..n], &mut |l: &[u8], eol, _| {
                lines += 1;
                let _ = tx.send(Note::Line(src, l.to_vec(), eol, t));
            });
            if gate.count(lines, n as u64, &rec) {
                break;
            }
        }
        rec.end_of_stream(src);
        let t = rec.now();
        assembler.finish(&mut |l: &[u8], eol, _| {
            let _ = tx.send(Note::Line(src, l.to_vec(), eol, t));
        });
        if src == Source::Engine {
            rec.proxy_event(ProxyKind::EngineEof, "engine closed its output", |_| {});
        }
        let _ = tx.send(Note::Eof(src));
    });
}
