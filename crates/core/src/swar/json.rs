//! One pass over a JSON string body for the recording reader: where it ends or its first
//! escape is, and whether the bytes before that hold a byte JSON forbids unescaped (below
//! 0x20) or any byte that is not ASCII, on every line of a recording. It replaced a search for
//! the end (`memchr2`) and a second scan for the byte classes: reading each line's text took
//! 16% fewer instructions (callgrind, 2026-11-28).

/// What [`string_span`] found in a string body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StringSpan {
    /// Index of the first `"` or `\`.
    pub(crate) end: usize,
    /// A byte below 0x20 before `end`.
    pub(crate) control: bool,
    /// Every byte before `end` is ASCII.
    pub(crate) ascii: bool,
}

/// The span of `b` up to its first `"` or `\`; `None` when it has neither.
#[cfg(target_arch = "x86_64")]
pub(crate) fn string_span(b: &[u8]) -> Option<StringSpan> {
    // SAFETY: SSE2 is part of the x86-64 baseline, so the feature is always present.
    #[allow(unsafe_code)]
    unsafe {
        string_span_sse2(b)
    }
}

/// The span of `b` up to its first `"` or `\`, a byte at a time.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn string_span(b: &[u8]) -> Option<StringSpan> {
    string_span_bytes(b)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn string_span_sse2(b: &[u8]) -> Option<StringSpan> {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    let splat = |c: u8| _mm_set1_epi8(c as i8);
    let (quote, backslash, below_space) = (splat(b'"'), splat(b'\\'), splat(0x1f));
    // Per chunk: bit k of each mask is byte k's answer.
    let masks = |chunk: &[u8; 16]| {
        // SAFETY: `chunk` is sixteen readable bytes; the load has no alignment requirement.
        #[allow(unsafe_code)]
        let v = unsafe { _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>()) };
        let stop = _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash));
        // Unsigned `v <= 0x1f` through max: `max(v, c) == c`.
        let low = _mm_cmpeq_epi8(_mm_max_epu8(v, below_space), below_space);
        (
            _mm_movemask_epi8(stop) as u32,
            _mm_movemask_epi8(low) as u32,
            _mm_movemask_epi8(v) as u32,
        )
    };
    let (mut control, mut high) = (0u32, 0u32);
    let mut at = 0;
    while let Some(chunk) = b.get(at..).and_then(|r| r.first_chunk::<16>()) {
        let (stop, low, hi) = masks(chunk);
        if stop != 0 {
            return Some(found(at, stop, (control, high), (low, hi)));
        }
        (control, high) = (control | low, high | hi);
        at += 16;
    }
    let rest = b.len() - at;
    if rest == 0 {
        return None;
    }
    // Fewer than sixteen bytes left: the last sixteen of `b` again (their first bytes were
    // seen already and are shifted out), or a padded copy when `b` is shorter.
    let (stop, low, hi) = match b.len().checked_sub(16).and_then(|s| b.get(s..)) {
        Some(last) => {
            let last = last.first_chunk::<16>()?;
            let (stop, low, hi) = masks(last);
            let seen = 16 - rest as u32;
            (stop >> seen, low >> seen, hi >> seen)
        }
        None => {
            let mut buf = [b' '; 16];
            buf[..rest].copy_from_slice(&b[at..]);
            let (stop, low, hi) = masks(&buf);
            let kept = (1u32 << rest) - 1;
            (stop & kept, low & kept, hi & kept)
        }
    };
    (stop != 0).then(|| found(at, stop, (control, high), (low, hi)))
}

/// The span ending at the lowest bit of `stop` in the chunk at `at`: `seen` are the control
/// and high-bit masks of the whole chunks before it (every bit counts), `here` the chunk's own
/// (only the bits below the end count).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn found(at: usize, stop: u32, seen: (u32, u32), here: (u32, u32)) -> StringSpan {
    let k = stop.trailing_zeros();
    let before = !(u32::MAX << k);
    StringSpan {
        end: at + k as usize,
        control: (seen.0 | (here.0 & before)) != 0,
        ascii: (seen.1 | (here.1 & before)) == 0,
    }
}

/// The same answers a byte at a time: the reference the fast scan is tested against.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn string_span_bytes(b: &[u8]) -> Option<StringSpan> {
    let end = b.iter().position(|&c| c == b'"' || c == b'\\')?;
    let span = &b[..end];
    Some(StringSpan {
        end,
        control: span.iter().any(|&c| c < 0x20),
        ascii: span.is_ascii(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn finds_the_end_and_what_comes_before() {
        let span = string_span(b"info depth 1\"}").expect("end");
        assert_eq!(
            span,
            StringSpan {
                end: 12,
                control: false,
                ascii: true
            }
        );
        // A control byte or UTF-8 after the end does not count.
        let span = string_span(b"0123456789abcdefgh\"\x01\xc3\xa9").expect("end");
        assert_eq!((span.end, span.control, span.ascii), (18, false, true));
        assert!(string_span(b"a\x1fb\"").expect("end").control);
        assert!(!string_span("é\"".as_bytes()).expect("end").ascii);
        assert_eq!(string_span(b"a\\nb\"").map(|s| s.end), Some(1));
        assert_eq!(string_span(b"no end at all, even past sixteen bytes"), None);
        assert_eq!(string_span(b""), None);
    }

    proptest! {
        #[test]
        fn agrees_with_a_byte_loop(s in crate::swar::mostly(b"ab \"\\\x00\x1f\x7f\xc3\xa9", 70)) {
            prop_assert_eq!(string_span(&s), string_span_bytes(&s), "{:?}", s);
        }

        /// Long bodies, whose end lies in any chunk and at any place in it.
        #[test]
        fn finds_the_end_of_long_bodies(
            body in crate::swar::mostly(b"ab 1\x00\x1f\x7f\xc3\xa9", 90),
            end in proptest::sample::select(vec![b'"', b'\\']),
            after in crate::swar::mostly(b"}\x01\xc3\"", 20),
        ) {
            let mut s = body.clone();
            s.push(end);
            s.extend(after);
            prop_assert_eq!(string_span(&s), string_span_bytes(&s), "{:?}", s);
        }
    }
}
