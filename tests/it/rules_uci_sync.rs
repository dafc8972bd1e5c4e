//! The UCI rules of synchronisation (`isready`, `ucinewgame`, `setoption`), one test per rule:
//! each fires on a short realistic session that breaks it and stays silent on its near miss.

use crate::rules_uci_support::*;

fn case(id: &str) -> Case {
    match id {
        // ----- Sync -----
        "UCI-ISREADY-TIMEOUT" => Case::new("UCI-ISREADY-TIMEOUT")
            .fires(t(
                "readyok 16 s after isready (cutechess allows 15 s)",
                in_game(
                    "
                1.000 > isready
                17.000 < readyok
                17.100 > quit
                17.150 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .fires(
                t(
                    "readyok 61 s after isready under fastchess (60 s)",
                    in_game(
                        "
                1.000 > isready
                62.000 < readyok
                62.100 > quit
                62.150 ! engine_exit code=0 engine exited with code 0
            ",
                    ),
                )
                .args(&["--profile", "fastchess"]),
            )
            .fires(t(
                "no readyok; the engine is killed at 20 s",
                in_game(
                    "
                1.000 > isready
                20.000 ! engine_exit signal=SIGKILL engine killed by SIGKILL (9)
            ",
                ),
            ))
            .fires(t(
                "no readyok for 19 s; then the GUI gives up with quit",
                in_game(
                    "
                1.000 > isready
                20.000 > quit
                20.050 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "readyok 13 s after isready (cutechess)",
                in_game(
                    "
                1.000 > isready
                14.000 < readyok
                14.100 > quit
                14.150 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(
                t(
                    "readyok 19 s after isready under fastchess (60 s)",
                    in_game(
                        "
                1.000 > isready
                20.000 < readyok
                20.100 > quit
                20.150 ! engine_exit code=0 engine exited with code 0
            ",
                    ),
                )
                .args(&["--profile", "fastchess"]),
            ),

        "UCI-READYOK-DELAYED-BY-SEARCH" => Case::new("UCI-READYOK-DELAYED-BY-SEARCH")
            .fires(t(
                "isready during go movetime answered after bestmove",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go movetime 2000
                0.500 > isready
                0.600 < info depth 5 score cp 20 nodes 5000 time 499 pv e7e5
                2.050 < bestmove e7e5
                2.051 < readyok
                2.100 > quit
                2.150 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .fires(t(
                "isready during go infinite; the search ends on its own 1.5 s later, then readyok",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.300 < info depth 3 score cp 20 nodes 3000 time 199 pv e7e5
                0.500 > isready
                2.000 < bestmove e7e5
                2.001 < readyok
                2.100 > quit
                2.150 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "isready after stop, answered after the bestmove (in order)",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.600 < info depth 5 score cp 20 nodes 5000 time 499 pv e7e5
                1.000 > stop
                1.001 > isready
                1.002 < bestmove e7e5
                1.003 < readyok
                1.100 > quit
                1.150 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "isready during the search answered at once",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go movetime 2000
                0.500 > isready
                0.501 < readyok
                0.600 < info depth 5 score cp 20 nodes 5000 time 499 pv e7e5
                2.050 < bestmove e7e5
                2.100 > quit
                2.150 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-ISREADY-STOPS-SEARCH" => Case::new("UCI-ISREADY-STOPS-SEARCH")
            .fires(t(
                "isready during go infinite answered by bestmove, then readyok",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.300 < info depth 3 score cp 20 nodes 3000 time 199 pv e7e5
                0.500 > isready
                0.501 < bestmove e7e5
                0.502 < readyok
                1.000 > quit
                1.050 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "isready during go infinite answered while the search goes on",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.300 < info depth 3 score cp 20 nodes 3000 time 199 pv e7e5
                0.500 > isready
                0.501 < readyok
                0.700 < info depth 4 score cp 22 nodes 6000 time 599 pv e7e5 g1f3
                1.000 > stop
                1.001 < bestmove e7e5
                1.100 > quit
                1.150 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-READYOK-UNSOLICITED" => Case::new("UCI-READYOK-UNSOLICITED")
            .fires(t(
                "two readyok for one isready",
                in_game(
                    "
                0.100 > isready
                0.101 < readyok
                0.102 < readyok
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "two isready, two readyok",
                in_game(
                    "
                0.100 > isready
                0.101 > isready
                0.102 < readyok
                0.103 < readyok
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-UCINEWGAME-NO-ISREADY" => Case::new("UCI-UCINEWGAME-NO-ISREADY")
            .fires(t(
                "ucinewgame, position, go",
                after_ready(
                    "
                0.030 > ucinewgame
                0.040 > position startpos moves e2e4
                0.041 > go movetime 100
                0.140 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "ucinewgame, isready, readyok, position, go",
                after_ready(
                    "
                0.030 > ucinewgame
                0.031 > isready
                0.032 < readyok
                0.040 > position startpos moves e2e4
                0.041 > go movetime 100
                0.140 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-SETOPTION-WHILE-SEARCHING" => Case::new("UCI-SETOPTION-WHILE-SEARCHING")
            .fires(
                t(
                    "setoption during go infinite",
                    in_game(
                        "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.300 < info depth 3 score cp 20 nodes 3000 time 199 pv e7e5
                0.400 > setoption name Ponder value true
                0.500 > stop
                0.501 < bestmove e7e5
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            ",
                    ),
                )
                .says("Ponder"),
            )
            .fires(t(
                "setoption after stop, before bestmove",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.300 < info depth 3 score cp 20 nodes 3000 time 199 pv e7e5
                0.500 > stop
                0.501 > setoption name Ponder value true
                0.502 < bestmove e7e5
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "setoption once bestmove came",
                in_game(
                    "
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.300 < info depth 3 score cp 20 nodes 3000 time 199 pv e7e5
                0.500 > stop
                0.501 < bestmove e7e5
                0.502 > setoption name Ponder value true
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-SETOPTION-UNKNOWN" => {
            let set = |line: &str| {
                after_ready(&format!(
                    "
                    0.030 > {line}
                    0.031 > isready
                    0.032 < readyok
                    0.100 > quit
                    0.150 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-SETOPTION-UNKNOWN")
                .fires(
                    t(
                        "an option the engine never declared",
                        set("setoption name Contempt value 10"),
                    )
                    .says("Contempt"),
                )
                .fires(t(
                    "spin value above max",
                    set("setoption name Hash value 4096"),
                ))
                .fires(t(
                    "check value not true/false",
                    set("setoption name Ponder value yes"),
                ))
                .fires(t(
                    "combo value not among its vars",
                    set("setoption name Style value Wild"),
                ))
                .misses(t(
                    "declared option, other case",
                    set("setoption name hash value 64"),
                ))
                .misses(t(
                    "spin value on max",
                    set("setoption name Hash value 1024"),
                ))
                .misses(t(
                    "combo value, other case",
                    set("setoption name Style value risky"),
                ))
                .misses(t("button without value", set("setoption name Clear Hash")))
                .misses(t(
                    "string with spaces",
                    set("setoption name SyzygyPath value /tb/3-4-5 men"),
                ))
        }

        "UCI-SETOPTION-NO-ISREADY" => Case::new("UCI-SETOPTION-NO-ISREADY")
            .fires(
                t(
                    "setoption Hash, then go",
                    after_ready(
                        "
                0.030 > setoption name Hash value 256
                0.040 > position startpos moves e2e4
                0.041 > go movetime 100
                0.140 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ",
                    ),
                )
                .says("Hash"),
            )
            .fires(t(
                "setoption SyzygyPath, then go",
                after_ready(
                    "
                0.030 > setoption name SyzygyPath value /tb
                0.040 > position startpos moves e2e4
                0.041 > go movetime 100
                0.140 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "setoption Hash, isready, readyok, then go",
                after_ready(
                    "
                0.030 > setoption name Hash value 256
                0.031 > isready
                0.032 < readyok
                0.040 > position startpos moves e2e4
                0.041 > go movetime 100
                0.140 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "a quick option (Ponder) straight before go",
                after_ready(
                    "
                0.030 > setoption name Ponder value false
                0.040 > position startpos moves e2e4
                0.041 > go movetime 100
                0.140 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),
        other => panic!("no case for {other}"),
    }
}

rule_tests! {
    uci_isready_timeout => "UCI-ISREADY-TIMEOUT",
    uci_readyok_delayed_by_search => "UCI-READYOK-DELAYED-BY-SEARCH",
    uci_isready_stops_search => "UCI-ISREADY-STOPS-SEARCH",
    uci_readyok_unsolicited => "UCI-READYOK-UNSOLICITED",
    uci_ucinewgame_no_isready => "UCI-UCINEWGAME-NO-ISREADY",
    uci_setoption_while_searching => "UCI-SETOPTION-WHILE-SEARCHING",
    uci_setoption_unknown => "UCI-SETOPTION-UNKNOWN",
    uci_setoption_no_isready => "UCI-SETOPTION-NO-ISREADY",
}
