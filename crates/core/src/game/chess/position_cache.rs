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
    /// The moves the board has played, single-space separated: a new command extends them
    /// when its move text starts with this, which is one comparison however long the game.
    text: String,
    count: usize,
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

    /// Whether the cached moves are the first moves of `moves_text` (single-spaced, as the
    /// cache keeps them).
    #[must_use]
    pub fn is_prefix_of(&self, moves_text: &str) -> bool {
        let (cached, new) = (self.text.as_bytes(), moves_text.trim_ascii().as_bytes());
        new.starts_with(cached)
            && (cached.is_empty() || matches!(new.get(cached.len()), None | Some(b' ')))
    }

    /// How many moves the cached board has played.
    #[must_use]
    pub fn moves_len(&self) -> usize {
        self.count
    }

    /// Records that `mv` was played on the cached board, giving `after` (the engine's
    /// `bestmove`, already played by the caller), so the GUI's next command, which repeats
    /// it, does not replay it.
    pub fn push_played(&mut self, mv: &str, after: ChessBoard) {
        if self.board.is_none() {
            return;
        }
        if !self.text.is_empty() {
            self.text.push(' ');
        }
        self.text.push_str(mv.trim());
        self.count += 1;
        self.board = Some(after);
    }

    pub fn clear(&mut self) {
        *self = PositionCache::default();
    }

    /// Applies `position [startpos | fen F] moves ...`, the moves as whitespace-separated text.
    /// On an illegal move the cache keeps the board before it, so a later command that
    /// extends the legal prefix still reuses it.
    ///
    /// # Errors
    /// A bad start FEN (the cache is emptied), or the first illegal move.
    pub fn apply(
        &mut self,
        start: Option<&str>,
        moves_text: &str,
        variant: &ChessVariant,
        chess960: bool,
    ) -> Result<PositionUpdate, UciPositionError> {
        let same_start = match (&self.key, start) {
            (Some(k), _) if k.variant != *variant || k.chess960 != chess960 => false,
            (Some(k), Some(fen)) => k.start.as_deref().is_some_and(|s| same_words(s, fen)),
            (Some(k), None) => k.start.is_none(),
            (None, _) => false,
        };
        let moves_text = moves_text.trim_ascii();
        // A byte prefix that ends at a move boundary is a move prefix (the cached text is
        // single-spaced; a new text spaced otherwise just misses and rebuilds).
        let extends = same_start && self.is_prefix_of(moves_text);
        let cached = if extends { self.board.take() } else { None };
        let (mut board, reused, rest) = match cached {
            Some(board) => (
                board,
                self.count,
                moves_text.get(self.text.len()..).unwrap_or(""),
            ),
            None => {
                self.clear();
                let board = match start {
                    Some(fen) => ChessBoard::from_fen(fen, variant.clone(), chess960),
                    None => ChessBoard::startpos_with_mode(variant.clone(), chess960),
                }
                .map_err(UciPositionError::Start)?;
                self.key = Some(Key {
                    start: start.map(|s| s.split_ascii_whitespace().collect::<Vec<_>>().join(" ")),
                    variant: variant.clone(),
                    chess960,
                });
                (board, 0, moves_text)
            }
        };
        let mut played = Vec::new();
        let mut failure = None;
        for (index, text) in rest.split_ascii_whitespace().enumerate() {
            let index = index + reused;
            match board.play_uci(text) {
                Ok(p) => {
                    played.push(p);
                    if !self.text.is_empty() {
                        self.text.push(' ');
                    }
                    self.text.push_str(text);
                    self.count += 1;
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

/// `a` and `b` have the same whitespace-separated words.
fn same_words(a: &str, b: &str) -> bool {
    a.split_ascii_whitespace().eq(b.split_ascii_whitespace())
}

#[cfg(test)]
mod tests {
    use super::*;

    const STD: ChessVariant = ChessVariant::Standard;

    #[test]
    fn extends_previous_command_incrementally() {
        let mut cache = PositionCache::new();
        let first = cache.apply(None, "e2e4 e7e5", &STD, false).expect("legal");
        assert_eq!((first.reused, first.played.len()), (0, 2));
        let second = cache
            .apply(None, "e2e4 e7e5 g1f3 b8c6", &STD, false)
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
        cache.apply(None, "e2e4 e7e5", &STD, false).expect("legal");
        let back = cache.apply(None, "e2e4", &STD, false).expect("legal");
        assert!(back.rebuilt);
        assert_eq!(back.played.len(), 1);
        let fen = "k7/8/8/8/8/8/8/4K2R w K - 0 1";
        let other = cache.apply(Some(fen), "e1g1", &STD, false).expect("legal");
        assert!(other.rebuilt);
        assert_eq!(other.played[0].uci, "e1g1");
    }

    #[test]
    fn illegal_move_keeps_legal_prefix() {
        let mut cache = PositionCache::new();
        let err = cache
            .apply(None, "e2e4 e7e5 e4e5", &STD, false)
            .expect_err("e4e5 is blocked");
        assert!(matches!(err, UciPositionError::Move { index: 2, .. }));
        assert_eq!(cache.moves_len(), 2);
        let next = cache
            .apply(None, "e2e4 e7e5 d2d4", &STD, false)
            .expect("legal");
        assert_eq!(next.reused, 2);
    }

    #[test]
    fn odd_spacing_and_a_pushed_engine_move_still_give_the_right_board() {
        let mut cache = PositionCache::new();
        cache.apply(None, "e2e4  e7e5", &STD, false).expect("legal");
        assert_eq!(cache.moves_len(), 2);
        let same = cache
            .apply(None, "e2e4 e7e5\tg1f3", &STD, false)
            .expect("legal");
        assert_eq!(same.played.len() + same.reused, 3);
        // The engine's reply is pushed; the GUI's next command repeats it and adds one.
        let mut after = cache.board().cloned().expect("board");
        after.play_uci("b8c6").expect("legal");
        cache.push_played("b8c6", after);
        let next = cache
            .apply(None, "e2e4 e7e5 g1f3 b8c6 f1b5", &STD, false)
            .expect("legal");
        assert_eq!((next.reused, next.played.len()), (4, 1));
        assert_eq!(next.played[0].san, "Bb5");
        // A command that does not contain the pushed move rebuilds.
        let other = cache
            .apply(None, "e2e4 e7e5 g1f3 g8f6", &STD, false)
            .expect("legal");
        assert!(other.rebuilt);
        assert_eq!(
            cache.board().expect("board").fen(),
            "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
        );
    }

    #[test]
    fn long_game_replays_linearly() {
        // A knight shuffle of 400 plies: each command adds one move and must replay one.
        let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let all: Vec<&str> = cycle.iter().copied().cycle().take(400).collect();
        let mut cache = PositionCache::new();
        let mut replayed = 0;
        for n in 1..=all.len() {
            let update = cache
                .apply(None, &all[..n].join(" "), &STD, false)
                .expect("legal");
            replayed += update.played.len();
        }
        assert_eq!(replayed, all.len());
    }
}
