//! Slow is not wrong: an engine answering `uci` after 4 s is detected as UCI, a first
//! `isready` answered after 6 s is a latency note (cutechess allows 15 s), not an error; and
//! when no protocol is detected the attempts are kept as the recording.

use crate::common::kibitzer;
use crate::probe_support::*;

fn wrapped(fault: &[&str]) -> Vec<String> {
    let mut v = vec!["python3".to_owned(), script("sf_wrap.py")];
    v.extend(fault.iter().map(|s| (*s).to_owned()));
    v
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn an_engine_answering_uci_after_4_s_is_detected_as_uci() {
    let engine = wrapped(&["slow-uci", "4"]);
    let p = probe(&[], &strs(&engine));
    assert_eq!(p.report.engine.protocol, "uci", "{}", p.text());
    assert!(
        p.report.engine.protocol_reason.contains("uci"),
        "{}",
        p.report.engine.protocol_reason
    );
    assert_eq!(p.status_of("uci.handshake"), Status::Passed, "{}", p.text());
}

#[test]
fn a_first_isready_answered_after_6_s_is_a_latency_note_not_an_error() {
    let engine = wrapped(&["slow-first-isready", "6"]);
    let p = probe(&["--protocol", "uci"], &strs(&engine));
    assert!(
        !p.all_rules().contains(&"UCI-ISREADY-TIMEOUT"),
        "{}",
        p.text()
    );
    let options = p.step("uci.options");
    assert_eq!(options.status, Status::Passed, "{}", p.text());
    assert!(
        options
            .observations
            .iter()
            .any(|o| o.contains("readyok after") && o.contains("latency note")),
        "{:?}",
        options.observations
    );
    assert_eq!(p.status, 0, "{}", p.text());
}

#[test]
fn when_no_protocol_is_detected_the_attempts_are_the_recording() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("p.jsonl");
    let out = kibitzer()
        .args(["probe", "--timeout", "1", "--recording"])
        .arg(&rec)
        .args(["--", "sh", "-c", "cat >/dev/null"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no protocol detected"), "{err}");
    assert!(err.contains(&rec.display().to_string()), "{err}");
    let text = std::fs::read_to_string(&rec).unwrap();
    for s in ["detect uci", "detect xboard", "detect nboard"] {
        assert!(text.contains(&format!(r#""session":"{s}""#)), "{s}: {text}");
    }
    assert!(text.contains(r#""text":"protover 2""#), "{text}");
    // No part file is left beside it.
    let left = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(left, 1);
    // And it is a recording kibitzer reads.
    let dump = kibitzer().arg("dump").arg(&rec).output().unwrap();
    assert!(
        dump.status.success(),
        "{}",
        String::from_utf8_lossy(&dump.stderr)
    );
}
