//! Engines that fight back: each ends in bounded time with a verdict, never a clean bill of
//! health it did not earn.

use crate::common::{kibitzer, spawn_proxy};
use std::io::Write;
use std::path::Path;
use std::time::Duration;

fn faulty_engine() -> String {
    format!("{}/tests/engines/uci_faulty.py", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `sh -c SCRIPT` through `record`, sends a game's start and a search, keeps the GUI's
/// side open until the engine is gone, then checks the recording.
fn record_and_check(dir: &Path, script: &str) -> (Option<i32>, String) {
    let rec = dir.join("rec.jsonl");
    let mut proxy = spawn_proxy(&rec, &["sh", "-c", script]);
    let mut stdin = proxy.stdin.take().unwrap();
    stdin
        .write_all(b"uci\nisready\nposition startpos\ngo depth 8\n")
        .unwrap();
    stdin.flush().unwrap();
    // The engine dies on its own; the GUI's input stays open until the proxy is done, so
    // nothing but the engine can explain its end.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = proxy.try_wait().unwrap() {
            assert!(!status.success(), "the proxy reports the crash: {status:?}");
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the proxy did not end within 60 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(stdin);
    let out = kibitzer()
        .args(["check", "--color", "never"])
        .arg(&rec)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn an_engine_that_dies_owing_a_move_is_named_even_when_its_child_lives_on() {
    let dir = tempfile::tempdir().unwrap();
    // The child (`sleep`) outlives the engine: the proxy's sweep kills it after the engine
    // died, which is no sign that anyone gave up on the engine.
    let script = format!(
        "sleep 30 & exec python3 {} --crash-mid-search --crash-exit-code 3",
        faulty_engine()
    );
    let (code, text) = record_and_check(dir.path(), &script);
    assert!(text.contains("error[X-ENGINE-EXIT]"), "{text}");
    assert_eq!(code, Some(1), "{text}");
    // The case under test happened: the sweep killed the child after the engine's end.
    let rec = std::fs::read_to_string(dir.path().join("rec.jsonl")).unwrap();
    assert!(
        rec.contains("still running after the engine exited: sleep"),
        "{rec}"
    );
}

#[test]
fn an_engine_that_dies_owing_a_move_without_a_child_is_named_too() {
    // The near miss of the above: the same crash with no leftover.
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "exec python3 {} --crash-mid-search --crash-exit-code 3",
        faulty_engine()
    );
    let (code, text) = record_and_check(dir.path(), &script);
    assert!(text.contains("error[X-ENGINE-EXIT]"), "{text}");
    assert_eq!(code, Some(1), "{text}");
}
