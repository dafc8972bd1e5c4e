//! The rules stage: judges decoded traffic, line by line and over time.
//!
//! The decoder notices what a single line breaks (an illegal move, an unknown option) and
//! names the rule; the judge passes those on and adds what needs more than one line or the
//! clock: the order of commands, answers that came late or never, floods, how the session
//! ended. It reads the decoder's state (obligations, modes, positions) and never re-derives
//! boards or obligations. It is sans-IO: events in, findings out.
//!
//! This file holds the per-line dispatch: a line's breaches, then the rules of the bytes and
//! of the proxy's events (`transport`), of the protocol (`protocol_rules`) and of a `.c2w`
//! profile. Deadlines and latencies are `timing`'s, and what only the end of the input
//! decides is `end`'s.

use super::c2w_rules::C2wState;
use super::catalogue::Side as Party;
use super::finding::{Finding, Place};
use super::profile::Profile;
use super::protocol_rules::{CecpRules, NboardRules, UciRules};
use crate::protocol::c2w::EngineProfile;
use crate::protocol::cecp::Msg as CecpMsg;
use crate::protocol::{Msg, Protocol};
use crate::recording::{Eol, Event, ProxyKind, Source};
use crate::rules::catalogue::RuleId;
use crate::session::{Decoded, Decoder, Obligation, Session};
mod end;
pub use end::Latencies;
mod process;
mod timing;
mod transport;

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};
use timing::{answered, opened, overdue};
use transport::{proxy_event, transport};

/// Judges every session of one input.
pub struct Judge {
    profile: Profile,
    /// The Chess Academy profile the GUI drove the engine with (`check --c2w`).
    c2w: Option<EngineProfile>,
    trackers: Vec<Tracker>,
    last: Place,
    /// The input holds `kibitzer probe`'s facts: its GUI is the probe.
    probe_input: bool,
}

/// A request the engine has not answered yet, with what the judge knows about it.
#[derive(Debug, Clone)]
pub(crate) struct Pending {
    pub place: Place,
    /// The full request line (`go movetime 1000`).
    pub text: String,
    /// Milliseconds the request allows (movetime, `st`, the side's clock), when it says.
    pub budget_ms: Option<i64>,
    /// Whether the budget is the side's whole clock (an overrun loses on time).
    pub budget_is_clock: bool,
    pub timed_out: bool,
    /// The deadline rule that said so.
    pub timed_out_by: Option<RuleId>,
}

/// What the judge keeps per session.
pub(crate) struct Tracker {
    /// Shared, not copied, with every line's findings context.
    pub label: Option<std::sync::Arc<str>>,
    pub protocol: Option<Protocol>,
    /// The first traffic line came from the engine: the input starts mid-session, so rules
    /// about how a session starts cannot be judged.
    pub starts_mid: Option<bool>,
    pub gui_protocol_lines: u64,
    pub pending: HashMap<u64, Pending>,
    /// Open requests by the earliest time their deadline can pass (ns, event number), so a
    /// line costs O(log n) however many requests are open, not a scan of all of them.
    due: BinaryHeap<Reverse<(u64, u64)>>,
    pub last_gui_t: Option<u64>,
    pub first_gui_t: Option<u64>,
    pub first_engine_t: Option<u64>,
    pub last_engine: Option<(u64, String, Eol)>,
    pub gui_eof: Option<u64>,
    pub quit: Option<Place>,
    pub exit: Option<(u64, String)>,
    pub engine_eof: Option<u64>,
    /// The runner's log stops for this session (`log_ends`): its end, for the verdicts.
    pub log_ends: Option<u64>,
    once: Vec<&'static str>,
    flood_window: (u64, u32),
    /// Engine lines read at one instant: (time, bytes).
    burst: (u64, u64),
    /// The GUI's `quit` withdrew requests the engine still owed.
    owed_at_quit: bool,
    /// An answer of the engine reached the GUI before `quit`: its output is flushed at least
    /// per answer, so a last burst at exit is no sign of a buffered stdout.
    answered_before_quit: bool,
    /// Those requests, as they stood: a deadlocked engine that then had to be killed after
    /// `quit` still gets its hang verdict naming them.
    withdrawn_at_quit: Vec<(Obligation, Pending)>,
    /// The proxy had to kill the engine after the GUI's `quit`.
    pub(crate) killed_after_quit: bool,
    /// The signal the engine's process ended by, when it did.
    pub exit_signal: Option<String>,
    pub uci: UciRules,
    pub cecp: CecpRules,
    pub nboard: NboardRules,
    pub c2w: C2wState,
    /// CECP `time N` (centiseconds) and `st N` (seconds) as last sent.
    pub cecp_time_cs: Option<i64>,
    pub cecp_st: Option<u64>,
    pub done0: bool,
    /// The input shows the engine being started (a `spawned` or `engine_started` event): only
    /// then can the rules about a session's first lines be judged.
    pub saw_start: bool,
    /// The GUI is `kibitzer probe` (its facts are in the input): it gives up on a missing
    /// answer itself, and its writes are its own.
    pub gui_is_probe: bool,
    /// CECP: when `protover 2` (or later) was sent.
    pub protover2: Option<u64>,
    /// The answers' latencies, by kind.
    pub latencies: BTreeMap<timing::LatencyKey, crate::rules::latency::Histogram>,
    /// The proxy's samples of the engine's processes (time, sample): only those a hang's
    /// window can still need, from the last one before the engine's last line on.
    samples: Vec<(u64, Box<crate::recording::ProcSample>)>,
    saw_samples: bool,
    /// The request whose silence was last explained by a process finding.
    pub explained: Option<u64>,
    /// Requests past their deadline whose silence the samples have not explained yet.
    overdue: Vec<process::Overdue>,
    /// What the engine used over the session, from the samples.
    pub usage: crate::rules::forensics::ProcessUsage,
}

/// The GUI opens the handshake again after the engine ended: a new engine process.
fn restarts(tr: &Tracker, ev: &Event) -> bool {
    (tr.engine_eof.is_some() || tr.exit.is_some()) && crate::session::is_handshake_opener(&ev.text)
}

impl Tracker {
    fn new(label: Option<std::sync::Arc<str>>) -> Tracker {
        Tracker {
            latencies: BTreeMap::new(),
            label,
            protocol: None,
            starts_mid: None,
            gui_protocol_lines: 0,
            pending: HashMap::new(),
            due: BinaryHeap::new(),
            last_gui_t: None,
            first_gui_t: None,
            first_engine_t: None,
            last_engine: None,
            gui_eof: None,
            quit: None,
            exit: None,
            engine_eof: None,
            log_ends: None,
            once: Vec::new(),
            flood_window: (0, 0),
            burst: (u64::MAX, 0),
            owed_at_quit: false,
            answered_before_quit: false,
            withdrawn_at_quit: Vec::new(),
            killed_after_quit: false,
            exit_signal: None,
            uci: UciRules::default(),
            cecp: CecpRules::default(),
            nboard: NboardRules::default(),
            c2w: C2wState::default(),
            cecp_time_cs: None,
            cecp_st: None,
            done0: false,
            saw_start: false,
            gui_is_probe: false,
            protover2: None,
            samples: Vec::new(),
            saw_samples: false,
            explained: None,
            overdue: Vec::new(),
            usage: Default::default(),
        }
    }

    pub fn add_sample(&mut self, t: u64, sample: &crate::recording::ProcSample) {
        self.saw_samples = true;
        self.usage.add(t, sample);
        self.samples.push((t, Box::new(sample.clone())));
    }

    pub fn has_samples(&self) -> bool {
        self.saw_samples
    }

    /// The engine spoke at `t`: a silence can only begin after it, so the samples before the
    /// last one at or before `t` are no longer needed.
    fn engine_spoke(&mut self, t: u64) {
        if self.samples.len() < 2 {
            return;
        }
        if let Some(i) = self.samples.iter().rposition(|(st, _)| *st <= t) {
            self.samples.drain(..i);
        }
    }

    /// What the engine's processes did between `from` and `to` (ns), when samples tell.
    pub fn process_between(
        &self,
        from: u64,
        to: u64,
    ) -> Option<crate::rules::forensics::ProcessVerdict> {
        let samples: Vec<(u64, &crate::recording::ProcSample)> =
            self.samples.iter().map(|(t, s)| (*t, &**s)).collect();
        crate::rules::forensics::classify(&samples, from, to)
    }

    /// True the first time `rule` is asked about in this session: rules that would repeat on
    /// every line (a CRLF ending, a flood) are reported once.
    pub fn first(&mut self, rule: impl OnceKey) -> bool {
        let key = rule.key();
        if self.once.contains(&key) {
            return false;
        }
        self.once.push(key);
        true
    }
}

/// The finding a breach the decoder noticed makes, if it makes one: at the catalogue's
/// severity (a note for a widespread idiom of the rule); after the GUI's `quit`, an engine's
/// last answer to a search or ping that was running is no unsolicited output, since the GUI
/// listens no more. Before a CECP engine has answered the handshake or been asked to think,
/// what it prints is its start-up banner (Sjeng draws the board), not thinking output.
fn weigh_breach(
    b: &crate::session::Breach,
    at: Place,
    tr: &mut Tracker,
    banner: bool,
    out: &mut Out<'_>,
) {
    let after_quit = tr.quit.is_some();
    // An NBoard engine's free text (NTest's banner and learning report, Edax's search table)
    // is ignored by the reference GUI line by line: noted once, the lines stay in the view.
    if b.rule == RuleId::NboardUnknownCommand
        && b.by == Some(Party::Engine)
        && !tr.first("nboard-engine-free-text")
    {
        return;
    }
    if banner
        && matches!(
            b.rule,
            RuleId::CecpThinkingFormat | RuleId::CecpThinkingPvUnplayable
        )
    {
        return;
    }
    if after_quit
        && matches!(
            b.rule,
            RuleId::UciBestmoveWithoutGo
                | RuleId::UciReadyokUnsolicited
                | RuleId::UciUnsolicitedOutput
                | RuleId::CecpPongMismatch
                | RuleId::CecpMoveOutOfTurn
                | RuleId::NboardUnsolicited
                | RuleId::NboardPongMismatch
        )
    {
        return;
    }
    let mut f = Finding::new(b.rule, b.by, at, out.session, b.message.clone());
    if b.idiom {
        f.severity = f.severity.min(super::catalogue::Severity::Note);
    }
    out.push(f);
}

/// What a `.c2w` profile takes out of CECP's hands on a GUI line it declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Veto {
    /// The line is no CECP at all: no CECP rule speaks of it.
    ForeignToCecp,
    /// A command the profile declares: not unknown, and `setboard` is allowed unless the
    /// engine itself said it has none.
    DeclaredByProfile { setboard_said: bool },
}

impl Veto {
    fn silences(self, id: RuleId) -> bool {
        match self {
            Veto::ForeignToCecp => id.family() == super::catalogue::Family::Cecp,
            Veto::DeclaredByProfile { setboard_said } => {
                id == RuleId::CecpUnknownCommand
                    || (id == RuleId::CecpSetboardWithoutFeature && !setboard_said)
            }
        }
    }
}

/// Where findings of one line go, with what they need to be located.
pub(crate) struct Out<'a> {
    findings: &'a mut Vec<Finding>,
    pub place: Place,
    pub side: Option<Party>,
    pub session: Option<&'a str>,
    /// Rules a `.c2w` profile takes over on this line.
    veto: Option<Veto>,
}

impl Out<'_> {
    pub fn add(&mut self, id: RuleId, message: impl Into<String>) {
        self.push(Finding::new(
            id,
            self.side,
            self.place,
            self.session,
            message,
        ));
    }

    pub fn add_at(&mut self, id: RuleId, place: Place, message: impl Into<String>) {
        self.push(Finding::new(id, self.side, place, self.session, message));
    }

    /// Keeps `f` unless it is about this very line and the line's profile speaks for it.
    fn push(&mut self, f: Finding) {
        let vetoed = self
            .veto
            .is_some_and(|v| f.seq == self.place.seq && v.silences(f.rule));
        if !vetoed {
            self.findings.push(f);
        }
    }
}

impl Judge {
    pub fn new(profile: Profile) -> Judge {
        Judge {
            profile,
            c2w: None,
            trackers: Vec::new(),
            last: Place::default(),
            probe_input: false,
        }
    }

    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// What each session's engine used, from the proxy's samples (`None`: no samples).
    pub fn process_usage(&self) -> Vec<Option<crate::rules::forensics::ProcessUsage>> {
        self.trackers
            .iter()
            .map(|t| (t.usage.samples > 0).then(|| t.usage.clone()))
            .collect()
    }

    /// Also holds CECP sessions to a Chess Academy `.c2w` profile (the `C2W-` rules).
    pub fn with_c2w(mut self, profile: EngineProfile) -> Judge {
        self.c2w = Some(profile);
        self
    }

    /// Judges one decoded line. `line` is its line in the input file, when known.
    pub fn line(
        &mut self,
        ev: &Event,
        line: Option<u64>,
        d: &Decoded,
        dec: &Decoder,
        findings: &mut Vec<Finding>,
    ) {
        self.track_sessions_to(d.session, dec);
        let place = Place {
            line: line.or(ev.line),
            seq: ev.seq,
            t: ev.t,
        };
        self.last = place;
        self.probe_input |= ev.probe.is_some();
        let probe_input = self.probe_input;
        let profile = &self.profile;
        let sess = dec.session(d.session);
        let tr = &mut self.trackers[d.session];
        tr.begin_line(ev, sess);
        tr.gui_is_probe = probe_input;
        let side = match ev.src {
            Source::Gui => Some(Party::Gui),
            Source::Engine => Some(Party::Engine),
            _ => None,
        };
        // Lent to `out` for the line and given back at the end: cloning the `Arc` cost two
        // atomic operations on every line.
        let label = tr.label.take();
        let mut out = Out {
            findings,
            place,
            side,
            session: label.as_deref(),
            veto: None,
        };
        let banner = ev.src == Source::Engine
            && tr.protocol == Some(Protocol::Cecp)
            && sess.is_some_and(|s| s.features.is_empty() && s.search_count == 0);
        // Earlier lines decoded only now (streaming detection), at their own place.
        for e in &d.earlier {
            let at = Place {
                line: e.line,
                seq: e.at.seq,
                t: e.at.t,
            };
            for b in &e.breaches {
                weigh_breach(b, at, tr, banner, &mut out);
            }
        }
        // Known before anything is said about the line.
        if let Some(p) = &self.c2w
            && tr.protocol == Some(Protocol::Cecp)
            && ev.src == Source::Gui
        {
            out.veto = c2w_gui_veto(p, tr, ev, d, sess, &mut out);
        }
        // What the decoder found on the line itself.
        for b in &d.breaches {
            weigh_breach(b, place, tr, banner, &mut out);
        }
        match ev.src {
            Source::Proxy => proxy_event(tr, ev, sess, profile, &mut out),
            Source::Stderr => tr.stderr_line(ev, &mut out),
            Source::Gui | Source::Engine => tr.dialogue_line(ev, d, profile, &mut out),
        }
        tr.note_quit_obligations(ev, d);
        // Answers: latency, and lateness against the request's budget and the profile.
        answered(tr, ev, d, place, profile, &mut out);
        tr.protocol_line(ev, d, dec, self.c2w.as_ref(), &mut out);
        // New requests: the obligations this line opened, and those past their deadline.
        opened(tr, ev, d, dec, place, profile);
        overdue(tr, dec, d.session, place, profile, &mut out);
        tr.label = label;
    }

    /// A tracker for every session up to `session`, each labelled as the decoder names it.
    fn track_sessions_to(&mut self, session: usize, dec: &Decoder) {
        while self.trackers.len() <= session {
            let label = dec
                .session(self.trackers.len())
                .and_then(|s| s.label.as_deref().map(std::sync::Arc::from));
            self.trackers.push(Tracker::new(label));
        }
    }
}

/// Whether a `.c2w` profile takes a CECP GUI line out of CECP's hands, and how: a line the
/// profile declares is the profile's, judged by its rules, not as CECP would judge it.
fn c2w_gui_veto(
    p: &EngineProfile,
    tr: &mut Tracker,
    ev: &Event,
    d: &Decoded,
    sess: Option<&Session>,
    out: &mut Out<'_>,
) -> Option<Veto> {
    let m = match &d.msg {
        Some(Msg::Cecp(m)) => Some(m),
        _ => None,
    };
    if !tr.c2w.gui_line(p, m, &ev.text, out) {
        return None;
    }
    Some(
        if matches!(m, None | Some(CecpMsg::Unknown(_) | CecpMsg::Move(_))) {
            // A line CECP does not know (`depth 3`, `fen` and the FEN's elements one
            // a line, a hash size alone) is the profile's, whatever CECP would make
            // of it (`f6`, an en passant square, is no SAN move).
            Veto::ForeignToCecp
        } else {
            // A command the profile declares is no unknown command, and the profile
            // tells the GUI of `setboard` where a v1 engine cannot; an engine that
            // said setboard=0 contradicts it, and that stays.
            Veto::DeclaredByProfile {
                setboard_said: sess.and_then(|s| s.feature("setboard")).is_some(),
            }
        },
    )
}

/// A GUI line that asks the engine for output: it opens a new flood window. NBoard's `hint`,
/// `learn` and `analyze` ask for output as `go` does.
fn asks_for_output(ev: &Event, d: &Decoded) -> bool {
    let nboard_request = matches!(
        &d.msg,
        Some(Msg::Nboard(
            crate::protocol::nboard::Msg::Hint(_)
                | crate::protocol::nboard::Msg::Learn
                | crate::protocol::nboard::Msg::Analyze
        ))
    );
    ev.src == Source::Gui
        && (nboard_request
            || d.facts
                .iter()
                .any(|f| matches!(f, crate::session::Fact::SearchStarted { .. })))
}

/// The NBoard GUI drops the engine's free text at the cost of reading a word of it
/// (weltyc/othello ResponseParser): NTest's learning report is no flood of NBoard messages.
fn nboard_free_text(ev: &Event, d: &Decoded) -> bool {
    ev.src == Source::Engine
        && matches!(
            &d.msg,
            Some(Msg::Nboard(
                crate::protocol::nboard::Msg::Unknown(_) | crate::protocol::nboard::Msg::Empty
            ))
        )
}

impl Tracker {
    /// What a line changes before it is judged: the engine a GUI restarted, and the session's
    /// protocol once the decoder knows it.
    fn begin_line(&mut self, ev: &Event, sess: Option<&Session>) {
        if ev.src == Source::Gui && restarts(self, ev) {
            // A runner's log keeps an engine it restarted in the same session: the new
            // process owes nothing the old one did, and has not ended.
            let label = self.label.take();
            let protocol = self.protocol;
            *self = Tracker::new(label);
            self.protocol = protocol;
        }
        if self.protocol.is_none() {
            self.protocol = sess.and_then(|s| s.protocol);
        }
    }

    /// Edax refuses `nboard 2` on stderr and then says nothing on stdout. Stderr is read apart
    /// from stdout, so the complaint may be recorded after the GUI's next lines: it is not
    /// tied to the first ones.
    fn stderr_line(&mut self, ev: &Event, out: &mut Out<'_>) {
        if self.protocol == Some(Protocol::Nboard) {
            out.side = Some(Party::Engine);
            self.nboard_version_complaint(&ev.text, out);
        }
    }

    /// A line of the GUI or the engine: how the session starts, the rules of its bytes, and
    /// when each side last spoke.
    fn dialogue_line(&mut self, ev: &Event, d: &Decoded, profile: &Profile, out: &mut Out<'_>) {
        if self.starts_mid.is_none() && !ev.text.trim().is_empty() {
            self.first_traffic_line(ev, d);
        }
        // A flood is counted within a search: a fast engine's few hundred lines a
        // search (Stockfish prints depths 1 to 245 at once when it sees a mate), over
        // several searches in one second at a bullet pace or while pondering, are no
        // flood. A GUI line that starts a search opens a new window.
        if asks_for_output(ev, d) {
            self.flood_window = (ev.t, 0);
        }
        transport(self, ev, d.text, profile, !nboard_free_text(ev, d), out);
        if ev.src == Source::Gui {
            self.last_gui_t = Some(ev.t);
            self.first_gui_t.get_or_insert(ev.t);
        } else {
            self.remember_engine_line(ev);
        }
    }

    /// The session's first line of traffic.
    fn first_traffic_line(&mut self, ev: &Event, d: &Decoded) {
        self.starts_mid = Some(ev.src == Source::Engine);
        // A log that shows no engine start (cutechess, fastchess) still shows the
        // session's start when its first line is the GUI's opening command: the
        // rules of how a session starts apply from there. A log that begins
        // mid-session begins otherwise, and stays exempt.
        let opening = matches!(
            &d.msg,
            Some(Msg::Uci(crate::protocol::uci::Msg::Uci))
                | Some(Msg::Cecp(CecpMsg::Xboard))
                | Some(Msg::Nboard(crate::protocol::nboard::Msg::Nboard(_)))
        );
        if ev.src == Source::Gui && opening {
            self.saw_start = true;
        }
    }

    /// An engine line: when the engine spoke, and its last line.
    fn remember_engine_line(&mut self, ev: &Event) {
        self.first_engine_t.get_or_insert(ev.t);
        self.engine_spoke(ev.t);
        // Every engine line passes here: reuse the buffer.
        match &mut self.last_engine {
            Some((t, text, eol)) => {
                *t = ev.t;
                text.clear();
                text.push_str(&ev.text);
                *eol = ev.eol;
            }
            None => self.last_engine = Some((ev.t, ev.text.clone(), ev.eol)),
        }
    }

    /// Whether the engine answered anything before `quit`, and whether `quit` withdrew
    /// requests it still owed.
    fn note_quit_obligations(&mut self, ev: &Event, d: &Decoded) {
        if ev.src == Source::Engine && self.quit.is_none() && d.closed().any(|o| !o.cancelled) {
            self.answered_before_quit = true;
        }
        if ev.src == Source::Gui && ev.text.trim() == "quit" && d.closed().any(|o| o.cancelled) {
            self.owed_at_quit = true;
        }
    }

    /// The protocol's rules on the line, and a `.c2w` profile's on a CECP engine's line.
    fn protocol_line(
        &mut self,
        ev: &Event,
        d: &Decoded,
        dec: &Decoder,
        c2w: Option<&EngineProfile>,
        out: &mut Out<'_>,
    ) {
        if self.protocol == Some(Protocol::Uci) {
            self.uci_facts(&d.facts);
        }
        if let Some(msg) = &d.msg {
            let owed_move = dec.open_moves(d.session);
            match msg {
                Msg::Uci(m) => self.uci_line(m, ev, dec, d.session, out),
                Msg::Cecp(m) => self.cecp_line(m, ev, dec, d.session, owed_move, out),
                Msg::Nboard(m) => self.nboard_line(m, ev, out),
            }
        }
        if let Some(p) = c2w
            && self.protocol == Some(Protocol::Cecp)
            && ev.src == Source::Engine
        {
            self.c2w.engine_line(p, &ev.text, out);
        }
    }
}

pub(crate) use crate::units::secs;

/// What `Tracker::first` remembers: a rule, or a finer key of one (`crlf-gui`).
pub trait OnceKey {
    fn key(self) -> &'static str;
}

impl OnceKey for RuleId {
    fn key(self) -> &'static str {
        self.as_str()
    }
}

impl OnceKey for &'static str {
    fn key(self) -> &'static str {
        self
    }
}
