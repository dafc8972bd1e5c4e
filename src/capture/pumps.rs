//! The recorder's pumps: GUI to engine, engine to GUI, engine's stderr to the GUI's.
//!
//! Each pump records a read (hands it to the kernel) before it forwards it, so whatever either
//! side has received is in the recording. Beyond the bytes, each end of each pipe behaves as it
//! would between the GUI and the bare engine:
//! - the engine closes its output: the GUI sees EOF at once (the recorder lets go of its end);
//! - the engine closes its input, or dies: the GUI's next write fails (the recorder lets go of
//!   the GUI's input);
//! - the GUI closes its end of the engine's output, or dies: the engine's next write fails;
//! - the GUI's writes block about where they would (the engine's input pipe is one page, and
//!   the recorder reads from the GUI only what it has room for).
//!
//! A pump waits in `poll` rather than in `read`, so that it hears of the far end going away
//! while the near end is quiet: a thread blocked in `read` would keep the pipe open.

use super::recorder::Recorder;
use crate::recording::{ProxyKind, Source};
use nix::libc;
use std::fs::File;
use std::io::{self, PipeReader, PipeWriter, Read, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, RawFd};
use std::time::{Duration, Instant};

/// Bytes per read from the engine: a whole default pipe.
const CHUNK: usize = 64 * 1024;

/// How long an input the engine closed waits for the engine's exit before it counts as closed
/// by a live engine: a dying process closes its files a moment before it can be reaped, and
/// the GUI's input must not fail while `waitpid` still says the engine runs.
const DYING_WAIT: Duration = Duration::from_millis(50);

/// The most a pump reads, without waiting, from a pipe whose other end is gone.
const DRAIN_LIMIT: usize = 1 << 20;

/// How long the GUI's writes still succeed after the engine died. A GUI checks that the engine
/// lives (`waitpid`) and then writes: on the bare pipe, a death between the two kills a GUI
/// that keeps SIGPIPE at its default. Under the proxy the write fails only this long after
/// the death, so no GUI dies of that race; what it wrote is recorded.
const GONE_GRACE: Duration = Duration::from_millis(100);

/// How the GUI-to-engine pump ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuiPumpEnd {
    /// The GUI closed its output (our input); the engine's input was closed in turn.
    GuiEof,
    /// The engine exited.
    EngineGone,
    /// The engine closed its input and lives on.
    EngineClosedInput,
    /// Reading from the GUI failed.
    ReadFailed,
}

/// The events `poll` reported for each descriptor; `None` descriptors are not watched.
///
/// Until `spin_until` it polls without sleeping. After a pump forwarded something, the answer
/// (or the next request) usually follows within microseconds; a thread asleep in `poll` pays
/// the kernel's wake-up for it, which on a virtual machine whose idle CPU halts is often tens
/// of microseconds, twice per round trip on top of the bare engine's. Spinning for a bounded
/// window after each forward keeps the relay near the bare pipe; the spinning thread yields
/// its CPU on every turn, so an engine that needs it gets it.
/// A fixed-size array: this runs once per forwarded chunk and must not allocate.
fn wait<const N: usize>(
    fds: [(Option<BorrowedFd<'_>>, libc::c_short); N],
    spin_until: Option<Instant>,
) -> [libc::c_short; N] {
    let mut polled = fds.map(|(fd, events)| libc::pollfd {
        fd: fd.map_or(-1, |f| f.as_raw_fd()),
        events,
        revents: 0,
    });
    let mut spinning = spin_until.is_some_and(|t| Instant::now() < t);
    loop {
        let timeout = if spinning { 0 } else { -1 };
        // SAFETY: `polled` is a live array of `polled.len()` pollfd structs, which poll
        // reads and whose `revents` it writes; nothing else aliases it.
        #[allow(unsafe_code)]
        let n = unsafe { libc::poll(polled.as_mut_ptr(), polled.len() as libc::nfds_t, timeout) };
        if n > 0 || (n < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted) {
            return polled.map(|p| p.revents);
        }
        if spinning {
            std::thread::yield_now();
            spinning = spin_until.is_some_and(|t| Instant::now() < t);
        }
    }
}

/// Bytes waiting in a pipe (either end), `None` for what is not a pipe.
fn queued(fd: BorrowedFd<'_>) -> Option<usize> {
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int to the pointer given, which is `n`.
    #[allow(unsafe_code)]
    let r = unsafe { libc::ioctl(fd.as_raw_fd(), libc::FIONREAD, &mut n) };
    (r == 0).then(|| usize::try_from(n).unwrap_or(0))
}

fn pipe_capacity(fd: BorrowedFd<'_>) -> Option<usize> {
    nix::fcntl::fcntl(fd, nix::fcntl::FcntlArg::F_GETPIPE_SZ)
        .ok()
        .and_then(|n| usize::try_from(n).ok())
}

/// Makes standard stream `fd` let go of what it was (the GUI's pipe end), leaving `/dev/null`
/// in its place so nothing later writes to or reads from whatever takes the number.
pub fn retire_std(fd: RawFd) {
    let Ok(null) = File::options().read(true).write(true).open("/dev/null") else {
        // SAFETY: closing a standard stream number we own; no Rust object owns it.
        #[allow(unsafe_code)]
        unsafe {
            libc::close(fd);
        }
        return;
    };
    // SAFETY: dup2 onto a standard stream number: it replaces the descriptor atomically and
    // touches no memory; no Rust object owns that number (std's handles only borrow it).
    #[allow(unsafe_code)]
    unsafe {
        libc::dup2(null.as_raw_fd(), fd);
    }
}

/// Is `fd` a pipe or a socket, whose other end sees our closing it?
pub fn is_channel(fd: BorrowedFd<'_>) -> bool {
    nix::sys::stat::fstat(fd).is_ok_and(|st| {
        let kind = st.st_mode & libc::S_IFMT;
        kind == libc::S_IFIFO || kind == libc::S_IFSOCK
    })
}

const IN: libc::c_short = libc::POLLIN;
const OUT: libc::c_short = libc::POLLOUT;
const GONE: libc::c_short = libc::POLLERR | libc::POLLHUP;

/// Forwards the GUI's bytes (our standard input, `gui` a handle on it) to the engine until one
/// side goes; `engine_gone` becomes readable when the engine has exited.
pub fn gui_to_engine(
    mut gui: File,
    engine: PipeWriter,
    engine_gone: &PipeReader,
    process: &super::process::EngineProcess,
    rec: &Recorder,
    spin: Duration,
) -> GuiPumpEnd {
    let capacity = pipe_capacity(engine.as_fd()).unwrap_or(CHUNK);
    let mut buf = vec![0u8; capacity.max(4096)];
    let mut engine = Some(engine);
    let mut spin_until = None;
    let end = loop {
        let Some(to) = engine.as_ref() else {
            break GuiPumpEnd::EngineGone;
        };
        let room = queued(to.as_fd()).map_or(capacity, |q| capacity.saturating_sub(q));
        let ev = wait(
            [
                ((room > 0).then(|| gui.as_fd()), IN),
                (Some(to.as_fd()), if room > 0 { 0 } else { OUT }),
                (Some(engine_gone.as_fd()), IN),
            ],
            spin_until,
        );
        if ev[2] != 0 {
            break GuiPumpEnd::EngineGone;
        }
        if ev[1] & libc::POLLERR != 0 {
            break closed_or_gone(process);
        }
        if ev[0] == 0 {
            continue;
        }
        let want = room.min(buf.len());
        let n = match gui.read(&mut buf[..want]) {
            Ok(0) => break GuiPumpEnd::GuiEof,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                rec.proxy_event(
                    ProxyKind::WriteError,
                    &format!("reading from the GUI failed: {e}"),
                    |_| {},
                );
                break GuiPumpEnd::ReadFailed;
            }
        };
        rec.chunk(Source::Gui, rec.now(), &buf[..n]);
        rec.flush();
        if let Some(w) = engine.as_mut()
            && let Err(e) = w.write_all(&buf[..n])
        {
            rec.proxy_event(
                ProxyKind::WriteError,
                &format!("writing to the engine failed: {e}"),
                |_| {},
            );
            break closed_or_gone(process);
        }
        spin_until = Some(Instant::now() + spin);
    };
    match end {
        GuiPumpEnd::GuiEof | GuiPumpEnd::ReadFailed => {
            rec.end_of_stream(Source::Gui);
            rec.gui_gone();
            drop(engine);
            rec.proxy_event(
                ProxyKind::GuiEof,
                "GUI closed the input; engine stdin closed",
                |_| {},
            );
        }
        GuiPumpEnd::EngineGone => {
            drop(engine);
            // What the GUI wrote that the engine never read, and what it writes in the moment
            // after the death; from then on its writes fail, as on the bare engine's pipe.
            if drain_for(&mut gui, &mut buf, GONE_GRACE, rec) {
                rec.proxy_event(
                    ProxyKind::WriteError,
                    "writing to the engine failed: the engine was gone (not delivered)",
                    |_| {},
                );
            }
            drop(gui);
            retire_std(libc::STDIN_FILENO);
        }
        GuiPumpEnd::EngineClosedInput => {
            drop(engine);
            drop(gui);
            retire_std(libc::STDIN_FILENO);
            rec.proxy_event(
                ProxyKind::EngineStdinClosed,
                "the engine closed its input and runs on; the GUI's writes fail from now on",
                |_| {},
            );
        }
    }
    end
}

fn closed_or_gone(process: &super::process::EngineProcess) -> GuiPumpEnd {
    if process.exited_within(DYING_WAIT) {
        GuiPumpEnd::EngineGone
    } else {
        GuiPumpEnd::EngineClosedInput
    }
}

/// Reads what `from` holds right now, without waiting, and records it; true if there was any.
/// At most [`DRAIN_LIMIT`] bytes: standard input may be a file that never ends (`/dev/zero`).
fn drain_into(from: &mut impl ReadNow, buf: &mut [u8], src: Source, rec: &Recorder) -> bool {
    let mut taken = 0;
    while taken < DRAIN_LIMIT
        && let Some(n) = from.read_now(buf)
    {
        rec.chunk(src, rec.now(), &buf[..n]);
        taken += n;
    }
    let any = taken > 0;
    rec.end_of_stream(src);
    any
}

/// Records what the GUI writes for `grace` (at most [`DRAIN_LIMIT`] bytes), then the end of
/// its stream; true if it wrote anything.
fn drain_for(gui: &mut File, buf: &mut [u8], grace: Duration, rec: &Recorder) -> bool {
    let deadline = std::time::Instant::now() + grace;
    let mut taken = 0;
    while taken < DRAIN_LIMIT {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let mut p = [libc::pollfd {
            fd: gui.as_raw_fd(),
            events: IN,
            revents: 0,
        }];
        let ms = libc::c_int::try_from(left.as_millis()).unwrap_or(libc::c_int::MAX);
        // SAFETY: one live pollfd.
        #[allow(unsafe_code)]
        let n = unsafe { libc::poll(p.as_mut_ptr(), 1, ms) };
        if n <= 0 || p[0].revents & IN == 0 {
            break;
        }
        match gui.read(buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                rec.chunk(Source::Gui, rec.now(), &buf[..n]);
                taken += n;
            }
        }
    }
    rec.end_of_stream(Source::Gui);
    taken > 0
}

/// A read that returns `None` instead of waiting.
trait ReadNow {
    fn read_now(&mut self, buf: &mut [u8]) -> Option<usize>;
}

impl<T: Read + AsFd> ReadNow for T {
    fn read_now(&mut self, buf: &mut [u8]) -> Option<usize> {
        let ready = wait_now(self.as_fd());
        if !ready {
            return None;
        }
        match self.read(buf) {
            Ok(0) | Err(_) => None,
            Ok(n) => Some(n),
        }
    }
}

fn wait_now(fd: BorrowedFd<'_>) -> bool {
    let mut p = [libc::pollfd {
        fd: fd.as_raw_fd(),
        events: IN,
        revents: 0,
    }];
    // SAFETY: one live pollfd, zero timeout.
    #[allow(unsafe_code)]
    let n = unsafe { libc::poll(p.as_mut_ptr(), 1, 0) };
    n > 0 && p[0].revents & IN != 0
}

/// Forwards the engine's stdout (`src` Engine) or stderr (`src` Stderr) to our standard stream
/// `fd` (`to` a handle on it) until the engine closes it or the GUI stops reading.
pub fn engine_to_gui(
    mut from: PipeReader,
    to: File,
    fd: RawFd,
    src: Source,
    rec: &Recorder,
    spin: Duration,
) {
    let mut buf = vec![0u8; CHUNK];
    let mut to = Some(to);
    let mut spin_until = None;
    let gui_closed = loop {
        let Some(w) = to.as_ref() else { break true };
        let ev = wait([(Some(from.as_fd()), IN), (Some(w.as_fd()), 0)], spin_until);
        if ev[1] & GONE != 0 {
            break true;
        }
        if ev[0] == 0 {
            continue;
        }
        let n = match from.read(&mut buf) {
            Ok(0) => break false,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break false,
        };
        // Recorded (handed to the kernel) before the GUI can see it: whatever the GUI has
        // received is in the recording even if the recorder is killed the next moment.
        rec.chunk(src, rec.now(), &buf[..n]);
        rec.flush();
        if let Some(w) = to.as_mut()
            && w.write_all(&buf[..n]).is_err()
        {
            break true;
        }
        spin_until = Some(Instant::now() + spin);
    };
    let name = if src == Source::Stderr {
        "the GUI's stderr"
    } else {
        "the GUI"
    };
    if gui_closed {
        // What the engine wrote that nobody will read; then its next write fails, as it
        // would on the bare pipe (SIGPIPE, or EPIPE if it ignores that).
        drain_into(&mut from, &mut buf, src, rec);
        drop(from);
        rec.proxy_event(
            ProxyKind::WriteError,
            &format!("writing to {name} failed: it closed its end; the engine's next write fails"),
            |_| {},
        );
        return;
    }
    rec.end_of_stream(src);
    if src == Source::Engine {
        rec.proxy_event(ProxyKind::EngineEof, "engine closed its output", |_| {});
    }
    // The GUI sees the end of the engine's output now, not when the recorder exits. Our own
    // stderr stays where it is unless the GUI reads it through a pipe.
    let mirror = to.as_ref().is_some_and(|w| is_channel(w.as_fd()));
    drop(to);
    if src == Source::Engine || mirror {
        retire_std(fd);
    }
}
