//! The two real NBoard engines, NTest and Edax 4.6, built from their public sources and
//! driven as the NBoard GUI drives an engine (scripts/nboard-engines.sh with
//! scripts/nboard-driver.py): whole games against themselves, hints, contempt, learn,
//! analyze, passes, a game to its end. The recordings are shipped in
//! tests/fixtures/nboard-real/ with the driver's own GGF of each game, beside each engine's
//! `kibitzer probe` recording (ENGINE-probe.jsonl); nothing here builds or runs the engines.

use crate::common::kibitzer;
use crate::view_app::{app_with, open};
use crate::view_screens::screen;
use kibitzer::rules::Severity;
use kibitzer::rules::report::CheckReport;
use kibitzer::tui::Options;
use std::path::{Path, PathBuf};

const ENGINES: [&str; 2] = ["ntest", "edax"];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/nboard-real/{name}"))
}

/// The moves of each game of a GGF text, upper-cased, evals and times left out.
fn games(ggf: &str) -> Vec<Vec<String>> {
    ggf.split("(;")
        .skip(1)
        .map(|g| {
            let mut moves = Vec::new();
            let mut rest = g;
            while let Some(i) = rest.find('[') {
                let tag = &rest[..i];
                let Some(end) = rest[i..].find(']') else {
                    break;
                };
                let value = &rest[i + 1..i + end];
                // A move property is `B[` or `W[` on its own, not the end of `PB[` / `PW[`.
                if tag == "B" || tag == "W" {
                    moves.push(value.split('/').next().unwrap_or("").to_ascii_uppercase());
                }
                rest = &rest[i + end + 1..];
            }
            moves
        })
        .collect()
}

#[test]
fn real_nboard_sessions_have_no_error_and_no_warning() {
    for name in ENGINES {
        let path = fixture(&format!("{name}.jsonl"));
        let out = kibitzer()
            .args(["check", "--format", "json"])
            .arg(&path)
            .output()
            .unwrap();
        let report: CheckReport = serde_json::from_slice(&out.stdout).unwrap();
        let file = &report.files[0];
        let loud: Vec<String> = file
            .findings
            .iter()
            .filter(|f| f.severity >= Severity::Warning)
            .map(|f| format!("{}:{}: {} {}", name, f.line.unwrap_or(0), f.rule, f.message))
            .collect();
        assert!(loud.is_empty(), "{}", loud.join("\n"));
        // The engine's free text (NTest's banner and learning report, Edax's search table) is
        // noted once, not line by line.
        let free_text = file
            .findings
            .iter()
            .filter(|f| f.rule == "NBOARD-UNKNOWN-COMMAND")
            .count();
        assert_eq!(free_text, 1, "{name}: free text noted {free_text} times");
    }
}

#[test]
fn real_nboard_games_export_to_the_games_the_gui_played() {
    for name in ENGINES {
        let want = games(&std::fs::read_to_string(fixture(&format!("{name}.ggf"))).unwrap());
        let out = kibitzer()
            .args(["export", "--ggf"])
            .arg(fixture(&format!("{name}.jsonl")))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = games(&String::from_utf8_lossy(&out.stdout));
        assert_eq!(want.len(), 2, "{name}: the driver played two games");
        assert!(
            want.iter().flatten().any(|m| m == "PA"),
            "{name}: a game with a pass"
        );
        assert_eq!(got, want, "{name}: exported games differ from the GUI's");
    }
}

#[test]
fn view_shows_the_board_search_lines_and_evals_of_real_engines() {
    for name in ENGINES {
        let rel = format!("tests/fixtures/nboard-real/{name}.jsonl");
        let text = std::fs::read_to_string(fixture(&format!("{name}.jsonl"))).unwrap();
        // The first search line answering the second hint (a position a few moves in).
        let hint = text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains(r#""src":"gui","text":"hint 3""#))
            .nth(1)
            .map(|(i, _)| i)
            .unwrap();
        let line = text
            .lines()
            .enumerate()
            .skip(hint)
            .find(|(_, l)| l.contains(r#""src":"engine","text":"search "#))
            .map(|(i, _)| i as u64 + 1)
            .unwrap();
        let doc = open(&rel);
        let opts = Options {
            start_line: Some(line),
            ..Options::default()
        };
        let a = app_with(&doc, opts, 160, 45);
        let s = screen(&a, &doc, 160, 45);
        assert!(s.contains("board · game 1"), "{name}: no board\n{s}");
        assert!(s.contains('●'), "{name}: no discs on the board\n{s}");
        assert!(s.contains("← search"), "{name}: no search line\n{s}");
        // The detail of the selected search line: its eval and its PV, read as fields.
        assert!(
            s.contains("fields depth ") && s.contains(" · eval ") && s.contains(" · pv "),
            "{name}: the search line's eval is not shown\n{s}"
        );
        assert!(s.contains("answers `hint 3`"), "{name}\n{s}");
    }
}

/// The probe of each real engine, run by the script as a user runs it (`ntest x` in its build
/// directory, Edax at its default level) and kept: `kibitzer replay --as-engine` stands in for
/// the engine, and the probe, detection included, must pass again with no warning. The
/// driver's recordings cannot stand in: the stand-in answers only what its recording was
/// asked, and the driver's first requests (`set game` before `set depth`, a `hint` first) are
/// not the probe's, so those answer nothing past `nboard 2`.
#[test]
fn the_real_engines_pass_the_probe_from_their_probe_recordings() {
    for name in ENGINES {
        let rec = fixture(&format!("{name}-probe.jsonl"));
        let p = crate::probe_support::probe(
            &[],
            &[
                env!("CARGO_BIN_EXE_kibitzer"),
                "replay",
                "--as-engine",
                rec.to_str().unwrap(),
            ],
        );
        let why = format!("{name}:\n{}", p.text());
        assert_eq!(p.report.verdict, "passed", "{why}");
        assert_eq!(p.status, 0, "{why}");
        assert_eq!(p.report.engine.protocol, "nboard", "{why}");
        assert_eq!(p.report.steps.len(), 13, "{why}");
        assert!(
            p.report
                .steps
                .iter()
                .all(|s| s.status == crate::probe_support::Status::Passed),
            "{why}"
        );
        assert!(
            !p.stderr.contains("no recorded answer"),
            "the stand-in answered every request: {}",
            p.stderr
        );
    }
}
