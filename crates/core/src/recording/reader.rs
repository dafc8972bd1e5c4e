//! Streaming reader for JSONL recordings.
//!
//! Reads one line at a time (recordings can be gigabytes), numbers lines from 1 so every
//! problem can be reported as `file:line`, and treats an unparsable *last* line without a
//! newline as the torn tail of a proxy that was killed mid-write rather than as corruption.

use super::event::{Event, FORMAT_VERSION, Header};
use std::io::{self, BufRead};
use thiserror::Error;

mod fast;

#[derive(Debug, Error)]
pub enum RecordingError {
    #[error("I/O error: {0}")]
    Io(#[from] io::Error),
    #[error("line 1: empty file, not a kibitzer recording")]
    Empty,
    #[error("line 1: not a kibitzer recording header: {0}")]
    BadHeader(String),
    #[error(
        "line 1: recording format version {0} is newer than this kibitzer understands ({FORMAT_VERSION})"
    )]
    UnsupportedVersion(u32),
}

/// A line of the recording that could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadIssue {
    /// 1-based line number in the recording file.
    pub line: u64,
    pub kind: IssueKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IssueKind {
    /// A complete line that is not a valid event.
    Malformed(String),
    /// The file ends in the middle of a line (the recorder was killed while writing it).
    TornTail,
}

impl std::fmt::Display for ReadIssue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            // `file:LINE: message` once the caller puts the file name in front.
            IssueKind::Malformed(m) => write!(f, "{}: malformed event: {m}", self.line),
            IssueKind::TornTail => write!(
                f,
                "{}: incomplete last line ignored (recording was cut off mid-write)",
                self.line
            ),
        }
    }
}

pub struct Reader<R> {
    inner: R,
    header: Header,
    lineno: u64,
    buf: Vec<u8>,
    /// Bytes consumed so far; `None` once an I/O error left it unknown.
    pos: Option<u64>,
    /// Where the line of the event read last starts in the input, when it is one line.
    line_at: Option<u64>,
}

/// The UTF-8 byte-order mark a file saved on Windows may start with.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Does this look like the start of a kibitzer recording? (For format autodetection.)
///
/// Judged by what the header says, not by its exact bytes: a recording rewritten with ordinary
/// JSON spacing (Python's `json.dumps`, `jq` without `-c`, which also spreads each object over
/// several lines) is still one.
pub fn looks_like_recording(first_bytes: &[u8]) -> bool {
    static KEY: std::sync::OnceLock<regex::bytes::Regex> = std::sync::OnceLock::new();
    let head = &first_bytes[..first_bytes.len().min(4096)];
    let head = head.strip_prefix(BOM).unwrap_or(head);
    let trimmed = head.trim_ascii_start();
    if !trimmed.starts_with(b"{") {
        return false;
    }
    // The `kibitzer` key of the first object, in whatever spacing and key order; a key of a
    // nested object (the `c2w` note) or of a later line does not count.
    KEY.get_or_init(|| {
        regex::bytes::Regex::new(r#""kibitzer"\s*:\s*"recording""#).expect("constant regex")
    })
    .is_match(&top_level(trimmed))
}

/// The bytes of the first JSON object at its own level: nested objects and arrays are left
/// out (strings are followed, so braces inside them do not count), and it ends with the object.
fn top_level(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for &b in text {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else {
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        break;
                    }
                    continue;
                }
                _ => {}
            }
        }
        if depth == 1 {
            out.push(b);
        }
    }
    out
}

/// An object spread over several lines is read whole up to this size; past it the lines are
/// reported as malformed rather than buffered without bound.
const MAX_OBJECT_BYTES: usize = 16 << 20;

/// The longest line of a recording read into memory. An event holds one protocol line, which
/// the proxy records whole however long; a line past this (a file with no newline, garbage)
/// is reported and skipped, streaming, instead of costing its size in memory several times.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// `read_until(b'\n')` keeping at most `limit` bytes: a longer line is consumed to its end
/// and `Some(its length)` returned, with `buf` holding only its start.
fn read_line_bounded(
    r: &mut impl BufRead,
    buf: &mut Vec<u8>,
    limit: usize,
) -> io::Result<Option<u64>> {
    let mut len: u64 = 0;
    loop {
        let avail = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            break;
        }
        let (take, done) = match memchr::memchr(b'\n', avail) {
            Some(i) => (i + 1, true),
            None => (avail.len(), false),
        };
        let room = limit.saturating_sub(buf.len());
        let keep = take.min(room);
        if buf.len() + keep > buf.capacity() {
            // Doubling, but never past the limit: a vector grown past it would ask for twice
            // the limit to hold what is cut at the limit anyway.
            let cap = (buf.capacity() * 2).clamp(buf.len() + keep, limit.max(buf.len() + keep));
            buf.reserve_exact(cap - buf.len());
        }
        buf.extend_from_slice(&avail[..keep]);
        len += take as u64;
        r.consume(take);
        if done {
            break;
        }
    }
    Ok((len > limit as u64).then_some(len))
}

impl<R: BufRead> Reader<R> {
    /// Reads and validates the header line.
    pub fn new(mut inner: R) -> Result<Self, RecordingError> {
        let mut buf = Vec::new();
        let n = inner.read_until(b'\n', &mut buf)?;
        if n == 0 {
            return Err(RecordingError::Empty);
        }
        let mut lineno = 1;
        let mut pos = n as u64;
        // Windows editors save UTF-8 with a byte-order mark; it is no part of the JSON.
        if buf.starts_with(BOM) {
            buf.drain(..BOM.len());
        }
        let header: Header = loop {
            match serde_json::from_slice(trim_eol(&buf)) {
                Ok(h) => break h,
                // A pretty-printed header: take lines until the object closes.
                Err(e)
                    if e.is_eof() && buf.len() < MAX_OBJECT_BYTES && lineno_opens(&buf, lineno) =>
                {
                    match inner.read_until(b'\n', &mut buf)? {
                        0 => return Err(RecordingError::BadHeader(e.to_string())),
                        m => pos += m as u64,
                    }
                    lineno += 1;
                }
                Err(e) => return Err(RecordingError::BadHeader(e.to_string())),
            }
        };
        if header.kibitzer != "recording" {
            return Err(RecordingError::BadHeader(
                "missing \"kibitzer\":\"recording\"".into(),
            ));
        }
        if header.version > FORMAT_VERSION {
            return Err(RecordingError::UnsupportedVersion(header.version));
        }
        Ok(Reader {
            inner,
            header,
            lineno,
            buf,
            pos: Some(pos),
            line_at: None,
        })
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The line (1-based, the header being line 1) of the event or issue read last.
    pub fn line(&self) -> u64 {
        self.lineno
    }

    /// Bytes consumed from the input so far; `None` once an I/O error left it unknown.
    pub fn bytes_read(&self) -> Option<u64> {
        self.pos
    }

    /// The byte offset in the input where the event read last starts: its line, when the
    /// event is one whole line (not an object spread over several).
    pub fn line_at(&self) -> Option<u64> {
        self.line_at
    }

    /// Counts `n` bytes consumed from the input.
    fn consumed(&mut self, n: usize) {
        self.pos = self.pos.map(|p| p + n as u64);
    }

    /// Next event, or an issue with a line number. `None` at end of file; blank lines are
    /// skipped. An I/O error ends the stream as a `Malformed` issue on the current line.
    pub fn next_event(&mut self) -> Option<Result<Event, ReadIssue>> {
        let mut e = Event::line(0, 0, super::Source::Proxy, String::new());
        self.read_into(&mut e).map(|r| r.map(|()| e))
    }

    /// [`Reader::next_event`] into `e`, reusing its buffers: reading a long recording this way
    /// allocates nothing per line. On an issue `e` is left unspecified.
    pub fn read_into(&mut self, e: &mut Event) -> Option<Result<(), ReadIssue>> {
        let read = self.read_raw(e);
        if let Some(Ok(())) = read {
            e.upgrade_legacy();
        }
        read
    }

    fn read_raw(&mut self, e: &mut Event) -> Option<Result<(), ReadIssue>> {
        loop {
            self.lineno += 1;
            self.line_at = self.pos;
            // Usually the whole line is already in the reader's buffer: parse it in place
            // instead of copying it out first.
            let avail = loop {
                match self.inner.fill_buf() {
                    Ok(b) => break b,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(err) => {
                        self.pos = None;
                        return Some(Err(read_error(self.lineno, &err)));
                    }
                }
            };
            if avail.is_empty() {
                return None;
            }
            // A line past the limit goes the bounded way, whatever the buffer holds (a map
            // holds all of it).
            if let Some(nl) = memchr::memchr(b'\n', avail).filter(|&nl| nl < MAX_LINE_BYTES) {
                let outcome = match avail.get(..=nl) {
                    Some(l) => decode_line(l, self.lineno, e),
                    None => LineOutcome::Blank,
                };
                if matches!(outcome, LineOutcome::Spread) {
                    self.buf.clear();
                    self.buf.extend_from_slice(&avail[..=nl]);
                }
                self.inner.consume(nl + 1);
                self.consumed(nl + 1);
                match outcome {
                    LineOutcome::Blank => continue,
                    LineOutcome::Done(item) => return Some(item),
                    LineOutcome::Spread => {
                        self.line_at = None;
                        let first = self.lineno;
                        return Some(self.read_spread_object(first, e));
                    }
                }
            }
            self.buf.clear();
            match read_line_bounded(&mut self.inner, &mut self.buf, MAX_LINE_BYTES) {
                Err(err) => {
                    self.pos = None;
                    return Some(Err(read_error(self.lineno, &err)));
                }
                Ok(Some(len)) => {
                    self.pos = self.pos.map(|p| p + len);
                    return Some(Err(ReadIssue {
                        line: self.lineno,
                        kind: IssueKind::Malformed(format!(
                            "a line of {len} bytes, longer than any event ({} MiB at most): \
                             skipped without being read into memory",
                            MAX_LINE_BYTES >> 20
                        )),
                    }));
                }
                Ok(None) => self.consumed(self.buf.len()),
            }
            match decode_line(&self.buf, self.lineno, e) {
                LineOutcome::Blank => {}
                LineOutcome::Done(item) => return Some(item),
                LineOutcome::Spread => {
                    self.line_at = None;
                    let first = self.lineno;
                    return Some(self.read_spread_object(first, e));
                }
            }
        }
    }

    /// The rest of an event that `jq` or a pretty-printer spread over several lines, the
    /// first of which is in `self.buf`. Lines are counted so later events keep their numbers;
    /// an issue is reported on the object's first line.
    fn read_spread_object(&mut self, first_line: u64, e: &mut Event) -> Result<(), ReadIssue> {
        loop {
            match serde_json::from_slice::<Event>(trim_eol(&self.buf)) {
                Ok(parsed) => {
                    *e = parsed;
                    return Ok(());
                }
                Err(err) if err.is_eof() && self.buf.len() < MAX_OBJECT_BYTES => {
                    match self.inner.read_until(b'\n', &mut self.buf) {
                        Ok(0) => {
                            return Err(ReadIssue {
                                line: first_line,
                                kind: IssueKind::TornTail,
                            });
                        }
                        Ok(n) => {
                            self.lineno += 1;
                            self.consumed(n);
                        }
                        Err(io) => {
                            self.pos = None;
                            return Err(read_error(first_line, &io));
                        }
                    }
                }
                Err(err) => {
                    return Err(ReadIssue {
                        line: first_line,
                        kind: IssueKind::Malformed(err.to_string()),
                    });
                }
            }
        }
    }
}

fn read_error(line: u64, e: &io::Error) -> ReadIssue {
    ReadIssue {
        line,
        kind: IssueKind::Malformed(format!("read error: {e}")),
    }
}

/// A header is read over several lines only when its first line is a lone `{`.
fn lineno_opens(buf: &[u8], lines_read: u64) -> bool {
    lines_read > 1 || trim_eol(buf).trim_ascii() == b"{"
}

enum LineOutcome {
    Blank,
    Done(Result<(), ReadIssue>),
    /// A complete line that opens an object the following lines continue.
    Spread,
}

/// One raw line (terminator included, if any) into `e`.
fn decode_line(raw: &[u8], line: u64, e: &mut Event) -> LineOutcome {
    let complete = raw.last() == Some(&b'\n');
    let body = trim_eol(raw);
    if body.first().is_some_and(|&b| b == b'{') && fast::parse_into(body, e) {
        return LineOutcome::Done(Ok(()));
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        return LineOutcome::Blank;
    }
    LineOutcome::Done(match serde_json::from_slice::<Event>(body) {
        Ok(parsed) => {
            *e = parsed;
            Ok(())
        }
        Err(_) if !complete => Err(ReadIssue {
            line,
            kind: IssueKind::TornTail,
        }),
        // Only a line that is nothing but `{` opens a spread object (how `jq .` and other
        // pretty-printers start one): a compact line cut short stays one malformed line, and
        // the next event is not swallowed into it.
        Err(_) if body.trim_ascii() == b"{" => return LineOutcome::Spread,
        Err(err) => Err(ReadIssue {
            line,
            kind: IssueKind::Malformed(err.to_string()),
        }),
    })
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Event, ReadIssue>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_event()
    }
}

fn trim_eol(b: &[u8]) -> &[u8] {
    let b = b.strip_suffix(b"\n").unwrap_or(b);
    b.strip_suffix(b"\r").unwrap_or(b)
}

/// A recording held in memory.
#[derive(Debug, Clone, Default)]
pub struct Recording {
    pub header: Header,
    pub events: Vec<Event>,
    pub issues: Vec<ReadIssue>,
}

/// Reads a whole recording, collecting issues instead of stopping at them.
pub fn read_all<R: BufRead>(inner: R) -> Result<Recording, RecordingError> {
    let mut r = Reader::new(inner)?;
    let mut rec = Recording {
        header: r.header().clone(),
        ..Default::default()
    };
    while let Some(item) = r.next_event() {
        match item {
            Ok(e) => rec.events.push(e),
            Err(i) => rec.issues.push(i),
        }
    }
    Ok(rec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_overlong_line_is_consumed_with_its_length_and_the_next_one_read() {
        let data = b"abcdefghij\nnext\n";
        let mut r = std::io::BufReader::with_capacity(4, &data[..]);
        let mut buf = Vec::new();
        assert_eq!(read_line_bounded(&mut r, &mut buf, 5).unwrap(), Some(11));
        assert_eq!(buf, b"abcde");
        buf.clear();
        assert_eq!(read_line_bounded(&mut r, &mut buf, 5).unwrap(), None);
        assert_eq!(buf, b"next\n");
    }

    const HDR: &str =
        r#"{"kibitzer":"recording","version":1,"tool":"t","started":"2026-01-01T00:00:00Z"}"#;

    #[test]
    fn a_pretty_printed_recording_reads_with_its_line_numbers() {
        let text = "{\n  \"kibitzer\": \"recording\",\n  \"version\": 1,\n  \"tool\": \"t\"\n}\n\
                    {\n  \"seq\": 1,\n  \"t\": 5,\n  \"src\": \"gui\",\n  \"text\": \"uci\"\n}\n\
                    {\"seq\":2,\"t\":9,\"src\":\"engine\",\"text\":\"uciok\"}\nnot json\n";
        let rec = read_all(text.as_bytes()).unwrap();
        assert_eq!(rec.header.started, "");
        assert_eq!(rec.events.len(), 2);
        assert_eq!(rec.events[0].text, "uci");
        assert_eq!(rec.issues.len(), 1);
        assert_eq!(
            rec.issues[0].line, 13,
            "lines of spread objects are counted"
        );
    }

    #[test]
    fn a_lone_brace_before_a_broken_line_costs_those_two_lines_only() {
        let text = format!(
            "{HDR}\n{{\n{}\n{}\n",
            r#"{"seq":"seq":138,"t":4,"src":"gui","text":"post"}"#,
            r#"{"seq":139,"t":5,"src":"gui","text":"easy"}"#
        );
        let rec = read_all(text.as_bytes()).unwrap();
        assert_eq!(rec.issues.len(), 1);
        assert_eq!(rec.issues[0].line, 2);
        assert_eq!(rec.events.len(), 1);
        assert_eq!(rec.events[0].text, "easy");
    }

    #[test]
    fn a_compact_line_cut_short_does_not_swallow_the_next() {
        let text = format!(
            "{HDR}\n{}\n{}\n",
            r#"{"seq":1,"t":5,"src":"gui","te"#, r#"{"seq":2,"t":9,"src":"engine","text":"uciok"}"#
        );
        let rec = read_all(text.as_bytes()).unwrap();
        assert_eq!(rec.events.len(), 1);
        assert_eq!(rec.events[0].text, "uciok");
        assert_eq!(rec.issues[0].line, 2);
    }

    #[test]
    fn reads_events_and_numbers_bad_lines() {
        let text = format!(
            "{HDR}\n{}\nnot json\n\n{}\n",
            r#"{"seq":1,"t":5,"src":"gui","text":"uci"}"#,
            r#"{"seq":2,"t":9,"src":"engine","text":"uciok"}"#
        );
        let rec = read_all(text.as_bytes()).unwrap();
        assert_eq!(rec.events.len(), 2);
        assert_eq!(rec.events[1].text, "uciok");
        assert_eq!(rec.issues.len(), 1);
        assert_eq!(rec.issues[0].line, 3);
        assert!(matches!(rec.issues[0].kind, IssueKind::Malformed(_)));
    }

    #[test]
    fn lines_longer_than_the_read_buffer_read_the_same() {
        let long = "x".repeat(100);
        let text = format!(
            "{HDR}\n{}\n\n{}\nnot json\n{{\"seq\":3,\"t\":1,\"src\":\"gui\",\"text\":\"{long}\"}}\n{{\"seq\":4,\"t\":1,\"sr",
            r#"{"seq":1,"t":5,"src":"gui","text":"uci"}"#,
            r#"{"seq":2,"t":9,"src":"engine","text":"uci\"ok"}"#
        );
        let whole = read_all(text.as_bytes()).unwrap();
        assert_eq!(whole.events.len(), 3);
        assert_eq!(whole.events[1].text, "uci\"ok");
        assert_eq!(whole.events[2].text, long);
        assert_eq!(whole.issues.len(), 2);
        assert_eq!(whole.issues[0].line, 5);
        assert_eq!(whole.issues[1].kind, IssueKind::TornTail);
        for cap in [1, 7, 64] {
            let small = read_all(io::BufReader::with_capacity(cap, text.as_bytes())).unwrap();
            assert_eq!(small.events, whole.events, "capacity {cap}");
            assert_eq!(small.issues, whole.issues, "capacity {cap}");
        }
    }

    #[test]
    fn each_event_says_where_its_line_starts_whatever_the_read_buffer() {
        let long = "x".repeat(100);
        let text = format!(
            "\u{feff}{HDR}\r\n\n{}\r\nnot json\n{{\"seq\":3,\"t\":1,\"src\":\"gui\",\"text\":\"{long}\"}}\n{{\n\"seq\":4,\"t\":2,\"src\":\"gui\",\"text\":\"spread\"}}\n{}",
            r#"{"seq":1,"t":5,"src":"gui","text":"uci"}"#,
            r#"{"seq":2,"t":9,"src":"engine","text":"uciok"}"#
        );
        for cap in [1, 7, 64, 8192] {
            let mut r = Reader::new(io::BufReader::with_capacity(cap, text.as_bytes())).unwrap();
            let mut found = Vec::new();
            while let Some(item) = r.next_event() {
                if let Ok(e) = item {
                    found.push((e.text, r.line_at()));
                }
            }
            let starts = |needle: &str| text.find(needle).map(|i| i as u64);
            assert_eq!(
                found,
                vec![
                    ("uci".to_owned(), starts(r#"{"seq":1"#)),
                    (long.clone(), starts(r#"{"seq":3"#)),
                    // An object spread over lines is no one line of the file.
                    ("spread".to_owned(), None),
                    ("uciok".to_owned(), starts(r#"{"seq":2"#)),
                ],
                "capacity {cap}"
            );
        }
    }

    #[test]
    fn torn_tail_is_not_an_error() {
        let text = format!(
            "{HDR}\n{}\n{{\"seq\":2,\"t\":9,\"sr",
            r#"{"seq":1,"t":5,"src":"gui","text":"uci"}"#
        );
        let rec = read_all(text.as_bytes()).unwrap();
        assert_eq!(rec.events.len(), 1);
        assert_eq!(
            rec.issues,
            vec![ReadIssue {
                line: 3,
                kind: IssueKind::TornTail
            }]
        );
    }

    #[test]
    fn rejects_foreign_files() {
        assert!(matches!(read_all(&b""[..]), Err(RecordingError::Empty)));
        assert!(matches!(
            read_all(&b"hello\n"[..]),
            Err(RecordingError::BadHeader(_))
        ));
        assert!(matches!(
            read_all(&b"{\"a\":1}\n"[..]),
            Err(RecordingError::BadHeader(_))
        ));
        let future = r#"{"kibitzer":"recording","version":99,"tool":"t","started":"x"}"#;
        assert!(matches!(
            read_all(future.as_bytes()),
            Err(RecordingError::UnsupportedVersion(99))
        ));
        assert!(looks_like_recording(HDR.as_bytes()));
        assert!(!looks_like_recording(b"1234 >first : xboard"));
        // Keys sorted (`jq -S`): the nested `c2w` note, braces in its text, comes first.
        let sorted =
            br#"{"c2w":{"file":"/a.c2w","text":"x}{\"}"},"kibitzer":"recording","version":1}"#;
        assert!(looks_like_recording(sorted));
        assert!(!looks_like_recording(
            br#"{"c2w":{"kibitzer":"recording"},"v":1}"#
        ));
        assert!(!looks_like_recording(br#"{"a":1}{"kibitzer":"recording"}"#));
    }
}
