//! The UCI rules of the handshake (`uci` to `uciok`, options, registration), one test per
//! rule: each fires on a short realistic session that breaks it and stays silent on its near
//! miss.

use crate::rules_uci_support::*;

fn case(id: &str) -> Case {
    match id {
        // ----- Handshake -----
        "UCI-FIRST-COMMAND" => Case::new("UCI-FIRST-COMMAND")
            .fires(
                t(
                    "isready before uci",
                    "
                0.000 ! spawned engine
                0.001 > isready
                0.002 < readyok
                0.003 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            ",
                )
                .says("isready"),
            )
            .misses(t(
                "uci first",
                "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            ",
            ))
            .misses(t(
                "recording starts mid-session (no spawn seen): the start is not judged",
                "
                0.001 > isready
                0.002 < readyok
                0.010 > position startpos moves e2e4
                0.011 > go movetime 100
                0.110 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ",
            )),

        "UCI-UNSOLICITED-OUTPUT" => Case::new("UCI-UNSOLICITED-OUTPUT")
            .fires(t(
                "uciok before uci",
                "
                0.000 ! spawned engine
                0.001 < uciok
                0.002 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            ",
            ))
            .fires(t(
                "id name before uci",
                "
                0.000 ! spawned engine
                0.001 < id name Engine 1.0
                0.001 < id author A. Author
                0.002 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            ",
            ))
            .misses(t(
                "a banner (no protocol token) before uci",
                "
                0.000 ! spawned engine
                0.001 < Engine 1.0 by Tester
                0.002 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            ",
            )),

        "UCI-ID-MISSING" => Case::new("UCI-ID-MISSING")
            .fires(t(
                "id name but no id author before uciok",
                "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.011 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            ",
            ))
            .fires(t(
                "options and uciok without id",
                "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < option name Hash type spin default 16 min 1 max 1024
                0.011 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            ",
            ))
            .misses(t(
                "id name and author before uciok",
                "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.011 < id author Tester
                0.012 < option name Hash type spin default 16 min 1 max 1024
                0.013 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            ",
            )),

        "UCI-UCIOK-TIMEOUT" => Case::new("UCI-UCIOK-TIMEOUT")
            .fires(t(
                "uciok 36 s after uci (cutechess allows 35 s)",
                "
                0.000 ! spawned engine
                0.001 > uci
                36.000 < id name Engine 1.0
                36.000 < id author A. Author
                36.001 < uciok
                36.010 > isready
                36.011 < readyok
                36.100 > quit
                36.150 ! engine_exit code=0 engine exited with code 0
            ",
            ))
            .fires(
                t(
                    "uciok 11 s after uci under fastchess (10 s)",
                    "
                0.000 ! spawned engine
                0.001 > uci
                11.000 < id name Engine 1.0
                11.000 < id author A. Author
                11.001 < uciok
                11.010 > isready
                11.011 < readyok
                11.100 > quit
                11.150 ! engine_exit code=0 engine exited with code 0
            ",
                )
                .args(&["--profile", "fastchess"]),
            )
            .fires(t(
                "no uciok at all; the GUI kills the engine after 40 s",
                "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                40.000 ! engine_exit signal=SIGKILL engine killed by SIGKILL (9)
            ",
            ))
            .misses(t(
                "uciok 34 s after uci (cutechess)",
                "
                0.000 ! spawned engine
                0.001 > uci
                34.000 < id name Engine 1.0
                34.000 < id author A. Author
                34.001 < uciok
                34.010 > isready
                34.011 < readyok
                34.100 > quit
                34.150 ! engine_exit code=0 engine exited with code 0
            ",
            ))
            .misses(t(
                "uciok 11 s after uci under cutechess (35 s)",
                "
                0.000 ! spawned engine
                0.001 > uci
                11.000 < id name Engine 1.0
                11.000 < id author A. Author
                11.001 < uciok
                11.010 > isready
                11.011 < readyok
                11.100 > quit
                11.150 ! engine_exit code=0 engine exited with code 0
            ",
            )),

        "UCI-OPTION-AFTER-UCIOK" => Case::new("UCI-OPTION-AFTER-UCIOK")
            .fires(
                t(
                    "option after uciok",
                    "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.012 < option name Hash type spin default 16 min 1 max 1024
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            ",
                )
                .says("Hash"),
            )
            .misses(t(
                "option before uciok",
                "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < option name Hash type spin default 16 min 1 max 1024
                0.012 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            ",
            )),

        "UCI-OPTION-MALFORMED" => {
            let decl = |line: &str| {
                format!(
                    "
                    0.000 ! spawned engine
                    0.001 > uci
                    0.010 < id name Engine 1.0
                    0.010 < id author A. Author
                    0.011 < {line}
                    0.012 < uciok
                    0.020 > isready
                    0.021 < readyok
                    0.100 > quit
                    0.150 ! engine_exit code=0 engine exited with code 0
                    "
                )
            };
            Case::new("UCI-OPTION-MALFORMED")
                .fires(t("spin default above max", decl(
                    "option name Hash type spin default 2048 min 1 max 1024",
                )).says("Hash"))
                .fires(t("spin default below min", decl(
                    "option name Threads type spin default 0 min 1 max 64",
                )))
                .fires(t("combo default not among its vars", decl(
                    "option name Style type combo default Wild var Solid var Normal var Risky",
                )))
                .fires(t("unknown type", decl(
                    "option name Hash type slider default 16 min 1 max 1024",
                )))
                .fires(t("no type", decl("option name Hash default 16 min 1 max 1024")))
                .fires(t("no name", decl("option type spin default 16 min 1 max 1024")))
                .misses(t("well-formed options of all five types", "
                    0.000 ! spawned engine
                    0.001 > uci
                    0.010 < id name Engine 1.0
                    0.010 < id author A. Author
                    0.011 < option name Hash type spin default 16 min 1 max 1024
                    0.012 < option name Threads type spin default 1 min 1 max 64
                    0.013 < option name Ponder type check default false
                    0.014 < option name Style type combo default Normal var Solid var Normal var Risky
                    0.015 < option name Clear Hash type button
                    0.016 < option name SyzygyPath type string default <empty>
                    0.017 < option name Debug Log File type string default
                    0.018 < uciok
                    0.020 > isready
                    0.021 < readyok
                    0.100 > quit
                    0.150 ! engine_exit code=0 engine exited with code 0
                "))
                .misses(t("spin default on the bounds", decl(
                    "option name Hash type spin default 1024 min 1 max 1024",
                )))
        }

        "UCI-GO-BEFORE-READYOK" => Case::new("UCI-GO-BEFORE-READYOK")
            .fires(t(
                "position and go right after uciok, no isready",
                after_handshake(
                    "
                0.030 > position startpos moves e2e4
                0.031 > go movetime 100
                0.130 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .fires(t(
                "isready sent, but go before its readyok",
                after_handshake(
                    "
                0.020 > isready
                0.030 > position startpos moves e2e4
                0.031 > go movetime 100
                0.040 < readyok
                0.130 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            ))
            .misses(t(
                "isready answered before the first go",
                after_ready(
                    "
                0.030 > position startpos moves e2e4
                0.031 > go movetime 100
                0.130 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ",
                ),
            )),

        "UCI-REGISTER-MISSING" => {
            let session = |answer: &str| {
                format!(
                    "
                    0.000 ! spawned engine
                    0.001 > uci
                    0.010 < id name Engine 1.0
                    0.010 < id author A. Author
                    0.011 < uciok
                    0.012 < registration checking
                    0.013 < registration error
                    {answer}
                    0.030 > isready
                    0.031 < readyok
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.200 < bestmove e7e5
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                )
            };
            Case::new("UCI-REGISTER-MISSING")
                .fires(t(
                    "registration error never answered with register",
                    session(""),
                ))
                .misses(t("register later", session("0.020 > register later")))
                .misses(t(
                    "register name ... code ...",
                    session("0.020 > register name Stefan MK code 4359874324"),
                ))
        }

        "UCI-COPYPROTECTION-IGNORED" => Case::new("UCI-COPYPROTECTION-IGNORED")
            .fires(t(
                "the GUI starts a search after copyprotection error",
                "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.012 < copyprotection checking
                0.013 < copyprotection error
                0.020 > isready
                0.021 < readyok
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.200 < bestmove e7e5
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ",
            ))
            .misses(t(
                "the GUI quits after copyprotection error",
                "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.012 < copyprotection checking
                0.013 < copyprotection error
                0.020 > quit
                0.050 ! engine_exit code=0 engine exited with code 0
            ",
            ))
            .misses(t(
                "copyprotection ok, then a search",
                "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.012 < copyprotection checking
                0.013 < copyprotection ok
                0.020 > isready
                0.021 < readyok
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.200 < bestmove e7e5
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ",
            )),
        other => panic!("no case for {other}"),
    }
}

rule_tests! {
    uci_first_command => "UCI-FIRST-COMMAND",
    uci_unsolicited_output => "UCI-UNSOLICITED-OUTPUT",
    uci_id_missing => "UCI-ID-MISSING",
    uci_uciok_timeout => "UCI-UCIOK-TIMEOUT",
    uci_option_after_uciok => "UCI-OPTION-AFTER-UCIOK",
    uci_option_malformed => "UCI-OPTION-MALFORMED",
    uci_go_before_readyok => "UCI-GO-BEFORE-READYOK",
    uci_register_missing => "UCI-REGISTER-MISSING",
    uci_copyprotection_ignored => "UCI-COPYPROTECTION-IGNORED",
}
