//! NBoard (Othello) sessions decoded: games from `set game`, the engine's proposals that do
//! not move the board until the GUI plays them, and an illegal move shown with its board.

use super::*;

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
    let moves: Vec<_> = g.plies.iter().map(|p| p.text()).collect();
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
    let moves: Vec<_> = s.games[0].plies.iter().map(|p| (p.text(), p.by)).collect();
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
