//! GNU Chess 6.2.7 through the proxy, in a test binary of its own: its startup race (below)
//! is lost far more often while other tests load the CPU, and cargo runs test binaries one
//! at a time.

use crate::common;

use common::engine_session::*;
use common::*;
use std::time::Duration;

#[test]
fn gnuchess_xboard_handshake_and_moves() {
    // GNU Chess 6.2.7 (Debian 12) answers `protover 2` in only some of its starts, with or
    // without kibitzer in between: measured here with a plain pipe and no kibitzer, 1-5
    // starts in 10, whatever the timing of the input or the environment; the others print
    // `Chess` and hang, then spin on EOF. So: up to 25 quick starts, and the first that
    // negotiates must play two moves. Every start, hung or not, must be recorded exactly as
    // seen.
    let dir = tempfile::tempdir().unwrap();
    let gnuchess = engine("gnuchess");
    let mut hung = Vec::new();
    for i in 0..25 {
        let rec = dir.path().join(format!("gc{i}.jsonl"));
        let argv = [gnuchess.to_str().unwrap(), "--xboard"];
        match cecp_game_within(&rec, &argv, "gnuchess", Duration::from_secs(2)) {
            Ok(()) => {
                eprintln!("gnuchess negotiated and played on start {}", i + 1);
                return;
            }
            Err(said) => {
                let r = read_recording(&rec);
                let killed = r
                    .events
                    .iter()
                    .any(|e| e.kind.map(|k| k.as_str()) == Some("killed"));
                hung.push((said, killed));
            }
        }
    }
    // Never negotiating is only acceptable as the upstream hang, and loudly: the engine said
    // nothing but its banner. (Some hung starts still exit on `quit`; the others are stopped by
    // the proxy's EOF grace period.)
    let stopped = hung.iter().filter(|(_, killed)| *killed).count();
    for (said, _) in &hung {
        assert!(
            said.iter().all(|l| l == "Chess\n"),
            "gnuchess said {said:?} but never negotiated"
        );
    }
    eprintln!(
        "WARNING: gnuchess 6.2.7 hung at startup in all {} starts (its known upstream race); \
         each was recorded exactly, {stopped} had to be stopped by the proxy, no game was played",
        hung.len()
    );
}
