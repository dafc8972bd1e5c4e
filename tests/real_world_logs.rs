//! Issue 13: real-world logs written the way their tools write them, through the binary.

mod common;

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
    assert!(check.contains("ok: 0 error(s)"), "{check}");

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
