//! JSONL encoding of recordings.
//!
//! The proxy encodes every forwarded line on its hot path, so traffic lines have a hand-written
//! encoder that produces exactly what serde would (tested below) without allocating per line.
//! Everything else goes through serde.

use super::event::{Eol, Event, Header, Source, to_hex};
use std::io::{self, Write};

/// Sequence number and times of an event being encoded.
#[derive(Debug, Clone, Copy)]
pub struct Stamp {
    pub seq: u64,
    pub t: u64,
    pub ts: Option<u64>,
}

/// Appends one JSON object (and a newline) for a traffic line given as raw bytes.
pub fn encode_line(
    out: &mut Vec<u8>,
    stamp: Stamp,
    src: Source,
    line: &[u8],
    eol: Eol,
    more: bool,
) {
    let Stamp { seq, t, ts } = stamp;
    let mut num = itoa::Buffer::new();
    out.extend_from_slice(b"{\"seq\":");
    out.extend_from_slice(num.format(seq).as_bytes());
    out.extend_from_slice(b",\"t\":");
    out.extend_from_slice(num.format(t).as_bytes());
    if let Some(ts) = ts {
        out.extend_from_slice(b",\"ts\":");
        out.extend_from_slice(num.format(ts).as_bytes());
    }
    out.extend_from_slice(b",\"src\":\"");
    out.extend_from_slice(src.as_str().as_bytes());
    out.extend_from_slice(b"\",\"text\":");
    match std::str::from_utf8(line) {
        Ok(s) => push_json_str(out, s),
        Err(_) => {
            push_json_str(out, &String::from_utf8_lossy(line));
            out.extend_from_slice(b",\"hex\":\"");
            out.extend_from_slice(to_hex(line).as_bytes());
            out.push(b'"');
        }
    }
    match eol {
        Eol::Lf => {}
        Eol::Crlf => out.extend_from_slice(b",\"eol\":\"crlf\""),
        Eol::None => out.extend_from_slice(b",\"eol\":\"none\""),
    }
    if more {
        out.extend_from_slice(b",\"more\":true");
    }
    out.extend_from_slice(b"}\n");
}

/// Does any byte need a JSON escape? Branch-free over 32-byte blocks so the compiler
/// vectorises it (a short-circuiting `any` scanned byte by byte and took a third of the
/// proxy's time on an `info` flood).
fn needs_escape(bytes: &[u8]) -> bool {
    let special = |b: u8| (b < 0x20) | (b == b'"') | (b == b'\\');
    let mut blocks = bytes.chunks_exact(32);
    for block in &mut blocks {
        if block.iter().fold(false, |acc, &b| acc | special(b)) {
            return true;
        }
    }
    blocks.remainder().iter().any(|&b| special(b))
}

/// Appends a JSON string literal, escaping like serde_json does.
fn push_json_str(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let bytes = s.as_bytes();
    // Almost every protocol line needs no escaping.
    if !needs_escape(bytes) {
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0..=0x1f => b"",
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        if esc.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(b"\\u00");
            out.push(HEX[(b >> 4) as usize]);
            out.push(HEX[(b & 15) as usize]);
        } else {
            out.extend_from_slice(esc);
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// Appends any event. Field order and escaping match serde's output exactly (tested), but
/// without serde's per-field overhead: imports write millions of these.
pub fn encode_event(out: &mut Vec<u8>, e: &Event) {
    let mut num = itoa::Buffer::new();
    out.extend_from_slice(b"{\"seq\":");
    out.extend_from_slice(num.format(e.seq).as_bytes());
    out.extend_from_slice(b",\"t\":");
    out.extend_from_slice(num.format(e.t).as_bytes());
    if let Some(ts) = e.ts {
        out.extend_from_slice(b",\"ts\":");
        out.extend_from_slice(num.format(ts).as_bytes());
    }
    out.extend_from_slice(b",\"src\":\"");
    out.extend_from_slice(e.src.as_str().as_bytes());
    out.extend_from_slice(b"\",\"text\":");
    push_json_str(out, &e.text);
    if let Some(h) = &e.hex {
        out.extend_from_slice(b",\"hex\":");
        push_json_str(out, h);
    }
    match e.eol {
        Eol::Lf => {}
        Eol::Crlf => out.extend_from_slice(b",\"eol\":\"crlf\""),
        Eol::None => out.extend_from_slice(b",\"eol\":\"none\""),
    }
    if e.more {
        out.extend_from_slice(b",\"more\":true");
    }
    if let Some(k) = e.kind {
        out.extend_from_slice(b",\"kind\":\"");
        out.extend_from_slice(k.wire_str().as_bytes());
        out.push(b'"');
    }
    if let Some(p) = e.pid {
        out.extend_from_slice(b",\"pid\":");
        out.extend_from_slice(num.format(p).as_bytes());
    }
    if let Some(c) = e.code {
        out.extend_from_slice(b",\"code\":");
        out.extend_from_slice(num.format(c).as_bytes());
    }
    for (key, value) in [
        (&b",\"signal\":"[..], e.signal.as_deref()),
        (b",\"result\":", e.result.as_deref()),
        (b",\"session\":", e.session.as_deref()),
    ] {
        if let Some(v) = value {
            out.extend_from_slice(key);
            push_json_str(out, v);
        }
    }
    if let Some(l) = e.line {
        out.extend_from_slice(b",\"line\":");
        out.extend_from_slice(num.format(l).as_bytes());
    }
    if let Some(sample) = &e.sample {
        out.extend_from_slice(b",\"sample\":");
        if serde_json::to_writer(&mut *out, sample).is_err() {
            out.extend_from_slice(b"null");
        }
    }
    if let Some(fact) = &e.probe {
        out.extend_from_slice(b",\"probe\":");
        if serde_json::to_writer(&mut *out, fact).is_err() {
            out.extend_from_slice(b"null");
        }
    }
    out.extend_from_slice(b"}\n");
}

pub fn encode_header(out: &mut Vec<u8>, h: &Header) {
    if serde_json::to_writer(&mut *out, h).is_ok() {
        out.push(b'\n');
    }
}

/// Writes a whole recording (header + events, borrowed or streamed) to `w` in large blocks;
/// used by `import` and tests. `w` need not be buffered.
pub fn write_recording<W: Write>(
    w: &mut W,
    header: &Header,
    events: impl IntoIterator<Item = impl std::borrow::Borrow<Event>>,
) -> io::Result<()> {
    let mut buf = Vec::with_capacity(64 * 1024);
    encode_header(&mut buf, header);
    for e in events {
        encode_event(&mut buf, e.borrow());
        if buf.len() > 60 * 1024 {
            w.write_all(&buf)?;
            buf.clear();
        }
    }
    w.write_all(&buf)?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recording::arb::arb_event;
    use proptest::prelude::*;

    fn via_fast(line: &[u8], eol: Eol, more: bool) -> String {
        let mut out = Vec::new();
        let stamp = Stamp {
            seq: 7,
            t: 123,
            ts: Some(5_000_000_123),
        };
        encode_line(&mut out, stamp, Source::Engine, line, eol, more);
        String::from_utf8(out).unwrap()
    }

    fn via_serde(line: &[u8], eol: Eol, more: bool) -> String {
        let mut e =
            Event::from_bytes(7, 123, Source::Engine, line, eol).with_epoch(Some(5_000_000_000));
        e.more = more;
        serde_json::to_string(&e).unwrap() + "\n"
    }

    #[test]
    fn fast_encoder_matches_serde_on_awkward_bytes() {
        for line in [
            &b"info depth 1"[..],
            b"a\"b\\c\td\x01\x1f\x7f",
            b"\xff\xfe",
            b"",
            b"caf\xc3\xa9",
            b"\r",
        ] {
            for eol in [Eol::Lf, Eol::Crlf, Eol::None] {
                assert_eq!(via_fast(line, eol, false), via_serde(line, eol, false));
                assert_eq!(via_fast(line, eol, true), via_serde(line, eol, true));
            }
        }
    }

    proptest! {
        #[test]
        fn escape_scan_matches_a_plain_scan(
            bytes in proptest::collection::vec(prop_oneof![8 => 0x20u8..0x7f, 1 => Just(b'"'), 1 => Just(b'\\'), 1 => 0u8..0x20], 0..100)
        ) {
            let plain = bytes.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\');
            prop_assert_eq!(needs_escape(&bytes), plain);
        }

        #[test]
        fn event_encoder_matches_serde(e in arb_event()) {
            let mut out = Vec::new();
            encode_event(&mut out, &e);
            prop_assert_eq!(String::from_utf8(out).unwrap(), serde_json::to_string(&e).unwrap() + "\n");
        }

        #[test]
        fn fast_encoder_matches_serde(line in proptest::collection::vec(any::<u8>(), 0..64)) {
            prop_assert_eq!(via_fast(&line, Eol::Lf, false), via_serde(&line, Eol::Lf, false));
        }
    }
}
