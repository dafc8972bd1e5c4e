//! A move's three spellings (as sent, canonical, SAN) in 24 bytes: a game of a 1 GB log keeps
//! hundreds of thousands of moves, and three strings took 72 bytes and three allocations each.

use std::num::NonZeroU8;

/// Bytes the spellings share inline: every standard chess move fits with room to spare
/// (`e7e8q`, `e7e8q`, `exd8=Q+`: 17).
const INLINE: usize = 21;
/// A length byte for a spelling that is absent.
const NONE: u8 = 0xff;
/// A length byte for a canonical spelling that is the text itself (most moves).
const SAME: u8 = 0xfe;

/// How a move was spelt: as sent, canonical (`None` when the board is unknown), and in SAN.
#[derive(Clone, PartialEq, Eq)]
pub struct MoveText(Repr);

// Inline whenever the spellings fit, else on the heap: one value has one representation, so
// the derived equality is equality of the spellings.
#[derive(Clone, PartialEq, Eq)]
enum Repr {
    Inline {
        bytes: [u8; INLINE],
        /// The text's length plus one (the enum's niche: the whole value stays 24 bytes).
        text: NonZeroU8,
        canonical: u8,
        san: u8,
    },
    Heap(Box<(String, Option<String>, Option<String>)>),
}

impl MoveText {
    pub fn new(text: &str, canonical: Option<&str>, san: Option<&str>) -> MoveText {
        let same = canonical == Some(text);
        let canon_len = match canonical {
            Some(_) if same => 0,
            Some(c) => c.len(),
            None => 0,
        };
        let san_len = san.map_or(0, str::len);
        let fits = text.len() + canon_len + san_len <= INLINE;
        match NonZeroU8::new((text.len() + 1) as u8) {
            Some(text_byte) if fits => {
                let mut bytes = [0u8; INLINE];
                bytes[..text.len()].copy_from_slice(text.as_bytes());
                let mut at = text.len();
                let mut put = |s: Option<&str>| match s {
                    None => NONE,
                    Some(s) => {
                        bytes[at..at + s.len()].copy_from_slice(s.as_bytes());
                        at += s.len();
                        s.len() as u8
                    }
                };
                let canonical = if same { SAME } else { put(canonical) };
                let san = put(san);
                MoveText(Repr::Inline {
                    bytes,
                    text: text_byte,
                    canonical,
                    san,
                })
            }
            _ => MoveText(Repr::Heap(Box::new((
                text.to_owned(),
                canonical.map(str::to_owned),
                san.map(str::to_owned),
            )))),
        }
    }

    /// The move as sent.
    pub fn text(&self) -> &str {
        match &self.0 {
            Repr::Inline { bytes, text, .. } => piece(bytes, 0, text.get() - 1),
            Repr::Heap(h) => &h.0,
        }
    }

    pub fn canonical(&self) -> Option<&str> {
        match &self.0 {
            Repr::Inline {
                bytes,
                text,
                canonical,
                ..
            } => match *canonical {
                NONE => None,
                SAME => Some(self.text()),
                len => Some(piece(bytes, usize::from(text.get() - 1), len)),
            },
            Repr::Heap(h) => h.1.as_deref(),
        }
    }

    pub fn san(&self) -> Option<&str> {
        match &self.0 {
            Repr::Inline {
                bytes,
                text,
                canonical,
                san,
            } => {
                let after_canonical = match *canonical {
                    NONE | SAME => 0,
                    len => usize::from(len),
                };
                (*san != NONE)
                    .then(|| piece(bytes, usize::from(text.get() - 1) + after_canonical, *san))
            }
            Repr::Heap(h) => h.2.as_deref(),
        }
    }
}

/// `len` bytes of `bytes` from `at`: always whole UTF-8 strings, as they were put there.
fn piece(bytes: &[u8], at: usize, len: u8) -> &str {
    std::str::from_utf8(&bytes[at..at + usize::from(len)]).unwrap_or_default()
}

impl std::fmt::Debug for MoveText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MoveText")
            .field("text", &self.text())
            .field("canonical", &self.canonical())
            .field("san", &self.san())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::MoveText;

    #[test]
    fn every_spelling_comes_back_inline_or_not() {
        let long = "x".repeat(300);
        let cases: Vec<(&str, Option<&str>, Option<&str>)> = vec![
            ("e2e4", Some("e2e4"), Some("e4")),
            ("e7e8q", Some("e7e8q"), Some("e8=Q+")),
            ("e1h1", Some("e1g1"), Some("O-O")),
            ("O-O-O", Some("e1c1"), Some("O-O-O")),
            ("PA", Some("PA"), None),
            ("a1", None, None),
            ("", None, None),
            ("", Some(""), Some("")),
            ("é5", Some("é5"), Some("ü")),
            ("abcdefghij", Some("klmnopqrst"), Some("u")),
            ("abcdefghij", Some("klmnopqrst"), Some("uv")),
            (&long, Some("e2e4"), Some("e4")),
            ("e2e4", Some(&long), None),
            ("e2e4", None, Some(&long)),
        ];
        for (text, canonical, san) in cases {
            let m = MoveText::new(text, canonical, san);
            assert_eq!(
                (m.text(), m.canonical(), m.san()),
                (text, canonical, san),
                "{m:?}"
            );
            assert_eq!(m, MoveText::new(text, canonical, san));
        }
        assert_ne!(
            MoveText::new("e2e4", Some("e2e4"), None),
            MoveText::new("e2e4", None, None)
        );
        assert_eq!(std::mem::size_of::<MoveText>(), 24);
        // A ply was 120 bytes with three strings.
        assert_eq!(std::mem::size_of::<crate::session::Ply>(), 72);
    }
}
