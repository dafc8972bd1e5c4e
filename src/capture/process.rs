//! The engine's process as the recorder sees it: from below.
//!
//! Under `kibitzer record` the engine keeps the process the GUI started (see
//! [`launch`](super::launch)), so the recorder is the engine's *child*, not its parent: it cannot
//! `waitpid` the engine. It holds a pidfd instead (Linux 5.3), which becomes readable when the
//! engine exits, sends signals without a pid-reuse race, and tells the exit status:
//! `/proc/PID/stat` has it while the engine is a zombie, and once the GUI has reaped it the
//! pidfd's `PIDFD_GET_INFO` has it (Linux 6.15). Between the two there is no window.

use nix::libc;
use nix::sys::signal::Signal;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::time::Duration;

/// The engine, held by pidfd.
pub struct EngineProcess {
    pid: i32,
    /// Its start time (clock ticks since boot): a `/proc/PID` found later is the engine's only
    /// if it matches, since the GUI may have reaped it and the pid been reused.
    start: Option<u64>,
    fd: OwnedFd,
}

impl EngineProcess {
    pub fn open(pid: i32) -> io::Result<Self> {
        // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1; it
        // touches no memory of ours.
        #[allow(unsafe_code)]
        let raw = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        if raw < 0 {
            return Err(io::Error::last_os_error());
        }
        let raw = i32::try_from(raw).map_err(|_| io::Error::other("pidfd out of range"))?;
        // SAFETY: the kernel just returned this descriptor to us and nothing else owns it.
        #[allow(unsafe_code)]
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        Ok(EngineProcess {
            pid,
            start: stat_fields(pid).and_then(|f| f.start),
            fd,
        })
    }

    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// Readable once the engine has exited, for `poll`.
    pub fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }

    /// Has the engine exited, waiting up to `wait` for it?
    pub fn exited_within(&self, wait: Duration) -> bool {
        use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
        let mut fds = [PollFd::new(self.fd.as_fd(), PollFlags::POLLIN)];
        let ms = PollTimeout::try_from(wait).unwrap_or(PollTimeout::MAX);
        loop {
            match poll(&mut fds, ms) {
                Ok(n) => return n > 0,
                Err(nix::errno::Errno::EINTR) => continue,
                Err(_) => return false,
            }
        }
    }

    /// Sends `sig` to the engine (never to a process that took its pid after it).
    pub fn signal(&self, sig: Signal) -> io::Result<()> {
        // SAFETY: pidfd_send_signal with a null siginfo and no flags reads nothing of ours.
        #[allow(unsafe_code)]
        let r = unsafe {
            libc::syscall(
                libc::SYS_pidfd_send_signal,
                self.fd.as_raw_fd(),
                sig as libc::c_int,
                std::ptr::null::<libc::siginfo_t>(),
                0,
            )
        };
        if r < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(())
        }
    }

    /// How the engine ended, once it has: `None` when neither source had it (a kernel
    /// before 6.15, and the GUI reaped the engine before its zombie could be read).
    pub fn exit_status(&self) -> Option<ExitStatus> {
        if let Some(status) = self.exit_from_pidfd() {
            return Some(status);
        }
        if let Some(f) = stat_fields(self.pid)
            && f.start == self.start
            && f.state == 'Z'
            && let Some(code) = f.exit_code
        {
            return Some(ExitStatus::from_raw(code));
        }
        // Reaped between the two reads.
        self.exit_from_pidfd()
    }

    fn exit_from_pidfd(&self) -> Option<ExitStatus> {
        let mut info = PidfdInfo {
            mask: PIDFD_INFO_EXIT,
            ..PidfdInfo::default()
        };
        // SAFETY: PIDFD_GET_INFO writes at most the size encoded in the request number, which
        // is the size of `info`.
        #[allow(unsafe_code)]
        let r = unsafe {
            libc::ioctl(
                self.fd.as_raw_fd(),
                PIDFD_GET_INFO,
                &mut info as *mut PidfdInfo,
            )
        };
        (r == 0 && info.mask & PIDFD_INFO_EXIT != 0).then(|| ExitStatus::from_raw(info.exit_code))
    }
}

/// `struct pidfd_info` as of Linux 6.15 (`PIDFD_INFO_SIZE_VER0`, 64 bytes).
#[repr(C)]
#[derive(Default)]
struct PidfdInfo {
    mask: u64,
    cgroupid: u64,
    ids: [u32; 11],
    exit_code: i32,
}

const PIDFD_INFO_EXIT: u64 = 1 << 3;
/// `_IOWR(PIDFS_IOCTL_MAGIC, 11, struct pidfd_info)`.
const PIDFD_GET_INFO: libc::Ioctl = {
    let size = std::mem::size_of::<PidfdInfo>() as u32;
    ((3u32 << 30) | (size << 16) | (0xFF << 8) | 11) as libc::Ioctl
};

/// The fields of `/proc/PID/stat` the recorder uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stat {
    pub name: String,
    pub state: char,
    pub ppid: i32,
    pub start: Option<u64>,
    /// Field 52, the wait status of a zombie (Linux 3.5).
    pub exit_code: Option<i32>,
}

pub fn stat_fields(pid: i32) -> Option<Stat> {
    parse_stat(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// `pid (comm) state ppid ...`; comm may hold spaces and parentheses.
pub fn parse_stat(stat: &str) -> Option<Stat> {
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let name = stat.get(open + 1..close)?.to_owned();
    let rest: Vec<&str> = stat.get(close + 1..)?.split_ascii_whitespace().collect();
    // `rest[0]` is field 3.
    let field = |n: usize| rest.get(n - 3).copied();
    Some(Stat {
        name,
        state: field(3)?.chars().next()?,
        ppid: field(4)?.parse().ok()?,
        start: field(22).and_then(|s| s.parse().ok()),
        exit_code: field(52).and_then(|s| s.parse().ok()),
    })
}

/// A process the engine started, as last seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Descendant {
    pub pid: i32,
    pub start: u64,
    pub name: String,
}

impl Descendant {
    /// Still the same process, and not a zombie?
    pub fn alive(&self) -> bool {
        stat_fields(self.pid).is_some_and(|s| s.start == Some(self.start) && s.state != 'Z')
    }
}

/// Every process below `root` (children, their children, ...), found through
/// `/proc/PID/task/TID/children`, `skip` and its own descendants left out.
pub fn descendants(root: i32, skip: i32) -> Vec<Descendant> {
    let mut found = Vec::new();
    let mut todo = vec![root];
    while let Some(parent) = todo.pop() {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{parent}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            let Ok(list) = std::fs::read_to_string(task.path().join("children")) else {
                continue;
            };
            for pid in list.split_ascii_whitespace().filter_map(|p| p.parse().ok()) {
                if pid == skip || found.iter().any(|d: &Descendant| d.pid == pid) {
                    continue;
                }
                if let Some(s) = stat_fields(pid)
                    && let Some(start) = s.start
                {
                    found.push(Descendant {
                        pid,
                        start,
                        name: s.name,
                    });
                    todo.push(pid);
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_with_odd_names_parse() {
        let line = "42 (a (b) c) Z 7 40 40 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 999 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 139";
        let s = parse_stat(line).unwrap();
        assert_eq!(s.name, "a (b) c");
        assert_eq!(s.state, 'Z');
        assert_eq!(s.ppid, 7);
        assert_eq!(s.start, Some(999));
        assert_eq!(s.exit_code, Some(139));
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn the_info_request_is_the_kernels() {
        assert_eq!(std::mem::size_of::<PidfdInfo>(), 64);
        assert_eq!(PIDFD_GET_INFO, 0xC040_FF0B);
    }

    #[test]
    fn a_child_is_found_and_its_exit_status_read() {
        let mut child = std::process::Command::new("sh")
            .args(["-c", "sleep 5 & wait"])
            .spawn()
            .unwrap();
        let pid = i32::try_from(child.id()).unwrap();
        let p = EngineProcess::open(pid).unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let mut kids = descendants(pid, -1);
        while kids.is_empty() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
            kids = descendants(pid, -1);
        }
        assert_eq!(kids.len(), 1, "{kids:?}");
        assert!(kids[0].alive());
        assert!(!p.exited_within(Duration::ZERO));
        p.signal(Signal::SIGSEGV).unwrap();
        assert!(p.exited_within(Duration::from_secs(10)));
        assert_eq!(p.exit_status().and_then(|s| s.signal()), Some(11));
        let _ = child.wait();
        assert_eq!(p.exit_status().and_then(|s| s.signal()), Some(11));
        let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(kids[0].pid), Signal::SIGKILL);
    }
}
