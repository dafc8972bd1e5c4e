//! Why a position or a move was refused, worded for a person reading a protocol log.

use thiserror::Error;

/// A FEN or position the board layer cannot use.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    #[error("unsupported variant {0}: board unknown")]
    UnsupportedVariant(String),
    #[error("malformed FEN: {0}")]
    BadFen(String),
    #[error("impossible position: {0}")]
    BadPosition(String),
}

/// A move the board refused, with the text as received.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("illegal move {text:?}: {reason}")]
pub struct IllegalMove {
    pub text: String,
    pub reason: IllegalReason,
}

impl IllegalMove {
    pub(crate) fn new(text: &str, reason: IllegalReason) -> IllegalMove {
        IllegalMove {
            text: text.to_string(),
            reason,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalReason {
    #[error("not a move in any notation this protocol uses")]
    Syntax,
    #[error("no piece on {0}")]
    NoPiece(String),
    #[error("the piece on {square} belongs to {owner}, but {turn} is to move")]
    WrongColour {
        square: String,
        owner: String,
        turn: String,
    },
    #[error("not a legal move{}", if *.in_check { " (the side to move is in check)" } else { "" })]
    NotLegal { in_check: bool },
    #[error("{0} matches more than one legal move")]
    Ambiguous(String),
    #[error("drops are not part of this variant")]
    DropNotInVariant,
    #[error("no {0} in the pocket, or it cannot be dropped there")]
    BadDrop(String),
    #[error("a capture is available and capturing is compulsory")]
    MustCapture,
    #[error("null move while in check")]
    NullInCheck,
    #[error("the game is already over ({0})")]
    GameOver(String),
    /// The move may be legal but our rules model cannot play it (multi-leg moves of fairy
    /// variants). Callers should switch to "board unknown" rather than flag a violation.
    #[error("not modelled: {0}")]
    NotModelled(String),
}

impl IllegalReason {
    /// True when the board cannot follow the game any more but the move itself may be fine.
    #[must_use]
    pub fn is_not_modelled(&self) -> bool {
        matches!(self, IllegalReason::NotModelled(_))
    }
}
