//! Every `C2W-` rule of docs/rules.md through `kibitzer check --c2w PROFILE`: each fires on a
//! short CECP session that breaks the profile, with the catalogue's side and severity, and stays
//! silent on the closest session that keeps to it (its near miss). The coverage test reads
//! docs/rules.md, so a C2W- rule marked implemented without both cases here fails it.

use crate::common;

use common::transcript::*;
use kibitzer::rules::report::CheckReport;
use std::collections::BTreeSet;
use std::path::Path;

const HEAD: &str = "EnginePath=/usr/games\nEngineName=Toy\nEngineSwitch=toy\nEngineVersion=1\n";

/// Fairy-Max's shape: `edit`, no `?`, st, sd, level with MIN:SEC and time, hint.
const EDIT: &str = "EngineInitPos=1\nEngineMoveNow=0\nEngineCmdST=st\nEngineCmdSD=sd\n\
                    EngineTypeOfCmdLevel=6\nEngineCmdHint=hint\n";
/// GNU Chess's shape: setboard, `?`, depth for sd, draw declared, no hint.
const FEN: &str = "EngineInitPos=1\nEngineCmdSB=setboard\nEngineMoveNow=1\nEngineCmdST=st\n\
                   EngineCmdSD=depth\nEngineTypeOfCmdLevel=6\nEngineCmdDraw=draw\n";
/// ColChess from the text: `fen\n`, level without seconds and no time, `hash\n` (16).
const COLCHESS: &str = "EngineInitPos=1\nEngineCmdSB=fen\\n\nEngineCmdST=st\n\
                        EngineTypeOfCmdLevel=1\nEngineTypeOfCmdHash=16\nEngineCmdHash=hash\\n\n";
/// Crafty's hash (11, `hash 32M`), base+inc only, no position set-up, no st.
const CRAFTY: &str = "EngineTypeOfCmdLevel=0\nEngineTypeOfCmdHash=11\nEngineCmdHash=hash\n";
/// GNU Chess 5's hash on the command line (48).
const CMDLINE_HASH: &str = "EngineInitPos=1\nEngineTypeOfCmdHash=48\n";

/// `xboard`, `protover 2`, the engine's features, `new`; bodies start at 0.03.
const PRE: &str = r#"
0.000 ! spawned toy
0.001 > xboard
0.002 > protover 2
0.010 < feature ping=1 setboard=1 myname="Toy 1.0" done=1
0.011 > accepted ping
0.012 > accepted setboard
0.013 > accepted myname
0.020 > new
"#;

const FEN_POS: &str = "8/k7/8/8/8/8/8/K6R w - - 0 1";

struct Case {
    rule: &'static str,
    what: &'static str,
    fires: (&'static str, String),
    near: (&'static str, String),
}

fn case(
    rule: &'static str,
    what: &'static str,
    fires: (&'static str, &str),
    near: (&'static str, &str),
) -> Case {
    Case {
        rule,
        what,
        fires: (fires.0, format!("{PRE}{}", fires.1)),
        near: (near.0, format!("{PRE}{}", near.1)),
    }
}

/// The report of `check --c2w` over a transcript under a profile body.
fn check_under(profile: &str, transcript: &str) -> CheckReport {
    let dir = tempfile::tempdir().expect("tempdir");
    let c2w = dir.path().join("toy.c2w");
    std::fs::write(&c2w, format!("{HEAD}{profile}")).expect("profile");
    let rec = recording(dir.path(), "t", transcript);
    let (report, _) = check_report(&rec, &["--c2w", c2w.to_str().expect("utf-8 path")]);
    report
}

/// Side and severity of the C2W- rules in docs/rules.md, and whether each is implemented.
fn catalogue() -> Vec<(String, String, String, bool)> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md"))
        .expect("docs/rules.md");
    text.lines()
        .filter_map(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            (c.len() >= 8 && c[1].starts_with("C2W-")).then(|| {
                (
                    c[1].to_owned(),
                    c[2].to_owned(),
                    c[3].to_owned(),
                    c[c.len() - 2] == "implemented",
                )
            })
        })
        .collect()
}

fn table() -> Vec<Case> {
    let think = "0.030 > level 40 5 0\n0.031 > e2e4\n";
    vec![
        case(
            "C2W-INITPOS-UNSUPPORTED",
            "setboard without EngineInitPos",
            (CRAFTY, &format!("0.030 > setboard {FEN_POS}\n")),
            (
                EDIT,
                "0.030 > edit\n0.031 > #\n0.032 > Ka1\n0.033 > Rh1\n0.034 > c\n0.035 > Ka7\n0.036 > .\n",
            ),
        ),
        case(
            "C2W-INITPOS-METHOD",
            "setboard where the profile says edit",
            (EDIT, &format!("0.030 > setboard {FEN_POS}\n")),
            (FEN, &format!("0.030 > setboard {FEN_POS}\n")),
        ),
        case(
            "C2W-INITPOS-METHOD",
            "edit where the profile names setboard",
            (
                FEN,
                "0.030 > edit\n0.031 > #\n0.032 > Ka1\n0.033 > c\n0.034 > Ka7\n0.035 > .\n",
            ),
            (
                EDIT,
                "0.030 > edit\n0.031 > #\n0.032 > Ka1\n0.033 > c\n0.034 > Ka7\n0.035 > .\n",
            ),
        ),
        case(
            "C2W-FEN-FORM",
            "fen on one line where the profile says fen\\n",
            (COLCHESS, &format!("0.030 > fen {FEN_POS}\n")),
            (
                COLCHESS,
                "0.030 > fen\n0.031 > 8/k7/8/8/8/8/8/K6R\n0.032 > w\n0.033 > -\n0.034 > -\n0.035 > 0\n0.036 > 1\n0.040 > force\n",
            ),
        ),
        case(
            "C2W-FEN-FORM",
            "an element missing from the fen\\n form",
            (
                COLCHESS,
                "0.030 > fen\n0.031 > 8/k7/8/8/8/8/8/K6R\n0.032 > w\n0.033 > force\n",
            ),
            (
                COLCHESS,
                "0.030 > fen\n0.031 > 8/k7/8/8/8/8/8/K6R\n0.032 > w\n0.033 > -\n0.034 > -\n0.035 > force\n",
            ),
        ),
        case(
            "C2W-ST-COMMAND",
            "st without EngineCmdST",
            (CRAFTY, "0.030 > st 5\n"),
            (EDIT, "0.030 > st 5\n"),
        ),
        case(
            "C2W-SD-COMMAND",
            "sd where the profile's word is depth",
            (FEN, "0.030 > sd 3\n"),
            (FEN, "0.030 > depth 3\n"),
        ),
        case(
            "C2W-LEVEL-FORM",
            "MIN:SEC under EngineTypeOfCmdLevel=1",
            (COLCHESS, "0.030 > level 40 5:30 0\n"),
            (COLCHESS, "0.030 > level 40 5 0\n"),
        ),
        case(
            "C2W-LEVEL-FORM",
            "moves per session under EngineTypeOfCmdLevel=0",
            (CRAFTY, "0.030 > level 40 5 0\n"),
            (CRAFTY, "0.030 > level 0 5 0\n"),
        ),
        case(
            "C2W-TIME-COMMAND",
            "time without 4 in EngineTypeOfCmdLevel",
            (
                COLCHESS,
                "0.030 > level 40 5 0\n0.031 > time 30000\n0.032 > otim 30000\n",
            ),
            (
                EDIT,
                "0.030 > level 40 5 0\n0.031 > time 30000\n0.032 > otim 30000\n",
            ),
        ),
        case(
            "C2W-HASH-FORM",
            "hash 32 where type 11 wants 32M",
            (CRAFTY, "0.030 > hash 32\n"),
            (CRAFTY, "0.030 > hash 32M\n"),
        ),
        case(
            "C2W-HASH-FORM",
            "hash N on one line where type 16 says hash\\n",
            (COLCHESS, "0.030 > hash 20\n"),
            (COLCHESS, "0.030 > hash\n0.031 > 20\n"),
        ),
        case(
            "C2W-HASH-FORM",
            "a hash command although the size is on the command line",
            (CMDLINE_HASH, "0.030 > hash 32\n"),
            (CMDLINE_HASH, "0.030 > new\n"),
        ),
        case(
            "C2W-MOVENOW-UNDECLARED",
            "? under EngineMoveNow=0",
            (EDIT, &format!("{think}0.500 > ?\n0.510 < move e7e5\n")),
            (FEN, &format!("{think}0.500 > ?\n0.510 < move e7e5\n")),
        ),
        case(
            "C2W-HINT-UNDECLARED",
            "hint without EngineCmdHint",
            (FEN, "0.030 > hint\n"),
            (EDIT, "0.030 > hint\n0.040 < Hint: e2e4\n"),
        ),
        case(
            "C2W-HINT-SILENT",
            "the declared hint gets no Hint: before the GUI's next command",
            (
                EDIT,
                &format!("{think}0.100 < move e7e5\n0.200 > hint\n2.200 > force\n"),
            ),
            (
                EDIT,
                &format!(
                    "{think}0.100 < move e7e5\n0.200 > hint\n0.210 < Hint: g1f3\n2.200 > force\n"
                ),
            ),
        ),
        case(
            "C2W-DRAW-UNDECLARED",
            "draw without EngineCmdDraw",
            (EDIT, &format!("{think}0.100 < move e7e5\n0.200 > draw\n")),
            (FEN, &format!("{think}0.100 < move e7e5\n0.200 > draw\n")),
        ),
        case(
            "C2W-DECLARED-REFUSED",
            "the engine refuses the draw the profile declares",
            (
                FEN,
                &format!(
                    "{think}0.100 < move e7e5\n0.200 > draw\n0.210 < Error (unknown command): draw\n"
                ),
            ),
            (FEN, "0.030 > foo\n0.040 < Error (unknown command): foo\n"),
        ),
        case(
            "C2W-DECLARED-REFUSED",
            "GNU Chess's answer to a declared depth command",
            (FEN, "0.030 > depth 3\n0.040 < Invalid move: depth 3\n"),
            (FEN, "0.030 > depth 3\n0.040 < Search to a depth of 3.\n"),
        ),
    ]
}

#[test]
fn every_case_fires_and_its_near_miss_stays_silent() {
    let cat = catalogue();
    let mut bad = Vec::new();
    for c in table() {
        let Some((_, side, severity, _)) = cat.iter().find(|r| r.0 == c.rule) else {
            bad.push(format!("{}: not in docs/rules.md", c.rule));
            continue;
        };
        let report = check_under(c.fires.0, &c.fires.1);
        let found = findings_of(&report, c.rule);
        if found.is_empty() {
            bad.push(format!(
                "{} [{}]: did not fire; fired {:?}",
                c.rule,
                c.what,
                rules_fired(&report)
            ));
        }
        for f in &found {
            if f.side.as_str() != side.as_str() || f.severity.as_str() != severity.as_str() {
                bad.push(format!("{} [{}]: side/severity of {f:?}", c.rule, c.what));
            }
        }
        let report = check_under(c.near.0, &c.near.1);
        let fired: Vec<String> = rules_fired(&report)
            .into_iter()
            .filter(|r| r.starts_with("C2W-"))
            .collect();
        if !fired.is_empty() {
            bad.push(format!(
                "{} [{}]: the near miss fired {fired:?}: {:?}",
                c.rule,
                c.what,
                findings_of(&report, &fired[0])
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_table_covers_every_implemented_c2w_rule() {
    let implemented: BTreeSet<String> = catalogue()
        .into_iter()
        .filter(|r| r.3)
        .map(|r| r.0)
        .collect();
    assert!(implemented.len() >= 12, "{implemented:?}");
    let covered: BTreeSet<String> = table().iter().map(|c| c.rule.to_owned()).collect();
    assert_eq!(implemented, covered);
}

#[test]
fn commands_the_profile_declares_are_not_unknown() {
    // `depth`, the `fen\n` form's element lines and `hash\n`'s value are no CECP commands, but
    // the profile declares them: no CECP-UNKNOWN-COMMAND for any.
    let report = check_under(
        COLCHESS,
        &format!(
            "{PRE}0.030 > fen\n0.031 > 8/k7/8/8/8/8/8/K6R\n0.032 > w\n0.033 > -\n0.034 > -\n\
             0.040 > hash\n0.041 > 20\n0.050 > bogus\n"
        ),
    );
    let unknown = findings_of(&report, "CECP-UNKNOWN-COMMAND");
    assert_eq!(unknown.len(), 1, "{unknown:?}");
    // The one at 0.050 s: `bogus`.
    assert_eq!(unknown[0].t_ns, 50_000_000, "{unknown:?}");
    let report = check_under(FEN, &format!("{PRE}0.030 > depth 3\n"));
    assert!(findings_of(&report, "CECP-UNKNOWN-COMMAND").is_empty());
    // Without --c2w the same lines are unknown commands.
    let dir = tempfile::tempdir().unwrap();
    let rec = recording(dir.path(), "t", &format!("{PRE}0.030 > depth 3\n"));
    assert_eq!(
        findings_of(&check_report(&rec, &[]).0, "CECP-UNKNOWN-COMMAND").len(),
        1
    );
}

#[test]
fn findings_name_the_profile_key_and_its_line() {
    let report = check_under(EDIT, &format!("{PRE}0.030 > setboard {FEN_POS}\n"));
    let f = findings_of(&report, "C2W-INITPOS-METHOD");
    let msg = &f[0].message;
    // HEAD has four lines: EngineInitPos is the profile's fifth.
    assert!(msg.contains("EngineInitPos=1 (profile line 5)"), "{msg}");
    assert!(
        report.c2w.as_ref().is_some_and(|p| p.ends_with("toy.c2w")),
        "{:?}",
        report.c2w
    );
}

#[test]
fn a_bad_profile_is_an_error_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let c2w = dir.path().join("bad.c2w");
    std::fs::write(
        &c2w,
        format!("{HEAD}EngineTypeOfCmdLevel=9\nEngineCmdFoo=x\n"),
    )
    .unwrap();
    let rec = recording(dir.path(), "t", PRE);
    let out = common::kibitzer()
        .args(["check", "--c2w"])
        .arg(&c2w)
        .arg(&rec)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.c2w:5: EngineTypeOfCmdLevel=9: expected"),
        "{err}"
    );
    assert!(
        err.contains("bad.c2w:6: unknown key `EngineCmdFoo`"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

/// A recording made with `record --c2w` carries its profile: `check` holds it to that profile
/// without `--c2w`, and says so; `--c2w` still chooses another.
#[test]
fn check_uses_the_profile_a_recording_was_made_under() {
    let src =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("recordings/fairymax-c2w.jsonl");
    // The same session, but the profile says the depth command is `depth`: the GUI's `sd 4`
    // breaks it.
    let dir = tempfile::tempdir().unwrap();
    let rec = common::fairymax_c2w_recording_breaking_its_profile(dir.path());
    let run = |p: &std::path::Path| {
        let out = common::kibitzer()
            .args(["check", "--format", "json"])
            .arg(p)
            .output()
            .unwrap();
        serde_json::from_slice::<CheckReport>(&out.stdout).unwrap()
    };
    let fired = |r: &CheckReport| -> Vec<&str> {
        r.files[0]
            .findings
            .iter()
            .map(|f| f.rule.as_str())
            .filter(|r| r.starts_with("C2W-"))
            .collect()
    };
    let r = run(&rec);
    assert_eq!(fired(&r), ["C2W-SD-COMMAND"], "{r:#?}");
    assert!(r.files[0].c2w_from_header.is_some(), "{r:#?}");
    // The shipped recording keeps to the profile it carries.
    let r = run(&src);
    assert!(fired(&r).is_empty(), "{r:#?}");
    assert!(r.files[0].c2w_from_header.is_some(), "{r:#?}");
}
