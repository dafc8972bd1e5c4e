//! Board tracking, sans-IO: chess positions through shakmaty (with the variants it knows),
//! 8x8 Othello with our own bitboards, and GGF games (the NBoard `set game` payload).
//!
//! Everything here is a pure function of strings; bad input becomes an error value or a
//! diagnostic, never a panic. Boards the project cannot model (xiangqi, 10x10 Othello...) are
//! `Board::Unknown`: the protocol layer keeps decoding, it just cannot judge legality.

pub mod chess;
pub mod ggf;
pub mod othello;
pub mod pgn;

pub use chess::{
    BoardError, CastlingNotation, ChessBoard, ChessEditor, ChessVariant, DrawClaim, EditDiagnostic,
    EditOutcome, EndReason, GameEnd, IllegalMove, IllegalReason, Played, PositionCache,
    PositionUpdate, UciPositionError,
};
pub use ggf::{GgfDiagnostic, GgfGame, GgfMove, GgfReplay};
pub use othello::{
    BoardTextError, IllegalMove as OthelloIllegal, OthelloBoard, OthelloMove, OthelloSquare,
};

/// The two colours, shared by chess (White moves first) and Othello (Black moves first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl Side {
    #[must_use]
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The board of one game, whatever the game.
#[derive(Debug, Clone, PartialEq)]
pub enum Board {
    Chess(Box<ChessBoard>),
    Othello(OthelloBoard),
    /// A game or variant we do not model (xiangqi, shogi, capablanca, 10x10 Othello...).
    Unknown {
        variant: String,
    },
}

impl Board {
    /// FEN for chess, the compact 64-character string plus side for Othello, and a
    /// placeholder naming the variant when the board is unknown.
    #[must_use]
    pub fn display_string(&self) -> String {
        match self {
            Board::Chess(b) => b.fen(),
            Board::Othello(b) => b.display_string(),
            Board::Unknown { variant } => format!("(board unknown: {variant})"),
        }
    }

    /// Side to move, when known.
    #[must_use]
    pub fn turn(&self) -> Option<Side> {
        match self {
            Board::Chess(b) => Some(b.turn()),
            Board::Othello(b) => Some(b.turn()),
            Board::Unknown { .. } => None,
        }
    }

    #[must_use]
    pub fn is_known(&self) -> bool {
        !matches!(self, Board::Unknown { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_string_per_game() {
        let chess = Board::Chess(Box::new(
            ChessBoard::startpos(ChessVariant::Standard).expect("standard start"),
        ));
        assert_eq!(
            chess.display_string(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(chess.turn(), Some(Side::White));
        let othello = Board::Othello(OthelloBoard::new());
        assert_eq!(othello.turn(), Some(Side::Black));
        assert!(othello.display_string().ends_with(" *"));
        let unknown = Board::Unknown {
            variant: "xiangqi".into(),
        };
        assert!(!unknown.is_known());
        assert_eq!(unknown.turn(), None);
        assert!(unknown.display_string().contains("xiangqi"));
    }
}
