//! Decode and export on real engine traffic recorded through the proxy.

use crate::common;

use common::{Lines, engine, kibitzer, read_recording, spawn_proxy};
use kibitzer::session::{Mover, Severity, decode};
use std::io::Write;
use std::time::Duration;

const PLAY: &str = r#"
import sys, chess, chess.engine
kib, rec, sf = sys.argv[1], sys.argv[2], sys.argv[3]
eng = chess.engine.SimpleEngine.popen_uci([kib, "record", "-o", rec, "--", sf])
board = chess.Board()
sans = []
while not board.is_game_over() and len(sans) < 14:
    r = eng.play(board, chess.engine.Limit(depth=5))
    sans.append(board.san(r.move))
    board.push(r.move)
# One more search sends the final position, so every move is on the wire in a `position`.
eng.analyse(board, chess.engine.Limit(depth=1))
eng.quit()
print(" ".join(sans))
"#;

#[test]
fn pgn_export_has_the_moves_python_chess_played() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rec = dir.path().join("pc.jsonl");
    let script = dir.path().join("play.py");
    std::fs::write(&script, PLAY).expect("script");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_kibitzer"))
        .arg(&rec)
        .arg(engine("stockfish"))
        .output()
        .expect("python3 with python-chess (apt-get install python3-chess)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let played: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    assert_eq!(played.len(), 14);

    let pgn_path = dir.path().join("out.pgn");
    let st = kibitzer()
        .args(["export", "--pgn", "-o"])
        .arg(&pgn_path)
        .arg(&rec)
        .status()
        .expect("export");
    assert!(st.success());
    let pgn = std::fs::read_to_string(&pgn_path).expect("pgn");
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    assert!(pgn.contains("[White \"Stockfish"), "{pgn}");
    let movetext: String = pgn
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let mut moves = Vec::new();
    let mut in_comment = false;
    for tok in movetext.split_whitespace() {
        if tok.starts_with('{') {
            in_comment = true;
        }
        if !in_comment && !tok.ends_with('.') && tok != "*" {
            moves.push(tok.to_owned());
        }
        if tok.ends_with('}') {
            in_comment = false;
        }
    }
    // The final analysis' bestmove is an answer like any other: nothing on the wire tells a
    // move the GUI will play from one it will not, so the game may end with it.
    assert!(moves.len() == 14 || moves.len() == 15, "{pgn}");
    assert_eq!(moves[..14], played[..], "{pgn}");
    assert!(
        pgn.contains('{') && pgn.contains("/5}"),
        "engine evals as comments: {pgn}"
    );

    // The library sees the same game, every move legal, nothing flagged as an error.
    let r = read_recording(&rec);
    let sessions = decode(&r.events, None);
    assert_eq!(sessions.len(), 1);
    let s = &sessions[0];
    assert!(
        s.engine_name
            .as_deref()
            .is_some_and(|n| n.starts_with("Stockfish"))
    );
    let errors: Vec<_> = s
        .lines
        .iter()
        .flat_map(|l| &l.breaches)
        .filter(|d| d.rule.rule().severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let g = &s.games[0];
    let sans: Vec<_> = g
        .plies
        .iter()
        .filter_map(|p| p.san().map(str::to_owned))
        .collect();
    assert_eq!(sans[..14], played[..]);
    assert!(g.plies[14..].iter().all(|p| p.by == Mover::Engine));
}

#[test]
fn cecp_session_with_fairymax_decodes_with_legal_moves_and_right_fens() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rec = dir.path().join("fm.jsonl");
    let fairymax = engine("fairymax");
    let mut child = spawn_proxy(&rec, &[fairymax.to_str().expect("path")]);
    let mut stdin = child.stdin.take().expect("stdin");
    let lines = Lines::new(child.stdout.take().expect("stdout"));
    let mut send = |s: &str| {
        stdin.write_all(s.as_bytes()).expect("write");
        stdin.flush().expect("flush");
    };
    send("xboard\nprotover 2\n");
    lines.until("feature done=1", Duration::from_secs(10), |l| {
        l.contains("done=1")
    });
    send("new\npost\nst 1\nsd 3\ne2e4\n");
    let first = lines.until("engine move", Duration::from_secs(20), |l| {
        l.starts_with("move ")
    });
    let reply = first
        .last()
        .and_then(|l| l.split_whitespace().nth(1))
        .expect("move")
        .to_owned();
    send("d2d4\n");
    lines.until("engine move", Duration::from_secs(20), |l| {
        l.starts_with("move ")
    });
    send("ping 7\n");
    lines.until("pong", Duration::from_secs(10), |l| l.starts_with("pong 7"));
    send("force\nundo\nquit\n");
    drop(stdin);
    let _ = child.wait();

    let r = read_recording(&rec);
    let sessions = decode(&r.events, None);
    let s = &sessions[0];
    assert_eq!(s.protocol, Some(kibitzer::protocol::Protocol::Cecp));
    assert!(
        s.engine_name
            .as_deref()
            .is_some_and(|n| n.contains("Fairy-Max"))
    );
    let errors: Vec<_> = s
        .lines
        .iter()
        .flat_map(|l| &l.breaches)
        .filter(|d| d.rule.rule().severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(s.open_obligations().count(), 0, "{:?}", s.obligations);
    let g = s.games.last().expect("game");
    // e2e4, reply, d2d4, reply, then `undo` took one back.
    assert_eq!(g.plies.len(), 3);
    assert_eq!(g.plies[1].text(), reply);
    assert_eq!(g.plies[1].by, Mover::Engine);
    assert!(g.plies.iter().all(|p| p.san().is_some()));
    let after_e4 = s.lines.iter().find(|l| l.text == "e2e4").expect("line");
    assert_eq!(
        s.position_after(after_e4).as_deref(),
        Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    );
    // The thinking output's PVs were checked against the board and found legal.
    assert!(s.searches.iter().any(|x| x.reports > 0));
}
