//! One session, decoded and judged: the original and the replay are read the same way, by
//! the one session model and the one judge, so that what differs between them is the engine.

use crate::protocol::Protocol;
use crate::protocol::c2w::EngineProfile;
use crate::recording::{Event, ProxyKind, Source};
use crate::rules::{Finding, HangVerdict, Judge, Profile};
use crate::session::{Decoded, Decoder, Line, Search, Session};

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

/// Decodes and judges `events` (one session: the caller selected it) under `profile`.
pub fn analyse(
    events: Vec<(Event, Option<u64>)>,
    protocol: Option<Protocol>,
    profile: &Profile,
) -> Analysis {
    analyse_with(events, protocol, profile, None)
}

/// [`analyse`], the CECP session also held to a Chess Academy profile (the `C2W-` rules).
pub fn analyse_with(
    events: Vec<(Event, Option<u64>)>,
    protocol: Option<Protocol>,
    profile: &Profile,
    c2w: Option<&EngineProfile>,
) -> Analysis {
    let (events, file_lines): (Vec<Event>, Vec<Option<u64>>) = events.into_iter().unzip();
    let detected = crate::session::detect_sessions(&events);
    let mut decoder = Decoder::new(protocol)
        .with_detected(detected)
        .with_fen_command(c2w.and_then(|p| p.fen_command.clone()))
        .keep_lines(true);
    let mut judge = Judge::new(profile.clone());
    if let Some(p) = c2w {
        judge = judge.with_c2w(p.clone());
    }
    let mut findings = Vec::new();
    let mut decoded = Decoded::default();
    let mut exit = None;
    let mut killed = false;
    for (ev, line) in events.iter().zip(&file_lines) {
        if let Some(l) = line {
            decoder.set_input_line(*l);
        }
        decoder.push_into(ev, &mut decoded);
        judge.line(ev, line.or(ev.line), &decoded, &decoder, &mut findings);
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
    let (hangs, _) = judge.finish(&decoder, None, &mut findings);
    profile.adjust(&mut findings);
    findings.sort_by_key(|f| (f.line.unwrap_or(u64::MAX), f.seq));
    let session = decoder
        .finish()
        .into_iter()
        .max_by_key(|s| s.counts[0] + s.counts[1])
        .unwrap_or_else(|| Session::new(None));
    Analysis {
        events,
        file_lines,
        session,
        findings,
        hangs,
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
