//! One try, in a process of its own: the engine driver reaps and sweeps the children of its
//! process, so engines run side by side each belong to another `kibitzer shrink` process (the
//! parent starts it with `--try-request`), which replays the candidate and answers in JSON.

use super::candidate::Candidate;
use super::fault::Fault;
use crate::recording::ReplayOf;
use crate::replay::Config;
use crate::replay::script::Script;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What the parent asks for.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Request {
    pub candidate: Candidate,
    pub fault: Fault,
    /// Where the try's recording goes.
    pub recording: PathBuf,
}

/// What the try gave.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Answer {
    /// The fault showed: the GUI lines sent up to it.
    pub lines_to_fault: Option<usize>,
    /// The try could not run (the engine cannot be started, the recording not written).
    pub error: Option<String>,
}

/// Replays `req`'s candidate of `base` against `cfg`'s engine and asks the fault.
pub fn run(base: &Script, cfg: &Config, replay_of: ReplayOf, req: &Request) -> Answer {
    let script = req.candidate.script(base);
    let protocol = cfg.check.protocol;
    match crate::replay::run_once(
        &script,
        protocol,
        replay_of,
        &req.recording,
        cfg,
        &mut |_| {},
    ) {
        Ok((outcome, a)) => Answer {
            lines_to_fault: req
                .fault
                .shown(&outcome, &a, &req.recording)
                .map(|at| a.gui_lines().filter(|l| l.seq <= at).count()),
            error: None,
        },
        Err(e) => Answer {
            lines_to_fault: None,
            error: Some(format!("{e:#}")),
        },
    }
}
