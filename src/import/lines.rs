//! Splitting a log into numbered lines, plus the small byte helpers every parser shares.
//!
//! Parsers look at prefixes with plain byte comparisons instead of regexes: a large log is
//! one memory-mapped slice and most lines are decided by their first few bytes.

/// One physical line of the log, without its terminator.
#[derive(Debug, Clone, Copy)]
pub struct Line<'a> {
    /// 1-based line number in the log.
    pub no: u64,
    pub bytes: &'a [u8],
    /// Offset of its first byte in the whole input (0 for a line fed alone, as a followed
    /// log's are).
    pub start: usize,
    /// Offset just past this line (and its terminator) in the whole input, for progress.
    pub end: usize,
}

/// Iterates the lines of `data`: LF or CRLF terminated, a last line without terminator included.
pub struct Lines<'a> {
    data: &'a [u8],
    pos: usize,
    no: u64,
}

impl<'a> Lines<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Lines {
            data,
            pos: 0,
            no: 0,
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;
    fn next(&mut self) -> Option<Line<'a>> {
        let rest = self.data.get(self.pos..)?;
        if rest.is_empty() {
            return None;
        }
        let (raw, step) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], i + 1),
            None => (rest, rest.len()),
        };
        let start = self.pos;
        self.pos += step;
        self.no += 1;
        let bytes = raw.strip_suffix(b"\r").unwrap_or(raw);
        Some(Line {
            no: self.no,
            bytes,
            start,
            end: self.pos,
        })
    }
}

/// Leading ASCII decimal digits: (value, count). Saturates instead of overflowing.
pub fn digits(b: &[u8]) -> (u64, usize) {
    let mut v: u64 = 0;
    let mut n = 0;
    for &c in b {
        if !c.is_ascii_digit() {
            break;
        }
        v = v.saturating_mul(10).saturating_add(u64::from(c - b'0'));
        n += 1;
    }
    (v, n)
}

/// Exactly `n` digits at the start of `b`.
pub fn fixed_digits(b: &[u8], n: usize) -> Option<u64> {
    let head = b.get(..n)?;
    let (v, k) = digits(head);
    (k == n).then_some(v)
}

/// The first place of `needle` in `hay`. Parsers look for short markers (`):`, ` vs `) in
/// every line: a searcher built for each call would cost more than the search, so a short
/// needle is found by its first byte.
pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let [first, rest @ ..] = needle else {
        return Some(0);
    };
    if needle.len() > 8 {
        return memchr::memmem::find(hay, needle);
    }
    let mut from = 0;
    while let Some(i) = hay.get(from..).and_then(|h| memchr::memchr(*first, h)) {
        let at = from + i;
        if hay.get(at + 1..at + needle.len()) == Some(rest) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

pub fn trim_start(mut b: &[u8]) -> &[u8] {
    while let [c, rest @ ..] = b {
        if c.is_ascii_whitespace() {
            b = rest;
        } else {
            break;
        }
    }
    b
}

pub fn trim_end(mut b: &[u8]) -> &[u8] {
    while let [rest @ .., c] = b {
        if c.is_ascii_whitespace() {
            b = rest;
        } else {
            break;
        }
    }
    b
}

pub fn trim(b: &[u8]) -> &[u8] {
    trim_end(trim_start(b))
}

pub fn is_blank(b: &[u8]) -> bool {
    b.iter().all(|c| c.is_ascii_whitespace())
}

/// Lossy text for notes and labels.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_crlf_lf_and_unterminated_tail() {
        let v: Vec<_> = Lines::new(b"a\r\nb\n\nc")
            .map(|l| (l.no, l.bytes))
            .collect();
        assert_eq!(
            v,
            vec![
                (1, &b"a"[..]),
                (2, &b"b"[..]),
                (3, &b""[..]),
                (4, &b"c"[..])
            ]
        );
    }

    #[test]
    fn digit_helpers() {
        assert_eq!(digits(b"123ab"), (123, 3));
        assert_eq!(fixed_digits(b"12:", 2), Some(12));
        assert_eq!(fixed_digits(b"1:", 2), None);
        assert_eq!(digits(b"99999999999999999999999").0, u64::MAX);
    }
}
