//! GNU Chess 6.2.7's manners through the proxy. The real engine answers `protover 2` in only
//! 1 to 5 of 10 starts (measured with a plain pipe, no kibitzer: the other starts print
//! `Chess` and hang), so the tests that must pass every time drive a scripted engine with its
//! manners (`winboard_caps.py --gnu`: the banner, `feature done=0` first, move echoes,
//! `1. ... e7e5` and `My move is : e7e5`, pong twice; `--lose-input`: the hung start). The
//! real engine keeps one smoke test, ignored by default with the reason shown in the summary
//! (`cargo test -- --ignored gnuchess` runs it).

use crate::common;

use common::engine_session::*;
use common::*;
use std::time::Duration;

#[test]
fn a_gnuchess_like_engine_negotiates_and_plays_through_the_proxy() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("gc.jsonl");
    let argv = gnu_like(&[]);
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    // A generous wait: a slow start on a loaded machine is no hang.
    cecp_game_within(&rec, &argv, "gnuchess", Duration::from_secs(30))
        .unwrap_or_else(|said| panic!("never negotiated; said {said:?}"));
    let out = kibitzer().arg("dump").arg(&rec).output().unwrap();
    let dump = String::from_utf8_lossy(&out.stdout);
    for manner in [
        "<- Chess",
        "<- feature done=0",
        "<- 1. e2e4",
        "<- My move is : ",
    ] {
        assert!(dump.contains(manner), "{manner} missing:\n{dump}");
    }
}

#[test]
fn a_start_that_loses_its_input_is_recorded_exactly_as_the_hang() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("gc.jsonl");
    let argv = gnu_like(&["--lose-input", "1.5"]);
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    // `xboard` and `protover 2` go in the first 1.5 s and are lost: the banner, then silence.
    let said = cecp_game_within(&rec, &argv, "gnuchess", Duration::from_secs(3))
        .expect_err("a start that lost `protover` cannot negotiate");
    assert_eq!(said, vec!["Chess\n".to_owned()]);
    // Both lines the engine lost are in the recording: the GUI did send them.
    let out = kibitzer().arg("dump").arg(&rec).output().unwrap();
    let dump = String::from_utf8_lossy(&out.stdout);
    assert!(dump.contains("-> protover 2"), "{dump}");
}

#[test]
#[ignore = "live GNU Chess 6.2.7 answers `protover 2` in only 1-5 of 10 starts (upstream race); \
            the scripted tests above cover its manners; run with `-- --ignored gnuchess`"]
fn live_gnuchess_negotiates_and_plays_in_one_of_25_starts() {
    let dir = tempfile::tempdir().unwrap();
    let gnuchess = engine("gnuchess");
    let mut hung = Vec::new();
    for i in 0..25 {
        let rec = dir.path().join(format!("gc{i}.jsonl"));
        let argv = [gnuchess.to_str().unwrap(), "--xboard"];
        match cecp_game_within(&rec, &argv, "gnuchess", Duration::from_secs(10)) {
            Ok(()) => return,
            Err(said) => hung.push(said),
        }
    }
    panic!(
        "gnuchess never negotiated in 25 starts; it said {:?}",
        hung.first()
    );
}
