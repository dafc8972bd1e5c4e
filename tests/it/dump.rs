//! `kibitzer dump`: the readable transcript of a recording or a log, streamed.

use crate::common;

use std::path::Path;

fn dump(args: &[&str]) -> (String, String) {
    let mut all = vec!["dump"];
    all.extend_from_slice(args);
    common::run_ok(&all)
}

#[test]
fn a_recording_prints_one_line_per_event_with_direction_and_time() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("recordings/stockfish-uci-game.jsonl");
    let p = path.to_str().unwrap();
    let (out, _) = dump(&[p]);
    let events = std::fs::read_to_string(&path).unwrap().lines().count() - 1;
    assert_eq!(out.lines().count(), events);
    assert!(out.lines().any(|l| l.ends_with("-> uci")), "{out}");
    assert!(out.lines().any(|l| l.contains("<- uciok")));
    // `--no-proxy` leaves out the proxy's own events (spawn, EOF, exit).
    let (bare, _) = dump(&["--no-proxy", p]);
    assert!(bare.lines().count() < events);
    assert!(!bare.contains("**"));
}

#[test]
fn a_log_streams_and_its_unexplained_lines_go_to_stderr_with_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("xboard.debug");
    std::fs::write(
        &log,
        "1 >first : xboard\n2 >first : protover 2\nwhat is this line\n3 <first : feature done=1\n",
    )
    .unwrap();
    let (out, _) = dump(&[log.to_str().unwrap()]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].ends_with("[first] -> xboard"));
    assert!(lines[3].ends_with("[first] <- feature done=1"));
    // The xboard importer keeps a line it cannot place as a note, in its place.
    assert!(lines[2].contains("what is this line"));
    // An Arena log's pasted line has no rule: it is reported with its line number.
    let arena = dir.path().join("arena.log");
    std::fs::write(
        &arena,
        "2020-10-20 11:07:40.513-->1:uci\n2020-10-20 11:07:40.600<--1:uciok\nsome pasted junk\n\
         2020-10-20 11:07:40.700-->1:isready\n",
    )
    .unwrap();
    let (out, err) = dump(&[arena.to_str().unwrap()]);
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(err.contains("arena.log:3: unclassified line"), "{err}");
    assert!(err.contains("some pasted junk"), "{err}");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/logs/xboard-debug__fairymax-vs-polyglot-stockfish.log");
    let (out, _) = dump(&[fixture.to_str().unwrap()]);
    assert!(out.lines().count() > 2500);
}

/// `dump -` reads a gzip-compressed recording as it is decompressed, as it reads a plain one:
/// with the temporary copy limited to 1 KiB, a 300 KB recording still dumps whole, the same
/// as the file; a compressed log is still copied (its importer reads a file) and so refused.
#[test]
fn a_gzip_recording_on_standard_input_is_streamed_not_copied() {
    use std::io::Write;
    let rec = Path::new(env!("CARGO_MANIFEST_DIR")).join("recordings/stockfish-uci-game.jsonl");
    let plain = std::fs::read(&rec).unwrap();
    assert!(plain.len() > 100_000);
    let gz = |data: &[u8]| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    };
    let run = |stdin: Vec<u8>| {
        let mut child = common::kibitzer()
            .args(["dump", "-"])
            .env("KIBITZER_SPOOL_LIMIT", "1K")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        // Written from a thread: the output is read meanwhile, so neither pipe fills up.
        let writer = std::thread::spawn(move || {
            let _ = input.write_all(&stdin);
        });
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, text, err) = run(gz(&plain));
    assert_eq!(code, Some(0), "{err}");
    let (want, _) = dump(&[rec.to_str().unwrap()]);
    assert_eq!(text, want);
    let log = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/corpus/xboard-debug__nicholas-chessEngine-paste__1.log");
    let log = std::fs::read(log).unwrap();
    assert!(log.len() > 1024);
    let (code, _, err) = run(gz(&log));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("longer than 1024 bytes"), "{err}");
}
