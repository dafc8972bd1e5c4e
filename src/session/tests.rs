use super::*;
use crate::recording::{Event, Source};
use crate::rules::catalogue::RuleId;

/// `> ` lines are the GUI's, `< ` the engine's; 100 ms apart.
fn transcript(text: &str) -> Vec<Event> {
    text.lines()
        .map(str::trim_start)
        .filter(|l| !l.is_empty())
        .enumerate()
        .map(|(i, l)| {
            let (src, rest) = match l.split_at(2) {
                ("> ", r) => (Source::Gui, r),
                ("< ", r) => (Source::Engine, r),
                _ => (Source::Stderr, l),
            };
            Event::line(i as u64 + 1, i as u64 * 100_000_000, src, rest)
        })
        .collect()
}

fn one(text: &str) -> Session {
    let mut s = decode(&transcript(text), None);
    assert_eq!(s.len(), 1);
    s.remove(0)
}

fn codes(s: &Session) -> Vec<(RuleId, String)> {
    s.lines
        .iter()
        .flat_map(|l| l.breaches.iter().map(|d| (d.rule, d.message.clone())))
        .collect()
}

const UCI_GAME: &str = "
    > uci
    < id name Fish 1
    < id author Someone
    < option name Hash type spin default 16 min 1 max 1024
    < option name UCI_Chess960 type check default false
    < uciok
    > setoption name Hash value 64
    > isready
    < readyok
    > ucinewgame
    > position startpos
    > go wtime 1000 btime 1000
    < info depth 1 score cp 20 pv e2e4
    < info depth 2 score cp 25 pv e2e4 e7e5
    < bestmove e2e4 ponder e7e5
    > position startpos moves e2e4 e7e5
    > go wtime 900 btime 900
    < info depth 3 score mate 2 pv g1f3 b8c6
    < bestmove g1f3
";

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
    let moves: Vec<_> = g.plies.iter().map(|p| (p.text.as_str(), p.by)).collect();
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
    assert_eq!(g.plies[2].san.as_deref(), Some("Nf3"));
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
fn a_cecp_game_left_at_a_claimable_repetition_is_a_draw_when_the_next_one_starts() {
    let s = one("
        > xboard
        > protover 2
        < feature done=1
        > new
        > force
        > g1f3
        > g8f6
        > f3g1
        > f6g8
        > g1f3
        > g8f6
        > f3g1
        > f6g8
        > new
        > e2e4
    ");
    assert_eq!(s.games.len(), 2);
    let o = s.games[0].outcome.as_ref().expect("a draw");
    assert_eq!(o.result, "1/2-1/2");
    assert!(o.reason.starts_with("threefold repetition"), "{}", o.reason);
    assert!(s.games[1].outcome.is_none());
}

#[test]
fn searches_can_go_unkept_while_games_and_open_obligations_stay() {
    let text = "
        > uci
        < uciok
        > position startpos
        > go depth 2
        < info depth 1 pv e2e4
        < bestmove e2e4
        > position startpos moves e2e4 e7e5
        > isready
        < readyok
        > go depth 2
        < bestmove g1f3
        > position startpos moves e2e4 e7e5 g1f3 b8c6
        > go depth 2
    ";
    let run = |keep: bool| {
        let mut d = Decoder::new(None).retain_searches(keep);
        for ev in transcript(text) {
            d.push(&ev);
        }
        d.finish().remove(0)
    };
    let (all, light) = (run(true), run(false));
    assert_eq!(all.searches.len(), 3);
    assert_eq!(all.search_count, 3);
    assert_eq!(light.search_count, 3);
    assert!(light.searches.is_empty());
    // Every game move is still there; only the unanswered `go` is still owed.
    assert_eq!(light.games, all.games);
    assert_eq!(light.games[0].plies.len(), 4);
    let open = |s: &Session| {
        s.open_obligations()
            .map(|o| o.request.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(open(&light), ["go"]);
    assert_eq!(open(&light), open(&all));
    assert_eq!(light.obligations.len(), 1);
    assert!(all.obligations.len() > 4);
}

#[test]
fn pv_checking_can_be_turned_off_without_losing_game_move_checks() {
    let text = "
        > position startpos
        > go depth 2
        < info depth 1 pv e2e4 e7e5
        < info depth 2 pv e2e4 e7e5 e1e3
        < bestmove e2e5
        > position startpos moves e2e4
        > go depth 1
        < info depth 1 pv e7e5 g1f3
        < bestmove e7e5
    ";
    let run = |check: bool| {
        let mut d = Decoder::new(None).keep_lines(true).check_pv_moves(check);
        for ev in transcript(text) {
            d.push(&ev);
        }
        d.finish().remove(0)
    };
    let (on, off) = (run(true), run(false));
    let names = |s: &Session| codes(s).into_iter().map(|c| c.0).collect::<Vec<_>>();
    assert_eq!(
        names(&on),
        [RuleId::UciInfoPvIllegal, RuleId::UciBestmoveIllegal]
    );
    assert_eq!(names(&off), [RuleId::UciBestmoveIllegal]);
    // The PV is still kept as text, and the boards are the same.
    let last_pv = |s: &Session| s.searches[0].last.as_ref().map(|r| r.pv.clone());
    assert_eq!(last_pv(&off), Some("e2e4 e7e5 e1e3".to_owned()));
    assert_eq!(on.games, off.games);
    assert_eq!(off.games[0].plies.len(), 2);
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
    assert_eq!(g.plies[6].san.as_deref(), Some("O-O"));
    assert_eq!(g.plies[9].san.as_deref(), Some("O-O"));
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
    let texts: Vec<_> = s.games[0].plies.iter().map(|p| p.text.as_str()).collect();
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
fn cecp_game_with_force_edit_undo_and_result() {
    let s = one("
        > xboard
        > protover 2
        < feature ping=1 setboard=1 usermove=1 myname=\"Fairy-Max 5.0\" done=1
        > accepted ping
        > accepted setboard
        > rejected usermove
        > new
        > level 40 5 0
        > post
        > time 30000
        > otim 30000
        > usermove e2e4
        < 1 10 0 12 e7e5
        < 2 -5 1 80 e7e5 g1f3
        < move e7e5
        > ping 1
        < pong 1
        > force
        > usermove g1f3
        > usermove b8c6
        > undo
        > remove
        > setboard 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1
        > usermove a1a8
        > result 1-0 {White mates}
    ");
    assert_eq!(s.protocol, Some(protocol::Protocol::Cecp));
    assert_eq!(s.version, Some(2));
    assert_eq!(s.engine_name.as_deref(), Some("Fairy-Max 5.0"));
    assert!(matches!(s.handshake, Handshake::Done(_)));
    assert_eq!(s.feature("usermove").and_then(|f| f.accepted), Some(false));
    assert_eq!(s.feature("ping").and_then(|f| f.accepted), Some(true));
    assert_eq!(s.open_obligations().count(), 0, "{:?}", s.obligations);
    assert_eq!(s.games.len(), 2);
    let g = &s.games[0];
    let moves: Vec<_> = g.plies.iter().map(|p| (p.text.as_str(), p.by)).collect();
    assert_eq!(moves, [("e2e4", Mover::Gui)]);
    let g2 = &s.games[1];
    assert_eq!(g2.plies[0].san.as_deref(), Some("Ra8#"));
    assert_eq!(g2.outcome.as_ref().map(|o| o.result.as_str()), Some("1-0"));
    assert!(codes(&s).is_empty(), "{:?}", codes(&s));
    // The engine's move got the eval of its last thinking line.
    let engine_move = s
        .searches
        .iter()
        .find(|x| x.request == "usermove e2e4")
        .expect("search");
    assert_eq!(engine_move.reports, 2);
}

#[test]
fn cecp_illegal_engine_move_and_bad_thinking_pv() {
    let s = one("
        > xboard
        > new
        > usermove e2e4
        < 3 12 5 100 e7e5 e1e3
        < move e2e4
    ");
    let c: Vec<_> = codes(&s).into_iter().map(|c| c.0).collect();
    assert_eq!(c, [RuleId::CecpThinkingPvUnplayable, RuleId::CecpMoveEcho]);
    assert_eq!(s.open_obligations().count(), 0);
}

#[test]
fn cecp_edit_mode_sets_up_a_position() {
    let s = one("
        > xboard
        > new
        > force
        > edit
        > #
        > Ke1
        > Ra1
        > c
        > Ke8
        > .
        > usermove a1a8
    ");
    let g = s.games.last().expect("game");
    assert_eq!(g.start.as_deref(), Some("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"));
    assert_eq!(g.plies[0].san.as_deref(), Some("Ra8+"));
}

#[test]
fn cecp_unsupported_variant_keeps_tokens() {
    let s = one("
        > xboard
        > new
        > variant xiangqi
        > usermove h2e2
        > go
        < move h9g7
    ");
    let g = s.games.last().expect("game");
    assert!(g.board_unknown.is_some());
    assert_eq!(g.plies.len(), 2);
    // One note says why no move is checked; nothing is an error.
    let c: Vec<_> = codes(&s).into_iter().map(|c| c.0).collect();
    assert_eq!(c, [RuleId::XBoardUnknown]);
}

#[test]
fn nboard_game_with_set_game_moves_and_pass() {
    let s = one("
        > nboard 2
        < set myname Edax
        > set depth 8
        > set game (;GM[Othello]PC[NBoard]PB[me]PW[Edax]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6];)
        > ping 1
        < pong 1
        > go
        < search F5D6 -1.00 0 10 some text
        < === C3/-0.50/1.2
        > move C3
        > move D3
        > hint 1
        < book C4 0 100 12
        > learn
        < learned
    ");
    assert_eq!(s.protocol, Some(protocol::Protocol::Nboard));
    assert_eq!(s.engine_name.as_deref(), Some("Edax"));
    assert_eq!(s.open_obligations().count(), 0, "{:?}", s.obligations);
    let g = &s.games[0];
    let moves: Vec<_> = g.plies.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(moves, ["F5", "D6", "C3", "D3"]);
    // `===` only proposes; the GUI's `move C3` plays it, and it is the engine's ply.
    assert_eq!(g.plies[2].by, Mover::Engine);
    assert_eq!(g.plies[3].by, Mover::Gui);
    assert_eq!(g.plies[2].eval, Some(Eval::Discs(-0.5)));
    assert!(g.tags.iter().any(|(k, v)| k == "PB" && v == "me"));
    assert!(codes(&s).is_empty(), "{:?}", codes(&s));
    assert_eq!(
        s.position_after(s.lines.last().expect("line")),
        g.position_after(4)
    );
}

#[test]
fn nboard_engine_proposal_does_not_move_the_board() {
    // "The engine does not update the board with this move, instead it waits for a "move"
    // command from NBoard": the GUI may play something else.
    let s = one("
        > nboard 2
        > set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)
        > go
        < === F5
        > move D3
    ");
    let moves: Vec<_> = s.games[0]
        .plies
        .iter()
        .map(|p| (p.text.as_str(), p.by))
        .collect();
    assert_eq!(moves, [("D3", Mover::Gui)]);
    assert!(codes(&s).is_empty(), "{:?}", codes(&s));
}

#[test]
fn nboard_illegal_engine_move_shows_the_board() {
    let s = one("
        > nboard 2
        > set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)
        > go
        < === A1
    ");
    let c = codes(&s);
    assert_eq!(c.len(), 1);
    assert!(
        c[0].1.contains("A1") && c[0].1.contains("---O*---"),
        "{}",
        c[0].1
    );
}

#[test]
fn sessions_split_by_label_and_detected_separately() {
    let mut ev = transcript(
        "
        > uci
        < uciok
        > xboard
        > protover 2
        < feature done=1
    ",
    );
    for (i, e) in ev.iter_mut().enumerate() {
        e.session = Some(if i < 2 { "a".into() } else { "b".into() });
    }
    let s = decode(&ev, None);
    assert_eq!(s.len(), 2);
    assert_eq!(s[0].protocol, Some(protocol::Protocol::Uci));
    assert_eq!(s[1].protocol, Some(protocol::Protocol::Cecp));
    assert_eq!(s[1].lines.len(), 3);
}

#[test]
fn streaming_detection_catches_up_on_earlier_lines() {
    let ev = transcript(
        "
        < Stockfish 16 by the Stockfish developers
        > uci
        < id name Stockfish 16
        < uciok
    ",
    );
    let mut d = Decoder::new(None);
    let first = d.push(&ev[0]);
    assert!(first.msg.is_none());
    for e in &ev[1..] {
        assert!(d.push(e).msg.is_some());
    }
    let s = d.finish();
    assert_eq!(s[0].engine_name.as_deref(), Some("Stockfish 16"));
    assert!(matches!(s[0].handshake, Handshake::Done(_)));
}

#[test]
fn retain_off_keeps_memory_flat() {
    let mut text = String::from("> uci\n< uciok\n");
    for _ in 0..50 {
        text.push_str("> ucinewgame\n> position startpos moves e2e4\n> go depth 1\n< info depth 1 pv e7e5\n< bestmove e7e5\n> isready\n< readyok\n");
    }
    let mut d = Decoder::new(None).retain_history(false);
    for e in &transcript(&text) {
        d.push(e);
    }
    let s = d.finish();
    assert_eq!(s[0].games.len(), 1);
    assert!(s[0].searches.is_empty());
    assert!(s[0].obligations.is_empty());
    assert!(s[0].lines.is_empty());
}

mod no_panic {
    use super::*;
    use proptest::prelude::*;

    fn line() -> impl Strategy<Value = (bool, String)> {
        let words = prop::sample::select(vec![
            "uci",
            "uciok",
            "isready",
            "readyok",
            "position",
            "startpos",
            "fen",
            "moves",
            "go",
            "bestmove",
            "ponder",
            "info",
            "pv",
            "depth",
            "score",
            "cp",
            "mate",
            "e2e4",
            "e7e5",
            "e1g1",
            "e1h1",
            "a1a1",
            "0000",
            "(none)",
            "stop",
            "ponderhit",
            "ucinewgame",
            "setoption",
            "name",
            "value",
            "option",
            "type",
            "spin",
            "xboard",
            "protover",
            "2",
            "feature",
            "done=1",
            "new",
            "force",
            "usermove",
            "move",
            "undo",
            "remove",
            "edit",
            ".",
            "#",
            "Ke1",
            "c",
            "setboard",
            "8/8/8/8/8/8/8/8",
            "w",
            "-",
            "variant",
            "fischerandom",
            "xiangqi",
            "result",
            "1-0",
            "resign",
            "nboard",
            "set",
            "game",
            "(;GM[Othello]B[F5];)",
            "===",
            "F5",
            "PA",
            "hint",
            "ping",
            "pong",
            "learn",
            "10",
            "-3",
            "analyze",
            "exit",
            "accepted",
            "rejected",
            "level",
            "time",
            "otim",
        ]);
        (
            any::<bool>(),
            prop::collection::vec(prop_oneof![words.prop_map(str::to_owned), ".{0,6}"], 0..8)
                .prop_map(|w| w.join(" ")),
        )
    }

    proptest! {
        #[test]
        fn decoder_never_panics(lines in prop::collection::vec(line(), 0..60), p in 0usize..4) {
            let events: Vec<Event> = lines
                .into_iter()
                .enumerate()
                .map(|(i, (gui, text))| {
                    let src = if gui { Source::Gui } else { Source::Engine };
                    Event::line(i as u64, i as u64, src, text)
                })
                .collect();
            let protocol = protocol::Protocol::ALL.get(p).copied();
            let sessions = decode(&events, protocol);
            for s in &sessions {
                for l in &s.lines {
                    let _ = s.position_after(l);
                }
            }
        }
    }
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
fn push_into_a_reused_line_gives_what_push_gives() {
    let text = format!("{UCI_GAME}\n< info depth 4 pv e2e4 e2e4\n< bogus\n> isready\n< readyok\n");
    let events = transcript(&text);
    let mut fresh = Decoder::new(None);
    let mut reusing = Decoder::new(None);
    let mut line = Decoded::default();
    let mut info_boxes = Vec::new();
    for e in &events {
        let want = fresh.push(e);
        reusing.push_into(e, &mut line);
        assert_eq!(line, want, "{}", e.text);
        if let Some(crate::protocol::Msg::Uci(crate::protocol::uci::Msg::Info(i))) = &line.msg {
            info_boxes.push(&**i as *const _ as usize);
        }
    }
    // Later info lines land in the box the first one was parsed into.
    assert!(info_boxes.len() >= 4);
    assert!(
        info_boxes.windows(2).all(|w| w[0] == w[1]),
        "{info_boxes:?}"
    );
    assert_eq!(fresh.finish(), reusing.finish());
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
    let texts: Vec<_> = s.games[0].plies.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(texts, ["e2e4", "e7e5", "g1f3"]);
    assert_eq!(s.open_obligations().count(), 0);
}

#[test]
fn streaming_detection_replays_earlier_lines_at_their_time_with_their_findings() {
    // `go` alone decides nothing; the engine's `info` does, two lines later.
    let ev = transcript(
        "
        < Stockfish 16 by the Stockfish developers
        > go
        < info depth 1 score cp 10 pv e2e5
    ",
    );
    let mut d = Decoder::new(None);
    let mut judge = crate::rules::Judge::new(crate::rules::Profile::named("spec").unwrap());
    let mut findings = Vec::new();
    let mut out = Vec::new();
    for (i, e) in ev.iter().enumerate() {
        d.set_input_line(i as u64 + 10);
        let decoded = d.push(e);
        judge.line(e, Some(i as u64 + 10), &decoded, &d, &mut findings);
        out.push(decoded);
    }
    assert!(out[1].msg.is_none(), "undecided when it came");
    let earlier = &out[2].earlier;
    assert_eq!(earlier.len(), 2);
    assert_eq!(
        earlier[1].at,
        At {
            seq: 2,
            t: 100_000_000
        }
    );
    assert_eq!(earlier[1].line, Some(11));
    assert!(matches!(earlier[1].msg, protocol::Msg::Uci(_)));
    // The banner's finding is no longer dropped, and the judge places it on its own line.
    assert_eq!(earlier[0].breaches[0].rule, RuleId::UciUnknownCommand);
    let banner = findings
        .iter()
        .find(|f| f.rule == RuleId::UciUnknownCommand);
    assert_eq!(
        banner.map(|f| (f.line, f.seq, f.t_ns)),
        Some((Some(10), 1, 0))
    );
    let owed: Vec<_> = d.open_obligations(0).cloned().collect();
    assert_eq!(owed.len(), 1, "{owed:?}");
    assert_eq!(
        owed[0].opened,
        At {
            seq: 2,
            t: 100_000_000
        }
    );
}

#[test]
fn runner_results_are_read_from_finished_game_lines() {
    use crate::session::RunnerResult;
    let at = crate::session::At { seq: 1, t: 0 };
    let r = RunnerResult::parse(
        "Finished game 3 (Carballo (1.7) {Official} vs sf 2): 1/2-1/2 {Draw by adjudication}",
        at,
    )
    .unwrap();
    assert_eq!(
        (
            r.white.as_str(),
            r.black.as_str(),
            r.result.as_str(),
            r.reason.as_str()
        ),
        (
            "Carballo (1.7) {Official}",
            "sf 2",
            "1/2-1/2",
            "Draw by adjudication"
        )
    );
    assert!(RunnerResult::parse("Finished game x (a vs b): 1-0", at).is_none());
    assert!(RunnerResult::parse("Started game 1 of 2 (a vs b)", at).is_none());
    let r = RunnerResult::parse("Finished game 1 (a vs b): 0-1", at).unwrap();
    assert_eq!((r.result.as_str(), r.reason.as_str()), ("0-1", ""));
}
