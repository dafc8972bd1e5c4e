//! What the UCI rule tests share: the catalogue as docs/rules.md states it, a rule's case
//! (firing transcripts and near misses) and its runner, the building blocks of the
//! transcripts, and `rule_tests!`, which makes one test per rule.

use crate::common;

use common::transcript::{check_report, findings, recording};
use kibitzer::rules::report::CheckReport;
use kibitzer::rules::{Finding, Severity};

// ---------------------------------------------------------------------------------------------
// The catalogue, as docs/rules.md states it.

pub(crate) struct CatalogueRule {
    pub(crate) id: String,
    pub(crate) side: String,
    pub(crate) severity: String,
    pub(crate) status: String,
}

/// The UCI rows of docs/rules.md.
pub(crate) fn catalogue() -> Vec<CatalogueRule> {
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
pub(crate) struct Run {
    pub(crate) label: &'static str,
    pub(crate) text: String,
    pub(crate) args: Vec<&'static str>,
    /// Firing runs: the side every finding of the rule must name.
    pub(crate) side: Option<&'static str>,
    /// Firing runs: the severity every finding of the rule must carry, where the catalogue
    /// names a lesser one for this form of the fault (`(none)` "as a note").
    pub(crate) severity: Option<&'static str>,
    /// Firing runs: a text some finding's message must contain.
    pub(crate) says: Option<&'static str>,
    /// Near misses: warnings and errors of these rules are expected (the session breaks them
    /// on purpose, or they are the point of the comparison).
    pub(crate) allow: Vec<&'static str>,
}

pub(crate) fn t(label: &'static str, text: impl Into<String>) -> Run {
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
    pub(crate) fn args(mut self, args: &[&'static str]) -> Run {
        self.args = args.to_vec();
        self
    }

    pub(crate) fn side(mut self, side: &'static str) -> Run {
        self.side = Some(side);
        self
    }

    pub(crate) fn severity(mut self, severity: &'static str) -> Run {
        self.severity = Some(severity);
        self
    }

    pub(crate) fn says(mut self, text: &'static str) -> Run {
        self.says = Some(text);
        self
    }

    pub(crate) fn allow(mut self, rules: &[&'static str]) -> Run {
        self.allow = rules.to_vec();
        self
    }
}

/// A rule's firing transcripts and near misses.
pub(crate) struct Case {
    pub(crate) rule: &'static str,
    pub(crate) fires: Vec<Run>,
    pub(crate) misses: Vec<Run>,
}

impl Case {
    pub(crate) fn new(rule: &'static str) -> Case {
        Case {
            rule,
            fires: Vec::new(),
            misses: Vec::new(),
        }
    }

    pub(crate) fn fires(mut self, run: Run) -> Case {
        self.fires.push(run);
        self
    }

    pub(crate) fn misses(mut self, run: Run) -> Case {
        self.misses.push(run);
        self
    }
}

/// `kibitzer check --format json` over a transcript.
pub(crate) fn report_of(text: &str, args: &[&str]) -> CheckReport {
    let dir = tempfile::tempdir().expect("tempdir");
    let rec = recording(dir.path(), "t", text);
    check_report(&rec, args).0
}

pub(crate) fn all_findings(report: &CheckReport) -> Vec<Finding> {
    findings(report).cloned().collect()
}

pub(crate) fn show(f: &Finding) -> String {
    format!(
        "line {}: {}[{}] {}: {}",
        f.line.map_or("-".to_owned(), |l| l.to_string()),
        f.severity.as_str(),
        f.rule,
        f.side.as_str(),
        f.message
    )
}

pub(crate) fn show_all(report: &CheckReport) -> String {
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
pub(crate) fn excerpt(text: &str) -> String {
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
pub(crate) fn check_rule(id: &'static str, case: fn(&str) -> Case) {
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
pub(crate) const HANDSHAKE: &str = "
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
pub(crate) fn after_handshake(body: &str) -> String {
    format!("{HANDSHAKE}{body}")
}

/// The handshake and a first `isready`/`readyok`, then `body` (times from 0.030 on).
pub(crate) fn after_ready(body: &str) -> String {
    format!("{HANDSHAKE}    0.020 > isready\n    0.021 < readyok\n{body}")
}

/// The handshake, `isready`, and a new game synchronised with `isready`; then `body` (times
/// from 0.100 on).
pub(crate) fn in_game(body: &str) -> String {
    after_ready(&format!(
        "    0.030 > ucinewgame\n    0.031 > isready\n    0.032 < readyok\n{body}"
    ))
}

/// A search that starts at 0.101 and prints `lines` info lines spread evenly over `span`
/// seconds from 0.2 s, then is stopped.
pub(crate) fn flood(lines: usize, span: f64) -> String {
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
pub(crate) fn mate_bursts(searches: usize, lines: usize) -> String {
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
pub(crate) const KB_V_K: &str = "
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
// One test per rule.

/// One test per rule, each running the rule's case (the `case` of the module it is used in);
/// and `TESTED`, the rules that have a test there.
macro_rules! rule_tests {
    ($($name:ident => $id:literal,)*) => {
        $(
            #[test]
            fn $name() {
                check_rule($id, case);
            }
        )*
        /// The rules that have a test above.
        pub(crate) const TESTED: &[&str] = &[$($id),*];
    };
}

pub(crate) use rule_tests;
