//! `kibitzer check` through the binary: the transcript helper and a first rule.

use crate::common;

use common::transcript::*;

#[test]
fn a_go_during_a_search_is_the_guis_fault_and_nothing_else() {
    let fired = fired(
        "
        0.000 ! spawned engine
        0.001 > uci
        0.010 < id name X
        0.011 < uciok
        0.020 > isready
        0.021 < readyok
        0.030 > position startpos moves e2e4
        0.031 > go infinite
        0.100 < info depth 1 pv e7e5 g1f3
        0.200 > position startpos moves e2e4 e7e5
        0.201 > go movetime 100
        0.300 < info depth 2 pv e7e5 g1f3 b8c6
        0.400 > stop
        0.401 < bestmove e7e5
        0.500 < bestmove g1f3
        ",
        &[],
    );
    assert!(
        fired.contains(&"UCI-GO-WHILE-SEARCHING".to_owned()),
        "{fired:?}"
    );
    assert!(
        fired.contains(&"UCI-POSITION-WHILE-SEARCHING".to_owned()),
        "{fired:?}"
    );
    assert!(!fired.iter().any(|r| r.contains("ILLEGAL")), "{fired:?}");
}
