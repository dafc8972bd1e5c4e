//! One session, decoded and judged: the original and the replay are read the same way, by
//! the one session model and the one judge, so that what differs between them is the engine.

use crate::recording::{Event, ProxyKind, Source};
use crate::rules::{CheckOptions, Checker, Finding, HangVerdict};
use crate::session::{Line, Search, Session};

/// A decoded, judged session with the events it came from.
pub struct Analysis {
    /// The session's events, in input order.
    pub events: Vec<Event>,
    /// The input line of each event, when known.
    pub file_lines: Vec<Option<u64>>,
    pub session: Session,
    pub findings: Vec<Finding>,
    pub hangs: Vec<HangVerdict>,
    /// How the engine ended (`engine_exit`), when the input says.
    pub exit: Option<Exit>,
}

/// The engine's end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exit {
    pub text: String,
    pub code: Option<i32>,
    pub signal: Option<String>,
    /// Somebody killed it (the proxy after the GUI left, or a replay's watchdog): a signal
    /// death then says nothing about the engine.
    pub killed: bool,
}

/// Decodes and judges `events` (one session: the caller selected it) under `opts`, with the
/// `REPLAY-` rules, which say what a replay of it would need.
pub fn analyse(events: Vec<(Event, Option<u64>)>, opts: &CheckOptions) -> Analysis {
    let (events, file_lines): (Vec<Event>, Vec<Option<u64>>) = events.into_iter().unzip();
    let detected = crate::session::detect_sessions(&events);
    let mut opts = opts.clone();
    opts.filter.replay = true;
    let mut checker = Checker::new(&opts, opts.decoder(detected).keep_lines(true));
    let mut exit = None;
    let mut killed = false;
    for (ev, line) in events.iter().zip(&file_lines) {
        checker.push(ev, *line);
        if ev.src == Source::Proxy {
            match ev.kind {
                Some(ProxyKind::Killed) => killed = true,
                Some(ProxyKind::EngineExit) => {
                    exit = Some(Exit {
                        text: ev.text.clone(),
                        code: ev.code,
                        signal: ev.signal.clone(),
                        killed,
                    })
                }
                _ => {}
            }
        }
    }
    let mut checked = checker.into_checked(None);
    checked.sort_findings();
    let session = checked
        .decoder
        .finish()
        .into_iter()
        .max_by_key(|s| s.counts[0] + s.counts[1])
        .unwrap_or_else(|| Session::new(None));
    Analysis {
        events,
        file_lines,
        session,
        findings: checked.findings,
        hangs: checked.hangs,
        exit,
    }
}

impl Analysis {
    /// The input line of event `index`.
    pub fn line_of(&self, index: usize) -> Option<u64> {
        self.file_lines.get(index).copied().flatten()
    }

    /// The decoded line with sequence number `seq`.
    pub fn line_by_seq(&self, seq: u64) -> Option<&Line> {
        let i = self.session.lines.partition_point(|l| l.seq < seq);
        self.session.lines.get(i).filter(|l| l.seq == seq)
    }

    /// The input line of the event with sequence number `seq`.
    pub fn file_line_of_seq(&self, seq: u64) -> Option<u64> {
        self.line_by_seq(seq).and_then(|l| self.line_of(l.index))
    }

    /// The GUI's traffic lines, in order.
    pub fn gui_lines(&self) -> impl Iterator<Item = &Line> {
        self.session.lines.iter().filter(|l| l.src == Source::Gui)
    }

    /// The engine's lines of `search` (from its request to its answer).
    pub fn search_lines<'a>(&'a self, search: &Search) -> impl Iterator<Item = &'a Line> {
        let from = search.started.seq;
        let to = search.ended.map_or(u64::MAX, |e| e.seq);
        self.session
            .lines
            .iter()
            .filter(move |l| l.src == Source::Engine && l.seq > from && l.seq <= to)
    }
}
