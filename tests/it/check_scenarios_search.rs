//! Real-world cases (`/work/shared/design/real-world-cases.md`) rebuilt end to end, of a search's life and of move legality:
//! the test plays the GUI line by line with the timing the case needs, and `kibitzer check`
//! must name exactly the rules an expert would name and give the right hang verdict.

use crate::check_scenarios_support::*;

// --------------------------------------------------------------------- 5.3 Search lifecycle

/// L1 lichess-bot-devs/lichess-bot#893: `go … depth 5 movetime 2000` answered far too late.
#[test]
fn l1_bestmove_long_after_movetime() {
    let mut gui = Gui::scenario("slow-bestmove");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go depth 5 movetime 300");
    gui.expect("bestmove e2e4");
    gui.quit()
        .verdict("L1", &["UCI-BESTMOVE-LATE"], NO_HANG)
        .blames("UCI-BESTMOVE-LATE", "engine");
}

/// L2 Disservin/fastchess#486 "Illegal move <none> played by sf1": the runner gave up on a slow
/// search and sent `ucinewgame` and `isready` for the next game; the late `bestmove` arrived
/// after them, and the `readyok` only after it.
#[test]
fn l2_late_bestmove_after_the_next_game_began() {
    let mut gui = Gui::scenario("slow-bestmove");
    gui.send("uci");
    gui.expect("uciok");
    gui.send("ucinewgame");
    gui.send("isready");
    gui.expect("readyok");
    gui.send("position startpos");
    gui.send("go movetime 300");
    gui.pause(900);
    gui.send("ucinewgame");
    gui.send("isready");
    gui.expect("bestmove e2e4");
    gui.expect("readyok");
    gui.quit().verdict(
        "L2",
        &["UCI-BESTMOVE-LATE", "UCI-READYOK-DELAYED-BY-SEARCH"],
        NO_HANG,
    );
}

/// L3 cutechess/cutechess#180 "Premature 'bestmove' in ponder mode handled incorrectly":
/// Carballo left ponder mode on its own.
#[test]
fn l3_bestmove_while_pondering() {
    let mut gui = Gui::scenario("bestmove-in-ponder");
    gui.uci_handshake();
    gui.send("position startpos moves e2e4 e7e5 g1f3");
    gui.send("go ponder wtime 60000 btime 60000");
    gui.expect("bestmove b8c6");
    gui.quit()
        .verdict("L3", &["UCI-BESTMOVE-IN-PONDER"], NO_HANG)
        .blames("UCI-BESTMOVE-IN-PONDER", "engine");
}

/// L4 LeelaChessZero/lc0#693 "better fix for issue 651": no `bestmove` after `stop`. Twenty
/// seconds on, cutechess's 15 s deadline after `stop` has passed.
#[test]
fn l4_no_bestmove_after_stop() {
    let mut gui = Gui::scenario("ignores-stop");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go infinite");
    gui.expect("info");
    gui.send("stop");
    gui.recorded("stop");
    gui.check(&["--at", "20"])
        .verdict(
            "L4",
            &["UCI-BESTMOVE-MISSING-AFTER-STOP", "X-HANG"],
            Some(("search", "TIMEOUT", Some("bestmove"))),
        )
        .blames("UCI-BESTMOVE-MISSING-AFTER-STOP", "engine");
}

/// L7 LeelaChessZero/lc0#1209 "CPU usage high even for positions with zero moves": `go
/// infinite` on a checkmated position ("UCI hosts should not send malformed UCI commands").
#[test]
fn l7_go_infinite_on_a_mated_position() {
    let mut gui = Gui::scenario("well-behaved");
    gui.uci_handshake();
    gui.send(MATED);
    gui.send("go infinite");
    gui.expect("info");
    gui.pause(300);
    gui.send("stop");
    gui.expect("bestmove 0000");
    gui.quit()
        .verdict("L7", &["UCI-GO-ON-TERMINAL-POSITION"], NO_HANG)
        .blames("UCI-GO-ON-TERMINAL-POSITION", "gui");
}

/// L8 billforsternz/retro-sargon#3 "Engine won't stop calculating": `go movetime 1000` acts
/// like infinite until the GUI sends `stop`.
#[test]
fn l8_movetime_ignored_until_stop() {
    let mut gui = Gui::scenario("ignores-movetime");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go movetime 300");
    gui.expect("info");
    gui.pause(1200);
    gui.send("stop");
    gui.expect("bestmove e2e4");
    gui.quit()
        .verdict("L8", &["UCI-BESTMOVE-LATE"], NO_HANG)
        .blames("UCI-BESTMOVE-LATE", "engine");
}

/// L10 Disservin/fastchess#1029 "Crash is not detected when using fixed nodes": the engine
/// crashes during a `go nodes` search; the recording has the crash and its signal.
#[test]
fn l10_crash_during_a_nodes_search() {
    let mut gui = Gui::scenario("crash-mid-search");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go nodes 1000000");
    let report = gui.engine_ends();
    report
        .verdict(
            "L10",
            &["X-ENGINE-EXIT"],
            Some(("disconnect", "DISCONNECT", Some("bestmove"))),
        )
        .blames("X-ENGINE-EXIT", "engine");
    let exit = report.exit();
    assert!(exit.contains("SIGSEGV"), "{exit}\n{}", report.describe());
}

/// L11 lynx-chess/Lynx#284 + cutechess/cutechess#472: `info … pv` after `bestmove`, which the
/// GUI then checked against the next position ("constant warnings about illegal pv moves").
#[test]
fn l11_info_after_bestmove() {
    let mut gui = Gui::scenario("info-after-bestmove");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go depth 3");
    gui.expect("bestmove e2e4");
    gui.expect("info");
    gui.quit()
        .verdict("L11", &["UCI-INFO-AFTER-BESTMOVE"], NO_HANG)
        .blames("UCI-INFO-AFTER-BESTMOVE", "engine");
}

/// L12 jdart1/arasan-chess#48 "Winboard protocol: reply move may be invalidated by commands":
/// `undo` sent while the engine thinks (not in force mode), and the reply it had picked comes
/// anyway, for a position that no longer exists.
#[test]
fn l12_undo_while_thinking_then_a_stale_move() {
    let mut gui = Gui::scenario("cecp-move-after-undo");
    gui.cecp_handshake();
    gui.send("new");
    gui.send("e2e4");
    gui.pause(200);
    gui.send("undo");
    gui.expect("move e7e5");
    gui.quit()
        .verdict(
            "L12",
            &["CECP-UNDO-WITHOUT-FORCE", "CECP-MOVE-ILLEGAL"],
            NO_HANG,
        )
        .blames("CECP-UNDO-WITHOUT-FORCE", "gui")
        .blames("CECP-MOVE-ILLEGAL", "engine");
}

/// L13 lichess-bot-devs/lichess-bot#1036 "xboard: lichess does neither send quit nor result
/// command after engine timed out": the engine's clock ran out (0.5 s left, it took 2 s) and
/// the GUI never sent `result`.
#[test]
fn l13_loss_on_time_without_result() {
    let mut gui = Gui::scenario("cecp-slow-move");
    gui.cecp_handshake();
    gui.send("new");
    gui.send("level 0 1 0");
    gui.send("time 50");
    gui.send("otim 6000");
    gui.send("e2e4");
    gui.expect("move e7e5");
    gui.pause(500);
    gui.quit()
        .verdict(
            "L13",
            // The scripted engine sleeps to be late, and the proxy's samples see it asleep.
            &["X-CLOCK-UNDERFLOW", "CECP-RESULT-MISSING", "X-HANG-ASLEEP"],
            NO_HANG,
        )
        .blames("X-CLOCK-UNDERFLOW", "engine");
}

/// L14 lichess-bot-devs/lichess-bot#181: "It is probably an error for a 'go' command to be
/// sent to a thinking engine" (after a move out of force mode).
#[test]
fn l14_go_sent_to_a_thinking_engine() {
    let mut gui = Gui::scenario("cecp-ok");
    gui.cecp_handshake();
    gui.send("new");
    // One write: the `go` reaches the engine while it thinks, whatever the load.
    gui.send("e2e4\ngo");
    gui.expect("move e7e5");
    gui.send("ping 1");
    gui.expect("pong 1");
    gui.quit()
        .verdict("L14", &["CECP-GO-WHILE-THINKING"], NO_HANG)
        .blames("CECP-GO-WHILE-THINKING", "gui");
}

// ----------------------------------------------------------------------- 5.4 Move legality

/// M1 niklasf/python-chess#1119 "Leela crashes with 'invalid uci' when analyzing a game": in a
/// checkmated position Lc0 sent `a1a1` "where it should send `0000`". The GUI asked for a
/// search of a finished game, and the engine spelled "no move" wrongly: a null-move format
/// fault, not an illegal move.
#[test]
fn m1_a1a1_instead_of_0000_in_a_mated_position() {
    let mut gui = Gui::scenario("null-move-a1a1");
    gui.uci_handshake();
    gui.send(MATED);
    gui.send("go depth 3");
    gui.expect("bestmove a1a1");
    gui.quit().verdict(
        "M1",
        &["UCI-GO-ON-TERMINAL-POSITION", "UCI-BESTMOVE-NULL-FORMAT"],
        NO_HANG,
    );
}

/// M2 Witek902/Caissa#24 "Crash after bestmove 0000 (mate/stalemate at root)": the engine
/// answers a search of a mated position correctly, then dies before the GUI's next `isready`.
#[test]
fn m2_crash_after_bestmove_0000() {
    let mut gui = Gui::scenario("crash-after-null-bestmove");
    gui.uci_handshake();
    gui.send(MATED);
    gui.send("go depth 3");
    gui.expect("bestmove 0000");
    gui.send("isready");
    let report = gui.engine_ends();
    report
        .verdict(
            "M2",
            &["UCI-GO-ON-TERMINAL-POSITION", "X-ENGINE-EXIT"],
            Some(("disconnect", "DISCONNECT", Some("readyok"))),
        )
        .blames("X-ENGINE-EXIT", "engine");
    let exit = report.exit();
    assert!(exit.contains("SIGSEGV"), "{exit}\n{}", report.describe());
}

/// M3 official-stockfish/Stockfish#7000 "Engine process terminates on illegal moves in position
/// command, causing GUI … to freeze": `position startpos moves d2d4 a1f8` makes the engine exit
/// with code 1; the GUI keeps writing to the dead pipe.
#[test]
fn m3_illegal_position_kills_the_engine() {
    let mut gui = Gui::scenario("exit-on-illegal-position");
    gui.uci_handshake();
    gui.send("position startpos moves d2d4 a1f8\ngo depth 10");
    // The engine says why on stderr, then closes its input: from then on the GUI's writes fail,
    // as they would on the bare engine's pipe, and the recording says when that began.
    gui.recorded_event("the engine's complaint on stderr", |e| {
        e["src"] == "stderr"
            && e["text"]
                .as_str()
                .is_some_and(|t| t.contains("illegal move"))
    });
    gui.recorded_event("the engine closing its input", |e| {
        e["kind"] == "engine_stdin_closed"
    });
    gui.send_refused("isready");
    let report = gui.engine_ends();
    report
        .verdict(
            "M3",
            &["UCI-POSITION-ILLEGAL-MOVE", "X-ENGINE-EXIT"],
            Some(("disconnect", "DISCONNECT", Some("bestmove"))),
        )
        .blames("UCI-POSITION-ILLEGAL-MOVE", "gui")
        .blames("X-ENGINE-EXIT", "engine");
    let exit = report.exit();
    assert!(exit.contains("code 1"), "{exit}\n{}", report.describe());
}

/// M4 cutechess/cutechess#109 "Forfeit if Xboard engine claims illegal move": the GUI never
/// sends illegal moves, so `Illegal move` for a legal one is the engine's bug.
#[test]
fn m4_engine_rejects_a_legal_move() {
    let mut gui = Gui::scenario("cecp-illegal-move-reply");
    gui.cecp_handshake();
    gui.send("new");
    gui.send("e2e4");
    gui.expect("Illegal move: e2e4");
    gui.quit()
        .verdict("M4", &["CECP-ILLEGAL-MOVE-REPLY"], NO_HANG)
        .blames("CECP-ILLEGAL-MOVE-REPLY", "engine");
}

/// M6 Disservin/fastchess#377 "question about illegal bestmove handling": an illegal
/// `bestmove`.
#[test]
fn m6_illegal_bestmove() {
    let mut gui = Gui::scenario("illegal-bestmove");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go depth 3");
    gui.expect("bestmove e2e5");
    gui.quit()
        .verdict("M6", &["UCI-BESTMOVE-ILLEGAL"], NO_HANG)
        .blames("UCI-BESTMOVE-ILLEGAL", "engine");
}

/// M7 okuhara/edax-reversi-AVX#1 and abulmo/edax-reversi#50 "nboard pass not parsed": Edax
/// ignored the trailing pass `B[PA]` of `set game`, so it thought Black (who has no move) was
/// to play and answered a pass while White has moves: "Illegal move from engine: PA/-64".
#[test]
fn m7_trailing_pass_of_set_game_ignored() {
    // A legal game from the start (tests/record_nboard.rs): Black has no move after these 28,
    // and passes.
    const MOVES: [&str; 29] = [
        "E6", "D6", "C3", "D3", "C4", "B5", "D2", "F7", "D7", "C6", "A6", "D8", "G8", "F5", "E8",
        "C5", "G4", "F6", "G7", "H3", "E7", "F8", "B6", "H6", "G6", "C7", "B7", "H8", "PA",
    ];
    let mut gui = Gui::scenario("nboard-ignores-trailing-pass");
    gui.send("nboard 2");
    gui.send("set depth 4");
    gui.send(&set_game(&MOVES));
    gui.send("go");
    gui.expect("=== PA");
    gui.quit()
        .verdict(
            "M7",
            &["NBOARD-MOVE-ILLEGAL", "NBOARD-SET-GAME-PARSE"],
            NO_HANG,
        )
        .blames("NBOARD-MOVE-ILLEGAL", "engine");
}

/// M8 nguyenpham/Banksia#7 "Illegal move": games with xboard engines end "illegal move".
#[test]
fn m8_engine_plays_an_illegal_move() {
    let mut gui = Gui::scenario("cecp-illegal-move");
    gui.cecp_handshake();
    gui.send("new");
    gui.send("e2e4");
    gui.expect("move e7e4");
    gui.quit()
        .verdict("M8", &["CECP-MOVE-ILLEGAL"], NO_HANG)
        .blames("CECP-MOVE-ILLEGAL", "engine");
}

/// Not a numbered case, but the race behind H5 (python-chess insists on `ping` to stay in
/// sync): pinged while it owes its move, the engine answers `pong` first. "If you do [receive a
/// ping while on move], you must not send the 'pong' reply to xboard until after you send your
/// move."
#[test]
fn cecp_pong_before_move() {
    let mut gui = Gui::scenario("cecp-pong-before-move");
    gui.cecp_handshake();
    gui.send("new");
    // One write: the ping reaches the engine while it thinks, whatever the load.
    gui.send("e2e4\nping 1");
    gui.expect("pong 1");
    gui.expect("move e7e5");
    gui.quit()
        .verdict("pong before move", &["CECP-PONG-BEFORE-MOVE"], NO_HANG)
        .blames("CECP-PONG-BEFORE-MOVE", "engine");
}
