//! Process lifecycle through the proxy: EOF, exit statuses, signals, crashes, bad output paths.

use crate::common;

use common::*;
use kibitzer::recording::Source;
use std::io::Write;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn run_engine(script: &str) -> (std::process::Output, kibitzer::recording::Recording) {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let out = kibitzer()
        .args(["record", "-o"])
        .arg(&rec)
        .args(["--", "sh", "-c", script])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (out, read_recording(&rec))
}

#[test]
fn gui_eof_closes_engine_stdin_and_both_are_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let mut child = spawn_proxy(&rec, &["cat"]);
    child.stdin.take().unwrap().write_all(b"quit\n").unwrap();
    // `cat` only exits if its stdin was closed when ours was.
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    let r = read_recording(&rec);
    let kinds = proxy_kinds(&r);
    assert_eq!(kinds.first(), Some(&"spawned"));
    assert!(kinds.contains(&"gui_eof"));
    assert_eq!(kinds.last(), Some(&"engine_exit"));
    assert_eq!(r.events.last().unwrap().code, Some(0));
    assert_eq!(r.header.argv, vec!["cat".to_string()]);
}

#[test]
fn exit_code_is_mirrored() {
    let (out, r) = run_engine("echo bye; exit 7");
    assert_eq!(out.status.code(), Some(7));
    assert_eq!(out.stdout, b"bye\n");
    assert_eq!(r.events.last().unwrap().code, Some(7));
}

#[test]
fn a_death_by_signal_is_that_signal_to_the_gui() {
    let (out, r) = run_engine("echo dying; kill -SEGV $$");
    assert_eq!(out.status.signal(), Some(11));
    let last = r.events.last().unwrap();
    assert_eq!(last.kind.unwrap().as_str(), "engine_exit");
    assert_eq!(last.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(last.code, None);
}

#[test]
fn unknown_engine_fails_like_a_shell() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let out = kibitzer()
        .args(["record", "-o"])
        .arg(&rec)
        .args(["--", "no-such-engine-xyz"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(127));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cannot start engine no-such-engine-xyz")
    );
    assert!(out.stdout.is_empty());
    assert_eq!(proxy_kinds(&read_recording(&rec)), vec!["spawn_failed"]);
}

/// Ends by itself after a minute: a test that fails before its SIGTERM leaves no engine
/// running behind it.
const SIGNAL_REPORTER: &str = "trap 'echo got-INT' INT; trap 'echo got-TERM; exit 3' TERM; echo ready; \
                               i=0; while [ $i -lt 3000 ]; do sleep 0.02; i=$((i+1)); done";

/// `record -o REC -- sh -c SIGNAL_REPORTER` started by `cmd`, once the engine said `ready`.
fn start_reporter(
    cmd: &mut std::process::Command,
    rec: &std::path::Path,
) -> (std::process::Child, Lines) {
    let mut child = cmd
        .args(["record", "-o"])
        .arg(rec)
        .args(["--", "sh", "-c", SIGNAL_REPORTER])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = Lines::new(child.stdout.take().unwrap());
    lines.until("ready", Duration::from_secs(5), |l| l == "ready");
    (child, lines)
}

fn signal_round_trip(wrapper_ignores_int: bool) {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let bin = env!("CARGO_BIN_EXE_kibitzer");
    // With the wrapper, kibitzer starts with SIGINT ignored, as after `cmd &` in a script: the
    // engine inherits that, as it would from the GUI (a shell cannot trap a signal ignored on
    // entry, so the engine's trap stays silent).
    let mut cmd = if wrapper_ignores_int {
        let mut c = std::process::Command::new("sh");
        c.arg("-c").arg("trap '' INT; exec \"$0\" \"$@\"").arg(bin);
        c
    } else {
        std::process::Command::new(bin)
    };
    let (mut child, lines) = start_reporter(&mut cmd, &rec);
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    if wrapper_ignores_int {
        let seen = lines.until_within(Duration::from_millis(500), |l| l == "got-INT");
        assert!(!seen.iter().any(|l| l == "got-INT"), "{seen:?}");
    } else {
        lines.until("got-INT", Duration::from_secs(5), |l| l == "got-INT");
    }
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    lines.until("got-TERM", Duration::from_secs(5), |l| l == "got-TERM");
    assert_eq!(child.wait().unwrap().code(), Some(3));
    // Sent to the engine's pid, not to its process group: the recorder does not see them,
    // and records none it did not see.
    let r = read_recording(&rec);
    assert!(
        r.events.iter().all(|e| e.signal.is_none()),
        "{:?}",
        r.events
    );
    assert_eq!(proxy_kinds(&r).last(), Some(&"engine_exit"));
}

#[test]
fn sigint_and_sigterm_reach_the_engine_itself() {
    signal_round_trip(false);
}

#[test]
fn a_signal_the_gui_ignored_stays_ignored_by_the_engine() {
    signal_round_trip(true);
}

#[test]
fn a_signal_to_the_process_group_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    // A GUI in a group of its own, as a job-control shell starts it: the group is the GUI's,
    // the engine's and the recorder's.
    let (mut child, lines) = start_reporter(kibitzer().process_group(0), &rec);
    let group = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGTERM).unwrap();
    lines.until("got-TERM", Duration::from_secs(5), |l| l == "got-TERM");
    assert_eq!(child.wait().unwrap().code(), Some(3));
    let r = read_recording(&rec);
    let sigs: Vec<_> = r
        .events
        .iter()
        .filter_map(|e| e.signal.as_deref())
        .collect();
    assert_eq!(sigs, vec!["SIGTERM"]);
    let kinds = proxy_kinds(&r);
    assert_eq!(kinds.last(), Some(&"engine_exit"));
}

#[test]
fn a_sigkilled_engine_leaves_a_complete_recording() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let mut child = spawn_proxy(
        &rec,
        &[
            "sh",
            "-c",
            "echo $$; exec yes 'info depth 12 score cp 31 pv e2e4 e7e5'",
        ],
    );
    let lines = Lines::new(child.stdout.take().unwrap());
    let first = lines.until("engine pid", Duration::from_secs(5), |_| true);
    let engine_pid: i32 = first[0].trim().parse().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    child.kill().unwrap();
    child.wait().unwrap();
    let r = read_recording(&rec);
    assert!(
        r.events.len() > 100,
        "only {} events recorded",
        r.events.len()
    );
    assert!(
        r.issues
            .iter()
            .all(|i| matches!(i.kind, kibitzer::recording::IssueKind::TornTail)),
        "{:?}",
        r.issues
    );
    assert!(
        r.events
            .iter()
            .skip(2)
            .take(50)
            .all(|e| e.src == Source::Engine && e.text.starts_with("info depth 12"))
    );
    // The process the GUI killed is the engine itself; the recorder notes its end.
    assert_eq!(
        r.events.last().and_then(|e| e.signal.as_deref()),
        Some("SIGKILL")
    );
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{engine_pid}/stat")).unwrap_or_default();
        let state = stat
            .rsplit(')')
            .next()
            .and_then(|s| s.split_whitespace().next())
            .unwrap_or("gone");
        if state == "gone" || state == "Z" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "engine {engine_pid} outlived the proxy (state {state})"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn unwritable_recording_path_still_forwards_everything() {
    let input: Vec<u8> = (0..2000)
        .flat_map(|i| format!("line {i}\n").into_bytes())
        .collect();
    for path in ["/nonexistent-dir/x/r.jsonl", "/dev/full"] {
        let mut child = kibitzer()
            .args(["record", "-o", path, "--", "cat"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let data = input.clone();
        let writer = std::thread::spawn(move || stdin.write_all(&data));
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap().unwrap();
        assert!(out.status.success(), "{path}");
        assert!(out.stdout == input, "{path}: bytes lost or changed");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("warning") && err.contains(path),
            "{path}: {err}"
        );
        assert_eq!(
            err.matches("warning").count(),
            1,
            "warn once, not per line: {err}"
        );
    }
}

/// The engine's exit status as the GUI sees it (a code, or `128 + signal` for a death by
/// signal), how long it took, and the recording.
fn record_with_grace(
    grace: &str,
    script: &str,
) -> (Option<i32>, Duration, kibitzer::recording::Recording) {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let started = Instant::now();
    let out = kibitzer()
        .args(["record", "--eof-grace", grace, "-o"])
        .arg(&rec)
        .args(["--", "sh", "-c", script])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let code = out.status.code().or(out.status.signal().map(|s| 128 + s));
    (code, started.elapsed(), read_recording(&rec))
}

#[test]
fn engine_that_ignores_eof_is_terminated_after_the_grace_period() {
    // Like GNU Chess 6.2.7, which spins forever once its input is closed.
    let (code, took, r) = record_with_grace("0.3", "while :; do sleep 0.02; done");
    assert_eq!(code, Some(128 + 15));
    // Bounds a hang only: the SIGTERM `killed` event below is the subject.
    assert!(took < Duration::from_secs(30), "took {took:?}");
    let killed: Vec<_> = r
        .events
        .iter()
        .filter(|e| e.kind.map(|k| k.as_str()) == Some("killed"))
        .collect();
    assert_eq!(killed.len(), 1);
    assert_eq!(killed[0].signal.as_deref(), Some("SIGTERM"));
    assert!(
        killed[0].text.contains("after the GUI closed the input"),
        "{}",
        killed[0].text
    );
}

#[test]
fn engine_that_ignores_sigterm_too_is_killed() {
    let (code, _, r) = record_with_grace("0.2", "trap '' TERM; while :; do sleep 0.02; done");
    assert_eq!(code, Some(128 + 9));
    let sigs: Vec<_> = r
        .events
        .iter()
        .filter(|e| e.kind.map(|k| k.as_str()) == Some("killed"))
        .filter_map(|e| e.signal.as_deref())
        .collect();
    assert_eq!(sigs, ["SIGTERM", "SIGKILL"]);
}

#[test]
fn eof_grace_none_leaves_the_engine_alone() {
    // The engine decides when to stop: it exits on its own 0.8 s after EOF, untouched.
    let (code, took, r) = record_with_grace("none", "sleep 0.8; exit 4");
    assert_eq!(code, Some(4));
    assert!(took >= Duration::from_millis(700));
    assert!(!proxy_kinds(&r).contains(&"killed"));
    // An engine that outlives any grace: stopped by it, whatever the machine's load.
    let (code, _, _) = record_with_grace("0.2", "sleep 30; exit 4");
    assert_eq!(
        code,
        Some(128 + 15),
        "with a grace period the same engine is stopped"
    );
}

#[test]
fn engine_command_without_double_dash_keeps_its_own_options() {
    // `kibitzer record -o F engine -x --y` is what people type into a GUI's engine field:
    // everything from the engine name on is the engine's, options included.
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let out = kibitzer()
        .args(["record", "-o"])
        .arg(&rec)
        .args(["sh", "-c", "echo \"$@\"", "sh", "-o", "--label", "x"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout, b"-o --label x\n");
    assert_eq!(read_recording(&rec).header.label, None);
}

/// CPU seconds (user + system) of process `pid` so far.
fn cpu_secs(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let f: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    let ticks: f64 = f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap();
    ticks / 100.0
}

/// The recorder spins for a moment after each forward (to spare a wake-up on the answer's
/// way back), and never longer: a second with nothing to forward costs it next to no CPU.
#[test]
fn the_recorder_spins_only_briefly_after_a_forward() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let mut child = spawn_proxy(&rec, &["cat"]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    for _ in 0..50 {
        stdin.write_all(b"isready\n").unwrap();
        line.clear();
        std::io::BufRead::read_line(&mut stdout, &mut line).unwrap();
        assert_eq!(line, "isready\n");
    }
    // The recorder is the engine's child (the engine took the pid the GUI started).
    let children =
        std::fs::read_to_string(format!("/proc/{0}/task/{0}/children", child.id())).unwrap();
    let recorder: u32 = children.split_whitespace().next().unwrap().parse().unwrap();
    let before = cpu_secs(recorder);
    std::thread::sleep(Duration::from_millis(1500));
    let idle = cpu_secs(recorder) - before;
    drop(stdin);
    assert!(child.wait().unwrap().success());
    assert!(
        idle < 0.3,
        "the recorder used {idle} s of CPU in 1.5 s with nothing to forward"
    );
}
