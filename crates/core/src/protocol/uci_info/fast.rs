//! Fast path for the `info` lines engines send by the thousand per second: single spaces
//! between tokens, numeric fields with plain values, then `pv` or `string` to the end.
//!
//! It walks the line once, without the general tokenizer's bookkeeping. Anything it is not
//! sure about (other whitespace or control bytes, a value the general parser would read
//! differently or warn about, a keyword after the PV, the rarer fields) returns `None` and the
//! general parser decides, so for every line it accepts the result is what the general parser
//! gives, with no diagnostics (tested below).

use super::{Bound, INFO_KEYWORDS, Info, Kw, Score, ScoreValue};
use crate::protocol::tokens::Moves;
use crate::swar::{MoveRun, scan_moves};

/// Fills `i` (a default `Info`) from `rest` (the line after `info`, trimmed). `false` leaves
/// the line to the general parser, and `i` partly filled.
/// `spare_pv` is a buffer to put the PV in instead of allocating one; `order` is what the
/// engine's previous lines taught about its field order.
pub(super) fn parse(
    rest: &str,
    i: &mut Info,
    spare_pv: &mut Option<Moves>,
    order: &mut FieldOrder,
) -> bool {
    fields(rest, i, spare_pv, order).is_some()
}

/// Number of `Kw` values; `FieldOrder` uses one more slot for the start of the line.
const KEYWORDS: usize = 20;
const LINE_START: usize = KEYWORDS;

/// Every `Kw`, indexed by `Kw as usize`.
const ALL: [Kw; KEYWORDS] = [
    Kw::Depth,
    Kw::SelDepth,
    Kw::Time,
    Kw::Nodes,
    Kw::Pv,
    Kw::MultiPv,
    Kw::Score,
    Kw::LowerBound,
    Kw::UpperBound,
    Kw::Wdl,
    Kw::CurrMove,
    Kw::CurrMoveNumber,
    Kw::HashFull,
    Kw::Nps,
    Kw::TbHits,
    Kw::SbHits,
    Kw::CpuLoad,
    Kw::String,
    Kw::Refutation,
    Kw::CurrLine,
];

/// The keyword that followed each keyword (and the line start) on the engine's last line,
/// kept as the literal to compare. An engine writes its fields in one order every time, so the
/// next keyword is usually one masked comparison away instead of a word scan and a lookup.
#[derive(Debug, Clone)]
pub(crate) struct FieldOrder([Literal; SLOTS]);

/// Slots of [`FieldOrder`]: a power of two, so a masked index needs no bounds check.
const SLOTS: usize = 32;
const _: () = assert!(LINE_START < SLOTS);

impl FieldOrder {
    fn learn(&mut self, prev: usize, kw: Kw) {
        if let Some(slot) = self.0.get_mut(prev) {
            *slot = LITERALS[kw as usize];
        }
    }
}

impl Default for FieldOrder {
    /// Stockfish's order, until an engine shows its own.
    fn default() -> Self {
        let mut order = FieldOrder([NO_GUESS; SLOTS]);
        let stockfish = [
            Kw::Depth,
            Kw::SelDepth,
            Kw::MultiPv,
            Kw::Score,
            Kw::Nodes,
            Kw::Nps,
            Kw::HashFull,
            Kw::TbHits,
            Kw::Time,
            Kw::Pv,
        ];
        order.learn(LINE_START, stockfish[0]);
        for pair in stockfish.windows(2) {
            order.learn(pair[0] as usize, pair[1]);
        }
        order
    }
}

/// A keyword and the space after it as one masked eight-byte comparison: (bytes, mask,
/// length with the space). Eight-letter keywords compare their letters and check the space
/// apart (`space_at_8`); the longer ones have no literal.
/// [`NO_GUESS`] (also used for the longer keywords) never matches: no bytes under a zero mask
/// equal 1.
#[derive(Debug, Clone, Copy)]
struct Literal {
    bytes: u64,
    mask: u64,
    len: usize,
    space_at_8: bool,
    kw: Kw,
}

const NO_GUESS: Literal = Literal {
    bytes: 1,
    mask: 0,
    len: 0,
    space_at_8: false,
    kw: Kw::Pv,
};

const fn literal(word: &[u8], kw: Kw) -> Literal {
    let n = word.len();
    if n > 8 {
        return NO_GUESS;
    }
    let with_space = if n < 8 { n + 1 } else { 8 };
    let mut bytes = pack(word);
    if n < 8 {
        bytes |= (b' ' as u64) << (8 * n);
    }
    let mask = if with_space == 8 {
        u64::MAX
    } else {
        (1u64 << (8 * with_space)) - 1
    };
    Literal {
        bytes,
        mask,
        len: n + 1,
        space_at_8: n == 8,
        kw,
    }
}

const LITERALS: [Literal; KEYWORDS] = {
    let mut out = [NO_GUESS; KEYWORDS];
    let mut k = 0;
    while k < KEYWORDS {
        out[k] = literal(INFO_KEYWORDS[k].as_bytes(), ALL[k]);
        k += 1;
    }
    out
};

/// The guessed keyword when the line continues with it, a space and at least one more byte
/// (exactly what [`Words::word`] and [`keyword`] would accept); the cursor moves past the space.
#[inline(always)]
fn take_guess(w: &mut Words<'_>, lit: &Literal) -> Option<Kw> {
    // Near the end of the line the word scan decides; a guess only ever saves work.
    let x = u64::from_le_bytes(*w.b.get(w.pos..)?.first_chunk::<8>()?);
    if x & lit.mask != lit.bytes {
        return None;
    }
    // Up to seven letters, the space and the byte after it are within the eight loaded.
    if lit.len >= 8 {
        let after = w.b.get(w.pos + 8..)?;
        let fits = match lit.space_at_8 {
            true => after.len() >= 2 && after.first() == Some(&b' '),
            false => !after.is_empty(),
        };
        if !fits {
            return None;
        }
    }
    w.pos += lit.len;
    Some(lit.kw)
}

fn fields(
    rest: &str,
    i: &mut Info,
    spare_pv: &mut Option<Moves>,
    order: &mut FieldOrder,
) -> Option<()> {
    let mut w = Words {
        b: rest.as_bytes(),
        pos: 0,
    };
    let mut prev = LINE_START;
    while w.pos < w.b.len() {
        let guess = &order.0[prev % SLOTS];
        let kw = match take_guess(&mut w, guess) {
            Some(kw) => kw,
            None => {
                let Some(t) = w.word()? else { break };
                let kw = keyword(t)?;
                order.learn(prev, kw);
                kw
            }
        };
        prev = kw as usize;
        match kw {
            Kw::Depth => i.depth = Some(w.uint()?),
            Kw::SelDepth => i.seldepth = Some(w.uint()?),
            Kw::Time => i.time = Some(w.uint()?),
            Kw::Nodes => i.nodes = Some(w.uint()?),
            Kw::MultiPv => i.multipv = Some(w.uint()?),
            Kw::CurrMoveNumber => i.currmovenumber = Some(w.uint()?),
            Kw::HashFull => i.hashfull = Some(w.uint()?),
            Kw::Nps => i.nps = Some(w.uint()?),
            Kw::TbHits => i.tbhits = Some(w.uint()?),
            Kw::SbHits => i.sbhits = Some(w.uint()?),
            Kw::CpuLoad => i.cpuload = Some(w.uint()?),
            Kw::Wdl => i.wdl = Some([w.uint()?, w.uint()?, w.uint()?]),
            Kw::Score => i.score = Some(score(&mut w)?),
            Kw::LowerBound => i.score.get_or_insert_with(Score::default).bound = Bound::Lower,
            Kw::UpperBound => i.score.get_or_insert_with(Score::default).bound = Bound::Upper,
            Kw::Pv => {
                let start = w.pos;
                match scan_moves(w.b.get(start..)?) {
                    MoveRun::Bad => return None,
                    // No word can be a keyword: the PV runs to the end of the line.
                    MoveRun::Plain => w.pos = w.b.len(),
                    MoveRun::MayHoldWords => {
                        while let Some(m) = w.word()? {
                            if !is_move_like(m) && keyword(m).is_some() {
                                return None;
                            }
                        }
                    }
                }
                // Word boundaries are ASCII spaces, so this slice is always on char boundaries.
                let pv = rest.get(start..)?;
                i.pv = Some(match spare_pv.take() {
                    Some(mut m) => {
                        m.set_tidy(pv);
                        m
                    }
                    None => Moves::from_tidy(pv),
                });
            }
            Kw::String => {
                i.string = Some(rest.get(w.pos..)?.trim_ascii().to_owned());
                w.pos = w.b.len();
            }
            Kw::CurrMove | Kw::Refutation | Kw::CurrLine => return None,
        }
    }
    Some(())
}

/// Little-endian packing of a word of up to eight bytes, so a keyword compares as one integer.
const fn pack(s: &[u8]) -> u64 {
    let mut v = 0u64;
    let mut i = s.len();
    while i > 0 {
        i -= 1;
        v = (v << 8) | s[i] as u64;
    }
    v
}

const DEPTH: u64 = pack(b"depth");
const SELDEPTH: u64 = pack(b"seldepth");
const TIME: u64 = pack(b"time");
const NODES: u64 = pack(b"nodes");
const PV: u64 = pack(b"pv");
const MULTIPV: u64 = pack(b"multipv");
const SCORE: u64 = pack(b"score");
const WDL: u64 = pack(b"wdl");
const CURRMOVE: u64 = pack(b"currmove");
const HASHFULL: u64 = pack(b"hashfull");
const NPS: u64 = pack(b"nps");
const TBHITS: u64 = pack(b"tbhits");
const SBHITS: u64 = pack(b"sbhits");
const CPULOAD: u64 = pack(b"cpuload");
const STRING: u64 = pack(b"string");
const CURRLINE: u64 = pack(b"currline");
const CP: u64 = pack(b"cp");
const MATE: u64 = pack(b"mate");

/// One word of the line. Words hold no byte below `!` (the reader bails on those), so for
/// words of up to eight bytes `packed` identifies the word; longer ones have `packed == 0`.
#[derive(Clone, Copy)]
struct Word<'a> {
    bytes: &'a [u8],
    packed: u64,
}

/// The same answer as [`super::keyword`], from the packed form for the short keywords.
#[inline(always)]
fn keyword(t: Word<'_>) -> Option<Kw> {
    Some(match t.packed {
        0 => {
            return match t.bytes {
                b"lowerbound" => Some(Kw::LowerBound),
                b"upperbound" => Some(Kw::UpperBound),
                b"refutation" => Some(Kw::Refutation),
                b"currmovenumber" => Some(Kw::CurrMoveNumber),
                _ => None,
            };
        }
        DEPTH => Kw::Depth,
        SELDEPTH => Kw::SelDepth,
        TIME => Kw::Time,
        NODES => Kw::Nodes,
        PV => Kw::Pv,
        MULTIPV => Kw::MultiPv,
        SCORE => Kw::Score,
        WDL => Kw::Wdl,
        CURRMOVE => Kw::CurrMove,
        HASHFULL => Kw::HashFull,
        NPS => Kw::Nps,
        TBHITS => Kw::TbHits,
        SBHITS => Kw::SbHits,
        CPULOAD => Kw::CpuLoad,
        STRING => Kw::String,
        CURRLINE => Kw::CurrLine,
        _ => return None,
    })
}

/// True for words whose second byte is a digit, as in every UCI move: no keyword has one
/// there, so PV moves skip the keyword comparison.
#[inline(always)]
fn is_move_like(t: Word<'_>) -> bool {
    t.bytes.get(1).is_some_and(u8::is_ascii_digit)
}

/// `score` as the general parser reads it when nothing is off: `cp`/`mate` with a plain
/// (optionally negative) value and bounds, in any order.
fn score(w: &mut Words<'_>) -> Option<Score> {
    let mut s = Score::default();
    loop {
        // Only `cp`, `mate` and the bounds belong here; anything else is the next field,
        // which the caller reads (a two-byte look spares scanning that word twice).
        let first2 = crate::swar::load8(w.b, w.pos) & 0xffff;
        if ![pack(b"cp"), pack(b"ma"), pack(b"lo"), pack(b"up")].contains(&first2) {
            break;
        }
        let save = w.pos;
        let Some(t) = w.word()? else { break };
        match t.packed {
            CP => s.value = Some(ScoreValue::Cp(w.int()?)),
            MATE => s.value = Some(ScoreValue::Mate(w.int()?)),
            0 if t.bytes == b"lowerbound" => s.bound = Bound::Lower,
            0 if t.bytes == b"upperbound" => s.bound = Bound::Upper,
            _ => {
                w.pos = save;
                break;
            }
        }
    }
    s.value.is_some().then_some(s)
}

struct Words<'a> {
    b: &'a [u8],
    pos: usize,
}

/// Bytes below `!` in `x`, flagged; the lowest flag is exactly the first such byte.
#[inline]
fn low_bytes(x: u64) -> u64 {
    crate::swar::below(x, b'!')
}

impl<'a> Words<'a> {
    /// The next space-separated word: `Some(None)` at the end, `None` when the spacing is
    /// anything but single spaces or the word holds a control byte.
    #[inline(always)]
    fn word(&mut self) -> Option<Option<Word<'a>>> {
        let start = self.pos;
        let b = self.b;
        if start >= b.len() {
            return Some(None);
        }
        // Most words are short: one eight-byte load finds their end and packs them.
        if let Some(chunk) = b.get(start..start + 8) {
            let x = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).ok()?);
            let low = low_bytes(x);
            if low != 0 {
                let len = (low.trailing_zeros() / 8) as usize;
                if len == 0 {
                    return None;
                }
                let end = start + len;
                self.next_word(end)?;
                let packed = x & ((1u64 << (8 * len)) - 1);
                return Some(Some(Word {
                    bytes: b.get(start..end)?,
                    packed,
                }));
            }
            // Exactly eight bytes (`seldepth`, `hashfull`, `currmove`...).
            if matches!(b.get(start + 8), None | Some(b' ')) {
                self.next_word(start + 8)?;
                return Some(Some(Word {
                    bytes: chunk,
                    packed: x,
                }));
            }
        }
        self.long_word(start)
    }

    /// [`Words::word`] for words of more than seven bytes and those near the end of the line.
    #[cold]
    #[inline(never)]
    fn long_word(&mut self, start: usize) -> Option<Option<Word<'a>>> {
        let b = self.b;
        let mut end = start;
        while let Some(chunk) = b.get(end..end + 8) {
            let x = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).ok()?);
            let low = low_bytes(x);
            if low != 0 {
                end += (low.trailing_zeros() / 8) as usize;
                break;
            }
            end += 8;
        }
        while b.get(end).is_some_and(|&c| c > b' ') {
            end += 1;
        }
        if end == start {
            return None;
        }
        self.next_word(end)?;
        let bytes = b.get(start..end)?;
        let packed = if bytes.len() > 8 {
            0
        } else {
            bytes.iter().rev().fold(0, |v, &c| (v << 8) | u64::from(c))
        };
        Some(Some(Word { bytes, packed }))
    }

    /// Steps over the single space after a word ending at `end`; `None` for any other byte
    /// below `!`, or a space at the very end (the caller trims the line).
    #[inline]
    fn next_word(&mut self, end: usize) -> Option<()> {
        match self.b.get(end) {
            None => self.pos = end,
            Some(b' ') if end + 1 < self.b.len() => self.pos = end + 1,
            Some(_) => return None,
        }
        Some(())
    }

    /// An unsigned value of 1 to 19 plain digits (so it fits a `u64`) that fits `T`, read in
    /// the same pass that finds the end of the word.
    #[inline]
    fn uint<T: TryFrom<u64>>(&mut self) -> Option<T> {
        let v = self.digits()?;
        T::try_from(v).ok()
    }

    #[inline]
    fn digits(&mut self) -> Option<u64> {
        let start = self.pos;
        let mut end = start;
        let mut v = 0u64;
        while let Some(&c) = self.b.get(end) {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            v = v.wrapping_mul(10).wrapping_add(u64::from(d));
            end += 1;
        }
        if end == start || end - start > 19 {
            return None;
        }
        // A digit run followed by anything but a space is not a plain number.
        self.next_word(end)?;
        Some(v)
    }

    /// A signed value: plain digits, optionally after a minus sign.
    fn int(&mut self) -> Option<i32> {
        if self.b.get(self.pos) == Some(&b'-') {
            self.pos += 1;
            i32::try_from(-i64::try_from(self.digits()?).ok()?).ok()
        } else {
            i32::try_from(self.digits()?).ok()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyword_tables_line_up_with_the_general_lookup() {
        for (k, kw) in ALL.iter().enumerate() {
            assert_eq!(*kw as usize, k);
            let name = INFO_KEYWORDS[k];
            assert_eq!(super::super::keyword(name), Some(*kw), "{name}");
            let lit = LITERALS[k];
            if lit.len > 0 {
                let line = format!("{name} 1 2 3 4");
                let mut w = Words {
                    b: line.as_bytes(),
                    pos: 0,
                };
                assert_eq!(take_guess(&mut w, &lit), Some(*kw), "{name}");
                assert_eq!(w.pos, name.len() + 1);
            }
        }
    }
    use crate::protocol::tokens::Tokens;
    use proptest::prelude::*;

    fn general(line: &str) -> (Info, usize) {
        let mut d = Vec::new();
        let i = Info::parse_general(&mut Tokens::new(line), &mut d);
        (i, d.len())
    }

    /// Whenever the fast path answers, the general parser agrees and has nothing to say.
    fn agrees(line: &str) -> Result<bool, TestCaseError> {
        let mut fast = Info::default();
        if !parse(
            line.trim_ascii(),
            &mut fast,
            &mut None,
            &mut FieldOrder::default(),
        ) {
            return Ok(false);
        }
        // Again with the order this line teaches, and with an order that guesses wrong
        // everywhere: the guesses may only save work, never change the answer.
        let mut learned = FieldOrder::default();
        let mut scratch = Info::default();
        parse(line.trim_ascii(), &mut scratch, &mut None, &mut learned);
        for order in [learned, FieldOrder([LITERALS[Kw::Pv as usize]; SLOTS])] {
            let mut again = Info::default();
            prop_assert!(parse(
                line.trim_ascii(),
                &mut again,
                &mut None,
                &mut order.clone()
            ));
            prop_assert_eq!(&again, &fast, "{:?}", line);
        }
        let (slow, diags) = general(line);
        prop_assert_eq!(&fast, &slow, "{:?}", line);
        prop_assert_eq!(diags, 0, "{:?}", line);
        Ok(true)
    }

    fn token() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => prop::sample::select(vec![
                "depth", "seldepth", "time", "nodes", "pv", "multipv", "score", "cp", "mate",
                "lowerbound", "upperbound", "wdl", "currmove", "currmovenumber", "hashfull",
                "nps", "tbhits", "sbhits", "cpuload", "string", "refutation", "currline",
                "movesleft", "e2e4", "e7e8q", "0000", "-", "+5", "-0", "007",
            ])
            .prop_map(str::to_owned),
            3 => any::<u64>().prop_map(|n| n.to_string()),
            2 => any::<i64>().prop_map(|n| n.to_string()),
            1 => (0..5000u32).prop_map(|n| n.to_string()),
            1 => "[a-h][1-8][a-h][1-8]",
            1 => "[ -~]{0,6}",
        ]
    }

    fn separator() -> impl Strategy<Value = &'static str> {
        prop_oneof![12 => Just(" "), 1 => Just("  "), 1 => Just("\t"), 1 => Just(" \r")]
    }

    fn value() -> impl Strategy<Value = String> {
        prop_oneof![
            8 => (0..100_000u32).prop_map(|n| n.to_string()),
            2 => any::<u64>().prop_map(|n| n.to_string()),
            2 => (-500..500i32).prop_map(|n| n.to_string()),
            1 => any::<i64>().prop_map(|n| n.to_string()),
            1 => token(),
        ]
    }

    /// Mostly well-formed fields, sometimes not.
    fn field() -> impl Strategy<Value = String> {
        let numeric = prop::sample::select(vec![
            "depth",
            "seldepth",
            "time",
            "nodes",
            "multipv",
            "currmovenumber",
            "hashfull",
            "nps",
            "tbhits",
            "sbhits",
            "cpuload",
        ]);
        let bound = prop::sample::select(vec!["", " lowerbound", " upperbound"]);
        prop_oneof![
            6 => (numeric, value()).prop_map(|(k, v)| format!("{k} {v}")),
            3 => (prop::sample::select(vec!["cp", "mate"]), value(), bound.clone(), bound.clone())
                .prop_map(|(k, v, b1, b2)| format!("score{b1} {k} {v}{b2}")),
            1 => bound.prop_map(|b| b.trim().to_owned()),
            1 => (value(), value(), value()).prop_map(|(a, b, c)| format!("wdl {a} {b} {c}")),
            1 => token(),
        ]
    }

    fn tail() -> impl Strategy<Value = String> {
        let mv = prop_oneof![8 => "[a-h][1-8][a-h][1-8][qrbn]?", 1 => token()];
        prop_oneof![
            1 => Just(String::new()),
            3 => proptest::collection::vec(mv, 0..6).prop_map(|m| format!("pv {}", m.join(" "))),
            1 => "string[ -~]{0,12}",
        ]
    }

    proptest! {
        #[test]
        fn fast_path_matches_the_general_parser_on_noise(
            parts in proptest::collection::vec((token(), separator()), 0..16),
        ) {
            let line: String = parts.iter().map(|(t, s)| format!("{t}{s}")).collect();
            agrees(&line)?;
        }

        #[test]
        fn fast_path_matches_the_general_parser_on_info_lines(
            fields in proptest::collection::vec((field(), separator()), 0..8),
            tail in tail(),
            lead in separator(),
        ) {
            let mut line: String = lead.to_owned();
            for (f, s) in &fields {
                line.push_str(f);
                line.push_str(s);
            }
            line.push_str(&tail);
            agrees(&line)?;
        }
    }

    /// The packed comparison knows every keyword the general parser knows, and nothing else.
    #[test]
    fn packed_keywords_match_the_general_ones() {
        let near_misses = [
            "e2e4",
            "depths",
            "dept",
            "cp",
            "mate",
            "e7e8q",
            "currmovenumbe",
            "lowerbounds",
            "x",
        ];
        for t in INFO_KEYWORDS.into_iter().chain(near_misses) {
            let mut w = Words {
                b: t.as_bytes(),
                pos: 0,
            };
            let word = w.word().flatten().expect("one word");
            assert_eq!(keyword(word), super::super::keyword(t), "{t}");
        }
    }

    #[test]
    fn usual_lines_take_the_fast_path() {
        for line in [
            "depth 20 seldepth 28 multipv 1 score cp -31 nodes 1234567 nps 1500000 hashfull 12 tbhits 0 time 812 pv e2e4 e7e5 g1f3",
            "depth 5 score mate -3 lowerbound pv h5f7",
            "depth 5 score cp 12 upperbound wdl 300 500 200 pv e2e4",
            "depth 1 currmovenumber 3 string hello  world ",
            "upperbound depth 3",
            "",
        ] {
            assert!(agrees(line).expect("agrees"), "{line}");
        }
        for line in [
            "depth 20 currmove e2e4 currmovenumber 1",
            "depth  20",
            "depth\t20",
            "depth x",
            "depth 4294967296",
            "score cp +5",
            "score depth 5",
            "pv e2e4 depth 3",
            "pv",
            "movesleft 30",
            "depth 20 pv e2e4\u{1}",
            "nodes 5\u{0}",
        ] {
            assert!(!agrees(line).expect("agrees"), "{line}");
        }
    }
}
