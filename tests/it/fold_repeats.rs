//! Issue 24 #9: a rule broken on every move is one finding per session with its count and its
//! first and last line, in `check` (text and JSON), `decode` and `view`; the summaries keep
//! the count, and `--every` lists each time.

use crate::common::{self, kibitzer, transcript};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A UCI game whose engine gives, at each of its `n` searches, a PV that runs into an illegal
/// move (the PV goes on past the position's end, as racing kings engines do).
fn pv_past_the_end(dir: &Path, n: usize) -> PathBuf {
    let mut t = String::from(
        "0.000 ! spawned engine
         0.001 > uci
         0.010 < id name Toy
         0.011 < id author Tests
         0.012 < uciok
         0.020 > isready
         0.021 < readyok
         0.022 > ucinewgame
         0.023 > isready
         0.024 < readyok\n",
    );
    // 1. e4 e5 2. Nf3 Nc6 ...: the engine plays Black's moves; its PV's second move is a
    // white move that is illegal (a pawn jumping three squares).
    let line = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6",
    ];
    let mut time = 1.0;
    for i in 0..n {
        let played = &line[..2 * i + 1];
        let reply = line[2 * i + 1];
        t.push_str(&format!(
            "{time:.3} > position startpos moves {}\n{:.3} > go movetime 100\n\
             {:.3} < info depth 3 score cp 10 time 50 pv {reply} a2a6\n\
             {:.3} < bestmove {reply}\n",
            played.join(" "),
            time + 0.001,
            time + 0.05,
            time + 0.1
        ));
        time += 1.0;
    }
    t.push_str(&format!(
        "{time:.3} > quit\n{:.3} ! engine_exit code=0 engine exited with code 0\n",
        time + 0.05
    ));
    transcript::recording(dir, "pv", &t)
}

fn pv_findings(report: &Value) -> Vec<Value> {
    report["files"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "UCI-INFO-PV-ILLEGAL")
        .cloned()
        .collect()
}

#[test]
fn a_rule_broken_on_every_move_is_one_finding_with_its_count_and_last_line() {
    let dir = tempfile::tempdir().unwrap();
    let rec = pv_past_the_end(dir.path(), 5);
    let (report, _) = transcript::check_raw(&rec, &[]);
    let found = pv_findings(&report);
    assert_eq!(found.len(), 1, "{found:#?}");
    let first_line = found[0]["line"].as_u64().unwrap();
    let last_line = found[0]["last_line"].as_u64().unwrap();
    assert_eq!(found[0]["count"], 5, "{:#}", found[0]);
    assert!(last_line > first_line + 10, "{first_line}..{last_line}");
    let counted = report["files"][0]["rule_counts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["rule"] == "UCI-INFO-PV-ILLEGAL")
        .unwrap()["count"]
        .clone();
    assert_eq!(counted, 5, "the summary keeps the count");
    assert_eq!(report["files"][0]["counts"]["warning"], 5);

    // Text: one line, saying how often and where the last time was.
    let out = kibitzer().arg("check").arg(&rec).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("UCI-INFO-PV-ILLEGAL]").count(), 1, "{text}");
    assert!(
        text.contains(&format!(
            "5 times in the session, the last at line {last_line}"
        )),
        "{text}"
    );
}

#[test]
fn every_lists_each_time_and_a_rule_broken_once_has_no_count() {
    let dir = tempfile::tempdir().unwrap();
    let rec = pv_past_the_end(dir.path(), 5);
    let (report, _) = transcript::check_raw(&rec, &["--every"]);
    let found = pv_findings(&report);
    assert_eq!(found.len(), 5);
    assert!(found.iter().all(|f| f.get("count").is_none()));
    // The near miss: broken once, a plain finding.
    let sub = dir.path().join("once");
    std::fs::create_dir(&sub).unwrap();
    let once = pv_past_the_end(&sub, 1);
    let (report, _) = transcript::check_raw(&once, &[]);
    let found = pv_findings(&report);
    assert_eq!(found.len(), 1);
    assert!(found[0].get("count").is_none() && found[0].get("last_line").is_none());
}

#[test]
fn decode_shows_the_first_time_and_says_how_often_at_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let rec = pv_past_the_end(dir.path(), 5);
    let out = kibitzer()
        .args(["decode", "--format", "json"])
        .arg(&rec)
        .output()
        .unwrap();
    let records: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let findings = records
        .iter()
        .filter(|r| r["type"] == "finding" && r["rule"] == "UCI-INFO-PV-ILLEGAL")
        .count();
    assert_eq!(findings, 1);
    let repeats: Vec<&Value> = records.iter().filter(|r| r["type"] == "repeats").collect();
    assert_eq!(repeats.len(), 1, "{records:#?}");
    assert_eq!(repeats[0]["count"], 5);
    let text = common::run_ok(&["decode", rec.to_str().unwrap()]).0;
    assert!(
        text.contains("warning[UCI-INFO-PV-ILLEGAL] engine: 5 times, the first at 1.05"),
        "{text}"
    );
}
