//! Nothing an engine, a log or a file name says reaches the terminal raw: every command's text
//! output shows ESC/OSC 52, C1 CSI, BEL, backspace and bidi overrides escaped, visibly, and
//! never stripped. Inputs: hostile recordings (UCI and CECP), every shipped log format with
//! the payload injected into its protocol lines, a hostile file name, and a live hostile
//! engine for `probe`, `replay` and `c2w suggest`; the viewer drawn into a TestBackend.

use crate::common;

use common::kibitzer;
use std::path::{Path, PathBuf};
use std::process::Output;

const PAYLOAD: &str = "\x1b]52;c;SGVsbG8=\x07\u{9b}2J\x08\u{202e}evil\x1b[8m";

/// Characters that must never appear raw in a text output.
const RAW: [char; 5] = ['\x1b', '\x07', '\x08', '\u{9b}', '\u{202e}'];

fn assert_no_raw(what: &str, text: &str) {
    for c in RAW {
        if let Some(i) = text.find(c) {
            let from = text[..i].char_indices().rev().nth(60).map_or(0, |(j, _)| j);
            panic!(
                "{what}: raw {:?} in the output near {:?}",
                c,
                &text[from..(i + 8).min(text.len())]
            );
        }
    }
}

fn assert_clean_run(what: &str, out: &Output) {
    assert_no_raw(
        &format!("{what} (stdout)"),
        &String::from_utf8_lossy(&out.stdout),
    );
    assert_no_raw(
        &format!("{what} (stderr)"),
        &String::from_utf8_lossy(&out.stderr),
    );
}

/// The payload as the one output-safety rule shows it.
fn escaped() -> String {
    kibitzer::untrusted::escape(PAYLOAD).into_owned()
}

fn line(seq: u64, src: &str, text: &str) -> String {
    serde_json::json!({"seq": seq, "t": seq * 1_000_000, "src": src, "text": text}).to_string()
}

fn uci_recording(dir: &Path, name: &str) -> PathBuf {
    let header = serde_json::json!({"kibitzer":"recording","version":1,"tool":"kibitzer test",
        "started":"2026-11-25T00:00:00Z","argv":[format!("engine{PAYLOAD}")],"cwd":"/","pid":1,
        "host":"h","protocol":"uci"});
    let lines = [
        ("gui", "uci".to_owned()),
        ("engine", format!("id name Hostile{PAYLOAD}")),
        ("engine", format!("id author Mallory{PAYLOAD}")),
        (
            "engine",
            format!("option name Evil{PAYLOAD} type check default false"),
        ),
        ("engine", "uciok".to_owned()),
        ("gui", format!("setoption name Evil{PAYLOAD} value true")),
        ("gui", "isready".to_owned()),
        ("engine", "readyok".to_owned()),
        ("gui", "position startpos".to_owned()),
        ("gui", "go depth 1".to_owned()),
        ("stderr", format!("stderr{PAYLOAD}")),
        (
            "engine",
            format!("info depth 1 score cp 10 pv e2e4 string {PAYLOAD}"),
        ),
        ("engine", format!("bestmove e2e4{PAYLOAD}")),
        ("gui", format!("position startpos moves e2e4 {PAYLOAD}")),
        ("gui", "go depth 1".to_owned()),
        ("engine", "bestmove e7e5".to_owned()),
        ("gui", "quit".to_owned()),
    ];
    let mut text = header.to_string() + "\n";
    for (i, (src, t)) in lines.iter().enumerate() {
        text += &line(i as u64 + 1, src, t);
        text.push('\n');
    }
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn cecp_recording(dir: &Path) -> PathBuf {
    let header = serde_json::json!({"kibitzer":"recording","version":1,"tool":"kibitzer test",
        "started":"2026-11-25T00:00:00Z","argv":["engine"],"cwd":"/","pid":1,"host":"h",
        "protocol":"xboard"});
    let lines = [
        ("gui", "xboard".to_owned()),
        ("gui", "protover 2".to_owned()),
        (
            "engine",
            format!("feature myname=\"Hostile{PAYLOAD}\" setboard=1 done=1"),
        ),
        ("gui", "new".to_owned()),
        ("gui", "go".to_owned()),
        ("engine", format!("1 10 0 100 e2e4 {PAYLOAD}")),
        ("engine", "move e2e4".to_owned()),
        ("gui", format!("e7e5{PAYLOAD}")),
        ("engine", format!("Error (unknown command): {PAYLOAD}")),
        ("engine", format!("telluser {PAYLOAD}")),
        ("gui", "quit".to_owned()),
    ];
    let mut text = header.to_string() + "\n";
    for (i, (src, t)) in lines.iter().enumerate() {
        text += &line(i as u64 + 1, src, t);
        text.push('\n');
    }
    let path = dir.join("cecp.jsonl");
    std::fs::write(&path, text).unwrap();
    path
}

/// A shipped log with the payload appended to every line: engine names, options, search
/// info, moves and the runner's own lines all carry it.
fn poisoned_log(src: &Path, dir: &Path) -> PathBuf {
    let bytes = std::fs::read(src).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    let mut out = String::new();
    for l in text.lines() {
        out.push_str(l);
        out.push_str(PAYLOAD);
        out.push('\n');
    }
    let path = dir.join(src.file_name().unwrap());
    std::fs::write(&path, out).unwrap();
    path
}

fn run(args: &[&std::ffi::OsStr]) -> Output {
    kibitzer().args(args).output().unwrap()
}

/// Every reading command's text output on `input`: none holds a raw control character.
/// Returns dump's output, which shows every line.
fn every_reading_command(input: &Path) -> String {
    let i = input.as_os_str();
    let dump = run(&["dump".as_ref(), i]);
    assert_clean_run(&format!("dump {}", input.display()), &dump);
    for args in [
        vec!["decode"],
        vec!["check", "--color", "never"],
        vec!["check", "--color", "always"],
        vec!["check", "--summary-only"],
        vec!["export", "--pgn"],
    ] {
        let mut a: Vec<&std::ffi::OsStr> = args.iter().map(|s| s.as_ref()).collect();
        a.push(i);
        let out = run(&a);
        let what = format!("{} {}", args.join(" "), input.display());
        if args.contains(&"always") {
            // Colour on: kibitzer's own SGR sequences only; none of the payload's.
            let text = String::from_utf8_lossy(&out.stdout);
            for bad in ["\x1b]", "\x1b[8m", "\x07", "\u{9b}", "\u{202e}", "\x08"] {
                assert!(!text.contains(bad), "{what}: raw {bad:?}");
            }
            assert_no_raw(
                &format!("{what} (stderr)"),
                &String::from_utf8_lossy(&out.stderr),
            );
        } else {
            assert_clean_run(&what, &out);
        }
    }
    String::from_utf8_lossy(&dump.stdout).into_owned()
}

#[test]
fn hostile_recordings_are_shown_escaped_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    for rec in [
        uci_recording(dir.path(), "uci.jsonl"),
        cecp_recording(dir.path()),
    ] {
        let dump = every_reading_command(&rec);
        assert!(
            dump.contains(&escaped()),
            "dump strips instead of escaping:\n{dump}"
        );
    }
    // The engine's name in the check and decode summaries: escaped, not stripped.
    let rec = dir.path().join("uci.jsonl");
    let out = run(&["check".as_ref(), rec.as_os_str()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&format!("Hostile{}", escaped())), "{text}");
    let out = run(&["decode".as_ref(), rec.as_os_str()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("engine: Hostile{}", escaped())),
        "{text}"
    );
}

#[test]
fn every_log_format_with_the_payload_is_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let mut logs: Vec<PathBuf> = Vec::new();
    for d in ["tests/fixtures/corpus", "tests/fixtures/logs"] {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "log") {
                logs.push(p);
            }
        }
    }
    logs.sort();
    assert!(logs.len() >= 25, "{} logs", logs.len());
    let mut shown = 0;
    for log in &logs {
        let poisoned = poisoned_log(log, dir.path());
        let dump = every_reading_command(&poisoned);
        shown += usize::from(dump.contains(&escaped()));
    }
    // Every log has at least one such line: each shows the payload escaped.
    assert_eq!(
        shown,
        logs.len(),
        "logs whose dump shows the escaped payload"
    );
}

#[test]
fn a_hostile_file_name_is_escaped_in_reports_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let name = "rec\x1b]0;owned\x07\u{202e}.jsonl";
    let rec = uci_recording(dir.path(), name);
    let out = run(&["check".as_ref(), rec.as_os_str()]);
    assert_clean_run("check on a hostile file name", &out);
    assert!(String::from_utf8_lossy(&out.stdout).contains("rec\\x1b]0;owned\\x07\\u202e.jsonl"));
    // An unreadable input's error names the file escaped too.
    let missing = dir.path().join("missing\x1b[2J\u{9b}.log");
    let out = run(&["check".as_ref(), missing.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    assert_clean_run("check on a missing hostile file name", &out);
    let out = run(&["dump".as_ref(), missing.as_os_str()]);
    assert_clean_run("dump on a missing hostile file name", &out);
}

fn hostile_engine() -> String {
    format!(
        "{}/tests/engines/hostile_engine.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn probe_and_replay_cards_of_a_hostile_engine_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("probe.jsonl");
    let out = kibitzer()
        .args([
            "probe",
            "--timeout",
            "3",
            "--color",
            "always",
            "--recording",
        ])
        .arg(&rec)
        .args(["--", "python3", &hostile_engine()])
        .output()
        .unwrap();
    let card = String::from_utf8_lossy(&out.stdout);
    for bad in ["\x1b]", "\x1b[8m", "\x07", "\u{9b}", "\u{202e}", "\x08"] {
        assert!(!card.contains(bad), "probe card: raw {bad:?}\n{card}");
    }
    assert!(card.contains(&format!("Hostile{}", escaped())), "{card}");
    assert_no_raw("probe stderr", &String::from_utf8_lossy(&out.stderr));

    let original = uci_recording(dir.path(), "uci.jsonl");
    let out = kibitzer()
        .arg("replay")
        .arg(&original)
        .arg("--recording")
        .arg(dir.path().join("replayed.jsonl"))
        .args(["--", "python3", &hostile_engine()])
        .output()
        .unwrap();
    assert_clean_run("replay", &out);
}

#[test]
fn c2w_suggest_writes_no_raw_control_character_into_the_profile() {
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join("hostile.c2w");
    let out = kibitzer()
        .args(["c2w", "suggest", "--timeout", "3", "-o"])
        .arg(&profile)
        .arg("--recording")
        .arg(dir.path().join("s.jsonl"))
        .args(["--", "python3", &hostile_engine(), "--cecp"])
        .output()
        .unwrap();
    assert_clean_run("c2w suggest", &out);
    let text = std::fs::read_to_string(&profile).unwrap_or_else(|e| {
        panic!(
            "no profile written ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert_no_raw("the written profile", &text);
    assert!(
        text.contains(&format!("EngineName=Hostile{}", escaped())),
        "{text}"
    );
}

#[test]
fn the_viewer_shows_hostile_text_escaped_in_every_pane() {
    use kibitzer::rules::Profile;
    use kibitzer::tui::{App, KeyMap, Options, Theme, draw::draw, load::read_file};
    use ratatui::{Terminal, backend::TestBackend};
    let dir = tempfile::tempdir().unwrap();
    let rec = uci_recording(dir.path(), "uci.jsonl");
    let doc = read_file(&rec, None, None, Profile::named("cutechess").unwrap()).unwrap();
    let mut a = App::new(KeyMap::default(), Theme::default(), Options::default());
    a.set_size(160, 40);
    a.sync(&doc);
    let mut screens = String::new();
    // Every line selected in turn: the detail pane shows each one's fields.
    for _ in 0..18 {
        let mut t = Terminal::new(TestBackend::new(160, 40)).unwrap();
        t.draw(|f| {
            draw(f, &a, &doc);
        })
        .unwrap();
        let buf = t.backend().buffer().clone();
        for y in 0..buf.area.height {
            for x in 0..buf.area.width {
                screens.push_str(buf[(x, y)].symbol());
            }
            screens.push('\n');
        }
        a.key(
            &doc,
            crossterm::event::KeyEvent::new(
                crossterm::event::KeyCode::Down,
                crossterm::event::KeyModifiers::NONE,
            ),
        );
    }
    assert_no_raw("the viewer's screens", &screens);
    // Shown escaped, not dropped: the status bar's engine name and the traffic lines.
    assert!(screens.contains("Hostile\\x1b]52;c;"), "{screens}");
    assert!(screens.contains("\\u202eevil"), "{screens}");
}

/// Two engines, one named with a real ESC and one with the four characters `\x1b` written
/// out: `check` shows them differently (the literal backslash is escaped).
#[test]
fn an_engine_name_that_looks_escaped_never_prints_like_a_real_escape() {
    let dir = tempfile::tempdir().unwrap();
    let mut shown = Vec::new();
    for (i, name) in ["Evil\u{1b}[1m", "Evil\\x1b[1m"].iter().enumerate() {
        let rec = dir.path().join(format!("{i}.jsonl"));
        let line = |seq: u32, t: u32, src: &str, text: &str| {
            serde_json::json!({"seq": seq, "t": t, "src": src, "text": text}).to_string()
        };
        let header = r#"{"kibitzer":"recording","version":1,"tool":"test","started":"2026-11-29T10:00:00Z"}"#;
        let body = [
            header.to_owned(),
            line(1, 0, "gui", "uci"),
            line(2, 1000, "engine", &format!("id name {name}")),
            line(3, 2000, "engine", "uciok"),
        ]
        .join("\n");
        std::fs::write(&rec, body + "\n").unwrap();
        let out = super::common::kibitzer()
            .arg("check")
            .arg(&rec)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let named = text
            .lines()
            .find(|l| l.contains("Evil"))
            .unwrap_or_else(|| panic!("{text}"))
            .to_owned();
        assert!(!named.contains('\u{1b}'), "{named}");
        shown.push(named.replace(&format!("{i}.jsonl"), "N.jsonl"));
    }
    assert_ne!(shown[0], shown[1], "{shown:#?}");
    assert!(shown[1].contains("Evil\\\\x1b[1m"), "{shown:#?}");
}
