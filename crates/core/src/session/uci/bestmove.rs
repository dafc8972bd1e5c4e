//! A UCI `bestmove`: the search it answers, its legality on that search's board, and the
//! engine's move it adds to the game.

use super::super::decoder::State;
use super::super::model::{At, Mover, Owed, Ply, Request, Search};
use crate::game::{ChessBoard, Played};
use crate::protocol::uci;
use crate::rules::catalogue::RuleId;

impl State {
    pub(super) fn uci_bestmove(&mut self, best: &str, ponder: Option<&str>, at: At) {
        self.switch_to_queued_go_if_answered(best, at);
        self.close_searches_answered(at);
        let searched = match self.search {
            Some(_) => self.search_board.take(),
            None => None,
        };
        let search = self.end_search_with(best, ponder, at);
        let Some(board) = searched.as_ref().map(|(b, _)| b).or(self.board.as_ref()) else {
            if let Some(why) = never_legal(best) {
                self.finding(
                    RuleId::UciBestmoveIllegal,
                    format!("bestmove {best} is illegal in any position: {why}"),
                );
            }
            return;
        };
        let (after, played) = match bestmove_on(board, best) {
            Ok(played) => played,
            Err(no_move) => {
                match no_move {
                    NoMove::Allowed => {}
                    NoMove::Idiom(rule, msg) => self.idiom(rule, msg),
                    NoMove::Finding(rule, msg) => self.finding(rule, msg),
                }
                return;
            }
        };
        self.castling_spelling(played.castling, best);
        self.ponder_move_after(&after, best, ponder);
        if let Some(search) = search {
            self.play_engine_move(&search, best, &played, after, at);
        }
    }

    /// After a `go` sent while a search ran, engines differ: most finish the running search
    /// first (this bestmove is its answer, legal in its position), some drop it and answer
    /// the new `go` (a move legal only in the new position). The move tells which.
    fn switch_to_queued_go_if_answered(&mut self, best: &str, at: At) {
        let switched = self.queued_go.is_some()
            && !uci::is_null_move(best)
            && self
                .search_board
                .as_ref()
                .is_some_and(|(b, _)| b.clone().play_uci(best).is_err())
            && self
                .board
                .as_ref()
                .is_some_and(|b| b.clone().play_uci(best).is_ok());
        if switched && let Some((request, queued_at, limits)) = self.queued_go.take() {
            self.start_uci_search(&request, queued_at, queued_at, limits);
            self.close(at, false, |o| o.owed == Owed::BestMove);
        }
    }

    /// One bestmove answers the oldest `go` and the `stop`s sent for it, not a `go` the GUI
    /// sent while that search ran.
    fn close_searches_answered(&mut self, at: At) {
        let mut gos = 0;
        let mut answers = Vec::new();
        for o in self.open_obligations() {
            if o.owed != Owed::BestMove {
                continue;
            }
            if o.kind != Request::Stop {
                gos += 1;
                if gos > 1 {
                    break;
                }
            }
            answers.push(o.opened.seq);
        }
        let answered = self.close(at, false, |o| {
            o.owed == Owed::BestMove && answers.contains(&o.opened.seq)
        });
        if answered == 0 {
            if self.s.search_count == 0 {
                self.finding(
                    RuleId::XInputStartsMidSession,
                    "bestmove before any go (the log starts mid-session?)",
                );
            } else {
                self.finding(
                    RuleId::UciBestmoveWithoutGo,
                    "bestmove without a pending go",
                );
            }
        }
    }

    /// Ends the running search with its answer, and starts the `go` queued behind it.
    fn end_search_with(&mut self, best: &str, ponder: Option<&str>, at: At) -> Option<Search> {
        let search = self.end_search(Some(at)).map(|mut s| {
            s.best = Some(best.to_owned());
            s.ponder_move = ponder.map(str::to_owned);
            if let Some(last) = self.s.searches.last_mut()
                && self.retain_searches
            {
                last.best = s.best.clone();
                last.ponder_move = s.ponder_move.clone();
            }
            s
        });
        self.s.modes.ponder = false;
        if let Some((request, queued_at, limits)) = self.queued_go.take() {
            self.s.modes.ponder = limits.ponder;
            self.s.modes.analyze = limits.infinite;
            self.start_uci_search(&request, queued_at, at, limits);
        }
        search
    }

    /// The ponder move only needs checking: no SAN, no board copy with history.
    fn ponder_move_after(&mut self, after: &ChessBoard, best: &str, ponder: Option<&str>) {
        if let Some(p) = ponder
            && !uci::is_null_move(p)
            && let Err((_, e)) = after.check_line(std::iter::once(p.trim()))
        {
            let msg = format!(
                "ponder move {p} is illegal after bestmove {best} in {}: {}",
                after.fen(),
                e.reason
            );
            self.finding(RuleId::UciPonderMoveIllegal, msg);
        }
    }

    /// The engine's move becomes a ply of the game, when the search was on the game's last
    /// position. Only moves the GUI is meant to play do: not the answer of an analysis
    /// (python-chess `analyse(..., multipv=2)` on a game's last position), which a later
    /// `position` includes if the GUI does play it.
    fn play_engine_move(
        &mut self,
        search: &Search,
        best: &str,
        played: &Played,
        after: ChessBoard,
        at: At,
    ) {
        if search.infinite || search.ponder || self.s.modes.analysis_options {
            return;
        }
        let matches_root = self.s.games.last().is_some_and(|g| {
            Some(self.games_dropped + self.s.games.len() - 1) == search.game
                && g.plies.len() == search.ply
        });
        if !matches_root {
            return;
        }
        let report = search.last.as_ref();
        let mut ply = Ply::new(
            best,
            Some(&played.uci),
            Some(&played.san),
            Mover::Engine,
            at,
        );
        ply.eval = report.and_then(|r| r.eval);
        ply.depth = report.and_then(|r| r.depth);
        if let Some(g) = self.game() {
            g.plies.push(ply);
        }
        // The GUI's next `position` repeats this move: let the cache take it now rather than
        // replay it (and work out its SAN) a second time.
        if self.board_from_cache {
            self.cache.push_played(best, after.clone());
        }
        self.board = Some(after);
        self.board_changed();
        self.check_game_end(at);
    }
}

/// A bestmove that plays no move on its board, and what is said of it.
enum NoMove {
    /// The null move where no move is legal, or the game is over.
    Allowed,
    Idiom(RuleId, &'static str),
    Finding(RuleId, String),
}

/// The bestmove played on the board it answers: the board after it, and the move.
fn bestmove_on(board: &ChessBoard, best: &str) -> Result<(ChessBoard, Played), NoMove> {
    // Listing every legal move costs; a game end rules them out for far less.
    let no_legal_move = || {
        matches!(
            board.outcome().map(|e| e.reason),
            Some(crate::game::EndReason::Checkmate | crate::game::EndReason::Stalemate)
        )
    };
    if best == "(none)" && no_legal_move() {
        // Stockfish's way: understood by every GUI, but not the text's `0000`.
        return Err(NoMove::Idiom(
            RuleId::UciBestmoveNullFormat,
            "bestmove (none) where no move is legal: the text's null move is 0000",
        ));
    }
    if !uci::is_null_move(best) && no_legal_move() {
        let msg = format!(
            "bestmove {best} where no move is legal ({}): the text's null move is 0000",
            board.fen()
        );
        return Err(NoMove::Finding(RuleId::UciBestmoveNullFormat, msg));
    }
    if uci::is_null_move(best) {
        let legal = board.legal_moves_uci().len();
        if legal > 0 && board.outcome().is_none() {
            let msg = format!(
                "bestmove {best} (no move) but {legal} legal move(s) exist in {}",
                board.fen()
            );
            return Err(NoMove::Finding(RuleId::UciBestmoveIllegal, msg));
        }
        return Err(NoMove::Allowed);
    }
    let mut after = board.clone();
    match after.play_uci(best) {
        Ok(p) => Ok((after, p)),
        Err(e) => {
            let msg = format!(
                "bestmove {best} is illegal in {}: {}",
                board.fen(),
                e.reason
            );
            Err(NoMove::Finding(RuleId::UciBestmoveIllegal, msg))
        }
    }
}

/// Moves no position makes legal (`a1a1`): worth flagging even when the board is unknown.
fn never_legal(mv: &str) -> Option<&'static str> {
    let b = mv.as_bytes();
    let square = |i: usize| b.get(i..i + 2);
    (b.len() >= 4
        && b.first().is_some_and(u8::is_ascii_lowercase)
        && b.get(1).is_some_and(u8::is_ascii_digit)
        && square(0) == square(2))
    .then_some("the from and to squares are the same")
}
