//! What the engine left running when it exited.
//!
//! A bare engine's children outlive it (a wrapper script's engine, a helper that kept the
//! engine's output open), and the GUI reads whatever they still write: so does the recorder's
//! GUI. Each one is named in the recording (`leftover`); with `record --kill-leftovers` they are
//! ended too (SIGTERM, then SIGKILL after a short grace: `leftover_killed`).

use super::process::Descendant;
use super::recorder::Recorder;
use crate::recording::ProxyKind;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use std::time::{Duration, Instant};

/// How long leftovers get after SIGTERM before SIGKILL.
const SWEEP_GRACE: Duration = Duration::from_millis(500);

fn names(ls: &[Descendant]) -> String {
    ls.iter()
        .map(|l| format!("{} [pid {}]", l.name, l.pid))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Records the processes the engine left running (`left`, all alive a moment ago), and ends
/// them when `end` is set.
pub fn record(recorder: &Recorder, left: &[Descendant], end: bool) {
    // Named as they are now (a process may have exec'd since it was last seen).
    let left: Vec<Descendant> = left
        .iter()
        .map(|d| Descendant {
            name: super::process::stat_fields(d.pid)
                .filter(|s| s.start == Some(d.start))
                .map_or_else(|| d.name.clone(), |s| s.name),
            ..d.clone()
        })
        .collect();
    let left = left.as_slice();
    if !end {
        recorder.proxy_event(
            ProxyKind::Leftover,
            &format!(
                "still running after the engine exited: {}; left running (record --kill-leftovers ends them)",
                names(left)
            ),
            |_| {},
        );
        return;
    }
    signal_all(left, Signal::SIGTERM);
    recorder.proxy_event(
        ProxyKind::LeftoverKilled,
        &format!(
            "still running after the engine exited: {}; sent SIGTERM",
            names(left)
        ),
        |e| e.signal = Some("SIGTERM".into()),
    );
    let deadline = Instant::now() + SWEEP_GRACE;
    let mut rest: Vec<Descendant> = left.to_vec();
    while Instant::now() < deadline {
        rest.retain(Descendant::alive);
        if rest.is_empty() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    signal_all(&rest, Signal::SIGKILL);
    record_sigkill(recorder, SWEEP_GRACE, &names(&rest));
}

/// Records that leftovers (`names`) ignored SIGTERM for `grace` and were sent SIGKILL: the
/// words `record --kill-leftovers` and `replay`'s sweep share.
pub fn record_sigkill(recorder: &Recorder, grace: Duration, names: &str) {
    recorder.proxy_event(
        ProxyKind::LeftoverKilled,
        &format!(
            "ignored SIGTERM for {} ms: {names}; sent SIGKILL",
            grace.as_millis()
        ),
        |e| e.signal = Some("SIGKILL".into()),
    );
}

/// Signals each process that is still the one seen (a pid may have been reused since).
fn signal_all(procs: &[Descendant], sig: Signal) {
    for l in procs.iter().filter(|l| l.alive()) {
        let _ = kill(Pid::from_raw(l.pid), sig);
    }
}
