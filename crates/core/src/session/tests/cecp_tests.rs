//! CECP (xboard) sessions decoded: features, games built from moves, `force`, `edit`,
//! `undo` and `setboard`, thinking lines checked against the board, variants the decoder has
//! no board for.

use super::*;

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
    // Rejected, usermove=1 is off for the session; setboard stays as the engine set it.
    assert_eq!(s.feature_flag("usermove"), Some(false));
    assert_eq!(s.feature_flag("setboard"), Some(true));
    assert_eq!(s.feature_flag("san"), None);
    assert_eq!(s.open_obligations().count(), 0, "{:?}", s.obligations);
    assert_eq!(s.games.len(), 2);
    let g = &s.games[0];
    let moves: Vec<_> = g.plies.iter().map(|p| (p.text(), p.by)).collect();
    assert_eq!(moves, [("e2e4", Mover::Gui)]);
    let g2 = &s.games[1];
    assert_eq!(g2.plies[0].san(), Some("Ra8#"));
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
    assert_eq!(g.plies[0].san(), Some("Ra8+"));
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
