use super::*;
use crate::game::othello::OthelloSquare;
use proptest::prelude::*;

/// The `set game` line of the NBoard protocol document.
const NBOARD_DOC: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

fn sq(s: &str) -> OthelloMove {
    OthelloMove::Play(OthelloSquare::parse(s).expect("square"))
}

#[test]
fn nboard_example_parses_and_replays() {
    let g = GgfGame::parse(NBOARD_DOC);
    assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
    assert_eq!(g.tag("PB"), Some("./mEdax"));
    assert_eq!(g.tag("TI"), Some("15:00"));
    assert_eq!(g.start, Some(OthelloBoard::new()));
    assert_eq!(g.moves.len(), 8);
    assert_eq!(g.moves[0].mv, sq("F5"));
    assert_eq!(g.moves[7].side, Side::White);
    let r = g.replay();
    assert_eq!(r.played, 8);
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let board = r.board.expect("board");
    assert_eq!(board.turn(), Side::Black);
    assert_eq!(board.discs(Side::Black) + board.discs(Side::White), 12);
    assert_eq!(g.print(), NBOARD_DOC);
    assert_eq!(g.result().map(|r| r.score), Some(None));
}

#[test]
fn ggs_archive_style_with_row_spaces_evals_and_passes() {
    let text = "(;GM[Othello]PC[GGS/os]DT[2004.09.18_05:54:38.MDT]PB[a]PW[b]RB[1837.5]RW[1700]\
        TI[01:00/00:00/02:00]TY[8]RE[+64.00:r]\
        BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\
        B[f5/1.00/2.3] W[D6//4.09] B[c3/-0.5] W[pass] XY[kept];)";
    let g = GgfGame::parse(text);
    assert_eq!(
        g.diagnostics,
        [],
        "row spaces, whitespace, lowercase moves and pass are all fine"
    );
    assert_eq!(
        g.moves[0],
        GgfMove {
            side: Side::Black,
            mv: sq("F5"),
            eval: Some(1.0),
            time: Some(2.3)
        }
    );
    assert_eq!(
        g.moves[1],
        GgfMove {
            side: Side::White,
            mv: sq("D6"),
            eval: None,
            time: Some(4.09)
        }
    );
    assert_eq!(g.moves[2].eval, Some(-0.5));
    assert_eq!(g.moves[3].mv, OthelloMove::Pass);
    assert_eq!(g.tag("XY"), Some("kept"));
    let re = g.result().expect("RE");
    assert_eq!((re.score, re.flag.as_deref()), (Some(64.0), Some("r")));
    // W[pass] is not legal here: white has moves.
    let r = g.replay();
    assert_eq!(r.played, 3);
    assert!(
        r.diagnostics[0].message.contains("illegal move PA"),
        "{:?}",
        r.diagnostics
    );
}

#[test]
fn tolerated_deviations_become_diagnostics() {
    let g = GgfGame::parse(
        "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[--]B[zz]W[F4/abc])",
    );
    let messages: Vec<&str> = g.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(
        messages.iter().any(|m| m.contains("missing ';'")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("not a move")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("bad evaluation")),
        "{messages:?}"
    );
    assert_eq!(g.moves.len(), 3);
    assert_eq!(g.moves[1].mv, OthelloMove::Pass);
    assert_eq!(g.moves[2].eval, None);
}

#[test]
fn non_8x8_and_non_othello_are_board_unknown() {
    let g = GgfGame::parse("(;GM[Othello]TY[10]BO[10 ---- *]B[F5];)");
    assert_eq!(g.start, None);
    assert!(g.board_unknown.as_deref().is_some_and(|m| m.contains("10")));
    assert_eq!(g.replay().board, None);
    let g = GgfGame::parse("(;GM[Othello]BO[10 ---- *];)");
    assert_eq!(g.start, None);
    let g = GgfGame::parse("(;GM[Amazons]TY[10];)");
    assert!(g.board_unknown.is_some());
    let g = GgfGame::parse("(;GM[othello]TY[8r];)");
    assert_eq!(g.start, Some(OthelloBoard::new()));
    assert_eq!(g.diagnostics.len(), 1, "missing BO is noted");
}

#[test]
fn wrong_colour_and_implied_pass() {
    // Black A1, white B1 + A2... use a position where white must pass after black's move.
    let bo = "8 *O------ O------- -------- -------- -------- -------- -------- -------- *";
    // Black C1 flips B1; white (only A2) must pass; black A3 flips A2 and ends the game.
    let explicit = format!("(;GM[Othello]BO[{bo}]B[C1]W[PA]B[A3];)");
    let r = GgfGame::parse(&explicit).replay();
    assert_eq!(
        (r.played, r.diagnostics.len()),
        (3, 0),
        "{:?}",
        r.diagnostics
    );
    assert!(r.board.is_some_and(|b| b.is_game_over()));
    let implied = format!("(;GM[Othello]BO[{bo}]B[C1]B[A3];)");
    let r = GgfGame::parse(&implied).replay();
    assert_eq!(r.played, 2);
    assert!(
        r.diagnostics[0].message.contains("did not pass"),
        "{:?}",
        r.diagnostics
    );
    let wrong = format!("(;GM[Othello]BO[{bo}]W[C1];)");
    let r = GgfGame::parse(&wrong).replay();
    assert!(
        r.diagnostics[0].message.contains("but black is to move"),
        "{:?}",
        r.diagnostics
    );
}

#[test]
fn several_games_in_one_text() {
    let text = format!("{NBOARD_DOC}\n{NBOARD_DOC}\n");
    let games = GgfGame::parse_all(&text);
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].moves.len(), 8);
}

fn arb_game() -> impl Strategy<Value = GgfGame> {
    let tag = ("(GM|PC|DT|PB|PW|RB|RE|TI|ID|ZZ)", "[^\\]]{0,12}");
    let number = proptest::option::of((-6400i32..6400).prop_map(|n| f64::from(n) / 100.0));
    let mv = prop_oneof![
        Just(OthelloMove::Pass),
        (0u8..64).prop_map(|i| OthelloMove::Play(OthelloSquare::from_index(i).expect("in range"))),
    ];
    let side = prop_oneof![Just(Side::Black), Just(Side::White)];
    let moves = proptest::collection::vec(
        (side, mv, number.clone(), number).prop_map(|(side, mv, eval, time)| GgfMove {
            side,
            mv,
            eval,
            time,
        }),
        0..20,
    );
    (proptest::collection::vec(tag, 0..6), moves).prop_map(|(tags, moves)| {
        let mut tags: Vec<(String, String)> = tags.into_iter().filter(|(k, _)| k != "GM").collect();
        tags.insert(0, ("GM".into(), "Othello".into()));
        tags.push(("BO".into(), OthelloBoard::new().to_ggf_board()));
        GgfGame {
            tags,
            start: Some(OthelloBoard::new()),
            board_unknown: None,
            moves,
            diagnostics: Vec::new(),
        }
    })
}

proptest! {
    #[test]
    fn print_then_parse_round_trips(game in arb_game()) {
        let printed = game.print();
        prop_assert_eq!(GgfGame::parse(&printed), game);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,120}") {
        let g = GgfGame::parse(&text);
        let _ = g.replay();
        let _ = g.print();
        let _ = GgfGame::parse_all(&text);
    }

    #[test]
    fn ggf_shaped_text_never_panics(text in "[(;)\\[\\]BWOTY8 *\\-/.0-9a-hA-H]{0,120}") {
        let g = GgfGame::parse(&text);
        let _ = g.replay();
        let _ = g.result();
    }
}
