//! `kibitzer probe` against scripted faulty engines (tests/engines/scenario_engine.py): each
//! fault is caught by the right rule id, in the right step, on a line of that step; a hanging
//! engine gives a verdict within the timeouts, not a hang.

use crate::probe_support;

use probe_support::*;
use std::time::{Duration, Instant};

/// Answers of the scripted engines come in milliseconds; 3 s keeps a loaded CI machine from
/// tripping the deadlines while the timeouts the faults need stay short.
const TIMEOUT: &str = "3";

fn scenario(name: &str, protocol: &str, extra: &[&str]) -> Probed {
    let s = script("scenario_engine.py");
    let mut args = vec!["--protocol", protocol, "--timeout", TIMEOUT];
    args.extend_from_slice(extra);
    probe(&args, &["python3", &s, name])
}

#[test]
fn illegal_bestmove_is_uci_bestmove_illegal() {
    let p = scenario("illegal-bestmove", "uci", &[]);
    let f = p.expect("uci.go-depth", "UCI-BESTMOVE-ILLEGAL", Severity::Error);
    assert!(f.message.contains("e2e5"), "{f:?}");
    assert_eq!(p.status, 1);
}

#[test]
fn readyok_only_after_the_search_is_readyok_delayed_by_search() {
    let p = scenario("readyok-after-search", "uci", &[]);
    p.expect(
        "uci.isready-searching",
        "UCI-READYOK-DELAYED-BY-SEARCH",
        Severity::Warning,
    );
    // Idle isready is answered: that step is fine.
    assert_eq!(
        p.status_of("uci.isready-idle"),
        Status::Passed,
        "{}",
        p.text()
    );
}

#[test]
fn a_held_back_readyok_that_follows_the_bestmove_late_is_still_the_steps() {
    // The readyok comes 0.3 s after the bestmove (as under load, when it is read a moment
    // later): the step waits for it instead of giving the engine up.
    let p = scenario("readyok-late-after-search", "uci", &[]);
    p.expect(
        "uci.isready-searching",
        "UCI-READYOK-DELAYED-BY-SEARCH",
        Severity::Warning,
    );
    assert_eq!(
        p.status_of("uci.stop-timed"),
        Status::Passed,
        "the suite went on: {}",
        p.text()
    );
}

#[test]
fn isready_that_ends_the_search_is_isready_stops_search() {
    let p = scenario("isready-stops-search", "uci", &[]);
    p.expect(
        "uci.isready-searching",
        "UCI-ISREADY-STOPS-SEARCH",
        Severity::Warning,
    );
}

#[test]
fn an_engine_that_never_answers_isready_gets_a_verdict_and_the_rest_is_not_run() {
    let began = Instant::now();
    let p = scenario("no-readyok", "uci", &[]);
    // The first isready is the options step's.
    p.expect("uci.options", "UCI-ISREADY-TIMEOUT", Severity::Error);
    let hangs = &p.step("uci.options").hangs;
    assert!(!hangs.is_empty(), "the hang verdict is in the step");
    assert_eq!(p.status_of("uci.quit"), Status::NotRun);
    assert!(p.report.killed);
    assert_eq!(p.status, 1);
    // A verdict within the timeouts (3 s wait + 3 s to settle, and the kill), not a hang.
    assert!(
        began.elapsed() < Duration::from_secs(40),
        "{:?}",
        began.elapsed()
    );
}

#[test]
fn ignoring_stop_is_bestmove_missing_after_stop() {
    let p = scenario("ignores-stop", "uci", &[]);
    p.expect(
        "uci.go-infinite-stop",
        "UCI-BESTMOVE-MISSING-AFTER-STOP",
        Severity::Error,
    );
    // The engine given up on is started again: the next step runs on the fresh process.
    let next = p.step("uci.isready-searching");
    assert_ne!(next.status, Status::NotRun, "{}", p.text());
    assert_eq!(next.start, Some(2), "{}", p.text());
}

#[test]
fn leaving_ponder_on_its_own_is_bestmove_in_ponder() {
    let p = scenario("bestmove-in-ponder", "uci", &[]);
    p.expect("uci.ponderhit", "UCI-BESTMOVE-IN-PONDER", Severity::Error);
}

#[test]
fn info_after_bestmove_is_caught() {
    let p = scenario("info-after-bestmove", "uci", &[]);
    p.expect("uci.go-depth", "UCI-INFO-AFTER-BESTMOVE", Severity::Warning);
}

#[test]
fn not_exiting_on_quit_is_uci_quit_no_exit() {
    let p = scenario("ignores-quit", "uci", &[]);
    p.expect("uci.quit", "UCI-QUIT-NO-EXIT", Severity::Warning);
    assert!(p.report.killed);
}

#[test]
fn a_crash_mid_search_is_x_engine_exit_and_the_next_step_runs_on_a_restart() {
    let p = scenario("crash-mid-search", "uci", &[]);
    p.expect("uci.go-depth", "X-ENGINE-EXIT", Severity::Error);
    // The engine crashes in every search of two plies or more: restarted, it passes the
    // short search of the next step, and crashes again; the restarts are bounded.
    let next = p.step("uci.go-nodes");
    assert_eq!(next.status, Status::Passed, "{}", p.text());
    assert_eq!(next.start, Some(2));
    let starts = p.report.starts.len();
    assert!((3..=5).contains(&starts), "{starts} starts\n{}", p.text());
    assert_eq!(p.status_of("uci.quit"), Status::NotRun, "{}", p.text());
    assert!(
        p.report
            .exit
            .as_ref()
            .is_some_and(|e| e.contains("SIGSEGV")),
        "{:?}",
        p.report.exit
    );
}

#[test]
fn a_well_behaved_scripted_uci_engine_passes_the_protocol_steps() {
    // The scripted engine knows no chess (it plays a fixed opening), so the steps whose
    // positions leave that line are judged on its moves; the protocol steps must pass.
    let p = scenario("well-behaved", "uci", &[]);
    for id in [
        "uci.handshake",
        "uci.options",
        "uci.isready-idle",
        "uci.newgame",
        "uci.go-depth",
        "uci.go-movetime",
        "uci.go-infinite-stop",
        "uci.isready-searching",
        "uci.stop-timed",
        "uci.quit",
    ] {
        assert_eq!(p.status_of(id), Status::Passed, "{id}\n{}", p.text());
    }
    assert_eq!(p.status_of("uci.chess960"), Status::NotApplicable);
}

#[test]
fn cecp_illegal_engine_move_is_cecp_move_illegal() {
    let p = scenario("cecp-illegal-move", "xboard", &[]);
    p.expect("cecp.go-clocks", "CECP-MOVE-ILLEGAL", Severity::Error);
}

#[test]
fn cecp_pong_before_the_move_is_caught() {
    let p = scenario("cecp-pong-before-move", "xboard", &[]);
    p.expect(
        "cecp.ping-thinking",
        "CECP-PONG-BEFORE-MOVE",
        Severity::Error,
    );
}

#[test]
fn cecp_without_ping_has_its_ping_steps_not_applicable() {
    let p = scenario("cecp-no-ping", "xboard", &[]);
    assert!(
        p.all_rules().contains(&"CECP-PING-NOT-DECLARED"),
        "{:?}",
        p.all_rules()
    );
    assert_eq!(p.status_of("cecp.ping-idle"), Status::NotApplicable);
    assert_eq!(p.status_of("cecp.ping-thinking"), Status::NotApplicable);
}

#[test]
fn cecp_answering_every_move_illegal_is_cecp_illegal_move_reply() {
    let p = scenario("cecp-illegal-move-reply", "xboard", &[]);
    p.expect(
        "cecp.force-moves",
        "CECP-ILLEGAL-MOVE-REPLY",
        Severity::Error,
    );
}

#[test]
fn cecp_overrunning_st_is_cecp_st_exceeded() {
    let p = scenario("cecp-slow-move", "xboard", &["--cecp-clock", "st"]);
    p.expect("cecp.go-clocks", "CECP-ST-EXCEEDED", Severity::Warning);
}

#[test]
fn cecp_engine_that_never_finishes_its_features_is_cecp_feature_timeout() {
    let p = scenario("cecp-banner-only", "xboard", &[]);
    p.expect("cecp.handshake", "CECP-FEATURE-TIMEOUT", Severity::Error);
    assert_eq!(p.status_of("cecp.ping-idle"), Status::NotRun);
    assert_eq!(p.status, 1);
}

/// `=== f5 -1.00 0.0` is the protocol text's own example and what Edax sends; the reference
/// GUI reads the spaces as slashes on purpose (weltyc/othello ResponseParser.java).
#[test]
fn nboard_spaced_move_is_no_finding() {
    let p = scenario("nboard-spaced-move", "nboard", &[]);
    assert!(
        !p.all_rules().contains(&"NBOARD-MOVE-FORMAT"),
        "{}",
        p.text()
    );
}

/// Edax 4.6 complains of `nboard 2` on stderr and plays on: noted, as the reference GUI
/// never reads stderr; an engine that then stops answering fails on the ping and go rules.
#[test]
fn nboard_engine_refusing_version_2_is_nboard_version() {
    let p = scenario("nboard-version-1-only", "nboard", &[]);
    assert!(
        p.rules_of("nboard.handshake").contains(&"NBOARD-VERSION"),
        "{}",
        p.text()
    );
    assert_eq!(
        p.status_of("nboard.handshake"),
        Status::Passed,
        "{}",
        p.text()
    );
}

/// Learning is the one request an engine may take long over, but one that never ends is
/// still found: the ping after `learn` gets no pong, an error on the learn step.
#[test]
fn nboard_learning_that_never_ends_is_nboard_pong_timeout() {
    // The scripted NBoard engine plays every other step right; 1 s keeps the wait short.
    let s = script("nboard_engine.py");
    let p = probe(
        &["--protocol", "nboard", "--timeout", "1"],
        &["python3", &s, "--learn-forever"],
    );
    p.expect("nboard.learn", "NBOARD-PONG-TIMEOUT", Severity::Error);
    assert_eq!(p.status, 1, "{}", p.text());
    assert_eq!(
        p.status_of("nboard.analyze"),
        Status::Passed,
        "a fresh start runs the rest: {}",
        p.text()
    );
}

/// An engine that exits in the middle of the suite, whichever command it leaves on: the card
/// fails, names the exit, and passes no step the engine did not live through. (A race once
/// let such an engine through as PASSED with its remaining steps "not run".)
#[test]
fn an_engine_that_exits_mid_suite_fails_the_card_wherever_it_leaves() {
    for n in [3, 6, 8, 11, 14] {
        let p = scenario(&format!("exit-after-{n}"), "uci", &[]);
        let why = format!("exit after {n} commands:\n{}", p.text());
        assert_eq!(p.status, 1, "{why}");
        assert_eq!(p.report.verdict, "failed", "{why}");
        assert!(p.all_rules().contains(&"X-ENGINE-EXIT"), "{why}");
        // On each start of the engine, no step passes after the one it left in.
        for start in &p.report.starts {
            let on: Vec<_> = p
                .report
                .steps
                .iter()
                .filter(|s| s.start == Some(start.number))
                .collect();
            let last_passed = on.iter().rposition(|s| s.status == Status::Passed);
            // The scripted engine knows no chess: a step may be violated by its moves; the
            // step it left in is the one with the exit.
            let first_bad = on.iter().position(|s| {
                s.status == Status::NotRun || s.findings.iter().any(|f| f.rule == "X-ENGINE-EXIT")
            });
            if let Some(bad) = first_bad {
                assert!(
                    last_passed.is_none_or(|p| p < bad),
                    "start {}: {why}",
                    start.number
                );
            }
        }
    }
}

#[test]
fn a_cecp_engine_asking_for_time_with_done_0_gets_it() {
    // 2.5 s of loading after `feature done=0`: past the handshake's 2 s (`--timeout 1`), within
    // the second one `done=0` earns.
    let s = script("scenario_engine.py");
    let p = probe(
        &["--protocol", "xboard", "--timeout", "1"],
        &["python3", &s, "cecp-done0-slow"],
    );
    let step = p.step("cecp.handshake");
    assert_eq!(step.status, Status::Passed, "{}", p.text());
    // Waited for: the steps after it met an engine that had finished loading.
    assert!(
        step.observations
            .iter()
            .any(|o| o.starts_with("feature done=1 after")),
        "{}",
        p.text()
    );
}
