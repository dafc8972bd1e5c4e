//! Cheap PV legality for the `info` flood.
//!
//! The cache keeps the last verified line with the position after each of its moves, and a
//! new PV is verified only from where it leaves that line. A PV that is a prefix of the line
//! (engines often shorten the PV for an iteration, then grow it back) costs one comparison:
//! every prefix of a legal line is legal. For standard chess the positions are light ones
//! (board, side to move, castling, en passant), since real PVs change from one iteration to
//! the next and several new moves per line are the rule. A move the fast path refuses is
//! re-checked by `ChessBoard::check_line`, which knows every notation and variant rule and
//! words the reason.
//!
//! The same cache runs on the reading thread for a long input ([`super::ahead`]): there a PV
//! is verified from the position the GUI's last `position` command set up, and the verdict
//! comes with that position's [`RootKey`]. The decoder takes the verdict only when its own
//! root has the same key ([`PvCache::agrees`]), and checks the PV itself otherwise.

use std::num::NonZeroU64;

use shakmaty::{
    CastlingMode, EnPassantMode, Position, Role, Square, uci::UciMove, variant::VariantPosition,
    zobrist::Zobrist128,
};

use crate::game::chess::light::Light;
use crate::game::{ChessBoard, IllegalMove};

#[derive(Default)]
pub(crate) struct PvCache {
    /// `ChessBoard` id (the decoder bumps it on every board change) the cache was built on.
    root: u64,
    /// The verified moves, single-space separated.
    text: String,
    /// Byte end of each verified move in `text`.
    ends: Vec<usize>,
    /// Position after each verified move, in the light form when the root is standard chess
    /// (`root_light`), else in `positions`.
    light: Vec<Light>,
    positions: Vec<VariantPosition>,
    root_light: Option<Light>,
    /// The root's castling notation is Chess960's (for turning light positions back).
    chess960: bool,
    /// The `ChessBoard` id `key` was worked out for, and that root's key.
    key_root: Option<u64>,
    key: Option<RootKey>,
}

/// What a PV's legality depends on in a standard chess position: the board, the side to move,
/// the castling rights, the en passant square and the castling notation, hashed (Zobrist, 128
/// bits: two different positions share a key with odds of 2^-128). Other variants have none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootKey(NonZeroU64, u64);

impl RootKey {
    pub(crate) fn of(root: &ChessBoard) -> Option<RootKey> {
        let VariantPosition::Chess(pos) = root.position() else {
            return None;
        };
        let z: Zobrist128 = pos.zobrist_hash(EnPassantMode::Always);
        let mut h = z.0;
        if root.is_chess960() {
            // Any fixed odd constant: the same position under the other notation differs.
            h ^= 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835;
        }
        let high = NonZeroU64::new((h >> 64) as u64).unwrap_or(NonZeroU64::MIN);
        Some(RootKey(high, h as u64))
    }
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
        if self.verify(root_id, root, pv) {
            return Ok(());
        }
        // The authoritative check; the cache keeps only what the fast path verified.
        root.check_line(pv.split_ascii_whitespace()).map(|_| ())
    }

    /// Whether a verdict worked out ahead from the position with `key` holds for `root`.
    pub(crate) fn agrees(&mut self, root_id: u64, root: &ChessBoard, key: RootKey) -> bool {
        if self.key_root != Some(root_id) {
            self.key_root = Some(root_id);
            self.key = RootKey::of(root);
        }
        self.key == Some(key)
    }

    /// Whether every move of `pv` is legal from `root`, as far as this cache can tell: `false`
    /// for an illegal move and for the odd move it cannot follow (a null move, bad spacing),
    /// which [`PvCache::check`] leaves to the board's own rules.
    pub(crate) fn verify(&mut self, root_id: u64, root: &ChessBoard, pv: &str) -> bool {
        if root_id != self.root {
            self.root = root_id;
            let new_root = match root.position() {
                VariantPosition::Chess(c) => Some(Light::of(c)),
                _ => None,
            };
            // When the game went on along the cached line (the engine's move, then the reply
            // it expected), the rest of the line is still verified from the new root.
            let along = new_root
                .as_ref()
                .and_then(|r| self.light.iter().position(|p| p == r));
            match along {
                Some(k) => self.drop_front(k + 1),
                None => self.clear(),
            }
            self.root_light = new_root;
            self.chess960 = root.is_chess960();
        }
        // The moves the PV shares with the cached line: its bytes up to the first difference,
        // back to the end of a move that ends there in both (the cached text is single-spaced).
        let (cached, new) = (self.text.as_bytes(), pv.as_bytes());
        let same = common_prefix(cached, new);
        let common = self.ends.partition_point(|&e| {
            e < same || (e == same && matches!(new.get(e), None | Some(b' ')))
        });
        let covered = common.checked_sub(1).map_or(0, |k| self.ends[k]);
        if covered == new.len() {
            // The PV is the cached line or a prefix of it: already verified.
            return true;
        }
        self.text.truncate(covered);
        self.ends.truncate(common);
        self.light.truncate(common);
        self.positions.truncate(common);
        let rest = pv.get(covered..).unwrap_or("");
        self.extend(root, rest.strip_prefix(' ').unwrap_or(rest))
    }

    /// Plays the moves of `rest` (single-spaced) after the cached line, keeping each verified
    /// one; false when one could not be.
    fn extend(&mut self, root: &ChessBoard, rest: &str) -> bool {
        let mode = match self.chess960 {
            true => CastlingMode::Chess960,
            false => CastlingMode::Standard,
        };
        // Where `rest` will start in the cached text.
        let base = self.text.len() + usize::from(!self.text.is_empty());
        let (verified, all) = match self.root_light {
            Some(root_light) => self.extend_light(root_light, rest.as_bytes(), base, mode),
            None => self.extend_full(root, rest.as_bytes(), base),
        };
        self.keep(rest, verified);
        all
    }

    /// [`PvCache::extend`] over light positions: the bytes of `b` verified, and whether that is
    /// all of them. The loop every new PV move of a standard chess game goes through: the
    /// position it plays on stays in this frame, and only ordinary moves are played here.
    fn extend_light(
        &mut self,
        root: Light,
        b: &[u8],
        base: usize,
        mode: CastlingMode,
    ) -> (usize, bool) {
        let mut here = self.light.last().copied().unwrap_or(root);
        let mut verified = 0;
        let mut at = 0;
        while at < b.len() {
            let tok = b.get(at..at + word_len(b, at)).unwrap_or(&[]);
            let played =
                plain_move(tok).is_some_and(|(from, to, promotion)| here.play(from, to, promotion));
            if !played {
                // Castling, en passant, odd notation or an illegal move: the full position
                // decides.
                match play_in_full(&here, tok, mode) {
                    Some(next) => here = next,
                    None => return (verified, false),
                }
            }
            self.light.push(here);
            verified = at + tok.len();
            self.ends.push(base + verified);
            at = verified + 1;
        }
        (verified, true)
    }

    /// [`PvCache::extend`] over the full positions of a variant.
    fn extend_full(&mut self, root: &ChessBoard, b: &[u8], base: usize) -> (usize, bool) {
        let mut verified = 0;
        let mut at = 0;
        while at < b.len() {
            let tok = b.get(at..at + word_len(b, at)).unwrap_or(&[]);
            let here = self.positions.last().unwrap_or(root.position());
            let Some(m) = uci_move(tok).and_then(|u| u.to_move(here).ok()) else {
                return (verified, false);
            };
            let mut next = here.clone();
            next.play_unchecked(m);
            self.positions.push(next);
            verified = at + tok.len();
            self.ends.push(base + verified);
            at = verified + 1;
        }
        (verified, true)
    }

    /// Appends the first `len` bytes of `rest`, the moves just verified, to the cached line.
    fn keep(&mut self, rest: &str, len: usize) {
        if len == 0 {
            return;
        }
        if !self.text.is_empty() {
            self.text.push(' ');
        }
        self.text.push_str(rest.get(..len).unwrap_or(""));
    }

    /// Forgets the first `n` moves of the cached line: their positions, text and ends.
    fn drop_front(&mut self, n: usize) {
        let Some(&cut) = self.ends.get(n - 1) else {
            self.clear();
            return;
        };
        let skip = (cut + 1).min(self.text.len());
        self.text.drain(..skip);
        self.ends.drain(..n);
        for e in &mut self.ends {
            *e -= skip;
        }
        self.light.drain(..n);
        self.positions.clear();
    }

    fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
        self.light.clear();
        self.positions.clear();
    }
}

/// Length of the word at `at` in single-spaced `b`. UCI moves are four or five bytes, so those
/// are looked at first; a wrong length can only put a space inside the word or cut a longer
/// one short where a space or the end is, and a word with a space is no move.
#[inline]
fn word_len(b: &[u8], at: usize) -> usize {
    let ends_at = |k: usize| matches!(b.get(at + k), None | Some(b' '));
    if ends_at(4) {
        4
    } else if ends_at(5) {
        5
    } else {
        b.get(at..)
            .and_then(|w| w.iter().position(|&c| c == b' '))
            .unwrap_or(b.len().saturating_sub(at))
    }
}

/// The usual UCI move, `e2e4` or `e7e8q`, read directly: its squares and promotion. `None`
/// for anything else (castling is two squares too, and the light position leaves it to the
/// full one).
#[inline(always)]
fn plain_move(tok: &[u8]) -> Option<(Square, Square, Option<Role>)> {
    let promotion = match tok.get(4) {
        None => None,
        Some(b'q') if tok.len() == 5 => Some(Role::Queen),
        Some(b'r') if tok.len() == 5 => Some(Role::Rook),
        Some(b'b') if tok.len() == 5 => Some(Role::Bishop),
        Some(b'n') if tok.len() == 5 => Some(Role::Knight),
        Some(_) => return None,
    };
    // File, rank, file, rank: each byte minus its `a` or `1` must be below 8. A byte below its
    // base borrows, which leaves high bits in that byte (or, for the last, wraps the word).
    let v = u32::from_le_bytes(*tok.first_chunk::<4>()?).wrapping_sub(u32::from_le_bytes(*b"a1a1"));
    if v & 0xf8f8_f8f8 != 0 {
        return None;
    }
    let from = (v & 7) | ((v >> 5) & 0o70);
    let to = ((v >> 16) & 7) | ((v >> 21) & 0o70);
    (from != to).then(|| (Square::new(from), Square::new(to), promotion))
}

/// A UCI move: the usual `e2e4` / `e7e8q` read directly, anything else by shakmaty.
#[inline]
fn uci_move(tok: &[u8]) -> Option<UciMove> {
    if let Some((from, to, promotion)) = plain_move(tok) {
        return Some(UciMove::Normal {
            from,
            to,
            promotion,
        });
    }
    UciMove::from_ascii(tok).ok()
}

/// The light position after `tok` played on the full position `here` stands for: castling,
/// en passant and every move the light test leaves alone. `None` when it is not legal there.
#[cold]
#[inline(never)]
fn play_in_full(here: &Light, tok: &[u8], mode: CastlingMode) -> Option<Light> {
    let mut full = here.to_chess(mode)?;
    let m = uci_move(tok)?.to_move(&full).ok()?;
    full.play_unchecked(m);
    Some(Light::of(&full))
}

/// Length of the longest common prefix of `a` and `b`, eight bytes at a time.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while let (Some(x), Some(y)) = (
        a.get(i..).and_then(|s| s.first_chunk::<8>()),
        b.get(i..).and_then(|s| s.first_chunk::<8>()),
    ) {
        let diff = u64::from_le_bytes(*x) ^ u64::from_le_bytes(*y);
        if diff != 0 {
            return i + (diff.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < n && a.get(i) == b.get(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ChessVariant;

    fn start() -> ChessBoard {
        ChessBoard::startpos(ChessVariant::Standard).expect("start")
    }

    /// The cache's invariant: its text is its moves, each ending where `ends` says, and each
    /// light position is the one after playing the text's moves up to it from `root`.
    fn consistent(c: &PvCache, root: &ChessBoard) -> Result<(), String> {
        let moves: Vec<&str> = c.text.split(' ').filter(|m| !m.is_empty()).collect();
        if moves.len() != c.ends.len() || moves.len() != c.light.len() {
            return Err(format!(
                "{} moves, {} ends, {} positions",
                moves.len(),
                c.ends.len(),
                c.light.len()
            ));
        }
        let mut b = root.clone();
        let mut end = 0;
        for (k, m) in moves.iter().enumerate() {
            end += m.len() + usize::from(k > 0);
            b.play_uci(m).map_err(|e| format!("{m}: {}", e.reason))?;
            let VariantPosition::Chess(pos) = b.position() else {
                return Err("not standard chess".into());
            };
            if c.ends[k] != end || c.light[k] != Light::of(pos) {
                return Err(format!("move {k} ({m}) out of step"));
            }
        }
        Ok(())
    }

    #[test]
    fn accepts_legal_lines_and_reuses_the_prefix() {
        let b = start();
        let mut c = PvCache::default();
        assert!(c.check(1, &b, "e2e4 e7e5 g1f3").is_ok());
        assert_eq!(c.ends.len(), 3);
        assert!(c.check(1, &b, "e2e4 e7e5 g1f3 b8c6").is_ok());
        assert_eq!(c.text, "e2e4 e7e5 g1f3 b8c6");
        // A shorter PV along the same line keeps the longer verified line.
        assert!(c.check(1, &b, "e2e4 e7e5").is_ok());
        assert_eq!(c.ends.len(), 4);
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

    #[test]
    fn a_move_that_is_a_prefix_of_the_cached_one_is_checked_on_its_own() {
        let b = ChessBoard::from_fen(
            "8/P6k/8/8/8/8/8/K7 w - - 0 1",
            ChessVariant::Standard,
            false,
        )
        .expect("fen");
        let mut c = PvCache::default();
        assert!(c.check(1, &b, "a7a8q h7g6").is_ok());
        // `a7a8` shares four bytes with the cached `a7a8q` but is another (illegal) move.
        assert_eq!(c.check(1, &b, "a7a8").map_err(|e| e.0), Err(0));
        assert!(c.check(1, &b, "a7a8q").is_ok());
        assert!(c.check(1, &b, "a7a8r h7g6 a8a2").is_ok());
        assert_eq!(c.text, "a7a8r h7g6 a8a2");
        // Odd spacing is left to the authoritative check, which reads it all the same.
        assert!(c.check(1, &b, "a7a8q  h7g6").is_ok());
        assert_eq!(c.check(1, &b, "a7a8q\th7g6").map_err(|e| e.0), Ok(()));
    }

    /// A line from the start position: each step picks a legal move by index, or (when the
    /// pick is out of range) a move that is illegal there.
    fn line(picks: &[(usize, bool)]) -> String {
        line_from(&start(), picks)
    }

    /// [`line`] from `root`.
    fn line_from(root: &ChessBoard, picks: &[(usize, bool)]) -> String {
        let mut b = root.clone();
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
        fn reads_moves_like_shakmaty(tok in proptest::prop_oneof![
            "[a-i][0-9][a-i][0-9][qrbnkQx]?",
            "[a-j0-9qrbnkQ@ ]{0,6}",
        ]) {
            proptest::prop_assert_eq!(uci_move(tok.as_bytes()), UciMove::from_ascii(tok.as_bytes()).ok());
        }

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
                proptest::prop_assert_eq!(consistent(&c, &b), Ok(()), "{}", pv);
            }
        }
    }

    proptest::proptest! {
        /// The game goes on along the PVs (the engine's move and the reply it expected), so
        /// the cache carries what it verified over to the new root.
        #[test]
        fn follows_the_game_along_its_pvs(
            steps in proptest::collection::vec(
                (
                    proptest::collection::vec((0..3usize, proptest::bool::weighted(0.95)), 0..8),
                    0..8usize,
                    0..3usize,
                ),
                1..16,
            ),
        ) {
            let mut root = start();
            let mut id = 1;
            let mut c = PvCache::default();
            let mut base: Vec<(usize, bool)> = Vec::new();
            for (picks, keep, advance) in steps {
                base.truncate(keep);
                base.extend(picks);
                let pv = line_from(&root, &base);
                let expected = root.check_line(pv.split_ascii_whitespace()).map(|_| ()).map_err(|e| e.0);
                proptest::prop_assert_eq!(c.check(id, &root, &pv).map_err(|e| e.0), expected, "{}", pv);
                proptest::prop_assert_eq!(consistent(&c, &root), Ok(()), "{}", pv);
                let mut played = 0;
                for m in pv.split(' ').filter(|m| !m.is_empty()).take(advance) {
                    if root.play_uci(m).is_err() {
                        break;
                    }
                    played += 1;
                }
                if played > 0 {
                    id += 1;
                    base.drain(..played.min(base.len()));
                }
            }
        }
    }

    #[test]
    fn keeps_the_rest_of_the_line_when_the_game_follows_it() {
        let mut b = start();
        let mut c = PvCache::default();
        assert!(c.check(1, &b, "e2e4 e7e5 g1f3 b8c6").is_ok());
        b.play_uci("e2e4").expect("legal");
        b.play_uci("e7e5").expect("legal");
        assert!(c.check(2, &b, "g1f3").is_ok());
        assert_eq!(c.text, "g1f3 b8c6");
        assert_eq!(c.ends, vec![4, 9]);
        assert_eq!(c.check(2, &b, "g1f3 b8c6 e1e3").map_err(|e| e.0), Err(2));
        // A root off the line starts afresh.
        b.play_uci("d2d4").expect("legal");
        assert!(c.check(3, &b, "e5d4").is_ok());
        assert_eq!(c.text, "e5d4");
    }

    #[test]
    fn null_moves_fall_back_to_the_board_rules() {
        let b = start();
        let mut c = PvCache::default();
        assert!(c.check(1, &b, "e2e4 0000 d2d4").is_ok());
    }

    #[test]
    fn a_root_key_tells_apart_everything_a_pv_is_legal_by() {
        let fen = |f: &str, chess960| {
            let b = ChessBoard::from_fen(f, ChessVariant::Standard, chess960).expect("fen");
            RootKey::of(&b).expect("standard chess")
        };
        let base = "r3k2r/ppp1qppp/8/3pP3/8/8/PPPQ1PPP/R3K2R w KQkq d6 0 1";
        // The clocks do not change what is legal.
        assert_eq!(
            fen(base, false),
            fen(
                "r3k2r/ppp1qppp/8/3pP3/8/8/PPPQ1PPP/R3K2R w KQkq d6 7 30",
                false
            )
        );
        for other in [
            "r3k2r/ppp1qppp/8/3pP3/8/8/PPPQ1PPP/R3K2R b KQkq - 0 1",
            "r3k2r/ppp1qppp/8/3pP3/8/8/PPPQ1PPP/R3K2R w Qkq d6 0 1",
            "r3k2r/ppp1qppp/8/3pP3/8/8/PPPQ1PPP/R3K2R w KQkq - 0 1",
            "r3k2r/ppp1qppp/8/3pP3/8/8/PPP2PPP/R2QK2R w KQkq d6 0 1",
        ] {
            assert_ne!(fen(base, false), fen(other, false), "{other}");
        }
        assert_ne!(fen(base, false), fen(base, true), "castling notation");
        let atomic = ChessBoard::startpos(ChessVariant::Atomic).expect("atomic");
        assert_eq!(RootKey::of(&atomic), None);
    }
}
