//! UCI `info`: the bulk of real traffic, so this parser works on borrowed tokens and allocates
//! only for the PV (one string for all moves), `string`, and tokens the text does not define.

use std::fmt;

use super::tokens::{Moves, Tokens};
use super::uci::number;
use super::{Diagnostic, diag};

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
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    /// Milliseconds.
    pub time: Option<u64>,
    pub nodes: Option<u64>,
    pub pv: Option<Moves>,
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    /// Win/draw/loss in permill (`wdl W D L`, Stockfish and Lc0 with `UCI_ShowWDL`).
    pub wdl: Option<[u32; 3]>,
    pub currmove: Option<String>,
    pub currmovenumber: Option<u32>,
    /// Permill.
    pub hashfull: Option<u32>,
    pub nps: Option<u64>,
    pub tbhits: Option<u64>,
    pub sbhits: Option<u64>,
    /// Permill.
    pub cpuload: Option<u32>,
    /// `string`: the rest of the line.
    pub string: Option<String>,
    pub refutation: Option<Moves>,
    pub currline: Option<CurrLine>,
    pub extra: Vec<Extra>,
}

fn is_info_keyword(t: &str) -> bool {
    matches!(
        t,
        "depth"
            | "seldepth"
            | "time"
            | "nodes"
            | "pv"
            | "multipv"
            | "score"
            | "lowerbound"
            | "upperbound"
            | "wdl"
            | "currmove"
            | "currmovenumber"
            | "hashfull"
            | "nps"
            | "tbhits"
            | "sbhits"
            | "cpuload"
            | "string"
            | "refutation"
            | "currline"
    )
}

impl Info {
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

    pub(crate) fn parse(toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Info {
        let mut i = Info::default();
        let kw = is_info_keyword;
        while let Some(t) = toks.next() {
            match t {
                "depth" => i.depth = number(t, toks, kw, d),
                "seldepth" => i.seldepth = number(t, toks, kw, d),
                "time" => i.time = number(t, toks, kw, d),
                "nodes" => i.nodes = number(t, toks, kw, d),
                "multipv" => i.multipv = number(t, toks, kw, d),
                "currmovenumber" => i.currmovenumber = number(t, toks, kw, d),
                "hashfull" => i.hashfull = number(t, toks, kw, d),
                "nps" => i.nps = number(t, toks, kw, d),
                "tbhits" => i.tbhits = number(t, toks, kw, d),
                "sbhits" => i.sbhits = number(t, toks, kw, d),
                "cpuload" => i.cpuload = number(t, toks, kw, d),
                "pv" => {
                    let pv = Moves::take_while(toks, |t| !is_info_keyword(t));
                    if pv.is_empty() {
                        diag(d, "pv: no moves");
                    }
                    i.pv = Some(pv);
                }
                "score" => i.score = Some(parse_score(toks, d)),
                "lowerbound" | "upperbound" => {
                    // Some engines put the bound after other fields; it still qualifies the score.
                    let s = i.score.get_or_insert_with(Score::default);
                    s.bound = if t == "lowerbound" {
                        Bound::Lower
                    } else {
                        Bound::Upper
                    };
                }
                "wdl" => {
                    let w = number("wdl", toks, kw, d);
                    let dr = number("wdl", toks, kw, d);
                    let l = number("wdl", toks, kw, d);
                    if let (Some(w), Some(dr), Some(l)) = (w, dr, l) {
                        i.wdl = Some([w, dr, l]);
                    }
                }
                "currmove" => match toks.peek() {
                    Some(m) if !is_info_keyword(m) => {
                        toks.next();
                        i.currmove = Some(m.to_owned());
                    }
                    _ => diag(d, "currmove: missing move"),
                },
                "string" => {
                    i.string = Some(toks.rest().to_owned());
                }
                "refutation" => {
                    let r = Moves::take_while(toks, |t| !is_info_keyword(t));
                    if r.is_empty() {
                        diag(d, "refutation: no moves");
                    }
                    i.refutation = Some(r);
                }
                "currline" => {
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
                other => {
                    let values = Moves::take_while(toks, |t| !is_info_keyword(t));
                    diag(d, format!("info: unknown token '{other}'"));
                    i.extra.push(Extra {
                        name: other.to_owned(),
                        values,
                    });
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
        match toks.peek() {
            Some("cp") => {
                toks.next();
                s.value = number("score cp", toks, score_kw, d).map(ScoreValue::Cp);
            }
            Some("mate") => {
                toks.next();
                s.value = number("score mate", toks, score_kw, d).map(ScoreValue::Mate);
            }
            Some("lowerbound") => {
                toks.next();
                s.bound = Bound::Lower;
            }
            Some("upperbound") => {
                toks.next();
                s.bound = Bound::Upper;
            }
            _ => break,
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
