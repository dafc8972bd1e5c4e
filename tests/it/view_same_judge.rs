//! The viewer runs the one judge: on every shipped recording and corpus log, the findings it
//! shows are exactly those `kibitzer check` reports (rule, line, event, severity, message).

use crate::common;

use kibitzer::rules::Profile;
use kibitzer::rules::report::CheckReport;
use std::path::Path;

fn inputs() -> Vec<String> {
    let mut v = Vec::new();
    for dir in ["recordings", "tests/fixtures/corpus"] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let ext = p.extension().and_then(|x| x.to_str());
            if matches!(ext, Some("jsonl" | "log")) && !p.to_string_lossy().ends_with(".client.log")
            {
                v.push(p.to_string_lossy().into_owned());
            }
        }
    }
    v.sort();
    v
}

type Key = (String, Option<u64>, u64, String, String);

fn from_check(file: &str) -> Vec<Key> {
    let out = common::kibitzer()
        .args(["check", "--format", "json", "--min-severity", "chat", file])
        .output()
        .unwrap();
    let report: CheckReport = serde_json::from_slice(&out.stdout).unwrap();
    let mut keys: Vec<Key> = report.files[0]
        .findings
        .iter()
        .map(|f| {
            (
                f.rule.to_string(),
                f.line,
                f.seq,
                f.severity.as_str().to_owned(),
                f.message.clone(),
            )
        })
        .collect();
    keys.sort();
    keys
}

/// The viewer's findings of `file`, as `from_check` gives `check`'s.
fn from_view(f: &str) -> Vec<Key> {
    let doc = kibitzer::tui::load::read_file(
        Path::new(f),
        None,
        None,
        Profile::named("cutechess").unwrap(),
    )
    .unwrap();
    let mut shown: Vec<Key> = doc
        .findings
        .iter()
        .map(|x| {
            (
                x.rule.to_string(),
                x.line,
                x.seq,
                x.severity.as_str().to_owned(),
                x.message.clone(),
            )
        })
        .collect();
    shown.sort();
    shown
}

#[test]
fn a_recording_made_under_a_c2w_profile_is_held_to_it_in_the_viewer_too() {
    // The shipped Fairy-Max session, its header's profile changed so that the GUI's `sd 4`
    // breaks it (as tests/rules_c2w.rs does for `check`).
    let dir = tempfile::tempdir().unwrap();
    let rec = common::fairymax_c2w_recording_breaking_its_profile(dir.path());
    let rec = rec.to_string_lossy().into_owned();
    let shown = from_view(&rec);
    assert!(shown.iter().any(|k| k.0 == "C2W-SD-COMMAND"), "{shown:#?}");
    assert_eq!(shown, from_check(&rec));
}

#[test]
fn the_viewer_shows_what_check_reports() {
    let files = inputs();
    assert!(files.len() > 20, "{files:?}");
    for f in files {
        let shown = from_view(&f);
        assert_eq!(shown, from_check(&f), "{f}");
    }
}
