//! Every UCI rule that docs/rules.md marks "implemented", through `kibitzer check`: each fires
//! on a short realistic session that breaks it, and stays silent on the closest correct one.
//!
//! One `#[test]` per rule (named after it); each runs the rule's firing transcripts and its near
//! misses and reports every transcript that went wrong, naming the rule and the transcript.
//! A firing finding must also carry the catalogue's severity and side (for `either` rules the
//! side of the line's sender), and a near miss must be a correct session: no warning or error of
//! any rule, except those it is allowed to show.
//!
//! Not tested here: the UCI rules docs/rules.md does not mark "implemented" (the test
//! `the_cases_cover_exactly_the_implemented_uci_rules` keeps this list in step with the page):
//!
//! - not decidable from traffic: UCI-INFO-STRING-REST-OF-LINE, UCI-UNKNOWN-TOKEN-IGNORED

use crate::common;

use common::transcript::{check_report, findings, hangs, recording};
use kibitzer::rules::report::CheckReport;
use kibitzer::rules::{Finding, Severity};
use std::collections::BTreeSet;

/// UCI rules of the catalogue that have no check yet, or cannot have one.
const SKIPPED: &[&str] = &["UCI-INFO-STRING-REST-OF-LINE", "UCI-UNKNOWN-TOKEN-IGNORED"];

// ---------------------------------------------------------------------------------------------
// The catalogue, as docs/rules.md states it.

struct CatalogueRule {
    id: String,
    side: String,
    severity: String,
    status: String,
}

/// The UCI rows of docs/rules.md.
fn catalogue() -> Vec<CatalogueRule> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md");
    let text = std::fs::read_to_string(path).expect("read docs/rules.md");
    text.lines()
        .filter(|l| l.starts_with("| UCI-"))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            CatalogueRule {
                id: cells[0].to_owned(),
                side: cells[1].to_owned(),
                severity: cells[2].to_owned(),
                status: cells[cells.len() - 1].to_owned(),
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Cases.

/// One transcript checked against a rule.
struct Run {
    label: &'static str,
    text: String,
    args: Vec<&'static str>,
    /// Firing runs: the side every finding of the rule must name.
    side: Option<&'static str>,
    /// Firing runs: the severity every finding of the rule must carry, where the catalogue
    /// names a lesser one for this form of the fault (`(none)` "as a note").
    severity: Option<&'static str>,
    /// Firing runs: a text some finding's message must contain.
    says: Option<&'static str>,
    /// Near misses: warnings and errors of these rules are expected (the session breaks them
    /// on purpose, or they are the point of the comparison).
    allow: Vec<&'static str>,
}

fn t(label: &'static str, text: impl Into<String>) -> Run {
    Run {
        label,
        text: text.into(),
        args: Vec::new(),
        side: None,
        severity: None,
        says: None,
        allow: Vec::new(),
    }
}

impl Run {
    fn args(mut self, args: &[&'static str]) -> Run {
        self.args = args.to_vec();
        self
    }

    fn side(mut self, side: &'static str) -> Run {
        self.side = Some(side);
        self
    }

    fn severity(mut self, severity: &'static str) -> Run {
        self.severity = Some(severity);
        self
    }

    fn says(mut self, text: &'static str) -> Run {
        self.says = Some(text);
        self
    }

    fn allow(mut self, rules: &[&'static str]) -> Run {
        self.allow = rules.to_vec();
        self
    }
}

/// A rule's firing transcripts and near misses.
struct Case {
    rule: &'static str,
    fires: Vec<Run>,
    misses: Vec<Run>,
}

impl Case {
    fn new(rule: &'static str) -> Case {
        Case {
            rule,
            fires: Vec::new(),
            misses: Vec::new(),
        }
    }

    fn fires(mut self, run: Run) -> Case {
        self.fires.push(run);
        self
    }

    fn misses(mut self, run: Run) -> Case {
        self.misses.push(run);
        self
    }
}

/// `kibitzer check --format json` over a transcript.
fn report_of(text: &str, args: &[&str]) -> CheckReport {
    let dir = tempfile::tempdir().expect("tempdir");
    let rec = recording(dir.path(), "t", text);
    check_report(&rec, args).0
}

fn all_findings(report: &CheckReport) -> Vec<Finding> {
    findings(report).cloned().collect()
}

fn show(f: &Finding) -> String {
    format!(
        "line {}: {}[{}] {}: {}",
        f.line.map_or("-".to_owned(), |l| l.to_string()),
        f.severity.as_str(),
        f.rule,
        f.side.as_str(),
        f.message
    )
}

fn show_all(report: &CheckReport) -> String {
    let all: Vec<String> = all_findings(report).iter().map(show).collect();
    if all.is_empty() {
        "    (no findings)".to_owned()
    } else {
        all.iter()
            .map(|s| format!("    {s}"))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// The transcript, indented, at most 40 lines (the flood transcripts are long).
fn excerpt(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut out: Vec<String> = lines.iter().take(40).map(|l| format!("    {l}")).collect();
    if lines.len() > 40 {
        out.push(format!("    ... ({} more lines)", lines.len() - 40));
    }
    out.join("\n")
}

/// Runs every transcript of the rule's case and fails with all that went wrong.
fn check_rule(id: &'static str) {
    let case = case(id);
    assert_eq!(case.rule, id, "case() returned the case of another rule");
    assert!(
        !case.fires.is_empty() && !case.misses.is_empty(),
        "{id}: a case needs a firing transcript and a near miss"
    );
    let cat = catalogue();
    let Some(entry) = cat.iter().find(|r| r.id == id) else {
        panic!("{id} is not in docs/rules.md");
    };
    let mut failures = Vec::new();
    for run in &case.fires {
        let report = report_of(&run.text, &run.args);
        let found: Vec<Finding> = all_findings(&report)
            .into_iter()
            .filter(|f| f.rule == id)
            .collect();
        let mut why = Vec::new();
        if found.is_empty() {
            why.push(format!("{id} was not reported"));
        }
        for f in &found {
            let severity = run.severity.unwrap_or(entry.severity.as_str());
            if f.severity.as_str() != severity {
                why.push(format!(
                    "severity {} instead of the catalogue's {severity}: {}",
                    f.severity.as_str(),
                    show(f)
                ));
            }
            let side = f.side.as_str();
            let expected = run.side.unwrap_or(entry.side.as_str());
            if expected == "either" {
                if side != "gui" && side != "engine" {
                    why.push(format!(
                        "an `either` rule must name the side at fault: {}",
                        show(f)
                    ));
                }
            } else if side != expected {
                why.push(format!("side {side} instead of {expected}: {}", show(f)));
            }
        }
        if let Some(text) = run.says
            && !found.is_empty()
            && !found.iter().any(|f| f.message.contains(text))
        {
            why.push(format!("no {id} finding says `{text}`"));
        }
        if !why.is_empty() {
            failures.push(format!(
                "{id}: FIRING transcript `{}` (args {:?}): {}\n  transcript:\n{}\n  findings:\n{}",
                run.label,
                run.args,
                why.join("; "),
                excerpt(&run.text),
                show_all(&report)
            ));
        }
    }
    for run in &case.misses {
        let report = report_of(&run.text, &run.args);
        let all = all_findings(&report);
        let mut why = Vec::new();
        if all.iter().any(|f| f.rule == id) {
            why.push(format!("{id} was reported on this correct session"));
        }
        let serious: Vec<String> = all
            .iter()
            .filter(|f| f.severity >= Severity::Warning)
            .filter(|f| f.rule != id)
            .filter(|f| !run.allow.iter().any(|a| f.rule == *a))
            .map(show)
            .collect();
        if !serious.is_empty() {
            why.push(format!(
                "the near miss is meant to be a correct session, but other rules found: {}",
                serious.join(" | ")
            ));
        }
        if !why.is_empty() {
            failures.push(format!(
                "{id}: NEAR MISS transcript `{}` (args {:?}): {}\n  transcript:\n{}\n  findings:\n{}",
                run.label,
                run.args,
                why.join("; "),
                excerpt(&run.text),
                show_all(&report)
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}\n", failures.join("\n\n"));
}

// ---------------------------------------------------------------------------------------------
// Building blocks of the transcripts.

/// The engine starts, the GUI sends `uci`, the engine identifies itself and its options.
const HANDSHAKE: &str = "
    0.000 ! spawned engine
    0.001 > uci
    0.010 < id name Engine 1.0
    0.011 < id author Tester
    0.012 < option name Hash type spin default 16 min 1 max 1024
    0.013 < option name Threads type spin default 1 min 1 max 64
    0.014 < option name Ponder type check default false
    0.015 < option name UCI_Chess960 type check default false
    0.016 < option name SyzygyPath type string default <empty>
    0.017 < option name Style type combo default Normal var Solid var Normal var Risky
    0.018 < option name Clear Hash type button
    0.019 < uciok
";

/// The handshake, then `body` (times from 0.020 on).
fn after_handshake(body: &str) -> String {
    format!("{HANDSHAKE}{body}")
}

/// The handshake and a first `isready`/`readyok`, then `body` (times from 0.030 on).
fn after_ready(body: &str) -> String {
    format!("{HANDSHAKE}    0.020 > isready\n    0.021 < readyok\n{body}")
}

/// The handshake, `isready`, and a new game synchronised with `isready`; then `body` (times
/// from 0.100 on).
/// REPLAY-NONDETERMINISTIC-SETUP is a replay diagnostic: `check` shows it only when asked
/// for by id.
#[test]
fn replay_nondeterministic_setup_is_said_when_asked_for() {
    let clocked = in_game(
        "
        0.100 > position startpos
        0.101 > go wtime 60000 btime 60000
        0.200 < bestmove e2e4
        0.300 > quit
        0.350 ! engine_exit code=0 engine exited with code 0
        ",
    );
    let asked = common::transcript::fired(&clocked, &["--rule", "REPLAY-NONDETERMINISTIC-SETUP"]);
    assert_eq!(asked, ["REPLAY-NONDETERMINISTIC-SETUP"]);
    let default = common::transcript::fired(&clocked, &[]);
    assert!(
        !default.iter().any(|r| r.starts_with("REPLAY-")),
        "{default:?}"
    );
    let fixed = in_game(
        "
        0.100 > position startpos
        0.101 > go nodes 10000
        0.200 < bestmove e2e4
        0.300 > quit
        0.350 ! engine_exit code=0 engine exited with code 0
        ",
    );
    let asked = common::transcript::fired(&fixed, &["--rule", "REPLAY-NONDETERMINISTIC-SETUP"]);
    assert!(asked.is_empty(), "{asked:?}");
}

fn in_game(body: &str) -> String {
    after_ready(&format!(
        "    0.030 > ucinewgame\n    0.031 > isready\n    0.032 < readyok\n{body}"
    ))
}

/// A search that starts at 0.101 and prints `lines` info lines spread evenly over `span`
/// seconds from 0.2 s, then is stopped.
fn flood(lines: usize, span: f64) -> String {
    let mut body =
        String::from("    0.100 > position startpos moves e2e4\n    0.101 > go infinite\n");
    for i in 0..lines {
        let at = 0.2 + span * (i as f64) / (lines as f64);
        body.push_str(&format!(
            "    {at:.6} < info depth 1 nodes {} time {}\n",
            100 + i,
            ((at - 0.101) * 1000.0) as u64
        ));
    }
    let end = 0.2 + span + 0.1;
    body.push_str(&format!(
        "    {end:.3} > stop\n    {:.3} < bestmove e7e5\n    {:.3} > quit\n    {:.3} ! engine_exit code=0 engine exited with code 0\n",
        end + 0.001,
        end + 0.1,
        end + 0.15
    ));
    in_game(&body)
}

/// `searches` short searches within one second, each printing `lines` info lines at once, as
/// Stockfish prints depths 1 to 245 the moment it sees a mate.
fn mate_bursts(searches: usize, lines: usize) -> String {
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3",
    ];
    let mut body = String::new();
    for s in 0..searches {
        let at = 0.1 + 0.2 * s as f64;
        let played = moves[..2 * s + 1].join(" ");
        let reply = moves[2 * s + 1];
        body.push_str(&format!(
            "    {at:.3} > position startpos moves {played}\n    {:.3} > go movetime 50\n",
            at + 0.001
        ));
        for d in 0..lines {
            body.push_str(&format!(
                "    {:.4} < info depth {} score cp 10 nodes {} time 1 pv {reply}\n",
                at + 0.01,
                d + 1,
                100 + d
            ));
        }
        body.push_str(&format!("    {:.3} < bestmove {reply}\n", at + 0.02));
    }
    body.push_str("    1.000 > quit\n    1.050 ! engine_exit code=0 engine exited with code 0\n");
    in_game(&body)
}

/// A search on K+B v K: no mate is possible, yet every move of the board is legal and the
/// position is neither checkmate nor stalemate.
const KB_V_K: &str = "
    0.000 ! spawned engine
    0.001 > uci
    0.010 < id name Engine 1.0
    0.010 < id author A. Author
    0.011 < uciok
    0.020 > isready
    0.021 < readyok
    0.100 > position fen 7k/8/8/8/8/8/8/6BK w - - 0 1
    0.101 > go movetime 100
    0.200 < bestmove h1g2
    0.300 > quit
    0.350 ! engine_exit code=0 engine exited with code 0
";

// ---------------------------------------------------------------------------------------------
// The cases, by rule.

fn case(id: &str) -> Case {
    match id {
        // ----- Handshake -----
        "UCI-FIRST-COMMAND" => Case::new("UCI-FIRST-COMMAND")
            .fires(t("isready before uci", "
                0.000 ! spawned engine
                0.001 > isready
                0.002 < readyok
                0.003 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            ").says("isready"))
            .misses(t("uci first", "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            "))
            .misses(t("recording starts mid-session (no spawn seen): the start is not judged", "
                0.001 > isready
                0.002 < readyok
                0.010 > position startpos moves e2e4
                0.011 > go movetime 100
                0.110 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ")),

        "UCI-UNSOLICITED-OUTPUT" => Case::new("UCI-UNSOLICITED-OUTPUT")
            .fires(t("uciok before uci", "
                0.000 ! spawned engine
                0.001 < uciok
                0.002 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            "))
            .fires(t("id name before uci", "
                0.000 ! spawned engine
                0.001 < id name Engine 1.0
                0.001 < id author A. Author
                0.002 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            "))
            .misses(t("a banner (no protocol token) before uci", "
                0.000 ! spawned engine
                0.001 < Engine 1.0 by Tester
                0.002 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            ")),

        "UCI-ID-MISSING" => Case::new("UCI-ID-MISSING")
            .fires(t("id name but no id author before uciok", "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.011 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            "))
            .fires(t("options and uciok without id", "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < option name Hash type spin default 16 min 1 max 1024
                0.011 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            "))
            .misses(t("id name and author before uciok", "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.011 < id author Tester
                0.012 < option name Hash type spin default 16 min 1 max 1024
                0.013 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            ")),

        "UCI-UCIOK-TIMEOUT" => Case::new("UCI-UCIOK-TIMEOUT")
            .fires(t("uciok 36 s after uci (cutechess allows 35 s)", "
                0.000 ! spawned engine
                0.001 > uci
                36.000 < id name Engine 1.0
                36.000 < id author A. Author
                36.001 < uciok
                36.010 > isready
                36.011 < readyok
                36.100 > quit
                36.150 ! engine_exit code=0 engine exited with code 0
            "))
            .fires(t("uciok 11 s after uci under fastchess (10 s)", "
                0.000 ! spawned engine
                0.001 > uci
                11.000 < id name Engine 1.0
                11.000 < id author A. Author
                11.001 < uciok
                11.010 > isready
                11.011 < readyok
                11.100 > quit
                11.150 ! engine_exit code=0 engine exited with code 0
            ").args(&["--profile", "fastchess"]))
            .fires(t("no uciok at all; the GUI kills the engine after 40 s", "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                40.000 ! engine_exit signal=SIGKILL engine killed by SIGKILL (9)
            "))
            .misses(t("uciok 34 s after uci (cutechess)", "
                0.000 ! spawned engine
                0.001 > uci
                34.000 < id name Engine 1.0
                34.000 < id author A. Author
                34.001 < uciok
                34.010 > isready
                34.011 < readyok
                34.100 > quit
                34.150 ! engine_exit code=0 engine exited with code 0
            "))
            .misses(t("uciok 11 s after uci under cutechess (35 s)", "
                0.000 ! spawned engine
                0.001 > uci
                11.000 < id name Engine 1.0
                11.000 < id author A. Author
                11.001 < uciok
                11.010 > isready
                11.011 < readyok
                11.100 > quit
                11.150 ! engine_exit code=0 engine exited with code 0
            ")),

        "UCI-OPTION-AFTER-UCIOK" => Case::new("UCI-OPTION-AFTER-UCIOK")
            .fires(t("option after uciok", "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.012 < option name Hash type spin default 16 min 1 max 1024
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            ").says("Hash"))
            .misses(t("option before uciok", "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < option name Hash type spin default 16 min 1 max 1024
                0.012 < uciok
                0.020 > isready
                0.021 < readyok
                0.100 > quit
                0.150 ! engine_exit code=0 engine exited with code 0
            ")),

        "UCI-OPTION-MALFORMED" => {
            let decl = |line: &str| {
                format!(
                    "
                    0.000 ! spawned engine
                    0.001 > uci
                    0.010 < id name Engine 1.0
                    0.010 < id author A. Author
                    0.011 < {line}
                    0.012 < uciok
                    0.020 > isready
                    0.021 < readyok
                    0.100 > quit
                    0.150 ! engine_exit code=0 engine exited with code 0
                    "
                )
            };
            Case::new("UCI-OPTION-MALFORMED")
                .fires(t("spin default above max", decl(
                    "option name Hash type spin default 2048 min 1 max 1024",
                )).says("Hash"))
                .fires(t("spin default below min", decl(
                    "option name Threads type spin default 0 min 1 max 64",
                )))
                .fires(t("combo default not among its vars", decl(
                    "option name Style type combo default Wild var Solid var Normal var Risky",
                )))
                .fires(t("unknown type", decl(
                    "option name Hash type slider default 16 min 1 max 1024",
                )))
                .fires(t("no type", decl("option name Hash default 16 min 1 max 1024")))
                .fires(t("no name", decl("option type spin default 16 min 1 max 1024")))
                .misses(t("well-formed options of all five types", "
                    0.000 ! spawned engine
                    0.001 > uci
                    0.010 < id name Engine 1.0
                    0.010 < id author A. Author
                    0.011 < option name Hash type spin default 16 min 1 max 1024
                    0.012 < option name Threads type spin default 1 min 1 max 64
                    0.013 < option name Ponder type check default false
                    0.014 < option name Style type combo default Normal var Solid var Normal var Risky
                    0.015 < option name Clear Hash type button
                    0.016 < option name SyzygyPath type string default <empty>
                    0.017 < option name Debug Log File type string default
                    0.018 < uciok
                    0.020 > isready
                    0.021 < readyok
                    0.100 > quit
                    0.150 ! engine_exit code=0 engine exited with code 0
                "))
                .misses(t("spin default on the bounds", decl(
                    "option name Hash type spin default 1024 min 1 max 1024",
                )))
        }

        "UCI-GO-BEFORE-READYOK" => Case::new("UCI-GO-BEFORE-READYOK")
            .fires(t("position and go right after uciok, no isready", after_handshake("
                0.030 > position startpos moves e2e4
                0.031 > go movetime 100
                0.130 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ")))
            .fires(t("isready sent, but go before its readyok", after_handshake("
                0.020 > isready
                0.030 > position startpos moves e2e4
                0.031 > go movetime 100
                0.040 < readyok
                0.130 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("isready answered before the first go", after_ready("
                0.030 > position startpos moves e2e4
                0.031 > go movetime 100
                0.130 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-REGISTER-MISSING" => {
            let session = |answer: &str| {
                format!(
                    "
                    0.000 ! spawned engine
                    0.001 > uci
                    0.010 < id name Engine 1.0
                    0.010 < id author A. Author
                    0.011 < uciok
                    0.012 < registration checking
                    0.013 < registration error
                    {answer}
                    0.030 > isready
                    0.031 < readyok
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.200 < bestmove e7e5
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                )
            };
            Case::new("UCI-REGISTER-MISSING")
                .fires(t("registration error never answered with register", session("")))
                .misses(t("register later", session("0.020 > register later")))
                .misses(t(
                    "register name ... code ...",
                    session("0.020 > register name Stefan MK code 4359874324"),
                ))
        }

        "UCI-COPYPROTECTION-IGNORED" => Case::new("UCI-COPYPROTECTION-IGNORED")
            .fires(t("the GUI starts a search after copyprotection error", "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.012 < copyprotection checking
                0.013 < copyprotection error
                0.020 > isready
                0.021 < readyok
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.200 < bestmove e7e5
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            "))
            .misses(t("the GUI quits after copyprotection error", "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.012 < copyprotection checking
                0.013 < copyprotection error
                0.020 > quit
                0.050 ! engine_exit code=0 engine exited with code 0
            "))
            .misses(t("copyprotection ok, then a search", "
                0.000 ! spawned engine
                0.001 > uci
                0.010 < id name Engine 1.0
                0.010 < id author A. Author
                0.011 < uciok
                0.012 < copyprotection checking
                0.013 < copyprotection ok
                0.020 > isready
                0.021 < readyok
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.200 < bestmove e7e5
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")),

        // ----- Sync -----
        "UCI-ISREADY-TIMEOUT" => Case::new("UCI-ISREADY-TIMEOUT")
            .fires(t("readyok 16 s after isready (cutechess allows 15 s)", in_game("
                1.000 > isready
                17.000 < readyok
                17.100 > quit
                17.150 ! engine_exit code=0 engine exited with code 0
            ")))
            .fires(t("readyok 61 s after isready under fastchess (60 s)", in_game("
                1.000 > isready
                62.000 < readyok
                62.100 > quit
                62.150 ! engine_exit code=0 engine exited with code 0
            ")).args(&["--profile", "fastchess"]))
            .fires(t("no readyok; the engine is killed at 20 s", in_game("
                1.000 > isready
                20.000 ! engine_exit signal=SIGKILL engine killed by SIGKILL (9)
            ")))
            .fires(t("no readyok for 19 s; then the GUI gives up with quit", in_game("
                1.000 > isready
                20.000 > quit
                20.050 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("readyok 13 s after isready (cutechess)", in_game("
                1.000 > isready
                14.000 < readyok
                14.100 > quit
                14.150 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("readyok 19 s after isready under fastchess (60 s)", in_game("
                1.000 > isready
                20.000 < readyok
                20.100 > quit
                20.150 ! engine_exit code=0 engine exited with code 0
            ")).args(&["--profile", "fastchess"])),

        "UCI-READYOK-DELAYED-BY-SEARCH" => Case::new("UCI-READYOK-DELAYED-BY-SEARCH")
            .fires(t("isready during go movetime answered after bestmove", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 2000
                0.500 > isready
                0.600 < info depth 5 score cp 20 nodes 5000 time 499 pv e7e5
                2.050 < bestmove e7e5
                2.051 < readyok
                2.100 > quit
                2.150 ! engine_exit code=0 engine exited with code 0
            ")))
            .fires(t("isready during go infinite; the search ends on its own 1.5 s later, then readyok", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.300 < info depth 3 score cp 20 nodes 3000 time 199 pv e7e5
                0.500 > isready
                2.000 < bestmove e7e5
                2.001 < readyok
                2.100 > quit
                2.150 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("isready after stop, answered after the bestmove (in order)", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.600 < info depth 5 score cp 20 nodes 5000 time 499 pv e7e5
                1.000 > stop
                1.001 > isready
                1.002 < bestmove e7e5
                1.003 < readyok
                1.100 > quit
                1.150 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("isready during the search answered at once", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 2000
                0.500 > isready
                0.501 < readyok
                0.600 < info depth 5 score cp 20 nodes 5000 time 499 pv e7e5
                2.050 < bestmove e7e5
                2.100 > quit
                2.150 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-ISREADY-STOPS-SEARCH" => Case::new("UCI-ISREADY-STOPS-SEARCH")
            .fires(t("isready during go infinite answered by bestmove, then readyok", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.300 < info depth 3 score cp 20 nodes 3000 time 199 pv e7e5
                0.500 > isready
                0.501 < bestmove e7e5
                0.502 < readyok
                1.000 > quit
                1.050 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("isready during go infinite answered while the search goes on", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.300 < info depth 3 score cp 20 nodes 3000 time 199 pv e7e5
                0.500 > isready
                0.501 < readyok
                0.700 < info depth 4 score cp 22 nodes 6000 time 599 pv e7e5 g1f3
                1.000 > stop
                1.001 < bestmove e7e5
                1.100 > quit
                1.150 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-READYOK-UNSOLICITED" => Case::new("UCI-READYOK-UNSOLICITED")
            .fires(t("two readyok for one isready", in_game("
                0.100 > isready
                0.101 < readyok
                0.102 < readyok
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("two isready, two readyok", in_game("
                0.100 > isready
                0.101 > isready
                0.102 < readyok
                0.103 < readyok
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-UCINEWGAME-NO-ISREADY" => Case::new("UCI-UCINEWGAME-NO-ISREADY")
            .fires(t("ucinewgame, position, go", after_ready("
                0.030 > ucinewgame
                0.040 > position startpos moves e2e4
                0.041 > go movetime 100
                0.140 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("ucinewgame, isready, readyok, position, go", after_ready("
                0.030 > ucinewgame
                0.031 > isready
                0.032 < readyok
                0.040 > position startpos moves e2e4
                0.041 > go movetime 100
                0.140 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-SETOPTION-WHILE-SEARCHING" => Case::new("UCI-SETOPTION-WHILE-SEARCHING")
            .fires(t("setoption during go infinite", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.300 < info depth 3 score cp 20 nodes 3000 time 199 pv e7e5
                0.400 > setoption name Ponder value true
                0.500 > stop
                0.501 < bestmove e7e5
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            ")).says("Ponder"))
            .fires(t("setoption after stop, before bestmove", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.300 < info depth 3 score cp 20 nodes 3000 time 199 pv e7e5
                0.500 > stop
                0.501 > setoption name Ponder value true
                0.502 < bestmove e7e5
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("setoption once bestmove came", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.300 < info depth 3 score cp 20 nodes 3000 time 199 pv e7e5
                0.500 > stop
                0.501 < bestmove e7e5
                0.502 > setoption name Ponder value true
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-SETOPTION-UNKNOWN" => {
            let set = |line: &str| {
                after_ready(&format!(
                    "
                    0.030 > {line}
                    0.031 > isready
                    0.032 < readyok
                    0.100 > quit
                    0.150 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-SETOPTION-UNKNOWN")
                .fires(t("an option the engine never declared", set(
                    "setoption name Contempt value 10",
                )).says("Contempt"))
                .fires(t("spin value above max", set("setoption name Hash value 4096")))
                .fires(t("check value not true/false", set(
                    "setoption name Ponder value yes",
                )))
                .fires(t("combo value not among its vars", set(
                    "setoption name Style value Wild",
                )))
                .misses(t("declared option, other case", set("setoption name hash value 64")))
                .misses(t("spin value on max", set("setoption name Hash value 1024")))
                .misses(t("combo value, other case", set("setoption name Style value risky")))
                .misses(t("button without value", set("setoption name Clear Hash")))
                .misses(t("string with spaces", set(
                    "setoption name SyzygyPath value /tb/3-4-5 men",
                )))
        }

        "UCI-SETOPTION-NO-ISREADY" => Case::new("UCI-SETOPTION-NO-ISREADY")
            .fires(t("setoption Hash, then go", after_ready("
                0.030 > setoption name Hash value 256
                0.040 > position startpos moves e2e4
                0.041 > go movetime 100
                0.140 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ")).says("Hash"))
            .fires(t("setoption SyzygyPath, then go", after_ready("
                0.030 > setoption name SyzygyPath value /tb
                0.040 > position startpos moves e2e4
                0.041 > go movetime 100
                0.140 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("setoption Hash, isready, readyok, then go", after_ready("
                0.030 > setoption name Hash value 256
                0.031 > isready
                0.032 < readyok
                0.040 > position startpos moves e2e4
                0.041 > go movetime 100
                0.140 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("a quick option (Ponder) straight before go", after_ready("
                0.030 > setoption name Ponder value false
                0.040 > position startpos moves e2e4
                0.041 > go movetime 100
                0.140 < bestmove e7e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            "))),

        // ----- Search lifecycle -----
        "UCI-GO-WITHOUT-POSITION" => Case::new("UCI-GO-WITHOUT-POSITION")
            .fires(t("go with no position at all", after_ready("
                0.030 > go movetime 100
                0.130 < bestmove e2e4
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ")))
            .fires(t("go after ucinewgame without a new position", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.200 < bestmove e7e5
                0.300 > ucinewgame
                0.301 > isready
                0.302 < readyok
                0.400 > go movetime 100
                0.500 < bestmove e2e4
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("position before each go", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.200 < bestmove e7e5
                0.300 > ucinewgame
                0.301 > isready
                0.302 < readyok
                0.399 > position startpos
                0.400 > go movetime 100
                0.500 < bestmove e2e4
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-GO-WHILE-SEARCHING" => Case::new("UCI-GO-WHILE-SEARCHING")
            .fires(t("go during go infinite", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                0.300 > go movetime 100
                0.400 > stop
                0.401 < bestmove e7e5
                0.500 < bestmove e7e5
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            ")))
            .fires(t("a second go movetime before the first answered", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 1000
                0.200 > go movetime 1000
                1.100 < bestmove e7e5
                2.100 < bestmove c7c5
                2.200 > quit
                2.250 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("PolyGlot's ponder miss: stop, position, go before the stale bestmove", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                0.300 > stop
                0.301 > position startpos moves d2d4
                0.302 > go movetime 100
                0.310 < bestmove e7e5
                0.320 < info depth 1 score cp 10 nodes 20 time 9 pv d7d5
                0.402 < bestmove d7d5
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("go infinite stopped and answered, then go", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                0.300 > stop
                0.301 < bestmove e7e5
                0.400 > position startpos moves e2e4
                0.401 > go movetime 100
                0.500 < bestmove e7e5
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-POSITION-WHILE-SEARCHING" => Case::new("UCI-POSITION-WHILE-SEARCHING")
            .fires(t("position during go infinite, without stop", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                0.300 > position startpos moves d2d4
                0.400 > stop
                0.401 < bestmove e7e5
                0.500 > quit
                0.550 ! engine_exit code=0 engine exited with code 0
            ")))
            .fires(t("position during go movetime", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 1000
                0.300 > position startpos moves d2d4
                1.100 < bestmove e7e5
                1.200 > quit
                1.250 ! engine_exit code=0 engine exited with code 0
            ")))
            .fires(t("position during go ponder, without stop or ponderhit", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go wtime 60000 btime 60000
                0.500 < bestmove e7e5 ponder g1f3
                0.600 > position startpos moves e2e4 e7e5 g1f3
                0.601 > go ponder wtime 60000 btime 59600
                0.800 < info depth 5 score cp 10 nodes 2000 time 199 pv b8c6
                1.000 > position startpos moves e2e4 e7e5 d2d4
                1.100 > stop
                1.101 < bestmove b8c6
                1.200 > quit
                1.250 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("stop and bestmove before the next position", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                0.300 > stop
                0.301 < bestmove e7e5
                0.400 > position startpos moves d2d4
                0.401 > go movetime 100
                0.500 < bestmove d7d5
                0.600 > quit
                0.650 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("ponder miss: stop, bestmove, then the real position", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go wtime 60000 btime 60000
                0.500 < bestmove e7e5 ponder g1f3
                0.600 > position startpos moves e2e4 e7e5 g1f3
                0.601 > go ponder wtime 60000 btime 59600
                0.800 < info depth 5 score cp 10 nodes 2000 time 199 pv b8c6
                1.000 > stop
                1.001 < bestmove b8c6
                1.002 > position startpos moves e2e4 e7e5 d2d4
                1.003 > go wtime 59000 btime 59600
                1.200 < bestmove e5d4
                1.300 > quit
                1.350 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-BESTMOVE-WITHOUT-GO" => Case::new("UCI-BESTMOVE-WITHOUT-GO")
            .fires(t("a second bestmove for one go", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.200 < bestmove e7e5
                0.201 < bestmove e7e5
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")).allow(&["UCI-BESTMOVE-ILLEGAL"]))
            .fires(t("bestmove in reply to a stop while idle", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.200 < bestmove e7e5
                0.300 > stop
                0.301 < bestmove e7e5
                0.400 > quit
                0.450 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("a stop racing the bestmove, ignored by the engine", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.200 < bestmove e7e5
                0.201 > stop
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("stop during the search, one bestmove", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 > stop
                0.201 < bestmove e7e5
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-BESTMOVE-MISSING-AFTER-STOP" => Case::new("UCI-BESTMOVE-MISSING-AFTER-STOP")
            .fires(t("bestmove 16 s after stop (cutechess allows 15 s)", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                1.000 > stop
                17.000 < bestmove e7e5
                17.100 > quit
                17.150 ! engine_exit code=0 engine exited with code 0
            ")))
            .fires(t("no bestmove after stop; the engine is killed at 20 s", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                1.000 > stop
                20.000 ! engine_exit signal=SIGKILL engine killed by SIGKILL (9)
            ")))
            .fires(t("bestmove 11 s after stop under fastchess (10 s)", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                1.000 > stop
                12.000 < bestmove e7e5
                12.100 > quit
                12.150 ! engine_exit code=0 engine exited with code 0
            ")).args(&["--profile", "fastchess"]))
            .misses(t("bestmove at once after stop", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                1.000 > stop
                1.050 < bestmove e7e5
                1.100 > quit
                1.150 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("bestmove 11 s after stop under cutechess (15 s)", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                1.000 > stop
                12.000 < bestmove e7e5
                12.100 > quit
                12.150 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-BESTMOVE-LATE" => Case::new("UCI-BESTMOVE-LATE")
            .fires(t("go movetime 1000 answered after 1.6 s", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 1000
                0.600 < info depth 5 score cp 20 nodes 5000 time 499 pv e7e5
                1.701 < bestmove e7e5
                1.800 > quit
                1.850 ! engine_exit code=0 engine exited with code 0
            ")))
            .fires(t("the same under the spec profile (same 500 ms margin)", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 1000
                0.600 < info depth 5 score cp 20 nodes 5000 time 499 pv e7e5
                1.701 < bestmove e7e5
                1.800 > quit
                1.850 ! engine_exit code=0 engine exited with code 0
            ")).args(&["--profile", "spec"]))
            .misses(t("go movetime 1000 answered after 1.4 s (within the margin)", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 1000
                0.600 < info depth 5 score cp 20 nodes 5000 time 499 pv e7e5
                1.501 < bestmove e7e5
                1.600 > quit
                1.650 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-BESTMOVE-IN-INFINITE" => Case::new("UCI-BESTMOVE-IN-INFINITE")
            .fires(t("bestmove during go infinite without stop", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                0.300 < bestmove e7e5
                0.400 > quit
                0.450 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("bestmove after stop", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 < info depth 1 score cp 20 nodes 20 time 99 pv e7e5
                0.300 > stop
                0.301 < bestmove e7e5
                0.400 > quit
                0.450 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-BESTMOVE-IN-PONDER" => {
            let ponder = |tail: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go wtime 60000 btime 60000
                    0.500 < bestmove e7e5 ponder g1f3
                    0.600 > position startpos moves e2e4 e7e5 g1f3
                    0.601 > go ponder wtime 60000 btime 59600
                    0.800 < info depth 5 score cp 10 nodes 2000 time 199 pv b8c6
                    {tail}
                    1.500 > quit
                    1.550 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-BESTMOVE-IN-PONDER")
                .fires(t("bestmove during go ponder", ponder("1.000 < bestmove b8c6")))
                .misses(t(
                    "ponderhit, then bestmove",
                    ponder("1.000 > ponderhit\n1.200 < bestmove b8c6"),
                ))
                .misses(t(
                    "stop, then bestmove",
                    ponder("1.000 > stop\n1.001 < bestmove b8c6"),
                ))
        }

        "UCI-PONDER-AUTOSTART" => Case::new("UCI-PONDER-AUTOSTART")
            .fires(t("search info of growing depth after bestmove, no go", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go wtime 60000 btime 60000
                0.400 < info depth 2 score cp 15 nodes 400 time 299 pv e7e5 g1f3
                0.500 < bestmove e7e5 ponder g1f3
                0.600 < info depth 1 score cp 10 nodes 100 time 5 pv b8c6
                0.700 < info depth 2 score cp 12 nodes 500 time 100 pv b8c6 f1b5
                0.800 < info depth 3 score cp 12 nodes 900 time 200 pv b8c6 f1b5 a7a6
                1.000 > quit
                1.050 ! engine_exit code=0 engine exited with code 0
            ")).allow(&["UCI-INFO-AFTER-BESTMOVE"]))
            .misses(t("the same info once the GUI sent go ponder", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go wtime 60000 btime 60000
                0.400 < info depth 2 score cp 15 nodes 400 time 299 pv e7e5 g1f3
                0.500 < bestmove e7e5 ponder g1f3
                0.550 > position startpos moves e2e4 e7e5 g1f3
                0.551 > go ponder wtime 60000 btime 59600
                0.600 < info depth 1 score cp 10 nodes 100 time 5 pv b8c6
                0.700 < info depth 2 score cp 12 nodes 500 time 100 pv b8c6 f1b5
                0.800 < info depth 3 score cp 12 nodes 900 time 200 pv b8c6 f1b5 a7a6
                0.900 > stop
                0.901 < bestmove b8c6
                1.000 > quit
                1.050 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-PONDERHIT-WITHOUT-PONDER" => Case::new("UCI-PONDERHIT-WITHOUT-PONDER")
            .fires(t("ponderhit during a normal search", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 1000
                0.300 > ponderhit
                1.100 < bestmove e7e5
                1.200 > quit
                1.250 ! engine_exit code=0 engine exited with code 0
            ")))
            .fires(t("a second ponderhit after the ponder search ended", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go wtime 60000 btime 60000
                0.500 < bestmove e7e5 ponder g1f3
                0.600 > position startpos moves e2e4 e7e5 g1f3
                0.601 > go ponder wtime 60000 btime 59600
                1.000 > ponderhit
                1.200 < bestmove b8c6
                1.300 > ponderhit
                1.400 > quit
                1.450 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("ponderhit during go ponder", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go wtime 60000 btime 60000
                0.500 < bestmove e7e5 ponder g1f3
                0.600 > position startpos moves e2e4 e7e5 g1f3
                0.601 > go ponder wtime 60000 btime 59600
                1.000 > ponderhit
                1.200 < bestmove b8c6
                1.400 > quit
                1.450 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-GO-ON-TERMINAL-POSITION" => Case::new("UCI-GO-ON-TERMINAL-POSITION")
            .fires(t("go after fool's mate", in_game("
                0.100 > position startpos moves f2f3 e7e5 g2g4 d8h4
                0.101 > go movetime 100
                0.110 < bestmove 0000
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ")))
            .fires(t("go on a stalemate", in_game("
                0.100 > position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1
                0.101 > go movetime 100
                0.110 < bestmove (none)
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("go one move before the mate", in_game("
                0.100 > position startpos moves f2f3 e7e5 g2g4
                0.101 > go movetime 100
                0.200 < bestmove d8h4
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("go on a position in check with two escapes", in_game("
                0.100 > position fen 7k/8/5Q2/8/8/8/8/6K1 b - - 0 1
                0.101 > go movetime 100
                0.200 < bestmove h8g8
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("go on a drawn ending that is no mate or stalemate (K+B v K)", in_game(KB_V_K)))
            // python-chess ponders on the predicted move even when it mates: the opponent has
            // not played it, the game is not over.
            .misses(t("go ponder on a predicted mate", in_game("
                0.100 > position startpos moves f2f3 e7e5 g2g4 d8h4
                0.101 > go ponder wtime 1000 btime 1000
                0.110 < info depth 0 score mate 0
                0.200 > stop
                0.201 < bestmove (none)
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-GO-EMPTY-SEARCHMOVES" => {
            let search = |moves: &str, go: &str, best: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves {moves}
                    0.101 > {go}
                    0.200 < bestmove {best}
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            const ITALIAN: &str = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6";
            Case::new("UCI-GO-EMPTY-SEARCHMOVES")
                .fires(t(
                    "searchmoves names a white move with black to move",
                    search("e2e4", "go movetime 100 searchmoves e7e5 d2d4", "e7e5"),
                ).says("d2d4"))
                .fires(t(
                    "every searchmove is illegal: the restriction is empty",
                    search("e2e4", "go movetime 100 searchmoves e2e4", "e7e5"),
                ))
                .fires(t(
                    "an illegal searchmove, then the clock (the list ends at the keyword)",
                    search("e2e4", "go searchmoves e7e5 e5e4 movetime 100", "e7e5"),
                ))
                .misses(t(
                    "legal searchmoves",
                    search("e2e4", "go movetime 100 searchmoves e7e5 c7c5", "e7e5"),
                ))
                .misses(t(
                    "legal searchmoves, then the clock",
                    search("e2e4", "go searchmoves e7e5 c7c5 movetime 100", "c7c5"),
                ))
                .misses(t(
                    "castling (e1g1) among the searchmoves",
                    search(ITALIAN, "go movetime 100 searchmoves e1g1 d2d3", "e1g1"),
                ))
        }

        "UCI-STOP-WITHOUT-SEARCH" => Case::new("UCI-STOP-WITHOUT-SEARCH")
            .fires(t("stop with no search ever started", in_game("
                0.100 > stop
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ")))
            .fires(t("stop after the search answered", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.200 < bestmove e7e5
                0.300 > stop
                0.400 > quit
                0.450 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("stop during go infinite", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.200 > stop
                0.201 < bestmove e7e5
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            "))),

        // ----- Move legality and notation -----
        "UCI-MOVE-FORMAT" => {
            let answer = |position: &str, bestmove: &str| {
                in_game(&format!(
                    "
                    0.100 > {position}
                    0.101 > go movetime 100
                    0.200 < {bestmove}
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-MOVE-FORMAT")
                .fires(t("bestmove in upper case", answer(
                    "position startpos moves e2e4",
                    "bestmove E7E5",
                )).side("engine").says("E7E5"))
                .fires(t("promotion piece in upper case", answer(
                    "position fen 7k/4P3/8/8/8/8/8/4K3 w - - 0 1",
                    "bestmove e7e8Q",
                )).side("engine"))
                .fires(t("ponder move in upper case", answer(
                    "position startpos moves e2e4",
                    "bestmove e7e5 ponder G1F3",
                )).side("engine"))
                .fires(t("GUI sends a move in upper case", "
                    0.000 ! spawned engine
                    0.001 > uci
                    0.010 < id name Engine 1.0
                    0.010 < id author A. Author
                    0.011 < uciok
                    0.020 > isready
                    0.021 < readyok
                    0.100 > position startpos moves E2E4
                    0.200 > quit
                    0.250 ! engine_exit code=0 engine exited with code 0
                ").side("gui"))
                .misses(t("lower case moves", answer(
                    "position startpos moves e2e4",
                    "bestmove e7e5 ponder g1f3",
                )))
                .misses(t("lower case promotion", answer(
                    "position fen 7k/4P3/8/8/8/8/8/4K3 w - - 0 1",
                    "bestmove e7e8q",
                )))
        }

        "UCI-BESTMOVE-NULL-FORMAT" => {
            const STALEMATE: &str = "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
            const MATED: &str = "position startpos moves f2f3 e7e5 g2g4 d8h4";
            let answer = |position: &str, best: &str| {
                in_game(&format!(
                    "
                    0.100 > {position}
                    0.101 > go movetime 100
                    0.110 < bestmove {best}
                    0.200 > quit
                    0.250 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            // The GUI's `go` on a finished game is its own fault (UCI-GO-ON-TERMINAL-POSITION).
            let terminal = ["UCI-GO-ON-TERMINAL-POSITION"];
            Case::new("UCI-BESTMOVE-NULL-FORMAT")
                .fires(t("bestmove a1a1 on a stalemate", answer(STALEMATE, "a1a1")).says("0000"))
                .fires(t("bestmove e1e1 after fool's mate", answer(MATED, "e1e1")))
                .fires(t(
                    "Stockfish's bestmove (none) on a stalemate: a note",
                    answer(STALEMATE, "(none)"),
                ).severity("note"))
                .misses(t("bestmove 0000 on a stalemate", answer(STALEMATE, "0000")).allow(&terminal))
                .misses(t("bestmove 0000 after fool's mate", answer(MATED, "0000")).allow(&terminal))
                .misses(t(
                    "bestmove a1a1 where moves exist: an illegal move, not a null move",
                    answer("position startpos moves e2e4", "a1a1"),
                ).allow(&["UCI-BESTMOVE-ILLEGAL"]))
        }

        "UCI-POSITION-ILLEGAL-MOVE" => Case::new("UCI-POSITION-ILLEGAL-MOVE")
            .fires(t("a pawn moving into a blocked square", in_game("
                0.100 > position startpos moves e2e4 e7e5 e4e5
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ")).says("e4e5"))
            .misses(t("legal moves", in_game("
                0.100 > position startpos moves e2e4 e7e5 g1f3
                0.101 > go movetime 100
                0.200 < bestmove b8c6
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-POSITION-BAD-FEN" => {
            let fen = |fen: &str| {
                in_game(&format!(
                    "
                    0.100 > position fen {fen}
                    0.200 > quit
                    0.250 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-POSITION-BAD-FEN")
                .fires(t("a rank of nine squares", fen(
                    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                )))
                .fires(t("side to move neither w nor b", fen(
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                )))
                .fires(t("castling rights without the rooks", fen(
                    "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
                )))
                .misses(t("a valid FEN", fen(
                    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                )))
                .misses(t("a valid endgame FEN without castling rights", fen(
                    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
                )))
        }

        "UCI-BESTMOVE-ILLEGAL" => {
            let answer = |bestmove: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.200 < {bestmove}
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-BESTMOVE-ILLEGAL")
                .fires(t("a pawn jumping three squares", answer("bestmove e7e4")).says("e7e4"))
                .fires(t("the null move while legal moves exist", answer("bestmove 0000")))
                .misses(t("a legal move", answer("bestmove e7e5")))
                .misses(t(
                    "a legal move in a drawn ending that is no mate or stalemate (K+B v K)",
                    KB_V_K,
                )
                // Whether a dead position is "terminal" is that rule's test, not this one's.
                .allow(&["UCI-GO-ON-TERMINAL-POSITION"]))
        }

        "UCI-PONDER-MOVE-ILLEGAL" => {
            let answer = |bestmove: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.200 < {bestmove}
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-PONDER-MOVE-ILLEGAL")
                .fires(t("a knight move no knight can make", answer(
                    "bestmove e7e5 ponder g1g3",
                )).says("g1g3"))
                .misses(t("a legal ponder move", answer("bestmove e7e5 ponder g1f3")))
        }

        "UCI-CASTLING-NOTATION" => {
            const ITALIAN: &str = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6";
            let standard = |bestmove: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves {ITALIAN}
                    0.101 > go movetime 100
                    0.200 < {bestmove}
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            let chess960 = |bestmove: &str| {
                after_ready(&format!(
                    "
                    0.030 > setoption name UCI_Chess960 value true
                    0.031 > ucinewgame
                    0.032 > isready
                    0.033 < readyok
                    0.100 > position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves {ITALIAN}
                    0.101 > go movetime 100
                    0.200 < {bestmove}
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            let gui = |castle: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves {ITALIAN} {castle}
                    0.101 > go movetime 100
                    0.200 < bestmove d7d6
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-CASTLING-NOTATION")
                .fires(t("engine castles king-takes-rook in standard chess",
                    standard("bestmove e1h1")).side("engine"))
                .fires(t("engine castles e1g1-style with UCI_Chess960 on",
                    chess960("bestmove e1g1")).side("engine"))
                .fires(t("GUI sends king-takes-rook castling in standard chess",
                    gui("e1h1")).side("gui"))
                .misses(t("e1g1 in standard chess", standard("bestmove e1g1")))
                .misses(t("e1h1 with UCI_Chess960 on", chess960("bestmove e1h1")))
                .misses(t("GUI sends e1g1 in standard chess", gui("e1g1")))
        }

        "UCI-CHESS960-OPTION-NOT-SET" => {
            // The Chess960 start position BBQNNRKR: king on g1, rooks on f1 and h1.
            const SHREDDER: &str = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
            const XFEN: &str = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";
            const NO_CASTLING: &str = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w - - 0 1";
            const STANDARD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
            let game = |setoption: &str, fen: &str| {
                after_ready(&format!(
                    "
                    {setoption}
                    0.031 > ucinewgame
                    0.032 > isready
                    0.033 < readyok
                    0.100 > position fen {fen} moves e2e4
                    0.101 > go movetime 100
                    0.200 < bestmove e7e5
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            let on = "0.030 > setoption name UCI_Chess960 value true";
            let off = "0.030 > setoption name UCI_Chess960 value false";
            Case::new("UCI-CHESS960-OPTION-NOT-SET")
                .fires(t("Shredder castling rights (HFhf), option never set", game("", SHREDDER))
                    .says("UCI_Chess960"))
                .fires(t("KQkq rights with the king on g1, option never set", game("", XFEN)))
                .fires(t("Shredder castling rights, option set to false", game(off, SHREDDER)))
                .misses(t("Shredder castling rights, UCI_Chess960 set to true", game(on, SHREDDER)))
                .misses(t("KQkq rights with the king on g1, UCI_Chess960 set", game(on, XFEN)))
                .misses(t("the standard start as a FEN (KQkq, king on e1)", game("", STANDARD)))
                .misses(t("a Chess960 position without castling rights", game("", NO_CASTLING)))
                // Without Chess960 on, the board reads HFhf as no castling rights of standard
                // chess: that is UCI-POSITION-BAD-FEN's to say, not this rule's.
                .misses(t("an engine that declares no UCI_Chess960", "
                    0.000 ! spawned engine
                    0.001 > uci
                    0.010 < id name Engine 1.0
                    0.010 < id author A. Author
                    0.011 < option name Hash type spin default 16 min 1 max 1024
                    0.012 < uciok
                    0.020 > isready
                    0.021 < readyok
                    0.030 > ucinewgame
                    0.031 > isready
                    0.032 < readyok
                    0.100 > position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 moves e2e4
                    0.101 > go movetime 100
                    0.200 < bestmove e7e5
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                ").allow(&["UCI-POSITION-BAD-FEN"]))
        }

        // ----- Info lines -----
        "UCI-INFO-AFTER-BESTMOVE" => Case::new("UCI-INFO-AFTER-BESTMOVE")
            .fires(t("the final info after bestmove", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.150 < info depth 1 score cp 20 nodes 20 time 49 pv e7e5
                0.200 < bestmove e7e5 ponder g1f3
                0.201 < info depth 2 score cp 15 nodes 400 time 99 pv e7e5 g1f3
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("the final info before bestmove", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.150 < info depth 1 score cp 20 nodes 20 time 49 pv e7e5
                0.199 < info depth 2 score cp 15 nodes 400 time 98 pv e7e5 g1f3
                0.200 < bestmove e7e5 ponder g1f3
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("only info string after bestmove", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.150 < info depth 1 score cp 20 nodes 20 time 49 pv e7e5
                0.200 < bestmove e7e5 ponder g1f3
                0.201 < info string search finished, hash 3% full
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-INFO-PV-ILLEGAL" => {
            let pv = |pv: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.150 < info depth 2 score cp 20 nodes 200 time 49 pv {pv}
                    0.200 < bestmove e7e5
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-INFO-PV-ILLEGAL")
                .fires(t("second pv move impossible", pv("e7e5 g1g3")).says("g1g3"))
                .misses(t("a legal pv", pv("e7e5 g1f3 b8c6")))
        }

        "UCI-INFO-SCORE-UNIT" => {
            let info = |score: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.150 < info depth 5 {score} nodes 2000 time 49 pv e7e5
                    0.200 < bestmove e7e5
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-INFO-SCORE-UNIT")
                .fires(t("score without unit", info("score 35")))
                .fires(t("score in an unknown unit", info("score centipawns 35")))
                .misses(t("score cp", info("score cp 35")))
                .misses(t("score cp with a bound", info("score cp 35 upperbound")))
                .misses(t("score mate, negative", info("score mate -3")))
        }

        "UCI-INFO-SELDEPTH-WITHOUT-DEPTH" => {
            let info = |fields: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.150 < info {fields} score cp 20 nodes 2000 time 49 pv e7e5
                    0.200 < bestmove e7e5
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-INFO-SELDEPTH-WITHOUT-DEPTH")
                .fires(t("seldepth alone", info("seldepth 7")))
                .misses(t("depth and seldepth", info("depth 5 seldepth 7")))
        }

        "UCI-INFO-NONINTEGER" => {
            let info = |fields: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.150 < info {fields} pv e7e5
                    0.200 < bestmove e7e5
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-INFO-NONINTEGER")
                .fires(t("fractional time", info("depth 5 score cp 20 nodes 2000 time 12.5")))
                .fires(t("nodes with a suffix", info("depth 5 score cp 20 nodes 2k time 49")))
                .fires(t("fractional centipawns", info("depth 5 score cp 20.5 nodes 2000 time 49")))
                .fires(t("fractional nps", info("depth 5 score cp 20 nodes 2000 nps 40816.3 time 49")))
                .fires(t("fractional depth", info("depth 5.0 score cp 20 nodes 2000 time 49")))
                .misses(t("integers everywhere", info(
                    "depth 5 seldepth 7 score cp -20 nodes 2000 nps 40816 time 49",
                )))
        }

        "UCI-INFO-MULTIPV-INCOMPLETE" => {
            // MultiPV `k`, then `go depth 3` on `position` with the engine's `lines`.
            let analysis = |k: u32, position: &str, lines: &str, best: &str| {
                format!(
                    "
                    0.000 ! spawned engine
                    0.001 > uci
                    0.010 < id name Engine 1.0
                    0.010 < id author A. Author
                    0.011 < option name MultiPV type spin default 1 min 1 max 500
                    0.012 < uciok
                    0.020 > setoption name MultiPV value {k}
                    0.021 > isready
                    0.022 < readyok
                    0.030 > ucinewgame
                    0.031 > isready
                    0.032 < readyok
                    0.100 > position {position}
                    0.101 > go depth 3
                    {lines}
                    0.400 < bestmove {best}
                    0.500 > quit
                    0.550 ! engine_exit code=0 engine exited with code 0
                    "
                )
            };
            const DEPTH_1: &str = "
                0.150 < info depth 1 multipv 1 score cp 30 nodes 60 time 49 pv e7e5
                0.151 < info depth 1 multipv 2 score cp 25 nodes 60 time 50 pv c7c5
                0.152 < info depth 1 multipv 3 score cp 20 nodes 60 time 51 pv e7e6";
            const DEPTH_2: &str = "
                0.250 < info depth 2 multipv 1 score cp 20 nodes 600 time 149 pv e7e5 g1f3
                0.251 < info depth 2 multipv 2 score cp 15 nodes 600 time 150 pv c7c5 g1f3
                0.252 < info depth 2 multipv 3 score cp 10 nodes 600 time 151 pv e7e6 d2d4";
            const DEPTH_2_OF_3: &str = "
                0.250 < info depth 2 multipv 1 score cp 20 nodes 600 time 149 pv e7e5 g1f3
                0.251 < info depth 2 multipv 2 score cp 15 nodes 600 time 150 pv c7c5 g1f3";
            const DEPTH_2_REPEATS_1: &str = "
                0.250 < info depth 2 multipv 1 score cp 25 upperbound nodes 500 time 149 pv e7e5 g1f3
                0.251 < info depth 2 multipv 1 score cp 20 nodes 600 time 150 pv e7e5 g1f3
                0.252 < info depth 2 multipv 2 score cp 15 nodes 600 time 151 pv c7c5 g1f3";
            const DEPTH_3: &str = "
                0.350 < info depth 3 multipv 1 score cp 20 nodes 6000 time 249 pv e7e5 g1f3 b8c6
                0.351 < info depth 3 multipv 2 score cp 15 nodes 6000 time 250 pv c7c5 g1f3 d7d6
                0.352 < info depth 3 multipv 3 score cp 10 nodes 6000 time 251 pv e7e6 d2d4 d7d5";
            const E4: &str = "startpos moves e2e4";
            // 1.e4 f6 2.Qh5+: g6 is black's only move, so one line is all MultiPV 3 can show.
            const ONE_REPLY: &str = "
                0.150 < info depth 1 multipv 1 score cp -300 nodes 10 time 49 pv g7g6
                0.250 < info depth 2 multipv 1 score cp -300 nodes 40 time 149 pv g7g6 h5g6
                0.350 < info depth 3 multipv 1 score cp -250 nodes 90 time 249 pv g7g6 h5g6 h7g6";
            Case::new("UCI-INFO-MULTIPV-INCOMPLETE")
                .fires(t(
                    "MultiPV 3: depth 2 reports two lines, then depth 3 starts",
                    analysis(3, E4, &format!("{DEPTH_1}{DEPTH_2_OF_3}{DEPTH_3}"), "e7e5"),
                ).says("depth 2"))
                .fires(t(
                    "MultiPV 3: depth 2 sends multipv 1 twice (a re-search) and multipv 2, never 3",
                    analysis(3, E4, &format!("{DEPTH_1}{DEPTH_2_REPEATS_1}{DEPTH_3}"), "e7e5"),
                ))
                .misses(t(
                    "MultiPV 3: every depth reports its three lines",
                    analysis(3, E4, &format!("{DEPTH_1}{DEPTH_2}{DEPTH_3}"), "e7e5"),
                ))
                .misses(t(
                    "MultiPV 2: depths of two lines (the third is not asked for)",
                    analysis(2, E4, &format!("{DEPTH_1}{DEPTH_2}{DEPTH_3}")
                        .lines()
                        .filter(|l| !l.contains("multipv 3"))
                        .collect::<Vec<_>>()
                        .join("\n"), "e7e5"),
                ))
                .misses(t(
                    "MultiPV 3 on a position with one legal move: one line per depth",
                    analysis(3, "startpos moves e2e4 f7f6 d1h5", ONE_REPLY, "g7g6"),
                ))
        }

        "UCI-INFO-BESTMOVE-PV-MISMATCH" => {
            let search = |infos: &str, bestmove: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    {infos}
                    0.200 < {bestmove}
                    0.300 > quit
                    0.350 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            const ONE: &str = "0.150 < info depth 5 score cp 20 nodes 2000 time 49 pv e7e5 g1f3";
            const MULTI: &str = "0.150 < info depth 5 multipv 1 score cp 20 nodes 2000 time 49 pv e7e5 g1f3
                0.151 < info depth 5 multipv 2 score cp 10 nodes 2000 time 50 pv c7c5 g1f3";
            Case::new("UCI-INFO-BESTMOVE-PV-MISMATCH")
                .fires(t("bestmove other than the PV's first move", search(ONE, "bestmove c7c5")))
                .fires(t(
                    "bestmove is the multipv 2 line's move",
                    search(MULTI, "bestmove c7c5"),
                ))
                .misses(t("bestmove is the PV's first move", search(ONE, "bestmove e7e5")))
                .misses(t(
                    "multipv: bestmove is the multipv 1 line's move, multipv 2 printed last",
                    search(MULTI, "bestmove e7e5"),
                ))
        }

        "UCI-INFO-CURRMOVE-EARLY" => Case::new("UCI-INFO-CURRMOVE-EARLY")
            .fires(t("currmove 0.2 s into the search", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                0.300 < info depth 5 currmove e7e5 currmovenumber 1
                2.000 > stop
                2.001 < bestmove e7e5
                2.100 > quit
                2.150 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("currmove 1.5 s into the search", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go infinite
                1.600 < info depth 12 currmove e7e5 currmovenumber 1
                2.000 > stop
                2.001 < bestmove e7e5
                2.100 > quit
                2.150 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-INFO-FLOOD" => Case::new("UCI-INFO-FLOOD")
            .fires(t("1100 info lines within 0.55 s", flood(1100, 0.55)))
            .fires(t("1500 info lines within one second", flood(1500, 0.99)))
            .misses(t("1100 info lines over 2.2 s (500 a second)", flood(1100, 2.2)))
            .misses(t("900 info lines within 0.9 s", flood(900, 0.9)))
            .misses(t(
                "four searches of 300 lines within one second (mates seen at a bullet pace)",
                mate_bursts(4, 300),
            )),

        // ----- Termination -----
        "UCI-QUIT-NO-EXIT" => {
            let quit = |exit: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.200 < bestmove e7e5
                    1.000 > quit
                    {exit}
                    "
                ))
            };
            Case::new("UCI-QUIT-NO-EXIT")
                .fires(t(
                    "exit 6 s after quit (cutechess allows 5 s)",
                    quit("7.000 ! engine_exit code=0 engine exited with code 0"),
                ))
                .fires(t(
                    "killed by the proxy after quit",
                    quit("7.000 ! killed signal=SIGKILL engine killed after quit"),
                ))
                .fires(t(
                    "exit 61 s after quit under fastchess (60 s)",
                    quit("62.000 ! engine_exit code=0 engine exited with code 0"),
                ).args(&["--profile", "fastchess"]))
                .misses(t(
                    "exit at once after quit",
                    quit("1.050 ! engine_exit code=0 engine exited with code 0"),
                ))
                .misses(t(
                    "exit 6 s after quit under fastchess (60 s)",
                    quit("7.000 ! engine_exit code=0 engine exited with code 0"),
                ).args(&["--profile", "fastchess"]))
        }

        // ----- Syntax -----
        "UCI-SYNTAX" => Case::new("UCI-SYNTAX")
            .fires(t("GUI: go with a clock keyword but no value", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go wtime 60000 btime
                0.200 < bestmove e7e5
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")).side("gui"))
            .fires(t("GUI: isready with an argument", in_game("
                0.100 > isready now
                0.101 < readyok
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")).side("gui"))
            .fires(t("engine: ponder keyword without a move", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go wtime 60000 btime 60000
                0.200 < bestmove e7e5 ponder
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")).side("engine"))
            .misses(t("a Stockfish-style info line with wdl, hashfull and tbhits", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.150 < info string NNUE evaluation using nn-small.nnue enabled
                0.160 < info depth 12 seldepth 16 multipv 1 score cp 35 wdl 85 897 18 nodes 123456 nps 1234560 hashfull 4 tbhits 0 time 59 pv e7e5 g1f3 b8c6
                0.200 < bestmove e7e5 ponder g1f3
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")))
            .misses(t("the same lines well formed", in_game("
                0.099 > isready
                0.100 < readyok
                0.101 > position startpos moves e2e4
                0.102 > go wtime 60000 btime 60000
                0.200 < bestmove e7e5 ponder g1f3
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-UNKNOWN-COMMAND" => Case::new("UCI-UNKNOWN-COMMAND")
            .fires(t("GUI sends Stockfish's `eval`, which UCI does not define", in_game("
                0.100 > eval
                0.200 > quit
                0.250 ! engine_exit code=0 engine exited with code 0
            ")).side("gui"))
            .fires(t("engine prints plain text mid-session", in_game("
                0.100 > position startpos moves e2e4
                0.101 > go movetime 100
                0.150 < Hash table allocated
                0.200 < bestmove e7e5
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            ")).side("engine"))
            .misses(t("GUI sends debug on; engine uses info string", in_game("
                0.100 > debug on
                0.101 > position startpos moves e2e4
                0.102 > go movetime 100
                0.150 < info string Hash table allocated
                0.200 < bestmove e7e5
                0.300 > quit
                0.350 ! engine_exit code=0 engine exited with code 0
            "))),

        "UCI-STALE-BESTMOVE" => {
            // The GUI moved on to the position after 1.e4 e5 while the engine still searched
            // 1.e4; the late bestmove answers the old position.
            let late = |then: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4
                    0.101 > go movetime 100
                    0.150 > stop
                    0.151 > position startpos moves e2e4 c7c5
                    0.300 < bestmove e7e5
                    {then}
                    0.500 > quit
                    0.550 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-STALE-BESTMOVE")
                .fires(
                    t(
                        "the GUI plays the late bestmove on the position it left",
                        late("0.400 > position startpos moves e2e4 e7e5"),
                    )
                    .says("e7e5"),
                )
                .misses(t(
                    "the GUI goes on with its own position",
                    late("0.400 > position startpos moves e2e4 c7c5 g1f3"),
                ))
        }
        "UCI-PONDERHIT-WRONG-POSITION" => {
            // The engine ponders on 2...Nc6 after 1.e4 e5 2.Nf3; ponderhit says Black played it.
            let ponder = |next: &str| {
                in_game(&format!(
                    "
                    0.100 > position startpos moves e2e4 e7e5 g1f3 b8c6
                    0.101 > go ponder movetime 100
                    0.200 > ponderhit
                    0.300 < bestmove f1b5 ponder a7a6
                    0.400 > {next}
                    0.500 > quit
                    0.550 ! engine_exit code=0 engine exited with code 0
                    "
                ))
            };
            Case::new("UCI-PONDERHIT-WRONG-POSITION")
                .fires(t(
                    "after ponderhit the game goes on from 2...Nf6, not the pondered 2...Nc6",
                    ponder("position startpos moves e2e4 e7e5 g1f3 g8f6 f1c4"),
                ))
                .misses(t(
                    "the game goes on from the pondered position",
                    ponder("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"),
                ))
        }
        other => panic!("no case for {other}"),
    }
}

// ---------------------------------------------------------------------------------------------
// One test per rule.

macro_rules! rule_tests {
    ($($name:ident => $id:literal,)*) => {
        $(
            #[test]
            fn $name() {
                check_rule($id);
            }
        )*
        /// The rules that have a test above.
        const TESTED: &[&str] = &[$($id),*];
    };
}

rule_tests! {
    uci_first_command => "UCI-FIRST-COMMAND",
    uci_unsolicited_output => "UCI-UNSOLICITED-OUTPUT",
    uci_id_missing => "UCI-ID-MISSING",
    uci_uciok_timeout => "UCI-UCIOK-TIMEOUT",
    uci_option_after_uciok => "UCI-OPTION-AFTER-UCIOK",
    uci_option_malformed => "UCI-OPTION-MALFORMED",
    uci_go_before_readyok => "UCI-GO-BEFORE-READYOK",
    uci_register_missing => "UCI-REGISTER-MISSING",
    uci_copyprotection_ignored => "UCI-COPYPROTECTION-IGNORED",
    uci_isready_timeout => "UCI-ISREADY-TIMEOUT",
    uci_readyok_delayed_by_search => "UCI-READYOK-DELAYED-BY-SEARCH",
    uci_isready_stops_search => "UCI-ISREADY-STOPS-SEARCH",
    uci_readyok_unsolicited => "UCI-READYOK-UNSOLICITED",
    uci_ucinewgame_no_isready => "UCI-UCINEWGAME-NO-ISREADY",
    uci_setoption_while_searching => "UCI-SETOPTION-WHILE-SEARCHING",
    uci_setoption_unknown => "UCI-SETOPTION-UNKNOWN",
    uci_setoption_no_isready => "UCI-SETOPTION-NO-ISREADY",
    uci_go_without_position => "UCI-GO-WITHOUT-POSITION",
    uci_go_while_searching => "UCI-GO-WHILE-SEARCHING",
    uci_position_while_searching => "UCI-POSITION-WHILE-SEARCHING",
    uci_bestmove_without_go => "UCI-BESTMOVE-WITHOUT-GO",
    uci_bestmove_missing_after_stop => "UCI-BESTMOVE-MISSING-AFTER-STOP",
    uci_bestmove_late => "UCI-BESTMOVE-LATE",
    uci_bestmove_in_infinite => "UCI-BESTMOVE-IN-INFINITE",
    uci_bestmove_in_ponder => "UCI-BESTMOVE-IN-PONDER",
    uci_ponder_autostart => "UCI-PONDER-AUTOSTART",
    uci_ponderhit_without_ponder => "UCI-PONDERHIT-WITHOUT-PONDER",
    uci_go_on_terminal_position => "UCI-GO-ON-TERMINAL-POSITION",
    uci_go_empty_searchmoves => "UCI-GO-EMPTY-SEARCHMOVES",
    uci_stale_bestmove => "UCI-STALE-BESTMOVE",
    uci_ponderhit_wrong_position => "UCI-PONDERHIT-WRONG-POSITION",
    uci_stop_without_search => "UCI-STOP-WITHOUT-SEARCH",
    uci_move_format => "UCI-MOVE-FORMAT",
    uci_bestmove_null_format => "UCI-BESTMOVE-NULL-FORMAT",
    uci_position_illegal_move => "UCI-POSITION-ILLEGAL-MOVE",
    uci_position_bad_fen => "UCI-POSITION-BAD-FEN",
    uci_bestmove_illegal => "UCI-BESTMOVE-ILLEGAL",
    uci_ponder_move_illegal => "UCI-PONDER-MOVE-ILLEGAL",
    uci_castling_notation => "UCI-CASTLING-NOTATION",
    uci_chess960_option_not_set => "UCI-CHESS960-OPTION-NOT-SET",
    uci_info_after_bestmove => "UCI-INFO-AFTER-BESTMOVE",
    uci_info_pv_illegal => "UCI-INFO-PV-ILLEGAL",
    uci_info_score_unit => "UCI-INFO-SCORE-UNIT",
    uci_info_seldepth_without_depth => "UCI-INFO-SELDEPTH-WITHOUT-DEPTH",
    uci_info_noninteger => "UCI-INFO-NONINTEGER",
    uci_info_multipv_incomplete => "UCI-INFO-MULTIPV-INCOMPLETE",
    uci_info_bestmove_pv_mismatch => "UCI-INFO-BESTMOVE-PV-MISMATCH",
    uci_info_currmove_early => "UCI-INFO-CURRMOVE-EARLY",
    uci_info_flood => "UCI-INFO-FLOOD",
    uci_quit_no_exit => "UCI-QUIT-NO-EXIT",
    uci_syntax => "UCI-SYNTAX",
    uci_unknown_command => "UCI-UNKNOWN-COMMAND",
}

#[test]
fn the_cases_cover_exactly_the_implemented_uci_rules() {
    let cat = catalogue();
    assert!(!cat.is_empty(), "no UCI rows found in docs/rules.md");
    let implemented: BTreeSet<&str> = cat
        .iter()
        .filter(|r| r.status == "implemented")
        .map(|r| r.id.as_str())
        .collect();
    let tested: BTreeSet<&str> = TESTED.iter().copied().collect();
    assert_eq!(
        TESTED.len(),
        tested.len(),
        "a rule is listed twice in rule_tests!"
    );
    let untested: Vec<&&str> = implemented.difference(&tested).collect();
    let not_implemented: Vec<&&str> = tested.difference(&implemented).collect();
    assert!(
        untested.is_empty() && not_implemented.is_empty(),
        "implemented UCI rules without a test: {untested:?}; tested rules docs/rules.md does not mark implemented: {not_implemented:?}"
    );
    let others: BTreeSet<&str> = cat
        .iter()
        .filter(|r| r.status != "implemented")
        .map(|r| r.id.as_str())
        .collect();
    let skipped: BTreeSet<&str> = SKIPPED.iter().copied().collect();
    assert_eq!(
        others, skipped,
        "the UCI rules docs/rules.md does not mark implemented differ from SKIPPED (and the list at the top of this file)"
    );
}

// ---------------------------------------------------------------------------------------------
// A healthy session.

/// A game as a GUI and a well-behaved engine play it: handshake, options, a new game, two
/// searches on the clock, a ponder search that is hit, an analysis stopped by the GUI, quit.
const HEALTHY: &str = "
    0.000 ! spawned engine
    0.001 > uci
    0.010 < id name Engine 1.0
    0.011 < id author Tester
    0.012 < option name Hash type spin default 16 min 1 max 1024
    0.013 < option name Threads type spin default 1 min 1 max 64
    0.014 < option name Ponder type check default false
    0.015 < option name UCI_Chess960 type check default false
    0.016 < uciok
    0.020 > setoption name Hash value 64
    0.021 > setoption name Ponder value true
    0.022 > isready
    0.030 < readyok
    0.040 > ucinewgame
    0.041 > isready
    0.050 < readyok
    0.060 > position startpos moves e2e4
    0.061 > go wtime 60000 btime 60000 winc 1000 binc 1000
    0.200 < info depth 1 seldepth 1 multipv 1 score cp 20 nodes 20 nps 2000 time 10 pv e7e5
    0.400 < info depth 2 seldepth 3 multipv 1 score cp 15 nodes 400 nps 1333 time 300 pv e7e5 g1f3
    0.500 < bestmove e7e5 ponder g1f3
    0.501 > position startpos moves e2e4 e7e5 g1f3
    0.502 > go ponder wtime 60000 btime 60500 winc 1000 binc 1000
    0.600 < info depth 1 seldepth 1 multipv 1 score cp 10 nodes 30 nps 1500 time 20 pv b8c6
    1.000 > ponderhit
    1.200 < info depth 4 seldepth 6 multipv 1 score cp 12 nodes 3000 nps 4285 time 700 pv b8c6 f1b5 a7a6
    1.300 < bestmove b8c6 ponder f1b5
    1.400 > position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5
    1.401 > go wtime 59000 btime 60200 winc 1000 binc 1000
    1.600 < info depth 3 seldepth 4 multipv 1 score cp 15 nodes 900 nps 4500 time 199 pv a7a6 b5a4 g8f6
    1.700 < bestmove a7a6 ponder b5a4
    1.800 > position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6
    1.801 > go infinite
    2.000 < info depth 5 seldepth 7 multipv 1 score cp 30 nodes 5000 nps 25000 time 199 pv b5a4 g8f6 e1g1
    3.000 > isready
    3.001 < readyok
    3.500 > stop
    3.501 < info depth 7 seldepth 9 multipv 1 score cp 28 nodes 50000 nps 29411 time 1700 pv b5a4 g8f6 e1g1
    3.502 < bestmove b5a4 ponder g8f6
    3.600 > quit
    3.650 ! engine_exit code=0 engine exited with code 0
";

#[test]
fn a_healthy_session_breaks_no_rule_of_weight() {
    let report = report_of(HEALTHY, &[]);
    let serious: Vec<String> = all_findings(&report)
        .iter()
        .filter(|f| f.severity >= Severity::Warning)
        .map(show)
        .collect();
    assert!(
        serious.is_empty(),
        "a healthy session reported warnings or errors:\n{}\nall findings:\n{}",
        serious.join("\n"),
        show_all(&report)
    );
    let uci: Vec<String> = all_findings(&report)
        .iter()
        .filter(|f| f.rule.as_str().starts_with("UCI-"))
        .map(show)
        .collect();
    assert!(
        uci.is_empty(),
        "a healthy session reported UCI findings:\n{}",
        uci.join("\n")
    );
    let h = hangs(&report);
    assert!(h.is_empty(), "a healthy session has hang verdicts: {h:?}");
    // The report did judge the session (not an empty or unreadable file).
    assert_eq!(
        report.files[0].sessions[0].protocol,
        Some("uci"),
        "{report:#?}"
    );
}

#[test]
fn the_healthy_session_under_every_profile() {
    for profile in ["spec", "cutechess", "fastchess", "python-chess", "xboard"] {
        let report = report_of(HEALTHY, &["--profile", profile]);
        let serious: Vec<String> = all_findings(&report)
            .iter()
            .filter(|f| f.severity >= Severity::Warning)
            .map(show)
            .collect();
        assert!(
            serious.is_empty(),
            "profile {profile}: a healthy session reported warnings or errors:\n{}",
            serious.join("\n")
        );
    }
}
