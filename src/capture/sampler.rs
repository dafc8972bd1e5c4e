//! The process sampler: beside the pumps, a thread of the recorder looks at the engine's
//! processes from `/proc` and records what it sees as `sample` events, often while the engine
//! is silent with an answer owed, rarely otherwise; once per overdue request it records a
//! capture (each thread's state, wait, system call and kernel stack, and the output of the
//! user's `--on-hang` command). It never touches the pumps: forwarding does not wait for it.

use super::procfs;
use super::recorder::Recorder;
use crate::recording::{Capture, ProxyKind};
use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What to sample and when to capture.
#[derive(Debug, Clone)]
pub struct SamplerConfig {
    /// A capture is taken when the engine has been silent this long with an answer owed.
    pub capture_after: Duration,
    /// `--on-hang CMD`: run with `sh -c` at a capture, `KIBITZER_ENGINE_PID` set.
    pub on_hang: Option<String>,
}

impl Default for SamplerConfig {
    fn default() -> Self {
        SamplerConfig {
            capture_after: Duration::from_secs(5),
            on_hang: None,
        }
    }
}

const TICK: Duration = Duration::from_millis(250);
/// Silent this long with an answer owed: one sample marks where the silence began.
const QUIET: u64 = 250_000_000;
/// Then every tick once the silence lasts a second, every second after a minute, every
/// [`IDLE`] after ten minutes or when nothing is owed.
const SILENT: u64 = 1_000_000_000;
const IDLE: u64 = 5_000_000_000;
/// How long `--on-hang` may run, and how much of its output is kept.
const ON_HANG_LIMIT: Duration = Duration::from_secs(30);
const ON_HANG_OUTPUT: usize = 256 * 1024;

pub struct Sampler {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

impl Sampler {
    /// Starts sampling `engine`; `None` (said once in the recording) where `/proc` cannot be
    /// read.
    pub fn start(engine: i32, recorder: Arc<Recorder>, cfg: SamplerConfig) -> Option<Sampler> {
        if !procfs::available(engine) {
            recorder.proxy_event(
                ProxyKind::Note,
                "process samples: /proc cannot be read here; hang verdicts are decided from the traffic alone",
                |_| {},
            );
            return None;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("sampler".into())
            .spawn(move || run(engine, &recorder, &cfg, &flag))
            .ok()?;
        Some(Sampler { stop, thread })
    }

    /// Ends the sampling (the engine exited): no sample follows the exit.
    pub fn stop(self) {
        self.stop.store(true, Ordering::Release);
        self.thread.thread().unpark();
        let _ = self.thread.join();
    }
}

fn run(engine: i32, rec: &Recorder, cfg: &SamplerConfig, stop: &AtomicBool) {
    let me = i32::try_from(std::process::id()).unwrap_or(-1);
    let mut last_sample: Option<u64> = None;
    // The GUI line a capture was taken for: one capture per request.
    let mut captured_for = 0;
    while !stop.load(Ordering::Acquire) {
        std::thread::park_timeout(TICK);
        if stop.load(Ordering::Acquire) {
            return;
        }
        let now = rec.now();
        let a = rec.activity();
        let gui = a.gui.load(Ordering::Relaxed);
        let engine_t = a.engine.load(Ordering::Relaxed);
        let answer = a.answer.load(Ordering::Relaxed);
        let owed = gui > answer;
        let silent = now.saturating_sub(gui.max(engine_t));
        let since = last_sample.map_or(u64::MAX, |t| now.saturating_sub(t));
        let every = match silent {
            _ if !owed => IDLE,
            s if s < QUIET => IDLE,
            s if s < SILENT => {
                // The silence's first sample: only if none was taken since it began.
                if since > s { 0 } else { IDLE }
            }
            s if s < 60 * SILENT => TICK.as_nanos() as u64,
            s if s < 600 * SILENT => SILENT,
            _ => IDLE,
        };
        let capture = owed
            && silent >= u64::try_from(cfg.capture_after.as_nanos()).unwrap_or(u64::MAX)
            && captured_for != gui;
        if since < every && !capture {
            continue;
        }
        let Some((mut sample, threads)) = procfs::sample(engine, me, capture) else {
            return;
        };
        let mut text = "process sample".to_owned();
        if capture {
            captured_for = gui;
            let reason = format!(
                "the engine has been silent for {:.1} s with an answer owed",
                silent as f64 / 1e9
            );
            text = format!("capture: {reason}");
            let mut c = Capture {
                reason,
                threads,
                ..Capture::default()
            };
            if let Some(cmd) = &cfg.on_hang {
                let (status, output) = on_hang(cmd, engine);
                c.command = Some(cmd.clone());
                c.command_status = Some(status);
                c.command_output = Some(output);
            }
            sample.capture = Some(c);
        }
        last_sample = Some(now);
        rec.proxy_event(ProxyKind::Sample, &text, |e| {
            e.pid = u32::try_from(engine).ok();
            e.sample = Some(Box::new(sample));
        });
    }
}

/// Runs the user's command with the engine's pid; its status and what it printed. A command
/// that outlives [`ON_HANG_LIMIT`] is killed (a debugger left attached would keep the engine
/// stopped).
fn on_hang(cmd: &str, engine: i32) -> (String, String) {
    let child = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .env("KIBITZER_ENGINE_PID", engine.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return (format!("could not start: {e}"), String::new()),
    };
    let readers: Vec<_> = [
        child
            .stdout
            .take()
            .map(|o| Box::new(o) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|o| Box::new(o) as Box<dyn Read + Send>),
    ]
    .into_iter()
    .flatten()
    .map(|mut r| {
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut buf = [0u8; 8192];
            while let Ok(n) = r.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let room = ON_HANG_OUTPUT.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
            kept
        })
    })
    .collect();
    let began = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => {
                use std::os::unix::process::ExitStatusExt;
                break match (s.code(), s.signal()) {
                    (Some(c), _) => format!("exit {c}"),
                    (None, Some(sig)) => format!("killed by signal {sig}"),
                    _ => "ended".to_owned(),
                };
            }
            Ok(None) if began.elapsed() < ON_HANG_LIMIT => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                break format!("killed after {} s", ON_HANG_LIMIT.as_secs());
            }
            Err(e) => break format!("lost: {e}"),
        }
    };
    let mut out = Vec::new();
    for r in readers {
        if let Ok(mut k) = r.join() {
            out.append(&mut k);
        }
    }
    out.truncate(ON_HANG_OUTPUT);
    (status, String::from_utf8_lossy(&out).into_owned())
}
