//! The CECP rules of moves and notation, and of time control: each fires on a short realistic
//! session that breaks it, with the side and severity of the catalogue, and stays silent on its
//! near miss.

use crate::rules_cecp_nboard_x_support::*;

// ---------------------------------------------------------------------------------------------
// CECP: moves and notation
// ---------------------------------------------------------------------------------------------

#[test]
fn cecp_move_rules() {
    run_table(&cecp_move_cases());
}

pub(crate) fn cecp_move_cases() -> Vec<Case> {
    let san = |gui: &str, engine: &str| {
        xb(&format!(
            "0.010 < feature ping=1 usermove=1 san=1 done=1
             0.011 > accepted ping
             0.012 > accepted usermove
             0.013 > accepted san
             0.020 > new
             1.000 > usermove {gui}
             1.500 < move {engine}"
        ))
    };
    vec![
        case("CECP-USERMOVE-FORMAT", "bare move although usermove=1")
            .fires(cecp("1.000 > e2e4\n1.500 < move e7e5"))
            .near(cecp("1.000 > usermove e2e4\n1.500 < move e7e5")),
        case("CECP-USERMOVE-FORMAT", "usermove prefix without usermove=1").fires(xb(
            "0.010 < feature ping=1 done=1
             0.011 > accepted ping
             0.020 > new
             1.000 > usermove e2e4
             1.500 < move e7e5",
        )),
        case(
            "CECP-USERMOVE-FORMAT",
            "usermove=1 rejected: bare moves are right",
        )
        .near(xb("0.010 < feature ping=1 usermove=1 done=1
             0.011 > accepted ping
             0.012 > rejected usermove
             0.020 > new
             1.000 > e2e4
             1.500 < move e7e5")),
        case("CECP-USERMOVE-FORMAT", "edit-mode placements are no moves").near(xb(
            "0.010 < feature ping=1 usermove=1 done=1
             0.011 > accepted ping
             0.012 > accepted usermove
             0.020 > new
             0.030 > force
             0.040 > edit
             0.050 > #
             0.060 > Ke1
             0.070 > Pe2
             0.080 > c
             0.090 > Ke8
             0.100 > .
             0.200 > go
             0.500 < move e2e4",
        )),
        case(
            "CECP-USERMOVE-FORMAT",
            "input starts mid-session: features unknown",
        )
        .near(
            "0.000 < move e7e5
             0.100 > usermove g1f3
             0.500 < move b8c6",
        ),
        case("CECP-MOVE-ECHO", "engine repeats e2e4")
            .fires(cecp("1.000 > usermove e2e4\n1.500 < move e2e4"))
            .near(cecp("1.000 > usermove e2e4\n1.500 < move e7e5")),
        case("CECP-MOVE-ILLEGAL", "engine plays e7e4")
            .fires(cecp("1.000 > usermove e2e4\n1.500 < move e7e4"))
            .near(cecp("1.000 > usermove e2e4\n1.500 < move e7e5")),
        case("CECP-ILLEGAL-MOVE-REPLY", "engine refuses the legal e2e4")
            .fires(cecp("1.000 > usermove e2e4\n1.010 < Illegal move: e2e4"))
            .near(cecp("1.000 > usermove e2e4\n1.500 < move e7e5"))
            .side("engine"),
        // The engine that refuses an illegal move is right: the GUI's fault is reported on
        // the GUI's own line, as CECP-GUI-MOVE-ILLEGAL (the GUI's half of this rule).
        case(
            "CECP-ILLEGAL-MOVE-REPLY",
            "engine rightly refuses the illegal e2e5",
        )
        .near(cecp("1.000 > usermove e2e5\n1.010 < Illegal move: e2e5")),
        // The engine's move crosses the GUI's force + ping: the GUI that plays on as if it had
        // been made (white's g1f3 next) applied a stale move; one that ignores it (black's
        // own e7e6 in force mode) did not.
        case(
            "CECP-STALE-MOVE",
            "the GUI plays on after a move from before its pong",
        )
        .fires(cecp(
            "1.000 > usermove e2e4
                 1.500 > force
                 1.501 > ping 5
                 1.600 < move e7e5
                 1.700 < pong 5
                 2.000 > usermove g1f3",
        ))
        .near(cecp(
            "1.000 > usermove e2e4
                 1.500 > force
                 1.501 > ping 5
                 1.600 < move e7e5
                 1.700 < pong 5
                 2.000 > usermove e7e6",
        ))
        .near(cecp(
            "1.000 > usermove e2e4
                 1.600 < move e7e5
                 2.000 > usermove g1f3",
        )),
        case("CECP-ILLEGAL-MOVE-FORMAT", "no colon before the move")
            .fires(cecp("1.000 > usermove e2e5\n1.010 < Illegal move e2e5"))
            .near(cecp(
                "1.000 > usermove e2e5\n1.010 < Illegal move (no such move): e2e5",
            )),
        case("CECP-GUI-MOVE-ILLEGAL", "GUI sends e2e5, engine plays on")
            .fires(cecp("1.000 > usermove e2e5\n1.500 < move e7e5"))
            .near(cecp("1.000 > usermove e2e4\n1.500 < move e7e5")),
        case(
            "CECP-GUI-MOVE-ILLEGAL",
            "the engine refused it: still the GUI's illegal move, on the GUI's line",
        )
        .fires(cecp("1.000 > usermove e2e5\n1.010 < Illegal move: e2e5"))
        .side("gui"),
        case("CECP-SAN-FEATURE", "SAN move, the engine did not set san=1")
            .fires(cecp("1.000 > usermove Nf3\n1.500 < move g8f6"))
            .near(cecp("1.000 > usermove g1f3\n1.500 < move g8f6")),
        case("CECP-SAN-FEATURE", "coordinates although san=1")
            .fires(san("e2e4", "e5"))
            .near(san("e4", "e5")),
        case(
            "CECP-SAN-FEATURE",
            "a knight drop is the same in coordinates and SAN (crazyhouse)",
        )
        .near(cecp(
            "1.000 > variant crazyhouse
             1.010 > usermove e2e4
             1.500 < move g8f6
             2.000 > usermove b1c3
             2.500 < move f6e4
             3.000 > usermove c3e4
             3.500 < move d7d5
             4.000 > usermove N@f5
             4.500 < move c8f5",
        )),
        case(
            "CECP-SAN-FEATURE",
            "input starts mid-session: features unknown",
        )
        .near(
            "0.000 < move e5
             0.100 > usermove Nf3
             0.500 < move Nc6",
        ),
    ]
}

// ---------------------------------------------------------------------------------------------
// CECP: time control
// ---------------------------------------------------------------------------------------------

#[test]
fn cecp_time_control_rules() {
    run_table(&cecp_time_control_cases());
}

pub(crate) fn cecp_time_control_cases() -> Vec<Case> {
    let time_feature = |value: u8, body: &str| {
        xb(&format!(
            "0.010 < feature ping=1 usermove=1 time={value} done=1
             0.011 > accepted ping
             0.012 > accepted usermove
             0.013 > accepted time
             0.020 > new
             0.030 > level 40 5 0
             {body}"
        ))
    };
    let clocks = "1.000 > time 30000\n1.010 > otim 30000\n1.020 > usermove e2e4\n1.500 < move e7e5";
    vec![
        case("CECP-TIME-WITHOUT-FEATURE", "time/otim although time=0")
            .fires(time_feature(0, clocks))
            .near(time_feature(1, clocks)),
        case("CECP-TIME-WITHOUT-FEATURE", "time=0, no clocks sent")
            .near(time_feature(0, "1.020 > usermove e2e4\n1.500 < move e7e5")),
        case("CECP-ST-UNITS", "st in milliseconds")
            .fires(cecp(
                "0.030 > st 30000\n1.000 > usermove e2e4\n1.500 < move e7e5",
            ))
            .near(cecp(
                "0.030 > st 30\n1.000 > usermove e2e4\n1.500 < move e7e5",
            ))
            .side("gui"),
        case("CECP-ST-EXCEEDED", "st 2, move after 3 s")
            .fires(cecp(
                "0.030 > st 2\n1.000 > usermove e2e4\n4.000 < move e7e5",
            ))
            .near(cecp(
                "0.030 > st 2\n1.000 > usermove e2e4\n3.400 < move e7e5",
            )),
        case(
            "CECP-TC-SEMANTICS",
            "level 0 0:30 0 re-sent before each move: a per-move limit",
        )
        .fires(cecp(
            "0.030 > level 0 0:30 0
                 1.000 > usermove e2e4
                 1.500 < move e7e5
                 1.600 > level 0 0:30 0
                 1.700 > usermove g1f3
                 2.000 < move b8c6",
        ))
        .msg("`level 0 0:30 0` after `level 0 0:30 0` within one game")
        // xboard -tc 0:30 and python-chess: the whole game's clock, sent once.
        .near(cecp(
            "0.030 > level 0 0:30 0
                 1.000 > usermove e2e4
                 1.500 < move e7e5
                 1.700 > usermove g1f3
                 2.000 < move b8c6
                 2.100 > usermove f1c4
                 2.400 < move g8f6",
        )),
        case("CECP-TC-SEMANTICS", "st after level")
            .fires(cecp(
                "0.030 > level 40 5 0\n0.040 > st 10\n1.000 > usermove e2e4\n1.500 < move e7e5",
            ))
            .near(cecp(
                "0.040 > st 10\n1.000 > usermove e2e4\n1.500 < move e7e5",
            )),
        case("CECP-TC-SEMANTICS", "level after st")
            .fires(cecp(
                "0.030 > st 10\n0.040 > level 40 5 0\n1.000 > usermove e2e4\n1.500 < move e7e5",
            ))
            .near(cecp(
                "0.040 > level 40 5 0\n1.000 > usermove e2e4\n1.500 < move e7e5",
            )),
        case("CECP-TC-SEMANTICS", "st in one game, level in the next")
            .fires(cecp(
                "0.030 > st 1\n0.040 > usermove e2e4\n0.900 < move e7e5\n1.000 > level 40 5 0\n1.100 > usermove d2d4\n2.000 < move d7d5",
            ))
            .near(cecp(
                "0.030 > st 1\n0.040 > usermove e2e4\n0.900 < move e7e5\n1.000 > new\n1.010 > level 40 5 0\n1.100 > usermove d2d4\n3.500 < move d7d5",
            )),
        case(
            "CECP-LEVEL-EVERY-MOVE",
            "the same level before the second move",
        )
        .fires(cecp(
            "0.030 > level 40 5 0
                 1.000 > usermove e2e4
                 1.500 < move e7e5
                 1.600 > level 40 5 0
                 1.700 > usermove g1f3
                 2.000 < move b8c6",
        ))
        .near(cecp(
            "0.030 > level 40 5 0
                 1.000 > usermove e2e4
                 1.500 < move e7e5
                 1.600 > result 1-0 {White wins}
                 1.700 > new
                 1.710 > level 40 5 0
                 1.720 > usermove d2d4
                 2.000 < move d7d5",
        )),
        case(
            "CECP-TIME-UNITS",
            "time in milliseconds for a 5-minute game",
        )
        .fires(cecp(
            "0.030 > level 40 5 0
                 1.000 > time 300000
                 1.010 > otim 300000
                 1.020 > usermove e2e4
                 1.500 < move e7e5",
        ))
        .near(cecp(
            "0.030 > level 40 5 0
                 1.000 > time 30000
                 1.010 > otim 30000
                 1.020 > usermove e2e4
                 1.500 < move e7e5",
        )),
        case(
            "CECP-TIME-UNITS",
            "8 cs left late in the game is a real clock",
        )
        .near(cecp(
            "0.030 > level 40 5 0
             1.000 > time 30000
             1.010 > otim 30000
             1.020 > usermove e2e4
             1.500 < move e7e5
             2.000 > time 8
             2.010 > otim 9000
             2.020 > usermove g1f3
             2.050 < move b8c6",
        )),
    ]
}
