//! Reading the engine's process tree from `/proc`: one [`ProcSample`], and a capture's detail
//! of each thread. Nothing here stops or attaches to the engine: every file read is one the
//! kernel fills without pausing the process.

use super::process::descendants;
use crate::recording::{ProcSample, ThreadDetail, WaitCount};
use std::collections::BTreeMap;
use std::fs;

/// The engine's process tree (the engine and what it started, `skip` and its own children
/// left out: the recorder is the engine's child), with every thread; `None` once the engine
/// is gone.
pub fn sample(engine: i32, skip: i32, detail: bool) -> Option<(ProcSample, Vec<ThreadDetail>)> {
    let mut pids = vec![engine];
    pids.extend(descendants(engine, skip).into_iter().map(|d| d.pid));
    let mut s = ProcSample {
        cpus: cpus(),
        load1: load1(),
        ..ProcSample::default()
    };
    let mut waits: BTreeMap<String, u32> = BTreeMap::new();
    let mut delay_ns: Option<u64> = None;
    let mut reading: Option<u32> = None;
    let mut threads = Vec::new();
    let mut seen_engine = false;
    for pid in pids {
        let Some(stat) = read(&format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some(f) = fields(&stat) else {
            continue;
        };
        seen_engine |= pid == engine;
        s.procs += 1;
        // Fields 14, 15 (utime, stime) in clock ticks, 12 major faults.
        s.user_ms += ticks_ms(f.num(14));
        s.sys_ms += ticks_ms(f.num(15));
        s.major_faults += f.num(12);
        if let Some(status) = read(&format!("/proc/{pid}/status")) {
            s.rss_kib += status_num(&status, "VmRSS:");
        }
        let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            let Some(tid) = task
                .file_name()
                .to_str()
                .and_then(|t| t.parse::<u32>().ok())
            else {
                continue;
            };
            let dir = format!("/proc/{pid}/task/{tid}");
            let Some(tstat) = read(&format!("{dir}/stat")) else {
                continue;
            };
            let Some(tf) = fields(&tstat) else {
                continue;
            };
            s.threads += 1;
            s.states.count(tf.state);
            if let Some(d) = read(&format!("{dir}/schedstat")).and_then(|x| run_delay_ns(&x)) {
                *delay_ns.get_or_insert(0) += d;
            }
            if let Some(status) = read(&format!("{dir}/status")) {
                s.ctx_voluntary += status_num(&status, "voluntary_ctxt_switches:");
                s.ctx_involuntary += status_num(&status, "nonvoluntary_ctxt_switches:");
            }
            let asleep = matches!(tf.state, 'S' | 'D');
            let wchan = asleep
                .then(|| read(&format!("{dir}/wchan")))
                .flatten()
                .map(|w| w.trim().to_owned())
                .filter(|w| !w.is_empty() && w != "0");
            if let Some(w) = &wchan {
                *waits.entry(w.clone()).or_default() += 1;
            }
            let syscall = asleep.then(|| read(&format!("{dir}/syscall"))).flatten();
            if let Some(sc) = &syscall {
                let r = reading.get_or_insert(0);
                if reads_stdin(sc) {
                    *r += 1;
                }
            }
            if detail {
                threads.push(ThreadDetail {
                    pid: u32::try_from(pid).unwrap_or(0),
                    tid,
                    name: tf.name.to_owned(),
                    state: tf.state.to_string(),
                    wchan,
                    syscall: if tf.state == 'R' {
                        Some("running".to_owned())
                    } else {
                        syscall.as_deref().map(describe_syscall)
                    },
                    kernel_stack: read(&format!("{dir}/stack"))
                        .map(|k| k.trim_end().to_owned())
                        .filter(|k| !k.is_empty()),
                });
            }
        }
    }
    if !seen_engine {
        return None;
    }
    s.run_delay_ms = delay_ns.map(|d| d / 1_000_000);
    s.reading_input = reading;
    let mut w: Vec<WaitCount> = waits
        .into_iter()
        .map(|(wchan, threads)| WaitCount { wchan, threads })
        .collect();
    w.sort_by(|a, b| b.threads.cmp(&a.threads).then(a.wchan.cmp(&b.wchan)));
    w.truncate(8);
    s.waits = w;
    Some((s, threads))
}

/// Whether `/proc` can be read for `pid` (Linux): otherwise no samples are taken.
pub fn available(pid: i32) -> bool {
    read(&format!("/proc/{pid}/stat")).is_some()
}

fn read(path: &str) -> Option<String> {
    fs::read_to_string(path).ok()
}

/// A `stat` line split after its `(comm)`.
struct StatFields<'a> {
    name: &'a str,
    state: char,
    rest: Vec<&'a str>,
}

impl StatFields<'_> {
    /// Field `n` (1-based, as proc(5) numbers them) as a number, 0 when absent.
    fn num(&self, n: usize) -> u64 {
        self.rest
            .get(n.wrapping_sub(3))
            .and_then(|v| v.parse::<i64>().ok())
            .map_or(0, |v| u64::try_from(v).unwrap_or(0))
    }
}

fn fields(stat: &str) -> Option<StatFields<'_>> {
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let rest: Vec<&str> = stat.get(close + 1..)?.split_ascii_whitespace().collect();
    Some(StatFields {
        name: stat.get(open + 1..close)?,
        state: rest.first()?.chars().next()?,
        rest,
    })
}

/// `stat`'s times are in USER_HZ ticks, 100 a second on every Linux architecture (the
/// kernel converts to that unit for user space whatever its own HZ).
fn ticks_ms(ticks: u64) -> u64 {
    ticks.saturating_mul(10)
}

/// `schedstat`: time on the CPU, time waiting on a run queue (both ns), timeslices.
fn run_delay_ns(schedstat: &str) -> Option<u64> {
    schedstat.split_ascii_whitespace().nth(1)?.parse().ok()
}

/// A number of `status` (`VmRSS:   1624 kB` gives 1624).
fn status_num(status: &str, key: &str) -> u64 {
    status
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.split_ascii_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// The CPUs this process may run on (affinity and cgroup quota).
fn cpus() -> u32 {
    std::thread::available_parallelism()
        .map(|n| u32::try_from(n.get()).unwrap_or(u32::MAX))
        .unwrap_or(1)
}

fn load1() -> Option<f64> {
    read("/proc/loadavg")?
        .split_ascii_whitespace()
        .next()?
        .parse()
        .ok()
}

/// System call numbers of this architecture, for the calls a silent engine sits in.
#[cfg(target_arch = "x86_64")]
const SYSCALLS: &[(u64, &str)] = &[
    (0, "read"),
    (1, "write"),
    (7, "poll"),
    (17, "pread64"),
    (19, "readv"),
    (23, "select"),
    (35, "nanosleep"),
    (61, "wait4"),
    (202, "futex"),
    (230, "clock_nanosleep"),
    (232, "epoll_wait"),
    (270, "pselect6"),
    (271, "ppoll"),
    (281, "epoll_pwait"),
];
#[cfg(target_arch = "aarch64")]
const SYSCALLS: &[(u64, &str)] = &[
    (22, "epoll_pwait"),
    (63, "read"),
    (64, "write"),
    (65, "readv"),
    (67, "pread64"),
    (72, "pselect6"),
    (73, "ppoll"),
    (98, "futex"),
    (101, "nanosleep"),
    (115, "clock_nanosleep"),
    (260, "wait4"),
];
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const SYSCALLS: &[(u64, &str)] = &[];

/// `syscall`: the number and the arguments in hex, or `running`, or `-1 ...` outside one.
fn call(syscall: &str) -> Option<(u64, u64)> {
    let mut f = syscall.split_ascii_whitespace();
    let nr = f.next()?.parse().ok()?;
    let arg0 = u64::from_str_radix(f.next()?.trim_start_matches("0x"), 16).ok()?;
    Some((nr, arg0))
}

fn name_of(nr: u64) -> Option<&'static str> {
    SYSCALLS
        .iter()
        .find(|(n, _)| *n == nr)
        .map(|(_, name)| *name)
}

/// In a read of fd 0, the engine's standard input.
fn reads_stdin(syscall: &str) -> bool {
    call(syscall).is_some_and(|(nr, fd)| {
        fd == 0 && matches!(name_of(nr), Some("read" | "readv" | "pread64"))
    })
}

fn describe_syscall(syscall: &str) -> String {
    match call(syscall) {
        Some((nr, arg0)) => match name_of(nr) {
            Some(n @ ("read" | "readv" | "pread64" | "write")) => format!("{n}(fd {arg0})"),
            Some(n) => n.to_owned(),
            None => format!("syscall {nr}"),
        },
        None => syscall.trim().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_asleep_in_a_read_of_its_input_is_found() {
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let pid = i32::try_from(child.id()).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(200));
        let (s, threads) = sample(pid, -1, true).unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
        assert_eq!(s.procs, 1);
        assert_eq!(s.threads, 1);
        assert_eq!(s.states.sleeping, 1, "{s:?}");
        // `sleep` sleeps in a timer, not in a read of its input.
        assert_eq!(s.reading_input, Some(0), "{s:?}");
        assert!(s.rss_kib > 0);
        assert_eq!(threads.len(), 1);
        assert!(
            threads[0]
                .syscall
                .as_deref()
                .is_some_and(|c| c.contains("sleep")),
            "{threads:?}"
        );
        let mut cat = std::process::Command::new("cat")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let pid = i32::try_from(cat.id()).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(200));
        let (s, _) = sample(pid, -1, false).unwrap();
        cat.kill().unwrap();
        cat.wait().unwrap();
        assert_eq!(s.reading_input, Some(1), "{s:?}");
        assert!(sample(pid, -1, false).is_none(), "gone");
    }

    #[test]
    fn syscalls_are_named() {
        #[cfg(target_arch = "x86_64")]
        {
            assert!(reads_stdin("0 0x0 0x7ff 0x20000 0x0 0x0 0x0 0x7ffd 0x7ff9"));
            assert!(!reads_stdin(
                "0 0x3 0x7ff 0x20000 0x0 0x0 0x0 0x7ffd 0x7ff9"
            ));
            assert_eq!(describe_syscall("202 0x55 0x80 0x0 0 0 0 0 0"), "futex");
        }
        assert!(!reads_stdin("running"));
        assert_eq!(describe_syscall("running"), "running");
    }
}
