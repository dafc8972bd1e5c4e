//! The step runner: one engine behind the replay [`Driver`], a suite of steps sent to it one by
//! one, a note in the recording where each step begins (so the report can place every line and
//! every finding in its step), and the probe's own waits with their timeouts.
//!
//! The runner decides nothing about conformance: it only sends, waits and notes what it waited
//! for in vain. Findings come afterwards from the one judge reading the recording.

use crate::recording::ProbeFact;
use crate::replay::driver::{Driver, Ended, Waited};
use crate::session::{Owed, Session};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How long the probe waits, per kind of answer. The judge holds the engine to the same
/// deadlines (see [`crate::rules::profile`]), so a wait the probe gives up on is also a finding.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timeouts {
    /// `isready`, `ping`, `stop` and what a step sends last.
    pub answer: Duration,
    /// `uci` → `uciok`, `protover 2` → `feature done=1`, NBoard `nboard 2` → `set myname`.
    pub handshake: Duration,
    /// A search bounded by depth or nodes (no clock to judge it by).
    pub search: Duration,
    /// `quit` → the process exits.
    pub quit: Duration,
    /// `isready` → `readyok`, `ping` → `pong`: what the probe waits before giving up, and
    /// the judge's deadline. Longer than `answer`, up to cutechess's 15 s: an engine that
    /// loads its network on the first `isready` is slow, not wrong; an answer slower than
    /// `answer` is noted on the card.
    pub ready: Duration,
}

/// What cutechess allows for `isready` → `readyok` (and `ping`), the most an answer may
/// take before the probe calls it a fault.
pub const READY_AT_MOST: Duration = Duration::from_secs(15);

impl Timeouts {
    /// All of them from the one `--timeout SECS` (the answer timeout).
    pub fn from_answer(answer: Duration) -> Timeouts {
        Timeouts {
            answer,
            handshake: answer * 2,
            search: answer * 6,
            quit: answer,
            ready: (answer * 3).min(READY_AT_MOST).max(answer),
        }
    }
}

/// What the probe waits beyond a deadline before giving up, so that the judge, reading the
/// recording afterwards, sees the deadline passed.
const MARGIN: Duration = Duration::from_millis(250);

/// What became of one step while it ran.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Everything sent; whatever was owed came (or the judge will say otherwise).
    Ran,
    /// Does not apply to this engine (why).
    NotApplicable(String),
    /// Not run: the engine could no longer be driven (why).
    NotRun(String),
    /// The probe gave up waiting and ended the engine (what was owed).
    Stalled(String),
}

/// One step as it ran.
#[derive(Debug, Clone)]
pub struct StepRun {
    pub id: &'static str,
    pub title: &'static str,
    pub outcome: Outcome,
    /// What the probe saw that the report should tell: answers and their latencies, waits
    /// that timed out, what was chosen (which option was set, which move the game ended on).
    pub observations: Vec<String>,
    /// The line the engine went right after, when the step found one.
    pub culprit: Option<String>,
    /// Which start of the engine the step ran on (1 the first); `None` when it did not run.
    pub start: Option<u32>,
}

/// Starts a fresh engine for a restart, its recording written to the given file.
pub type Respawn = Box<dyn FnMut(&std::path::Path) -> std::io::Result<Driver>>;

/// How one start of the engine ended, and where its lines were recorded.
#[derive(Debug, Clone)]
pub struct StartRun {
    /// 1 for the first start.
    pub number: u32,
    /// The first step run on it (1-based index).
    pub first_step: usize,
    pub ended: Ended,
    /// The file its lines went to: the recording itself for the first start, a part merged
    /// into it afterwards for a restart.
    pub part: Option<PathBuf>,
}

/// Why the engine can no longer be driven.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// The probe gave up on it (killed).
    GaveUp,
    /// It exited or stopped reading.
    Gone,
    /// The suite asked it to quit.
    Quit,
}

/// A step of a suite: an id, what it checks, and the function that drives it.
pub struct Step<S> {
    pub id: &'static str,
    pub title: &'static str,
    pub run: fn(&mut Run, &mut S),
}

/// The engine and the steps run so far.
pub struct Run {
    driver: Option<Driver>,
    pub timeouts: Timeouts,
    /// `--quick`: shorter think times where a silence is tested.
    pub quick: bool,
    steps: Vec<StepRun>,
    /// Why the engine can no longer be driven, once it cannot.
    dead: Option<String>,
    stop: Option<Stop>,
    ended: Option<Ended>,
    /// The start the engine is on (1 the first) and those that ended.
    start: u32,
    starts: Vec<StartRun>,
    /// The current start finished its handshake: only then is a restart worth it (an engine
    /// that cannot shake hands would fail the same way again).
    handshaken: bool,
    /// How to start the engine again after it was given up on, how many more times, and
    /// where the recording is (a restart's part is a file beside it).
    respawn: Option<(Respawn, u32, PathBuf)>,
    pings: u32,
    /// Answers the run no longer waits for (a v1 engine's `feature done=1`).
    forgiven: Vec<Owed>,
    /// Engine lines seen by a driver already ended (given up on).
    lines_before_end: u64,
    /// Answers a step already waited for in full and in vain (the line that asked, what it
    /// owes): the end of the step does not wait for them a second time.
    waited_out: Vec<(u64, Owed)>,
    /// Step 1's request sent by protocol detection: its line and when.
    begun: Option<(Option<u64>, Instant)>,
}

impl Run {
    pub fn new(driver: Driver, timeouts: Timeouts) -> Run {
        Run {
            driver: Some(driver),
            timeouts,
            quick: false,
            steps: Vec::new(),
            dead: None,
            stop: None,
            ended: None,
            start: 1,
            starts: Vec::new(),
            handshaken: false,
            respawn: None,
            pings: 0,
            forgiven: Vec::new(),
            lines_before_end: 0,
            waited_out: Vec::new(),
            begun: None,
        }
    }

    /// A run on the start protocol detection kept: step 1's fact and its request (the
    /// opening, sent at `sent_at`) are in the recording already.
    pub fn begun(
        driver: Driver,
        timeouts: Timeouts,
        request: Option<u64>,
        sent_at: Instant,
    ) -> Run {
        let mut run = Run::new(driver, timeouts);
        run.begun = Some((request, sent_at));
        run
    }

    /// The first step's request when detection sent it already (its line and when), for the
    /// step to wait on instead of sending its own; `None` once taken or when it did not.
    pub fn take_begun(&mut self) -> Option<(Option<u64>, Instant)> {
        self.begun.take()
    }

    /// After the engine is given up on (a hang, an exit), start it again with `respawn` up to
    /// `restarts` times, so that one fault does not leave the rest of the suite untested.
    /// Restart parts are recorded beside `recording`.
    pub fn restart_with(&mut self, respawn: Respawn, restarts: u32, recording: PathBuf) {
        self.respawn = Some((respawn, restarts, recording));
    }

    /// Runs every step of `suite` in order; a step the engine can no longer take part in is
    /// `NotRun`, with the reason.
    pub fn suite<S>(&mut self, suite: &[Step<S>], state: &mut S) {
        self.suite_restarting(suite, state, |_, _| {});
    }

    /// [`Run::suite`], starting the engine again (see [`Run::restart_with`]) when it was given
    /// up on after its handshake: `again` forgets what the steps learnt of the old process and
    /// takes the fresh one through the handshake, at the start of the next step.
    pub fn suite_restarting<S>(
        &mut self,
        suite: &[Step<S>],
        state: &mut S,
        again: fn(&mut Run, &mut S),
    ) {
        for (i, step) in suite.iter().enumerate() {
            let n = self.steps.len() + 1;
            let restart = i > 0 && self.may_restart();
            if restart {
                self.restart(n);
            }
            if let Some(why) = self.dead.clone() {
                self.steps.push(StepRun {
                    id: step.id,
                    title: step.title,
                    outcome: Outcome::NotRun(why),
                    observations: Vec::new(),
                    culprit: None,
                    start: None,
                });
                continue;
            }
            let recorded = i == 0 && self.begun.is_some();
            if let Some(d) = self.driver.as_ref().filter(|_| !recorded) {
                d.probe_fact(ProbeFact::Step {
                    n: u32::try_from(n).unwrap_or(u32::MAX),
                    id: step.id.to_owned(),
                    title: step.title.to_owned(),
                });
            }
            self.steps.push(StepRun {
                id: step.id,
                title: step.title,
                outcome: Outcome::Ran,
                observations: Vec::new(),
                culprit: None,
                start: Some(self.start),
            });
            if restart {
                let before = self.current().map_or(0, |s| s.observations.len());
                again(self, state);
                let start = self.start;
                if let Some(s) = self.current() {
                    for o in s.observations.iter_mut().skip(before) {
                        *o = format!("start {start}, handshake again: {o}");
                    }
                }
                if !self.usable() || self.oldest_owed().is_some() {
                    // Not even the handshake again: the engine cannot be driven, and a
                    // fresh start would only fail the same way.
                    self.handshaken = false;
                    self.after_step();
                    continue;
                }
            }
            (step.run)(self, state);
            self.after_step();
            if i == 0 && self.dead.is_none() {
                self.handshaken = true;
            }
        }
    }

    /// The engine was given up on (or went) after its handshake, and restarts are left.
    fn may_restart(&self) -> bool {
        matches!(self.stop, Some(Stop::GaveUp | Stop::Gone))
            && self.handshaken
            && self.respawn.as_ref().is_some_and(|r| r.1 > 0)
    }

    /// Ends what is left of the current engine and starts a fresh one for step `n`.
    fn restart(&mut self, n: usize) {
        self.end_start();
        let Some((respawn, left, recording)) = self.respawn.as_mut() else {
            return;
        };
        *left -= 1;
        let number = self.start + 1;
        let mut part = recording.clone().into_os_string();
        part.push(format!(".start{number}.part"));
        let part = PathBuf::from(part);
        match respawn(&part) {
            Ok(d) => {
                d.note(&format!(
                    "probe: start {number} of the engine, for the steps from {n} on"
                ));
                self.driver = Some(d);
                self.start = number;
                self.dead = None;
                self.stop = None;
                self.waited_out.clear();
                self.forgiven.clear();
                self.starts.push(StartRun {
                    number,
                    first_step: n,
                    ended: Ended {
                        exit: None,
                        killed: false,
                    },
                    part: Some(part),
                });
            }
            Err(e) => {
                let _ = std::fs::remove_file(&part);
                self.dead = Some(format!("the engine could not be started again: {e}"));
                self.stop = Some(Stop::Quit);
            }
        }
    }

    /// Ends the current start: what the driver still holds goes to the recording.
    fn end_start(&mut self) {
        if let Some(d) = self.driver.take() {
            self.lines_before_end = d.engine_lines();
            let grace = self.timeouts.quit;
            self.ended = Some(d.finish(grace));
        }
        let ended = self.ended.take().unwrap_or(Ended {
            exit: None,
            killed: false,
        });
        if self.starts.is_empty() {
            self.starts.push(StartRun {
                number: 1,
                first_step: 1,
                ended: ended.clone(),
                part: None,
            });
        } else if let Some(s) = self.starts.last_mut() {
            s.ended = ended;
        }
    }

    /// Ends the run: the engine gets the quit timeout to exit after its input is closed (the
    /// quit step has asked it to already), then is killed. The steps, and every start of the
    /// engine with how it ended.
    pub fn finish(mut self) -> (Vec<StepRun>, Vec<StartRun>) {
        self.end_start();
        (self.steps, self.starts)
    }

    fn current(&mut self) -> Option<&mut StepRun> {
        self.steps.last_mut()
    }

    /// Notes what the step saw.
    pub fn observe(&mut self, text: impl Into<String>) {
        if let Some(s) = self.current() {
            s.observations.push(text.into());
        }
    }

    /// The engine went right after `line`: the card's cause names it.
    pub fn culprit(&mut self, line: &str) {
        self.observe(format!("`{line}`: the engine went right after it"));
        if let Some(s) = self.current() {
            s.culprit = Some(line.to_owned());
        }
    }

    /// What the probe set up and saw that the traffic does not show, on the current step's
    /// lines: typed in the recording, where the judge reads it (for `check` too).
    pub fn fact(&mut self, fact: ProbeFact) {
        if let Some(d) = &self.driver {
            d.probe_fact(fact);
        }
    }

    /// The step does not apply to this engine. Call before sending anything.
    pub fn not_applicable(&mut self, why: impl Into<String>) {
        if let Some(s) = self.current() {
            s.outcome = Outcome::NotApplicable(why.into());
        }
    }

    /// The engine still reads its input and has not been given up on.
    pub fn usable(&self) -> bool {
        self.dead.is_none() && self.driver.as_ref().is_some_and(Driver::alive)
    }

    /// Lines the engine has written so far (also after it was given up on).
    pub fn engine_lines(&self) -> u64 {
        self.driver
            .as_ref()
            .map_or(self.lines_before_end, Driver::engine_lines)
    }

    /// The session as the live decoder sees it.
    pub fn session(&self) -> Option<&Session> {
        self.driver.as_ref().and_then(|d| d.decoder().session(0))
    }

    /// The live board (FEN), when the session has one.
    pub fn position(&self) -> Option<String> {
        self.driver
            .as_ref()
            .and_then(|d| d.decoder().position_string(0))
    }

    /// Sends one line (a newline is added). Returns the live decoder's sequence number of
    /// the line, or `None` when the engine no longer reads.
    pub fn send(&mut self, line: &str) -> Option<u64> {
        if self.dead.is_some() {
            return None;
        }
        let d = self.driver.as_mut()?;
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        let seq = d.send(&bytes);
        if seq.is_none() {
            self.engine_gone();
        }
        seq
    }

    /// A fresh `ping` number.
    pub fn next_ping(&mut self) -> u32 {
        self.pings += 1;
        self.pings
    }

    /// Waits up to `within` for the answer `owed` to the line `seq`. A timeout is noted in the
    /// step and the step goes on (what it sends next may be what unblocks the engine).
    /// Returns the latency when the answer came.
    pub fn wait(&mut self, seq: Option<u64>, owed: Owed, within: Duration) -> Option<Duration> {
        self.wait_since(seq, owed, within, Instant::now())
    }

    /// [`Run::wait`] for a line sent at `began` (before the step: protocol detection's).
    pub fn wait_since(
        &mut self,
        seq: Option<u64>,
        owed: Owed,
        within: Duration,
        began: Instant,
    ) -> Option<Duration> {
        let seq = seq?;
        let within = match owed {
            Owed::ReadyOk | Owed::Pong(_) => within.max(self.timeouts.ready),
            _ => within,
        };
        let d = self.driver.as_mut()?;
        match d.wait_until(began + within + MARGIN, |d| !d.is_open(seq, &owed)) {
            Waited::Done => Some(began.elapsed()),
            Waited::TimedOut => {
                self.observe(format!("no {owed} within {:.1} s", within.as_secs_f64()));
                self.waited_out.push((seq, owed));
                None
            }
            Waited::EngineGone => {
                self.engine_gone();
                None
            }
        }
    }

    /// Like [`Run::wait`], noting the latency of the answer in the step.
    pub fn wait_noted(&mut self, seq: Option<u64>, owed: Owed, within: Duration) -> bool {
        self.wait_noted_since(seq, owed, within, Instant::now())
    }

    /// [`Run::wait_noted`] for a line sent at `began`.
    pub fn wait_noted_since(
        &mut self,
        seq: Option<u64>,
        owed: Owed,
        within: Duration,
        began: Instant,
    ) -> bool {
        let what = owed.to_string();
        let answer = self.timeouts.answer;
        match self.wait_since(seq, owed, within, began) {
            Some(l) if l > answer && l > within => {
                self.observe(format!(
                    "{what} after {}: slow (more than the {} answer timeout), but within the \
                     {} allowed; a latency note, not a fault",
                    ms(l),
                    ms(answer),
                    ms(self.timeouts.ready)
                ));
                true
            }
            Some(l) => {
                self.observe(format!("{what} after {}", ms(l)));
                true
            }
            None => false,
        }
    }

    /// Waits up to `within` for `done` to hold of the live session; handles the engine's output
    /// meanwhile.
    pub fn wait_for(&mut self, within: Duration, done: impl Fn(&Session) -> bool) -> bool {
        let Some(d) = self.driver.as_mut() else {
            return false;
        };
        let r = d.wait_until(Instant::now() + within, |d| {
            d.decoder().session(0).is_some_and(&done)
        });
        if r == Waited::EngineGone {
            self.engine_gone();
        }
        r == Waited::Done
    }

    /// Waits up to `within` for an engine line after the GUI line `seq` that `pick` wants;
    /// the line and how long it took. For answers the session model owes nothing for
    /// (`Hint:`, `Error (...)`, a reply to `draw`).
    pub fn wait_line(
        &mut self,
        seq: Option<u64>,
        within: Duration,
        pick: impl Fn(&str) -> bool,
    ) -> Option<(String, Duration)> {
        let seq = seq?;
        let d = self.driver.as_mut()?;
        let began = Instant::now();
        let r = d.wait_until(began + within, |d| d.engine_lines_after(seq).any(&pick));
        if r == Waited::EngineGone {
            self.engine_gone();
        }
        let d = self.driver.as_ref()?;
        let line = d.engine_lines_after(seq).find(|l| pick(l))?.to_owned();
        Some((line, began.elapsed()))
    }

    /// The engine's lines after the GUI line `seq` so far.
    pub fn lines_after(&self, seq: Option<u64>) -> Vec<String> {
        match (seq, self.driver.as_ref()) {
            (Some(seq), Some(d)) => d.engine_lines_after(seq).map(str::to_owned).collect(),
            _ => Vec::new(),
        }
    }

    /// Handles the engine's output for `d` (a GUI's think time before its next command).
    pub fn pause(&mut self, d: Duration) {
        if let Some(dr) = self.driver.as_mut() {
            dr.pause(d);
        }
    }

    /// Steps no longer wait for `owed` (a GUI that gave up on it, as xboard gives up on a
    /// protocol-1 engine's `feature done=1`); the judge still sees it missing.
    pub fn forgive(&mut self, owed: Owed) {
        self.forgiven.push(owed);
    }

    /// Whether anything is owed right now, and the oldest thing.
    fn oldest_owed(&self) -> Option<(String, String)> {
        let d = self.driver.as_ref()?;
        d.open_obligations()
            .find(|o| !self.forgiven.contains(&o.owed))
            .map(|o| (o.owed.to_string(), o.request.clone()))
    }

    /// Is an answer of this kind owed right now?
    pub fn owes(&self, owed: &Owed) -> bool {
        self.driver
            .as_ref()
            .is_some_and(|d| d.open_obligations().any(|o| &o.owed == owed))
    }

    /// Every step ends with nothing owed: what is still owed gets the answer timeout, then
    /// the engine is given up on (killed, the rest of the suite not run) so that a hanging
    /// engine gives a verdict instead of a hang.
    fn after_step(&mut self) {
        if self.dead.is_some() || self.driver.is_none() {
            return;
        }
        let within = self.timeouts.answer;
        let forgiven = &self.forgiven;
        let waited_out = &self.waited_out;
        let settled = {
            let Some(d) = self.driver.as_mut() else {
                return;
            };
            // What was already waited for in full gets no second wait: the judge's deadline
            // for it has passed, and waiting again only makes a hang cost twice.
            let hopeless = |d: &Driver| {
                let mut open = d
                    .open_obligations()
                    .filter(|o| !forgiven.contains(&o.owed))
                    .peekable();
                open.peek().is_some()
                    && open.all(|o| waited_out.contains(&(o.opened.seq, o.owed.clone())))
            };
            if hopeless(d) {
                (Waited::TimedOut, false)
            } else {
                let w = d.wait_until(Instant::now() + within + MARGIN, |d| {
                    d.open_obligations().all(|o| forgiven.contains(&o.owed))
                });
                (w, true)
            }
        };
        match settled {
            (Waited::Done, _) => {}
            (Waited::EngineGone, _) => self.engine_gone(),
            (Waited::TimedOut, waited_again) => {
                let (owed, request) = self.oldest_owed().unwrap_or_default();
                let why = if waited_again {
                    format!(
                        "the engine still owed {owed} for `{request}` {:.1} s after the step's \
                         last command",
                        within.as_secs_f64()
                    )
                } else {
                    format!("the engine never sent {owed} for `{request}`")
                };
                if let Some(s) = self.current() {
                    s.outcome = Outcome::Stalled(why.clone());
                }
                let n = self.steps.len();
                self.dead = Some(format!("the engine was given up on at step {n}: {why}"));
                self.stop = Some(Stop::GaveUp);
                if let Some(d) = self.driver.take() {
                    self.lines_before_end = d.engine_lines();
                    d.note(&format!("probe: {why}; engine given up on"));
                    self.ended = Some(d.abort(&format!("probe gave up at step {n}")));
                }
            }
        }
    }

    /// The engine exited or stopped reading: nothing more can be sent.
    fn engine_gone(&mut self) {
        if self.dead.is_some() {
            return;
        }
        if self.driver.as_ref().is_some_and(Driver::flooded) {
            // Stopped for its flood: a fresh start would only flood the recording again.
            self.dead = Some(format!(
                "the engine was stopped for flooding its output during step {}",
                self.steps.len()
            ));
            self.stop = Some(Stop::Quit);
            return;
        }
        let n = self.steps.len();
        self.dead = Some(format!(
            "the engine stopped reading its input or exited during step {n}"
        ));
        self.stop = Some(Stop::Gone);
    }

    /// The quit step ends the session itself: nothing more is sent after it.
    pub fn quit_sent(&mut self) {
        let n = self.steps.len();
        self.dead = Some(format!("the engine was asked to quit at step {n}"));
        self.stop = Some(Stop::Quit);
    }

    /// Waits for the engine to exit; the elapsed time when it did.
    pub fn wait_exit(&mut self, within: Duration) -> Option<Duration> {
        let d = self.driver.as_mut()?;
        let began = Instant::now();
        d.wait_exit(began + within + MARGIN)
            .then(|| began.elapsed())
    }
}

/// `12 ms`, `1.40 s`.
pub fn ms(d: Duration) -> String {
    let v = d.as_secs_f64() * 1000.0;
    if v >= 1000.0 {
        format!("{:.2} s", v / 1000.0)
    } else {
        format!("{v:.0} ms")
    }
}
