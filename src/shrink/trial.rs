//! Candidates tried against the engine: each try a fresh engine, paced and recorded as `replay`
//! does, judged by the one judge, then asked whether the fault showed ([`super::attempt`], in
//! a child process). Tries run side by side, one engine each, on `jobs` threads; a candidate
//! reproduces when at least `min_repro` of its `tries` show the fault.

use super::attempt::{Answer, Request};
use super::candidate::Candidate;
use super::fault::Fault;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// How candidates are tried.
pub struct Runner<'a> {
    /// The child that makes a try: this program, `shrink FILE` and the options that read the
    /// original as the parent read it; `--try-request REQ -- ENGINE...` follow.
    pub exe: PathBuf,
    pub child_args: Vec<OsString>,
    pub engine: Vec<OsString>,
    pub fault: &'a Fault,
    /// Where the tries' recordings go.
    pub dir: PathBuf,
    pub tries: usize,
    pub min_repro: usize,
    pub jobs: usize,
    /// The budget's end: no try starts after it.
    pub deadline: Option<Instant>,
    /// Tries made so far.
    pub made: AtomicUsize,
    /// The first error a try met (an engine that cannot be started), said once.
    pub error: Mutex<Option<String>>,
}

/// What the tries of one candidate gave.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub tried: usize,
    pub reproduced: usize,
    /// The recording of a try that reproduced.
    pub recording: Option<PathBuf>,
    /// In that try, the GUI lines sent up to the fault (all it sent when the fault is the
    /// run as a whole).
    pub lines_to_fault: Option<usize>,
}

#[derive(Default)]
struct Board {
    next: usize,
    tallies: Vec<Tally>,
    running: Vec<usize>,
    /// The lowest candidate known to reproduce.
    best: Option<usize>,
}

impl Runner<'_> {
    pub fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Tries `cands` in order of preference; returns the first (lowest index) that reproduces,
    /// with its tally. With `early`, a candidate's tries stop once the outcome is decided, and
    /// candidates after one that reproduced are not tried further.
    pub fn first_reproducing(&self, cands: &[Candidate]) -> Option<(usize, Tally)> {
        self.first_of(cands, true)
    }

    /// The original's tries, which the budget does not cut: without them there is nothing to
    /// shrink.
    pub fn original(&self, whole: &Candidate) -> Option<Tally> {
        self.first_of(std::slice::from_ref(whole), false)
            .map(|(_, t)| t)
    }

    fn first_of(&self, cands: &[Candidate], bounded: bool) -> Option<(usize, Tally)> {
        let tallies = self.run(cands, self.tries, true, bounded);
        tallies
            .into_iter()
            .enumerate()
            .find(|(_, t)| t.reproduced >= self.min_repro)
    }

    /// All `tries` tries of `c`, none skipped: its reproduction rate.
    pub fn rate(&self, c: &Candidate, tries: usize) -> Tally {
        self.run(std::slice::from_ref(c), tries, false, true)
            .pop()
            .unwrap_or_default()
    }

    fn run(&self, cands: &[Candidate], tries: usize, early: bool, bounded: bool) -> Vec<Tally> {
        let total = cands.len() * tries;
        let board = Mutex::new(Board {
            tallies: vec![Tally::default(); cands.len()],
            running: vec![0; cands.len()],
            ..Board::default()
        });
        let decided = |b: &Board, c: usize| -> bool {
            if !early {
                return false;
            }
            let t = &b.tallies[c];
            let failed = t.tried - t.reproduced;
            b.best.is_some_and(|best| c > best)
                || t.reproduced >= self.min_repro
                // Its tries left (those running included) cannot reach `min_repro`.
                || tries.saturating_sub(failed) < self.min_repro
        };
        std::thread::scope(|scope| {
            for _ in 0..self.jobs.max(1) {
                scope.spawn(|| {
                    loop {
                        let c = {
                            let Ok(mut b) = board.lock() else { return };
                            let mut picked = None;
                            while b.next < total {
                                let c = b.next / tries;
                                b.next += 1;
                                if !decided(&b, c) {
                                    picked = Some(c);
                                    break;
                                }
                            }
                            let Some(c) = picked else { return };
                            if bounded && self.out_of_time() {
                                return;
                            }
                            b.running[c] += 1;
                            c
                        };
                        let (shown, recording) = self.try_once(&cands[c]);
                        let Ok(mut b) = board.lock() else { return };
                        b.running[c] -= 1;
                        let t = &mut b.tallies[c];
                        t.tried += 1;
                        if let Some(lines) = shown {
                            t.reproduced += 1;
                            t.lines_to_fault = Some(lines);
                            if let Some(old) = t.recording.replace(recording) {
                                let _ = std::fs::remove_file(old);
                            }
                            if t.reproduced >= self.min_repro && b.best.is_none_or(|x| c < x) {
                                b.best = Some(c);
                            }
                        } else {
                            let _ = std::fs::remove_file(&recording);
                        }
                    }
                });
            }
        });
        board.into_inner().map(|b| b.tallies).unwrap_or_default()
    }

    /// One try: a fresh engine, the candidate's script, the judge, the fault.
    fn try_once(&self, c: &Candidate) -> (Option<usize>, PathBuf) {
        let n = self.made.fetch_add(1, Ordering::Relaxed);
        let out = self.dir.join(format!("try-{n}.jsonl"));
        let answer = self.child(c, n, &out).unwrap_or_else(|e| Answer {
            lines_to_fault: None,
            error: Some(e),
        });
        if let Some(e) = answer.error
            && let Ok(mut first) = self.error.lock()
        {
            first.get_or_insert(e);
        }
        (answer.lines_to_fault, out)
    }

    fn child(&self, c: &Candidate, n: usize, out: &std::path::Path) -> Result<Answer, String> {
        let req = Request {
            candidate: c.clone(),
            fault: self.fault.clone(),
            recording: out.to_path_buf(),
        };
        let path = self.dir.join(format!("try-{n}.json"));
        let text = serde_json::to_vec(&req).map_err(|e| e.to_string())?;
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        let output = std::process::Command::new(&self.exe)
            .args(&self.child_args)
            .arg("--try-request")
            .arg(&path)
            .arg("--")
            .args(&self.engine)
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.exe.display()))?;
        let _ = std::fs::remove_file(&path);
        serde_json::from_slice(&output.stdout).map_err(|_| {
            format!(
                "a try ended without its answer ({}): {}",
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            )
        })
    }
}
