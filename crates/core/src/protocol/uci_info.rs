//! UCI `info`: the bulk of real traffic, so this parser works on borrowed tokens and allocates
//! only for the PV (one string for all moves), `string`, and tokens the text does not define.

use std::fmt;

use super::tokens::{Moves, Tokens};
use super::uci::number;
use super::{Diagnostic, diag};
use crate::rules::catalogue::RuleId;

mod fast;

pub(crate) use fast::FieldOrder;

/// What one engine's `info` lines leave for the next: the boxes of spent ones and PV buffers
/// (reused rather than allocated again), and the order the engine writes its fields in. A
/// decoder hands back each line's box before the next line; a parser that runs ahead of its
/// decoder gets a batch of them back at a time, hence a pool.
#[derive(Debug, Default)]
pub(crate) struct InfoSpare {
    // Boxes, not infos: a message holds its info boxed, and the box is what is reused.
    #[allow(clippy::vec_box)]
    info: Vec<Box<Info>>,
    pv: Vec<Moves>,
    pub(crate) order: FieldOrder,
}

/// Spent boxes kept for reuse, at most: what a parser running ahead has in flight.
const SPARE_POOL: usize = 4096;

impl InfoSpare {
    pub(crate) fn reclaim(&mut self, info: Box<Info>) {
        if self.info.len() < SPARE_POOL {
            self.info.push(info);
        }
    }
}

/// Bound qualifier of a score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreValue {
    /// Centipawns from the engine's point of view.
    Cp(i32),
    /// Mate in N moves (not plies); negative when the engine is getting mated.
    Mate(i32),
}

/// `score cp X|mate Y [lowerbound|upperbound]`; `value == None` when neither `cp` nor `mate`
/// was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Score {
    pub value: Option<ScoreValue>,
    pub bound: Bound,
}

/// `currline [cpunr] moves...`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CurrLine {
    pub cpu: Option<u32>,
    pub moves: Moves,
}

/// A token the text does not define, with the tokens after it up to the next known keyword
/// (e.g. Lc0's `movesleft 30`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extra {
    pub name: String,
    pub values: Moves,
}

impl fmt::Display for Extra {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.values.is_empty() {
            write!(f, " {}", self.values)?;
        }
        Ok(())
    }
}

/// Every field of `info`.
///
/// Laid out in memory as declared (`repr(C)`), cache-line aligned, with the fields every
/// engine sends on each line in the first three cache lines and the rare ones after: a box
/// parsed into again on one core and read on the other then carries only the lines a line's
/// fields were written to (`Info::parse_reusing` clears the rare fields only when set).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[repr(C, align(64))]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    /// Permill.
    pub hashfull: Option<u32>,
    /// Milliseconds.
    pub time: Option<u64>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub tbhits: Option<u64>,
    pub pv: Option<Moves>,
    pub currmovenumber: Option<u32>,
    pub score: Option<Score>,
    /// Win/draw/loss in permill (`wdl W D L`, Stockfish and Lc0 with `UCI_ShowWDL`).
    pub wdl: Option<[u32; 3]>,
    pub sbhits: Option<u64>,
    /// Permill.
    pub cpuload: Option<u32>,
    pub currmove: Option<String>,
    /// `string`: the rest of the line.
    pub string: Option<String>,
    pub refutation: Option<Moves>,
    pub currline: Option<CurrLine>,
    pub extra: Vec<Extra>,
}

/// The keywords of `info`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kw {
    Depth,
    SelDepth,
    Time,
    Nodes,
    Pv,
    MultiPv,
    Score,
    LowerBound,
    UpperBound,
    Wdl,
    CurrMove,
    CurrMoveNumber,
    HashFull,
    Nps,
    TbHits,
    SbHits,
    CpuLoad,
    String,
    Refutation,
    CurrLine,
}

/// Every token of an `info` line goes through here (PV moves included), so it decides on
/// length and first byte, then compares one candidate of known length (which the compiler
/// turns into a couple of integer comparisons).
#[inline]
fn keyword(t: &str) -> Option<Kw> {
    let b = t.as_bytes();
    macro_rules! word {
        ($w:literal, $k:expr) => {
            if b == $w { Some($k) } else { None }
        };
    }
    match (b.len(), *b.first()?) {
        (2, b'p') => word!(b"pv", Kw::Pv),
        (3, b'n') => word!(b"nps", Kw::Nps),
        (3, b'w') => word!(b"wdl", Kw::Wdl),
        (4, b't') => word!(b"time", Kw::Time),
        (5, b'd') => word!(b"depth", Kw::Depth),
        (5, b'n') => word!(b"nodes", Kw::Nodes),
        (5, b's') => word!(b"score", Kw::Score),
        (6, b't') => word!(b"tbhits", Kw::TbHits),
        (6, b's') if b.get(1) == Some(&b'b') => word!(b"sbhits", Kw::SbHits),
        (6, b's') => word!(b"string", Kw::String),
        (7, b'm') => word!(b"multipv", Kw::MultiPv),
        (7, b'c') => word!(b"cpuload", Kw::CpuLoad),
        (8, b's') => word!(b"seldepth", Kw::SelDepth),
        (8, b'h') => word!(b"hashfull", Kw::HashFull),
        (8, b'c') if b.get(4) == Some(&b'm') => word!(b"currmove", Kw::CurrMove),
        (8, b'c') => word!(b"currline", Kw::CurrLine),
        (10, b'l') => word!(b"lowerbound", Kw::LowerBound),
        (10, b'u') => word!(b"upperbound", Kw::UpperBound),
        (10, b'r') => word!(b"refutation", Kw::Refutation),
        (14, b'c') => word!(b"currmovenumber", Kw::CurrMoveNumber),
        _ => None,
    }
}

#[inline]
fn is_info_keyword(t: &str) -> bool {
    keyword(t).is_some()
}

impl Info {
    /// Empties every field. The fields of the first three cache lines (numbers, the PV and
    /// the score, which nearly every line sets) are simply written; the rare ones after them
    /// only when they hold something (see the layout note).
    fn clear(&mut self) {
        use crate::recording::event::empty;
        // Every field named: a field added later must be cleared too.
        let Info {
            depth,
            seldepth,
            multipv,
            hashfull,
            time,
            nodes,
            nps,
            tbhits,
            pv,
            currmovenumber,
            score,
            wdl,
            sbhits,
            cpuload,
            currmove,
            string,
            refutation,
            currline,
            extra,
        } = self;
        (*depth, *seldepth, *multipv, *hashfull) = (None, None, None, None);
        (*time, *nodes, *nps, *tbhits) = (None, None, None, None);
        (*currmovenumber, *score, *wdl, *sbhits, *cpuload) = (None, None, None, None, None);
        empty(pv);
        empty(currmove);
        empty(string);
        empty(refutation);
        empty(currline);
        if !extra.is_empty() {
            extra.clear();
        }
    }

    /// True when no field at all was recognised.
    pub fn is_empty(&self) -> bool {
        *self == Info::default()
    }

    /// True when at least one field of the text was present (unknown tokens do not count).
    pub fn has_known_fields(&self) -> bool {
        let mut known = self.clone();
        known.extra.clear();
        !known.is_empty()
    }

    /// Parses the fields after `info`, straight into the box the message keeps (an `Info` is a
    /// few hundred bytes: not worth moving around on every line).
    pub(crate) fn parse_boxed(toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Box<Info> {
        Info::parse_reusing(&mut InfoSpare::default(), toks, d)
    }

    /// [`Info::parse_boxed`] into a box and PV buffer previous lines left behind, so the flood
    /// of `info` lines costs no allocation once the decoder has recycled one.
    pub(crate) fn parse_reusing(
        spare: &mut InfoSpare,
        toks: &mut Tokens<'_>,
        d: &mut Vec<Diagnostic>,
    ) -> Box<Info> {
        let mut i = match spare.info.pop() {
            Some(mut i) => {
                // A line without a PV (`info string`, `currmove`...) leaves the buffer for
                // the next one that has one.
                if let Some(pv) = i.pv.take()
                    && spare.pv.len() < SPARE_POOL
                {
                    spare.pv.push(pv);
                }
                i.clear();
                i
            }
            None => Box::<Info>::default(),
        };
        let mut pv = spare.pv.pop();
        let fast = fast::parse(toks.peek_rest(), &mut i, &mut pv, &mut spare.order);
        if let Some(pv) = pv {
            spare.pv.push(pv);
        }
        if fast {
            toks.rest();
        } else {
            let from = d.len();
            *i = Info::parse_general(toks, d);
            // Bad numbers and score units have rules of their own.
            for x in &mut d[from..] {
                if x.message.starts_with("score:") {
                    x.rule = Some(RuleId::UciInfoScoreUnit);
                } else if x.message.contains(": bad value") {
                    x.rule = Some(RuleId::UciInfoNoninteger);
                }
            }
        }
        i
    }

    /// Every form of `info`, with diagnostics; [`fast::parse`] handles the usual lines.
    fn parse_general(toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Info {
        let mut i = Info::default();
        let kw = is_info_keyword;
        while let Some(t) = toks.next() {
            let Some(k) = keyword(t) else {
                let values = Moves::take_while(toks, |t| !is_info_keyword(t));
                diag(d, format!("info: unknown token '{t}'"));
                i.extra.push(Extra {
                    name: t.to_owned(),
                    values,
                });
                continue;
            };
            match k {
                Kw::Depth => i.depth = number(t, toks, kw, d),
                Kw::SelDepth => i.seldepth = number(t, toks, kw, d),
                Kw::Time => i.time = number(t, toks, kw, d),
                Kw::Nodes => i.nodes = number(t, toks, kw, d),
                Kw::MultiPv => i.multipv = number(t, toks, kw, d),
                Kw::CurrMoveNumber => i.currmovenumber = number(t, toks, kw, d),
                Kw::HashFull => i.hashfull = number(t, toks, kw, d),
                Kw::Nps => i.nps = number(t, toks, kw, d),
                Kw::TbHits => i.tbhits = number(t, toks, kw, d),
                Kw::SbHits => i.sbhits = number(t, toks, kw, d),
                Kw::CpuLoad => i.cpuload = number(t, toks, kw, d),
                Kw::Pv => {
                    let pv = Moves::take_while(toks, |t| !is_info_keyword(t));
                    if pv.is_empty() {
                        diag(d, "pv: no moves");
                    }
                    i.pv = Some(pv);
                }
                Kw::Score => i.score = Some(parse_score(toks, d)),
                Kw::LowerBound | Kw::UpperBound => {
                    // Some engines put the bound after other fields; it still qualifies the score.
                    let s = i.score.get_or_insert_with(Score::default);
                    s.bound = if k == Kw::LowerBound {
                        Bound::Lower
                    } else {
                        Bound::Upper
                    };
                }
                Kw::Wdl => {
                    let w = number("wdl", toks, kw, d);
                    let dr = number("wdl", toks, kw, d);
                    let l = number("wdl", toks, kw, d);
                    if let (Some(w), Some(dr), Some(l)) = (w, dr, l) {
                        i.wdl = Some([w, dr, l]);
                    }
                }
                Kw::CurrMove => match toks.peek() {
                    Some(m) if !is_info_keyword(m) => {
                        toks.next();
                        i.currmove = Some(m.to_owned());
                    }
                    _ => diag(d, "currmove: missing move"),
                },
                Kw::String => {
                    i.string = Some(toks.rest().to_owned());
                }
                Kw::Refutation => {
                    let r = Moves::take_while(toks, |t| !is_info_keyword(t));
                    if r.is_empty() {
                        diag(d, "refutation: no moves");
                    }
                    i.refutation = Some(r);
                }
                Kw::CurrLine => {
                    let cpu = match toks.peek() {
                        Some(c) if c.bytes().all(|b| b.is_ascii_digit()) => {
                            toks.next();
                            c.parse().ok()
                        }
                        _ => None,
                    };
                    let moves = Moves::take_while(toks, |t| !is_info_keyword(t));
                    i.currline = Some(CurrLine { cpu, moves });
                }
            }
        }
        i
    }
}

fn parse_score(toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Score {
    let mut s = Score::default();
    let score_kw = |t: &str| is_info_keyword(t) || t == "cp" || t == "mate";
    loop {
        let save = toks.clone();
        match toks.next() {
            Some("cp") => s.value = number("score cp", toks, score_kw, d).map(ScoreValue::Cp),
            Some("mate") => {
                s.value = number("score mate", toks, score_kw, d).map(ScoreValue::Mate);
            }
            Some("lowerbound") => s.bound = Bound::Lower,
            Some("upperbound") => s.bound = Bound::Upper,
            _ => {
                *toks = save;
                break;
            }
        }
    }
    if s.value.is_none() {
        diag(d, "score: missing 'cp' or 'mate' value");
    }
    s
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("score")?;
        match self.value {
            Some(ScoreValue::Cp(v)) => write!(f, " cp {v}")?,
            Some(ScoreValue::Mate(v)) => write!(f, " mate {v}")?,
            None => {}
        }
        match self.bound {
            Bound::Exact => Ok(()),
            Bound::Lower => f.write_str(" lowerbound"),
            Bound::Upper => f.write_str(" upperbound"),
        }
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let u32s = [
            ("depth", self.depth),
            ("seldepth", self.seldepth),
            ("multipv", self.multipv),
        ];
        for (k, v) in u32s {
            if let Some(v) = v {
                write!(f, " {k} {v}")?;
            }
        }
        if let Some(s) = &self.score {
            write!(f, " {s}")?;
        }
        if let Some([w, dr, l]) = self.wdl {
            write!(f, " wdl {w} {dr} {l}")?;
        }
        let u64s = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("hashfull", self.hashfull.map(u64::from)),
            ("tbhits", self.tbhits),
            ("sbhits", self.sbhits),
            ("cpuload", self.cpuload.map(u64::from)),
            ("time", self.time),
        ];
        for (k, v) in u64s {
            if let Some(v) = v {
                write!(f, " {k} {v}")?;
            }
        }
        if let Some(m) = &self.currmove {
            write!(f, " currmove {m}")?;
        }
        if let Some(n) = self.currmovenumber {
            write!(f, " currmovenumber {n}")?;
        }
        for e in &self.extra {
            write!(f, " {e}")?;
        }
        if let Some(r) = &self.refutation {
            write!(f, " refutation {r}")?;
        }
        if let Some(c) = &self.currline {
            f.write_str(" currline")?;
            if let Some(cpu) = c.cpu {
                write!(f, " {cpu}")?;
            }
            if !c.moves.is_empty() {
                write!(f, " {}", c.moves)?;
            }
        }
        if let Some(pv) = &self.pv {
            write!(f, " pv {pv}")?;
        }
        if let Some(s) = &self.string {
            write!(f, " string {s}")?;
        }
        Ok(())
    }
}

/// Every `info` keyword of the UCI text, spelled as on the wire and indexed by `Kw as usize`:
/// the fast path builds its keyword literals from it, and tests check that both parsers know
/// exactly these.
pub const INFO_KEYWORDS: [&str; 20] = [
    "depth",
    "seldepth",
    "time",
    "nodes",
    "pv",
    "multipv",
    "score",
    "lowerbound",
    "upperbound",
    "wdl",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
    "string",
    "refutation",
    "currline",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// `info` first on the line takes a shortcut past the command lookup; whatever the
    /// spacing around it, the message and its diagnostics are the same.
    #[test]
    fn info_reads_alike_at_the_start_of_the_line_and_after_spaces() {
        use crate::protocol::Dir;
        use crate::protocol::uci::{Msg, parse};
        for rest in [
            " depth 3 pv e2e4",
            "\tdepth 3 pv e2e4",
            " depth x",
            "",
            " movesleft 3",
        ] {
            let (mut d1, mut d2) = (Vec::new(), Vec::new());
            let a = parse(Dir::FromEngine, &format!("info{rest}"), &mut d1);
            let b = parse(Dir::FromEngine, &format!(" info{rest}"), &mut d2);
            assert!(matches!(a, Msg::Info(_)), "{rest:?}");
            assert_eq!(a, b, "{rest:?}");
            assert_eq!(d1, d2, "{rest:?}");
        }
        let mut d = Vec::new();
        assert!(!matches!(
            parse(Dir::FromEngine, "infos depth 3", &mut d),
            Msg::Info(_)
        ));
    }

    #[test]
    fn keyword_lookup_knows_exactly_the_info_keywords() {
        let mut seen = Vec::new();
        for k in INFO_KEYWORDS {
            let kw = keyword(k).unwrap_or_else(|| panic!("{k} not recognised"));
            assert!(!seen.contains(&kw), "{k} maps to a taken keyword");
            seen.push(kw);
            // Same length and first byte, one byte off.
            let mut near = k.to_owned().into_bytes();
            if let Some(last) = near.last_mut() {
                *last = b'x';
            }
            assert_eq!(keyword(std::str::from_utf8(&near).unwrap_or("")), None);
            assert_eq!(keyword(&k.to_ascii_uppercase()), None);
        }
        for other in [
            "",
            "e2e4",
            "p",
            "movesleft",
            "cp",
            "mate",
            "currlinx",
            "sbhitz",
        ] {
            assert_eq!(keyword(other), None, "{other}");
        }
    }

    #[test]
    fn digit_values_and_odd_values_parse_like_before() {
        let parse = |line: &str| {
            let mut d = Vec::new();
            let i = *Info::parse_boxed(&mut Tokens::new(line), &mut d);
            (i, d)
        };
        let (i, d) = parse("depth 007 nodes 18446744073709551615 time +5 seldepth 4294967296");
        assert_eq!(i.depth, Some(7));
        assert_eq!(i.nodes, Some(u64::MAX));
        assert_eq!(i.time, Some(5));
        assert_eq!(i.seldepth, None);
        assert_eq!(d.len(), 1, "{d:?}");
        let (i, d) = parse("score cp -25 upperbound depth pv e2e4");
        assert_eq!(
            i.score,
            Some(Score {
                value: Some(ScoreValue::Cp(-25)),
                bound: Bound::Upper
            })
        );
        assert_eq!(i.depth, None);
        assert_eq!(i.pv.as_ref().map(Moves::as_str), Some("e2e4"));
        assert_eq!(d.len(), 1, "{d:?}");
    }
}
