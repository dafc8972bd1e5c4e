//! The NBoard rules: each fires on a short realistic session that breaks it, with the side and
//! severity of the catalogue, and stays silent on its near miss.

use crate::rules_cecp_nboard_x_support::*;

// ---------------------------------------------------------------------------------------------
// NBoard
// ---------------------------------------------------------------------------------------------

#[test]
fn nboard_rules() {
    run_table(&nboard_cases());
}

pub(crate) fn nboard_cases() -> Vec<Case> {
    let go = |answer: &str| nb(&format!("0.010 > go\n0.500 < {answer}"));
    let quit = "30.000 > quit\n30.100 ! engine_exit code=0 engine exited with code 0";
    vec![
        case("NBOARD-FIRST-COMMAND", "set depth before nboard")
            .fires(format!(
                "0.000 ! spawned edax
                 0.001 > set depth 6
                 0.002 > nboard 2
                 0.003 > set game {GGF_START}"
            ))
            .near(nb("")),
        case("NBOARD-GO-WITHOUT-SETUP", "go without set depth")
            .fires(format!(
                "0.000 ! spawned edax
                 0.001 > nboard 2
                 0.003 > set game {GGF_START}
                 0.010 > go
                 0.500 < === F5"
            ))
            .near(go("=== F5")),
        case("NBOARD-GO-WITHOUT-SETUP", "hint without set game").fires(
            "0.000 ! spawned edax
             0.001 > nboard 2
             0.002 > set depth 6
             0.010 > hint 1",
        ),
        case("NBOARD-MOVE-FORMAT", "eval is no number")
            .fires(go("=== F5/x"))
            .near(go("=== F5/0.50/1.2")),
        case("NBOARD-MOVE-ILLEGAL", "=== A1 at the start")
            .fires(go("=== A1/0.5"))
            .near(go("=== F5/0.5")),
        case("NBOARD-GUI-MOVE-ILLEGAL", "move A1 at the start")
            .fires(nb("0.010 > move A1"))
            .near(nb("0.010 > move F5")),
        case("NBOARD-GUI-MOVE-ILLEGAL", "set game with an illegal move").fires(
            "0.000 ! spawned edax
             0.001 > nboard 2
             0.002 > set depth 6
             0.003 > set game (;GM[Othello]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[A1];)",
        ),
        case("NBOARD-SET-GAME-SYNTAX", "GGF not closed")
            .fires(
                "0.000 ! spawned edax
                 0.001 > nboard 2
                 0.002 > set depth 6
                 0.003 > set game (;GM[Othello]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]",
            )
            .near(
                "0.000 ! spawned edax
                 0.001 > nboard 2
                 0.002 > set depth 6
                 0.003 > set game (;GM[Othello]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)",
            ),
        case("NBOARD-GO-AFTER-GAME-END", "go on a finished game, engine passes")
            .fires(format!(
                "0.000 ! spawned edax
                 0.001 > nboard 2
                 0.002 > set depth 6
                 0.003 > set game {GGF_OVER}
                 0.010 > go
                 0.500 < === PA"
            ))
            .near(go("=== F5")),
        case("NBOARD-GO-AFTER-GAME-END", "go on a finished game, no answer").fires(format!(
            "0.000 ! spawned edax
             0.001 > nboard 2
             0.002 > set depth 6
             0.003 > set game {GGF_OVER}
             0.010 > go
             2.000 > quit
             2.100 ! engine_exit code=0 engine exited with code 0"
        )),
        case("NBOARD-VERSION", "Edax refuses nboard 2 on stderr")
            .fires(
                "0.000 ! spawned edax
                 0.001 > nboard 2
                 0.002 ~ Error: Edax expected \"nboard 1\" protocol",
            )
            .near(
                "0.000 ! spawned edax
                 0.001 > nboard 2
                 0.002 ~ Edax 4.4 loading the opening book
                 0.003 < set myname Edax",
            ),
        // Stderr is pumped apart from stdout: the refusal can land after the GUI's next lines.
        case("NBOARD-VERSION", "the stderr refusal recorded late").fires(
            "0.000 ! spawned edax
             0.001 > nboard 2
             0.002 > ping 1
             0.003 < pong 1
             0.004 > quit
             0.005 ~ Error: Edax expected \"nboard 1\" protocol",
        ),
        case("NBOARD-VERSION", "the refusal on stdout").fires(
            "0.000 ! spawned edax
             0.001 > nboard 2
             0.002 < unsupported protocol version 2",
        ),
        // Black is to move at the start; E3 is White's move: the engine's board has the other
        // side to move (what a missed trailing pass does).
        case("NBOARD-SET-GAME-PARSE", "the engine answers for the wrong side")
            .fires(go("=== E3"))
            .near(go("=== F5"))
            .near(go("=== A1")),
        // The GUI moves, pings; after the pong the engine must not answer the old go.
        case("NBOARD-OUTPUT-AFTER-PONG", "=== for the old position after pong")
            .fires(nb(
                "0.010 > go
                 0.100 > move F5
                 0.101 > ping 2
                 0.200 < pong 2
                 0.300 < === D6",
            ))
            .near(nb(
                "0.010 > go
                 0.050 < === F5
                 0.100 > move F5
                 0.101 > ping 2
                 0.200 < pong 2
                 0.300 > go
                 0.400 < === D6",
            )),
        // NTest learns a game by searching its positions again: the search lines answer the
        // `learn` sent after the ping, not the old `go`.
        case("NBOARD-OUTPUT-AFTER-PONG", "search lines of a learn after pong")
            .fires(nb(
                "0.010 > hint 1
                 0.100 > move F5
                 0.101 > ping 2
                 0.200 < pong 2
                 0.300 < search D6 1.5 0 4",
            ))
            .near(nb(
                "0.010 > go
                 0.050 < === F5
                 0.100 > move F5
                 0.101 > ping 2
                 0.102 > learn
                 0.200 < pong 2
                 0.300 < search D6 1.5 0 4
                 0.400 < learn",
            )),
        case("NBOARD-MOVE-FORMAT", "Edax's === with spaces is what the GUI reads")
            .fires(go("=== F5 x 0.0"))
            .near(go("=== F5 -1.00 0.0")),
        case("NBOARD-STALE-RESULT", "the GUI plays an === that came before its pong")
            .fires(nb(
                "0.010 > go
                 0.100 > set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)
                 0.101 > ping 2
                 0.150 < === F5
                 0.200 < pong 2
                 0.300 > move F5",
            ))
            .near(nb(
                "0.010 > go
                 0.100 > set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)
                 0.101 > ping 2
                 0.150 < === F5
                 0.200 < pong 2
                 0.300 > go
                 0.400 < === F6
                 0.500 > move F6",
            )),
        // The same square, answered again after the fence of a new game, is a fresh answer.
        case("NBOARD-STALE-RESULT", "an early === is superseded by the answer after the fence")
            .fires(nb(
                "0.010 > go
                 0.100 > set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)
                 0.101 > ping 2
                 0.150 < === F5
                 0.200 < pong 2
                 0.300 > move F5",
            ))
            .near(nb(
                "0.010 > go
                 0.100 > set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)
                 0.101 > ping 2
                 0.150 < === F5
                 0.200 < pong 2
                 0.300 > set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)
                 0.301 > ping 3
                 0.350 < pong 3
                 0.400 > go
                 0.450 < === F5
                 0.500 > move F5",
            )),
        case("NBOARD-PONG-MISMATCH", "ping 2 answered by pong 1")
            .fires(nb("0.010 > ping 2\n0.020 < pong 1"))
            .near(nb("0.010 > ping 2\n0.020 < pong 2")),
        case("NBOARD-PONG-MISMATCH", "ping 1 answered by pong 2")
            .fires(nb("0.010 > ping 1\n0.020 < pong 2"))
            .near(nb("0.010 > ping 1\n0.020 < pong 1")),
        case("NBOARD-PONG-TIMEOUT", "no pong for 20 s, cutechess allows 15 s")
            .fires(nb("0.010 > ping 1\n20.000 < status thinking"))
            .near(nb("0.010 > ping 1\n10.000 < pong 1")),
        case("NBOARD-HINT-PV-FORMAT", "PV with spaces")
            .fires(nb("0.010 > hint 1\n0.100 < search F5 D6 C3 1.5 0 12"))
            .near(nb("0.010 > hint 1\n0.100 < search F5d6C3 1.5 0 12")),
        case("NBOARD-HINT-PV-FORMAT", "PV not starting with a move")
            .fires(nb("0.010 > hint 1\n0.100 < search Z9d6 1.5 0 12"))
            .near(nb("0.010 > hint 1\n0.100 < search F5-D6-C3 1.5 0 12")),
        case("NBOARD-HINT-PV-FORMAT", "Edax's console book line after go")
            .fires(nb(
                "0.010 > go\n0.100 < book    +1                                          f3 C5 c6\n0.110 < === f3 1.00 0.0",
            ))
            .near(nb("0.010 > hint 1\n0.100 < book f3C5c6     1 1 21")),
        case("NBOARD-LEARN-ACK", "learn answered by learn")
            .fires(nb("0.010 > learn\n0.100 < learn"))
            .near(nb("0.010 > learn\n0.100 < learned")),
        case("NBOARD-LEARN-ACK", "learn never acknowledged, later ping answered")
            .fires(nb("0.010 > learn\n0.100 > ping 2\n0.200 < pong 2"))
            .near(nb("0.010 > learn\n0.050 < learned\n0.100 > ping 2\n0.200 < pong 2")),
        case("NBOARD-SYNTAX", "set depth x")
            .fires(nb("0.010 > set depth x"))
            .near(nb("0.010 > set depth 8"))
            .side("gui"),
        case("NBOARD-UNKNOWN-COMMAND", "GUI sends frobnicate")
            .fires(nb("0.010 > frobnicate"))
            .near(nb("0.010 > set contempt 0"))
            .side("gui"),
        case("NBOARD-UNKNOWN-COMMAND", "engine says hello there")
            .fires(nb("0.010 < hello there"))
            .near(nb("0.010 < status hello there"))
            .side("engine"),
        case("NBOARD-UNSOLICITED", "=== without go")
            .fires(nb("0.100 < === F5"))
            .near(go("=== F5")),
        case("NBOARD-UNSOLICITED", "learned without learn")
            .fires(nb("0.100 < learned"))
            .near(nb("0.010 > learn\n0.100 < learned")),
        case("NBOARD-GO-NO-MOVE", "go, 30 s of thinking, then quit")
            .fires(nb(&format!(
                "0.010 > go\n0.020 < status Edax is thinking\n{quit}"
            )))
            .near(nb(&format!(
                "0.010 > go\n0.020 < status Edax is thinking\n0.500 < === F5/0.50/0.5\n{quit}"
            ))),
        case("NBOARD-GO-NO-MOVE", "the engine exits during the search")
            .fires(nb(
                "0.010 > go\n0.020 < status Edax is thinking\n0.400 ! engine_exit code=139 engine exited with code 139",
            ))
            .near(nb(
                "0.010 > go\n0.020 < status Edax is thinking\n0.300 < === F5\n0.400 ! engine_exit code=139 engine exited with code 139",
            )),
        case("NBOARD-GO-NO-MOVE", "the GUI closes the input during the search")
            .fires(nb("0.010 > go\n0.020 < status Edax is thinking\n0.400 ! gui_eof")),
    ]
}
