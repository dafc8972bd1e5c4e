//! UCI sessions decoded: the handshake, games from `position` lines, `bestmove` and `info`
//! checked against the board, castling spellings, options, and the obligations a GUI's
//! commands open.

use super::*;

#[test]
fn uci_game_handshake_obligations_and_moves() {
    let s = one(UCI_GAME);
    assert_eq!(s.protocol, Some(protocol::Protocol::Uci));
    assert_eq!(s.engine_name.as_deref(), Some("Fish 1"));
    assert!(matches!(s.handshake, Handshake::Done(_)));
    assert_eq!(s.options.len(), 2);
    assert_eq!(s.open_obligations().count(), 0);
    assert_eq!(s.obligations.len(), 4);
    let uciok = &s.obligations[0];
    assert_eq!(
        (uciok.request.as_str(), uciok.latency()),
        ("uci", Some(500_000_000))
    );
    assert_eq!(s.games.len(), 1);
    let g = &s.games[0];
    let moves: Vec<_> = g.plies.iter().map(|p| (p.text(), p.by)).collect();
    assert_eq!(
        moves,
        [
            ("e2e4", Mover::Engine),
            ("e7e5", Mover::Gui),
            ("g1f3", Mover::Engine)
        ]
    );
    assert_eq!(g.plies[0].eval, Some(Eval::Cp(25)));
    assert_eq!(g.plies[0].depth, Some(2));
    assert_eq!(g.plies[2].eval, Some(Eval::Mate(2)));
    assert_eq!(g.plies[2].san(), Some("Nf3"));
    assert_eq!(g.engine_side, Some(crate::game::Side::White));
    assert_eq!(s.searches.len(), 2);
    assert!(codes(&s).is_empty(), "{:?}", codes(&s));
    let last = s.lines.last().expect("lines");
    assert!(last.moved);
    assert_eq!(
        s.position_after(last).as_deref(),
        Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
    );
}

#[test]
fn illegal_bestmove_names_the_move_and_position() {
    let s = one("
        > uci
        < uciok
        > position startpos moves e2e4
        > go depth 1
        < bestmove a1a1
    ");
    let c = codes(&s);
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!(c[0].0, RuleId::UciBestmoveIllegal);
    assert!(c[0].1.contains("a1a1"), "{}", c[0].1);
    assert!(
        c[0].1
            .contains("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
        "{}",
        c[0].1
    );
    // The illegal move is not part of the game.
    assert_eq!(s.games[0].plies.len(), 1);
}

#[test]
fn null_bestmove_with_legal_moves_is_flagged_but_not_at_mate() {
    let s = one("
        > position startpos
        > go depth 1
        < bestmove 0000
        > position startpos moves f2f3 e7e5 g2g4 d8h4
        > go depth 1
        < bestmove (none)
    ");
    // On the mated root the GUI's `go` is what is named; `(none)` (not the text's `0000`) is
    // a note only.
    let c = codes(&s);
    assert_eq!(c.len(), 3, "{c:?}");
    assert_eq!(c[0].0, RuleId::UciBestmoveIllegal);
    assert_eq!(c[1].0, RuleId::UciGoOnTerminalPosition);
    assert_eq!(c[2].0, RuleId::UciBestmoveNullFormat);
    assert_eq!(
        s.games[0].outcome.as_ref().map(|o| o.result.as_str()),
        Some("0-1")
    );
}

#[test]
fn illegal_pv_is_flagged_once_per_line_and_reuses_prefixes() {
    let s = one("
        > position startpos
        > go infinite
        < info depth 1 pv e2e4 e7e5
        < info depth 2 pv e2e4 e7e5 e1e3
        < info depth 3 pv e2e4 e7e5 g1f3
        > stop
        < bestmove e2e4
    ");
    let c = codes(&s);
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!(c[0].0, RuleId::UciInfoPvIllegal);
    assert!(c[0].1.contains("pv move 3 'e1e3'"), "{}", c[0].1);
    // The position named is the one the move is played in (after e2e4 e7e5), not the root.
    assert!(
        c[0].1
            .contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
        "{}",
        c[0].1
    );
    // Infinite analysis does not play its bestmove into the game.
    assert!(s.games[0].plies.is_empty());
    assert_eq!(s.obligations.len(), 2);
    assert_eq!(s.open_obligations().count(), 0);
}

#[test]
fn a_uci_game_stopped_at_a_claimable_repetition_is_a_draw() {
    let reps = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1";
    let s = one(&format!(
        "
        > position startpos moves {reps}
        > go depth 1
        < bestmove f6g8
        > ucinewgame
        > position startpos moves e2e4
        > go depth 1
        < bestmove e7e5
    "
    ));
    assert_eq!(s.games.len(), 2);
    let o = s.games[0]
        .outcome
        .as_ref()
        .expect("the first game is a draw");
    assert_eq!(o.result, "1/2-1/2");
    assert!(
        o.reason.starts_with("threefold repetition, claimable"),
        "{}",
        o.reason
    );
    // It is dated by the game's last move, not by the next game's start.
    assert_eq!(Some(o.at), s.games[0].plies.last().map(|p| p.at));
    // The second game stopped in an ordinary position: no result is made up.
    assert!(s.games[1].outcome.is_none());
    // A repetition the game went on from is no result either.
    let s = one(&format!(
        "
        > position startpos moves {reps} f6g8 e2e4
        > go depth 1
        < bestmove e7e5
    "
    ));
    assert!(s.games[0].outcome.is_none(), "{:?}", s.games[0].outcome);
}

#[test]
fn chess960_castling_both_spellings() {
    // King on f1, rooks on b1/g1 style start is overkill: use a standard array in 960 mode.
    let s = one("
        > uci
        < option name UCI_Chess960 type check default false
        < uciok
        > setoption name UCI_Chess960 value true
        > position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1
        > go depth 1
        < bestmove f8c5
        > position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1 f8c5 d2d3 e8g8
        > go depth 1
        < bestmove c1g5
    ");
    let c = codes(&s);
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!(c[0].0, RuleId::UciCastlingNotation);
    assert!(c[0].1.contains("e8g8"));
    let g = &s.games[0];
    assert!(g.chess960);
    assert_eq!(g.plies[6].san(), Some("O-O"));
    assert_eq!(g.plies[9].san(), Some("O-O"));
    assert_eq!(g.plies.len(), 11);
}

#[test]
fn standard_castling_king_takes_rook_is_a_notation_warning() {
    let s = one("
        > position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1
        > go depth 1
        < bestmove f8c5
    ");
    let c = codes(&s);
    assert_eq!(
        c.iter().map(|c| c.0).collect::<Vec<_>>(),
        [RuleId::UciCastlingNotation]
    );
}

#[test]
fn uci_new_game_takeback_and_ponder_miss() {
    let s = one("
        > position startpos moves e2e4
        > go ponder
        < info depth 1 pv e7e5
        > position startpos moves e2e4 c7c5
        > go
        < bestmove g1f3
        > ucinewgame
        > position startpos moves d2d4
        > go
        < bestmove d7d5
        > unknowncommand
    ");
    assert_eq!(s.games.len(), 2);
    let texts: Vec<_> = s.games[0].plies.iter().map(|p| p.text()).collect();
    assert_eq!(texts, ["e2e4", "c7c5", "g1f3"]);
    assert_eq!(s.games[1].plies.len(), 2);
    assert!(codes(&s).iter().any(|c| c.0 == RuleId::UciGoWhileSearching));
    assert!(codes(&s).iter().any(|c| c.0 == RuleId::UciUnknownCommand));
}

#[test]
fn setoption_checked_against_declarations() {
    let s = one("
        > uci
        < option name Hash type spin default 16 min 1 max 1024
        < option name Style type combo default Normal var Solid var Normal
        < uciok
        > setoption name hash value 4096
        > setoption name Nonsense value 1
        > setoption name Style value risky
        > setoption name Style value solid
    ");
    let c: Vec<_> = codes(&s).into_iter().map(|c| c.0).collect();
    assert_eq!(
        c,
        [
            RuleId::UciSetoptionUnknown,
            RuleId::UciSetoptionUnknown,
            RuleId::UciSetoptionUnknown
        ]
    );
    assert_eq!(s.option_sets.len(), 4);
}

#[test]
fn open_obligations_at_the_end() {
    let s = one("
        > uci
        < uciok
        > isready
        > position startpos
        > go movetime 100
    ");
    let open: Vec<_> = s.open_obligations().map(|o| o.owed.to_string()).collect();
    assert_eq!(open, ["readyok", "bestmove"]);
}

#[test]
fn obligations_answered_out_of_order_and_after_many_closed() {
    // Answered obligations stay in the model; the decoder skips past them when it looks for
    // open ones, and must not skip one that is still open behind a closed one.
    let mut text = String::from("> uci\n< uciok\n");
    for _ in 0..50 {
        text.push_str("> isready\n< readyok\n");
    }
    text.push_str("> position startpos\n> go infinite\n> isready\n< readyok\n");
    text.push_str("> stop\n< bestmove e2e4\n> isready\n> isready\n< readyok\n");
    let s = one(&text);
    let open: Vec<_> = s.open_obligations().map(|o| o.owed.to_string()).collect();
    assert_eq!(open, ["readyok"]);
    // uci, 50 isready, go, stop, three isready.
    assert_eq!(s.obligations.len(), 1 + 50 + 5);
    assert!(codes(&s).is_empty(), "{:?}", codes(&s));
}

#[test]
fn mate_by_the_engines_move_is_recorded_once_the_echoed_position_changes_nothing() {
    let s = one("
        > position startpos moves f2f3 e7e5 g2g4
        > go depth 1
        < bestmove d8h4
        > position startpos moves f2f3 e7e5 g2g4 d8h4
        > position startpos moves f2f3 e7e5 g2g4 d8h4
    ");
    let end = s.games[0].outcome.as_ref().expect("mate is seen");
    assert_eq!(end.result, "0-1");
    assert_eq!(end.reason, "checkmate");
    // Found at the engine's move (line 3), not at the GUI's echo.
    assert_eq!(end.at.seq, 3);
}

#[test]
fn a_go_sent_during_a_search_leaves_the_running_search_its_position() {
    // The GUI sends the next position and `go` while an infinite search runs: the engine's
    // lines until its bestmove still belong to the first search and are legal there.
    let s = one("
        > position startpos moves e2e4
        > go infinite
        < info depth 1 pv e7e5 g1f3
        > position startpos moves e2e4 e7e5
        > go movetime 100
        < info depth 2 pv e7e5 g1f3 b8c6
        > stop
        < bestmove e7e5
        < info depth 1 pv g1f3
        < bestmove g1f3
    ");
    let c: Vec<_> = codes(&s).into_iter().map(|c| c.0).collect();
    assert_eq!(c, [RuleId::UciGoWhileSearching]);
    let texts: Vec<_> = s.games[0].plies.iter().map(|p| p.text()).collect();
    assert_eq!(texts, ["e2e4", "e7e5", "g1f3"]);
    assert_eq!(s.open_obligations().count(), 0);
}

/// Issue 24 #15: a game that ends during a `go ponder` nobody confirmed does not keep the
/// guessed move: not when the input ends, nor when the next game starts.
#[test]
fn an_unconfirmed_ponder_guess_is_no_move_of_the_game() {
    let s = one("
        > position startpos moves e2e4 e7e5
        > go ponder
        < info depth 1 pv g1f3
        > stop
        < bestmove g1f3
        > ucinewgame
        > position startpos moves d2d4 d7d5
        > go ponder
        < info depth 1 pv c2c4
    ");
    assert_eq!(s.games.len(), 2);
    for (g, want) in s.games.iter().zip([["e2e4"], ["d2d4"]]) {
        let texts: Vec<_> = g.plies.iter().map(|p| p.text()).collect();
        assert_eq!(texts, want);
    }
    // A guess the GUI confirmed with ponderhit is a move of the game.
    let s = one("
        > position startpos moves e2e4 e7e5
        > go ponder
        > ponderhit
        < bestmove g1f3
    ");
    assert_eq!(s.games[0].plies.len(), 3);
}
