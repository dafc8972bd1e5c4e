//! One pass over a whole line for what the byte rules ask of every line: control bytes, and
//! whether `be` occurs at all (so the search for `bestmove` inside a line runs only on the
//! few lines that could hold it: a searcher's set-up cost more than this whole pass).

/// What one pass over a line found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct LineScan {
    /// A byte below 0x20 other than tab, or DEL.
    pub(crate) control: bool,
    /// `b` followed by `e` somewhere.
    pub(crate) be: bool,
}

/// Scans `b` sixteen bytes at a time with SSE2, which every x86-64 CPU has.
#[cfg(target_arch = "x86_64")]
pub(crate) fn scan_line(b: &[u8]) -> LineScan {
    // SAFETY: SSE2 is part of the x86-64 baseline, so the feature is always present.
    #[allow(unsafe_code)]
    unsafe {
        scan_line_sse2(b)
    }
}

/// Scans `b` a byte at a time.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn scan_line(b: &[u8]) -> LineScan {
    scan_line_bytes(b)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn scan_line_sse2(b: &[u8]) -> LineScan {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8,
        _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_setzero_si128, _mm_slli_si128,
        _mm_srli_si128,
    };
    let splat = |c: u8| _mm_set1_epi8(c as i8);
    let (below_space, tab, del, b_c, e_c) = (
        splat(0x1f),
        splat(b'\t'),
        splat(0x7f),
        splat(b'b'),
        splat(b'e'),
    );
    // Flags are gathered in vectors and looked at once, at the end.
    let (mut control, mut pairs) = (_mm_setzero_si128(), _mm_setzero_si128());
    // The previous chunk's last byte, flagged if it was `b`, moved to the first lane.
    let mut prev_b = _mm_setzero_si128();
    let mut classify = |chunk: &[u8; 16], prev_b: &mut __m128i| {
        // SAFETY: `chunk` is sixteen readable bytes; the load has no alignment requirement.
        #[allow(unsafe_code)]
        let v = unsafe { _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>()) };
        // Unsigned `v <= 0x1f` through max: `max(v, c) == c`.
        let low = _mm_cmpeq_epi8(_mm_max_epu8(v, below_space), below_space);
        let ctl = _mm_or_si128(
            _mm_andnot_si128(_mm_cmpeq_epi8(v, tab), low),
            _mm_cmpeq_epi8(v, del),
        );
        control = _mm_or_si128(control, ctl);
        let bs = _mm_cmpeq_epi8(v, b_c);
        let es = _mm_cmpeq_epi8(v, e_c);
        let b_before = _mm_or_si128(_mm_slli_si128::<1>(bs), *prev_b);
        pairs = _mm_or_si128(pairs, _mm_and_si128(b_before, es));
        *prev_b = _mm_srli_si128::<15>(bs);
    };
    let mut chunks = b.chunks_exact(16);
    for chunk in chunks.by_ref() {
        if let Ok(chunk) = <&[u8; 16]>::try_from(chunk) {
            classify(chunk, &mut prev_b);
        }
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        match b.len().checked_sub(16).and_then(|at| b.get(at..)) {
            // The last sixteen bytes again, overlapping what was seen: flags only
            // accumulate, and the pair across the overlap's start was already looked at.
            Some(tail) => {
                if let Ok(tail) = <&[u8; 16]>::try_from(tail) {
                    classify(tail, &mut _mm_setzero_si128());
                }
            }
            // Padded with `1`: neither a control byte, `b` nor `e`.
            None => {
                let mut buf = [b'1'; 16];
                buf[..rest.len()].copy_from_slice(rest);
                classify(&buf, &mut prev_b);
            }
        }
    }
    LineScan {
        control: _mm_movemask_epi8(control) != 0,
        be: _mm_movemask_epi8(pairs) != 0,
    }
}

/// The same answers a byte at a time: the reference the fast scan is tested against.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn scan_line_bytes(b: &[u8]) -> LineScan {
    LineScan {
        control: b.iter().any(|&x| (x < 0x20 && x != b'\t') || x == 0x7f),
        be: b.windows(2).any(|w| w == b"be"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn finds_what_lines_hold() {
        let clean = b"info depth 20 seldepth 28 score cp 31 nodes 1234567 pv e2e4 e7e5 g1f3";
        assert_eq!(scan_line(clean), LineScan::default());
        assert!(
            !scan_line(b"info depth 1\tpv").control,
            "a tab is no control byte"
        );
        assert!(scan_line(b"id name x\x07").control);
        assert!(scan_line(b"id name x\x7f").control);
        assert!(scan_line(b"info depth 9 bestmove e2e4").be);
        // Across the sixteen-byte boundary, and at the very end.
        assert!(!scan_line(b"0123456789abcdeb e").be);
        assert!(scan_line(b"0123456789abcdebe").be);
        assert!(scan_line(b"be").be);
        assert!(!scan_line(b"").be);
        assert!(
            !scan_line("é\u{7fff}".as_bytes()).control,
            "UTF-8 is no control"
        );
    }

    proptest! {
        #[test]
        fn agrees_with_a_byte_loop(s in crate::swar::mostly(b"abe 1\t\x7f\x00\x1f\x20", 70)) {
            prop_assert_eq!(scan_line(&s), scan_line_bytes(&s), "{:?}", s);
        }
    }
}
