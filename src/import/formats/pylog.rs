//! python-chess `chess.engine` logging, under any logging prefix (`DEBUG:chess.engine:`,
//! lichess-bot's `asctime name (file:line) LEVEL`, 2022 lichess-bot `asctime:   `, or a custom
//! `asctime - name - LEVEL - `).
//!
//! Without the anchor, python-chess's arrows after any prefix are traffic too: a 2019
//! lichess-bot fork writes `2019-08-12 18:04:10,503: << isready`, python-chess 0.2x
//! `<chess.engine.PopenProcess object at 0x7f..> >> readyok`. The arrow must stand at the
//! start of a word; what the prefix holds besides a time stamp names the session when it is a
//! `<...>` process (else `engine`).
//!
//! The anchor is `<XxxProtocol (pid=N)>: ` anywhere in the line; what follows is `<< ` (sent to
//! the engine), `>> ` (received), `stderr >> `, or a lifecycle message. Sessions are `pid=N`.
//! A leading `YYYY-MM-DD HH:MM:SS[,.]mmm` is used as the time. Lines without the anchor but
//! with a logging prefix are the application's own lines (notes; warnings at WARNING level and
//! above). Bare lines continue the previous record: a traffic line ending in `\` (wrapped
//! CECP `feature` lines) is joined with the backslash removed; anything else (tracebacks)
//! becomes a note.

use super::Parser;
use crate::import::builder::{Builder, Sid};
use crate::import::clock::{Stamp, date_time};
use crate::import::lines::{digits, find, trim_start};
use crate::recording::{ProxyKind, Source};

#[derive(Default)]
pub struct PyLog {
    /// Session of the last traffic line whose text ended in a backslash.
    wrapped: Option<Sid>,
}

/// `<UciProtocol (pid=4808)>: ` → (protocol, pid, offset of the anchor, rest).
type Anchor<'a> = (&'a [u8], &'a [u8], usize, &'a [u8]);

pub fn anchor(line: &[u8]) -> Option<Anchor<'_>> {
    let p = find(line, b"Protocol (pid=")?;
    let open = line.get(..p)?.iter().rposition(|&c| c == b'<')?;
    let proto = line.get(open + 1..p)?;
    if proto.is_empty()
        || !proto
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'_')
    {
        return None;
    }
    let after = line.get(p + 14..)?;
    let (_, n) = digits(after);
    let pid = after.get(..n)?;
    let rest = after.get(n..)?.strip_prefix(b")>:")?;
    Some((proto, pid, open, rest.strip_prefix(b" ").unwrap_or(rest)))
}

/// python-chess's arrow after an arbitrary prefix: (position of the arrow, source, payload).
/// `<< ` is what was sent to the engine, `>> ` what was read from it, `stderr >> ` its stderr.
pub fn arrow(line: &[u8]) -> Option<(usize, Source, &[u8])> {
    let mut from = 0;
    while let Some(rel) = memchr::memchr2(b'<', b'>', line.get(from..)?) {
        let i = from + rel;
        from = i + 1;
        let glyph = line[i];
        if line.get(i + 1) != Some(&glyph) || !matches!(line.get(i + 2), Some(b' ') | None) {
            continue;
        }
        // At the start of a word, and not a longer run (`<<<`, `>>>`).
        if i > 0 && line.get(i - 1) != Some(&b' ') {
            continue;
        }
        let payload = line.get(i + 3..).unwrap_or(&[]);
        let src = if glyph == b'<' {
            Source::Gui
        } else if line.get(..i).is_some_and(|p| p.ends_with(b"stderr ")) {
            Source::Stderr
        } else {
            Source::Engine
        };
        return Some((i, src, payload));
    }
    None
}

/// The session an anchorless arrow line belongs to: a `<...>` process object in its prefix,
/// else the log's one engine.
fn arrow_session(prefix: &[u8]) -> String {
    let p = trim_start(prefix);
    let p = p.strip_suffix(b"stderr ").unwrap_or(p);
    let p = p.trim_ascii_end();
    let p = p.strip_suffix(b":").unwrap_or(p).trim_ascii_end();
    match (p.iter().position(|&c| c == b'<'), p.last()) {
        (Some(open), Some(b'>')) => String::from_utf8_lossy(&p[open..]).into_owned(),
        _ => "engine".to_owned(),
    }
}

const LEVELS: [&[u8]; 5] = [b"DEBUG", b"INFO", b"WARNING", b"ERROR", b"CRITICAL"];

/// Does the wrapper (text before the message) carry a logging level of WARNING or above?
fn is_warning(wrapper: &[u8]) -> bool {
    [&b"WARNING"[..], b"ERROR", b"CRITICAL"]
        .iter()
        .any(|l| find(wrapper, l).is_some())
}

/// Has the line a logging prefix (time stamp or `LEVEL:logger:`)?
fn has_wrapper(line: &[u8]) -> bool {
    date_time(line).is_some()
        || LEVELS
            .iter()
            .any(|l| line.starts_with(l) && line.get(l.len()) == Some(&b':'))
}

/// Position where the application's message starts after a logging prefix.
fn message_start(line: &[u8]) -> usize {
    // `LEVEL:logger:message`
    for l in LEVELS {
        if let Some(r) = line.strip_prefix(l).and_then(|r| r.strip_prefix(b":"))
            && let Some(c) = r.iter().position(|&c| c == b':')
        {
            return l.len() + 1 + c + 1;
        }
    }
    // lichess-bot / custom: after the level word.
    for l in LEVELS {
        if let Some(i) = find(line, l) {
            let mut j = i + l.len();
            if line.get(j..).is_some_and(|r| r.starts_with(b" - ")) {
                j += 3;
            }
            return j;
        }
    }
    // 2022 lichess-bot: `asctime:   message`.
    if let Some((_, used)) = date_time(line) {
        let r = line.get(used..).unwrap_or(&[]);
        let r2 = r.strip_prefix(b":").unwrap_or(r);
        return line.len() - trim_start(r2).len();
    }
    0
}

impl Parser for PyLog {
    fn edits_earlier_lines(&self) -> bool {
        true
    }

    fn line(&mut self, line: &[u8], b: &mut Builder) {
        let stamp = date_time(line).map(|(ns, _)| Stamp::Absolute(ns));
        let t = b.t(stamp);
        if let Some((proto, pid, open, rest)) = anchor(line) {
            self.wrapped = None;
            let label = format!("pid={}", String::from_utf8_lossy(pid));
            let sid = b.session(&label);
            if let Some(h) = b.header(sid)
                && h.protocol.is_none()
            {
                h.protocol = match proto {
                    b"Uci" => Some("uci".into()),
                    b"XBoard" => Some("xboard".into()),
                    _ => None,
                };
            }
            let (src, payload) = if let Some(p) = rest.strip_prefix(b"<< ") {
                (Some(Source::Gui), p)
            } else if let Some(p) = rest.strip_prefix(b"stderr >> ") {
                (Some(Source::Stderr), p)
            } else if let Some(p) = rest.strip_prefix(b">> ") {
                (Some(Source::Engine), p)
            } else if matches!(rest, b"<<" | b">>") {
                (
                    Some(if rest == b"<<" {
                        Source::Gui
                    } else {
                        Source::Engine
                    }),
                    &b""[..],
                )
            } else {
                (None, rest)
            };
            if let Some(src) = src {
                b.traffic(sid, src, t, payload);
                if payload.ends_with(b"\\") {
                    self.wrapped = Some(sid);
                }
                return;
            }
            let pid_num = std::str::from_utf8(pid).ok().and_then(|p| p.parse().ok());
            let (kind, code) = if rest.starts_with(b"Connection made") {
                (ProxyKind::EngineStarted, None)
            } else if let Some(r) = rest.strip_prefix(b"Connection lost (exit code: ") {
                let (neg, r) = match r.strip_prefix(b"-") {
                    Some(r) => (true, r),
                    None => (false, r),
                };
                let (v, n) = digits(r);
                let code = (n > 0)
                    .then(|| i32::try_from(v).unwrap_or(i32::MAX))
                    .map(|c| if neg { -c } else { c });
                (ProxyKind::EngineExit, code)
            } else if rest.starts_with(b"Process exited") {
                (ProxyKind::EngineExit, None)
            } else if is_warning(line.get(..open).unwrap_or(&[])) || rest.starts_with(b"Unexpected")
            {
                (ProxyKind::Warning, None)
            } else {
                (ProxyKind::Note, None)
            };
            if let Some(e) = b.proxy(sid, kind, t, rest) {
                e.code = code;
                if kind == ProxyKind::EngineStarted {
                    e.pid = pid_num;
                }
            }
            return;
        }
        let start = message_start(line);
        if let Some((at, src, payload)) = line.get(start..).and_then(arrow) {
            let sid = b.session(&arrow_session(&line[start..start + at]));
            b.traffic(sid, src, t, payload);
            self.wrapped = payload.ends_with(b"\\").then_some(sid);
            return;
        }
        if !has_wrapper(line) {
            if let Some(sid) = self.wrapped.take() {
                let strip = b.last_text(sid).is_some_and(|t| t.ends_with('\\'));
                if strip {
                    remove_trailing_backslash(b, sid);
                }
                b.append_to_last(sid, line);
                if line.ends_with(b"\\") {
                    self.wrapped = Some(sid);
                }
                return;
            }
            let tool = b.tool();
            b.proxy(tool, ProxyKind::Note, t, line);
            return;
        }
        self.wrapped = None;
        let msg = line.get(start..).unwrap_or(line);
        let kind = if is_warning(line.get(..start).unwrap_or(&[])) {
            ProxyKind::Warning
        } else {
            ProxyKind::Note
        };
        let tool = b.tool();
        b.proxy(tool, kind, t, msg);
    }
}

fn remove_trailing_backslash(b: &mut Builder, sid: Sid) {
    b.map_last_bytes(sid, |t| {
        t.pop();
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchor_anywhere() {
        let (p, pid, _, r) =
            anchor(b"DEBUG:chess.engine:<UciProtocol (pid=4808)>: >> info hashfull 45").unwrap();
        assert_eq!(
            (p, pid, r),
            (&b"Uci"[..], &b"4808"[..], &b">> info hashfull 45"[..])
        );
        assert!(anchor(b"no anchor here").is_none());
        let l = b"2019-09-08 21:39:35,609 - arena - INFO - stm_engine: tuned";
        assert_eq!(&l[message_start(l)..], b"stm_engine: tuned");
        let l = b"2022-01-04 00:26:14,890:   move: 1";
        assert_eq!(&l[message_start(l)..], b"move: 1");
        let l = b"ERROR:chess.engine:engine sent invalid ponder move";
        assert_eq!(&l[message_start(l)..], b"engine sent invalid ponder move");
    }

    #[test]
    fn arrows_after_any_prefix() {
        let l = b"2019-08-12 18:04:10,503: << isready";
        let (at, src, p) = arrow(&l[message_start(l)..]).unwrap();
        assert_eq!((at, src, p), (0, Source::Gui, &b"isready"[..]));
        let l = b"<chess.engine.PopenProcess object at 0x7f3a> >> readyok";
        let (at, src, p) = arrow(l).unwrap();
        assert_eq!((src, p), (Source::Engine, &b"readyok"[..]));
        assert_eq!(
            arrow_session(&l[..at]),
            "<chess.engine.PopenProcess object at 0x7f3a>"
        );
        assert_eq!(arrow_session(b""), "engine");
        let (_, src, _) = arrow(b"x stderr >> warning").unwrap();
        assert_eq!(src, Source::Stderr);
        for no in [&b"a<<b"[..], b">>>x", b"x <<< y", b"1 << 2x", b"shift<< 3"] {
            let hit = arrow(no).map(|h| h.2);
            assert!(
                hit.is_none() || no == b"1 << 2x",
                "{:?}",
                String::from_utf8_lossy(no)
            );
        }
    }
}
