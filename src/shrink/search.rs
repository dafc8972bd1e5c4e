//! The phases of a shrink, coarse to fine, each keeping the best candidate found so far: the
//! original verified; what follows the fault cut; whole games; searches, options and the other
//! single units; move lists cut to a FEN (UCI `position`, CECP `setboard`); CECP and NBoard
//! game lines one by one; search limits lowered. The result is tried once more
//! for its reproduction rate.

use super::candidate::Candidate;
use super::ddmin::ddmin;
use super::moves::Position;
use super::report::PhaseResult;
use super::trial::{Runner, Tally};
use super::units::{self, Unit};
use crate::replay::analysis::Analysis;
use crate::replay::script::Script;
use std::time::Instant;

/// What a shrink found.
pub struct Shrunk {
    pub best: Candidate,
    /// The original's tries.
    pub original: Tally,
    /// The result's tries (`confirm` of them, none skipped).
    pub result: Tally,
    pub phases: Vec<PhaseResult>,
    /// The budget ran out before the phases were done.
    pub out_of_time: bool,
}

/// The original never showed the fault with this engine.
#[derive(Debug)]
pub struct NotReproduced {
    pub tries: usize,
    /// Why no try ran at all (the engine cannot be started), when so.
    pub error: Option<String>,
}

struct Search<'a> {
    runner: &'a Runner<'a>,
    base: &'a Script,
    best: Candidate,
    tally: Tally,
    phases: Vec<PhaseResult>,
    start: Instant,
    from_lines: usize,
}

impl Search<'_> {
    /// Tries `cands` (best first); the first that reproduces becomes the best.
    fn improve(&mut self, cands: Vec<Candidate>) -> Option<usize> {
        if cands.is_empty() || self.runner.out_of_time() {
            return None;
        }
        let (i, tally) = self.runner.first_reproducing(&cands)?;
        self.best = cands.into_iter().nth(i)?;
        self.tally = tally;
        Some(i)
    }

    fn lines(&self) -> usize {
        self.best.lines(self.base)
    }

    /// Says where the search is, on stderr and in the report.
    fn phase_done(&mut self, name: &'static str) {
        let tries = self.runner.made.load(std::sync::atomic::Ordering::Relaxed);
        let elapsed = self.start.elapsed().as_secs_f64();
        eprintln!(
            "shrink: {name}: {} lines (from {}), {tries} tries, {elapsed:.1} s",
            self.lines(),
            self.from_lines
        );
        self.phases.push(PhaseResult {
            phase: name.to_owned(),
            lines: self.lines(),
            tries,
            elapsed_ms: u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX),
        });
    }

    /// Everything the original sent after the fault showed goes (the fixed steps stay).
    fn cut_after_fault(&mut self) {
        let Some(k) = self.tally.lines_to_fault else {
            return;
        };
        let fixed = units::fixed(self.base);
        let mut seen = 0;
        let drop: Vec<usize> = (0..self.base.steps.len())
            .filter(|&i| self.best.keep[i] && self.base.steps[i].send.is_some())
            .filter(|&i| {
                seen += 1;
                seen > k && !fixed[i]
            })
            .collect();
        if !drop.is_empty() {
            let c = self.best.without(drop);
            self.improve(vec![c]);
        }
    }

    /// ddmin over the units that still have a kept step.
    fn drop_units(&mut self, all: &[Unit]) {
        let live: Vec<usize> = (0..all.len())
            .filter(|&u| all[u].steps.iter().any(|&s| self.best.keep[s]))
            .collect();
        let runner = self.runner;
        let mut test = |sets: &[Vec<usize>]| -> Option<usize> {
            let cands = sets
                .iter()
                .map(|kept| {
                    let drop = live
                        .iter()
                        .filter(|u| !kept.contains(u))
                        .flat_map(|&u| all[u].steps.iter().copied());
                    self.best.without(drop)
                })
                .collect();
            self.improve(cands)
        };
        ddmin(live.clone(), &mut test, &|| runner.out_of_time());
    }

    /// Each kept `position` with moves: as many of its first moves as the fault allows become
    /// the FEN they lead to, then as many of its last moves as it allows go.
    fn cut_positions(&mut self) {
        // A variant's or Chess960's positions are not the standard board's.
        if (0..self.base.steps.len()).any(|i| {
            self.best.keep[i] && {
                let t = self.best.text(self.base, i);
                t.contains("UCI_Variant") || t.contains("UCI_Chess960 value true")
            }
        }) {
            return;
        }
        for i in 0..self.base.steps.len() {
            if !self.best.keep[i] || self.runner.out_of_time() {
                continue;
            }
            let Some(p) = Position::parse(self.best.text(self.base, i)) else {
                continue;
            };
            if p.moves.is_empty() {
                continue;
            }
            let n = p.moves.len();
            let jobs = self.runner.jobs.max(1);
            // The largest k whose cut still reproduces: all of them first, then a search with
            // as many points at once as there are cores.
            let best = self.best.clone();
            let front = |k: usize| Some(best.edited(i, p.from_move(k)?.text()));
            self.largest(n, jobs, &front);
            let p = Position::parse(self.best.text(self.base, i)).unwrap_or(p);
            let m = p.moves.len();
            let best = self.best.clone();
            let back = |k: usize| Some(best.edited(i, p.without_last(k).text()));
            self.largest(m, jobs, &back);
        }
    }

    /// The largest `k` in 1..=n whose candidate `make(k)` reproduces, searched from `n` down,
    /// `jobs` points at a time; the best takes it.
    fn largest(
        &mut self,
        n: usize,
        jobs: usize,
        make: &dyn Fn(usize) -> Option<Candidate>,
    ) -> Option<usize> {
        let (mut lo, mut hi) = (0usize, n + 1);
        let mut first = true;
        let mut found = None;
        while hi - lo > 1 && !self.runner.out_of_time() {
            let points: Vec<usize> = if first {
                vec![n]
            } else {
                let step = (hi - lo) as f64 / (jobs + 1) as f64;
                let mut p: Vec<usize> = (1..=jobs)
                    .map(|j| lo + (step * j as f64).round() as usize)
                    .filter(|&k| k > lo && k < hi)
                    .collect();
                p.dedup();
                p.reverse();
                p
            };
            first = false;
            if points.is_empty() {
                break;
            }
            let cands: Vec<(usize, Candidate)> =
                points.iter().filter_map(|&k| Some((k, make(k)?))).collect();
            let ks: Vec<usize> = cands.iter().map(|(k, _)| *k).collect();
            match self.improve(cands.into_iter().map(|(_, c)| c).collect()) {
                Some(j) => {
                    lo = ks[j];
                    found = Some(lo);
                    // Points above the one that reproduced did not.
                    if j > 0 {
                        hi = ks[j - 1];
                    }
                }
                // Points whose line cannot be made (a move the board refuses) count as
                // failed too.
                None => hi = points.last().copied().unwrap_or(lo),
            }
            if found == Some(n) {
                break;
            }
        }
        found
    }

    /// CECP: each game's first moves (the GUI's alone, from `new` or a `setboard`) as one
    /// `setboard` with the position they lead to (an engine that declared `setboard=1`), or as
    /// the `edit` lines that set it up (any other, when those are fewer than the moves), as
    /// many as the fault allows.
    fn cut_cecp_moves(&mut self, setboard: bool) {
        let lines: Vec<(usize, String)> = (0..self.base.steps.len())
            .filter(|&i| self.best.keep[i] && self.base.steps[i].send.is_some())
            .map(|i| (i, self.best.text(self.base, i).to_owned()))
            .collect();
        let borrowed: Vec<(usize, &str)> = lines.iter().map(|(i, t)| (*i, t.as_str())).collect();
        let jobs = self.runner.jobs.max(1);
        for run in super::cecp_moves::runs(&borrowed) {
            if self.runner.out_of_time() {
                break;
            }
            // The first of the moves becomes the `setboard` (or the `edit` lines), the others
            // up to k go.
            let best = self.best.clone();
            let make = |k: usize| {
                let first = run.moves.first()?.0;
                let set = if setboard {
                    run.setboard_after(k)?
                } else {
                    let lines = run.edit_after(k)?;
                    // Only where the moves were more lines than the set-up.
                    if lines.len() >= k {
                        return None;
                    }
                    lines.join("\n")
                };
                let c = best.edited(first, set);
                Some(c.without(run.moves[1..k].iter().map(|(s, _)| *s)))
            };
            self.largest(run.moves.len(), jobs, &make);
        }
    }

    /// Each kept `go` searching less: every limit at its floor, else a quarter, else half.
    fn lower_limits(&mut self) {
        for i in 0..self.base.steps.len() {
            if !self.best.keep[i] || self.runner.out_of_time() {
                continue;
            }
            let text = self.best.text(self.base, i).to_owned();
            let cands: Vec<Candidate> = [0, 4, 2]
                .iter()
                .filter_map(|&d| super::limits::lowered(&text, d))
                .map(|t| self.best.edited(i, t))
                .collect();
            self.improve(cands);
        }
    }
}

/// Shrinks `original`'s script `base` with `runner`; the result is tried `confirm` times.
pub fn shrink(
    original: &Analysis,
    base: &Script,
    runner: &Runner,
    confirm: usize,
) -> Result<Shrunk, NotReproduced> {
    let whole = Candidate::whole(base);
    let start = Instant::now();
    let Some(tally) = runner.original(&whole) else {
        let tries = runner.made.load(std::sync::atomic::Ordering::Relaxed);
        let error = runner.error.lock().ok().and_then(|e| e.clone());
        return Err(NotReproduced { tries, error });
    };
    let original_tally = tally.clone();
    let mut s = Search {
        runner,
        base,
        from_lines: whole.lines(base),
        best: whole,
        tally,
        phases: Vec::new(),
        start,
    };
    s.phase_done("original reproduces");
    s.cut_after_fault();
    s.phase_done("after the fault");
    s.drop_units(&units::games(base, original));
    s.phase_done("games");
    let fine = units::fine(base, original.session.protocol);
    s.drop_units(&fine);
    s.phase_done("searches, options, isready");
    s.cut_positions();
    let setboard = original
        .session
        .features
        .iter()
        .any(|f| f.name == "setboard" && f.value.flag() == Some(true));
    s.cut_cecp_moves(
        setboard && original.session.protocol == Some(crate::protocol::Protocol::Cecp),
    );
    s.phase_done("move lists");
    if original
        .session
        .protocol
        .is_some_and(|p| p != crate::protocol::Protocol::Uci)
    {
        // UCI's finest units are single lines already; CECP's and NBoard's game lines went
        // only with their games so far.
        s.drop_units(&units::single(base));
        s.phase_done("single lines");
    }
    s.lower_limits();
    s.phase_done("search limits");
    let out_of_time = runner.out_of_time();
    // The result's rate, from tries of its own; without a budget left, from the tries that
    // made it the best.
    let result = if out_of_time {
        s.tally.clone()
    } else {
        let mut r = runner.rate(&s.best, confirm);
        if r.recording.is_none() {
            r.recording = s.tally.recording.clone();
        }
        r
    };
    Ok(Shrunk {
        best: s.best,
        original: original_tally,
        result,
        phases: s.phases,
        out_of_time,
    })
}
