//! The UCI rules of `info` lines, of termination and of syntax, one test per rule: each fires
//! on a short realistic session that breaks it and stays silent on its near miss.

use crate::rules_uci_support::*;

fn case(id: &str) -> Case {
    match id {
        // ----- Info lines -----
        "UCI-INFO-AFTER-BESTMOVE" => Case::new("UCI-INFO-AFTER-BESTMOVE")
            .fires(t("the final info after bestmove", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.150 < info depth 1 score cp 20 nodes 20 time 49 pv e7e5
                0.200 < bestmove e7e5 ponder g1f3
                0.201 < info depth 2 score cp 15 nodes 400 time 99 pv e7e5 g1f3
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("the final info before bestmove", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.150 < info depth 1 score cp 20 nodes 20 time 49 pv e7e5
                0.199 < info depth 2 score cp 15 nodes 400 time 98 pv e7e5 g1f3
                0.200 < bestmove e7e5 ponder g1f3
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("only info string after bestmove", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.150 < info depth 1 score cp 20 nodes 20 time 49 pv e7e5
                0.200 < bestmove e7e5 ponder g1f3
                0.201 < info string search finished, hash 3% full
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-INFO-PV-ILLEGAL" => {
            let pv = |pv: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.150 < info depth 2 score cp 20 nodes 200 time 49 pv {pv}
                    0.200 < bestmove e7e5
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-INFO-PV-ILLEGAL")
                .fires(t("second pv move impossible", pv("e7e5 g1g3")).says("g1g3"))
                .misses(t("a legal pv", pv("e7e5 g1f3 b8c6")))
        }

        "UCI-INFO-SCORE-UNIT" => {
            let info = |score: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.150 < info depth 5 {score} nodes 2000 time 49 pv e7e5
                    0.200 < bestmove e7e5
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-INFO-SCORE-UNIT")
                .fires(t("score without unit", info("score 35")))
                .fires(t("score in an unknown unit", info("score centipawns 35")))
                .misses(t("score cp", info("score cp 35")))
                .misses(t("score cp with a bound", info("score cp 35 upperbound")))
                .misses(t("score mate, negative", info("score mate -3")))
        }

        "UCI-INFO-SELDEPTH-WITHOUT-DEPTH" => {
            let info = |fields: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.150 < info {fields} score cp 20 nodes 2000 time 49 pv e7e5
                    0.200 < bestmove e7e5
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-INFO-SELDEPTH-WITHOUT-DEPTH")
                .fires(t("seldepth alone", info("seldepth 7")))
                .misses(t("depth and seldepth", info("depth 5 seldepth 7")))
        }

        "UCI-INFO-NONINTEGER" => {
            let info = |fields: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.150 < info {fields} pv e7e5
                    0.200 < bestmove e7e5
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-INFO-NONINTEGER")
                .fires(t("fractional time", info("depth 5 score cp 20 nodes 2000 time 12.5")))
                .fires(t("nodes with a suffix", info("depth 5 score cp 20 nodes 2k time 49")))
                .fires(t("fractional centipawns", info("depth 5 score cp 20.5 nodes 2000 time 49")))
                .fires(t("fractional nps", info("depth 5 score cp 20 nodes 2000 nps 40816.3 time 49")))
                .fires(t("fractional depth", info("depth 5.0 score cp 20 nodes 2000 time 49")))
                .misses(t("integers everywhere", info(
                    "depth 5 seldepth 7 score cp -20 nodes 2000 nps 40816 time 49",
                )))
        }

        "UCI-INFO-MULTIPV-INCOMPLETE" => {
            // MultiPV `k`, then `go depth 3` on `position` with the engine's `lines`.
            let analysis = |k: u32, position: &str, lines: &str, best: &str| {
                format!(
                    "
                    0.000 ! spawned engine
                    0.001 > uci
                    0.010 < id name Engine 1.0
                    0.010 < id author A. Author
                    0.011 < option name MultiPV type spin default 1 min 1 max 500
                    0.012 < uciok
                    0.020 > setoption name MultiPV value {k}
                    0.021 > isready
                    0.022 < readyok
                    0.030 > ucinewgame
                    0.031 > isready
                    0.032 < readyok
                    0.100 > position {position}
                    0.101 > go depth 3
                    {lines}
                    0.400 < bestmove {best}
                    0.500 > quit
                    0.550 ! engine_exit code=0 engine exited with code 0
                    "
                )
            };
            const DEPTH_1: &str = "
                0.150 < info depth 1 multipv 1 score cp 30 nodes 60 time 49 pv e7e5
                0.151 < info depth 1 multipv 2 score cp 25 nodes 60 time 50 pv c7c5
                0.152 < info depth 1 multipv 3 score cp 20 nodes 60 time 51 pv e7e6";
            const DEPTH_2: &str = "
                0.250 < info depth 2 multipv 1 score cp 20 nodes 600 time 149 pv e7e5 g1f3
                0.251 < info depth 2 multipv 2 score cp 15 nodes 600 time 150 pv c7c5 g1f3
                0.252 < info depth 2 multipv 3 score cp 10 nodes 600 time 151 pv e7e6 d2d4";
            const DEPTH_2_OF_3: &str = "
                0.250 < info depth 2 multipv 1 score cp 20 nodes 600 time 149 pv e7e5 g1f3
                0.251 < info depth 2 multipv 2 score cp 15 nodes 600 time 150 pv c7c5 g1f3";
            const DEPTH_2_REPEATS_1: &str = "
                0.250 < info depth 2 multipv 1 score cp 25 upperbound nodes 500 time 149 pv e7e5 g1f3
                0.251 < info depth 2 multipv 1 score cp 20 nodes 600 time 150 pv e7e5 g1f3
                0.252 < info depth 2 multipv 2 score cp 15 nodes 600 time 151 pv c7c5 g1f3";
            const DEPTH_3: &str = "
                0.350 < info depth 3 multipv 1 score cp 20 nodes 6000 time 249 pv e7e5 g1f3 b8c6
                0.351 < info depth 3 multipv 2 score cp 15 nodes 6000 time 250 pv c7c5 g1f3 d7d6
                0.352 < info depth 3 multipv 3 score cp 10 nodes 6000 time 251 pv e7e6 d2d4 d7d5";
            const E4: &str = "startpos moves e2e4";
            // 1.e4 f6 2.Qh5+: g6 is black's only move, so one line is all MultiPV 3 can show.
            const ONE_REPLY: &str = "
                0.150 < info depth 1 multipv 1 score cp -300 nodes 10 time 49 pv g7g6
                0.250 < info depth 2 multipv 1 score cp -300 nodes 40 time 149 pv g7g6 h5g6
                0.350 < info depth 3 multipv 1 score cp -250 nodes 90 time 249 pv g7g6 h5g6 h7g6";
            Case::new("UCI-INFO-MULTIPV-INCOMPLETE")
                .fires(t(
                    "MultiPV 3: depth 2 reports two lines, then depth 3 starts",
                    analysis(3, E4, &format!("{DEPTH_1}{DEPTH_2_OF_3}{DEPTH_3}"), "e7e5"),
                ).says("depth 2"))
                .fires(t(
                    "MultiPV 3: depth 2 sends multipv 1 twice (a re-search) and multipv 2, never 3",
                    analysis(3, E4, &format!("{DEPTH_1}{DEPTH_2_REPEATS_1}{DEPTH_3}"), "e7e5"),
                ))
                .misses(t(
                    "MultiPV 3: every depth reports its three lines",
                    analysis(3, E4, &format!("{DEPTH_1}{DEPTH_2}{DEPTH_3}"), "e7e5"),
                ))
                .misses(t(
                    "MultiPV 2: depths of two lines (the third is not asked for)",
                    analysis(2, E4, &format!("{DEPTH_1}{DEPTH_2}{DEPTH_3}")
                        .lines()
                        .filter(|l| !l.contains("multipv 3"))
                        .collect::<Vec<_>>()
                        .join("\n"), "e7e5"),
                ))
                .misses(t(
                    "MultiPV 3 on a position with one legal move: one line per depth",
                    analysis(3, "startpos moves e2e4 f7f6 d1h5", ONE_REPLY, "g7g6"),
                ))
        }

        "UCI-INFO-BESTMOVE-PV-MISMATCH" => {
            let search = |infos: &str, bestmove: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    {infos}
                    0.200 < {bestmove}
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            const ONE: &str = "0.150 < info depth 5 score cp 20 nodes 2000 time 49 pv e7e5 g1f3";
            const MULTI: &str = "0.150 < info depth 5 multipv 1 score cp 20 nodes 2000 time 49 pv e7e5 g1f3
                0.151 < info depth 5 multipv 2 score cp 10 nodes 2000 time 50 pv c7c5 g1f3";
            Case::new("UCI-INFO-BESTMOVE-PV-MISMATCH")
                .fires(t("bestmove other than the PV's first move", search(ONE, "bestmove c7c5")))
                .fires(t(
                    "bestmove is the multipv 2 line's move",
                    search(MULTI, "bestmove c7c5"),
                ))
                .misses(t("bestmove is the PV's first move", search(ONE, "bestmove e7e5")))
                .misses(t(
                    "multipv: bestmove is the multipv 1 line's move, multipv 2 printed last",
                    search(MULTI, "bestmove e7e5"),
                ))
        }

        "UCI-INFO-CURRMOVE-EARLY" => Case::new("UCI-INFO-CURRMOVE-EARLY")
            .fires(t("currmove 0.2 s into the search", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.300 < info depth 5 currmove e7e5 currmovenumber 1
                2.000 > stop
                2.001 < bestmove e7e5
                2.100 > quit
                2.150 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("currmove 1.5 s into the search", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                1.600 < info depth 12 currmove e7e5 currmovenumber 1
                2.000 > stop
                2.001 < bestmove e7e5
                2.100 > quit
                2.150 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-INFO-FLOOD" => Case::new("UCI-INFO-FLOOD")
            .fires(t("1100 info lines within 0.55 s", flood(1100, 0.55)))
            .fires(t("1500 info lines within one second", flood(1500, 0.99)))
            .misses(t("1100 info lines over 2.2 s (500 a second)", flood(1100, 2.2)))
            .misses(t("900 info lines within 0.9 s", flood(900, 0.9)))
            .misses(t(
                "four searches of 300 lines within one second (mates seen at a bullet pace)",
                mate_bursts(4, 300),
            )),

        // ----- Termination -----
        "UCI-QUIT-NO-EXIT" => {
            let quit = |exit: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.200 < bestmove e7e5
                    1.000 > quit
                    {exit}
                    "
                ))
            };
            Case::new("UCI-QUIT-NO-EXIT")
                .fires(t(
                    "exit 6 s after quit (cutechess allows 5 s)",
                    quit("7.000 ! engine_exit code=0 engine exited with code 0"),
                ))
                .fires(t(
                    "killed by the proxy after quit",
                    quit("7.000 ! killed signal=SIGKILL engine killed after quit"),
                ))
                .fires(t(
                    "exit 61 s after quit under fastchess (60 s)",
                    quit("62.000 ! engine_exit code=0 engine exited with code 0"),
                ).args(&["--profile", "fastchess"]))
                .misses(t(
                    "exit at once after quit",
                    quit("1.050 ! engine_exit code=0 engine exited with code 0"),
                ))
                .misses(t(
                    "exit 6 s after quit under fastchess (60 s)",
                    quit("7.000 ! engine_exit code=0 engine exited with code 0"),
                ).args(&["--profile", "fastchess"]))
        }

        // ----- Syntax -----
        "UCI-SYNTAX" => Case::new("UCI-SYNTAX")
            .fires(t("GUI: go with a clock keyword but no value", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go wtime 60000 btime
                0.200 < bestmove e7e5
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")).side("gui"))
            .fires(t("GUI: isready with an argument", in_game("
                0.100 > isready now
                0.101 < readyok
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")).side("gui"))
            .fires(t("engine: ponder keyword without a move", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go wtime 60000 btime 60000
                0.200 < bestmove e7e5 ponder
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")).side("engine"))
            .misses(t("a Stockfish-style info line with wdl, hashfull and tbhits", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.150 < info string NNUE evaluation using nn-small.nnue enabled
                0.160 < info depth 12 seldepth 16 multipv 1 score cp 35 wdl 85 897 18 nodes 123456 nps 1234560 hashfull 4 tbhits 0 time 59 pv e7e5 g1f3 b8c6
                0.200 < bestmove e7e5 ponder g1f3
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("the same lines well formed", in_game("
                0.099 > isready
                0.100 < readyok
                0.101 > position startpos moves e2e4
                0.102 > go wtime 60000 btime 60000
                0.200 < bestmove e7e5 ponder g1f3
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-UNKNOWN-COMMAND" => Case::new("UCI-UNKNOWN-COMMAND")
            .fires(t("GUI sends Stockfish's `eval`, which UCI does not define", in_game("
                0.100 > eval
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ")).side("gui"))
            .fires(t("engine prints plain text mid-session", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.150 < Hash table allocated
                0.200 < bestmove e7e5
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")).side("engine"))
            .misses(t("GUI sends debug on; engine uses info string", in_game("
                0.100 > debug on
                0.101 > position startpos moves e2e4
                0.102 > go movetime 100
                0.150 < info string Hash table allocated
                0.200 < bestmove e7e5
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            "))),
        other => panic!("no case for {other}"),
    }
}

rule_tests! {
    uci_info_after_bestmove => "UCI-INFO-AFTER-BESTMOVE",
    uci_info_pv_illegal => "UCI-INFO-PV-ILLEGAL",
    uci_info_score_unit => "UCI-INFO-SCORE-UNIT",
    uci_info_seldepth_without_depth => "UCI-INFO-SELDEPTH-WITHOUT-DEPTH",
    uci_info_noninteger => "UCI-INFO-NONINTEGER",
    uci_info_multipv_incomplete => "UCI-INFO-MULTIPV-INCOMPLETE",
    uci_info_bestmove_pv_mismatch => "UCI-INFO-BESTMOVE-PV-MISMATCH",
    uci_info_currmove_early => "UCI-INFO-CURRMOVE-EARLY",
    uci_info_flood => "UCI-INFO-FLOOD",
    uci_quit_no_exit => "UCI-QUIT-NO-EXIT",
    uci_syntax => "UCI-SYNTAX",
    uci_unknown_command => "UCI-UNKNOWN-COMMAND",
}
