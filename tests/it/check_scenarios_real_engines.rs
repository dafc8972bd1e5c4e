//! Real-world cases (`/work/shared/design/real-world-cases.md`) rebuilt end to end, with real engines (Stockfish,
//! GNU Chess, Fairy-Max) driven with misuse:
//! the test plays the GUI line by line with the timing the case needs, and `kibitzer check`
//! must name exactly the rules an expert would name and give the right hang verdict.

use crate::check_scenarios_support::*;

// ------------------------------------------------------- Real engines, driven with misuse

/// What Stockfish 15.1 itself always draws: its start-up banner is no UCI message, and its
/// `option name Debug Log File type string default ` ends in a space.
const STOCKFISH: [&str; 2] = ["UCI-UNKNOWN-COMMAND", "X-LEADING-WHITESPACE"];

fn with_stockfish(rules: &[&'static str]) -> Vec<&'static str> {
    STOCKFISH.iter().chain(rules).copied().collect()
}

/// M3 with the real Stockfish 15.1, which does not exit: it drops the illegal move (and those
/// after it) and searches what is left. The GUI is at fault, and nothing else is wrong.
#[test]
fn m3_stockfish_given_an_illegal_move_in_position() {
    let mut gui = Gui::real("stockfish", &[]);
    gui.uci_handshake();
    gui.send("position startpos moves e2e4 e7e5 e1e3");
    gui.send("go depth 6");
    gui.expect("bestmove");
    gui.quit()
        .verdict(
            "M3 stockfish",
            &with_stockfish(&["UCI-POSITION-ILLEGAL-MOVE"]),
            NO_HANG,
        )
        .blames("UCI-POSITION-ILLEGAL-MOVE", "gui");
}

/// M3 with the real GNU Chess 6.2.7 in UCI mode (`-u`, whose handshake is reliable, unlike its
/// `protover 2`): it plays the illegal king move e1e3 and searches for Black. After an illegal
/// `position` the engine's behaviour is undefined and the board is unknown: its PVs and its
/// bestmove cannot be judged, only the GUI's fault stands.
#[test]
fn m3_gnuchess_given_an_illegal_move_in_position() {
    let mut gui = Gui::real("gnuchess", &["-u"]);
    gui.uci_handshake();
    gui.send("position startpos moves e2e4 e7e5 e1e3");
    gui.send("go depth 4");
    gui.expect("bestmove");
    gui.quit()
        .verdict("M3 gnuchess", &["UCI-POSITION-ILLEGAL-MOVE"], NO_HANG)
        .blames("UCI-POSITION-ILLEGAL-MOVE", "gui");
}

/// `setoption` while Stockfish searches (the UCI text: setoption "will only be sent when the
/// engine is waiting"). Stockfish 15.1 finishes the search before it resizes its hash.
#[test]
fn stockfish_setoption_during_a_search() {
    let mut gui = Gui::real("stockfish", &[]);
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go movetime 1500");
    gui.expect("info depth 1 ");
    gui.send("setoption name Hash value 32");
    gui.expect("bestmove");
    gui.send("isready");
    gui.expect("readyok");
    gui.quit()
        .verdict(
            "setoption during a search",
            &with_stockfish(&["UCI-SETOPTION-WHILE-SEARCHING"]),
            NO_HANG,
        )
        .blames("UCI-SETOPTION-WHILE-SEARCHING", "gui");
}

/// H11 with the real Stockfish: `go` before any `isready`/`readyok`.
#[test]
fn h11_stockfish_go_before_readyok() {
    let mut gui = Gui::real("stockfish", &[]);
    gui.send("uci");
    gui.expect("uciok");
    gui.send("position startpos");
    gui.send("go depth 5");
    gui.expect("bestmove");
    gui.quit()
        .verdict(
            "H11 stockfish",
            &with_stockfish(&["UCI-GO-BEFORE-READYOK"]),
            NO_HANG,
        )
        .blames("UCI-GO-BEFORE-READYOK", "gui");
}

/// `go infinite` never stopped, then the GUI closes its input without `quit`. Stockfish takes
/// the end of its input as `quit`: it ends the search with a `bestmove` and exits 0. That
/// bestmove is no fault (the GUI is gone, nobody can send `stop` any more), the clean exit is
/// no crash, and nothing is owed at the end.
#[test]
fn stockfish_go_infinite_never_stopped_then_gui_closes() {
    let mut gui = Gui::real("stockfish", &[]);
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go infinite");
    gui.expect("info depth 3 ");
    gui.close_input(&[])
        .verdict("go infinite, then EOF (stockfish)", &STOCKFISH, NO_HANG);
}

/// The same with GNU Chess 6.2.7 (`-u`), which ignores the end of its input and searches on:
/// the proxy stops it half a second later. The verdict names what was owed and the disconnect;
/// the engine lived on after the GUI left (X-ORPHAN-PROCESS); its death by the proxy's SIGTERM
/// is no crash of its own.
#[test]
fn gnuchess_go_infinite_never_stopped_then_gui_closes() {
    let mut gui = Gui::real("gnuchess", &["-u"]);
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go infinite");
    gui.expect("info");
    gui.pause(300);
    let report = gui.close_input(&[]);
    report.verdict(
        "go infinite, then EOF (gnuchess)",
        &["X-ORPHAN-PROCESS"],
        Some(("disconnect", "DISCONNECT", Some("bestmove"))),
    );
    let h = report.hang();
    assert_eq!(
        h.request.as_deref(),
        Some("go infinite"),
        "{}",
        report.describe()
    );
    let exit = report.exit();
    assert!(exit.contains("SIGTERM"), "{exit}\n{}", report.describe());
}

/// `setboard` to Fairy-Max, which declares `setboard=0` (it sets positions up with `edit`) and
/// answers `Error (unknown command): setboard`.
#[test]
fn fairymax_setboard_without_the_feature() {
    let mut gui = Gui::real("fairymax", &[]);
    gui.cecp_handshake();
    gui.send("new");
    gui.send("force");
    gui.send("setboard rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
    gui.send("ping 1");
    gui.expect("pong 1");
    gui.quit()
        .verdict(
            "setboard to fairymax",
            &["CECP-SETBOARD-WITHOUT-FEATURE"],
            NO_HANG,
        )
        .blames("CECP-SETBOARD-WITHOUT-FEATURE", "gui");
}

/// M4 from the other side with the real Fairy-Max: the GUI sends an illegal move and the engine
/// rightly refuses it (`Illegal move:e2e5`). The GUI is at fault, on its own line
/// (CECP-GUI-MOVE-ILLEGAL, the GUI's half of CECP-ILLEGAL-MOVE-REPLY); the engine's refusal is
/// right and gets no finding.
#[test]
fn m4_fairymax_refuses_an_illegal_gui_move() {
    let mut gui = Gui::real("fairymax", &[]);
    gui.cecp_handshake();
    gui.send("new");
    gui.send("force");
    gui.send("e2e5");
    gui.expect("Illegal move");
    gui.send("ping 1");
    gui.expect("pong 1");
    gui.quit()
        .verdict("M4 fairymax", &["CECP-GUI-MOVE-ILLEGAL"], NO_HANG)
        .blames("CECP-GUI-MOVE-ILLEGAL", "gui");
}
