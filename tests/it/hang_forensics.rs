//! Hang forensics with real processes: an engine falls silent with `bestmove` owed, in one
//! way each (stopped, spinning, asleep in a read of its input, asleep on a lock, starved of
//! CPU), under the real proxy; `check --format json` on the recording must name the way.

use crate::common::*;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const T: Duration = Duration::from_secs(30);

fn forensic_engine() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/forensic_engine.py")
}

/// Plays the GUI: handshake, `go movetime 300`, then `during(pid)` and `silence` of waiting
/// (the deadline is 0.8 s), then the engine is killed as a GUI gives up on it. The check
/// report of the recording.
fn silent_session(
    dir: &Path,
    wrapper: &[&str],
    mode: &str,
    during: impl FnOnce(i32),
    silence: Duration,
) -> Value {
    let rec = dir.join(format!("{mode}.jsonl"));
    let engine = forensic_engine();
    let mut argv: Vec<&str> = wrapper.to_vec();
    argv.extend(["python3", engine.to_str().unwrap(), mode]);
    let mut child = spawn_proxy(&rec, &argv);
    let pid = i32::try_from(child.id()).unwrap();
    let mut gui = child.stdin.take().unwrap();
    let out = Lines::new(child.stdout.take().unwrap());
    writeln!(gui, "uci").unwrap();
    out.until("uciok", T, |l| l == "uciok");
    writeln!(gui, "isready").unwrap();
    out.until("readyok", T, |l| l == "readyok");
    writeln!(gui, "position startpos\ngo movetime 300").unwrap();
    gui.flush().unwrap();
    during(pid);
    std::thread::sleep(silence);
    end(&mut child, pid);
    drop(gui);
    check_json(&rec)
}

fn end(child: &mut Child, pid: i32) {
    let _ = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status();
    let _ = child.wait();
}

fn check_json(rec: &Path) -> Value {
    let out = kibitzer()
        .args(["check", "--format", "json"])
        .arg(rec)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "check --format json: {e}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn rules(report: &Value) -> Vec<String> {
    report["files"][0]["findings"]
        .as_array()
        .map(|f| {
            f.iter()
                .filter_map(|f| f["rule"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// The hang verdict's process class.
fn process_state(report: &Value) -> String {
    let hangs = &report["files"][0]["hangs"];
    hangs[0]["process"]["state"]
        .as_str()
        .unwrap_or_else(|| panic!("no process verdict in {hangs:#}"))
        .to_owned()
}

fn assert_class(report: &Value, state: &str, rule: &str) {
    let found = rules(report);
    assert_eq!(
        process_state(report),
        state,
        "{:#}",
        report["files"][0]["hangs"]
    );
    assert!(found.iter().any(|r| r == rule), "{rule} not in {found:?}");
    assert_eq!(
        report["files"][0]["hangs"][0]["evidence"], "traffic+process",
        "{:#}",
        report["files"][0]["hangs"]
    );
    // One process finding for the one silence.
    let process_findings = found.iter().filter(|r| r.starts_with("X-HANG-")).count();
    assert_eq!(process_findings, 1, "{found:?}");
}

#[test]
fn an_engine_stopped_while_it_owes_bestmove_is_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let report = silent_session(
        dir.path(),
        &[],
        "normal",
        |pid| {
            let _ = Command::new("kill")
                .args(["-STOP", &pid.to_string()])
                .status();
        },
        Duration::from_secs(4),
    );
    assert_class(&report, "STOPPED", "X-HANG-STOPPED");
}

#[test]
fn a_busy_loop_that_never_answers_is_spinning() {
    let dir = tempfile::tempdir().unwrap();
    let report = silent_session(dir.path(), &[], "spin", |_| {}, Duration::from_secs(4));
    assert_class(&report, "SPINNING", "X-HANG-SPINNING");
}

#[test]
fn an_engine_asleep_in_a_read_of_its_input_is_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let report = silent_session(dir.path(), &[], "deaf", |_| {}, Duration::from_secs(4));
    assert_class(&report, "WAITING", "X-HANG-WAITING");
}

#[test]
fn an_engine_asleep_on_its_own_lock_is_asleep() {
    let dir = tempfile::tempdir().unwrap();
    let report = silent_session(dir.path(), &[], "lock", |_| {}, Duration::from_secs(4));
    assert_class(&report, "ASLEEP", "X-HANG-ASLEEP");
}

/// Busy loops pinned to CPU 0, ended however the test ends.
struct Hogs(Vec<Child>);

impl Hogs {
    fn start(n: usize) -> Hogs {
        Hogs(
            (0..n)
                .map(|_| {
                    Command::new("taskset")
                        .args(["-c", "0", "python3", "-c", "while True: pass"])
                        .stdout(Stdio::null())
                        .stderr(Stdio::null())
                        .spawn()
                        .expect("taskset (util-linux) runs")
                })
                .collect(),
        )
    }
}

impl Drop for Hogs {
    fn drop(&mut self) {
        for h in &mut self.0 {
            let _ = h.kill();
            let _ = h.wait();
        }
    }
}

/// The engine pinned to CPU 0 at the lowest priority and, once it owes `bestmove`, three busy
/// loops pinned there too: it is ready to run all the time and runs almost never.
#[test]
fn an_engine_starved_of_cpu_is_starved_not_spinning() {
    let dir = tempfile::tempdir().unwrap();
    let mut hogs = None;
    let report = silent_session(
        dir.path(),
        &["taskset", "-c", "0", "nice", "-n", "19"],
        "spin",
        |_| hogs = Some(Hogs::start(3)),
        Duration::from_secs(4),
    );
    drop(hogs);
    assert_class(&report, "STARVED", "X-HANG-STARVED");
    let f = report["files"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "X-HANG-STARVED")
        .unwrap()
        .clone();
    assert_eq!(
        f["severity"], "warning",
        "the host's fault, not the engine's: {f:#}"
    );
}

/// The near miss: an engine that answers in time, sampled all along, has no hang and no
/// process finding.
#[test]
fn an_engine_that_answers_gets_no_process_finding() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("fine.jsonl");
    let engine = forensic_engine();
    let mut child = spawn_proxy(&rec, &["python3", engine.to_str().unwrap(), "normal"]);
    let mut gui = child.stdin.take().unwrap();
    let out = Lines::new(child.stdout.take().unwrap());
    writeln!(gui, "uci").unwrap();
    out.until("uciok", T, |l| l == "uciok");
    for _ in 0..3 {
        writeln!(gui, "position startpos\ngo movetime 1500").unwrap();
        out.until("bestmove", T, |l| l.starts_with("bestmove"));
    }
    writeln!(gui, "quit").unwrap();
    drop(gui);
    let _ = child.wait();
    let report = check_json(&rec);
    let found = rules(&report);
    assert!(!found.iter().any(|r| r.starts_with("X-HANG")), "{found:?}");
    let text = std::fs::read_to_string(&rec).unwrap();
    assert!(
        text.contains("\"sample\""),
        "the silent searches were sampled"
    );
}

/// An engine that keeps 30 MB more after each `ucinewgame`: `report` shows its memory growing
/// by about that much a game, from the samples taken while it searched.
#[test]
fn a_leak_across_games_shows_as_the_memory_growth_per_game() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("grow.jsonl");
    let engine = forensic_engine();
    let mut child = spawn_proxy(&rec, &["python3", engine.to_str().unwrap(), "grow"]);
    let mut gui = child.stdin.take().unwrap();
    let out = Lines::new(child.stdout.take().unwrap());
    writeln!(gui, "uci").unwrap();
    out.until("uciok", T, |l| l == "uciok");
    for _ in 0..4 {
        // Each search is long enough to be sampled while the engine owes its move.
        writeln!(gui, "ucinewgame\nisready").unwrap();
        out.until("readyok", T, |l| l == "readyok");
        writeln!(gui, "position startpos\ngo movetime 700").unwrap();
        out.until("bestmove", T, |l| l.starts_with("bestmove"));
    }
    writeln!(gui, "quit").unwrap();
    drop(gui);
    let _ = child.wait();
    let o = kibitzer()
        .args(["report", "--format", "json"])
        .arg(&rec)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    let p = &report["engines"][0]["process"];
    assert_eq!(p["games"], 4, "{p:#}");
    let growth = p["rss_growth_kib_per_game"].as_f64().unwrap_or_default();
    assert!(
        (25_000.0..36_000.0).contains(&growth),
        "30 MB a game, KiB: {growth} in {p:#}"
    );
    assert!(
        p["peak_rss_kib"].as_u64().unwrap_or_default() > 120_000,
        "{p:#}"
    );
    let text = kibitzer().arg("report").arg(&rec).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("MiB a game"), "{text}");
}

/// One real hang end to end: python-chess plays Stockfish through the proxy, Stockfish is
/// stopped (SIGSTOP) in the middle of a search, python-chess gives up on it after its timeout
/// and kills it. The recording holds a capture of Stockfish's threads, all stopped, and
/// `check` names the hang STOPPED, the gui side's doing.
#[test]
fn stockfish_stopped_mid_search_under_python_chess_is_captured_and_named_stopped() {
    const SCRIPT: &str = r#"
import os, signal, sys, threading, chess, chess.engine
kib, rec, sf = sys.argv[1:4]
engine = chess.engine.SimpleEngine.popen_uci(
    [kib, "record", "-o", rec, "--capture-after", "1.5", "--stacks", "--", sf], timeout=3)
board = chess.Board()
for _ in range(4):
    board.push(engine.play(board, chess.engine.Limit(time=0.1)).move)
pid = engine.protocol.transport.get_pid()
threading.Timer(0.05, lambda: os.kill(pid, signal.SIGSTOP)).start()
try:
    engine.play(board, chess.engine.Limit(time=0.5))
    print("answered")
except Exception as e:
    print("gave-up", type(e).__name__)
os.kill(pid, signal.SIGKILL)
os._exit(0)
"#;
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("sf-stopped.jsonl");
    let said = python_gui(SCRIPT, &rec, &engine("stockfish"));
    assert_eq!(
        said.first().map(String::as_str),
        Some("gave-up"),
        "{said:?}"
    );
    let report = check_json(&rec);
    let found = rules(&report);
    assert!(found.iter().any(|r| r == "X-HANG-STOPPED"), "{found:?}");
    let f = report["files"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "X-HANG-STOPPED")
        .unwrap()
        .clone();
    assert_eq!(f["side"], "gui", "{f:#}");
    // The capture: every Stockfish thread, stopped.
    let dump = kibitzer()
        .args(["dump", "--samples"])
        .arg(&rec)
        .output()
        .unwrap();
    let dump = String::from_utf8_lossy(&dump.stdout);
    let capture = dump
        .lines()
        .skip_while(|l| !l.contains("capture:"))
        .take_while(|l| l.contains("capture:") || l.starts_with("            "))
        .collect::<Vec<_>>();
    let threads: Vec<&&str> = capture.iter().filter(|l| l.contains(" thread ")).collect();
    assert!(threads.len() >= 2, "Stockfish's threads: {capture:#?}");
    assert!(
        threads
            .iter()
            .all(|l| l.contains(") T") || l.contains(") t")),
        "all stopped: {capture:#?}"
    );
    // --stacks: the user-space stacks of the stopped threads, read by gdb (or eu-stack).
    assert!(
        capture.iter().any(|l| l.contains("--on-hang")) && capture.iter().any(|l| l.contains("#0")),
        "stacks: {capture:#?}"
    );
}

/// The near miss with a real engine: a healthy Stockfish game under python-chess, sampled
/// all along, shows no hang and no finding from the samples.
#[test]
fn a_healthy_stockfish_game_under_python_chess_has_no_process_finding() {
    const SCRIPT: &str = r#"
import sys, chess, chess.engine
kib, rec, sf = sys.argv[1:4]
engine = chess.engine.SimpleEngine.popen_uci([kib, "record", "-o", rec, "--", sf])
board = chess.Board()
for _ in range(12):
    if board.is_game_over():
        break
    board.push(engine.play(board, chess.engine.Limit(time=0.4)).move)
engine.quit()
print("played", len(board.move_stack))
"#;
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("sf-healthy.jsonl");
    let said = python_gui(SCRIPT, &rec, &engine("stockfish"));
    assert_eq!(said.first().map(String::as_str), Some("played"), "{said:?}");
    let report = check_json(&rec);
    let found = rules(&report);
    assert!(!found.iter().any(|r| r.starts_with("X-HANG")), "{found:?}");
    assert!(
        report["files"][0]["hangs"]
            .as_array()
            .is_none_or(|h| h.is_empty()),
        "{:#}",
        report["files"][0]["hangs"]
    );
    let text = std::fs::read_to_string(&rec).unwrap();
    assert!(text.contains("\"sample\""), "the game was sampled");
}
