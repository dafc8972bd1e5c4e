//! Hand-written parser for the event lines kibitzer itself writes.
//!
//! serde_json spends most of its time on a generic field-by-name walk; the recorder and the
//! importers always write traffic events in one compact shape with keys in a fixed order (see
//! `writer::encode_event`). This parser accepts exactly that shape and nothing else: any
//! deviation (whitespace, another key order, an unknown key, a number serde would read
//! differently, an escape it does not handle) returns `None` and the caller asks serde. So
//! whatever it accepts, serde would have read to the same `Event`.

use crate::recording::event::{Eol, Event, Source};

/// The event in `line` (without line terminator), or `None` to let serde decide.
#[cfg(test)]
pub(super) fn parse(line: &[u8]) -> Option<Event> {
    let mut e = Event::line(0, 0, Source::Proxy, String::new());
    parse_into(line, &mut e).then_some(e)
}

/// [`parse`] into `e`, reusing its text buffer. On `false`, `e` holds garbage.
pub(super) fn parse_into(line: &[u8], e: &mut Event) -> bool {
    fields(line, e).is_some()
}

fn fields(line: &[u8], e: &mut Event) -> Option<()> {
    let mut c = Cursor { b: line, i: 0 };
    c.lit(b"{\"seq\":")?;
    let seq = c.uint()?;
    c.lit(b",\"t\":")?;
    let t = c.uint()?;
    let ts = if c.lit(b",\"ts\":").is_some() {
        Some(c.uint()?)
    } else {
        None
    };
    c.lit(b",\"src\":\"")?;
    let src = c.source()?;
    c.lit(b",\"text\":\"")?;
    e.text.clear();
    c.string_into(&mut e.text)?;
    e.reset_line(seq, t, ts, src);
    if c.lit(b",\"hex\":\"").is_some() {
        let mut hex = String::new();
        c.string_into(&mut hex)?;
        e.hex = Some(hex);
    }
    if c.lit(b",\"eol\":\"").is_some() {
        e.eol = if c.lit(b"crlf\"").is_some() {
            Eol::Crlf
        } else if c.lit(b"none\"").is_some() {
            Eol::None
        } else {
            c.lit(b"lf\"")?;
            Eol::Lf
        };
    }
    if c.lit(b",\"more\":").is_some() {
        e.more = if c.lit(b"true").is_some() {
            true
        } else {
            c.lit(b"false")?;
            false
        };
    }
    c.lit(b"}")?;
    (c.i == line.len()).then_some(())
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn rest(&self) -> &[u8] {
        self.b.get(self.i..).unwrap_or(&[])
    }

    fn lit(&mut self, s: &[u8]) -> Option<()> {
        self.rest().starts_with(s).then(|| self.i += s.len())
    }

    /// A JSON integer as serde reads it into a `u64`: no sign, no leading zero, no fraction or
    /// exponent (the caller's next literal rejects those), no overflow.
    fn uint(&mut self) -> Option<u64> {
        // Up to 19 digits cannot overflow; longer runs (only near `u64::MAX`) go to serde.
        let (v, n) = crate::swar::digits(self.b, self.i)?;
        if n > 1 && self.b.get(self.i) == Some(&b'0') {
            return None;
        }
        self.i += n;
        Some(v)
    }

    /// The value of `"src"` after its opening quote, closing quote included.
    fn source(&mut self) -> Option<Source> {
        for (word, src) in [
            (&b"engine\""[..], Source::Engine),
            (b"gui\"", Source::Gui),
            (b"stderr\"", Source::Stderr),
            (b"proxy\"", Source::Proxy),
        ] {
            if self.lit(word).is_some() {
                return Some(src);
            }
        }
        None
    }

    /// A string body after its opening quote, closing quote included, appended to `out`.
    /// Handles the escapes serde_json writes (and `\/`); a surrogate `\u` escape is left to
    /// serde.
    fn string_into(&mut self, out: &mut String) -> Option<()> {
        let rest = self.rest();
        let crate::swar::StringSpan {
            end,
            control,
            ascii,
        } = crate::swar::string_span(rest)?;
        let span = rest.get(..end)?;
        if control {
            return None;
        }
        if rest.get(end) == Some(&b'"') {
            if ascii {
                // SAFETY: ASCII bytes are valid UTF-8 (the scan that looked for control bytes
                // saw no byte with its high bit set).
                #[allow(unsafe_code)]
                out.push_str(unsafe { std::str::from_utf8_unchecked(span) });
            } else {
                out.push_str(std::str::from_utf8(span).ok()?);
            }
            self.i += end + 1;
            return Some(());
        }
        let mut bytes = Vec::with_capacity(rest.len());
        let mut i = 0;
        loop {
            let tail = rest.get(i..)?;
            let found = crate::swar::string_span(tail)?;
            let (end, span) = (found.end, tail.get(..found.end)?);
            if found.control {
                return None;
            }
            bytes.extend_from_slice(span);
            i += end + 1;
            if tail.get(end) == Some(&b'"') {
                break;
            }
            let esc = *rest.get(i)?;
            i += 1;
            let byte = match esc {
                b'"' => b'"',
                b'\\' => b'\\',
                b'/' => b'/',
                b'b' => 0x08,
                b'f' => 0x0c,
                b'n' => b'\n',
                b'r' => b'\r',
                b't' => b'\t',
                b'u' => {
                    let hex = std::str::from_utf8(rest.get(i..i + 4)?).ok()?;
                    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                        return None;
                    }
                    let ch = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
                    i += 4;
                    let mut utf8 = [0u8; 4];
                    bytes.extend_from_slice(ch.encode_utf8(&mut utf8).as_bytes());
                    continue;
                }
                _ => return None,
            };
            bytes.push(byte);
        }
        // Raw spans end at ASCII bytes, so the whole is valid UTF-8 exactly when every span is.
        out.push_str(std::str::from_utf8(&bytes).ok()?);
        self.i += i;
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recording::arb::arb_event;
    use crate::recording::writer::encode_event;
    use proptest::prelude::*;

    fn serde(line: &[u8]) -> Option<Event> {
        serde_json::from_slice(line).ok()
    }

    /// The fast path must agree with serde whenever it answers.
    fn agrees(line: &[u8]) -> Result<(), TestCaseError> {
        if let Some(fast) = parse(line) {
            prop_assert_eq!(Some(fast), serde(line), "{}", String::from_utf8_lossy(line));
        }
        Ok(())
    }

    fn encoded(e: &Event) -> Vec<u8> {
        let mut out = Vec::new();
        encode_event(&mut out, e);
        out.pop();
        out
    }

    /// Only the optional keys the fast path does not know, and numbers of 20 digits, send an
    /// event to serde.
    fn fast_shape(e: &Event) -> bool {
        let short = |n: u64| n < 10_000_000_000_000_000_000;
        short(e.seq)
            && short(e.t)
            && e.ts.is_none_or(short)
            && e.kind.is_none()
            && e.pid.is_none()
            && e.code.is_none()
            && e.signal.is_none()
            && e.result.is_none()
            && e.session.is_none()
            && e.line.is_none()
    }

    proptest! {
        #[test]
        fn reads_what_the_writer_wrote_like_serde(e in arb_event()) {
            let line = encoded(&e);
            let fast = parse(&line);
            if fast_shape(&e) {
                prop_assert_eq!(fast.as_ref(), Some(&e));
            }
            if let Some(fast) = fast {
                prop_assert_eq!(Some(fast), serde(&line));
            }
        }

        #[test]
        fn mutated_lines_never_disagree_with_serde(
            e in arb_event(),
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0..3u8), 1..4),
        ) {
            let mut line = encoded(&e);
            for (at, byte, op) in edits {
                let i = at.index(line.len() + 1);
                match op {
                    0 if i < line.len() => line[i] = byte,
                    1 if i < line.len() => {
                        line.remove(i);
                    }
                    _ => line.insert(i, byte),
                }
            }
            agrees(&line)?;
        }

        #[test]
        fn escaped_text_reads_like_serde(text in "[\\x00-\\x7f\"\\\\é\u{1F600}]{0,24}") {
            let e = Event::line(1, 2, Source::Engine, text);
            let line = encoded(&e);
            prop_assert_eq!(parse(&line), Some(e));
        }
    }

    /// What the string scan says of `body` followed by its closing quote.
    fn scan_string(body: &[u8]) -> (bool, bool) {
        let mut b = body.to_vec();
        b.extend_from_slice(b"\"}");
        let span = crate::swar::string_span(&b).expect("closing quote");
        assert_eq!(span.end, body.len());
        (span.control, span.ascii)
    }

    #[test]
    fn control_and_non_ascii_bytes_are_found_anywhere() {
        for len in 0..40 {
            let clean = vec![b'a'; len];
            assert_eq!(scan_string(&clean), (false, true));
            for at in 0..len {
                for bad in [0x00u8, 0x09, 0x1f] {
                    let mut b = clean.clone();
                    b[at] = bad;
                    assert_eq!(scan_string(&b), (true, true), "{len} {at} {bad}");
                }
                for high in [0x80u8, 0xc3, 0xff] {
                    let mut b = clean.clone();
                    b[at] = high;
                    b[len - 1] = 0x20;
                    assert!(!scan_string(&b).0, "{len} {at} {high}");
                    // The last byte was set to a space after: a high byte there is gone.
                    assert_eq!(scan_string(&b).1, at == len - 1, "{len} {at} {high}");
                }
            }
        }
    }

    /// The fast path writes only the rare fields that hold something: an event filled again
    /// after one that had them must still come out as serde reads the line.
    #[test]
    fn an_event_filled_again_keeps_nothing_of_the_one_before() {
        let plain = Event::line(7, 8, Source::Engine, "info depth 1");
        let mut odd = Event::from_bytes(3, 4, Source::Gui, b"go\xff", Eol::Crlf);
        odd.ts = Some(99);
        odd.more = true;
        let mut proxy = Event::proxy(5, 6, crate::recording::ProxyKind::EngineExit, "exit");
        proxy.pid = Some(42);
        proxy.code = Some(1);
        proxy.signal = Some("SIGKILL".into());
        proxy.result = Some("1-0".into());
        proxy.session = Some("sf".into());
        proxy.line = Some(12);
        let events = [plain, odd, proxy];
        for before in &events {
            for e in &events {
                let line = encoded(e);
                let mut reused = before.clone();
                if parse_into(&line, &mut reused) {
                    assert_eq!(
                        Some(&reused),
                        serde(&line).as_ref(),
                        "{e:?} after {before:?}"
                    );
                }
            }
        }
        // The plain line is one the fast path reads, whatever came before.
        let mut reused = events[2].clone();
        assert!(parse_into(&encoded(&events[0]), &mut reused));
        assert_eq!(reused, events[0]);
    }

    #[test]
    fn non_ascii_text_is_still_checked_as_utf8() {
        // Not UTF-8 (a lone continuation byte): the fast path leaves the line to serde,
        // which refuses it, as before.
        let bad = b"{\"seq\":1,\"t\":5,\"src\":\"engine\",\"text\":\"a\x80b\"}";
        assert_eq!(parse(bad), None);
        let good = "{\"seq\":1,\"t\":5,\"src\":\"engine\",\"text\":\"caf\u{e9}\"}";
        assert_eq!(
            parse(good.as_bytes()).map(|e| e.text),
            Some("caf\u{e9}".to_owned())
        );
    }

    #[test]
    fn hand_written_lines_agree_with_serde() {
        let cases: &[&[u8]] = &[
            br#"{"seq":1,"t":5,"src":"gui","text":"uci"}"#,
            br#"{"seq":0,"t":0,"ts":7,"src":"engine","text":""}"#,
            br#"{"seq":01,"t":5,"src":"gui","text":"uci"}"#,
            br#"{"seq":-1,"t":5,"src":"gui","text":"uci"}"#,
            br#"{"seq":1.0,"t":5,"src":"gui","text":"uci"}"#,
            br#"{"seq":1e3,"t":5,"src":"gui","text":"uci"}"#,
            br#"{"seq":18446744073709551615,"t":5,"src":"gui","text":"x"}"#,
            br#"{"seq":18446744073709551616,"t":5,"src":"gui","text":"x"}"#,
            br#"{"seq":1,"t":5,"src":"GUI","text":"uci"}"#,
            br#"{"seq":1,"t":5,"src":"gui","text":"a\"b\\c\/d\n\r\t\b\f\u00e9\u20AC"}"#,
            br#"{"seq":1,"t":5,"src":"gui","text":"\ud83d\ude00"}"#,
            br#"{"seq":1,"t":5,"src":"gui","text":"\ud83d"}"#,
            br#"{"seq":1,"t":5,"src":"gui","text":"\x"}"#,
            br#"{"seq":1,"t":5,"src":"gui","text":"\u12"}"#,
            b"{\"seq\":1,\"t\":5,\"src\":\"gui\",\"text\":\"a\tb\"}",
            b"{\"seq\":1,\"t\":5,\"src\":\"gui\",\"text\":\"caf\xe9\"}",
            br#"{"seq":1,"t":5,"src":"gui","text":"x","eol":"lf"}"#,
            br#"{"seq":1,"t":5,"src":"gui","text":"x","eol":"crlf","more":false}"#,
            br#"{"seq":1,"t":5,"src":"gui","text":"x","eol":"cr"}"#,
            br#"{"seq":1,"t":5,"src":"gui","text":"x","more":true}"#,
            br#"{"seq":1,"t":5,"src":"gui","text":"x","hex":"ff"}"#,
            br#"{"seq":1,"t":5,"src":"gui","text":"x"} "#,
            br#"{"seq":1,"t":5,"src":"gui","text":"x"}}"#,
            br#"{"seq":1,"t":5,"src":"gui","text":"x","session":"a"}"#,
            br#"{"seq":1,"t":5,"src":"gui","text":"x""#,
            br#"{"seq":1,"t":5,"src":"gui","text":"x"#,
            br#"{ "seq":1,"t":5,"src":"gui","text":"x"}"#,
            br#"{"t":5,"seq":1,"src":"gui","text":"x"}"#,
            br#"{"seq":9999999999999999999,"t":5,"src":"gui","text":"x"}"#,
        ];
        for line in cases {
            let fast = parse(line);
            if let Some(f) = &fast {
                assert_eq!(
                    Some(f),
                    serde(line).as_ref(),
                    "{}",
                    String::from_utf8_lossy(line)
                );
            }
        }
        // The common shapes really take the fast path.
        assert!(parse(cases[0]).is_some());
        assert!(parse(cases[9]).is_some());
        assert!(parse(cases[17]).is_some());
        assert_eq!(parse(cases[2]), None);
        assert_eq!(parse(cases[7]), None);
        assert_eq!(parse(cases[11]), None);
        assert_eq!(parse(cases[15]), None);
        assert!(parse(cases[28]).is_some());
    }
}
