//! Arena's debug log: `YYYY-MM-DD HH:MM:SS[.,]mmm` glued to a marker:
//! `-->N:` (to engine N), `<--N:` (from engine N), `*N*` (Arena about engine N), `**` (GUI),
//! `****Tour**` (tournament), a space (start-up banner) or free text.
//!
//! Arena's own lines are localized, so they are matched by structure, not wording: a `*N*` or
//! `**` line of dashes (`*1*-----Starting engine 1 X-----`, `**-----New game---...`) marks an
//! engine start or a new game. An engine slot restarted after it had traffic becomes a new
//! session (`1#2`). `Engine N commandline:` fills `header.argv` (one element, unsplit) and
//! `ProcessID: N` the `pid` of the `engine_started` event.

use super::Parser;
use crate::import::builder::{Builder, Sid};
use crate::import::clock::{Stamp, date_time};
use crate::import::lines::{digits, find, trim};
use crate::recording::{ProxyKind, Source};

#[derive(Default)]
pub struct Arena {
    /// Generation per engine slot number.
    gens: Vec<(u64, u32)>,
}

impl Arena {
    fn label(&self, slot: u64) -> String {
        match self.gens.iter().find(|g| g.0 == slot) {
            Some((_, g)) if *g > 1 => format!("{slot}#{g}"),
            _ => slot.to_string(),
        }
    }

    fn slot(&mut self, slot: u64, b: &mut Builder) -> Sid {
        if !self.gens.iter().any(|g| g.0 == slot) {
            self.gens.push((slot, 1));
        }
        b.session(&self.label(slot))
    }

    fn restart(&mut self, slot: u64, b: &mut Builder) -> Sid {
        let sid = self.slot(slot, b);
        if b.has_traffic(sid)
            && let Some(g) = self.gens.iter_mut().find(|g| g.0 == slot)
        {
            g.1 += 1;
            return b.session(&self.label(slot));
        }
        sid
    }
}

/// `-->N:` / `<--N:` / `*N*` → (kind byte, slot, rest).
pub fn marker(rest: &[u8]) -> Option<(u8, u64, &[u8])> {
    let (kind, tail) = if let Some(r) = rest.strip_prefix(b"-->") {
        (b'>', r)
    } else if let Some(r) = rest.strip_prefix(b"<--") {
        (b'<', r)
    } else if let Some(r) = rest.strip_prefix(b"*") {
        (b'*', r)
    } else {
        return None;
    };
    let (n, k) = digits(tail);
    if k == 0 {
        return None;
    }
    let sep = if kind == b'*' { b'*' } else { b':' };
    (tail.get(k) == Some(&sep)).then(|| (kind, n, tail.get(k + 1..).unwrap_or(&[])))
}

fn is_dash_banner(text: &[u8]) -> bool {
    text.starts_with(b"-----")
}

impl Parser for Arena {
    fn line(&mut self, line: &[u8], b: &mut Builder) {
        let Some((ns, used)) = date_time(line) else {
            b.unclassified(line, "no Arena timestamp (wrapped or pasted line?)");
            return;
        };
        let t = b.t(Some(Stamp::Absolute(ns)));
        let rest = line.get(used..).unwrap_or(&[]);
        if let Some((kind, slot, text)) = marker(rest) {
            match kind {
                b'>' => {
                    let sid = self.slot(slot, b);
                    b.traffic(sid, Source::Gui, t, text);
                }
                b'<' => {
                    let sid = self.slot(slot, b);
                    b.traffic(sid, Source::Engine, t, text);
                }
                _ => self.engine_note(slot, text, t, b),
            }
            return;
        }
        let tool = b.tool();
        if let Some(r) = rest.strip_prefix(b"****Tour**") {
            if !r.is_empty() {
                b.proxy(tool, ProxyKind::Note, t, r);
            }
        } else if let Some(r) = rest.strip_prefix(b"**") {
            let kind = if is_dash_banner(r) {
                ProxyKind::GameStarted
            } else {
                ProxyKind::Note
            };
            b.proxy(tool, kind, t, r);
        } else if !trim(rest).is_empty() {
            b.proxy(tool, ProxyKind::Note, t, trim(rest));
        }
    }
}

impl Arena {
    fn engine_note(&mut self, slot: u64, text: &[u8], t: u64, b: &mut Builder) {
        if is_dash_banner(text) {
            let sid = self.restart(slot, b);
            b.proxy(sid, ProxyKind::Note, t, text);
            return;
        }
        let sid = self.slot(slot, b);
        if let Some(i) = find(text, b"ProcessID:") {
            let (pid, _) = digits(trim(text.get(i + 10..).unwrap_or(&[])));
            if let Some(e) = b.proxy(sid, ProxyKind::EngineStarted, t, text) {
                e.pid = u32::try_from(pid).ok();
            }
            return;
        }
        if let Some(i) = find(text, b"commandline:")
            && let Some(h) = b.header(sid)
        {
            let cmd = trim(text.get(i + 12..).unwrap_or(&[]));
            h.argv = vec![String::from_utf8_lossy(cmd).into_owned()];
        }
        b.proxy(sid, ProxyKind::Note, t, text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers() {
        assert_eq!(marker(b"-->1:uci"), Some((b'>', 1, &b"uci"[..])));
        assert_eq!(
            marker(b"<--2:id name X"),
            Some((b'<', 2, &b"id name X"[..]))
        );
        assert_eq!(
            marker(b"*1*Engine 1 ProcessID: 9100"),
            Some((b'*', 1, &b"Engine 1 ProcessID: 9100"[..]))
        );
        assert_eq!(marker(b"**screen"), None);
        assert_eq!(marker(b"****Tour**x"), None);
    }
}
