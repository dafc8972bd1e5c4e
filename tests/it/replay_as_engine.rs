//! `kibitzer replay --as-engine FILE`: kibitzer stands in for the recorded engine under a real
//! GUI (python-chess, `tests/engines/follow_game.py`), with the recorded delays, stderr and
//! exit, and each policy for commands the recording has no answer to.

use crate::common;
use crate::replay_support;

use common::{Lines, engine, kibitzer, spawn_proxy_with};
use replay_support::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const T: Duration = Duration::from_secs(30);

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("recordings")
        .join(name)
}

struct Played {
    /// (engine move, expected move) per engine move.
    moves: Vec<(String, String)>,
    plies: String,
    stderr: String,
    code: i32,
}

/// follow_game.py with `args`, against `kibitzer replay ARGS2`.
fn follow(args: &[&str], replay: &[&str]) -> Played {
    let out = Command::new("python3")
        .arg(script("follow_game.py"))
        .args(args)
        .arg("--")
        .arg(kibitzer_bin())
        .arg("replay")
        .args(replay)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    Played {
        moves: stdout
            .lines()
            .filter_map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                (w.len() == 4 && w[0] == "engine").then(|| (w[1].to_owned(), w[3].to_owned()))
            })
            .collect(),
        plies: stdout
            .lines()
            .find(|l| l.starts_with("plies"))
            .unwrap_or("")
            .to_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

fn stockfish_game_args() -> Vec<String> {
    let pgn = shipped("stockfish-uci-game.pgn");
    // As scripts/make-recordings.py made it: the opening from the PGN, then depth 9.
    [
        "--uci",
        "--pgn",
        pgn.to_str().unwrap(),
        "--from-ply",
        "10",
        "--max-plies",
        "80",
        "--depth",
        "9",
        "--option",
        "Hash=32",
        "--option",
        "Threads=2",
        "--option",
        "UCI_ShowWDL=true",
        "--game",
        "stockfish-uci-game",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

#[test]
fn stands_in_for_stockfish_and_python_chess_plays_the_recorded_game_to_its_end() {
    let rec = shipped("stockfish-uci-game.jsonl");
    let args = stockfish_game_args();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let start = Instant::now();
    let p = follow(&args, &["--as-engine", rec.to_str().unwrap()]);
    let took = start.elapsed();
    assert_eq!(p.code, 0, "{}", p.stderr);
    assert_eq!(p.plies, "plies 80 of 80", "{}", p.stderr);
    assert_eq!(p.moves.len(), 70);
    for (i, (got, want)) in p.moves.iter().enumerate() {
        assert_eq!(
            got,
            want,
            "engine move {} differs from the recorded game",
            i + 1
        );
    }
    assert!(!p.stderr.contains("no recorded answer"), "{}", p.stderr);
    // The recorded engine took 1.4 s for the whole session; its delays are kept.
    assert!(
        took >= Duration::from_millis(1300),
        "answered too fast: {took:?}"
    );
}

#[test]
fn stands_in_for_fairymax_under_python_chess_xboard() {
    let rec = shipped("fairymax-cecp-game.jsonl");
    let pgn = shipped("fairymax-cecp-game.pgn");
    let p = follow(
        &[
            "--xboard",
            "--pgn",
            pgn.to_str().unwrap(),
            "--engine",
            "white",
            "--depth",
            "4",
            "--send-result",
            "--game",
            "fairymax-cecp-game",
        ],
        &["--as-engine", "--speed", "4", rec.to_str().unwrap()],
    );
    assert_eq!(p.code, 0, "{}", p.stderr);
    // 31 moves by Fairy-Max, the last one mate; python-chess's random `ping` numbers are
    // answered with their own `pong`.
    assert_eq!(p.plies, "plies 61 of 61", "{}", p.stderr);
    assert_eq!(p.moves.len(), 31);
    assert!(
        p.moves.iter().all(|(got, want)| got == want),
        "{:?}",
        p.moves
    );
    assert!(!p.stderr.contains("no recorded answer"), "{}", p.stderr);
}

#[test]
fn report_policy_says_what_had_no_answer_and_goes_on() {
    let rec = shipped("stockfish-uci-game.jsonl");
    let mut args = stockfish_game_args();
    // The recording set Hash 32.
    let i = args.iter().position(|a| a == "Hash=32").unwrap();
    args[i] = "Hash=64".into();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let p = follow(
        &args,
        &["--as-engine", "--speed", "10", rec.to_str().unwrap()],
    );
    assert_eq!(p.code, 0, "{}", p.stderr);
    assert!(
        p.stderr
            .contains("no recorded answer to `setoption name Hash value 64`"),
        "{}",
        p.stderr
    );
    assert!(p.stderr.contains("; ignored"), "{}", p.stderr);
    assert_eq!(p.plies, "plies 80 of 80");
}

#[test]
fn exit_policy_ends_kibitzer_at_the_first_unanswered_command() {
    let rec = shipped("stockfish-uci-game.jsonl");
    let mut child = kibitzer()
        .args(["replay", "--as-engine", "--on-mismatch", "exit"])
        .arg(&rec)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let lines = Lines::new(child.stdout.take().unwrap());
    stdin.write_all(b"uci\n").unwrap();
    let seen = lines.until("uciok", T, |l| l.starts_with("uciok"));
    assert!(
        seen.iter().any(|l| l.trim() == "id name Stockfish 15.1"),
        "{seen:?}"
    );
    stdin.write_all(b"setoption name Hash value 64\n").unwrap();
    stdin.flush().unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no recorded answer to `setoption name Hash value 64`"),
        "{err}"
    );
    assert!(err.contains("exiting"), "{err}");
}

#[test]
fn forward_policy_hands_the_gui_to_a_real_engine_that_knows_the_game() {
    let rec = shipped("stockfish-uci-game.jsonl");
    let pgn = shipped("stockfish-uci-game.pgn");
    let sf = engine("stockfish");
    // Node-limited searches were never recorded: the first `go` goes to Stockfish, which was
    // sent the whole session so far, and the game goes on with it.
    let p = follow(
        &[
            "--uci",
            "--pgn",
            pgn.to_str().unwrap(),
            "--from-ply",
            "10",
            "--max-plies",
            "20",
            "--nodes",
            "2000",
            "--option",
            "Hash=32",
            "--option",
            "Threads=2",
            "--option",
            "UCI_ShowWDL=true",
            "--game",
            "stockfish-uci-game",
        ],
        &[
            "--as-engine",
            rec.to_str().unwrap(),
            "--on-mismatch",
            "forward",
            "--",
            sf.to_str().unwrap(),
        ],
    );
    assert_eq!(p.code, 0, "{}", p.stderr);
    assert_eq!(p.plies, "plies 20 of 80", "{}", p.stderr);
    assert_eq!(p.moves.len(), 10);
    assert!(
        p.stderr.contains("no recorded answer to `go nodes 2000`")
            && p.stderr.contains("the real engine answers from here on"),
        "{}",
        p.stderr
    );
    // What the real engine said to commands the recording had answered (its handshake, the
    // searches it shadowed) never reaches the GUI: python-chess saw nothing unexpected.
    assert!(
        !p.stderr.contains("Unexpected engine output"),
        "{}",
        p.stderr
    );
}

#[test]
fn the_engines_stderr_and_exit_are_reproduced() {
    // Recorded: an engine that complains on stderr about a position it cannot play and
    // exits with code 1.
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("exit.jsonl");
    let se = script("scenario_engine.py");
    let mut child = spawn_proxy_with(
        &rec,
        &["--eof-grace", "3"],
        &["python3", &se, "exit-on-illegal-position"],
    );
    let mut stdin = child.stdin.take().unwrap();
    let lines = Lines::new(child.stdout.take().unwrap());
    stdin.write_all(b"uci\n").unwrap();
    lines.until("uciok", T, |l| l.starts_with("uciok"));
    stdin
        .write_all(b"position startpos moves e2e4 e2e4\n")
        .unwrap();
    stdin.flush().unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(1));
    drop(stdin);

    let mut child = kibitzer()
        .args(["replay", "--as-engine"])
        .arg(&rec)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"uci\nposition startpos moves e2e4 e2e4\n")
        .unwrap();
    stdin.flush().unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("scenario_engine: illegal move in position: e2e4 e2e4"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("uciok"));
}

#[test]
fn xboard_plays_the_recorded_game_again_against_two_stand_ins_with_no_engine() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kib = kibitzer_bin();
    let fairymax = engine("fairymax");
    let rec = |side: &str| d.join(format!("{side}.jsonl"));
    let recorded = common::xboard_game(
        d,
        &format!(
            "{kib} record -o {} -- {}",
            rec("first").display(),
            fairymax.display()
        ),
        &format!(
            "{kib} record -o {} -- {}",
            rec("second").display(),
            fairymax.display()
        ),
        &d.join("recorded.pgn"),
    );
    assert!(recorded.0.len() >= 10, "a real game: {recorded:?}");
    // Fairy-Max's moves now come from the recordings; xboard interrupts its engines with
    // SIGINT before each move, which the stand-ins live through as Fairy-Max did. Twice the
    // recorded speed keeps them well inside xboard's clock on a busy machine.
    let replayed = common::xboard_game(
        d,
        &format!(
            "{kib} replay --as-engine --speed 2 {}",
            rec("first").display()
        ),
        &format!(
            "{kib} replay --as-engine --speed 2 {}",
            rec("second").display()
        ),
        &d.join("replayed.pgn"),
    );
    assert_eq!(
        replayed, recorded,
        "xboard's game against the stand-ins differs"
    );
}
