//! A UCI `position` line made shorter without changing what the engine is asked about: the
//! moves before a point become the FEN they lead to (the core's board plays them), and moves
//! may go from the end.

use crate::game::{ChessBoard, ChessVariant};

/// `position startpos | fen F [moves ...]`, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// The FEN it starts from; `None` for `startpos`.
    pub start: Option<String>,
    pub moves: Vec<String>,
}

impl Position {
    pub fn parse(text: &str) -> Option<Position> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.first() != Some(&"position") {
            return None;
        }
        let at_moves = words.iter().position(|w| *w == "moves");
        let before = &words[1..at_moves.unwrap_or(words.len())];
        let start = match before {
            ["startpos"] => None,
            ["fen", fen @ ..] if !fen.is_empty() => Some(fen.join(" ")),
            _ => return None,
        };
        let moves = at_moves
            .map(|i| words[i + 1..].iter().map(|m| (*m).to_owned()).collect())
            .unwrap_or_default();
        Some(Position { start, moves })
    }

    /// The line, as a GUI writes it.
    pub fn text(&self) -> String {
        let mut s = match &self.start {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_owned(),
        };
        if !self.moves.is_empty() {
            s.push_str(" moves ");
            s.push_str(&self.moves.join(" "));
        }
        s
    }

    /// The first `k` moves replaced by the FEN they lead to (standard chess); `None` when the
    /// board cannot play them (an illegal move the fault may be about stays as it was).
    pub fn from_move(&self, k: usize) -> Option<Position> {
        let played: Vec<&str> = self.moves.get(..k)?.iter().map(String::as_str).collect();
        Some(Position {
            start: Some(fen_after(self.start.as_deref(), &played)?),
            moves: self.moves[k..].to_vec(),
        })
    }

    /// Without its last `k` moves.
    pub fn without_last(&self, k: usize) -> Position {
        let keep = self.moves.len().saturating_sub(k);
        Position {
            start: self.start.clone(),
            moves: self.moves[..keep].to_vec(),
        }
    }
}

/// The FEN after `moves` from `start` (`None`: the start position) in standard chess; `None`
/// when the board cannot play them.
pub fn fen_after(start: Option<&str>, moves: &[&str]) -> Option<String> {
    let (board, _) =
        ChessBoard::from_uci_position(start, moves, ChessVariant::Standard, false).ok()?;
    Some(board.fen())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_before_a_point_become_their_fen() {
        let p = Position::parse("position startpos moves e2e4 e7e5 g1f3").unwrap();
        assert_eq!(
            p.from_move(2).unwrap().text(),
            "position fen rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 moves g1f3"
        );
        assert_eq!(
            p.from_move(3).unwrap().text(),
            "position fen rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        );
        assert_eq!(p.without_last(2).text(), "position startpos moves e2e4");
        // An illegal move is never played into a FEN.
        let bad = Position::parse("position startpos moves e2e4 e1e5").unwrap();
        assert!(bad.from_move(2).is_none());
        assert_eq!(bad.from_move(1).unwrap().moves, ["e1e5"]);
        assert!(Position::parse("position").is_none());
        assert!(Position::parse("go depth 3").is_none());
    }
}
