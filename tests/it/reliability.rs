//! What "nothing lost, nothing silently wrong" means, tried the way a crashing GUI or a hostile
//! user would: outputs that are inputs, unreadable inputs, logs that shrink while read,
//! endless standard input, SIGKILLed proxies, wrapper scripts that leave children behind.

use crate::common;
use crate::reliability_support::*;

use common::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

#[test]
fn an_output_that_is_the_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().unwrap();
    let s = dir.path().join("s.jsonl");
    std::fs::copy(repo("recordings/stockfish-uci-game.jsonl"), &s).unwrap();
    let before = std::fs::read(&s).unwrap();
    let link = dir.path().join("link.jsonl");
    std::os::unix::fs::symlink(&s, &link).unwrap();
    for out in [&s, &link] {
        for cmd in ["import", "export"] {
            let o = run(&[cmd, "-o", out.to_str().unwrap(), s.to_str().unwrap()]);
            assert_eq!(o.status.code(), Some(2), "{cmd} -o {out:?}: {}", stderr(&o));
            assert!(stderr(&o).contains("is the input"), "{}", stderr(&o));
            assert_eq!(std::fs::read(&s).unwrap(), before, "{cmd} -o {out:?}");
        }
    }
}

#[test]
fn unreadable_input_leaves_an_existing_output_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let keep = dir.path().join("keep.jsonl");
    std::fs::write(&keep, "precious\n").unwrap();
    let junk = dir.path().join("junk.bin");
    std::fs::write(
        &junk,
        (0..3000u32)
            .map(|i| (i * 7 % 251) as u8)
            .collect::<Vec<_>>(),
    )
    .unwrap();
    for cmd in ["import", "export"] {
        let o = run(&[cmd, "-o", keep.to_str().unwrap(), junk.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {}", stderr(&o));
        assert_eq!(
            std::fs::read_to_string(&keep).unwrap(),
            "precious\n",
            "{cmd}"
        );
    }
    // Only the target and the input: no temporary file left beside it.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    // A good input replaces it.
    let o = run(&[
        "import",
        "-o",
        keep.to_str().unwrap(),
        repo("recordings/stockfish-uci-game.jsonl")
            .to_str()
            .unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        std::fs::read_to_string(&keep)
            .unwrap()
            .contains("\"kibitzer\":\"recording\"")
    );
}

/// The Fairy-Max recording with the GUI's third move replaced by an illegal one.
fn doctored_recording(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(repo("recordings/fairymax-cecp-game.jsonl")).unwrap();
    assert!(text.contains(r#""text":"b8c6""#));
    let p = dir.join("illegal.jsonl");
    std::fs::write(&p, text.replacen(r#""text":"b8c6""#, r#""text":"b8b6""#, 1)).unwrap();
    p
}

#[test]
fn export_stops_a_game_at_a_move_it_cannot_follow_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let bad = doctored_recording(dir.path());
    let o = run(&["export", bad.to_str().unwrap()]);
    let pgn = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    assert!(!pgn.contains("mates"), "{pgn}");
    assert!(
        pgn.contains("3. Nd5 {-0.13/4}\n{kibitzer: the GUI move b8b6 (line 95) is illegal here"),
        "{pgn}"
    );
    assert!(
        stderr(&o).contains("illegal.jsonl:95: error: move b8b6 is illegal after 5 plies"),
        "{}",
        stderr(&o)
    );
    // The untouched recording exports cleanly, with its real result.
    let o = run(&[
        "export",
        repo("recordings/fairymax-cecp-game.jsonl")
            .to_str()
            .unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("[Result \"1-0\"]"));
}

#[test]
fn an_illegal_gui_move_the_engine_refused_does_not_break_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let lines = [
        ("gui", "xboard"),
        ("gui", "protover 2"),
        ("engine", "feature done=1"),
        ("gui", "new"),
        ("gui", "force"),
        ("gui", "e2e4"),
        ("gui", "e7e4"),
        ("engine", "Illegal move: e7e4"),
        ("gui", "e7e5"),
        ("gui", "g1f3"),
    ];
    let mut text = String::from(
        r#"{"kibitzer":"recording","version":1,"tool":"test","started":"2026-11-23T10:00:00Z"}"#,
    );
    text.push('\n');
    for (i, (src, t)) in lines.iter().enumerate() {
        text.push_str(&format!(
            r#"{{"seq":{},"t":{},"src":"{src}","text":"{t}"}}"#,
            i + 1,
            i * 1000
        ));
        text.push('\n');
    }
    std::fs::write(&rec, text).unwrap();
    let o = run(&["export", rec.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("1. e4 e5 2. Nf3"));
}

#[test]
fn a_skipped_line_shows_in_every_command_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo("recordings/stockfish-uci-game.jsonl")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[9] = "{garbage";
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let b = bad.to_str().unwrap();
    let out = dir.path().join("out.jsonl");
    for args in [
        vec!["decode", b],
        vec!["decode", "--json", b],
        vec!["dump", b],
        vec!["export", b],
        vec!["import", "-o", out.to_str().unwrap(), b],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("bad.jsonl:10: malformed event"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    let text = String::from_utf8(run(&["decode", b]).stdout).unwrap();
    assert!(
        text.contains("!! line 10 skipped: malformed event"),
        "{text}"
    );
    assert!(
        text.contains("bad.jsonl: 1 line(s) skipped (line 10)"),
        "{text}"
    );
    let json = String::from_utf8(run(&["decode", "--json", b]).stdout).unwrap();
    assert!(
        json.lines()
            .any(|l| l.starts_with(r#"{"type":"skipped","line":10,"#)),
        "{json}"
    );
    assert!(json.contains(r#""lost":1"#), "{json}");
    assert!(
        String::from_utf8(run(&["dump", b]).stdout)
            .unwrap()
            .contains("line 10 skipped")
    );
    // A torn last line (a recorder killed mid-write) is noted, not an error.
    let torn = dir.path().join("torn.jsonl");
    let whole = std::fs::read(repo("recordings/stockfish-uci-game.jsonl")).unwrap();
    std::fs::write(&torn, &whole[..whole.len() - 20]).unwrap();
    let o = run(&["decode", torn.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("a torn last line only"));
}

#[test]
fn a_log_that_shrinks_while_read_is_an_error_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("rotating.log");
    assert!(
        shrinks_while_decoded(&log, &big_xboard_log()),
        "the log was never truncated while being read"
    );
}

/// The shipped xboard.debug repeated 400 times: big enough to be mapped and read on a thread.
fn big_xboard_log() -> Vec<u8> {
    let one = std::fs::read(repo(
        "tests/fixtures/logs/xboard-debug__fairymax-vs-polyglot-stockfish.log",
    ))
    .unwrap();
    one.iter().copied().cycle().take(one.len() * 400).collect()
}

/// Writes `bytes` to `path` and truncates it under `decode` once the file is mapped, up to six
/// times, until the truncation lands while it is read: true then. Each run must end with an
/// exit status (never a signal): 0 when it finished first, 2 naming the cut otherwise.
fn shrinks_while_decoded(path: &Path, bytes: &[u8]) -> bool {
    let name = path.file_name().unwrap().to_str().unwrap().to_owned();
    for _ in 0..6 {
        std::fs::write(path, bytes).unwrap();
        let child = kibitzer()
            .args(["decode", "--summary-only"])
            .arg(path)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Truncate once the file is mapped (event-driven: a loaded machine may take long to
        // get there), not after a fixed pause.
        let maps = format!("/proc/{}/maps", child.id());
        let begun = Instant::now();
        while !std::fs::read_to_string(&maps).is_ok_and(|m| m.contains(&name))
            && begun.elapsed() < Duration::from_secs(30)
        {
            std::thread::sleep(Duration::from_millis(2));
        }
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .unwrap()
            .set_len(1000)
            .unwrap();
        let o = child.wait_with_output().unwrap();
        let err = stderr(&o);
        assert_ne!(o.status.code(), None, "killed by a signal: {:?}", o.status);
        if err.contains("shrank while it was read") {
            assert_eq!(o.status.code(), Some(2), "{err}");
            return true;
        }
        assert_eq!(o.status.code(), Some(0), "{err}");
    }
    false
}

fn spool_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("kibitzer-input-"))
        .collect()
}

#[test]
fn endless_standard_input_that_is_no_log_fails_at_once_and_leaves_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    for src in ["yes", "zero"] {
        let mut child = kibitzer()
            .args(["dump", "-"])
            .env("TMPDIR", tmp.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let feeder = std::thread::spawn(move || {
            let chunk: Vec<u8> = if src == "yes" {
                b"y\n".repeat(32768)
            } else {
                vec![0; 65536]
            };
            while stdin.write_all(&chunk).is_ok() {}
        });
        let started = Instant::now();
        let o = child.wait_with_output().unwrap();
        feeder.join().unwrap();
        assert_eq!(o.status.code(), Some(2), "{src}: {}", stderr(&o));
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(stderr(&o).contains("<stdin>"), "{}", stderr(&o));
        assert!(!stderr(&o).contains("kibitzer-input"), "{}", stderr(&o));
        assert!(spool_files(tmp.path()).is_empty());
    }
}

#[test]
fn standard_input_over_the_limit_is_refused_and_its_copy_removed() {
    let tmp = tempfile::tempdir().unwrap();
    let one = std::fs::read(repo(
        "tests/fixtures/logs/xboard-debug__fairymax-vs-polyglot-stockfish.log",
    ))
    .unwrap();
    let big: Vec<u8> = one.iter().copied().cycle().take(one.len() * 40).collect();
    let mut child = kibitzer()
        .args(["decode", "--summary-only", "-"])
        .env("TMPDIR", tmp.path())
        .env("KIBITZER_SPOOL_LIMIT", "2M")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&big);
    });
    let o = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("longer than 2 MiB"), "{}", stderr(&o));
    assert!(spool_files(tmp.path()).is_empty());
    // Under the limit it is read.
    let o = kibitzer()
        .args(["decode", "--summary-only", "-"])
        .env("TMPDIR", tmp.path())
        .env("KIBITZER_SPOOL_LIMIT", "2M")
        .stdin(
            std::fs::File::open(repo(
                "tests/fixtures/logs/xboard-debug__fairymax-vs-polyglot-stockfish.log",
            ))
            .unwrap(),
        )
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(spool_files(tmp.path()).is_empty());
}

#[test]
fn an_interrupted_copy_of_standard_input_is_removed() {
    let tmp = tempfile::tempdir().unwrap();
    let head = std::fs::read(repo("recordings/stockfish-uci-game.jsonl")).unwrap();
    let mut child = kibitzer()
        .args(["decode", "--summary-only", "-"])
        .env("TMPDIR", tmp.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // More than the first megabyte, so the copy is on disk; then the input stays open.
    let deadline = Instant::now() + Duration::from_secs(10);
    while spool_files(tmp.path()).is_empty() {
        assert!(Instant::now() < deadline, "no temporary copy appeared");
        stdin.write_all(&head).unwrap();
        std::thread::sleep(Duration::from_millis(10));
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let status = child.wait().unwrap();
    drop(stdin);
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(15)
    );
    assert!(
        spool_files(tmp.path()).is_empty(),
        "{:?}",
        spool_files(tmp.path())
    );
}

#[test]
fn dump_streams_a_recording_from_standard_input_without_a_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let rec = repo("recordings/stockfish-uci-game.jsonl");
    let run_with = |cmd: &str| {
        kibitzer()
            .args([cmd, "-"])
            .env("TMPDIR", tmp.path())
            // Far below the recording's size: only a command that streams can read it.
            .env("KIBITZER_SPOOL_LIMIT", "1K")
            .stdin(std::fs::File::open(&rec).unwrap())
            .output()
            .unwrap()
    };
    let o = run_with("dump");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("engine_exit: engine exited with code 0"),
        "{text}"
    );
    assert_eq!(
        text.lines().count(),
        String::from_utf8_lossy(&run(&["dump", rec.to_str().unwrap()]).stdout)
            .lines()
            .count()
    );
    // decode reads twice, so it copies: over the limit it says so.
    let o = run_with("decode");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("longer than 1024 bytes"),
        "{}",
        stderr(&o)
    );
    assert!(spool_files(tmp.path()).is_empty());
}

#[test]
fn a_recording_whose_time_goes_backwards_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("spliced.jsonl");
    std::fs::write(
        &path,
        concat!(
            r#"{"kibitzer":"recording","version":1,"tool":"t","started":"2026-11-25T00:00:00Z"}"#,
            "\n",
            r#"{"seq":1,"t":5000000000,"src":"gui","text":"uci"}"#,
            "\n",
            r#"{"seq":2,"t":1000000000,"src":"engine","text":"uciok"}"#,
            "\n"
        ),
    )
    .unwrap();
    for cmd in ["check", "decode", "dump"] {
        let out = kibitzer().arg(cmd).arg(&path).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(":3: time goes backwards here (t 1.000000 s after 5.000000 s)"),
            "{cmd}: {err}"
        );
    }
    // Near miss: a shipped recording, whose clock only moves on, says nothing of the kind.
    let out = kibitzer()
        .arg("check")
        .arg(repo("recordings/stockfish-uci-game.jsonl"))
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("backwards"));
}

#[test]
fn a_position_broken_by_an_illegal_move_and_then_corrected_is_no_game_of_its_own() {
    // A GUI's `position` with an illegal move, then the corrected `position` from the same
    // start: one game (the corrected one), not a made-up prefix game before it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("corrected.jsonl");
    let lines = [
        r#"{"kibitzer":"recording","version":1,"tool":"t","started":"2026-11-25T00:00:00Z","protocol":"uci"}"#,
        r#"{"seq":1,"t":1000,"src":"gui","text":"uci"}"#,
        r#"{"seq":2,"t":2000,"src":"engine","text":"uciok"}"#,
        r#"{"seq":3,"t":3000,"src":"gui","text":"position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5 a1a8"}"#,
        r#"{"seq":4,"t":4000,"src":"gui","text":"go depth 1"}"#,
        r#"{"seq":5,"t":5000,"src":"engine","text":"bestmove d7d6"}"#,
        r#"{"seq":6,"t":6000,"src":"gui","text":"position startpos moves e2e4 e7e5 g1f3"}"#,
        r#"{"seq":7,"t":7000,"src":"gui","text":"go depth 1"}"#,
        r#"{"seq":8,"t":8000,"src":"engine","text":"bestmove b8c6"}"#,
        r#"{"seq":9,"t":9000,"src":"gui","text":"position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4"}"#,
        r#"{"seq":10,"t":10000,"src":"gui","text":"go depth 1"}"#,
        r#"{"seq":11,"t":11000,"src":"engine","text":"bestmove g8f6"}"#,
    ];
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let out = kibitzer()
        .args(["export", "--pgn"])
        .arg(&path)
        .output()
        .unwrap();
    let pgn = String::from_utf8_lossy(&out.stdout);
    assert_eq!(pgn.matches("[Event ").count(), 1, "{pgn}");
    assert!(pgn.contains("1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 *"), "{pgn}");
    assert_eq!(out.status.code(), Some(0), "{pgn}");
    // Near miss: without the correction, the broken game is exported up to the illegal move,
    // said in a comment, exit 1 (as export_stops_a_game_at_a_move_it_cannot_follow_and_fails).
    std::fs::write(&path, lines[..6].join("\n") + "\n").unwrap();
    let out = kibitzer()
        .args(["export", "--pgn"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("a1a8"));
}

/// A big recording is read from its map, as a log is: truncated under the reader, it is an
/// error naming the cut, never a crash (SIGBUS) or zeros decoded as lines.
#[test]
fn a_big_recording_that_shrinks_while_read_is_an_error_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("big.log");
    std::fs::write(&log, big_xboard_log()).unwrap();
    let whole = dir.path().join("whole.jsonl");
    let o = run(&[
        "import",
        "-o",
        whole.to_str().unwrap(),
        log.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let bytes = std::fs::read(&whole).unwrap();
    assert!(
        bytes.len() > 8 << 20,
        "big enough to be mapped: {}",
        bytes.len()
    );
    let rec = dir.path().join("rewritten.jsonl");
    assert!(
        shrinks_while_decoded(&rec, &bytes),
        "the recording was never truncated while being read"
    );
}

/// A recording rewritten shorter while it is read (a GUI restarting its engine onto the same
/// `-o` file) is an error naming the cut, not a torn last line; a recording cut short by a
/// torn write, whose file keeps its length, still reads with only its last line noted.
#[test]
fn a_recording_that_shrinks_while_read_is_an_error_not_a_torn_tail() {
    use kibitzer::input::{ControlFlow, Input, Item};
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("recordings/stockfish-uci-game.jsonl");
    let text = std::fs::read(&shipped).unwrap();
    std::fs::write(&rec, &text).unwrap();
    let read = |cut: Option<usize>| {
        let input = Input::open(&rec, None).unwrap();
        if let Some(n) = cut {
            // Rewritten meanwhile: truncated, then a shorter file's worth written again.
            std::fs::write(&rec, &text[..n]).unwrap();
        }
        let mut events = 0;
        let (_, stopped) = input
            .read(|item| {
                events += usize::from(matches!(item, Item::Event(..)));
                Ok(ControlFlow::Continue(()))
            })
            .unwrap();
        (events, stopped.map_err(|e| e.to_string()))
    };
    let (whole, ok) = read(None);
    assert!(ok.is_ok() && whole > 100, "{ok:?}");
    // Cut in the middle of a line, as a torn write leaves a file: the file is shorter than
    // when opened, so this is the rewrite case.
    let (_, err) = read(Some(text.len() / 2 + 7));
    let err = err.unwrap_err();
    assert!(err.contains("shrank while it was read"), "{err}");
    // A torn write: the file as opened ends mid-line; read as it is, no error.
    std::fs::write(&rec, &text[..text.len() / 2 + 7]).unwrap();
    let (part, ok) = read(None);
    assert!(ok.is_ok(), "{ok:?}");
    assert!(part > 10 && part < whole);
}
