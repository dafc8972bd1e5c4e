//! The proxy's first promise: every byte passes through unchanged, both ways, and the
//! recording reproduces exactly what passed.

use crate::common;

use common::*;
use kibitzer::recording::Source;
use proptest::prelude::*;
use std::io::{Read, Write};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Feeds `chunks` (with small pauses, so they arrive as separate reads) through
/// `kibitzer record -- cat` and returns (stdout, recording).
fn through_cat(chunks: &[Vec<u8>]) -> (Vec<u8>, kibitzer::recording::Recording) {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let mut child = spawn_proxy(&rec, &["cat"]);
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || read_all_bytes(stdout));
    for c in chunks {
        stdin.write_all(c).unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(Duration::from_millis(1));
    }
    drop(stdin);
    let out = reader.join().unwrap();
    assert!(child.wait().unwrap().success());
    (out, read_recording(&rec))
}

fn check_exact(chunks: &[Vec<u8>]) {
    let input: Vec<u8> = chunks.concat();
    let (out, rec) = through_cat(chunks);
    assert_eq!(out.len(), input.len(), "byte count changed");
    assert!(out == input, "bytes changed in transit");
    assert!(
        wire(&rec, Source::Gui) == input,
        "recording of the GUI side differs from the input"
    );
    assert!(
        wire(&rec, Source::Engine) == input,
        "recording of the engine side differs from its output"
    );
    assert!(rec.issues.is_empty(), "{:?}", rec.issues);
}

#[test]
fn awkward_streams_pass_unchanged() {
    check_exact(&[b"uci\r\nisready\r\n".to_vec()]);
    check_exact(&[
        b"lone\rcr\n\0nul\0\n".to_vec(),
        b"no final newline".to_vec(),
    ]);
    check_exact(&[
        b"\xff\xfe invalid utf8 \xc3\n".to_vec(),
        b"\r".to_vec(),
        b"\n".to_vec(),
    ]);
    check_exact(&[vec![b'x'; 1 << 20], b"\n".to_vec()]);
    let burst: Vec<u8> = (0..20_000)
        .flat_map(|i| format!("info depth {i} pv e2e4\n").into_bytes())
        .collect();
    check_exact(&[burst]);
}

#[test]
fn a_line_beyond_the_fragment_limit_is_reproduced() {
    // 5 MiB without a newline is cut into fragments in the recording, but nothing is lost.
    check_exact(&[vec![b'y'; 5 << 20]]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn arbitrary_byte_streams_pass_unchanged(
        chunks in proptest::collection::vec(
            proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'\r'), Just(0u8), any::<u8>()], 0..2000),
            1..5)
    ) {
        check_exact(&chunks);
    }
}

#[test]
fn partial_lines_are_forwarded_without_waiting_for_a_newline() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let mut child = spawn_proxy(&rec, &["cat"]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    stdin.write_all(b"no newline yet").unwrap();
    stdin.flush().unwrap();
    let started = Instant::now();
    let mut buf = [0u8; 64];
    let n = stdout.read(&mut buf).unwrap();
    assert_eq!(&buf[..n], b"no newline yet");
    // A proxy that waited for the newline would not answer before the input closes; the
    // bound only keeps a slow start on a loaded machine from counting as that.
    assert!(started.elapsed() < Duration::from_secs(20));
    drop(stdin);
    child.wait().unwrap();
}

#[test]
fn engine_stderr_is_passed_through_and_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let out = kibitzer()
        .args(["record", "-o"])
        .arg(&rec)
        .args(["--", "sh", "-c", "echo to-stderr >&2; echo to-stdout"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        out.stdout, b"to-stdout\n",
        "stdout must carry only engine bytes"
    );
    assert_eq!(out.stderr, b"to-stderr\n");
    let r = read_recording(&rec);
    assert_eq!(wire(&r, Source::Stderr), b"to-stderr\n");
    assert_eq!(wire(&r, Source::Engine), b"to-stdout\n");
}

/// A cause is never recorded after its effect: every line an echo engine sends back must come
/// after the GUI line that it echoes, in the file's order, even when the engine answers
/// within microseconds and the pumps race.
#[test]
fn replies_are_never_recorded_before_their_request() {
    for _ in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let rec = dir.path().join("r.jsonl");
        let mut child = spawn_proxy(&rec, &["cat"]);
        let mut stdin = child.stdin.take().unwrap();
        let lines = Lines::new(child.stdout.take().unwrap());
        for i in 0..2000 {
            stdin.write_all(format!("ping {i}\n").as_bytes()).unwrap();
            let want = format!("ping {i}");
            lines.until(&want, Duration::from_secs(5), |l| l == want);
        }
        drop(stdin);
        child.wait().unwrap();
        let r = read_recording(&rec);
        let mut sent = std::collections::HashSet::new();
        for e in &r.events {
            match e.src {
                Source::Gui => {
                    sent.insert(e.text.clone());
                }
                Source::Engine => assert!(
                    sent.contains(&e.text),
                    "engine's `{}` recorded before the GUI sent it",
                    e.text
                ),
                _ => {}
            }
        }
    }
}
