//! `check` costs O(1) amortised per line, however many requests stay open: a GUI that sends
//! `uci`, `isready` or `go` over and over to an engine that never answers made each line scan
//! every open request (80,000 lines took 514 s). Timed as the fastest of three runs, small and
//! large interleaved so a burst of load hits both, and compared at 4x the lines: linear work
//! takes about 4x the time, quadratic 16x; the bound is 10x.

use crate::common::kibitzer;
use std::time::{Duration, Instant};

fn input(dir: &std::path::Path, lines: &str, n: usize) -> std::path::PathBuf {
    let path = dir.join(format!("in-{n}.log"));
    let mut text = String::with_capacity(n * (lines.len() + 1));
    for i in 0..n {
        let l = lines.split('|').nth(i % lines.split('|').count()).unwrap();
        text.push_str(l);
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    path
}

fn timed_check(path: &std::path::Path) -> Duration {
    let t = Instant::now();
    let out = kibitzer()
        .args(["check", "--protocol", "uci", "--summary-only"])
        .arg(path)
        .output()
        .unwrap();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{out:?}");
    t.elapsed()
}

#[test]
fn unanswered_requests_cost_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    for lines in ["uci", "isready", "go depth 1", "uci|isready|go infinite"] {
        let (small_in, large_in) = (
            input(dir.path(), lines, 20_000),
            input(dir.path(), lines, 80_000),
        );
        let (mut small, mut large) = (Duration::MAX, Duration::MAX);
        for _ in 0..3 {
            small = small.min(timed_check(&small_in));
            large = large.min(timed_check(&large_in));
        }
        let ratio = large.as_secs_f64() / small.as_secs_f64().max(1e-3);
        assert!(
            ratio < 10.0,
            "`{lines}` x80,000 took {large:?}, x20,000 {small:?}: {ratio:.1}x for 4x the lines"
        );
    }
}
