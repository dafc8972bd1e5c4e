//! Proxy overhead, measured against a direct pipe in the same run.
//!
//! `cargo bench --bench proxy` prints a markdown table:
//! - round trip: 10,000 request/answer pairs through an echo engine (`cat`), one at a time;
//! - flood: 1,000,000 `info` lines written by the engine as fast as it can (`cat FILE`).
//!
//! Set `KIBITZER_BENCH_QUICK=1` for a short run (1,000 pairs, 100,000 lines), and
//! `KIBITZER_BENCH_BASELINE=PATH` to time another kibitzer binary (the previous build) in the
//! same run, interleaved with this one: its rows follow the table, with the ratios.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

const FLOOD_LINE: &str = "info depth 24 seldepth 31 multipv 1 score cp 27 nodes 18837163 nps 1872000 hashfull 512 tbhits 0 time 10063 pv e2e4 e7e5 g1f3 b8c6 f1b5 a7a6";

#[derive(Clone, Copy, PartialEq)]
enum Via {
    Direct,
    Kibitzer,
    PythonTee,
    /// `cat | ENGINE | cat`: two more pipe hops and nothing else, the floor of any relay.
    CatRelay,
    /// `$KIBITZER_BENCH_BASELINE record`: another build, for an A/B in one run.
    Baseline,
}

fn command(via: Via, rec_dir: &std::path::Path, engine: &[&str]) -> Command {
    if via == Via::CatRelay {
        let mut c = Command::new("sh");
        // The shell must not keep its own stdout open while it waits for the pipeline,
        // or the reader never sees EOF: run the pipeline in the background, close ours.
        c.arg("-c")
            .arg("exec 3<&0; cat <&3 | \"$@\" | cat & exec >&- <&- 3<&-; wait")
            .arg("sh")
            .args(engine);
        c
    } else if via == Via::PythonTee {
        let mut c = Command::new("python3");
        c.arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/benches/python_tee.py"
        ))
        .arg(rec_dir.join("python-tee.log"))
        .args(engine);
        c
    } else if via == Via::Kibitzer || via == Via::Baseline {
        let bin = match std::env::var_os("KIBITZER_BENCH_BASELINE") {
            Some(b) if via == Via::Baseline => std::path::PathBuf::from(b),
            _ => std::path::PathBuf::from(env!("CARGO_BIN_EXE_kibitzer")),
        };
        let mut c = Command::new(bin);
        c.arg("record")
            .arg("--dir")
            .arg(rec_dir)
            .arg("--")
            .args(engine);
        c
    } else {
        let mut c = Command::new(engine[0]);
        c.args(&engine[1..]);
        c
    }
}

/// Per-pair round-trip times in nanoseconds.
fn round_trips(proxied: Via, pairs: usize, rec_dir: &std::path::Path) -> Vec<u64> {
    let mut child = command(proxied, rec_dir, &["cat"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn echo engine");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    let mut times = Vec::with_capacity(pairs);
    for i in 0..pairs + 100 {
        let t0 = Instant::now();
        stdin.write_all(b"isready\n").expect("write");
        line.clear();
        stdout.read_line(&mut line).expect("read");
        let dt = t0.elapsed().as_nanos() as u64;
        assert_eq!(line, "isready\n");
        if i >= 100 {
            times.push(dt); // the first 100 warm up caches and the scheduler
        }
    }
    drop(stdin);
    child.wait().expect("wait");
    times
}

/// The flood engine: like a real engine, one `write` per line (engines flush every line).
fn act_as_flood_engine(lines: usize) {
    use std::os::fd::AsFd;
    let mut out = std::fs::File::from(
        std::io::stdout()
            .as_fd()
            .try_clone_to_owned()
            .expect("stdout"),
    );
    let line = format!("{FLOOD_LINE}\n");
    for _ in 0..lines {
        if out.write_all(line.as_bytes()).is_err() {
            return;
        }
    }
}

/// Seconds to receive every line of the flood.
fn flood(proxied: Via, engine: &[&str], lines: usize, rec_dir: &std::path::Path) -> f64 {
    let t0 = Instant::now();
    let mut child = command(proxied, rec_dir, engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn flood engine");
    let mut out = child.stdout.take().expect("stdout");
    let mut buf = vec![0u8; 1 << 16];
    let mut count = 0usize;
    loop {
        let n = out.read(&mut buf).expect("read");
        if n == 0 {
            break;
        }
        count += memchr::memchr_iter(b'\n', &buf[..n]).count();
    }
    let secs = t0.elapsed().as_secs_f64();
    drop(child.stdin.take());
    child.wait().expect("wait");
    assert_eq!(count, lines);
    secs
}

fn pct(sorted: &[u64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

fn median_f(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    if let Ok(n) = std::env::var("KIBITZER_BENCH_FLOOD_LINES") {
        act_as_flood_engine(n.parse().expect("line count"));
        return;
    }
    // `cargo bench` passes --bench; `cargo test --benches` passes nothing: run quick then.
    let quick = std::env::var_os("KIBITZER_BENCH_QUICK").is_some()
        || !std::env::args().any(|a| a == "--bench");
    let (pairs, lines, runs) = if quick {
        (1_000, 100_000, 3)
    } else {
        (10_000, 1_000_000, 5)
    };
    let tmp = std::env::temp_dir().join(format!("kibitzer-bench-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let rec_dir = tmp.join("recordings");
    let flood_file = tmp.join("flood.txt");
    {
        let mut f =
            std::io::BufWriter::new(std::fs::File::create(&flood_file).expect("flood file"));
        for _ in 0..lines {
            writeln!(f, "{FLOOD_LINE}").expect("write flood");
        }
    }

    // Interleave the ways so machine noise hits them alike.
    let mut vias = vec![Via::Direct, Via::Kibitzer, Via::PythonTee, Via::CatRelay];
    if std::env::var_os("KIBITZER_BENCH_BASELINE").is_some() {
        vias.push(Via::Baseline);
    }
    let mut rt: Vec<Vec<u64>> = vec![Vec::new(); vias.len()];
    for _ in 0..runs.min(3) {
        for (i, via) in vias.iter().enumerate() {
            rt[i].extend(round_trips(*via, pairs, &rec_dir));
        }
    }
    rt.iter_mut().for_each(|v| v.sort_unstable());
    let me = std::env::current_exe().expect("bench executable");
    let me = me.to_str().expect("utf-8 path");
    // SAFETY: set before any thread that reads the environment is started.
    unsafe { std::env::set_var("KIBITZER_BENCH_FLOOD_LINES", lines.to_string()) };
    let per_line: &[&str] = &[me];
    let bulk: &[&str] = &["cat", flood_file.to_str().expect("utf-8 path")];
    let mut rates = Vec::new();
    for engine in [per_line, bulk] {
        let mut secs: Vec<Vec<f64>> = vec![Vec::new(); vias.len()];
        for _ in 0..runs {
            for (i, via) in vias.iter().enumerate() {
                secs[i].push(flood(*via, engine, lines, &rec_dir));
            }
        }
        let rate: Vec<f64> = secs
            .into_iter()
            .map(|mut s| lines as f64 / median_f(&mut s))
            .collect();
        rates.push(rate);
    }

    println!(
        "| measurement | direct pipe | `cat \\| engine \\| cat` (relay floor) | `kibitzer record` | added / ratio vs direct | vs relay floor | Python thread tee (reference) | added / ratio |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (name, p) in [("median", 0.5), ("p99", 0.99)] {
        let [d, k, py, c] = [
            pct(&rt[0], p),
            pct(&rt[1], p),
            pct(&rt[2], p),
            pct(&rt[3], p),
        ];
        println!(
            "| round trip {name}, {pairs} pairs x {} | {d:.1} µs | {c:.1} µs | {k:.1} µs | +{:.1} µs | +{:.1} µs | {py:.1} µs | +{:.1} µs |",
            runs.min(3),
            k - d,
            k - c,
            py - d
        );
    }
    let baseline_rows: Vec<String> = if vias.len() > 4 {
        let (bm, km) = (pct(&rt[4], 0.5), pct(&rt[1], 0.5));
        let mut rows = vec![format!(
            "round trip median: baseline {bm:.1} µs, this build {km:.1} µs, ratio {:.2}",
            km / bm
        )];
        for (r, what) in rates.iter().zip(["per-line flood", "bulk flood"]) {
            rows.push(format!(
                "{what}: baseline {:.2} M lines/s, this build {:.2} M lines/s, ratio {:.2}",
                r[4] / 1e6,
                r[1] / 1e6,
                r[1] / r[4]
            ));
        }
        rows
    } else {
        Vec::new()
    };
    for (r, what) in rates.into_iter().zip([
        "one write per line, like engines",
        "bulk 64 KiB writes (`cat FILE`)",
    ]) {
        let (d, k, py, c) = (r[0], r[1], r[2], r[3]);
        println!(
            "| flood of {lines} lines, {what}, median of {runs} | {:.2} M lines/s | {:.2} M lines/s | {:.2} M lines/s | {:.2}x | {:.2}x | {:.2} M lines/s | {:.2}x |",
            d / 1e6,
            c / 1e6,
            k / 1e6,
            k / d,
            k / c,
            py / 1e6,
            py / d
        );
    }
    let rec_bytes: u64 = std::fs::read_dir(&rec_dir)
        .map(|d| {
            d.filter_map(|e| e.ok()?.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0);
    println!(
        "\n(recordings written: {:.1} MB; sleeping 0 between runs)",
        rec_bytes as f64 / 1e6
    );
    for row in baseline_rows {
        println!("{row}");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
