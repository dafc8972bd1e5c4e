//! The UCI rules over one line, in the judge's tracker: the handshake, the order of
//! `position`, `go` and `isready`, and what a search's `info` and `bestmove` must agree on.
//! A protocol of its own because its searches (queued, pondering, infinite, MultiPV) need
//! state no other protocol has.

use crate::protocol::uci;
use crate::recording::Event;
use crate::rules::catalogue::RuleId;
use crate::rules::judge::{Out, Tracker};
use crate::session::Decoder;
use crate::session::Fact;
use std::collections::VecDeque;

/// The parameters of the last UCI `go`, for the timing rules.
#[derive(Debug, Clone, Default)]
pub(crate) struct GoParams {
    pub movetime: Option<i64>,
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub ponder: bool,
    pub infinite: bool,
}

/// A search the engine is running, as the judge follows it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Running {
    pub infinite: bool,
    pub ponder: bool,
    pub stop_sent: bool,
    pub started_t: u64,
    /// The event number of the `go` that asked for it.
    pub go_seq: u64,
    /// First move of the last principal variation (multipv 1).
    pub pv_first: Option<String>,
    /// When the GUI sent an `isready` during the search that is not answered yet.
    pub isready_pending: Option<u64>,
    /// The engine's own `time` in its last info line (ms of search it reports).
    pub reported_ms: Option<u64>,
    /// MultiPV lines of the iteration being reported: (depth, the `multipv` indices seen, as
    /// bits).
    pub iteration: (u32, u64),
    /// The most lines any iteration of this search reported: an engine sends fewer than
    /// MultiPV when the position has fewer legal moves, and does so at every depth.
    pub most_lines: u32,
    /// The GUI's position when it sent this search's `go`.
    pub position: String,
    /// `ponderhit` came: the pondered move was played.
    pub ponderhit: bool,
}

impl Running {
    /// Ends the iteration being reported; `(depth, lines, lines owed)` when it fell short.
    fn close_iteration(&mut self, k: u32) -> Option<(u32, u32, u32)> {
        let (depth, seen) = self.iteration;
        let n = seen.count_ones();
        self.iteration = (0, 0);
        let owed = k.min(self.most_lines.max(n));
        self.most_lines = self.most_lines.max(n);
        (depth > 0 && n > 0 && n < owed).then_some((depth, n, owed))
    }
}

#[derive(Debug, Default)]
pub(crate) struct UciRules {
    uci_sent: bool,
    uciok: bool,
    id_name: bool,
    id_author: bool,
    readyok_before_go: bool,
    first_go: bool,
    position_seen: bool,
    newgame_needs_isready: bool,
    slow_option: Option<String>,
    /// The search the engine runs, as the decoder's facts start and end it.
    running: Option<Running>,
    /// The search the line being judged ended (its bestmove's search).
    ended: Option<Running>,
    /// The GUI's position at each `go` not yet started (queued behind a running search).
    go_positions: VecDeque<(u64, String)>,
    pub last_go: Option<GoParams>,
    /// After a bestmove, before the next go: (info lines with a search, deepest depth).
    after_bestmove: Option<(u32, u32)>,
    /// An isready sent during a search whose bestmove came first.
    readyok_owed_after_search: bool,
    registration_error: bool,
    register_sent: bool,
    copyprotection_error: bool,
    /// `setoption name MultiPV value K`.
    multipv: u32,
    /// The GUI's last `position`, as `startpos|FEN moves ...`.
    last_position: String,
    /// The one before, its buffer kept for the next (GUIs resend the whole game every move).
    spare_position: String,
    /// A bestmove that came after the GUI had moved on to another position: (the position
    /// it was for, the move).
    stale: Option<(String, String)>,
    /// The search a ponderhit confirmed: (its position, the engine's move).
    pondered: Option<(String, String)>,
    /// What makes a replay of this session not deterministic (replay's setup note).
    pub nondeterministic: Vec<&'static str>,
}

/// `startpos moves e2e4 e7e5` / `FEN moves ...`, comparable by prefix, written over `key`.
fn position_key(p: &uci::Position, key: &mut String) {
    let start = p.fen.as_deref().unwrap_or("startpos").trim();
    let moves = p.moves.as_str().trim();
    key.clear();
    key.push_str(start);
    if !moves.is_empty() {
        key.push_str(" moves ");
        key.push_str(moves);
    }
}

/// `key` extends `prefix` by whole moves.
fn extends(key: &str, prefix: &str) -> bool {
    key == prefix
        || (key.starts_with(prefix)
            && (key[prefix.len()..].starts_with(' ') || !prefix.contains(" moves")))
}

/// How soon after an `isready` a bestmove must come to count as the engine's answer to it
/// (an engine that stops its search on `isready` answers within milliseconds).
const ISREADY_PROMPT_NS: u64 = 500_000_000;

/// GUI-observed search time beyond the engine's own report that counts as lost.
const LATENCY_BUDGET_MS: u64 = 200;

/// Options whose setting takes time (hash allocation, tablebase and network loading): the
/// UCI text asks for `isready` after them.
fn slow_option(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [
        "hash",
        "threads",
        "evalfile",
        "syzygypath",
        "nalimovpath",
        "weightsfile",
        "bookfile",
    ]
    .iter()
    .any(|k| n == *k)
        || n.ends_with("path")
}

/// `[a-h][1-8][a-h][1-8][qrbn]?`, or a null move.
fn uci_move_shaped(m: &str) -> bool {
    let b = m.as_bytes();
    let sq = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    uci::is_null_move(m)
        || (matches!(b.len(), 4 | 5)
            && sq(b[0], b[1])
            && sq(b[2], b[3])
            && (b.len() == 4 || b"qrbn".contains(&b[4])))
}

impl Tracker {
    /// One UCI line: where it comes in the session, then the rules of its kind, one method
    /// each for the kinds with more than a flag to set.
    pub(crate) fn uci_line(
        &mut self,
        m: &uci::Msg,
        ev: &Event,
        dec: &Decoder,
        session: usize,
        out: &mut Out<'_>,
    ) {
        use uci::Msg as M;
        let from_gui = ev.src == crate::recording::Source::Gui;
        if from_gui && !matches!(m, M::Empty | M::Unknown(_)) {
            self.gui_protocol_lines += 1;
            if self.gui_protocol_lines == 1 && !matches!(m, M::Uci) && self.at_start() {
                out.add(
                    RuleId::UciFirstCommand,
                    format!("the GUI's first command is `{}`, not `uci`", ev.text.trim()),
                );
            }
        }
        // The engine speaks before it was asked to (`uciok` itself is the decoder's finding).
        if !from_gui
            && !self.uci.uci_sent
            && self.saw_start
            && !matches!(m, M::Empty | M::Unknown(_) | M::UciOk)
            && self.first(RuleId::UciUnsolicitedOutput)
        {
            out.add(
                RuleId::UciUnsolicitedOutput,
                format!("`{}` before the GUI sent uci", ev.text.trim()),
            );
        }
        let r = &mut self.uci;
        match m {
            M::Uci => r.uci_sent = true,
            M::IsReady => {
                if let Some(run) = r.running.as_mut()
                    && !run.stop_sent
                {
                    run.isready_pending.get_or_insert(ev.t);
                }
            }
            M::SetOption { name, value } => self.uci_setoption(name, value.as_deref(), out),
            M::Register(_) => r.register_sent = true,
            M::UciNewGame => {
                r.position_seen = false;
                r.newgame_needs_isready = true;
                r.stale = None;
                r.pondered = None;
            }
            M::Position(p) => self.uci_position(p, dec, session, out),
            M::Go(go) => self.uci_go(go, ev, out),
            M::Stop => {
                if let Some(run) = r.running.as_mut() {
                    run.stop_sent = true;
                }
            }
            M::PonderHit => {
                if let Some(run) = r.running.as_mut() {
                    run.ponder = false;
                    run.ponderhit = true;
                }
            }
            M::Id(uci::Id::Name(_)) => r.id_name = true,
            M::Id(uci::Id::Author(_)) => r.id_author = true,
            M::UciOk => self.uci_uciok(out),
            M::ReadyOk => self.uci_readyok(out),
            M::Option(decl) => self.uci_option(decl, out),
            M::Info(info) => self.uci_info(info, ev, out),
            M::BestMove { best, ponder } => {
                self.uci_bestmove(best, ponder.as_deref(), ev, dec, session, out)
            }
            M::Registration(uci::Status::Error) => r.registration_error = true,
            M::CopyProtection(uci::Status::Error) => r.copyprotection_error = true,
            M::Quit => self.quit = Some(out.place),
            _ => {}
        }
    }

    /// `setoption`: what the option changes for replays and MultiPV, and the `isready` a slow
    /// one owes before the next `go`.
    fn uci_setoption(&mut self, name: &str, value: Option<&str>, out: &mut Out<'_>) {
        let r = &mut self.uci;
        let threads = value.and_then(|v| v.trim().parse::<u32>().ok());
        if name.eq_ignore_ascii_case("Threads")
            && threads.is_some_and(|n| n > 1)
            && !r.nondeterministic.contains(&"Threads above 1")
        {
            r.nondeterministic.push("Threads above 1");
        }
        if name.eq_ignore_ascii_case("MultiPV") {
            r.multipv = value.and_then(|v| v.trim().parse().ok()).unwrap_or(1);
        }
        if r.running.is_some() {
            out.add(
                RuleId::UciSetoptionWhileSearching,
                format!("setoption {name} while a search runs"),
            );
        }
        if slow_option(name) {
            r.slow_option = Some(name.to_owned());
        }
    }

    /// `position`: its moves, and what it says of the search running and the last bestmove.
    fn uci_position(
        &mut self,
        p: &uci::Position,
        dec: &Decoder,
        session: usize,
        out: &mut Out<'_>,
    ) {
        // GUIs resend the whole game every move: only the moves past the last
        // position's need looking at.
        let mut key = std::mem::take(&mut self.uci.spare_position);
        position_key(p, &mut key);
        let last = &self.uci.last_position;
        let fresh = match key.strip_prefix(last.as_str()) {
            Some(rest) if !last.is_empty() && (rest.is_empty() || rest.starts_with(' ')) => {
                rest.trim_start_matches(" moves")
            }
            _ => p.moves.as_str(),
        };
        if standard(dec, session)
            && let Some(mv) = fresh.split_ascii_whitespace().find(|m| !uci_move_shaped(m))
        {
            out.add(
                RuleId::UciMoveFormat,
                format!("`{mv}` in position is not a move in long algebraic notation"),
            );
        }
        let r = &mut self.uci;
        if let Some(run) = &r.running
            && !run.stop_sent
        {
            out.add(
                RuleId::UciPositionWhileSearching,
                "position while a search runs, without stop: its info and bestmove still concern the old position",
            );
        }
        r.position_seen = true;
        if let Some((old, best)) = r.stale.take()
            && key
                == format!(
                    "{} {best}",
                    if old.contains(" moves") {
                        old.clone()
                    } else {
                        format!("{old} moves")
                    }
                )
        {
            out.add(
                RuleId::UciStaleBestmove,
                format!("the GUI plays {best}, a bestmove that came after it had moved on to another position"),
            );
        }
        if let Some((pondered, best)) = r.pondered.take()
            && !extends(&key, &pondered)
        {
            out.add(
                RuleId::UciPonderhitWrongPosition,
                format!(
                    "after ponderhit (on `{pondered}`, answered {best}) the game goes on from another position"
                ),
            );
        }
        r.spare_position = std::mem::replace(&mut r.last_position, key);
    }

    /// `go`: what must come before a search, and the search it starts (or queues).
    fn uci_go(&mut self, go: &uci::Go, ev: &Event, out: &mut Out<'_>) {
        let r = &mut self.uci;
        if !r.position_seen && r.uci_sent {
            out.add(
                RuleId::UciGoWithoutPosition,
                "go without a position since uci/ucinewgame",
            );
        }
        if !r.first_go {
            r.first_go = true;
            if r.uci_sent && !r.readyok_before_go {
                out.add(
                    RuleId::UciGoBeforeReadyok,
                    "the first go of the session came before any isready was answered with readyok",
                );
            }
        }
        if std::mem::take(&mut r.newgame_needs_isready) {
            out.add(
                RuleId::UciUcinewgameNoIsready,
                "go after ucinewgame without isready/readyok in between",
            );
        }
        if let Some(name) = r.slow_option.take() {
            out.add(
                RuleId::UciSetoptionNoIsready,
                format!("go after setoption {name} without isready/readyok in between"),
            );
        }
        if r.copyprotection_error && self.once_uci(RuleId::UciCopyprotectionIgnored) {
            out.add(
                RuleId::UciCopyprotectionIgnored,
                "go although the engine reported `copyprotection error`",
            );
        }
        let r = &mut self.uci;
        r.last_go = Some(GoParams {
            movetime: go.movetime,
            wtime: go.wtime,
            btime: go.btime,
            ponder: go.ponder,
            infinite: go.infinite,
        });
        // A `go` queued behind a running search starts later: keep the position it was for.
        if r.running.as_ref().is_none_or(|run| run.go_seq != ev.seq) {
            if r.go_positions.len() >= 8 {
                r.go_positions.pop_front();
            }
            r.go_positions.push_back((ev.seq, r.last_position.clone()));
        }
        let clocked = go.wtime.is_some() || go.btime.is_some() || go.movetime.is_some();
        if clocked
            && !r
                .nondeterministic
                .contains(&"searches limited by the clock")
        {
            r.nondeterministic.push("searches limited by the clock");
        }
        if go.ponder && !r.nondeterministic.contains(&"pondering") {
            r.nondeterministic.push("pondering");
        }
        r.after_bestmove = None;
    }

    /// The searches the decoder started and ended on this line: the rules follow the
    /// decoder's searches (a `go` queued behind a running search starts when that search
    /// answers; a bestmove legal only in the queued search's position answers that one)
    /// rather than following the `go`s and `bestmove`s again.
    pub(crate) fn uci_facts(&mut self, facts: &[Fact]) {
        let r = &mut self.uci;
        r.ended = None;
        for f in facts {
            match f {
                Fact::SearchStarted {
                    go,
                    started,
                    ponder,
                    infinite,
                } => {
                    // Started by this line's `go`: the position is the last one sent.
                    let position = match r.go_positions.iter().find(|(s, _)| *s == go.seq) {
                        Some((_, p)) => p.clone(),
                        None => r.last_position.clone(),
                    };
                    r.go_positions.retain(|(s, _)| *s > go.seq);
                    r.running = Some(Running {
                        infinite: *infinite,
                        ponder: *ponder,
                        started_t: started.t,
                        go_seq: go.seq,
                        position,
                        ..Running::default()
                    });
                }
                Fact::SearchEnded { .. } => r.ended = r.running.take(),
                Fact::Opened(_) | Fact::Closed(_) => {}
            }
        }
    }

    /// `uciok`: the `id` lines it ends the handshake without.
    fn uci_uciok(&mut self, out: &mut Out<'_>) {
        let r = &mut self.uci;
        // Both are "must be sent after receiving the uci command" in the UCI text.
        let missing: Vec<&str> = [(r.id_name, "`id name`"), (r.id_author, "`id author`")]
            .into_iter()
            .filter(|(seen, _)| !seen)
            .map(|(_, what)| what)
            .collect();
        if !missing.is_empty() && r.uci_sent {
            out.add(
                RuleId::UciIdMissing,
                format!("uciok without {} before it", missing.join(" and ")),
            );
        }
        // A uciok before uci (printed at boot) does not end the handshake.
        r.uciok = r.uciok || r.uci_sent;
    }

    /// `readyok`: the waits it ends, and whether a search held it back.
    fn uci_readyok(&mut self, out: &mut Out<'_>) {
        let r = &mut self.uci;
        if r.uci_sent && !r.first_go {
            r.readyok_before_go = true;
        }
        r.newgame_needs_isready = false;
        r.slow_option = None;
        if std::mem::take(&mut r.readyok_owed_after_search) {
            out.add(
                RuleId::UciReadyokDelayedBySearch,
                "isready sent during the search was answered only after its bestmove",
            );
        }
        if let Some(run) = r.running.as_mut() {
            run.isready_pending = None;
        }
    }

    /// `option`: declared late, or with a default its own declaration rules out.
    fn uci_option(&mut self, decl: &uci::OptionDecl, out: &mut Out<'_>) {
        let r = &mut self.uci;
        if r.uciok && self.once_uci(RuleId::UciOptionAfterUciok) {
            out.add(
                RuleId::UciOptionAfterUciok,
                format!("option {} declared after uciok", decl.name),
            );
        }
        if let Some(problem) = option_problem(decl) {
            out.add(
                RuleId::UciOptionMalformed,
                format!("option {}: {problem}", decl.name),
            );
        }
    }

    /// `bestmove`: the end of the running search, weighed against how it was asked for and
    /// what its info lines said.
    fn uci_bestmove(
        &mut self,
        best: &str,
        ponder: Option<&str>,
        ev: &Event,
        dec: &Decoder,
        session: usize,
        out: &mut Out<'_>,
    ) {
        let k = self.uci.multipv;
        let short = match self.uci.ended.as_mut() {
            Some(run) if k > 1 => run.close_iteration(k),
            _ => None,
        };
        self.multipv_incomplete(short, out);
        if let Some(run) = self.uci.ended.take() {
            // After the GUI closed the input (Stockfish takes EOF as quit), a
            // bestmove is the search's end the GUI asked for.
            let unasked = !run.stop_sent
                && (run.infinite || run.ponder)
                && self.gui_eof.is_none()
                && self.quit.is_none();
            // Only a bestmove that follows the isready promptly was the engine's answer to
            // it; one that comes long after ended the search for reasons of its own, and the
            // readyok it held back is judged when it comes.
            let stopped_by_isready = run
                .isready_pending
                .is_some_and(|t| ev.t.saturating_sub(t) <= ISREADY_PROMPT_NS);
            if unasked && stopped_by_isready {
                out.add(
                    RuleId::UciIsreadyStopsSearch,
                    "isready during the search was answered by ending it with bestmove",
                );
            } else if unasked && run.infinite {
                out.add(
                    RuleId::UciBestmoveInInfinite,
                    format!("bestmove {best} during go infinite before stop"),
                );
            } else if unasked {
                out.add(
                    RuleId::UciBestmoveInPonder,
                    format!("bestmove {best} during go ponder before stop or ponderhit"),
                );
            }
            if run.isready_pending.is_some() && !(unasked && stopped_by_isready) {
                self.uci.readyok_owed_after_search = true;
            }
            // The GUI saw the search take longer than the engine says it searched.
            let seen_ms = ev.t.saturating_sub(run.started_t) / 1_000_000;
            if let Some(rep) = run.reported_ms
                && seen_ms > rep + LATENCY_BUDGET_MS
                && !unasked
                && self.first(RuleId::XLatencyBudget)
            {
                out.add(
                    RuleId::XLatencyBudget,
                    format!(
                        "bestmove {seen_ms} ms after go, but the engine reports {rep} ms of search: {} ms lost between the two (reported once)",
                        seen_ms - rep
                    ),
                );
            }
            let r = &mut self.uci;
            if run.position != r.last_position && !uci::is_null_move(best) {
                r.stale = Some((run.position.clone(), best.to_owned()));
            } else if run.ponderhit {
                r.pondered = Some((run.position.clone(), best.to_owned()));
            }
            if let Some(first) = &run.pv_first
                && first != best
                && !uci::is_null_move(best)
            {
                out.add(
                    RuleId::UciInfoBestmovePvMismatch,
                    format!("bestmove {best} is not the first move of the last PV ({first})"),
                );
            }
        }
        self.uci.after_bestmove = Some((0, 0));
        let shaped = |m: &str| uci_move_shaped(m) || m == "(none)";
        if standard(dec, session) {
            for mv in std::iter::once(best).chain(ponder) {
                if !shaped(mv) {
                    out.add(
                        RuleId::UciMoveFormat,
                        format!("`{mv}` is not a move in long algebraic notation"),
                    );
                }
            }
        }
    }

    fn once_uci(&mut self, rule: RuleId) -> bool {
        self.first(rule)
    }

    fn multipv_incomplete(&mut self, short: Option<(u32, u32, u32)>, out: &mut Out<'_>) {
        if let Some((d, n, owed)) = short
            && self.first(RuleId::UciInfoMultipvIncomplete)
        {
            out.add(
                RuleId::UciInfoMultipvIncomplete,
                format!(
                    "depth {d} reported {n} of the {owed} lines MultiPV {} asks for (reported once)",
                    self.uci.multipv
                ),
            );
        }
    }

    fn uci_info(&mut self, info: &uci::Info, ev: &Event, out: &mut Out<'_>) {
        if info.seldepth.is_some()
            && info.depth.is_none()
            && self.first(RuleId::UciInfoSeldepthWithoutDepth)
        {
            out.add(
                RuleId::UciInfoSeldepthWithoutDepth,
                "seldepth without depth in the same line (reported once)",
            );
        }
        let searching = info.depth.is_some() || info.pv.is_some() || info.score.is_some();
        let k = self.uci.multipv;
        let mut incomplete = None;
        if let Some(run) = self.uci.running.as_mut() {
            if let Some(t) = info.time {
                run.reported_ms = Some(t);
            }
            // A new depth closes the iteration before it: with MultiPV k it owed k lines.
            if k > 1
                && info.pv.is_some()
                && let Some(depth) = info.depth
            {
                if depth != run.iteration.0 {
                    incomplete = run.close_iteration(k);
                    run.iteration.0 = depth;
                }
                let index = info.multipv.unwrap_or(1).clamp(1, 64) - 1;
                run.iteration.1 |= 1u64 << index;
            }
        }
        self.multipv_incomplete(incomplete, out);
        if let Some(run) = self.uci.running.as_mut() {
            if info.multipv.is_none_or(|k| k == 1)
                && let Some(first) = info.pv.as_ref().and_then(|pv| pv.iter().next())
            {
                match &mut run.pv_first {
                    Some(s) => {
                        s.clear();
                        s.push_str(first);
                    }
                    None => run.pv_first = Some(first.to_owned()),
                }
            }
            let early = ev.t.saturating_sub(run.started_t) < 1_000_000_000
                && info.time.is_none_or(|t| t < 1000);
            if (info.currmove.is_some() || info.currline.is_some() || info.refutation.is_some())
                && early
                && self.first(RuleId::UciInfoCurrmoveEarly)
            {
                out.add(
                    RuleId::UciInfoCurrmoveEarly,
                    "currmove/currline/refutation within the first second of a search (reported once)",
                );
            }
            return;
        }
        let Some((n, deepest)) = self.uci.after_bestmove.as_mut() else {
            return;
        };
        if !searching {
            return;
        }
        *n += 1;
        let depth = info.depth.unwrap_or(0);
        let deeper = depth > *deepest;
        *deepest = (*deepest).max(depth);
        let n = *n;
        if n == 1 {
            out.add(
                RuleId::UciInfoAfterBestmove,
                "search info after bestmove, before the next go",
            );
        } else if deeper && self.first(RuleId::UciPonderAutostart) {
            out.add(
                RuleId::UciPonderAutostart,
                "the engine keeps searching after bestmove without a go (pondering on its own)",
            );
        }
    }

    /// UCI rules decided once the session's input is over.
    pub(super) fn uci_session_end(&mut self, out: &mut Out<'_>) {
        if !self.uci.nondeterministic.is_empty() {
            out.side = None;
            out.add(
                RuleId::ReplayNondeterministicSetup,
                format!(
                    "a replay of this session would not give the same searches: {}",
                    self.uci.nondeterministic.join(", ")
                ),
            );
        }
        if self.uci.registration_error && !self.uci.register_sent {
            out.side = None;
            out.add(
                RuleId::UciRegisterMissing,
                "the engine sent `registration error` and the GUI never sent register",
            );
        }
    }
}

/// The session plays standard chess (or says no variant): only then are moves checked for
/// their shape.
fn standard(dec: &Decoder, session: usize) -> bool {
    dec.session(session)
        .is_none_or(|s| s.variant.is_empty() || s.variant == "standard")
}

/// A declared option whose default its own declaration rules out.
fn option_problem(decl: &uci::OptionDecl) -> Option<String> {
    let default = decl.default.as_deref()?.trim();
    match decl.kind {
        uci::OptionType::Spin => {
            let v: i64 = default.parse().ok()?;
            let below = decl.min.is_some_and(|m| v < m);
            let above = decl.max.is_some_and(|m| v > m);
            (below || above).then(|| {
                format!(
                    "default {v} outside {}..{}",
                    decl.min.unwrap_or(i64::MIN),
                    decl.max.unwrap_or(i64::MAX)
                )
            })
        }
        uci::OptionType::Combo if !decl.vars.is_empty() => {
            (!decl.vars.iter().any(|x| x.eq_ignore_ascii_case(default)))
                .then(|| format!("default `{default}` is not one of its vars"))
        }
        _ => None,
    }
}
