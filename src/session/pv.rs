//! Cheap PV legality for the `info` flood.
//!
//! Consecutive PVs of one search share prefixes (the first moves change rarely between
//! depths), so the cache keeps the longest verified line with the position after each of its
//! moves and only plays what the new PV adds. A PV that is a prefix of that line (engines often
//! shorten the PV for an iteration, then grow it back) costs a string comparison: every prefix
//! of a legal line is legal. A PV that differs is verified from the first difference on. A move the fast path refuses is re-checked by
//! `ChessBoard::check_line`, which knows every notation and variant rule and words the reason.

use shakmaty::{Position, uci::UciMove, variant::VariantPosition};

use crate::game::chess::fast_legal::ordinary_move;
use crate::game::{ChessBoard, IllegalMove};
use crate::protocol::tokens::Tokens;

#[derive(Default)]
pub(crate) struct PvCache {
    /// `ChessBoard` id (the decoder bumps it on every board change) the cache was built on.
    root: u64,
    /// The verified moves, single-space separated.
    text: String,
    /// Byte end of each verified move in `text`.
    ends: Vec<usize>,
    /// Position after each verified move.
    positions: Vec<VariantPosition>,
}

impl PvCache {
    /// Checks `pv` (whitespace-separated UCI moves) from `root`. `Err((index, error))` names
    /// the first illegal move.
    pub(crate) fn check(
        &mut self,
        root_id: u64,
        root: &ChessBoard,
        pv: &str,
    ) -> Result<(), (usize, IllegalMove)> {
        if root_id != self.root {
            self.root = root_id;
            self.clear();
        }
        // The usual case, one memcmp: the PV is the cached line or a prefix of it (the cached
        // text is single-spaced, so a byte prefix ending at a move boundary is a move prefix).
        let (cached, new) = (self.text.as_bytes(), pv.as_bytes());
        if cached.starts_with(new) && matches!(cached.get(new.len()), None | Some(b' ')) {
            return Ok(());
        }
        // Next most usual: the PV extends the cached line; only the new moves need playing.
        if !cached.is_empty() && new.starts_with(cached) && new.get(cached.len()) == Some(&b' ') {
            let suffix = pv.get(cached.len() + 1..).unwrap_or("");
            return self.extend(root, pv, Tokens::new(suffix));
        }
        // Common prefix with the cached line, in moves.
        let mut common = 0;
        let mut start = 0;
        let mut tokens = Tokens::new(pv);
        let mut pending: Option<&str> = None;
        for tok in tokens.by_ref() {
            let Some(&end) = self.ends.get(common) else {
                pending = Some(tok);
                break;
            };
            if self.text.get(start..end) != Some(tok) {
                pending = Some(tok);
                break;
            }
            common += 1;
            start = end + 1;
        }
        let Some(first) = pending else {
            // The PV is the cached line or a prefix of it: already verified.
            return Ok(());
        };
        self.text.truncate(if common == 0 { 0 } else { start - 1 });
        self.ends.truncate(common);
        self.positions.truncate(common);
        self.extend(root, pv, std::iter::once(first).chain(tokens))
    }

    /// Plays `moves` after the cached line, keeping each verified one; `pv` is the whole line
    /// for the authoritative check when one fails.
    fn extend<'a>(
        &mut self,
        root: &ChessBoard,
        pv: &str,
        moves: impl Iterator<Item = &'a str>,
    ) -> Result<(), (usize, IllegalMove)> {
        for tok in moves {
            let Ok(u) = UciMove::from_ascii(tok.as_bytes()) else {
                return self.slow_path(root, pv);
            };
            let pos = match self.positions.last() {
                Some(p) => p,
                None => root.position(),
            };
            let fast = match pos {
                VariantPosition::Chess(c) => ordinary_move(c, &u),
                _ => None,
            };
            let Some(m) = fast.or_else(|| u.to_move(pos).ok()) else {
                return self.slow_path(root, pv);
            };
            // The next position is a copy of this one made in place in the cache, then played
            // there: a position is ~170 bytes, and a PV flood plays millions.
            match self.positions.len() {
                0 => self.positions.push(root.position().clone()),
                n => self.positions.extend_from_within(n - 1..),
            }
            if let Some(p) = self.positions.last_mut() {
                p.play_unchecked(m);
            }
            self.push_text(tok);
        }
        Ok(())
    }

    /// Appends a verified move to the cached line (its position is already pushed).
    fn push_text(&mut self, tok: &str) {
        if !self.text.is_empty() {
            self.text.push(' ');
        }
        self.text.push_str(tok);
        self.ends.push(self.text.len());
    }

    /// The authoritative check; the cache keeps only what the fast path verified.
    fn slow_path(&mut self, root: &ChessBoard, pv: &str) -> Result<(), (usize, IllegalMove)> {
        root.check_line(pv.split_ascii_whitespace()).map(|_| ())
    }

    fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
        self.positions.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ChessVariant;

    fn start() -> ChessBoard {
        ChessBoard::startpos(ChessVariant::Standard).expect("start")
    }

    #[test]
    fn accepts_legal_lines_and_reuses_the_prefix() {
        let b = start();
        let mut c = PvCache::default();
        assert!(c.check(1, &b, "e2e4 e7e5 g1f3").is_ok());
        assert_eq!(c.positions.len(), 3);
        assert!(c.check(1, &b, "e2e4 e7e5 g1f3 b8c6").is_ok());
        assert_eq!(c.text, "e2e4 e7e5 g1f3 b8c6");
        // A shorter PV along the same line keeps the longer verified line.
        assert!(c.check(1, &b, "e2e4 e7e5").is_ok());
        assert_eq!(c.positions.len(), 4);
        assert!(c.check(1, &b, "e2e4 c7c5").is_ok());
        assert_eq!(c.text, "e2e4 c7c5");
        assert_eq!(c.ends, vec![4, 9]);
    }

    #[test]
    fn reports_the_first_illegal_move_even_after_a_cached_prefix() {
        let b = start();
        let mut c = PvCache::default();
        assert!(c.check(1, &b, "e2e4 e7e5").is_ok());
        let err = c.check(1, &b, "e2e4 e7e5 e1e3").expect_err("illegal");
        assert_eq!(err.0, 2);
        assert_eq!(err.1.text, "e1e3");
        // A line that differs after a cached prefix is checked from the difference on.
        assert!(c.check(1, &b, "e2e4 e7e5 g1f3 b8c6 f1b5").is_ok());
        let err = c
            .check(1, &b, "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1c1")
            .expect_err("illegal");
        assert_eq!(err.0, 6);
        assert!(c.check(1, &b, "e2e4 e7e5 g1f3").is_ok());
        assert_eq!(c.check(1, &b, "e2e4 e7e5 g1f3 g8f6 f1b5 f6e4 f3g5 e4g5 e1g1 b8c6 d2d4 c6d4 d1d4 g5h3 g1h1 h3f2 h1g1 f2h3 g1h1 h3f2").map_err(|e| e.0), Ok(()));
        assert_eq!(c.check(1, &b, "e2e4 e7e5 g1f3 g8f6 f1b5 f6e4 f3g5 e4g5 e1g1 b8c6 d2d4 c6d4 d1d4 g5h3 g1h1 h3f2 h1g1 f2h3 g1h1 h3h5").map_err(|e| e.0), Err(19));
        // A new root invalidates the cache: e7e5 is not legal for White.
        assert_eq!(c.check(2, &b, "e7e5").expect_err("wrong side").0, 0);
    }

    /// A line from the start position: each step picks a legal move by index, or (when the
    /// pick is out of range) a move that is illegal there.
    fn line(picks: &[(usize, bool)]) -> String {
        let mut b = start();
        let mut moves = Vec::new();
        for &(pick, legal) in picks {
            let legal_moves = b.legal_moves_uci();
            if legal_moves.is_empty() {
                break;
            }
            if !legal {
                moves.push("a1a1".to_owned());
                break;
            }
            let m = legal_moves[pick % legal_moves.len()].clone();
            b.play_uci(&m).expect("legal");
            moves.push(m);
        }
        moves.join(" ")
    }

    proptest::proptest! {
        #[test]
        fn answers_like_the_board_for_any_sequence_of_pvs(
            lines in proptest::collection::vec(
                (proptest::collection::vec((0..3usize, proptest::bool::weighted(0.95)), 0..8), 0..8usize),
                1..12,
            ),
        ) {
            let b = start();
            let mut c = PvCache::default();
            let mut base = Vec::new();
            for (picks, keep) in lines {
                // Share a prefix with the previous line, as consecutive PVs do.
                base.truncate(keep);
                base.extend(picks);
                let pv = line(&base);
                let expected = b.check_line(pv.split_ascii_whitespace()).map(|_| ()).map_err(|e| e.0);
                proptest::prop_assert_eq!(c.check(1, &b, &pv).map_err(|e| e.0), expected, "{}", pv);
            }
        }
    }

    #[test]
    fn null_moves_fall_back_to_the_board_rules() {
        let b = start();
        let mut c = PvCache::default();
        assert!(c.check(1, &b, "e2e4 0000 d2d4").is_ok());
    }
}
