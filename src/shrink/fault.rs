//! The fault a candidate must still show. What is a fault is the judge's word (`rules/`, through
//! the replayed session's findings and hang verdicts) or the engine's end; this module only
//! compares rule ids and sides, exits, stalls, or asks the user's command.

use crate::replay::analysis::Analysis;
use crate::replay::run::Outcome;
use crate::rules::{RuleId, Side};
use std::path::Path;

/// What to keep.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Fault {
    /// A finding of this rule (by this side, when given).
    Rule { rule: RuleId, side: Option<Side> },
    /// The engine died by a signal or exited non-zero, of its own.
    Crash,
    /// An answer never came: the watchdog fired, or the session ended owing one.
    Hang,
    /// The engine played an illegal move.
    IllegalMove,
    /// The user's command, given the replayed recording: exit status 0 = reproduced.
    Predicate(String),
}

/// The engine's illegal moves, as the catalogue names them.
const ILLEGAL_MOVES: &[RuleId] = &[
    RuleId::UciBestmoveIllegal,
    RuleId::UciPonderMoveIllegal,
    RuleId::CecpMoveIllegal,
    RuleId::NboardMoveIllegal,
];

impl Fault {
    /// The first error the judge found in the original (replay's own diagnostics left out):
    /// what `shrink` keeps when not told.
    pub fn first_error(original: &Analysis) -> Option<Fault> {
        original
            .findings
            .iter()
            .filter(|f| f.severity == crate::rules::Severity::Error)
            .filter(|f| f.rule.family() != crate::rules::Family::Replay)
            .min_by_key(|f| f.seq)
            .map(|f| Fault::Rule {
                rule: f.rule,
                side: Some(f.side),
            })
    }

    /// In words, for the summary and the report.
    pub fn describe(&self) -> String {
        match self {
            Fault::Rule {
                rule,
                side: Some(s),
            } => format!("{rule} ({})", s.as_str()),
            Fault::Rule { rule, side: None } => rule.to_string(),
            Fault::Crash => "crash (a signal, or a non-zero exit)".into(),
            Fault::Hang => "hang (an answer that never came)".into(),
            Fault::IllegalMove => "illegal move by the engine".into(),
            Fault::Predicate(cmd) => format!("predicate `{cmd}`"),
        }
    }

    /// Did the run show it? `Some(seq)`: where in the run's recording (`u64::MAX` when it is
    /// the run as a whole: an end, a stall, the user's verdict). `recording` is the run's
    /// recording, for a predicate.
    pub fn shown(&self, outcome: &Outcome, a: &Analysis, recording: &Path) -> Option<u64> {
        let whole = |yes: bool| yes.then_some(u64::MAX);
        match self {
            Fault::Rule { rule, side } => a
                .findings
                .iter()
                .filter(|f| f.rule == *rule && side.is_none_or(|s| f.side == s))
                .map(|f| f.seq)
                .min(),
            Fault::IllegalMove => a
                .findings
                .iter()
                .filter(|f| ILLEGAL_MOVES.contains(&f.rule) && f.side == Side::Engine)
                .map(|f| f.seq)
                .min(),
            Fault::Crash => whole(a.exit.as_ref().is_some_and(|e| {
                !e.killed && (e.signal.is_some() || e.code.is_some_and(|c| c != 0))
            })),
            Fault::Hang => whole(
                outcome.stall.is_some()
                    || a.hangs
                        .iter()
                        .any(|h| h.label != "PENDING" || a.exit.as_ref().is_some_and(|e| e.killed)),
            ),
            Fault::Predicate(cmd) => whole(predicate(cmd, recording)),
        }
    }
}

/// Runs `sh -c 'CMD "$@"' sh RECORDING` with `KIBITZER_RECORDING` set: the recording is the
/// command's last argument, and in the environment for a command that wants it elsewhere.
fn predicate(cmd: &str, recording: &Path) -> bool {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{cmd} \"$@\""))
        .arg("sh")
        .arg(recording)
        .env("KIBITZER_RECORDING", recording)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
