//! Real-world cases (`/work/shared/design/real-world-cases.md`) rebuilt end to end, of the handshake and of synchronisation:
//! the test plays the GUI line by line with the timing the case needs, and `kibitzer check`
//! must name exactly the rules an expert would name and give the right hang verdict.

use crate::check_scenarios_support::*;

use kibitzer::rules::Severity;

// ------------------------------------------------------------------------- 5.1 Handshake

/// H7 cutechess/cutechess#476: "Kill engine after waiting for uciok and readyok for a certain
/// amount of time" — cutechess "hang[s] up forever" when an engine never answers `uci`.
/// A GUI with no deadline (the spec profile sets none) still waiting 70 s later: no watchdog.
#[test]
fn h7_no_uciok_and_a_gui_without_deadline_waits_forever() {
    let mut gui = Gui::scenario("no-uciok");
    gui.send("uci");
    gui.expect("id author");
    gui.recorded("uci");
    gui.check(&["--profile", "spec", "--at", "70"]).verdict(
        "H7",
        &["X-NO-WATCHDOG"],
        Some(("handshake", "STALL", Some("uciok"))),
    );
    gui.quit().verdict("H7 after quit", &[], NO_HANG);
}

/// H8 Disservin/fastchess#635: "engines need to answer to first uci within 5 seconds"; fastchess
/// now gives a 10 s startup deadline. Twelve seconds on, the engine has timed out.
#[test]
fn h8_no_uciok_within_the_fastchess_startup_deadline() {
    let mut gui = Gui::scenario("no-uciok");
    gui.send("uci");
    gui.expect("id author");
    gui.recorded("uci");
    gui.check(&["--profile", "fastchess", "--at", "14"])
        .verdict(
            "H8",
            &["UCI-UCIOK-TIMEOUT", "X-HANG"],
            Some(("handshake", "TIMEOUT", Some("uciok"))),
        );
}

/// H10 leedavid/NewGG#11 "Redundant output": the engine prints `uciok` at start-up, before
/// `uci`. Only that line is wrong: the options it declares after the GUI's `uci` come before
/// the `uciok` that answers it.
#[test]
fn h10_uciok_printed_at_boot_before_uci() {
    let mut gui = Gui::scenario("uciok-at-boot");
    gui.expect("uciok");
    gui.uci_handshake();
    gui.quit()
        .verdict("H10", &["UCI-UNSOLICITED-OUTPUT"], NO_HANG)
        .blames("UCI-UNSOLICITED-OUTPUT", "engine");
}

/// H11 LeelaChessZero/lc0#1459: "some GUIs … start the timer immediately when calling the
/// engine instead of waiting for the proper readyok": the first `go` without `isready`.
#[test]
fn h11_go_before_readyok() {
    let mut gui = Gui::scenario("well-behaved");
    gui.send("uci");
    gui.expect("uciok");
    gui.send("position startpos");
    gui.send("go depth 3");
    gui.expect("bestmove e2e4");
    gui.quit()
        .verdict("H11", &["UCI-GO-BEFORE-READYOK"], NO_HANG)
        .blames("UCI-GO-BEFORE-READYOK", "gui");
}

/// H1 cutechess/cutechess#459 "winboard 'feature done' bug": NN engines send `feature done=0`
/// while loading (the spec then allows an hour), but cutechess kept its own short init timer
/// and went on before `done=1`.
#[test]
fn h1_gui_ignores_feature_done0() {
    let mut gui = Gui::scenario("cecp-done0-slow");
    gui.send("xboard");
    gui.send("protover 2");
    gui.expect("feature done=0");
    gui.pause(1000);
    gui.send("new");
    gui.send("force");
    let features = gui.expect("feature myname");
    for name in feature_names(&features) {
        if name != "done" {
            gui.send(&format!("accepted {name}"));
        }
    }
    gui.quit()
        .verdict("H1", &["CECP-DONE0-HONOURED"], NO_HANG)
        .blames("CECP-DONE0-HONOURED", "gui");
}

/// H4 niklasf/python-chess#572 "Timeout during initialization of GNU Chess 6.2.7": the debug
/// log shows only the banner `Chess`, no `feature … done=…` within python-chess's 2 s.
#[test]
fn h4_banner_but_no_features_within_python_chess_window() {
    let mut gui = Gui::scenario("cecp-banner-only");
    gui.expect("Chess");
    gui.send("xboard");
    gui.send("protover 2");
    gui.recorded("protover 2");
    gui.check(&["--profile", "python-chess", "--at", "5"])
        .verdict(
            "H4",
            &[
                "CECP-FEATURE-TIMEOUT",
                "X-HANG",
                // `Chess` is no CECP message.
                "CECP-UNDOCUMENTED-OUTPUT",
            ],
            Some(("handshake", "TIMEOUT", Some("feature done=1"))),
        )
        .blames("CECP-FEATURE-TIMEOUT", "engine");
}

/// H5 lichess-bot-devs/lichess-bot#408 "EngineError: xboard engine did not declare required
/// feature: ping": python-chess refuses engines without `ping=1`, so under its profile the
/// missing feature is an error, not a note.
#[test]
fn h5_engine_declares_no_ping() {
    let mut gui = Gui::scenario("cecp-no-ping");
    gui.cecp_handshake();
    gui.send("quit");
    let report = gui.close_input(&["--profile", "python-chess"]);
    report
        .verdict("H5", &["CECP-PING-NOT-DECLARED"], NO_HANG)
        .blames("CECP-PING-NOT-DECLARED", "engine");
    let f = report
        .findings()
        .iter()
        .find(|f| f.rule == "CECP-PING-NOT-DECLARED")
        .expect("finding");
    assert_eq!(f.severity, Severity::Error, "{}", report.describe());
}

/// H6 cutechess/cutechess#767 "Game abandoned: {White's connection stalls}": Stockfish, a UCI
/// engine, launched with proto=xboard. The real Stockfish answers `Unknown command: 'xboard'`:
/// no CECP engine rejects `xboard`, so the GUI speaks the wrong protocol.
#[test]
fn h6_uci_engine_spoken_to_in_cecp() {
    let mut gui = Gui::real("stockfish", &[]);
    gui.send("xboard");
    gui.send("protover 2");
    gui.expect("Unknown command: 'xboard'");
    gui.expect("Unknown command: 'protover 2'");
    gui.check(&["--at", "12"])
        .verdict(
            "H6",
            &[
                "X-PROTOCOL-MISMATCH",
                "CECP-FEATURE-TIMEOUT",
                "X-HANG",
                // The banner and the two complaints are no CECP messages.
                "CECP-UNDOCUMENTED-OUTPUT",
            ],
            Some(("handshake", "TIMEOUT", Some("feature done=1"))),
        )
        .blames("X-PROTOCOL-MISMATCH", "gui");
    gui.quit();
}

/// H9 lrozenblyum/chess#207 "Not accepted usermove": `feature usermove=1` was accepted after
/// the GUI had already sent `new` and the move g1f3 without the prefix; the engine missed the
/// move and waits for White while the GUI waits for its reply.
#[test]
fn h9_move_sent_before_the_features_arrive() {
    let mut gui = Gui::scenario("cecp-late-features");
    gui.send("xboard");
    gui.send("protover 2");
    gui.send("new");
    gui.send("g1f3");
    let features = gui.expect("feature ");
    for name in feature_names(&features) {
        if name != "done" {
            gui.send(&format!("accepted {name}"));
        }
    }
    gui.expect("Error (unknown command): g1f3");
    gui.recorded("accepted usermove");
    gui.check(&["--at", "6"])
        .verdict(
            "H9",
            // The bare g1f3 was the right form when it was sent (no feature was known yet):
            // the fault is sending it before the features, one finding.
            &["CECP-COMMAND-BEFORE-FEATURES"],
            Some(("search", "STALL", Some("move"))),
        )
        .blames("CECP-COMMAND-BEFORE-FEATURES", "gui");
}

/// H12 abulmo/edax-reversi `src/nboard.c`: Edax accepts only "nboard 1" and reports an error
/// on `nboard 2`, the current version of the protocol.
#[test]
fn h12_engine_rejects_nboard_version_2() {
    let mut gui = Gui::scenario("nboard-version-1-only");
    gui.send("nboard 2");
    gui.send("ping 1");
    gui.expect("pong 1");
    gui.quit().verdict("H12", &["NBOARD-VERSION"], NO_HANG);
}

// ---------------------------------------------------------------------- 5.2 Synchronisation

/// S1 AndyGrant/Ethereal#177 "while is searching the engine doesn't reply to 'isready'":
/// `readyok` only once the search is over.
#[test]
fn s1_readyok_only_after_a_timed_search() {
    let mut gui = Gui::scenario("readyok-after-search");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go nodes 1500000");
    gui.expect("info");
    gui.send("isready");
    gui.expect("bestmove");
    gui.expect("readyok");
    gui.quit()
        .verdict("S1", &["UCI-READYOK-DELAYED-BY-SEARCH"], NO_HANG)
        .blames("UCI-READYOK-DELAYED-BY-SEARCH", "engine");
}

/// S2 SnowballSH/Avalanche#17 "Responding to isready during a search": cutechess warns "not
/// responding to a ping". Twenty seconds into an analysis the `isready` is still unanswered
/// while the engine searches on: a ping stall past cutechess's 15 s, not a search one (an
/// infinite search owes no bestmove until `stop`).
#[test]
fn s2_isready_unanswered_during_infinite_search() {
    let mut gui = Gui::scenario("readyok-after-search");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go infinite");
    gui.expect("info");
    gui.send("isready");
    gui.pause(300);
    gui.recorded("isready");
    let live = gui.check(&["--at", "20"]);
    live.verdict(
        "S2",
        &["UCI-ISREADY-TIMEOUT", "X-HANG"],
        Some(("ping", "TIMEOUT", Some("readyok"))),
    );
    assert_eq!(
        live.hang().request.as_deref(),
        Some("isready"),
        "{}",
        live.describe()
    );
    gui.send("stop");
    gui.expect("readyok");
    gui.quit()
        .verdict("S2 after stop", &["UCI-READYOK-DELAYED-BY-SEARCH"], NO_HANG);
}

/// S3 nescitus/rodent-iv#29 "engine doesn't react to isready after go infinite": no `readyok`
/// until `stop`.
#[test]
fn s3_readyok_only_after_stop_in_analysis() {
    let mut gui = Gui::scenario("readyok-after-search");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go infinite");
    gui.expect("info");
    gui.send("isready");
    gui.pause(600);
    gui.send("stop");
    gui.expect("bestmove");
    gui.expect("readyok");
    gui.quit()
        .verdict("S3", &["UCI-READYOK-DELAYED-BY-SEARCH"], NO_HANG);
}

/// S4 gekomad/Cinnamon#3 "Do not stop search on isready": the engine aborted its search on
/// `isready` (the spec: answer "without stopping the search"). One fault: the `readyok` itself
/// came at once, it was not delayed by a search.
#[test]
fn s4_isready_stops_the_search() {
    let mut gui = Gui::scenario("isready-stops-search");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go infinite");
    gui.expect("info");
    gui.send("isready");
    gui.expect("bestmove");
    gui.expect("readyok");
    gui.quit()
        .verdict("S4", &["UCI-ISREADY-STOPS-SEARCH"], NO_HANG)
        .blames("UCI-ISREADY-STOPS-SEARCH", "engine");
}

/// S5 niklasf/python-chess#83 "0readyok?": `isready` during an early search, and the engine's
/// non-atomic writes garble the answer into `0readyok`.
#[test]
fn s5_readyok_garbled_by_interleaved_writes() {
    let mut gui = Gui::scenario("interleaved-readyok");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go nodes 1500000");
    gui.expect("info");
    gui.send("isready");
    gui.expect("0readyok");
    gui.expect("bestmove");
    gui.quit()
        .verdict(
            "S5",
            // `0readyok` is also no UCI message at all.
            &["X-LINE-INTERLEAVED", "UCI-UNKNOWN-COMMAND"],
            NO_HANG,
        )
        .blames("X-LINE-INTERLEAVED", "engine");
}

/// S6 pychess/pychess#551 "UCIEngine analysis mode synchronization problems": the GUI sent a
/// new `position` and `go` before the running search's `bestmove`, then took old `info` for
/// the new position.
#[test]
fn s6_new_position_and_go_while_searching() {
    let mut gui = Gui::scenario("well-behaved");
    gui.uci_handshake();
    gui.send("position startpos moves e2e4");
    gui.send("go nodes 1500000");
    gui.expect("info");
    gui.send("position startpos moves e2e4 e7e5");
    gui.send("go infinite");
    gui.expect("bestmove e7e5");
    gui.expect("info");
    gui.pause(200);
    gui.send("stop");
    gui.expect("bestmove g1f3");
    gui.quit()
        .verdict(
            "S6",
            &["UCI-POSITION-WHILE-SEARCHING", "UCI-GO-WHILE-SEARCHING"],
            NO_HANG,
        )
        .blames("UCI-GO-WHILE-SEARCHING", "gui")
        .blames("UCI-POSITION-WHILE-SEARCHING", "gui");
}

/// S10 dje-dev/Ceres#65 "Ceres doesn't output a readyok (nibbler)": the engine never becomes
/// ready; twenty seconds on, cutechess's 15 s ping deadline has passed.
#[test]
fn s10_readyok_never_comes() {
    let mut gui = Gui::scenario("no-readyok");
    gui.send("uci");
    gui.expect("uciok");
    gui.send("isready");
    gui.recorded("isready");
    gui.check(&["--at", "20"])
        .verdict(
            "S10",
            &["UCI-ISREADY-TIMEOUT", "X-HANG"],
            Some(("ping", "TIMEOUT", Some("readyok"))),
        )
        .blames("UCI-ISREADY-TIMEOUT", "engine");
}

/// S12 lichess-org/stockfish.wasm#13 "Freezes when 'go' inmediatly after receive 'bestmove'":
/// a legal `go` right after `bestmove`, and the engine never answers it.
#[test]
fn s12_engine_freezes_on_go_right_after_bestmove() {
    let mut gui = Gui::scenario("freeze-after-quick-go");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go depth 3");
    gui.expect("bestmove e2e4");
    gui.send("position startpos moves e2e4 e7e5");
    gui.send("go movetime 200");
    gui.recorded("go movetime 200");
    gui.check(&["--at", "6"]).verdict(
        "S12",
        &["UCI-BESTMOVE-LATE", "X-HANG"],
        Some(("search", "TIMEOUT", Some("bestmove"))),
    );
}

/// S9 Disservin/fastchess#631 "Add 'connection stalls' termination": stalls and crashes were
/// both labelled disconnects. An engine that exits (code 3) mid-search is a DISCONNECT, with
/// its exit code, not a stall.
#[test]
fn s9_exit_mid_search_is_a_disconnect_not_a_stall() {
    let mut gui = Gui::scenario("exit-mid-search");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go wtime 60000 btime 60000");
    let report = gui.engine_ends();
    report.verdict(
        "S9",
        &["X-ENGINE-EXIT"],
        Some(("disconnect", "DISCONNECT", Some("bestmove"))),
    );
    let exit = report.exit();
    assert!(exit.contains("code 3"), "{exit}\n{}", report.describe());
}
