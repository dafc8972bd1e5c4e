//! The UCI rules of move legality and notation (positions, FENs, best and ponder moves,
//! castling, Chess960), one test per rule: each fires on a short realistic session that breaks
//! it and stays silent on its near miss.

use crate::rules_uci_support::*;

fn case(id: &str) -> Case {
    match id {
        // ----- Move legality and notation -----
        "UCI-MOVE-FORMAT" => {
            let answer = |position: &str, bestmove: &str| {
                in_game(&format!(
                    "
                    0.100 > {position}
                    0.101 > go movetime 100
                    0.200 < {bestmove}
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-MOVE-FORMAT")
                .fires(
                    t(
                        "bestmove in upper case",
                        answer("position startpos moves e2e4", "bestmove E7E5"),
                    )
                    .side("engine")
                    .says("E7E5"),
                )
                .fires(
                    t(
                        "promotion piece in upper case",
                        answer(
                            "position fen 7k/4P3/8/8/8/8/8/4K3 w - - 0 1",
                            "bestmove e7e8Q",
                        ),
                    )
                    .side("engine"),
                )
                .fires(
                    t(
                        "ponder move in upper case",
                        answer("position startpos moves e2e4", "bestmove e7e5 ponder G1F3"),
                    )
                    .side("engine"),
                )
                .fires(
                    t(
                        "GUI sends a move in upper case",
                        "
                    0.000 ! spawned engine
                    0.001 > uci
                    0.010 < id name Engine 1.0
                    0.010 < id author A. Author
                    0.011 < uciok
                    0.020 > isready
                    0.021 < readyok
                    0.100 > position startpos moves E2E4
                    0.200 > quit
                    0.250 ! engine_exit code=0 engine exited with code 0
                ",
                    )
                    .side("gui"),
                )
                .misses(t(
                    "lower case moves",
                    answer("position startpos moves e2e4", "bestmove e7e5 ponder g1f3"),
                ))
                .misses(t(
                    "lower case promotion",
                    answer(
                        "position fen 7k/4P3/8/8/8/8/8/4K3 w - - 0 1",
                        "bestmove e7e8q",
                    ),
                ))
        }

        "UCI-BESTMOVE-NULL-FORMAT" => {
            const STALEMATE: &str = "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
            const MATED: &str = "position startpos moves f2f3 e7e5 g2g4 d8h4";
            let answer = |position: &str, best: &str| {
                in_game(&format!(
                    "
                    0.100 > {position}
                    0.101 > go movetime 100
                    0.110 < bestmove {best}
                    0.200 > quit
                    0.250 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            // The GUI's `go` on a finished game is its own fault (UCI-GO-ON-TERMINAL-POSITION).
            let terminal = ["UCI-GO-ON-TERMINAL-POSITION"];
            Case::new("UCI-BESTMOVE-NULL-FORMAT")
                .fires(t("bestmove a1a1 on a stalemate", answer(STALEMATE, "a1a1")).says("0000"))
                .fires(t("bestmove e1e1 after fool's mate", answer(MATED, "e1e1")))
                .fires(
                    t(
                        "Stockfish's bestmove (none) on a stalemate: a note",
                        answer(STALEMATE, "(none)"),
                    )
                    .severity("note"),
                )
                .misses(
                    t("bestmove 0000 on a stalemate", answer(STALEMATE, "0000")).allow(&terminal),
                )
                .misses(
                    t("bestmove 0000 after fool's mate", answer(MATED, "0000")).allow(&terminal),
                )
                .misses(
                    t(
                        "bestmove a1a1 where moves exist: an illegal move, not a null move",
                        answer("position startpos moves e2e4", "a1a1"),
                    )
                    .allow(&["UCI-BESTMOVE-ILLEGAL"]),
                )
        }

        "UCI-POSITION-ILLEGAL-MOVE" => Case::new("UCI-POSITION-ILLEGAL-MOVE")
            .fires(
                t(
                    "a pawn moving into a blocked square",
                    in_game(
                        "
                0.100 > position startpos moves e2e4 e7e5 e4e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ",
                    ),
                )
                .says("e4e5"),
            )
            .misses(t(
                "legal moves",
                in_game(
                    "
                0.100 > position startpos moves e2e4 e7e5 g1f3
                0.101 > go movetime 100
                0.200 < bestmove b8c6
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-POSITION-BAD-FEN" => {
            let fen = |fen: &str| {
                in_game(&format!(
                    "
                    0.100 > position fen {fen}
                    0.200 > quit
                    0.250 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-POSITION-BAD-FEN")
                .fires(t(
                    "a rank of nine squares",
                    fen("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
                ))
                .fires(t(
                    "side to move neither w nor b",
                    fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"),
                ))
                .fires(t(
                    "castling rights without the rooks",
                    fen("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1"),
                ))
                .misses(t(
                    "a valid FEN",
                    fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
                ))
                .misses(t(
                    "a valid endgame FEN without castling rights",
                    fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
                ))
        }

        "UCI-BESTMOVE-ILLEGAL" => {
            let answer = |bestmove: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.200 < {bestmove}
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-BESTMOVE-ILLEGAL")
                .fires(t("a pawn jumping three squares", answer("bestmove e7e4")).says("e7e4"))
                .fires(t(
                    "the null move while legal moves exist",
                    answer("bestmove 0000"),
                ))
                .misses(t("a legal move", answer("bestmove e7e5")))
                .misses(
                    t(
                        "a legal move in a drawn ending that is no mate or stalemate (K+B v K)",
                        KB_V_K,
                    )
                    // Whether a dead position is "terminal" is that rule's test, not this one's.
                    .allow(&["UCI-GO-ON-TERMINAL-POSITION"]),
                )
        }

        "UCI-PONDER-MOVE-ILLEGAL" => {
            let answer = |bestmove: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.200 < {bestmove}
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-PONDER-MOVE-ILLEGAL")
                .fires(
                    t(
                        "a knight move no knight can make",
                        answer("bestmove e7e5 ponder g1g3"),
                    )
                    .says("g1g3"),
                )
                .misses(t(
                    "a legal ponder move",
                    answer("bestmove e7e5 ponder g1f3"),
                ))
        }

        "UCI-CASTLING-NOTATION" => {
            const ITALIAN: &str = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6";
            let standard = |bestmove: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves {ITALIAN}
                    0.101 > go movetime 100
                    0.200 < {bestmove}
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            let chess960 = |bestmove: &str| {
                after_ready(&format!(
                    "
                    0.030 > setoption name UCI_Chess960 value true
                    0.031 > ucinewgame
                    0.032 > isready
                    0.033 < readyok
                    0.100 > position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves {ITALIAN}
                    0.101 > go movetime 100
                    0.200 < {bestmove}
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            let gui = |castle: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves {ITALIAN} {castle}
                    0.101 > go movetime 100
                    0.200 < bestmove d7d6
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-CASTLING-NOTATION")
                .fires(
                    t(
                        "engine castles king-takes-rook in standard chess",
                        standard("bestmove e1h1"),
                    )
                    .side("engine"),
                )
                .fires(
                    t(
                        "engine castles e1g1-style with UCI_Chess960 on",
                        chess960("bestmove e1g1"),
                    )
                    .side("engine"),
                )
                .fires(
                    t(
                        "GUI sends king-takes-rook castling in standard chess",
                        gui("e1h1"),
                    )
                    .side("gui"),
                )
                .misses(t("e1g1 in standard chess", standard("bestmove e1g1")))
                .misses(t("e1h1 with UCI_Chess960 on", chess960("bestmove e1h1")))
                .misses(t("GUI sends e1g1 in standard chess", gui("e1g1")))
        }

        "UCI-CHESS960-OPTION-NOT-SET" => {
            // The Chess960 start position BBQNNRKR: king on g1, rooks on f1 and h1.
            const SHREDDER: &str = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
            const XFEN: &str = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";
            const NO_CASTLING: &str = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w - - 0 1";
            const STANDARD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
            let game = |setoption: &str, fen: &str| {
                after_ready(&format!(
                    "
                    {setoption}
                    0.031 > ucinewgame
                    0.032 > isready
                    0.033 < readyok
                    0.100 > position fen {fen} moves e2e4
                    0.101 > go movetime 100
                    0.200 < bestmove e7e5
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            let on = "0.030 > setoption name UCI_Chess960 value true";
            let off = "0.030 > setoption name UCI_Chess960 value false";
            Case::new("UCI-CHESS960-OPTION-NOT-SET")
                .fires(t("Shredder castling rights (HFhf), option never set", game("", SHREDDER))
                    .says("UCI_Chess960"))
                .fires(t("KQkq rights with the king on g1, option never set", game("", XFEN)))
                .fires(t("Shredder castling rights, option set to false", game(off, SHREDDER)))
                .misses(t("Shredder castling rights, UCI_Chess960 set to true", game(on, SHREDDER)))
                .misses(t("KQkq rights with the king on g1, UCI_Chess960 set", game(on, XFEN)))
                .misses(t("the standard start as a FEN (KQkq, king on e1)", game("", STANDARD)))
                .misses(t("a Chess960 position without castling rights", game("", NO_CASTLING)))
                // Without Chess960 on, the board reads HFhf as no castling rights of standard
                // chess: that is UCI-POSITION-BAD-FEN's to say, not this rule's.
                .misses(t("an engine that declares no UCI_Chess960", "
                    0.000 ! spawned engine
                    0.001 > uci
                    0.010 < id name Engine 1.0
                    0.010 < id author A. Author
                    0.011 < option name Hash type spin default 16 min 1 max 1024
                    0.012 < uciok
                    0.020 > isready
                    0.021 < readyok
                    0.030 > ucinewgame
                    0.031 > isready
                    0.032 < readyok
                    0.100 > position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 moves e2e4
                    0.101 > go movetime 100
                    0.200 < bestmove e7e5
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                ").allow(&["UCI-POSITION-BAD-FEN"]))
        }
        other => panic!("no case for {other}"),
    }
}

rule_tests! {
    uci_move_format => "UCI-MOVE-FORMAT",
    uci_bestmove_null_format => "UCI-BESTMOVE-NULL-FORMAT",
    uci_position_illegal_move => "UCI-POSITION-ILLEGAL-MOVE",
    uci_position_bad_fen => "UCI-POSITION-BAD-FEN",
    uci_bestmove_illegal => "UCI-BESTMOVE-ILLEGAL",
    uci_ponder_move_illegal => "UCI-PONDER-MOVE-ILLEGAL",
    uci_castling_notation => "UCI-CASTLING-NOTATION",
    uci_chess960_option_not_set => "UCI-CHESS960-OPTION-NOT-SET",
}
