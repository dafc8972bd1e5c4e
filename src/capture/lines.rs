//! Splits a byte stream into recorded lines without touching the forwarded bytes.
//!
//! Only LF ends a line; a CR right before it is recorded as a CRLF ending, any other CR stays
//! part of the text, so the recording reproduces the stream exactly. A line longer than the
//! limit is emitted in pieces marked `more` so a flood without newlines cannot exhaust memory.

use crate::recording::Eol;

/// Longest line held in memory before it is emitted as a continued fragment.
pub const DEFAULT_MAX_LINE: usize = crate::recording::PIECE_BYTES;

#[derive(Debug)]
pub struct LineAssembler {
    pending: Vec<u8>,
    max_line: usize,
}

impl Default for LineAssembler {
    fn default() -> Self {
        Self::new(DEFAULT_MAX_LINE)
    }
}

impl LineAssembler {
    pub fn new(max_line: usize) -> Self {
        LineAssembler {
            pending: Vec::new(),
            max_line: max_line.max(1),
        }
    }

    /// Feeds a chunk; calls `emit(line, eol, more)` for every line it completes.
    pub fn push<F: FnMut(&[u8], Eol, bool) + ?Sized>(&mut self, mut chunk: &[u8], emit: &mut F) {
        while let Some(i) = memchr::memchr(b'\n', chunk) {
            let (head, rest) = chunk.split_at(i);
            chunk = &rest[1..];
            if self.pending.is_empty() {
                emit_terminated(head, emit);
            } else {
                self.pending.extend_from_slice(head);
                emit_terminated(&self.pending, emit);
                self.pending.clear();
            }
        }
        self.pending.extend_from_slice(chunk);
        while self.pending.len() > self.max_line {
            let cut = self.max_line;
            emit(&self.pending[..cut], Eol::None, true);
            self.pending.drain(..cut);
        }
    }

    /// End of stream: emits an unterminated last line, if any.
    pub fn finish<F: FnMut(&[u8], Eol, bool) + ?Sized>(&mut self, emit: &mut F) {
        if !self.pending.is_empty() {
            emit(&self.pending, Eol::None, false);
            self.pending.clear();
        }
    }

    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }
}

fn emit_terminated<F: FnMut(&[u8], Eol, bool) + ?Sized>(line: &[u8], emit: &mut F) {
    match line.strip_suffix(b"\r") {
        Some(body) => emit(body, Eol::Crlf, false),
        None => emit(line, Eol::Lf, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn split(chunks: &[&[u8]], max: usize) -> Vec<(Vec<u8>, Eol, bool)> {
        let mut a = LineAssembler::new(max);
        let mut out = Vec::new();
        let mut emit = |l: &[u8], e: Eol, m: bool| out.push((l.to_vec(), e, m));
        for c in chunks {
            a.push(c, &mut emit);
        }
        a.finish(&mut emit);
        out
    }

    #[test]
    fn endings_are_classified() {
        let got = split(&[b"uci\r\nisready\nlone\rcr\nlast"], 100);
        assert_eq!(
            got,
            vec![
                (b"uci".to_vec(), Eol::Crlf, false),
                (b"isready".to_vec(), Eol::Lf, false),
                (b"lone\rcr".to_vec(), Eol::Lf, false),
                (b"last".to_vec(), Eol::None, false),
            ]
        );
    }

    #[test]
    fn crlf_split_across_chunks() {
        let got = split(&[b"bestmove e2e4\r", b"\n"], 100);
        assert_eq!(got, vec![(b"bestmove e2e4".to_vec(), Eol::Crlf, false)]);
    }

    #[test]
    fn long_lines_are_fragmented() {
        let got = split(&[b"abcdefgh", b"ij\n"], 4);
        let joined: Vec<u8> = got
            .iter()
            .flat_map(|(l, e, _)| [l.clone(), e.bytes().to_vec()].concat())
            .collect();
        assert_eq!(joined, b"abcdefghij\n");
        assert!(got[0].2 && got[0].1 == Eol::None);
        assert!(!got.last().unwrap().2);
    }

    proptest! {
        #[test]
        fn lines_reproduce_the_stream(
            data in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'\r'), Just(0u8), any::<u8>()], 0..300),
            cuts in proptest::collection::vec(0usize..300, 0..6),
            max in 1usize..50,
        ) {
            let mut bounds: Vec<usize> = cuts.into_iter().map(|c| c.min(data.len())).collect();
            bounds.push(0);
            bounds.push(data.len());
            bounds.sort();
            let chunks: Vec<&[u8]> = bounds.windows(2).map(|w| &data[w[0]..w[1]]).collect();
            let joined: Vec<u8> = split(&chunks, max)
                .into_iter()
                .flat_map(|(l, e, _)| [l, e.bytes().to_vec()].concat())
                .collect();
            prop_assert_eq!(joined, data);
        }
    }
}
