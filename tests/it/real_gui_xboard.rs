//! Issue 13, point 10: GUIs and engines nobody here wrote, through the proxy.
//!
//! - The real xboard (Debian's, under xvfb-run) plays Fairy-Max against Fairy-Max with both
//!   engines started as `kibitzer record -o ... -- fairymax`, and saves its PGN: each
//!   recording must decode to exactly that game.
//! - Debian's Fairy-Stockfish plays itself at Capablanca chess (10x8) through the proxy, a
//!   small GUI feeding its bestmoves back: every move is kept, the board is "unknown" as a
//!   note, and nothing is an error.

use crate::common;

use common::{engine, kibitzer, run_ok};
use std::path::Path;
use std::time::{Duration, Instant};

fn finished(rec: &Path) -> bool {
    std::fs::read_to_string(rec).is_ok_and(|t| t.contains("\"kind\":\"engine_exit\""))
}

#[test]
fn xboard_plays_fairymax_against_fairymax_through_the_proxy() {
    let fairymax = engine("fairymax");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kib = env!("CARGO_BIN_EXE_kibitzer");
    let cp = |side: &str| {
        format!(
            "{kib} record -o {} -- {}",
            d.join(format!("{side}.jsonl")).display(),
            fairymax.display()
        )
    };
    let pgn = d.join("xboard.pgn");
    // `env -i`-like: xboard and the engines see a small, fixed environment.
    let game = common::xboard_game(d, &cp("first"), &cp("second"), &pgn);
    let deadline = Instant::now() + Duration::from_secs(30);
    for side in ["first", "second"] {
        let rec = d.join(format!("{side}.jsonl"));
        while !finished(&rec) {
            assert!(
                Instant::now() < deadline,
                "{side}: the recording never ended"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    let (want_moves, want_result) = game;
    assert!(want_moves.len() >= 10, "a real game: {want_moves:?}");
    for side in ["first", "second"] {
        let rec = d.join(format!("{side}.jsonl"));
        let (ours, _) = run_ok(&["export", rec.to_str().unwrap(), "--pgn"]);
        let (moves, result) = common::pgn_moves(&ours);
        assert_eq!(
            moves, want_moves,
            "{side}: moves differ from xboard's PGN\n{ours}"
        );
        assert_eq!(result, want_result, "{side}: result differs\n{ours}");
        let out = kibitzer().arg("check").arg(&rec).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        // At 5 s a game on a loaded machine, an engine can really overstep its clock (xboard
        // does not call the flag): that is a true finding about timing, not a false error.
        let errors: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("error[") && !l.contains("error[X-CLOCK-UNDERFLOW]"))
            .collect();
        assert!(errors.is_empty(), "{side}: {text}");
    }
}

const CAPABLANCA_GUI: &str = r#"
import subprocess, sys
kib, rec, fsf = sys.argv[1:4]
p = subprocess.Popen([kib, "record", "-o", rec, "--", fsf], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, text=True, bufsize=1)
def send(c):
    p.stdin.write(c + "\n"); p.stdin.flush()
def until(w):
    while True:
        l = p.stdout.readline()
        if not l:
            raise SystemExit("engine closed its output")
        if l.startswith(w):
            return l.strip()
send("uci"); until("uciok")
send("setoption name UCI_Variant value capablanca")
send("isready"); until("readyok")
send("ucinewgame"); send("isready"); until("readyok")
moves = []
for _ in range(16):
    send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
    send("go depth 4")
    moves.append(until("bestmove").split()[1])
# The GUI plays the last answer too: it is in the final position.
send("position startpos moves " + " ".join(moves))
send("isready"); until("readyok")
send("quit"); p.wait()
print(" ".join(moves))
"#;

#[test]
fn fairy_stockfish_capablanca_keeps_every_move_with_the_board_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("capa.jsonl");
    let played = common::python_gui(CAPABLANCA_GUI, &rec, &engine("fairy-stockfish"));
    assert_eq!(played.len(), 16);
    // 10x8: files up to j appear in the moves.
    assert!(
        played.iter().any(|m| m.contains('i') || m.contains('j')),
        "{played:?}"
    );
    let rec = rec.to_str().unwrap();
    let (json, _) = run_ok(&["decode", "--format", "json", rec]);
    let summary: serde_json::Value = json
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["type"] == "summary")
        .expect("a summary");
    let game = &summary["games"][0];
    assert_eq!(game["variant"], "capablanca");
    assert!(game["board_unknown"].is_string(), "{game}");
    let moves: Vec<String> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(moves, played);
    let out = kibitzer().args(["check", rec]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(!text.contains("error["), "{text}");
    assert!(text.contains("note[X-BOARD-UNKNOWN]"), "{text}");
    assert!(
        text.contains("variant capablanca is not modelled"),
        "{text}"
    );
}
