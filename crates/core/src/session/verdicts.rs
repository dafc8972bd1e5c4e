//! The runners' verdicts as the decoded session keeps them, each checked by kibitzer where
//! the log gives what it needs: an illegal-move verdict that quotes the position is replayed
//! on a board, so a user sees at once whether the runner or the engine was wrong.

use crate::game::chess::{ChessBoard, ChessVariant};
use crate::protocol::{Dir, uci};
use crate::recording::{RunnerVerdict, VerdictKind};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::model::At;

/// A runner's verdict seen in the log, with kibitzer's own view of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VerdictSeen {
    pub at: At,
    /// The line of the log it came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// The runner's words.
    pub text: String,
    pub verdict: RunnerVerdict,
    /// What kibitzer found when it checked the claim (absent when it could not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kibitzer: Option<VerdictCheck>,
}

/// Whether kibitzer agrees with the runner (`yes` or `no`), and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "agrees", content = "why")]
pub enum VerdictCheck {
    #[serde(rename = "yes")]
    Agrees(String),
    #[serde(rename = "no")]
    Disagrees(String),
}

/// Replays the quoted position and tries the move: only illegal-move verdicts that quote a
/// UCI `position` can be checked this way.
pub fn check(v: &RunnerVerdict) -> Option<VerdictCheck> {
    if v.kind != VerdictKind::IllegalMove {
        return None;
    }
    let mv = v.mv.as_deref()?;
    let cmd = v.position.as_deref()?;
    let mut diags = Vec::new();
    let uci::Msg::Position(p) = uci::parse(Dir::ToEngine, cmd, &mut diags) else {
        return None;
    };
    let moves: Vec<&str> = p.moves.iter().collect();
    let (mut board, _) =
        ChessBoard::from_uci_position(p.fen.as_deref(), &moves, ChessVariant::Standard, false)
            .ok()?;
    let fen = board.fen();
    Some(match board.play_uci(mv) {
        Ok(_) => VerdictCheck::Disagrees(format!("{mv} is legal in {fen}")),
        Err(e) => VerdictCheck::Agrees(format!("{mv} is illegal in {fen}: {e}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(mv: &str, position: &str) -> RunnerVerdict {
        RunnerVerdict {
            kind: VerdictKind::IllegalMove,
            engine: Some("sf1".into()),
            mv: Some(mv.into()),
            position: Some(position.into()),
            command: None,
        }
    }

    #[test]
    fn a_quoted_position_settles_who_was_wrong() {
        let c = check(&verdict("aaaa", "position startpos moves e2e4")).unwrap();
        assert!(matches!(c, VerdictCheck::Agrees(_)), "{c:?}");
        let c = check(&verdict("e7e5", "position startpos moves e2e4")).unwrap();
        assert!(matches!(c, VerdictCheck::Disagrees(_)), "{c:?}");
        assert_eq!(
            check(&RunnerVerdict {
                position: None,
                ..verdict("e7e5", "")
            }),
            None
        );
    }
}
