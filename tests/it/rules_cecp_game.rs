//! The CECP rules of game state (`new`, `force`, `setboard`, results), of output, termination
//! and syntax: each fires on a short realistic session that breaks it, with the side and
//! severity of the catalogue, and stays silent on its near miss.

use crate::rules_cecp_nboard_x_support::*;

// ---------------------------------------------------------------------------------------------
// CECP: game state
// ---------------------------------------------------------------------------------------------

#[test]
fn cecp_game_state_rules() {
    run_table(&cecp_game_state_cases());
}

/// CECP-NEW-STATE is decided by `kibitzer probe`, which set the depth limit itself, and noted in
/// its recording; `check` finds it there. The near miss: the same session where the search
/// after `new` went deeper, with no such note.
#[test]
fn cecp_new_state_rule() {
    run_table(&cecp_new_state_cases());
}

pub(crate) fn cecp_new_state_cases() -> Vec<Case> {
    let session = |after_new: &str| {
        cecp(&format!(
            "0.100 > sd 3
             0.110 > go
             0.150 < 3 10 1 300 e2e4
             0.160 < move e2e4
             0.200 > new
             0.210 > level 40 0:30 0
             0.220 > go
             {after_new}"
        ))
    };
    vec![
        case(
            "CECP-NEW-STATE",
            "the probe's fact: the sd limit outlived new",
        )
        .fires(session(
            r#"0.250 < 3 10 1 300 d2d4
                 0.260 < move d2d4
                 0.270 ! probe {"fact":"depth_after_new","limit":3,"before":9,"after":3}"#,
        ))
        .near(session(
            r#"0.900 < 9 10 60 90000 d2d4
                 1.000 < move d2d4
                 1.010 ! probe {"fact":"depth_after_new","limit":3,"before":9,"after":9}"#,
        ))
        .msg("no deeper than 3"),
    ]
}

pub(crate) fn cecp_game_state_cases() -> Vec<Case> {
    let variants = |body: &str| {
        xb(&format!(
            r#"0.010 < feature ping=1 setboard=1 usermove=1 variants="normal,fischerandom" done=1
               0.011 > accepted ping
               0.012 > accepted setboard
               0.013 > accepted usermove
               0.014 > accepted variants
               0.020 > new
               {body}"#
        ))
    };
    // Features without setboard: xboard then sets positions up with `edit`.
    let editing = |body: &str| {
        xb(&format!(
            "0.010 < feature ping=1 done=1
             0.011 > accepted ping
             0.020 > new
             0.030 > force
             0.040 > edit
             0.050 > #
             0.060 > Ke1
             0.070 > Pe2
             0.080 > c
             0.090 > Ke8
             {body}"
        ))
    };
    let capablanca = r#"0.010 < feature ping=1 usermove=1 variants="normal,capablanca" done=1
        0.011 > accepted ping
        0.012 > accepted usermove
        0.013 > accepted variants
        0.020 > new
        0.030 > variant capablanca
        0.040 > level 40 5 0
        0.100 > usermove e2e4
        0.500 < move e7e5
        0.600 > usermove c1d3
        0.900 < move h8g6"#;
    let black_to_move = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    // e4 e5, then the knights out and back `n` times: after 2 the position after e4 e5 stands
    // for the third time.
    let shuffle = |n: usize| {
        let mut s = String::from("1.000 > usermove e2e4\n1.100 < move e7e5\n");
        let mut t = 1.2;
        for _ in 0..n {
            for (gui, engine) in [("g1f3", "b8c6"), ("f3g1", "c6b8")] {
                s.push_str(&format!(
                    "{t:.3} > usermove {gui}\n{:.3} < move {engine}\n",
                    t + 0.1
                ));
                t += 0.2;
            }
        }
        s
    };
    let claim = "9.000 < 1/2-1/2 {Draw by repetition}";
    vec![
        case("CECP-VARIANT-ORDER", "variant after setboard")
            .fires(variants(&format!(
                "0.030 > setboard {START_FEN}\n0.040 > variant fischerandom"
            )))
            .near(variants(&format!(
                "0.030 > variant fischerandom
                 0.040 > setboard {START_FEN}
                 1.000 > usermove e2e4
                 1.500 < move e7e5"
            ))),
        case("CECP-SETBOARD-WITHOUT-FEATURE", "setboard, no setboard=1")
            .fires(xb(&format!(
                "0.010 < feature ping=1 usermove=1 done=1
                 0.011 > accepted ping
                 0.012 > accepted usermove
                 0.020 > new
                 0.030 > setboard {START_FEN}"
            )))
            .near(cecp(&format!("0.030 > setboard {START_FEN}"))),
        case("CECP-UNDO-WITHOUT-FORCE", "undo outside force mode")
            .fires(cecp(
                "1.000 > usermove e2e4\n1.500 < move e7e5\n2.000 > undo",
            ))
            .near(cecp(
                "1.000 > usermove e2e4\n1.500 < move e7e5\n1.900 > force\n2.000 > undo",
            )),
        case(
            "CECP-REMOVE-ENGINE-ON-MOVE",
            "remove while the engine thinks",
        )
        .fires(cecp(
            "1.000 > usermove e2e4
                 1.500 < move e7e5
                 2.000 > usermove g1f3
                 2.100 > remove",
        ))
        .near(cecp(
            "1.000 > usermove e2e4\n1.500 < move e7e5\n2.000 > remove",
        )),
        case("CECP-GO-WHILE-THINKING", "go twice")
            .fires(cecp("1.000 > go\n1.100 > go\n1.500 < move e2e4"))
            .near(cecp(
                "0.900 > force\n1.000 > usermove e2e4\n1.100 > go\n1.500 < move e7e5",
            )),
        case("CECP-MOVE-IN-FORCE", "move in force mode")
            .fires(cecp(
                "0.900 > force\n1.000 > usermove e2e4\n1.500 < move e7e5",
            ))
            .near(cecp(
                "0.900 > force\n1.000 > usermove e2e4\n1.100 > go\n1.500 < move e7e5",
            )),
        case("CECP-MOVE-IN-FORCE", "move in analyze mode (post, analyze)")
            .fires(cecp(&format!(
                "0.030 > setboard {black_to_move}
                 0.900 > post
                 1.000 > analyze
                 1.500 < 1 20 5 120 e7e5
                 1.600 < move e7e5"
            )))
            .near(cecp(&format!(
                "0.030 > setboard {black_to_move}
                 0.900 > post
                 1.000 > analyze
                 1.500 < 1 20 5 120 e7e5
                 1.600 > exit
                 1.700 > go
                 2.000 < move e7e5"
            ))),
        case("CECP-MOVE-OUT-OF-TURN", "two moves in a row")
            .fires(cecp(
                "1.000 > usermove e2e4\n1.500 < move e7e5\n1.600 < move d7d5",
            ))
            .near(cecp(
                "1.000 > usermove e2e4
                 1.500 < move e7e5
                 1.600 > usermove g1f3
                 2.000 < move b8c6",
            )),
        case(
            "CECP-MOVE-OUT-OF-TURN",
            "unmodelled variant, moves alternate",
        )
        .near(xb(capablanca)),
        case("CECP-SETBOARD-BAD-FEN", "a rank of seven squares")
            .fires(cecp(
                "0.030 > setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP/RNBQKBNR w KQkq - 0 1",
            ))
            .near(cecp(&format!("0.030 > setboard {START_FEN}"))),
        case("CECP-SETBOARD-BAD-FEN", "no kings")
            .fires(cecp("0.030 > setboard 8/8/8/8/8/8/8/8 w - - 0 1")),
        case(
            "CECP-SETBOARD-IRREGULAR-FEN",
            "castling rights without rooks",
        )
        .fires(cecp("0.030 > setboard 4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1"))
        .near(cecp("0.030 > setboard 4k3/8/8/8/8/8/8/4K3 w - - 0 1")),
        case("CECP-EDIT-SYNTAX", "Zz9 in edit mode")
            .fires(editing("0.095 > Zz9\n0.100 > ."))
            .near(editing("0.100 > .\n0.200 > go\n0.500 < move e2e4")),
        case("CECP-UNDO-BEYOND-START", "undo on an empty game")
            .fires(cecp("0.030 > force\n0.040 > undo"))
            .near(cecp("0.030 > force\n0.035 > usermove e2e4\n0.040 > undo")),
        case("CECP-RESULT-CLAIM-INVALID", "repetition claimed at the second occurrence")
            .fires(cecp(&format!("{}\n{claim}", shuffle(1))))
            .near(cecp(&format!("{}\n{claim}", shuffle(2)))),
        case("CECP-RESULT-CLAIM-INVALID", "0-1 claimed after two moves")
            .fires(cecp(
                "1.000 > usermove f2f3\n1.100 < move e7e5\n1.200 > usermove g2g3\n1.300 < move d8h4\n1.301 < 0-1 {Black mates}",
            ))
            .near(cecp(FOOLS_MATE)),
        case(
            "CECP-RESULT-CLAIM-INVALID",
            "the mate's result line crossing the GUI's new on the wire",
        )
        .fires(cecp(
            "1.000 > usermove e2e4\n1.100 < move e7e5\n1.200 > new\n1.201 < 0-1 {Black mates}",
        ))
        .near(cecp(&format!(
            "{FOOLS_MATE}\n1.3005 > result 0-1 {{Black mates}}\n1.3006 > new\n1.3010 < 0-1 {{Black mates}}"
        ))),
        case("CECP-RESULT-CLAIM-INVALID", "resignation said as RESULT").near(cecp(
            "1.000 > usermove e2e4\n1.500 < move e7e5\n2.000 > usermove d1h5\n2.500 < 1-0 {Black resigns}",
        )),
        case("CECP-RESULT-MISSING", "mate, then new without result")
            .fires(cecp(&format!("{FOOLS_MATE}\n2.000 > new")))
            .near(cecp(&format!(
                "{FOOLS_MATE}\n1.900 > result 0-1 {{Black mates}}\n2.000 > new"
            ))),
        case("CECP-RESULT-MISSING", "mate, then quit without result")
            .fires(cecp(&format!(
                "{FOOLS_MATE}\n2.000 > quit\n2.050 ! engine_exit code=0 engine exited with code 0"
            )))
            .near(cecp(&format!(
                "{FOOLS_MATE}
                 1.900 > result 0-1 {{Black mates}}
                 2.000 > quit
                 2.050 ! engine_exit code=0 engine exited with code 0"
            ))),
        case("CECP-RESULT-MISSING", "mate, then the input ends")
            .fires(cecp(&format!("{FOOLS_MATE}\n2.000 ! gui_eof"))),
        case("CECP-RESULT-MISSING", "no mate on the board: new without result is fine").near(
            cecp("1.000 > usermove e2e4\n1.500 < move e7e5\n2.000 > new"),
        ),
    ]
}

// ---------------------------------------------------------------------------------------------
// CECP: output, termination, syntax
// ---------------------------------------------------------------------------------------------

#[test]
fn cecp_output_termination_and_syntax_rules() {
    run_table(&cecp_output_termination_and_syntax_cases());
}

pub(crate) fn cecp_output_termination_and_syntax_cases() -> Vec<Case> {
    let think = |line: &str| {
        cecp(&format!(
            "0.030 > post\n1.000 > usermove e2e4\n1.200 < {line}\n1.500 < move e7e5"
        ))
    };
    let analyze = |line: &str| {
        cecp(&format!(
            "0.030 > force\n0.040 > post\n0.050 > analyze\n0.500 > .\n0.510 < {line}"
        ))
    };
    vec![
        case("CECP-ERROR-FORMAT", "no colon after the type")
            .fires(cecp("0.030 > memory 64\n0.031 < Error (unknown command) memory"))
            .near(cecp("0.030 > memory 64\n0.031 < Error (unknown command): memory")),
        case("CECP-ERROR-FORMAT", "Error: without a type")
            .fires(cecp("0.030 > memory 64\n0.031 < Error: unknown command memory")),
        case("CECP-ERROR-FORMAT", "Invalid move: for a command that is no move")
            .fires(cecp("0.030 > sd 3\n0.031 < Invalid move: sd 3"))
            .near(cecp("0.030 > sd 3\n0.031 < Error (unknown command): sd 3")),
        case("CECP-COMMAND-REFUSED", "a command of the protocol refused")
            .fires(cecp("0.030 > computer\n0.031 < Error (unknown command): computer"))
            .near(cecp("0.030 > computer\n0.500 > ping 1\n0.501 < pong 1")),
        case("CECP-COMMAND-REFUSED", "refused in the wrong form, still refused")
            .fires(cecp("0.030 > sd 3\n0.031 < Invalid move: sd 3")),
        case("CECP-THINKING-FORMAT", "stat01 with a bad node count")
            .fires(analyze("stat01: 12 abc 5 3 20"))
            .near(analyze("stat01: 12 3000 5 3 20 Nf3")),
        case("CECP-THINKING-FORMAT", "score in pawns, not an integer")
            .fires(think("4 0.25 150 12000 e7e5 g1f3"))
            .near(think("4 25 150 12000 e7e5 g1f3")),
        // Sjeng draws the board before it answers `protover`: a start-up banner, not thinking
        // output. The same row once the engine is thinking is.
        case(
            "CECP-THINKING-FORMAT",
            "a board row that looks like thinking output",
        )
        .fires(think("8 | *R | *N | *B | *Q | *K | *B | *N | *R |"))
        .near(xb(
            "0.005 < Sjeng version 11.2, Copyright (C) 2000-2001 Gian-Carlo Pascutto
             0.005 <   +----+----+----+----+----+----+----+----+
             0.005 < 8 | *R | *N | *B | *Q | *K | *B | *N | *R |
             0.005 <   +----+----+----+----+----+----+----+----+
             0.006 < feature ping=1 setboard=1 usermove=1 done=1
             0.007 > accepted ping
             0.008 > accepted setboard
             0.009 > accepted usermove",
        )),
        case("CECP-THINKING-WITHOUT-POST", "thinking after nopost")
            .fires(cecp(
                "0.030 > nopost\n1.000 > usermove e2e4\n1.200 < 4 25 15 12000 e7e5 g1f3\n1.500 < move e7e5",
            ))
            .near(think("4 25 15 12000 e7e5 g1f3")),
        case("CECP-UNDOCUMENTED-OUTPUT", "free text")
            .fires(cecp("0.030 < Hello from engine"))
            .near(cecp("0.030 < telluser Hello from engine")),
        case("CECP-THINKING-PV-UNPLAYABLE", "e1e8 in the PV")
            .fires(think("4 25 15 12000 e7e5 e1e8"))
            .near(think("4 25 15 12000 e7e5 g1f3")),
        case("CECP-LEGACY-FORM", "my move is")
            .fires(cecp("1.000 > usermove e2e4\n1.500 < my move is e7e5"))
            .near(cecp("1.000 > usermove e2e4\n1.500 < move e7e5")),
        case("CECP-LEGACY-FORM", "1. ... e7e5")
            .fires(cecp("1.000 > usermove e2e4\n1.500 < 1. ... e7e5")),
        case("CECP-QUIT-NO-EXIT", "exit 6 s after quit, cutechess allows 5 s")
            .fires(cecp(
                "1.000 > quit\n7.000 ! engine_exit code=0 engine exited with code 0",
            ))
            .near(cecp(
                "1.000 > quit\n1.100 ! engine_exit code=0 engine exited with code 0",
            )),
        case("CECP-QUIT-NO-EXIT", "killed after quit")
            .fires(cecp(
                "1.000 > quit\n3.000 ! killed signal=SIGTERM engine killed by SIGTERM",
            ))
            .args(&["--profile", "xboard"]),
        case("CECP-SYNTAX", "level without INC")
            .fires(cecp("0.030 > level 40 5"))
            .near(cecp("0.030 > level 40 5 0"))
            .side("gui"),
        case("CECP-SYNTAX", "pong without a number")
            .fires(cecp("0.030 > ping 1\n0.040 < pong"))
            .near(cecp("0.030 > ping 1\n0.040 < pong 1"))
            .side("engine"),
        case("CECP-UNKNOWN-COMMAND", "foo bar")
            .fires(cecp("0.030 > foo bar"))
            .near(cecp("0.030 > computer")),
    ]
}
