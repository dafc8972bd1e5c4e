//! A cheap legality test for the ordinary moves of standard chess, for the PV flood.
//!
//! shakmaty decides legality by generating the candidate moves to the target square and
//! looking the move up, which returns a whole move list by value: most of the cost of checking
//! a PV. An ordinary move (not castling, not en passant) is legal exactly when it is
//! pseudo-legal and leaves the mover's king unattacked, and both are a few bitboard lookups.
//! This module only ever *accepts*: anything it is not sure of (castling, en passant, odd
//! positions, illegal moves) gets `None` and the caller asks shakmaty, which also words the
//! reason. [`has_ordinary_move`] rules out mate and stalemate the same way. The PV cache
//! plays its moves on the lighter positions of [`super::light`]. Tested against shakmaty below.

use shakmaty::{
    Bitboard, Board, Chess, Color, Move, Position, Rank, Role, Square, attacks, uci::UciMove,
};

/// The move `uci` stands for when it is an ordinary legal move in `pos`; `None` when the move
/// is illegal, special, or anything else the caller must decide the slow way. It is decided
/// on `pos` itself, so a caller can play it wherever the next position is to live.
#[inline]
pub(crate) fn ordinary_move(pos: &Chess, uci: &UciMove) -> Option<Move> {
    ordinary_move_on(pos.board(), pos.turn(), uci)
}

/// [`ordinary_move`] on a bare board with `turn` to move: [`ordinary_on`] over its bitboards.
#[inline(always)]
fn ordinary_move_on(board: &Board, turn: Color, uci: &UciMove) -> Option<Move> {
    let UciMove::Normal {
        from,
        to,
        promotion,
    } = *uci
    else {
        return None;
    };
    let roles = Role::ALL.map(|r| board.by_role(r).0);
    let colors = [board.black().0, board.white().0];
    let (role, taken) = ordinary_on(&roles, &colors, turn, from, to, promotion)?;
    Some(Move::Normal {
        role: Role::ALL[role],
        from,
        capture: taken.map(|t| Role::ALL[t]),
        to,
        promotion,
    })
}

/// Indices of `Role::ALL` (shakmaty's order, pawn first), as [`ordinary_on`]'s boards are.
pub(super) const PAWN: usize = 0;
pub(super) const KNIGHT: usize = 1;
pub(super) const BISHOP: usize = 2;
pub(super) const ROOK: usize = 3;
pub(super) const QUEEN: usize = 4;
pub(super) const KING: usize = 5;

/// The legality test itself, on a board given as bitboards: `roles` by role (indexed as
/// `Role::ALL`), `colors` by colour (black, white). When `from`-`to` (promoting to
/// `promotion`) is an ordinary legal move of `turn`, the roles (as indices) of the piece it
/// moves and of the piece it takes. Shared by shakmaty positions ([`ordinary_move`]) and the
/// light positions of a PV ([`super::light`]), which keep these bitboards themselves.
#[inline(always)]
pub(super) fn ordinary_on(
    roles: &[u64; 6],
    colors: &[u64; 2],
    turn: Color,
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> Option<(usize, Option<usize>)> {
    let us = turn as usize;
    let (from_bb, to_bb) = (1u64 << u32::from(from), 1u64 << u32::from(to));
    let (ours, theirs) = (colors[us], colors[us ^ 1]);
    if ours & from_bb == 0 || ours & to_bb != 0 {
        return None;
    }
    let role = role_index(roles, from_bb);
    let occupied = Bitboard(ours | theirs);
    let reaches = match role {
        PAWN => pawn_reaches(turn, from, to, theirs & to_bb != 0, promotion, occupied)?,
        // King steps only: two-square moves and king-takes-own-rook are castling.
        KING => promotion.is_none() && attacks::king_attacks(from).contains(to),
        KNIGHT => promotion.is_none() && attacks::knight_attacks(from).contains(to),
        BISHOP => promotion.is_none() && attacks::bishop_attacks(from, occupied).contains(to),
        ROOK => promotion.is_none() && attacks::rook_attacks(from, occupied).contains(to),
        _ => promotion.is_none() && attacks::queen_attacks(from, occupied).contains(to),
    };
    if !reaches {
        return None;
    }
    // The mover's king after the move, against the board after it: the moved piece leaves
    // `from` and stands on `to`, and a piece captured there attacks nothing any more.
    let king = match role {
        KING => to,
        _ => Bitboard(roles[KING] & ours).first()?,
    };
    let after = Bitboard((occupied.0 ^ from_bb) | to_bb);
    let attackers = (attacks::rook_attacks(king, after).0 & (roles[ROOK] | roles[QUEEN]))
        | (attacks::bishop_attacks(king, after).0 & (roles[BISHOP] | roles[QUEEN]))
        | (attacks::knight_attacks(king).0 & roles[KNIGHT])
        | (attacks::king_attacks(king).0 & roles[KING])
        | (attacks::pawn_attacks(turn, king).0 & roles[PAWN]);
    if attackers & theirs & !to_bb != 0 {
        return None;
    }
    let taken = (theirs & to_bb != 0).then(|| role_index(roles, to_bb));
    Some((role, taken))
}

/// The index into `roles` of the piece on the square `bit`, which must be occupied.
#[inline(always)]
fn role_index(roles: &[u64; 6], bit: u64) -> usize {
    if roles[PAWN] & bit != 0 {
        PAWN
    } else if roles[KNIGHT] & bit != 0 {
        KNIGHT
    } else if roles[BISHOP] & bit != 0 {
        BISHOP
    } else if roles[ROOK] & bit != 0 {
        ROOK
    } else if roles[QUEEN] & bit != 0 {
        QUEEN
    } else {
        KING
    }
}

/// Whether a pawn of `turn` on `from` may go to `to` (en passant excluded) on a board whose
/// occupied squares are `occupied`, with the promotion rules; `None` for en passant, which the
/// caller leaves to shakmaty.
#[inline(always)]
fn pawn_reaches(
    turn: Color,
    from: Square,
    to: Square,
    captures: bool,
    promotion: Option<Role>,
    occupied: Bitboard,
) -> Option<bool> {
    let last = turn.fold_wb(Rank::Eighth, Rank::First);
    let promotes_ok = if to.rank() == last {
        matches!(
            promotion,
            Some(Role::Knight | Role::Bishop | Role::Rook | Role::Queen)
        )
    } else {
        promotion.is_none()
    };
    if from.file() != to.file() {
        if !captures {
            return None;
        }
        return Some(promotes_ok && attacks::pawn_attacks(turn, from).contains(to));
    }
    if captures {
        return Some(false);
    }
    let step = turn.fold_wb(8, -8);
    let one = from.offset(step);
    let reaches = if one == Some(to) {
        true
    } else {
        let start = turn.fold_wb(Rank::Second, Rank::Seventh);
        from.rank() == start
            && from.offset(2 * step) == Some(to)
            && one.is_some_and(|s| !occupied.contains(s))
    };
    Some(reaches && promotes_ok)
}

/// Whether the side to move has an ordinary legal move: proof that it has some legal move
/// (so it is neither mated nor stalemated), usually found among the first few tried, where
/// listing every legal move costs a full generation. `false` proves nothing: the caller asks
/// shakmaty.
pub(crate) fn has_ordinary_move(pos: &Chess) -> bool {
    let board = pos.board();
    let turn = pos.turn();
    let ours = board.by_color(turn);
    let last = turn.fold_wb(Rank::Eighth, Rank::First);
    // The king first: it has the fewest targets and most often one of them is free.
    let king = board.king_of(turn).into_iter();
    for from in king.chain(ours.without(board.kings())) {
        let Some(piece) = board.piece_at(from) else {
            continue;
        };
        let targets = match piece.role {
            Role::Pawn => {
                let push = from
                    .offset(turn.fold_wb(8, -8))
                    .map_or(Bitboard::EMPTY, Bitboard::from_square);
                (attacks::pawn_attacks(turn, from) & board.by_color(!turn)) | push
            }
            _ => attacks::attacks(from, piece, board.occupied()),
        } & !ours;
        for to in targets {
            let promotion = (piece.role == Role::Pawn && to.rank() == last).then_some(Role::Queen);
            let uci = UciMove::Normal {
                from,
                to,
                promotion,
            };
            if ordinary_move_on(board, turn, &uci).is_some() {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use proptest::prelude::*;
    use shakmaty::{CastlingMode, fen::Fen};

    /// The position after `uci` when it is an ordinary legal move in `pos`.
    fn play_ordinary(pos: &Chess, uci: &UciMove) -> Option<Chess> {
        let m = ordinary_move(pos, uci)?;
        let mut after = pos.clone();
        after.play_unchecked(m);
        Some(after)
    }

    /// Same verdict as shakmaty whenever the fast path accepts, and the same position after.
    fn agrees(pos: &Chess, uci: &UciMove) -> Result<bool, TestCaseError> {
        let Some(fast) = play_ordinary(pos, uci) else {
            return Ok(false);
        };
        let m = uci.to_move(pos);
        prop_assert!(m.is_ok(), "accepted an illegal move {uci} in {}", fen(pos));
        let mut slow = pos.clone();
        slow.play_unchecked(m.map_err(|e| TestCaseError::fail(e.to_string()))?);
        prop_assert_eq!(fen(&fast), fen(&slow));
        Ok(true)
    }

    fn fen(pos: &Chess) -> String {
        Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
    }

    /// Any move on the board's squares, a promotion (to any role) now and then.
    pub(in crate::game::chess) fn any_uci() -> impl Strategy<Value = UciMove> {
        (
            0..64u32,
            0..64u32,
            prop::option::weighted(
                0.1,
                prop::sample::select(vec![
                    Role::Pawn,
                    Role::Knight,
                    Role::Bishop,
                    Role::Rook,
                    Role::Queen,
                    Role::King,
                ]),
            ),
        )
            .prop_map(|(f, t, promotion)| UciMove::Normal {
                from: Square::new(f),
                to: Square::new(t),
                promotion,
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn never_accepts_what_shakmaty_refuses(
            picks in proptest::collection::vec(0..256usize, 0..80),
            tries in proptest::collection::vec(any_uci(), 40),
        ) {
            let mut pos = Chess::default();
            let mut accepted = 0;
            let mut legal_total = 0;
            for pick in picks {
                // Every legal move must be accepted or left to shakmaty, never refused wrongly
                // (a refusal just means the slow path) and never accepted wrongly.
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                for m in &legal {
                    let uci = m.to_uci(CastlingMode::Standard);
                    accepted += usize::from(agrees(&pos, &uci)?);
                    legal_total += 1;
                }
                for uci in &tries {
                    agrees(&pos, uci)?;
                }
                let m = legal[pick % legal.len()];
                pos.play_unchecked(m);
            }
            // The point of the fast path: nearly every ordinary legal move takes it.
            prop_assert!(accepted * 10 >= legal_total * 9 || legal_total < 20);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// An ordinary legal move is found only where legal moves exist.
        #[test]
        fn finds_a_legal_move_only_where_there_is_one(
            picks in proptest::collection::vec(0..256usize, 0..150),
        ) {
            let mut pos = Chess::default();
            for pick in picks {
                let legal = pos.legal_moves();
                prop_assert!(!has_ordinary_move(&pos) || !legal.is_empty(), "{}", fen(&pos));
                if legal.is_empty() {
                    break;
                }
                pos.play_unchecked(legal[pick % legal.len()]);
            }
        }
    }

    /// ... and nearly always where they do: over 200 fixed pseudo-random games, not per game
    /// (one short game whose only legal moves are castling or en passant would fall short of
    /// any ratio by chance).
    #[test]
    fn finds_a_legal_move_nearly_always_where_there_is_one() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let (mut found, mut positions) = (0usize, 0usize);
        for _ in 0..200 {
            let mut pos = Chess::default();
            for _ in 0..150 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                positions += 1;
                found += usize::from(has_ordinary_move(&pos));
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                pos.play_unchecked(legal[(seed >> 33) as usize % legal.len()]);
            }
        }
        assert!(positions > 10_000, "{positions}");
        assert!(found * 100 >= positions * 98, "{found} of {positions}");
    }

    /// The standard chess position of `fen`.
    pub(in crate::game::chess) fn parse(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("position")
    }

    #[test]
    fn no_move_found_when_mated_or_stalemated() {
        // Fool's mate, a stalemate, and a lone king boxed in by its own pawns but free.
        assert!(!has_ordinary_move(&parse(
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
        )));
        assert!(!has_ordinary_move(&parse("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")));
        assert!(has_ordinary_move(&parse("7k/6pp/8/8/8/8/8/K7 b - - 0 1")));
    }

    #[test]
    fn takes_ordinary_moves_and_leaves_the_special_ones() {
        let uci = |s: &str| UciMove::from_ascii(s.as_bytes()).expect("uci");
        let start = Chess::default();
        assert!(play_ordinary(&start, &uci("e2e4")).is_some());
        assert!(play_ordinary(&start, &uci("g1f3")).is_some());
        assert!(play_ordinary(&start, &uci("e2e5")).is_none());
        assert!(play_ordinary(&start, &uci("e7e5")).is_none());
        // A pinned knight may not move.
        let pinned = parse("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
        assert!(play_ordinary(&pinned, &uci("e2c3")).is_none());
        assert!(play_ordinary(&pinned, &uci("e1d1")).is_some());
        // Castling and en passant are left to shakmaty.
        let castle = parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert!(play_ordinary(&castle, &uci("e1g1")).is_none());
        assert!(play_ordinary(&castle, &uci("e1h1")).is_none());
        let ep = parse("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        assert!(play_ordinary(&ep, &uci("e5d6")).is_none());
        // Promotion needs a piece, and only on the last rank.
        let promo = parse("8/4P2k/8/8/8/8/8/4K3 w - - 0 1");
        assert!(play_ordinary(&promo, &uci("e7e8")).is_none());
        assert!(play_ordinary(&promo, &uci("e7e8q")).is_some());
        assert!(play_ordinary(&promo, &uci("e7e8k")).is_none());
    }
}
