//! `kibitzer decode` over every real log of the corpus, and the key facts of a few.

use crate::common;

use common::kibitzer;
use kibitzer::recording::{Event, Header, Source, writer};
use serde_json::Value;
use std::path::Path;

fn decode_json(path: &Path) -> Vec<Value> {
    let out = kibitzer()
        .args(["decode", "--json"])
        .arg(path)
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The findings `decode` shows: `check`'s, one record each.
fn diagnostics(v: &[Value]) -> Vec<(String, String)> {
    v.iter()
        .filter(|o| o["type"] == "finding")
        .map(|d| {
            (
                d["rule"].as_str().unwrap_or("").to_owned(),
                d["message"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

fn summaries(v: &[Value]) -> Vec<&Value> {
    v.iter().filter(|o| o["type"] == "summary").collect()
}

#[test]
fn every_corpus_log_decodes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/corpus");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).expect("corpus") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "log") {
            let v = decode_json(&p);
            assert!(!summaries(&v).is_empty(), "{}", p.display());
            n += 1;
        }
    }
    assert!(n >= 25, "only {n} logs");
}

#[test]
fn python_chess_429_illegal_bestmove_a1a1_is_flagged() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/corpus/python-chess__python-chess-429__1.log");
    let d = diagnostics(&decode_json(&p));
    assert!(
        d.iter()
            .any(|(c, m)| c == "UCI-BESTMOVE-ILLEGAL" && m.contains("a1a1")),
        "{d:?}"
    );
}

#[test]
fn mess_36_ends_with_the_ponder_search_unanswered() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/corpus/cutechess-gui__mess-36__1.log");
    let v = decode_json(&p);
    let mess = summaries(&v)
        .into_iter()
        .find(|s| s["session"].as_str().is_some_and(|l| l.starts_with("Mess")))
        .expect("Mess session");
    assert_eq!(mess["protocol"], "uci");
    let open: Vec<_> = mess["open"]
        .as_array()
        .expect("open")
        .iter()
        .map(|o| o["answer"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(open, ["bestmove"]);
    // Its position command replays legally from the FEN.
    assert_eq!(mess["games"][0]["plies"], 23);
    assert!(diagnostics(&v).iter().all(|(c, _)| !c.contains("ILLEGAL")));
}

#[test]
fn nboard_corpus_log_is_an_othello_session() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/corpus/nboard__ntest-protocol-htm__1.log");
    let v = decode_json(&p);
    let s = summaries(&v);
    assert!(s.iter().any(|s| s["protocol"] == "nboard"), "{s:?}");
}

/// A recording written with the library, decoded by the binary.
fn recording(dir: &Path, lines: &[(Source, &str)]) -> std::path::PathBuf {
    let mut buf = Vec::new();
    writer::encode_header(&mut buf, &Header::new("test", "2024-05-01T10:00:00Z"));
    for (i, (s, t)) in lines.iter().enumerate() {
        writer::encode_event(
            &mut buf,
            &Event::line(i as u64 + 1, i as u64 * 1_000_000, *s, *t),
        );
    }
    let p = dir.join("r.jsonl");
    std::fs::write(&p, buf).expect("write");
    p
}

#[test]
fn text_output_shows_kinds_positions_diagnostics_and_what_is_owed() {
    use Source::{Engine as E, Gui as G};
    let dir = tempfile::tempdir().expect("tempdir");
    let p = recording(
        dir.path(),
        &[
            (G, "uci"),
            (E, "id name Broken"),
            (E, "uciok"),
            (G, "position startpos moves e2e4"),
            (G, "go movetime 100"),
            (E, "bestmove e2e4"),
            (G, "position startpos moves e2e4 e7e5"),
            (G, "go movetime 100"),
        ],
    );
    let out = kibitzer().arg("decode").arg(&p).output().expect("run");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("-> position startpos moves e2e4  [position]"),
        "{text}"
    );
    assert!(
        text.contains("= rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
        "{text}"
    );
    assert!(
        text.contains("error[UCI-BESTMOVE-ILLEGAL] engine: bestmove e2e4 is illegal in rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
        "{text}"
    );
    assert!(text.contains("engine: Broken"), "{text}");
    assert!(
        text.contains("open: engine owes bestmove since 0.0 s (for 'go' at seq 8)"),
        "{text}"
    );
}

#[test]
fn protocol_can_be_forced_and_bad_names_are_refused() {
    use Source::{Engine as E, Gui as G};
    let dir = tempfile::tempdir().expect("tempdir");
    let p = recording(dir.path(), &[(G, "go"), (E, "move e7e5")]);
    let out = kibitzer()
        .args(["decode", "--json", "--protocol", "xboard"])
        .arg(&p)
        .output()
        .expect("run");
    let v: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|l| l["type"] == "line")
        .collect();
    assert_eq!(v[1]["kind"], "move");
    assert_eq!(v[1]["protocol"], "xboard");
    let bad = kibitzer()
        .args(["decode", "--protocol", "usi"])
        .arg(&p)
        .output()
        .expect("run");
    assert!(!bad.status.success());
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("invalid value 'usi' for '--protocol <PROTOCOL>'"),
        "{err}"
    );
    assert!(err.contains("uci, xboard, nboard"), "{err}");
}
