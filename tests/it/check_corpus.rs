//! `kibitzer check` over everything real that ships: the recordings of real engines, every
//! corpus log from a public bug report and the fixture logs. A healthy session has no error
//! (exit 0); the logs that show a real fault name it, and that list is here. Every report
//! validates against docs/check-report.schema.json.

use crate::common;

use common::transcript::{check_raw, check_report};
use kibitzer::recording::VerdictKind;
use kibitzer::rules::Severity;
use kibitzer::rules::report::CheckReport;
use kibitzer::session::verdicts::VerdictCheck;
use serde_json::Value;
use std::path::Path;

/// Corpus logs with real faults, and the error rules each must report.
const FAULTY: &[(&str, &[&str])] = &[
    // python-chess#429: the engine answered `bestmove a1a1`.
    (
        "python-chess__python-chess-429__1.log",
        &["UCI-BESTMOVE-ILLEGAL"],
    ),
    // Written as fastchess writes an illegal-move warning: sf2 plays e2e4 as Black.
    (
        "fastchess__illegal-move-quoted.log",
        &["UCI-BESTMOVE-ILLEGAL"],
    ),
];

#[test]
fn healthy_sessions_have_no_error_and_faulty_logs_name_their_fault() {
    let files = common::shipped_inputs();
    assert!(files.len() >= 35, "only {} inputs", files.len());
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        // check_report validates the report against docs/check-report.schema.json.
        let (report, status) = check_report(f, &[]);
        let errors: Vec<&str> = report.files[0]
            .findings
            .iter()
            .filter(|x| x.severity == Severity::Error)
            .map(|x| x.rule.as_str())
            .collect();
        match FAULTY.iter().find(|(n, _)| *n == name) {
            Some((_, expected)) => {
                assert_eq!(status, 1, "{name}");
                for rule in *expected {
                    assert!(
                        errors.contains(rule),
                        "{name}: {rule} missing from {errors:?}"
                    );
                }
                assert!(
                    errors.iter().all(|e| expected.contains(e)),
                    "{name}: unexpected errors {errors:?}"
                );
            }
            None => {
                assert!(errors.is_empty(), "{name}: {errors:?}");
                assert_eq!(status, 0, "{name}");
            }
        }
    }
}

#[test]
fn a_doctored_game_is_an_error_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("recordings/fairymax-cecp-game.jsonl")).unwrap();
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(
        &bad,
        text.replacen(r#""text":"b8c6""#, r#""text":"b8b6""#, 1),
    )
    .unwrap();
    let out = common::kibitzer()
        .args(["check", "--color", "never"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "bad.jsonl:95: error[CECP-GUI-MOVE-ILLEGAL] gui: GUI move b8b6 is illegal in"
        ),
        "{text}"
    );
    assert!(text.contains("FAILED"), "{text}");
}

#[test]
fn unknown_inputs_and_options_are_usage_errors() {
    let run = |args: &[&str]| common::kibitzer().arg("check").args(args).output().unwrap();
    let rec = Path::new(env!("CARGO_MANIFEST_DIR")).join("recordings/stockfish-uci-game.jsonl");
    let rec = rec.to_str().unwrap();
    for (args, says) in [
        (vec!["--rule", "UCI-NO-SUCH-RULE", rec], "unknown rule"),
        // clap names the flag and lists the values it takes.
        (
            vec!["--profile", "arena", rec],
            "invalid value 'arena' for '--profile <PROFILE>'",
        ),
        (vec!["--profile", "arena", rec], "python-chess"),
        (
            vec!["--min-severity", "fatal", rec],
            "invalid value 'fatal' for '--min-severity <LEVEL>'",
        ),
        (
            vec!["--min-severity", "fatal", rec],
            "chat, note, warning, error",
        ),
        (vec!["/no/such/file"], "cannot open"),
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{args:?}"
        );
    }
    // Filters change what is reported and the exit status with it.
    let bad = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/corpus/python-chess__python-chess-429__1.log");
    let bad = bad.to_str().unwrap();
    assert_eq!(run(&[bad]).status.code(), Some(1));
    assert_eq!(
        run(&["--ignore", "UCI-BESTMOVE-ILLEGAL", bad])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        run(&["--rule", "uci-bestmove-illegal", bad]).status.code(),
        Some(1)
    );
    let only: CheckReport = serde_json::from_slice(
        &run(&["--format", "json", "--rule", "UCI-BESTMOVE-ILLEGAL", bad]).stdout,
    )
    .unwrap();
    let rules: Vec<&str> = only.files[0]
        .findings
        .iter()
        .map(|f| f.rule.as_str())
        .collect();
    assert_eq!(rules, ["UCI-BESTMOVE-ILLEGAL"]);
}

fn schema() -> common::schema::Schema {
    common::schema::load("check-report.schema.json")
}

#[test]
fn the_schema_rejects_what_it_should() {
    let schema = schema();
    let dir = tempfile::tempdir().unwrap();
    let rec = common::transcript::recording(dir.path(), "t", "0.0 > uci\n0.1 < uciok");
    let (good, _) = check_raw(&rec, &[]);
    assert!(schema.validate(&good).is_ok());
    let mut extra = good.clone();
    extra["files"][0]["surprise"] = Value::Bool(true);
    assert!(schema.validate(&extra).is_err());
    let mut bad_severity = good.clone();
    bad_severity["totals"]["findings"]["error"] = Value::String("none".into());
    assert!(schema.validate(&bad_severity).is_err());
    let mut no_schema = good;
    no_schema.as_object_mut().unwrap().remove("schema");
    assert!(schema.validate(&no_schema).is_err());
}

/// Issue 13, point 3: the runner's own verdicts come typed, beside kibitzer's findings, and
/// the runner's messages are not a protocol session.
#[test]
fn runner_verdicts_show_beside_the_findings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    type Verdict<'a> = (VerdictKind, Option<&'a str>, Option<&'a str>);
    let cases: &[(&str, &[Verdict])] = &[
        (
            "corpus/fastchess__fastchess-443__1.log",
            &[
                (VerdictKind::BadOutput, None, None),
                (VerdictKind::BadOutput, None, None),
                (VerdictKind::IllegalMove, Some("sf1"), Some("aaaa")),
            ],
        ),
        (
            "corpus/cutechess-cli-stdout__cutechess-767__1.log",
            &[(VerdictKind::Stall, Some("XboardEngine"), None)],
        ),
        (
            "corpus/python-chess__python-chess-429__1.log",
            &[(VerdictKind::BadOutput, None, None)],
        ),
        (
            "logs/fastchess__illegal-move-quoted.log",
            &[
                (VerdictKind::IllegalMove, Some("sf2"), Some("e2e4")),
                (VerdictKind::IllegalMove, Some("sf2"), None),
            ],
        ),
    ];
    for (file, want) in cases {
        let (report, _) = check_report(&root.join(file), &[]);
        let got: Vec<Verdict> = report.files[0]
            .runner_verdicts
            .iter()
            .map(|v| {
                (
                    v.verdict.kind,
                    v.verdict.engine.as_deref(),
                    v.verdict.mv.as_deref(),
                )
            })
            .collect();
        assert_eq!(got, *want, "{file}");
        // No session of the runner's own in the report's sessions.
        for s in &report.files[0].sessions {
            let label = s.label.as_deref().unwrap_or("");
            assert!(
                !label.starts_with('['),
                "{file}: {label} listed as a session"
            );
        }
    }
    // The quoted position lets kibitzer check the claim.
    let (report, _) = check_report(&root.join("logs/fastchess__illegal-move-quoted.log"), &[]);
    let v = &report.files[0].runner_verdicts[0];
    assert_eq!(
        v.verdict.position.as_deref(),
        Some("position startpos moves e2e4")
    );
    assert!(
        matches!(v.kibitzer, Some(VerdictCheck::Agrees(_))),
        "{:?}",
        v.kibitzer
    );
    let out = common::kibitzer()
        .arg("decode")
        .arg(root.join("corpus/python-chess__python-chess-429__1.log"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("runner python-chess: 9 message(s) of its own, 1 verdict(s)"),
        "{text}"
    );
    assert!(!text.contains("session [[python-chess]]"), "{text}");
}
