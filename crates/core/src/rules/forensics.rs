//! Why an engine was silent, from the proxy's samples of its processes: the class a hang's
//! verdict names (`STARVED`, `WAITING`, `ASLEEP`, `SPINNING`, `STOPPED`, `BLOCKED`) and the
//! numbers it was decided from. Traffic alone cannot tell these apart; the samples can.
use crate::recording::{ProcSample, ThreadStates, WaitCount};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What the engine's process was doing while an answer was owed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ProcessState {
    /// Ready to run but waiting for a CPU most of the time: the host is overloaded (another
    /// program, or a runner's concurrency above the cores), not the engine at fault.
    Starved,
    /// Every thread asleep, at least one in a read of its input: the engine read all the GUI
    /// sent and waits for more. Both sides wait: the engine lost or ignored the request.
    Waiting,
    /// Every thread asleep, none reading its input: it waits on itself (a lock, a timer, a
    /// child process): an internal deadlock.
    Asleep,
    /// On the CPU without a line of output: a runaway search or an endless loop.
    Spinning,
    /// Stopped by a signal (SIGSTOP, SIGTSTP) or a debugger: whoever stopped it.
    Stopped,
    /// In uninterruptible sleep (disk or swap) or faulting pages in from disk.
    Blocked,
    /// The samples do not decide.
    Undecided,
}

impl ProcessState {
    pub fn as_str(self) -> &'static str {
        match self {
            ProcessState::Starved => "STARVED",
            ProcessState::Waiting => "WAITING",
            ProcessState::Asleep => "ASLEEP",
            ProcessState::Spinning => "SPINNING",
            ProcessState::Stopped => "STOPPED",
            ProcessState::Blocked => "BLOCKED",
            ProcessState::Undecided => "UNDECIDED",
        }
    }
}

/// The class and the numbers behind it, over one window (the time an answer was owed with
/// the engine silent).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ProcessVerdict {
    pub state: ProcessState,
    /// The window's length in ns, and the samples in it.
    pub window_ns: u64,
    pub samples: u32,
    /// CPU time the engine used over the window, as a share of the window (1.0 = one CPU busy
    /// all the time; more with several threads).
    pub cpu_share: f64,
    /// Time its threads waited for a CPU, as a share of the window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_delay_share: Option<f64>,
    /// The machine at the window's last sample.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load1: Option<f64>,
    pub cpus: u32,
    /// The threads at the window's last sample.
    pub threads: ThreadStates,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waits: Vec<WaitCount>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading_input: Option<u32>,
    pub major_faults_per_s: f64,
    pub rss_kib: u64,
    /// One sentence with the numbers: "SPINNING: on the CPU 98% of the last 4.2 s ...".
    pub detail: String,
}

/// What one session's engine used over the whole input, from its samples: what a report adds
/// up per engine (peak memory, its growth across games, time starved).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProcessUsage {
    pub samples: u64,
    pub peak_rss_kib: u64,
    /// (time ns, resident KiB) of every sample.
    pub rss: Vec<(u64, u64)>,
    /// CPU time and run-queue wait over the session, ms (a restarted engine's counters start
    /// again: only growth is added).
    pub cpu_ms: u64,
    pub run_delay_ms: u64,
    last: Option<(u64, u64)>,
}

impl ProcessUsage {
    /// Keeps the resident-memory points a report needs, not every sample of a long session.
    const RSS_POINTS: usize = 100_000;

    pub fn add(&mut self, t: u64, s: &ProcSample) {
        self.samples += 1;
        self.peak_rss_kib = self.peak_rss_kib.max(s.rss_kib);
        if self.rss.len() < Self::RSS_POINTS {
            self.rss.push((t, s.rss_kib));
        }
        let now = (s.cpu_ms(), s.run_delay_ms.unwrap_or(0));
        if let Some((cpu, delay)) = self.last {
            self.cpu_ms += now.0.saturating_sub(cpu);
            self.run_delay_ms += now.1.saturating_sub(delay);
        }
        self.last = Some(now);
    }

    /// Resident memory at the end of each game that starts at `starts` (ns, in order): the
    /// last sample before the next game's start, the last of all for the last game.
    pub fn rss_at_game_ends(&self, starts: &[u64]) -> Vec<u64> {
        let mut out = Vec::new();
        for (k, _) in starts.iter().enumerate() {
            let end = starts.get(k + 1).copied().unwrap_or(u64::MAX);
            let begin = starts[k];
            if let Some((_, rss)) = self.rss.iter().rev().find(|(t, _)| *t < end && *t >= begin) {
                out.push(*rss);
            }
        }
        out
    }
}

/// Below this a window says nothing: a sample's counters tick in 10 ms steps.
const MIN_WINDOW_NS: u64 = 400_000_000;
/// A thread that got no more than this share of a CPU did not run.
const IDLE_SHARE: f64 = 0.1;
/// A process that ran or waited to run at least this share of the window was busy: on a
/// loaded machine a spinning engine waits for a CPU part of the time it wants one.
const BUSY_SHARE: f64 = 0.5;
/// Waiting for a CPU at least this share of the window, and running no more than
/// [`STARVED_RAN`] of the time it wanted a CPU: starved. A busy engine on a shared machine
/// waits too, but gets a fair share (a third with two others on its core); a starved one
/// gets crumbs.
const STARVED_SHARE: f64 = 0.5;
const STARVED_RAN: f64 = 0.25;
/// Major faults per second that make a process I/O-bound.
const FAULTS_PER_S: f64 = 50.0;

/// The class of `samples` (by time, ns) over `from..=to`: the last sample at or before
/// `from` (or the first after it) against the last at or before `to`. `None` when fewer than
/// two samples span at least 0.4 s of the window.
pub fn classify(samples: &[(u64, &ProcSample)], from: u64, to: u64) -> Option<ProcessVerdict> {
    let w = Window::of(samples, from, to)?;
    let (a, b) = (w.base, w.last);
    let share = |ms_a: u64, ms_b: u64| ms_b.saturating_sub(ms_a) as f64 / 1e3 / w.secs;
    let cpu_share = share(a.cpu_ms(), b.cpu_ms());
    let run_delay_share = match (a.run_delay_ms, b.run_delay_ms) {
        (Some(x), Some(y)) => Some(share(x, y)),
        _ => None,
    };
    let major_faults_per_s = b.major_faults.saturating_sub(a.major_faults) as f64 / w.secs;
    let (state, detail) = w.state(
        cpu_share,
        run_delay_share.unwrap_or(0.0),
        major_faults_per_s,
    );
    Some(ProcessVerdict {
        state,
        window_ns: w.ns,
        samples: u32::try_from(w.inside.len()).unwrap_or(u32::MAX),
        cpu_share,
        run_delay_share,
        load1: b.load1,
        cpus: b.cpus,
        threads: b.states,
        waits: b.waits.clone(),
        reading_input: b.reading_input,
        major_faults_per_s,
        rss_kib: b.rss_kib,
        detail: format!("{}: {detail}", state.as_str()),
    })
}

/// The samples a verdict reads: those inside the window, and the two it compares.
struct Window<'s> {
    inside: Vec<&'s (u64, &'s ProcSample)>,
    base: &'s ProcSample,
    last: &'s ProcSample,
    ns: u64,
    secs: f64,
}

impl<'s> Window<'s> {
    fn of(samples: &'s [(u64, &'s ProcSample)], from: u64, to: u64) -> Option<Window<'s>> {
        let inside: Vec<&(u64, &ProcSample)> = samples
            .iter()
            .filter(|(t, _)| *t > from && *t <= to)
            .collect();
        let base = samples
            .iter()
            .rfind(|(t, _)| *t <= from)
            .or_else(|| inside.first().copied())?;
        let last = *inside.last()?;
        let ns = last.0.saturating_sub(base.0);
        if ns < MIN_WINDOW_NS {
            return None;
        }
        Some(Window {
            base: base.1,
            last: last.1,
            ns,
            secs: ns as f64 / 1e9,
            inside,
        })
    }

    /// At least half the samples inside the window say `f`.
    fn mostly(&self, f: impl Fn(&ProcSample) -> bool) -> bool {
        let k = self.inside.iter().filter(|(_, s)| f(s)).count();
        2 * k >= self.inside.len()
    }

    /// What the process did over the window, from the shares of it spent on and waiting for
    /// a CPU, and its major faults: its state and a sentence saying why.
    fn state(&self, cpu_share: f64, delay: f64, major_faults_per_s: f64) -> (ProcessState, String) {
        let b = self.last;
        let all_stopped =
            |s: &ProcSample| s.states.live() > 0 && s.states.stopped == s.states.live();
        let in_disk = |s: &ProcSample| s.states.disk > 0;
        let pct = |x: f64| format!("{:.0}%", x * 100.0);
        let window = format!("{:.1} s", self.secs);
        let load = match b.load1 {
            Some(l) => format!("load {l:.1} on {} CPUs", b.cpus),
            None => format!("{} CPUs", b.cpus),
        };
        let waits = waits_of(b);
        if all_stopped(b) && self.mostly(all_stopped) {
            (
                ProcessState::Stopped,
                format!(
                    "every thread stopped (SIGSTOP, SIGTSTP or a debugger) over the last {window}: \
                     not the engine's doing"
                ),
            )
        } else if self.mostly(in_disk) || major_faults_per_s >= FAULTS_PER_S {
            (
                ProcessState::Blocked,
                format!(
                    "in uninterruptible sleep (disk or swap) over the last {window}: {} thread(s) in \
                     D state, {major_faults_per_s:.0} major page faults/s{}",
                    b.states.disk,
                    if waits.is_empty() {
                        String::new()
                    } else {
                        format!(" ({waits})")
                    }
                ),
            )
        } else if delay >= STARVED_SHARE && cpu_share <= STARVED_RAN * (cpu_share + delay) {
            (
                ProcessState::Starved,
                format!(
                    "ready to run but waiting for a CPU {} of the last {window}, it ran {}: {load}; \
                     the host is overloaded, not the engine at fault",
                    pct(delay),
                    pct(cpu_share)
                ),
            )
        } else if cpu_share + delay >= BUSY_SHARE {
            (
                ProcessState::Spinning,
                format!(
                    "on the CPU {} of the last {window} (and waiting for one {}) without a line of \
                     output ({} thread(s) running)",
                    pct(cpu_share),
                    pct(delay),
                    b.states.running
                ),
            )
        } else if cpu_share < IDLE_SHARE && b.states.running == 0 && b.states.sleeping > 0 {
            asleep(b, &window, &waits)
        } else {
            (
                ProcessState::Undecided,
                format!(
                    "the samples do not decide: on the CPU {}, waiting for a CPU {} of the last \
                     {window}; {load}",
                    pct(cpu_share),
                    pct(delay)
                ),
            )
        }
    }
}

/// Where the most threads of a sample wait, the first three.
fn waits_of(s: &ProcSample) -> String {
    s.waits
        .iter()
        .take(3)
        .map(|w| format!("{} in {}", w.threads, w.wchan))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every thread asleep: on the GUI's input, on itself, or on what could not be read.
fn asleep(b: &ProcSample, window: &str, waits: &str) -> (ProcessState, String) {
    match b.reading_input {
        Some(k) if k > 0 => (
            ProcessState::Waiting,
            format!(
                "every thread asleep over the last {window} ({waits}), {k} in a read of its \
                 input: it has read all the GUI sent and waits for more"
            ),
        ),
        Some(_) => (
            ProcessState::Asleep,
            format!(
                "every thread asleep over the last {window} ({waits}), none reading its \
                 input: it waits on itself (a lock, a timer, a child)"
            ),
        ),
        None => (
            ProcessState::Undecided,
            format!(
                "every thread asleep over the last {window} ({waits}); what they wait for \
                 could not be read"
            ),
        ),
    }
}

/// A sample of one process with these counters (ms) and one thread a letter of `states`
/// (`R`, `S`, `D`, `T`), asleep in a pipe read, or a disk wait when one is in `D`.
#[cfg(test)]
pub(crate) fn test_sample(
    cpu_ms: u64,
    delay_ms: u64,
    states: &str,
    reading: Option<u32>,
) -> ProcSample {
    let mut st = ThreadStates::default();
    for c in states.chars() {
        st.count(c);
    }
    let wchan = if states.contains('D') {
        "folio_wait_bit"
    } else {
        "anon_pipe_read"
    };
    ProcSample {
        procs: 1,
        threads: st.total(),
        user_ms: cpu_ms,
        run_delay_ms: Some(delay_ms),
        states: st,
        waits: vec![WaitCount {
            wchan: wchan.into(),
            threads: 1,
        }],
        reading_input: reading,
        cpus: 2,
        load1: Some(1.0),
        ..ProcSample::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(cpu_ms: u64, delay_ms: u64, states: &str, reading: Option<u32>) -> ProcSample {
        test_sample(cpu_ms, delay_ms, states, reading)
    }

    fn class(a: ProcSample, b: ProcSample) -> Option<ProcessState> {
        let v = [(0, &a), (2_000_000_000, &b)];
        classify(&v, 0, 3_000_000_000).map(|v| v.state)
    }

    #[test]
    fn each_class_from_two_samples() {
        let st = ProcessState::Stopped;
        assert_eq!(class(s(0, 0, "T", None), s(0, 0, "T", None)), Some(st));
        let spin = s(1900, 10, "R", None);
        assert_eq!(
            class(s(0, 0, "R", None), spin),
            Some(ProcessState::Spinning)
        );
        let starved = s(40, 1800, "R", None);
        assert_eq!(
            class(s(0, 0, "R", None), starved),
            Some(ProcessState::Starved)
        );
        let wait = s(2, 0, "S", Some(1));
        assert_eq!(
            class(s(0, 0, "S", Some(1)), wait),
            Some(ProcessState::Waiting)
        );
        let asleep = s(2, 0, "SS", Some(0));
        assert_eq!(
            class(s(0, 0, "S", Some(0)), asleep),
            Some(ProcessState::Asleep)
        );
        let disk = s(10, 0, "D", None);
        assert_eq!(class(s(0, 0, "D", None), disk), Some(ProcessState::Blocked));
    }

    #[test]
    fn near_misses_stay_undecided_or_take_the_stronger_class() {
        // Half a core busy and half waiting: it ran as long as it waited, so not starved.
        let busy = s(1200, 1000, "R", None);
        assert_eq!(
            class(s(0, 0, "R", None), busy),
            Some(ProcessState::Spinning)
        );
        // Spinning on a loaded machine: a third of the CPU, waiting for it the rest.
        let shared = s(650, 1300, "R", None);
        assert_eq!(
            class(s(0, 0, "R", None), shared),
            Some(ProcessState::Spinning)
        );
        // Asleep without knowing in what: undecided, not WAITING.
        let unknown = s(0, 0, "S", None);
        assert_eq!(
            class(s(0, 0, "S", None), unknown),
            Some(ProcessState::Undecided)
        );
        // One thread stopped of two: not STOPPED.
        let half = s(0, 0, "TS", Some(1));
        assert_eq!(
            class(s(0, 0, "TS", Some(1)), half),
            Some(ProcessState::Waiting)
        );
        // A little CPU, a little waiting: undecided.
        let some = s(500, 100, "S", Some(0));
        assert_eq!(
            class(s(0, 0, "S", Some(0)), some),
            Some(ProcessState::Undecided)
        );
    }

    #[test]
    fn too_short_a_window_decides_nothing() {
        let (a, b) = (s(0, 0, "T", None), s(0, 0, "T", None));
        let v = [(0, &a), (300_000_000, &b)];
        assert!(classify(&v, 0, 1_000_000_000).is_none());
        assert!(classify(&[], 0, 1_000_000_000).is_none());
    }
}
