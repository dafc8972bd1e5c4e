//! The one cause a failed card leads with, with what to fix. (That a hang the probe ended
//! itself is not counted twice is the judge's: see `X-HANG` in the catalogue.)

use super::report::{Cause, Status, StepReport};
use crate::rules::catalogue::RuleId;
use crate::rules::{Finding, Severity};

/// The cause a failed card leads with: the first error in step order (a stalled step counts
/// as one), else an error on no step's lines.
pub fn root_cause(steps: &[StepReport], outside: &[Finding]) -> Option<Cause> {
    for st in steps {
        if let Some(f) = st.findings.iter().find(|f| f.severity == Severity::Error) {
            let culprit = st
                .culprit
                .as_ref()
                .map(|line| format!(" (culprit: `{line}`: the engine went right after it)"))
                .unwrap_or_default();
            return Some(Cause {
                step: Some(st.index),
                step_id: Some(st.id.to_owned()),
                rule: Some(f.rule),
                line: f.line,
                what: format!("{}{culprit}", f.message),
                fix: fix(f.rule),
            });
        }
        if st.status == Status::Stalled {
            return Some(Cause {
                step: Some(st.index),
                step_id: Some(st.id.to_owned()),
                rule: None,
                line: st.lines.map(|[a, _]| a),
                what: st
                    .reason
                    .clone()
                    .unwrap_or_else(|| "the probe gave up waiting".to_owned()),
                fix: "answer every command that owes an answer (see the hang verdict of the \
                      step), within the timeout"
                    .to_owned(),
            });
        }
    }
    let outside = outside
        .iter()
        .find(|f| f.severity == Severity::Error)
        .map(|f| Cause {
            step: None,
            step_id: None,
            rule: Some(f.rule),
            line: f.line,
            what: f.message.clone(),
            fix: fix(f.rule),
        });
    // No error said why, yet steps were not run: the engine went before the suite's end.
    outside.or_else(|| {
        let st = steps.iter().find(|st| st.status == Status::NotRun)?;
        Some(Cause {
            step: Some(st.index),
            step_id: Some(st.id.to_owned()),
            rule: None,
            line: None,
            what: st
                .reason
                .clone()
                .unwrap_or_else(|| "the engine was gone before this step".to_owned()),
            fix: "keep running and answering until `quit` (see how the engine ended, below)"
                .to_owned(),
        })
    })
}

/// What an author does about a rule: a sentence for the faults a probe meets most, else the
/// spec sentence the rule rests on.
pub fn fix(rule: RuleId) -> String {
    let said = match rule {
        RuleId::UciUciokTimeout => {
            "print `uciok` after the `id` and `option` lines, in answer to `uci`, and flush stdout"
        }
        RuleId::UciIsreadyTimeout => {
            "answer every `isready` with `readyok`, also while searching and after `setoption`"
        }
        RuleId::UciBestmoveMissingAfterStop => {
            "on `stop`, end the search and print `bestmove` at once"
        }
        RuleId::UciBestmoveIllegal | RuleId::CecpMoveIllegal | RuleId::NboardMoveIllegal => {
            "play only legal moves of the position the GUI sent (read `position` / the moves \
             sent, including castling and en passant)"
        }
        RuleId::UciBestmoveInInfinite => {
            "in `go infinite`, keep searching until `stop`, however deep the search gets"
        }
        RuleId::UciBestmoveInPonder => {
            "in `go ponder`, print no `bestmove` before `ponderhit` or `stop`"
        }
        RuleId::CecpFeatureTimeout => {
            "answer `protover 2` with `feature ... done=1` (or `done=0` first, then `done=1`)"
        }
        RuleId::CecpPongTimeout => "answer `ping N` with `pong N`",
        RuleId::CecpPongBeforeMove => {
            "answer a `ping` sent while thinking only after the move it owes"
        }
        RuleId::XEngineExit => {
            "do not exit or close stdout while the GUI waits for an answer; the engine's \
             stderr (on the card) may say why it died"
        }
        RuleId::XHang => "answer what the GUI waits for (the hang verdict says what)",
        RuleId::XClockUnderflow => "move within the time the clock gives",
        RuleId::UciQuitNoExit | RuleId::CecpQuitNoExit => "exit promptly on `quit`",
        _ => "",
    };
    if said.is_empty() {
        format!("what the spec asks: {}", rule.rule().source)
    } else {
        said.to_owned()
    }
}
