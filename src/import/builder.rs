//! Collects events into per-engine sessions while a parser walks the log.

use super::clock::{Clock, Stamp};
use super::lines::text;
use super::queue::Queue;
use super::{ImportedSession, LogFormat, Unclassified};
use crate::recording::{Event, Header, ProxyKind, Source};
use std::collections::HashMap;

pub struct Builder {
    format: LogFormat,
    sessions: Vec<SessionBuf>,
    index: HashMap<String, usize>,
    pub unclassified: Vec<Unclassified>,
    pub clock: Clock,
    /// See [`Builder::set_final_events`].
    final_events: bool,
    /// Line number being parsed, stamped on every event.
    pub line: u64,
    /// The session [`Builder::session_of`] found last.
    last: usize,
    /// Every session's events not handed out yet, each with its session, in line order (same
    /// line: session order). One queue for all sessions (merging per-session lists moved
    /// each event twice more), whose events are filled in place and swapped out.
    events: Queue,
    /// Events handed out of `events` so far: the index, counted from the first event ever
    /// pushed, of `events[0]`.
    handed: u64,
}

struct SessionBuf {
    /// Shared by the session's events: no copy per event, and a reader on another thread
    /// tells sessions apart by pointer.
    label: std::sync::Arc<str>,
    header: Header,
    /// Events pushed so far, handed out ([`Builder::drain_settled`]) or not.
    pushed: u64,
    /// Some pushed event was traffic.
    traffic: bool,
    /// The session's last event: its index counted as [`Builder::handed`] counts, and its
    /// line. A parser only ever edits a session's last event, and only until it is handed out.
    last: Option<(u64, u64)>,
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
            events: Queue::default(),
            handed: 0,
            final_events: false,
        }
    }

    /// Events are final once pushed: the parser said it never edits an earlier line's
    /// ([`super::formats::Parser::edits_earlier_lines`]).
    pub fn set_final_events(&mut self, final_events: bool) {
        self.final_events = final_events;
    }

    pub fn events_are_final(&self) -> bool {
        self.final_events
    }

    /// The line of the first event not handed out yet.
    pub fn first_queued_line(&self) -> Option<u64> {
        self.events.front().and_then(|(_, e)| e.line)
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
            pushed: 0,
            traffic: false,
            last: None,
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

    fn push(&mut self, sid: Sid, e: Event) -> Option<&mut Event> {
        self.push_with(sid, |spare| *spare = e)
    }

    /// Queues an event that `fill` writes over a spare one (see [`Queue`]), then stamps it
    /// with its session, number and line.
    fn push_with(&mut self, sid: Sid, fill: impl FnOnce(&mut Event)) -> Option<&mut Event> {
        let line = self.line;
        // Behind the events of this line from later sessions, if any (rare: a line that
        // speaks of two sessions naming the later one first).
        let mut at = self.events.len();
        while at > 0
            && self
                .events
                .get(at - 1)
                .is_some_and(|(k, prev)| prev.line == Some(line) && *k > sid.0)
        {
            at -= 1;
        }
        let abs = self.handed + at as u64;
        if at < self.events.len() {
            for other in &mut self.sessions {
                if let Some((i, _)) = other.last.as_mut()
                    && *i >= abs
                {
                    *i += 1;
                }
            }
        }
        let s = self.sessions.get_mut(sid.0)?;
        s.pushed += 1;
        s.last = Some((abs, line));
        let (seq, label) = (s.pushed, s.label.clone());
        let slot = self.events.insert_spare(at)?;
        slot.0 = sid.0;
        let e = &mut slot.1;
        fill(e);
        e.seq = seq;
        e.session = Some(label);
        e.line = Some(line);
        let traffic = e.is_traffic();
        if let Some(s) = self.sessions.get_mut(sid.0) {
            s.traffic |= traffic;
        }
        self.events.get_mut(at).map(|(_, e)| e)
    }

    pub fn traffic(&mut self, sid: Sid, src: Source, t: u64, payload: &[u8]) {
        self.push_with(sid, |e| {
            e.refill_from_bytes(0, t, src, payload, crate::recording::Eol::Lf)
        });
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
        debug_assert!(
            !self.final_events,
            "a parser that says it never edits an earlier line's event asked for one"
        );
        let at = self.last_at(sid)?;
        self.events.get_mut(at).map(|(_, e)| e)
    }

    /// Where the session's last event is in `events`, if it was not handed out yet.
    fn last_at(&self, sid: Sid) -> Option<usize> {
        let (abs, _) = self.sessions.get(sid.0)?.last?;
        usize::try_from(abs.checked_sub(self.handed)?).ok()
    }

    /// Edits the bytes of the session's last traffic event (wrapped lines).
    pub fn map_last_bytes(&mut self, sid: Sid, f: impl FnOnce(&mut Vec<u8>)) -> bool {
        let Some(e) = self.last_event_mut(sid).filter(|e| e.is_traffic()) else {
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
        let at = self.last_at(sid)?;
        self.events.get(at).map(|(_, e)| e.text.as_str())
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

    /// The line from which events must wait: the earliest line, at or after
    /// `settled_before`, of a session's last event not yet handed out (a parser only ever
    /// edits a session's last event). Every event of an earlier line can no longer change,
    /// and waiting for the rest keeps the line order.
    pub fn hold_from(&self, settled_before: u64) -> u64 {
        self.sessions
            .iter()
            .filter_map(|s| s.last)
            .filter(|&(abs, line)| abs >= self.handed && line >= settled_before)
            .map(|(_, line)| line)
            .min()
            .unwrap_or(u64::MAX)
    }

    /// The first event not handed out yet, moved into `out`: the caller knows it is ready
    /// ([`Builder::ready_before`]).
    pub fn pop_into(&mut self, out: &mut Event) -> bool {
        if !self.events.pop_into(out) {
            return false;
        }
        self.handed += 1;
        true
    }

    /// Some event is ready to be handed out before `hold`.
    pub fn ready_before(&self, hold: u64) -> bool {
        self.events
            .front()
            .is_some_and(|(_, e)| e.line.unwrap_or(0) < hold)
    }

    /// Moves the events that can no longer change to `out`, in line order (same line: session
    /// order): every event of a line before `settled_before`, and any other event that is not
    /// its session's last. Events of later lines wait while an earlier session's last event
    /// might still change, so the order holds.
    pub fn drain_settled(&mut self, settled_before: u64, out: &mut impl Extend<Event>) {
        let hold = self.hold_from(settled_before);
        let n = self
            .events
            .partition_point(|(_, e)| e.line.unwrap_or(0) < hold);
        self.handed += n as u64;
        out.extend(self.events.take_front(n).map(|(_, e)| e));
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
        let mut events: Vec<Vec<Event>> = self
            .sessions
            .iter()
            .map(|s| Vec::with_capacity(usize::try_from(s.pushed).unwrap_or(0)))
            .collect();
        for (k, e) in self.events.into_queued() {
            if let Some(list) = events.get_mut(k) {
                list.push(e);
            }
        }
        headers
            .into_iter()
            .zip(events)
            .map(|((label, header), events)| ImportedSession {
                label,
                header,
                events,
                clock: kind,
            })
            .collect()
    }
}
