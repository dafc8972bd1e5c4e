//! `.c2w` profiles end to end, through the real binary and real engines: `record --c2w` starts
//! the engine the profile names (relative EnginePath included) and notes the profile in the
//! header; a scripted GUI that drives the engine as Chess Academy would under the profile
//! leaves `check --c2w` without a C2W- finding, for Fairy-Max and GNU Chess; and scripted GUIs
//! that each break one rule of a profile are caught by that rule's id.

use crate::common;

use common::transcript::{check_report, findings_of, rules_fired};
use common::{Lines, engine, kibitzer, read_recording};
use kibitzer::protocol::c2w::{self, EngineProfile, InitPosition};
use kibitzer::rules::report::CheckReport;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::time::Duration;

/// Generous: the CI machine is small and loaded.
const MOVE_WAIT: Duration = Duration::from_secs(30);

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/c2w")
        .join(name)
}

/// A GUI talking to `kibitzer record --c2w PROFILE`.
struct Gui {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Lines,
}

impl Gui {
    fn start(rec: &Path, profile: &Path, extra: &[&str]) -> Gui {
        let mut child = kibitzer()
            .args(["record", "--eof-grace", "5", "-o"])
            .arg(rec)
            .arg("--c2w")
            .arg(profile)
            // The fixtures' engines live in /usr/games, outside the profiles' directory.
            .arg("--c2w-allow-outside")
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn kibitzer record --c2w");
        let stdin = child.stdin.take();
        let lines = Lines::new(child.stdout.take().expect("stdout"));
        Gui {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        if let Some(s) = self.stdin.as_mut() {
            // The engine may have gone; the test then fails on what it did not answer.
            let _ = s.write_all(format!("{line}\n").as_bytes());
            let _ = s.flush();
        }
    }

    /// Waits for a line `pred` accepts; false when none came in time.
    fn wait(&mut self, within: Duration, pred: impl Fn(&str) -> bool) -> bool {
        let seen = self.lines.until_within(within, &pred);
        seen.last().is_some_and(|l| pred(l.trim_end()))
    }

    fn wait_move(&mut self) -> bool {
        self.wait_move_within(MOVE_WAIT)
    }

    fn wait_move_within(&mut self, within: Duration) -> bool {
        // GNU Chess announces its moves as `My move is : e7e5`.
        self.wait(within, |l| {
            l.starts_with("move ") || l.starts_with("My move is")
        })
    }

    fn finish(mut self) -> i32 {
        self.send("quit");
        drop(self.stdin.take());
        self.child.wait().ok().and_then(|s| s.code()).unwrap_or(-1)
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Drives the engine as Chess Academy would under `p`, then sends `inject` (the faulty GUIs)
/// and waits for the engine to have read it. Returns false when the engine never made its
/// first move (GNU Chess's failed starts).
fn chess_academy(gui: &mut Gui, p: &EngineProfile, inject: &[&str]) -> bool {
    gui.send("xboard");
    gui.send("new");
    if let Some(f) = p.level_type {
        gui.send(if f.base_inc_only {
            "level 0 1 0"
        } else if f.level_seconds {
            "level 40 0:20 0"
        } else {
            "level 40 1 0"
        });
        if f.time_command {
            gui.send("time 2000");
            gui.send("otim 2000");
        }
    }
    gui.send("e2e4");
    if !gui.wait_move_within(MOVE_WAIT) {
        return false;
    }
    if p.hint_cmd.is_some() {
        gui.send(p.hint_cmd.as_deref().unwrap_or("hint"));
        assert!(
            gui.wait(MOVE_WAIT, |l| l.starts_with("Hint:")),
            "no hint answered"
        );
    }
    // A position from the user's board, set up the profile's way.
    const FEN: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    gui.send("new");
    gui.send("force");
    match (p.init_position, &p.fen_command) {
        (Some(InitPosition::FenCommand), Some(c)) if c.own_line => {
            gui.send(&c.word);
            for e in FEN.split(' ') {
                gui.send(e);
            }
        }
        (Some(InitPosition::FenCommand), Some(c)) => gui.send(&format!("{} {FEN}", c.word)),
        (Some(InitPosition::Edit), _) => {
            for l in [
                "edit", "#", "Ra1", "Nb1", "Bc1", "Qd1", "Ke1", "Rh1", "Pa2", "Pb2", "Pc2", "Pd2",
                "Pf2", "Pg2", "Ph2", "Bc4", "Pe4", "Nf3", "c", "Ra8", "Bc8", "Qd8", "Ke8", "Bf8",
                "Rh8", "Pa7", "Pb7", "Pc7", "Pd7", "Pf7", "Pg7", "Ph7", "Nc6", "Nf6", "Pe5", ".",
            ] {
                gui.send(l);
            }
        }
        _ => {}
    }
    if let Some(sd) = &p.sd_cmd {
        gui.send(&format!("{sd} 4"));
    }
    if let Some(st) = &p.st_cmd {
        gui.send(&format!("{st} 1"));
    }
    gui.send("go");
    if !gui.wait_move() {
        return false;
    }
    if p.move_now == Some(true) {
        if let Some(st) = &p.st_cmd {
            gui.send(&format!("{st} 60"));
        }
        gui.send("go");
        std::thread::sleep(Duration::from_millis(300));
        gui.send("?");
        if !gui.wait_move() {
            return false;
        }
    }
    if !inject.is_empty() {
        gui.send("force");
        for l in inject {
            gui.send(l);
        }
        // Fairy-Max (the faulty GUIs' engine) answers ping: everything before it was read, and
        // any refusal of the injected lines has come.
        gui.send("ping 7");
        assert!(gui.wait(MOVE_WAIT, |l| l == "pong 7"), "no pong");
    }
    true
}

fn c2w_rules(report: &CheckReport) -> Vec<String> {
    rules_fired(report)
        .into_iter()
        .filter(|r| r.starts_with("C2W-"))
        .collect()
}

fn profile(path: &Path) -> EngineProfile {
    c2w::parse(&std::fs::read_to_string(path).expect("profile")).expect("fixture profile parses")
}

/// Records one session under `profile` and checks it against the profile. The engine must
/// play: a start that does not is a failure, not a retry.
fn run(dir: &Path, name: &str, profile_path: &Path, inject: &[&str]) -> CheckReport {
    let p = profile(profile_path);
    let rec = dir.join(format!("{name}.jsonl"));
    let mut gui = Gui::start(&rec, profile_path, &[]);
    let played = chess_academy(&mut gui, &p, inject);
    gui.finish();
    assert!(played, "{name}: the engine did not play under its profile");
    let (report, _) = check_report(&rec, &["--c2w", profile_path.to_str().expect("path")]);
    report
}

/// The keys of tests/fixtures/c2w/gnuchess.c2w for the scripted engine with GNU Chess 6.2.7's
/// manners (the real engine negotiates in only some of its starts: record_gnuchess.rs).
fn gnu_like_profile(dir: &Path) -> PathBuf {
    let engines = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines");
    let fixture = std::fs::read_to_string(fixture("gnuchess.c2w")).expect("fixture");
    let text: String = fixture
        .lines()
        .map(|l| {
            if l.starts_with("EnginePath=") {
                format!("EnginePath={}", engines.display())
            } else if l.starts_with("EngineSwitch=") {
                "EngineSwitch=winboard_caps.py --gnu --name \"GNU Chess\" --sd depth".to_owned()
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let path = dir.join("gnuchess-like.c2w");
    std::fs::write(&path, text + "\n").expect("profile");
    path
}

#[test]
fn fairymax_and_a_gnuchess_like_engine_under_their_profiles_keep_to_them() {
    engine("fairymax");
    let dir = tempfile::tempdir().expect("tempdir");
    let engines = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines");
    for name in ["fairymax", "gnuchess"] {
        let (path, program) = if name == "fairymax" {
            (fixture("fairymax.c2w"), engine("fairymax"))
        } else {
            (
                gnu_like_profile(dir.path()),
                engines.join("winboard_caps.py"),
            )
        };
        let report = run(dir.path(), name, &path, &[]);
        assert_eq!(
            c2w_rules(&report),
            Vec::<String>::new(),
            "{name}: {report:#?}"
        );
        // Commands the profile declares (GNU Chess's `depth`) are no unknown commands.
        assert!(
            findings_of(&report, "CECP-UNKNOWN-COMMAND").is_empty(),
            "{name}: {:?}",
            findings_of(&report, "CECP-UNKNOWN-COMMAND")
        );
        let rec = read_recording(&dir.path().join(format!("{name}.jsonl")));
        let note = rec.header.c2w.expect("header notes the profile");
        assert_eq!(Path::new(&note.file), path);
        assert_eq!(note.text, std::fs::read_to_string(&path).unwrap());
        assert_eq!(rec.header.protocol.as_deref(), Some("xboard"));
        assert_eq!(
            rec.header.argv.first().map(String::as_str),
            Some(program.to_str().unwrap())
        );
    }
}

/// Fairy-Max's profile with `edit` applied to its text (replace a line, or add some).
fn variant(dir: &Path, name: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let text = std::fs::read_to_string(fixture("fairymax.c2w")).expect("fixture");
    let path = dir.join(format!("{name}.c2w"));
    std::fs::write(&path, edit(text)).expect("write variant");
    path
}

#[test]
fn faulty_guis_are_caught_by_the_rule_they_break() {
    engine("fairymax");
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let fm = fixture("fairymax.c2w");
    let with = |name: &str, from: &'static str, to: &'static str| {
        variant(d, name, move |t| {
            assert!(t.contains(from), "{from}");
            t.replace(from, to)
        })
    };
    let add = |name: &str, extra: &'static str| variant(d, name, move |t| t + extra);
    let cases: Vec<(&str, PathBuf, Vec<&str>)> = vec![
        (
            "C2W-INITPOS-UNSUPPORTED",
            with("initpos0", "EngineInitPos=1", "EngineInitPos=0"),
            vec!["edit", "#", "Ke1", "c", "Ke8", "."],
        ),
        (
            "C2W-INITPOS-METHOD",
            fm.clone(),
            vec!["setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"],
        ),
        (
            "C2W-FEN-FORM",
            add("fenform", "EngineCmdSB=setboard\n"),
            vec!["setboard"],
        ),
        (
            "C2W-ST-COMMAND",
            with("nost", "EngineCmdST=st\n", ""),
            vec!["st 1"],
        ),
        (
            "C2W-SD-COMMAND",
            with("depthword", "EngineCmdSD=sd", "EngineCmdSD=depth"),
            vec!["sd 3"],
        ),
        (
            "C2W-LEVEL-FORM",
            with("level1", "EngineTypeOfCmdLevel=6", "EngineTypeOfCmdLevel=1"),
            vec!["level 40 5:30 0"],
        ),
        (
            "C2W-TIME-COMMAND",
            with("level3", "EngineTypeOfCmdLevel=6", "EngineTypeOfCmdLevel=3"),
            vec!["time 30000"],
        ),
        (
            "C2W-HASH-FORM",
            add("hash12", "EngineTypeOfCmdHash=12\nEngineCmdHash=memory\n"),
            vec!["memory 32M"],
        ),
        ("C2W-MOVENOW-UNDECLARED", fm.clone(), vec!["?"]),
        (
            "C2W-HINT-UNDECLARED",
            with("nohint", "EngineCmdHint=hint\n", ""),
            vec!["hint"],
        ),
        ("C2W-DRAW-UNDECLARED", fm.clone(), vec!["draw"]),
        (
            // The profile claims a draw command Fairy-Max does not have: it answers
            // `Error (unknown command): draw`.
            "C2W-DECLARED-REFUSED",
            add("drawdeclared", "EngineCmdDraw=draw\n"),
            vec!["draw"],
        ),
    ];
    let mut bad = Vec::new();
    for (rule, path, inject) in &cases {
        let name = rule.to_ascii_lowercase();
        // Fairy-Max always plays: `run` returns a report for it.
        let report = run(d, &name, path, inject);
        let found = findings_of(&report, rule);
        if found.is_empty() {
            bad.push(format!(
                "{rule}: not caught; C2W- found: {:?}",
                c2w_rules(&report)
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // Every rule of the family has its faulty GUI, but for the one an engine alone breaks:
    // Fairy-Max answers every hint (tests/probe_c2w.rs catches C2W-HINT-SILENT with a scripted
    // engine that does not).
    let ids: Vec<&str> = kibitzer::rules::RULES
        .iter()
        .filter(|r| r.id.as_str().starts_with("C2W-") && r.id != "C2W-HINT-SILENT")
        .map(|r| r.id.as_str())
        .collect();
    for id in ids {
        assert!(cases.iter().any(|c| c.0 == id), "no faulty GUI for {id}");
    }
}

#[test]
fn record_c2w_resolves_a_relative_engine_path_against_the_profile_or_home() {
    let fairymax = engine("fairymax");
    let dir = tempfile::tempdir().expect("tempdir");
    // Chess Academy's layout: the profile beside cha.exe, engines below (a Windows path).
    let engines = dir.path().join("engines").join("fm");
    std::fs::create_dir_all(&engines).unwrap();
    std::os::unix::fs::symlink(&fairymax, engines.join("fmax")).unwrap();
    let text = "EnginePath=engines\\fm\nEngineName=Fairy-Max\nEngineSwitch=fmax\n\
                EngineVersion=5.0b\nEngineCmdST=st\n";
    let profile = dir.path().join("fm.c2w");
    std::fs::write(&profile, text).unwrap();
    let elsewhere = dir.path().join("profiles");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let moved = elsewhere.join("fm.c2w");
    std::fs::write(&moved, text).unwrap();
    let p = c2w::parse(text).unwrap();
    for (path, extra) in [
        (profile.as_path(), vec![]),
        (
            moved.as_path(),
            vec!["--c2w-home", dir.path().to_str().unwrap()],
        ),
    ] {
        let rec = dir.path().join("r.jsonl");
        let mut gui = Gui::start(&rec, path, &extra);
        assert!(chess_academy(&mut gui, &p, &[]), "{}", path.display());
        assert_eq!(gui.finish(), 0);
        let r = read_recording(&rec);
        assert_eq!(
            r.header.argv,
            vec![engines.join("fmax").display().to_string()]
        );
    }
    // Without --c2w-home the moved profile's EnginePath is no directory: exit 2, file and line.
    let out = kibitzer()
        .args(["record", "-o"])
        .arg(dir.path().join("x.jsonl"))
        .arg("--c2w")
        .arg(&moved)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("fm.c2w:1: EnginePath `engines\\fm` is no directory"),
        "{err}"
    );
    assert!(!dir.path().join("x.jsonl").exists());
}
