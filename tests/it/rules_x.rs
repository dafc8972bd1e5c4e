//! The cross-protocol (`X-`) rules of transport, timing, lifecycle and hangs: each fires on a
//! short realistic session that breaks it, with the side and severity of the catalogue, and
//! stays silent on its near miss.

use crate::rules_cecp_nboard_x_support::*;

// ---------------------------------------------------------------------------------------------
// Cross-protocol: transport
// ---------------------------------------------------------------------------------------------

/// `kibitzer probe`'s fact that a step begins: the GUI of the recording is the probe.
const PROBE_STEP: &str =
    r#"0.025 ! probe {"fact":"step","n":1,"id":"cecp.ping","title":"ping while idle"}"#;

#[test]
fn cross_protocol_transport_rules() {
    run_table(&cross_protocol_transport_cases());
}

pub(crate) fn cross_protocol_transport_cases() -> Vec<Case> {
    let cafe = |text: &str| {
        cecp(&format!(
            "0.030 < telluser {text}\n1.000 > quit\n1.100 ! engine_exit code=0 engine exited with code 0"
        ))
    };
    vec![
        case("X-LINE-NO-TERMINATOR", "last engine line without newline")
            .fires(cecp(
                r"1.000 > usermove e2e4
                  1.500 < move e7e5\z
                  1.600 ! engine_eof",
            ))
            .near(cecp("1.000 > usermove e2e4\n1.500 < move e7e5\n1.600 ! engine_eof"))
            .side("engine"),
        case("X-LINE-ENDING", "engine ends lines with CR LF")
            .fires(cecp(r"1.000 > usermove e2e4
                          1.500 < move e7e5\r"))
            .near(cecp("1.000 > usermove e2e4\n1.500 < move e7e5"))
            .side("engine"),
        case("X-LINE-ENDING", "GUI ends lines with CR LF")
            .fires(cecp(r"1.000 > usermove e2e4\r
                          1.500 < move e7e5"))
            .side("gui"),
        case("X-LINE-INTERLEAVED", "bestmove at the end of an info line")
            .fires(uci(
                "0.100 < info depth 5 score cp 13 pv e2e4 bestmove e2e4\n0.130 < bestmove e2e4",
            ))
            .near(uci(
                "0.100 < info depth 5 score cp 13 pv e2e4\n0.130 < bestmove e2e4",
            )),
        case("X-LINE-INTERLEAVED", "readyok glued to an info line")
            .fires(uci(
                "0.050 > isready\n0.110 < info nodes 100readyok\n0.130 < bestmove e2e4",
            ))
            .near(uci(
                "0.050 > isready\n0.060 < info string readyok soon\n0.061 < readyok\n0.130 < bestmove e2e4",
            )),
        case("X-LEADING-WHITESPACE", "spaces before bestmove")
            .fires(uci("0.130 <   bestmove e2e4"))
            .near(uci("0.130 < bestmove e2e4")),
        case("X-NON-UTF8", "Latin-1 byte from the engine")
            .fires(cafe("Caf?"))
            .near(cafe("Café"))
            .patch(latin1_cafe)
            .side("engine"),
        case("X-CONTROL-CHARS", "BEL in an engine line")
            .fires(cafe("Caf\x07e"))
            .near(cafe("Caf\te"))
            .side("engine"),
        case("X-OUTPUT-FLOOD", "1100 lines in 0.9 s")
            .fires(thinking_burst(1100, 1.001, 0.0008))
            .near(thinking_burst(900, 1.001, 0.0011)),
        case("X-OUTPUT-NOT-FLUSHED", "32 info lines, 4096 bytes in one read")
            .fires(info_block(true))
            .near(info_block(false)),
        // Judged from the whole session: an engine whose answers all wait for its exit is
        // buffered; one that answered in time all along and answers a last ping just after
        // `quit` is not.
        case(
            "X-OUTPUT-NOT-FLUSHED",
            "every answer arrives only at exit, after quit",
        )
        .fires(xb(
            "1.000 > quit
             1.010 < feature ping=1 done=1
             1.011 ! engine_eof engine closed its output
             1.012 ! engine_exit code=0 engine exited with code 0",
        ))
        .near(cecp(
            "1.000 > ping 2
             1.001 < pong 2
             1.500 > usermove e2e4
             1.600 < move e7e5
             2.000 > ping 3
             2.000 > quit
             2.010 < pong 3
             2.011 ! engine_eof engine closed its output
             2.012 ! engine_exit code=0 engine exited with code 0",
        )),
    ]
}

// ---------------------------------------------------------------------------------------------
// Cross-protocol: timing, lifecycle, hangs
// ---------------------------------------------------------------------------------------------

#[test]
fn cross_protocol_timing_and_lifecycle_rules() {
    run_table(&cross_protocol_timing_and_lifecycle_cases());
}

pub(crate) fn cross_protocol_timing_and_lifecycle_cases() -> Vec<Case> {
    let clock = |secs: &str| {
        cecp(&format!(
            "0.030 > level 40 5 0
             1.000 > time 500
             1.010 > otim 30000
             1.020 > usermove e2e4
             {secs} < move e7e5"
        ))
    };
    let quit_exit = "2.000 > quit\n2.050 ! engine_exit code=0 engine exited with code 0";
    // go movetime 100 at 0.031; the engine's last info reports 90 ms of search.
    let latency = |bestmove: &str| {
        uci(&format!(
            "0.120 < info depth 8 score cp 20 nodes 5000 time 90 pv e2e4\n{bestmove} < bestmove e2e4"
        ))
    };
    // `go movetime 100` at 0.031 (deadline 0.631): the engine silent until 3.0 s, sampled
    // every half second as `class(i)` says for the i-th sample; `answer` ends the silence.
    let silent = |class: &dyn Fn(u64) -> String, answer: &str| {
        let mut s = uci("");
        for i in 0..6u64 {
            s.push_str(&format!(
                "{}.{} ! sample {}\n",
                i / 2,
                5 * (i % 2),
                class(i)
            ));
        }
        s.push_str(answer);
        s
    };
    let bestmove_late = "3.000 < bestmove e2e4";
    let bestmove_in_time = "0.400 < bestmove e2e4";
    // A sample before the answer in time, then the same class: nothing was overdue.
    let in_time = |class: &dyn Fn(u64) -> String| {
        let mut s = uci(&format!("{bestmove_in_time}\n"));
        for i in 1..6u64 {
            s.push_str(&format!(
                "{}.{} ! sample {}\n",
                i / 2,
                5 * (i % 2),
                class(i)
            ));
        }
        s
    };
    let spinning = |i: u64| format!("cpu={} delay=5 states=R", i * 480);
    let starved = |i: u64| format!("cpu={} delay={} states=R", i * 5, i * 480);
    let waiting = |i: u64| format!("cpu={i} states=S reading=1");
    let asleep = |i: u64| format!("cpu={i} states=SS reading=0");
    let stopped = |_: u64| "cpu=10 states=T".to_owned();
    let blocked = |i: u64| format!("cpu={i} states=D faults={}", i * 10);
    vec![
        case("X-HANG-SPINNING", "on the CPU without output past the deadline")
            .fires(silent(&spinning, bestmove_late))
            .near(in_time(&spinning)),
        case("X-HANG-STARVED", "ready to run, no CPU, past the deadline")
            .fires(silent(&starved, bestmove_late))
            .near(in_time(&starved)),
        case("X-HANG-WAITING", "asleep in a read of its input past the deadline")
            .fires(silent(&waiting, bestmove_late))
            .near(in_time(&waiting)),
        case("X-HANG-ASLEEP", "asleep, not reading, past the deadline")
            .fires(silent(&asleep, bestmove_late))
            .near(in_time(&asleep)),
        case("X-HANG-STOPPED", "stopped past the deadline")
            .fires(silent(&stopped, bestmove_late))
            .near(in_time(&stopped)),
        case("X-HANG-BLOCKED", "in disk sleep past the deadline")
            .fires(silent(&blocked, bestmove_late))
            .near(in_time(&blocked)),
        case("X-CLOCK-UNDERFLOW", "move after the 5 s left on the clock")
            .fires(clock("6.500"))
            .near(clock("5.500")),
        case("X-NO-WATCHDOG", "GUI waits 69 s for a move and does nothing")
            .fires(cecp("1.000 > usermove e2e4\n1.500 < 1 20 5 120 e7e5"))
            .near(cecp(
                "1.000 > usermove e2e4\n1.500 < 1 20 5 120 e7e5\n40.000 > ?",
            ))
            .args(&["--at", "70"])
            .hang("search", "STALL"),
        case("X-ENGINE-EXIT", "engine exits while it owes a move")
            .fires(cecp(
                "1.000 > usermove e2e4\n1.500 ! engine_exit code=1 engine exited with code 1",
            ))
            .near(cecp(&format!(
                "1.000 > usermove e2e4\n1.500 < move e7e5\n{quit_exit}"
            )))
            .hang("disconnect", "DISCONNECT"),
        // xboard sends SIGINT with each move unless `feature sigint=0`: a death seconds after
        // it, while the move is owed, is still the engine's; one the SIGINT itself caused, at
        // once, is the GUI's doing.
        case("X-ENGINE-EXIT", "engine dies seconds after a forwarded SIGINT while it owes a move")
            .fires(cecp(
                "1.000 > usermove e2e4
                 1.001 ! signal signal=SIGINT SIGINT
                 4.000 ! engine_exit signal=SIGKILL engine killed by signal SIGKILL",
            ))
            .near(cecp(
                "1.000 > usermove e2e4
                 1.001 ! signal signal=SIGINT SIGINT
                 1.010 ! engine_exit signal=SIGINT engine killed by signal SIGINT",
            ))
            .hang("disconnect", "DISCONNECT"),
        // A signal that asks the engine to end explains its end however late: a handler may
        // take seconds to clean up.
        case("X-ENGINE-EXIT", "a SIGTERM the GUI sent explains an end seconds later")
            .fires(cecp(
                "1.000 > usermove e2e4
                 1.001 ! signal signal=SIGINT SIGINT
                 4.000 ! engine_exit code=0 engine exited with code 0",
            ))
            .near(cecp(
                "1.000 > usermove e2e4
                 1.001 ! signal signal=SIGTERM SIGTERM
                 4.000 ! engine_exit code=0 engine exited with code 0",
            ))
            .hang("disconnect", "DISCONNECT"),
        case("X-ENGINE-EXIT", "engine closes its output while it owes a move")
            .fires(cecp("1.000 > usermove e2e4\n1.500 ! engine_eof"))
            .hang("disconnect", "DISCONNECT"),
        case("X-WRITE-TO-DEAD-PIPE", "GUI writes after the engine died")
            .fires(cecp(
                "1.000 > usermove e2e4
                 1.200 ! engine_exit code=139 engine exited with code 139
                 1.300 > ping 2
                 1.300 ! write_error writing to the engine failed: Broken pipe",
            ))
            .near(cecp(
                "1.000 > usermove e2e4
                 1.200 ! engine_exit code=139 engine exited with code 139
                 1.300 ! gui_eof",
            )),
        case("X-WRITE-TO-DEAD-PIPE", "the probe's own write to an engine that died")
            .near(cecp(&format!(
                "{PROBE_STEP}
                 1.000 > usermove e2e4
                 1.200 ! engine_exit code=139 engine exited with code 139
                 1.300 > ping 2
                 1.300 ! write_error writing to the engine failed: Broken pipe"
            ))),
        case(
            "X-OUTPUT-FLOOD-STOPPED",
            "probe stopped the engine past the lines a run keeps",
        )
        .fires(cecp(
            "1.000 > usermove e2e4
             1.500 < move e7e5
             2.000 ! flood_stopped output flood: more than 200000 lines from the engine in one run
             2.000 ! killed signal=SIGKILL output flood; sent SIGKILL",
        ))
        // The near miss: an engine killed for another reason (a watchdog) is no flood.
        .near(cecp(
            "1.000 > usermove e2e4
             1.500 < move e7e5
             2.000 ! killed signal=SIGKILL the watchdog fired; sent SIGKILL",
        )),
        case(
            "X-LINE-TOO-LONG",
            "a 100 MB info line, recorded in pieces; its pieces are no commands",
        )
        .fires(uci(
            "0.100 < info string xxxxxxxx\\+
             0.101 < xxxxxxxxxxxxxxxx\\+
             0.102 < bestmove xxxxxxxx
             0.120 < bestmove e2e4",
        ))
        // The near miss: a long line that fits one event.
        .near(uci(
            "0.100 < info string xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
             0.120 < bestmove e2e4",
        )),
        case(
            "X-LEFTOVER-PROCESS",
            "a process the engine detached outlived it and was swept",
        )
        .fires(cecp(
            "1.000 > usermove e2e4
             1.500 < move e7e5
             2.000 > quit
             2.050 ! engine_eof engine closed its output
             2.060 ! leftover_killed signal=SIGTERM still running after the engine exited: sleep [pid 42]; sent SIGTERM
             2.070 ! engine_exit code=0 engine exited with code 0",
        ))
        .near(cecp(&format!(
            "1.000 > usermove e2e4\n1.500 < move e7e5\n{quit_exit}"
        ))),
        case("X-ORPHAN-PROCESS", "engine killed 5 s after the GUI closed")
            .fires(cecp(
                "1.000 > usermove e2e4
                 1.500 < move e7e5
                 2.000 ! gui_eof
                 7.000 ! killed signal=SIGKILL engine killed by SIGKILL (9)",
            ))
            .near(cecp(
                "1.000 > usermove e2e4
                 1.500 < move e7e5
                 2.000 ! gui_eof
                 2.100 ! engine_exit code=0 engine exited with code 0",
            )),
        case("X-PROTOCOL-MISMATCH", "xboard GUI, UCI engine")
            .fires(xb("0.010 < id name Stockfish 16\n0.011 < uciok"))
            .near(xb("0.010 < feature ping=1 done=1\n0.011 > accepted ping")),
        case("X-PROTOCOL-MISMATCH", "a UCI engine refuses protover; a protocol-1 one does")
            .fires(xb(
                "0.010 < Unknown command: 'protover 2'. Type help for more information.",
            ))
            .near(xb("0.010 < Error (unknown command): protover")),
        case("X-PROTOCOL-MISMATCH", "UCI GUI, CECP engine")
            .fires(
                "0.000 ! spawned engine
                 0.001 > uci
                 0.010 < feature done=1
                 0.020 < id name X
                 0.030 < uciok",
            )
            .near(
                "0.000 ! spawned engine
                 0.001 > uci
                 0.020 < id name X
                 0.030 < uciok",
            ),
        case("X-BOARD-UNKNOWN", "setboard of a 10x8 Capablanca position")
            .fires(xb(
                r#"0.010 < feature ping=1 setboard=1 usermove=1 variants="normal,capablanca" done=1
                   0.011 > accepted ping
                   0.012 > accepted setboard
                   0.013 > accepted usermove
                   0.014 > accepted variants
                   0.020 > new
                   0.030 > variant capablanca
                   0.040 > setboard rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"#,
            ))
            .near(cecp(&format!("0.030 > setboard {START_FEN}"))),
        case("X-BOARD-UNKNOWN", "variant capablanca, moves played").fires(xb(
            r#"0.010 < feature ping=1 usermove=1 variants="normal,capablanca" done=1
               0.011 > accepted ping
               0.012 > accepted usermove
               0.013 > accepted variants
               0.020 > new
               0.030 > variant capablanca
               0.100 > usermove e2e4
               0.500 < move e7e5"#,
        )),
        case("X-INPUT-STARTS-MID-SESSION", "log starts with the engine's move")
            .fires(
                "0.000 < move e7e5
                 0.100 > usermove g1f3
                 0.500 < move b8c6",
            )
            .near(cecp(
                "1.000 > usermove e2e4
                 1.100 < move e7e5
                 1.200 > usermove g1f3
                 1.500 < move b8c6",
            ))
            .side("engine"),
        case("X-HANG", "ping unanswered 20 s, the engine still talks")
            .fires(cecp("1.000 > ping 3\n21.000 < 12 30 2000 90000 e7e5"))
            .near(cecp(&format!("1.000 > ping 3\n1.010 < pong 3\n{quit_exit}")))
            .side("engine")
            .hang("ping", "TIMEOUT"),
        case("X-HANG", "the input ends 20 s after ping 3")
            .fires(cecp("1.000 > ping 3"))
            .args(&["--at", "21"])
            .side("engine")
            .hang("ping", "TIMEOUT"),
        // The probe gives up on the pong itself, and CECP-PING-TIMEOUT says so: one cause,
        // one error.
        case("X-HANG", "a probe's ping timed out: its own rule says it")
            .near(cecp(&format!("{PROBE_STEP}\n1.000 > ping 3")))
            .args(&["--at", "21"]),
        // Past `st`'s deadline the rule is a warning (CECP-ST-EXCEEDED): the hang keeps its
        // error, or a probe's engine that never moves would pass.
        case("X-HANG", "a probe's search overdue past a warning's deadline")
            .fires(cecp(&format!(
                "{PROBE_STEP}
                 0.030 > st 2
                 1.000 > usermove e2e4
                 1.500 < 1 20 5 120 e7e5
                 10.000 < 9 25 900 1200000 e7e5 g1f3"
            )))
            .side("engine")
            .hang("search", "TIMEOUT"),
        case("X-HANG", "the spec profile sets no ping deadline: a stall, no timeout")
            .near(cecp("1.000 > ping 3\n21.000 < 12 30 2000 90000 e7e5"))
            .args(&["--profile", "spec"]),
        case("X-HANG", "no feature done=1 for 10 s")
            .fires(xb("10.000 < tellics say hello"))
            .near(xb("0.010 < feature ping=1 done=1\n0.011 > accepted ping\n10.000 > new"))
            .side("engine")
            .hang("handshake", "TIMEOUT"),
        case("X-HANG", "the input ends 10 s after protover")
            .fires(xb(""))
            .args(&["--at", "10"])
            .side("engine")
            .hang("handshake", "TIMEOUT"),
        case("X-HANG", "st 2 and no move after 9 s")
            .fires(cecp(
                "0.030 > st 2
                 1.000 > usermove e2e4
                 1.500 < 1 20 5 120 e7e5
                 10.000 < 9 25 900 1200000 e7e5 g1f3",
            ))
            .near(cecp(
                "0.030 > st 2
                 1.000 > usermove e2e4
                 1.500 < 1 20 5 120 e7e5
                 2.900 < move e7e5
                 10.000 > quit",
            ))
            .side("engine")
            .hang("search", "TIMEOUT"),
        case("X-HANG", "unterminated thinking line, no move after 9 s")
            .fires(cecp(
                r"0.030 > st 2
                  1.000 > usermove e2e4
                  1.500 < 1 20 5 120 e7e5\z
                  10.000 > ?",
            ))
            .side("engine")
            .hang("buffering", "TIMEOUT"),
        case("X-HANG", "NBoard ping unanswered 20 s, the engine still talks")
            .fires(nb("0.010 > ping 1\n20.000 < status thinking"))
            .near(nb("0.010 > ping 1\n0.020 < pong 1\n20.000 < status thinking"))
            .side("engine")
            .hang("ping", "TIMEOUT"),
        case("X-HANG", "NBoard: the input ends 20 s after the ping")
            .fires(nb("0.010 > ping 1"))
            .args(&["--at", "20"])
            .side("engine")
            .hang("ping", "TIMEOUT"),
        case(
            "X-LATENCY-BUDGET",
            "engine searched 90 ms, bestmove 369 ms after go",
        )
        .fires(latency("0.400"))
        .near(latency("0.300")),
    ]
}
