//! How a chess game ends on the board: mate, stalemate, material, a variant's own goal, and
//! the draws a side may claim. Apart from the board's moves and notations because its callers
//! ask it on their own (a move after the end, a game that stopped without a result, a probe's
//! position), and it is the one reader of the repetition history the moves keep.

use shakmaty::{EnPassantMode, Position, variant::VariantPosition, zobrist::Zobrist64};

use super::{ChessBoard, ChessVariant, fast_legal, side_of};
use crate::game::Side;

/// Why a game is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    /// The variant's own goal: exploded king, third check, king on the hill, race finished,
    /// antichess out of pieces or moves, horde wiped out.
    VariantEnd,
    /// Losers: a side has nothing but its king left (and so wins).
    BareKing,
}

/// A draw the side to move may claim (the game goes on until someone does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawClaim {
    /// Threefold repetition, now or with the next move.
    Threefold,
    /// Fifty moves by each side without a capture or pawn move, now or with the next move.
    FiftyMoves,
}

impl DrawClaim {
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            DrawClaim::Threefold => "threefold repetition",
            DrawClaim::FiftyMoves => "fifty-move rule",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameEnd {
    /// `None` for a draw, or when we do not know the variant's scoring (losers stalemate).
    pub winner: Option<Side>,
    pub reason: EndReason,
}

impl ChessBoard {
    /// Whether the game is over on the board, and who won.
    #[must_use]
    pub fn outcome(&self) -> Option<GameEnd> {
        if self.variant == ChessVariant::Losers {
            return self.losers_outcome();
        }
        // Most positions have a legal move, and one ordinary legal move proves it for far less
        // than listing them all; then only a material draw can end the game.
        if let VariantPosition::Chess(c) = &self.pos
            && fast_legal::has_ordinary_move(c)
        {
            return c.is_insufficient_material().then_some(GameEnd {
                winner: None,
                reason: EndReason::InsufficientMaterial,
            });
        }
        let reason = if self.pos.is_variant_end() {
            EndReason::VariantEnd
        } else if self.pos.is_checkmate() {
            EndReason::Checkmate
        } else if self.pos.is_stalemate() {
            EndReason::Stalemate
        } else if self.pos.is_insufficient_material() {
            EndReason::InsufficientMaterial
        } else {
            return None;
        };
        let winner = self.pos.outcome().winner().map(side_of);
        Some(GameEnd { winner, reason })
    }

    /// ICC losers: the side that loses all its pieces but the king, or gets mated, wins.
    /// Stalemate scoring is not modelled: reported with no winner.
    fn losers_outcome(&self) -> Option<GameEnd> {
        let board = self.pos.board();
        for color in [self.pos.turn(), !self.pos.turn()] {
            if board.by_color(color) == board.kings() & board.by_color(color) {
                return Some(GameEnd {
                    winner: Some(side_of(color)),
                    reason: EndReason::BareKing,
                });
            }
        }
        if self.pos.is_checkmate() {
            return Some(GameEnd {
                winner: Some(self.turn()),
                reason: EndReason::Checkmate,
            });
        }
        if self.pos.is_stalemate() {
            return Some(GameEnd {
                winner: None,
                reason: EndReason::Stalemate,
            });
        }
        None
    }

    /// The side to move may claim a draw under the fifty-move rule.
    #[must_use]
    pub fn fifty_move_claimable(&self) -> bool {
        self.pos.halfmoves() >= 100
    }

    /// How often the current position has occurred (counting only moves played on this board).
    #[must_use]
    pub fn repetitions(&self) -> usize {
        match self.history.last() {
            Some(now) => self.history.iter().filter(|h| *h == now).count(),
            None => 1,
        }
    }

    #[must_use]
    pub fn threefold_claimable(&self) -> bool {
        self.repetitions() >= 3
    }

    /// The draw the side to move could claim here, as FIDE 9.2 and 9.3 allow it: the position
    /// has occurred three times, or a legal move would make it so (the claim is made by writing
    /// that move); fifty moves without a capture or pawn move, or a move that completes them.
    /// `None` once the game is over on the board. Repetitions count the moves played on this
    /// board since the last irreversible one.
    #[must_use]
    pub fn draw_claim(&self) -> Option<DrawClaim> {
        if self.outcome().is_some() {
            return None;
        }
        if self.threefold_claimable() {
            return Some(DrawClaim::Threefold);
        }
        if self.fifty_move_claimable() {
            return Some(DrawClaim::FiftyMoves);
        }
        let seen = |h: Zobrist64| self.history.iter().filter(|x| **x == h).count();
        let mut fifty = false;
        for m in self.legal_moves() {
            let irreversible = self.pos.is_irreversible(m);
            let mut after = self.pos.clone();
            after.play_unchecked(m);
            if !irreversible && seen(after.zobrist_hash(EnPassantMode::Legal)) >= 2 {
                return Some(DrawClaim::Threefold);
            }
            fifty |= !m.is_zeroing() && after.halfmoves() >= 100;
        }
        fifty.then_some(DrawClaim::FiftyMoves)
    }
}

pub(super) fn describe_end(end: GameEnd) -> String {
    let what = match end.reason {
        EndReason::Checkmate => "checkmate",
        EndReason::Stalemate => "stalemate",
        EndReason::InsufficientMaterial => "insufficient material",
        EndReason::VariantEnd => "variant end",
        EndReason::BareKing => "bare king",
    };
    match end.winner {
        Some(side) => format!("{what}, {side} wins"),
        None => what.to_string(),
    }
}
