//! Open-ended searches tested for what they are: an engine that takes `go infinite` or `go
//! ponder` for a search with a limit of its own, and ends it by itself, fails the card; one
//! that waits for `stop` passes.

use crate::probe_support::*;
use kibitzer::probe::report::Status;
use kibitzer::rules::Severity;

fn scenario(name: &str, extra: &[&str]) -> Probed {
    let s = script("scenario_engine.py");
    let mut args = vec!["--protocol", "uci", "--timeout", "5"];
    args.extend_from_slice(extra);
    probe(&args, &["python3", &s, name])
}

/// A default of 0.2 s and one of 0.8 s: both inside the full probe's second.
#[test]
fn infinite_ended_by_itself_within_a_second_fails_the_card() {
    for engine in ["infinite-as-200-ms", "infinite-as-800-ms"] {
        let p = scenario(engine, &[]);
        p.expect(
            "uci.go-infinite-stop",
            "UCI-BESTMOVE-IN-INFINITE",
            Severity::Error,
        );
        assert_eq!(p.status, 1, "{engine}: {}", p.text());
    }
}

#[test]
fn quick_waits_less_and_says_so_on_the_card() {
    let p = scenario("infinite-as-800-ms", &["--quick"]);
    let step = p.step("uci.go-infinite-stop");
    assert_eq!(step.status, Status::Passed, "{}", p.text());
    assert!(
        step.observations
            .iter()
            .any(|o| o.contains("--quick") && o.contains("not caught")),
        "{}",
        p.text()
    );
}

#[test]
fn ponder_taken_for_an_ordinary_search_fails_the_card() {
    let p = scenario("ponder-as-search", &[]);
    p.expect("uci.ponderhit", "UCI-BESTMOVE-IN-PONDER", Severity::Error);
    assert_eq!(p.status, 1, "{}", p.text());
}

#[test]
fn an_engine_that_waits_for_stop_passes_the_step() {
    let p = scenario("well-behaved", &["--quick"]);
    assert_eq!(
        p.status_of("uci.go-infinite-stop"),
        Status::Passed,
        "{}",
        p.text()
    );
    assert!(
        !p.all_rules()
            .iter()
            .any(|r| r.starts_with("UCI-BESTMOVE-IN-")),
        "{}",
        p.text()
    );
}
