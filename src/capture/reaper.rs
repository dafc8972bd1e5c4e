//! Nothing the engine starts outlives `replay` (and `probe`), which run engines themselves.
//!
//! Engines are often started through a wrapper (`sh -c`, `wine engine.exe`, PolyGlot), so the
//! process the proxy spawned is not the only one to stop. Three mechanisms cover the cases:
//! - the engine runs in its own process group, and every kill the proxy makes is sent to the
//!   whole group;
//! - the proxy is a child subreaper (`PR_SET_CHILD_SUBREAPER`): a grandchild whose parent died
//!   becomes the proxy's child instead of init's, so it is found and killed at the end even if
//!   it left the group;
//! - a guard process (`kibitzer __guard PGID`, not in the data path) holds the read end of a
//!   pipe whose write end only the proxy has. If the proxy dies without saying goodbye
//!   (SIGKILL), the kernel closes the pipe and the guard kills the engine's group. The engine
//!   itself also gets SIGKILL from `PR_SET_PDEATHSIG`.

use super::recorder::Recorder;
use crate::recording::ProxyKind;
use nix::sys::signal::{Signal, kill, killpg};
use nix::sys::wait::{WaitPidFlag, waitpid};
use nix::unistd::Pid;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long leftovers get after SIGTERM before SIGKILL.
const SWEEP_GRACE: Duration = Duration::from_millis(500);

/// The processes this kibitzer started itself (engines, guards): children of ours, but no
/// start's leftovers. Several engines may run side by side (protocol detection, `shrink`'s
/// tries): one start's sweep must neither kill another's engine nor reap it from under the
/// thread that waits for it.
static STARTED: std::sync::Mutex<Vec<i32>> = std::sync::Mutex::new(Vec::new());

fn started() -> std::sync::MutexGuard<'static, Vec<i32>> {
    STARTED.lock().unwrap_or_else(|p| p.into_inner())
}

/// `pid` is a process of ours, waited for by whoever started it.
pub fn own(pid: i32) {
    started().push(pid);
}

/// `pid` is waited for (or may be reaped by a sweep from now on).
pub fn disown(pid: i32) {
    started().retain(|p| *p != pid);
}

/// Orphaned descendants of the engine become our children (Linux only; elsewhere a no-op).
pub fn become_subreaper() {
    #[cfg(target_os = "linux")]
    if let Err(e) = nix::sys::prctl::set_child_subreaper(true) {
        crate::eprintln_safe!("kibitzer: warning: cannot become a child subreaper: {e}");
    }
}

/// The proxy's side of the guard process.
pub struct Guard {
    pipe: Option<std::io::PipeWriter>,
    pid: i32,
}

impl Guard {
    /// Starts the guard for the engine's process group; `None` (after a warning) when it
    /// cannot be started: the proxy then still kills the group itself on any normal exit.
    pub fn spawn(pgid: u32) -> Option<Guard> {
        let spawned = std::io::pipe().and_then(|(reader, writer)| {
            let mut cmd = Command::new(guard_program());
            cmd.arg("__guard")
                .arg(pgid.to_string())
                .stdin(reader)
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            // Its own group: a Ctrl-C or a GUI killing the proxy's group must not take the
            // guard down before it did its job.
            std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
            cmd.spawn().map(|child| (writer, child.id()))
        });
        match spawned {
            Ok((writer, pid)) => {
                let pid = i32::try_from(pid).unwrap_or(i32::MAX);
                own(pid);
                Some(Guard {
                    pipe: Some(writer),
                    pid,
                })
            }
            Err(e) => {
                crate::eprintln_safe!(
                    "kibitzer: warning: cannot start the guard process ({e}); if the proxy is SIGKILLed, processes the engine started may survive it"
                );
                None
            }
        }
    }

    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// The proxy cleaned up itself: the guard exits without killing anything (and is reaped
    /// by a later sweep).
    pub fn release(mut self) {
        if let Some(mut p) = self.pipe.take() {
            let _ = p.write_all(b"done");
        }
        disown(self.pid);
    }
}

fn guard_program() -> std::path::PathBuf {
    // /proc/self/exe still works when the binary was replaced on disk while running.
    let proc_exe = std::path::PathBuf::from("/proc/self/exe");
    if proc_exe.exists() {
        return proc_exe;
    }
    std::env::current_exe().unwrap_or_else(|_| "kibitzer".into())
}

/// `kibitzer __guard PGID`: waits for the proxy to go away; kills the group unless the proxy
/// said it was done.
pub fn guard_main(pgid: i32) -> i32 {
    crate::signals::ignore(&crate::signals::TERMINATING);
    // Processes that left the engine's group (`setsid`, a daemonising wrapper) escape a
    // group kill: every descendant of the proxy is noted as it appears, with its start time
    // (a pid may be reused), and killed one by one if the proxy dies.
    let proxy = nix::unistd::getppid().as_raw();
    let seen: std::sync::Arc<std::sync::Mutex<Vec<(i32, u64)>>> = Default::default();
    {
        let seen = seen.clone();
        std::thread::spawn(move || {
            loop {
                let found = descendants(proxy);
                if let Ok(mut s) = seen.lock() {
                    for d in found {
                        if !s.contains(&d) {
                            s.push(d);
                        }
                    }
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        });
    }
    let mut buf = [0u8; 16];
    let mut stdin = std::io::stdin().lock();
    let released = loop {
        match stdin.read(&mut buf) {
            Ok(0) => break false,
            Ok(_) => break true,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break false,
        }
    };
    if !released {
        if pgid > 1 {
            let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
        }
        let noted = seen.lock().map(|s| s.clone()).unwrap_or_default();
        for (pid, start) in noted {
            if start_time(pid) == Some(start) {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
        }
    }
    0
}

/// Every process descended from `root` (children, their children...), with its start time;
/// the calling process excluded.
fn descendants(root: i32) -> Vec<(i32, u64)> {
    let me = std::process::id() as i32;
    let procs: Vec<(i32, i32, u64)> = processes()
        .filter_map(|(pid, stat)| {
            let (_, _, ppid, _) = parse_stat(&stat)?;
            Some((pid, ppid, stat_start(&stat)?))
        })
        .collect();
    let mut found = Vec::new();
    let mut parents = vec![root];
    while let Some(parent) = parents.pop() {
        for &(pid, ppid, start) in &procs {
            if ppid == parent && pid != me && !found.iter().any(|&(p, _)| p == pid) {
                found.push((pid, start));
                parents.push(pid);
            }
        }
    }
    found
}

/// The start time (clock ticks since boot) of `pid`, if it is alive.
fn start_time(pid: i32) -> Option<u64> {
    stat_start(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// Every process on the machine with its /proc/PID/stat line (those gone meanwhile skipped).
fn processes() -> impl Iterator<Item = (i32, String)> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse::<i32>().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            Some((pid, stat))
        })
}

/// Field 22 of /proc/PID/stat, `starttime`.
fn stat_start(stat: &str) -> Option<u64> {
    let close = stat.rfind(')')?;
    stat.get(close + 1..)?
        .split_ascii_whitespace()
        .nth(19)?
        .parse()
        .ok()
}

/// A process found at the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leftover {
    pub pid: i32,
    pub name: String,
}

/// Processes still in the engine's group, and children of ours (orphans reparented to the
/// subreaper) other than `except`.
pub fn leftovers(pgid: i32, except: &[i32]) -> Vec<Leftover> {
    let me = std::process::id() as i32;
    let mut found = Vec::new();
    let started = started().clone();
    for (pid, stat) in processes() {
        if pid == me || except.contains(&pid) || started.contains(&pid) {
            continue;
        }
        if let Some((name, state, ppid, pgrp)) = parse_stat(&stat)
            && state != 'Z'
            && (pgrp == pgid || ppid == me)
        {
            found.push(Leftover { pid, name });
        }
    }
    found.sort_by_key(|l| l.pid);
    found
}

/// `pid (comm) state ppid pgrp ...`; comm may hold spaces and parentheses.
fn parse_stat(stat: &str) -> Option<(String, char, i32, i32)> {
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let name = stat.get(open + 1..close)?.to_owned();
    let mut rest = stat.get(close + 1..)?.split_ascii_whitespace();
    let state = rest.next()?.chars().next()?;
    let ppid = rest.next()?.parse().ok()?;
    let pgrp = rest.next()?.parse().ok()?;
    Some((name, state, ppid, pgrp))
}

/// Ends whatever the engine left running (SIGTERM to its group and to each leftover, SIGKILL
/// after a short grace), records each process killed, and reaps our orphaned children.
pub fn sweep(recorder: &Recorder, pgid: u32, except: &[i32]) {
    let pgid = i32::try_from(pgid).unwrap_or(i32::MAX);
    let mut first = leftovers(pgid, except);
    if !first.is_empty() {
        // Processes killed with the engine's group a moment ago may still be on their way
        // out: let them finish before calling anything a leftover.
        std::thread::sleep(Duration::from_millis(30));
        reap();
        first = leftovers(pgid, except);
    }
    if first.is_empty() {
        reap();
        return;
    }
    let names = |ls: &[Leftover]| {
        ls.iter()
            .map(|l| format!("{} [pid {}]", l.name, l.pid))
            .collect::<Vec<_>>()
            .join(", ")
    };
    signal_all(pgid, &first, Signal::SIGTERM);
    recorder.proxy_event(
        ProxyKind::LeftoverKilled,
        &format!(
            "still running after the engine exited: {}; sent SIGTERM",
            names(&first)
        ),
        |e| e.signal = Some("SIGTERM".into()),
    );
    let deadline = Instant::now() + SWEEP_GRACE;
    let mut rest = first;
    while Instant::now() < deadline {
        reap();
        rest = leftovers(pgid, except);
        if rest.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    if !rest.is_empty() {
        signal_all(pgid, &rest, Signal::SIGKILL);
        super::leftovers::record_sigkill(recorder, SWEEP_GRACE, &names(&rest));
        std::thread::sleep(Duration::from_millis(20));
    }
    reap();
}

fn signal_all(pgid: i32, procs: &[Leftover], sig: Signal) {
    if pgid > 1 {
        let _ = killpg(Pid::from_raw(pgid), sig);
    }
    for l in procs {
        let _ = kill(Pid::from_raw(l.pid), sig);
    }
}

/// Collects exited children (orphans the subreaper adopted, released guards), so none stays
/// a zombie; never a process another start waits for ([`own`]).
fn reap() {
    let me = std::process::id() as i32;
    let started = started().clone();
    for (pid, stat) in processes() {
        if let Some((_, 'Z', ppid, _)) = parse_stat(&stat)
            && ppid == me
            && !started.contains(&pid)
        {
            let _ = waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_with_odd_names_parse() {
        assert_eq!(
            parse_stat("42 (sleep) S 7 40 40 0"),
            Some(("sleep".into(), 'S', 7, 40))
        );
        assert_eq!(
            parse_stat("43 (a (b) c) R 1 43 43"),
            Some(("a (b) c".into(), 'R', 1, 43))
        );
        assert_eq!(parse_stat("garbage"), None);
    }
}
