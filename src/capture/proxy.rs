//! `kibitzer record`: the transparent tee proxy between a GUI and an engine.
//!
//! The hot path is one blocking thread per direction that reads whatever is available, has the
//! recorder encode it and write it to the file, and then forwards it. Blocking threads beat
//! async tasks here: a forwarded read costs exactly one `read` and one `write` syscall, and
//! `stdin` reads could not be cancelled under tokio anyway. A small tokio runtime on the main
//! thread only waits for signals and for the engine to exit.

use super::reaper;
use super::recorder::{Recorder, Sink};
use crate::recording::{Header, ProxyKind, Source};
use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// Bytes per read. A pipe holds 64 KiB, so one read can take everything an engine has
/// written so far.
const CHUNK: usize = 64 * 1024;

/// How long to wait for the engine's stdout/stderr to drain after it exited. Longer only if a
/// grandchild kept the pipe open, in which case we stop waiting for it.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(2);

pub struct ProxyConfig {
    /// Engine command and arguments, run without a shell.
    pub argv: Vec<OsString>,
    /// Recording file; `None` disables recording (after the caller warned).
    pub output: Option<PathBuf>,
    /// The user named the output (`-o FILE`): a symlink there is followed. A generated name
    /// (`--dir`, the recordings directory) never follows one.
    pub output_named: bool,
    pub label: Option<String>,
    pub protocol: Option<String>,
    /// How long an engine may outlive the GUI closing our stdin before it is terminated;
    /// `None` waits forever.
    pub eof_grace: Option<Duration>,
    /// The engine's working directory (`record --c2w`: the profile's EnginePath, where the
    /// engine finds its ini and book files); `None` keeps the proxy's.
    pub engine_dir: Option<PathBuf>,
    /// Noted in the recording's header (`record --c2w`).
    pub c2w: Option<crate::recording::C2wNote>,
}

/// After SIGTERM, how long the engine gets before SIGKILL.
const TERM_GRACE: Duration = Duration::from_secs(2);

/// Runs the proxy to completion and returns the exit status to leave with.
pub fn run(cfg: ProxyConfig) -> i32 {
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            crate::eprintln_safe!("kibitzer: cannot start the runtime: {e}");
            return 70;
        }
    };
    rt.block_on(run_async(cfg))
}

async fn run_async(cfg: ProxyConfig) -> i32 {
    // Handlers first: had the proxy been started with SIGINT ignored, a child spawned before
    // this point would inherit SIG_IGN and a forwarded SIGINT would be lost.
    let mut signals = catch_signals();

    let start = Instant::now();
    let recorder = Arc::new(open_recorder(&cfg, start));
    reaper::become_subreaper();

    let Some(program) = cfg.argv.first() else {
        crate::eprintln_safe!("kibitzer: no engine command given");
        return 2;
    };
    let mut child = match spawn_engine(program, &cfg.argv[1..], cfg.engine_dir.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            let msg = format!("cannot start engine {}: {e}", program.to_string_lossy());
            crate::eprintln_safe!("kibitzer: {msg}");
            recorder.proxy_event(ProxyKind::SpawnFailed, &msg, |_| {});
            return if e.kind() == io::ErrorKind::NotFound {
                127
            } else {
                126
            };
        }
    };
    let pid = child.id();
    recorder.proxy_event(ProxyKind::Spawned, &display_argv(&cfg.argv), |e| {
        e.pid = Some(pid)
    });
    let guard = reaper::Guard::spawn(pid);

    let (Some(engine_in), Some(engine_out), Some(engine_err)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        crate::eprintln_safe!("kibitzer: engine pipes missing");
        let _ = child.kill();
        return 70;
    };

    let (eof_tx, mut eof_rx) = oneshot::channel::<()>();
    match dup_std(io::stdin().as_fd()) {
        Ok(gui_in) => {
            let rec = Arc::clone(&recorder);
            std::thread::spawn(move || {
                pump_gui_to_engine(gui_in, engine_in, &rec);
                let _ = eof_tx.send(());
            });
        }
        Err(e) => crate::eprintln_safe!("kibitzer: cannot read stdin: {e}"),
    }
    let out_done = spawn_pump(engine_out, io::stdout().as_fd(), Source::Engine, &recorder);
    let err_done = spawn_pump(engine_err, io::stderr().as_fd(), Source::Stderr, &recorder);

    let (exit_tx, mut exit_rx) = oneshot::channel();
    std::thread::spawn(move || {
        let _ = exit_tx.send(child.wait());
    });

    // Once the GUI has closed our stdin, an engine that does not exit (GNU Chess 6.2.7 spins
    // on EOF) would otherwise run forever with nobody left to stop it.
    let mut deadline: Option<(std::pin::Pin<Box<tokio::time::Sleep>>, Signal)> = None;
    let mut eof_seen = false;
    let status = loop {
        tokio::select! {
            Some(sig) = recv(&mut signals) => forward(&recorder, pid, sig),
            Ok(()) = &mut eof_rx, if !eof_seen => {
                eof_seen = true;
                if let Some(grace) = cfg.eof_grace {
                    deadline = Some((Box::pin(tokio::time::sleep(grace)), Signal::SIGTERM));
                }
            }
            () = async { if let Some((d, _)) = deadline.as_mut() { d.await } }, if deadline.is_some() => {
                let Some((_, sig)) = deadline.take() else { continue };
                terminate(&recorder, pid, sig, cfg.eof_grace.unwrap_or_default());
                if sig == Signal::SIGTERM {
                    deadline = Some((Box::pin(tokio::time::sleep(TERM_GRACE)), Signal::SIGKILL));
                }
            }
            status = &mut exit_rx => break status,
        }
    };

    // Whatever the engine started and left running goes now (recorded before engine_exit,
    // which stays the last event); that also closes pipes a grandchild kept open.
    let except: Vec<i32> = guard.iter().map(reaper::Guard::pid).collect();
    reaper::sweep(&recorder, pid, &except);
    for done in [out_done, err_done] {
        let _ = tokio::time::timeout(DRAIN_TIMEOUT, done).await;
    }
    if let Some(g) = guard {
        g.release();
    }

    match status {
        Ok(Ok(status)) => record_exit(&recorder, status),
        Ok(Err(e)) => {
            crate::eprintln_safe!("kibitzer: cannot wait for the engine: {e}");
            70
        }
        Err(_) => 70,
    }
}

/// SIGINT, SIGTERM and SIGHUP from now on, for the loop to forward to the engine; `None`
/// (they keep their default action) when they cannot be caught.
fn catch_signals() -> Option<mpsc::UnboundedReceiver<Signal>> {
    let (tx, rx) = mpsc::unbounded_channel();
    crate::signals::on_thread(&crate::signals::TERMINATING, move |sig| {
        let _ = tx.send(sig);
    })
    .ok()
    .map(|()| rx)
}

async fn recv(s: &mut Option<mpsc::UnboundedReceiver<Signal>>) -> Option<Signal> {
    match s {
        Some(s) => s.recv().await,
        None => std::future::pending().await,
    }
}

fn forward(recorder: &Recorder, pid: u32, sig: Signal) {
    let target = Pid::from_raw(i32::try_from(pid).unwrap_or(i32::MAX));
    let outcome = kill(target, sig);
    recorder.proxy_event(
        ProxyKind::Signal,
        &format!("{} forwarded to engine", sig.as_str()),
        |e| {
            e.signal = Some(sig.as_str().to_owned());
            e.pid = Some(pid);
            if let Err(err) = outcome {
                e.text = format!("{} could not be forwarded: {err}", sig.as_str());
            }
        },
    );
}

/// Sends `sig` to the process group of an engine that outlived the GUI's EOF (a wrapper's
/// children included), and records why.
fn terminate(recorder: &Recorder, pid: u32, sig: Signal, grace: Duration) {
    let target = Pid::from_raw(i32::try_from(pid).unwrap_or(i32::MAX));
    let outcome = killpg(target, sig);
    let why = match sig {
        Signal::SIGTERM => format!(
            "engine still running {:.1} s after the GUI closed the input; sent SIGTERM",
            grace.as_secs_f64()
        ),
        _ => format!(
            "engine ignored SIGTERM for {} s; sent {}",
            TERM_GRACE.as_secs(),
            sig.as_str()
        ),
    };
    recorder.proxy_event(ProxyKind::Killed, &why, |e| {
        e.signal = Some(sig.as_str().to_owned());
        e.pid = Some(pid);
        if let Err(err) = outcome {
            e.text = format!("{why} (failed: {err})");
        }
    });
}

/// Starts the engine as the proxy does (and `replay` and `probe` after it): piped stdio, its
/// own process group, SIGKILL when we die, `/usr/games` searched when it is not on `PATH`,
/// run in `dir` when given (`record --c2w`: the profile's engine directory).
pub fn spawn_engine(
    program: &OsString,
    args: &[OsString],
    dir: Option<&std::path::Path>,
) -> io::Result<Child> {
    let build = |prog: &std::ffi::OsStr| {
        let mut cmd = Command::new(prog);
        if let Some(d) = dir {
            cmd.current_dir(d);
        }
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Own process group: a Ctrl-C meant for the terminal's foreground job reaches the engine
        // once, through us, not twice.
        cmd.process_group(0);
        // SAFETY: between fork and exec only async-signal-safe calls are allowed; prctl is one.
        // It makes the kernel kill the engine if the proxy dies, even by SIGKILL, so the engine
        // never outlives the proxy.
        #[allow(unsafe_code)]
        unsafe {
            cmd.pre_exec(|| {
                nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).map_err(io::Error::from)?;
                Ok(())
            });
        }
        cmd.spawn()
    };
    match build(program) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => match games_fallback(program) {
            Some(fallback) => build(fallback.as_os_str()),
            None => Err(e),
        },
        other => other,
    }
}

/// Where Debian installs engines, which GUIs started from a desktop often lack on PATH.
const DEBIAN_GAMES: &str = "/usr/games";

/// `program` (a bare name) in /usr/games, when it is there: where every command that starts
/// an engine looks after PATH.
pub fn games_fallback(program: &std::ffi::OsStr) -> Option<PathBuf> {
    if program.to_string_lossy().contains('/') {
        return None;
    }
    let p = PathBuf::from(DEBIAN_GAMES).join(program);
    p.is_file().then_some(p)
}

/// Our own file handle on a standard stream, so reads and writes skip std's buffering.
fn dup_std(fd: std::os::fd::BorrowedFd<'_>) -> io::Result<File> {
    Ok(File::from(fd.try_clone_to_owned()?))
}

fn pump_gui_to_engine(mut gui: File, engine: std::process::ChildStdin, recorder: &Recorder) {
    let mut engine = Some(engine);
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = match gui.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                recorder.proxy_event(
                    ProxyKind::WriteError,
                    &format!("reading from the GUI failed: {e}"),
                    |_| {},
                );
                break;
            }
        };
        // In the file before it is forwarded: the engine's answer cannot be recorded before
        // it, and a SIGKILLed proxy has recorded everything the engine was sent.
        recorder.chunk(Source::Gui, recorder.now(), &buf[..n]);
        recorder.flush();
        if let Some(w) = engine.as_mut()
            && let Err(e) = w.write_all(&buf[..n])
        {
            // The engine is gone or closed its stdin. Keep draining the GUI so it never blocks
            // on a full pipe, and keep recording what it says to the dead engine.
            recorder.proxy_event(
                ProxyKind::WriteError,
                &format!("writing to the engine failed: {e}"),
                |_| {},
            );
            engine = None;
        }
    }
    recorder.end_of_stream(Source::Gui);
    recorder.gui_gone();
    drop(engine);
    recorder.proxy_event(
        ProxyKind::GuiEof,
        "GUI closed the input; engine stdin closed",
        |_| {},
    );
}

fn spawn_pump(
    from: impl Read + Send + 'static,
    to: std::os::fd::BorrowedFd<'_>,
    src: Source,
    recorder: &Arc<Recorder>,
) -> oneshot::Receiver<()> {
    let (tx, rx) = oneshot::channel();
    let rec = Arc::clone(recorder);
    let to = dup_std(to);
    std::thread::spawn(move || {
        pump_engine_output(from, to, src, &rec);
        let _ = tx.send(());
    });
    rx
}

fn pump_engine_output(mut from: impl Read, to: io::Result<File>, src: Source, recorder: &Recorder) {
    let mut to = match to {
        Ok(f) => Some(f),
        Err(e) => {
            recorder.proxy_event(
                ProxyKind::WriteError,
                &format!("cannot open {} for forwarding: {e}", target_name(src)),
                |_| {},
            );
            None
        }
    };
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        // Recorded (handed to the kernel) before the GUI can see it: whatever the GUI has
        // received is in the recording even if the proxy is SIGKILLed the next moment.
        recorder.chunk(src, recorder.now(), &buf[..n]);
        recorder.flush();
        if let Some(w) = to.as_mut()
            && let Err(e) = w.write_all(&buf[..n])
        {
            // The GUI stopped reading. Keep draining so the engine never blocks on a full pipe.
            recorder.proxy_event(
                ProxyKind::WriteError,
                &format!("writing to {} failed: {e}", target_name(src)),
                |_| {},
            );
            to = None;
        }
    }
    recorder.end_of_stream(src);
    if src == Source::Engine {
        recorder.proxy_event(ProxyKind::EngineEof, "engine closed its output", |_| {});
    }
}

fn target_name(src: Source) -> &'static str {
    if src == Source::Stderr {
        "stderr"
    } else {
        "the GUI"
    }
}

/// The header of a session kibitzer runs an engine for (`record`, `replay`, `probe`): this
/// tool, the start time (now), the engine's command line, the working directory, the pid and
/// the host.
pub fn session_header(argv: &[std::ffi::OsString]) -> Header {
    let mut header = Header::new(
        concat!("kibitzer ", env!("CARGO_PKG_VERSION")),
        chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Nanos, true),
    );
    header.argv = argv
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    header.cwd = std::env::current_dir()
        .ok()
        .map(|p| p.display().to_string());
    header.pid = Some(std::process::id());
    header.host = nix::unistd::gethostname()
        .ok()
        .map(|h| h.to_string_lossy().into_owned());
    header
}

fn open_recorder(cfg: &ProxyConfig, start: Instant) -> Recorder {
    let mut header = session_header(&cfg.argv);
    header.label = cfg.label.clone();
    header.protocol = cfg.protocol.clone();
    header.c2w = cfg.c2w.clone();

    let (sink, shown): (Option<Box<dyn Sink>>, String) = match &cfg.output {
        None => (None, String::new()),
        Some(path) => {
            let shown = path.display().to_string();
            match super::output_path::create_recording(path, cfg.output_named) {
                Ok(f) => (Some(Box::new(f)), shown),
                Err(e) => {
                    crate::eprintln_safe!(
                        "kibitzer: warning: cannot create recording {shown}: {e}; running the engine without recording"
                    );
                    (None, shown)
                }
            }
        }
    };
    Recorder::new(start, sink, shown, &header)
}

/// Records the engine's end (`engine_exit`, always the last event) and returns the exit
/// status to leave with.
pub fn record_exit(recorder: &Recorder, status: ExitStatus) -> i32 {
    recorder.proxy_event(ProxyKind::EngineExit, &describe(status), |e| {
        e.code = status.code();
        e.signal = status
            .signal()
            .and_then(|s| Signal::try_from(s).ok())
            .map(|s| s.as_str().to_owned());
    });
    exit_code(status)
}

/// The exit status a process ending like the engine leaves with (128+signal for a signal).
pub fn exit_code(status: ExitStatus) -> i32 {
    match (status.code(), status.signal()) {
        (Some(c), _) => c,
        (None, Some(s)) => 128 + s,
        (None, None) => 70,
    }
}

/// How the engine ended, for `engine_exit` events and messages.
pub fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(c), _) => format!("engine exited with code {c}"),
        (None, Some(s)) => {
            let name = Signal::try_from(s)
                .map(|s| s.as_str())
                .unwrap_or("unknown signal");
            format!("engine killed by {name} ({s})")
        }
        _ => "engine ended".into(),
    }
}

/// The engine command line as one string, for `spawned` events.
pub fn display_argv(argv: &[OsString]) -> String {
    argv.iter()
        .map(|a| a.to_string_lossy())
        .collect::<Vec<_>>()
        .join(" ")
}
