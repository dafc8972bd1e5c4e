//! The positions along a PV, played with a few bitboard operations per move.
//!
//! Checking the PVs of a long `info` flood is mostly playing moves: about two million new
//! ones in a 120 MB recording. shakmaty's `Board` finds a piece by trying its role boards one
//! after the other and clears a square from all nine of them to move a piece, so a move played
//! through it cost about 400 instructions. A [`Light`] keeps the same bitboards without
//! shakmaty's bookkeeping: the move names the piece it moves and the one it takes, so playing
//! it touches only their boards. Only ordinary moves are played here; castling, en passant and
//! anything illegal go back to the full position ([`Light::to_chess`]), which also words the
//! reason. Tested against shakmaty below.

use super::fast_legal::{KING, PAWN, ordinary_on};
use shakmaty::{
    Bitboard, Board, ByColor, ByRole, CastlingMode, Chess, Color, EnPassantMode, FromSetup,
    Position, Rank, Role, Setup, Square,
};

/// A standard chess position as far as move legality needs it: the board, the side to move,
/// the castling rights and the en passant square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Light {
    /// Squares of each role, indexed as `Role::ALL` (pawn first): `roles[role as usize - 1]`.
    roles: [u64; 6],
    /// Squares of each colour, indexed by shakmaty's `Color as usize` (black 0, white 1).
    colors: [u64; 2],
    /// Rooks that may still castle, as shakmaty keeps them.
    castling: Bitboard,
    turn: Color,
    /// The square a pawn just passed over with a double step.
    ep: Option<Square>,
}

impl Light {
    pub(crate) fn of(pos: &Chess) -> Light {
        let (r, c) = pos.board().clone().into_bitboards();
        Light {
            roles: [r.pawn, r.knight, r.bishop, r.rook, r.queen, r.king].map(|b| b.0),
            colors: [c.black.0, c.white.0],
            castling: pos.castles().castling_rights(),
            turn: pos.turn(),
            ep: pos.ep_square(EnPassantMode::Always),
        }
    }

    /// The full position; `None` if shakmaty finds it inconsistent (then the caller checks
    /// the slow way from a position it trusts).
    pub(crate) fn to_chess(self, mode: CastlingMode) -> Option<Chess> {
        let [pawn, knight, bishop, rook, queen, king] = self.roles.map(Bitboard);
        let by_role = ByRole {
            pawn,
            knight,
            bishop,
            rook,
            queen,
            king,
        };
        let by_color = ByColor {
            black: Bitboard(self.colors[0]),
            white: Bitboard(self.colors[1]),
        };
        let setup = Setup {
            board: Board::try_from_bitboards(by_role, by_color).ok()?,
            promoted: Bitboard::EMPTY,
            pockets: None,
            turn: self.turn,
            castling_rights: self.castling,
            ep_square: self.ep,
            remaining_checks: None,
            halfmoves: 0,
            fullmoves: std::num::NonZeroU32::MIN,
        };
        <Chess as FromSetup>::from_setup(setup, mode).ok()
    }

    /// The position after the move `from`-`to` (promoting to `promotion`) when it is an
    /// ordinary legal move here: not castling, not en passant. `None` for anything else; the
    /// caller then asks the full position.
    #[cfg(test)]
    pub(crate) fn after(&self, from: Square, to: Square, promotion: Option<Role>) -> Option<Light> {
        let mut next = *self;
        next.play(from, to, promotion).then_some(next)
    }

    /// Plays the move `from`-`to` (promoting to `promotion`) when it is an ordinary legal move
    /// here: not castling, not en passant. `false`, and the position unchanged, for anything
    /// else; the caller then asks the full position. In place: the PV loop keeps one position
    /// and copies it once a move.
    #[inline]
    pub(crate) fn play(&mut self, from: Square, to: Square, promotion: Option<Role>) -> bool {
        let Some((role, taken)) =
            ordinary_on(&self.roles, &self.colors, self.turn, from, to, promotion)
        else {
            return false;
        };
        let us = self.turn as usize;
        let (from_bb, to_bb) = (1u64 << u32::from(from), 1u64 << u32::from(to));
        // The taken piece first: it may be of the mover's own role.
        if let Some(t) = taken {
            self.roles[t] ^= to_bb;
            self.colors[us ^ 1] ^= to_bb;
        }
        let lands_as = promotion.map_or(role, |p| p as usize - 1);
        self.roles[role] ^= from_bb;
        self.roles[lands_as] |= to_bb;
        self.colors[us] ^= from_bb | to_bb;
        // A rook that moves or is taken loses its castling; a king that moves loses both.
        let mut castling = self.castling.0 & !(from_bb | to_bb);
        if role == KING {
            castling &= !Bitboard::from_rank(self.turn.fold_wb(Rank::First, Rank::Eighth)).0;
        }
        self.castling = Bitboard(castling);
        self.ep = match role {
            // Pawns move along files here: two squares is sixteen apart.
            PAWN if u32::from(from).abs_diff(u32::from(to)) == 16 => {
                from.offset(self.turn.fold_wb(8, -8))
            }
            _ => None,
        };
        self.turn = !self.turn;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::chess::fast_legal::{
        ordinary_move,
        tests::{any_uci, parse},
    };
    use proptest::prelude::*;
    use shakmaty::{fen::Fen, uci::UciMove};

    /// What legality depends on, for comparing a `Light` walk with shakmaty's.
    fn state(pos: &Chess) -> (String, Bitboard, Option<Square>) {
        (
            Fen::from_position(pos, EnPassantMode::Always)
                .to_string()
                .rsplitn(3, ' ')
                .nth(2)
                .unwrap_or_default()
                .to_owned(),
            pos.castles().castling_rights(),
            pos.ep_square(EnPassantMode::Always),
        )
    }

    fn after(light: &Light, uci: &UciMove) -> Option<Light> {
        match *uci {
            UciMove::Normal {
                from,
                to,
                promotion,
            } => light.after(from, to, promotion),
            _ => None,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// A game played along a `Light` (ordinary moves on it, the rest on the full position it
        /// turns back into) stays the game shakmaty plays; the light position takes exactly the
        /// moves the ordinary-move test on the full position takes, and never one shakmaty
        /// refuses, among the legal moves and random others.
        #[test]
        fn light_positions_follow_shakmaty(
            picks in proptest::collection::vec(0..256usize, 0..120),
            tries in proptest::collection::vec(any_uci(), 24),
            chess960 in any::<bool>(),
        ) {
            let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
            let mut pos = Chess::default();
            let mut light = Light::of(&pos);
            for pick in picks {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let candidates = legal.iter().map(|m| m.to_uci(mode)).chain(tries.iter().cloned());
                for uci in candidates {
                    let fast = after(&light, &uci);
                    prop_assert_eq!(fast.is_some(), ordinary_move(&pos, &uci).is_some(), "{}", uci);
                    if let Some(fast) = fast {
                        let m = uci.to_move(&pos);
                        prop_assert!(m.is_ok(), "took an illegal move {}", uci);
                        let mut slow = pos.clone();
                        slow.play_unchecked(m.map_err(|e| TestCaseError::fail(e.to_string()))?);
                        prop_assert_eq!(fast, Light::of(&slow), "{}", uci);
                    }
                }
                let m = legal[pick % legal.len()];
                let uci = m.to_uci(mode);
                match after(&light, &uci) {
                    Some(next) => light = next,
                    None => {
                        let mut full = light.to_chess(mode).ok_or_else(|| {
                            TestCaseError::fail(format!("no position for {light:?}"))
                        })?;
                        prop_assert_eq!(state(&full), state(&pos));
                        full.play_unchecked(uci.to_move(&full).map_err(|e| TestCaseError::fail(e.to_string()))?);
                        light = Light::of(&full);
                    }
                }
                pos.play_unchecked(m);
                prop_assert_eq!(state(&light.to_chess(mode).expect("position")), state(&pos));
            }
        }
    }

    #[test]
    fn takes_ordinary_moves_and_leaves_the_special_ones() {
        let takes = |fen: &str, m: &str| {
            let uci = UciMove::from_ascii(m.as_bytes()).expect("uci");
            after(&Light::of(&parse(fen)), &uci).is_some()
        };
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert!(takes(start, "e2e4"));
        assert!(takes(start, "g1f3"));
        assert!(!takes(start, "e2e5"));
        assert!(!takes(start, "e7e5"));
        // A pinned knight may not move; the king may, but not into check.
        let pinned = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1";
        assert!(!takes(pinned, "e2c3"));
        assert!(takes(pinned, "e1d1"));
        assert!(!takes("4k3/3r4/8/8/8/8/8/4K3 w - - 0 1", "e1d1"));
        // A capture of the same role: the taken knight goes, the taker stays.
        let knights = "4k3/8/8/3n4/8/4N3/8/4K3 w - - 0 1";
        let next = after(
            &Light::of(&parse(knights)),
            &UciMove::from_ascii(b"e3d5").expect("uci"),
        );
        assert_eq!(
            next,
            Some(Light::of(&parse("4k3/8/8/3N4/8/8/8/4K3 b - - 0 1")))
        );
        // Castling and en passant are left to the full position.
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert!(!takes(castle, "e1g1"));
        assert!(!takes(castle, "e1h1"));
        assert!(!takes("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6"));
        // Promotion needs a piece, and only on the last rank.
        let promo = "8/4P2k/8/8/8/8/8/4K3 w - - 0 1";
        assert!(!takes(promo, "e7e8"));
        assert!(takes(promo, "e7e8q"));
        assert!(!takes(promo, "e7e8k"));
    }
}
