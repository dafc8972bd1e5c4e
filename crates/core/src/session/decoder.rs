//! The streaming decoder: one event in, one decoded line out.
//!
//! State is per session and does not grow with the number of lines: open obligations, the
//! current search and game, the boards. Finished searches, answered obligations and finished
//! games are kept in the [`Session`] only when `retain` is on (the default), so a multi-GB log
//! can stream with `retain` off.
//!
//! This file is the public API and the push loop, which routes each event to its session's
//! state; that state and the helpers the protocol modules call on it are `state`'s, and the
//! re-decoding of a session's first lines once its protocol is known is `detect`'s.

mod detect;
mod state;

use crate::protocol::{self, Dir, Msg, Protocol};
use crate::recording::{Event, ProxyKind, Source};

use super::model::{At, Breach, Fact, Line, Obligation, Party, PosRef, Session, source_index};
use crate::rules::catalogue::RuleId;
use detect::detect_streaming;
pub(crate) use state::State;

/// What one event decoded to.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Decoded {
    /// Index of the session in [`Decoder::sessions`].
    pub session: usize,
    /// `None` for stderr, proxy lines and traffic before the protocol is known.
    pub msg: Option<Msg>,
    /// The rules the line breaks, as the decoder sees them.
    pub breaches: Vec<Breach>,
    /// The line changed the board.
    pub moved: bool,
    /// The board after the line, when inside a game.
    pub position: Option<PosRef>,
    /// What the line made happen: requests opened and closed (answered, or withdrawn), searches
    /// started and ended, in order. The rules read these instead of following the session
    /// themselves; the decoder may forget a closed obligation at once.
    pub facts: Vec<Fact>,
    /// Earlier lines of the session decoded only now, because this line decided the protocol
    /// (streaming detection): each with its own time, input line and findings.
    pub earlier: Vec<EarlierLine>,
    /// The facts about the line's text, when they came with the line parsed ahead.
    pub text: Option<super::LineText>,
}

impl Decoded {
    /// The requests the line made.
    pub fn opened(&self) -> impl Iterator<Item = &Obligation> {
        self.facts.iter().filter_map(|f| match f {
            Fact::Opened(o) => Some(o),
            _ => None,
        })
    }

    /// The obligations the line ended: answered, or withdrawn (`cancelled`).
    pub fn closed(&self) -> impl Iterator<Item = &Obligation> {
        self.facts.iter().filter_map(|f| match f {
            Fact::Closed(o) => Some(o),
            _ => None,
        })
    }
}

/// A line that went out undecoded while the protocol was unknown, decoded once it was known.
#[derive(Debug, Clone, PartialEq)]
pub struct EarlierLine {
    pub at: At,
    /// Its line in the input file, when known.
    pub line: Option<u64>,
    pub msg: Msg,
    pub breaches: Vec<Breach>,
}

/// A line's step in the push loop: parsed and handed to its protocol, or a proxy event.
impl State {
    fn dispatch(
        &mut self,
        protocol: Protocol,
        ev: &Event,
        dir: Dir,
        at: At,
        ahead: &mut Option<super::ahead::Parsed>,
    ) -> Msg {
        let (msg, parse_diags) = match ahead.take_if(|a| a.protocol == protocol && a.dir == dir) {
            Some(a) => {
                self.pv_legal_from = a.pv_legal_from;
                (a.msg, a.diags)
            }
            None => {
                self.pv_legal_from = None;
                protocol::parse_reusing(protocol, dir, &ev.text, &mut self.spare)
            }
        };
        for d in parse_diags {
            let id = d.rule.unwrap_or(match protocol {
                Protocol::Uci => RuleId::UciSyntax,
                Protocol::Cecp => RuleId::CecpSyntax,
                Protocol::Nboard => RuleId::NboardSyntax,
            });
            self.finding(id, d.message);
        }
        if dir == Dir::ToEngine && self.end_explained && super::is_handshake_opener(&ev.text) {
            // The engine restarted (a runner's log keeps it in the same session): its end
            // is to be judged anew.
            self.end_explained = false;
        }
        match (&msg, dir) {
            (Msg::Uci(m), Dir::ToEngine) => self.uci_gui(m, &ev.text, at),
            (Msg::Uci(m), Dir::FromEngine) => self.uci_engine(m, at),
            (Msg::Cecp(m), Dir::ToEngine) => self.cecp_gui(m, &ev.text, at),
            (Msg::Cecp(m), Dir::FromEngine) => self.cecp_engine(m, at),
            (Msg::Nboard(m), Dir::ToEngine) => self.nboard_gui(m, &ev.text, at),
            (Msg::Nboard(m), Dir::FromEngine) => self.nboard_engine(m, at),
        }
        msg
    }

    fn proxy_event(&mut self, ev: &Event, at: At) {
        if let Some(v) = ev.verdict.as_deref() {
            self.s.verdicts.push(super::verdicts::VerdictSeen {
                at,
                line: ev.line,
                text: ev.text.clone(),
                kibitzer: super::verdicts::check(v),
                verdict: v.clone(),
            });
        }
        match ev.kind {
            Some(ProxyKind::LogEnds) => self.s.log_ends = Some(at),
            Some(ProxyKind::GameFinished) => {
                if let Some(r) = super::model::RunnerResult::parse(&ev.text, at) {
                    self.s.runner_results.push(r);
                }
                if let Some(r) = ev.result.as_deref().filter(|r| *r != "*") {
                    let reason = if ev.text.is_empty() {
                        "reported by the log".to_owned()
                    } else {
                        ev.text.clone()
                    };
                    self.set_outcome(r, reason, at, super::model::OutcomeBy::Runner);
                }
            }
            // An engine that goes while answers are owed crashed or quit on its own, unless
            // the GUI gave up first (closed the input, or had it killed): then the hang
            // verdict tells the story, not an engine fault. The proxy's sweep of processes the
            // engine left behind comes after the engine's end and explains nothing.
            Some(ProxyKind::GuiEof | ProxyKind::Killed) => {
                self.end_explained = true;
            }
            // A signal the GUI sent (xboard sends SIGINT with every move unless the engine
            // declared `sigint=0`) explains an end that it caused: one by that signal, or one
            // that follows at once. A death seconds later, while the engine owes its move, is
            // the engine's.
            Some(ProxyKind::Signal) => {
                self.signalled = Some((ev.t, ev.signal.clone().unwrap_or_default()));
            }
            Some(ProxyKind::EngineExit | ProxyKind::EngineEof)
                if !self.end_explained && self.signal_explains(ev) =>
            {
                self.end_explained = true;
            }
            Some(ProxyKind::EngineExit | ProxyKind::EngineEof) if !self.end_explained => {
                let open: Vec<String> = self
                    .s
                    .open_obligations()
                    .map(|o| format!("{} for `{}`", o.owed, o.request))
                    .collect();
                // Reported once, on the first sign (EOF then exit are one event); an EOF
                // owing nothing leaves the exit to say whether the engine crashed.
                let exit = ev.kind == Some(ProxyKind::EngineExit);
                self.end_explained = exit || !open.is_empty();
                let crashed = exit
                    && ev
                        .signal
                        .as_deref()
                        .is_some_and(|s| CRASH_SIGNALS.contains(&s));
                if open.is_empty() && crashed {
                    // Owing nothing (`quit` withdrew it all) is no excuse for a crash: a
                    // runner sees the engine die, and says so.
                    self.finding(
                        RuleId::XEngineExit,
                        format!("{}: a crash, not an exit, though it owed nothing", ev.text),
                    );
                }
                if let Some(first) = open.first() {
                    let what = if ev.text.is_empty() {
                        "the engine ended"
                    } else {
                        ev.text.as_str()
                    };
                    self.finding(
                        RuleId::XEngineExit,
                        format!(
                            "{what} while it owed {first}{}",
                            match open.len() {
                                1 => String::new(),
                                n => format!(" and {} more", n - 1),
                            }
                        ),
                    );
                }
            }
            _ => {}
        }
    }
}

/// Signals that end a process only when it crashes: never how an engine quits.
/// How soon after a signal the engine's end counts as the signal's doing, whatever it died
/// of: a process ends within milliseconds of a signal it does not handle; a handler that
/// cleans up and exits takes a moment more.
const SIGNAL_ENDS_WITHIN: u64 = 500_000_000;

/// Signals that ask a process to end: an end after one, however late (a handler may take its
/// time to clean up), is the sender's doing.
const ENDING_SIGNALS: &[&str] = &["SIGTERM", "SIGHUP", "SIGQUIT", "SIGKILL"];

impl State {
    /// Did the last signal sent to the engine end it? A signal that asks it to end (SIGINT
    /// too, except under CECP, where xboard sends it with every move to interrupt a search)
    /// explains any later end; another explains an end by that very signal or within
    /// [`SIGNAL_ENDS_WITHIN`].
    fn signal_explains(&self, ev: &Event) -> bool {
        let cecp = self.s.protocol == Some(crate::protocol::Protocol::Cecp);
        self.signalled.as_ref().is_some_and(|(t, name)| {
            ENDING_SIGNALS.contains(&name.as_str())
                || (name == "SIGINT" && !cecp)
                || ev.t.saturating_sub(*t) <= SIGNAL_ENDS_WITHIN
                || (!name.is_empty() && ev.signal.as_deref() == Some(name.as_str()))
        })
    }
}

const CRASH_SIGNALS: &[&str] = &[
    "SIGSEGV", "SIGABRT", "SIGBUS", "SIGFPE", "SIGILL", "SIGTRAP", "SIGSYS",
];

/// Splits events into sessions and decodes them line by line.
pub struct Decoder {
    states: Vec<State>,
    last: usize,
    /// The last event's session, found by its label's pointer.
    last_session: super::last_session::LastSession,
    /// The message of the last line was parsed ahead: once spent it goes back
    /// ([`Decoder::take_spent`]) instead of into this decoder's spares.
    msg_from_ahead: bool,
    spent: Option<Msg>,
    /// Some session's protocol was detected on a later line than its first, or not at all.
    detected_late: bool,
    forced: Option<Protocol>,
    presets: Vec<(Option<String>, Protocol, String)>,
    retain: bool,
    retain_searches: bool,
    keep_lines: bool,
    check_pv: bool,
    /// Line of the input the next event is on, when the event does not carry its own.
    input_line: Option<u64>,
    fen_command: Option<crate::protocol::c2w::Command>,
}

impl Default for Decoder {
    fn default() -> Self {
        Decoder::new(None)
    }
}

impl Decoder {
    /// `protocol`: force one protocol for every session; `None` detects per session.
    pub fn new(protocol: Option<Protocol>) -> Decoder {
        Decoder {
            states: Vec::new(),
            last: 0,
            last_session: Default::default(),
            msg_from_ahead: false,
            spent: None,
            detected_late: false,
            forced: protocol,
            presets: Vec::new(),
            retain: true,
            retain_searches: true,
            keep_lines: false,
            check_pv: true,
            input_line: None,
            fen_command: None,
        }
    }

    /// CECP: the GUI sets positions up with a FEN command of its own, a Chess Academy
    /// profile's `EngineCmdSB` (`fen FEN`, or `fen` alone and the FEN one element a line):
    /// the board follows it as it follows `setboard`.
    pub fn with_fen_command(mut self, command: Option<crate::protocol::c2w::Command>) -> Self {
        self.fen_command = command.filter(|c| c.word != "setboard" || c.own_line);
        self
    }

    /// Uses protocols detected beforehand (see [`super::detect_sessions`]), so lines before
    /// the deciding one are decoded too. A forced protocol still wins.
    pub fn with_detected(mut self, detected: Vec<(Option<String>, Protocol, String)>) -> Self {
        self.presets = detected;
        self
    }

    /// Some session's protocol was detected as it went on a later line than its first (or not
    /// at all): [`Decoder::adopt_detected`] can then only fail for it.
    pub fn detected_late(&self) -> bool {
        self.detected_late
    }

    /// Takes `detected` (as [`Decoder::with_detected`] would have) after the fact, when a
    /// decoder given it would have decoded every line pushed so far exactly as this one, which
    /// detected each session's protocol as it went: each session `detected` names decided on
    /// its first GUI or engine line, on the same protocol. A preset is taken up at that same
    /// line, and a session `detected` leaves out is detected as it goes either way; only the
    /// reason given for the protocol changes, which no decoding reads. False (and nothing
    /// taken) otherwise.
    pub fn adopt_detected(&mut self, detected: &[(Option<String>, Protocol, String)]) -> bool {
        let mut adopted = Vec::new();
        for (label, p, why) in detected {
            let Some(i) = self
                .states
                .iter()
                .position(|st| st.s.label.as_deref() == label.as_deref())
            else {
                continue;
            };
            let st = &self.states[i];
            if !st.decided_at_first || st.s.protocol != Some(*p) {
                return false;
            }
            adopted.push((i, why));
        }
        for (i, why) in adopted {
            if let Some(st) = self.states.get_mut(i) {
                st.s.protocol_reason.clone_from(why);
            }
        }
        true
    }

    /// Keep finished searches, answered obligations and all games (default on). Off, the
    /// decoder's memory stays flat however long the input.
    pub fn retain_history(mut self, on: bool) -> Self {
        self.retain = on;
        self.retain_searches = on;
        self
    }

    /// Keep finished searches and answered obligations (default: as `retain_history`). Off,
    /// the games are still kept with every move, and the open obligations and the number of
    /// searches ([`Session::search_count`]) are still known: what a summary needs, in a
    /// fraction of the memory.
    pub fn retain_searches(mut self, on: bool) -> Self {
        self.retain_searches = on;
        self
    }

    /// Check every move of every PV (`info ... pv`, CECP thinking output) for legality in its
    /// position (default on). Off, game moves are still checked and boards still tracked; PVs
    /// are kept as text. Checking PVs is the largest part of decoding real engine output.
    pub fn check_pv_moves(mut self, on: bool) -> Self {
        self.check_pv = on;
        self
    }

    /// Keep every decoded line in [`Session::lines`] (off by default).
    pub fn keep_lines(mut self, on: bool) -> Self {
        self.keep_lines = on;
        self
    }

    pub fn sessions(&self) -> impl ExactSizeIterator<Item = &Session> {
        self.states.iter().map(|s| &s.s)
    }

    pub fn session(&self, index: usize) -> Option<&Session> {
        self.states.get(index).map(|s| &s.s)
    }

    /// How many CECP moves the engine of `session` owes right now.
    pub fn open_moves(&self, session: usize) -> usize {
        self.states.get(session).map_or(0, |st| st.open_moves)
    }

    /// What the engine of `session` owes right now, oldest first.
    pub fn open_obligations(&self, session: usize) -> impl Iterator<Item = &Obligation> {
        self.states
            .get(session)
            .into_iter()
            .flat_map(|st| st.open_obligations())
    }

    /// White is to move on the live chess board of `session`; `None` without one.
    pub fn white_to_move(&self, session: usize) -> Option<bool> {
        self.states.get(session)?.white_to_move()
    }

    /// The live board of a session after the last pushed line: FEN (chess) or the Othello
    /// board string. Computed on demand: FEN strings are not free.
    pub fn position_string(&self, session: usize) -> Option<String> {
        self.states.get(session)?.position_string()
    }

    fn state_for(&mut self, label: Option<&str>) -> usize {
        if let Some(s) = self.states.get(self.last)
            && s.s.label.as_deref() == label
        {
            return self.last;
        }
        let idx = match self
            .states
            .iter()
            .position(|s| s.s.label.as_deref() == label)
        {
            Some(i) => i,
            None => {
                let mut st = State::new(label.map(str::to_owned), self.retain);
                st.retain_searches = self.retain_searches;
                st.check_pv = self.check_pv;
                st.fen_command = self.fen_command.clone();
                if let Some(p) = self.forced {
                    st.s.protocol = Some(p);
                    st.s.protocol_reason = "given by the user".into();
                    st.detect_done = true;
                } else if let Some((_, p, why)) =
                    self.presets.iter().find(|(l, _, _)| l.as_deref() == label)
                {
                    st.preset = Some((*p, why.clone()));
                }
                self.states.push(st);
                self.states.len() - 1
            }
        };
        self.last = idx;
        idx
    }

    /// Decodes one event.
    pub fn push(&mut self, ev: &Event) -> Decoded {
        let mut decoded = Decoded::default();
        self.push_into(ev, &mut decoded);
        decoded
    }

    /// The line of the input file the next event pushed is on (a recording's own line, which
    /// wins over an imported event's `line`): findings and gaps report it.
    pub fn set_input_line(&mut self, line: u64) {
        self.input_line = Some(line);
    }

    /// [`Decoder::push`] into `out`, which holds the previous line's result: its buffers are
    /// reused, so a long input decodes without allocating per line (what [`Decoder::recycle`]
    /// does for `push`).
    pub fn push_into(&mut self, ev: &Event, out: &mut Decoded) {
        self.push_ahead_into(ev, &mut None, out);
    }

    /// [`Decoder::push_into`] with the line's message parsed ahead ([`super::Ahead`]), used
    /// when the line is decoded under the protocol and direction it was parsed for. The
    /// message it replaces, once spent, waits in [`Decoder::take_spent`] to go back to the
    /// parser that made it.
    pub fn push_ahead_into(
        &mut self,
        ev: &Event,
        ahead: &mut Option<super::ahead::Parsed>,
        out: &mut Decoded,
    ) {
        if let Some(msg) = out.msg.take() {
            if self.msg_from_ahead {
                self.spent = Some(msg);
            } else {
                self.reclaim(out.session, msg);
            }
        }
        self.msg_from_ahead = false;
        // Whatever the protocol the line is decoded under: these facts are of its text only.
        out.text = ahead.as_ref().map(|a| a.text);
        let mut last_session = std::mem::take(&mut self.last_session);
        let idx = last_session.index(&ev.session, |label| self.state_for(label));
        self.last_session = last_session;
        let input_line = self.input_line.take();
        let st = &mut self.states[idx];
        st.line = input_line.or(ev.line);
        st.line_side = match ev.src {
            Source::Gui => Some(Party::Gui),
            Source::Engine => Some(Party::Engine),
            Source::Stderr | Source::Proxy => None,
        };
        let at = At {
            seq: ev.seq,
            t: ev.t,
        };
        st.diags.clear();
        st.facts.clear();
        st.moved = false;
        st.s.counts[source_index(ev.src)] += 1;
        if st.s.first.is_none() {
            st.s.first = Some(at);
        }
        st.s.last = Some(at);
        let dir = match ev.src {
            Source::Gui => Some(Dir::ToEngine),
            Source::Engine => {
                st.s.last_engine = Some(at);
                Some(Dir::FromEngine)
            }
            Source::Stderr => None,
            Source::Proxy => {
                st.proxy_event(ev, at);
                None
            }
        };
        // A line longer than the capture keeps in one event comes in pieces (`more`): only
        // its first piece can be a message; the rest is the same line's text, not commands.
        let dir = dir.filter(|d| {
            let side = usize::from(*d == Dir::FromEngine);
            let continued = st.continues[side];
            st.continues[side] = ev.more;
            !continued
        });
        if let Some(dir) = dir {
            if st.s.protocol.is_none() {
                match st.preset.take() {
                    Some((p, why)) => {
                        st.s.protocol = Some(p);
                        st.s.protocol_reason = why;
                        st.detect_done = true;
                    }
                    None => {
                        detect_streaming(st, dir, ev);
                        self.detected_late |= st.detect_done && !st.decided_at_first;
                    }
                }
            }
            if let Some(p) = st.s.protocol {
                let offered = ahead.is_some();
                out.msg = Some(st.dispatch(p, ev, dir, at, ahead));
                // Taken: it was parsed for this protocol and direction.
                self.msg_from_ahead = offered && ahead.is_none();
            }
        }
        // The line's breaches change places with the previous line's (emptied) buffer.
        out.breaches.clear();
        std::mem::swap(&mut out.breaches, &mut st.diags);
        out.facts.clear();
        std::mem::swap(&mut out.facts, &mut st.facts);
        out.earlier.clear();
        std::mem::swap(&mut out.earlier, &mut st.earlier);
        out.position = st.game_index().map(|game| PosRef {
            game,
            ply: st.s.games.last().map_or(0, |g| g.plies.len()),
        });
        out.session = idx;
        out.moved = st.moved;
        if self.keep_lines {
            for e in &out.earlier {
                if let Some(l) = st.s.lines.iter_mut().rev().find(|l| l.seq == e.at.seq) {
                    l.msg = Some(e.msg.clone());
                    l.breaches.extend(e.breaches.iter().cloned());
                }
            }
            st.s.lines.push(Line {
                index: st.s.lines.len(),
                seq: ev.seq,
                t: ev.t,
                src: ev.src,
                text: ev.text.clone(),
                msg: out.msg.clone(),
                breaches: out.breaches.clone(),
                position: out.position,
                moved: out.moved,
            });
        }
    }

    /// The last message parsed ahead that the decoder is done with (see
    /// [`Decoder::push_ahead_into`]).
    pub fn take_spent(&mut self) -> Option<Msg> {
        self.spent.take()
    }

    /// Hands a decoded line back once the caller is done with it, so the next lines reuse its
    /// buffers (optional: it only saves allocations on long inputs).
    pub fn recycle(&mut self, decoded: Decoded) {
        if let Some(msg) = decoded.msg {
            self.reclaim(decoded.session, msg);
        }
    }

    /// Keeps the reusable buffers of `msg`, decoded in session `session`.
    fn reclaim(&mut self, session: usize, msg: Msg) {
        if let Some(st) = self.states.get_mut(session) {
            st.spare.reclaim(msg);
        }
    }

    /// Ends the input: the running searches are kept, and the sessions returned.
    pub fn finish(mut self) -> Vec<Session> {
        for st in &mut self.states {
            st.drop_unconfirmed_ponder();
            st.infer_draw_claim();
            if st.retain_searches
                && let Some(s) = st.search.take()
            {
                st.s.searches.push(s);
            }
        }
        self.states.into_iter().map(|s| s.s).collect()
    }
}
