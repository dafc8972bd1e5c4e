//! NBoard protocol (Othello), v1 and v2, both directions.
//!
//! Read as the reference GUI reads it (weltyc/othello `protocol/ResponseParser.java`): the
//! reference engine answers `learn` with `learn` (the text says `learned`), and
//! `=== MOVE eval time` with spaces is the text's own example and what Edax sends, which the
//! GUI turns into `MOVE/eval/time` on purpose ("Edax produces the mli with spaces between
//! components rather than slashes"): no syntax to complain of.

use std::fmt;

use super::tokens::Tokens;
use super::{Diagnostic, Dir, diag, diag_rule, under_rule, word_text};
use crate::rules::catalogue::RuleId;

#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    // GUI -> engine
    Nboard(u32),
    SetDepth(u32),
    /// `set game GGF`: the GGF text, parsed by `game::ggf`.
    SetGame(String),
    SetContempt(f64),
    /// Another `set KEY VALUE`.
    Set {
        key: String,
        value: String,
    },
    /// v2 `move MOVE[/eval[/time]]`.
    Move(MoveEval),
    /// v1: the move alone (`F5`).
    BareMove(String),
    Hint(u32),
    Go,
    Ping(i64),
    Learn,
    Analyze,
    /// Not in the text, but NTest's loop accepts it and GUIs send it on exit.
    Quit,
    // engine -> GUI
    SetMyName(String),
    Status(String),
    NodeStats {
        nodes: u64,
        seconds: f64,
    },
    Pong(i64),
    /// `=== MOVE[/eval[/time]]` (also space-separated).
    BestMove(MoveEval),
    Search(Box<SearchLine>),
    Book(Box<SearchLine>),
    /// `learned` (also the reference engine's `learn`, with a diagnostic).
    Learned,
    Analysis {
        moves_made: u32,
        eval: f64,
    },
    Empty,
    Unknown(String),
}

/// A move with optional evaluation (centi-disks or disks, as sent) and time in seconds.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MoveEval {
    pub mv: String,
    pub eval: Option<f64>,
    pub time: Option<f64>,
}

/// `search PV EVAL 0 DEPTH TEXT` / `book PV EVAL GAMES DEPTH TEXT`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SearchLine {
    /// Move then PV without whitespace (`F5d6C3`, `F5-D6-C3`).
    pub pv: String,
    /// A number or a `draw-to-black,draw-to-white` pair, as sent.
    pub eval: String,
    pub games: u64,
    /// Starts with an integer; `100%W` / `100%` mark solved positions.
    pub depth: String,
    pub text: String,
}

impl SearchLine {
    /// The move being evaluated: the first two characters of the PV.
    pub fn first_move(&self) -> &str {
        self.pv.get(..2).unwrap_or(&self.pv)
    }
}

impl Msg {
    pub fn kind(&self) -> &'static str {
        match self {
            Msg::Nboard(_) => "nboard",
            Msg::SetDepth(_) => "set depth",
            Msg::SetGame(_) => "set game",
            Msg::SetContempt(_) => "set contempt",
            Msg::Set { .. } => "set",
            Msg::Move(_) | Msg::BareMove(_) => "move",
            Msg::Hint(_) => "hint",
            Msg::Go => "go",
            Msg::Ping(_) => "ping",
            Msg::Learn => "learn",
            Msg::Analyze => "analyze",
            Msg::Quit => "quit",
            Msg::SetMyName(_) => "set myname",
            Msg::Status(_) => "status",
            Msg::NodeStats { .. } => "nodestats",
            Msg::Pong(_) => "pong",
            Msg::BestMove(_) => "===",
            Msg::Search(_) => "search",
            Msg::Book(_) => "book",
            Msg::Learned => "learned",
            Msg::Analysis { .. } => "analysis",
            Msg::Empty => "empty",
            Msg::Unknown(_) => "unknown",
        }
    }
}

/// An Othello square (`F5`, `d6`) or a pass (`PA`, any prefix of `pass`, `--`).
pub fn looks_like_move(t: &str) -> bool {
    let b = t.as_bytes();
    let square = b.len() == 2
        && matches!(b.first(), Some(c) if c.to_ascii_lowercase().is_ascii_lowercase() && c.to_ascii_lowercase() <= b'h')
        && matches!(b.get(1), Some(c) if (b'1'..=b'8').contains(c));
    let lower = t.to_ascii_lowercase();
    square || t == "--" || (!t.is_empty() && "pass".starts_with(&lower))
}

/// A decimal without exponent, `inf` or `nan` (NBoard reads evals that way).
fn decimal(s: &str) -> Option<f64> {
    let ok = !s.is_empty()
        && s.bytes().any(|b| b.is_ascii_digit())
        && s.bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-' || b == b'+');
    if ok { s.parse().ok() } else { None }
}

fn opt_decimal(what: &str, s: &str, d: &mut Vec<Diagnostic>) -> Option<f64> {
    if s.is_empty() {
        return None;
    }
    let v = decimal(s);
    if v.is_none() {
        diag(d, format!("bad {what} '{s}'"));
    }
    v
}

/// `MOVE[/eval[/time]]`, or with `spaced`, also `MOVE eval time`.
fn parse_move_eval(toks: &mut Tokens<'_>, spaced: bool, d: &mut Vec<Diagnostic>) -> MoveEval {
    let Some(first) = toks.next() else {
        diag(d, "missing move");
        return MoveEval::default();
    };
    let mut parts = first.splitn(3, '/');
    let mv = parts.next().unwrap_or("").to_owned();
    let mut me = MoveEval {
        mv,
        eval: None,
        time: None,
    };
    if !looks_like_move(&me.mv) {
        diag(d, format!("'{}' is not an Othello move", me.mv));
    }
    if first.contains('/') {
        me.eval = opt_decimal("eval", parts.next().unwrap_or(""), d);
        me.time = opt_decimal("time", parts.next().unwrap_or(""), d);
    } else if spaced {
        // The text's own example writes `=== F5 -1.00 0.0`, its definition `F5/-1.00/0.0`;
        // the GUI reads both.
        if let Some(e) = toks.next() {
            me.eval = opt_decimal("eval", e, d);
        }
        if let Some(t) = toks.next() {
            me.time = opt_decimal("time", t, d);
        }
    }
    let rest = toks.rest();
    if !rest.is_empty() {
        diag(d, format!("ignored extra '{rest}'"));
    }
    me
}

fn number<T: std::str::FromStr>(
    what: &str,
    toks: &mut Tokens<'_>,
    d: &mut Vec<Diagnostic>,
) -> Option<T> {
    let t = toks.next();
    let v = t.and_then(|t| t.parse().ok());
    if v.is_none() {
        diag(
            d,
            format!("{what}: missing or bad number '{}'", t.unwrap_or("")),
        );
    }
    v
}

pub fn parse(dir: Dir, line: &str, d: &mut Vec<Diagnostic>) -> Msg {
    let mut toks = Tokens::new(line);
    let Some(cmd) = toks.next() else {
        return Msg::Empty;
    };
    let msg = match dir {
        Dir::ToEngine => parse_gui(cmd, &mut toks, d),
        Dir::FromEngine => parse_engine(cmd, &mut toks, d),
    };
    match msg {
        Some(m) => {
            let rest = toks.rest();
            if !rest.is_empty() {
                diag(d, format!("{cmd}: ignored extra '{rest}'"));
            }
            m
        }
        None => Msg::Unknown(line.trim_ascii().to_owned()),
    }
}

fn parse_gui(cmd: &str, toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Option<Msg> {
    Some(match cmd {
        "nboard" => Msg::Nboard(number("nboard", toks, d).unwrap_or(0)),
        "set" => {
            let key = toks.next().unwrap_or("");
            match key {
                "depth" => Msg::SetDepth(number("set depth", toks, d).unwrap_or(0)),
                "game" => {
                    let g = toks.rest();
                    if g.is_empty() {
                        diag(d, "set game: missing GGF");
                    }
                    Msg::SetGame(g.to_owned())
                }
                "contempt" => {
                    let t = toks.next().unwrap_or("");
                    let v = decimal(t);
                    if v.is_none() {
                        diag(d, format!("set contempt: bad value '{t}'"));
                    }
                    Msg::SetContempt(v.unwrap_or(0.0))
                }
                _ => {
                    diag(d, format!("set: unknown parameter '{key}'"));
                    Msg::Set {
                        key: key.to_owned(),
                        value: toks.rest().to_owned(),
                    }
                }
            }
        }
        "move" => Msg::Move(under_rule(d, RuleId::NboardSyntax, |d| {
            parse_move_eval(toks, false, d)
        })),
        "hint" => Msg::Hint(number("hint", toks, d).unwrap_or(1)),
        "go" => Msg::Go,
        "ping" => Msg::Ping(number("ping", toks, d).unwrap_or(0)),
        "learn" => Msg::Learn,
        "analyze" => Msg::Analyze,
        "quit" => Msg::Quit,
        m if looks_like_move(m) => {
            diag(d, "protocol v1 bare move (v2 sends 'move MOVE')");
            Msg::BareMove(m.to_owned())
        }
        _ => return None,
    })
}

fn parse_engine(cmd: &str, toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Option<Msg> {
    Some(match cmd {
        "===" => Msg::BestMove(under_rule(d, RuleId::NboardMoveFormat, |d| {
            parse_move_eval(toks, true, d)
        })),
        "set" if toks.peek() == Some("myname") => {
            toks.next();
            Msg::SetMyName(toks.rest().to_owned())
        }
        "status" => Msg::Status(toks.rest().to_owned()),
        "nodestats" => {
            let nodes = number("nodestats", toks, d).unwrap_or(0);
            let t = toks.next().unwrap_or("");
            let seconds = decimal(t).unwrap_or_else(|| {
                diag(d, format!("nodestats: bad time '{t}'"));
                0.0
            });
            Msg::NodeStats { nodes, seconds }
        }
        "pong" => Msg::Pong(number("pong", toks, d).unwrap_or(0)),
        "search" | "book" => {
            let pv = toks.next().unwrap_or("").to_owned();
            let eval = toks.next().unwrap_or("").to_owned();
            let square = |s: &[u8]| {
                s.len() == 2
                    && (b'a'..=b'h').contains(&s[0].to_ascii_lowercase())
                    && (b'1'..=b'8').contains(&s[1])
            };
            let head = pv.as_bytes().get(..2).unwrap_or(b"");
            if !(square(head) || head.eq_ignore_ascii_case(b"pa")) {
                // Edax prints a book move found by `go` in its console form,
                // `book    +1      f3 C5 c6`: the eval first, the moves last, spaced.
                let why = if decimal(&pv).is_some() {
                    " (an eval first and the moves last: Edax's console form, which the \
                     reference GUI's parser rejects as an engine communication error)"
                } else {
                    ""
                };
                diag_rule(
                    d,
                    RuleId::NboardHintPvFormat,
                    format!("{cmd}: pv `{pv}` does not begin with a move{why}"),
                );
            } else if eval.len() == 2 && square(eval.as_bytes()) {
                // The PV went on after a space: its next move landed where the eval belongs.
                diag_rule(
                    d,
                    RuleId::NboardHintPvFormat,
                    format!("{cmd}: pv `{pv} {eval} ...` contains whitespace"),
                );
            }
            let games = number(cmd, toks, d).unwrap_or(0);
            let depth = toks.next().unwrap_or("").to_owned();
            if depth.is_empty() {
                diag(d, format!("{cmd}: missing depth"));
            }
            let line = SearchLine {
                pv,
                eval,
                games,
                depth,
                text: toks.rest().to_owned(),
            };
            // Boxed: the rest of the messages fit in half the room.
            if cmd == "search" {
                Msg::Search(Box::new(line))
            } else {
                Msg::Book(Box::new(line))
            }
        }
        "learned" => Msg::Learned,
        "learn" => {
            d.push(Diagnostic {
                rule: Some(RuleId::NboardLearnAck),
                message:
                    "'learn' as the answer to learn (NTest does this; the text says 'learned')"
                        .into(),
            });
            Msg::Learned
        }
        "analysis" => {
            let moves_made = number("analysis", toks, d).unwrap_or(0);
            let t = toks.next().unwrap_or("");
            let eval = decimal(t).unwrap_or_else(|| {
                diag(d, format!("analysis: bad eval '{t}'"));
                0.0
            });
            Msg::Analysis { moves_made, eval }
        }
        _ => return None,
    })
}

impl fmt::Display for MoveEval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.mv)?;
        match (self.eval, self.time) {
            (None, None) => Ok(()),
            (Some(e), None) => write!(f, "/{e}"),
            (None, Some(t)) => write!(f, "//{t}"),
            (Some(e), Some(t)) => write!(f, "/{e}/{t}"),
        }
    }
}

impl fmt::Display for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Msg::Nboard(n) => write!(f, "nboard {n}"),
            Msg::SetDepth(n) => write!(f, "set depth {n}"),
            Msg::SetGame(g) => word_text(f, "set game", g),
            Msg::SetContempt(c) => write!(f, "set contempt {c}"),
            Msg::Set { key, value } => {
                word_text(f, "set", key)?;
                if !value.is_empty() {
                    write!(f, " {value}")?;
                }
                Ok(())
            }
            Msg::Move(m) => write!(f, "move {m}"),
            Msg::BareMove(m) => f.write_str(m),
            Msg::Hint(n) => write!(f, "hint {n}"),
            Msg::Ping(n) => write!(f, "ping {n}"),
            Msg::SetMyName(s) => word_text(f, "set myname", s),
            Msg::Status(s) => word_text(f, "status", s),
            Msg::NodeStats { nodes, seconds } => write!(f, "nodestats {nodes} {seconds}"),
            Msg::Pong(n) => write!(f, "pong {n}"),
            Msg::BestMove(m) => write!(f, "=== {m}"),
            Msg::Search(s) | Msg::Book(s) => {
                let word = if matches!(self, Msg::Search(_)) {
                    "search"
                } else {
                    "book"
                };
                write!(f, "{word} {} {} {} {}", s.pv, s.eval, s.games, s.depth)?;
                if !s.text.is_empty() {
                    write!(f, " {}", s.text)?;
                }
                Ok(())
            }
            Msg::Analysis { moves_made, eval } => write!(f, "analysis {moves_made} {eval}"),
            Msg::Empty => Ok(()),
            Msg::Unknown(s) => f.write_str(s),
            other => f.write_str(other.kind()),
        }
    }
}

#[cfg(test)]
#[path = "nboard_tests.rs"]
mod tests;
