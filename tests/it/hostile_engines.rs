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
    record_and_check_with(dir, &[], script)
}

fn record_and_check_with(dir: &Path, options: &[&str], script: &str) -> (Option<i32>, String) {
    let rec = dir.join("rec.jsonl");
    let mut proxy = crate::common::spawn_proxy_with(&rec, options, &["sh", "-c", script]);
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
    // The child (`sleep`) outlives the engine: `--kill-leftovers` ends it after the engine
    // died, which is no sign that anyone gave up on the engine.
    let script = format!(
        "sleep 30 & exec python3 {} --crash-mid-search --crash-exit-code 3",
        faulty_engine()
    );
    let (code, text) = record_and_check_with(dir.path(), &["--kill-leftovers"], &script);
    assert!(text.contains("error[X-ENGINE-EXIT]"), "{text}");
    assert_eq!(code, Some(1), "{text}");
    // The case under test happened: the sweep killed the child after the engine's end.
    let rec = std::fs::read_to_string(dir.path().join("rec.jsonl")).unwrap();
    assert!(
        rec.contains("still running after the engine exited: sleep"),
        "{rec}"
    );
    assert!(rec.contains(r#""kind":"leftover_killed""#), "{rec}");
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

/// A UCI session whose engine deadlocks (no bestmove after `stop`, no readyok), then the GUI's
/// `quit`: `killed` says whether the engine had to be killed after it.
fn deadlock_then_quit(killed: bool) -> String {
    let mut lines = vec![
        r#"{"kibitzer":"recording","version":1,"tool":"t","started":"2026-11-25T00:00:00Z","argv":["e"],"protocol":"uci"}"#.to_owned(),
        r#"{"seq":1,"t":1000,"src":"proxy","text":"e","kind":"spawned","pid":5}"#.to_owned(),
    ];
    let traffic = [
        (2000u64, "gui", "uci"),
        (3000, "engine", "id name E"),
        (3001, "engine", "id author A"),
        (4000, "engine", "uciok"),
        (4500, "gui", "isready"),
        (4600, "engine", "readyok"),
        (5000, "gui", "position startpos"),
        (6000, "gui", "go infinite"),
        (7000, "engine", "info depth 1 score cp 10 pv e2e4"),
        (3_000_000_000, "gui", "stop"),
        (6_000_000_000, "gui", "isready"),
        (9_000_000_000, "gui", "quit"),
    ];
    for (i, (t, src, text)) in traffic.iter().enumerate() {
        lines.push(format!(
            r#"{{"seq":{},"t":{t},"src":"{src}","text":"{text}"}}"#,
            i + 2
        ));
    }
    let n = traffic.len() as u64 + 2;
    if killed {
        lines.push(format!(r#"{{"seq":{n},"t":14000000000,"src":"proxy","text":"engine still running 5.0 s after quit; sent SIGTERM","kind":"killed","signal":"SIGTERM"}}"#));
        lines.push(format!(r#"{{"seq":{},"t":14000000100,"src":"proxy","text":"engine killed by SIGTERM (15)","kind":"engine_exit","signal":"SIGTERM"}}"#, n + 1));
    } else {
        lines.push(format!(r#"{{"seq":{n},"t":9000100000,"src":"proxy","text":"engine exited with code 0","kind":"engine_exit","code":0}}"#));
    }
    lines.join("\n") + "\n"
}

#[test]
fn quit_does_not_wipe_what_a_deadlocked_engine_owed() {
    let dir = tempfile::tempdir().unwrap();
    let check = |text: &str| {
        let path = dir.path().join("deadlock.jsonl");
        std::fs::write(&path, text).unwrap();
        let out = kibitzer()
            .args(["check", "--color", "never"])
            .arg(&path)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = check(&deadlock_then_quit(true));
    assert!(text.contains("hang["), "{text}");
    assert!(
        text.contains(
            "owed when the GUI sent `quit`: bestmove for `go infinite`, bestmove for `stop`, \
             readyok for `isready`"
        ),
        "{text}"
    );
    // Near miss: the engine exits on `quit` at once; what `quit` withdrew is no hang.
    let text = check(&deadlock_then_quit(false));
    assert!(!text.contains("hang["), "{text}");
}

#[test]
fn an_engine_killed_while_owing_nothing_gets_a_disconnect_verdict() {
    use crate::common::{Lines, engine};
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("killed.jsonl");
    let sf = engine("stockfish");
    let mut proxy = spawn_proxy(&rec, &[sf.to_str().unwrap()]);
    let mut stdin = proxy.stdin.take().unwrap();
    let lines = Lines::new(proxy.stdout.take().unwrap());
    stdin.write_all(b"uci\nisready\n").unwrap();
    stdin.flush().unwrap();
    lines.until("readyok", Duration::from_secs(60), |l| l == "readyok");
    // Idle, owing nothing: killed from outside (the OOM killer, a user), the GUI still there.
    kill_recorded_engine(&rec);
    let status = proxy.wait().unwrap();
    // The GUI's child is the engine itself: it sees the SIGKILL as such.
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(9)
    );
    drop(stdin);
    let out = kibitzer()
        .args(["check", "--color", "never"])
        .arg(&rec)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "hang[disconnect] DISCONNECT: the engine owed nothing, but it was ended by SIGKILL"
        ),
        "{text}"
    );
    // Near miss: the same engine leaving on `quit` is no disconnect.
    let rec = dir.path().join("quit.jsonl");
    let mut proxy = spawn_proxy(&rec, &[sf.to_str().unwrap()]);
    let mut stdin = proxy.stdin.take().unwrap();
    stdin.write_all(b"uci\nisready\nquit\n").unwrap();
    drop(stdin);
    proxy.wait().unwrap();
    let out = kibitzer().arg("check").arg(&rec).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains("hang["));
}

/// Runs `kibitzer ARGS` under a 3 GB address-space limit (`ulimit -v`): a run that kept a
/// flooding engine's output would be killed by it (before the bound, 60 s of flood grew a
/// probe past 2 GB and replay past 24 GB). Returns the exit status, stdout and stderr.
fn under_memory_limit(args: &[&str]) -> (Option<i32>, String, String) {
    let cmd = "ulimit -v 3000000 && exec \"$0\" \"$@\"";
    let started = std::time::Instant::now();
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .arg(env!("CARGO_BIN_EXE_kibitzer"))
        .args(args)
        .output()
        .unwrap();
    // Generous for a loaded CI machine; unbounded it never ends.
    assert!(
        started.elapsed() < Duration::from_secs(120),
        "{args:?} took {:?}",
        started.elapsed()
    );
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `kibitzer probe` (UCI, 3 s timeouts) on a scenario engine, under the memory limit.
fn probe_scenario(rec: &Path, scenario: &str) -> (Option<i32>, String, String) {
    let engine = scenario_engine();
    under_memory_limit(&[
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
        scenario,
    ])
}

fn scenario_engine() -> String {
    format!(
        "{}/tests/engines/scenario_engine.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The flood's finding, in a recording: the engine was stopped, and no more than the bound
/// (plus what one read holds) was kept.
fn assert_stopped_as_a_flood(rec: &Path) {
    let text = std::fs::read_to_string(rec).unwrap();
    assert!(text.contains(r#""kind":"flood_stopped""#));
    let lines = text.lines().count();
    assert!(lines < 210_000, "{lines} lines kept");
}

#[test]
fn a_flooding_engine_is_stopped_by_probe_in_bounded_time_and_memory() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("probe.jsonl");
    let (code, out, err) = probe_scenario(&rec, "endless-flood");
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("error[X-OUTPUT-FLOOD-STOPPED]"), "{out}");
    assert!(out.contains("verdict: FAILED"), "{out}");
    assert_stopped_as_a_flood(&rec);
}

#[test]
fn a_burst_of_info_lines_is_no_flood_to_stop() {
    // The near miss: 3,000 lines a search in one burst is a warning (UCI-INFO-FLOOD), and the
    // engine is let finish its searches.
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("probe.jsonl");
    let (_, out, err) = probe_scenario(&rec, "info-flood");
    assert!(out.contains("UCI-INFO-FLOOD"), "{out}{err}");
    assert!(!out.contains("X-OUTPUT-FLOOD-STOPPED"), "{out}");
    let text = std::fs::read_to_string(&rec).unwrap();
    assert!(!text.contains("flood_stopped"));
}

#[test]
fn a_flooding_engine_is_stopped_by_replay_in_bounded_time_and_memory() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("replay.jsonl");
    let original =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("recordings/stockfish-uci-game.jsonl");
    let engine = scenario_engine();
    let (code, out, err) = under_memory_limit(&[
        "replay",
        original.to_str().unwrap(),
        "--recording",
        rec.to_str().unwrap(),
        "--",
        "python3",
        &engine,
        "endless-flood",
    ]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("verdict: diverged"), "{out}");
    assert_stopped_as_a_flood(&rec);
    let (_, checked) = {
        let o = kibitzer().arg("check").arg(&rec).output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    assert!(
        checked.contains("error[X-OUTPUT-FLOOD-STOPPED]"),
        "{checked}"
    );
}

#[test]
fn a_flooding_engine_is_stopped_by_c2w_suggest_in_bounded_time_and_memory() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("suggest.jsonl");
    let profile = dir.path().join("flood.c2w");
    let engine = scenario_engine();
    let (code, out, err) = under_memory_limit(&[
        "c2w",
        "suggest",
        "-o",
        profile.to_str().unwrap(),
        "--recording",
        rec.to_str().unwrap(),
        "--",
        "python3",
        &engine,
        "cecp-endless-flood",
    ]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(err.contains("error[X-OUTPUT-FLOOD-STOPPED]"), "{err}");
    assert_stopped_as_a_flood(&rec);
}

/// Engines that never answer the handshake, or ignore `quit` and the end of their input, end
/// every command in bounded time and memory with a verdict that names the fault: `probe`.
#[test]
fn silent_and_immortal_engines_end_probe_with_a_verdict() {
    let dir = tempfile::tempdir().unwrap();
    for (sc, rule) in [("no-uciok", "UCI-UCIOK-TIMEOUT"), ("ignores-quit", "")] {
        let rec = dir.path().join(format!("probe-{sc}.jsonl"));
        let (code, out, err) = probe_scenario(&rec, sc);
        assert_eq!(code, Some(1), "probe {sc}: {out}{err}");
        assert!(
            out.contains("verdict: FAILED") && out.contains(rule),
            "probe {sc}: {out}"
        );
    }
}

/// The same engines against `replay`.
#[test]
fn silent_and_immortal_engines_end_replay_with_a_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let engine = scenario_engine();
    let original =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("recordings/stockfish-uci-game.jsonl");
    for sc in ["no-uciok", "ignores-quit"] {
        let rec = dir.path().join(format!("replay-{sc}.jsonl"));
        let (code, out, err) = under_memory_limit(&[
            "replay",
            original.to_str().unwrap(),
            "--recording",
            rec.to_str().unwrap(),
            "--",
            "python3",
            &engine,
            sc,
        ]);
        assert_eq!(code, Some(1), "replay {sc}: {out}{err}");
        assert!(out.contains("verdict: diverged"), "replay {sc}: {out}");
    }
}

/// A CECP engine that prints a banner and never answers `protover`, against `c2w suggest`.
#[test]
fn a_silent_engine_ends_c2w_suggest_with_a_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let engine = scenario_engine();
    let (code, out, err) = under_memory_limit(&[
        "c2w",
        "suggest",
        "--timeout",
        "2",
        "-o",
        dir.path().join("banner.c2w").to_str().unwrap(),
        "--recording",
        dir.path().join("suggest.jsonl").to_str().unwrap(),
        "--",
        "python3",
        &engine,
        "cecp-banner-only",
    ]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(err.contains("error[CECP-FEATURE-TIMEOUT]"), "{err}");
}

/// SIGKILL to the engine a recording's `spawned` event names, as the OOM killer or a user
/// would send it.
fn kill_recorded_engine(rec: &Path) {
    let pid = crate::common::read_recording(rec)
        .events
        .iter()
        .find_map(|e| e.pid)
        .expect("the spawned event names the engine's pid");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid as i32),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
}

/// Issue 24 #10: a real CECP engine (Fairy-Max) killed with SIGKILL while it owes its move is
/// X-ENGINE-EXIT, an error, exit status 1, as in UCI; not a hang line alone.
#[test]
fn a_cecp_engine_killed_while_it_owes_its_move_is_an_engine_exit_error() {
    use crate::common::{Lines, engine};
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("fairymax.jsonl");
    let fairymax = engine("fairymax");
    let mut proxy = spawn_proxy(&rec, &[fairymax.to_str().unwrap()]);
    let mut stdin = proxy.stdin.take().unwrap();
    let lines = Lines::new(proxy.stdout.take().unwrap());
    stdin
        .write_all(b"xboard\nprotover 2\nnew\npost\nsd 40\ngo\n")
        .unwrap();
    stdin.flush().unwrap();
    // Thinking output at depth 5: the engine owes its move and is searching.
    lines.until("depth 5", Duration::from_secs(60), |l| {
        l.trim_start().starts_with("5 ")
    });
    kill_recorded_engine(&rec);
    proxy.wait().unwrap();
    drop(stdin);
    let out = kibitzer().arg("check").arg(&rec).output().unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(report.contains("error[X-ENGINE-EXIT]"), "{report}");
}
