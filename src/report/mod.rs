//! `kibitzer report`: the health of a whole tournament, per engine. Every input is judged by
//! the one pipeline `check` runs ([`crate::input::judged`]), on every core, and folded into
//! per-engine rows as soon as it is read, so memory does not grow with the number of files.
//! Reports merge exactly ([`merge`]), so a farm's workers can each report their own games.
//!
//! Data flow: [`walk`] lists the inputs; [`collect`] judges one into a report of its own;
//! [`merge`] adds reports; [`text`] and [`html`] render the settled whole.

pub mod collect;
pub mod histogram;
pub mod html;
pub mod merge;
pub mod model;
pub mod text;
pub mod walk;

pub use model::{Ending, EngineReport, Report, SCHEMA};

use crate::input::judged::JudgeInput;
use rayon::prelude::*;
use walk::Input;

/// Judges every input on `jobs` threads (0: one per core) into one settled report. `tick` is
/// called once per input done, from whichever thread did it.
pub fn run(
    inputs: &[Input],
    judge: &JudgeInput,
    empty: &Report,
    jobs: usize,
    tick: &(dyn Fn() + Sync),
) -> anyhow::Result<Report> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
    let mut report = pool.install(|| {
        inputs
            .par_iter()
            .fold(
                || empty.clone(),
                |mut r, i| {
                    collect::collect(&i.path, &i.shown, i.found, judge, &mut r);
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
    report.settle();
    Ok(report)
}
