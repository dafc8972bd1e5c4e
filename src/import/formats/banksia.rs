//! Banksia engine logs: `[N.][HH:MM:SS ]Name< cmd` (to the engine) and `Name> line` (from it).
//!
//! Like xboard, a multi-line send leaves bare continuation lines; a bare line after a send whose
//! first word is a GUI command continues it. `12. A vs B` lines are Banksia's game headers.

use super::Parser;
use crate::import::builder::{Builder, Sid};
use crate::import::clock::{Stamp, time_of_day};
use crate::import::lines::{digits, find};
use crate::import::vocab::is_gui_command;
use crate::recording::{ProxyKind, Source};

#[derive(Default)]
pub struct Banksia {
    open_send: Option<Sid>,
}

/// (time of day, name, is_send, payload).
type Split<'a> = (Option<i128>, &'a [u8], bool, &'a [u8]);

pub fn split(line: &[u8]) -> Option<Split<'_>> {
    let mut rest = line;
    // `N.` game index when all games share one file.
    let (_, n) = digits(rest);
    if n > 0 && rest.get(n) == Some(&b'.') && rest.get(n + 1) != Some(&b' ') {
        rest = rest.get(n + 1..)?;
    }
    let tod = match time_of_day(rest) {
        Some((tod, used)) if rest.get(used) == Some(&b' ') => {
            rest = rest.get(used + 1..)?;
            Some(tod)
        }
        _ => None,
    };
    let pos = rest
        .windows(2)
        .position(|w| matches!(w, [b'<' | b'>', b' ']))
        .or_else(|| {
            rest.strip_suffix(b"<")
                .or_else(|| rest.strip_suffix(b">"))
                .map(<[u8]>::len)
        })?;
    if pos == 0 || rest.get(pos - 1) == Some(&b' ') {
        return None;
    }
    let name = rest.get(..pos)?;
    let send = rest.get(pos) == Some(&b'<');
    let payload = rest.get(pos + 2..).unwrap_or(&[]);
    Some((tod, name, send, payload))
}

impl Parser for Banksia {
    fn line(&mut self, line: &[u8], b: &mut Builder) {
        if let Some((tod, name, send, payload)) = split(line) {
            let t = b.t(tod.map(Stamp::TimeOfDay));
            let sid = b.session_of(name);
            b.traffic(
                sid,
                if send { Source::Gui } else { Source::Engine },
                t,
                payload,
            );
            self.open_send = send.then_some(sid);
            return;
        }
        let t = b.t(None);
        if let Some(sid) = self.open_send
            && is_gui_command(line)
        {
            b.traffic(sid, Source::Gui, t, line);
            return;
        }
        self.open_send = None;
        let (_, n) = digits(line);
        if n > 0
            && line.get(n..).is_some_and(|r| r.starts_with(b". "))
            && find(line, b" vs ").is_some()
        {
            let tool = b.tool();
            b.proxy(tool, ProxyKind::GameStarted, t, line);
            return;
        }
        b.unclassified(line, "no Banksia `Name< `/`Name> ` marker");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        let (tod, n, s, p) = split(b"21:46:26 OliThink 5.3.3< xboard").unwrap();
        assert_eq!(
            (tod.is_some(), n, s, p),
            (true, &b"OliThink 5.3.3"[..], true, &b"xboard"[..])
        );
        let (_, n, s, p) = split(b"3.21:46:26 Phalanx XXV> [ white, 1 ]").unwrap();
        assert_eq!(
            (n, s, p),
            (&b"Phalanx XXV"[..], false, &b"[ white, 1 ]"[..])
        );
        assert!(split(b"12. Phalanx XXV vs OliThink 5.3.3").is_none());
        assert!(split(b"protover 2").is_none());
    }
}
