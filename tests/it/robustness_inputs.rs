//! What hostile or odd inputs did to `replay` and `report`: an absurd `--speed`, an unreadable
//! directory in a walked tree, a link to a file the walk meets anyway, a merge of many engines.

use super::common::kibitzer;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn recording() -> PathBuf {
    root().join("recordings/stockfish-uci-game.jsonl")
}

#[test]
fn a_speed_out_of_range_is_refused_before_anything_runs() {
    for speed in ["1e-300", "0", "-1", "inf", "NaN", "1e9"] {
        let out = kibitzer()
            .args(["replay", "--as-engine", "--speed", speed])
            .arg(recording())
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--speed {speed}: {err}");
        assert!(!err.contains("panicked"), "--speed {speed}: {err}");
        assert!(
            out.stdout.is_empty(),
            "--speed {speed}: nothing for the GUI"
        );
    }
    // The near miss: a speed in range stands in for the engine as asked.
    let out = kibitzer()
        .args(["replay", "--as-engine", "--speed", "1000"])
        .arg(recording())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{:?}", out);
}

/// `kibitzer` as an unprivileged user (root reads any directory): through `setpriv` when the
/// tests run as root.
fn unprivileged() -> Command {
    let bin = assert_cmd::cargo::cargo_bin("kibitzer");
    use std::os::unix::fs::MetadataExt;
    // /proc/self belongs to the process's effective user.
    let root = std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0);
    if root {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(bin);
        c
    } else {
        Command::new(bin)
    }
}

fn open_to_all(p: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn an_unreadable_subdirectory_is_one_unreadable_input_and_the_report_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().join("games");
    std::fs::create_dir(&top).unwrap();
    std::fs::copy(recording(), top.join("a.jsonl")).unwrap();
    let locked = top.join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::copy(recording(), locked.join("b.jsonl")).unwrap();
    open_to_all(tmp.path(), 0o755);
    open_to_all(&top, 0o755);
    open_to_all(&top.join("a.jsonl"), 0o644);
    open_to_all(&locked, 0o000);
    let out = unprivileged()
        .args(["report", "--format", "json"])
        .arg(&top)
        .output()
        .unwrap();
    open_to_all(&locked, 0o755);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "an input could not be read: {err}"
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("the report is still made");
    assert_eq!(v["inputs"]["files"], 1, "the readable recording is judged");
    assert_eq!(v["inputs"]["unreadable"], 1);
    let named = v["inputs"]["unreadable_files"][0]["file"].as_str().unwrap();
    assert!(named.ends_with("locked"), "names the directory: {named}");
    assert!(err.contains("locked"), "{err}");
}

#[test]
fn a_link_to_a_file_the_walk_meets_anyway_is_one_input() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(recording(), tmp.path().join("game.jsonl")).unwrap();
    std::os::unix::fs::symlink(tmp.path().join("game.jsonl"), tmp.path().join("link.jsonl"))
        .unwrap();
    let out = kibitzer()
        .args(["report", "--format", "json"])
        .arg(tmp.path())
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["inputs"]["files"], 1, "{:#}", v["inputs"]);
    // The near miss: two copies are two inputs.
    std::fs::remove_file(tmp.path().join("link.jsonl")).unwrap();
    std::fs::copy(recording(), tmp.path().join("copy.jsonl")).unwrap();
    let out = kibitzer()
        .args(["report", "--format", "json"])
        .arg(tmp.path())
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["inputs"]["files"], 2);
}

#[test]
fn a_merged_report_of_many_engines_keeps_every_engine() {
    // One report of a recording, its engine renamed 40,000 times: a farm's merged report.
    let out = kibitzer()
        .args(["report", "--format", "json"])
        .arg(recording())
        .output()
        .unwrap();
    let mut v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let one = v["engines"][0].clone();
    let many: Vec<Value> = (0..40_000)
        .map(|i| {
            let mut e = one.clone();
            e["engine"] = Value::from(format!("engine {i}"));
            e
        })
        .collect();
    v["engines"] = Value::from(many);
    let tmp = tempfile::tempdir().unwrap();
    let big = tmp.path().join("big.json");
    std::fs::write(&big, serde_json::to_vec(&v).unwrap()).unwrap();
    let out = kibitzer()
        .args(["report", "--format", "json", "--merge"])
        .arg(&big)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(merged["engines"].as_array().map(Vec::len), Some(40_000));
}

/// A downloaded `.c2w` profile naming a program outside its home: refused, the program named,
/// nothing started, for `record` and `probe` alike.
#[test]
fn a_profile_cannot_start_a_program_outside_its_home_unless_allowed() {
    let tmp = tempfile::tempdir().unwrap();
    let marker = tmp.path().join("ran");
    let rec = tmp.path().join("r.jsonl");
    let rec = rec.to_str().unwrap();
    for path in ["/usr/bin", "../../../../../../usr/bin"] {
        let profile = tmp.path().join("evil.c2w");
        std::fs::write(
            &profile,
            format!(
                "EnginePath={path}\nEngineName=Evil\nEngineSwitch=touch {}\nEngineVersion=1\n",
                marker.display()
            ),
        )
        .unwrap();
        for cmd in [
            vec!["record", "-o", rec, "--c2w"],
            vec!["probe", "--timeout", "1", "--c2w"],
        ] {
            let out = kibitzer()
                .args(&cmd)
                .arg(&profile)
                .stdin(std::process::Stdio::null())
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{cmd:?} {path}: {err}");
            assert!(
                err.contains("outside the profile's home") && err.contains("/usr/bin/touch"),
                "{cmd:?} {path}: {err}"
            );
            assert!(!marker.exists(), "{cmd:?} {path}: the program ran");
        }
    }
    // The near miss: the user says where the engines live, and the profile's program starts.
    let profile = tmp.path().join("evil.c2w");
    let out = kibitzer()
        .args(["record", "-o", rec, "--c2w"])
        .arg(&profile)
        .args(["--c2w-home", "/usr"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(marker.exists(), "{out:?}");
}

/// An engine writing without end and without a newline: `probe` stops it at the byte bound
/// (a few 4 MiB pieces, not 2 GB of memory and recording), with or without detection, and
/// leaves no attempt files behind.
#[test]
fn endless_output_without_a_newline_is_stopped_at_the_byte_bound() {
    const ENDLESS: &str = "import sys\nc = 'x' * 65536\nwhile True: sys.stdout.write(c)\n";
    let dir = tempfile::tempdir().unwrap();
    let engine = dir.path().join("endless.py");
    std::fs::write(&engine, ENDLESS).unwrap();
    for detect in [false, true] {
        let rec = dir.path().join(format!("probe-{detect}.jsonl"));
        // Under 3 GB of address space, where it used to abort at 2 GB.
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "ulimit -v 3000000 && exec \"$@\"", "sh"])
            .arg(env!("CARGO_BIN_EXE_kibitzer"))
            .arg("probe")
            .arg("-o")
            .arg(&rec);
        if !detect {
            cmd.args(["--protocol", "uci"]);
        }
        let out = cmd
            .arg("--")
            .arg("python3")
            .arg(&engine)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let (text, err) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(!err.contains("memory allocation"), "{err}");
        if detect {
            assert_eq!(out.status.code(), Some(2), "{err}");
            assert!(err.contains("stopped for flooding its output"), "{err}");
        } else {
            assert_eq!(out.status.code(), Some(1), "{text}{err}");
            assert!(text.contains("X-OUTPUT-FLOOD-STOPPED"), "{text}");
        }
        // A run stops at 128 MiB; each of detection's three attempts at 8 MiB.
        let size = std::fs::metadata(&rec).map(|m| m.len()).unwrap_or(0);
        let bound: u64 = if detect { 30 << 20 } else { 140 << 20 };
        assert!(size > 0 && size < bound, "{size} bytes");
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".part"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
}

/// A FIFO nobody writes or reads: `record -o FIFO` runs the engine unrecorded with a warning
/// instead of blocking before it starts; `probe --c2w FIFO` and a FIFO in `report -`'s list
/// are refused at once instead of waited on for ever.
#[test]
fn a_fifo_is_never_waited_on_for_ever() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    // Each command under `timeout`: one that waits on the FIFO fails the test instead of
    // hanging it.
    let bounded = || {
        let mut c = Command::new("timeout");
        c.args(["-s", "KILL", "60"])
            .arg(env!("CARGO_BIN_EXE_kibitzer"));
        c
    };
    let began = std::time::Instant::now();
    let out = bounded()
        .arg("record")
        .arg("-o")
        .arg(&fifo)
        .args(["--", "sh", "-c", "read x; echo answered $x"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            if let Some(mut i) = c.stdin.take() {
                i.write_all(b"hello\n")?;
            }
            c.wait_with_output()
        })
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "answered hello\n");
    assert!(err.contains("a FIFO no process reads"), "{err}");
    let c2w = bounded()
        .args(["probe", "--c2w"])
        .arg(&fifo)
        .output()
        .unwrap();
    assert_eq!(c2w.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&c2w.stderr).contains("is a FIFO, not a file"));
    let mut report = bounded()
        .args(["report", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(mut i) = report.stdin.take() {
        writeln!(i, "{}", fifo.display()).unwrap();
    }
    let report = report.wait_with_output().unwrap();
    assert_eq!(report.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&report.stdout).contains("not a regular file"));
    assert!(
        began.elapsed() < std::time::Duration::from_secs(60),
        "nothing waited on the FIFO"
    );
}
