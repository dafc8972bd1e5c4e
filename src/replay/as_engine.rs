//! `replay --as-engine FILE`: kibitzer answers a real GUI on stdin/stdout from a recording's
//! engine side, with the recorded delays, stderr and exit.
//!
//! The main thread reads the GUI's lines and looks each up in [`Answers`]; a writer thread
//! owns stdout and stderr and writes each answer when it is due. A GUI that moves on before
//! the recorded answers were all written gets the rest at once: in the recording they came
//! before the GUI's next line. An unmatched command is reported on stderr and skipped, makes
//! kibitzer exit as a dying engine would, or hands the GUI over to a real engine that has
//! been sent every line so far (`forward`).

use super::answers::{Answer, Answers, Said};
use crate::capture::proxy;
use std::ffi::OsString;
use std::io::{self, BufRead, Read, Write};
use std::process::ChildStdin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

/// What to do with a command the recording has no answer to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnMismatch {
    /// Say so on stderr and go on.
    Report,
    /// From this command on, the real engine answers.
    Forward,
    /// Say so and exit with status 1.
    Exit,
}

pub struct Config {
    pub speed: f64,
    pub on_mismatch: OnMismatch,
    /// The real engine for `forward`.
    pub engine: Vec<OsString>,
    /// The recording, for messages.
    pub shown: String,
}

enum Out {
    /// Answers to write from now on, after anything still pending.
    Answers(Vec<Answer>),
    /// Bytes of the real engine, written at once.
    Forwarded(Vec<u8>, bool),
    /// The GUI is gone: write what is pending, then report how to exit.
    Finish(Sender<i32>),
    /// The real engine, which had taken over, ended with this status: so do we.
    EngineExit(i32),
}

/// Serves the GUI until it leaves or the recorded engine exits; returns the exit status.
pub fn serve(mut answers: Answers, cfg: Config) -> io::Result<i32> {
    let (tx, rx) = channel();
    let speed = if cfg.speed.is_finite() && cfg.speed > 0.0 {
        cfg.speed
    } else {
        1.0
    };
    let writer = std::thread::spawn(move || write_answers(rx, speed));
    let mut shadow = match cfg.on_mismatch {
        OnMismatch::Forward => Some(Shadow::start(&cfg.engine, tx.clone())?),
        _ => None,
    };
    survive_sigint(shadow.as_ref().map(|s| (s.pid, Arc::clone(&s.taken))));
    let _ = tx.send(Out::Answers(answers.boot.clone()));
    let stdin = io::stdin();
    let mut unmatched = 0usize;
    let mut line = String::new();
    let mut input = stdin.lock();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
        if let Some(s) = shadow.as_mut()
            && s.took_over()
        {
            s.send(line.as_bytes());
            continue;
        }
        let text = line.trim_end_matches(['\n', '\r']);
        match answers.answer(text) {
            Some((_, said)) => {
                if let Some(s) = shadow.as_mut() {
                    s.send(line.as_bytes());
                }
                let _ = tx.send(Out::Answers(said));
            }
            None if text.trim().is_empty() => {}
            None => {
                unmatched += 1;
                match (cfg.on_mismatch, shadow.as_mut()) {
                    (OnMismatch::Forward, Some(s)) => {
                        crate::eprintln_safe!(
                            "kibitzer: as-engine: no recorded answer to `{text}` in {}; the real engine answers from here on",
                            cfg.shown
                        );
                        s.take_over(answers.protocol);
                        s.send(line.as_bytes());
                    }
                    (OnMismatch::Exit, _) => {
                        crate::eprintln_safe!(
                            "kibitzer: as-engine: no recorded answer to `{text}` in {}; exiting",
                            cfg.shown
                        );
                        finish(&tx, writer);
                        return Ok(1);
                    }
                    _ => crate::eprintln_safe!(
                        "kibitzer: as-engine: no recorded answer to `{text}` in {}; ignored",
                        cfg.shown
                    ),
                }
            }
        }
    }
    // The GUI closed the input. A real engine that took over gets the EOF and its exit
    // ends us (see `Out::EngineExit`).
    if let Some(s) = shadow.as_mut()
        && s.took_over()
    {
        s.close();
        drop(tx);
        let _ = writer.join();
        return Ok(0);
    }
    let _ = tx.send(Out::Answers(answers.after_eof.clone()));
    let (used, total) = answers.used();
    if unmatched > 0 || used < total {
        crate::eprintln_safe!(
            "kibitzer: as-engine: {used} of {total} recorded commands answered, {unmatched} command(s) without a recorded answer"
        );
    }
    Ok(finish(&tx, writer))
}

/// xboard interrupts its engines with SIGINT before each move (CECP §6, unless `sigint=0`);
/// the recorded engine lived through it, and so does its stand-in. Once a real engine has taken
/// over, the signal is its: it is forwarded. The handler is registered before this returns.
fn survive_sigint(forward_to: Option<(u32, Arc<AtomicBool>)>) {
    let caught = crate::signals::on_thread(&[nix::sys::signal::Signal::SIGINT], move |_| {
        if let Some((pid, taken)) = &forward_to
            && taken.load(Ordering::Acquire)
        {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(i32::try_from(*pid).unwrap_or(i32::MAX)),
                nix::sys::signal::Signal::SIGINT,
            );
        }
    });
    if caught.is_err() {
        crate::eprintln_safe!(
            "kibitzer: as-engine: warning: cannot handle SIGINT; it will end kibitzer"
        );
    }
}

/// Lets the writer write what is pending and returns the exit status it settled on.
fn finish(tx: &Sender<Out>, writer: std::thread::JoinHandle<()>) -> i32 {
    let (done_tx, done_rx) = channel();
    let _ = tx.send(Out::Finish(done_tx));
    let code = done_rx.recv().unwrap_or(0);
    let _ = writer.join();
    code
}

fn write_answers(rx: Receiver<Out>, speed: f64) {
    let mut out = io::stdout().lock();
    let mut err = io::stderr();
    // Pending answers with the time each is due.
    let mut pending: std::collections::VecDeque<(Instant, Said)> = Default::default();
    let mut finish: Option<Sender<i32>> = None;
    loop {
        let now = Instant::now();
        while let Some((due, _)) = pending.front() {
            if *due > now && finish.is_none() {
                break;
            }
            let Some((_, said)) = pending.pop_front() else {
                break;
            };
            match said {
                Said::Stdout(b) => {
                    let _ = out.write_all(&b).and_then(|()| out.flush());
                }
                Said::Stderr(b) => {
                    let _ = err.write_all(&b);
                }
                Said::Exit(code) => {
                    let _ = out.flush();
                    // The recorded engine is gone: so are we, as it would be, whatever the
                    // GUI still sends.
                    std::process::exit(code);
                }
            }
        }
        if let Some(done) = finish.take() {
            let _ = out.flush();
            let _ = done.send(0);
            return;
        }
        let msg = match pending.front() {
            Some((due, _)) => match rx.recv_timeout(due.saturating_duration_since(now)) {
                Ok(m) => m,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return,
            },
            None => match rx.recv() {
                Ok(m) => m,
                Err(_) => return,
            },
        };
        match msg {
            Out::Answers(list) => {
                // The GUI moved on: what the recorded engine said before this request is due now.
                let now = Instant::now();
                for p in &mut pending {
                    p.0 = now;
                }
                for a in list {
                    let d = Duration::from_secs_f64(a.delay as f64 / 1e9 / speed);
                    pending.push_back((now + d, a.what));
                }
            }
            Out::Forwarded(bytes, to_stderr) => {
                let _ = if to_stderr {
                    err.write_all(&bytes)
                } else {
                    out.write_all(&bytes).and_then(|()| out.flush())
                };
            }
            Out::Finish(done) => finish = Some(done),
            Out::EngineExit(code) => {
                let _ = out.flush();
                std::process::exit(code);
            }
        }
    }
}

/// The real engine behind `--on-mismatch forward`: sent every GUI line from the start so its
/// state is the GUI's, its output dropped until it takes over.
struct Shadow {
    stdin: Option<ChildStdin>,
    pid: u32,
    /// The engine's output goes to the GUI (after the takeover's sync).
    live: Arc<AtomicBool>,
    /// Taken over: the GUI's lines go to the engine only.
    taken: Arc<AtomicBool>,
    /// UCI `isready` lines sent to the engine, and the count of `readyok` it must have
    /// answered before its output goes to the GUI (0: no sync pending).
    isready_sent: usize,
    sync_at: Arc<AtomicUsize>,
}

impl Shadow {
    fn start(argv: &[OsString], tx: Sender<Out>) -> io::Result<Shadow> {
        let Some(program) = argv.first() else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "--on-mismatch forward needs the engine to forward to, after `--`",
            ));
        };
        let mut child = proxy::spawn_engine(program, &argv[1..], None).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot start engine {}: {e}", program.to_string_lossy()),
            )
        })?;
        let live = Arc::new(AtomicBool::new(false));
        let taken = Arc::new(AtomicBool::new(false));
        let sync_at = Arc::new(AtomicUsize::new(0));
        for (pipe, to_stderr) in [
            (
                child
                    .stdout
                    .take()
                    .map(|p| Box::new(p) as Box<dyn Read + Send>),
                false,
            ),
            (
                child
                    .stderr
                    .take()
                    .map(|p| Box::new(p) as Box<dyn Read + Send>),
                true,
            ),
        ] {
            let Some(pipe) = pipe else { continue };
            let (tx, live, sync_at) = (tx.clone(), Arc::clone(&live), Arc::clone(&sync_at));
            std::thread::spawn(move || {
                let mut readyok_seen = 0usize;
                for line in io::BufReader::new(pipe).split(b'\n') {
                    let Ok(mut line) = line else { break };
                    line.push(b'\n');
                    if !to_stderr && !live.load(Ordering::Acquire) {
                        if String::from_utf8_lossy(&line).trim() == "readyok" {
                            readyok_seen += 1;
                        }
                        // Syncing: everything up to the takeover's `readyok` answers commands
                        // the GUI had its recorded answers to.
                        let target = sync_at.load(Ordering::Acquire);
                        if target > 0 && readyok_seen >= target {
                            live.store(true, Ordering::Release);
                        }
                        continue;
                    }
                    if live.load(Ordering::Acquire) {
                        let _ = tx.send(Out::Forwarded(line, to_stderr));
                    }
                }
            });
        }
        let stdin = child.stdin.take();
        let pid = child.id();
        // Once it has taken over, the engine's end is ours, as a proxy's would be.
        let (gone, waiting) = (Arc::clone(&taken), tx);
        std::thread::spawn(move || {
            let code = child.wait().map_or(1, proxy::exit_code);
            if gone.load(Ordering::Acquire) {
                let _ = waiting.send(Out::EngineExit(code));
            }
        });
        Ok(Shadow {
            stdin,
            pid,
            live,
            taken,
            isready_sent: 0,
            sync_at,
        })
    }

    fn send(&mut self, bytes: &[u8]) {
        if bytes
            .split(|b| *b == b'\n')
            .any(|l| l.trim_ascii() == b"isready")
        {
            self.isready_sent += 1;
        }
        if let Some(w) = self.stdin.as_mut()
            && w.write_all(bytes).and_then(|()| w.flush()).is_err()
        {
            self.stdin = None;
        }
    }

    fn took_over(&self) -> bool {
        self.taken.load(Ordering::Acquire)
    }

    /// From now on the engine answers. A UCI engine is first told to end any search the
    /// GUI got its recorded answer to, and synced with `isready`: what it says up to that
    /// `readyok` is dropped, so the GUI never sees a second answer to an answered command.
    fn take_over(&mut self, protocol: Option<crate::protocol::Protocol>) {
        self.taken.store(true, Ordering::Release);
        if protocol == Some(crate::protocol::Protocol::Uci) {
            self.send(b"stop\nisready\n");
            self.sync_at.store(self.isready_sent, Ordering::Release);
        } else {
            self.live.store(true, Ordering::Release);
        }
    }

    fn close(&mut self) {
        self.stdin = None;
    }
}

impl Drop for Shadow {
    fn drop(&mut self) {
        if !self.took_over() {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(i32::try_from(self.pid).unwrap_or(i32::MAX)),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}
