//! `kibitzer import LOG -o FILE`: the log becomes a recording holding the same events, written
//! while the log streams through the importer.

use crate::common;

use common::run_ok as kibitzer;
use std::path::Path;

#[test]
fn an_imported_log_reads_back_as_the_same_events() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let logs = [
        root.join("tests/fixtures/logs/xboard-debug__fairymax-vs-polyglot-stockfish.log"),
        root.join("tests/fixtures/corpus/cutechess-cli__cutechess-464__1.log"),
        root.join("tests/fixtures/corpus/python-chess__python-chess-891__1.log"),
    ];
    for log in &logs {
        let l = log.to_str().unwrap();
        let out = dir.path().join("out.jsonl");
        let o = out.to_str().unwrap();
        let (_, err) = kibitzer(&["import", l, "-o", o]);
        assert!(err.contains(" events, sessions: "), "{err}");
        // The recording holds the log's events: the same transcript and the same decode.
        assert_eq!(kibitzer(&["dump", o]).0, kibitzer(&["dump", l]).0, "{l}");
        assert_eq!(
            kibitzer(&["decode", "--summary-only", o]).0,
            kibitzer(&["decode", "--summary-only", l]).0,
            "{l}"
        );
        let text = std::fs::read_to_string(&out).unwrap();
        let header: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert!(header["imported_from"].is_string(), "{header}");
        assert_eq!(header["source_file"], l);
        // Events are numbered in log order from 1.
        let seqs: Vec<u64> = text
            .lines()
            .skip(1)
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["seq"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        assert_eq!(seqs, (1..=seqs.len() as u64).collect::<Vec<_>>());
    }
}

#[test]
fn a_log_with_many_engine_sessions_names_only_the_first_few() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/logs/xboard-debug__fairymax-vs-polyglot-stockfish.log");
    let one = std::fs::read(&fixture).unwrap();
    let log = dir.path().join("many.debug");
    std::fs::write(&log, one.repeat(10)).unwrap();
    let out = dir.path().join("many.jsonl");
    let (_, err) = kibitzer(&["import", log.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(err.contains("(21 in all)"), "{err}");
    assert!(err.lines().next().is_some_and(|l| l.len() < 400), "{err}");
}
