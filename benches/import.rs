//! Import speed on a large cutechess-cli `-debug` log, against `wc -l` on the same file.
//!
//! `cargo bench --bench import` generates a ~1 GB log (two engines playing a long game over and
//! over, with `info` floods, as cutechess-cli prints it), then times `kibitzer import` of it
//! (the real binary: memory-mapped input, JSONL output to /dev/null is avoided by writing to a
//! temp file) and `wc -l`. `KIBITZER_BENCH_QUICK=1` uses 100 MB.

use std::process::Command;
use std::time::Instant;

#[path = "common/cutechess_log.rs"]
mod cutechess_log;
use cutechess_log::generate;

fn main() {
    let quick = std::env::var_os("KIBITZER_BENCH_QUICK").is_some()
        || !std::env::args().any(|a| a == "--bench");
    let target = if quick { 100 << 20 } else { 1 << 30 };
    let dir = std::env::temp_dir().join(format!("kibitzer-import-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let log = dir.join("cutechess-debug.log");
    let out = dir.join("out.jsonl");
    let lines = generate(&log, target);
    let bytes = std::fs::metadata(&log).map(|m| m.len()).unwrap_or(0);

    let time = |cmd: &mut Command| {
        let t0 = Instant::now();
        let status = cmd.status().expect("run");
        assert!(status.success(), "{cmd:?} failed");
        t0.elapsed().as_secs_f64()
    };
    let mut wc = Vec::new();
    let mut imp = Vec::new();
    for _ in 0..3 {
        wc.push(time(
            Command::new("wc")
                .arg("-l")
                .arg(&log)
                .stdout(std::process::Stdio::null()),
        ));
        imp.push(time(
            Command::new(env!("CARGO_BIN_EXE_kibitzer"))
                .arg("import")
                .arg(&log)
                .arg("-o")
                .arg(&out)
                .stderr(std::process::Stdio::null()),
        ));
    }
    wc.sort_by(f64::total_cmp);
    imp.sort_by(f64::total_cmp);
    let (wc, imp) = (wc[1], imp[1]);
    let out_bytes = std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
    println!(
        "| cutechess-cli -debug log, {:.0} MB, {lines} lines, median of 3 | time | lines/s | MB/s |",
        bytes as f64 / 1e6
    );
    println!("|---|---|---|---|");
    println!(
        "| `wc -l` | {wc:.2} s | {:.1} M | {:.0} |",
        lines as f64 / wc / 1e6,
        bytes as f64 / wc / 1e6
    );
    println!(
        "| `kibitzer import` (detect, parse, write {:.0} MB JSONL) | {imp:.2} s | {:.2} M | {:.0} |",
        out_bytes as f64 / 1e6,
        lines as f64 / imp / 1e6,
        bytes as f64 / imp / 1e6
    );
    println!("\nimport / wc -l time ratio: {:.1}x", imp / wc);
    let _ = std::fs::remove_dir_all(&dir);
}
