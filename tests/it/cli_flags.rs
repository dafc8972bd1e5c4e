//! One flag convention for every command: `--format` picks the output (text|json for decode
//! and check, pgn|ggf for export), `--input-format NAME` forces how the input is read, `-o FILE`
//! writes a file. The earlier spellings keep working for scripts that use them.

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
            "kibitzer-check/1",
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
