//! `kibitzer probe` against real engines (Debian's stockfish, fairymax, gnuchess) and the
//! scripted NBoard engine: the suite runs to its end, the report card follows its schema,
//! the recording is kept and `kibitzer check` reads it, and bad usage is exit status 2.

use crate::common;
use crate::probe_support;

use common::{engine, gnu_like, kibitzer};
use kibitzer::rules::report::CheckReport;
use probe_support::*;

fn statuses(p: &Probed) -> Vec<(&str, Status)> {
    p.report.steps.iter().map(|s| (s.id, s.status)).collect()
}

/// Whether one of the step's observations says `text`.
fn observed(p: &Probed, step: &str, text: &str) -> bool {
    p.step(step).observations.iter().any(|o| o.contains(text))
}

#[test]
fn stockfish_passes_every_uci_step_and_check_agrees() {
    let sf = engine("stockfish");
    let p = probe(&["--protocol", "uci"], &[sf.to_str().unwrap()]);
    assert_eq!(p.status, 0, "{}", p.text());
    let e = &p.report.engine;
    assert_eq!(e.protocol_reason, "given");
    assert!(
        e.name.as_ref().is_some_and(|n| n.starts_with("Stockfish")),
        "{e:?}"
    );
    // Stockfish declares UCI_Chess960 and Ponder: every step applies, and every one passes.
    for (id, status) in statuses(&p) {
        assert_eq!(status, Status::Passed, "{id}\n{}", p.text());
    }
    assert_eq!(p.report.steps.len(), 20);
    assert!(
        observed(&p, "uci.game", "(checkmate)"),
        "{:?}",
        p.step("uci.game").observations
    );
    // The recording is an ordinary recording: check reads it and finds what the probe found.
    let out = kibitzer()
        .args(["check", "--format", "json"])
        .arg(&p.recording)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let check: CheckReport = serde_json::from_slice(&out.stdout).unwrap();
    let mut rules: Vec<&str> = check.files[0]
        .findings
        .iter()
        .map(|f| f.rule.as_str())
        .filter(|r| !r.starts_with("REPLAY-"))
        .collect();
    rules.sort_unstable();
    rules.dedup();
    assert_eq!(rules, p.all_rules());
}

#[test]
fn fairymax_is_detected_and_passes_under_both_clock_families() {
    let fm = engine("fairymax");
    // No --protocol: detected (after `uci` went unanswered).
    let level = probe(&[], &[fm.to_str().unwrap()]);
    let e = &level.report.engine;
    assert_eq!(e.protocol, "xboard");
    assert!(e.protocol_reason.starts_with("detected"), "{e:?}");
    let st = probe(
        &["--protocol", "xboard", "--cecp-clock", "st"],
        &[fm.to_str().unwrap()],
    );
    for p in [&level, &st] {
        assert_eq!(p.status, 0, "{}", p.text());
        for (id, status) in statuses(p) {
            match id {
                // Fairy-Max declares no fischerandom among its variants.
                "cecp.chess960" => assert_eq!(status, Status::NotApplicable),
                // Fairy-Max refuses `?` (or has moved before it): nothing tested there.
                "cecp.move-now" => assert_eq!(status, Status::NotApplicable, "{}", p.text()),
                // It keeps `sd` past `new`: CECP-NEW-STATE, a warning.
                "cecp.new-resets-depth" => {
                    assert_eq!(status, Status::Violated, "{}", p.text());
                    assert!(p.rules_of(id).contains(&"CECP-NEW-STATE"), "{}", p.text());
                }
                _ => assert_eq!(status, Status::Passed, "{id}\n{}", p.text()),
            }
        }
        assert!(
            observed(p, "cecp.game", "(checkmate)"),
            "{:?}",
            p.step("cecp.game").observations
        );
    }
    // Fairy-Max has setboard=0: positions go through edit, which cannot say en passant.
    assert!(
        observed(&level, "cecp.position-fen", "edit cannot say en passant"),
        "{:?}",
        level.step("cecp.position-fen").observations
    );
    let clocks = level.step("cecp.go-clocks").observations.join("\n");
    assert!(
        clocks.contains("level 40 0:30 0") && !clocks.contains("sd 3"),
        "{clocks}"
    );
    // The depth limit has its own step, last but for quit.
    let depth = level.step("cecp.new-resets-depth").observations.join("\n");
    assert!(depth.contains("sd 3"), "{depth}");
    let clocks = st.step("cecp.go-clocks").observations.join("\n");
    assert!(
        clocks.contains("st 1") && !clocks.contains("level"),
        "{clocks}"
    );
}

#[test]
fn a_gnuchess_like_engine_gets_its_report_card() {
    // GNU Chess 6.2.7's manners, scripted (the real engine negotiates in only some starts,
    // see record_gnuchess.rs): the suite runs past the handshake, and its doubled pongs are a
    // finding of the steps that ping.
    let argv = gnu_like(&[]);
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    let p = probe(&["--protocol", "xboard", "--timeout", "5"], &argv);
    assert_eq!(
        p.status_of("cecp.handshake"),
        Status::Passed,
        "{}",
        p.text()
    );
    assert_ne!(
        p.status_of("cecp.go-clocks"),
        Status::NotRun,
        "{}",
        p.text()
    );
    assert!(
        p.all_rules().contains(&"CECP-PONG-DUPLICATE"),
        "{:?}",
        p.all_rules()
    );
    // Which step the second pong lands in depends on when it arrives (the next step may
    // have begun): the finding is the subject, not its step.
}

#[test]
fn a_gnuchess_start_that_lost_protover_is_a_feature_timeout() {
    // The hung start: `protover 2` lost at spawn, the banner, then silence.
    let argv = gnu_like(&["--lose-input", "2"]);
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    let p = probe(&["--protocol", "xboard", "--timeout", "3"], &argv);
    p.expect("cecp.handshake", "CECP-FEATURE-TIMEOUT", Severity::Error);
    assert_eq!(p.status, 1, "{}", p.text());
}

#[test]
#[ignore = "live GNU Chess 6.2.7 answers `protover 2` in only 1-5 of 10 starts (upstream race); \
            the scripted tests above cover its manners; run with `-- --ignored gnuchess`"]
fn live_gnuchess_gets_a_report_card() {
    let gc = engine("gnuchess");
    for _ in 0..10 {
        let p = probe(
            &["--protocol", "xboard", "--timeout", "5"],
            &[gc.to_str().unwrap(), "-x"],
        );
        if p.status_of("cecp.handshake") == Status::Passed {
            assert!(
                p.all_rules().contains(&"CECP-PONG-DUPLICATE"),
                "{:?}",
                p.all_rules()
            );
            return;
        }
    }
    panic!("gnuchess never negotiated in 10 starts");
}

#[test]
fn the_scripted_nboard_engine_passes_and_is_detected() {
    let s = script("nboard_engine.py");
    let p = probe(&[], &["python3", &s]);
    assert_eq!(p.report.engine.protocol, "nboard");
    assert_eq!(p.status, 0, "{}", p.text());
    for (id, status) in statuses(&p) {
        assert_eq!(status, Status::Passed, "{id}\n{}", p.text());
    }
}

#[test]
fn the_text_card_names_each_step_and_the_recording() {
    let s = script("scenario_engine.py");
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("p.jsonl");
    let out = kibitzer()
        .args([
            "probe",
            "--protocol",
            "uci",
            "--timeout",
            "3",
            "--recording",
        ])
        .arg(&rec)
        .args(["--", "python3", &s, "illegal-bestmove"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.contains("uci.go-depth") && !l.starts_with("FAILED because"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("violated"), "{line}");
    let finding = format!("{}:", rec.display());
    assert!(
        text.lines()
            .any(|l| l.contains(&finding) && l.contains("error[UCI-BESTMOVE-ILLEGAL]")),
        "{text}"
    );
    assert!(text.contains("verdict: FAILED"), "{text}");
    assert!(
        text.contains(&format!("recording: {}", rec.display())),
        "{text}"
    );
}

#[test]
fn bad_usage_and_an_engine_that_cannot_start_are_exit_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("p.jsonl");
    let out = kibitzer()
        .args(["probe", "--protocol", "uci", "--recording"])
        .arg(&rec)
        .args(["--", "/nonexistent/engine"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("kibitzer:") && err.contains("/nonexistent/engine"),
        "{err}"
    );

    let out = kibitzer()
        .args(["probe", "--protocol", "chess", "--", "stockfish"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid value"));

    let out = kibitzer()
        .args(["probe", "--timeout", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
