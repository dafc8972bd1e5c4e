//! Every command judges with the one checker: `decode` shows exactly the findings `check`
//! reports, and a recording made under a `.c2w` profile is read under it by every command.

use crate::common;
use kibitzer::rules::{CheckOptions, Profile};
use serde_json::Value;
use std::path::Path;

/// (rule, line, event, severity, message, times, last line) of every finding.
type Key = (String, Option<u64>, u64, String, String, u64, Option<u64>);

fn key(f: &Value) -> Key {
    (
        f["rule"].as_str().unwrap_or_default().to_owned(),
        f["line"].as_u64(),
        f["seq"].as_u64().unwrap_or(u64::MAX),
        f["severity"].as_str().unwrap_or_default().to_owned(),
        f["message"].as_str().unwrap_or_default().to_owned(),
        f["count"].as_u64().unwrap_or(1),
        f["last_line"].as_u64(),
    )
}

fn from_check(file: &Path, flags: &[&str]) -> Vec<Key> {
    let out = common::kibitzer()
        .args(["check", "--format", "json"])
        .args(flags)
        .arg(file)
        .output()
        .unwrap();
    let v: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut keys: Vec<Key> = v["files"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(key)
        .collect();
    keys.sort();
    keys
}

fn from_decode(file: &Path, flags: &[&str]) -> Vec<Key> {
    let out = common::kibitzer()
        .args(["decode", "--format", "json"])
        .args(flags)
        .arg(file)
        .output()
        .unwrap();
    let records: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .collect();
    // A folded finding: the `finding` record the first time, its `repeats` record at the end.
    let mut keys: Vec<Key> = records
        .iter()
        .filter(|l| l["type"] == "finding")
        .map(|f| {
            let mut k = key(f);
            if let Some(r) = records
                .iter()
                .find(|r| r["type"] == "repeats" && r["rule"] == f["rule"] && r["seq"] == f["seq"])
            {
                k.5 = r["count"].as_u64().unwrap_or(0);
                k.6 = r["last_line"].as_u64();
            }
            k
        })
        .collect();
    keys.sort();
    keys
}

#[test]
fn decode_shows_exactly_what_check_reports_on_every_shipped_input() {
    let files = common::shipped_inputs();
    assert!(files.len() >= 35, "only {} inputs", files.len());
    let mut findings = 0;
    for f in &files {
        assert_eq!(from_decode(f, &[]), from_check(f, &[]), "{}", f.display());
        let want = from_check(f, &["--every"]);
        findings += want.len();
        assert_eq!(
            from_decode(f, &["--every"]),
            want,
            "{} --every",
            f.display()
        );
    }
    // Not vacuous: the shipped inputs hold findings of every kind.
    assert!(findings > 100, "{findings}");
    // The flags choosing the findings are the same flags.
    let f = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/corpus/python-chess__python-chess-429__1.log");
    for flags in [
        &["--min-severity", "error"][..],
        &["--profile", "spec", "--min-severity", "chat"],
        &["--rule", "UCI-BESTMOVE-ILLEGAL"],
        &["--ignore", "UCI-BESTMOVE-ILLEGAL", "--no-pv-check"],
    ] {
        assert_eq!(from_decode(&f, flags), from_check(&f, flags), "{flags:?}");
    }
}

/// A recording whose header carries a Chess Academy profile that sends positions with its own
/// `fen` command (`EngineCmdSB=fen`): read without the profile, `fen` is an unknown command
/// and every move after it illegal.
fn fen_command_recording(dir: &Path) -> std::path::PathBuf {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("recordings/fairymax-c2w.jsonl");
    let first = std::fs::read_to_string(shipped).unwrap();
    let header: Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    let profile = format!(
        "{}EngineCmdSB=fen\n",
        header["c2w"]["text"].as_str().unwrap()
    );
    let header = serde_json::json!({
        "kibitzer": "recording", "version": 1, "tool": "test",
        "started": "2026-11-25T00:00:00Z", "protocol": "xboard",
        "c2w": {"file": "/profiles/toy.c2w", "name": "Toy", "version": "1", "text": profile},
    });
    let lines = [
        ("gui", "xboard"),
        ("gui", "protover 2"),
        ("engine", "feature setboard=1 ping=1 done=1"),
        ("gui", "accepted setboard"),
        ("gui", "accepted ping"),
        ("gui", "new"),
        ("gui", "force"),
        ("gui", "fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
        ("gui", "go"),
        ("engine", "move e1g1"),
        ("gui", "e8d7"),
        ("engine", "move f1f7"),
        ("gui", "quit"),
    ];
    let mut text = format!("{header}\n");
    for (i, (src, line)) in lines.iter().enumerate() {
        let ev =
            serde_json::json!({"seq": i + 1, "t": (i + 1) * 1_000_000, "src": src, "text": line});
        text.push_str(&format!("{ev}\n"));
    }
    let rec = dir.join("fen.jsonl");
    std::fs::write(&rec, text).unwrap();
    rec
}

#[test]
fn a_recording_made_under_a_c2w_profile_is_read_under_it_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let rec = fen_command_recording(dir.path());
    let run = |args: &[&str]| {
        let out = common::kibitzer().args(args).arg(&rec).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    // check and decode: no unknown command, no illegal move.
    let (code, text) = run(&["check"]);
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(from_check(&rec, &["--min-severity", "chat"]), []);
    assert_eq!(from_decode(&rec, &["--min-severity", "chat"]), []);
    let (_, decoded) = run(&["decode"]);
    assert!(
        decoded.contains("= 4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
        "{decoded}"
    );
    assert!(
        decoded.contains("= 8/3k1R2/8/8/8/8/8/6K1 b - - 3 2"),
        "{decoded}"
    );
    // export: the game from the profile's position, every move.
    let (code, pgn) = run(&["export"]);
    assert_eq!(code, Some(0), "{pgn}");
    assert!(
        pgn.contains("[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("1. O-O Kd7 2. Rf7+"), "{pgn}");
    // view: the same document.
    let doc = kibitzer::tui::load::read_file(&rec, None, None, Profile::default_profile()).unwrap();
    assert_eq!(doc.findings(), []);
    // replay reads the original the way the command does: the header's profile applies.
    let input = kibitzer::input::Input::open(&rec, None).unwrap();
    let (opts, note) =
        CheckOptions::new(Profile::default_profile()).for_input(input.recording_header());
    assert_eq!(note, None);
    let events = kibitzer::replay::read_back(&rec).unwrap();
    let a = kibitzer::replay::analysis::analyse(events, &opts);
    assert_eq!(a.session.games.len(), 1);
    assert_eq!(a.session.games[0].plies.len(), 3);
    assert_eq!(a.findings, []);
    // Without the profile every one of these reads it wrong: the test can fail.
    let plain = kibitzer::replay::analysis::analyse(
        kibitzer::replay::read_back(&rec).unwrap(),
        &CheckOptions::new(Profile::default_profile()),
    );
    assert!(!plain.findings.is_empty());
}

#[test]
fn the_c2w_rules_apply_to_a_recording_made_under_a_profile_in_the_viewer_too() {
    // The shipped Fairy-Max session, its header's profile changed so that the GUI's `sd 4`
    // breaks it.
    let dir = tempfile::tempdir().unwrap();
    let rec = common::fairymax_c2w_recording_breaking_its_profile(dir.path());
    let doc = kibitzer::tui::load::read_file(&rec, None, None, Profile::default_profile()).unwrap();
    assert!(
        doc.findings().iter().any(|f| f.rule == "C2W-SD-COMMAND"),
        "{:#?}",
        doc.findings()
    );
    let mut shown: Vec<Key> = doc
        .findings()
        .iter()
        .map(|x| {
            (
                x.rule.to_string(),
                x.line,
                x.seq,
                x.severity.as_str().to_owned(),
                x.message.clone(),
                x.count,
                x.last_line,
            )
        })
        .collect();
    shown.sort();
    assert_eq!(shown, from_check(&rec, &[]));
}

/// `check` and `report` print the same latency figures for the same requests: both take them
/// from the judge's histograms. `check` tables the whole input, `report` each engine: the
/// engines' rows added up are the input's, bucket for bucket.
#[test]
fn check_and_report_give_the_same_latencies() {
    use kibitzer::rules::{Histogram, LatencyStats};
    use std::collections::BTreeMap;
    let json = |args: &[&str], file: &Path| -> Value {
        let out = common::kibitzer().args(args).arg(file).output().unwrap();
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
    };
    let rows = |v: &Value| -> Vec<LatencyStats> { serde_json::from_value(v.clone()).unwrap() };
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut inputs: Vec<_> = std::fs::read_dir(fixtures.join("real"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    inputs.sort();
    inputs.push(fixtures.join("logs/xboard-debug__fairymax-vs-polyglot-stockfish.log"));
    inputs.push(fixtures.join("logs/fastchess__illegal-move-quoted.log"));
    let mut compared = 0;
    for file in &inputs {
        let check = rows(&json(&["check", "--format", "json"], file)["files"][0]["latencies"]);
        let report = json(&["report", "--format", "json"], file);
        let mut added: BTreeMap<String, Histogram> = BTreeMap::new();
        for engine in report["engines"].as_array().unwrap() {
            for row in rows(&engine["latencies"]) {
                added
                    .entry(row.request.clone())
                    .or_default()
                    .merge(&row.histogram);
            }
        }
        let whole: BTreeMap<String, Histogram> = check
            .iter()
            .map(|r| (r.request.clone(), r.histogram.clone()))
            .collect();
        assert_eq!(whole, added, "{}", file.display());
        if report["engines"].as_array().unwrap().len() == 1 {
            // One engine: the very same rows, figures and all.
            let mut one = rows(&report["engines"][0]["latencies"]);
            one.sort_by(|a, b| a.request.cmp(&b.request));
            let mut check = check.clone();
            check.sort_by(|a, b| a.request.cmp(&b.request));
            assert_eq!(check, one, "{}", file.display());
        }
        compared += check.iter().map(|r| r.count).sum::<u64>();
    }
    assert!(compared > 1000, "only {compared} latencies compared");
}

#[test]
fn a_profile_in_the_header_that_does_not_parse_is_said_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let rec = fen_command_recording(dir.path());
    let text = std::fs::read_to_string(&rec).unwrap();
    let (first, rest) = text.split_once('\n').unwrap();
    let mut header: Value = serde_json::from_str(first).unwrap();
    header["c2w"]["text"] = "this is no profile\n".into();
    std::fs::write(&rec, format!("{header}\n{rest}")).unwrap();
    let said = "the .c2w profile in its header (/profiles/toy.c2w) does not parse; not used";
    for cmd in ["check", "decode"] {
        let out = common::kibitzer().arg(cmd).arg(&rec).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{cmd}: {err}");
    }
    let doc = kibitzer::tui::load::read_file(&rec, None, None, Profile::default_profile()).unwrap();
    assert_eq!(doc.notice.as_deref(), Some(said));
}
