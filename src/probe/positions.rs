//! The positions the suites send. Each is checked for legality by the unit tests below with the
//! one board module, so a finding against the engine is never the probe's own mistake.

/// White to move after 1.e4 d5 2.e5 f5: both sides may still castle both ways and `e5f6` takes
/// en passant.
pub const EN_PASSANT_FEN: &str = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
/// The en passant capture the position step plays before asking for a move.
pub const EN_PASSANT_MOVE: &str = "e5f6";

/// 80 plies from the start position, both sides castled (`e1g1`, `e8g8`), as a GUI sends a
/// game in progress: `position startpos moves ...`.
pub const LONG_GAME: &str = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5 d2d3 d7d6 c2c3 e8g8 d3d4 \
c5b6 c1g5 h7h6 g5h4 g7g5 h4g3 f6e4 d4e5 d6e5 b1d2 e4g3 h2g3 g8g7 c4b5 a7a6 b5c6 b7c6 d1c2 d8d5 \
a1e1 f8e8 c3c4 d5d6 d2e4 d6g6 c4c5 b6a5 e1e3 c8f5 c2e2 f7f6 a2a3 h6h5 b2b4 g5g4 f3h4 f5e4 h4g6 \
e4g6 f1d1 a8d8 d1f1 a5b4 a3b4 d8d4 f2f4 e8d8 f4f5 g6f7 e2e1 f7c4 g1h2 c4f1 e1f1 d4d1 f1c4 d8d2 \
c4e4 d1f1 e3e1 d2d4 e4d4 f1e1 d4d7 g7h6 d7c6 h6g5";

/// Chess960 start position 517 (X-FEN castling letters for the outer rooks).
pub const CHESS960_FEN: &str = "rnbbqknr/pppppppp/8/8/8/8/PPPPPPPP/RNBBQKNR w KQkq - 0 1";
/// 29 plies from [`CHESS960_FEN`], ending with White castling king-takes-rook (`f1h1`).
pub const CHESS960_MOVES: &str = "h2h4 b7b6 d2d4 e7e6 e2e4 d7d6 e1e2 b8d7 e2d3 d7f6 d3e2 c8b7 \
b1c3 a8c8 a2a4 c7c5 c3b5 f6e4 b5a7 c8a8 a7b5 h7h5 c2c4 c5d4 g1f3 e6e5 f1h1";

/// Black to move and in check; its only move is `h8g8`, after which White mates in one: a game
/// to its end in two plies.
pub const NEAR_MATE_FEN: &str = "7k/8/6K1/8/8/8/8/Q7 b - - 0 1";

/// White to move mates in two (`c6b6`, `a8b8`, `h1h8`), and `edit` can set it up (White to
/// move, no castling, no en passant): the CECP game.
pub const MATE_IN_TWO_FEN: &str = "k7/8/2K5/8/8/8/8/7R w - - 0 1";

/// The Othello start position as NBoard's `set game` sends it (GGF), Black to move.
pub const OTHELLO_START_GGF: &str = "(;GM[Othello]PC[kibitzer probe]PB[probe]PW[probe]RE[?]\
TI[15:00//02:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";

/// The Othello game the NBoard suite sets up before asking for a move: four plies.
pub const OTHELLO_GAME_GGF: &str = "(;GM[Othello]PC[kibitzer probe]PB[probe]PW[probe]RE[?]\
TI[15:00//02:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]\
B[F5]W[F6]B[E6]W[F4];)";

/// A real game after which Black, to move, has no legal move: the engine's `go` is a pass.
pub const OTHELLO_BLACK_MUST_PASS_GGF: &str = "(;GM[Othello]PC[kibitzer probe]PB[probe]PW[probe]\
RE[?]TI[15:00//02:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]\
B[E6]W[D6]B[C3]W[D3]B[C4]W[B5]B[D2]W[F7]B[D7]W[C6]B[A6]W[D8]B[G8]W[F5]B[E8]W[C5]B[G4]W[F6]B[G7]\
W[H3]B[E7]W[F8]B[B6]W[H6]B[G6]W[C7]B[B7]W[H8];)";

/// A game played to its end (all 64 squares, no pass): what the NBoard suite asks the engine to
/// learn. It is a real game (Edax against itself) mirrored in the a1-h8 diagonal, so that no
/// other step's position is on its way and what an engine learns of it changes no other answer.
pub const OTHELLO_FINISHED_GGF: &str = "(;GM[Othello]PC[kibitzer probe]PB[probe]PW[probe]RE[?]\
TI[15:00//02:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]\
B[E6]W[F6]B[F5]W[D6]B[C6]W[E3]B[D7]W[B6]B[F7]W[C5]B[B5]W[E7]B[D8]W[F8]B[C3]W[C4]B[D3]W[C8]B[E2]\
W[E8]B[C7]W[A4]B[A6]W[G8]B[G7]W[H7]B[H8]W[A5]B[H6]W[G6]B[A3]W[B4]B[A7]W[B7]B[B8]W[G5]B[H4]W[H5]\
B[F4]W[B3]B[A8]W[H3]B[A2]W[F1]B[C2]W[F2]B[F3]W[D2]B[B2]W[C1]B[B1]W[G3]B[D1]W[G4]B[E1]W[A1]B[H2]\
W[G2]B[G1]W[H1];)";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::chess::{ChessBoard, ChessVariant};

    fn play(mut b: ChessBoard, moves: &str) -> ChessBoard {
        for m in moves.split_whitespace() {
            b.play_uci(m)
                .unwrap_or_else(|e| panic!("{m} illegal in {}: {e:?}", b.fen()));
        }
        b
    }

    #[test]
    fn every_position_and_line_is_legal() {
        let b = ChessBoard::from_fen(EN_PASSANT_FEN, ChessVariant::Standard, false).unwrap();
        let b = play(b, EN_PASSANT_MOVE);
        assert!(
            b.fen().starts_with("rnbqkbnr/ppp1p1pp/5P2/3p4/"),
            "{}",
            b.fen()
        );

        let b = ChessBoard::startpos(ChessVariant::Standard).unwrap();
        let b = play(b, LONG_GAME);
        assert_eq!(LONG_GAME.split_whitespace().count(), 80);
        assert!(b.outcome().is_none());

        let b = ChessBoard::from_fen(CHESS960_FEN, ChessVariant::Chess960, true).unwrap();
        let b = play(b, CHESS960_MOVES);
        assert!(b.outcome().is_none());

        let mut b = ChessBoard::from_fen(NEAR_MATE_FEN, ChessVariant::Standard, false).unwrap();
        assert_eq!(b.legal_moves_uci(), vec!["h8g8".to_owned()]);
        b.play_uci("h8g8").unwrap();
        b.play_uci("a1a8").unwrap();
        assert!(b.outcome().is_some());

        let b = ChessBoard::from_fen(MATE_IN_TWO_FEN, ChessVariant::Standard, false).unwrap();
        let b = play(b, "c6b6 a8b8 h1h8");
        assert!(b.outcome().is_some());
    }

    #[test]
    fn the_othello_games_parse() {
        for (g, plies) in [
            (OTHELLO_START_GGF, 0),
            (OTHELLO_GAME_GGF, 4),
            (OTHELLO_BLACK_MUST_PASS_GGF, 28),
            (OTHELLO_FINISHED_GGF, 60),
        ] {
            let game = crate::game::ggf::GgfGame::parse(g);
            assert!(game.diagnostics.is_empty(), "{g}: {:?}", game.diagnostics);
            assert_eq!(game.moves.len(), plies);
            let r = game.replay();
            assert_eq!(r.played, plies, "{:?}", r.diagnostics);
        }
        let r = crate::game::ggf::GgfGame::parse(OTHELLO_FINISHED_GGF).replay();
        assert!(
            r.board
                .is_some_and(|b| b.is_game_over() && b.empties() == 0)
        );
    }
}
