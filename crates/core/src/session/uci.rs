//! UCI session rules: handshake, options, `position` games, searches and bestmove legality.

use crate::game::{
    CastlingNotation, ChessBoard, ChessVariant, IllegalMove, Played, Side, UciPositionError,
};
use crate::protocol::tokens::Tokens;
use crate::protocol::uci::{self, Go, Id, Info, Msg, OptionType, ScoreValue};

use super::decoder::State;
use super::model::{
    At, Eval, Game, GameKind, GoLimits, Handshake, Mover, OptionSet, Owed, Ply, Request,
    SearchReport,
};
use crate::rules::catalogue::RuleId;

mod bestmove;

/// Moves a GUI may take back (or a ponder miss may replace) while it is still the same game.
const SAME_GAME_SLACK: usize = 2;

impl State {
    pub(crate) fn uci_gui(&mut self, m: &Msg, text: &str, at: At) {
        match m {
            Msg::Uci => {
                self.s.handshake = Handshake::Started(at);
                self.open(Request::Uci, "uci", Owed::UciOk, at);
            }
            Msg::IsReady => self.open(Request::IsReady, "isready", Owed::ReadyOk, at),
            Msg::SetOption { name, value } => self.uci_setoption(name, value.as_deref(), at),
            Msg::UciNewGame => self.new_game_pending = true,
            Msg::Position(p) => self.uci_position(p, at),
            Msg::Go(go) => self.uci_go(go, text, at),
            Msg::Stop => {
                if self.search.is_some() || self.has_open(|o| o.owed == Owed::BestMove) {
                    self.open(Request::Stop, "stop", Owed::BestMove, at);
                } else {
                    self.finding(
                        RuleId::UciStopWithoutSearch,
                        "stop without a running search",
                    );
                }
            }
            Msg::PonderHit => {
                // The opponent played the guessed move: it is a move of the game.
                self.unconfirmed_ponder = false;
                match &mut self.search {
                    Some(s) if s.ponder => {
                        s.ponder = false;
                        self.s.modes.ponder = false;
                        self.engine_side = self.engine_side.map(Side::other);
                    }
                    _ if self.s.search_count == 0 => {}
                    _ => self.finding(
                        RuleId::UciPonderhitWithoutPonder,
                        "ponderhit without a ponder search",
                    ),
                }
            }
            // The GUI waits for nothing more: what was owed is withdrawn, not unanswered.
            Msg::Quit => {
                self.quit_sent = true;
                self.cancel(at, |_| true);
            }
            Msg::Unknown(_) => self.finding(RuleId::UciUnknownCommand, "not a UCI command"),
            _ => {}
        }
    }

    pub(crate) fn uci_engine(&mut self, m: &Msg, at: At) {
        match m {
            Msg::Id(Id::Name(n)) => self.s.engine_name = Some(n.clone()),
            Msg::Id(Id::Author(a)) => self.s.engine_author = Some(a.clone()),
            Msg::UciOk => {
                self.s.handshake = Handshake::Done(at);
                if self.close(at, true, |o| o.owed == Owed::UciOk) == 0 {
                    self.finding(RuleId::UciUnsolicitedOutput, "uciok without uci");
                }
            }
            Msg::ReadyOk => {
                let closed = self.close(at, true, |o| o.owed == Owed::ReadyOk);
                if closed == 0 {
                    self.finding(RuleId::UciReadyokUnsolicited, "readyok without isready");
                }
            }
            Msg::Option(decl) => {
                if let Some(old) = self
                    .s
                    .options
                    .iter_mut()
                    .find(|o| o.name.eq_ignore_ascii_case(&decl.name))
                {
                    *old = (**decl).clone();
                } else {
                    self.s.options.push((**decl).clone());
                }
            }
            Msg::BestMove { best, ponder } => self.uci_bestmove(best, ponder.as_deref(), at),
            Msg::Info(info) => self.uci_info(info),
            Msg::Unknown(_) => self.finding(RuleId::UciUnknownCommand, "not a UCI message"),
            _ => {}
        }
    }

    fn uci_setoption(&mut self, name: &str, value: Option<&str>, at: At) {
        if self.retain_searches || self.s.option_sets.len() < 1024 {
            self.s.option_sets.push(OptionSet {
                name: name.to_owned(),
                value: value.map(str::to_owned),
                at,
            });
        }
        if name.eq_ignore_ascii_case("UCI_Chess960") {
            self.s.chess960 = value.is_some_and(|v| v.trim().eq_ignore_ascii_case("true"));
        } else if name.eq_ignore_ascii_case("UCI_Variant") {
            self.s.variant = value.unwrap_or("").trim().to_owned();
        } else if name.eq_ignore_ascii_case("UCI_AnalyseMode") {
            self.analyse_mode = value.is_some_and(|v| v.trim().eq_ignore_ascii_case("true"));
            self.s.modes.analysis_options = self.analyse_mode || self.multipv > 1;
        } else if name.eq_ignore_ascii_case("MultiPV") {
            self.multipv = value.and_then(|v| v.trim().parse().ok()).unwrap_or(1);
            self.s.modes.analysis_options = self.analyse_mode || self.multipv > 1;
        }
        if self.s.options.is_empty() {
            return;
        }
        let Some(decl) = self.s.option(name) else {
            let msg = format!("setoption: the engine declared no option '{name}'");
            self.finding(RuleId::UciSetoptionUnknown, msg);
            return;
        };
        let v = value.unwrap_or("").trim();
        let problem = match &decl.kind {
            OptionType::Button => value.map(|_| "a button takes no value".to_owned()),
            OptionType::Check => (!v.eq_ignore_ascii_case("true")
                && !v.eq_ignore_ascii_case("false"))
            .then(|| format!("'{v}' is not true or false")),
            OptionType::Spin => match v.parse::<i64>() {
                Err(_) => Some(format!("'{v}' is not an integer")),
                Ok(n) if decl.min.is_some_and(|m| n < m) || decl.max.is_some_and(|m| n > m) => {
                    Some(format!(
                        "{n} is outside {}..{}",
                        decl.min.unwrap_or(i64::MIN),
                        decl.max.unwrap_or(i64::MAX)
                    ))
                }
                Ok(_) => None,
            },
            OptionType::Combo => (!decl.vars.iter().any(|x| x.eq_ignore_ascii_case(v)))
                .then(|| format!("'{v}' is not one of {}", decl.vars.join(", "))),
            _ => None,
        };
        if let Some(p) = problem {
            let msg = format!("setoption {}: {p}", decl.name);
            self.finding(RuleId::UciSetoptionUnknown, msg);
        }
    }

    fn uci_variant(&self) -> ChessVariant {
        if self.s.variant.is_empty() || self.s.variant == "standard" {
            ChessVariant::Standard
        } else {
            ChessVariant::from_uci(&self.s.variant)
        }
    }

    fn uci_position(&mut self, p: &uci::Position, at: At) {
        if self.search.is_some() && self.search_board.is_none() {
            self.search_board = self.board.clone().map(|b| (b, self.board_id));
        }
        self.chess960_start_without_option(p);
        let variant = self.uci_variant();
        let chess960 = self.s.chess960 || variant.implies_chess960();
        let start = p.fen.as_deref().map(normalize_fen);
        // GUIs resend the whole game every ply: walk it lazily, and split it into a list only
        // on the rare paths that need one.
        let text = p.moves.as_str();
        let variant_name = variant.cecp_name().to_owned();
        let common = self.plies_of_same_game(&start, &variant_name, chess960, text);
        self.new_game_pending = false;
        let common = match common {
            Some(k) => k,
            None => {
                self.new_chess_game(at, &variant_name, chess960, start.clone());
                0
            }
        };
        // In the same game, this position says which moves were played: it replaces the
        // guess, or keeps it. (A new game has just dropped an unconfirmed one.)
        self.unconfirmed_ponder = false;
        self.board_changed();
        if let Some(g) = self.game() {
            g.truncate(common);
        }
        self.board_from_cache = false;
        if variant.is_supported() {
            self.play_position(p, start.as_deref(), &variant, chess960, common, at);
        } else {
            self.unmodelled_variant(&variant_name, text, common, at);
        }
    }

    /// A variant the boards do not model: its moves are kept as tokens.
    fn unmodelled_variant(&mut self, variant_name: &str, text: &str, common: usize, at: At) {
        self.board = None;
        let reason = format!("variant {variant_name} is not modelled");
        // Said once per game: its moves are kept as tokens, the session is not at fault.
        if self
            .s
            .games
            .last()
            .is_none_or(|g| g.board_unknown.is_none())
        {
            self.finding(
                RuleId::XBoardUnknown,
                format!("{reason}: moves kept as sent, not checked"),
            );
        }
        self.tokens_only(&Tokens::new(text).collect::<Vec<_>>(), common, at, reason);
    }

    /// Plays the position's moves from `start` through the position cache: the game's plies
    /// past the `common` ones, the board, and what was illegal.
    fn play_position(
        &mut self,
        p: &uci::Position,
        start: Option<&str>,
        variant: &ChessVariant,
        chess960: bool,
        common: usize,
        at: At,
    ) {
        let text = p.moves.as_str();
        let result = self.cache.apply(start, text, variant, chess960);
        let (update, failure) = match result {
            Ok(u) => (Some(u), None),
            Err(UciPositionError::Start(e)) => {
                self.board = None;
                self.bad_start(RuleId::UciPositionBadFen, "position", p.fen.as_deref(), &e);
                self.tokens_only(
                    &Tokens::new(text).collect::<Vec<_>>(),
                    common,
                    at,
                    e.to_string(),
                );
                return;
            }
            Err(e @ UciPositionError::Move { .. }) => (None, Some(e)),
        };
        let (reused, played) = match update {
            Some(u) => (u.reused, u.played),
            None => (0, self.legal_prefix_replayed(text)),
        };
        let castlings = self.push_replayed_plies(played, reused, common, text, at);
        self.board = self.cache.board().cloned();
        self.board_from_cache = self.board.is_some();
        for (notation, text) in castlings {
            self.castling_spelling(notation, &text);
        }
        match failure {
            Some(UciPositionError::Move { index, error }) => {
                self.illegal_position_move(index, &error, at)
            }
            // Every `position` states the whole game: one that replays is the game, whatever
            // an earlier one got wrong.
            _ => {
                if let Some(g) = self.s.games.last_mut() {
                    g.gaps.clear();
                }
            }
        }
        self.check_game_end(at);
    }

    /// A Chess960 start position sent to an engine that has the option, without setting it.
    fn chess960_start_without_option(&mut self, p: &uci::Position) {
        if let Some(fen) = p.fen.as_deref()
            && !self.s.chess960
            && self.s.option("UCI_Chess960").is_some()
            && fischer_random_castling(fen)
        {
            self.finding(
                RuleId::UciChess960OptionNotSet,
                "a Chess960 start position (castling rights off the standard squares) without setoption name UCI_Chess960 value true",
            );
        }
    }

    /// The plies a `position` shares with the last game, when it continues that game: same
    /// start, no ucinewgame, and the moves extend the game (up to a short takeback or a
    /// ponder miss). `None`: a new game.
    fn plies_of_same_game(
        &self,
        start: &Option<String>,
        variant_name: &str,
        chess960: bool,
        text: &str,
    ) -> Option<usize> {
        match self.s.games.last() {
            Some(g)
                if !self.new_game_pending
                    && g.kind == GameKind::Chess
                    && g.start == *start
                    && g.variant == variant_name
                    && g.chess960 == chess960 =>
            {
                let common_plies = || {
                    g.plies
                        .iter()
                        .zip(Tokens::new(text))
                        .take_while(|(a, b)| a.text() == *b)
                        .count()
                };
                // In the usual flow the position cache holds exactly the game's moves (the
                // last command's, plus the engine's move it was given): one text comparison
                // then answers for the whole game.
                let k = if self.board_from_cache
                    && g.plies.len() == self.cache.moves_len()
                    && self.cache.is_prefix_of(text)
                {
                    debug_assert_eq!(g.plies.len(), common_plies());
                    g.plies.len()
                } else {
                    common_plies()
                };
                // A game an illegal `position` broke is no game the GUI played: the next
                // `position` from the same start corrects it and replaces it, however far
                // back it goes.
                (k + SAME_GAME_SLACK >= g.plies.len() || !g.gaps.is_empty()).then_some(k)
            }
            _ => None,
        }
    }

    /// A `position` that starts a new game: the game before ends here.
    fn new_chess_game(
        &mut self,
        at: At,
        variant_name: &str,
        chess960: bool,
        start: Option<String>,
    ) {
        let mut g = Game::new(GameKind::Chess, at, variant_name, chess960);
        g.start = start;
        // A guess nobody confirmed was not played.
        self.drop_unconfirmed_ponder();
        self.infer_draw_claim();
        self.push_game(g);
        // The new game's plies come from a full replay.
        self.cache.clear();
    }

    /// The cache stopped at an illegal move: its legal prefix replayed, for SAN.
    fn legal_prefix_replayed(&self, text: &str) -> Vec<Played> {
        let legal = self.cache.moves_len();
        let mut replay = self.s.games.last().and_then(Game::chess_start);
        Tokens::new(text)
            .take(legal)
            .filter_map(|t| replay.as_mut().and_then(|r| r.play_uci(t).ok()))
            .collect()
    }

    /// The plies beyond the common prefix, rebuilt from what the cache played; the castlings
    /// among them, with the move as sent.
    fn push_replayed_plies(
        &mut self,
        played: Vec<Played>,
        reused: usize,
        common: usize,
        text: &str,
        at: At,
    ) -> Vec<(Option<CastlingNotation>, String)> {
        let mut castlings = Vec::new();
        if let Some(g) = self.s.games.last_mut() {
            g.board_unknown = None;
            let mut texts = Tokens::new(text).skip(reused);
            for (i, p) in played.into_iter().enumerate() {
                let idx = reused + i;
                let text = texts.next().unwrap_or("");
                if idx < common {
                    continue;
                }
                if p.castling.is_some() {
                    castlings.push((p.castling, text.to_owned()));
                }
                g.plies
                    .push(Ply::new(text, Some(&p.uci), Some(&p.san), Mover::Gui, at));
            }
        }
        castlings
    }

    /// A `position` whose move `index` is illegal: the game has a gap there, and no board.
    fn illegal_position_move(&mut self, index: usize, error: &IllegalMove, at: At) {
        let fen = self.board.as_ref().map(ChessBoard::fen).unwrap_or_default();
        let msg = format!(
            "position: move {} '{}' is illegal in {fen}: {}",
            index + 1,
            error.text,
            error.reason
        );
        self.finding(RuleId::UciPositionIllegalMove, msg);
        self.gap(&error.text, Mover::Gui, at, error.reason.to_string());
        // Engines differ on an illegal position (drop the move, play it, stop at it):
        // what they answer cannot be judged against any one board.
        self.board = None;
        self.board_from_cache = false;
    }

    /// A game whose board cannot be followed: keep the moves as tokens.
    fn tokens_only(&mut self, moves: &[&str], common: usize, at: At, reason: String) {
        self.cache.clear();
        if let Some(g) = self.s.games.last_mut() {
            g.board_unknown = Some(reason);
            for t in moves.iter().skip(common) {
                g.plies.push(Ply::new(t, None, None, Mover::Gui, at));
            }
        }
    }

    /// Records the board's verdict when a move ended the game.
    pub(crate) fn check_game_end(&mut self, at: At) {
        let Some(end) = self.board.as_ref().and_then(ChessBoard::outcome) else {
            return;
        };
        let result = match end.winner {
            Some(Side::White) => "1-0",
            Some(Side::Black) => "0-1",
            None => "1/2-1/2",
        };
        let reason = format!("{:?}", end.reason).to_ascii_lowercase();
        self.set_outcome(result, reason, at, super::model::OutcomeBy::Board);
    }

    fn uci_go(&mut self, go: &Go, text: &str, at: At) {
        let c = &mut self.s.clocks;
        c.wtime = go.wtime.or(c.wtime);
        c.btime = go.btime.or(c.btime);
        c.winc = go.winc.or(c.winc);
        c.binc = go.binc.or(c.binc);
        c.movestogo = go.movestogo;
        c.movetime = go.movetime;
        let busy = self.search.is_some() && self.has_open(|o| o.owed == Owed::BestMove);
        // PolyGlot (and xboard's UCI adapters) answer a ponder miss with `stop`, `position`,
        // `go` without waiting for the stopped search's bestmove: the GUI has ended that
        // search and discards its stale bestmove. Only a `go` with no `stop` is the fault.
        let stopped = busy && self.open_stops > 0;
        if busy && !stopped {
            self.finding(
                RuleId::UciGoWhileSearching,
                "go while the previous search has not answered bestmove",
            );
        } else if let Some(end) = self
            .board
            .as_ref()
            .filter(|_| !go.ponder)
            .and_then(ChessBoard::outcome)
            .filter(|e| !matches!(e.reason, crate::game::EndReason::InsufficientMaterial))
        {
            // `bestmove (none)` is then the engine's right answer; the request is the fault. A
            // ponder search is on a position the opponent has not played yet (python-chess
            // ponders on the predicted move even when it mates): the game is not over.
            self.finding(
                RuleId::UciGoOnTerminalPosition,
                format!("go on a finished game ({:?})", end.reason).to_ascii_lowercase(),
            );
        }
        if let Some(board) = self.board.as_ref()
            && let Some(bad) = go
                .searchmoves
                .iter()
                .find(|m| board.clone().play_uci(m).is_err())
        {
            let msg = format!("searchmoves {bad} is not a legal move in {}", board.fen());
            self.finding(RuleId::UciGoEmptySearchmoves, msg);
        }
        self.s.modes.ponder = go.ponder;
        self.s.modes.analyze = go.infinite;
        let turn = self.board.as_ref().map(ChessBoard::turn);
        self.engine_side = if go.ponder {
            turn.map(Side::other)
        } else {
            turn
        };
        if let (Some(side), Some(g)) = (self.engine_side, self.s.games.last_mut())
            && !go.infinite
        {
            g.engine_side = Some(side);
        }
        // `go ponder`: the position's last move is the GUI's guess of the opponent's reply.
        self.unconfirmed_ponder =
            go.ponder && self.s.games.last().is_some_and(|g| !g.plies.is_empty());
        let open_ended = go.ponder || go.infinite;
        self.open_go(open_ended, GoLimits::of(go), at);
        if busy {
            // The engine finishes the running search first: what it prints until its
            // bestmove still belongs to that search and its position.
            self.queued_go = Some((text.to_owned(), at, GoLimits::of(go)));
            return;
        }
        self.start_uci_search(text, at, at, GoLimits::of(go));
    }

    fn uci_info(&mut self, info: &Info) {
        let Some(search) = self.search.as_mut() else {
            return;
        };
        search.reports += 1;
        if info.multipv.is_some_and(|n| n > 1) {
            return;
        }
        let has_line = info.pv.is_some() || info.score.is_some() || info.depth.is_some();
        if !has_line {
            return;
        }
        let report = search.last.get_or_insert_with(SearchReport::default);
        if info.depth.is_some() {
            report.depth = info.depth;
        }
        if let Some(v) = info.score.and_then(|s| s.value) {
            report.eval = Some(match v {
                ScoreValue::Cp(cp) => Eval::Cp(i64::from(cp)),
                ScoreValue::Mate(m) => Eval::Mate(m),
            });
        }
        if info.nodes.is_some() {
            report.nodes = info.nodes;
        }
        if info.time.is_some() {
            report.time_ms = info.time;
        }
        let Some(pv) = &info.pv else {
            return;
        };
        report.set_pv(pv.as_str());
        if !self.check_pv {
            return;
        }
        let (board, board_id) = match &self.search_board {
            Some((b, id)) => (b, *id),
            None => match self.board.as_ref() {
                Some(b) => (b, self.board_id),
                None => return,
            },
        };
        let ahead = self.pv_legal_from.take();
        if ahead.is_some_and(|key| self.pv.agrees(board_id, board, key)) {
            return;
        }
        if let Err((index, e)) = self.pv.check(board_id, board, pv.as_str()) {
            // The position the offending move is played in: the root after the PV's moves
            // before it (all legal), not the root itself.
            let mut here = board.clone();
            for mv in pv.as_str().split_ascii_whitespace().take(index) {
                if here.play_uci(mv).is_err() {
                    break;
                }
            }
            let msg = format!(
                "pv move {} '{}' is illegal in {}: {}",
                index + 1,
                e.text,
                here.fen(),
                e.reason
            );
            self.finding(RuleId::UciInfoPvIllegal, msg);
        }
    }

    /// UCI fixes the castling spelling by the UCI_Chess960 mode.
    fn castling_spelling(&mut self, notation: Option<CastlingNotation>, mv: &str) {
        let chess960 = self.board.as_ref().is_some_and(ChessBoard::is_chess960);
        match notation {
            Some(CastlingNotation::KingTwoSquares) if chess960 => self.finding(
                RuleId::UciCastlingNotation,
                format!("{mv}: castling as king-two-squares while UCI_Chess960 is on (expected king takes rook)"),
            ),
            Some(CastlingNotation::KingTakesRook) if !chess960 => self.finding(
                RuleId::UciCastlingNotation,
                format!("{mv}: castling as king-takes-rook without UCI_Chess960 (expected e1g1 style)"),
            ),
            _ => {}
        }
    }
}

/// Castling rights that only Chess960 has: Shredder/X-FEN file letters, or `KQkq` rights with
/// the king off the e-file.
fn fischer_random_castling(fen: &str) -> bool {
    let mut fields = fen.split_ascii_whitespace();
    let (Some(board), Some(_), Some(castling)) = (fields.next(), fields.next(), fields.next())
    else {
        return false;
    };
    if castling == "-" {
        return false;
    }
    if castling
        .chars()
        .any(|c| !matches!(c, 'K' | 'Q' | 'k' | 'q'))
    {
        return true;
    }
    let ranks: Vec<&str> = board.split('/').collect();
    let king_file = |rank: &str, king: char| {
        let mut file = 0usize;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
            } else if c == king {
                return Some(file);
            } else {
                file += 1;
            }
        }
        None
    };
    let white =
        castling.contains(['K', 'Q']) && ranks.get(7).and_then(|r| king_file(r, 'K')) != Some(4);
    let black =
        castling.contains(['k', 'q']) && ranks.first().and_then(|r| king_file(r, 'k')) != Some(4);
    white || black
}

/// FENs compare equal whatever the spacing.
fn normalize_fen(fen: &str) -> String {
    fen.split_ascii_whitespace().collect::<Vec<_>>().join(" ")
}
