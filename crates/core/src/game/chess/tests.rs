use super::*;
use proptest::prelude::*;

fn board(variant: ChessVariant) -> ChessBoard {
    ChessBoard::startpos(variant).expect("start")
}

fn std_board() -> ChessBoard {
    board(ChessVariant::Standard)
}

fn play_all(b: &mut ChessBoard, moves: &[&str]) {
    for m in moves {
        if let Err(e) = b.play_cecp(m) {
            panic!("{m}: {e}");
        }
    }
}

#[test]
fn uci_and_san_of_ordinary_moves() {
    let mut b = std_board();
    let p = b.play_uci("e2e4").expect("legal");
    assert_eq!((p.uci.as_str(), p.san.as_str()), ("e2e4", "e4"));
    let p = b.play_san("e5").expect("legal");
    assert_eq!(p.uci, "e7e5");
    let p = b.play_cecp("Ng1f3").expect("long SAN");
    assert_eq!(p.san, "Nf3");
    assert_eq!(b.turn(), Side::Black);
    assert_eq!(b.fullmove(), 2);
}

#[test]
fn standard_castling_both_notations() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut b = ChessBoard::from_fen(fen, ChessVariant::Standard, false).expect("fen");
    let p = b.play_uci("e1g1").expect("castle");
    assert_eq!((p.uci.as_str(), p.san.as_str()), ("e1g1", "O-O"));
    assert_eq!(p.castling, Some(CastlingNotation::KingTwoSquares));
    // King takes rook is accepted outside 960 too, but reported so the session can flag it.
    let p = b.play_uci("e8a8").expect("castle");
    assert_eq!(p.uci, "e8c8");
    assert_eq!(p.castling, Some(CastlingNotation::KingTakesRook));
    assert_eq!(b.fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
}

#[test]
fn chess960_castling_from_a_960_start() {
    // Shredder-FEN in, X-FEN out: the b- and g-rooks are the outermost, so KQkq.
    let fen = "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w GBgb - 0 1";
    let mut b = ChessBoard::from_fen(fen, ChessVariant::Chess960, true).expect("fen");
    assert!(b.is_chess960());
    assert_eq!(
        b.fen(),
        "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w KQkq - 0 1"
    );
    let p = b.play_uci("d1g1").expect("king takes rook");
    assert_eq!((p.uci.as_str(), p.san.as_str()), ("d1g1", "O-O"));
    assert_eq!(p.castling, Some(CastlingNotation::KingTakesRook));
    let p = b.play_cecp("O-O-O").expect("xboard FRC castling");
    assert_eq!(p.uci, "d8b8");
    assert_eq!(p.castling, Some(CastlingNotation::San));
    assert_eq!(b.fen(), "2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 w - - 2 2");
}

#[test]
fn chess960_mode_on_standard_array_accepts_both_forms() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    for input in ["e1g1", "e1h1"] {
        let mut b = ChessBoard::from_fen(fen, ChessVariant::Standard, true).expect("fen");
        let p = b.play_uci(input).expect("castle");
        assert_eq!(p.uci, "e1h1", "960 canonical form for {input}");
    }
}

#[test]
fn promotions_in_all_spellings() {
    let fen = "8/4P2k/8/8/8/8/8/4K3 w - - 0 1";
    for input in ["e7e8q", "e7e8Q", "e7e8=q", "e8=Q", "e8Q", "e8q+"] {
        let mut b = ChessBoard::from_fen(fen, ChessVariant::Standard, false).expect("fen");
        let p = b
            .play_cecp(input)
            .unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(
            (p.uci.as_str(), p.san.as_str()),
            ("e7e8q", "e8=Q"),
            "{input}"
        );
    }
    let mut b = ChessBoard::from_fen(fen, ChessVariant::Standard, false).expect("fen");
    let p = b.play_uci("e7e8n").expect("underpromotion");
    assert_eq!(p.san, "e8=N");
}

#[test]
fn crazyhouse_drops_and_pockets() {
    let mut b = board(ChessVariant::Crazyhouse);
    play_all(&mut b, &["e2e4", "d7d5", "e4d5", "d8d5"]);
    assert_eq!(
        b.fen(),
        "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3"
    );
    let p = b.play_uci("P@e4").expect("drop");
    assert_eq!((p.uci.as_str(), p.san.as_str()), ("P@e4", "P@e4"));
    let err = b.play_san("N@f3").expect_err("no knight in black's pocket");
    assert_eq!(err.reason, IllegalReason::BadDrop("knight".into()));
    let p = b.play_san("P@e6").expect("san drop");
    assert_eq!(p.uci, "P@e6");
    // Pockets from a FEN, bughouse holdings replaced wholesale.
    let mut bh = ChessBoard::from_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qn] w KQkq - 0 1",
        ChessVariant::Bughouse,
        false,
    )
    .expect("fen with pockets");
    bh.set_holdings("[PPR]", "[]").expect("holding");
    assert!(
        bh.fen().contains("[RPP]") || bh.fen().contains("[PPR]"),
        "{}",
        bh.fen()
    );
    assert!(bh.set_holdings("[X]", "").is_err());
}

#[test]
fn drops_outside_crazyhouse_are_refused() {
    let mut b = std_board();
    let err = b.play_uci("P@e4").expect_err("no drops in chess");
    assert_eq!(err.reason, IllegalReason::DropNotInVariant);
}

#[test]
fn atomic_capture_explodes() {
    let fen = "4k3/8/8/3p4/2p5/2N5/8/4K3 w - - 0 1";
    let mut b = ChessBoard::from_fen(fen, ChessVariant::Atomic, false).expect("fen");
    let p = b.play_uci("c3d5").expect("capture");
    assert_eq!(p.san, "Nxd5");
    // Knight and captured pawn vanish; the neighbouring pawn on c4 is not adjacent to d5's
    // 3x3 ring... c4 is adjacent, but pawns survive explosions.
    assert_eq!(b.fen(), "4k3/8/8/8/2p5/8/8/4K3 b - - 0 1");
}

#[test]
fn atomic_king_explosion_ends_the_game() {
    let fen = "4k3/4q3/8/8/8/8/4R3/4K3 w - - 0 1";
    let mut b = ChessBoard::from_fen(fen, ChessVariant::Atomic, false).expect("fen");
    b.play_uci("e2e7").expect("capture next to the king");
    let end = b.outcome().expect("over");
    assert_eq!(end.reason, EndReason::VariantEnd);
    assert_eq!(end.winner, Some(Side::White));
}

#[test]
fn three_check_counters_in_fen() {
    let mut b = board(ChessVariant::ThreeCheck);
    assert!(b.fen().contains(" 3+3 "), "{}", b.fen());
    play_all(&mut b, &["e2e4", "e7e5", "f1c4", "d7d6", "c4f7"]);
    assert!(b.fen().contains(" 2+3 "), "{}", b.fen());
    let b2 = ChessBoard::from_fen(&b.fen(), ChessVariant::ThreeCheck, false).expect("round trip");
    assert_eq!(b2.fen(), b.fen());
}

#[test]
fn illegal_moves_say_why() {
    let mut b = std_board();
    let reason = |b: &mut ChessBoard, m: &str| b.play_cecp(m).expect_err(m).reason;
    assert_eq!(reason(&mut b, "e3e4"), IllegalReason::NoPiece("e3".into()));
    assert_eq!(
        reason(&mut b, "e7e5"),
        IllegalReason::WrongColour {
            square: "e7".into(),
            owner: "black".into(),
            turn: "white".into()
        }
    );
    assert_eq!(
        reason(&mut b, "e2e5"),
        IllegalReason::NotLegal { in_check: false }
    );
    assert_eq!(reason(&mut b, "hello"), IllegalReason::Syntax);
    assert_eq!(
        reason(&mut b, "Nd2"),
        IllegalReason::NotLegal { in_check: false }
    );
    assert!(matches!(
        reason(&mut b, "c4d5,d5e4"),
        IllegalReason::NotModelled(_)
    ));
    // Nothing was played by the failures.
    assert_eq!(b.fen(), std_board().fen());
    let err = b.play_uci("e2e5").expect_err("illegal");
    assert_eq!(err.to_string(), "illegal move \"e2e5\": not a legal move");
}

#[test]
fn ambiguous_san_is_reported() {
    let fen = "4k3/8/8/8/8/8/8/N3K1N1 w - - 0 1";
    let mut b = ChessBoard::from_fen(fen, ChessVariant::Standard, false).expect("fen");
    assert!(b.play_san("Nc2").is_ok());
    let mut b = ChessBoard::from_fen(
        "4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1",
        ChessVariant::Standard,
        false,
    )
    .expect("fen");
    assert_eq!(
        b.play_san("Nd2").expect_err("two knights").reason,
        IllegalReason::Ambiguous("Nd2".into())
    );
}

#[test]
fn in_check_and_game_over_reasons() {
    let mut b = std_board();
    play_all(&mut b, &["f2f3", "e7e5", "g2g4"]);
    let p = b.play_san("Qh4#").expect("mate");
    assert_eq!(p.san, "Qh4#");
    let end = b.outcome().expect("mate");
    assert_eq!(
        end,
        GameEnd {
            winner: Some(Side::Black),
            reason: EndReason::Checkmate
        }
    );
    assert!(matches!(
        b.play_uci("e2e4").expect_err("over").reason,
        IllegalReason::GameOver(_)
    ));
    let mut c = ChessBoard::from_fen(
        "4k3/8/8/8/8/8/4r3/K7 w - - 0 1",
        ChessVariant::Standard,
        false,
    )
    .expect("fen");
    c.play_uci("a1b1").expect("legal");
    c.play_uci("e2b2").expect("check");
    assert_eq!(c.play_uci("b1b2").map(|p| p.san), Ok("Kxb2".to_string()));
    let mut d = ChessBoard::from_fen(
        "4k3/8/8/8/8/8/1r6/K7 w - - 0 1",
        ChessVariant::Standard,
        false,
    )
    .expect("fen");
    assert_eq!(
        d.play_uci("a1a2").expect_err("still attacked").reason,
        IllegalReason::NotLegal { in_check: false }
    );
    assert_eq!(
        ChessBoard::from_fen(
            "k7/8/1Q6/8/8/8/8/K7 b - - 0 1",
            ChessVariant::Standard,
            false
        )
        .expect("fen")
        .outcome()
        .map(|e| e.reason),
        Some(EndReason::Stalemate)
    );
    assert_eq!(
        ChessBoard::from_fen(
            "k7/8/8/8/8/8/8/K6B b - - 0 1",
            ChessVariant::Standard,
            false
        )
        .expect("fen")
        .outcome()
        .map(|e| e.reason),
        Some(EndReason::InsufficientMaterial)
    );
}

#[test]
fn pv_legality_reports_index() {
    let b = std_board();
    assert_eq!(b.check_line(["e2e4", "e7e5", "g1f3", "b8c6"]), Ok(4));
    let err = b
        .check_line(["e2e4", "e7e5", "g1f3", "e5e4", "f1c4"])
        .expect_err("e5e4 is blocked");
    assert_eq!(err.0, 3);
    assert_eq!(err.1.text, "e5e4");
    let err = b.check_line(["e2e4", "junk"]).expect_err("syntax");
    assert_eq!((err.0, err.1.reason), (1, IllegalReason::Syntax));
    assert_eq!(b.check_line(std::iter::empty()), Ok(0));
    // The board itself did not move.
    assert_eq!(b.fen(), std_board().fen());
}

#[test]
fn cecp_pv_with_move_numbers() {
    let b = std_board();
    assert_eq!(
        b.check_line_cecp("1. e4 e5 2. Nf3 Nc6 3.Bb5".split_whitespace()),
        Ok(5)
    );
    let err = b
        .check_line_cecp("1. e4 e5 2. Ke3".split_whitespace())
        .expect_err("king cannot go to e3 yet");
    assert_eq!((err.0, err.1.text.as_str()), (2, "Ke3"));
    let mut black = std_board();
    black.play_uci("d2d4").expect("legal");
    assert_eq!(
        black.check_line_cecp("1... d5 2. c4".split_whitespace()),
        Ok(2)
    );
    let castle = ChessBoard::from_fen(
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        ChessVariant::Standard,
        false,
    )
    .expect("fen");
    assert_eq!(castle.check_line_cecp(["1.", "0-0", "Kd7"]), Ok(2));
    // Free text ends the moves; a move-shaped token that cannot be played does not.
    assert_eq!(
        b.check_line_cecp("e4 e5 (book) Ke3".split_whitespace()),
        Ok(2)
    );
    assert_eq!(
        b.check_line_cecp("multipv 1 score 30".split_whitespace()),
        Ok(0)
    );
    assert_eq!(
        b.check_line_cecp("e4 Ke3 hello".split_whitespace())
            .map_err(|e| e.0),
        Err(1)
    );
}

#[test]
fn shredder_fen_in_standard_chess() {
    let b = ChessBoard::from_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
        ChessVariant::Standard,
        false,
    )
    .expect("Shredder-FEN");
    assert_eq!(b.fen(), std_board().fen());
}

#[test]
fn null_moves() {
    let mut b = std_board();
    let p = b.play_cecp("@@@@").expect("null");
    assert_eq!((p.uci.as_str(), p.san.as_str()), ("0000", "--"));
    assert_eq!(b.turn(), Side::Black);
    b.play_uci("0000").expect("null");
    assert_eq!(b.fullmove(), 2);
    let mut c = ChessBoard::from_fen(
        "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",
        ChessVariant::Standard,
        false,
    )
    .expect("fen");
    assert_eq!(
        c.play_uci("0000").expect_err("in check").reason,
        IllegalReason::NullInCheck
    );
    assert_eq!(b.check_line(["0000", "e7e5"]), Ok(2));
}

#[test]
fn losers_must_capture_and_bare_king_wins() {
    let fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
    let mut b = ChessBoard::from_fen(fen, ChessVariant::Losers, false).expect("fen");
    assert_eq!(
        b.play_uci("e1d1").expect_err("capture available").reason,
        IllegalReason::MustCapture
    );
    assert_eq!(b.legal_moves_uci(), ["e4d5"]);
    assert_eq!(
        b.check_line(["e1d2"]).expect_err("pv too").1.reason,
        IllegalReason::MustCapture
    );
    b.play_uci("e4d5").expect("capture");
    let end = b.outcome().expect("black has only the king");
    assert_eq!(end.winner, Some(Side::Black));
    assert_eq!(end.reason, EndReason::BareKing);
}

#[test]
fn giveaway_castles_as_fairy_stockfish_plays_it() {
    // The start position keeps every right; a KQkq FEN is valid.
    let fen = "rnbqk2r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQK2R w KQkq - 4 4";
    let mut b = ChessBoard::from_fen(fen, ChessVariant::Giveaway, false).expect("fen");
    let played = b.play_uci("e1g1").expect("white castles");
    assert_eq!(played.san, "O-O");
    assert_eq!(
        b.fen(),
        "rnbqk2r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQ1RK1 b kq - 5 4"
    );
    let played = b.play_san("O-O").expect("black castles");
    assert_eq!(played.uci, "e8g8");
    // A right once used or lost is gone; and a capture, when available, comes first.
    let mut b = ChessBoard::startpos(ChessVariant::Giveaway).expect("start");
    for m in ["g1f3", "g8f6", "e2e3", "e7e6", "f1e2", "f8e7"] {
        b.play_uci(m).expect(m);
    }
    let mut moved = b.clone();
    moved.play_uci("h1g1").expect("rook");
    moved.play_uci("h8g8").expect("rook");
    moved.play_uci("g1h1").expect("rook back");
    moved.play_uci("g8h8").expect("rook back");
    assert!(moved.play_uci("e1g1").is_err(), "the h1 rook has moved");
    b.play_uci("e1g1").expect("castling with the rights");
    let capture = "4k3/8/8/8/8/8/p7/R3K2R w KQ - 0 1";
    let mut c = ChessBoard::from_fen(capture, ChessVariant::Giveaway, false).expect("fen");
    assert_eq!(
        c.play_uci("e1g1").expect_err("must capture").reason,
        IllegalReason::MustCapture
    );
    // Antichess (Lichess) has no castling at all.
    assert!(ChessBoard::from_fen(fen, ChessVariant::Antichess, false).is_err());
}

#[test]
fn other_variants_and_unsupported() {
    assert!(board(ChessVariant::KingOfTheHill).play_uci("e2e4").is_ok());
    assert!(
        board(ChessVariant::RacingKings)
            .fen()
            .starts_with("8/8/8/8/8/8/krbnNBRK")
    );
    assert!(board(ChessVariant::Horde).play_uci("e4e5").is_ok());
    assert!(board(ChessVariant::Antichess).play_uci("e2e4").is_ok());
    assert_eq!(
        board(ChessVariant::NoCastle).fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    );
    assert_eq!(
        ChessBoard::startpos(ChessVariant::from_cecp("xiangqi")),
        Err(BoardError::UnsupportedVariant("xiangqi".into()))
    );
    assert!(matches!(
        ChessBoard::from_fen("not a fen", ChessVariant::Standard, false),
        Err(BoardError::BadFen(_))
    ));
}

#[test]
fn lenient_fen_drops_bad_castling() {
    let fen = "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1";
    assert!(ChessBoard::from_fen(fen, ChessVariant::Standard, false).is_err());
    let (b, warnings) =
        ChessBoard::from_fen_lenient(fen, ChessVariant::Standard, false).expect("lenient");
    assert_eq!(b.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(warnings.len(), 1);
}

#[test]
fn threefold_and_fifty_move_claims() {
    let mut b = std_board();
    assert_eq!(b.repetitions(), 1);
    play_all(
        &mut b,
        &[
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
        ],
    );
    assert_eq!(b.repetitions(), 3);
    assert!(b.threefold_claimable());
    let c = ChessBoard::from_fen(
        "4k3/8/8/8/8/8/8/4K2R w - - 100 80",
        ChessVariant::Standard,
        false,
    )
    .expect("fen");
    assert!(c.fifty_move_claimable());
    assert!(!b.fifty_move_claimable());
}

#[test]
fn draw_claims_now_and_with_the_next_move() {
    let fen_board =
        |fen: &str| ChessBoard::from_fen(fen, ChessVariant::Standard, false).expect("fen");
    let mut b = std_board();
    assert_eq!(b.draw_claim(), None);
    // Twice the start position, then Nf3 Nf6 Ng1 (this position's second time): Black's Ng8
    // would make the start position's third, so Black may claim by writing that move.
    play_all(
        &mut b,
        &["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"],
    );
    assert_eq!(b.repetitions(), 2);
    assert_eq!(b.draw_claim(), Some(DrawClaim::Threefold));
    play_all(&mut b, &["f6g8"]);
    assert_eq!(b.draw_claim(), Some(DrawClaim::Threefold));
    // An irreversible move starts the count again.
    play_all(&mut b, &["e2e4"]);
    assert_eq!(b.draw_claim(), None);
    // Fifty moves: done, one move short (any quiet move completes them), or not near.
    assert_eq!(
        fen_board("4k3/8/8/8/8/8/8/4K2R w - - 100 80").draw_claim(),
        Some(DrawClaim::FiftyMoves)
    );
    assert_eq!(
        fen_board("4k3/8/8/8/8/8/8/4K2R w - - 99 80").draw_claim(),
        Some(DrawClaim::FiftyMoves)
    );
    assert_eq!(
        fen_board("4k3/8/8/8/8/8/8/4K2R w - - 90 80").draw_claim(),
        None
    );
    // A pawn move or capture cannot complete them: here the king is boxed in and only the
    // pawns can move.
    assert_eq!(
        fen_board("k7/8/8/8/8/3b4/PP6/K7 w - - 99 80").draw_claim(),
        None
    );
    // A finished game has no claim: mate with a full fifty-move count.
    assert_eq!(
        fen_board("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80").draw_claim(),
        None
    );
}

#[test]
fn uci_position_from_scratch() {
    let (b, played) = ChessBoard::from_uci_position(
        None,
        &["e2e4", "c7c5", "g1f3"],
        ChessVariant::Standard,
        false,
    )
    .expect("legal");
    assert_eq!(played.len(), 3);
    assert_eq!(b.turn(), Side::Black);
    let err = ChessBoard::from_uci_position(None, &["e2e4", "e2e4"], ChessVariant::Standard, false)
        .expect_err("illegal");
    assert!(matches!(err, UciPositionError::Move { index: 1, .. }));
    assert!(matches!(
        ChessBoard::from_uci_position(Some("x"), &[], ChessVariant::Standard, false),
        Err(UciPositionError::Start(_))
    ));
}

fn boards() -> Vec<ChessBoard> {
    vec![
        std_board(),
        board(ChessVariant::Crazyhouse),
        board(ChessVariant::Losers),
        board(ChessVariant::Giveaway),
        board(ChessVariant::Atomic),
        ChessBoard::from_fen(
            "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w GBgb - 0 1",
            ChessVariant::Chess960,
            true,
        )
        .expect("960"),
    ]
}

proptest! {
    #[test]
    fn random_move_text_never_panics(texts in proptest::collection::vec("[a-hA-Z0-9@=+#,xO\\-]{0,7}", 1..6)) {
        for mut b in boards() {
            let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
            let _ = b.check_line(refs.iter().copied());
            for t in &texts {
                let _ = b.play_uci(t);
                let _ = b.play_san(t);
                let _ = b.play_cecp(t);
            }
            let _ = b.fen();
            let _ = b.outcome();
        }
    }

    #[test]
    fn random_fen_text_never_panics(fen in "[rnbqkpRNBQKP1-8/ wb\\-KQkqa-h0-9\\[\\]+]{0,60}") {
        for v in [ChessVariant::Standard, ChessVariant::Crazyhouse, ChessVariant::ThreeCheck] {
            if let Ok((b, _)) = ChessBoard::from_fen_lenient(&fen, v.clone(), false) {
                let _ = b.fen();
                let _ = b.outcome();
            }
            let _ = ChessBoard::from_fen(&fen, v, true);
        }
    }
}

/// Our SAN with suffix against shakmaty's, for every legal move of `pos`.
fn san_agrees(pos: &VariantPosition) -> Result<(), TestCaseError> {
    for m in pos.legal_moves() {
        let mut ours = pos.clone();
        let mut theirs = pos.clone();
        let a = super::san_and_play(&mut ours, m);
        let b = SanPlus::from_move_and_play_unchecked(&mut theirs, m);
        prop_assert_eq!(a, b, "{}", Fen::from_position(pos, EnPassantMode::Legal));
        prop_assert_eq!(ours.board(), theirs.board());
    }
    Ok(())
}

#[test]
fn san_suffix_matches_shakmaty_at_mates_and_checks() {
    for (fen, variant) in [
        // Fool's mate pending (Qh4#), a check that is no mate, a mate by a promotion.
        (
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
            ChessVariant::Standard,
        ),
        ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", ChessVariant::Standard),
        ("7k/4P1pp/8/8/8/8/8/K7 w - - 0 1", ChessVariant::Standard),
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", ChessVariant::Standard),
        // Variants keep shakmaty's own judgement (a third check, an exploded king).
        (
            "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 +2+0",
            ChessVariant::ThreeCheck,
        ),
        (
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
            ChessVariant::Atomic,
        ),
    ] {
        let b = ChessBoard::from_fen(fen, variant, false).expect(fen);
        san_agrees(b.position())
            .map_err(|e| format!("{fen}: {e}"))
            .expect("agrees");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn san_suffix_matches_shakmaty_along_random_games(
        picks in proptest::collection::vec(0..512usize, 0..120),
        which in 0..6usize,
    ) {
        let mut pos = boards().swap_remove(which).position().clone();
        for pick in picks {
            san_agrees(&pos)?;
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos.play_unchecked(legal[pick % legal.len()]);
        }
    }
}
