//! xboard/WinBoard `-debug` files: `<ms> >first : cmd`, `<ms> <second: line`.
//!
//! - Slots `first`/`second`/`pairing` are sessions; after `quit` or `Unload <slot>` the next
//!   traffic on that slot is a new engine and gets a `#2`, `#3`... label.
//! - xboard logs a multi-line send as one prefixed line plus bare continuation lines, so a bare
//!   line right after a send whose first word is a GUI command continues that send.
//! - `### NON-COMPLIANT! ### ` is xboard's own quote (`-engineDebugOutput 3`) and is removed;
//!   `# ` is kept because engines send such comment lines themselves.
//! - Every other bare line is an xboard-internal line and becomes a proxy event.

use super::Parser;
use crate::import::builder::{Builder, Sid};
use crate::import::clock::{Stamp, millis_then_space};
use crate::import::lines::{find, trim};
use crate::import::vocab::is_gui_command;
use crate::recording::{ProxyKind, Source};

#[derive(Default)]
pub struct Xboard {
    /// Per slot: generation number and whether the engine in it has gone.
    slots: Vec<(String, u32, bool)>,
    /// The session of the last send, while bare lines may still continue it.
    open_send: Option<Sid>,
}

const NON_COMPLIANT: &[u8] = b"### NON-COMPLIANT! ### ";

/// `<ms> <dir><slot>: payload` → (ms stamp, is_send, slot, payload).
pub fn split_prefix(line: &[u8]) -> Option<(i128, bool, &[u8], &[u8])> {
    let (ns, used) = millis_then_space(line)?;
    let rest = line.get(used..)?;
    let send = match rest.first()? {
        b'>' => true,
        b'<' => false,
        _ => return None,
    };
    let rest = rest.get(1..)?;
    let colon = rest.iter().position(|&c| c == b':')?;
    let slot = trim(rest.get(..colon)?);
    if slot.is_empty() || !slot.iter().all(u8::is_ascii_lowercase) || colon > 8 {
        return None;
    }
    let payload = rest.get(colon + 1..)?;
    let payload = payload.strip_prefix(b" ").unwrap_or(payload);
    Some((ns, send, slot, payload))
}

impl Xboard {
    fn slot_session(&mut self, slot: &[u8], b: &mut Builder) -> Sid {
        let name = String::from_utf8_lossy(slot).into_owned();
        let i = match self.slots.iter().position(|s| s.0 == name) {
            Some(i) => i,
            None => {
                self.slots.push((name, 1, false));
                self.slots.len() - 1
            }
        };
        let Some(entry) = self.slots.get_mut(i) else {
            return b.tool();
        };
        if entry.2 {
            entry.1 += 1;
            entry.2 = false;
        }
        let label = if entry.1 == 1 {
            entry.0.clone()
        } else {
            format!("{}#{}", entry.0, entry.1)
        };
        b.session(&label)
    }

    fn mark_gone(&mut self, slot: &[u8]) {
        if let Some(s) = self.slots.iter_mut().find(|s| s.0.as_bytes() == slot) {
            s.2 = true;
        }
    }

    fn internal(&mut self, line: &[u8], b: &mut Builder) {
        if line == b"..." {
            b.unclassified(line, "elision mark in a pasted fragment, not xboard output");
            return;
        }
        let t = b.t(None);
        let tool = b.tool();
        let (kind, msg) = if line.starts_with(b"StartChildProcess") {
            (ProxyKind::EngineStarted, line)
        } else if let Some(slot) = line.strip_prefix(b"Unload ") {
            self.mark_gone(trim(slot));
            (ProxyKind::EngineExit, line)
        } else if line.starts_with(b"Fatal Error")
            || line.starts_with(b"Error")
            || find(line, b"failed").is_some()
            || find(line, b"Failed").is_some()
        {
            (ProxyKind::Warning, line)
        } else if line.starts_with(b"New game") {
            (ProxyKind::GameStarted, line)
        } else if line.starts_with(b"GameEnds(") && find(line, b"(null)").is_none() {
            // `GameEnds(result, reason, whosays)`: the numeric result is an xboard-internal enum;
            // the `result` command xboard sends next carries the score.
            if find(line, b"adjudication").is_some() {
                b.proxy(tool, ProxyKind::Adjudication, t, line);
            }
            (ProxyKind::GameFinished, line)
        } else {
            (ProxyKind::Note, line)
        };
        b.proxy(tool, kind, t, msg);
    }
}

/// xboard sends `usermove ` and the move in two writes, and its debug log prefixes each:
/// `523 >second: usermove 523 >second: d2d4`. Rejoins such a line into `usermove d2d4`.
fn join_split_writes<'a>(payload: &'a [u8], send: bool, slot: &[u8]) -> std::borrow::Cow<'a, [u8]> {
    let mut joined: Option<Vec<u8>> = None;
    let mut rest = payload;
    loop {
        // An embedded prefix starts with its millisecond stamp right after a space.
        let found = memchr::memchr_iter(b' ', rest).find_map(|i| {
            let tail = rest.get(i + 1..)?;
            let (_, inner_send, inner_slot, inner) = split_prefix(tail)?;
            (inner_send == send && inner_slot == slot).then_some((i + 1, inner))
        });
        let Some((cut, inner)) = found else { break };
        let out = joined.get_or_insert_with(Vec::new);
        out.extend_from_slice(rest.get(..cut).unwrap_or_default());
        rest = inner;
    }
    match joined {
        None => std::borrow::Cow::Borrowed(payload),
        Some(mut out) => {
            out.extend_from_slice(rest);
            std::borrow::Cow::Owned(out)
        }
    }
}

/// Lines xboard writes of its own accord. `New game (1): A-B (w)` reads as the GUI word
/// `new`, and glued onto the send before it made an unknown command of the tool's own event.
const XBOARD_OWN: [&[u8]; 9] = [
    b"New game",
    b"GameEnds(",
    b"StartChildProcess",
    b"Unload ",
    b"Reset(",
    b"recognized ",
    b"shuffleOpenings",
    b"Version:",
    b"Fatal Error",
];

impl Parser for Xboard {
    fn line(&mut self, line: &[u8], b: &mut Builder) {
        if let Some((ns, send, slot, payload)) = split_prefix(line) {
            let payload = &*join_split_writes(payload, send, slot);
            let t = b.t(Some(Stamp::Relative(ns)));
            let sid = self.slot_session(slot, b);
            if send {
                b.traffic(sid, Source::Gui, t, payload);
                if trim(payload) == b"quit" {
                    self.mark_gone(slot);
                }
                self.open_send = Some(sid);
            } else {
                let payload = payload.strip_prefix(NON_COMPLIANT).unwrap_or(payload);
                b.traffic(sid, Source::Engine, t, payload);
                self.open_send = None;
            }
            return;
        }
        if let Some(sid) = self.open_send
            && is_gui_command(line)
            && !XBOARD_OWN.iter().any(|p| line.starts_with(p))
        {
            let t = b.t(None);
            b.traffic(sid, Source::Gui, t, line);
            return;
        }
        self.open_send = None;
        // ICS traffic and telnet negotiation: not engine traffic, kept as notes.
        self.internal(line, b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_shapes() {
        let (ns, send, slot, p) = split_prefix(b"211 >first : xboard").unwrap();
        assert_eq!(
            (ns, send, slot, p),
            (211_000_000, true, &b"first"[..], &b"xboard"[..])
        );
        let (_, send, slot, p) = split_prefix(b"236631 <second: 16. ... d5c4").unwrap();
        assert_eq!(
            (send, slot, p),
            (false, &b"second"[..], &b"16. ... d5c4"[..])
        );
        let (_, _, slot, p) = split_prefix(b"5 >pairing: results").unwrap();
        assert_eq!((slot, p), (&b"pairing"[..], &b"results"[..]));
        assert_eq!(split_prefix(b"2673 <first :").unwrap().3, b"");
        assert!(split_prefix(b"452 >SF-Debug2(1): uci").is_none());
    }

    #[test]
    fn xboards_own_new_game_line_is_no_continuation_of_a_send() {
        let log = b"1 >first : xboard\n2 >first : protover 2\n3 <first : feature done=1\n\
                    4 >first : new\nNew game (1): Fairy-Max 5.0b-Stockfish 15.1 (w)\n\
                    4 >first : random\nrandom\n5 >first : go\n";
        let imp = crate::import::import(log, Some(crate::import::LogFormat::XboardDebug)).unwrap();
        let events: Vec<_> = imp.sessions.iter().flat_map(|s| &s.events).collect();
        let started = events
            .iter()
            .find(|e| e.text.starts_with("New game"))
            .expect("the line is kept");
        assert_eq!(started.kind, Some(ProxyKind::GameStarted));
        // Near miss: a bare `random` after a send is still that send's continuation.
        let randoms = events
            .iter()
            .filter(|e| e.text == "random" && e.src == Source::Gui)
            .count();
        assert_eq!(randoms, 2);
    }

    #[test]
    fn interleaved_writes_are_rejoined() {
        assert_eq!(
            &*join_split_writes(b"usermove 523 >second: d2d4", true, b"second"),
            b"usermove d2d4"
        );
        assert_eq!(
            &*join_split_writes(
                b"usermove 7963 >second: usermove 7963 >second: d2c1",
                true,
                b"second"
            ),
            b"usermove usermove d2c1"
        );
        // Another slot's prefix or plain text is left alone.
        assert_eq!(
            &*join_split_writes(b"usermove 523 >first: d2d4", true, b"second"),
            b"usermove 523 >first: d2d4"
        );
        assert_eq!(
            &*join_split_writes(b"time 523", true, b"second"),
            b"time 523"
        );
    }
}
