//! 8x8 Othello on two bitboards. Our own code rather than the magpie crate: the rules are
//! ~100 lines of shifts, and owning them lets passes, game end and the GGF board text follow
//! NBoard/GGS conventions exactly without an adapter layer or another dependency.
//!
//! Bit `row * 8 + col` is the square; A1 (top left in GGF's row order) is bit 0, H8 bit 63.

use std::fmt;
use thiserror::Error;

use super::Side;

/// A square A1..H8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OthelloSquare(u8);

impl OthelloSquare {
    /// `index` is `row * 8 + col`, 0..64.
    #[must_use]
    pub fn from_index(index: u8) -> Option<OthelloSquare> {
        (index < 64).then_some(OthelloSquare(index))
    }

    #[must_use]
    pub fn index(self) -> u8 {
        self.0
    }

    /// `F5`, `f5`, surrounding whitespace allowed.
    #[must_use]
    pub fn parse(text: &str) -> Option<OthelloSquare> {
        match text.trim().as_bytes() {
            [col, row] => {
                let col = col.to_ascii_lowercase();
                if (b'a'..=b'h').contains(&col) && (b'1'..=b'8').contains(row) {
                    Some(OthelloSquare((row - b'1') * 8 + (col - b'a')))
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    fn bit(self) -> u64 {
        1u64 << self.0
    }
}

impl fmt::Display for OthelloSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let col = char::from(b'A' + self.0 % 8);
        let row = char::from(b'1' + self.0 / 8);
        write!(f, "{col}{row}")
    }
}

/// A move: a disc on a square, or a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OthelloMove {
    Play(OthelloSquare),
    Pass,
}

impl OthelloMove {
    /// Squares in either case; passes as NBoard reads them ("any prefix of PASS in any case",
    /// so `PA`, `pass`, `p`) or `--`.
    #[must_use]
    pub fn parse(text: &str) -> Option<OthelloMove> {
        let t = text.trim();
        if t == "--" || (!t.is_empty() && "pass".starts_with(&t.to_ascii_lowercase())) {
            return Some(OthelloMove::Pass);
        }
        OthelloSquare::parse(t).map(OthelloMove::Play)
    }
}

impl fmt::Display for OthelloMove {
    /// Uppercase square, `PA` for a pass (NBoard's spelling).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OthelloMove::Play(sq) => sq.fmt(f),
            OthelloMove::Pass => f.write_str("PA"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalMove {
    #[error("{0} is already occupied")]
    Occupied(OthelloSquare),
    #[error("{0} flips no disc")]
    NoFlip(OthelloSquare),
    #[error("pass while {0} legal move(s) are available")]
    PassWithMoves(usize),
    #[error("{0} has no legal move and must pass")]
    MustPass(Side),
    #[error("the game is over")]
    GameOver,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardTextError {
    #[error("board size {0} is not 8: board unknown")]
    UnsupportedSize(String),
    #[error("malformed board: {0}")]
    Malformed(String),
}

const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The eight neighbour shifts, masking off wrap-around between the A and H columns.
const DIRECTIONS: [fn(u64) -> u64; 8] = [
    |b| b << 8,
    |b| b >> 8,
    |b| (b << 1) & NOT_A,
    |b| (b >> 1) & NOT_H,
    |b| (b << 9) & NOT_A,
    |b| (b << 7) & NOT_H,
    |b| (b >> 7) & NOT_A,
    |b| (b >> 9) & NOT_H,
];

fn moves_for(own: u64, opp: u64) -> u64 {
    let empty = !(own | opp);
    let mut moves = 0;
    for shift in DIRECTIONS {
        let mut run = shift(own) & opp;
        for _ in 0..5 {
            run |= shift(run) & opp;
        }
        moves |= shift(run) & empty;
    }
    moves
}

fn flips_for(own: u64, opp: u64, square: u64) -> u64 {
    let mut flips = 0;
    for shift in DIRECTIONS {
        let mut run = 0;
        let mut x = shift(square);
        while x & opp != 0 {
            run |= x;
            x = shift(x);
        }
        if x & own != 0 {
            flips |= run;
        }
    }
    flips
}

/// An 8x8 Othello position with the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OthelloBoard {
    black: u64,
    white: u64,
    turn: Side,
}

impl Default for OthelloBoard {
    fn default() -> Self {
        OthelloBoard::new()
    }
}

impl OthelloBoard {
    /// The standard start: white on D4 and E5, black on E4 and D5, black to move.
    #[must_use]
    pub fn new() -> OthelloBoard {
        let sq = |s: &str| OthelloSquare::parse(s).map_or(0, OthelloSquare::bit);
        OthelloBoard {
            black: sq("E4") | sq("D5"),
            white: sq("D4") | sq("E5"),
            turn: Side::Black,
        }
    }

    /// `None` when the two colours overlap.
    #[must_use]
    pub fn from_bitboards(black: u64, white: u64, turn: Side) -> Option<OthelloBoard> {
        (black & white == 0).then_some(OthelloBoard { black, white, turn })
    }

    /// Parses a GGF `BO` value: `8 ` then 64 squares row by row (`-` empty, `*` black, `O`
    /// white; spaces between rows allowed) then the side to move (`*` or `O`).
    ///
    /// # Errors
    /// Sizes other than 8 are `UnsupportedSize`; anything else malformed is `Malformed`.
    pub fn from_ggf_board(text: &str) -> Result<OthelloBoard, BoardTextError> {
        let text = text.trim();
        let (size, rest) = text
            .split_once(char::is_whitespace)
            .ok_or_else(|| BoardTextError::Malformed("no board size".into()))?;
        if size != "8" {
            return Err(BoardTextError::UnsupportedSize(size.to_string()));
        }
        let cells: Vec<char> = rest.chars().filter(|c| !c.is_whitespace()).collect();
        let Some((side, squares)) = cells.split_last() else {
            return Err(BoardTextError::Malformed("no squares".into()));
        };
        if squares.len() != 64 {
            return Err(BoardTextError::Malformed(format!(
                "{} squares instead of 64",
                squares.len()
            )));
        }
        let turn = match side {
            '*' | 'X' | 'x' | 'B' | 'b' => Side::Black,
            'O' | 'o' | 'W' | 'w' => Side::White,
            c => {
                return Err(BoardTextError::Malformed(format!(
                    "side to move {c:?} is neither * nor O"
                )));
            }
        };
        let (mut black, mut white) = (0u64, 0u64);
        for (i, c) in squares.iter().enumerate() {
            let bit = 1u64 << i;
            match c {
                '*' | 'X' | 'x' | 'B' | 'b' => black |= bit,
                'O' | 'o' | 'W' | 'w' => white |= bit,
                '-' | '.' => {}
                c => {
                    return Err(BoardTextError::Malformed(format!(
                        "square {i}: {c:?} is not -, * or O"
                    )));
                }
            }
        }
        Ok(OthelloBoard { black, white, turn })
    }

    #[must_use]
    pub fn turn(&self) -> Side {
        self.turn
    }

    fn own_opp(&self) -> (u64, u64) {
        match self.turn {
            Side::Black => (self.black, self.white),
            Side::White => (self.white, self.black),
        }
    }

    /// Legal squares for the side to move, as a bitboard.
    #[must_use]
    pub fn legal_bitboard(&self) -> u64 {
        let (own, opp) = self.own_opp();
        moves_for(own, opp)
    }

    /// Legal squares for the side to move, A1 first.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<OthelloSquare> {
        let moves = self.legal_bitboard();
        (0..64u8)
            .filter(|i| moves & (1u64 << i) != 0)
            .map(OthelloSquare)
            .collect()
    }

    /// The side to move has no legal move but the opponent has one.
    #[must_use]
    pub fn must_pass(&self) -> bool {
        let (own, opp) = self.own_opp();
        moves_for(own, opp) == 0 && moves_for(opp, own) != 0
    }

    /// Neither side can move (full board or blocked).
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        moves_for(self.black, self.white) == 0 && moves_for(self.white, self.black) == 0
    }

    /// Places a disc for the side to move and flips.
    ///
    /// # Errors
    /// Occupied square, no flips, or the game is over.
    pub fn play(&mut self, square: OthelloSquare) -> Result<(), IllegalMove> {
        if self.is_game_over() {
            return Err(IllegalMove::GameOver);
        }
        let bit = square.bit();
        if (self.black | self.white) & bit != 0 {
            return Err(IllegalMove::Occupied(square));
        }
        let (own, opp) = self.own_opp();
        let flips = flips_for(own, opp, bit);
        if flips == 0 {
            return Err(if moves_for(own, opp) == 0 {
                IllegalMove::MustPass(self.turn)
            } else {
                IllegalMove::NoFlip(square)
            });
        }
        let (own, opp) = (own | bit | flips, opp & !flips);
        match self.turn {
            Side::Black => (self.black, self.white) = (own, opp),
            Side::White => (self.white, self.black) = (own, opp),
        }
        self.turn = self.turn.other();
        Ok(())
    }

    /// Passes; legal only when the side to move has no move and the game is not over.
    ///
    /// # Errors
    /// Moves are available, or the game is over.
    /// The same discs with the other side to move (what a reader that missed a pass sees).
    pub fn with_other_side_to_move(&self) -> OthelloBoard {
        let mut b = *self;
        b.turn = self.turn.other();
        b
    }

    pub fn pass(&mut self) -> Result<(), IllegalMove> {
        if self.is_game_over() {
            return Err(IllegalMove::GameOver);
        }
        let moves = self.legal_bitboard();
        if moves != 0 {
            return Err(IllegalMove::PassWithMoves(moves.count_ones() as usize));
        }
        self.turn = self.turn.other();
        Ok(())
    }

    /// # Errors
    /// As [`OthelloBoard::play`] and [`OthelloBoard::pass`].
    pub fn play_move(&mut self, mv: OthelloMove) -> Result<(), IllegalMove> {
        match mv {
            OthelloMove::Play(sq) => self.play(sq),
            OthelloMove::Pass => self.pass(),
        }
    }

    #[must_use]
    pub fn discs(&self, side: Side) -> u32 {
        match side {
            Side::Black => self.black.count_ones(),
            Side::White => self.white.count_ones(),
        }
    }

    #[must_use]
    pub fn empties(&self) -> u32 {
        64 - (self.black | self.white).count_ones()
    }

    /// At game end: `Some(Some(winner))`, `Some(None)` for a draw; `None` while playing.
    /// Counts discs only (GGS scores empty squares to the winner, which changes the margin,
    /// not the winner).
    #[must_use]
    pub fn result(&self) -> Option<Option<Side>> {
        if !self.is_game_over() {
            return None;
        }
        let (b, w) = (self.discs(Side::Black), self.discs(Side::White));
        Some(match b.cmp(&w) {
            std::cmp::Ordering::Greater => Some(Side::Black),
            std::cmp::Ordering::Less => Some(Side::White),
            std::cmp::Ordering::Equal => None,
        })
    }

    fn cells(&self) -> String {
        (0..64)
            .map(|i| {
                let bit = 1u64 << i;
                if self.black & bit != 0 {
                    '*'
                } else if self.white & bit != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect()
    }

    fn side_char(&self) -> char {
        match self.turn {
            Side::Black => '*',
            Side::White => 'O',
        }
    }

    /// The GGF `BO` value, NBoard style (no row spaces): `8 ---...--- *`.
    #[must_use]
    pub fn to_ggf_board(&self) -> String {
        format!("8 {} {}", self.cells(), self.side_char())
    }

    /// The 64 squares and the side to move, `---...--- *`.
    #[must_use]
    pub fn display_string(&self) -> String {
        format!("{} {}", self.cells(), self.side_char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sq(s: &str) -> OthelloSquare {
        OthelloSquare::parse(s).expect("square")
    }

    #[test]
    fn squares_and_moves_parse() {
        assert_eq!(sq("f5"), sq("F5"));
        assert_eq!(sq("A1").index(), 0);
        assert_eq!(sq("H8").index(), 63);
        assert_eq!(sq("f5").to_string(), "F5");
        for pass in ["PA", "pa", "pass", "PASS", "p", "Pas", "--"] {
            assert_eq!(OthelloMove::parse(pass), Some(OthelloMove::Pass), "{pass}");
        }
        for bad in ["", "passe", "i1", "a9", "a0", "-", "A"] {
            assert_eq!(OthelloMove::parse(bad), None, "{bad}");
        }
        assert_eq!(OthelloMove::Pass.to_string(), "PA");
    }

    #[test]
    fn standard_start_and_opening_moves() {
        let mut b = OthelloBoard::new();
        assert_eq!(b.turn(), Side::Black);
        assert_eq!(b.legal_moves(), [sq("D3"), sq("C4"), sq("F5"), sq("E6")]);
        assert_eq!(
            b.to_ggf_board(),
            "8 ---------------------------O*------*O--------------------------- *"
        );
        b.play(sq("f5")).expect("legal");
        assert_eq!((b.discs(Side::Black), b.discs(Side::White)), (4, 1));
        assert_eq!(b.turn(), Side::White);
        assert_eq!(b.legal_moves(), [sq("F4"), sq("D6"), sq("F6")]);
        b.play(sq("D6")).expect("legal");
        b.play(sq("C3")).expect("legal");
        assert_eq!(b.play(sq("C3")), Err(IllegalMove::Occupied(sq("C3"))));
        assert_eq!(b.play(sq("A1")), Err(IllegalMove::NoFlip(sq("A1"))));
        assert!(matches!(b.pass(), Err(IllegalMove::PassWithMoves(_))));
        assert_eq!(b.turn(), Side::White);
    }

    #[test]
    fn forced_pass_then_game_over() {
        // Black A1, white B1, black to move: C1 flips white's only disc and ends the game.
        let board = "8 *O------ -------- -------- -------- -------- -------- -------- -------- *";
        let mut b = OthelloBoard::from_ggf_board(board).expect("board");
        b.play(sq("C1")).expect("flips B1");
        assert!(b.is_game_over(), "white has no discs left");
        assert_eq!(b.result(), Some(Some(Side::Black)));
        assert_eq!(b.pass(), Err(IllegalMove::GameOver));

        // White to move with no move while black has one: white must pass.
        let board = "8 *O------ O------- -------- -------- -------- -------- -------- -------- O";
        let mut b = OthelloBoard::from_ggf_board(board).expect("board");
        assert!(b.must_pass());
        assert!(b.legal_moves().is_empty());
        assert_eq!(b.play(sq("C1")), Err(IllegalMove::MustPass(Side::White)));
        b.pass().expect("forced pass");
        assert_eq!(b.turn(), Side::Black);
        assert!(!b.must_pass());
        b.play(sq("C1")).expect("black flips B1");
        // White's lone disc on A2 flanks nothing: white must pass again.
        assert_eq!(b.play(sq("A3")), Err(IllegalMove::MustPass(Side::White)));
        assert!(b.must_pass());
    }

    #[test]
    fn ggf_board_text() {
        assert!(matches!(
            OthelloBoard::from_ggf_board("10 ----"),
            Err(BoardTextError::UnsupportedSize(_))
        ));
        assert!(matches!(
            OthelloBoard::from_ggf_board("8 ---- *"),
            Err(BoardTextError::Malformed(_))
        ));
        let b = OthelloBoard::new();
        assert_eq!(OthelloBoard::from_ggf_board(&b.to_ggf_board()), Ok(b));
        assert_eq!(b.display_string().len(), 66);
    }

    /// A slow, obviously correct reference: walk each direction square by square.
    fn reference_moves(b: &OthelloBoard) -> Vec<OthelloSquare> {
        let (own, opp) = b.own_opp();
        let at = |r: i32, c: i32, bb: u64| bb & (1u64 << (r * 8 + c)) != 0;
        let mut out = Vec::new();
        for r in 0..8 {
            for c in 0..8 {
                if at(r, c, own | opp) {
                    continue;
                }
                let legal = [
                    (-1, -1),
                    (-1, 0),
                    (-1, 1),
                    (0, -1),
                    (0, 1),
                    (1, -1),
                    (1, 0),
                    (1, 1),
                ]
                .iter()
                .any(|(dr, dc)| {
                    let (mut rr, mut cc, mut n) = (r + dr, c + dc, 0);
                    while (0..8).contains(&rr) && (0..8).contains(&cc) && at(rr, cc, opp) {
                        rr += dr;
                        cc += dc;
                        n += 1;
                    }
                    n > 0 && (0..8).contains(&rr) && (0..8).contains(&cc) && at(rr, cc, own)
                });
                if legal {
                    out.extend(OthelloSquare::from_index((r * 8 + c) as u8));
                }
            }
        }
        out
    }

    proptest! {
        #[test]
        fn random_games_match_reference(choices in proptest::collection::vec(0usize..64, 0..70)) {
            let mut b = OthelloBoard::new();
            for pick in choices {
                let moves = b.legal_moves();
                prop_assert_eq!(&moves, &reference_moves(&b));
                if b.is_game_over() {
                    break;
                }
                if moves.is_empty() {
                    prop_assert!(b.must_pass());
                    b.pass().expect("forced pass");
                    continue;
                }
                let total = b.discs(Side::Black) + b.discs(Side::White);
                b.play(moves[pick % moves.len()]).expect("legal");
                prop_assert_eq!(b.discs(Side::Black) + b.discs(Side::White), total + 1);
            }
        }

        #[test]
        fn random_text_never_panics(text in "\\PC{0,80}") {
            let _ = OthelloBoard::from_ggf_board(&text);
            let _ = OthelloMove::parse(&text);
        }
    }
}
