//! The UCI rules of a search's life (`go`, `stop`, `ponderhit`, `bestmove` and what it answers),
//! one test per rule: each fires on a short realistic session that breaks it and stays silent
//! on its near miss.

use crate::rules_uci_support::*;

fn case(id: &str) -> Case {
    match id {
        // ----- Search lifecycle -----
        "UCI-GO-WITHOUT-POSITION" => Case::new("UCI-GO-WITHOUT-POSITION")
            .fires(t(
                "go with no position at all",
                after_ready(
                    "
                0.030 > go movetime 100
                0.130 < bestmove e2e4
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .fires(t(
                "go after ucinewgame without a new position",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.200 < bestmove e7e5
                0.300 > ucinewgame
                0.301 > isready
                0.302 < readyok
                0.400 > go movetime 100
                0.500 < bestmove e2e4
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "position before each go",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.200 < bestmove e7e5
                0.300 > ucinewgame
                0.301 > isready
                0.302 < readyok
                0.399 > position startpos
                0.400 > go movetime 100
                0.500 < bestmove e2e4
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-GO-WHILE-SEARCHING" => Case::new("UCI-GO-WHILE-SEARCHING")
            .fires(t(
                "go during go infinite",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                0.300 > go movetime 100
                0.400 > stop
                0.401 < bestmove e7e5
                0.500 < bestmove e7e5
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .fires(t(
                "a second go movetime before the first answered",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go movetime 1000
                0.200 > go movetime 1000
                1.100 < bestmove e7e5
                2.100 < bestmove c7c5
                2.200 > quit
                2.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "PolyGlot's ponder miss: stop, position, go before the stale bestmove",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                0.300 > stop
                0.301 > position startpos moves d2d4
                0.302 > go movetime 100
                0.310 < bestmove e7e5
                0.320 < info depth 1 score cp 10 nodes 20 time 9 pv d7d5
                0.402 < bestmove d7d5
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "go infinite stopped and answered, then go",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                0.300 > stop
                0.301 < bestmove e7e5
                0.400 > position startpos moves e2e4
                0.401 > go movetime 100
                0.500 < bestmove e7e5
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-POSITION-WHILE-SEARCHING" => Case::new("UCI-POSITION-WHILE-SEARCHING")
            .fires(t(
                "position during go infinite, without stop",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                0.300 > position startpos moves d2d4
                0.400 > stop
                0.401 < bestmove e7e5
                0.500 > quit
                0.550 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .fires(t(
                "position during go movetime",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go movetime 1000
                0.300 > position startpos moves d2d4
                1.100 < bestmove e7e5
                1.200 > quit
                1.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .fires(t(
                "position during go ponder, without stop or ponderhit",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go wtime 60000 btime 60000
                0.500 < bestmove e7e5 ponder g1f3
                0.600 > position startpos moves e2e4 e7e5 g1f3
                0.601 > go ponder wtime 60000 btime 59600
                0.800 < info depth 5 score cp 10 nodes 2000 time 199 pv b8c6
                1.000 > position startpos moves e2e4 e7e5 d2d4
                1.100 > stop
                1.101 < bestmove b8c6
                1.200 > quit
                1.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "stop and bestmove before the next position",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                0.300 > stop
                0.301 < bestmove e7e5
                0.400 > position startpos moves d2d4
                0.401 > go movetime 100
                0.500 < bestmove d7d5
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "ponder miss: stop, bestmove, then the real position",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go wtime 60000 btime 60000
                0.500 < bestmove e7e5 ponder g1f3
                0.600 > position startpos moves e2e4 e7e5 g1f3
                0.601 > go ponder wtime 60000 btime 59600
                0.800 < info depth 5 score cp 10 nodes 2000 time 199 pv b8c6
                1.000 > stop
                1.001 < bestmove b8c6
                1.002 > position startpos moves e2e4 e7e5 d2d4
                1.003 > go wtime 59000 btime 59600
                1.200 < bestmove e5d4
                1.300 > quit
                1.350 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-BESTMOVE-WITHOUT-GO" => Case::new("UCI-BESTMOVE-WITHOUT-GO")
            .fires(
                t(
                    "a second bestmove for one go",
                    in_game(
                        "
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.200 < bestmove e7e5
                0.201 < bestmove e7e5
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ",
                    ),
                )
                .allow(&["UCI-BESTMOVE-ILLEGAL"]),
            )
            .fires(t(
                "bestmove in reply to a stop while idle",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.200 < bestmove e7e5
                0.300 > stop
                0.301 < bestmove e7e5
                0.400 > quit
                0.450 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "a stop racing the bestmove, ignored by the engine",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.200 < bestmove e7e5
                0.201 > stop
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "stop during the search, one bestmove",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 > stop
                0.201 < bestmove e7e5
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-BESTMOVE-MISSING-AFTER-STOP" => Case::new("UCI-BESTMOVE-MISSING-AFTER-STOP")
            .fires(t(
                "bestmove 16 s after stop (cutechess allows 15 s)",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                1.000 > stop
                17.000 < bestmove e7e5
                17.100 > quit
                17.150 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .fires(t(
                "no bestmove after stop; the engine is killed at 20 s",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                1.000 > stop
                20.000 ! engine_exit signal=SIGKILL engine killed by SIGKILL (9)
            ",
                ),
            ))
            .fires(
                t(
                    "bestmove 11 s after stop under fastchess (10 s)",
                    in_game(
                        "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                1.000 > stop
                12.000 < bestmove e7e5
                12.100 > quit
                12.150 ! engine_exit code=0 engine exited with code 0
            ",
                    ),
                )
                .args(&["--profile", "fastchess"]),
            )
            .misses(t(
                "bestmove at once after stop",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                1.000 > stop
                1.050 < bestmove e7e5
                1.100 > quit
                1.150 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "bestmove 11 s after stop under cutechess (15 s)",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                1.000 > stop
                12.000 < bestmove e7e5
                12.100 > quit
                12.150 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-BESTMOVE-LATE" => Case::new("UCI-BESTMOVE-LATE")
            .fires(t(
                "go movetime 1000 answered after 1.6 s",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go movetime 1000
                0.600 < info depth 5 score cp 20 nodes 5000 time 499 pv e7e5
                1.701 < bestmove e7e5
                1.800 > quit
                1.850 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .fires(
                t(
                    "the same under the spec profile (same 500 ms margin)",
                    in_game(
                        "
                0.100 > position startpos moves e2e4
                0.101 > go movetime 1000
                0.600 < info depth 5 score cp 20 nodes 5000 time 499 pv e7e5
                1.701 < bestmove e7e5
                1.800 > quit
                1.850 ! engine_exit code=0 engine exited with code 0
            ",
                    ),
                )
                .args(&["--profile", "spec"]),
            )
            .misses(t(
                "go movetime 1000 answered after 1.4 s (within the margin)",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go movetime 1000
                0.600 < info depth 5 score cp 20 nodes 5000 time 499 pv e7e5
                1.501 < bestmove e7e5
                1.600 > quit
                1.650 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-BESTMOVE-IN-INFINITE" => Case::new("UCI-BESTMOVE-IN-INFINITE")
            .fires(t(
                "bestmove during go infinite without stop",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                0.300 < bestmove e7e5
                0.400 > quit
                0.450 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "bestmove after stop",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                0.300 > stop
                0.301 < bestmove e7e5
                0.400 > quit
                0.450 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-BESTMOVE-IN-PONDER" => {
            let ponder = |tail: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go wtime 60000 btime 60000
                    0.500 < bestmove e7e5 ponder g1f3
                    0.600 > position startpos moves e2e4 e7e5 g1f3
                    0.601 > go ponder wtime 60000 btime 59600
                    0.800 < info depth 5 score cp 10 nodes 2000 time 199 pv b8c6
                    {tail}
                    1.500 > quit
                    1.550 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-BESTMOVE-IN-PONDER")
                .fires(t(
                    "bestmove during go ponder",
                    ponder("1.000 < bestmove b8c6"),
                ))
                .misses(t(
                    "ponderhit, then bestmove",
                    ponder("1.000 > ponderhit\n1.200 < bestmove b8c6"),
                ))
                .misses(t(
                    "stop, then bestmove",
                    ponder("1.000 > stop\n1.001 < bestmove b8c6"),
                ))
        }

        "UCI-PONDER-AUTOSTART" => Case::new("UCI-PONDER-AUTOSTART")
            .fires(
                t(
                    "search info of growing depth after bestmove, no go",
                    in_game(
                        "
                0.100 > position startpos moves e2e4
                0.101 > go wtime 60000 btime 60000
                0.400 < info depth 2 score cp 15 nodes 400 time 299 pv e7e5 g1f3
                0.500 < bestmove e7e5 ponder g1f3
                0.600 < info depth 1 score cp 10 nodes 100 time 5 pv b8c6
                0.700 < info depth 2 score cp 12 nodes 500 time 100 pv b8c6 f1b5
                0.800 < info depth 3 score cp 12 nodes 900 time 200 pv b8c6 f1b5 a7a6
                1.000 > quit
                1.050 ! engine_exit code=0 engine exited with code 0
            ",
                    ),
                )
                .allow(&["UCI-INFO-AFTER-BESTMOVE"]),
            )
            .misses(t(
                "the same info once the GUI sent go ponder",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go wtime 60000 btime 60000
                0.400 < info depth 2 score cp 15 nodes 400 time 299 pv e7e5 g1f3
                0.500 < bestmove e7e5 ponder g1f3
                0.550 > position startpos moves e2e4 e7e5 g1f3
                0.551 > go ponder wtime 60000 btime 59600
                0.600 < info depth 1 score cp 10 nodes 100 time 5 pv b8c6
                0.700 < info depth 2 score cp 12 nodes 500 time 100 pv b8c6 f1b5
                0.800 < info depth 3 score cp 12 nodes 900 time 200 pv b8c6 f1b5 a7a6
                0.900 > stop
                0.901 < bestmove b8c6
                1.000 > quit
                1.050 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-PONDERHIT-WITHOUT-PONDER" => Case::new("UCI-PONDERHIT-WITHOUT-PONDER")
            .fires(t(
                "ponderhit during a normal search",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go movetime 1000
                0.300 > ponderhit
                1.100 < bestmove e7e5
                1.200 > quit
                1.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .fires(t(
                "a second ponderhit after the ponder search ended",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go wtime 60000 btime 60000
                0.500 < bestmove e7e5 ponder g1f3
                0.600 > position startpos moves e2e4 e7e5 g1f3
                0.601 > go ponder wtime 60000 btime 59600
                1.000 > ponderhit
                1.200 < bestmove b8c6
                1.300 > ponderhit
                1.400 > quit
                1.450 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "ponderhit during go ponder",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go wtime 60000 btime 60000
                0.500 < bestmove e7e5 ponder g1f3
                0.600 > position startpos moves e2e4 e7e5 g1f3
                0.601 > go ponder wtime 60000 btime 59600
                1.000 > ponderhit
                1.200 < bestmove b8c6
                1.400 > quit
                1.450 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-GO-ON-TERMINAL-POSITION" => Case::new("UCI-GO-ON-TERMINAL-POSITION")
            .fires(t(
                "go after fool's mate",
                in_game(
                    "
                0.100 > position startpos moves f2f3 e7e5 g2g4 d8h4
                0.101 > go movetime 100
                0.110 < bestmove 0000
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .fires(t(
                "go on a stalemate",
                in_game(
                    "
                0.100 > position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1
                0.101 > go movetime 100
                0.110 < bestmove (none)
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "go one move before the mate",
                in_game(
                    "
                0.100 > position startpos moves f2f3 e7e5 g2g4
                0.101 > go movetime 100
                0.200 < bestmove d8h4
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "go on a position in check with two escapes",
                in_game(
                    "
                0.100 > position fen 7k/8/5Q2/8/8/8/8/6K1 b - - 0 1
                0.101 > go movetime 100
                0.200 < bestmove h8g8
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "go on a drawn ending that is no mate or stalemate (K+B v K)",
                in_game(KB_V_K),
            ))
            // python-chess ponders on the predicted move even when it mates: the opponent has
            // not played it, the game is not over.
            .misses(t(
                "go ponder on a predicted mate",
                in_game(
                    "
                0.100 > position startpos moves f2f3 e7e5 g2g4 d8h4
                0.101 > go ponder wtime 1000 btime 1000
                0.110 < info depth 0 score mate 0
                0.200 > stop
                0.201 < bestmove (none)
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-GO-EMPTY-SEARCHMOVES" => {
            let search = |moves: &str, go: &str, best: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves {moves}
                    0.101 > {go}
                    0.200 < bestmove {best}
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            const ITALIAN: &str = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6";
            Case::new("UCI-GO-EMPTY-SEARCHMOVES")
                .fires(
                    t(
                        "searchmoves names a white move with black to move",
                        search("e2e4", "go movetime 100 searchmoves e7e5 d2d4", "e7e5"),
                    )
                    .says("d2d4"),
                )
                .fires(t(
                    "every searchmove is illegal: the restriction is empty",
                    search("e2e4", "go movetime 100 searchmoves e2e4", "e7e5"),
                ))
                .fires(t(
                    "an illegal searchmove, then the clock (the list ends at the keyword)",
                    search("e2e4", "go searchmoves e7e5 e5e4 movetime 100", "e7e5"),
                ))
                .misses(t(
                    "legal searchmoves",
                    search("e2e4", "go movetime 100 searchmoves e7e5 c7c5", "e7e5"),
                ))
                .misses(t(
                    "legal searchmoves, then the clock",
                    search("e2e4", "go searchmoves e7e5 c7c5 movetime 100", "c7c5"),
                ))
                .misses(t(
                    "castling (e1g1) among the searchmoves",
                    search(ITALIAN, "go movetime 100 searchmoves e1g1 d2d3", "e1g1"),
                ))
        }

        "UCI-STOP-WITHOUT-SEARCH" => Case::new("UCI-STOP-WITHOUT-SEARCH")
            .fires(t(
                "stop with no search ever started",
                in_game(
                    "
                0.100 > stop
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .fires(t(
                "stop after the search answered",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.200 < bestmove e7e5
                0.300 > stop
                0.400 > quit
                0.450 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "stop during go infinite",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 > stop
                0.201 < bestmove e7e5
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-STALE-BESTMOVE" => {
            // The GUI moved on to the position after 1.e4 e5 while the engine still searched
            // 1.e4; the late bestmove answers the old position.
            let late = |then: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.150 > stop
                    0.151 > position startpos moves e2e4 c7c5
                    0.300 < bestmove e7e5
                    {then}
                    0.500 > quit
                    0.550 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-STALE-BESTMOVE")
                .fires(
                    t(
                        "the GUI plays the late bestmove on the position it left",
                        late("0.400 > position startpos moves e2e4 e7e5"),
                    )
                    .says("e7e5"),
                )
                .misses(t(
                    "the GUI goes on with its own position",
                    late("0.400 > position startpos moves e2e4 c7c5 g1f3"),
                ))
        }
        "UCI-PONDERHIT-WRONG-POSITION" => {
            // The engine ponders on 2...Nc6 after 1.e4 e5 2.Nf3; ponderhit says Black played it.
            let ponder = |next: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4 e7e5 g1f3 b8c6
                    0.101 > go ponder movetime 100
                    0.200 > ponderhit
                    0.300 < bestmove f1b5 ponder a7a6
                    0.400 > {next}
                    0.500 > quit
                    0.550 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-PONDERHIT-WRONG-POSITION")
                .fires(t(
                    "after ponderhit the game goes on from 2...Nf6, not the pondered 2...Nc6",
                    ponder("position startpos moves e2e4 e7e5 g1f3 g8f6 f1c4"),
                ))
                .misses(t(
                    "the game goes on from the pondered position",
                    ponder("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"),
                ))
        }
        other => panic!("no case for {other}"),
    }
}

rule_tests! {
    uci_go_without_position => "UCI-GO-WITHOUT-POSITION",
    uci_go_while_searching => "UCI-GO-WHILE-SEARCHING",
    uci_position_while_searching => "UCI-POSITION-WHILE-SEARCHING",
    uci_bestmove_without_go => "UCI-BESTMOVE-WITHOUT-GO",
    uci_bestmove_missing_after_stop => "UCI-BESTMOVE-MISSING-AFTER-STOP",
    uci_bestmove_late => "UCI-BESTMOVE-LATE",
    uci_bestmove_in_infinite => "UCI-BESTMOVE-IN-INFINITE",
    uci_bestmove_in_ponder => "UCI-BESTMOVE-IN-PONDER",
    uci_ponder_autostart => "UCI-PONDER-AUTOSTART",
    uci_ponderhit_without_ponder => "UCI-PONDERHIT-WITHOUT-PONDER",
    uci_go_on_terminal_position => "UCI-GO-ON-TERMINAL-POSITION",
    uci_go_empty_searchmoves => "UCI-GO-EMPTY-SEARCHMOVES",
    uci_stale_bestmove => "UCI-STALE-BESTMOVE",
    uci_ponderhit_wrong_position => "UCI-PONDERHIT-WRONG-POSITION",
    uci_stop_without_search => "UCI-STOP-WITHOUT-SEARCH",
}
