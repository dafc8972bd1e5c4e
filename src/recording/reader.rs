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
}

/// Does this look like the start of a kibitzer recording? (For format autodetection.)
pub fn looks_like_recording(first_bytes: &[u8]) -> bool {
    let head = &first_bytes[..first_bytes.len().min(512)];
    let trimmed = head.trim_ascii_start();
    trimmed.starts_with(b"{") && memchr::memmem::find(head, b"\"kibitzer\":\"recording\"").is_some()
}

impl<R: BufRead> Reader<R> {
    /// Reads and validates the header line.
    pub fn new(mut inner: R) -> Result<Self, RecordingError> {
        let mut buf = Vec::new();
        let n = inner.read_until(b'\n', &mut buf)?;
        if n == 0 {
            return Err(RecordingError::Empty);
        }
        let header: Header = serde_json::from_slice(trim_eol(&buf))
            .map_err(|e| RecordingError::BadHeader(e.to_string()))?;
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
            lineno: 1,
            buf,
        })
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The line (1-based, the header being line 1) of the event or issue read last.
    pub fn line(&self) -> u64 {
        self.lineno
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
        loop {
            self.lineno += 1;
            // Usually the whole line is already in the reader's buffer: parse it in place
            // instead of copying it out first.
            let avail = loop {
                match self.inner.fill_buf() {
                    Ok(b) => break b,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(err) => return Some(Err(read_error(self.lineno, &err))),
                }
            };
            if avail.is_empty() {
                return None;
            }
            if let Some(nl) = memchr::memchr(b'\n', avail) {
                let item = avail
                    .get(..=nl)
                    .and_then(|l| decode_line(l, self.lineno, e));
                self.inner.consume(nl + 1);
                match item {
                    Some(item) => return Some(item),
                    None => continue,
                }
            }
            self.buf.clear();
            if let Err(err) = self.inner.read_until(b'\n', &mut self.buf) {
                return Some(Err(read_error(self.lineno, &err)));
            }
            if let Some(item) = decode_line(&self.buf, self.lineno, e) {
                return Some(item);
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

/// One raw line (terminator included, if any) into `e`: `None` when blank.
fn decode_line(raw: &[u8], line: u64, e: &mut Event) -> Option<Result<(), ReadIssue>> {
    let complete = raw.last() == Some(&b'\n');
    let body = trim_eol(raw);
    if body.first().is_some_and(|&b| b == b'{') && fast::parse_into(body, e) {
        return Some(Ok(()));
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    Some(match serde_json::from_slice::<Event>(body) {
        Ok(parsed) => {
            *e = parsed;
            Ok(())
        }
        Err(_) if !complete => Err(ReadIssue {
            line,
            kind: IssueKind::TornTail,
        }),
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

    const HDR: &str =
        r#"{"kibitzer":"recording","version":1,"tool":"t","started":"2026-01-01T00:00:00Z"}"#;

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
    }
}
