//! UCI (April 2006 text), both directions.
//!
//! Tolerance follows the text: arbitrary whitespace between tokens, and "if the engine or the GUI
//! receives an unknown command or token it should just ignore it and try to parse the rest of
//! the string", so unknown leading tokens are skipped (with a diagnostic) until a command word.

use std::fmt;

use super::tokens::{Moves, Tokens};
use super::{Diagnostic, Dir, diag, under_rule, word_text};

pub(crate) use super::uci_info::InfoSpare;
pub use super::uci_info::{Bound, CurrLine, Extra, Info, Score, ScoreValue};
use crate::rules::catalogue::RuleId;

/// A UCI message.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    // GUI -> engine
    Uci,
    /// `debug [on|off]`; `None` when the argument is missing or not on/off.
    Debug(Option<bool>),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register(Register),
    UciNewGame,
    Position(Position),
    Go(Box<Go>),
    Stop,
    PonderHit,
    Quit,
    // engine -> GUI
    Id(Id),
    UciOk,
    ReadyOk,
    /// `bestmove M [ponder P]`. `best` is kept verbatim: `0000` (the text's null move) and
    /// `(none)` (Stockfish) both mean "no move", see [`Msg::is_null_move`].
    BestMove {
        best: String,
        ponder: Option<String>,
    },
    CopyProtection(Status),
    Registration(Status),
    Info(Box<Info>),
    Option(Box<OptionDecl>),
    /// A blank line.
    Empty,
    /// Not UCI: the whole line, trimmed.
    Unknown(String),
}

/// `register later` or `register name N code C`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Register {
    Later,
    With {
        name: Option<String>,
        code: Option<String>,
    },
}

/// `position startpos|fen FEN [moves ...]`; `fen == None` is `startpos`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Position {
    pub fen: Option<String>,
    pub moves: Moves,
}

/// Every parameter of `go`. Times are milliseconds (signed: GUIs do send negative clocks).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Go {
    pub searchmoves: Moves,
    pub ponder: bool,
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<i64>,
    pub infinite: bool,
    /// Tokens the text does not define (e.g. Stockfish's `perft 5`), kept in order.
    pub extra: Vec<Extra>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Id {
    Name(String),
    Author(String),
    Other { key: String, value: String },
}

/// Answer of `copyprotection` / `registration`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    Checking,
    Ok,
    Error,
    Other(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionType {
    Check,
    Spin,
    Combo,
    Button,
    String,
    /// A type the text does not define; empty when `type` was missing.
    Other(String),
}

/// `option name N type T [default D] [min m] [max M] [var V]*`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionDecl {
    pub name: String,
    pub kind: OptionType,
    /// `Some("")` for a `default` with no value (Stockfish's `type string default `).
    pub default: Option<String>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub vars: Vec<String>,
}

impl Msg {
    pub fn kind(&self) -> &'static str {
        match self {
            Msg::Uci => "uci",
            Msg::Debug(_) => "debug",
            Msg::IsReady => "isready",
            Msg::SetOption { .. } => "setoption",
            Msg::Register(_) => "register",
            Msg::UciNewGame => "ucinewgame",
            Msg::Position(_) => "position",
            Msg::Go(_) => "go",
            Msg::Stop => "stop",
            Msg::PonderHit => "ponderhit",
            Msg::Quit => "quit",
            Msg::Id(_) => "id",
            Msg::UciOk => "uciok",
            Msg::ReadyOk => "readyok",
            Msg::BestMove { .. } => "bestmove",
            Msg::CopyProtection(_) => "copyprotection",
            Msg::Registration(_) => "registration",
            Msg::Info(_) => "info",
            Msg::Option(_) => "option",
            Msg::Empty => "empty",
            Msg::Unknown(_) => "unknown",
        }
    }

    /// `bestmove 0000` / `bestmove (none)`: the engine has no move.
    pub fn is_null_move(&self) -> bool {
        matches!(self, Msg::BestMove { best, .. } if is_null_move(best))
    }
}

/// The text's null move `0000`, Stockfish's `(none)`, and CECP's `@@@@`.
pub fn is_null_move(mv: &str) -> bool {
    matches!(mv, "0000" | "(none)" | "@@@@")
}

fn is_command(dir: Dir, t: &str) -> bool {
    match dir {
        Dir::ToEngine => matches!(
            t,
            "uci"
                | "debug"
                | "isready"
                | "setoption"
                | "register"
                | "ucinewgame"
                | "position"
                | "go"
                | "stop"
                | "ponderhit"
                | "quit"
        ),
        Dir::FromEngine => matches!(
            t,
            "id" | "uciok"
                | "readyok"
                | "bestmove"
                | "copyprotection"
                | "registration"
                | "info"
                | "option"
        ),
    }
}

pub fn parse(dir: Dir, line: &str, d: &mut Vec<Diagnostic>) -> Msg {
    parse_reusing(dir, line, d, &mut InfoSpare::default())
}

/// [`parse`], putting an `info` line into the spare box of an earlier one.
pub(crate) fn parse_reusing(
    dir: Dir,
    line: &str,
    d: &mut Vec<Diagnostic>,
    spare: &mut InfoSpare,
) -> Msg {
    // The flood: an engine's `info` first on its line goes straight to the field parser (the
    // same tokens the loop below would hand it, without the command lookups).
    if matches!(dir, Dir::FromEngine)
        && let Some(rest) = line.strip_prefix("info")
        && rest.as_bytes().first().is_none_or(u8::is_ascii_whitespace)
    {
        return Msg::Info(Info::parse_reusing(spare, &mut Tokens::new(rest), d));
    }
    let mut toks = Tokens::new(line);
    let mut skipped = 0usize;
    let mut first_skipped = "";
    let cmd = loop {
        match toks.next() {
            None if skipped == 0 => return Msg::Empty,
            None => return Msg::Unknown(line.trim_ascii().to_owned()),
            Some(t) if is_command(dir, t) => break t,
            Some(t) => {
                if skipped == 0 {
                    first_skipped = t;
                }
                skipped += 1;
            }
        }
    };
    let diags_before = d.len();
    let msg = parse_command(cmd, &mut toks, d);
    if skipped > 0 {
        // A banner that happens to contain "info" or "option" is not a command.
        let nothing_parsed = match &msg {
            Msg::Info(i) => !i.has_known_fields(),
            _ => false,
        };
        if nothing_parsed {
            d.truncate(diags_before);
            return Msg::Unknown(line.trim_ascii().to_owned());
        }
        diag(
            d,
            format!(
                "ignored {} unknown token(s) before '{}' (first: '{}')",
                skipped, cmd, first_skipped
            ),
        );
    }
    msg
}

fn parse_command(cmd: &str, toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Msg {
    let msg = match cmd {
        "info" => return Msg::Info(Info::parse_boxed(toks, d)),
        "uci" => Msg::Uci,
        "isready" => Msg::IsReady,
        "ucinewgame" => Msg::UciNewGame,
        "stop" => Msg::Stop,
        "ponderhit" => Msg::PonderHit,
        "quit" => Msg::Quit,
        "uciok" => Msg::UciOk,
        "readyok" => Msg::ReadyOk,
        "debug" => return parse_debug(toks, d),
        "setoption" => return parse_setoption(toks, d),
        "register" => return parse_register(toks, d),
        "position" => return parse_position(toks, d),
        "go" => return Msg::Go(Box::new(parse_go(toks, d))),
        "id" => return parse_id(toks, d),
        "bestmove" => return parse_bestmove(toks, d),
        "copyprotection" => return Msg::CopyProtection(parse_status("copyprotection", toks, d)),
        "registration" => return Msg::Registration(parse_status("registration", toks, d)),
        "option" => {
            return Msg::Option(Box::new(under_rule(d, RuleId::UciOptionMalformed, |d| {
                parse_option(toks, d)
            })));
        }
        _ => return Msg::Unknown(cmd.to_owned()),
    };
    let rest = toks.rest();
    if !rest.is_empty() {
        diag(d, format!("'{cmd}' takes no arguments; ignored '{rest}'"));
    }
    msg
}

fn parse_debug(toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Msg {
    match toks.next() {
        Some("on") => Msg::Debug(Some(true)),
        Some("off") => Msg::Debug(Some(false)),
        Some(other) => {
            diag(d, format!("debug: expected 'on' or 'off', got '{other}'"));
            Msg::Debug(None)
        }
        None => {
            diag(d, "debug: missing 'on' or 'off'");
            Msg::Debug(None)
        }
    }
}

/// Collects the raw text of the tokens up to (not including) one for which `stop` is true.
/// Internal spacing is kept: option names and values are free text.
fn text_until<'a>(toks: &mut Tokens<'a>, stop: impl Fn(&str) -> bool) -> Option<&'a str> {
    let start = toks.offset();
    let mut end = start;
    while let Some(t) = toks.peek() {
        if stop(t) {
            break;
        }
        toks.next();
        end = toks.cursor();
    }
    if end == start {
        None
    } else {
        Some(toks.slice(start, end))
    }
}

fn parse_setoption(toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Msg {
    match toks.peek() {
        Some("name") => {
            toks.next();
        }
        _ => diag(d, "setoption: missing 'name'"),
    }
    let name = text_until(toks, |t| t == "value").unwrap_or("");
    if name.is_empty() {
        diag(d, "setoption: empty option name");
    }
    let value = toks.next().map(|_| toks.rest().to_owned());
    Msg::SetOption {
        name: name.to_owned(),
        value,
    }
}

fn parse_register(toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Msg {
    let mut name = None;
    let mut code = None;
    let mut later = false;
    while let Some(t) = toks.next() {
        match t {
            "later" => later = true,
            "name" => {
                name = Some(text_until(toks, |t| t == "code").unwrap_or("").to_owned());
            }
            "code" => {
                code = Some(text_until(toks, |t| t == "name").unwrap_or("").to_owned());
            }
            other => diag(d, format!("register: ignored unknown token '{other}'")),
        }
    }
    if later && (name.is_some() || code.is_some()) {
        diag(d, "register: 'later' together with name/code");
    }
    if later {
        Msg::Register(Register::Later)
    } else {
        if name.is_none() && code.is_none() {
            diag(d, "register: expected 'later' or 'name ... code ...'");
        }
        Msg::Register(Register::With { name, code })
    }
}

fn parse_position(toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Msg {
    let mut pos = Position::default();
    match toks.next() {
        Some("startpos") => {}
        Some("fen") => match text_until(toks, |t| t == "moves") {
            Some(fen) => pos.fen = Some(fen.to_owned()),
            None => {
                diag(d, "position fen: missing FEN");
                pos.fen = Some(String::new());
            }
        },
        Some("moves") => {
            diag(d, "position: missing 'startpos' or 'fen'");
            pos.moves = Moves::rest(toks);
            return Msg::Position(pos);
        }
        Some(other) => diag(
            d,
            format!("position: expected 'startpos' or 'fen', got '{other}'"),
        ),
        None => diag(d, "position: missing 'startpos' or 'fen'"),
    }
    match toks.next() {
        Some("moves") => pos.moves = Moves::rest(toks),
        Some(other) => {
            let rest = toks.rest();
            diag(d, format!("position: ignored '{other} {rest}'"));
        }
        None => {}
    }
    Msg::Position(pos)
}

fn is_go_keyword(t: &str) -> bool {
    matches!(
        t,
        "searchmoves"
            | "ponder"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
            | "movetime"
            | "infinite"
    )
}

/// Reads the value of `key`; a missing or non-numeric value is a diagnostic. A keyword in value
/// position is left for the caller, so `go depth infinite` still sees `infinite`.
#[inline]
pub(crate) fn number<T: std::str::FromStr + TryFrom<u64>>(
    key: &str,
    toks: &mut Tokens<'_>,
    is_keyword: impl Fn(&str) -> bool,
    d: &mut Vec<Diagnostic>,
) -> Option<T> {
    let save = toks.clone();
    if let Some(t) = toks.next() {
        // Plain digits are the usual value, and no keyword starts with a digit.
        if let Some(v) = digits(t).and_then(|v| T::try_from(v).ok()) {
            return Some(v);
        }
        if !is_keyword(t) {
            return match t.parse() {
                Ok(v) => Some(v),
                Err(_) => {
                    diag(d, format!("{key}: bad value '{t}'"));
                    None
                }
            };
        }
    }
    // A keyword in value position stays for the caller.
    *toks = save;
    diag(d, format!("{key}: missing value"));
    None
}

/// The value of a token of 1 to 19 ASCII digits (so it fits a `u64`).
#[inline]
fn digits(t: &str) -> Option<u64> {
    let b = t.as_bytes();
    if b.is_empty() || b.len() > 19 {
        return None;
    }
    let mut v = 0u64;
    for &c in b {
        let digit = c.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        v = v * 10 + u64::from(digit);
    }
    Some(v)
}

fn parse_go(toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Go {
    let mut go = Go::default();
    while let Some(t) = toks.next() {
        let kw = is_go_keyword;
        match t {
            "searchmoves" => {
                go.searchmoves = Moves::take_while(toks, |t| !is_go_keyword(t));
                if go.searchmoves.is_empty() {
                    diag(d, "searchmoves: no moves");
                }
            }
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "wtime" => go.wtime = number(t, toks, kw, d),
            "btime" => go.btime = number(t, toks, kw, d),
            "winc" => go.winc = number(t, toks, kw, d),
            "binc" => go.binc = number(t, toks, kw, d),
            "movestogo" => go.movestogo = number(t, toks, kw, d),
            "depth" => go.depth = number(t, toks, kw, d),
            "nodes" => go.nodes = number(t, toks, kw, d),
            "mate" => go.mate = number(t, toks, kw, d),
            "movetime" => go.movetime = number(t, toks, kw, d),
            other => {
                let values = text_until(toks, is_go_keyword).unwrap_or("");
                diag(d, format!("go: unknown parameter '{other}'"));
                go.extra.push(Extra {
                    name: other.to_owned(),
                    values: values.split_ascii_whitespace().collect(),
                });
            }
        }
    }
    go
}

fn parse_id(toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Msg {
    let key = toks.next();
    let value = toks.rest().to_owned();
    match key {
        Some("name") => Msg::Id(Id::Name(value)),
        Some("author") => Msg::Id(Id::Author(value)),
        Some(k) => {
            diag(d, format!("id: unknown field '{k}'"));
            Msg::Id(Id::Other {
                key: k.to_owned(),
                value,
            })
        }
        None => {
            diag(d, "id: missing 'name' or 'author'");
            Msg::Id(Id::Other {
                key: String::new(),
                value,
            })
        }
    }
}

fn parse_bestmove(toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Msg {
    let best = match toks.next() {
        Some(m) => m.to_owned(),
        None => {
            diag(d, "bestmove: missing move");
            String::new()
        }
    };
    let mut ponder = None;
    while let Some(t) = toks.next() {
        if t == "ponder" {
            match toks.next() {
                Some(p) => ponder = Some(p.to_owned()),
                None => diag(d, "bestmove: 'ponder' without a move"),
            }
        } else {
            diag(d, format!("bestmove: ignored unknown token '{t}'"));
        }
    }
    Msg::BestMove { best, ponder }
}

fn parse_status(cmd: &str, toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Status {
    let s = match toks.next() {
        Some("checking") => Status::Checking,
        Some("ok") => Status::Ok,
        Some("error") => Status::Error,
        Some(other) => {
            diag(
                d,
                format!("{cmd}: expected checking, ok or error, got '{other}'"),
            );
            Status::Other(other.to_owned())
        }
        None => {
            diag(d, format!("{cmd}: missing checking, ok or error"));
            Status::Other(String::new())
        }
    };
    let rest = toks.rest();
    if !rest.is_empty() {
        diag(d, format!("{cmd}: ignored '{rest}'"));
    }
    s
}

fn is_option_keyword(t: &str) -> bool {
    matches!(t, "name" | "type" | "default" | "min" | "max" | "var")
}

fn parse_option(toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> OptionDecl {
    let mut o = OptionDecl {
        name: String::new(),
        kind: OptionType::Other(String::new()),
        default: None,
        min: None,
        max: None,
        vars: Vec::new(),
    };
    if toks.peek() == Some("name") {
        toks.next();
    } else {
        // UCCI engines (and Fairy-Stockfish in UCCI mode) omit `name`.
        diag(d, "option: missing 'name'");
    }
    o.name = text_until(toks, is_option_keyword).unwrap_or("").to_owned();
    if o.name.is_empty() {
        diag(d, "option: empty name");
    }
    let mut saw_type = false;
    while let Some(t) = toks.next() {
        match t {
            "type" => {
                saw_type = true;
                o.kind = match toks.next() {
                    Some("check") => OptionType::Check,
                    Some("spin") => OptionType::Spin,
                    Some("combo") => OptionType::Combo,
                    Some("button") => OptionType::Button,
                    Some("string") => OptionType::String,
                    Some(other) => {
                        diag(d, format!("option: unknown type '{other}'"));
                        OptionType::Other(other.to_owned())
                    }
                    None => {
                        diag(d, "option: 'type' without a value");
                        OptionType::Other(String::new())
                    }
                }
            }
            "default" => {
                o.default = Some(
                    text_until(toks, |t| {
                        is_option_keyword(t) && t != "default" && t != "name"
                    })
                    .unwrap_or("")
                    .to_owned(),
                )
            }
            "min" => o.min = number("option min", toks, is_option_keyword, d),
            "max" => o.max = number("option max", toks, is_option_keyword, d),
            "var" => o
                .vars
                .push(text_until(toks, is_option_keyword).unwrap_or("").to_owned()),
            other => diag(d, format!("option: ignored token '{other}'")),
        }
    }
    if !saw_type {
        diag(d, "option: missing 'type'");
    }
    o
}

impl fmt::Display for OptionType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OptionType::Check => "check",
            OptionType::Spin => "spin",
            OptionType::Combo => "combo",
            OptionType::Button => "button",
            OptionType::String => "string",
            OptionType::Other(s) => s,
        })
    }
}

impl fmt::Display for OptionDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {}", self.name)?;
        if !matches!(&self.kind, OptionType::Other(s) if s.is_empty()) {
            write!(f, " type {}", self.kind)?;
        }
        if let Some(v) = &self.default {
            write!(f, " default {v}")?;
        }
        if let Some(v) = self.min {
            write!(f, " min {v}")?;
        }
        if let Some(v) = self.max {
            write!(f, " max {v}")?;
        }
        for v in &self.vars {
            write!(f, " var {v}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        let nums: [(&str, Option<i64>); 5] = [
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
            ("movetime", self.movetime),
        ];
        for (k, v) in nums {
            if let Some(v) = v {
                write!(f, " {k} {v}")?;
            }
        }
        if let Some(v) = self.movestogo {
            write!(f, " movestogo {v}")?;
        }
        if let Some(v) = self.depth {
            write!(f, " depth {v}")?;
        }
        if let Some(v) = self.nodes {
            write!(f, " nodes {v}")?;
        }
        if let Some(v) = self.mate {
            write!(f, " mate {v}")?;
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        for e in &self.extra {
            write!(f, " {e}")?;
        }
        if !self.searchmoves.is_empty() {
            write!(f, " searchmoves {}", self.searchmoves)?;
        }
        Ok(())
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Checking => "checking",
            Status::Ok => "ok",
            Status::Error => "error",
            Status::Other(s) => s,
        })
    }
}

impl fmt::Display for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Msg::Debug(None) => f.write_str("debug"),
            Msg::Debug(Some(on)) => write!(f, "debug {}", if *on { "on" } else { "off" }),
            Msg::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(v) => write!(f, " value {v}"),
                    None => Ok(()),
                }
            }
            Msg::Register(Register::Later) => f.write_str("register later"),
            Msg::Register(Register::With { name, code }) => {
                f.write_str("register")?;
                if let Some(n) = name {
                    write!(f, " name {n}")?;
                }
                if let Some(c) = code {
                    write!(f, " code {c}")?;
                }
                Ok(())
            }
            Msg::Position(p) => {
                match &p.fen {
                    None => f.write_str("position startpos")?,
                    Some(fen) => write!(f, "position fen {fen}")?,
                }
                if !p.moves.is_empty() {
                    write!(f, " moves {}", p.moves)?;
                }
                Ok(())
            }
            Msg::Go(g) => g.fmt(f),
            Msg::Id(Id::Name(n)) => word_text(f, "id name", n),
            Msg::Id(Id::Author(n)) => word_text(f, "id author", n),
            Msg::Id(Id::Other { key, value }) => {
                word_text(f, "id", key)?;
                if !value.is_empty() {
                    write!(f, " {value}")?;
                }
                Ok(())
            }
            Msg::BestMove { best, ponder } => {
                word_text(f, "bestmove", best)?;
                match ponder {
                    Some(p) => write!(f, " ponder {p}"),
                    None => Ok(()),
                }
            }
            Msg::CopyProtection(s) => word_text(f, "copyprotection", &s.to_string()),
            Msg::Registration(s) => word_text(f, "registration", &s.to_string()),
            Msg::Info(i) => i.fmt(f),
            Msg::Option(o) => o.fmt(f),
            Msg::Empty => Ok(()),
            Msg::Unknown(s) => f.write_str(s),
            other => f.write_str(other.kind()),
        }
    }
}

#[cfg(test)]
#[path = "uci_tests.rs"]
mod tests;
