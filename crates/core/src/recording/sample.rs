//! What the proxy saw of the engine's processes at one moment: the facts a hang's class is
//! decided from (see `rules::forensics`). Counters are cumulative since each process started,
//! so two samples give what happened between them.
//!
//! In the file a sample is a `note` event carrying a `sample` object: a reader that predates
//! samples reads a note it shows or ignores, never an unreadable line.
use serde::{Deserialize, Serialize};

/// One look at the engine's process tree (the engine and every process it started, with all
/// their threads) and at the machine.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ProcSample {
    /// Processes in the tree.
    pub procs: u32,
    /// Threads in the tree.
    pub threads: u32,
    /// CPU time the tree has used, user and system, in milliseconds.
    pub user_ms: u64,
    pub sys_ms: u64,
    /// Time the tree's threads were ready to run but waited for a CPU, in milliseconds
    /// (`/proc/PID/task/TID/schedstat`); absent where the kernel does not keep it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_delay_ms: Option<u64>,
    /// The threads by scheduler state.
    pub states: ThreadStates,
    /// What the sleeping threads wait in (`wchan`), the most common first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waits: Vec<WaitCount>,
    /// Sleeping threads inside a read of the engine's standard input (their `syscall` is a
    /// read of fd 0); absent where `syscall` is not readable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading_input: Option<u32>,
    /// Context switches of the tree so far: voluntary (the thread slept) and involuntary (the
    /// scheduler took the CPU away).
    pub ctx_voluntary: u64,
    pub ctx_involuntary: u64,
    /// Resident memory of the tree, KiB.
    pub rss_kib: u64,
    /// Major page faults of the tree so far (pages read from disk or swap).
    pub major_faults: u64,
    /// The machine: load average over one minute and the CPUs this process may run on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load1: Option<f64>,
    pub cpus: u32,
    /// A capture (an answer overdue): each thread in detail, and the output of the user's
    /// `--on-hang` command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capture: Option<Capture>,
}

/// Threads by state (`/proc/PID/task/TID/stat`).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct ThreadStates {
    /// R: running or ready to run.
    pub running: u32,
    /// S: asleep, waiting for something (input, a lock, a timer).
    pub sleeping: u32,
    /// D: in uninterruptible sleep, most often disk or swap I/O.
    pub disk: u32,
    /// T or t: stopped by a signal (SIGSTOP, SIGTSTP) or by a debugger.
    pub stopped: u32,
    /// Z: exited, not yet reaped.
    pub zombie: u32,
    /// Any other state (I idle, X dead, P parked).
    pub other: u32,
}

impl ThreadStates {
    pub fn total(&self) -> u32 {
        self.running + self.sleeping + self.disk + self.stopped + self.zombie + self.other
    }

    /// Threads that are not zombies.
    pub fn live(&self) -> u32 {
        self.total() - self.zombie
    }

    /// Counts a thread in the state its `stat` line gives.
    pub fn count(&mut self, state: char) {
        match state {
            'R' => self.running += 1,
            'S' => self.sleeping += 1,
            'D' => self.disk += 1,
            'T' | 't' => self.stopped += 1,
            'Z' => self.zombie += 1,
            _ => self.other += 1,
        }
    }
}

/// Sleeping threads waiting in one kernel function.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct WaitCount {
    pub wchan: String,
    pub threads: u32,
}

/// What a capture adds to a sample.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Capture {
    /// Why it was taken ("the engine has been silent for 5.0 s since the GUI's `go ...`").
    pub reason: String,
    pub threads: Vec<ThreadDetail>,
    /// The `--on-hang` command, its exit status and what it printed (stdout and stderr, cut
    /// at 256 KiB).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command_status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command_output: Option<String>,
}

/// One thread at a capture.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ThreadDetail {
    pub pid: u32,
    pub tid: u32,
    /// The thread's name (`comm`).
    pub name: String,
    pub state: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wchan: Option<String>,
    /// The system call it is in, by name where known, with its first argument
    /// (`read(fd 0)`); `running` when on a CPU.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub syscall: Option<String>,
    /// The kernel stack, one frame a line, where readable (`/proc/.../stack` needs root).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel_stack: Option<String>,
}

impl ProcSample {
    /// CPU time used so far, ms.
    pub fn cpu_ms(&self) -> u64 {
        self.user_ms + self.sys_ms
    }

    /// One line: `cpu 1.82 s (waited 0.01 s) · threads R1 S1 · 133 MiB · 1 in anon_pipe_read ·
    /// 1 reading its input · load 1.6/2`.
    pub fn summary(&self) -> String {
        let st = &self.states;
        let mut states = String::new();
        for (letter, n) in [
            ("R", st.running),
            ("S", st.sleeping),
            ("D", st.disk),
            ("T", st.stopped),
            ("Z", st.zombie),
            ("?", st.other),
        ] {
            if n > 0 {
                states.push_str(&format!("{letter}{n} "));
            }
        }
        let mut out = format!("cpu {:.2} s", self.cpu_ms() as f64 / 1e3);
        if let Some(d) = self.run_delay_ms {
            out.push_str(&format!(" (waited {:.2} s)", d as f64 / 1e3));
        }
        out.push_str(&format!(
            " · {} proc(s), threads {} · {} MiB",
            self.procs,
            states.trim_end(),
            self.rss_kib / 1024
        ));
        for w in self.waits.iter().take(3) {
            out.push_str(&format!(" · {} in {}", w.threads, w.wchan));
        }
        if let Some(r) = self.reading_input.filter(|r| *r > 0) {
            out.push_str(&format!(" · {r} reading its input"));
        }
        if let Some(l) = self.load1 {
            out.push_str(&format!(" · load {l:.1}/{}", self.cpus));
        }
        out
    }
}

impl ThreadDetail {
    /// `pid 12 tid 13 (Stockfish) S in anon_pipe_read, read(fd 0)`.
    pub fn summary(&self) -> String {
        let mut out = format!("tid {} ({}) {}", self.tid, self.name, self.state);
        if let Some(w) = &self.wchan {
            out.push_str(&format!(" in {w}"));
        }
        if let Some(c) = &self.syscall {
            out.push_str(&format!(", {c}"));
        }
        out
    }
}
