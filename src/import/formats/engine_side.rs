//! Logs written by the engine itself: the arrows are from the engine's point of view, so what
//! the engine *received* is `gui` traffic. One session, `engine`; the engine's own log lines
//! are notes (warnings at WARN/ERROR level).

use super::Parser;
use crate::import::builder::Builder;
use crate::import::clock::{Stamp, date_time, time_of_day};
use crate::import::lines::{digits, find, trim_start};
use crate::recording::{ProxyKind, Source};

/// lc0 `--logfile`: `[MMDD ]HH:MM:SS.uuuuuu tid file.cc:NNN] (>> |<< )text`.
pub struct Lc0;

/// → (ns since midnight, body after `] `).
pub fn lc0_prefix(line: &[u8]) -> Option<(i128, &[u8])> {
    // Older builds put `MMDD ` first.
    let (day, rest) = match (digits(line), line.get(4)) {
        ((v, 4), Some(b' ')) => (Some(v), line.get(5..)?),
        _ => (None, line),
    };
    let (tod, used) = time_of_day(rest)?;
    let rest = rest.get(used..)?.strip_prefix(b" ")?;
    let (_, n) = digits(rest);
    let rest = rest.get(n..)?.strip_prefix(b" ")?;
    let close = find(rest, b"] ")?;
    find(rest.get(..close)?, b":")?;
    // MMDD only orders days within a year; enough for `t`.
    let day_ns = day.map_or(0, |d| {
        i128::from((d / 100) * 31 + d % 100) * 86_400_000_000_000
    });
    Some((day_ns + tod, rest.get(close + 2..)?))
}

impl Parser for Lc0 {
    fn line(&mut self, line: &[u8], b: &mut Builder) {
        let Some((ns, body)) = lc0_prefix(line) else {
            b.unclassified(line, "no lc0 `time tid file:line]` prefix");
            return;
        };
        let t = b.t(Some(Stamp::TimeOfDay(ns)));
        let sid = b.session("engine");
        if let Some(p) = body.strip_prefix(b">> ") {
            b.traffic(sid, Source::Gui, t, p);
        } else if let Some(p) = body.strip_prefix(b"<< ") {
            b.traffic(sid, Source::Engine, t, p);
        } else {
            b.proxy(sid, ProxyKind::Note, t, body);
        }
    }
}

/// log4j-style engine logs (lrozenblyum/chess): `2016-11-28T21:40:36,187  INFO Class:69 - Received: xboard`.
pub struct Log4j;

pub fn log4j_prefix(line: &[u8]) -> Option<(i128, &[u8], &[u8])> {
    let (ns, used) = date_time(line)?;
    let rest = line.get(used..)?;
    let dash = find(rest, b" - ")?;
    Some((ns, rest.get(..dash)?, rest.get(dash + 3..)?))
}

impl Parser for Log4j {
    fn line(&mut self, line: &[u8], b: &mut Builder) {
        let sid = b.session("engine");
        let Some((ns, meta, msg)) = log4j_prefix(line) else {
            // Stack traces and other continuation lines of the previous entry.
            let t = b.t(None);
            b.proxy(sid, ProxyKind::Note, t, line);
            return;
        };
        let t = b.t(Some(Stamp::Absolute(ns)));
        if let Some(p) = msg
            .strip_prefix(b"Received: ")
            .or_else(|| msg.strip_prefix(b"Received:"))
        {
            b.traffic(sid, Source::Gui, t, p);
        } else if let Some(p) = msg
            .strip_prefix(b"Sent: ")
            .or_else(|| msg.strip_prefix(b"Sent:"))
        {
            b.traffic(sid, Source::Engine, t, p);
        } else {
            let meta = trim_start(meta);
            let kind = if [&b"WARN"[..], b"ERROR", b"FATAL"]
                .iter()
                .any(|l| find(meta, l).is_some())
            {
                ProxyKind::Warning
            } else {
                ProxyKind::Note
            };
            b.proxy(sid, kind, t, msg);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lc0_with_and_without_date() {
        let (_, body) = lc0_prefix(b"10:34:11.851951 6528 uciloop.cc:134] >> stop").unwrap();
        assert_eq!(body, b">> stop");
        let (ns, body) = lc0_prefix(b"1118 12:10:17.430507 2404 uciloop.cc:1] << x").unwrap();
        assert_eq!(body, b"<< x");
        assert!(ns > 86_400_000_000_000);
        assert!(lc0_prefix(b"10:34:11.851951 hello").is_none());
    }

    #[test]
    fn log4j_split() {
        let (_, meta, msg) = log4j_prefix(
            b"2016-11-28T21:40:36,187  INFO WinboardCommunicator:69 - Received: xboard",
        )
        .unwrap();
        assert_eq!(
            (meta, msg),
            (
                &b"  INFO WinboardCommunicator:69"[..],
                &b"Received: xboard"[..]
            )
        );
    }
}
