//! `kibitzer probe --c2w PROFILE`: the engine driven as Chess Academy drives it under the
//! profile, judged by the C2W- rules too. Real engines under the shipped profiles agree with
//! them; a scripted engine (tests/engines/winboard_caps.py) with capabilities a profile
//! overstates gets each disagreement named by the right rule in the right step.

use crate::common;
use crate::probe_support;

use common::{engine, kibitzer};
use kibitzer::rules::Side;
use kibitzer::rules::report::CheckReport;
use probe_support::*;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/c2w")
        .join(name)
}

/// A profile for the scripted engine started with `options`, written into `dir`.
fn caps_profile(dir: &Path, name: &str, options: &str, keys: &str) -> PathBuf {
    let engines = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines");
    let text = format!(
        "EnginePath={}\nEngineName=WinboardCaps\nEngineSwitch=winboard_caps.py {options}\n\
         EngineVersion=1.0\n{keys}",
        engines.display()
    );
    let p = dir.join(format!("{name}.c2w"));
    std::fs::write(&p, text).expect("profile");
    p
}

fn probe_c2w(profile: &Path) -> Probed {
    probe(
        &[
            "--c2w",
            profile.to_str().expect("utf-8"),
            "--c2w-allow-outside",
            "--timeout",
            "3",
        ],
        &[],
    )
}

/// C2W- findings of the GUI side: the probe itself must keep to the profile it follows.
fn gui_c2w(p: &Probed) -> Vec<String> {
    p.report
        .steps
        .iter()
        .flat_map(|s| &s.findings)
        .filter(|f| f.rule.as_str().starts_with("C2W-") && f.side == Side::Gui)
        .map(|f| format!("{}: {}", f.rule, f.message))
        .collect()
}

#[test]
fn fairymax_agrees_with_its_profile() {
    engine("fairymax");
    let p = probe_c2w(&fixture("fairymax.c2w"));
    assert_eq!(p.status, 0, "{}", p.text());
    assert_eq!(gui_c2w(&p), Vec::<String>::new());
    let c2w = p.report.c2w.as_ref().expect("the profile in the card");
    assert_eq!(c2w.engine, "Fairy-Max 5.0b");
    assert!(
        c2w.drive
            .iter()
            .any(|d| d.starts_with("positions: edit (EngineInitPos=1 (profile line")),
        "{:?}",
        c2w.drive
    );
    // The profile's EngineMoveNow=0: no `?`, and the card says why.
    assert_eq!(p.status_of("cecp.move-now"), Status::NotApplicable);
    assert!(
        p.step("cecp.move-now")
            .reason
            .as_ref()
            .is_some_and(|r| r.contains("EngineMoveNow=0 (profile line 10)")),
        "{:?}",
        p.step("cecp.move-now")
    );
    assert_eq!(p.status_of("c2w.hint"), Status::Passed, "{}", p.text());
    assert_eq!(p.status_of("c2w.draw"), Status::NotApplicable);
    assert_eq!(p.status_of("cecp.options"), Status::NotApplicable);
    // Positions went in with edit, and the game from one was played to its end.
    let rec = std::fs::read_to_string(&p.recording).unwrap();
    assert!(
        rec.contains("\"text\":\"edit\""),
        "no edit in the recording"
    );
    assert!(
        !rec.contains("\"text\":\"setboard"),
        "setboard sent under an edit profile"
    );
    assert!(
        !rec.contains("\"text\":\"?\""),
        "? sent under EngineMoveNow=0"
    );
    // `check` on the kept recording holds it to the profile in its header.
    let out = kibitzer()
        .args(["check", "--format", "json"])
        .arg(&p.recording)
        .output()
        .unwrap();
    let report: CheckReport = serde_json::from_slice(&out.stdout).unwrap();
    let file = &report.files[0];
    assert!(
        file.c2w_from_header
            .as_ref()
            .is_some_and(|f| f.ends_with("fairymax.c2w")),
        "{file:#?}"
    );
}

#[test]
fn a_gnuchess_like_engine_under_the_gnuchess_profile() {
    // GNU Chess 6.2.7's manners, scripted (the real engine negotiates in only some starts,
    // see record_gnuchess.rs), under the keys of tests/fixtures/c2w/gnuchess.c2w.
    let dir = tempfile::tempdir().unwrap();
    let keys = "EngineInitPos=1\nEngineCmdSB=setboard\nEngineMoveNow=1\nEngineCmdST=st\n\
                EngineCmdSD=depth\nEngineTypeOfCmdLevel=6\n";
    let profile = caps_profile(dir.path(), "gnu", "--gnu --sd depth", keys);
    let p = probe_c2w(&profile);
    assert_eq!(
        p.status_of("cecp.handshake"),
        Status::Passed,
        "{}",
        p.text()
    );
    assert_eq!(gui_c2w(&p), Vec::<String>::new());
    // `depth` is the profile's word for sd: sent, and no unknown command.
    let rec = std::fs::read_to_string(&p.recording).unwrap();
    assert!(rec.contains("\"text\":\"depth 3\""), "no depth 3 sent");
    assert!(
        !p.all_rules().contains(&"CECP-UNKNOWN-COMMAND"),
        "{}",
        p.text()
    );
    assert!(
        !p.all_rules().contains(&"C2W-DECLARED-REFUSED"),
        "{}",
        p.text()
    );
}

#[test]
#[ignore = "live GNU Chess 6.2.7 answers `protover 2` in only 1-5 of 10 starts (upstream race); \
            the scripted test above covers its manners; run with `-- --ignored gnuchess`"]
fn live_gnuchess_under_its_profile() {
    engine("gnuchess");
    for _ in 0..10 {
        let p = probe_c2w(&fixture("gnuchess.c2w"));
        if p.status_of("cecp.handshake") != Status::Passed {
            continue;
        }
        assert_eq!(gui_c2w(&p), Vec::<String>::new());
        assert!(
            !p.all_rules().contains(&"CECP-UNKNOWN-COMMAND"),
            "{}",
            p.text()
        );
        return;
    }
    panic!("gnuchess never negotiated in 10 starts");
}

#[test]
fn a_colchess_profile_drives_fen_lines_hash_lines_and_draw() {
    let dir = tempfile::tempdir().unwrap();
    let profile = caps_profile(
        dir.path(),
        "colchess",
        "--init fen-lines --hash hash --draw accept",
        "EngineInitPos=1\nEngineCmdSB=fen\\n\nEngineMoveNow=1\nEngineCmdST=st\nEngineCmdSD=sd\n\
         EngineTypeOfCmdLevel=6\nEngineCmdHint=hint\nEngineCmdDraw=draw\n\
         EngineTypeOfCmdHash=16\nEngineCmdHash=hash\\n\n",
    );
    let p = probe_c2w(&profile);
    assert_eq!(p.status, 0, "{}", p.text());
    assert_eq!(p.all_rules(), Vec::<&str>::new(), "{}", p.text());
    for step in [
        "cecp.position-fen",
        "cecp.game",
        "c2w.hash",
        "c2w.hint",
        "c2w.draw",
    ] {
        assert_eq!(p.status_of(step), Status::Passed, "{step}: {}", p.text());
    }
    let rec = std::fs::read_to_string(&p.recording).unwrap();
    // The FEN a line per element, and the hash size on the line after `hash`.
    assert!(rec.contains("\"text\":\"fen\""), "no bare fen line");
    assert!(rec.contains("\"text\":\"hash\""), "no bare hash line");
    let draw = p.step("c2w.draw").observations.join("\n");
    assert!(draw.contains("accepted the draw"), "{draw}");
}

#[test]
fn each_claim_the_engine_does_not_keep_is_named_in_its_step() {
    let dir = tempfile::tempdir().unwrap();
    // The profile claims everything; the engine has edit only, no ?, no st, `depth`,
    // minutes-only level, a silent hint, no draw, no hash.
    let profile = caps_profile(
        dir.path(),
        "overstated",
        "--init edit --movenow no --st no --sd depth --level minutes --hint silent --draw no",
        "EngineInitPos=1\nEngineCmdSB=setboard\nEngineMoveNow=1\nEngineCmdST=st\n\
         EngineCmdSD=sd\nEngineTypeOfCmdLevel=6\nEngineCmdHint=hint\nEngineCmdDraw=draw\n\
         EngineTypeOfCmdHash=12\nEngineCmdHash=hash\n",
    );
    let p = probe_c2w(&profile);
    assert_eq!(p.status, 1, "{}", p.text());
    let refused = |step: &str, what: &str| {
        let f = p
            .step(step)
            .findings
            .iter()
            .find(|f| f.rule == "C2W-DECLARED-REFUSED" && f.message.contains(what));
        assert!(f.is_some(), "{step}: no refusal of {what}: {}", p.text());
        assert_eq!(p.status_of(step), Status::Violated);
    };
    refused("cecp.go-clocks", "`st`");
    refused("cecp.go-clocks", "`level 40 0:30 0`");
    refused("cecp.new-resets-depth", "`sd`");
    refused("cecp.move-now", "`?`");
    refused("cecp.position-fen", "`setboard`");
    refused("c2w.hash", "`hash`");
    refused("c2w.draw", "`draw`");
    p.expect("c2w.hint", "C2W-HINT-SILENT", Severity::Warning);
    // The probe's own lines keep to the profile, however wrong the profile is.
    assert_eq!(gui_c2w(&p), Vec::<String>::new());
    // The engine is not given up on for a hint it did not give.
    assert_eq!(p.status_of("cecp.quit"), Status::Passed, "{}", p.text());
    let out = kibitzer()
        .args(["probe", "--color", "never", "--timeout", "3", "--c2w"])
        .arg(&profile)
        .arg("--c2w-allow-outside")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("profile and engine: disagree (C2W-DECLARED-REFUSED x"),
        "{text}"
    );
}

#[test]
fn a_bad_profile_or_a_non_cecp_protocol_is_refused_with_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.c2w");
    std::fs::write(&bad, "EngineName=X\nEngineMoveNow=2\n").unwrap();
    let out = kibitzer()
        .args(["probe", "--c2w"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.c2w:2: EngineMoveNow=2: expected 0 or 1"),
        "{err}"
    );
    let out = kibitzer()
        .args(["probe", "--protocol", "uci", "--c2w"])
        .arg(fixture("fairymax.c2w"))
        .arg("--c2w-allow-outside")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // The profile decides positions and clocks: xboard-style overrides are refused.
    let clash = kibitzer()
        .args(["probe", "--cecp-clock", "st", "--c2w"])
        .arg(fixture("fairymax.c2w"))
        .arg("--c2w-allow-outside")
        .output()
        .unwrap();
    assert_eq!(clash.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("WinBoard (xboard) engines only"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
