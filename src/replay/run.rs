//! Sends a [`Script`] to a [`Driver`] at the chosen pace, with a watchdog on every wait.

use super::driver::{Driver, Ended, Waited};
use super::script::{Script, Wait};
use serde::Serialize;
use std::time::{Duration, Instant};

/// The least an engine gets to end the session itself, as the original's did.
const ENDS_FLOOR: Duration = Duration::from_secs(2);

/// How lines are paced.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pace {
    /// Each line once the answers the original had before sending it have come.
    Sync,
    /// At the original's times, divided by `speed`.
    Recorded { speed: f64 },
    /// As fast as the engine reads them.
    Fast,
}

impl Pace {
    pub fn name(self) -> &'static str {
        match self {
            Pace::Sync => "sync",
            Pace::Recorded { .. } => "recorded",
            Pace::Fast => "fast",
        }
    }
}

/// Limits of a run.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The watchdog allows `max(10 × the original's latency, floor)` for an answer.
    pub watchdog_floor: Duration,
    /// After the input is closed, how long the engine may take to exit.
    pub eof_grace: Duration,
}

/// The watchdog fired: an answer the original got never came.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Stall {
    /// The step whose request was not answered, and the step that was waiting.
    pub request_step: usize,
    pub waiting_step: usize,
    pub owed: String,
    pub request: String,
    pub waited_ns: u64,
}

/// What happened during a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Steps carried out (lines sent, and the close).
    pub done: usize,
    pub stall: Option<Stall>,
    /// The engine went away before the script's end (at that step).
    pub engine_gone_at: Option<usize>,
    pub ended: Ended,
}

/// Runs `script` against the engine behind `driver`. `on_handshake` sees the session once
/// the engine has finished its handshake (`uciok`, `feature done=1`), before the lines after
/// it are sent: the place for pre-flight checks of its identity and options.
pub fn run(
    mut driver: Driver,
    script: &Script,
    pace: Pace,
    limits: Limits,
    on_handshake: &mut dyn FnMut(&crate::session::Session),
) -> Outcome {
    let mut handshake_seen = false;
    let start = Instant::now();
    let mut sent: Vec<Option<u64>> = vec![None; script.steps.len()];
    let mut stall = None;
    let mut gone = None;
    let mut done = 0;
    'steps: for (i, step) in script.steps.iter().enumerate() {
        let closing = step.send.is_none();
        // Answers are awaited in every pace before the input is closed: a fast or timed
        // replay still lets the engine finish what the original engine finished. `quit` is
        // such an end too (it withdraws whatever is still owed): before it, a fast or timed
        // replay awaits every answer the original had by then, not only the last line's.
        let quitting = step.text.trim() == "quit";
        let waits: Vec<&Wait> = if pace != Pace::Sync && quitting {
            script.steps[..=i].iter().flat_map(|s| &s.waits).collect()
        } else {
            step.waits.iter().collect()
        };
        if pace == Pace::Sync || closing || quitting {
            for w in waits {
                let Some(seq) = sent[w.step] else { continue };
                let allowed =
                    Duration::from_nanos(w.latency.saturating_mul(10)).max(limits.watchdog_floor);
                let began = Instant::now();
                match driver.wait_until(began + allowed, |d| !d.is_open(seq, &w.owed)) {
                    Waited::Done => {}
                    Waited::TimedOut => {
                        let request = script.steps[w.step].text.clone();
                        stall = Some(Stall {
                            request_step: w.step,
                            waiting_step: i,
                            owed: w.owed.to_string(),
                            request,
                            waited_ns: u64::try_from(began.elapsed().as_nanos())
                                .unwrap_or(u64::MAX),
                        });
                        break 'steps;
                    }
                    Waited::EngineGone => {
                        gone = Some(i);
                        break 'steps;
                    }
                }
            }
        }
        // The original's engine ended the session itself: so should this one, before the
        // input is closed. One that does not (a fixed crash) gets ten times the original's
        // time and at least ENDS_FLOOR, then the input is closed as a GUI would.
        if closing && let Some(after) = script.engine_ends {
            let allowed = Duration::from_nanos(after.saturating_mul(10)).max(ENDS_FLOOR);
            driver.wait_exit(Instant::now() + allowed);
        }
        match pace {
            Pace::Sync if closing && script.engine_ends.is_some() => {}
            Pace::Sync => {
                if let Some(gap) = step.busy_gap {
                    driver.pause(Duration::from_nanos(gap));
                }
            }
            Pace::Recorded { speed } if !closing => {
                let at = start + Duration::from_secs_f64(step.t as f64 / 1e9 / speed.max(1e-6));
                driver.wait_until(at, |_| false);
            }
            Pace::Recorded { .. } | Pace::Fast => {}
        }
        if !handshake_seen
            && let Some(s) = driver.decoder().session(0)
            && matches!(s.handshake, crate::session::Handshake::Done(_))
        {
            handshake_seen = true;
            on_handshake(s);
        }
        match &step.send {
            Some(bytes) => match driver.send(bytes) {
                Some(seq) => sent[i] = Some(seq),
                None => {
                    gone = Some(i);
                    break;
                }
            },
            None => driver.close_input(),
        }
        done += 1;
    }
    let ended = match &stall {
        Some(s) => {
            let why = format!(
                "replay watchdog: no {} for `{}` within {:.1} s",
                s.owed,
                s.request,
                s.waited_ns as f64 / 1e9
            );
            driver.note(&why);
            driver.abort(&why)
        }
        None => driver.finish(limits.eof_grace),
    };
    Outcome {
        done,
        stall,
        engine_gone_at: gone,
        ended,
    }
}
