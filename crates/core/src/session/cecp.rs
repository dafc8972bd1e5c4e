//! CECP session rules: features, force/analyze/playother modes, the engine's move obligation,
//! new/variant/setboard/edit/undo/remove, moves both ways and thinking-output PVs.

use crate::game::{ChessBoard, ChessEditor, ChessVariant, EditOutcome, Side};
use crate::protocol::cecp::{Feature, FeatureSetting, GameResult, Msg, Thinking};

use super::decoder::State;
use super::model::{
    At, Eval, FeatureState, Game, GameKind, Handshake, Mover, OptionSet, OutcomeBy, Owed, Ply,
    Request, SearchReport,
};
use crate::rules::catalogue::RuleId;

impl State {
    /// A line of the GUI's own FEN command (see [`super::Decoder::with_fen_command`]): true
    /// when it was one, and the board then follows it as a `setboard`.
    fn gui_fen_command(&mut self, text: &str, at: At) -> bool {
        let Some(cmd) = self.fen_command.as_ref() else {
            return false;
        };
        let line = text.trim();
        if let Some(elements) = self.fen_elements.as_mut() {
            elements.push(line.to_owned());
            if elements.len() == 4 {
                let fen = format!("{} 0 1", elements.join(" "));
                self.fen_elements = None;
                self.cecp_gui_msg(&Msg::SetBoard(fen), text, at);
                self.fen_counters = 2;
            }
            return true;
        }
        if self.fen_counters > 0 {
            self.fen_counters -= 1;
            if !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()) {
                return true;
            }
            self.fen_counters = 0;
        }
        let mut words = line.splitn(2, char::is_whitespace);
        if words.next() != Some(cmd.word.as_str()) {
            return false;
        }
        match words.next().map(str::trim).filter(|r| !r.is_empty()) {
            None if cmd.own_line => self.fen_elements = Some(Vec::with_capacity(4)),
            Some(fen) if !cmd.own_line => {
                let fen = fen.to_owned();
                self.cecp_gui_msg(&Msg::SetBoard(fen), text, at);
            }
            // Not the profile's form: C2W-FEN-FORM says so; the board cannot follow.
            _ => return false,
        }
        true
    }

    pub(crate) fn cecp_gui(&mut self, m: &Msg, text: &str, at: At) {
        if self.s.modes.edit {
            self.cecp_edit(text, at);
            return;
        }
        if self.fen_command.is_some() && self.gui_fen_command(text, at) {
            return;
        }
        self.cecp_gui_msg(m, text, at);
    }

    fn cecp_gui_msg(&mut self, m: &Msg, text: &str, at: At) {
        if self.cecp_hint_open && !matches!(m, Msg::Hint) {
            // CECP lets an engine ignore `hint` ("If there is no move to suggest, you can
            // ignore the hint command"): the GUI's next command ends the wait for one.
            self.cecp_hint_open = false;
            self.cancel(at, |o| o.owed == Owed::Hint);
        }
        // A ping after a reset (`new`, `force`, a new position, a takeback) fences off the
        // engine's moves from before it: until the pong they are stale (xboard: "Ignoring
        // extra move").
        match m {
            Msg::New | Msg::Force | Msg::SetBoard(_) | Msg::Undo | Msg::Remove | Msg::Edit => {
                self.cecp_sync.reset = true;
            }
            Msg::Ping(n) if self.cecp_sync.reset => {
                self.cecp_sync.reset = false;
                self.cecp_sync.ping = Some(*n);
            }
            // Asking for a move after the reset: the engine's next move answers that.
            Msg::Go | Msg::UserMove(_) | Msg::Move(_) | Msg::PlayOther | Msg::Analyze => {
                self.cecp_sync.reset = false;
            }
            _ => {}
        }
        match m {
            Msg::Xboard if self.s.handshake == Handshake::NotStarted => {
                self.s.handshake = Handshake::Started(at);
            }
            Msg::Protover(n) => self.cecp_protover(*n, at),
            Msg::Accepted(f) | Msg::Rejected(f) => self.cecp_feature_answer(m, f),
            Msg::New => self.cecp_gui_new(at),
            Msg::Variant(v) => self.cecp_gui_variant(v, at),
            Msg::SetBoard(fen) => self.cecp_gui_setboard(fen, at),
            Msg::Edit => self.cecp_gui_edit(),
            Msg::Force => {
                self.s.modes.force = true;
                self.cancel(at, |o| o.owed == Owed::Move);
                self.end_search(Some(at));
            }
            Msg::Go => {
                self.s.modes.force = false;
                self.engine_side = self.board.as_ref().map(ChessBoard::turn);
                self.engine_to_move(text, at);
            }
            Msg::PlayOther => {
                self.s.modes.force = false;
                self.engine_side = self.board.as_ref().map(|b| b.turn().other());
            }
            Msg::White | Msg::Black => {
                // v1: the named side moves next, the engine plays the other one.
                let side = if matches!(m, Msg::White) {
                    Side::White
                } else {
                    Side::Black
                };
                self.engine_side = Some(side.other());
            }
            Msg::Level(l) => {
                self.s.clocks.level = Some(format!("{} {} {}", l.mps, l.base_seconds, l.inc_ms));
            }
            Msg::St(s) => self.s.clocks.st = Some(*s),
            Msg::Time(t) => self.s.clocks.time = Some(*t),
            Msg::Otim(t) => self.s.clocks.otim = Some(*t),
            Msg::UserMove(mv) | Msg::Move(mv) => self.cecp_gui_move(mv, text, at),
            Msg::Ping(n) => self.open(
                Request::Ping,
                format!("ping {n}"),
                Owed::Pong(n.to_string()),
                at,
            ),
            Msg::Result { result, comment } => self.cecp_gui_result(result, comment.as_deref(), at),
            Msg::Undo => self.cecp_takeback(1, at),
            Msg::Remove => self.cecp_takeback(2, at),
            Msg::Hint => {
                self.cecp_hint_open = true;
                self.open(Request::Hint, "hint", Owed::Hint, at);
            }
            Msg::Post => self.s.modes.post = true,
            Msg::NoPost => self.s.modes.post = false,
            Msg::Hard => self.s.modes.ponder = true,
            Msg::Easy => self.s.modes.ponder = false,
            Msg::Analyze => {
                self.s.modes.analyze = true;
                self.start_analysis(text, at);
            }
            Msg::Exit => {
                self.s.modes.analyze = false;
                self.end_search(Some(at));
            }
            Msg::SetOption { name, value } => self.cecp_gui_setoption(name, value.as_deref(), at),
            Msg::Quit => {
                self.quit_sent = true;
                self.cancel(at, |_| true);
            }
            Msg::Unknown(_) => self.finding(RuleId::CecpUnknownCommand, "not a CECP command"),
            _ => {}
        }
    }

    fn cecp_protover(&mut self, n: u32, at: At) {
        self.s.version = Some(n);
        self.s.handshake = Handshake::Started(at);
        if n >= 2 {
            self.open(
                Request::Protover,
                format!("protover {n}"),
                Owed::FeatureDone,
                at,
            );
        }
    }

    /// `accepted` or `rejected`: the answer to the engine's last unanswered feature of that name.
    fn cecp_feature_answer(&mut self, m: &Msg, f: &str) {
        let accepted = matches!(m, Msg::Accepted(_));
        let name = f.split_ascii_whitespace().next().unwrap_or("");
        match self
            .s
            .features
            .iter_mut()
            .rev()
            .find(|x| x.name == name && x.accepted.is_none())
        {
            Some(x) => x.accepted = Some(accepted),
            // xboard answers `done` like any other feature (seen in a real xboard
            // 4.9.1 log); it is the handshake's end, not kept as a feature.
            None if name == "done" => {}
            None => self.finding(
                RuleId::CecpAcceptedUnsolicited,
                format!("answer to feature '{name}', which the engine did not send"),
            ),
        }
    }

    fn cecp_gui_new(&mut self, at: At) {
        // The game `new` ends may have been over on the board: a result line for it
        // can still be on its way (an engine writes it just after its mating move).
        self.cecp_over_before_new = self.board.as_ref().and_then(|b| {
            b.outcome().map(|end| match end.winner {
                Some(Side::White) => "1-0",
                Some(Side::Black) => "0-1",
                None => "1/2-1/2",
            })
        });
        self.s.variant = "normal".into();
        self.s.chess960 = false;
        self.s.modes.force = false;
        self.s.modes.analyze = false;
        self.engine_side = Some(Side::Black);
        self.cecp_new_game(at, None);
    }

    fn cecp_gui_variant(&mut self, v: &str, at: At) {
        self.s.variant = v.to_owned();
        let variant = ChessVariant::from_cecp(v);
        self.s.chess960 = variant.implies_chess960();
        let fresh = self.s.games.last().is_some_and(|g| g.plies.is_empty());
        if fresh {
            self.s.games.pop();
        }
        self.cecp_new_game(at, None);
    }

    fn cecp_gui_setboard(&mut self, fen: &str, at: At) {
        let fresh = self.s.games.last().is_some_and(|g| g.plies.is_empty());
        if fresh {
            self.s.games.pop();
        }
        self.cecp_new_game(at, Some(fen.trim()));
    }

    fn cecp_gui_edit(&mut self) {
        self.s.modes.edit = true;
        self.editor = self.board.as_ref().map(ChessEditor::new);
        if self.editor.is_none() {
            self.finding(RuleId::XBoardUnknown, "edit without a known board");
        }
    }

    fn cecp_gui_move(&mut self, mv: &str, text: &str, at: At) {
        // A GUI move that only follows from a stale engine move means the GUI played it.
        if let Some(stale) = self.cecp_sync.stale.take()
            && let Some(board) = self.board.as_ref()
            && board.clone().play_cecp(mv).is_err()
            && {
                let mut after = board.clone();
                after.play_cecp(&stale).is_ok() && after.play_cecp(mv).is_ok()
            }
        {
            self.finding(
                RuleId::CecpStaleMove,
                format!(
                    "{mv} follows from {stale}, an engine move that came before the pong after the reset: the GUI played a stale move"
                ),
            );
            self.cecp_move(&stale, Mover::Engine, at);
        }
        self.cecp_move(mv, Mover::Gui, at);
        let engine_turn = self.board.as_ref().map(ChessBoard::turn) == self.engine_side;
        if self.s.modes.analyze {
            self.start_analysis(text, at);
        } else if !self.s.modes.force && engine_turn && self.engine_side.is_some() {
            self.engine_to_move(text, at);
        }
    }

    fn cecp_gui_result(&mut self, result: &GameResult, comment: Option<&str>, at: At) {
        if *result != GameResult::Unfinished {
            let reason = comment
                .map(str::to_owned)
                .unwrap_or_else(|| "result from the GUI".into());
            self.set_outcome(result.as_str(), reason, at, OutcomeBy::Gui);
        }
        self.cancel(at, |o| o.owed == Owed::Move);
        self.end_search(Some(at));
    }

    fn cecp_gui_setoption(&mut self, name: &str, value: Option<&str>, at: At) {
        self.s.option_sets.push(OptionSet {
            name: name.to_owned(),
            value: value.map(str::to_owned),
            at,
        });
        let declared = self.s.features.iter().any(|f| match &f.value {
            FeatureSetting::Option(o) => o.name == name,
            // An option whose type could not be told: its name is the text before a ` -`.
            other => {
                f.name == "option"
                    && other.to_string().trim_matches('"').split(" -").next() == Some(name)
            }
        });
        let features_known = matches!(self.s.handshake, Handshake::Done(_));
        if !declared && features_known {
            self.finding(
                RuleId::CecpOptionUnknown,
                format!("option: the engine declared no option '{name}'"),
            );
        }
    }

    /// An `Error` reply to `command` is news: the command is one the protocol defines, not a
    /// move, not `protover` (a protocol-1 engine), and not one whose feature the engine set
    /// to 0.
    fn refusal_worth_a_note(&self, command: &str) -> bool {
        let Some(word) = command.split_ascii_whitespace().next() else {
            return false;
        };
        let parsed =
            crate::protocol::cecp::parse(crate::protocol::Dir::ToEngine, command, &mut Vec::new());
        if matches!(
            parsed,
            Msg::Unknown(_) | Msg::Empty | Msg::Move(_) | Msg::UserMove(_) | Msg::Protover(_)
        ) {
            return false;
        }
        let feature = match word {
            "time" | "otim" => "time",
            "white" | "black" => "colors",
            "pause" | "resume" => "pause",
            "cores" => "smp",
            "egtpath" => "egt",
            "include" => "exclude",
            other => other,
        };
        self.s.feature_flag(feature) != Some(false)
    }

    /// One engine line: the session's rules of its kind, one method each for the kinds with
    /// more than a line of work. The guards stay in this match, since their order decides (a
    /// move before the pong after a reset is stale; a result crossing `new` is the old game's).
    pub(crate) fn cecp_engine(&mut self, m: &Msg, at: At) {
        match m {
            Msg::Feature(list) => self.cecp_features(list, at),
            Msg::EngineMove(mv)
                if self.cecp_sync.ping.is_some() && !self.has_open(|o| o.owed == Owed::Move) =>
            {
                // Sent before the engine saw the reset: not part of the game the GUI now plays.
                self.cecp_sync.stale = Some(mv.clone());
                self.close(at, false, |o| o.owed == Owed::Move);
                self.end_search(Some(at));
            }
            Msg::EngineMove(mv) => self.cecp_engine_move(mv, at),
            Msg::Pong(n) => self.cecp_pong(*n, at),
            // A protocol-1 engine does not know `protover` and may say so: it owes no
            // features ("engines that predate protocol version 2 do not send feature").
            Msg::Error { command, .. }
                if command.split_ascii_whitespace().next() == Some("protover")
                    && self.s.handshake != Handshake::NotStarted =>
            {
                self.s.version = Some(1);
                self.cancel(at, |o| o.owed == Owed::FeatureDone);
            }
            // A command the protocol defines, refused: allowed, and worth knowing (a refused
            // `sd` leaves the search unlimited). Not a move (the move rules judge those), nor a
            // command the engine turned off with its feature (`setboard=0`), whose refusal it
            // announced.
            Msg::Error { command, .. } if self.refusal_worth_a_note(command) => {
                self.finding(
                    RuleId::CecpCommandRefused,
                    format!("the engine refused `{}`: it had no effect", command.trim()),
                );
            }
            Msg::HintMove(_) => {
                self.cecp_hint_open = false;
                self.close(at, true, |o| o.owed == Owed::Hint);
            }
            Msg::IllegalMove { mv, .. } => self.cecp_illegal_move_reply(mv, at),
            // The result of the game before `new`, crossing the `new` on the wire.
            Msg::GameEnd { result, .. }
                if self.cecp_over_before_new == Some(result.as_str())
                    && self.s.games.last().is_some_and(|g| g.plies.is_empty()) =>
            {
                self.cecp_over_before_new = None;
            }
            Msg::GameEnd { result, comment } if *result != GameResult::Unfinished => {
                self.cecp_result_claim(result, comment.as_deref(), at);
            }
            Msg::Resign => {
                let result = match self.engine_side {
                    Some(Side::White) => "0-1",
                    Some(Side::Black) => "1-0",
                    None => return,
                };
                self.set_outcome(result, "engine resigns", at, OutcomeBy::Engine);
                self.cancel(at, |o| o.owed == Owed::Move);
            }
            Msg::Idiom { idiom, text } => {
                if let Some(r) = idiom.result() {
                    self.set_outcome(r.as_str(), text.clone(), at, OutcomeBy::Engine);
                }
            }
            Msg::Thinking(t) => self.cecp_thinking(t),
            Msg::Unknown(_) => self.finding(RuleId::CecpUndocumentedOutput, "not a CECP message"),
            _ => {}
        }
    }

    /// `feature`: each kept with its typed value, the name, and `done=1` ending the handshake.
    fn cecp_features(&mut self, list: &[Feature], at: At) {
        for f in list {
            let value = f.setting();
            match (f.name.as_str(), &value) {
                ("myname", FeatureSetting::Text(name)) => self.s.engine_name = Some(name.clone()),
                ("done", FeatureSetting::Number(1)) => {
                    self.s.handshake = Handshake::Done(at);
                    self.close(at, true, |o| o.owed == Owed::FeatureDone);
                }
                ("done", FeatureSetting::Number(0)) => {
                    self.s.done_zero.get_or_insert(at);
                }
                _ => {}
            }
            if f.name != "done" {
                self.s.features.push(FeatureState {
                    name: f.name.clone(),
                    value,
                    accepted: None,
                    at,
                });
            }
        }
    }

    /// The engine's `move`: the obligation it answers, whether it was the engine's turn, and
    /// the move on the board.
    fn cecp_engine_move(&mut self, mv: &str, at: At) {
        let owed = self.close(at, false, |o| o.owed == Owed::Move);
        // The engine took a GUI move the board found illegal: from here the game
        // cannot be followed (one finding, on the GUI's move, not a cascade).
        let accepted_illegal = self.s.games.last().is_some_and(|g| {
            g.gaps
                .last()
                .is_some_and(|gap| gap.by == Mover::Gui && gap.after_ply == g.plies.len())
        });
        if accepted_illegal {
            // Stop following the board; the game keeps its moves up to the gap.
            self.board = None;
        } else if owed == 0 && self.s.search_count == 0 && self.engine_side.is_none() {
            self.finding(
                RuleId::XInputStartsMidSession,
                "move before any request (the log starts mid-session?)",
            );
        } else if self.board.is_none() {
            // Turns cannot be told without a board (a variant not modelled).
        } else if owed == 0 {
            self.cecp_move_unasked();
        }
        if self.last_ply_is_gui(mv) {
            self.finding(
                RuleId::CecpMoveEcho,
                format!("move {mv} repeats the GUI's last move"),
            );
            self.end_search(Some(at));
            return;
        }
        let side = self.board.as_ref().map(ChessBoard::turn);
        self.cecp_move(mv, Mover::Engine, at);
        if let Some(g) = self.game() {
            g.engine_side = side.or(g.engine_side);
        }
        self.end_search(Some(at));
    }

    /// An engine move nobody asked for: in force or analyze mode, or out of turn.
    fn cecp_move_unasked(&mut self) {
        if self.s.modes.force || self.s.modes.analyze {
            let mode = if self.s.modes.force {
                "force"
            } else {
                "analyze"
            };
            self.finding(
                RuleId::CecpMoveInForce,
                format!("move while in {mode} mode"),
            );
        } else {
            self.finding(
                RuleId::CecpMoveOutOfTurn,
                "move when it was not the engine's turn",
            );
        }
    }

    /// `pong N`: the `ping N` it answers, else a repeat or a pong nobody asked for.
    fn cecp_pong(&mut self, n: i64, at: At) {
        if self.cecp_sync.ping == Some(n) {
            self.cecp_sync.ping = None;
        }
        let want = format!("pong {n}");
        let number = n.to_string();
        if self.close(at, true, |o| o.owed == Owed::Pong(number.clone())) > 0 {
            self.last_pong = Some(want);
        } else if self.last_pong.as_deref() == Some(want.as_str()) {
            self.finding(
                RuleId::CecpPongDuplicate,
                format!("pong {n} again: ping {n} was already answered"),
            );
        } else {
            self.finding(
                RuleId::CecpPongMismatch,
                format!("pong {n} without ping {n}"),
            );
        }
    }

    /// `Illegal move: MV`: the engine refused a legal GUI move (taken back), or one nobody
    /// played.
    fn cecp_illegal_move_reply(&mut self, mv: &str, at: At) {
        if self.last_ply_is_gui(mv) {
            self.finding(
                RuleId::CecpIllegalMoveReply,
                format!("the engine rejected {mv}, which is legal here"),
            );
            self.cecp_takeback(1, at);
            self.cancel(at, |o| o.owed == Owed::Move);
        } else if let Some(g) = self.s.games.last_mut() {
            // A GUI move the board found illegal and the engine refused too: nobody
            // played it, so the game goes on unbroken (xboard retracts it).
            let plies = g.plies.len();
            g.gaps
                .retain(|gap| !(gap.by == Mover::Gui && gap.text == mv && gap.after_ply == plies));
        }
    }

    /// The engine's `RESULT {COMMENT}`: the game's outcome, and a finding when the board does
    /// not bear the claim out.
    fn cecp_result_claim(&mut self, result: &GameResult, comment: Option<&str>, at: At) {
        // RESULT is for a game over by rule; a resignation said this way is tolerated
        // (xboard takes it), a claim the board does not bear out is not.
        let resigns = comment.is_some_and(|c| c.to_ascii_lowercase().contains("resign"));
        if let Some(board) = self.board.as_ref()
            && !resigns
            && board.outcome().is_none()
        {
            let draw = result.as_str() == "1/2-1/2";
            if !draw || board.draw_claim().is_none() {
                let msg = format!(
                    "{} claimed, but the game is not over by rule in {}",
                    result.as_str(),
                    board.fen()
                );
                self.finding(RuleId::CecpResultClaimInvalid, msg);
            }
        }
        let reason = comment.map_or_else(|| "claimed by the engine".into(), str::to_owned);
        self.set_outcome(result.as_str(), reason, at, OutcomeBy::Engine);
    }

    /// The game's last move is the GUI's `mv`: an engine answering with the same move echoes
    /// it, an engine refusing it refused a move the board played.
    fn last_ply_is_gui(&self, mv: &str) -> bool {
        self.s
            .games
            .last()
            .and_then(|g| g.plies.last())
            .is_some_and(|p| p.by == Mover::Gui && p.text() == mv)
    }

    fn cecp_new_game(&mut self, at: At, fen: Option<&str>) {
        self.infer_draw_claim();
        // xboard sends `new` when it starts the engine and again for the game it plays: a
        // game nothing happened in is replaced, not counted.
        let untouched = self
            .s
            .games
            .last()
            .is_some_and(|g| g.plies.is_empty() && g.outcome.is_none() && g.gaps.is_empty());
        if untouched {
            self.s.games.pop();
        }
        let variant = ChessVariant::from_cecp(&self.s.variant);
        let chess960 = self.s.chess960 || variant.implies_chess960();
        let mut g = Game::new(GameKind::Chess, at, variant.cecp_name(), chess960);
        g.start = fen.map(str::to_owned);
        g.engine_side = self.engine_side;
        let board = match fen {
            Some(f) => ChessBoard::from_fen_lenient(f, variant.clone(), chess960).map(|(b, w)| {
                for w in w {
                    self.finding(RuleId::CecpSetboardIrregularFen, format!("setboard: {w}"));
                }
                b
            }),
            None => ChessBoard::startpos_with_mode(variant.clone(), chess960),
        };
        match board {
            Ok(b) => self.board = Some(b),
            Err(e) => {
                if fen.is_some() {
                    self.bad_start(RuleId::CecpSetboardBadFen, "setboard", fen, &e);
                } else {
                    self.finding(
                        RuleId::XBoardUnknown,
                        format!("variant {}: {e}", self.s.variant),
                    );
                }
                g.board_unknown = Some(e.to_string());
                self.board = None;
            }
        }
        self.push_game(g);
    }

    fn cecp_edit(&mut self, text: &str, at: At) {
        let Some(editor) = self.editor.as_mut() else {
            if text.trim() == "." {
                self.s.modes.edit = false;
            }
            return;
        };
        let before = editor.diagnostics().len();
        let outcome = editor.apply(text);
        let new: Vec<String> = editor.diagnostics()[before..]
            .iter()
            .map(|d| format!("edit: {}: {}", d.line, d.message))
            .collect();
        for d in new {
            self.finding(RuleId::CecpEditSyntax, d);
        }
        if outcome == EditOutcome::Done {
            self.s.modes.edit = false;
            let result = self.editor.take().map(|e| e.finish());
            match result {
                Some(Ok(b)) => {
                    let fen = b.fen();
                    self.cecp_new_game(at, Some(&fen));
                }
                Some(Err(e)) => {
                    self.finding(RuleId::CecpSetboardBadFen, format!("edit: {e}"));
                    self.board = None;
                    if let Some(g) = self.game() {
                        g.board_unknown = Some(e.to_string());
                    }
                }
                None => {}
            }
        }
    }

    fn engine_to_move(&mut self, text: &str, at: At) {
        self.open(Request::OnMove, text.trim(), Owed::Move, at);
        self.start_search(text, at, at, false, false);
    }

    fn start_analysis(&mut self, text: &str, at: At) {
        self.start_search(text, at, at, false, true);
    }

    /// Plays a move from either side on the game board.
    fn cecp_move(&mut self, mv: &str, by: Mover, at: At) {
        if self.s.games.is_empty() {
            // A log that starts mid-game: the moves are kept, the board is unknown.
            let mut g = Game::new(GameKind::Chess, at, &self.s.variant, self.s.chess960);
            g.board_unknown = Some("the game's start is not in the input".into());
            self.board = None;
            self.push_game(g);
        }
        let report = match by {
            Mover::Engine => self.search.as_ref().and_then(|s| s.last.clone()),
            Mover::Gui => None,
        };
        let mut ply = Ply::new(mv, None, None, by, at);
        ply.eval = report.as_ref().and_then(|r| r.eval);
        ply.depth = report.as_ref().and_then(|r| r.depth);
        if let Some(board) = self.board.as_mut() {
            match board.play_cecp(mv) {
                Ok(p) => {
                    ply.set_spellings(&p.uci, Some(&p.san));
                }
                Err(e) if e.reason.is_not_modelled() => {
                    let reason = e.to_string();
                    self.board = None;
                    if let Some(g) = self.game() {
                        g.board_unknown = Some(reason);
                    }
                }
                Err(e) => {
                    let who = match by {
                        Mover::Gui => "GUI",
                        Mover::Engine => "engine",
                    };
                    let msg = format!(
                        "{who} move {mv} is illegal in {}: {}",
                        board.fen(),
                        e.reason
                    );
                    let reason = e.reason.to_string();
                    let rule = match by {
                        Mover::Gui => RuleId::CecpGuiMoveIllegal,
                        Mover::Engine => RuleId::CecpMoveIllegal,
                    };
                    self.finding(rule, msg);
                    self.gap(mv, by, at, reason);
                    return;
                }
            }
        }
        if let Some(g) = self.game() {
            g.plies.push(ply);
        }
        self.board_changed();
        self.check_game_end(at);
    }

    fn cecp_takeback(&mut self, n: usize, at: At) {
        let Some(g) = self.s.games.last_mut() else {
            return;
        };
        if g.plies.len() < n {
            self.finding(
                RuleId::CecpUndoBeyondStart,
                "takeback beyond the start of the game",
            );
            return;
        }
        let keep = g.plies.len() - n;
        g.truncate(keep);
        let mut board = g.chess_start();
        if g.board_unknown.is_none() {
            for p in &g.plies {
                let ok = match (board.as_mut(), p.canonical()) {
                    (Some(b), Some(c)) => b.play_uci(c).is_ok(),
                    _ => false,
                };
                if !ok {
                    board = None;
                    break;
                }
            }
            self.board = board;
        }
        self.board_changed();
        let _ = at;
    }

    fn cecp_thinking(&mut self, t: &Thinking) {
        let Some(search) = self.search.as_mut() else {
            return;
        };
        search.reports += 1;
        let report = search.last.get_or_insert_with(SearchReport::default);
        report.depth = Some(t.ply);
        report.eval = Some(Eval::Cp(t.score));
        report.nodes = Some(t.nodes);
        report.time_ms = Some(t.time_centis().saturating_mul(10));
        if report.pv == t.pv {
            return;
        }
        report.set_pv(&t.pv);
        let Some(board) = self.board.as_ref().filter(|_| self.check_pv) else {
            return;
        };
        let pv = t.pv.trim();
        // Book output `(e4 64%, d4 24%)` and free text are not PVs.
        if pv.starts_with(['(', '[', '{', '<']) {
            return;
        }
        let tokens = pv
            .split_ascii_whitespace()
            .map(|t| t.trim_end_matches(['!', '?']))
            .take_while(|t| !t.starts_with(['(', '{', '<', '[']));
        if let Err((index, e)) = board.check_line_cecp(tokens.clone())
            && !e.reason.is_not_modelled()
        {
            // CECP calls thinking output "freeform text", so a PV the board cannot follow is
            // a note, not a protocol error. Fairy-Max, for one, writes promotions without the
            // piece (`c7c8`): say so when that is what happened.
            let mut at_fault = board.clone();
            let played = tokens
                .clone()
                .take(index)
                .all(|t| at_fault.play_cecp(t).is_ok());
            let bare_promotion =
                played && e.text.len() == 4 && at_fault.play_cecp(&format!("{}q", e.text)).is_ok();
            let msg = if bare_promotion {
                format!(
                    "pv move {} '{}' is a promotion written without its piece (CECP thinking PVs are free text)",
                    index + 1,
                    e.text
                )
            } else {
                format!(
                    "pv move {} '{}' cannot be played in {}: {} (CECP thinking PVs are free text)",
                    index + 1,
                    e.text,
                    board.fen(),
                    e.reason
                )
            };
            self.finding(RuleId::CecpThinkingPvUnplayable, msg);
        }
    }
}
