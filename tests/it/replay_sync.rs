//! `kibitzer replay FILE -- ENGINE`: recordings made by python-chess through the real
//! `kibitzer record`, replayed against real engines and scripted ones; the verdict, its line,
//! the exit status, the new recording and the watchdog.

use crate::common;
use crate::replay_support;

use common::engine;
use replay_support::*;
use std::time::Duration;

#[test]
fn a_node_limited_stockfish_game_replays_as_reproduced() {
    let dir = tempfile::tempdir().unwrap();
    let rec = stockfish_nodes_game(dir.path(), 10);
    let new = dir.path().join("replayed.jsonl");
    let sf = engine("stockfish");
    let r = replay_json(&[
        rec.to_str().unwrap(),
        "--recording",
        new.to_str().unwrap(),
        "--",
        sf.to_str().unwrap(),
    ]);
    assert_eq!(r.code(), 0, "{}", r.describe());
    assert_eq!(r.verdict(), VerdictKind::Reproduced, "{}", r.describe());
    assert_eq!(r.report.searches.compared, 10, "{}", r.describe());
    assert_eq!(r.report.searches.identical, 10, "{}", r.describe());
    assert_eq!(r.report.replay.level, "L1");
    // The new recording is a recording like any other, and names the original.
    let h = header(&new);
    assert_eq!(h["replay_of"]["file"], rec.to_str().unwrap());
    assert_eq!(h["replay_of"]["pace"], "sync");
    assert_eq!(
        gui_lines(&new),
        gui_lines(&rec),
        "the GUI side is sent as recorded"
    );
}

#[test]
fn deterministic_replay_of_a_node_limited_game_is_reproduced_and_shows_its_rewrites() {
    let dir = tempfile::tempdir().unwrap();
    let rec = stockfish_nodes_game(dir.path(), 8);
    let new = dir.path().join("replayed.jsonl");
    let sf = engine("stockfish");
    let r = replay_json(&[
        rec.to_str().unwrap(),
        "--deterministic",
        "--recording",
        new.to_str().unwrap(),
        "--",
        sf.to_str().unwrap(),
    ]);
    assert_eq!(r.code(), 0, "{}", r.describe());
    assert_eq!(r.verdict(), VerdictKind::Reproduced, "{}", r.describe());
    assert_eq!(r.report.replay.level, "L2");
    // python-chess already sends `ucinewgame` + `isready`, Threads is 1 and every search is
    // node-limited: nothing to rewrite, and the user is told so before the run.
    assert!(r.report.rewrites.is_empty(), "{}", r.describe());
    assert!(
        r.stderr().contains("--deterministic: nothing to rewrite"),
        "{}",
        r.stderr()
    );
}

#[test]
fn a_different_engine_diverges_at_the_first_line_of_the_search_it_answers_differently() {
    let dir = tempfile::tempdir().unwrap();
    let rec = stockfish_nodes_game(dir.path(), 8);
    let new = dir.path().join("replayed.jsonl");
    let sf = engine("stockfish");
    // The same Stockfish, except that the relay answers the third search itself.
    let r = replay_json(&[
        rec.to_str().unwrap(),
        "--recording",
        new.to_str().unwrap(),
        "--",
        "python3",
        &script("divert_engine.py"),
        "3",
        "--",
        sf.to_str().unwrap(),
    ]);
    assert_eq!(r.code(), 1, "{}", r.describe());
    assert_eq!(r.verdict(), VerdictKind::Diverged, "{}", r.describe());
    let expected = first_engine_line_after_go(&rec, 3);
    assert_eq!(r.report.verdict.line, Some(expected), "{}", r.describe());
    assert_eq!(r.report.verdict.search, Some(3), "{}", r.describe());
    assert_eq!(
        r.report.verdict.replay_line,
        Some(first_engine_line_after_go(&new, 3))
    );
    // Searches 1 and 2 were identical, and the side by side shows search 3.
    let diffs = &r.report.search_diffs;
    assert_eq!(diffs[0].index, 3, "{}", r.describe());
    assert_eq!(
        r.report.first_divergence.as_ref().map(|f| f.search),
        Some(3)
    );
    let summary = &r.report.verdict.summary;
    assert!(
        summary.starts_with(&format!("diverged at line {expected}:")),
        "{summary}"
    );
}

#[test]
fn fairy_stockfish_against_a_stockfish_recording_diverges_in_the_first_search_with_a_drift_warning()
{
    let dir = tempfile::tempdir().unwrap();
    let rec = stockfish_nodes_game(dir.path(), 4);
    let new = dir.path().join("replayed.jsonl");
    let fsf = engine("fairy-stockfish");
    let r = replay_json(&[
        rec.to_str().unwrap(),
        "--recording",
        new.to_str().unwrap(),
        "--",
        fsf.to_str().unwrap(),
    ]);
    assert_eq!(r.code(), 1, "{}", r.describe());
    assert_eq!(r.report.verdict.search, Some(1), "{}", r.describe());
    // The first line that differs is one of the first search's engine lines.
    let line = r.report.verdict.line.unwrap();
    let first = first_engine_line_after_go(&rec, 1);
    let second = first_engine_line_after_go(&rec, 2);
    assert!(
        first <= line && line < second,
        "line {line} not in search 1 ({first}..{second})"
    );
    let rules: Vec<&str> = r.report.preflight.iter().map(|w| w.rule.as_str()).collect();
    assert!(rules.contains(&"REPLAY-BINARY-CHANGED"), "{}", r.describe());
    assert!(rules.contains(&"REPLAY-OPTION-DRIFT"), "{}", r.describe());
    // Said on stderr once the engine had introduced itself, during the run.
    assert!(
        r.stderr()
            .contains("note[REPLAY-BINARY-CHANGED]: the recorded engine was `Stockfish 15.1`"),
        "{}",
        r.stderr()
    );
}

#[test]
fn the_watchdog_ends_a_replay_whose_engine_never_answers() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("wb.jsonl");
    let se = script("scenario_engine.py");
    record_game(
        &rec,
        "uci",
        &["--depth", "2"],
        4,
        &["python3", &se, "well-behaved"],
    );
    let new = dir.path().join("replayed.jsonl");
    let r = replay_json(&[
        rec.to_str().unwrap(),
        "--watchdog",
        "2",
        "--recording",
        new.to_str().unwrap(),
        "--",
        "python3",
        &se,
        "no-readyok",
    ]);
    assert_eq!(r.code(), 1, "{}", r.describe());
    // The isready the original's engine answered is where it diverged.
    let isready = events(&rec)
        .iter()
        .position(|e| e["src"] == "gui" && e["text"] == "isready")
        .unwrap() as u64
        + 2;
    assert_eq!(r.report.verdict.line, Some(isready), "{}", r.describe());
    assert_eq!(
        r.report.replay.stall.as_ref().map(|s| s.owed.as_str()),
        Some("readyok"),
        "{}",
        r.describe()
    );
    assert!(r.elapsed < Duration::from_secs(25), "took {:?}", r.elapsed);
    // The engine was killed and the recording says so.
    let kinds: Vec<String> = events(&new)
        .iter()
        .filter_map(|e| e["kind"].as_str().map(str::to_owned))
        .collect();
    assert!(kinds.contains(&"killed".to_owned()), "{kinds:?}");
    assert_eq!(kinds.last().map(String::as_str), Some("engine_exit"));
}

#[test]
fn fast_and_recorded_paces_send_every_line_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("wb.jsonl");
    let se = script("scenario_engine.py");
    record_game(
        &rec,
        "uci",
        &["--depth", "2"],
        4,
        &["python3", &se, "well-behaved"],
    );
    for pace in [
        &["--pace", "fast"][..],
        &["--pace", "recorded", "--speed", "2"],
    ] {
        let new = dir.path().join("replayed.jsonl");
        let mut args = vec![rec.to_str().unwrap(), "--recording", new.to_str().unwrap()];
        args.extend_from_slice(pace);
        args.extend_from_slice(&["--", "python3", &se, "well-behaved"]);
        let r = replay_json(&args);
        assert_eq!(r.report.replay.pace, pace[1], "{}", r.describe());
        assert_eq!(gui_lines(&new), gui_lines(&rec), "{pace:?}");
        assert_eq!(r.report.replay.lines_sent, r.report.replay.lines_total);
        // Every answer the new recording holds counts: `quit`, sent at once in a fast replay,
        // waits for them instead of withdrawing them unread ("did not answer `uci`").
        assert!(
            !r.report
                .differences
                .iter()
                .any(|d| d.message.contains("the replayed engine did not")),
            "{pace:?}: {}",
            r.describe()
        );
    }
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("wb.jsonl");
    let se = script("scenario_engine.py");
    record_game(
        &rec,
        "uci",
        &["--depth", "1"],
        2,
        &["python3", &se, "well-behaved"],
    );
    let r = rec.to_str().unwrap();
    for (args, says) in [
        (vec![r], "no engine"),
        (vec![r, "--speed", "2", "--", "true"], "--speed"),
        (vec![r, "--session", "nope", "--", "true"], "no session"),
        (vec!["/nonexistent.jsonl", "--", "true"], "nonexistent"),
    ] {
        let out = common::kibitzer()
            .arg("replay")
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn the_schema_check_rejects_a_report_that_breaks_it() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("wb.jsonl");
    let se = script("scenario_engine.py");
    record_game(
        &rec,
        "uci",
        &["--depth", "1"],
        2,
        &["python3", &se, "well-behaved"],
    );
    let new = dir.path().join("replayed.jsonl");
    let r = replay_json(&[
        rec.to_str().unwrap(),
        "--recording",
        new.to_str().unwrap(),
        "--",
        "python3",
        &se,
        "well-behaved",
    ]);
    let schema = schema();
    let mut extra = r.json.clone();
    extra["verdict"]["surprise"] = serde_json::Value::Bool(true);
    assert!(schema.validate(&extra).is_err());
    let mut bad = r.json.clone();
    bad["verdict"]["kind"] = "maybe".into();
    assert!(schema.validate(&bad).is_err());
    let mut missing = r.json;
    missing.as_object_mut().unwrap().remove("searches");
    assert!(schema.validate(&missing).is_err());
}

#[test]
fn an_nboard_session_replays_as_reproduced() {
    let rec = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("recordings/nboard-scripted-engine.jsonl");
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("nboard.jsonl");
    let r = replay_json(&[
        rec.to_str().unwrap(),
        "--recording",
        new.to_str().unwrap(),
        "--",
        "python3",
        &script("nboard_engine.py"),
    ]);
    assert_eq!(r.code(), 0, "{}", r.describe());
    assert_eq!(r.report.original.protocol, Some("nboard"));
    assert_eq!(r.report.searches.identical, 5, "{}", r.describe());
}

/// Issue 24 #16: the shipped python-chess game searched `go depth 9` with Threads 2. The
/// verdict says what was compared first (how many of the 70 searches are identical) and why
/// the others may differ (threads), never the clock; a terminal that shows both the card and
/// stderr reads the nondeterminism warning once.
#[test]
fn a_threads_2_depth_game_says_what_was_compared_and_never_blames_the_clock() {
    let dir = tempfile::tempdir().unwrap();
    let rec = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("recordings/stockfish-uci-game.jsonl");
    let new = dir.path().join("replayed.jsonl");
    let sf = engine("stockfish");
    let r = replay_json(&[
        rec.to_str().unwrap(),
        "--recording",
        new.to_str().unwrap(),
        "--",
        sf.to_str().unwrap(),
    ]);
    let summary = &r.report.verdict.summary;
    let t = &r.report.searches;
    assert_eq!(t.original, 70, "{}", r.describe());
    assert!(
        summary.starts_with(&format!(
            "reproduced: protocol behaviour equal; {} of 70 searches identical",
            t.identical
        )),
        "{summary}"
    );
    if t.expected > 0 {
        assert!(summary.contains("searched with 2 threads"), "{summary}");
    }
    assert!(!summary.contains("clock"), "{summary}");
    // Under a terminal (script(1) gives one), the warning is in the card only.
    let cmd = format!(
        "{} replay {} --recording {} -- {}",
        env!("CARGO_BIN_EXE_kibitzer"),
        rec.display(),
        dir.path().join("tty.jsonl").display(),
        sf.display()
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("verdict: reproduced"), "{text}");
    assert_eq!(
        text.matches("REPLAY-NONDETERMINISTIC-SETUP").count(),
        1,
        "{text}"
    );
}
