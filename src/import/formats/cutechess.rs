//! cutechess-cli stdout (with or without `-debug`) and the Cute Chess GUI debug pane.
//!
//! Traffic is `[<ms> ](>|<)Name(id): text`; the session label is `Name(id)` (the id is a
//! per-process engine instance counter, not a side). Names may contain spaces and parentheses,
//! so the *last* `(digits):` ends the name. The tournament lines (`Started game`, `Finished
//! game`, `Terminating process of engine`, `Warning: ...`, score tables) become proxy events.

use super::Parser;
use crate::import::builder::{Builder, Sid};
use crate::import::clock::{Stamp, millis_then_space};
use crate::import::lines::{find, trim_start};
use crate::recording::{ProxyKind, Source};

#[derive(Default)]
pub struct Cutechess;

/// `Name(id): payload` after the direction char → (label, payload).
///
/// The label ends at the first `(digits):` followed by a space or the line end. (log-formats.md
/// suggests the last one, but payloads such as `info string x(3): y` contain that shape too,
/// while real engine names with `(digits):` inside have not been seen.)
pub fn split_label(rest: &[u8]) -> Option<(&[u8], &[u8])> {
    let mut from = 0;
    // Labels are short: a byte loop reaches their `)` before a vector search is set up.
    while let Some(off) = rest.get(from..)?.iter().position(|&c| c == b')') {
        let close = from + off;
        if rest.get(close + 1) != Some(&b':') {
            from = close + 1;
            continue;
        }
        let open = rest.get(..close)?.iter().rposition(|&c| c == b'(');
        if let Some(open) = open {
            let id = rest.get(open + 1..close)?;
            let ok_after = rest.get(close + 2).is_none_or(|&c| c == b' ');
            if !id.is_empty() && id.iter().all(u8::is_ascii_digit) && ok_after && open > 0 {
                let label = rest.get(..=close)?;
                let after = rest.get(close + 2..).unwrap_or(&[]);
                return Some((label, after.strip_prefix(b" ").unwrap_or(after)));
            }
        }
        from = close + 2;
    }
    None
}

/// A traffic line → (stamp, is_send, label, payload).
type Traffic<'a> = (Option<i128>, bool, &'a [u8], &'a [u8]);

pub fn split_traffic(line: &[u8]) -> Option<Traffic<'_>> {
    let (stamp, rest) = match millis_then_space(line) {
        Some((ns, used)) => (Some(ns), line.get(used..)?),
        None => (None, trim_start(line)),
    };
    let send = match rest.first()? {
        b'>' => true,
        b'<' => false,
        _ => return None,
    };
    let (label, payload) = split_label(rest.get(1..)?)?;
    Some((stamp, send, label, payload))
}

/// `Name(id)` mentioned inside a tool line, if it names a known session.
fn named_session(text: &[u8], b: &mut Builder) -> Option<Sid> {
    let mut from = 0;
    while let Some(off) = text.get(from..).and_then(|r| find(r, b"(")) {
        let open = from + off;
        let close = open + text.get(open..)?.iter().position(|&c| c == b')')?;
        let id = text.get(open + 1..close)?;
        if !id.is_empty() && id.iter().all(u8::is_ascii_digit) {
            // Names may contain spaces: try every start after a space or ": ".
            for start in (0..open).rev() {
                if start == 0 || text.get(start - 1) == Some(&b' ') {
                    let label = String::from_utf8_lossy(text.get(start..=close)?);
                    if b.has_session(&label) {
                        return Some(b.session(&label));
                    }
                }
            }
        }
        from = close + 1;
    }
    None
}

/// `Finished game 3 (A vs B): 1-0 {reason}` → result.
fn result_of(line: &[u8]) -> Option<String> {
    let colon = find(line, b"): ")?;
    let rest = line.get(colon + 3..)?;
    let end = rest.iter().position(|&c| c == b' ').unwrap_or(rest.len());
    let r = rest.get(..end)?;
    matches!(r, b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
        .then(|| String::from_utf8_lossy(r).into_owned())
}

impl Parser for Cutechess {
    fn line(&mut self, line: &[u8], b: &mut Builder) {
        if let Some((stamp, send, label, payload)) = split_traffic(line) {
            let t = b.t(stamp.map(Stamp::Relative));
            let sid = b.session_of(label);
            let src = if send { Source::Gui } else { Source::Engine };
            b.traffic(sid, src, t, payload);
            return;
        }
        let (stamp, text) = match millis_then_space(line) {
            Some((ns, used)) => (Some(Stamp::Relative(ns)), line.get(used..).unwrap_or(&[])),
            None => (None, line),
        };
        let t = b.t(stamp);
        let text = trim_start(text);
        if text.starts_with(b"Started game ") {
            let sid = b.tool();
            b.proxy(sid, ProxyKind::GameStarted, t, text);
        } else if text.starts_with(b"Finished game ") {
            let sid = b.tool();
            let result = result_of(text);
            let adjudicated = find(text, b"adjudication").is_some();
            if let Some(e) = b.proxy(sid, ProxyKind::GameFinished, t, text) {
                e.result = result;
            }
            if adjudicated {
                b.proxy(sid, ProxyKind::Adjudication, t, text);
            }
        } else if text.starts_with(b"Terminating process of engine ") {
            let sid = named_session(text, b).unwrap_or_else(|| b.tool());
            b.proxy(sid, ProxyKind::Killed, t, text);
        } else if text.starts_with(b"Warning:") || text.starts_with(b"Error:") {
            let sid = named_session(text, b).unwrap_or_else(|| b.tool());
            b.proxy(sid, ProxyKind::Warning, t, text);
        } else {
            // Score tables, `Elo difference`, `Finished match`, `Debug:` lines.
            let sid = b.tool();
            b.proxy(sid, ProxyKind::Note, t, text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_with_parentheses_and_braces() {
        let (s, send, l, p) = split_traffic(b">Carballo (1.7) {Official}(0): go wtime 1").unwrap();
        assert_eq!(
            (s, send, l, p),
            (
                None,
                true,
                &b"Carballo (1.7) {Official}(0)"[..],
                &b"go wtime 1"[..]
            )
        );
        let (s, _, l, p) = split_traffic(b"452 >SF-Debug2(1): position startpos").unwrap();
        assert_eq!(
            (s, l, p),
            (
                Some(452_000_000),
                &b"SF-Debug2(1)"[..],
                &b"position startpos"[..]
            )
        );
        let (_, send, l, p) = split_traffic(b"<Carballo (1.6) {Official}(1):").unwrap();
        assert_eq!(
            (send, l, p),
            (false, &b"Carballo (1.6) {Official}(1)"[..], &b""[..])
        );
        // An info line whose payload itself contains "(3): ".
        let (_, _, l, p) = split_traffic(b"<E(2): info string x(3): y").unwrap();
        assert_eq!((l, p), (&b"E(2)"[..], &b"info string x(3): y"[..]));
        assert!(split_traffic(b"Started game 1 of 5 (A vs B)").is_none());
        assert_eq!(
            result_of(b"Finished game 1 (A vs B): 0-1 {White's connection stalls}").as_deref(),
            Some("0-1")
        );
    }
}
