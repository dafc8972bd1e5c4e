//! What the byte rules ask of a line's text, worked out in one pass over it: on the reading
//! thread when the line is parsed ahead ([`super::Ahead`]), where the text was just written
//! and the thread has time to spare, or else where the line is judged. The same function
//! answers in both places, so where it ran never changes a finding.

/// Facts about a line's text, whatever its protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LineText {
    /// Control bytes other than tab (DEL included).
    pub control: bool,
    /// Leading or trailing whitespace around text that is not only whitespace.
    pub padded: bool,
    /// A UCI answer inside a line that says something else (`info ... bestmove e2e4`,
    /// `0readyok`): two messages ran together. `info string`, `id` and `option` lines may
    /// say anything and never count.
    pub ran_together: Option<RanTogether>,
    /// The line reads as CECP's `feature` or `tellics`: an engine answering a UCI GUI in
    /// the other protocol.
    pub cecp_answer: bool,
}

/// The UCI answer found inside another line ([`LineText::ran_together`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RanTogether {
    Readyok,
    Uciok,
    Bestmove,
}

impl RanTogether {
    pub fn as_str(self) -> &'static str {
        match self {
            RanTogether::Readyok => "readyok",
            RanTogether::Uciok => "uciok",
            RanTogether::Bestmove => "bestmove",
        }
    }
}

static BESTMOVE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"bestmove "));

impl LineText {
    pub fn of(text: &str) -> LineText {
        let t = trim(text);
        let scan = crate::swar::scan_line(text.as_bytes());
        // Two suffix tests, and a search for `bestmove` only where `be` occurs, keep this
        // cheap on every info line.
        let inner = if t.ends_with("readyok") && t != "readyok" {
            Some(RanTogether::Readyok)
        } else if t.ends_with("uciok") && t != "uciok" {
            Some(RanTogether::Uciok)
        } else if scan.be && BESTMOVE.find(t.as_bytes()).is_some_and(|i| i > 0) {
            Some(RanTogether::Bestmove)
        } else {
            None
        };
        LineText {
            control: scan.control,
            padded: text.len() != t.len() && !t.is_empty(),
            ran_together: inner.filter(|_| {
                !t.starts_with("info string") && !t.starts_with("id ") && !t.starts_with("option ")
            }),
            cecp_answer: t.starts_with("feature ") || t == "tellics" || t.starts_with("tellics "),
        }
    }
}

/// `str::trim`, which engine lines rarely need: one that starts and ends with a printable
/// ASCII byte has no whitespace to trim (every other whitespace character is a control byte
/// or more than one byte long).
fn trim(text: &str) -> &str {
    let printable = |b: Option<&u8>| b.is_some_and(|b| (0x21..0x7f).contains(b));
    if printable(text.as_bytes().first()) && printable(text.as_bytes().last()) {
        text
    } else {
        text.trim()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_of_lines() {
        let clean = LineText::of("info depth 3 pv e2e4");
        assert_eq!(clean, LineText::default());
        assert!(LineText::of("id name x\u{7}").control);
        assert!(LineText::of("id name x\u{7f}").control);
        assert!(
            !LineText::of("id\tname x").control,
            "a tab is no control byte here"
        );
        assert!(LineText::of(" readyok").padded);
        assert!(LineText::of("readyok\u{a0}").padded, "Unicode whitespace");
        assert!(!LineText::of("   ").padded, "only whitespace");
        assert_eq!(
            LineText::of("0readyok").ran_together,
            Some(RanTogether::Readyok)
        );
        assert_eq!(LineText::of("readyok").ran_together, None);
        assert_eq!(
            LineText::of("info depth 9 uciok").ran_together,
            Some(RanTogether::Uciok)
        );
        assert_eq!(
            LineText::of("info depth 9 pv e2e4 bestmove e2e4").ran_together,
            Some(RanTogether::Bestmove)
        );
        assert_eq!(LineText::of("bestmove e2e4").ran_together, None);
        assert_eq!(LineText::of("info string bestmove e2e4").ran_together, None);
        assert_eq!(LineText::of("option name readyok").ran_together, None);
        assert!(LineText::of(" feature myname=\"x\"").cecp_answer);
        assert!(LineText::of("tellics say hi").cecp_answer);
        assert!(!LineText::of("info string feature x").cecp_answer);
        assert!(!LineText::of("features").cecp_answer);
    }
}
