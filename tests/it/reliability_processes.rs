//! What "nothing lost, nothing silently wrong" means for the processes kibitzer runs: options
//! that are the engine's, SIGKILLed proxies, wrapper scripts that leave children behind,
//! engines that flood after the GUI left.

use crate::common;
use crate::reliability_support::*;

use common::*;
use kibitzer::recording::Source;
use std::io::Read;
use std::process::Stdio;
use std::time::{Duration, Instant};

#[test]
fn record_refuses_unknown_options_before_the_engine() {
    let o = run(&["record", "--bogus", "--", "true"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--bogus"));
    // Options after the engine are the engine's.
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let o = run(&[
        "record",
        "-o",
        rec.to_str().unwrap(),
        "sh",
        "-c",
        "echo $0",
        "--x",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "--x\n");
}

/// Lines of `rec` from `src`, in order.
fn texts(rec: &kibitzer::recording::Recording, src: Source) -> Vec<String> {
    rec.events
        .iter()
        .filter(|e| e.src == src)
        .map(|e| e.text.clone())
        .collect()
}

#[test]
fn a_sigkilled_proxy_has_recorded_everything_the_gui_received() {
    for trial in 0..8 {
        let dir = tempfile::tempdir().unwrap();
        let rec = dir.path().join("r.jsonl");
        // One write per line, as engines do, numbered so that nothing can hide.
        let mut child = spawn_proxy(
            &rec,
            &[
                "sh",
                "-c",
                "i=0; while :; do echo \"info depth 1 nodes $i pv e2e4\"; i=$((i+1)); done",
            ],
        );
        let mut out = child.stdout.take().unwrap();
        let mut got = Vec::new();
        let mut buf = vec![0u8; 1 << 16];
        let deadline = Instant::now() + Duration::from_millis(100 + 40 * trial);
        while Instant::now() < deadline {
            let n = out.read(&mut buf).unwrap();
            got.extend_from_slice(&buf[..n]);
        }
        child.kill().unwrap();
        // What was still in the pipe was forwarded before the kill: the GUI can read it.
        out.read_to_end(&mut got).unwrap();
        child.wait().unwrap();
        let received: Vec<String> = String::from_utf8(got)
            .unwrap()
            .split_inclusive('\n')
            .filter(|l| l.ends_with('\n'))
            .map(|l| l.trim_end().to_owned())
            .collect();
        let recorded = texts(&read_recording(&rec), Source::Engine);
        assert!(
            received.len() > 10,
            "trial {trial}: only {} lines",
            received.len()
        );
        assert!(
            recorded.len() >= received.len(),
            "trial {trial}: the GUI received {} lines, the recording has {}",
            received.len(),
            recorded.len()
        );
        assert_eq!(recorded[..received.len()], received[..], "trial {trial}");
    }
}

fn alive_with_arg(marker: &str) -> Vec<i32> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
            continue;
        };
        let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
        let zombie = stat
            .rsplit(')')
            .next()
            .is_some_and(|s| s.trim_start().starts_with('Z'));
        if !zombie && cmd.split(|&b| b == 0).any(|a| a == marker.as_bytes()) {
            found.push(pid);
        }
    }
    found
}

fn wait_gone(marker: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !alive_with_arg(marker).is_empty() {
        assert!(
            Instant::now() < deadline,
            "{marker}: {:?} still alive",
            alive_with_arg(marker)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_wrapper_scripts_children_are_named_and_ended_only_on_request() {
    // Both a background child and the foreground one ignore SIGTERM, as `trap "" TERM` makes
    // them; the wrapper shell itself is the engine.
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    // The GUI's input closes only once the shell has set its trap (`ready`): on a loaded
    // machine a shell not yet there would die of the SIGTERM, and the SIGKILL that follows an
    // ignored one is the subject.
    let mut child = proxy_command(
        &rec,
        &["--eof-grace", "0.3", "--kill-leftovers"],
        &[
            "sh",
            "-c",
            "trap '' TERM; sleep 1231 & echo ready; sleep 1232",
        ],
    )
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    let lines = Lines::new(child.stdout.take().unwrap());
    lines.until("ready", Duration::from_secs(60), |l| l == "ready");
    drop(child.stdin.take());
    let status = child.wait().unwrap();
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(9)
    );
    wait_gone("1231");
    wait_gone("1232");
    let r = read_recording(&rec);
    assert!(
        proxy_kinds(&r).contains(&"leftover_killed"),
        "{:?}",
        proxy_kinds(&r)
    );
    assert_eq!(proxy_kinds(&r).last(), Some(&"engine_exit"));

    // Without the flag a child that survives the engine runs on, as after the bare engine,
    // and the recording names it.
    let o = proxy_command(
        &rec,
        &[],
        &[
            "sh",
            "-c",
            "sleep 1233 >/dev/null 2>&1 & echo started; sleep 0.6",
        ],
    )
    .stdin(Stdio::null())
    .stderr(Stdio::null())
    .output()
    .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let r = read_recording(&rec);
    let left: Vec<&str> = r
        .events
        .iter()
        .filter(|e| e.kind.map(|k| k.as_str()) == Some("leftover"))
        .map(|e| e.text.as_str())
        .collect();
    assert!(left.iter().any(|t| t.contains("sleep [pid")), "{left:?}");
    let survivor = alive_with_arg("1233");
    assert_eq!(survivor.len(), 1, "the child runs on");
    let _ = nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(survivor[0]),
        nix::sys::signal::Signal::SIGKILL,
    );

    // A SIGKILLed engine: with --kill-leftovers, what it started goes too.
    let mut child = crate::common::spawn_proxy_with(
        &rec,
        &["--kill-leftovers"],
        &["sh", "-c", "trap '' TERM; sleep 1234 & sleep 1235"],
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while alive_with_arg("1234").is_empty() || alive_with_arg("1235").is_empty() {
        assert!(
            Instant::now() < deadline,
            "the engine's children never started"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // The recorder looks for new descendants every 200 ms: give it ample time to see these.
    std::thread::sleep(Duration::from_secs(1));
    child.kill().unwrap();
    child.wait().unwrap();
    wait_gone("1234");
    wait_gone("1235");
}

#[test]
fn a_setsid_grandchild_does_not_outlive_a_sigkilled_engine_with_kill_leftovers() {
    // `setsid` takes the grandchild out of the engine's process group (and session): a group
    // kill would miss it, so the recorder ends each descendant it saw.
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let mut child = crate::common::spawn_proxy_with(
        &rec,
        &["--kill-leftovers"],
        &["sh", "-c", "setsid sleep 1241 & sleep 1242"],
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while alive_with_arg("1241").is_empty() || alive_with_arg("1242").is_empty() {
        assert!(
            Instant::now() < deadline,
            "the engine's children never started"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // The recorder looks for new descendants every 200 ms: give it ample time to see this one.
    std::thread::sleep(Duration::from_secs(2));
    child.kill().unwrap();
    child.wait().unwrap();
    wait_gone("1242");
    wait_gone("1241");
}

#[test]
fn an_engine_flooding_after_the_gui_left_is_recorded_up_to_a_bound() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    // 40 MB after the GUI left, then the engine ends on its own: the bound is met by the
    // amount, whatever the machine's speed (a flood cut by a 2 s grace fell short of it on a
    // loaded machine). The grace only bounds a hang.
    let o = proxy_command(
        &rec,
        &["--eof-grace", "60"],
        &[
            "sh",
            "-c",
            "yes 'info depth 30 seldepth 40 score cp 12 nodes 123456 pv e2e4 e7e5' | head -c 40000000",
        ],
    )
    .stdin(Stdio::null())
    .stderr(Stdio::null())
    .output()
    .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let size = std::fs::metadata(&rec).unwrap().len();
    let limit = kibitzer::capture::recorder::AFTER_GUI_EOF_LIMIT;
    assert!(size < limit * 4, "recording of {size} bytes");
    let r = read_recording(&rec);
    assert!(
        r.events
            .iter()
            .any(|e| e.text.starts_with("recording limit:")),
        "no limit event"
    );
    assert_eq!(proxy_kinds(&r).last(), Some(&"engine_exit"));
}
