//! Real engines from Debian (stockfish, fairymax, gnuchess) played through the proxy.

use crate::common;

use common::engine_session::*;
use common::*;
use kibitzer::recording::Source;

#[test]
fn stockfish_uci_handshake_and_search() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("sf.jsonl");
    let sf = engine("stockfish");
    let mut s = Session::start(&rec, &[sf.to_str().unwrap()]);
    s.send("uci");
    s.expect("uciok", |l| l == "uciok");
    s.send("isready");
    s.expect("readyok", |l| l == "readyok");
    s.send("position startpos moves e2e4 e7e5");
    s.send("go depth 8");
    let best = s.expect("bestmove", |l| l.starts_with("bestmove "));
    assert!(best.len() >= "bestmove a1a2".len(), "{best}");
    let (received, code) = s.finish("quit");
    assert_eq!(code, 0);
    assert!(received.iter().any(|l| l.starts_with("info depth 8 ")));
    assert_recorded_as_seen(&rec, &received);
    let r = read_recording(&rec);
    let gui: Vec<_> = r
        .events
        .iter()
        .filter(|e| e.src == Source::Gui)
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(
        gui,
        [
            "uci",
            "isready",
            "position startpos moves e2e4 e7e5",
            "go depth 8",
            "quit"
        ]
    );
}

#[test]
fn fairymax_cecp_handshake_and_moves() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("fm.jsonl");
    assert!(
        cecp_game(&rec, &[engine("fairymax").to_str().unwrap()], "fairymax"),
        "fairymax never sent done=1"
    );
}
