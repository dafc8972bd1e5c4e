//! NBoard session rules: `set game` GGF games, moves both ways on an Othello board (passes
//! included), `go`->`===`, `ping`->`pong`, `hint`->`search`/`book`, `learn`->`learned`.

use crate::game::{GgfGame, OthelloBoard, OthelloMove, Side};
use crate::protocol::nboard::{MoveEval, Msg, SearchLine};

use super::decoder::State;
use super::model::{At, Eval, Game, GameKind, Handshake, Mover, Owed, Ply, Request, SearchReport};
use crate::rules::catalogue::RuleId;

impl State {
    pub(crate) fn nboard_gui(&mut self, m: &Msg, text: &str, at: At) {
        match m {
            Msg::Nboard(v) => {
                self.s.version = Some(*v);
                // NBoard has no handshake answer: the engine may only `set myname`.
                self.s.handshake = Handshake::Done(at);
            }
            Msg::SetGame(ggf) => self.nboard_set_game(ggf, at),
            Msg::Move(me) => self.nboard_gui_move(&me.mv, at),
            Msg::BareMove(mv) => self.nboard_gui_move(mv, at),
            Msg::Hint(_) => self.open(Request::NboardHint, "hint", Owed::SearchOrBook, at),
            Msg::Go => {
                if self.othello.is_some_and(|b| b.is_game_over()) {
                    self.finding(RuleId::NboardGoAfterGameEnd, "go on a finished game");
                }
                self.open(Request::NboardGo, "go", Owed::NboardMove, at);
                if let (Some(b), Some(g)) = (self.othello, self.s.games.last_mut()) {
                    g.engine_side = Some(b.turn());
                }
                self.start_search(text, at, at, false, false);
            }
            Msg::Ping(n) => self.open(
                Request::Ping,
                format!("ping {n}"),
                Owed::Pong(n.to_string()),
                at,
            ),
            Msg::Learn => self.open(Request::Learn, "learn", Owed::Learned, at),
            Msg::Quit => {
                self.quit_sent = true;
                self.cancel(at, |_| true);
            }
            Msg::Unknown(_) => self.finding(RuleId::NboardUnknownCommand, "not an NBoard command"),
            _ => {}
        }
    }

    pub(crate) fn nboard_engine(&mut self, m: &Msg, at: At) {
        match m {
            Msg::SetMyName(n) => self.s.engine_name = Some(n.clone()),
            Msg::Pong(n) => {
                // `pong N` answers every ping up to N.
                let highest = self
                    .open_obligations()
                    .filter_map(|o| match &o.owed {
                        Owed::Pong(v) => v.parse::<i64>().ok(),
                        _ => None,
                    })
                    .max();
                // A learn asked before this ping should have been acknowledged by now.
                let ping_seq = self
                    .open_obligations()
                    .find(|o| matches!(&o.owed, Owed::Pong(v) if v == &n.to_string()))
                    .map(|o| o.opened.seq);
                let unacked_learn = ping_seq.is_some_and(|p| {
                    self.open_obligations()
                        .any(|o| o.owed == Owed::Learned && o.opened.seq < p)
                });
                if unacked_learn {
                    self.finding(
                        RuleId::NboardLearnAck,
                        "pong for a ping sent after learn, but learn was never acknowledged",
                    );
                    // Noted once: the pongs that follow say nothing new of that learn.
                    if let Some(p) = ping_seq {
                        self.cancel(at, |o| o.owed == Owed::Learned && o.opened.seq < p);
                    }
                }
                let answered = self.close(at, false, |o| match &o.owed {
                    Owed::Pong(v) => v.parse::<i64>().is_ok_and(|v| v <= *n),
                    _ => false,
                });
                if highest.is_some_and(|h| *n > h) {
                    self.finding(
                        RuleId::NboardPongMismatch,
                        format!("pong {n}, but the last ping was {}", highest.unwrap_or(0)),
                    );
                } else if answered == 0 {
                    self.finding(
                        RuleId::NboardPongMismatch,
                        format!("pong {n} without ping {n}"),
                    );
                }
            }
            Msg::BestMove(me) => self.nboard_best(me, at),
            Msg::Search(sl) | Msg::Book(sl) => {
                self.close(at, true, |o| o.owed == Owed::SearchOrBook);
                self.nboard_report(sl);
            }
            Msg::Learned => {
                let closed = self.close(at, true, |o| o.owed == Owed::Learned);
                if closed == 0 {
                    self.finding(RuleId::NboardUnsolicited, "learned without learn");
                }
            }
            Msg::Unknown(_) => self.finding(
                RuleId::NboardUnknownCommand,
                "not an NBoard message: free text, which the NBoard GUI ignores (noted once)",
            ),
            _ => {}
        }
    }

    fn nboard_set_game(&mut self, text: &str, at: At) {
        let ggf = GgfGame::parse(text);
        for d in &ggf.diagnostics {
            self.finding(
                RuleId::NboardSetGameSyntax,
                format!("set game: {}", d.message),
            );
        }
        let start = ggf.start.map(|b| b.to_ggf_board());
        let standard = ggf.start.is_some_and(|b| b == OthelloBoard::new());
        let start = if standard { None } else { start };
        let moves: Vec<String> = ggf.moves.iter().map(|m| m.mv.to_string()).collect();
        let same = self.s.games.last().is_some_and(|g| {
            g.kind == GameKind::Othello
                && g.start == start
                && g.plies.len() <= moves.len()
                && g.plies
                    .iter()
                    .zip(&moves)
                    .all(|(p, m)| p.canonical() == Some(m.as_str()))
        });
        if !same {
            let mut g = Game::new(GameKind::Othello, at, "othello", false);
            g.start = start;
            if let Some(why) = &ggf.board_unknown {
                g.board_unknown = Some(why.clone());
            }
            self.push_game(g);
            self.othello = ggf.start;
        }
        let done = self.s.games.last().map_or(0, |g| g.plies.len());
        if let Some(g) = self.game() {
            g.tags = ggf.tags.clone();
        }
        for m in ggf.moves.iter().skip(done) {
            let by = if self.s.games.last().and_then(|g| g.engine_side) == Some(m.side) {
                Mover::Engine
            } else {
                Mover::Gui
            };
            let eval = m.eval.map(Eval::Discs);
            self.nboard_move(&m.mv.to_string(), by, eval, at);
        }
        self.board_changed();
    }

    fn nboard_best(&mut self, me: &MoveEval, at: At) {
        if self.close(at, true, |o| o.owed == Owed::NboardMove) == 0 {
            self.finding(RuleId::NboardUnsolicited, "=== without a pending go");
        }
        let side = self.othello.map(|b| b.turn());
        let eval = me
            .eval
            .map(Eval::Discs)
            .or_else(|| self.search.as_ref().and_then(|s| s.last.as_ref()?.eval));
        if let Some(s) = self.search.as_mut() {
            s.best = Some(me.mv.clone());
        }
        // "The engine does not update the board with this move, instead it waits for a
        // "move" command from NBoard" (NBoard protocol, `go`): check it, don't play it.
        if let Some(board) = self.othello.filter(|b| !b.is_game_over()) {
            let before = board.display_string();
            match OthelloMove::parse(&me.mv) {
                None => self.finding(
                    RuleId::NboardMoveIllegal,
                    format!("'{}' is not an Othello move", me.mv),
                ),
                Some(mv) => {
                    if let Err(e) = board.clone().play_move(mv) {
                        let msg = format!("engine's move {} is illegal in {before}: {e}", me.mv);
                        self.finding(RuleId::NboardMoveIllegal, msg);
                        // Legal for the other side: the engine read `set game` to a
                        // different position (a trailing pass it missed, M7).
                        if board.with_other_side_to_move().play_move(mv).is_ok() {
                            self.finding(
                                RuleId::NboardSetGameParse,
                                format!(
                                    "{} is legal only with the other side to move: the engine's board after set game is not the game's end (a trailing pass?)",
                                    me.mv
                                ),
                            );
                        }
                    }
                }
            }
        }
        let ply = self.s.games.last().map_or(0, |g| g.plies.len());
        self.nboard_proposal = Some((me.mv.to_ascii_uppercase(), eval, ply));
        if let (Some(side), Some(g)) = (side, self.s.games.last_mut()) {
            g.engine_side = Some(side);
        }
        self.end_search(Some(at));
    }

    /// A `move` from the GUI: the engine's own proposal when it repeats the last `===` for
    /// this ply, otherwise the GUI's (the user's or the opponent's) move.
    fn nboard_gui_move(&mut self, mv: &str, at: At) {
        let ply = self.s.games.last().map_or(0, |g| g.plies.len());
        match self.nboard_proposal.take() {
            Some((proposed, eval, for_ply))
                if for_ply == ply && proposed.eq_ignore_ascii_case(mv) =>
            {
                self.nboard_move(mv, Mover::Engine, eval, at)
            }
            _ => self.nboard_move(mv, Mover::Gui, None, at),
        }
    }

    fn nboard_report(&mut self, sl: &SearchLine) {
        let Some(search) = self.search.as_mut() else {
            return;
        };
        search.reports += 1;
        let report = search.last.get_or_insert_with(SearchReport::default);
        report.eval = sl.eval.parse::<f64>().ok().map(Eval::Discs);
        let digits: String = sl.depth.chars().take_while(char::is_ascii_digit).collect();
        report.depth = digits.parse().ok();
        report.set_pv(&sl.pv);
    }

    fn nboard_move(&mut self, text: &str, by: Mover, eval: Option<Eval>, at: At) {
        if self.s.games.is_empty() {
            self.push_game(Game::new(GameKind::Othello, at, "othello", false));
            self.othello = Some(OthelloBoard::new());
        }
        let mut ply = Ply::new(text, None, None, by, at);
        ply.eval = eval;
        if let Some(board) = self.othello.as_mut() {
            let Some(mv) = OthelloMove::parse(text) else {
                self.finding(
                    RuleId::NboardGuiMoveIllegal,
                    format!("'{text}' is not an Othello move"),
                );
                self.gap(text, by, at, "not an Othello move".into());
                return;
            };
            let before = board.display_string();
            // NBoard sends a pass explicitly; a side that must pass and plays a square is wrong.
            if let Err(e) = board.play_move(mv) {
                let msg = format!("move {text} is illegal in {before}: {e}");
                self.finding(RuleId::NboardGuiMoveIllegal, msg);
                self.gap(text, by, at, e.to_string());
                return;
            }
            ply.set_spellings(&mv.to_string(), None);
            if let Some(winner) = board.result() {
                let margin =
                    i64::from(board.discs(Side::Black)) - i64::from(board.discs(Side::White));
                let reason = match winner {
                    Some(s) => format!("{s} wins"),
                    None => "draw".to_owned(),
                };
                let result = format!("{margin:+}");
                if let Some(g) = self.s.games.last_mut() {
                    g.plies.push(ply);
                }
                self.set_outcome(&result, reason, at, super::model::OutcomeBy::Board);
                self.board_changed();
                return;
            }
        }
        if let Some(g) = self.game() {
            g.plies.push(ply);
        }
        self.board_changed();
    }
}
