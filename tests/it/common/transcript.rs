//! Recordings written from short timed transcripts, and `kibitzer check` run over them: the
//! material of the rule tests.
//!
//! A transcript has one event per line: seconds since the start, a direction and the text.
//! `>` is GUI to engine, `<` engine to GUI, `!` a proxy event whose first word is its kind
//! (`spawned`, `gui_eof`, `engine_eof`, `engine_exit`, `killed`, `signal`, `write_error`),
//! optionally followed by `code=N` or `signal=NAME`, then the text. A `\r` at the end of a
//! `>`/`<` text makes the line end in CR LF; `\z` at the end leaves it without a line ending;
//! `\+` at the end marks a piece of a line too long for one event (`more`), continued by the
//! next event from the same side.
//!
//! `! sample cpu=MS delay=MS states=RS reading=N faults=N` is a sample of the engine's
//! processes (cumulative CPU and run-queue milliseconds, one letter per thread's state,
//! threads reading their input, major faults).
//!
//! `! probe {JSON}` is a fact of `kibitzer probe`'s (the `probe` object, e.g.
//! `{"fact":"depth_after_new","limit":3,"before":9,"after":3}`).
//!
//! ```text
//! 0.000 ! spawned stockfish
//! 0.001 > uci
//! 0.050 < uciok
//! 9.000 ! engine_exit code=0 engine exited with code 0
//! ```

use kibitzer::rules::report::CheckReport;
use kibitzer::rules::{Finding, HangVerdict};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Writes the transcript as a recording in `dir` and returns its path.
pub fn recording(dir: &Path, name: &str, transcript: &str) -> PathBuf {
    let mut out = String::from(
        r#"{"kibitzer":"recording","version":1,"tool":"test","started":"2026-11-23T10:00:00Z"}"#,
    );
    out.push('\n');
    let mut seq = 0;
    for raw in transcript.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (t, rest) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("transcript line without time: {raw:?}"));
        let secs: f64 = t
            .parse()
            .unwrap_or_else(|_| panic!("bad time in transcript line {raw:?}"));
        let ns = (secs * 1e9).round() as u64;
        let (dir, text) = rest.split_at(1);
        // Keep the text's own spaces after the one that follows the direction.
        let text = text.strip_prefix(' ').unwrap_or(text);
        seq += 1;
        let mut ev = serde_json::Map::new();
        ev.insert("seq".into(), seq.into());
        ev.insert("t".into(), ns.into());
        match dir {
            ">" | "<" => {
                ev.insert(
                    "src".into(),
                    (if dir == ">" { "gui" } else { "engine" }).into(),
                );
                let (text, eol) = if let Some(t) = text.strip_suffix("\\r") {
                    (t, Some("crlf"))
                } else if let Some(t) = text.strip_suffix("\\z") {
                    (t, Some("none"))
                } else if let Some(t) = text.strip_suffix("\\+") {
                    ev.insert("more".into(), true.into());
                    (t, Some("none"))
                } else {
                    (text, None)
                };
                ev.insert("text".into(), text.into());
                if let Some(e) = eol {
                    ev.insert("eol".into(), e.into());
                }
            }
            "!" if text.starts_with("sample ") => {
                ev.insert("src".into(), "proxy".into());
                ev.insert("kind".into(), "note".into());
                ev.insert("text".into(), "process sample".into());
                ev.insert("sample".into(), sample(text));
            }
            "!" if text.starts_with("probe {") => {
                ev.insert("src".into(), "proxy".into());
                ev.insert("kind".into(), "note".into());
                ev.insert("text".into(), "probe fact".into());
                let fact: Value =
                    serde_json::from_str(&text["probe ".len()..]).expect("probe JSON");
                ev.insert("probe".into(), fact);
            }
            "!" => {
                let mut words = text.splitn(2, ' ');
                let kind = words.next().unwrap_or("");
                let mut rest = words.next().unwrap_or("").to_owned();
                ev.insert("src".into(), "proxy".into());
                ev.insert("kind".into(), kind.into());
                if let Some(r) = rest.strip_prefix("code=") {
                    let (n, tail) = r.split_once(' ').unwrap_or((r, ""));
                    ev.insert("code".into(), n.parse::<i64>().expect("code=N").into());
                    rest = tail.to_owned();
                } else if let Some(r) = rest.strip_prefix("signal=") {
                    let (n, tail) = r.split_once(' ').unwrap_or((r, ""));
                    ev.insert("signal".into(), n.into());
                    rest = tail.to_owned();
                }
                ev.insert("text".into(), rest.into());
            }
            "~" => {
                ev.insert("src".into(), "stderr".into());
                ev.insert("text".into(), text.into());
            }
            other => panic!("unknown direction {other:?} in {raw:?}"),
        }
        out.push_str(&Value::Object(ev).to_string());
        out.push('\n');
    }
    let path = dir.join(format!("{name}.jsonl"));
    std::fs::write(&path, out).expect("write recording");
    path
}

/// The `sample` object of a `! sample key=value...` line.
fn sample(text: &str) -> Value {
    let mut cpu = 0u64;
    let mut delay = 0u64;
    let mut reading = 0u64;
    let mut faults = 0u64;
    let mut states = serde_json::Map::new();
    for key in ["running", "sleeping", "disk", "stopped", "zombie", "other"] {
        states.insert(key.into(), 0.into());
    }
    let mut threads = 0u64;
    for word in text.split_ascii_whitespace().skip(1) {
        let (k, v) = word
            .split_once('=')
            .unwrap_or_else(|| panic!("sample field without =: {word:?}"));
        let n = || {
            v.parse::<u64>()
                .unwrap_or_else(|_| panic!("bad number {word:?}"))
        };
        match k {
            "cpu" => cpu = n(),
            "delay" => delay = n(),
            "reading" => reading = n(),
            "faults" => faults = n(),
            "states" => {
                for c in v.chars() {
                    let key = match c {
                        'R' => "running",
                        'S' => "sleeping",
                        'D' => "disk",
                        'T' => "stopped",
                        'Z' => "zombie",
                        _ => "other",
                    };
                    let old = states[key].as_u64().unwrap_or(0);
                    states.insert(key.into(), (old + 1).into());
                    threads += 1;
                }
            }
            other => panic!("unknown sample field {other:?}"),
        }
    }
    serde_json::json!({
        "procs": 1,
        "threads": threads,
        "user_ms": cpu,
        "sys_ms": 0,
        "run_delay_ms": delay,
        "states": states,
        "reading_input": reading,
        "ctx_voluntary": 0,
        "ctx_involuntary": 0,
        "rss_kib": 10240,
        "major_faults": faults,
        "load1": 1.0,
        "cpus": 2,
    })
}

/// `kibitzer check --format json ARGS... FILE`: the report as printed, which must follow
/// docs/check-report.schema.json, and the exit status.
pub fn check_raw(file: &Path, args: &[&str]) -> (Value, i32) {
    let out = super::kibitzer()
        .arg("check")
        .args(["--format", "json", "--min-severity", "chat"])
        .args(args)
        .arg(file)
        .output()
        .expect("run kibitzer check");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "check printed no JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    CHECK_SCHEMA
        .with(|s| s.validate(&report))
        .unwrap_or_else(|e| panic!("{e}\n{report:#}"));
    (report, out.status.code().unwrap_or(-1))
}

/// [`check_raw`]'s report read into its type, and the exit status.
pub fn check_report(file: &Path, args: &[&str]) -> (CheckReport, i32) {
    let (report, status) = check_raw(file, args);
    let report = serde_json::from_value(report).expect("a check report");
    (report, status)
}

thread_local! {
    static CHECK_SCHEMA: super::schema::Schema = super::schema::load("check-report.schema.json");
}

/// Every finding of a report, file after file.
pub fn findings(report: &CheckReport) -> impl Iterator<Item = &Finding> {
    report.files.iter().flat_map(|f| &f.findings)
}

/// The rule ids of every finding in a report, in order.
pub fn rules_fired(report: &CheckReport) -> Vec<String> {
    findings(report).map(|f| f.rule.to_string()).collect()
}

/// The findings of rule `id`.
pub fn findings_of(report: &CheckReport, id: &str) -> Vec<Finding> {
    findings(report).filter(|f| f.rule == id).cloned().collect()
}

/// The hang verdicts of a report.
pub fn hangs(report: &CheckReport) -> Vec<HangVerdict> {
    report.files.iter().flat_map(|f| f.hangs.clone()).collect()
}

/// Checks a transcript and returns the rules it fired (profile and other options in `args`).
pub fn fired(transcript: &str, args: &[&str]) -> Vec<String> {
    let dir = tempfile::tempdir().expect("tempdir");
    let rec = recording(dir.path(), "t", transcript);
    rules_fired(&check_report(&rec, args).0)
}
