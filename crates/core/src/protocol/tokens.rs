//! Whitespace tokenizer shared by the three protocol parsers, and the move-list type.
//!
//! Tokens are borrowed slices of the line, so splitting a line allocates nothing; `rest()` gives
//! the untouched remainder for commands whose last argument is free text (`info string`,
//! `setoption ... value`, `tellics`...).

use std::fmt;

/// Cursor over the whitespace-separated tokens of one line. Whitespace is any ASCII whitespace,
/// so tabs and a stray `\r` from a CRLF line separate tokens like spaces do.
#[derive(Debug, Clone)]
pub struct Tokens<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Tokens<'a> {
    pub fn new(s: &'a str) -> Self {
        Tokens { s, pos: 0 }
    }

    fn skip_ws(&mut self) {
        let b = self.s.as_bytes();
        while b.get(self.pos).is_some_and(u8::is_ascii_whitespace) {
            self.pos += 1;
        }
    }

    /// Byte offset of the next token (or the end of the line).
    pub fn offset(&mut self) -> usize {
        self.skip_ws();
        self.pos
    }

    pub fn peek(&self) -> Option<&'a str> {
        self.clone().next()
    }

    /// Everything after the current position, trimmed; consumes it.
    pub fn rest(&mut self) -> &'a str {
        let r = self.s.get(self.pos..).unwrap_or("").trim_ascii();
        self.pos = self.s.len();
        r
    }

    /// The rest without consuming it.
    pub fn peek_rest(&self) -> &'a str {
        self.s.get(self.pos..).unwrap_or("").trim_ascii()
    }

    /// The line between two byte offsets returned by [`Tokens::offset`] / `end_of_last`.
    pub fn slice(&self, start: usize, end: usize) -> &'a str {
        self.s.get(start..end).unwrap_or("")
    }

    fn byte_at(&self, i: usize) -> Option<u8> {
        self.s.as_bytes().get(i).copied()
    }

    /// Byte offset just after the last token returned.
    pub fn cursor(&self) -> usize {
        self.pos
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let b = self.s.as_bytes();
        let mut i = self.pos;
        while b.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        let start = i;
        i = token_end(b, i);
        self.pos = i;
        if start == i {
            None
        } else {
            // ASCII whitespace bytes are always char boundaries, so this never fails.
            self.s.get(start..i)
        }
    }
}

/// End of the token starting at `i`: the first ASCII whitespace byte at or after `i`, or the
/// length. Every `info` line has dozens of short tokens, and a byte loop pays a mispredicted
/// branch at each token's end; this looks at eight bytes at once for a byte <= 0x20 and finds
/// it with a bit count (other control bytes are rare and stepped over).
#[inline]
pub(crate) fn token_end(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = b.get(i..i + 8) {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let x = u64::from_le_bytes(word);
        // The lowest flagged byte is exactly the first byte < 0x21 (borrows only run upwards).
        let low = x.wrapping_sub(ONES * 0x21) & !x & HIGH;
        if low == 0 {
            i += 8;
            continue;
        }
        let at = i + (low.trailing_zeros() / 8) as usize;
        if b.get(at).is_none_or(u8::is_ascii_whitespace) {
            return at;
        }
        i = at + 1;
    }
    loop {
        match b.get(i) {
            Some(&c) if c > b' ' => i += 1,
            Some(c) if !c.is_ascii_whitespace() => i += 1,
            _ => return i,
        }
    }
}

/// A list of moves (a PV, `searchmoves`, `position ... moves`), stored as one string with single
/// spaces between moves: one allocation per list instead of one per move.
#[derive(Debug, Clone, PartialEq, Eq, Default, Hash)]
pub struct Moves(String);

impl Moves {
    pub fn new() -> Self {
        Moves(String::new())
    }

    /// Moves from text the caller has checked is already single-space separated, with no
    /// other whitespace and none at either end.
    pub(crate) fn from_tidy(s: &str) -> Moves {
        Moves(s.to_owned())
    }

    /// [`Moves::from_tidy`] into this buffer, keeping its allocation.
    pub(crate) fn set_tidy(&mut self, s: &str) {
        self.0.clear();
        self.0.push_str(s);
    }

    pub fn iter(&self) -> std::str::SplitAsciiWhitespace<'_> {
        self.0.split_ascii_whitespace()
    }

    pub fn len(&self) -> usize {
        self.iter().count()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn first(&self) -> Option<&str> {
        self.iter().next()
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn push(&mut self, mv: &str) {
        if !self.0.is_empty() {
            self.0.push(' ');
        }
        self.0.push_str(mv);
    }

    /// Collects moves from `toks` while `keep` accepts the next token. Copies the source slice in
    /// one go when it is already single-space separated, which is the usual case. Each token is
    /// scanned once: this is the PV loop of every `info` line.
    pub fn take_while(toks: &mut Tokens<'_>, keep: impl Fn(&str) -> bool) -> Moves {
        let mut start = None;
        let mut end = 0;
        let mut tidy = true;
        loop {
            let before = toks.pos;
            match toks.next() {
                Some(t) if keep(t) => {
                    let at = toks.pos - t.len();
                    match start {
                        None => start = Some(at),
                        Some(_) => tidy &= at == end + 1 && toks.byte_at(end) == Some(b' '),
                    }
                    end = toks.pos;
                }
                _ => {
                    toks.pos = before;
                    break;
                }
            }
        }
        let Some(start) = start else {
            return Moves::new();
        };
        let raw = toks.slice(start, end);
        if tidy {
            Moves(raw.to_owned())
        } else {
            raw.split_ascii_whitespace().collect()
        }
    }
}

impl Moves {
    /// All the remaining tokens, like `take_while(toks, |_| true)`. A GUI's `position ...
    /// moves` carries the whole game every ply: when the text is already single-spaced (the
    /// usual case) it is copied in one go after a quick scan instead of token by token.
    pub fn rest(toks: &mut Tokens<'_>) -> Moves {
        let r = toks.rest();
        // `Bad` also covers other control bytes; splitting gives the same moves for those.
        if crate::swar::scan_moves(r.as_bytes()) != crate::swar::MoveRun::Bad {
            Moves(r.to_owned())
        } else {
            r.split_ascii_whitespace().collect()
        }
    }
}

impl<'a> FromIterator<&'a str> for Moves {
    fn from_iter<I: IntoIterator<Item = &'a str>>(iter: I) -> Self {
        let mut m = Moves::new();
        for t in iter {
            for part in t.split_ascii_whitespace() {
                m.push(part);
            }
        }
        m
    }
}

impl fmt::Display for Moves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_on_any_ascii_whitespace_and_keep_rest() {
        let mut t = Tokens::new("\t debug \t \t\ton\t \r");
        assert_eq!(t.next(), Some("debug"));
        assert_eq!(t.peek(), Some("on"));
        assert_eq!(t.rest(), "on");
        assert_eq!(t.next(), None);
    }

    #[test]
    fn token_ends_match_a_byte_by_byte_scan() {
        let lines = [
            "info depth 12 seldepth 18 multipv 1 score cp 31 pv e2e4 e7e5",
            "a\x01b\x1fc d\x7fe\u{e9}\u{1F600}x\ty\x0bz\x0cw\rv\nq",
            "averyveryverylongtokenwithoutspaces  x",
            "",
            " ",
            "12345678 123456789 1234567",
        ];
        for line in lines {
            let b = line.as_bytes();
            for i in 0..=b.len() {
                let slow = i + b[i..]
                    .iter()
                    .take_while(|c| !c.is_ascii_whitespace())
                    .count();
                assert_eq!(token_end(b, i), slow, "{line:?} at {i}");
            }
            let split: Vec<&str> = line.split_ascii_whitespace().collect();
            assert_eq!(Tokens::new(line).collect::<Vec<_>>(), split);
        }
    }

    #[test]
    fn moves_normalise_spacing() {
        let mut t = Tokens::new("e2e4  e7e5\tg1f3 stop");
        let m = Moves::take_while(&mut t, |s| s != "stop");
        assert_eq!(m.as_str(), "e2e4 e7e5 g1f3");
        assert_eq!(m.len(), 3);
        assert_eq!(t.next(), Some("stop"));
        let mut t = Tokens::new("pv e2e4 e7e5");
        t.next();
        let m = Moves::take_while(&mut t, |_| true);
        assert_eq!(m.as_str(), "e2e4 e7e5");
        for line in [
            "moves e2e4 e7e5 ",
            "moves e2e4\te7e5",
            "moves  e2e4  e7e5",
            "moves",
            "moves \r",
        ] {
            let mut a = Tokens::new(line);
            a.next();
            let mut b = a.clone();
            assert_eq!(
                Moves::rest(&mut a),
                Moves::take_while(&mut b, |_| true),
                "{line:?}"
            );
            assert_eq!((a.next(), b.next()), (None, None));
        }
    }
}
