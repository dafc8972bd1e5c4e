//! CECP section 8: commands from the GUI to the engine.

use super::cecp::{GameResult, Level, MoveSel, Msg, looks_like_move};
use super::tokens::Tokens;
use super::{Diagnostic, diag};

pub fn parse(line: &str, d: &mut Vec<Diagnostic>) -> Msg {
    let mut toks = Tokens::new(line);
    let Some(cmd) = toks.next() else {
        return Msg::Empty;
    };
    let simple = match cmd {
        "xboard" => Some(Msg::Xboard),
        "new" => Some(Msg::New),
        "quit" => Some(Msg::Quit),
        "random" => Some(Msg::Random),
        "force" => Some(Msg::Force),
        "go" => Some(Msg::Go),
        "playother" => Some(Msg::PlayOther),
        "white" => Some(Msg::White),
        "black" => Some(Msg::Black),
        "?" => Some(Msg::MoveNow),
        "draw" => Some(Msg::Draw),
        "edit" => Some(Msg::Edit),
        "c" => Some(Msg::EditColor),
        "#" => Some(Msg::EditClear),
        "." => Some(Msg::Dot),
        "hint" => Some(Msg::Hint),
        "bk" => Some(Msg::Bk),
        "undo" => Some(Msg::Undo),
        "remove" => Some(Msg::Remove),
        "hard" => Some(Msg::Hard),
        "easy" => Some(Msg::Easy),
        "post" => Some(Msg::Post),
        "nopost" => Some(Msg::NoPost),
        "analyze" => Some(Msg::Analyze),
        "exit" => Some(Msg::Exit),
        "computer" => Some(Msg::Computer),
        "pause" => Some(Msg::Pause),
        "resume" => Some(Msg::Resume),
        _ => None,
    };
    if let Some(m) = simple {
        let rest = toks.rest();
        if !rest.is_empty() {
            diag(d, format!("'{cmd}' takes no arguments; ignored '{rest}'"));
        }
        return m;
    }
    match cmd {
        "protover" => Msg::Protover(num_end(cmd, &mut toks, d).unwrap_or(0)),
        "accepted" => Msg::Accepted(text(cmd, &mut toks, d)),
        "rejected" => Msg::Rejected(text(cmd, &mut toks, d)),
        "variant" => Msg::Variant(one(cmd, &mut toks, d)),
        "level" => Msg::Level(parse_level(&mut toks, d)),
        "st" => Msg::St(num_end(cmd, &mut toks, d).unwrap_or(0)),
        "sd" => Msg::Sd(num_end(cmd, &mut toks, d).unwrap_or(0)),
        "nps" => Msg::Nps(num_end(cmd, &mut toks, d).unwrap_or(0)),
        "time" => Msg::Time(num_end(cmd, &mut toks, d).unwrap_or(0)),
        "otim" => Msg::Otim(num_end(cmd, &mut toks, d).unwrap_or(0)),
        "usermove" => {
            let m = one(cmd, &mut toks, d);
            if !m.is_empty() && !looks_like_move(&m) {
                diag(d, format!("usermove: '{m}' does not look like a move"));
            }
            Msg::UserMove(m)
        }
        "ping" => Msg::Ping(num_end(cmd, &mut toks, d).unwrap_or(0)),
        "result" => parse_result(&mut toks, d),
        "setboard" => Msg::SetBoard(text(cmd, &mut toks, d)),
        "name" => Msg::Name(text(cmd, &mut toks, d)),
        "rating" => {
            let own = num(cmd, &mut toks, d).unwrap_or(0);
            let opponent = num(cmd, &mut toks, d).unwrap_or(0);
            end(cmd, &mut toks, d);
            Msg::Rating { own, opponent }
        }
        "ics" => Msg::Ics(text(cmd, &mut toks, d)),
        "memory" => Msg::Memory(num_end(cmd, &mut toks, d).unwrap_or(0)),
        "cores" => Msg::Cores(num_end(cmd, &mut toks, d).unwrap_or(0)),
        "egtpath" => {
            let kind = toks.next().unwrap_or("").to_owned();
            let path = toks.rest().to_owned();
            if path.is_empty() {
                diag(d, "egtpath: expected TYPE PATH");
            }
            Msg::EgtPath { kind, path }
        }
        "option" => {
            let rest = text(cmd, &mut toks, d);
            match rest.split_once('=') {
                Some((n, v)) => Msg::SetOption {
                    name: n.trim_ascii().to_owned(),
                    value: Some(v.to_owned()),
                },
                None => Msg::SetOption {
                    name: rest,
                    value: None,
                },
            }
        }
        "exclude" => Msg::Exclude(move_sel(cmd, &mut toks, d)),
        "include" => Msg::Include(move_sel(cmd, &mut toks, d)),
        "setscore" => {
            let score = num(cmd, &mut toks, d).unwrap_or(0);
            let depth = num(cmd, &mut toks, d).unwrap_or(0);
            end(cmd, &mut toks, d);
            Msg::SetScore { score, depth }
        }
        "lift" => Msg::Lift(one(cmd, &mut toks, d)),
        "put" => Msg::Put(one(cmd, &mut toks, d)),
        "hover" => Msg::Hover(one(cmd, &mut toks, d)),
        "partner" => {
            let p = toks.rest();
            Msg::Partner((!p.is_empty()).then(|| p.to_owned()))
        }
        "ptell" => Msg::Ptell(toks.rest().to_owned()),
        "holding" => Msg::Holding(text(cmd, &mut toks, d)),
        _ => bare(cmd, &mut toks, line, d),
    }
}

/// A line that is not a command word: a move, an edit-mode `xa4`, or unknown.
fn bare(cmd: &str, toks: &mut Tokens<'_>, line: &str, d: &mut Vec<Diagnostic>) -> Msg {
    if looks_like_move(cmd) {
        end(cmd, toks, d);
        return Msg::Move(cmd.to_owned());
    }
    if let Some(sq) = cmd.strip_prefix('x')
        && super::cecp::edit_placement(&format!("P{sq}")).is_some()
    {
        end(cmd, toks, d);
        return Msg::EditEmpty(sq.to_owned());
    }
    Msg::Unknown(line.trim_ascii().to_owned())
}

fn end(cmd: &str, toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) {
    let rest = toks.rest();
    if !rest.is_empty() {
        diag(d, format!("{cmd}: ignored extra '{rest}'"));
    }
}

fn num<T: std::str::FromStr>(
    cmd: &str,
    toks: &mut Tokens<'_>,
    d: &mut Vec<Diagnostic>,
) -> Option<T> {
    match toks.next() {
        None => {
            diag(d, format!("{cmd}: missing number"));
            None
        }
        Some(t) => match t.parse() {
            Ok(v) => Some(v),
            Err(_) => {
                diag(d, format!("{cmd}: bad number '{t}'"));
                None
            }
        },
    }
}

fn num_end<T: std::str::FromStr>(
    cmd: &str,
    toks: &mut Tokens<'_>,
    d: &mut Vec<Diagnostic>,
) -> Option<T> {
    let v = num(cmd, toks, d);
    end(cmd, toks, d);
    v
}

/// The rest of the line as free text; missing text is a diagnostic.
fn text(cmd: &str, toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> String {
    let r = toks.rest();
    if r.is_empty() {
        diag(d, format!("{cmd}: missing argument"));
    }
    r.to_owned()
}

/// Exactly one token.
fn one(cmd: &str, toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> String {
    let t = match toks.next() {
        Some(t) => t.to_owned(),
        None => {
            diag(d, format!("{cmd}: missing argument"));
            String::new()
        }
    };
    end(cmd, toks, d);
    t
}

fn move_sel(cmd: &str, toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> MoveSel {
    let t = one(cmd, toks, d);
    if t == "all" {
        MoveSel::All
    } else {
        MoveSel::Move(t)
    }
}

/// `result RESULT {COMMENT}`, also used for the engine's bare `RESULT {COMMENT}`.
pub(crate) fn result_and_comment(
    toks: &mut Tokens<'_>,
    d: &mut Vec<Diagnostic>,
) -> (GameResult, Option<String>) {
    let result = match toks.next() {
        Some(t) => GameResult::from_token(t).unwrap_or_else(|| {
            diag(d, format!("result: unknown result '{t}'"));
            GameResult::Unfinished
        }),
        None => {
            diag(d, "result: missing result");
            GameResult::Unfinished
        }
    };
    let rest = toks.rest();
    let comment = if rest.is_empty() {
        None
    } else if let Some(inner) = rest.strip_prefix('{') {
        match inner.strip_suffix('}') {
            Some(c) => Some(c.to_owned()),
            None => {
                diag(d, "result: comment without closing '}'");
                Some(inner.to_owned())
            }
        }
    } else {
        diag(d, "result: comment not in braces");
        Some(rest.to_owned())
    };
    (result, comment)
}

fn parse_result(toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Msg {
    let (result, comment) = result_and_comment(toks, d);
    Msg::Result { result, comment }
}

/// `level MPS BASE INC`: BASE is `MIN` or `MIN:SEC` (trailing characters tolerated), INC in
/// seconds, possibly fractional.
fn parse_level(toks: &mut Tokens<'_>, d: &mut Vec<Diagnostic>) -> Level {
    let mut l = Level {
        mps: num("level MPS", toks, d).unwrap_or(0),
        ..Level::default()
    };
    match toks.next() {
        Some(base) => {
            let (minutes, after) = split_digits(base);
            let mut secs = 0u64;
            let mut suffix = after;
            if minutes.is_empty() {
                diag(d, format!("level: bad BASE '{base}'"));
            }
            if let Some(s) = after.strip_prefix(':') {
                let (sec, after_sec) = split_digits(s);
                if sec.is_empty() {
                    diag(d, format!("level: bad seconds in BASE '{base}'"));
                } else {
                    secs = sec.parse().unwrap_or(0);
                    suffix = after_sec;
                }
            }
            let minutes: u64 = minutes.parse().unwrap_or(0);
            l.base_seconds = minutes.saturating_mul(60).saturating_add(secs);
            l.base_suffix = suffix.to_owned();
        }
        None => diag(d, "level: missing BASE"),
    }
    match toks.next() {
        Some(inc) => match seconds_to_ms(inc) {
            Some(ms) => l.inc_ms = ms,
            None => diag(d, format!("level: bad INC '{inc}'")),
        },
        None => diag(d, "level: missing INC"),
    }
    end("level", toks, d);
    l
}

fn split_digits(s: &str) -> (&str, &str) {
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    (s.get(..n).unwrap_or(""), s.get(n..).unwrap_or(""))
}

/// `12` or `0.5` seconds to milliseconds (sub-millisecond digits are dropped).
pub(crate) fn seconds_to_ms(s: &str) -> Option<u64> {
    let (whole, frac) = match s.split_once('.') {
        Some((w, f)) => (w, f),
        None => (s, ""),
    };
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    if !whole.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let w: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let mut ms = 0u64;
    for (i, b) in frac.bytes().take(3).enumerate() {
        ms += u64::from(b - b'0') * [100, 10, 1][i];
    }
    w.checked_mul(1000)?.checked_add(ms)
}
