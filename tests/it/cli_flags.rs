//! One flag scheme for every command (README: "Commands, flags and exit statuses"): `-o FILE`
//! is the command's product, `--recording FILE` the session of a command that runs an engine,
//! `--format` the output's form, `--input-format NAME` how the input is read. The earlier
//! spellings keep working, with a note on stderr.

use crate::common;

use std::path::Path;

fn run(args: &[&str]) -> std::process::Output {
    common::kibitzer()
        .args(args)
        .output()
        .expect("run kibitzer")
}

#[test]
fn every_command_takes_input_format_and_writes_with_o() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rec = root.join("recordings/stockfish-analysis.jsonl");
    let log = root.join("tests/fixtures/logs/polyglot__stockfish.log");
    let (rec, log) = (rec.to_str().unwrap(), log.to_str().unwrap());
    let dir = tempfile::tempdir().unwrap();
    let out = |n: &str| dir.path().join(n).to_str().unwrap().to_owned();
    for (args, file, expect) in [
        (
            vec![
                "dump",
                "--input-format",
                "polyglot",
                "-o",
                &out("d.txt"),
                log,
            ],
            "d.txt",
            "-> uci",
        ),
        (
            vec![
                "decode",
                "--format",
                "json",
                "--input-format",
                "recording",
                "-o",
                &out("a.json"),
                rec,
            ],
            "a.json",
            "\"type\":\"summary\"",
        ),
        (
            vec![
                "export",
                "--format",
                "pgn",
                "--input-format",
                "recording",
                "-o",
                &out("g.pgn"),
                rec,
            ],
            "g.pgn",
            "[Event ",
        ),
        (
            vec![
                "import",
                "--input-format",
                "polyglot",
                "-o",
                &out("i.jsonl"),
                log,
            ],
            "i.jsonl",
            "\"kibitzer\":\"recording\"",
        ),
        (
            vec![
                "check",
                "--format",
                "json",
                "--input-format",
                "recording",
                "-o",
                &out("c.json"),
                rec,
            ],
            "c.json",
            "kibitzer-check/3",
        ),
    ] {
        let o = run(&args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(o.stdout.is_empty(), "{args:?} wrote to stdout with -o");
        let written = std::fs::read_to_string(dir.path().join(file)).unwrap();
        assert!(written.contains(expect), "{args:?}: {written:.200}");
    }
    // Earlier spellings: `--format NAME` for the input, `decode --output json`, `-O json`.
    for args in [
        vec!["dump", "--format", "polyglot", log],
        vec!["import", "--format", "polyglot", "-o", &out("j.jsonl"), log],
        vec!["export", "--format", "polyglot", log],
        vec!["decode", "--format", "json", "--format", "polyglot", log],
        vec!["decode", "--output", "json", rec],
        vec!["decode", "-O", "json", rec],
    ] {
        let o = run(&args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        // Each says which spelling replaced it.
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("earlier spelling"), "{args:?}: {err}");
    }
    assert!(
        String::from_utf8_lossy(&run(&["decode", "--output", "json", rec]).stdout).starts_with('{')
    );
    // Contradictions are usage errors.
    for args in [
        vec![
            "dump",
            "--input-format",
            "polyglot",
            "--format",
            "arena",
            log,
        ],
        vec!["decode", "--format", "json", "-O", "text", rec],
        vec!["export", "--pgn", "--format", "ggf", rec],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

fn scripted_uci() -> String {
    format!("{}/tests/engines/uci_faulty.py", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn commands_that_run_an_engine_keep_the_session_with_recording_and_write_o() {
    let dir = tempfile::tempdir().unwrap();
    let path = |n: &str| dir.path().join(n);
    let engine = scripted_uci();
    // probe: -o is the report card, --recording the session.
    let o = common::kibitzer()
        .args([
            "probe",
            "--protocol",
            "uci",
            "--timeout",
            "5",
            "--format",
            "json",
            "-o",
        ])
        .arg(path("card.json"))
        .arg("--recording")
        .arg(path("probe.jsonl"))
        .args(["--", "python3", &engine])
        .output()
        .unwrap();
    assert!(o.stdout.is_empty(), "the card went to -o");
    // Read typed: the report of this version, which names the recording.
    let card: kibitzer::probe::report::ProbeReport =
        serde_json::from_str(&std::fs::read_to_string(path("card.json")).unwrap()).unwrap();
    assert_eq!(card.schema, "kibitzer-probe/3");
    assert_eq!(Some(card.recording.as_str()), path("probe.jsonl").to_str());
    assert!(path("probe.jsonl").is_file());
    // The earlier `probe -o REC.jsonl` still keeps the session there, and says so.
    let o = common::kibitzer()
        .args(["probe", "--protocol", "uci", "--timeout", "5", "-o"])
        .arg(path("old.jsonl"))
        .args(["--", "python3", &engine])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("--recording"));
    assert!(
        std::fs::read_to_string(path("old.jsonl")).is_ok_and(|t| t.contains("\"uci\"")),
        "the old spelling kept the recording"
    );
    // replay: --recording is the new session, -w its earlier spelling (said on stderr).
    let rec = format!(
        "{}/recordings/stockfish-analysis.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    for flag in ["--recording", "-w"] {
        let o = common::kibitzer()
            .args(["replay", "--dry-run", &rec, flag])
            .arg(path("replayed.jsonl"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            flag == "-w",
            err.contains("now --recording"),
            "{flag}: {err}"
        );
    }
    // record: --recording is the same flag as -o.
    let o = common::kibitzer()
        .args(["record", "--recording"])
        .arg(path("rec.jsonl"))
        .args(["--", "true"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(path("rec.jsonl").is_file());
}

#[test]
fn an_engine_that_cannot_start_is_exit_2_except_for_record_which_exits_as_a_shell() {
    let dir = tempfile::tempdir().unwrap();
    let rec = format!(
        "{}/recordings/stockfish-analysis.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = |n: &str| dir.path().join(n).to_str().unwrap().to_owned();
    for (args, code) in [
        (
            vec![
                "probe",
                "--recording",
                &out("p.jsonl"),
                "--",
                "no-such-engine-x",
            ],
            2,
        ),
        (
            vec![
                "replay",
                &rec,
                "--recording",
                &out("r.jsonl"),
                "--",
                "no-such-engine-x",
            ],
            2,
        ),
        (
            vec![
                "c2w",
                "suggest",
                "-o",
                &out("s.c2w"),
                "--",
                "no-such-engine-x",
            ],
            2,
        ),
        (
            vec!["record", "-o", &out("rec.jsonl"), "--", "no-such-engine-x"],
            127,
        ),
    ] {
        let o = common::kibitzer()
            .args(&args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(code), "{args:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("no-such-engine-x"),
            "{args:?}: the message names the engine"
        );
    }
}
