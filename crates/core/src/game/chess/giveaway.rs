//! Giveaway (ICC wild 26, Fairy-Stockfish's and python-chess's `giveaway`): antichess with
//! castling. shakmaty's Antichess has no castling rights, so the board keeps giveaway's
//! rights itself (`ChessBoard::giveaway_castles`, the rooks that may still castle) and plays a
//! castling move it has checked as shakmaty's own `Move::Castle`. The rules, as
//! Fairy-Stockfish plays them: the king and that rook unmoved, the squares between them and
//! both destinations empty, and no capture available (captures are compulsory); there is no
//! check, so attacked squares do not matter.

use super::{CastlingNotation, ChessBoard, ChessVariant, IllegalMove, IllegalReason, Played};
use shakmaty::{Bitboard, Color, EnPassantMode, Move, Position, Role, Setup, Square, fen::Fen};

/// The castling rights of a giveaway FEN that fit its board: a rook on its corner with its
/// king on the e-file square of the back rank.
pub(super) fn valid_rights(setup: &Setup) -> (Bitboard, bool) {
    let mut kept = Bitboard::EMPTY;
    let mut dropped = false;
    for sq in setup.castling_rights {
        let color = if sq.rank() == shakmaty::Rank::First {
            Color::White
        } else {
            Color::Black
        };
        let king = match color {
            Color::White => Square::E1,
            Color::Black => Square::E8,
        };
        let fits = matches!(sq, Square::A1 | Square::H1 | Square::A8 | Square::H8)
            && setup.board.piece_at(sq) == Some(Role::Rook.of(color))
            && setup.board.piece_at(king) == Some(Role::King.of(color));
        if fits {
            kept.add(sq);
        } else {
            dropped = true;
        }
    }
    (kept, dropped)
}

/// Every giveaway right: the start position's.
pub(super) fn all_rights() -> Bitboard {
    Bitboard::from_iter([Square::A1, Square::H1, Square::A8, Square::H8])
}

impl ChessBoard {
    /// The castling move `from`-`to` means in giveaway (king two squares, or king takes its
    /// own rook), when it is one: `Some(Ok)` if legal here, `Some(Err)` with the reason if not.
    pub(super) fn giveaway_castle(
        &self,
        text: &str,
        from: Square,
        to: Square,
    ) -> Option<Result<Move, IllegalMove>> {
        if self.variant != ChessVariant::Giveaway {
            return None;
        }
        let board = self.pos.board();
        let us = self.pos.turn();
        if board.piece_at(from) != Some(Role::King.of(us)) || from.rank() != to.rank() {
            return None;
        }
        let rook = if board.piece_at(to) == Some(Role::Rook.of(us)) {
            to
        } else if from.distance(to) == 2 {
            let file = if to > from {
                shakmaty::File::H
            } else {
                shakmaty::File::A
            };
            Square::from_coords(file, from.rank())
        } else {
            return None;
        };
        Some(self.castle_if_legal(text, from, rook))
    }

    /// `O-O` / `O-O-O` in giveaway.
    pub(super) fn giveaway_castle_san(
        &self,
        text: &str,
        side: shakmaty::CastlingSide,
    ) -> Option<Result<Move, IllegalMove>> {
        if self.variant != ChessVariant::Giveaway {
            return None;
        }
        let back = self.pos.turn().backrank();
        let king = Square::from_coords(shakmaty::File::E, back);
        let rook = Square::from_coords(
            match side {
                shakmaty::CastlingSide::KingSide => shakmaty::File::H,
                shakmaty::CastlingSide::QueenSide => shakmaty::File::A,
            },
            back,
        );
        Some(self.castle_if_legal(text, king, rook))
    }

    fn castle_if_legal(&self, text: &str, king: Square, rook: Square) -> Result<Move, IllegalMove> {
        let refuse = |reason| Err(IllegalMove::new(text, reason));
        let not_legal = IllegalReason::NotLegal { in_check: false };
        if !self.giveaway_castles.contains(rook)
            || king != Square::from_coords(shakmaty::File::E, self.pos.turn().backrank())
        {
            return refuse(not_legal);
        }
        let (king_to, rook_to) = if rook > king {
            (
                Square::from_coords(shakmaty::File::G, king.rank()),
                Square::from_coords(shakmaty::File::F, king.rank()),
            )
        } else {
            (
                Square::from_coords(shakmaty::File::C, king.rank()),
                Square::from_coords(shakmaty::File::D, king.rank()),
            )
        };
        let occupied = self.pos.board().occupied();
        let path = (shakmaty::attacks::between(king, rook)
            | Bitboard::from(king_to)
            | Bitboard::from(rook_to))
            & !Bitboard::from(king)
            & !Bitboard::from(rook);
        if !(path & occupied).is_empty() {
            return refuse(not_legal);
        }
        if self.pos.legal_moves().iter().any(|m| m.is_capture()) {
            return refuse(IllegalReason::MustCapture);
        }
        Ok(Move::Castle { king, rook })
    }

    /// The castling moves legal here (giveaway only), as UCI (`e1g1`).
    pub(super) fn giveaway_castles_uci(&self) -> Vec<String> {
        let back = self.pos.turn().backrank();
        let king = Square::from_coords(shakmaty::File::E, back);
        let mut out = Vec::new();
        for (rook_file, to_file) in [
            (shakmaty::File::H, shakmaty::File::G),
            (shakmaty::File::A, shakmaty::File::C),
        ] {
            let to = Square::from_coords(to_file, back);
            if self
                .giveaway_castles
                .contains(Square::from_coords(rook_file, back))
                && let Some(Ok(_)) = self.giveaway_castle("", king, to)
            {
                out.push(format!("{king}{to}"));
            }
        }
        out
    }

    /// Giveaway: the rights a move takes away (the king or a rook moved, a rook captured).
    pub(super) fn giveaway_after(&mut self, m: &Move) {
        if self.variant != ChessVariant::Giveaway || self.giveaway_castles.is_empty() {
            return;
        }
        let (from, to) = match *m {
            Move::Castle { king, rook } => (Some(king), rook),
            Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (Some(from), to),
            Move::Put { to, .. } => (None, to),
        };
        for sq in self.giveaway_castles {
            let back = sq.rank();
            let king = Square::from_coords(shakmaty::File::E, back);
            if Some(sq) == from || sq == to || Some(king) == from {
                self.giveaway_castles.discard(sq);
            }
        }
    }

    /// The FEN with giveaway's castling rights, which shakmaty's position does not hold.
    pub(super) fn giveaway_fen(&self) -> Option<String> {
        if self.giveaway_castles.is_empty() {
            return None;
        }
        let mut setup = self.pos.to_setup(EnPassantMode::Legal);
        setup.castling_rights = self.giveaway_castles;
        Some(
            Fen::try_from_setup(setup)
                .unwrap_or_else(shakmaty::fen::LossyFenError::ignore)
                .to_string(),
        )
    }

    /// Plays a checked giveaway castling move.
    pub(super) fn play_giveaway_castle(
        &mut self,
        m: Result<Move, IllegalMove>,
        notation: CastlingNotation,
    ) -> Result<Played, IllegalMove> {
        let m = m?;
        Ok(self.apply(Some(m), Some(notation)))
    }
}
