//! The CECP rules of the handshake and features, and of `ping`/`pong`: each fires on a short
//! realistic session that breaks it, with the side and severity of the catalogue, and stays
//! silent on its near miss.

use crate::rules_cecp_nboard_x_support::*;

// ---------------------------------------------------------------------------------------------
// CECP: handshake and features
// ---------------------------------------------------------------------------------------------

#[test]
fn cecp_handshake_and_feature_rules() {
    run_table(&cecp_handshake_and_feature_cases());
}

pub(crate) fn cecp_handshake_and_feature_cases() -> Vec<Case> {
    let done0 = "
        0.010 < feature done=0
        0.020 < feature ping=1
        0.021 > accepted ping
    ";
    // The GUI interrupts the engine with SIGINT before `force` (xboard's habit).
    let sigint = |value: &str| {
        xb(&format!(
            "0.010 < feature ping=1 sigint={value} done=1
             0.011 > accepted ping
             0.012 > accepted sigint
             0.020 > new
             1.000 > e2e4
             1.500 < move e7e5
             2.000 ! signal signal=SIGINT SIGINT forwarded to engine
             2.001 > force"
        ))
    };
    vec![
        case("CECP-XBOARD-FIRST", "first line is new")
            .fires(
                "0.000 ! spawned engine
                 0.001 > new
                 0.002 > xboard
                 0.003 > protover 2
                 0.010 < feature ping=1 done=1
                 0.011 > accepted ping",
            )
            .near(xb(
                "0.010 < feature ping=1 done=1\n0.011 > accepted ping\n0.020 > new",
            )),
        case(
            "CECP-PROTOVER-AFTER-XBOARD",
            "hard between xboard and protover",
        )
        .fires(
            "0.000 ! spawned engine
                 0.001 > xboard
                 0.002 > hard
                 0.003 > protover 2
                 0.010 < feature ping=1 done=1
                 0.011 > accepted ping",
        )
        .near(xb(
            "0.010 < feature ping=1 done=1\n0.011 > accepted ping\n0.020 > hard",
        )),
        // A log that shows no engine start (cutechess, fastchess) but whose session's first
        // line is the GUI's `xboard` shows the session's start: the start rules apply. One
        // that begins mid-session (its first line a later command) stays exempt.
        case(
            "CECP-PROTOVER-AFTER-XBOARD",
            "a log starting at the GUI's xboard, hard before protover",
        )
        .fires(
            "0.001 > xboard
             0.002 > hard
             0.003 > protover 2
             0.010 < feature ping=1 done=1
             0.011 > accepted ping",
        )
        .near(
            "0.002 > hard
             0.003 > protover 2
             0.010 < feature ping=1 done=1
             0.011 > accepted ping",
        ),
        case(
            "CECP-FEATURE-TIMEOUT",
            "done=1 after 9 s, cutechess allows 8 s",
        )
        .fires(xb("9.000 < feature ping=1 done=1\n9.001 > accepted ping"))
        .near(xb("1.500 < feature ping=1 done=1\n1.501 > accepted ping"))
        .msg("8.0 s"),
        case("CECP-FEATURE-TIMEOUT", "xboard 4.9 profile allows 10 s")
            .fires(xb("10.500 < feature ping=1 done=1\n10.501 > accepted ping"))
            .near(xb("9.500 < feature ping=1 done=1\n9.501 > accepted ping"))
            .args(&["--profile", "xboard"])
            .msg("10.0 s"),
        case("CECP-FEATURE-TIMEOUT", "spec profile allows 2 s")
            .fires(xb("2.500 < feature ping=1 done=1\n2.501 > accepted ping"))
            .near(xb("1.900 < feature ping=1 done=1\n1.901 > accepted ping"))
            .args(&["--profile", "spec"]),
        case("CECP-FEATURE-TIMEOUT", "a protocol-1 engine says it does not know protover")
            .fires(xb("9.000 > new\n9.100 > e2e4\n9.500 < move e7e5"))
            .near(xb(
                "0.010 < Error (unknown command): protover\n9.000 > new\n9.100 > e2e4\n9.500 < move e7e5",
            )),
        case("CECP-FEATURE-TIMEOUT", "done=0 extends the wait to an hour")
            .fires(xb(&format!(
                "{done0}\n3601.0 < feature done=1\n3601.1 > new"
            )))
            .near(xb(&format!(
                "{done0}\n30.000 < feature done=1\n30.100 > new"
            ))),
        case("CECP-DONE0-HONOURED", "new after done=0, before done=1")
            .fires(xb(&format!("{done0}\n3.000 > new\n5.000 < feature done=1")))
            .near(xb(&format!("{done0}\n5.000 < feature done=1\n5.100 > new"))),
        case(
            "CECP-DONE0-HONOURED",
            "GUI kills the engine 8 s after done=0",
        )
        .fires(xb(&format!(
            "{done0}
                 8.000 ! signal signal=SIGTERM forwarded SIGTERM
                 8.010 ! engine_exit signal=SIGTERM engine killed by SIGTERM"
        ))),
        case(
            "CECP-COMMAND-BEFORE-FEATURES",
            "new 0.5 s after protover, done=1 at 1 s",
        )
        .fires(xb(
            "0.500 > new\n1.000 < feature ping=1 done=1\n1.001 > accepted ping",
        ))
        .near(xb(
            "0.400 < feature ping=1 done=1\n0.401 > accepted ping\n0.500 > new",
        )),
        case(
            "CECP-COMMAND-BEFORE-FEATURES",
            "silent engine, GUI waits the 2 s out",
        )
        .near(xb("2.100 > new\n2.200 > level 40 5 0\n2.300 > e2e4")),
        case("CECP-FEATURE-AFTER-DONE", "feature san=0 after done=1")
            .fires(xb("0.010 < feature ping=1 done=1
                 0.011 > accepted ping
                 0.020 < feature san=0
                 0.021 > accepted san"))
            .near(xb(r#"0.010 < feature ping=1 done=1
                   0.011 > accepted ping
                   0.020 < feature option="Hash -spin 64 1 1024"
                   0.021 > accepted option"#)),
        case(
            "CECP-FEATURE-NOT-ACKED",
            "setboard neither accepted nor rejected",
        )
        .fires(xb("0.010 < feature ping=1 setboard=1 done=1
                 0.011 > accepted ping
                 0.020 > new"))
        .near(xb("0.010 < feature ping=1 setboard=1 done=1
                 0.011 > accepted ping
                 0.012 > rejected setboard
                 0.020 > new")),
        case("CECP-FEATURE-SYNTAX", "string value without quotes")
            .fires(xb("0.010 < feature ping=1 myname=Toy done=1
                 0.011 > accepted ping
                 0.012 > accepted myname"))
            .near(xb(r#"0.010 < feature ping=1 myname="Toy 1.0" done=1
                   0.011 > accepted ping
                   0.012 > accepted myname"#)),
        case(
            "CECP-FEATURE-SYNTAX",
            "boolean feature ping=2 (booleans are 0 or 1)",
        )
        .fires(xb("0.010 < feature ping=2 done=1
             0.011 > accepted ping")),
        // xboard reads a boolean with `%d`: a quoted one is no number, and sets nothing.
        case(
            "CECP-FEATURE-SYNTAX",
            "boolean feature quoted, ping=\"1\" (booleans are 0 or 1, unquoted)",
        )
        .fires(xb(r#"0.010 < feature ping="1" done=1
             0.011 > accepted ping"#))
        .msg(r#"ping="1""#)
        .near(xb("0.010 < feature ping=1 done=1
             0.011 > accepted ping")),
        // A quoted ping="1" is no ping=1; a quoted done="1" does not end the handshake (the
        // engine's later done=1 does, and that one comes with ping=1).
        case(
            "CECP-PING-NOT-DECLARED",
            "ping=\"1\" is not ping=1, done=\"1\" not done=1",
        )
        .fires(xb(r#"0.010 < feature ping="1" done=1
             0.011 > accepted ping"#))
        .near(xb(r#"0.010 < feature done="1"
             0.020 < feature ping=1 done=1
             0.021 > accepted ping"#)),
        case("CECP-ACCEPTED-UNSOLICITED", "accepted san, never sent")
            .fires(xb("0.010 < feature ping=1 done=1
                 0.011 > accepted ping
                 0.012 > accepted san"))
            .near(xb("0.010 < feature ping=1 done=1
                 0.011 > accepted ping
                 0.012 > accepted done")),
        case("CECP-OPTION-UNKNOWN", "option Threads, only Hash declared")
            .fires(xb(
                r#"0.010 < feature ping=1 option="Hash -spin 64 1 1024" done=1
                   0.011 > accepted ping
                   0.012 > accepted option
                   0.020 > option Threads=4"#,
            ))
            .near(xb(
                r#"0.010 < feature ping=1 option="Hash -spin 64 1 1024" done=1
                   0.011 > accepted ping
                   0.012 > accepted option
                   0.020 > option Hash=128"#,
            )),
        case(
            "CECP-OPTION-UNKNOWN",
            "option Hash, the engine declared no option",
        )
        .fires(xb("0.010 < feature ping=1 done=1
             0.011 > accepted ping
             0.020 > option Hash=128")),
        case("CECP-SIGINT-DISABLED", "SIGINT although sigint=0")
            .fires(sigint("0"))
            .near(sigint("1")),
        case("CECP-SIGINT-DISABLED", "SIGTERM after quit, sigint=0").near(xb(
            "0.010 < feature ping=1 sigint=0 done=1
             0.011 > accepted ping
             0.012 > accepted sigint
             0.020 > new
             1.000 > quit
             6.000 ! signal signal=SIGTERM forwarded SIGTERM
             6.010 ! engine_exit signal=SIGTERM engine killed by SIGTERM",
        )),
    ]
}

// ---------------------------------------------------------------------------------------------
// CECP: ping
// ---------------------------------------------------------------------------------------------

#[test]
fn cecp_ping_rules() {
    run_table(&cecp_ping_cases());
}

pub(crate) fn cecp_ping_cases() -> Vec<Case> {
    // The engine moved and ponders (with `hard`) when the GUI pings at 2.000.
    let ponder = |mode: &str, pong: &str| {
        cecp(&format!(
            "0.030 > {mode}
             1.000 > usermove e2e4
             1.500 < move e7e5
             2.000 > ping 2
             {pong} < pong 2"
        ))
    };
    vec![
        case("CECP-PING-NOT-ENABLED", "ping without feature ping=1")
            .fires(xb("0.010 < feature usermove=1 done=1
                 0.011 > accepted usermove
                 0.020 > new
                 0.030 > ping 1
                 0.031 < pong 1"))
            .near(cecp("0.030 > ping 1\n0.031 < pong 1"))
            .msg("ping=1"),
        case("CECP-PING-NOT-DECLARED", "features without ping")
            .fires(xb("0.010 < feature usermove=1 setboard=1 done=1
                 0.011 > accepted usermove
                 0.012 > accepted setboard"))
            .near(xb("0.010 < feature ping=1 usermove=1 setboard=1 done=1
                 0.011 > accepted ping
                 0.012 > accepted usermove
                 0.013 > accepted setboard")),
        case(
            "CECP-PING-NOT-DECLARED",
            "python-chess refuses it: an error there",
        )
        .fires(xb("0.010 < feature usermove=1 setboard=1 done=1
                 0.011 > accepted usermove
                 0.012 > accepted setboard"))
        .args(&["--profile", "python-chess"])
        .severity("error"),
        case("CECP-PING-NOT-DECLARED", "feature ping=0 declares no ping").fires(xb(
            "0.010 < feature ping=0 usermove=1 done=1
             0.011 > accepted ping
             0.012 > accepted usermove",
        )),
        case("CECP-PONG-MISMATCH", "ping 1 answered by pong 2")
            .fires(cecp("1.000 > ping 1\n1.010 < pong 2"))
            .near(cecp("1.000 > ping 1\n1.010 < pong 1")),
        case(
            "CECP-PONG-TIMEOUT",
            "no pong for 20 s, cutechess allows 15 s",
        )
        .fires(cecp("1.000 > ping 3\n21.000 < 12 30 2000 90000 e7e5"))
        .near(cecp("1.000 > ping 3\n14.900 < pong 3"))
        .msg("15.0 s"),
        case("CECP-PONG-TIMEOUT", "the input ends 20 s after the ping")
            .fires(cecp("1.000 > ping 3"))
            .args(&["--at", "21"]),
        case(
            "CECP-PONG-TIMEOUT",
            "the spec profile sets no ping deadline",
        )
        .near(cecp("1.000 > ping 3\n21.000 < 12 30 2000 90000 e7e5"))
        .args(&["--profile", "spec"]),
        case("CECP-PONG-BEFORE-MOVE", "pong before the move it owes")
            .fires(cecp(
                "1.000 > usermove e2e4
                 1.100 > ping 2
                 1.200 < pong 2
                 1.500 < move e7e5",
            ))
            .near(cecp(
                "1.000 > usermove e2e4
                 1.100 > ping 2
                 1.500 < move e7e5
                 1.600 < pong 2",
            )),
        case("CECP-PONG-DUPLICATE", "pong 1 twice")
            .fires(cecp("1.000 > ping 1\n1.010 < pong 1\n1.020 < pong 1"))
            .near(cecp(
                "1.000 > ping 1\n1.010 < pong 1\n1.100 > ping 2\n1.110 < pong 2",
            )),
        case(
            "CECP-PONG-WHILE-PONDERING-DELAYED",
            "hard, engine moved: pong 800 ms after the ping",
        )
        .fires(ponder("hard", "2.800"))
        .near(ponder("hard", "2.400")),
        case(
            "CECP-PONG-WHILE-PONDERING-DELAYED",
            "easy: no pondering, a slow pong is no delay of this kind",
        )
        .near(ponder("easy", "2.800")),
    ]
}
