//! A session's live state and the helpers every protocol's decoder calls on it: findings,
//! obligations opened and closed, games and searches started and ended. Apart from the
//! `Decoder` because this is what the protocol modules (`session/uci.rs`, `cecp.rs`,
//! `nboard.rs`) build on, while the push loop around it only routes events to it.

use crate::game::{ChessBoard, ChessEditor, OthelloBoard, PositionCache};
use crate::protocol::{self, Dir};
use crate::recording::Event;

use super::EarlierLine;
use crate::rules::catalogue::RuleId;
use crate::session::model::{
    At, Breach, Eval, Fact, Game, GameKind, GameOutcome, GoLimits, Obligation, OutcomeBy, Owed,
    Party, Request, Search, Session,
};
use crate::session::pv::{PvCache, RootKey};

/// Live per-session state besides the public model.
pub(crate) struct State {
    pub(crate) s: Session,
    /// The input line of the event being decoded, when known (for findings and gaps).
    pub(crate) line: Option<u64>,
    /// Who sent the line being decoded (`None` for proxy and stderr lines).
    pub(crate) line_side: Option<Party>,
    /// What the line being decoded made happen (see
    /// [`Decoded::facts`](super::Decoded::facts)).
    pub(crate) facts: Vec<Fact>,
    /// The GUI sent `quit`.
    pub(crate) quit_sent: bool,
    /// CECP: engine moves fenced off by a ping after a reset.
    pub(crate) cecp_sync: CecpSync,
    /// The end of the session is accounted for: the GUI closed the input, had the engine
    /// killed or signalled, or the engine's going was already reported.
    pub(crate) end_explained: bool,
    /// The last signal the GUI (or whoever) sent the engine's process group, and when: it
    /// explains the engine's end only if the end follows at once, or by that very signal.
    pub(crate) signalled: Option<(u64, String)>,
    /// Lines seen while the protocol is unknown (streaming detection), with their time and
    /// input line, replayed once a line decides.
    pub(super) detect_buf: Vec<(Dir, Event)>,
    /// Earlier lines replayed by the current line (see
    /// [`Decoded::earlier`](super::Decoded::earlier)).
    pub(super) earlier: Vec<EarlierLine>,
    pub(super) detect_done: bool,
    /// The protocol detected beforehand for this session ([`super::Decoder::with_detected`]),
    /// taken up at its first GUI or engine line: where streaming detection would decide.
    pub(super) preset: Option<(crate::protocol::Protocol, String)>,
    /// Streaming detection decided on the session's first GUI or engine line, so no line
    /// was decoded late (see [`super::Decoder::adopt_detected`]).
    pub(super) decided_at_first: bool,
    /// The last GUI and engine line (in that order) was cut for length (`more`): the next
    /// one from that side continues it and is no message of its own.
    pub(super) continues: [bool; 2],
    /// Games dropped from `s.games` (retain off), so `PosRef::game` stays absolute.
    pub(crate) games_dropped: usize,
    pub(crate) retain: bool,
    /// Keep finished searches and answered obligations (`retain` keeps the games).
    pub(crate) retain_searches: bool,
    /// Every obligation before this index is closed.
    first_open: usize,
    /// Open obligations owing a CECP move: asked on every line, so counted, not searched.
    pub(super) open_moves: usize,
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
    /// The PV of the line being decoded was found legal ahead, from the position with this key.
    pub(crate) pv_legal_from: Option<RootKey>,
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
    pub(crate) queued_go: Option<(String, At, GoLimits)>,
    /// UCI: `ucinewgame` since the last `position`.
    pub(crate) new_game_pending: bool,
    /// UCI: the last `go ponder` searched on the GUI's guess of the opponent's move, and no
    /// `ponderhit` or later `position` said whether the opponent played it.
    pub(crate) unconfirmed_ponder: bool,
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
    pub(crate) nboard_proposal: Option<(String, Option<Eval>, usize)>,
    /// CECP: the number of the last `pong` that answered a ping, to tell a repeated pong
    /// (GNU Chess sends each twice) from one that answers nothing.
    pub(crate) last_pong: Option<String>,
    /// Message buffers handed back through [`Decoder::recycle`](super::Decoder::recycle).
    pub(super) spare: protocol::Spare,
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

    pub(super) fn new(label: Option<String>, retain: bool) -> State {
        State {
            line: None,
            line_side: None,
            facts: Vec::new(),
            quit_sent: false,
            cecp_sync: CecpSync::default(),
            end_explained: false,
            signalled: None,
            s: Session::new(label),
            detect_buf: Vec::new(),
            earlier: Vec::new(),
            detect_done: false,
            preset: None,
            decided_at_first: false,
            continues: [false; 2],
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
            pv_legal_from: None,
            check_pv: true,
            search: None,
            search_board: None,
            queued_go: None,
            new_game_pending: false,
            unconfirmed_ponder: false,
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
        self.open_obligation(kind, request.into(), None, owed, at);
    }

    /// A UCI `go`'s obligation: the bestmove, within the limits it set.
    pub(crate) fn open_go(&mut self, open_ended: bool, limits: GoLimits, at: At) {
        let kind = Request::Go { open_ended };
        self.open_obligation(kind, "go".to_owned(), Some(limits), Owed::BestMove, at);
    }

    fn open_obligation(
        &mut self,
        kind: Request,
        request: String,
        go: Option<GoLimits>,
        owed: Owed,
        at: At,
    ) {
        self.open_moves += usize::from(owed == Owed::Move);
        self.open_stops += usize::from(kind == Request::Stop);
        let o = Obligation {
            request,
            kind,
            go,
            owed,
            opened: at,
            closed: None,
            cancelled: false,
        };
        self.facts.push(Fact::Opened(o.clone()));
        self.s.obligations.push(o);
    }

    /// Closes the open obligations whose answer satisfies `pred` (all of them, or only the
    /// oldest with `first_only`). Returns how many were closed.
    pub(crate) fn close(
        &mut self,
        at: At,
        first_only: bool,
        pred: impl Fn(&Obligation) -> bool,
    ) -> usize {
        self.end_obligations(at, first_only, false, pred)
    }

    /// Closes the open obligations `pred` picks, answered or (`cancelled`) withdrawn, and
    /// keeps the counts of open moves and stops in step.
    fn end_obligations(
        &mut self,
        at: At,
        first_only: bool,
        cancelled: bool,
        pred: impl Fn(&Obligation) -> bool,
    ) -> usize {
        let mut n = 0;
        let mut moves_closed = 0;
        let mut stops_closed = 0;
        let mut facts = std::mem::take(&mut self.facts);
        for o in self.pending_obligations() {
            if o.closed.is_none() && pred(o) {
                o.closed = Some(at);
                o.cancelled = cancelled;
                facts.push(Fact::Closed(o.clone()));
                n += 1;
                moves_closed += usize::from(o.owed == Owed::Move);
                stops_closed += usize::from(o.kind == Request::Stop);
                if first_only {
                    break;
                }
            }
        }
        self.facts = facts;
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
        self.end_obligations(at, false, true, pred);
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
    pub(crate) fn start_search(
        &mut self,
        request: &str,
        go: At,
        started: At,
        ponder: bool,
        infinite: bool,
    ) {
        self.end_search(None);
        self.search_board = None;
        self.search = Some(Search {
            started,
            ended: None,
            request: request.trim().to_owned(),
            go: None,
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
        self.facts.push(Fact::SearchStarted {
            go,
            started,
            ponder,
            infinite,
        });
    }

    /// Starts the search of a UCI `go` (see [`State::start_search`]), with its limits.
    pub(crate) fn start_uci_search(
        &mut self,
        request: &str,
        go: At,
        started: At,
        limits: GoLimits,
    ) {
        self.start_search(request, go, started, limits.ponder, limits.infinite);
        if let Some(s) = self.search.as_mut() {
            s.go = Some(limits);
        }
    }

    /// Ends the running search, keeping it when `retain_searches` is on.
    pub(crate) fn end_search(&mut self, at: Option<At>) -> Option<Search> {
        let mut s = self.search.take()?;
        self.facts.push(Fact::SearchEnded {
            reported_ms: s.last.as_ref().and_then(|r| r.time_ms),
        });
        if s.ended.is_none() {
            s.ended = at;
        }
        if self.retain_searches {
            self.s.searches.push(s.clone());
        }
        Some(s)
    }

    /// The game ended (a new one starts, or the input ends) while the last `go ponder` was
    /// unconfirmed: its predicted move is no move of the game. It leaves the game, with any
    /// result only it decided, and the board goes back to before it.
    pub(crate) fn drop_unconfirmed_ponder(&mut self) {
        if !std::mem::take(&mut self.unconfirmed_ponder) {
            return;
        }
        let Some(g) = self.s.games.last_mut() else {
            return;
        };
        let Some(guess) = g.plies.pop() else {
            return;
        };
        if g.outcome.as_ref().is_some_and(|o| o.at.seq >= guess.at.seq) {
            g.outcome = None;
        }
        let variant = crate::game::ChessVariant::from_cecp(&g.variant);
        let start = match g.start.as_deref() {
            Some(fen) => ChessBoard::from_fen_lenient(fen, variant, g.chess960).map(|(b, _)| b),
            None => ChessBoard::startpos(variant),
        };
        self.board = start.ok().and_then(|mut b| {
            g.plies
                .iter()
                .all(|p| b.play_uci(p.canonical().unwrap_or(p.text())).is_ok())
                .then_some(b)
        });
        self.board_from_cache = false;
        self.cache.clear();
        self.board_changed();
    }

    /// A chess game that stopped without a result where the side to move could claim a draw
    /// (threefold repetition, fifty-move rule) gets that draw: UCI carries no results, and
    /// GUIs end such games by claiming it. The reason says the result is inferred. Called when
    /// the game's last board is still `board`: before the next game replaces it, and at the end.
    pub(crate) fn infer_draw_claim(&mut self) {
        let Some(g) = self.s.games.last() else {
            return;
        };
        if g.outcome.is_some() || g.kind != GameKind::Chess || g.board_unknown.is_some() {
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
        self.set_outcome("1/2-1/2", reason, at, OutcomeBy::Board);
    }

    pub(crate) fn set_outcome(
        &mut self,
        result: &str,
        reason: impl Into<String>,
        at: At,
        by: OutcomeBy,
    ) {
        if let Some(g) = self.game()
            && g.outcome.is_none()
        {
            g.outcome = Some(GameOutcome {
                result: result.to_owned(),
                reason: reason.into(),
                at,
                by,
            });
        }
    }

    /// The live position as a string: FEN or Othello board.
    /// White is to move on the live chess board (what the FEN's second field says, without
    /// writing the FEN).
    pub(crate) fn white_to_move(&self) -> Option<bool> {
        let g = self.s.games.last()?;
        if g.board_unknown.is_some() || g.kind != GameKind::Chess {
            return None;
        }
        self.board
            .as_ref()
            .map(|b| b.turn() == crate::game::Side::White)
    }

    pub(crate) fn position_string(&self) -> Option<String> {
        let g = self.s.games.last()?;
        if g.board_unknown.is_some() {
            return None;
        }
        match g.kind {
            GameKind::Chess => self.board.as_ref().map(ChessBoard::fen),
            GameKind::Othello => self.othello.as_ref().map(|b| b.display_string()),
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
