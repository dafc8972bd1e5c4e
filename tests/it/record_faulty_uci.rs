//! Misbehaving UCI engines (`tests/engines/uci_faulty.py`) through the real proxy: what a
//! broken engine does must be in the recording exactly as it happened.

use crate::common;

use common::*;
use kibitzer::recording::{Eol, ProxyKind, Recording, Source};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

const T: Duration = Duration::from_secs(30);

fn faulty_engine() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/uci_faulty.py")
}

/// Raw engine output as the GUI reads it: byte lines, terminators included, so a CR or an
/// invalid UTF-8 byte is seen exactly.
struct RawLines {
    rx: Receiver<Vec<u8>>,
}

impl RawLines {
    fn new(out: ChildStdout) -> Self {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(out);
            loop {
                let mut line = Vec::new();
                match r.read_until(b'\n', &mut line) {
                    Ok(n) if n > 0 => {
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                    _ => break,
                }
            }
        });
        RawLines { rx }
    }

    fn until(&self, what: &str, pred: impl Fn(&[u8]) -> bool) -> Vec<Vec<u8>> {
        let deadline = std::time::Instant::now() + T;
        let mut seen = Vec::new();
        loop {
            match self
                .rx
                .recv_timeout(deadline.saturating_duration_since(std::time::Instant::now()))
            {
                Ok(l) => {
                    let done = pred(&l);
                    seen.push(l);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("timed out waiting for {what}; got {seen:?}"),
            }
        }
    }

    /// Everything until the proxy closes its stdout.
    fn rest(&self) -> Vec<Vec<u8>> {
        let mut seen = Vec::new();
        while let Ok(l) = self.rx.recv_timeout(T) {
            seen.push(l);
        }
        seen
    }
}

struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    out: RawLines,
    received: Vec<u8>,
}

impl Session {
    fn start(rec: &Path, flags: &[&str]) -> Self {
        let engine = faulty_engine();
        let engine = engine.to_str().expect("utf-8 path");
        let argv: Vec<&str> = ["python3", engine]
            .into_iter()
            .chain(flags.iter().copied())
            .collect();
        let mut child = proxy_command(rec, &["--protocol", "uci"], &argv)
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn kibitzer");
        let stdin = child.stdin.take();
        let out = RawLines::new(child.stdout.take().expect("stdout"));
        Session {
            child,
            stdin,
            out,
            received: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    fn until(&mut self, what: &str, pred: impl Fn(&[u8]) -> bool) -> Vec<Vec<u8>> {
        let seen = self.out.until(what, pred);
        self.received.extend(seen.concat());
        seen
    }

    /// Closes the proxy's stdin (the GUI quits) and reads what is left.
    fn finish(mut self) -> (Vec<u8>, std::process::ExitStatus) {
        drop(self.stdin.take());
        self.wait_for_engine_end()
    }

    /// Keeps stdin open (the GUI waits for a move) until the proxy's stdout closes because
    /// the engine ended on its own; an early EOF would let the engine quit cleanly instead.
    fn wait_for_engine_end(mut self) -> (Vec<u8>, std::process::ExitStatus) {
        let rest = self.out.rest();
        self.received.extend(rest.concat());
        let status = self.child.wait().unwrap();
        (self.received, status)
    }
}

fn starts(prefix: &'static str) -> impl Fn(&[u8]) -> bool {
    move |l: &[u8]| l.starts_with(prefix.as_bytes())
}

fn engine_events(rec: &Recording) -> Vec<&kibitzer::recording::Event> {
    rec.events
        .iter()
        .filter(|e| e.src == Source::Engine)
        .collect()
}

fn exit_event(rec: &Recording) -> &kibitzer::recording::Event {
    rec.events
        .iter()
        .find(|e| e.kind == Some(ProxyKind::EngineExit))
        .unwrap_or_else(|| panic!("no engine_exit event: {:?}", proxy_kinds(rec)))
}

#[test]
fn crlf_lines_are_recorded_as_crlf_and_forwarded_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crlf.jsonl");
    let mut s = Session::start(&path, &["--crlf"]);
    s.send("uci");
    s.until("uciok", starts("uciok"));
    s.send("isready");
    s.until("readyok", starts("readyok"));
    s.send("position startpos");
    s.send("go depth 3");
    s.until("bestmove", starts("bestmove"));
    s.send("quit");
    let (received, status) = s.finish();
    assert!(status.success(), "{status:?}");

    let rec = read_recording(&path);
    assert!(rec.issues.is_empty(), "{:?}", rec.issues);
    let engine = engine_events(&rec);
    // id name, id author, option, uciok, readyok, 3 info, bestmove.
    assert_eq!(engine.len(), 9, "{engine:?}");
    for e in &engine {
        assert_eq!(e.eol, Eol::Crlf, "{e:?}");
        assert!(!e.text.ends_with('\r'), "CR left in the text: {e:?}");
    }
    assert_eq!(engine.last().unwrap().text, "bestmove e2e4");
    // The GUI got the CRs, and the recording gives back the same bytes.
    assert!(received.windows(2).any(|w| w == b"\r\n"));
    assert_eq!(wire(&rec, Source::Engine), received);
    assert_eq!(exit_event(&rec).code, Some(0));
}

#[test]
fn crash_mid_search_by_signal_is_recorded_with_the_signal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crash.jsonl");
    let mut s = Session::start(&path, &["--crash-mid-search"]);
    s.send("uci");
    s.until("uciok", starts("uciok"));
    s.send("position startpos");
    s.send("go depth 10");
    // The engine dies after its second info line; the proxy's stdout then closes by itself.
    let (received, status) = s.wait_for_engine_end();
    assert!(!status.success(), "the proxy reports the crash: {status:?}");

    let rec = read_recording(&path);
    assert!(rec.issues.is_empty(), "{:?}", rec.issues);
    assert_eq!(wire(&rec, Source::Engine), received);
    let texts: Vec<&str> = engine_events(&rec)
        .iter()
        .map(|e| e.text.as_str())
        .collect();
    assert!(
        texts.last().unwrap().starts_with("info depth 2 "),
        "{texts:?}"
    );
    assert!(!texts.iter().any(|t| t.starts_with("bestmove")));
    let exit = exit_event(&rec);
    assert_eq!(exit.signal.as_deref(), Some("SIGSEGV"), "{exit:?}");
    assert_eq!(exit.code, None, "{exit:?}");
    // Nothing after the engine's end but the proxy's own notes.
    let exit_at = rec
        .events
        .iter()
        .position(|e| std::ptr::eq(e, exit))
        .unwrap();
    assert!(rec.events[exit_at..].iter().all(|e| !e.is_traffic()));
}

#[test]
fn crash_mid_search_by_exit_code_is_recorded_with_the_code() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("exit3.jsonl");
    let mut s = Session::start(&path, &["--crash-mid-search", "--crash-exit-code", "3"]);
    s.send("uci");
    s.until("uciok", starts("uciok"));
    s.send("go depth 10");
    let (_received, status) = s.wait_for_engine_end();
    assert_eq!(
        status.code(),
        Some(3),
        "the proxy passes the engine's code on"
    );
    let rec = read_recording(&path);
    let exit = exit_event(&rec);
    assert_eq!(exit.code, Some(3), "{exit:?}");
    assert_eq!(exit.signal, None);
}

#[test]
fn late_bestmove_after_stop_and_odd_bytes_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("late.jsonl");
    let mut s = Session::start(
        &path,
        &[
            "--late-bestmove",
            "0.3",
            "--invalid-utf8",
            "--stderr-noise",
            "--unterminated-exit",
        ],
    );
    s.send("uci");
    s.until("uciok", starts("uciok"));
    s.send("position startpos");
    s.send("go infinite");
    s.until("first info", starts("info depth"));
    s.send("stop");
    s.until("bestmove", starts("bestmove"));
    s.send("quit");
    let (received, status) = s.finish();
    assert!(status.success(), "{status:?}");
    assert!(
        received.ends_with(b"info string bye"),
        "no line end after the last line"
    );

    let rec = read_recording(&path);
    assert!(rec.issues.is_empty(), "{:?}", rec.issues);
    assert_eq!(wire(&rec, Source::Engine), received);
    let engine = engine_events(&rec);
    let last = engine.last().unwrap();
    assert_eq!(
        (last.text.as_str(), last.eol),
        ("info string bye", Eol::None)
    );
    let latin1 = engine
        .iter()
        .find(|e| e.hex.is_some())
        .expect("the Latin-1 line keeps its bytes in hex");
    assert_eq!(latin1.line_bytes(), b"info string caf\xe9 latin-1");

    // The engine kept searching for 0.3 s after `stop`: info lines lie between them.
    let stop = rec
        .events
        .iter()
        .find(|e| e.src == Source::Gui && e.text == "stop")
        .unwrap();
    let best = engine
        .iter()
        .find(|e| e.text.starts_with("bestmove"))
        .unwrap();
    assert!(
        best.t >= stop.t + 250_000_000,
        "bestmove too early after stop"
    );
    assert!(
        engine
            .iter()
            .any(|e| e.t > stop.t && e.t < best.t && e.text.starts_with("info depth"))
    );
    let stderr: Vec<&str> = rec
        .events
        .iter()
        .filter(|e| e.src == Source::Stderr)
        .map(|e| e.text.as_str())
        .collect();
    assert!(
        stderr.contains(&"uci_faulty: scripted engine starting"),
        "{stderr:?}"
    );
}

#[test]
fn engine_that_never_answers_isready_leaves_the_question_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("noready.jsonl");
    let mut s = Session::start(&path, &["--no-readyok"]);
    s.send("uci");
    s.until("uciok", starts("uciok"));
    s.send("isready");
    std::thread::sleep(Duration::from_millis(300));
    s.send("quit");
    let (received, _) = s.finish();
    assert!(!received.windows(7).any(|w| w == b"readyok"));
    let rec = read_recording(&path);
    let gui: Vec<&str> = rec
        .events
        .iter()
        .filter(|e| e.src == Source::Gui)
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(gui, ["uci", "isready", "quit"]);
    assert_eq!(engine_events(&rec).last().unwrap().text, "uciok");
}
