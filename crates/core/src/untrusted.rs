//! Output safety for text kibitzer did not write: engine output, GUI logs, `.c2w` profiles,
//! file names. Any of them may carry bytes a terminal obeys rather than shows (ESC sequences
//! that write the clipboard through OSC 52, retitle the window or clear the screen; 8-bit C1
//! controls such as U+009B, which is CSI on many terminals; bidirectional overrides that
//! reverse what follows). Every text output shows such characters escaped, visibly, never
//! stripped, so two different engine names never look the same. JSON output stays exact
//! (serde escapes C0) and is the form to use when the raw bytes matter.
//!
//! [`Untrusted`] is the newtype front ends wrap such text in: its `Display` is the escaped
//! form. [`guard`] is the last line of defence on every text sink: it escapes whatever
//! control or format character is left in a finished report, keeping only kibitzer's own
//! colour sequences (SGR: `ESC [ digits ; ... m`).
//!
//! This module sits at the bottom of the crate: every layer may use it.

use std::borrow::Cow;
use std::fmt;

/// True for a character a terminal may act on or that hides or reorders text: C0 controls,
/// DEL, C1 controls, and the bidirectional and invisible format characters.
pub fn needs_escape(c: char) -> bool {
    let u = c as u32;
    u < 0x20
        || (0x7f..=0x9f).contains(&u)
        || matches!(
            u,
            0xad            // soft hyphen: invisible on most terminals
            | 0x034f        // combining grapheme joiner
            | 0x061c        // Arabic letter mark
            | 0x115f | 0x1160 | 0x17b4 | 0x17b5 | 0x180e
            | 0x200b..=0x200f // zero-width space/joiners, LRM, RLM
            | 0x2028..=0x202e // line/paragraph separators, LRE RLE PDF LRO RLO
            | 0x2060..=0x206f // word joiner, invisible operators, LRI RLI FSI PDI, ...
            | 0x3164 | 0xfeff | 0xffa0
            | 0xfff9..=0xfffb // interlinear annotation
            | 0x1d173..=0x1d17a
            | 0xe0000..=0xe007f // tag characters
        )
}

/// Appends the escaped form of one character.
fn push_escape(out: &mut String, c: char) {
    use std::fmt::Write as _;
    let u = c as u32;
    let _ = match c {
        '\n' => out.write_str("\\n"),
        '\r' => out.write_str("\\r"),
        '\t' => out.write_str("\\t"),
        _ if u < 0x20 || u == 0x7f => write!(out, "\\x{u:02x}"),
        _ if u <= 0xffff => write!(out, "\\u{u:04x}"),
        _ => write!(out, "\\u{{{u:x}}}"),
    };
}

/// Whether every byte of `b` is printable ASCII, or a line feed when `newlines`; eight bytes
/// at a time (this runs over every line `decode` and `dump` print).
fn printable_ascii(b: &[u8], newlines: bool) -> bool {
    use crate::swar::{HIGH, ONES, below};
    let ok = |c: u8| (0x20..0x7f).contains(&c) || (newlines && c == b'\n');
    let mut chunks = b.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        // A control byte (below 0x20), or DEL and above (0x7f + 1 reaches the high bit).
        let flagged = below(x, 0x20) | ((x.wrapping_add(ONES) | x) & HIGH);
        if flagged != 0 && !chunk.iter().all(|&c| ok(c)) {
            return false;
        }
    }
    chunks.remainder().iter().all(|&c| ok(c))
}

/// Whether `s` can be shown as it is. ASCII printable text (nearly every protocol line) is
/// decided from its bytes alone.
fn is_clean(s: &str) -> bool {
    if has_escape_lookalike(s.as_bytes()) {
        return false;
    }
    if printable_ascii(s.as_bytes(), false) {
        return true;
    }
    !s.chars().any(needs_escape)
}

/// A backslash that begins what reads as one of the escapes (`\n`, `\x1b`, `\u202e`, or
/// another backslash): shown as it is, the text `\x1b[1m` would look like an escaped ESC.
/// Such a backslash is itself escaped (`\\`), so escaping stays one-to-one; any other
/// backslash (`C:\engines`) is shown as it is.
fn starts_escape(next: Option<u8>) -> bool {
    matches!(next, Some(b'n' | b'r' | b't' | b'x' | b'u' | b'\\'))
}

fn has_escape_lookalike(b: &[u8]) -> bool {
    memchr::memchr_iter(b'\\', b).any(|i| starts_escape(b.get(i + 1).copied()))
}

/// `s` with every character of [`needs_escape`] written as an escape (`\x1b`, `\u009b`,
/// `\u202e`, `\n`, `\t`); borrowed when nothing needed escaping.
pub fn escape(s: &str) -> Cow<'_, str> {
    if is_clean(s) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    push_escaped(&mut out, s);
    Cow::Owned(out)
}

/// Appends `s` escaped as [`escape`] does.
pub fn push_escaped(out: &mut String, s: &str) {
    push_escaped_then(out, s, false);
}

/// Appends `s` with its control and format characters escaped and its backslashes as they
/// are: for a file format that gives the backslash a meaning of its own (a `.c2w` profile's
/// `fen\n`), where doubling it would change the text.
pub fn push_escaped_controls(out: &mut String, s: &str) {
    for c in s.chars() {
        if needs_escape(c) {
            push_escape(out, c);
        } else {
            out.push(c);
        }
    }
}

/// [`push_escaped`], where `escape_follows` says an escape is written right after `s` (an
/// invalid byte's `\xNN`): a backslash ending `s` then begins what reads as an escape too.
fn push_escaped_then(out: &mut String, s: &str, escape_follows: bool) {
    let trailing = escape_follows && s.ends_with('\\');
    if !trailing && is_clean(s) {
        out.push_str(s);
        return;
    }
    let b = s.as_bytes();
    for (i, c) in s.char_indices() {
        if needs_escape(c) {
            push_escape(out, c);
        } else if c == '\\'
            && (starts_escape(b.get(i + 1).copied()) || (trailing && i + 1 == b.len()))
        {
            out.push_str("\\\\");
        } else {
            out.push(c);
        }
    }
}

/// Bytes that may not be UTF-8: valid parts escaped as [`escape`] does, invalid bytes as
/// `\xNN`.
pub fn escape_bytes(bytes: &[u8]) -> Cow<'_, str> {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return escape(s);
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    push_escaped_bytes(&mut out, bytes);
    Cow::Owned(out)
}

/// Appends `bytes` escaped as [`escape_bytes`] does.
pub fn push_escaped_bytes(out: &mut String, bytes: &[u8]) {
    use std::fmt::Write as _;
    for chunk in bytes.utf8_chunks() {
        push_escaped_then(out, chunk.valid(), !chunk.invalid().is_empty());
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
}

/// Text from outside kibitzer. Its `Display` is the escaped form, so a `format!` of it can
/// never put a control character on a terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Untrusted<'a>(pub &'a str);

impl fmt::Display for Untrusted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if is_clean(self.0) {
            return f.pad(self.0);
        }
        f.pad(&escape(self.0))
    }
}

/// A finished text report made safe for a terminal: line breaks stay, every other control or
/// format character is escaped. Used by every text sink, so a field a front end forgot to
/// wrap in [`Untrusted`] still cannot reach the terminal raw.
pub fn guard(report: &str) -> Cow<'_, str> {
    guard_with(report, false)
}

/// [`guard`] for a report kibitzer painted: its own colour sequences (SGR with the attributes
/// it paints with) stay.
pub fn guard_painted(report: &str) -> Cow<'_, str> {
    guard_with(report, true)
}

fn guard_with(report: &str, painted: bool) -> Cow<'_, str> {
    if printable_ascii(report.as_bytes(), true) {
        return Cow::Borrowed(report);
    }
    let mut out = String::with_capacity(report.len() + 16);
    let mut rest = report;
    while let Some((i, c)) = rest
        .char_indices()
        .find(|&(_, c)| c != '\n' && needs_escape(c))
    {
        out.push_str(&rest[..i]);
        let after = &rest[i + c.len_utf8()..];
        if c == '\x1b'
            && painted
            && let Some(n) = sgr_len(after)
        {
            out.push('\x1b');
            out.push_str(&after[..n]);
            rest = &after[n..];
            continue;
        }
        push_escape(&mut out, c);
        rest = after;
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// The length of an SGR sequence's body (`[1;31m`) at the start of `s`, if it is one made
/// only of the attributes kibitzer itself paints with (reset, bold, dim, red, green, yellow,
/// magenta, cyan). Anything else (conceal, black or white text, cursor moves, OSC) is
/// escaped, so text that slipped past [`Untrusted`] can at most recolour, never hide a line.
fn sgr_len(s: &str) -> Option<usize> {
    let body = s.strip_prefix('[')?;
    let params = body
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b';')
        .count();
    if params > 16 || body.as_bytes().get(params) != Some(&b'm') {
        return None;
    }
    let painted =
        |p: &str| matches!(p.parse::<u8>(), Ok(0 | 1 | 2 | 31 | 32 | 33 | 35 | 36)) || p.is_empty();
    body[..params].split(';').all(painted).then_some(params + 2)
}

/// `eprintln!` for messages that may quote untrusted text (file names, lines, engine
/// output): the message is passed through [`guard`] first.
#[macro_export]
macro_rules! eprintln_safe {
    ($($arg:tt)*) => {
        eprintln!("{}", $crate::untrusted::guard(&format!($($arg)*)))
    };
}

/// Writes a finished text report through [`guard`] (or [`guard_painted`] when kibitzer
/// coloured it).
pub fn write_guarded(
    out: &mut dyn std::io::Write,
    text: &str,
    painted: bool,
) -> std::io::Result<()> {
    out.write_all(guard_with(text, painted).as_bytes())
}

#[cfg(test)]
mod tests {

    #[test]
    fn escaping_is_one_to_one_even_for_text_that_looks_escaped() {
        // A real ESC and the four characters `\x1b` must never print alike.
        let real = escape("\x1b[1mname");
        let literal = escape("\\x1b[1mname");
        assert_eq!(real, "\\x1b[1mname");
        assert_eq!(literal, "\\\\x1b[1mname");
        assert_ne!(real, literal);
        assert_ne!(escape("a\nb"), escape("a\\nb"));
        assert_ne!(escape("\u{202e}"), escape("\\u202e"));
        // A backslash that starts no escape is shown as it is: Windows paths stay readable.
        assert_eq!(escape("C:\\engines\\Stockfish"), "C:\\engines\\Stockfish");
        assert_eq!(escape("C:\\tools"), "C:\\\\tools");
        // The first starts what reads as an escaped backslash; the last starts nothing.
        assert_eq!(escape("\\\\"), "\\\\\\");
        // An invalid byte after a backslash: the backslash is escaped, the byte is `\xNN`.
        assert_eq!(escape_bytes(b"a\\\xff"), "a\\\\\\xff");
        assert_ne!(escape_bytes(b"a\\\xff"), escape_bytes(b"a\\xff"));
    }

    use super::*;

    #[test]
    fn escapes_c0_del_c1_and_bidi_visibly() {
        assert_eq!(escape("a\x1b]52;c;aGk=\x07b"), "a\\x1b]52;c;aGk=\\x07b");
        assert_eq!(escape("x\u{9b}2Jy"), "x\\u009b2Jy");
        assert_eq!(escape("\u{202e}evil"), "\\u202eevil");
        assert_eq!(escape("a\x7f\x08"), "a\\x7f\\x08");
        assert_eq!(escape("tag\u{e0041}"), "tag\\u{e0041}");
        assert_eq!(escape("a\tb\r\n"), "a\\tb\\r\\n");
    }

    #[test]
    fn clean_text_is_borrowed_and_unicode_kept() {
        assert!(matches!(escape("bestmove e2e4"), Cow::Borrowed(_)));
        assert!(matches!(escape("Stockfish 15.1 — ♞ é"), Cow::Borrowed(_)));
    }

    #[test]
    fn the_word_at_a_time_check_agrees_with_a_byte_at_a_time_one() {
        for b in 0u8..=255 {
            for at in 0..9 {
                let mut text = vec![b'a'; 9];
                text[at] = b;
                let bytewise = text.iter().all(|&c| (0x20..0x7f).contains(&c));
                assert_eq!(printable_ascii(&text, false), bytewise, "{b:#x} at {at}");
                let with_lf = text
                    .iter()
                    .all(|&c| (0x20..0x7f).contains(&c) || c == b'\n');
                assert_eq!(printable_ascii(&text, true), with_lf, "{b:#x} at {at}");
            }
        }
    }

    #[test]
    fn invalid_utf8_bytes_become_hex() {
        assert_eq!(escape_bytes(b"a\xffb\x1b"), "a\\xffb\\x1b");
    }

    #[test]
    fn display_pads_the_escaped_form() {
        assert_eq!(format!("[{:<6}]", Untrusted("a\x1bb")), "[a\\x1bb]");
        assert_eq!(format!("[{:<4}]", Untrusted("ab")), "[ab  ]");
    }

    #[test]
    fn guard_keeps_newlines_and_sgr_but_escapes_the_rest() {
        let report = "\x1b[1;31merror\x1b[0m: name \x1b]52;c;x\x07 \u{9b}31m\n\u{202e}x\n";
        assert_eq!(
            guard_painted(report),
            "\x1b[1;31merror\x1b[0m: name \\x1b]52;c;x\\x07 \\u009b31m\n\\u202ex\n"
        );
        assert!(matches!(guard("plain\nlines\n"), Cow::Borrowed(_)));
        // A clear-screen is no colour, and concealed text is no colour kibitzer paints with.
        assert_eq!(guard_painted("\x1b[2J"), "\\x1b[2J");
        assert_eq!(guard_painted("\x1b[8mhidden"), "\\x1b[8mhidden");
        assert_eq!(guard_painted("\x1b[30mblack"), "\\x1b[30mblack");
        // Without colour, no ESC at all survives.
        assert_eq!(guard("\x1b[1mbold"), "\\x1b[1mbold");
    }
}
