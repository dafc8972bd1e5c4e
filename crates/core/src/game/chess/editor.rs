//! CECP `edit` mode: the old way xboard sets up a position, one subcommand per line.

use shakmaty::{
    Bitboard, Board, ByColor, ByRole, Color, EnPassantMode, File, Position, Rank, RemainingChecks,
    Role, Setup, Square,
};
use std::num::NonZeroU32;

use super::{BoardError, ChessBoard, ChessVariant};

/// Whether the editor expects more subcommands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditOutcome {
    Continue,
    /// `.` was received: call [`ChessEditor::finish`].
    Done,
}

/// A subcommand the editor could not apply; editing goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditDiagnostic {
    pub line: String,
    pub message: String,
}

/// Applies `edit` subcommands (`#`, `c`, `Pa4`, `xa4`, `.`) to a copy of the current board.
///
/// The edit command keeps the side to move (xboard reaches a black-to-move position through
/// `force`, `a2a3`, `edit`). On leaving, castling rights are inferred as the protocol says:
/// a king and rook on their home squares may castle (in Chess960, any king and rook on the
/// back rank, outermost rook per side); en passant is off and the fifty-move clock is zero.
/// Crazyhouse pockets and three-check counters are carried over unchanged.
#[derive(Debug, Clone)]
pub struct ChessEditor {
    board: Board,
    colour: Color,
    turn: Color,
    pockets: Option<ByColor<ByRole<u8>>>,
    remaining_checks: Option<ByColor<RemainingChecks>>,
    fullmoves: NonZeroU32,
    variant: ChessVariant,
    chess960: bool,
    diagnostics: Vec<EditDiagnostic>,
    done: bool,
}

impl ChessEditor {
    /// Starts editing from the board the engine had when `edit` arrived.
    #[must_use]
    pub fn new(from: &ChessBoard) -> ChessEditor {
        let setup = from.position().to_setup(EnPassantMode::Legal);
        ChessEditor {
            board: setup.board,
            colour: Color::White,
            turn: setup.turn,
            pockets: setup.pockets,
            remaining_checks: setup.remaining_checks,
            fullmoves: setup.fullmoves,
            variant: from.variant().clone(),
            chess960: from.is_chess960(),
            diagnostics: Vec::new(),
            done: false,
        }
    }

    /// Applies one subcommand line. Lines after `.` are diagnostics.
    pub fn apply(&mut self, line: &str) -> EditOutcome {
        let cmd = line.trim();
        if self.done {
            self.diagnose(cmd, "subcommand after '.' (edit mode already left)");
            return EditOutcome::Done;
        }
        match cmd {
            "." => {
                self.done = true;
                return EditOutcome::Done;
            }
            "#" => self.board = Board::empty(),
            "c" | "C" => self.colour = !self.colour,
            "" => {}
            "castle" | "ep" => {
                self.diagnose(cmd, "ChessBase edit extension, not modelled");
            }
            _ => self.place(cmd),
        }
        EditOutcome::Continue
    }

    fn place(&mut self, cmd: &str) {
        let mut chars = cmd.chars();
        let (Some(letter), Some(square)) = (
            chars.next(),
            Square::from_ascii(chars.as_str().as_bytes()).ok(),
        ) else {
            self.diagnose(cmd, "not an edit subcommand (expected #, c, ., Pa4 or xa4)");
            return;
        };
        if letter == 'x' || letter == 'X' {
            self.board.discard_piece_at(square);
            return;
        }
        match Role::from_char(letter) {
            Some(role) => {
                self.board.set_piece_at(square, role.of(self.colour));
                if letter.is_ascii_lowercase() {
                    self.diagnose(cmd, "lowercase piece letter (xboard sends uppercase)");
                }
            }
            None => self.diagnose(cmd, "unknown piece letter (fairy piece?)"),
        }
    }

    fn diagnose(&mut self, line: &str, message: &str) {
        self.diagnostics.push(EditDiagnostic {
            line: line.to_string(),
            message: message.to_string(),
        });
    }

    #[must_use]
    pub fn diagnostics(&self) -> &[EditDiagnostic] {
        &self.diagnostics
    }

    #[must_use]
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Builds the edited position.
    ///
    /// # Errors
    /// The position is impossible for the variant (no king, pawns on the back rank...).
    pub fn finish(&self) -> Result<ChessBoard, BoardError> {
        let rules = self
            .variant
            .rules()
            .ok_or_else(|| BoardError::UnsupportedVariant(self.variant.to_string()))?;
        let setup = Setup {
            castling_rights: self.inferred_castling_rights(),
            board: self.board.clone(),
            promoted: Bitboard::EMPTY,
            pockets: self.pockets,
            turn: self.turn,
            ep_square: None,
            remaining_checks: self.remaining_checks,
            halfmoves: 0,
            fullmoves: self.fullmoves,
        };
        let mode = super::castling_mode(self.chess960);
        ChessBoard::from_setup(setup, self.variant.clone(), rules, mode, true).map(|(b, _)| b)
    }

    fn inferred_castling_rights(&self) -> Bitboard {
        let mut rights = Bitboard::EMPTY;
        for color in Color::ALL {
            let back = color.fold_wb(Rank::First, Rank::Eighth);
            let rooks = self.board.rooks() & self.board.by_color(color) & Bitboard::from_rank(back);
            let Some(king) =
                (self.board.kings() & self.board.by_color(color) & Bitboard::from_rank(back))
                    .first()
            else {
                continue;
            };
            if self.chess960 {
                let left = rooks.into_iter().find(|r| r.file() < king.file());
                let right = rooks.into_iter().rev().find(|r| r.file() > king.file());
                rights.extend(left.into_iter().chain(right));
            } else if king.file() == File::E {
                for file in [File::A, File::H] {
                    let sq = Square::from_coords(file, back);
                    if rooks.contains(sq) {
                        rights.add(sq);
                    }
                }
            }
        }
        rights
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(lines: &[&str]) -> (ChessEditor, EditOutcome) {
        let start = ChessBoard::startpos(ChessVariant::Standard).expect("start");
        let mut editor = ChessEditor::new(&start);
        let mut last = EditOutcome::Continue;
        for line in lines {
            last = editor.apply(line);
        }
        (editor, last)
    }

    #[test]
    fn edit_mode_produces_fen_with_inferred_castling() {
        let (editor, outcome) = edit(&[
            "#", "Ke1", "Rh1", "Ra2", "Pe4", "c", "Ke8", "Ra8", "Pd5", ".",
        ]);
        assert_eq!(outcome, EditOutcome::Done);
        assert!(editor.diagnostics().is_empty());
        let board = editor.finish().expect("legal position");
        // White's a-rook is off its home square, so only the h-side right is inferred;
        // black keeps the queen side. No en passant, clock zero.
        assert_eq!(board.fen(), "r3k3/8/8/3p4/4P3/8/R7/4K2R w Kq - 0 1");
    }

    #[test]
    fn clear_square_and_bad_subcommands() {
        let (editor, outcome) = edit(&["xe2", "Zz9", "Ae4", "castle", "."]);
        assert_eq!(outcome, EditOutcome::Done);
        let board = editor.finish().expect("legal");
        assert!(
            board
                .fen()
                .starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR w KQkq")
        );
        let messages: Vec<&str> = editor
            .diagnostics()
            .iter()
            .map(|d| d.line.as_str())
            .collect();
        assert_eq!(messages, ["Zz9", "Ae4", "castle"]);
    }

    #[test]
    fn black_to_move_kludge_keeps_side() {
        let mut start = ChessBoard::startpos(ChessVariant::Standard).expect("start");
        start.play_cecp("a2a3").expect("legal");
        let mut editor = ChessEditor::new(&start);
        for line in ["#", "Kg1", "c", "Kg8", "Qd8", "."] {
            editor.apply(line);
        }
        let board = editor.finish().expect("legal");
        assert_eq!(board.fen(), "3q2k1/8/8/8/8/8/8/6K1 b - - 0 1");
    }

    #[test]
    fn impossible_position_is_an_error() {
        let (editor, _) = edit(&["#", "Ke1", "."]);
        assert!(matches!(editor.finish(), Err(BoardError::BadPosition(_))));
    }

    #[test]
    fn chess960_edit_infers_outer_rooks() {
        let start = ChessBoard::startpos_with_mode(ChessVariant::Chess960, true).expect("start");
        let mut editor = ChessEditor::new(&start);
        for line in ["#", "Rb1", "Kc1", "Rf1", "Rg1", "c", "Kd8", "."] {
            editor.apply(line);
        }
        let board = editor.finish().expect("legal");
        assert!(board.fen().contains(" w KQ - "), "{}", board.fen());
    }
}
