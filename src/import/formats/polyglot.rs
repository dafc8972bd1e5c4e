//! PolyGlot's log: `<seconds>.<ms> GUI->Adapter: x`, `Adapter->GUI: x`, `Adapter->Engine: x`,
//! `Engine->Adapter: x`, `POLYGLOT ...` and PolyGlot's banner.
//!
//! PolyGlot logs both legs of its translation, so the log becomes two sessions: `adapter` (the
//! GUI talking CECP to PolyGlot as its engine) and `engine` (PolyGlot talking UCI to the real
//! engine). `EOF` on a leg is a proxy event, not a line. The stamp is epoch seconds on POSIX
//! but seconds since boot on Windows; values below 10^9 are taken as relative.

use super::Parser;
use crate::import::builder::Builder;
use crate::import::clock::{Stamp, seconds_frac};
use crate::import::lines::find;
use crate::recording::{ProxyKind, Source};

pub struct Polyglot;

impl Parser for Polyglot {
    fn line(&mut self, line: &[u8], b: &mut Builder) {
        let Some((ns, used)) = seconds_frac(line).filter(|(_, u)| line.get(*u) == Some(&b' '))
        else {
            b.unclassified(line, "no PolyGlot `seconds.ms` prefix");
            return;
        };
        let stamp = if ns >= 1_000_000_000 * 1_000_000_000 {
            Stamp::Absolute(ns)
        } else {
            Stamp::Relative(ns)
        };
        let t = b.t(Some(stamp));
        let rest = line.get(used + 1..).unwrap_or(&[]);
        let legs: [(&[u8], &str, Source); 4] = [
            (b"GUI->Adapter:", "adapter", Source::Gui),
            (b"Adapter->GUI:", "adapter", Source::Engine),
            (b"Adapter->Engine:", "engine", Source::Gui),
            (b"Engine->Adapter:", "engine", Source::Engine),
        ];
        for (prefix, label, src) in legs {
            if let Some(payload) = rest.strip_prefix(prefix) {
                let payload = payload.strip_prefix(b" ").unwrap_or(payload);
                let sid = b.session(label);
                if payload == b"EOF" {
                    let kind = if src == Source::Gui {
                        if label == "adapter" {
                            ProxyKind::GuiEof
                        } else {
                            ProxyKind::Note
                        }
                    } else {
                        ProxyKind::EngineEof
                    };
                    let msg = format!("{} EOF", String::from_utf8_lossy(prefix));
                    b.proxy(sid, kind, t, msg.as_bytes());
                } else {
                    b.traffic(sid, src, t, payload);
                }
                return;
            }
        }
        let tool = b.tool();
        let msg = rest.strip_prefix(b"POLYGLOT ").unwrap_or(rest);
        let kind = if find(msg, b"SIGTERM").is_some()
            || find(msg, b"does not reply").is_some()
            || msg.starts_with(b"ERROR")
        {
            ProxyKind::Warning
        } else if msg.starts_with(b"Child exited") {
            ProxyKind::EngineExit
        } else {
            ProxyKind::Note
        };
        let code = msg
            .strip_prefix(b"Child exited with status ")
            .and_then(|r| std::str::from_utf8(r).ok())
            .and_then(|r| r.trim_end_matches('.').parse().ok());
        if let Some(e) = b.proxy(tool, kind, t, msg) {
            e.code = code;
        }
    }
}
