//! Decoder throughput on large recordings, against `wc -l` on the same file in the same run.
//!
//! `cargo bench --bench decode` builds two recordings of >= 5,000,000 lines and measures each:
//! - **real**: the traffic of the real Stockfish games in `recordings/` (python-chess against
//!   Stockfish through `kibitzer record`: `stockfish-uci-long-game`, half a second a move, and
//!   `stockfish-uci-game`, depth 9), replayed one game after the other with their own time
//!   steps until the file is big enough;
//! - **synthetic**: generated UCI games of random legal moves (the GUI's `position startpos
//!   moves ...` grows every ply, each search streams 24 `info` lines with legal, growing PVs,
//!   then `bestmove`), repeated with `ucinewgame`.
//!
//! On one core with boards tracked, every move and PV move checked:
//! - read: the JSONL recording reader alone;
//! - decode: the streaming `Decoder` (history off) on the events, timed apart from reading:
//!   the reader fills a batch of 1,024 reused event slots, the decoder then takes the batch
//!   (a batch that fits the cache, as a streaming consumer holds; with batches of 65,536 the
//!   decoder mostly measured cache misses on text the reader wrote long before);
//! - decode, PVs not checked: the same on the same batches with `check_pv_moves(false)`:
//!   boards tracked and every game move checked, PV moves kept as text only;
//! - decode + every rule: the default decoder followed by the rules stage (`Judge`), what
//!   `kibitzer check` runs per line, on the same batches;
//! - read + decode, streaming: one reused event and one reused decoded line, line by line, as
//!   a streaming consumer of the library reads a recording: the end-to-end figure;
//! - `wc -l` on the file;
//! - peak RSS (VmHWM) of this process.
//!
//! Every stage is measured `KIBITZER_BENCH_ROUNDS` times (default 3) and the median printed.
//! `KIBITZER_BENCH_QUICK=1` builds 500,000 lines instead; `KIBITZER_BENCH_DIR=DIR` keeps the
//! built files there and reuses them on the next run; `KIBITZER_BENCH_FILE=PATH` measures that
//! one recording only (for profiling).

use std::io::{BufReader, BufWriter, Write};
use std::process::Command;
use std::time::{Duration, Instant};

use kibitzer::game::{ChessBoard, ChessVariant};
use kibitzer::recording::{Event, Header, Reader, Source, writer};
use kibitzer::rules::{Judge, Profile};
use kibitzer::session::{Decoded, Decoder, Session};

/// One game's traffic: (source, text) lines.
fn game_traffic(seed: u64) -> Vec<(Source, String)> {
    let mut rng = seed;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut board = ChessBoard::startpos(ChessVariant::Standard).expect("start");
    let mut moves: Vec<String> = Vec::new();
    let mut out = vec![
        (Source::Gui, "ucinewgame".to_owned()),
        (Source::Gui, "isready".to_owned()),
        (Source::Engine, "readyok".to_owned()),
    ];
    let mut clock = 300_000i64;
    while moves.len() < 160 && board.outcome().is_none() {
        let mut pos = String::from("position startpos");
        if !moves.is_empty() {
            pos.push_str(" moves ");
            pos.push_str(&moves.join(" "));
        }
        out.push((Source::Gui, pos));
        out.push((
            Source::Gui,
            format!("go wtime {clock} btime {clock} winc 2000 binc 2000"),
        ));
        clock -= 500;
        // A PV of up to 12 legal moves; deeper iterations keep the first moves.
        let mut pv = Vec::new();
        let mut probe = board.clone();
        for _ in 0..12 {
            let legal = probe.legal_moves_uci();
            if legal.is_empty() {
                break;
            }
            let m = legal[(next() % legal.len() as u64) as usize].clone();
            if probe.play_uci(&m).is_err() {
                break;
            }
            pv.push(m);
        }
        if pv.is_empty() {
            break;
        }
        let mut nodes = 0u64;
        for depth in 1..=24u32 {
            nodes += 1000 * u64::from(depth);
            let len = (depth as usize / 2 + 1).min(pv.len());
            // Every fourth iteration changes its mind about the second half of the line.
            let shown = if depth % 4 == 0 { len.div_ceil(2) } else { len };
            out.push((
                Source::Engine,
                format!(
                    "info depth {depth} seldepth {} multipv 1 score cp {} nodes {nodes} nps 1500000 hashfull {} tbhits 0 time {} pv {}",
                    depth + 4,
                    (next() % 80) as i64 - 40,
                    depth * 10,
                    nodes / 1500,
                    pv[..shown].join(" ")
                ),
            ));
        }
        let best = pv[0].clone();
        let ponder = pv
            .get(1)
            .map(|p| format!(" ponder {p}"))
            .unwrap_or_default();
        out.push((Source::Engine, format!("bestmove {best}{ponder}")));
        board.play_uci(&best).expect("legal");
        moves.push(best);
    }
    out
}

/// The real recordings the `real` file is replayed from, relative to the crate.
const REAL_GAMES: [&str; 2] = [
    "recordings/stockfish-uci-long-game.jsonl",
    "recordings/stockfish-uci-game.jsonl",
];

/// Builds the `real` file: the handshake of the first recording once, then the games'
/// traffic (from `ucinewgame` or the first `position` on, without `quit` and proxy events)
/// one after the other, each keeping its own time steps, until `target` lines.
fn build_real(path: &std::path::Path, target: usize) -> (usize, u64) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut handshake = Vec::new();
    let mut games: Vec<Vec<Event>> = Vec::new();
    for (k, name) in REAL_GAMES.iter().enumerate() {
        let file = std::fs::File::open(root.join(name)).expect("shipped recording");
        let events: Vec<Event> = Reader::new(BufReader::new(file))
            .expect("recording")
            .map(|e| e.expect("clean recording"))
            .filter(|e| e.is_traffic() && e.text != "quit")
            .collect();
        let start = events
            .iter()
            .position(|e| e.text == "ucinewgame" || e.text.starts_with("position"))
            .expect("a game");
        if k == 0 {
            handshake = events[..start].to_vec();
        }
        let mut game = events[start..].to_vec();
        if game[0].text != "ucinewgame" {
            game.insert(0, Event::line(0, game[0].t, Source::Gui, "ucinewgame"));
        }
        games.push(game);
    }
    write_replayed(path, target, &handshake, &games)
}

/// The synthetic file: a made-up handshake, then four generated games one after the other,
/// 37 µs between lines.
fn build(path: &std::path::Path, target: usize) -> (usize, u64) {
    let timed = |lines: Vec<(Source, String)>| -> Vec<Event> {
        (0u64..)
            .zip(lines)
            .map(|(i, (src, text))| Event::line(0, i * 37_000, src, text))
            .collect()
    };
    let handshake = timed(vec![
        (Source::Gui, "uci".to_owned()),
        (Source::Engine, "id name BenchFish".to_owned()),
        (
            Source::Engine,
            "option name Hash type spin default 16 min 1 max 1024".to_owned(),
        ),
        (Source::Engine, "uciok".to_owned()),
    ]);
    let games: Vec<_> = (0..4)
        .map(|i| timed(game_traffic(0x9e37_79b9_7f4a_7c15 + i)))
        .collect();
    write_replayed(path, target, &handshake, &games)
}

/// Writes a recording: `handshake` once, then `games` one after the other, each keeping its
/// own time steps, until at least `target` lines. Returns the lines and bytes written.
fn write_replayed(
    path: &std::path::Path,
    target: usize,
    handshake: &[Event],
    games: &[Vec<Event>],
) -> (usize, u64) {
    let mut f = BufWriter::with_capacity(1 << 20, std::fs::File::create(path).expect("create"));
    let mut buf = Vec::with_capacity(1 << 16);
    writer::encode_header(
        &mut buf,
        &Header::new("kibitzer bench", "2024-01-01T00:00:00Z"),
    );
    let (mut lines, mut seq, mut t) = (0usize, 0u64, 0u64);
    let mut emit = |lines: &mut usize, e: &Event, at: u64, buf: &mut Vec<u8>| {
        seq += 1;
        writer::encode_event(buf, &Event::line(seq, at, e.src, e.text.as_str()));
        *lines += 1;
    };
    for e in handshake {
        emit(&mut lines, e, e.t, &mut buf);
        t = e.t;
    }
    let mut round = 0;
    while lines < target {
        let game = &games[round % games.len()];
        let first = game.first().map_or(0, |e| e.t);
        for e in game {
            emit(&mut lines, e, t + (e.t - first), &mut buf);
            if buf.len() > 1 << 16 {
                f.write_all(&buf).expect("write");
                buf.clear();
            }
        }
        t += game.last().map_or(0, |e| e.t - first) + 1_000_000;
        round += 1;
    }
    f.write_all(&buf).expect("write");
    f.flush().expect("flush");
    (lines, std::fs::metadata(path).map(|m| m.len()).unwrap_or(0))
}

fn vm_hwm_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// Picks one stage's time out of a round.
type Stage = dyn Fn(&Round) -> Duration;

/// One measurement of every stage.
struct Round {
    wc: Duration,
    read: Duration,
    decode: Duration,
    /// The same decoder with PV legality off (boards still tracked).
    decode_no_pv: Duration,
    /// The default decoder followed by every rule of `kibitzer check` (`Judge`).
    decode_rules: Duration,
    stream: Duration,
}

/// One round over `path`; also the sessions, the board changes and the diagnostics seen.
fn measure(path: &std::path::Path, lines: usize) -> (Round, (Vec<Session>, usize, usize)) {
    // wc -l on the same file.
    let t = Instant::now();
    let wc = Command::new("wc").arg("-l").arg(path).output().expect("wc");
    let wc_time = t.elapsed();
    assert!(wc.status.success());

    // Reader alone vs decoder alone, batch by batch, one core.
    let file = std::fs::File::open(path).expect("open");
    let mut reader = Reader::new(BufReader::with_capacity(1 << 20, file)).expect("reader");
    let mut decoder = Decoder::new(None).retain_history(false);
    let mut d = Decoded::default();
    let mut no_pv_decoder = Decoder::new(None)
        .retain_history(false)
        .check_pv_moves(false);
    let mut d2 = Decoded::default();
    let mut moved_no_pv = 0usize;
    let mut rules_decoder = Decoder::new(None).retain_history(false);
    let mut d3 = Decoded::default();
    let mut judge = Judge::new(Profile::default_profile());
    let mut findings = Vec::new();
    let mut rules_time = Duration::ZERO;
    // Events are read into a small batch of reused slots, as a streaming consumer would.
    let mut chunk: Vec<Event> = (0..1_024)
        .map(|_| Event::line(0, 0, Source::Proxy, String::new()))
        .collect();
    let (mut read_time, mut decode_time) = (Duration::ZERO, Duration::ZERO);
    let mut no_pv_time = Duration::ZERO;
    let mut batch = 0usize;
    let (mut decoded, mut moved, mut diags) = (0usize, 0usize, 0usize);
    loop {
        let t = Instant::now();
        let mut filled = 0;
        while filled < chunk.len() {
            match reader.read_into(&mut chunk[filled]) {
                Some(Ok(())) => filled += 1,
                Some(Err(_)) => {}
                None => break,
            }
        }
        read_time += t.elapsed();
        if filled == 0 {
            break;
        }
        // The decoders take every batch, in rotating order, so none always finds the batch's
        // text in the cache another one warmed.
        batch += 1;
        let order = [[0, 1, 2], [1, 2, 0], [2, 0, 1]][batch % 3];
        for which in order {
            let t = Instant::now();
            if which == 2 {
                for e in &chunk[..filled] {
                    rules_decoder.push_into(e, &mut d3);
                    judge.line(e, None, &d3, &rules_decoder, &mut findings);
                }
                // Findings are kept by `check`; here only counted, so memory stays flat.
                findings.clear();
                rules_time += t.elapsed();
                continue;
            }
            let pv_first = which == 0;
            if pv_first {
                for e in &chunk[..filled] {
                    decoder.push_into(e, &mut d);
                    decoded += 1;
                    moved += usize::from(d.moved);
                    diags += d.breaches.len();
                }
                decode_time += t.elapsed();
            } else {
                for e in &chunk[..filled] {
                    no_pv_decoder.push_into(e, &mut d2);
                    moved_no_pv += usize::from(d2.moved);
                }
                no_pv_time += t.elapsed();
            }
        }
    }
    // Same boards either way.
    assert_eq!(moved, moved_no_pv);
    let sessions = decoder.finish();

    // Streaming, as a library consumer reads a recording: one reused event and one reused
    // decoded line, each line read and decoded before the next.
    let file = std::fs::File::open(path).expect("open");
    let mut reader = Reader::new(BufReader::with_capacity(1 << 20, file)).expect("reader");
    let mut stream_decoder = Decoder::new(None).retain_history(false);
    let mut ev = Event::line(0, 0, Source::Proxy, String::new());
    let t = Instant::now();
    let mut streamed = 0usize;
    let mut d = Decoded::default();
    while let Some(r) = reader.read_into(&mut ev) {
        if r.is_ok() {
            stream_decoder.push_into(&ev, &mut d);
            streamed += 1;
        }
    }
    let stream_time = t.elapsed();
    assert_eq!(streamed, lines);
    assert_eq!(decoded, lines);
    (
        Round {
            wc: wc_time,
            read: read_time,
            decode: decode_time,
            decode_no_pv: no_pv_time,
            decode_rules: rules_time,
            stream: stream_time,
        },
        (sessions, moved, diags),
    )
}

fn main() {
    let quick = std::env::var_os("KIBITZER_BENCH_QUICK").is_some();
    let target = std::env::var("KIBITZER_BENCH_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if quick { 500_000 } else { 5_000_000 });
    let rounds: usize = std::env::var("KIBITZER_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .max(1);
    if let Some(path) = std::env::var_os("KIBITZER_BENCH_FILE") {
        let path = std::path::PathBuf::from(path);
        let (lines, bytes) = count_lines(&path);
        run("given file", &path, lines, bytes, rounds, false);
        return;
    }
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = std::env::var_os("KIBITZER_BENCH_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| temp.path().to_path_buf());
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {}: {e}", dir.display());
        std::process::exit(2);
    }
    type Builder = fn(&std::path::Path, usize) -> (usize, u64);
    let files: [(&str, Builder, bool); 2] = [
        ("real Stockfish games, replayed", build_real, false),
        ("synthetic games", build, true),
    ];
    for (k, (name, builder, clean)) in files.into_iter().enumerate() {
        let path = dir.join(format!("bench-{k}-{target}.jsonl"));
        let t0 = Instant::now();
        let (lines, bytes) = if path.exists() {
            count_lines(&path)
        } else {
            builder(&path, target)
        };
        eprintln!(
            "{name}: {lines} lines, {:.1} MB, ready in {:.1?}",
            bytes as f64 / 1e6,
            t0.elapsed()
        );
        run(name, &path, lines, bytes, rounds, clean);
        if std::env::var_os("KIBITZER_BENCH_DIR").is_none() {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Lines after the header and bytes of a recording, counted in chunks so a big file does
/// not count against the peak RSS.
fn count_lines(path: &std::path::Path) -> (usize, u64) {
    let mut file = std::fs::File::open(path).expect("open");
    let (mut newlines, mut bytes) = (0usize, 0u64);
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = std::io::Read::read(&mut file, &mut buf).expect("read");
        if n == 0 {
            break;
        }
        newlines += memchr::memchr_iter(b'\n', &buf[..n]).count();
        bytes += n as u64;
    }
    (newlines.saturating_sub(1), bytes)
}

/// Measures `rounds` rounds over one file and prints its table.
fn run(name: &str, path: &std::path::Path, lines: usize, bytes: u64, rounds: usize, clean: bool) {
    let hwm_before = vm_hwm_kb();
    let mut results: Vec<Round> = Vec::new();
    let mut last = None;
    for _ in 0..rounds {
        let (round, seen) = measure(path, lines);
        results.push(round);
        last = Some(seen);
    }
    let (sessions, moved, diags) = last.expect("one round");
    if clean {
        assert_eq!(diags, 0, "the generated traffic is clean");
    }
    let gui = sessions.first().map_or(0, |s| s.counts[0]);
    let per_sec = |d: f64| lines as f64 / d;
    let mb_sec = |d: f64| bytes as f64 / 1e6 / d;
    // Medians over the rounds: this machine is shared and its speed drifts between runs.
    let median = |f: &Stage| {
        let mut v: Vec<f64> = results.iter().map(|r| f(r).as_secs_f64()).collect();
        v.sort_by(f64::total_cmp);
        (v[v.len() / 2], v[0], v[v.len() - 1])
    };
    let wc = median(&|r: &Round| r.wc).0;
    println!(
        "\n{name}: median of {rounds} rounds (lines/s of the slowest and fastest round in brackets)\n"
    );
    println!("| stage | time | lines/s | MB/s | vs wc -l |");
    println!("|---|---|---|---|---|");
    let stages: [(&str, &Stage); 7] = [
        ("wc -l", &|r: &Round| r.wc),
        ("read (JSONL reader)", &|r: &Round| r.read),
        (
            "decode (Decoder, boards on, PV moves checked)",
            &|r: &Round| r.decode,
        ),
        (
            "decode (Decoder, boards on, PVs not checked)",
            &|r: &Round| r.decode_no_pv,
        ),
        (
            "decode + every rule (Decoder and Judge, as `check`)",
            &|r: &Round| r.decode_rules,
        ),
        ("read + decode, batched (sum)", &|r: &Round| {
            r.read + r.decode
        }),
        ("read + decode, streaming", &|r: &Round| r.stream),
    ];
    for (stage, f) in stages {
        let (d, fastest, slowest) = median(f);
        println!(
            "| {stage} | {:.2} s | {:.2} M ({:.2}..{:.2}) | {:.0} | {:.1}x |",
            d,
            per_sec(d) / 1e6,
            per_sec(slowest) / 1e6,
            per_sec(fastest) / 1e6,
            mb_sec(d),
            d / wc
        );
    }
    println!(
        "\n{lines} lines, {:.1} MB; {moved} board changes; {gui} GUI lines; {diags} diagnostics; peak RSS {} MB (before decoding: {} MB)",
        bytes as f64 / 1e6,
        vm_hwm_kb() / 1024,
        hwm_before / 1024
    );
}
