//! Small single-engine formats with fixed markers: c-chess-cli (and Qapla), Nibbler,
//! En Croissant, Edax and InBetween-style logs.

use super::Parser;
use crate::import::builder::Builder;
use crate::import::clock::{Stamp, seconds_frac};
use crate::import::lines::find;
use crate::recording::{ProxyKind, Source};

/// c-chess-cli `-log` (and Qapla): `name <- cmd` (to the engine), `name -> line` (from it),
/// plus `deadline...` lines. Sessions are engine names.
pub struct CChessCli;

pub fn cchess_split(line: &[u8]) -> Option<(&[u8], bool, &[u8])> {
    let to = find(line, b" <- ");
    let from = find(line, b" -> ");
    let (i, send) = match (to, from) {
        (Some(a), Some(c)) => (a.min(c), a < c),
        (Some(a), None) => (a, true),
        (None, Some(c)) => (c, false),
        (None, None) => return None,
    };
    let name = line.get(..i)?;
    if name.is_empty() {
        return None;
    }
    Some((name, send, line.get(i + 4..)?))
}

impl Parser for CChessCli {
    fn line(&mut self, line: &[u8], b: &mut Builder) {
        let t = b.t(None);
        if let Some((name, send, payload)) = cchess_split(line) {
            let sid = b.session_of(name);
            b.traffic(
                sid,
                if send { Source::Gui } else { Source::Engine },
                t,
                payload,
            );
        } else if line.starts_with(b"deadline") {
            let kind = if find(line, b"failed").is_some() {
                ProxyKind::Warning
            } else {
                ProxyKind::Note
            };
            let tool = b.tool();
            b.proxy(tool, kind, t, line);
        } else {
            b.unclassified(line, "no c-chess-cli `name <- `/`name -> ` marker");
        }
    }
}

/// Nibbler: `--> cmd`, `< line`, `. stderr`, `(reason) --> `/`(reason) < ` and its own lines.
/// A `(failed) -->` send never reached the engine and becomes a warning; `(ignore ...) <`
/// lines did arrive from the engine and stay engine traffic.
pub struct Nibbler;

impl Parser for Nibbler {
    fn line(&mut self, line: &[u8], b: &mut Builder) {
        let t = b.t(None);
        let sid = b.session("engine");
        let (reason, body) = match line.strip_prefix(b"(").and_then(|r| {
            let c = r.iter().position(|&c| c == b')')?;
            Some((r.get(..c)?, r.get(c + 1..)?.strip_prefix(b" ")?))
        }) {
            Some((r, body)) => (Some(r), body),
            None => (None, line),
        };
        if let Some(p) = body.strip_prefix(b"--> ") {
            if reason == Some(b"failed") {
                b.proxy(sid, ProxyKind::Warning, t, line);
            } else {
                b.traffic(sid, Source::Gui, t, p);
            }
        } else if let Some(p) = body.strip_prefix(b"< ") {
            b.traffic(sid, Source::Engine, t, p);
        } else if let Some(p) = body.strip_prefix(b". ") {
            b.traffic(sid, Source::Stderr, t, p);
        } else if line.starts_with(b"Launching ") {
            b.proxy(sid, ProxyKind::EngineStarted, t, line);
        } else {
            b.proxy(sid, ProxyKind::Note, t, line);
        }
    }
}

/// En Croissant `logs.csv`: `gui, cmd` / `engine, line`, possibly CSV-quoted.
pub struct EnCroissant;

fn unquote(field: &[u8]) -> Vec<u8> {
    match field
        .strip_prefix(b"\"")
        .and_then(|f| f.strip_suffix(b"\""))
    {
        Some(inner) => {
            let mut out = Vec::with_capacity(inner.len());
            let mut i = 0;
            while let Some(&c) = inner.get(i) {
                out.push(c);
                i += if c == b'"' && inner.get(i + 1) == Some(&b'"') {
                    2
                } else {
                    1
                };
            }
            out
        }
        None => field.to_vec(),
    }
}

impl Parser for EnCroissant {
    fn line(&mut self, line: &[u8], b: &mut Builder) {
        let t = b.t(None);
        let sid = b.session("engine");
        if let Some(p) = line
            .strip_prefix(b"gui, ")
            .or_else(|| line.strip_prefix(b"gui,"))
        {
            b.traffic(sid, Source::Gui, t, &unquote(p));
        } else if let Some(p) = line
            .strip_prefix(b"engine, ")
            .or_else(|| line.strip_prefix(b"engine,"))
        {
            b.traffic(sid, Source::Engine, t, &unquote(p));
        } else {
            b.unclassified(line, "not a `gui, `/`engine, ` CSV row");
        }
    }
}

/// Edax's NBoard-mode log: `received< "cmd param"`, `sent> "line"`, `error> "msg"` (what Edax
/// printed on stderr), `edax> search result` and board dumps (notes).
pub struct Edax;

impl Parser for Edax {
    fn line(&mut self, line: &[u8], b: &mut Builder) {
        let t = b.t(None);
        let sid = b.session("edax");
        let quoted = |r: &[u8]| -> Vec<u8> {
            let r = r.strip_prefix(b"\"").unwrap_or(r);
            let r = r.strip_suffix(b"\"").unwrap_or(r);
            // `received< "go "`: Edax prints command and (empty) parameter with a space between.
            r.strip_suffix(b" ").unwrap_or(r).to_vec()
        };
        if let Some(r) = line.strip_prefix(b"received< ") {
            b.traffic(sid, Source::Gui, t, &quoted(r));
        } else if let Some(r) = line.strip_prefix(b"sent> ") {
            b.traffic(sid, Source::Engine, t, &quoted(r));
        } else if let Some(r) = line.strip_prefix(b"error> ") {
            b.traffic(sid, Source::Stderr, t, &quoted(r));
        } else {
            b.proxy(sid, ProxyKind::Note, t, line);
        }
    }
}

/// InBetween-style `sss.mmm: > cmd` / `sss.mmm: < line` (seconds since start).
pub struct Inbetween;

impl Parser for Inbetween {
    fn line(&mut self, line: &[u8], b: &mut Builder) {
        let sid = b.session("engine");
        let Some((ns, used)) = seconds_frac(line) else {
            b.unclassified(line, "no `seconds.ms: ` prefix");
            return;
        };
        let t = b.t(Some(Stamp::Relative(ns)));
        let rest = line.get(used..).unwrap_or(&[]);
        let rest = rest.strip_prefix(b": ").unwrap_or(rest);
        if let Some(p) = rest
            .strip_prefix(b"> ")
            .or_else(|| (rest == b">").then_some(&b""[..]))
        {
            b.traffic(sid, Source::Gui, t, p);
        } else if let Some(p) = rest
            .strip_prefix(b"< ")
            .or_else(|| (rest == b"<").then_some(&b""[..]))
        {
            b.traffic(sid, Source::Engine, t, p);
        } else {
            b.proxy(sid, ProxyKind::Note, t, rest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cchess_names_with_paths() {
        let (n, s, p) = cchess_split(b"../fridolin/200/src/Fridolin <- uci").unwrap();
        assert_eq!(
            (n, s, p),
            (&b"../fridolin/200/src/Fridolin"[..], true, &b"uci"[..])
        );
        assert!(cchess_split(b"etc.").is_none());
    }

    #[test]
    fn csv_unquote() {
        assert_eq!(unquote(b"\"say \"\"hi\"\"\""), b"say \"hi\"");
        assert_eq!(unquote(b"uci"), b"uci");
    }
}
