//! Collects events into per-engine sessions while a parser walks the log.

use super::clock::{Clock, Stamp};
use super::lines::text;
use super::{ImportedSession, LogFormat, Unclassified};
use crate::recording::{Event, Header, ProxyKind, Source};
use std::collections::HashMap;

pub struct Builder {
    format: LogFormat,
    sessions: Vec<SessionBuf>,
    index: HashMap<String, usize>,
    pub unclassified: Vec<Unclassified>,
    pub clock: Clock,
    /// Line number being parsed, stamped on every event.
    pub line: u64,
    /// The session [`Builder::session_of`] found last.
    last: usize,
}

struct SessionBuf {
    /// Shared by the session's events: no copy per event, and a reader on another thread
    /// tells sessions apart by pointer.
    label: std::sync::Arc<str>,
    header: Header,
    events: Vec<Event>,
    /// Events pushed so far, handed out ([`Builder::drain_settled`]) or not.
    pushed: u64,
    /// Some pushed event was traffic.
    traffic: bool,
}

/// Index of a session inside the builder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sid(usize);

impl Builder {
    pub fn new(format: LogFormat) -> Self {
        Builder {
            format,
            sessions: Vec::new(),
            index: HashMap::new(),
            unclassified: Vec::new(),
            clock: Clock::default(),
            line: 0,
            last: usize::MAX,
        }
    }

    /// The session with this label, created on first use.
    pub fn session(&mut self, label: &str) -> Sid {
        if let Some(&i) = self.index.get(label) {
            return Sid(i);
        }
        let i = self.sessions.len();
        let mut header = Header::new(concat!("kibitzer ", env!("CARGO_PKG_VERSION")), "");
        header.label = Some(label.to_owned());
        header.imported_from = Some(self.format.name().to_owned());
        self.sessions.push(SessionBuf {
            label: label.into(),
            header,
            events: Vec::new(),
            pushed: 0,
            traffic: false,
        });
        self.index.insert(label.to_owned(), i);
        Sid(i)
    }

    /// [`Builder::session`] for a label as the log spells it (invalid UTF-8 replaced). Logs
    /// interleave a few sessions line by line: the last one is tried first, without hashing.
    pub fn session_of(&mut self, label: &[u8]) -> Sid {
        if let Some(s) = self.sessions.get(self.last)
            && s.label.as_bytes() == label
        {
            return Sid(self.last);
        }
        let sid = self.session(&String::from_utf8_lossy(label));
        self.last = sid.0;
        sid
    }

    pub fn has_session(&self, label: &str) -> bool {
        self.index.contains_key(label)
    }

    /// The session for the producing tool's own lines (`[xboard]`, `[cutechess]`...).
    pub fn tool(&mut self) -> Sid {
        let label = format!("[{}]", self.format.tool());
        self.session(&label)
    }

    pub fn header(&mut self, sid: Sid) -> Option<&mut Header> {
        self.sessions.get_mut(sid.0).map(|s| &mut s.header)
    }

    pub fn has_traffic(&self, sid: Sid) -> bool {
        self.sessions.get(sid.0).is_some_and(|s| s.traffic)
    }

    /// Time for the current line: its own stamp, or the last one seen.
    pub fn t(&mut self, stamp: Option<Stamp>) -> u64 {
        match stamp {
            Some(s) => self.clock.stamp(s),
            None => self.clock.now(),
        }
    }

    fn push(&mut self, sid: Sid, mut e: Event) -> Option<&mut Event> {
        let s = self.sessions.get_mut(sid.0)?;
        s.pushed += 1;
        s.traffic |= e.is_traffic();
        e.seq = s.pushed;
        e.session = Some(s.label.clone());
        e.line = Some(self.line);
        s.events.push(e);
        s.events.last_mut()
    }

    pub fn traffic(&mut self, sid: Sid, src: Source, t: u64, payload: &[u8]) {
        let e = Event::from_bytes(0, t, src, payload, crate::recording::Eol::Lf);
        self.push(sid, e);
    }

    /// A line of the tool's own; one that states a verdict on an engine carries it typed.
    pub fn proxy(&mut self, sid: Sid, kind: ProxyKind, t: u64, msg: &[u8]) -> Option<&mut Event> {
        let mut e = Event::proxy(0, t, kind, text(msg));
        if matches!(
            kind,
            ProxyKind::Warning | ProxyKind::GameFinished | ProxyKind::Adjudication
        ) {
            e.verdict = super::verdict::classify(&e.text).map(Box::new);
        }
        self.push(sid, e)
    }

    /// The last event of a session, to complete it from a continuation line.
    pub fn last_event_mut(&mut self, sid: Sid) -> Option<&mut Event> {
        self.sessions
            .get_mut(sid.0)
            .and_then(|s| s.events.last_mut())
    }

    /// Edits the bytes of the session's last traffic event (wrapped lines).
    pub fn map_last_bytes(&mut self, sid: Sid, f: impl FnOnce(&mut Vec<u8>)) -> bool {
        let Some(e) = self
            .sessions
            .get_mut(sid.0)
            .and_then(|s| s.events.last_mut())
            .filter(|e| e.is_traffic())
        else {
            return false;
        };
        let mut bytes = e.line_bytes();
        f(&mut bytes);
        let joined = Event::from_bytes(e.seq, e.t, e.src, &bytes, e.eol);
        e.text = joined.text;
        e.hex = joined.hex;
        true
    }

    /// Appends to the session's last traffic event.
    pub fn append_to_last(&mut self, sid: Sid, more: &[u8]) -> bool {
        self.map_last_bytes(sid, |b| b.extend_from_slice(more))
    }

    pub fn last_text(&self, sid: Sid) -> Option<&str> {
        self.sessions
            .get(sid.0)
            .and_then(|s| s.events.last())
            .map(|e| e.text.as_str())
    }

    /// Each session's label and header as [`Builder::finish`] gives them, in order of
    /// appearance, without their events.
    pub fn session_headers(&self) -> Vec<(String, Header)> {
        let started = self.clock.started();
        self.sessions
            .iter()
            .map(|s| {
                let mut header = s.header.clone();
                header.started = started.clone();
                (s.label.to_string(), header)
            })
            .collect()
    }

    /// Moves the events that can no longer change to `out`, in line order (same line: session
    /// order): every event of a line before `settled_before`, and any other event that is not
    /// its session's last (a parser only ever edits a session's last event). Events of later
    /// lines wait while an earlier session's last event might still change, so the order holds.
    pub fn drain_settled(&mut self, settled_before: u64, out: &mut impl Extend<Event>) {
        let line_of = |e: &Event| e.line.unwrap_or(0);
        let hold_from = self
            .sessions
            .iter()
            .filter_map(|s| s.events.last().map(line_of))
            .filter(|&l| l >= settled_before)
            .min()
            .unwrap_or(u64::MAX);
        // Each session's settled events are in line order already: merged by (line, session),
        // each event is moved once.
        let mut runs: Vec<std::iter::Peekable<std::vec::Drain<'_, Event>>> = self
            .sessions
            .iter_mut()
            .filter_map(|s| {
                let n = s.events.partition_point(|e| line_of(e) < hold_from);
                (n > 0).then(|| s.events.drain(..n).peekable())
            })
            .collect();
        if let [only] = runs.as_mut_slice() {
            out.extend(only);
        } else {
            loop {
                let mut first: Option<(u64, usize)> = None;
                for (k, run) in runs.iter_mut().enumerate() {
                    if let Some(e) = run.peek()
                        && first.is_none_or(|(line, _)| line_of(e) < line)
                    {
                        first = Some((line_of(e), k));
                    }
                }
                let Some((_, k)) = first else { break };
                out.extend(runs[k].next());
            }
        }
        drop(runs);
        for s in &mut self.sessions {
            // A log can hold thousands of sessions (engines restarted every game): one that
            // has nothing waiting keeps no buffer.
            if s.events.is_empty() && s.events.capacity() > 0 {
                s.events = Vec::new();
            }
        }
    }

    pub fn unclassified(&mut self, bytes: &[u8], reason: &'static str) {
        self.unclassified.push(Unclassified {
            line: self.line,
            text: text(bytes),
            reason,
        });
    }

    pub fn finish(self) -> Vec<ImportedSession> {
        let kind = self.clock.kind();
        let headers = self.session_headers();
        self.sessions
            .into_iter()
            .zip(headers)
            .map(|(s, (label, header))| ImportedSession {
                label,
                header,
                events: s.events,
                clock: kind,
            })
            .collect()
    }
}
