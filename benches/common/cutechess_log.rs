//! A generated cutechess-cli `-debug` log (two engines playing a long game over and over, with
//! `info` floods, as cutechess-cli prints it), shared by the import and check benches.

use std::io::Write;

const MOVES: &[&str] = &[
    "e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3", "e7e5",
    "d4b3", "c8e6", "f2f3", "f8e7", "d1d2", "e8g8", "e1c1", "b8d7", "g2g4", "b7b5", "g4g5", "b5b4",
    "c3e2", "f6e8", "f3f4", "a6a5",
];

/// Writes about `target_bytes` of log to `path`; returns its line count.
pub fn generate(path: &std::path::Path, target_bytes: u64) -> u64 {
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
