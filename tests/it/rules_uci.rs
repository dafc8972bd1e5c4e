//! Every UCI rule that docs/rules.md marks "implemented", through `kibitzer check`: each fires
//! on a short realistic session that breaks it, and stays silent on the closest correct one.
//!
//! One `#[test]` per rule (named after it); each runs the rule's firing transcripts and its near
//! misses and reports every transcript that went wrong, naming the rule and the transcript.
//! A firing finding must also carry the catalogue's severity and side (for `either` rules the
//! side of the line's sender), and a near miss must be a correct session: no warning or error of
//! any rule, except those it is allowed to show.
//!
//! Not tested here: the UCI rules docs/rules.md does not mark "implemented" (the test
//! `the_cases_cover_exactly_the_implemented_uci_rules` keeps this list in step with the page):
//!
//! - not decidable from traffic: UCI-INFO-STRING-REST-OF-LINE, UCI-UNKNOWN-TOKEN-IGNORED

use crate::common;
use crate::rules_uci_support::*;

use common::transcript::hangs;
use kibitzer::rules::Severity;
use std::collections::BTreeSet;
use std::sync::LazyLock;

/// UCI rules of the catalogue that have no check yet, or cannot have one.
const SKIPPED: &[&str] = &["UCI-INFO-STRING-REST-OF-LINE", "UCI-UNKNOWN-TOKEN-IGNORED"];

/// The rules that have a test, in the modules of the rule tests.
static TESTED: LazyLock<Vec<&str>> = LazyLock::new(|| {
    [
        crate::rules_uci_handshake::TESTED,
        crate::rules_uci_sync::TESTED,
        crate::rules_uci_search::TESTED,
        crate::rules_uci_moves::TESTED,
        crate::rules_uci_info::TESTED,
    ]
    .concat()
});

/// REPLAY-NONDETERMINISTIC-SETUP is a replay diagnostic: `check` shows it only when asked
/// for by id.
#[test]
fn replay_nondeterministic_setup_is_said_when_asked_for() {
    let clocked = in_game(
        "
        0.100 > position startpos
        0.101 > go wtime 60000 btime 60000
        0.200 < bestmove e2e4
        0.300 > quit
        0.350 ! engine_exit code=0 engine exited with code 0
        ",
    );
    let asked = common::transcript::fired(&clocked, &["--rule", "REPLAY-NONDETERMINISTIC-SETUP"]);
    assert_eq!(asked, ["REPLAY-NONDETERMINISTIC-SETUP"]);
    let default = common::transcript::fired(&clocked, &[]);
    assert!(
        !default.iter().any(|r| r.starts_with("REPLAY-")),
        "{default:?}"
    );
    let fixed = in_game(
        "
        0.100 > position startpos
        0.101 > go nodes 10000
        0.200 < bestmove e2e4
        0.300 > quit
        0.350 ! engine_exit code=0 engine exited with code 0
        ",
    );
    let asked = common::transcript::fired(&fixed, &["--rule", "REPLAY-NONDETERMINISTIC-SETUP"]);
    assert!(asked.is_empty(), "{asked:?}");
}

#[test]
fn the_cases_cover_exactly_the_implemented_uci_rules() {
    let cat = catalogue();
    assert!(!cat.is_empty(), "no UCI rows found in docs/rules.md");
    let implemented: BTreeSet<&str> = cat
        .iter()
        .filter(|r| r.status == "implemented")
        .map(|r| r.id.as_str())
        .collect();
    let tested: BTreeSet<&str> = TESTED.iter().copied().collect();
    assert_eq!(
        TESTED.len(),
        tested.len(),
        "a rule is listed twice in rule_tests!"
    );
    let untested: Vec<&&str> = implemented.difference(&tested).collect();
    let not_implemented: Vec<&&str> = tested.difference(&implemented).collect();
    assert!(
        untested.is_empty() && not_implemented.is_empty(),
        "implemented UCI rules without a test: {untested:?}; tested rules docs/rules.md does not mark implemented: {not_implemented:?}"
    );
    let others: BTreeSet<&str> = cat
        .iter()
        .filter(|r| r.status != "implemented")
        .map(|r| r.id.as_str())
        .collect();
    let skipped: BTreeSet<&str> = SKIPPED.iter().copied().collect();
    assert_eq!(
        others, skipped,
        "the UCI rules docs/rules.md does not mark implemented differ from SKIPPED (and the list at the top of this file)"
    );
}

// ---------------------------------------------------------------------------------------------
// A healthy session.

/// A game as a GUI and a well-behaved engine play it: handshake, options, a new game, two
/// searches on the clock, a ponder search that is hit, an analysis stopped by the GUI, quit.
const HEALTHY: &str = "
    0.000 ! spawned engine
    0.001 > uci
    0.010 < id name Engine 1.0
    0.011 < id author Tester
    0.012 < option name Hash type spin default 16 min 1 max 1024
    0.013 < option name Threads type spin default 1 min 1 max 64
    0.014 < option name Ponder type check default false
    0.015 < option name UCI_Chess960 type check default false
    0.016 < uciok
    0.020 > setoption name Hash value 64
    0.021 > setoption name Ponder value true
    0.022 > isready
    0.030 < readyok
    0.040 > ucinewgame
    0.041 > isready
    0.050 < readyok
    0.060 > position startpos moves e2e4
    0.061 > go wtime 60000 btime 60000 winc 1000 binc 1000
    0.200 < info depth 1 seldepth 1 multipv 1 score cp 20 nodes 20 nps 2000 time 10 pv e7e5
    0.400 < info depth 2 seldepth 3 multipv 1 score cp 15 nodes 400 nps 1333 time 300 pv e7e5 g1f3
    0.500 < bestmove e7e5 ponder g1f3
    0.501 > position startpos moves e2e4 e7e5 g1f3
    0.502 > go ponder wtime 60000 btime 60500 winc 1000 binc 1000
    0.600 < info depth 1 seldepth 1 multipv 1 score cp 10 nodes 30 nps 1500 time 20 pv b8c6
    1.000 > ponderhit
    1.200 < info depth 4 seldepth 6 multipv 1 score cp 12 nodes 3000 nps 4285 time 700 pv b8c6 f1b5 a7a6
    1.300 < bestmove b8c6 ponder f1b5
    1.400 > position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5
    1.401 > go wtime 59000 btime 60200 winc 1000 binc 1000
    1.600 < info depth 3 seldepth 4 multipv 1 score cp 15 nodes 900 nps 4500 time 199 pv a7a6 b5a4 g8f6
    1.700 < bestmove a7a6 ponder b5a4
    1.800 > position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6
    1.801 > go infinite
    2.000 < info depth 5 seldepth 7 multipv 1 score cp 30 nodes 5000 nps 25000 time 199 pv b5a4 g8f6 e1g1
    3.000 > isready
    3.001 < readyok
    3.500 > stop
    3.501 < info depth 7 seldepth 9 multipv 1 score cp 28 nodes 50000 nps 29411 time 1700 pv b5a4 g8f6 e1g1
    3.502 < bestmove b5a4 ponder g8f6
    3.600 > quit
    3.650 ! engine_exit code=0 engine exited with code 0
";

#[test]
fn a_healthy_session_breaks_no_rule_of_weight() {
    let report = report_of(HEALTHY, &[]);
    let serious: Vec<String> = all_findings(&report)
        .iter()
        .filter(|f| f.severity >= Severity::Warning)
        .map(show)
        .collect();
    assert!(
        serious.is_empty(),
        "a healthy session reported warnings or errors:\n{}\nall findings:\n{}",
        serious.join("\n"),
        show_all(&report)
    );
    let uci: Vec<String> = all_findings(&report)
        .iter()
        .filter(|f| f.rule.as_str().starts_with("UCI-"))
        .map(show)
        .collect();
    assert!(
        uci.is_empty(),
        "a healthy session reported UCI findings:\n{}",
        uci.join("\n")
    );
    let h = hangs(&report);
    assert!(h.is_empty(), "a healthy session has hang verdicts: {h:?}");
    // The report did judge the session (not an empty or unreadable file).
    assert_eq!(
        report.files[0].sessions[0].protocol,
        Some("uci"),
        "{report:#?}"
    );
}

#[test]
fn the_healthy_session_under_every_profile() {
    for profile in ["spec", "cutechess", "fastchess", "python-chess", "xboard"] {
        let report = report_of(HEALTHY, &["--profile", profile]);
        let serious: Vec<String> = all_findings(&report)
            .iter()
            .filter(|f| f.severity >= Severity::Warning)
            .map(show)
            .collect();
        assert!(
            serious.is_empty(),
            "profile {profile}: a healthy session reported warnings or errors:\n{}",
            serious.join("\n")
        );
    }
}
