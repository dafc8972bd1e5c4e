//! CECP section 9 and the overview's thinking output and idioms: engine to GUI.

use std::fmt;

use super::cecp::{Idiom, Msg, TellKind, looks_like_move};
use super::cecp_gui::result_and_comment;
use super::tokens::Tokens;
use super::{Diagnostic, diag, diag_rule, under_rule};
use crate::rules::catalogue::RuleId;

/// One `NAME=VALUE` of a `feature` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feature {
    pub name: String,
    pub value: FeatureValue,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FeatureValue {
    /// Decimal integer (booleans are 0/1).
    Int(i64),
    /// A double-quoted string.
    Str(String),
    /// `option="..."`, decoded.
    Option(OptionDef),
    /// An unquoted non-integer (not in the text, tolerated); empty when `=VALUE` was missing.
    Bare(String),
}

/// A feature's value read by the type the protocol gives that feature: a boolean written 0 or
/// 1, `done`'s number, a quoted string, an option. A value of another type (`ping="1"`,
/// `ping=2`, `done=yes`) is kept as sent and sets nothing: xboard reads booleans with `%d` and
/// strings only between quotes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FeatureSetting {
    Flag(bool),
    /// `done`, 0 or 1; or an integer given to a feature the protocol does not define.
    Number(i64),
    /// `myname`, `variants`, `egt`, or a string given to a feature the protocol does not
    /// define.
    Text(String),
    Option(OptionDef),
    Malformed(FeatureValue),
}

impl FeatureSetting {
    /// The boolean a flag feature was set to.
    pub fn flag(&self) -> Option<bool> {
        match self {
            FeatureSetting::Flag(b) => Some(*b),
            _ => None,
        }
    }

    /// The text of a string feature.
    pub fn text(&self) -> Option<&str> {
        match self {
            FeatureSetting::Text(s) => Some(s),
            _ => None,
        }
    }
}

impl Feature {
    /// The value as the protocol types this feature.
    pub fn setting(&self) -> FeatureSetting {
        use FeatureValue as V;
        let malformed = || FeatureSetting::Malformed(self.value.clone());
        let name = self.name.as_str();
        if super::cecp::boolean_feature(name) {
            return match self.value {
                V::Int(0) => FeatureSetting::Flag(false),
                V::Int(1) => FeatureSetting::Flag(true),
                _ => malformed(),
            };
        }
        match (name, &self.value) {
            ("done", V::Int(n @ (0 | 1))) => FeatureSetting::Number(*n),
            ("done", _) => malformed(),
            ("option", V::Option(o)) => FeatureSetting::Option(o.clone()),
            ("option", _) => malformed(),
            // Unquoted, a string feature is still the engine's text (the syntax rule names
            // the missing quotes): the name an engine gives is its name.
            (_, V::Str(s) | V::Bare(s)) if super::cecp::FEATURES.contains(&name) => {
                FeatureSetting::Text(s.clone())
            }
            (_, V::Int(n)) if super::cecp::FEATURES.contains(&name) => {
                FeatureSetting::Text(n.to_string())
            }
            (_, V::Int(n)) => FeatureSetting::Number(*n),
            (_, V::Str(s)) => FeatureSetting::Text(s.clone()),
            _ => malformed(),
        }
    }
}

/// An engine-defined option: `NAME -TYPE ARGS` inside `feature option="..."`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionDef {
    pub name: String,
    pub kind: OptionKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionKind {
    Button,
    Save,
    Reset,
    Check(bool),
    String(String),
    Spin {
        value: i64,
        min: i64,
        max: i64,
    },
    Slider {
        value: i64,
        min: i64,
        max: i64,
    },
    /// Choices separated by `///` on the wire; the default is marked with a leading `*` by
    /// some engines, kept as sent.
    Combo(Vec<String>),
    File(String),
    Path(String),
    /// An unknown `-type`, or a known one whose arguments did not parse.
    Other {
        kind: String,
        args: String,
    },
}

/// A thinking-output line `ply score time nodes pv`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thinking {
    pub ply: u32,
    /// GNU Chess style puts a character after the ply (`9&`, `9.`, `3+`); its time is seconds.
    pub flag: Option<char>,
    pub score: i64,
    /// Centiseconds, or seconds when `flag` is set: see [`Thinking::time_centis`].
    pub time: u64,
    pub nodes: u64,
    /// Free text (may be SAN with move numbers, or `(e4 64%, d4 24%)` from a book).
    pub pv: String,
}

impl Thinking {
    pub fn time_centis(&self) -> u64 {
        if self.flag.is_some() {
            self.time.saturating_mul(100)
        } else {
            self.time
        }
    }
}

/// `stat01: time nodes ply mvleft mvtot [mvname]`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Stat01 {
    pub time: u64,
    pub nodes: u64,
    pub ply: u32,
    pub mvleft: u32,
    pub mvtot: u32,
    pub mvname: Option<String>,
}

pub fn parse(line: &str, d: &mut Vec<Diagnostic>) -> Msg {
    let lead = line.bytes().take_while(u8::is_ascii_whitespace).count();
    let trimmed = line.trim_ascii();
    if trimmed.is_empty() {
        return Msg::Empty;
    }
    if lead > 0 {
        // Four spaces continue a PV; `bk` text starts with a blank or a tab.
        let spaces = line.bytes().take_while(|b| *b == b' ').count();
        if spaces >= 4 || line.starts_with('\t') {
            return Msg::Continuation(trimmed.to_owned());
        }
        return match parse_trimmed(trimmed, d) {
            Msg::Unknown(s) => Msg::Continuation(s),
            m => m,
        };
    }
    parse_trimmed(trimmed, d)
}

// long: one arm a command word, most a line or two; the parse of every engine line goes
// through this one match.
fn parse_trimmed(line: &str, d: &mut Vec<Diagnostic>) -> Msg {
    let mut toks = Tokens::new(line);
    let Some(cmd) = toks.next() else {
        return Msg::Empty;
    };
    // Thinking output is most of the traffic: try it first, it fails fast on a non-digit.
    if cmd.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        if let Some(m) = parse_numeric(cmd, &mut toks.clone(), d) {
            return m;
        }
        // Four leading fields, the first a number: meant as thinking output, but not the
        // `ply score time nodes pv` integers.
        if line.split_ascii_whitespace().count() >= 5 && cmd.bytes().all(|b| b.is_ascii_digit()) {
            diag_rule(
                d,
                RuleId::CecpThinkingFormat,
                "thinking output whose ply, score, time and nodes are not all integers",
            );
            return Msg::Unknown(line.to_owned());
        }
    }
    match cmd {
        "feature" => {
            let rest = toks.peek_rest();
            return Msg::Feature(under_rule(d, RuleId::CecpFeatureSyntax, |d| {
                parse_features(rest, d)
            }));
        }
        "move" => {
            let m = toks.next().unwrap_or("");
            if m.is_empty() {
                diag(d, "move: missing move");
            }
            extra("move", &mut toks, d);
            return Msg::EngineMove(m.to_owned());
        }
        "pong" => {
            let n = toks.next().and_then(|t| t.parse().ok());
            if n.is_none() {
                diag(d, "pong: missing or bad number");
            }
            extra("pong", &mut toks, d);
            return Msg::Pong(n.unwrap_or(0));
        }
        "Error" => {
            let rest = toks.peek_rest();
            return under_rule(d, RuleId::CecpErrorFormat, |d| parse_error(rest, d));
        }
        // `Error: COMMAND` without the type: an error message, in the wrong form.
        "Error:" => {
            diag_rule(
                d,
                RuleId::CecpErrorFormat,
                "expected 'Error (TYPE): COMMAND', got 'Error: ...'",
            );
            return Msg::Error {
                kind: String::new(),
                command: toks.rest().to_owned(),
            };
        }
        "resign" => {
            extra("resign", &mut toks, d);
            return Msg::Resign;
        }
        "askuser" => {
            let tag = toks.next().unwrap_or("").to_owned();
            let text = toks.rest().to_owned();
            return Msg::AskUser { tag, text };
        }
        "Hint:" => {
            let m = toks.next().unwrap_or("");
            if m.is_empty() {
                diag(d, "Hint: missing move");
            }
            extra("Hint:", &mut toks, d);
            return Msg::HintMove(m.to_owned());
        }
        "setup" => return Msg::Setup(toks.rest().to_owned()),
        "piece" => return Msg::Piece(toks.rest().to_owned()),
        "highlight" => return Msg::Highlight(toks.rest().to_owned()),
        "click" => return Msg::Click(toks.rest().to_owned()),
        "choice" => return Msg::Choice(toks.rest().to_owned()),
        "stat01:" => {
            return under_rule(d, RuleId::CecpThinkingFormat, |d| {
                parse_stat01(&mut toks, d)
            });
        }
        "++" if toks.peek().is_none() => return Msg::FailHigh,
        "--" if toks.peek().is_none() => return Msg::FailLow,
        "offer" if toks.peek() == Some("draw") => {
            toks.next();
            extra("offer draw", &mut toks, d);
            return Msg::OfferDraw;
        }
        "1-0" | "0-1" | "1/2-1/2" | "*" => {
            let mut t = Tokens::new(line);
            let (result, comment) = result_and_comment(&mut t, d);
            return Msg::GameEnd { result, comment };
        }
        _ => {}
    }
    if let Some(kind) = TellKind::from_command(cmd) {
        return Msg::Tell {
            kind,
            text: toks.rest().to_owned(),
        };
    }
    if let Some(text) = line.strip_prefix('#') {
        return Msg::Debug(text.trim_ascii().to_owned());
    }
    // `Invalid move: sd 3`, `Invalid command: computer`: a refusal in neither of the
    // protocol's forms (xboard parses `Illegal move` and `Error (TYPE):`, not these).
    if let Some(rest) = line
        .strip_prefix("Invalid move")
        .or_else(|| line.strip_prefix("Invalid command"))
    {
        let command = rest.trim_start_matches(':').trim().to_owned();
        diag_rule(
            d,
            RuleId::CecpErrorFormat,
            format!(
                "`{line}`: a refusal is `Error (TYPE): COMMAND` (or `Illegal move: MOVE` for a move)"
            ),
        );
        return Msg::Error {
            kind: String::new(),
            command,
        };
    }
    if line.starts_with("Illegal move") || line.starts_with("illegal move") {
        return under_rule(d, RuleId::CecpIllegalMoveFormat, |d| parse_illegal(line, d));
    }
    for (prefix, idiom) in Idiom::PREFIXES {
        if line.starts_with(prefix) {
            return Msg::Idiom {
                idiom,
                text: line.to_owned(),
            };
        }
    }
    for prefix in ["my move is", "My move is"] {
        if let Some(rest) = line.strip_prefix(prefix) {
            let mv = rest.trim_start_matches(':').trim_ascii();
            if looks_like_move(mv) {
                diag_rule(
                    d,
                    RuleId::CecpLegacyForm,
                    format!("legacy '{prefix}' instead of 'move'"),
                );
                return Msg::EngineMove(mv.to_owned());
            }
        }
    }
    if has_word(line, "offer") && has_word(line, "draw") {
        diag(
            d,
            "legacy draw offer: a line with 'offer' and 'draw' counts as 'offer draw'",
        );
        return Msg::OfferDraw;
    }
    Msg::Unknown(line.to_owned())
}

fn has_word(line: &str, w: &str) -> bool {
    line.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|x| x == w)
}

fn extra(cmd: &str, toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) {
    let rest = toks.rest();
    if !rest.is_empty() {
        diag(d, format!("{cmd}: ignored extra '{rest}'"));
    }
}

/// Lines starting with a digit: thinking output, or the legacy `NUMBER ... MOVE`.
fn parse_numeric(first: &str, toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Option<Msg> {
    let digits = first.bytes().take_while(u8::is_ascii_digit).count();
    let (num, flag) = first.split_at_checked(digits)?;
    if toks.peek() == Some("...") {
        toks.next();
        let mv = toks.next()?;
        if !flag.is_empty() && flag != "." {
            return None;
        }
        diag_rule(
            d,
            RuleId::CecpLegacyForm,
            "legacy 'NUMBER ... MOVE' form of 'move MOVE'",
        );
        return Some(Msg::EngineMove(mv.to_owned()));
    }
    let mut fc = flag.chars();
    let flag = match (fc.next(), fc.next()) {
        (None, _) => None,
        (Some(c), None) => Some(c),
        _ => return None,
    };
    let ply = num.parse().ok()?;
    let score = toks.next()?.parse().ok()?;
    let time = toks.next()?.parse().ok()?;
    let nodes = toks.next()?.parse().ok()?;
    Some(Msg::Thinking(Thinking {
        ply,
        flag,
        score,
        time,
        nodes,
        pv: toks.rest().to_owned(),
    }))
}

fn parse_stat01(toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Msg {
    fn n<T: std::str::FromStr + Default>(
        name: &str,
        toks: &mut Tokens<'_>,
        d: &mut Vec<Diagnostic>,
    ) -> T {
        match toks.next().map(|t| t.parse()) {
            Some(Ok(v)) => v,
            _ => {
                diag(d, format!("stat01: missing or bad {name}"));
                T::default()
            }
        }
    }
    let s = Stat01 {
        time: n("time", toks, d),
        nodes: n("nodes", toks, d),
        ply: n("ply", toks, d),
        mvleft: n("mvleft", toks, d),
        mvtot: n("mvtot", toks, d),
        mvname: toks.next().map(str::to_owned),
    };
    extra("stat01", toks, d);
    Msg::Stat01(s)
}

/// Splits `REASON): REST` at the first `):` (a reason may hold parentheses), else at the
/// first `)` (GNU Chess 4 writes `(no matching move)e2e4`). The returned rest keeps the `:`.
fn split_paren(inner: &str) -> Option<(&str, &str)> {
    match inner.find("):") {
        Some(i) => Some((inner.get(..i)?, inner.get(i + 1..)?)),
        None => inner.split_once(')'),
    }
}

/// `Error (TYPE): COMMAND`.
fn parse_error(rest: &str, d: &mut Vec<Diagnostic>) -> Msg {
    if let Some(inner) = rest.strip_prefix('(')
        && let Some((kind, after)) = split_paren(inner)
    {
        let command = after.strip_prefix(':').unwrap_or_else(|| {
            diag(d, "Error: missing ':' after the type");
            after
        });
        return Msg::Error {
            kind: kind.to_owned(),
            command: command.trim_ascii().to_owned(),
        };
    }
    diag(d, "Error: expected 'Error (TYPE): COMMAND'");
    Msg::Error {
        kind: String::new(),
        command: rest.to_owned(),
    }
}

/// `Illegal move: M`, `Illegal move (REASON): M`, and the forms xboard tolerates: lowercase,
/// no colon, GNU Chess 4's `Illegal move (no matching move)e2e4`, old Crafty's bare `illegal move`.
fn parse_illegal(line: &str, d: &mut Vec<Diagnostic>) -> Msg {
    let mut rest = line.get("Illegal move".len()..).unwrap_or("").trim_start();
    if line.starts_with('i') {
        diag_rule(
            d,
            RuleId::CecpLegacyForm,
            "'illegal move' in lowercase (xboard accepts it)",
        );
    }
    let mut reason = None;
    if let Some(inner) = rest.strip_prefix('(')
        && let Some((r, after)) = split_paren(inner)
    {
        reason = Some(r.to_owned());
        rest = after;
    }
    let mv = match rest.strip_prefix(':') {
        Some(m) => m,
        None => {
            diag(d, "Illegal move: missing ':' before the move");
            rest
        }
    };
    Msg::IllegalMove {
        reason,
        mv: mv.trim_ascii().to_owned(),
    }
}

/// The `NAME=VALUE` pairs of a feature line: strings in double quotes may hold spaces.
pub(crate) fn parse_features(s: &str, d: &mut Vec<Diagnostic>) -> Vec<Feature> {
    let mut out = Vec::new();
    let mut rest = s.trim_ascii_start();
    while !rest.is_empty() {
        let name_end = rest
            .find(|c: char| c == '=' || c.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let (name, after) = rest.split_at_checked(name_end).unwrap_or((rest, ""));
        let value;
        if let Some(v) = after.strip_prefix('=') {
            if let Some(q) = v.strip_prefix('"') {
                match q.split_once('"') {
                    Some((inner, after_q)) => {
                        value = string_value(name, inner, d);
                        rest = after_q;
                    }
                    None => {
                        diag(d, format!("feature {name}: unterminated string"));
                        value = string_value(name, q, d);
                        rest = "";
                    }
                }
            } else {
                let end = v.find(|c: char| c.is_ascii_whitespace()).unwrap_or(v.len());
                let (tok, after_v) = v.split_at_checked(end).unwrap_or((v, ""));
                value = match tok.parse::<i64>() {
                    Ok(n) if !tok.starts_with('+') => FeatureValue::Int(n),
                    _ => {
                        diag(
                            d,
                            format!("feature {name}: unquoted non-integer value '{tok}'"),
                        );
                        FeatureValue::Bare(tok.to_owned())
                    }
                };
                rest = after_v;
            }
        } else {
            diag(d, format!("feature {name}: missing '=VALUE'"));
            value = FeatureValue::Bare(String::new());
            rest = after;
        }
        if name.is_empty() {
            diag(d, "feature: empty name");
        }
        out.push(Feature {
            name: name.to_owned(),
            value,
        });
        rest = rest.trim_ascii_start();
    }
    if out.is_empty() {
        diag(d, "feature: no features");
    }
    out
}

fn string_value(name: &str, inner: &str, d: &mut Vec<Diagnostic>) -> FeatureValue {
    if name == "option" {
        match OptionDef::parse(inner, d) {
            Some(o) => return FeatureValue::Option(o),
            None => diag(d, format!("feature option: cannot decode '{inner}'")),
        }
    }
    FeatureValue::Str(inner.to_owned())
}

const OPTION_KINDS: [&str; 10] = [
    "button", "save", "reset", "check", "string", "spin", "slider", "combo", "file", "path",
];

impl OptionDef {
    /// Decodes `NAME -TYPE ARGS`. The type is the first token `-WORD` naming a known type (a name
    /// like `Randomizer (0-50)` may hold dashes), else the first `-WORD` token at all.
    pub fn parse(s: &str, d: &mut Vec<Diagnostic>) -> Option<OptionDef> {
        let mut toks = Tokens::new(s);
        let mut found: Option<(usize, &str, bool)> = None;
        loop {
            let at = toks.offset();
            let Some(t) = toks.next() else { break };
            let Some(w) = t.strip_prefix('-') else {
                continue;
            };
            if OPTION_KINDS.contains(&w) {
                found = Some((at, w, true));
                break;
            }
            if found.is_none() && !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphabetic()) {
                found = Some((at, w, false));
            }
        }
        let (at, kind, known) = found?;
        let name = s.get(..at).unwrap_or("").trim_ascii().to_owned();
        if name.is_empty() {
            diag(d, "option: empty name");
        }
        let args = s
            .get(at + 1 + kind.len()..)
            .unwrap_or("")
            .trim_ascii()
            .to_owned();
        let other = |args: String| OptionKind::Other {
            kind: kind.to_owned(),
            args,
        };
        if !known {
            diag(d, format!("option '{name}': unknown type '-{kind}'"));
            return Some(OptionDef {
                name,
                kind: other(args),
            });
        }
        let ints = |args: &str| -> Option<(i64, i64, i64)> {
            let mut it = args.split_ascii_whitespace().map(str::parse::<i64>);
            let r = (it.next()?.ok()?, it.next()?.ok()?, it.next()?.ok()?);
            it.next().is_none().then_some(r)
        };
        let kind = match kind {
            "button" | "save" | "reset" if !args.is_empty() => {
                diag(d, format!("option '{name}': -{kind} takes no value"));
                other(args)
            }
            "button" => OptionKind::Button,
            "save" => OptionKind::Save,
            "reset" => OptionKind::Reset,
            "check" => match args.as_str() {
                "0" => OptionKind::Check(false),
                "1" => OptionKind::Check(true),
                _ => {
                    diag(d, format!("option '{name}': -check needs 0 or 1"));
                    other(args)
                }
            },
            "spin" | "slider" => match ints(&args) {
                Some((value, min, max)) if kind == "spin" => OptionKind::Spin { value, min, max },
                Some((value, min, max)) => OptionKind::Slider { value, min, max },
                None => {
                    diag(d, format!("option '{name}': -{kind} needs VALUE MIN MAX"));
                    other(args)
                }
            },
            "combo" => OptionKind::Combo(
                args.split("///")
                    .map(|c| c.trim_ascii().to_owned())
                    .collect(),
            ),
            "string" => OptionKind::String(args),
            "file" => OptionKind::File(args),
            _ => OptionKind::Path(args),
        };
        Some(OptionDef { name, kind })
    }
}

impl fmt::Display for OptionDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.name)?;
        let (kind, args): (&str, String) = match &self.kind {
            OptionKind::Button => ("button", String::new()),
            OptionKind::Save => ("save", String::new()),
            OptionKind::Reset => ("reset", String::new()),
            OptionKind::Check(b) => ("check", u8::from(*b).to_string()),
            OptionKind::String(s) => ("string", s.clone()),
            OptionKind::Spin { value, min, max } => ("spin", format!("{value} {min} {max}")),
            OptionKind::Slider { value, min, max } => ("slider", format!("{value} {min} {max}")),
            OptionKind::Combo(c) => ("combo", c.join(" /// ")),
            OptionKind::File(s) => ("file", s.clone()),
            OptionKind::Path(s) => ("path", s.clone()),
            OptionKind::Other { kind, args } => (kind.as_str(), args.clone()),
        };
        write!(f, "-{kind}")?;
        if !args.is_empty() {
            write!(f, " {args}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.value {
            FeatureValue::Int(n) => write!(f, "{}={n}", self.name),
            FeatureValue::Str(s) => write!(f, "{}=\"{s}\"", self.name),
            FeatureValue::Option(o) => write!(f, "{}=\"{o}\"", self.name),
            FeatureValue::Bare(s) if s.is_empty() => f.write_str(&self.name),
            FeatureValue::Bare(s) => write!(f, "{}={s}", self.name),
        }
    }
}

impl fmt::Display for FeatureSetting {
    /// The value as a feature line writes it (`1`, `"1"` for a malformed quoted boolean).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FeatureSetting::Flag(b) => write!(f, "{}", u8::from(*b)),
            FeatureSetting::Number(n) => write!(f, "{n}"),
            FeatureSetting::Text(s) => f.write_str(s),
            FeatureSetting::Option(o) => write!(f, "{o}"),
            FeatureSetting::Malformed(FeatureValue::Int(n)) => write!(f, "{n}"),
            FeatureSetting::Malformed(FeatureValue::Str(s)) => write!(f, "\"{s}\""),
            FeatureSetting::Malformed(FeatureValue::Option(o)) => write!(f, "\"{o}\""),
            FeatureSetting::Malformed(FeatureValue::Bare(s)) => f.write_str(s),
        }
    }
}

impl fmt::Display for Thinking {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.ply)?;
        if let Some(c) = self.flag {
            write!(f, "{c}")?;
        }
        write!(f, " {} {} {}", self.score, self.time, self.nodes)?;
        if !self.pv.is_empty() {
            write!(f, " {}", self.pv)?;
        }
        Ok(())
    }
}

impl fmt::Display for Stat01 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "stat01: {} {} {} {} {}",
            self.time, self.nodes, self.ply, self.mvleft, self.mvtot
        )?;
        if let Some(m) = &self.mvname {
            write!(f, " {m}")?;
        }
        Ok(())
    }
}
