//! Helpers of the replay tests: recordings made by python-chess through the real
//! `kibitzer record`, and `kibitzer replay` run with its JSON report.
#![allow(dead_code)]

use crate::common::{engine, kibitzer};
pub use kibitzer::replay::report::{DiffKind, ReplayReport, VerdictKind};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

pub fn script(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines")
        .join(name)
        .to_str()
        .expect("utf-8 path")
        .to_owned()
}

pub fn kibitzer_bin() -> &'static str {
    env!("CARGO_BIN_EXE_kibitzer")
}

/// python-chess (`tests/engines/play_game.py`) plays `plies` plies through `kibitzer record
/// -o REC -- ENGINE...`; returns the moves it played.
pub fn record_game(
    rec: &Path,
    protocol: &str,
    limit: &[&str],
    plies: u32,
    engine_argv: &[&str],
) -> Vec<String> {
    let mut cmd = std::process::Command::new("python3");
    cmd.arg(script("play_game.py"))
        .arg(format!("--{protocol}"))
        .args(limit)
        .arg("--moves")
        .arg(plies.to_string())
        .arg("--")
        .arg(kibitzer_bin())
        .args(["record", "--eof-grace", "2", "-o"])
        .arg(rec)
        .arg("--")
        .args(engine_argv);
    let out = cmd.output().expect("python3 runs");
    assert!(
        out.status.success(),
        "play_game.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    moves_of(&out)
}

/// The moves play_game.py printed (its last line, `result ...`, left out).
pub fn moves_of(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with("result"))
        .map(str::to_owned)
        .collect()
}

/// A stockfish game of node-limited searches (Threads 1, the default), `plies` plies.
pub fn stockfish_nodes_game(dir: &Path, plies: u32) -> PathBuf {
    let rec = dir.join("sf-nodes.jsonl");
    let sf = engine("stockfish");
    record_game(
        &rec,
        "uci",
        &["--nodes", "4000"],
        plies,
        &[sf.to_str().unwrap()],
    );
    rec
}

pub struct Replay {
    pub out: Output,
    /// The report, read into its type.
    pub report: ReplayReport,
    /// The report as printed, for the tests of its JSON shape.
    pub json: Value,
    pub elapsed: Duration,
}

impl Replay {
    pub fn code(&self) -> i32 {
        self.out.status.code().unwrap_or(-1)
    }
    pub fn verdict(&self) -> VerdictKind {
        self.report.verdict.kind
    }
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.out.stderr).into_owned()
    }
    pub fn describe(&self) -> String {
        format!(
            "exit {}, stderr:\n{}\nreport:\n{:#}",
            self.code(),
            self.stderr(),
            self.json
        )
    }
}

/// `kibitzer replay --format json ARGS`; the report must follow its schema, and is read into
/// its type.
pub fn replay_json(args: &[&str]) -> Replay {
    let start = Instant::now();
    let out = kibitzer()
        .arg("replay")
        .args(["--format", "json"])
        .args(args)
        .output()
        .expect("run kibitzer");
    let elapsed = start.elapsed();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON report ({e}); exit {:?}, stderr: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    // Every report a test sees follows the documented schema.
    let schema = schema();
    if let Err(e) = schema.validate(&json) {
        panic!("the report breaks docs/replay-report.schema.json: {e}\n{json:#}");
    }
    let report = serde_json::from_value(json.clone()).expect("a replay report");
    Replay {
        out,
        report,
        json,
        elapsed,
    }
}

/// The recording's events (header left out).
pub fn events(rec: &Path) -> Vec<Value> {
    std::fs::read_to_string(rec)
        .unwrap_or_else(|e| panic!("{}: {e}", rec.display()))
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).expect("event"))
        .collect()
}

pub fn header(rec: &Path) -> Value {
    let text = std::fs::read_to_string(rec).unwrap_or_else(|e| panic!("{}: {e}", rec.display()));
    serde_json::from_str(text.lines().next().expect("header")).expect("header json")
}

/// The file line (1-based; the header is line 1) of the first engine line after the `n`-th
/// GUI line starting with `go`.
pub fn first_engine_line_after_go(rec: &Path, n: usize) -> u64 {
    let evs = events(rec);
    let mut seen = 0;
    let mut after = false;
    for (i, e) in evs.iter().enumerate() {
        let text = e["text"].as_str().unwrap_or("");
        match e["src"].as_str() {
            Some("gui") if text.starts_with("go") => {
                seen += 1;
                after = seen == n;
            }
            Some("engine") if after => return i as u64 + 2,
            _ => {}
        }
    }
    panic!("no engine line after go #{n} in {}", rec.display())
}

/// The GUI lines of a recording, in order.
pub fn gui_lines(rec: &Path) -> Vec<String> {
    events(rec)
        .iter()
        .filter(|e| e["src"] == "gui")
        .map(|e| e["text"].as_str().unwrap_or("").to_owned())
        .collect()
}

pub fn schema() -> crate::common::schema::Schema {
    crate::common::schema::load("replay-report.schema.json")
}
