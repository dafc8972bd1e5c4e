//! The streaming decoder: one event in, one decoded line out.
//!
//! State is per session and does not grow with the number of lines: open obligations, the
//! current search and game, the boards. Finished searches, answered obligations and finished
//! games are kept in the [`Session`] only when `retain` is on (the default), so a multi-GB log
//! can stream with `retain` off.

use crate::game::{ChessBoard, ChessEditor, OthelloBoard, PositionCache};
use crate::protocol::{self, Dir, Msg, Protocol};
use crate::recording::{Event, ProxyKind, Source};

use super::model::{
    At, Breach, Game, GameOutcome, Line, Obligation, Owed, Party, PosRef, Request, Search, Session,
    source_index,
};
use super::pv::PvCache;
use crate::rules::catalogue::RuleId;

/// Lines buffered per session while its protocol is still unknown (streaming only).
const DETECT_WINDOW: usize = 200;

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
    /// Obligations the line closed (answered, or withdrawn: `cancelled`), for the timing
    /// rules: the decoder itself may forget them once closed.
    pub closed: Vec<Obligation>,
    /// Earlier lines of the session decoded only now, because this line decided the protocol
    /// (streaming detection): each with its own time, input line and findings.
    pub earlier: Vec<EarlierLine>,
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

/// Live per-session state besides the public model.
pub(crate) struct State {
    pub(crate) s: Session,
    /// The input line of the event being decoded, when known (for findings and gaps).
    pub(crate) line: Option<u64>,
    /// Who sent the line being decoded (`None` for proxy and stderr lines).
    pub(crate) line_side: Option<Party>,
    /// Obligations closed by the line being decoded (see [`Decoded::closed`]).
    pub(crate) closed_now: Vec<Obligation>,
    /// The GUI sent `quit`.
    pub(crate) quit_sent: bool,
    /// CECP: engine moves fenced off by a ping after a reset.
    pub(crate) cecp_sync: CecpSync,
    /// The end of the session is accounted for: the GUI closed the input, had the engine
    /// killed or signalled, or the engine's going was already reported.
    pub(crate) end_explained: bool,
    /// Lines seen while the protocol is unknown (streaming detection), with their time and
    /// input line, replayed once a line decides.
    detect_buf: Vec<(Dir, Event)>,
    /// Earlier lines replayed by the current line (see [`Decoded::earlier`]).
    earlier: Vec<EarlierLine>,
    detect_done: bool,
    /// Games dropped from `s.games` (retain off), so `PosRef::game` stays absolute.
    pub(crate) games_dropped: usize,
    pub(crate) retain: bool,
    /// Keep finished searches and answered obligations (`retain` keeps the games).
    pub(crate) retain_searches: bool,
    /// Every obligation before this index is closed.
    first_open: usize,
    /// Open obligations owing a CECP move: asked on every line, so counted, not searched.
    open_moves: usize,
    /// Open `stop`s owing their bestmove: asked at every `go`, counted likewise.
    pub(crate) open_stops: usize,
    /// UCI: incremental `position` replay.
    pub(crate) cache: PositionCache,
    /// The chess board at the end of the current game (UCI: after `position` and the engine's
    /// move; CECP: after every move).
    pub(crate) board: Option<ChessBoard>,
    /// Bumped whenever `board` changes: the PV cache's key.
    pub(crate) board_id: u64,
    /// UCI: `board` is the position cache's board (set by `position`, kept by the engine's
    /// move); anything else that sets the board clears it.
    pub(crate) board_from_cache: bool,
    pub(crate) othello: Option<OthelloBoard>,
    pub(crate) editor: Option<ChessEditor>,
    pub(crate) pv: PvCache,
    /// Check the legality of PV moves (game moves are always checked).
    pub(crate) check_pv: bool,
    /// The running search (pushed into `s.searches` when it ends).
    pub(crate) search: Option<Search>,
    /// UCI: the board the running search started from, and its PV-cache key, kept only once
    /// the GUI sent the next `position` before the search answered (a violation of its own):
    /// the engine's `info` and `bestmove` still belong to this board. `None`: the search's
    /// board is `board` (copying it for every search would cost every search).
    pub(crate) search_board: Option<(ChessBoard, u64)>,
    /// UCI: a `go` sent while a search was running, which engines start once that search
    /// answered: (request, time, ponder, infinite).
    pub(crate) queued_go: Option<(String, At, bool, bool)>,
    /// UCI: `ucinewgame` since the last `position`.
    pub(crate) new_game_pending: bool,
    /// UCI: the GUI's `UCI_AnalyseMode` and `MultiPV` settings.
    pub(crate) analyse_mode: bool,
    pub(crate) multipv: u32,
    /// CECP: the side the engine plays (`None` in force mode before any `go`).
    pub(crate) engine_side: Option<crate::game::Side>,
    /// Diagnostics of the current line.
    pub(crate) diags: Vec<Breach>,
    pub(crate) moved: bool,
    /// NBoard: the engine's last `=== MOVE` (upper-case move, its eval, the ply it was for).
    /// The board only changes when the GUI then sends `move`; if that is the proposal, the
    /// ply is the engine's.
    pub(crate) nboard_proposal: Option<(String, Option<super::model::Eval>, usize)>,
    /// CECP: the number of the last `pong` that answered a ping, to tell a repeated pong
    /// (GNU Chess sends each twice) from one that answers nothing.
    pub(crate) last_pong: Option<String>,
    /// Message buffers handed back through [`Decoder::recycle`].
    spare: protocol::Spare,
    /// CECP: a GUI's own FEN command (a `.c2w` profile's `EngineCmdSB`), read as `setboard`.
    pub(crate) fen_command: Option<crate::protocol::c2w::Command>,
    /// Inside its `\n` form: the FEN's elements so far; then how many counter lines may
    /// still follow.
    pub(crate) fen_elements: Option<Vec<String>>,
    pub(crate) fen_counters: u8,
    /// CECP: a `hint` is waiting for its `Hint:`.
    pub(crate) cecp_hint_open: bool,
    /// CECP: the result by rule of the board a `new` left, while the new game has no move.
    pub(crate) cecp_over_before_new: Option<&'static str>,
}

impl State {
    /// A move of the current game that could not be followed.
    pub(crate) fn gap(&mut self, text: &str, by: crate::session::Mover, at: At, reason: String) {
        let line = self.line;
        if let Some(g) = self.s.games.last_mut() {
            let after_ply = g.plies.len();
            g.add_gap(crate::session::Gap {
                after_ply,
                text: text.to_owned(),
                by,
                at,
                line,
                reason,
            });
        }
    }

    fn new(label: Option<String>, retain: bool) -> State {
        State {
            line: None,
            line_side: None,
            closed_now: Vec::new(),
            quit_sent: false,
            cecp_sync: CecpSync::default(),
            end_explained: false,
            s: Session::new(label),
            detect_buf: Vec::new(),
            earlier: Vec::new(),
            detect_done: false,
            games_dropped: 0,
            retain,
            retain_searches: retain,
            first_open: 0,
            open_moves: 0,
            open_stops: 0,
            cache: PositionCache::new(),
            board: None,
            board_id: 0,
            board_from_cache: false,
            othello: None,
            editor: None,
            pv: PvCache::default(),
            check_pv: true,
            search: None,
            search_board: None,
            queued_go: None,
            new_game_pending: false,
            analyse_mode: false,
            multipv: 1,
            engine_side: None,
            diags: Vec::new(),
            moved: false,
            nboard_proposal: None,
            last_pong: None,
            spare: protocol::Spare::default(),
            fen_command: None,
            fen_elements: None,
            fen_counters: 0,
            cecp_hint_open: false,
            cecp_over_before_new: None,
        }
    }

    /// A start position the board cannot take: a variant it does not model (a 10x8 board,
    /// holdings, fairy pieces) is a note that the board is unknown; a FEN that fits no board
    /// geometry is rule `id`.
    pub(crate) fn bad_start(
        &mut self,
        id: RuleId,
        what: &str,
        fen: Option<&str>,
        e: &crate::game::BoardError,
    ) {
        let unmodelled = match e {
            crate::game::BoardError::UnsupportedVariant(_) => true,
            _ => fen.is_some_and(|f| fen_geometry(f).is_some_and(|g| !g.is_plain_8x8())),
        };
        if unmodelled {
            self.finding(RuleId::XBoardUnknown, format!("{what}: board unknown: {e}"));
        } else {
            self.finding(id, format!("{what}: {e}"));
        }
    }

    /// [`State::finding`] for a breach that is a widespread idiom of the rule (Stockfish's
    /// `bestmove (none)`): the judge weighs it as a note.
    pub(crate) fn idiom(&mut self, id: RuleId, message: impl Into<String>) {
        let mut b = Breach::new(id, self.line_side, message);
        b.idiom = true;
        self.diags.push(b);
    }

    /// Reports that the current line breaks rule `id` (a catalogue id).
    pub(crate) fn finding(&mut self, id: RuleId, message: impl Into<String>) {
        self.diags.push(Breach::new(id, self.line_side, message));
    }

    pub(crate) fn game(&mut self) -> Option<&mut Game> {
        self.s.games.last_mut()
    }

    pub(crate) fn game_index(&self) -> Option<usize> {
        (!self.s.games.is_empty()).then(|| self.games_dropped + self.s.games.len() - 1)
    }

    /// Starts a new game; without `retain` the previous one is dropped.
    pub(crate) fn push_game(&mut self, game: Game) {
        if !self.retain && !self.s.games.is_empty() {
            self.s.games.clear();
            self.games_dropped += 1;
        }
        self.s.games.push(game);
        self.board_changed();
    }

    pub(crate) fn board_changed(&mut self) {
        self.board_id = self.board_id.wrapping_add(1);
        self.moved = true;
    }

    pub(crate) fn open(&mut self, kind: Request, request: impl Into<String>, owed: Owed, at: At) {
        let request = request.into();
        self.open_moves += usize::from(owed == Owed::Move);
        self.open_stops += usize::from(kind == Request::Stop);
        self.s.obligations.push(Obligation {
            request,
            kind,
            owed,
            opened: at,
            closed: None,
            cancelled: false,
        });
    }

    /// Closes the open obligations whose answer satisfies `pred` (all of them, or only the
    /// oldest with `first_only`). Returns how many were closed.
    pub(crate) fn close(
        &mut self,
        at: At,
        first_only: bool,
        pred: impl Fn(&Obligation) -> bool,
    ) -> usize {
        let mut n = 0;
        let mut moves_closed = 0;
        let mut stops_closed = 0;
        let mut closed = std::mem::take(&mut self.closed_now);
        for o in self.pending_obligations() {
            if o.closed.is_none() && pred(o) {
                o.closed = Some(at);
                closed.push(o.clone());
                n += 1;
                moves_closed += usize::from(o.owed == Owed::Move);
                stops_closed += usize::from(o.kind == Request::Stop);
                if first_only {
                    break;
                }
            }
        }
        self.closed_now = closed;
        self.open_moves -= moves_closed;
        self.open_stops -= stops_closed;
        if n > 0 {
            self.settle_obligations();
        }
        n
    }

    /// The obligations from the oldest open one on: a long session keeps thousands of
    /// answered ones, and every answer must not walk them all again.
    fn pending_obligations(&mut self) -> impl Iterator<Item = &mut Obligation> {
        let from = self.first_open.min(self.s.obligations.len());
        self.s.obligations.iter_mut().skip(from)
    }

    /// After some obligations closed: drops them (retain off) or moves past them.
    fn settle_obligations(&mut self) {
        if self.retain_searches {
            let o = &self.s.obligations;
            while o.get(self.first_open).is_some_and(|o| o.closed.is_some()) {
                self.first_open += 1;
            }
        } else {
            self.s.obligations.retain(|o| o.closed.is_none());
            self.first_open = 0;
        }
    }

    /// Withdraws open obligations (CECP `force` cancels the engine's move).
    pub(crate) fn cancel(&mut self, at: At, pred: impl Fn(&Obligation) -> bool) {
        let mut moves_closed = 0;
        let mut stops_closed = 0;
        let mut closed = std::mem::take(&mut self.closed_now);
        for o in self.pending_obligations() {
            if o.closed.is_none() && pred(o) {
                o.closed = Some(at);
                o.cancelled = true;
                moves_closed += usize::from(o.owed == Owed::Move);
                stops_closed += usize::from(o.kind == Request::Stop);
                closed.push(o.clone());
            }
        }
        self.closed_now = closed;
        self.open_moves -= moves_closed;
        self.open_stops -= stops_closed;
        self.settle_obligations();
    }

    /// The open obligations, oldest first.
    pub(crate) fn open_obligations(&self) -> impl Iterator<Item = &Obligation> {
        self.s
            .obligations
            .iter()
            .skip(self.first_open)
            .filter(|o| o.closed.is_none())
    }

    pub(crate) fn has_open(&self, pred: impl Fn(&Obligation) -> bool) -> bool {
        self.s
            .obligations
            .iter()
            .skip(self.first_open)
            .any(|o| o.closed.is_none() && pred(o))
    }

    /// Starts a search for `request` at the current game and ply, ending any running one.
    pub(crate) fn start_search(&mut self, request: &str, at: At, ponder: bool, infinite: bool) {
        self.end_search(None);
        self.search_board = None;
        self.search = Some(Search {
            started: at,
            ended: None,
            request: request.trim().to_owned(),
            ponder,
            infinite,
            reports: 0,
            last: None,
            best: None,
            ponder_move: None,
            game: self.game_index(),
            ply: self.s.games.last().map_or(0, |g| g.plies.len()),
        });
        self.s.search_count += 1;
    }

    /// Ends the running search, keeping it when `retain_searches` is on.
    pub(crate) fn end_search(&mut self, at: Option<At>) -> Option<Search> {
        let mut s = self.search.take()?;
        if s.ended.is_none() {
            s.ended = at;
        }
        if self.retain_searches {
            self.s.searches.push(s.clone());
        }
        Some(s)
    }

    /// A chess game that stopped without a result where the side to move could claim a draw
    /// (threefold repetition, fifty-move rule) gets that draw: UCI carries no results, and
    /// GUIs end such games by claiming it. The reason says the result is inferred. Called when
    /// the game's last board is still `board`: before the next game replaces it, and at the end.
    pub(crate) fn infer_draw_claim(&mut self) {
        let Some(g) = self.s.games.last() else {
            return;
        };
        if g.outcome.is_some()
            || g.kind != super::model::GameKind::Chess
            || g.board_unknown.is_some()
        {
            return;
        }
        let Some(at) = g.plies.last().map(|p| p.at) else {
            return;
        };
        let Some(claim) = self.board.as_ref().and_then(ChessBoard::draw_claim) else {
            return;
        };
        let reason = format!(
            "{}, claimable when the game stopped; the log shows no claim",
            claim.describe()
        );
        self.set_outcome("1/2-1/2", reason, at);
    }

    pub(crate) fn set_outcome(&mut self, result: &str, reason: impl Into<String>, at: At) {
        if let Some(g) = self.game()
            && g.outcome.is_none()
        {
            g.outcome = Some(GameOutcome {
                result: result.to_owned(),
                reason: reason.into(),
                at,
            });
        }
    }

    /// The live position as a string: FEN or Othello board.
    pub(crate) fn position_string(&self) -> Option<String> {
        let g = self.s.games.last()?;
        if g.board_unknown.is_some() {
            return None;
        }
        match g.kind {
            super::model::GameKind::Chess => self.board.as_ref().map(ChessBoard::fen),
            super::model::GameKind::Othello => self.othello.as_ref().map(|b| b.display_string()),
        }
    }

    fn dispatch(&mut self, protocol: Protocol, ev: &Event, dir: Dir, at: At) -> Msg {
        let (msg, parse_diags) = protocol::parse_reusing(protocol, dir, &ev.text, &mut self.spare);
        for d in parse_diags {
            let id = d.rule.unwrap_or(match protocol {
                Protocol::Uci => RuleId::UciSyntax,
                Protocol::Cecp => RuleId::CecpSyntax,
                Protocol::Nboard => RuleId::NboardSyntax,
            });
            self.finding(id, d.message);
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
                    self.set_outcome(r, reason, at);
                }
            }
            // An engine that goes while answers are owed crashed or quit on its own, unless
            // the GUI gave up first (closed the input, or had it killed): then the hang
            // verdict tells the story, not an engine fault. The proxy's sweep of processes the
            // engine left behind comes after the engine's end and explains nothing.
            Some(ProxyKind::GuiEof | ProxyKind::Killed | ProxyKind::Signal) => {
                self.end_explained = true;
            }
            Some(ProxyKind::EngineExit | ProxyKind::EngineEof) if !self.end_explained => {
                // Reported once, on the first sign (EOF then exit are one event).
                self.end_explained = true;
                let open: Vec<String> = self
                    .s
                    .open_obligations()
                    .map(|o| format!("{} for `{}`", o.owed, o.request))
                    .collect();
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

/// CECP's ping fence: after `new`, `force` or another reset, the GUI pings; engine moves that
/// arrive before the pong belong to the time before the reset.
#[derive(Debug, Default)]
pub(crate) struct CecpSync {
    /// A reset since the last fencing ping.
    pub reset: bool,
    /// The fencing ping, not answered yet.
    pub ping: Option<i64>,
    /// The last engine move that arrived inside the fence.
    pub stale: Option<String>,
}

/// Splits events into sessions and decodes them line by line.
pub struct Decoder {
    states: Vec<State>,
    last: usize,
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

    /// The live board of a session after the last pushed line: FEN (chess) or the Othello
    /// board string. Computed on demand: FEN strings are not free.
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
                    st.s.protocol = Some(*p);
                    st.s.protocol_reason = why.clone();
                    st.detect_done = true;
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
        if let Some(msg) = out.msg.take() {
            self.reclaim(out.session, msg);
        }
        let idx = self.state_for(ev.session.as_deref());
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
        st.closed_now.clear();
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
        if let Some(dir) = dir {
            if st.s.protocol.is_none() {
                detect_streaming(st, dir, ev);
            }
            if let Some(p) = st.s.protocol {
                out.msg = Some(st.dispatch(p, ev, dir, at));
            }
        }
        // The line's breaches change places with the previous line's (emptied) buffer.
        out.breaches.clear();
        std::mem::swap(&mut out.breaches, &mut st.diags);
        out.closed.clear();
        std::mem::swap(&mut out.closed, &mut st.closed_now);
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

/// Streaming detection: buffer the first lines until one decides, then replay them into the
/// session state at their own time and input line; their findings go out with the deciding
/// line ([`Decoded::earlier`]), as their own `Decoded` already went out undecoded.
fn detect_streaming(st: &mut State, dir: Dir, ev: &Event) {
    if st.detect_done {
        return;
    }
    let mut kept = ev.clone();
    kept.line = st.line;
    st.detect_buf.push((dir, kept));
    let found = protocol::detect(st.detect_buf.iter().map(|(d, e)| (*d, e.text.as_str())));
    let Some(found) = found else {
        if st.detect_buf.len() >= DETECT_WINDOW {
            st.detect_done = true;
            st.detect_buf = Vec::new();
        }
        return;
    };
    st.detect_done = true;
    st.s.protocol = Some(found.protocol);
    st.s.protocol_reason = found.reason.to_owned();
    let buffered = std::mem::take(&mut st.detect_buf);
    // The current line is decoded by the caller; replay only the earlier ones.
    let earlier = buffered.len().saturating_sub(1);
    let saved = std::mem::take(&mut st.diags);
    let (line, side) = (st.line, st.line_side);
    for (d, e) in buffered.into_iter().take(earlier) {
        let at = At { seq: e.seq, t: e.t };
        st.line = e.line;
        st.line_side = Some(match d {
            Dir::ToEngine => Party::Gui,
            Dir::FromEngine => Party::Engine,
        });
        let msg = st.dispatch(found.protocol, &e, d, at);
        let breaches = std::mem::take(&mut st.diags);
        st.earlier.push(EarlierLine {
            at,
            line: e.line,
            msg,
            breaches,
        });
    }
    (st.line, st.line_side) = (line, side);
    st.diags = saved;
}

/// The board shape a FEN's placement describes, when every rank has the same width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FenGeometry {
    pub files: usize,
    pub ranks: usize,
    /// Holdings in brackets (`[Qp]`) or pieces no standard set has.
    pub extras: bool,
}

impl FenGeometry {
    pub(crate) fn is_plain_8x8(self) -> bool {
        self.files == 8 && self.ranks == 8 && !self.extras
    }
}

/// Reads the placement field of `fen` for its geometry: ranks of equal width (multi-digit
/// empty counts such as `10` allowed), holdings in brackets, letters outside `pnbrqk`. `None`
/// when the ranks disagree or a character fits no FEN: then it is no board at all.
pub(crate) fn fen_geometry(fen: &str) -> Option<FenGeometry> {
    let placement = fen.split_ascii_whitespace().next()?;
    let (board, holdings) = match placement.find('[') {
        Some(i) => (&placement[..i], placement[i..].ends_with(']')),
        None => (placement, false),
    };
    let mut extras = holdings;
    let mut width = None;
    let mut ranks = 0;
    for rank in board.split('/') {
        // Crazyhouse FENs may put the holdings in a ninth "rank".
        if ranks == 8 && rank.chars().all(|c| c.is_ascii_alphabetic()) {
            extras = true;
            continue;
        }
        let mut w = 0usize;
        let mut digits = 0usize;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                digits = digits * 10 + d as usize;
                continue;
            }
            w += std::mem::take(&mut digits);
            match c {
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => w += 1,
                c if c.is_ascii_alphabetic() => {
                    extras = true;
                    w += 1;
                }
                // Promoted pieces (`Q~`) and gating markers (`*`) belong to the piece before.
                '~' | '*' | '+' => {}
                _ => return None,
            }
        }
        w += digits;
        if w == 0 || width.is_some_and(|x| x != w) {
            return None;
        }
        width = Some(w);
        ranks += 1;
    }
    Some(FenGeometry {
        files: width?,
        ranks,
        extras,
    })
}
