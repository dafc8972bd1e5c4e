//! `kibitzer report`: the health of a whole tournament, per engine. Every input is judged by
//! the one pipeline `check` runs ([`crate::input::judged`]), on every core, and folded into
//! per-engine rows as soon as it is read, so memory does not grow with the number of files.
//! Reports merge exactly ([`merge`]), so a farm's workers can each report their own games.
//!
//! Data flow: [`walk`] lists the inputs; [`collect`] judges one into a report of its own;
//! [`merge`] adds reports; [`text`] and [`html`] render the settled whole.

pub mod collect;
pub mod html;
pub mod merge;
pub mod model;
pub mod runner_games;
pub mod text;
pub mod walk;

pub use model::{Ending, EngineReport, Report, SCHEMA};

use crate::input::judged::JudgeInput;
use rayon::prelude::*;
use walk::Input;

/// Judges every input on `jobs` threads (0: one per core) into one settled report, the
/// runner's PGNs among them read first for the games' results. `tick` is called once per
/// input done, from whichever thread did it.
pub fn run(
    inputs: &[Input],
    judge: &JudgeInput,
    empty: &Report,
    jobs: usize,
    tick: &(dyn Fn() + Sync),
) -> anyhow::Result<Report> {
    let (pgns, traffic): (Vec<&Input>, Vec<&Input>) = inputs
        .iter()
        .filter(|i| i.unreadable.is_none())
        .partition(|i| runner_games::is_pgn(&i.path, i.found == collect::Found::Named));
    let mut runner = runner_games::RunnerGames::default();
    let mut unreadable: Vec<model::InputProblem> = inputs
        .iter()
        .filter_map(|i| {
            Some(model::InputProblem {
                file: i.shown.clone(),
                error: i.unreadable.clone()?,
            })
        })
        .collect();
    for p in pgns {
        if let Err(e) = runner.read(&p.path, &p.shown) {
            unreadable.push(model::InputProblem {
                file: p.shown.clone(),
                error: format!("{e:#}"),
            });
        }
        tick();
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
    let mut report = pool.install(|| {
        traffic
            .par_iter()
            .fold(
                || empty.clone(),
                |mut r, i| {
                    collect::collect(&i.path, &i.shown, i.found, judge, &runner, &mut r);
                    tick();
                    r
                },
            )
            .reduce(
                || empty.clone(),
                |mut a, b| {
                    a.merge(b);
                    a
                },
            )
    });
    for p in unreadable {
        report.inputs.unreadable(p);
    }
    let pgn = &mut report.inputs;
    pgn.pgn_files = runner.files.len() as u64;
    pgn.pgn_games = runner.len() as u64;
    let unmatched: Vec<_> = runner.unmatched().collect();
    pgn.pgn_games_matched = pgn.pgn_games - unmatched.len() as u64;
    pgn.pgn_games_unmatched = unmatched
        .iter()
        .take(model::PLACES)
        .map(|g| model::PgnGameRef {
            file: g.file.clone(),
            line: g.line,
            white: g.players[0].clone(),
            black: g.players[1].clone(),
            result: g.result.clone(),
        })
        .collect();
    report.settle();
    Ok(report)
}
