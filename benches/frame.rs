//! The cost of one frame of the viewer, drawn into a test terminal while the cursor pages a
//! few hundred lines between frames, at 80x24, 160x45 and 250x70 (400 frames a size).
//!
//! `cargo bench --bench frame` draws over a recording of 2,000 MultiPV 3 searches (the search
//! pane's heaviest case: three PVs looked up and turned into SAN each frame). With
//! `KIBITZER_FRAME_INPUT=FILE` it reads that input instead (a 1 GB log:
//! `scripts/view-bench.sh --make-log FILE`). `scripts/frame-bench.sh` runs it against an
//! earlier commit's viewer in the same run.

use kibitzer::rules::Profile;
use kibitzer::tui::{Action, App, KeyMap, Options, Theme, draw::draw, load::read_file};
use ratatui::{Terminal, backend::TestBackend};
use std::fmt::Write as _;
use std::time::Instant;

/// A recording of `searches` searches of 3 MultiPV lines over 30 depths each (~93 lines a
/// search).
fn multipv_recording(path: &std::path::Path, searches: u64) {
    let mut text = String::from(
        "{\"kibitzer\":\"recording\",\"version\":1,\"tool\":\"bench\",\"started\":\"2026-11-29T00:00:00Z\",\"argv\":[\"sf\"]}\n",
    );
    let mut seq = 0u64;
    let mut line = |text: &mut String, src: &str, body: &str| {
        seq += 1;
        let _ = writeln!(
            text,
            "{{\"seq\":{seq},\"t\":{},\"src\":\"{src}\",\"text\":\"{body}\"}}",
            seq * 100_000
        );
    };
    line(&mut text, "gui", "uci");
    line(&mut text, "engine", "id name bench");
    line(&mut text, "engine", "uciok");
    line(&mut text, "gui", "setoption name MultiPV value 3");
    for _ in 0..searches {
        line(&mut text, "gui", "position startpos moves e2e4 e7e5");
        line(&mut text, "gui", "go movetime 1000");
        for d in 1..=30 {
            for (k, pv) in [
                (1, "g1f3 b8c6 f1b5 a7a6"),
                (2, "f1c4 g8f6 d2d3 f8c5"),
                (3, "b1c3 g8f6 g1f3 b8c6"),
            ] {
                line(
                    &mut text,
                    "engine",
                    &format!(
                        "info depth {d} seldepth {d} multipv {k} score cp {} nodes {} nps 1000000 time {} pv {pv}",
                        30 - k,
                        d * 1000,
                        d * 10
                    ),
                );
            }
        }
        line(&mut text, "engine", "bestmove g1f3 ponder b8c6");
    }
    std::fs::write(path, text).expect("the bench input is written");
}

fn main() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = match std::env::var_os("KIBITZER_FRAME_INPUT") {
        Some(p) => std::path::PathBuf::from(p),
        None => {
            let p = dir.path().join("multipv.jsonl");
            multipv_recording(&p, 2_000);
            p
        }
    };
    let read = Instant::now();
    let doc = read_file(
        &path,
        None,
        None,
        Profile::named("cutechess").expect("a profile"),
    )
    .expect("the input reads");
    eprintln!("read {} lines in {:.2?}", doc.rows.len(), read.elapsed());
    for (w, h) in [(80u16, 24u16), (160, 45), (250, 70)] {
        let mut a = App::new(KeyMap::default(), Theme::default(), Options::default());
        a.set_size(w, h);
        a.sync(&doc);
        let mut t = Terminal::new(TestBackend::new(w, h)).expect("a test terminal");
        let frames = 400;
        let mut times = Vec::with_capacity(frames);
        for _ in 0..frames {
            // A step of a few hundred lines: every frame lands in another search.
            for _ in 0..7 {
                a.update(&doc, Action::PageDown);
            }
            let start = Instant::now();
            t.draw(|f| {
                draw(f, &a, &doc);
            })
            .expect("a frame");
            times.push(start.elapsed().as_micros());
        }
        times.sort_unstable();
        println!(
            "{w}x{h}: median {} µs, p90 {} µs per frame",
            times[frames / 2],
            times[frames * 9 / 10]
        );
    }
}
