//! The shipped real recordings (`recordings/`) decode as the real client saw them:
//! - an insta JSON snapshot per recording of its decoded sessions (protocol, engine, handshake,
//!   games with every move, open obligations) and of every diagnostic, in
//!   `tests/it/snapshots/it__decode_recordings__NAME.snap` (review changes with
//!   `cargo insta review`, or accept them with `INSTA_UPDATE=always cargo test --test it
//!   decode_recordings`);
//! - no message the protocol texts define is left `unknown`;
//! - the PGN export's moves equal the game the client (python-chess) played and saved.

use crate::common;

use serde_json::Value;
use std::path::{Path, PathBuf};

fn recordings() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("recordings");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    v.sort();
    assert!(
        v.len() >= 5,
        "expected the shipped recordings in {}",
        dir.display()
    );
    v
}

/// Runs `kibitzer ARGS`, which must succeed, for its stdout.
fn kibitzer(args: &[&str]) -> String {
    common::run_ok(args).0
}

fn decoded(path: &Path) -> Vec<Value> {
    kibitzer(&["decode", "--json", path.to_str().unwrap()])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON line {l}: {e}")))
        .collect()
}

/// Times differ between machines and runs of the same traffic; everything else must not.
fn without_times(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|k, _| !matches!(k.as_str(), "t" | "ts" | "since" | "latency_ms" | "age_ms"));
            m.values_mut().for_each(without_times);
        }
        Value::Array(a) => a.iter_mut().for_each(without_times),
        _ => {}
    }
}

#[test]
fn decoded_recordings_match_their_snapshots() {
    for path in recordings() {
        let lines = decoded(&path);
        let mut snap = serde_json::Map::new();
        let mut summaries: Vec<Value> = lines
            .iter()
            .filter(|l| l["type"] == "summary")
            .cloned()
            .collect();
        summaries.iter_mut().for_each(without_times);
        assert!(
            !summaries.is_empty(),
            "{}: no session summary",
            path.display()
        );
        snap.insert("sessions".into(), Value::Array(summaries));
        let text_of = |seq: &Value| {
            lines
                .iter()
                .find(|l| l["type"] == "line" && &l["seq"] == seq)
                .map_or(Value::Null, |l| l["text"].clone())
        };
        let findings: Vec<Value> = lines
            .iter()
            .filter(|l| l["type"] == "finding")
            .map(|d| serde_json::json!({"seq": d["seq"], "text": text_of(&d["seq"]), "rule": d["rule"], "severity": d["severity"], "side": d["side"]}))
            .collect();
        snap.insert("findings".into(), Value::Array(findings));
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        insta::with_settings!({
            description => format!(
                "kibitzer decode --json recordings/{name}.jsonl: the session summaries \
                 (times left out) and every finding"
            ),
            omit_expression => true,
        }, {
            insta::assert_json_snapshot!(name, Value::Object(snap));
        });
    }
}

/// First words of every message the protocol texts define, per protocol.
fn spec_words(protocol: &str) -> &'static [&'static str] {
    match protocol {
        "uci" => &[
            "uci",
            "debug",
            "isready",
            "setoption",
            "register",
            "ucinewgame",
            "position",
            "go",
            "stop",
            "ponderhit",
            "quit",
            "id",
            "uciok",
            "readyok",
            "bestmove",
            "copyprotection",
            "registration",
            "info",
            "option",
        ],
        "xboard" => &[
            "xboard",
            "protover",
            "accepted",
            "rejected",
            "new",
            "variant",
            "quit",
            "random",
            "force",
            "go",
            "playother",
            "white",
            "black",
            "level",
            "st",
            "sd",
            "nps",
            "time",
            "otim",
            "usermove",
            "?",
            "ping",
            "draw",
            "result",
            "setboard",
            "edit",
            "hint",
            "bk",
            "undo",
            "remove",
            "hard",
            "easy",
            "post",
            "nopost",
            "analyze",
            "name",
            "rating",
            "ics",
            "computer",
            "pause",
            "resume",
            "memory",
            "cores",
            "egtpath",
            "option",
            "exclude",
            "include",
            "setscore",
            "lift",
            "put",
            "hover",
            "feature",
            "move",
            "pong",
            "Illegal",
            "Error",
            "resign",
            "offer",
            "tellopponent",
            "tellothers",
            "tellall",
            "telluser",
            "tellusererror",
            "askuser",
            "tellics",
            "tellicsnoalias",
            "Hint:",
            "setup",
            "stat01:",
        ],
        "nboard" => &[
            "nboard",
            "set",
            "move",
            "hint",
            "go",
            "ping",
            "learn",
            "analyze",
            "status",
            "nodestats",
            "pong",
            "===",
            "search",
            "book",
            "learned",
        ],
        _ => &[],
    }
}

#[test]
fn no_message_the_specs_define_is_left_unknown() {
    for path in recordings() {
        let lines = decoded(&path);
        for l in &lines {
            if l["kind"] != "unknown" {
                continue;
            }
            let protocol = l["protocol"].as_str().unwrap_or("");
            let text = l["text"].as_str().unwrap_or("");
            let first = text.split_whitespace().next().unwrap_or("");
            assert!(
                !spec_words(protocol).contains(&first),
                "{}: seq {}: `{text}` is a {protocol} message but decoded as unknown",
                path.display(),
                l["seq"]
            );
        }
    }
}

/// The SAN moves of the first game in a PGN text.
fn pgn_moves(pgn: &str) -> Vec<String> {
    let body: String = pgn
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let mut depth = 0;
    let mut plain = String::new();
    for c in body.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    plain
        .split_whitespace()
        .filter(|t| {
            !t.ends_with('.')
                && !t.contains("...")
                && !matches!(*t, "*" | "1-0" | "0-1" | "1/2-1/2")
        })
        .map(|t| t.split('.').next_back().unwrap_or(t).to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

#[test]
fn exported_games_equal_what_the_client_played() {
    let mut compared = 0;
    for path in recordings() {
        let client_pgn = path.with_extension("pgn");
        let Ok(client) = std::fs::read_to_string(&client_pgn) else {
            continue;
        };
        let exported = kibitzer(&["export", "--pgn", path.to_str().unwrap()]);
        let want = pgn_moves(&client);
        let got = pgn_moves(&exported);
        assert!(
            want.len() >= 20,
            "{}: client game too short",
            client_pgn.display()
        );
        // The engine's last bestmove is a ply of the decoded game (nothing on the wire says
        // whether the client played it); python-chess's saved game may stop before it.
        assert!(
            got.len() >= want.len() && got[..want.len()] == want[..] && got.len() <= want.len() + 1,
            "{}: exported moves differ from the client's game\n got: {got:?}\nwant: {want:?}",
            path.display()
        );
        // The result too: UCI carries none, so a game the client ended by claiming a draw
        // (python-chess `claim_draw=True`) must come out as that draw, not `*`.
        let result = |pgn: &str| {
            pgn.lines()
                .find_map(|l| l.strip_prefix("[Result \"")?.strip_suffix("\"]"))
                .map(str::to_owned)
        };
        assert_eq!(
            result(&exported),
            result(&client),
            "{}: result differs from the client's",
            path.display()
        );
        compared += 1;
    }
    assert!(
        compared >= 2,
        "expected PGNs from the clients next to the recordings"
    );
}

/// The shipped recordings carry the protocol `record --protocol` was given; without it the
/// streaming decoder's own detection (a first pass over the opening lines) must reach the same
/// protocol and the same decoded session.
#[test]
fn detection_agrees_with_the_recorded_protocol_hint() {
    let dir = tempfile::tempdir().unwrap();
    for path in recordings() {
        let text = std::fs::read_to_string(&path).unwrap();
        let (header, rest) = text.split_once('\n').unwrap();
        let mut header: Value = serde_json::from_str(header).unwrap();
        let hint = header
            .as_object_mut()
            .unwrap()
            .remove("protocol")
            .unwrap_or_else(|| panic!("{}: no protocol hint", path.display()));
        let bare = dir.path().join(path.file_name().unwrap());
        std::fs::write(&bare, format!("{header}\n{rest}")).unwrap();
        let summary = |p: &Path| {
            let mut s: Vec<Value> = decoded(p)
                .into_iter()
                .filter(|l| l["type"] == "summary")
                .collect();
            s.iter_mut().for_each(without_times);
            s
        };
        let (hinted, detected) = (summary(&path), summary(&bare));
        assert_eq!(hinted.len(), detected.len(), "{}", path.display());
        for (mut h, mut d) in hinted.into_iter().zip(detected) {
            assert_eq!(h["protocol"], d["protocol"], "{}", path.display());
            let reason = d["protocol_reason"].as_str().unwrap_or_default().to_owned();
            assert!(
                !reason.contains("--protocol"),
                "{}: {reason}",
                path.display()
            );
            assert!(
                h["protocol_reason"]
                    .as_str()
                    .is_some_and(|r| r.ends_with(&format!("--protocol {}", hint.as_str().unwrap()))),
                "{}: {}",
                path.display(),
                h["protocol_reason"]
            );
            h["protocol_reason"] = Value::Null;
            d["protocol_reason"] = Value::Null;
            assert_eq!(h, d, "{}", path.display());
        }
    }
}

/// The rules whose findings come from checking PV moves.
const PV_RULES: [&str; 2] = ["UCI-INFO-PV-ILLEGAL", "CECP-THINKING-PV-UNPLAYABLE"];

fn mentions_pv_rule(l: &Value) -> bool {
    let text = l.to_string();
    PV_RULES.iter().any(|r| text.contains(r))
}

/// `decode --no-pv-check` skips only the PV legality check: on the real recordings every line
/// decodes the same, boards included, but for the PV findings (Fairy-Max writes promotions
/// without the piece in its PVs); on a PV with an illegal move only the default run reports
/// it, while an illegal game move is reported by both.
#[test]
fn no_pv_check_changes_nothing_but_pv_diagnostics() {
    // The lines without the PV findings, and the summary's counts.
    let without_pv_diags = |mut lines: Vec<Value>| {
        lines.retain(|l| {
            !((l["type"] == "finding" || l["type"] == "repeats")
                && PV_RULES.contains(&l["rule"].as_str().unwrap_or("")))
        });
        for l in &mut lines {
            let o = l.as_object_mut().unwrap();
            if o.get("type").is_some_and(|t| t == "summary") {
                o.remove("findings");
            }
        }
        lines
    };
    let mut pv_diags = 0;
    for path in recordings() {
        let p = path.to_str().unwrap();
        let checked = decoded(&path);
        pv_diags += checked.iter().filter(|l| mentions_pv_rule(l)).count();
        let unchecked: Vec<Value> = kibitzer(&["decode", "--json", "--no-pv-check", p])
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert!(!unchecked.iter().any(mentions_pv_rule), "{p}");
        let (a, b) = (without_pv_diags(checked), without_pv_diags(unchecked));
        assert_eq!(a.len(), b.len(), "{p}");
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x, y, "{p}");
        }
    }
    // The comparison above is not vacuous: some shipped PV is reported by default.
    assert!(pv_diags > 0);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad-pv.jsonl");
    let lines = [
        ("gui", "position startpos"),
        ("gui", "go depth 2"),
        ("engine", "info depth 2 pv e2e4 e7e5 e1e3"),
        ("engine", "bestmove e2e5"),
    ];
    let mut text = String::from(
        r#"{"kibitzer":"recording","version":1,"tool":"test","started":"2026-11-22T00:00:00Z"}"#,
    );
    for (i, (src, line)) in lines.iter().enumerate() {
        let ev = serde_json::json!({"seq": i + 1, "t": i * 1000, "src": src, "text": line});
        text.push_str(&format!("\n{ev}"));
    }
    std::fs::write(&file, text + "\n").unwrap();
    let f = file.to_str().unwrap();
    let codes = |args: &[&str]| -> Vec<String> {
        kibitzer(args)
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|l| l["type"] == "finding")
            .map(|d| d["rule"].as_str().unwrap_or("").to_owned())
            .collect()
    };
    assert_eq!(
        codes(&["decode", "--json", f]),
        [
            "UCI-INFO-PV-ILLEGAL",
            "UCI-BESTMOVE-ILLEGAL",
            "UCI-INFO-BESTMOVE-PV-MISMATCH"
        ]
    );
    assert_eq!(
        codes(&["decode", "--json", "--no-pv-check", f]),
        ["UCI-BESTMOVE-ILLEGAL", "UCI-INFO-BESTMOVE-PV-MISMATCH"]
    );
}

/// The issue's spelling `decode FILE --format json` selects the JSON output, `--format NAME` an
/// input format, and both may be given; contradictions are errors, not guesses.
#[test]
fn format_selects_the_output_and_the_input() {
    let path = recordings().into_iter().next().unwrap();
    let p = path.to_str().unwrap();
    let json = kibitzer(&["decode", "--json", p]);
    assert!(json.starts_with('{'));
    assert_eq!(kibitzer(&["decode", p, "--format", "json"]), json);
    assert_eq!(
        kibitzer(&["decode", p, "--format", "JSON", "--format", "recording"]),
        json
    );
    assert_eq!(
        kibitzer(&["decode", p, "--format", "text"]),
        kibitzer(&["decode", p])
    );
    let log = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/logs/xboard-debug__fairymax-vs-polyglot-stockfish.log");
    let log = log.to_str().unwrap();
    let forced = kibitzer(&[
        "decode",
        log,
        "--format",
        "json",
        "--format",
        "xboard-debug",
    ]);
    assert!(forced.contains(r#""protocol":"xboard""#));
    assert_eq!(forced, kibitzer(&["decode", "--json", log]));
    for bad in [
        &["--format", "json", "--format", "text"][..],
        &["--format", "json", "--output", "text"],
        &["--format", "arena", "--format", "fastchess"],
        &["--format", "no-such-format"],
    ] {
        let out = common::kibitzer()
            .args(["decode", p])
            .args(bad)
            .output()
            .expect("run kibitzer");
        assert!(!out.status.success(), "{bad:?} was accepted");
        assert!(out.stdout.is_empty(), "{bad:?} printed output");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("format") || err.contains("output"),
            "{bad:?}: {err}"
        );
    }
}

/// `-` reads standard input (and a pipe works like a file): `zcat log.gz | kibitzer decode -`.
/// The temporary copy this takes is gone afterwards; a directory or empty input is a clear
/// error.
#[test]
fn standard_input_decodes_like_the_file() {
    use std::io::Write as _;
    use std::process::Stdio;
    let run = |args: &[&str], input: &[u8]| {
        let mut child = common::kibitzer()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run kibitzer");
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input).unwrap();
        drop(stdin);
        child.wait_with_output().unwrap()
    };
    let spools = || {
        std::fs::read_dir(std::env::temp_dir())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("kibitzer-input-")
            })
            .count()
    };
    let before = spools();
    let path = recordings().into_iter().next().unwrap();
    let p = path.to_str().unwrap();
    let out = run(&["decode", "--json", "-"], &std::fs::read(&path).unwrap());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        kibitzer(&["decode", "--json", p])
    );
    let log = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/logs/xboard-debug__fairymax-vs-polyglot-stockfish.log");
    let out = run(&["export", "--pgn", "-"], &std::fs::read(&log).unwrap());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("[Result "));
    assert!(spools() <= before, "a temporary copy was left behind");
    let empty = run(&["decode", "-"], b"");
    assert!(!empty.status.success());
    assert!(String::from_utf8_lossy(&empty.stderr).contains("<stdin> is empty"));
    let dir = run(&["decode", env!("CARGO_MANIFEST_DIR")], b"");
    assert!(String::from_utf8_lossy(&dir.stderr).contains("is a directory"));
}
