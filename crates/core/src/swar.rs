//! Eight bytes at a time: recording timestamps, the words of `info` lines, PVs and JSON
//! strings are scanned with a few integer operations per eight bytes instead of a branch per
//! byte.

mod json;
mod text;

pub(crate) use json::{StringSpan, string_span};

pub(crate) use text::scan_line;

/// Asks the cache for the 64-byte line holding `p` (on x86_64; a no-op elsewhere). Beside
/// the byte scans because it serves the same end: reading big inputs without waiting on memory.
#[inline(always)]
pub fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch is a hint to the cache: it reads nothing the program sees and
        // cannot fault, whatever the address (SSE, which every x86_64 has).
        #[allow(unsafe_code)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
pub(crate) const HIGH: u64 = 0x8080_8080_8080_8080;

/// The eight bytes of `b` from `at`, little-endian; past the end, spaces.
#[inline(always)]
pub(crate) fn load8(b: &[u8], at: usize) -> u64 {
    load8_or(b, at, b' ')
}

/// [`load8`], with `pad` past the end.
#[inline(always)]
fn load8_or(b: &[u8], at: usize, pad: u8) -> u64 {
    match b.get(at..at + 8) {
        Some(chunk) => u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or([pad; 8])),
        None => load_tail(b, at, pad),
    }
}

#[cold]
#[inline(never)]
fn load_tail(b: &[u8], at: usize, pad: u8) -> u64 {
    let mut buf = [pad; 8];
    let tail = b.get(at..).unwrap_or(&[]);
    let n = tail.len().min(8);
    buf[..n].copy_from_slice(&tail[..n]);
    u64::from_le_bytes(buf)
}

/// Flags (high bit of each byte) for the ASCII bytes of `x` below `c`. The lowest flag is
/// exactly the first such byte, and "any flag" is exact; flags above a flagged byte may be
/// spurious (a borrow runs upwards), so use [`ascii_at_least`] where every flag counts.
#[inline(always)]
pub(crate) fn below(x: u64, c: u8) -> u64 {
    x.wrapping_sub(ONES * u64::from(c)) & !x & HIGH
}

/// Number of leading ASCII digits in the word `x` (0 to 8), and their value.
#[inline(always)]
fn digits_in_word(x: u64) -> (u64, usize) {
    // Digits become 0..=9; anything else is at least 10 or has its high bit set.
    let t = x ^ (ONES * b'0' as u64);
    // `t + 0x76` reaches the high bit exactly when a byte is 10 or more; a carry out of a
    // byte only happens above one that is already flagged, and only the lowest flag counts.
    let flags = (t.wrapping_add(ONES * 0x76) | t) & HIGH;
    let n = (flags.trailing_zeros() / 8) as usize;
    if n == 0 {
        return (0, 0);
    }
    // Keep the `n` digits, most significant first in memory, as the top bytes: the zero bytes
    // shifted in below them are leading zeros.
    let mut v = t << (8 * (8 - n));
    v = (v & 0x0f0f_0f0f_0f0f_0f0f).wrapping_mul(10 * 256 + 1) >> 8;
    v = (v & 0x00ff_00ff_00ff_00ff).wrapping_mul(100 * 65536 + 1) >> 16;
    v = (v & 0x0000_ffff_0000_ffff).wrapping_mul(10000 * (1 << 32) + 1) >> 32;
    (v, n)
}

const POW10: [u64; 9] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
];

/// The run of ASCII digits starting at `at`: its value and length. `None` when there is no
/// digit there or the run is longer than 19 digits (which could overflow a `u64`).
#[inline(always)]
pub(crate) fn digits(b: &[u8], at: usize) -> Option<(u64, usize)> {
    let (v, n) = digits_in_word(load8(b, at));
    if n < 8 {
        return (n > 0).then_some((v, n));
    }
    long_digits(b, at, v)
}

/// [`digits`] past the first eight: a recording's times, of 11 and 19 digits on every line.
/// Two more words at most, unrolled: a 20th digit could overflow a `u64`.
#[inline(never)]
fn long_digits(b: &[u8], at: usize, first8: u64) -> Option<(u64, usize)> {
    let (w, m) = digits_in_word(load8(b, at + 8));
    if m < 8 {
        return Some((first8 * POW10[m] + w, 8 + m));
    }
    let v = first8 * 100_000_000 + w;
    let (w, m) = digits_in_word(load8(b, at + 16));
    if m > 3 {
        return None;
    }
    Some((v * POW10[m] + w, 16 + m))
}

/// What a run of space-separated words (the moves of a PV) holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MoveRun {
    /// Single spaces between words, no other byte below `!`, and no two ASCII lowercase
    /// letters side by side: no word can be a keyword (every UCI `info` keyword has two, no
    /// UCI move has them).
    Plain,
    /// Well spaced, but some word may be a keyword: look at the words.
    MayHoldWords,
    /// Empty, a space at either end, a double space, or another byte below `!`.
    Bad,
}

impl MoveRun {
    /// The verdict from what a scan found: a bad byte or spacing, two lowercase letters side
    /// by side.
    fn from_flags(bad: bool, pairs: bool) -> MoveRun {
        if bad {
            MoveRun::Bad
        } else if pairs {
            MoveRun::MayHoldWords
        } else {
            MoveRun::Plain
        }
    }
}

/// Empty, or a space at either end.
fn badly_ended(b: &[u8]) -> bool {
    b.first().is_none_or(|&c| c == b' ') || b.last() == Some(&b' ')
}

/// Exact per-byte flags (high bit of each byte) of the bytes of `x` equal to `c`.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn eq_flags(x: u64, c: u8) -> u64 {
    let y = x ^ (ONES * u64::from(c));
    !(((y & !HIGH).wrapping_add(!HIGH)) | y) & HIGH
}

/// Exact flags of the ASCII bytes of `x` that are at least `c` (`c` in 1..=0x80).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn ascii_at_least(x: u64, c: u8) -> u64 {
    ((x & !HIGH).wrapping_add(ONES * u64::from(0x80 - c))) & !x & HIGH
}

/// Classifies `b`: sixteen bytes at a time with SSE2, which every x86-64 CPU has.
#[cfg(target_arch = "x86_64")]
pub(crate) fn scan_moves(b: &[u8]) -> MoveRun {
    // SAFETY: SSE2 is part of the x86-64 baseline, so the feature is always present.
    #[allow(unsafe_code)]
    unsafe {
        scan_moves_sse2(b)
    }
}

/// Classifies `b`, eight bytes at a time.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn scan_moves(b: &[u8]) -> MoveRun {
    scan_moves_swar(b)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn scan_moves_sse2(b: &[u8]) -> MoveRun {
    use std::arch::x86_64::{
        _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_max_epu8, _mm_min_epu8,
        _mm_movemask_epi8, _mm_set_epi64x, _mm_set1_epi8,
    };
    if badly_ended(b) {
        return MoveRun::Bad;
    }
    let splat = |c: u8| _mm_set1_epi8(c as i8);
    let (space_c, a_c, z_c) = (splat(b' '), splat(b'a'), splat(b'z'));
    let (mut bad, mut pairs) = (0u32, 0u32);
    // Flags of the last byte of the previous chunk, for pairs across chunks.
    let (mut prev_space, mut prev_lower) = (0u32, 0u32);
    let mut classify = |chunk: &[u8; 16], prev_space: &mut u32, prev_lower: &mut u32| {
        let (lo, hi) = chunk.split_at(8);
        let word = |h: &[u8]| u64::from_le_bytes(<[u8; 8]>::try_from(h).unwrap_or([b'1'; 8]));
        let v = _mm_set_epi64x(word(hi) as i64, word(lo) as i64);
        let space = _mm_cmpeq_epi8(v, space_c);
        // Unsigned compares through min/max: `max(v, c) == c` is `v <= c`.
        let up_to_space = _mm_cmpeq_epi8(_mm_max_epu8(v, space_c), space_c);
        let control = _mm_andnot_si128(space, up_to_space);
        let lower = _mm_and_si128(
            _mm_cmpeq_epi8(_mm_max_epu8(v, a_c), v),
            _mm_cmpeq_epi8(_mm_min_epu8(v, z_c), v),
        );
        let space = _mm_movemask_epi8(space) as u32;
        let lower = _mm_movemask_epi8(lower) as u32;
        bad |= _mm_movemask_epi8(control) as u32 | (space & ((space << 1) | *prev_space));
        pairs |= lower & ((lower << 1) | *prev_lower);
        *prev_space = space >> 15;
        *prev_lower = lower >> 15;
    };
    let mut chunks = b.chunks_exact(16);
    for chunk in chunks.by_ref() {
        if let Ok(chunk) = <&[u8; 16]>::try_from(chunk) {
            classify(chunk, &mut prev_space, &mut prev_lower);
        }
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        // The last sixteen bytes again, overlapping what was seen: flags only accumulate, and
        // the pair across the overlap's start was already looked at.
        let last = match b.len().checked_sub(16).and_then(|at| b.get(at..)) {
            Some(tail) => <[u8; 16]>::try_from(tail).ok(),
            None => None,
        };
        // Shorter runs are padded with `1`: neither a space, a control byte nor a letter.
        let chunk = last.unwrap_or_else(|| {
            let mut buf = [b'1'; 16];
            buf[..rest.len()].copy_from_slice(rest);
            buf
        });
        classify(&chunk, &mut 0, &mut 0);
    }
    MoveRun::from_flags(bad != 0, pairs != 0)
}

/// Classifies `b`, eight bytes at a time.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn scan_moves_swar(b: &[u8]) -> MoveRun {
    if badly_ended(b) {
        return MoveRun::Bad;
    }
    let (mut bad, mut pairs) = (0u64, 0u64);
    // Flags of the last byte of the previous word, for pairs across the boundary.
    let (mut prev_space, mut prev_lower) = (0u64, 0u64);
    let mut at = 0;
    while at < b.len() {
        // Past the end: '1', which is none of space, control or lowercase.
        let x = load8_or(b, at, b'1');
        let space = eq_flags(x, b' ');
        let printable = ascii_at_least(x, b'!') | (x & HIGH);
        let lower = ascii_at_least(x, b'a') & !ascii_at_least(x, b'{');
        bad |= (!printable & HIGH & !space) | (space & ((space << 8) | prev_space));
        pairs |= lower & ((lower << 8) | prev_lower);
        prev_space = space >> 56;
        prev_lower = lower >> 56;
        at += 8;
    }
    MoveRun::from_flags(bad != 0, pairs != 0)
}

/// Byte strings of up to `max` bytes, three in four from `alphabet` (the bytes a scan
/// treats specially), the rest any byte.
#[cfg(test)]
pub(crate) fn mostly(
    alphabet: &'static [u8],
    max: usize,
) -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    proptest::collection::vec(
        prop_oneof![
            3 => prop::sample::select(alphabet.to_vec()),
            1 => any::<u8>(),
        ],
        0..max,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn reference(b: &[u8], at: usize) -> Option<(u64, usize)> {
        let run: Vec<u8> = b
            .get(at..)
            .unwrap_or(&[])
            .iter()
            .copied()
            .take_while(u8::is_ascii_digit)
            .collect();
        if run.is_empty() || run.len() > 19 {
            return None;
        }
        let v = std::str::from_utf8(&run).ok()?.parse().ok()?;
        Some((v, run.len()))
    }

    #[test]
    fn reads_runs_of_every_length() {
        let digits_only = "1234567890123456789012";
        for len in 0..=digits_only.len() {
            for tail in ["", " ", "x", "/", ":", "\u{0}", "\u{b0}"] {
                let s = format!("{}{tail}", &digits_only[..len]);
                assert_eq!(digits(s.as_bytes(), 0), reference(s.as_bytes(), 0), "{s:?}");
            }
        }
        assert_eq!(digits(b"depth 0", 6), Some((0, 1)));
        assert_eq!(digits(b"007 ", 0), Some((7, 3)));
        assert_eq!(
            digits(b"9999999999999999999", 0),
            Some((9_999_999_999_999_999_999, 19))
        );
        assert_eq!(digits(b"x", 5), None);
        assert_eq!(digits("9".repeat(40).as_bytes(), 0), None);
    }

    fn scan_reference(b: &[u8]) -> MoveRun {
        if b.is_empty()
            || b[0] == b' '
            || b[b.len() - 1] == b' '
            || b.windows(2).any(|w| w == b"  ")
            || b.iter().any(|&c| c < b'!' && c != b' ')
        {
            return MoveRun::Bad;
        }
        let lower = |c: u8| c.is_ascii_lowercase();
        if b.windows(2).any(|w| lower(w[0]) && lower(w[1])) {
            return MoveRun::MayHoldWords;
        }
        MoveRun::Plain
    }

    #[test]
    fn scans_move_runs() {
        assert_eq!(scan_moves(b"e2e4 e7e5 g1f3"), MoveRun::Plain);
        assert_eq!(scan_moves(b"e7e8q P@e4 0000 e1h1"), MoveRun::Plain);
        assert_eq!(scan_moves(b"e2e4 e7e5 string x"), MoveRun::MayHoldWords);
        assert_eq!(scan_moves(b"e2e4 e7e5 pv"), MoveRun::MayHoldWords);
        assert_eq!(scan_moves(b"e2e4  e7e5"), MoveRun::Bad);
        assert_eq!(scan_moves(b"e2e4\te7e5"), MoveRun::Bad);
        assert_eq!(scan_moves(b"e2e4 "), MoveRun::Bad);
        assert_eq!(scan_moves(b""), MoveRun::Bad);
        assert_eq!(scan_moves("é2e4 e7e5".as_bytes()), MoveRun::Plain);
    }

    proptest! {
        #[test]
        fn scan_agrees_with_a_byte_loop(s in mostly(b"abcdefgh12345678 qnrbP@0", 80)) {
            prop_assert_eq!(scan_moves(&s), scan_reference(&s), "{:?}", String::from_utf8_lossy(&s));
            prop_assert_eq!(scan_moves_swar(&s), scan_reference(&s), "{:?}", String::from_utf8_lossy(&s));
        }

        #[test]
        fn agrees_with_a_byte_loop(s in proptest::collection::vec(
            prop_oneof![4 => b'0'..=b'9', 1 => any::<u8>()], 0..40), at in 0..40usize) {
            prop_assert_eq!(digits(&s, at), reference(&s, at));
        }
    }
}
