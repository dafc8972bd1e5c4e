//! Issue 13, point 9: small things a new user trips over, each through the real binary.

use crate::common;

use common::{kibitzer, run_ok};
use std::path::{Path, PathBuf};

fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

#[test]
fn record_refuses_an_unknown_protocol_before_starting_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let marker = dir.path().join("engine-ran");
    let out = kibitzer()
        .args(["record", "--protocol", "foo", "-o"])
        .arg(&rec)
        .args(["--", "sh", "-c"])
        .arg(format!("touch {}", marker.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("invalid value 'foo' for '--protocol <PROTOCOL>'"),
        "{err}"
    );
    assert!(!marker.exists(), "the engine was started");
    assert!(!rec.exists(), "a recording was written");

    // The names `decode` accepts are stored by their canonical name.
    let out = kibitzer()
        .args(["record", "--protocol", "CECP", "-o"])
        .arg(&rec)
        .args(["--", "true"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let header = std::fs::read_to_string(&rec).unwrap();
    assert!(header.contains(r#""protocol":"xboard""#), "{header}");
}

#[test]
fn empty_input_is_named_by_its_whole_path() {
    let out = kibitzer().args(["dump", "/dev/null"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/dev/null is empty"), "{err}");
}

#[test]
fn an_import_of_a_log_without_dates_claims_no_start_date() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("i.jsonl");
    // cutechess-cli -debug stamps milliseconds since the match started: no date.
    let log = repo("tests/fixtures/corpus/cutechess-cli__cutechess-464__1.log");
    run_ok(&["import", log.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let text = std::fs::read_to_string(&out).unwrap();
    let header = text.lines().next().unwrap();
    assert!(!header.contains("1970"), "{header}");
    assert!(!header.contains("\"started\""), "{header}");
    let (pgn, _) = run_ok(&["export", out.to_str().unwrap(), "--pgn"]);
    assert!(pgn.contains("[Date \"????.??.??\"]"), "{pgn}");
    assert!(!pgn.contains("1970"));
}

/// Every event of a JSONL file rewritten by Python's `json.dumps` (spaces after `:` and `,`)
/// or by `jq .` (each object spread over several lines).
fn respaced(compact: &str, pretty: bool) -> String {
    let mut out = String::new();
    for line in compact.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if pretty {
            out.push_str(&serde_json::to_string_pretty(&v).unwrap());
        } else {
            // serde_json has no "spaced compact" writer: add Python's spacing by hand.
            out.push_str(&python_spacing(&serde_json::to_string(&v).unwrap()));
        }
        out.push('\n');
    }
    out
}

fn python_spacing(json: &str) -> String {
    let mut out = String::new();
    let mut in_str = false;
    let mut escaped = false;
    for c in json.chars() {
        out.push(c);
        if in_str {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_str = false,
                _ => {}
            }
        } else if c == '"' {
            in_str = true;
        } else if c == ':' || c == ',' {
            out.push(' ');
        }
    }
    out
}

#[test]
fn a_recording_with_ordinary_json_spacing_reads_as_the_compact_one() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "recordings/stockfish-uci-game.jsonl",
        "recordings/fairymax-cecp-game.jsonl",
    ] {
        let src = repo(name);
        let compact = std::fs::read_to_string(&src).unwrap();
        let (want_decode, _) = run_ok(&["decode", src.to_str().unwrap()]);
        let (want_pgn, _) = run_ok(&["export", src.to_str().unwrap(), "--pgn"]);
        for pretty in [false, true] {
            // Same file name as the original: export names the PGN event after it.
            let sub = dir.path().join(if pretty { "pretty" } else { "spaced" });
            std::fs::create_dir_all(&sub).unwrap();
            let p = sub.join(src.file_name().unwrap());
            let text = respaced(&compact, pretty);
            // Keys come out sorted, spaced, and (for `jq .`) one per line.
            assert!(text.contains("\"kibitzer\": \"recording\""));
            assert!(!text.contains("\"kibitzer\":\"recording\""));
            assert_eq!(text.starts_with("{\n"), pretty);
            std::fs::write(&p, text).unwrap();
            let (got, _) = run_ok(&["decode", p.to_str().unwrap()]);
            assert_eq!(got, want_decode, "{name} pretty={pretty}");
            let (pgn, _) = run_ok(&["export", p.to_str().unwrap(), "--pgn"]);
            assert_eq!(pgn, want_pgn, "{name} pretty={pretty}");
            // A check of the respaced file finds what the original's finds.
            let out = kibitzer()
                .args(["check", p.to_str().unwrap()])
                .output()
                .unwrap();
            let orig = kibitzer()
                .args(["check", src.to_str().unwrap()])
                .output()
                .unwrap();
            assert_eq!(
                out.status.code(),
                orig.status.code(),
                "{name} pretty={pretty}"
            );
        }
    }
}

#[test]
fn a_killed_engine_exits_once_in_every_output() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("k.jsonl");
    let mut child = kibitzer()
        .args(["record", "-o"])
        .arg(&rec)
        .args(["--", "sh", "-c", "read x; kill -9 $$"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"uci\n").unwrap();
    }
    let status = child.wait().unwrap();
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(9),
        "the GUI sees the engine killed by SIGKILL"
    );
    let r = rec.to_str().unwrap();
    let (dump, _) = run_ok(&["dump", r]);
    assert_eq!(dump.matches("engine_exit").count(), 1, "{dump}");
    let (decode, _) = run_ok(&["decode", r]);
    assert_eq!(decode.matches("killed by SIGKILL").count(), 1, "{decode}");
    let out = kibitzer().args(["check", r]).output().unwrap();
    let check = String::from_utf8_lossy(&out.stdout);
    assert_eq!(check.matches("killed by SIGKILL").count(), 1, "{check}");
}

#[test]
fn release_binaries_carry_no_debug_info() {
    let manifest = std::fs::read_to_string(repo("Cargo.toml")).unwrap();
    let release = manifest
        .split("[profile.release]")
        .nth(1)
        .map(|s| s.split("\n[").next().unwrap_or(""))
        .unwrap_or("");
    assert!(
        !release.contains("debug"),
        "release profile sets debug: {release}"
    );
}

#[test]
fn an_engine_killed_while_it_owes_a_move_is_one_engine_exit_finding() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("k.jsonl");
    let script = "read x; echo uciok; read y; echo readyok; read z; read w; kill -9 $$";
    let mut child = kibitzer()
        .args(["record", "-o"])
        .arg(&rec)
        .args(["--", "sh", "-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::{BufRead, Write};
        let mut stdin = child.stdin.take().unwrap();
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdin.write_all(b"uci\n").unwrap();
        out.read_line(&mut line).unwrap();
        stdin.write_all(b"isready\n").unwrap();
        out.read_line(&mut line).unwrap();
        stdin
            .write_all(b"position startpos\ngo infinite\n")
            .unwrap();
        // The engine dies; the GUI notices its output closing.
        line.clear();
        assert_eq!(out.read_line(&mut line).unwrap(), 0, "{line}");
    }
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&child.wait().unwrap()),
        Some(9)
    );
    let r = rec.to_str().unwrap();
    let out = kibitzer()
        .args(["check", "--format", "json", r])
        .output()
        .unwrap();
    let report: kibitzer::rules::report::CheckReport = serde_json::from_slice(&out.stdout).unwrap();
    let exits = report.files[0]
        .findings
        .iter()
        .filter(|f| f.rule == "X-ENGINE-EXIT")
        .count();
    assert_eq!(exits, 1, "{report:#?}");
    let (decode, _) = run_ok(&["decode", r]);
    assert_eq!(decode.matches("X-ENGINE-EXIT").count(), 1, "{decode}");
}
