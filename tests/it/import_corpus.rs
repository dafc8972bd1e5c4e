//! Every real log in `tests/fixtures/corpus/` (copied from the shared corpus, see its
//! SOURCES.md) and every generated log in `tests/fixtures/logs/` imports, is detected as the
//! format its file name starts with, and matches its insta snapshot,
//! `tests/it/snapshots/it__import_corpus__NAME.snap` (review changes with `cargo insta review`,
//! or accept them with `INSTA_UPDATE=always cargo test --test it import_corpus`).

use kibitzer::import::{Imported, LogFormat, detect, import};
use kibitzer::recording::Source;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn logs() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for dir in ["fixtures/corpus", "fixtures/logs"] {
        let rd = std::fs::read_dir(root().join(dir)).expect("fixture folder");
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "log") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

fn expected_format(p: &Path) -> LogFormat {
    let name = p.file_name().unwrap().to_string_lossy();
    let prefix = name.split("__").next().unwrap();
    LogFormat::from_name(prefix).unwrap_or_else(|| panic!("{name}: unknown format prefix {prefix}"))
}

fn snapshot(imp: &Imported, confidence: f32) -> String {
    let mut s = String::new();
    writeln!(
        s,
        "format: {} (detected, confidence {:.2})",
        imp.format, confidence
    )
    .unwrap();
    for sess in &imp.sessions {
        let count = |src: Source| sess.events.iter().filter(|e| e.src == src).count();
        let mut kinds: Vec<&str> = sess
            .events
            .iter()
            .filter_map(|e| e.kind.map(|k| k.as_str()))
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        writeln!(
            s,
            "session {:?}: gui={} engine={} stderr={} proxy={} clock={:?} started={} proxy_kinds=[{}]",
            sess.label,
            count(Source::Gui),
            count(Source::Engine),
            count(Source::Stderr),
            count(Source::Proxy),
            sess.clock,
            sess.header.started,
            kinds.join(",")
        )
        .unwrap();
        let results: Vec<&str> = sess
            .events
            .iter()
            .filter_map(|e| e.result.as_deref())
            .collect();
        if !results.is_empty() {
            writeln!(s, "  results: {}", results.join(" ")).unwrap();
        }
    }
    writeln!(s, "unclassified: {}", imp.unclassified.len()).unwrap();
    for u in &imp.unclassified {
        let text: String = u.text.chars().take(80).collect();
        writeln!(s, "  line {}: {} | {}", u.line, u.reason, text).unwrap();
    }
    s
}

#[test]
fn every_log_is_detected_imported_and_matches_its_snapshot() {
    let mut failures = Vec::new();
    let files = logs();
    assert!(files.len() >= 30, "fixtures missing: {}", files.len());
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let data = std::fs::read(&path).unwrap();
        let want = expected_format(&path);
        let det = detect(&data);
        match &det {
            Some(d) if d.format == want => {}
            other => {
                failures.push(format!(
                    "{name}: detected {:?}, want {want}",
                    other.as_ref().map(|d| (d.format, &d.evidence))
                ));
                continue;
            }
        }
        let imp = import(&data, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Plain cutechess-cli stdout carries only tournament lines, and the 2022 lichess-bot
        // sample only python-chess's INFO-level warning: no traffic in either.
        let has_traffic = imp
            .sessions
            .iter()
            .any(|s| s.events.iter().any(|e| e.is_traffic()));
        let no_traffic = [LogFormat::CutechessCliStdout, LogFormat::LichessBotLegacy];
        assert_eq!(has_traffic, !no_traffic.contains(&want), "{name}: traffic");
        for sess in &imp.sessions {
            for (i, e) in sess.events.iter().enumerate() {
                assert_eq!(e.seq, i as u64 + 1, "{name}");
                assert!(e.line.is_some(), "{name}");
            }
        }
        let got = snapshot(&imp, det.map_or(0.0, |d| d.confidence));
        let dir = path
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy();
        insta::with_settings!({
            description => format!("tests/fixtures/{dir}/{name}, detected and imported"),
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name.trim_end_matches(".log"), got);
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
