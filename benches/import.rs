//! Import speed on a large cutechess-cli `-debug` log, against `wc -l` on the same file.
//!
//! `cargo bench --bench import` generates a ~1 GB log (two engines playing a long game over and
//! over, with `info` floods, as cutechess-cli prints it), then times `kibitzer import` of it
//! (the real binary: memory-mapped input, JSONL output to /dev/null is avoided by writing to a
//! temp file) and `wc -l`. `KIBITZER_BENCH_QUICK=1` uses 100 MB.

use std::io::Write;
use std::process::Command;
use std::time::Instant;

const MOVES: &[&str] = &[
    "e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3", "e7e5",
    "d4b3", "c8e6", "f2f3", "f8e7", "d1d2", "e8g8", "e1c1", "b8d7", "g2g4", "b7b5", "g4g5", "b5b4",
    "c3e2", "f6e8", "f3f4", "a6a5",
];

fn generate(path: &std::path::Path, target_bytes: u64) -> u64 {
    let mut f = std::io::BufWriter::with_capacity(
        1 << 20,
        std::fs::File::create(path).expect("create log"),
    );
    let (mut ms, mut written, mut lines) = (0u64, 0u64, 0u64);
    let emit = |f: &mut std::io::BufWriter<std::fs::File>, s: String, ms: u64| {
        let line = format!("{ms} {s}\n");
        f.write_all(line.as_bytes()).expect("write log");
        line.len() as u64
    };
    'outer: loop {
        for id in [1u32, 2] {
            written += emit(&mut f, format!(">Engine{id}({id}): uci"), ms);
            written += emit(&mut f, format!("<Engine{id}({id}): id name Engine{id}"), ms);
            written += emit(&mut f, format!("<Engine{id}({id}): uciok"), ms);
            written += emit(&mut f, format!(">Engine{id}({id}): isready"), ms);
            written += emit(&mut f, format!("<Engine{id}({id}): readyok"), ms);
            lines += 5;
        }
        for ply in 0..MOVES.len() {
            let id = (ply % 2) as u32 + 1;
            let played = MOVES[..ply].join(" ");
            written += emit(
                &mut f,
                format!(">Engine{id}({id}): position startpos moves {played}"),
                ms,
            );
            written += emit(
                &mut f,
                format!(">Engine{id}({id}): go wtime 60000 btime 60000 winc 600 binc 600"),
                ms,
            );
            lines += 2;
            for depth in 1..=20u32 {
                ms += 3;
                let pv = MOVES[ply..(ply + 6).min(MOVES.len())].join(" ");
                written += emit(
                    &mut f,
                    format!(
                        "<Engine{id}({id}): info depth {depth} seldepth {} multipv 1 score cp {} nodes {} nps 1500000 hashfull {} tbhits 0 time {} pv {pv}",
                        depth + 4,
                        20 - depth as i32,
                        depth * 9000,
                        depth * 10,
                        depth * 6
                    ),
                    ms,
                );
                lines += 1;
            }
            written += emit(
                &mut f,
                format!("<Engine{id}({id}): bestmove {}", MOVES[ply]),
                ms,
            );
            lines += 1;
            if written >= target_bytes {
                break 'outer;
            }
        }
    }
    f.flush().expect("flush log");
    lines
}

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
