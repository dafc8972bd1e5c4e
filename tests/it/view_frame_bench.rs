//! The cost of one frame of the viewer on a big recording of MultiPV searches, the case the
//! search pane does the most work on: `cargo test --test it view_frame_bench -- --ignored
//! --nocapture` prints the time per frame (docs/view.md has the figures).

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
    std::fs::write(path, text).unwrap();
}

#[test]
#[ignore = "a benchmark: run it with --ignored --nocapture"]
fn frame_cost() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("multipv.jsonl");
    multipv_recording(&path, 2_000);
    let doc = read_file(&path, None, None, Profile::named("cutechess").unwrap()).unwrap();
    for (w, h) in [(80u16, 24u16), (160, 45), (250, 70)] {
        let mut a = App::new(KeyMap::default(), Theme::default(), Options::default());
        a.set_size(w, h);
        a.sync(&doc);
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
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
            .unwrap();
            times.push(start.elapsed().as_micros());
        }
        times.sort_unstable();
        println!(
            "{w}x{h}: {} lines, median {} µs, p90 {} µs per frame",
            doc.rows.len(),
            times[frames / 2],
            times[frames * 9 / 10]
        );
    }
}
