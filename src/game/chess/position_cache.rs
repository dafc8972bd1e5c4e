//! UCI GUIs resend the whole game with every `position ... moves` command. Replaying it from
//! scratch each time makes decoding a game quadratic; this cache keeps the last board and
//! plays only the moves that extend the previous command.

use thiserror::Error;

use super::{BoardError, ChessBoard, ChessVariant, IllegalMove, Played};

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum UciPositionError {
    #[error("bad start position: {0}")]
    Start(BoardError),
    #[error("move {} ({}): {}", index + 1, error.text, error.reason)]
    Move { index: usize, error: IllegalMove },
}

#[derive(Debug, Clone, PartialEq)]
struct Key {
    start: Option<String>,
    variant: ChessVariant,
    chess960: bool,
}

/// Remembers the last `position` command's start, moves and resulting board.
#[derive(Debug, Clone, Default)]
pub struct PositionCache {
    key: Option<Key>,
    moves: Vec<String>,
    board: Option<ChessBoard>,
}

/// What one `position` command changed.
#[derive(Debug, Clone, PartialEq)]
pub struct PositionUpdate {
    /// Moves taken over from the previous command without replaying them.
    pub reused: usize,
    /// True when the new command did not extend the previous one (new game, takeback,
    /// different start), so the board was rebuilt from the start position.
    pub rebuilt: bool,
    /// The moves played for this command (the new suffix, or all of them when rebuilt).
    pub played: Vec<Played>,
}

impl PositionCache {
    #[must_use]
    pub fn new() -> PositionCache {
        PositionCache::default()
    }

    /// The board after the last successful (or partly successful) command.
    #[must_use]
    pub fn board(&self) -> Option<&ChessBoard> {
        self.board.as_ref()
    }

    /// Moves the cached board has played.
    #[must_use]
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    pub fn clear(&mut self) {
        *self = PositionCache::default();
    }

    /// Applies `position [startpos | fen F] moves ...`. On an illegal move the cache keeps the
    /// board before it, so a later command that extends the legal prefix still reuses it.
    ///
    /// # Errors
    /// A bad start FEN (the cache is emptied), or the first illegal move.
    pub fn apply(
        &mut self,
        start: Option<&str>,
        moves: &[&str],
        variant: &ChessVariant,
        chess960: bool,
    ) -> Result<PositionUpdate, UciPositionError> {
        let key = Key {
            start: start.map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ")),
            variant: variant.clone(),
            chess960,
        };
        let extends = self.key.as_ref() == Some(&key)
            && self.moves.len() <= moves.len()
            && self.moves.iter().zip(moves).all(|(a, b)| a == b);
        let cached = if extends { self.board.take() } else { None };
        let (mut board, reused) = match cached {
            Some(board) => (board, self.moves.len()),
            None => {
                self.clear();
                let board = match start {
                    Some(fen) => ChessBoard::from_fen(fen, variant.clone(), chess960),
                    None => ChessBoard::startpos_with_mode(variant.clone(), chess960),
                }
                .map_err(UciPositionError::Start)?;
                self.key = Some(key);
                (board, 0)
            }
        };
        let mut played = Vec::with_capacity(moves.len() - reused);
        let mut failure = None;
        for (index, text) in moves.iter().enumerate().skip(reused) {
            match board.play_uci(text) {
                Ok(p) => {
                    played.push(p);
                    self.moves.push((*text).to_string());
                }
                Err(error) => {
                    failure = Some(UciPositionError::Move { index, error });
                    break;
                }
            }
        }
        self.board = Some(board);
        match failure {
            Some(err) => Err(err),
            None => Ok(PositionUpdate {
                reused,
                rebuilt: !extends,
                played,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STD: ChessVariant = ChessVariant::Standard;

    #[test]
    fn extends_previous_command_incrementally() {
        let mut cache = PositionCache::new();
        let first = cache
            .apply(None, &["e2e4", "e7e5"], &STD, false)
            .expect("legal");
        assert_eq!((first.reused, first.played.len()), (0, 2));
        let second = cache
            .apply(None, &["e2e4", "e7e5", "g1f3", "b8c6"], &STD, false)
            .expect("legal");
        assert_eq!((second.reused, second.played.len()), (2, 2));
        assert!(!second.rebuilt);
        assert_eq!(second.played[0].san, "Nf3");
        let board = cache.board().expect("board");
        assert_eq!(
            board.fen(),
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
        );
    }

    #[test]
    fn takeback_and_new_start_rebuild() {
        let mut cache = PositionCache::new();
        cache
            .apply(None, &["e2e4", "e7e5"], &STD, false)
            .expect("legal");
        let back = cache.apply(None, &["e2e4"], &STD, false).expect("legal");
        assert!(back.rebuilt);
        assert_eq!(back.played.len(), 1);
        let fen = "k7/8/8/8/8/8/8/4K2R w K - 0 1";
        let other = cache
            .apply(Some(fen), &["e1g1"], &STD, false)
            .expect("legal");
        assert!(other.rebuilt);
        assert_eq!(other.played[0].uci, "e1g1");
    }

    #[test]
    fn illegal_move_keeps_legal_prefix() {
        let mut cache = PositionCache::new();
        let err = cache
            .apply(None, &["e2e4", "e7e5", "e4e5"], &STD, false)
            .expect_err("e4e5 is blocked");
        assert!(matches!(err, UciPositionError::Move { index: 2, .. }));
        assert_eq!(cache.moves().len(), 2);
        let next = cache
            .apply(None, &["e2e4", "e7e5", "d2d4"], &STD, false)
            .expect("legal");
        assert_eq!(next.reused, 2);
    }

    #[test]
    fn long_game_replays_linearly() {
        // A knight shuffle of 400 plies: each command adds one move and must replay one.
        let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let all: Vec<&str> = cycle.iter().copied().cycle().take(400).collect();
        let mut cache = PositionCache::new();
        let mut replayed = 0;
        for n in 1..=all.len() {
            let update = cache.apply(None, &all[..n], &STD, false).expect("legal");
            replayed += update.played.len();
        }
        assert_eq!(replayed, all.len());
    }
}
