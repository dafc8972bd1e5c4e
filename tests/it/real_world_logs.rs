//! Issue 13: real-world logs written the way their tools write them, through the binary.

use crate::common;

use common::run_ok;
use std::path::{Path, PathBuf};

fn fixture(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(p)
}

/// Point 1: `asctime: << cmd` lines (a 2019 lichess-bot fork, python-chess's arrows without
/// its `<UciProtocol (pid=N)>` anchor) among HTTP and game-queue lines: one engine session in
/// which every request is answered, not a session per timestamp.
#[test]
fn python_chess_arrows_after_any_prefix_pair_up() {
    let log = fixture("logs/python-chess__lichess-bot-2019-fork-arrows.log");
    let log = log.to_str().unwrap();
    let (_, summary) = run_ok(&["import", log, "-o", "/dev/null"]);
    assert!(summary.contains(": python-chess -> "), "{summary}");
    assert!(
        summary.contains("sessions: [python-chess], engine;"),
        "{summary}"
    );
    let (decode, _) = run_ok(&["decode", log]);
    assert!(
        decode.contains("session [engine]: uci (GUI sent 'uci')"),
        "{decode}"
    );
    assert!(decode.contains("handshake done"), "{decode}");
    assert!(decode.contains("game 1: normal 12 plies"), "{decode}");
    assert!(decode.contains("open: nothing owed at the end"), "{decode}");
    // The HTTP lines are the application's notes, not traffic.
    assert!(decode.contains("** note: https://lichess.org:443 \"POST /api/bot/game/"));
    let (check, _) = run_ok(&["check", log]);
    assert!(check.contains("passed: 0 error(s)"), "{check}");

    // A prefix of another shape (python-chess 0.2x logged its process object) is the same.
    let text = std::fs::read_to_string(fixture(
        "logs/python-chess__lichess-bot-2019-fork-arrows.log",
    ))
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other-prefix.log");
    let rewritten: String = text
        .lines()
        .map(|l| match l.split_once(": ") {
            Some((stamp, rest)) if rest.starts_with("<< ") || rest.starts_with(">> ") => {
                format!("[{stamp}] DEBUG <chess.uci.PopenProcess object at 0x7f3a2c> {rest}\n")
            }
            _ => format!("{l}\n"),
        })
        .collect();
    std::fs::write(&other, rewritten).unwrap();
    let (_, summary) = run_ok(&["import", other.to_str().unwrap(), "-o", "/dev/null"]);
    assert!(summary.contains(": python-chess -> "), "{summary}");
    assert!(
        summary.contains("<chess.uci.PopenProcess object at 0x7f3a2c>"),
        "the process names the session: {summary}"
    );
}

const PLAY_THEN_ANALYSE: &str = r#"
import chess, chess.engine, sys
kib, rec, sf = sys.argv[1:4]
eng = chess.engine.SimpleEngine.popen_uci([kib, "record", "-o", rec, "--", sf])
eng.configure({"Threads": 1})
board = chess.Board()
sans = []
for _ in range(12):
    move = eng.play(board, chess.engine.Limit(depth=6)).move
    sans.append(board.san(move))
    board.push(move)
eng.analyse(board, chess.engine.Limit(depth=8), multipv=2)
eng.quit()
print(" ".join(sans))
"#;

/// Point 5: a bestmove is a game move only when the GUI plays it. python-chess plays 12 plies
/// and then analyses the final position with `multipv=2`: the game has 12 plies, not 13.
#[test]
fn an_analysis_after_the_game_adds_no_move() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("pc.jsonl");
    let played = common::python_gui(PLAY_THEN_ANALYSE, &rec, &common::engine("stockfish"));
    assert_eq!(played.len(), 12);
    let rec = rec.to_str().unwrap();
    let (decode, _) = run_ok(&["decode", rec]);
    assert!(decode.contains("game 1: normal 12 plies"), "{decode}");
    let (pgn, _) = run_ok(&["export", rec, "--pgn"]);
    let movetext: String = pgn
        .lines()
        .skip_while(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let sans: Vec<&str> = movetext
        .split_whitespace()
        .filter(|t| !t.starts_with('{') && !t.ends_with('}') && !t.ends_with('.') && *t != "*")
        .collect();
    assert_eq!(sans, played, "{pgn}");
}

/// Point 7: an engine-vs-engine log holds one game, seen once by each engine's session: it
/// exports as one game with both engines' names and each side's evaluations.
#[test]
fn an_engine_vs_engine_game_exports_once_with_both_names() {
    let log = fixture("logs/xboard-debug__fairymax-vs-polyglot-stockfish.log");
    let (pgn, _) = run_ok(&["export", log.to_str().unwrap(), "--pgn"]);
    assert_eq!(pgn.matches("[Event ").count(), 1, "{pgn}");
    assert!(pgn.contains("[White \"Fairy-Max 5.0b\"]"), "{pgn}");
    assert!(pgn.contains("[Black \"Stockfish 15.1\"]"), "{pgn}");
    assert!(!pgn.contains("\"GUI\""), "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    // Fairy-Max's eval after its first move, Stockfish's after its reply.
    assert!(pgn.contains("1. d4 {+0.08/6} Nf6 {-0.38/18}"), "{pgn}");
    assert!(pgn.contains("Rd1#"), "{pgn}");

    let log = fixture("logs/fastchess__illegal-move-quoted.log");
    let (pgn, _) = run_ok(&["export", log.to_str().unwrap(), "--pgn"]);
    assert_eq!(pgn.matches("[Event ").count(), 1, "{pgn}");
    assert!(pgn.contains("[White \"Stockfish 15.1\"]"), "{pgn}");
    assert!(pgn.contains("[Black \"BuggyFish 0.1\"]"), "{pgn}");
    // The engines never learn the result: the runner's `Finished game` line gives it.
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(
        pgn.contains("[Termination \"Black makes an illegal move\"]"),
        "{pgn}"
    );

    // Two games of one engine each (not a pair: the same side) stay two games.
    let one = std::fs::read_to_string(fixture("logs/fastchess__illegal-move-quoted.log")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let twice = dir.path().join("fastchess__two.log");
    let only_sf1: String = one
        .lines()
        .filter(|l| l.contains(" sf1 "))
        .map(|l| format!("{l}\n"))
        .collect();
    let renamed = only_sf1.replace(" sf1 ", " sf3 ");
    std::fs::write(&twice, format!("{only_sf1}{renamed}")).unwrap();
    let (pgn, _) = run_ok(&["export", twice.to_str().unwrap(), "--pgn"]);
    assert_eq!(pgn.matches("[Event ").count(), 2, "{pgn}");
}
