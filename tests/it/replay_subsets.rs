//! What a replay can be given: subsets of a recording (`--game`, `--from-game`, `--until`), a
//! hang scenario, and a session of an imported log (`--session`).

use crate::common;
use crate::replay_support;

use common::{Lines, engine, spawn_proxy_with};
use kibitzer::replay::report::Rewrite;
use kibitzer::rules::HangClass;
use kibitzer::rules::report::CheckReport;
use replay_support::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

const T: Duration = Duration::from_secs(30);

/// Three games of four plies, node-limited, each after `ucinewgame` (python-chess).
fn three_games(dir: &Path) -> PathBuf {
    let rec = dir.join("three.jsonl");
    let mut cmd = std::process::Command::new("python3");
    let sf = engine("stockfish");
    cmd.arg(script("play_game.py"))
        .args([
            "--uci", "--nodes", "3000", "--moves", "4", "--games", "3", "--",
        ])
        .arg(kibitzer_bin())
        .args(["record", "-o"])
        .arg(&rec)
        .arg("--")
        .arg(&sf);
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    rec
}

#[test]
fn game_and_from_game_replay_the_handshake_and_the_chosen_games() {
    let dir = tempfile::tempdir().unwrap();
    let rec = three_games(dir.path());
    let sf = engine("stockfish");
    let all = gui_lines(&rec);
    let gos = |lines: &[String]| lines.iter().filter(|l| l.starts_with("go ")).count();
    assert_eq!(gos(&all), 12);

    let new = dir.path().join("game2.jsonl");
    let r = replay_json(&[
        rec.to_str().unwrap(),
        "--game",
        "2",
        "--recording",
        new.to_str().unwrap(),
        "--",
        sf.to_str().unwrap(),
    ]);
    assert_eq!(r.code(), 0, "{}", r.describe());
    assert_eq!(r.report.searches.original, 4, "{}", r.describe());
    assert_eq!(r.report.searches.identical, 4, "{}", r.describe());
    let sent = gui_lines(&new);
    assert_eq!(sent[0], "uci");
    assert_eq!(
        sent.iter().filter(|l| *l == "ucinewgame").count(),
        1,
        "{sent:?}"
    );
    assert_eq!(gos(&sent), 4);
    assert_eq!(sent.last().map(String::as_str), Some("quit"));
    // Game 2's lines, as recorded, follow the handshake.
    let game2_start = all
        .iter()
        .enumerate()
        .filter(|(_, l)| *l == "ucinewgame")
        .nth(1)
        .unwrap()
        .0;
    let game3_start = all
        .iter()
        .enumerate()
        .filter(|(_, l)| *l == "ucinewgame")
        .nth(2)
        .unwrap()
        .0;
    assert_eq!(&sent[1..sent.len() - 1], &all[game2_start..game3_start]);

    let new = dir.path().join("from2.jsonl");
    let r = replay_json(&[
        rec.to_str().unwrap(),
        "--from-game",
        "2",
        "--recording",
        new.to_str().unwrap(),
        "--",
        sf.to_str().unwrap(),
    ]);
    assert_eq!(r.code(), 0, "{}", r.describe());
    assert_eq!(r.report.searches.compared, 8, "{}", r.describe());
    assert_eq!(gos(&gui_lines(&new)), 8);

    let out = common::kibitzer()
        .args(["replay", "--game", "4"])
        .arg(&rec)
        .args(["--", "true"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("there is no game 4: the session has 3 game(s)")
    );
}

#[test]
fn until_stops_after_the_answers_to_that_line() {
    let dir = tempfile::tempdir().unwrap();
    let rec = stockfish_nodes_game(dir.path(), 6);
    let second_go = events(&rec)
        .iter()
        .enumerate()
        .filter(|(_, e)| e["src"] == "gui" && e["text"].as_str().unwrap().starts_with("go"))
        .nth(1)
        .unwrap()
        .0 as u64
        + 2;
    let new = dir.path().join("until.jsonl");
    let sf = engine("stockfish");
    let line = second_go.to_string();
    let r = replay_json(&[
        rec.to_str().unwrap(),
        "--until",
        &line,
        "--recording",
        new.to_str().unwrap(),
        "--",
        sf.to_str().unwrap(),
    ]);
    assert_eq!(r.code(), 0, "{}", r.describe());
    assert_eq!(r.report.searches.compared, 2, "{}", r.describe());
    let evs = events(&new);
    let last_gui = evs.iter().rev().find(|e| e["src"] == "gui").unwrap();
    assert!(last_gui["text"].as_str().unwrap().starts_with("go"));
    // The second search's bestmove was awaited before the input was closed.
    let bestmoves = evs
        .iter()
        .filter(|e| e["src"] == "engine" && e["text"].as_str().unwrap().starts_with("bestmove"))
        .count();
    assert_eq!(bestmoves, 2);
}

/// A GUI that starts an infinite search, sends `stop`, gets no bestmove, waits 1.5 s and
/// leaves (recorded through `kibitzer record`).
fn stop_never_answered(dir: &Path) -> PathBuf {
    let rec = dir.join("hang.jsonl");
    let se = script("scenario_engine.py");
    let mut child = spawn_proxy_with(
        &rec,
        &["--eof-grace", "1"],
        &["python3", &se, "ignores-stop"],
    );
    let mut stdin = child.stdin.take().unwrap();
    let lines = Lines::new(child.stdout.take().unwrap());
    let mut send = |l: &str| {
        stdin.write_all(format!("{l}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    };
    send("uci");
    lines.until("uciok", T, |l| l.starts_with("uciok"));
    send("isready");
    lines.until("readyok", T, |l| l.starts_with("readyok"));
    send("position startpos");
    send("go infinite");
    lines.until("info", T, |l| l.starts_with("info"));
    send("stop");
    // The GUI's patience, which the hang verdict measures; nothing races it.
    std::thread::sleep(Duration::from_millis(1500));
    drop(stdin);
    child.wait().unwrap();
    rec
}

#[test]
fn a_replayed_hang_scenario_reproduces_the_same_hang_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let rec = stop_never_answered(dir.path());
    let se = script("scenario_engine.py");
    let new = dir.path().join("again.jsonl");
    let r = replay_json(&[
        rec.to_str().unwrap(),
        "--eof-grace",
        "1",
        "--recording",
        new.to_str().unwrap(),
        "--",
        "python3",
        &se,
        "ignores-stop",
    ]);
    assert_eq!(r.code(), 1, "{}", r.describe());
    assert_eq!(r.verdict(), VerdictKind::HangReproduced, "{}", r.describe());
    let hang = &r.report.hang;
    let (Some(o), Some(n)) = (&hang.original, &hang.replay) else {
        panic!("a hang in both: {}", r.describe());
    };
    // The GUI gave up on a `stop` never answered, and the engine went with the input.
    assert_eq!(o.class, HangClass::Disconnect, "{}", r.describe());
    assert_eq!(o.owed.as_deref(), Some("bestmove"));
    assert_eq!(o.class, n.class);
    assert_eq!(o.owed, n.owed);
    assert_eq!(o.request.as_deref(), Some("stop"));
    // check agrees on the new recording: the same hang.
    let out = common::kibitzer()
        .args(["check", "--format", "json"])
        .arg(&new)
        .output()
        .unwrap();
    let report: CheckReport = serde_json::from_slice(&out.stdout).unwrap();
    let h = &report.files[0].hangs[0];
    assert_eq!(h.class, HangClass::Disconnect);
    assert_eq!(h.request.as_deref(), Some("stop"));

    // An engine that answers `stop` does not reproduce it, at the line of the `stop`.
    let stop_line = events(&rec)
        .iter()
        .position(|e| e["src"] == "gui" && e["text"] == "stop")
        .unwrap() as u64
        + 2;
    let sf = engine("stockfish");
    let r = replay_json(&[
        rec.to_str().unwrap(),
        "--recording",
        new.to_str().unwrap(),
        "--",
        sf.to_str().unwrap(),
    ]);
    assert_eq!(r.code(), 1, "{}", r.describe());
    assert_eq!(r.report.verdict.line, Some(stop_line), "{}", r.describe());
    let summary = &r.report.verdict.summary;
    assert!(
        summary.contains("answered `stop` with bestmove; the original engine did not"),
        "{summary}"
    );
    assert!(r.report.hang.replay.is_none(), "{}", r.describe());
}

#[test]
fn one_engine_session_of_an_xboard_debug_log_replays_and_verifies_at_l3() {
    let log = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/logs/xboard-debug__fairymax-vs-polyglot-stockfish.log");
    let out = common::kibitzer()
        .arg("replay")
        .arg(&log)
        .args(["--", "true"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("choose one with --session: first, second"),
        "{err}"
    );

    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("first.jsonl");
    let fm = engine("fairymax");
    let r = replay_json(&[
        log.to_str().unwrap(),
        "--session",
        "first",
        "--deterministic",
        "--verify",
        "--recording",
        new.to_str().unwrap(),
        "--",
        fm.to_str().unwrap(),
    ]);
    assert_eq!(r.report.original.format, "xboard-debug", "{}", r.describe());
    assert_eq!(r.report.original.session.as_deref(), Some("first"));
    assert_eq!(r.report.original.protocol, Some("xboard"));
    // xboard's `random`, its clock and pondering are rewritten; each search gets the depth
    // the recorded one reached.
    let has = |f: &dyn Fn(&Rewrite) -> bool| r.report.rewrites.iter().any(f);
    assert!(has(
        &|w| w.original.as_deref() == Some("random") && w.replayed.is_none()
    ));
    assert!(has(
        &|w| w.original.as_deref() == Some("hard") && w.replayed.as_deref() == Some("easy")
    ));
    assert!(has(&|w| w
        .replayed
        .as_ref()
        .is_some_and(|t| t.starts_with("sd "))));
    // Fairy-Max at fixed depth answers the same twice (level L3), whatever the original's
    // random-mode game did.
    assert!(
        r.report.verification.as_ref().is_some_and(|v| v.identical),
        "{}",
        r.describe()
    );
    assert_eq!(r.report.replay.level, "L3");
    assert_eq!(header(&new)["replay_of"]["session"], "first");
}

#[test]
fn a_crash_mid_search_is_reproduced_as_the_same_hang_and_recorded_as_the_proxy_would() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("crash.jsonl");
    let se = script("scenario_engine.py");
    let mut child = spawn_proxy_with(&rec, &[], &["python3", &se, "crash-mid-search"]);
    let mut stdin = child.stdin.take().unwrap();
    let lines = Lines::new(child.stdout.take().unwrap());
    stdin.write_all(b"uci\n").unwrap();
    lines.until("uciok", T, |l| l.starts_with("uciok"));
    stdin.write_all(b"isready\n").unwrap();
    lines.until("readyok", T, |l| l.starts_with("readyok"));
    stdin.write_all(b"position startpos\ngo depth 5\n").unwrap();
    stdin.flush().unwrap();
    // The engine dies by SIGSEGV after its second info; the GUI sees it so.
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&child.wait().unwrap()),
        Some(11)
    );
    drop(stdin);

    let new = dir.path().join("again.jsonl");
    let r = replay_json(&[
        rec.to_str().unwrap(),
        "--recording",
        new.to_str().unwrap(),
        "--",
        "python3",
        &se,
        "crash-mid-search",
    ]);
    assert_eq!(r.code(), 1, "{}", r.describe());
    assert_eq!(
        r.report
            .hang
            .replay
            .as_ref()
            .and_then(|h| h.exit.as_deref()),
        Some("engine killed by SIGSEGV (11)")
    );
    let kinds: Vec<String> = events(&new)
        .iter()
        .filter_map(|e| e["kind"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(kinds.last().map(String::as_str), Some("engine_exit"));
    assert!(!kinds.contains(&"gui_eof".to_owned()), "{kinds:?}");

    // A fixed engine diverges where the original died: its answer to the search.
    let fixed = dir.path().join("fixed.jsonl");
    let r = replay_json(&[
        rec.to_str().unwrap(),
        "--recording",
        fixed.to_str().unwrap(),
        "--",
        "python3",
        &se,
        "well-behaved",
    ]);
    assert_eq!(r.code(), 1, "{}", r.describe());
    let go = events(&rec)
        .iter()
        .position(|e| e["text"] == "go depth 5")
        .unwrap() as u64
        + 2;
    assert_eq!(r.report.verdict.line, Some(go), "{}", r.describe());
    let kinds: Vec<DiffKind> = r.report.differences.iter().map(|d| d.kind).collect();
    assert!(
        kinds.contains(&DiffKind::Exit) && kinds.contains(&DiffKind::Hang),
        "{kinds:?}"
    );
}

#[test]
fn a_log_excerpt_that_ends_before_the_answers_is_not_a_divergence() {
    // fastchess#443's log stops right after `isready` and a clock-based `go`: the original's
    // answers are not in it, which says nothing about the engine.
    let log = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/corpus/fastchess__fastchess-443__1.log");
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("excerpt.jsonl");
    let sf = engine("stockfish");
    let r = replay_json(&[
        log.to_str().unwrap(),
        "--recording",
        new.to_str().unwrap(),
        "--",
        sf.to_str().unwrap(),
    ]);
    assert_eq!(r.code(), 0, "{}", r.describe());
    assert_eq!(r.report.original.format, "fastchess");
    assert!(r.report.hang.original.is_none(), "{}", r.describe());
    assert_eq!(r.report.searches.expected, 1, "{}", r.describe());
}
