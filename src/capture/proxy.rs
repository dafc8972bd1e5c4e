//! `kibitzer record`: the transparent tee proxy between a GUI and an engine.
//!
//! The process the GUI started becomes the engine ([`launch`]); the recorder, forked off before
//! that, runs the pumps ([`pumps`]) on one thread per stream and watches the engine from below
//! ([`super::process`]) on the main thread: its exit, what it left running, and the optional
//! `--eof-grace` deadline. Nothing here writes to the GUI but the engine's own bytes.

use super::launch::{self, Started};
use super::process::{Descendant, EngineProcess, descendants};
use super::pumps::{self, GuiPumpEnd};
use super::recorder::{Recorder, Sink};
use crate::recording::{Header, ProxyKind, Source};
use nix::sys::signal::Signal;
use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::AsFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

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
    /// How long an engine may outlive the GUI closing its input before it is terminated;
    /// `None` (the default) leaves it alone, as the bare engine would be.
    pub eof_grace: Option<Duration>,
    /// End what the engine left running when it exits (`--kill-leftovers`).
    pub kill_leftovers: bool,
    /// The engine's working directory (`record --c2w`: the profile's EnginePath, where the
    /// engine finds its ini and book files); `None` keeps the proxy's.
    pub engine_dir: Option<PathBuf>,
    /// Noted in the recording's header (`record --c2w`).
    pub c2w: Option<crate::recording::C2wNote>,
    /// Sample the engine's processes (`None`: `--no-samples`).
    pub sampler: Option<super::sampler::SamplerConfig>,
    /// How long a pump keeps polling without sleeping after it forwarded something
    /// (`--spin`); zero sleeps at once.
    pub spin: Duration,
}

/// After SIGTERM, how long the engine gets before SIGKILL.
const TERM_GRACE: Duration = Duration::from_secs(2);

/// How often the recorder notes which processes the engine has started: a process still
/// running when the engine exits is a leftover only if it was seen before (by then it has
/// lost its parent and cannot be told from any other process).
const SCAN_EVERY: Duration = Duration::from_millis(200);

/// How long the engine's output may stay open after the engine exited before whoever holds
/// it is named as a leftover.
const DRAIN_AFTER_EXIT: Duration = Duration::from_millis(100);

/// Runs the engine in this process and the recorder in a forked one. Returns only in the
/// recorder, with its exit status (nobody waits for it: the GUI waits for the engine).
pub fn run(cfg: ProxyConfig) -> i32 {
    let start = Instant::now();
    match launch::start(&cfg.argv, cfg.engine_dir.as_deref()) {
        Started::Recorder(side) => record(cfg, side, start),
        Started::NoRecorder(why) => {
            crate::eprintln_safe!("kibitzer: warning: {why}; running the engine without recording");
            launch::run_unrecorded(&cfg.argv, cfg.engine_dir.as_deref())
        }
    }
}

fn record(cfg: ProxyConfig, mut side: launch::RecorderSide, start: Instant) -> i32 {
    // The recorder shares the GUI's process group (it must read a terminal as the foreground
    // job does): a signal sent to the group reaches the engine by itself, and here it is only
    // noted. Ctrl-Z stops the engine, not the recorder's forwarding of what was already said.
    let (recorder, file) = open_recorder(&cfg, start);
    recorder.record_after_exit();
    // Exclusive while the recorder runs: a reader that finds it so asks whether the engine
    // still runs (input::wait_for_recorder), and waits for the rest if it does not.
    if let Some(f) = &file {
        let _ = f.lock();
    }
    let recorder = Arc::new(recorder);
    note_group_signals(&recorder);
    crate::signals::ignore(&[Signal::SIGTSTP]);

    if let Err(e) = side.started() {
        return spawn_failed(&cfg, &recorder, &e);
    }
    let launch::RecorderSide {
        engine_in,
        engine_out,
        engine_err,
        engine,
        ..
    } = side;
    let pid = engine.pid();
    recorder.proxy_event(ProxyKind::Spawned, &display_argv(&cfg.argv), |e| {
        e.pid = u32::try_from(pid).ok()
    });
    let engine = Arc::new(engine);
    let sampler = cfg
        .sampler
        .clone()
        .and_then(|c| super::sampler::Sampler::start(pid, Arc::clone(&recorder), c));

    let (gone_r, gone_w) = match io::pipe() {
        Ok(p) => p,
        Err(e) => {
            crate::eprintln_safe!("kibitzer: cannot make a pipe: {e}");
            return 70;
        }
    };
    let pipes = EnginePipes {
        engine_in,
        engine_out,
        engine_err,
        gone: gone_r,
    };
    let done_rx = start_pumps(pipes, &engine, &recorder, cfg.spin);

    let watch = watch_until_exit(&cfg, &engine, &recorder, &done_rx);
    if let Some(s) = sampler {
        s.stop();
    }
    drop(gone_w);
    let status = engine.exit_status();
    let pending = record_the_end(&cfg, &recorder, &done_rx, watch, status);
    // What a leftover still writes is recorded too, but a reader need not wait for it.
    if pending.outputs > 0
        && let Some(f) = &file
    {
        let _ = f.lock_shared();
    }
    wait_for_pumps(&done_rx, pending);
    recorder.flush();
    0
}

/// The engine could not be started: said, recorded, and the shell's status for it.
fn spawn_failed(cfg: &ProxyConfig, recorder: &Recorder, e: &io::Error) -> i32 {
    let program = cfg
        .argv
        .first()
        .map(|p| p.to_string_lossy())
        .unwrap_or_default();
    let msg = format!("cannot start engine {program}: {e}");
    crate::eprintln_safe!("kibitzer: {msg}");
    recorder.proxy_event(ProxyKind::SpawnFailed, &msg, |_| {});
    launch::shell_status(e)
}

/// The engine's ends of the pipes the pumps forward, and the pipe that tells the GUI's pump
/// the engine is gone.
struct EnginePipes {
    engine_in: io::PipeWriter,
    engine_out: io::PipeReader,
    engine_err: io::PipeReader,
    gone: io::PipeReader,
}

/// Starts the pumps: the GUI's stdin to the engine, the engine's stdout and stderr to ours.
/// Each says on the channel when it ends (the GUI's pump with how).
fn start_pumps(
    pipes: EnginePipes,
    engine: &Arc<EngineProcess>,
    recorder: &Arc<Recorder>,
    spin: Duration,
) -> mpsc::Receiver<Option<GuiPumpEnd>> {
    let EnginePipes {
        engine_in,
        engine_out,
        engine_err,
        gone: gone_r,
    } = pipes;
    let (done_tx, done_rx) = mpsc::channel::<Option<GuiPumpEnd>>();
    match std_handle(io::stdin().as_fd()) {
        Ok(gui_in) => {
            let (rec, engine, done) = (Arc::clone(recorder), Arc::clone(engine), done_tx.clone());
            std::thread::spawn(move || {
                let end = pumps::gui_to_engine(gui_in, engine_in, &gone_r, &engine, &rec, spin);
                let _ = done.send(Some(end));
            });
        }
        Err(e) => crate::eprintln_safe!("kibitzer: cannot read stdin: {e}"),
    }
    for (from, fd, src) in [
        (engine_out, nix::libc::STDOUT_FILENO, Source::Engine),
        (engine_err, nix::libc::STDERR_FILENO, Source::Stderr),
    ] {
        // SAFETY: 1 and 2 are open for the whole life of the process (retire_std leaves
        // /dev/null there, never a closed number).
        #[allow(unsafe_code)]
        let target = unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) };
        let (rec, done) = (Arc::clone(recorder), done_tx.clone());
        match std_handle(target) {
            Ok(to) => {
                std::thread::spawn(move || {
                    pumps::engine_to_gui(from, to, fd, src, &rec, spin);
                    let _ = done.send(None);
                });
            }
            Err(e) => crate::eprintln_safe!("kibitzer: cannot forward to fd {fd}: {e}"),
        }
    }
    done_rx
}

/// After the engine exited: what the pumps still hold, the processes it left, the group's
/// signals and how it ended, recorded. Returns the pumps still running.
fn record_the_end(
    cfg: &ProxyConfig,
    recorder: &Recorder,
    done_rx: &mpsc::Receiver<Option<GuiPumpEnd>>,
    watch: Watched,
    status: Option<ExitStatus>,
) -> Pumps {
    // Whatever the pumps still hold arrives now, unless a process the engine left holds its
    // output open: that one is named, and its output is forwarded (and recorded) until it
    // closes, as the GUI would read it from the bare engine's pipe.
    let mut pending = watch.pumps;
    drain(done_rx, &mut pending, DRAIN_AFTER_EXIT);
    let leftovers: Vec<Descendant> = watch.seen.into_iter().filter(Descendant::alive).collect();
    if !leftovers.is_empty() {
        super::leftovers::record(recorder, &leftovers, cfg.kill_leftovers);
        if cfg.kill_leftovers {
            drain(done_rx, &mut pending, Duration::from_secs(1));
        }
    }
    group_signals_recorded();
    match status {
        Some(status) => {
            record_exit(recorder, status);
        }
        None => recorder.proxy_event(
            ProxyKind::EngineExit,
            "engine exited; its exit status was collected by the GUI before kibitzer could read it (Linux before 6.15)",
            |_| {},
        ),
    }
    pending
}

/// Waits for the pumps still running to end.
fn wait_for_pumps(done_rx: &mpsc::Receiver<Option<GuiPumpEnd>>, mut pending: Pumps) {
    while pending.outputs + pending.gui > 0 {
        match done_rx.recv() {
            Ok(Some(_)) => pending.gui = pending.gui.saturating_sub(1),
            Ok(None) => pending.outputs = pending.outputs.saturating_sub(1),
            Err(_) => break,
        }
    }
}

/// Counts the pumps that end within `limit`.
/// Pumps still running: the two that forward the engine's output, and the GUI's.
#[derive(Clone, Copy)]
struct Pumps {
    outputs: usize,
    gui: usize,
}

/// Counts the pumps that end within `limit`, until the engine's output pumps have ended (the
/// GUI's may run on for its grace after the engine's death: its lines follow the exit).
fn drain(done: &mpsc::Receiver<Option<GuiPumpEnd>>, pending: &mut Pumps, limit: Duration) {
    let deadline = Instant::now() + limit;
    while pending.outputs > 0 {
        match done.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Some(_)) => pending.gui = pending.gui.saturating_sub(1),
            Ok(None) => pending.outputs -= 1,
            Err(_) => break,
        }
    }
}

/// What the recorder knows when the engine has exited.
struct Watched {
    /// Processes the engine started, as last seen.
    seen: Vec<Descendant>,
    /// Pumps still running.
    pumps: Pumps,
}

/// Waits for the engine's exit; meanwhile notes what it starts and, with `--eof-grace`, ends
/// an engine that outlives the GUI's input by that long.
fn watch_until_exit(
    cfg: &ProxyConfig,
    engine: &EngineProcess,
    recorder: &Recorder,
    done: &mpsc::Receiver<Option<GuiPumpEnd>>,
) -> Watched {
    let me = i32::try_from(std::process::id()).unwrap_or(-1);
    let mut seen: Vec<Descendant> = Vec::new();
    let mut pumps = Pumps { outputs: 2, gui: 1 };
    let mut deadline: Option<(Instant, Signal)> = None;
    // Engines start their helpers (a wrapper's child, a book server) as they start: look
    // often at first, then every SCAN_EVERY.
    let mut every = Duration::from_millis(5);
    loop {
        for d in descendants(engine.pid(), me) {
            // The name as last seen: a child seen between its fork and its exec still bore
            // its parent's.
            match seen
                .iter_mut()
                .find(|s| s.pid == d.pid && s.start == d.start)
            {
                Some(s) => s.name = d.name,
                None => seen.push(d),
            }
        }
        seen.retain(Descendant::alive);
        let mut wait = every;
        every = (every * 2).min(SCAN_EVERY);
        if let Some((at, _)) = deadline {
            wait = wait.min(at.saturating_duration_since(Instant::now()));
        }
        if engine.exited_within(wait) {
            break;
        }
        while let Ok(end) = done.try_recv() {
            match end {
                Some(_) => pumps.gui = pumps.gui.saturating_sub(1),
                None => pumps.outputs = pumps.outputs.saturating_sub(1),
            }
            if end == Some(GuiPumpEnd::GuiEof)
                && let Some(grace) = cfg.eof_grace
            {
                deadline = Some((Instant::now() + grace, Signal::SIGTERM));
            }
        }
        if let Some((at, sig)) = deadline
            && Instant::now() >= at
        {
            terminate(recorder, engine, sig, cfg.eof_grace.unwrap_or_default());
            deadline =
                (sig == Signal::SIGTERM).then(|| (Instant::now() + TERM_GRACE, Signal::SIGKILL));
        }
    }
    Watched { seen, pumps }
}

/// Signals sent to the process group the engine and the recorder share, as delivered (counted
/// in the handler) and as recorded: the recorder waits for the two to meet before it writes the
/// engine's exit, which such a signal may have caused.
static GROUP_SIGNALS_DELIVERED: AtomicUsize = AtomicUsize::new(0);
static GROUP_SIGNALS_RECORDED: AtomicUsize = AtomicUsize::new(0);

const GROUP_SIGNALS: [Signal; 6] = [
    Signal::SIGHUP,
    Signal::SIGINT,
    Signal::SIGQUIT,
    Signal::SIGTERM,
    Signal::SIGUSR1,
    Signal::SIGUSR2,
];

/// Notes signals sent to the process group the engine and the recorder share (the engine got
/// them itself); they do not end the recorder, which ends with the engine.
fn note_group_signals(recorder: &Arc<Recorder>) {
    for sig in GROUP_SIGNALS {
        // SAFETY: the action only increments an atomic, which is async-signal-safe.
        #[allow(unsafe_code)]
        let _ = unsafe {
            signal_hook::low_level::register(sig as i32, || {
                GROUP_SIGNALS_DELIVERED.fetch_add(1, Ordering::SeqCst);
            })
        };
    }
    let rec = Arc::clone(recorder);
    let caught = crate::signals::on_thread(&GROUP_SIGNALS, move |sig| {
        rec.proxy_event(
            ProxyKind::Signal,
            &format!("{} sent to the engine's process group", sig.as_str()),
            |e| e.signal = Some(sig.as_str().to_owned()),
        );
        GROUP_SIGNALS_RECORDED.fetch_add(1, Ordering::SeqCst);
    });
    if caught.is_err() {
        crate::signals::ignore(&GROUP_SIGNALS);
    }
}

/// Waits (briefly: deliveries of one signal may have been merged into one record) until every
/// group signal delivered so far is in the recording.
fn group_signals_recorded() {
    let deadline = Instant::now() + Duration::from_millis(100);
    while GROUP_SIGNALS_RECORDED.load(Ordering::SeqCst)
        < GROUP_SIGNALS_DELIVERED.load(Ordering::SeqCst)
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Sends `sig` to an engine that outlived the GUI's EOF by `--eof-grace`, and records why.
fn terminate(recorder: &Recorder, engine: &EngineProcess, sig: Signal, grace: Duration) {
    let outcome = engine.signal(sig);
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
        e.pid = u32::try_from(engine.pid()).ok();
        if let Err(err) = outcome {
            e.text = format!("{why} (failed: {err})");
        }
    });
}

/// Our own file handle on a standard stream, so reads and writes skip std's buffering.
fn std_handle(fd: std::os::fd::BorrowedFd<'_>) -> io::Result<File> {
    Ok(File::from(fd.try_clone_to_owned()?))
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

/// The recorder, and a handle on its file for the lock that tells readers it is finishing.
fn open_recorder(cfg: &ProxyConfig, start: Instant) -> (Recorder, Option<File>) {
    let mut header = session_header(&cfg.argv);
    header.label = cfg.label.clone();
    header.protocol = cfg.protocol.clone();
    header.c2w = cfg.c2w.clone();

    let mut lock = None;
    let (sink, shown): (Option<Box<dyn Sink>>, String) = match &cfg.output {
        None => (None, String::new()),
        Some(path) => {
            let shown = path.display().to_string();
            match super::output_path::create_recording(path, cfg.output_named) {
                Ok(f) => {
                    lock = f.try_clone().ok();
                    (Some(Box::new(f)), shown)
                }
                Err(e) => {
                    crate::eprintln_safe!(
                        "kibitzer: warning: cannot create recording {shown}: {e}; running the engine without recording"
                    );
                    (None, shown)
                }
            }
        }
    };
    (Recorder::new(start, sink, shown, &header), lock)
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
