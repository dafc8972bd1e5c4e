//! How `kibitzer record` starts the engine: in the process the GUI started.
//!
//! The GUI's child *becomes* the engine (it `exec`s it), and the recorder is a child forked off
//! before that, holding the GUI's end of every pipe. So the process the GUI knows is the engine
//! itself: its pid, its exit status (a death by signal is that signal to `waitpid`, at the
//! moment it happens), its signals (SIGSTOP, SIGQUIT, SIGWINCH, anything sent to the pid reaches
//! the engine, with its own handlers), its ignored signals and signal mask, its process group,
//! its CPU time, and what a debugger or `ps` finds under that pid. Only the pipes pass through
//! the recorder ([`pumps`](super::pumps)).
//!
//! The order at start: pipes, then `fork`; the recorder opens a pidfd on its parent (the
//! engine-to-be) and says it is ready; only then does the parent put the pipes on 0, 1 and 2
//! and `exec` the engine, so the engine cannot end before the recorder holds it. An `exec`
//! that fails is reported over a close-on-exec pipe, which a successful `exec` closes.

use nix::libc;
use nix::unistd::ForkResult;
use std::ffi::{CString, OsString};
use std::io::{self, PipeReader, PipeWriter, Read, Write};
use std::os::fd::AsFd;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The GUI-side ends of the engine's pipes, and what the recorder needs to watch the engine:
/// what [`start`] hands the recorder (the forked child).
pub struct RecorderSide {
    pub engine_in: PipeWriter,
    pub engine_out: PipeReader,
    pub engine_err: PipeReader,
    pub engine: super::process::EngineProcess,
    /// Closed by a successful `exec`; carries the `errno` of a failed one.
    exec_result: PipeReader,
}

impl RecorderSide {
    /// Waits for the engine's `exec`: `Ok` once it runs, the error that stopped it otherwise.
    pub fn started(&mut self) -> io::Result<()> {
        let mut errno = [0u8; 4];
        let mut got = 0;
        while got < errno.len() {
            match self.exec_result.read(&mut errno[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if got == 0 {
            Ok(())
        } else {
            Err(io::Error::from_raw_os_error(i32::from_ne_bytes(errno)))
        }
    }
}

/// Where `start` returns: in the recorder, or nowhere (the engine ran, or could not).
pub enum Started {
    Recorder(RecorderSide),
    /// No recorder could be started (the reason, for a warning): the engine was run in this
    /// process without one (see [`run_unrecorded`]).
    NoRecorder(String),
}

/// The engine's bytes in the pipe from the GUI: one page, the smallest pipe Linux makes, so
/// the GUI's writes block about where they would block on the bare engine (the recorder reads
/// from the GUI only what this pipe has room for).
pub const ENGINE_STDIN_PIPE: usize = 4096;

/// Forks the recorder and `exec`s the engine in this process; returns only in the recorder,
/// or with `NoRecorder` before anything was forked. Must be called while this process has one
/// thread.
pub fn start(argv: &[OsString], dir: Option<&Path>) -> Started {
    if let Err(why) = one_thread() {
        return Started::NoRecorder(why);
    }
    let pipes = (|| -> io::Result<_> {
        let stdin = io::pipe()?;
        let _ = nix::fcntl::fcntl(
            stdin.1.as_fd(),
            nix::fcntl::FcntlArg::F_SETPIPE_SZ(ENGINE_STDIN_PIPE as i32),
        );
        Ok((stdin, io::pipe()?, io::pipe()?, io::pipe()?, io::pipe()?))
    })();
    let Ok(((in_r, in_w), (out_r, out_w), (err_r, err_w), (ready_r, ready_w), (exec_r, exec_w))) =
        pipes
    else {
        return Started::NoRecorder("cannot make the engine's pipes".into());
    };
    let me = nix::unistd::getpid().as_raw();

    // SAFETY: this process has one thread (checked above), so the child starts from a
    // consistent copy of every lock and allocator state.
    #[allow(unsafe_code)]
    match unsafe { nix::unistd::fork() } {
        Err(e) => Started::NoRecorder(format!("cannot fork the recorder: {e}")),
        Ok(ForkResult::Child) => {
            drop((in_r, out_w, err_w, ready_r, exec_w));
            let engine = match super::process::EngineProcess::open(me) {
                Ok(p) => p,
                Err(_) => {
                    // Without a hold on the engine there is nothing to record it by: the
                    // parent sees EOF and runs the engine on the GUI's own pipes.
                    std::process::exit(0);
                }
            };
            let mut ready_w = ready_w;
            if ready_w.write_all(b"r").is_err() {
                std::process::exit(0);
            }
            drop(ready_w);
            Started::Recorder(RecorderSide {
                engine_in: in_w,
                engine_out: out_r,
                engine_err: err_r,
                engine,
                exec_result: exec_r,
            })
        }
        Ok(ForkResult::Parent { child }) => {
            drop((in_w, out_r, err_r, ready_w, exec_r));
            let mut ready = [0u8; 1];
            let mut ready_r = ready_r;
            let ok = loop {
                match ready_r.read(&mut ready) {
                    Ok(n) => break n == 1,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => break false,
                }
            };
            if !ok {
                let _ = nix::sys::wait::waitpid(child, None);
                drop((in_r, out_w, err_w, exec_w));
                crate::eprintln_safe!(
                    "kibitzer: warning: the recorder could not watch the engine; running the engine without recording"
                );
                run_unrecorded(argv, dir);
            }
            // Onto 0, 1 and 2, where dup2 clears close-on-exec; the originals close at exec.
            let moved = nix::unistd::dup2_stdin(&in_r)
                .and_then(|()| nix::unistd::dup2_stdout(&out_w))
                .and_then(|()| nix::unistd::dup2_stderr(&err_w));
            if let Err(e) = moved {
                fail_exec(exec_w, io::Error::from(e));
            }
            drop((in_r, out_w, err_w));
            let e = exec_engine(argv, dir);
            fail_exec(exec_w, e)
        }
    }
}

/// `exec`s the engine in this process on the streams it has; only returns (exits) on failure,
/// with a shell's status (127 not found, 126 not runnable).
pub fn run_unrecorded(argv: &[OsString], dir: Option<&Path>) -> ! {
    let e = exec_engine(argv, dir);
    let program = argv
        .first()
        .map(|p| p.to_string_lossy())
        .unwrap_or_default();
    crate::eprintln_safe!("kibitzer: cannot start engine {program}: {e}");
    std::process::exit(shell_status(&e))
}

/// 127 when the program was not found, 126 when it could not be run: as a shell says.
pub fn shell_status(e: &io::Error) -> i32 {
    if e.kind() == io::ErrorKind::NotFound {
        127
    } else {
        126
    }
}

fn fail_exec(mut to_recorder: PipeWriter, e: io::Error) -> ! {
    let code = e.raw_os_error().unwrap_or(libc::ENOEXEC);
    let _ = to_recorder.write_all(&code.to_ne_bytes());
    std::process::exit(shell_status(&e))
}

/// Replaces this process with the engine: signals as the GUI gave them to us, the working
/// directory the profile names, PATH searched and then `/usr/games`. Returns the error when
/// nothing could be run.
fn exec_engine(argv: &[OsString], dir: Option<&Path>) -> io::Error {
    let Some(program) = argv.first() else {
        return io::Error::new(io::ErrorKind::InvalidInput, "no engine command given");
    };
    if let Some(d) = dir
        && let Err(e) = std::env::set_current_dir(d)
    {
        return e;
    }
    let Ok(args) = argv
        .iter()
        .map(|a| CString::new(a.as_bytes()))
        .collect::<Result<Vec<_>, _>>()
    else {
        return io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in the command");
    };
    crate::signals::restore_inherited_sigpipe();
    let Err(e) = nix::unistd::execvp(&args[0], &args);
    let e = io::Error::from(e);
    if e.kind() != io::ErrorKind::NotFound {
        return e;
    }
    match super::proxy::games_fallback(program)
        .and_then(|p| CString::new(p.as_os_str().as_bytes()).ok())
    {
        Some(fallback) => {
            let Err(e2) = nix::unistd::execv(&fallback, &args);
            io::Error::from(e2)
        }
        None => e,
    }
}

/// Only one thread may fork; a thread started before `record` (none is, today) would leave
/// its locks held in the child forever.
fn one_thread() -> Result<(), String> {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let threads = status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse::<u32>().ok());
    match threads {
        Some(1) | None => Ok(()),
        Some(n) => Err(format!(
            "{n} threads are running, and only one may fork the recorder"
        )),
    }
}
