//! `kibitzer replay --deterministic` (replay.md §4.3) and `--verify` (level L3): clock-based
//! searches become node-limited ones, and two runs give the same answers.

use crate::common;
use crate::replay_support;

use common::engine;
use replay_support::*;
use std::path::Path;

/// The engine's lines with the fields that depend on the clock masked.
fn engine_answers(rec: &Path) -> Vec<String> {
    const VOLATILE: [&str; 5] = ["time", "nps", "hashfull", "tbhits", "cpuload"];
    events(rec)
        .iter()
        .filter(|e| e["src"] == "engine")
        .map(|e| {
            let mut out = Vec::new();
            let mut toks = e["text"].as_str().unwrap_or("").split_whitespace();
            while let Some(t) = toks.next() {
                if VOLATILE.contains(&t) {
                    toks.next();
                } else {
                    out.push(t);
                }
            }
            out.join(" ")
        })
        .collect()
}

fn clock_limited_game(dir: &Path) -> std::path::PathBuf {
    let rec = dir.join("sf-movetime.jsonl");
    let sf = engine("stockfish");
    record_game(
        &rec,
        "uci",
        &["--movetime", "100"],
        8,
        &[sf.to_str().unwrap()],
    );
    rec
}

#[test]
fn a_clock_limited_stockfish_recording_replayed_deterministically_twice_gives_identical_answers() {
    let dir = tempfile::tempdir().unwrap();
    let rec = clock_limited_game(dir.path());
    let sf = engine("stockfish");
    let mut runs = Vec::new();
    for name in ["a.jsonl", "b.jsonl"] {
        let new = dir.path().join(name);
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
        // Every clock-based search was rewritten to the nodes the recorded one reached, and
        // the diff was shown before the run.
        let gos: Vec<_> = r
            .report
            .rewrites
            .iter()
            .filter(|w| w.original.as_deref() == Some("go movetime 100"))
            .collect();
        assert_eq!(gos.len(), 8, "{}", r.describe());
        assert!(gos.iter().all(|w| {
            w.replayed
                .as_ref()
                .is_some_and(|x| x.starts_with("go nodes "))
        }));
        assert!(r.stderr().contains("- go movetime 100"), "{}", r.stderr());
        assert!(r.stderr().contains("+ go nodes "), "{}", r.stderr());
        // Searches that differ from the original are named, each one clock-limited there
        // and so expected to differ; the verdict says so when there are any.
        for d in &r.report.search_diffs {
            assert!(d.clock_limited, "{d:?}");
            assert!(d.expected, "{d:?}");
            assert!(
                d.message
                    .contains("clock-limited in the original: expected")
            );
        }
        let t = &r.report.searches;
        assert_eq!(t.compared, 8);
        assert_eq!(t.differing, 0);
        if t.expected > 0 {
            let summary = &r.report.verdict.summary;
            assert!(summary.contains("limited by the clock"), "{summary}");
            assert!(summary.contains("expected"), "{summary}");
        }
        runs.push(new);
    }
    assert_eq!(gui_lines(&runs[0]), gui_lines(&runs[1]));
    assert_eq!(
        engine_answers(&runs[0]),
        engine_answers(&runs[1]),
        "two deterministic replays gave different answers"
    );
}

#[test]
fn verify_replays_the_new_recording_again_and_reports_level_l3() {
    let dir = tempfile::tempdir().unwrap();
    let rec = clock_limited_game(dir.path());
    let new = dir.path().join("a.jsonl");
    let sf = engine("stockfish");
    let r = replay_json(&[
        rec.to_str().unwrap(),
        "--deterministic",
        "--verify",
        "--recording",
        new.to_str().unwrap(),
        "--",
        sf.to_str().unwrap(),
    ]);
    assert_eq!(r.code(), 0, "{}", r.describe());
    assert_eq!(r.report.replay.level, "L3", "{}", r.describe());
    let v = r
        .report
        .verification
        .as_ref()
        .expect("--verify's second run");
    assert!(v.identical, "{}", r.describe());
    assert_eq!(v.searches.identical, 8);
    let second = dir.path().join("a.verify.jsonl");
    assert_eq!(header(&second)["replay_of"]["file"], new.to_str().unwrap());
    assert_eq!(engine_answers(&new), engine_answers(&second));
}

#[test]
fn an_infinite_analysis_is_rewritten_to_its_node_count_and_its_stop_dropped() {
    let rec = Path::new(env!("CARGO_MANIFEST_DIR")).join("recordings/stockfish-analysis.jsonl");
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("a.jsonl");
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
    let rewrites = &r.report.rewrites;
    assert_eq!(rewrites[0].original.as_deref(), Some("go infinite"));
    // The last `info` before the recorded bestmove reported this many nodes.
    assert_eq!(rewrites[0].replayed.as_deref(), Some("go nodes 1423814"));
    assert_eq!(rewrites[1].original.as_deref(), Some("stop"));
    assert!(rewrites[1].replayed.is_none());
    let sent = gui_lines(&new);
    assert!(sent.contains(&"go nodes 1423814".to_owned()));
    assert!(!sent.contains(&"stop".to_owned()));
}

#[test]
fn dry_run_shows_threads_set_to_one_and_the_sync_points() {
    // The shipped game set Threads 2; its searches are depth-bounded but multi-threaded.
    let rec = Path::new(env!("CARGO_MANIFEST_DIR")).join("recordings/stockfish-uci-game.jsonl");
    let out = common::kibitzer()
        .args(["replay", "--deterministic", "--dry-run"])
        .arg(&rec)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("- setoption name Threads value 2"), "{err}");
    assert!(err.contains("+ setoption name Threads value 1"), "{err}");
    let script = String::from_utf8_lossy(&out.stdout);
    assert!(
        script.contains("[after readyok"),
        "sync points are shown: {script}"
    );
    assert!(
        script.contains("setoption name Threads value 1"),
        "{script}"
    );
}

/// Issue 24 #16: a divergence quotes the original's command, and what --deterministic sent in
/// its place, not the rewritten command alone.
#[test]
fn a_divergence_quotes_the_original_command_and_what_was_sent() {
    let dir = tempfile::tempdir().unwrap();
    let rec = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real/python-chess-stockfish-ponder-clock.white.jsonl");
    let engine = format!(
        "{}/tests/engines/hostile_set.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = crate::common::kibitzer()
        .args(["replay", "--deterministic", "--watchdog", "3"])
        .arg(&rec)
        .arg("--recording")
        .arg(dir.path().join("new.jsonl"))
        .args(["--", "python3", &engine, "ignores-sigterm"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let verdict = text
        .lines()
        .find(|l| l.starts_with("verdict:"))
        .unwrap_or("");
    assert!(
        verdict.contains("answered `go wtime ") && verdict.contains("(replayed as `go nodes "),
        "{verdict}"
    );
}
