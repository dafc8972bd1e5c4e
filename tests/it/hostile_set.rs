//! The hostile-engine set (issue 22): engines that answer with binary junk, ignore SIGTERM and
//! `quit`, print a 100 MB line, leave a `setsid` grandchild behind, or exit mid-run, each
//! against every command that drives an engine: `probe`, `replay` and `c2w suggest`. Every run
//! is under a 3 GB address-space limit (`ulimit -v`) and must end within 120 s with a verdict
//! that names the fault; nothing the engine started may outlive it, and none of its bytes may
//! reach the terminal raw.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn hostile_engine() -> String {
    format!(
        "{}/tests/engines/hostile_set.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn original() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("recordings/stockfish-uci-game.jsonl")
}

/// What one command printed, and the pids the engine wrote to its pid directory.
struct Ran {
    code: Option<i32>,
    out: String,
    err: String,
    pids: Vec<(String, i32)>,
}

impl Ran {
    fn all(&self) -> String {
        format!("{}\n{}", self.out, self.err)
    }

    /// No process the engine started is alive once the command has returned.
    fn nothing_outlived(&self, what: &str) {
        for (name, pid) in &self.pids {
            let alive = Path::new(&format!("/proc/{pid}")).exists() && !zombie(*pid);
            assert!(
                !alive,
                "{what}: the engine's {name} (pid {pid}) outlived it"
            );
        }
    }

    /// Nothing the engine printed reached the terminal as a control character: kibitzer's
    /// text output holds no ESC, BEL, C1 CSI or NUL.
    fn terminal_safe(&self, what: &str) {
        for (stream, text) in [("stdout", &self.out), ("stderr", &self.err)] {
            let bad: Vec<char> = text
                .chars()
                .filter(|c| matches!(c, '\u{1b}' | '\u{7}' | '\u{9b}' | '\0' | '\u{8}'))
                .collect();
            assert!(bad.is_empty(), "{what}: raw {bad:?} on {stream}:\n{text}");
        }
    }
}

fn zombie(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.rsplit_once(") ").map(|(_, r)| r.starts_with('Z')))
        .unwrap_or(false)
}

/// Runs `kibitzer ARGS` under `ulimit -v 3000000`, the engine writing its pids into a fresh
/// directory; at most 120 s (a loaded CI machine; unbounded, it never ends).
fn run(args: &[&str]) -> Ran {
    let pid_dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 3000000 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_kibitzer"))
        .args(args)
        .env("HOSTILE_PIDS", pid_dir.path())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(120),
        "{args:?} took {:?}",
        started.elapsed()
    );
    let mut pids = Vec::new();
    for name in ["engine", "grandchild"] {
        if let Ok(t) = std::fs::read_to_string(pid_dir.path().join(format!("{name}.pid"))) {
            pids.push((name.to_owned(), t.trim().parse().unwrap()));
        }
    }
    Ran {
        code: out.status.code(),
        out: String::from_utf8_lossy(&out.stdout).into_owned(),
        err: String::from_utf8_lossy(&out.stderr).into_owned(),
        pids,
    }
}

fn probe(dir: &Path, mode: &str) -> Ran {
    let rec = dir.join(format!("probe-{mode}.jsonl"));
    let engine = hostile_engine();
    run(&[
        "probe",
        "--protocol",
        "uci",
        "--timeout",
        "3",
        "--recording",
        rec.to_str().unwrap(),
        "--",
        "python3",
        &engine,
        mode,
    ])
}

fn replay(dir: &Path, mode: &str) -> Ran {
    let rec = dir.join(format!("replay-{mode}.jsonl"));
    let engine = hostile_engine();
    run(&[
        "replay",
        original().to_str().unwrap(),
        "--recording",
        rec.to_str().unwrap(),
        "--",
        "python3",
        &engine,
        mode,
    ])
}

fn suggest(dir: &Path, mode: &str) -> Ran {
    let rec = dir.join(format!("suggest-{mode}.jsonl"));
    let profile = dir.join(format!("suggest-{mode}.c2w"));
    let engine = hostile_engine();
    let cecp = format!("cecp-{mode}");
    run(&[
        "c2w",
        "suggest",
        "--timeout",
        "2",
        "-o",
        profile.to_str().unwrap(),
        "--recording",
        rec.to_str().unwrap(),
        "--",
        "python3",
        &engine,
        &cecp,
    ])
}

/// Each command on `mode`, with the checks every hostile run must pass.
fn all_three(mode: &str) -> [(&'static str, Ran); 3] {
    let dir = tempfile::tempdir().unwrap();
    let runs = [
        ("probe", probe(dir.path(), mode)),
        ("replay", replay(dir.path(), mode)),
        ("c2w suggest", suggest(dir.path(), mode)),
    ];
    for (what, r) in &runs {
        r.nothing_outlived(what);
        r.terminal_safe(what);
        assert!(!r.pids.is_empty(), "{what}: the engine never started");
    }
    runs
}

impl Ran {
    /// The run ended with `code` and its output says every one of `says`.
    fn ends(&self, code: i32, says: &[&str]) {
        assert_eq!(self.code, Some(code), "{}", self.all());
        let all = self.all();
        for s in says {
            assert!(all.contains(s), "no {s:?} in:\n{all}");
        }
    }
}

#[test]
fn an_engine_that_answers_with_binary_junk_fails_every_command() {
    let [(_, p), (_, r), (_, s)] = all_three("garbage");
    p.ends(1, &["verdict: FAILED", "error[UCI-UCIOK-TIMEOUT]"]);
    r.ends(1, &["verdict: diverged", "did not"]);
    s.ends(1, &["error[CECP-FEATURE-TIMEOUT]"]);
}

#[test]
fn an_engine_that_ignores_sigterm_and_quit_is_killed_with_a_verdict() {
    let [(_, p), (_, r), (_, s)] = all_three("ignores-sigterm");
    p.ends(1, &["verdict: FAILED", "stalled"]);
    r.ends(1, &["verdict: diverged", "with bestmove"]);
    s.ends(1, &["error[X-HANG]", "SIGKILL"]);
}

#[test]
fn a_100_mb_line_is_kept_in_pieces_in_bounded_memory_and_named() {
    let [(_, p), (_, r), (_, s)] = all_three("huge-line");
    // The line is the only fault: it is named, and its pieces are not read as commands. A
    // card with a violated step never says only PASSED (issue 25): a warning exits 0.
    p.ends(
        0,
        &["warning[X-LINE-TOO-LONG]", "verdict: PASSED WITH WARNINGS"],
    );
    assert!(!p.out.contains("UCI-UNKNOWN-COMMAND"), "{}", p.out);
    r.ends(1, &["verdict: diverged", "X-LINE-TOO-LONG"]);
    assert!(s.err.contains("warning[X-LINE-TOO-LONG]"), "{}", s.all());
    assert!(!s.err.contains("CECP-UNKNOWN"), "{}", s.err);
}

#[test]
fn a_setsid_grandchild_is_ended_with_its_engine_and_named() {
    let [(_, p), (_, r), (_, s)] = all_three("setsid-grandchild");
    for (what, ran) in [("probe", &p), ("replay", &r), ("c2w suggest", &s)] {
        assert!(
            ran.pids.iter().any(|(n, _)| n == "grandchild"),
            "{what}: the grandchild never started"
        );
        assert!(
            ran.all().contains("X-LEFTOVER-PROCESS"),
            "{what}: {}",
            ran.all()
        );
    }
    assert_eq!(r.code, Some(1), "{}", r.all());
}

#[test]
fn an_engine_that_exits_mid_run_fails_every_command() {
    let [(_, p), (_, r), (_, s)] = all_three("exit-after-5");
    p.ends(1, &["verdict: FAILED", "error[X-ENGINE-EXIT]"]);
    r.ends(1, &["verdict: diverged", "engine exited"]);
    s.ends(1, &["error[X-ENGINE-EXIT]"]);
}
