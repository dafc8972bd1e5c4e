//! `kibitzer check` end to end, against `wc -l` on the same files in the same run.
//!
//! `cargo bench --bench check` generates a ~1 GB cutechess-cli `-debug` log and a ~1 GB
//! recording (a smaller log of the same traffic imported with `kibitzer import`), then times,
//! three rounds interleaved: `wc -l FILE` and `kibitzer check --summary-only FILE` (the real
//! binary, every rule, output to /dev/null), with the peak RSS of each check run.
//! `KIBITZER_BENCH_QUICK=1` uses 100 MB files; `KIBITZER_BENCH_DIR=DIR` keeps them for the
//! next run.

#[path = "common/cutechess_log.rs"]
mod cutechess_log;

use std::process::{Command, Stdio};
use std::time::Instant;

/// Runs `cmd`, returns the wall time in seconds and the child's peak RSS in MB.
fn run(cmd: &mut Command) -> (f64, f64) {
    let t0 = Instant::now();
    let child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let pid = child.id() as i32;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child and writes into the locals above.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4");
    let secs = t0.elapsed().as_secs_f64();
    std::mem::forget(child);
    (secs, usage.ru_maxrss as f64 / 1024.0)
}

fn lines_of(path: &std::path::Path) -> u64 {
    let out = Command::new("wc").arg("-l").arg(path).output().expect("wc");
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

use nix::libc;

fn main() {
    let quick = std::env::var_os("KIBITZER_BENCH_QUICK").is_some()
        || !std::env::args().any(|a| a == "--bench");
    let target: u64 = if quick { 100 << 20 } else { 1 << 30 };
    let keep = std::env::var_os("KIBITZER_BENCH_DIR").map(std::path::PathBuf::from);
    let dir = keep.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("kibitzer-check-bench-{}", std::process::id()))
    });
    std::fs::create_dir_all(&dir).expect("dir");
    let kibitzer = env!("CARGO_BIN_EXE_kibitzer");
    let log = dir.join(format!("check-cutechess-{target}.log"));
    if !log.exists() {
        cutechess_log::generate(&log, target);
    }
    // A JSONL recording is about 1.6 times its cutechess log: import a smaller log.
    let rec = dir.join(format!("check-recording-{target}.jsonl"));
    if !rec.exists() {
        let small = dir.join("check-small.log");
        cutechess_log::generate(&small, target * 10 / 16);
        let ok = Command::new(kibitzer)
            .arg("import")
            .arg(&small)
            .arg("-o")
            .arg(&rec)
            .stderr(Stdio::null())
            .status()
            .expect("import");
        assert!(ok.success());
        let _ = std::fs::remove_file(&small);
    }
    println!("| file | `wc -l` | `kibitzer check` | lines/s | vs `wc -l` | peak RSS |");
    println!("|---|---|---|---|---|---|");
    for (name, path) in [("cutechess-cli log", &log), ("recording", &rec)] {
        let lines = lines_of(path);
        let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        let (mut wc, mut check, mut rss) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..3 {
            wc.push(run(Command::new("wc").arg("-l").arg(path)).0);
            let (t, m) = run(Command::new(kibitzer)
                .args(["check", "--summary-only", "--format", "json"])
                .arg(path));
            check.push(t);
            rss.push(m);
        }
        let (wc, check, rss) = (median(&mut wc), median(&mut check), median(&mut rss));
        println!(
            "| {name}, {:.0} MB, {lines} lines, median of 3 | {wc:.2} s | {check:.2} s | {:.2} M | {:.1}x | {rss:.0} MB |",
            bytes as f64 / 1e6,
            lines as f64 / check / 1e6,
            check / wc
        );
    }
    if keep.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
