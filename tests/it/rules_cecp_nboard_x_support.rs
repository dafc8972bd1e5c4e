//! What the CECP, NBoard and cross-protocol (`X-`) rule tests share: the case table and its
//! runner (a failure names the rule, the case and which transcript went wrong; a table
//! reports all its failures at once), the catalogue as docs/rules.md states it, and the
//! sessions the cases build on.

use crate::common;

use common::transcript::*;
use kibitzer::rules::report::CheckReport;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

// ---------------------------------------------------------------------------------------------
// The case table and its runner
// ---------------------------------------------------------------------------------------------

/// One case of a rule: a transcript that must fire it, one that must not, or both.
pub(crate) struct Case {
    pub(crate) rule: &'static str,
    pub(crate) what: &'static str,
    pub(crate) fires: Option<String>,
    pub(crate) near: Option<String>,
    pub(crate) args: Vec<&'static str>,
    /// The side the finding must name, for rules whose catalogue side is `either`.
    pub(crate) side: Option<&'static str>,
    /// A severity other than the catalogue's (a profile that weighs the rule differently).
    pub(crate) severity: Option<&'static str>,
    /// Text the firing finding's message must contain.
    pub(crate) msg: Option<&'static str>,
    /// Hang verdict (class, label) the firing transcript must end in.
    pub(crate) hang: Option<(&'static str, &'static str)>,
    /// Rewrites the written recording before it is checked (bytes a transcript cannot hold).
    pub(crate) patch: Option<fn(&Path)>,
}

pub(crate) fn case(rule: &'static str, what: &'static str) -> Case {
    Case {
        rule,
        what,
        fires: None,
        near: None,
        args: Vec::new(),
        side: None,
        severity: None,
        msg: None,
        hang: None,
        patch: None,
    }
}

impl Case {
    pub(crate) fn fires(mut self, t: impl Into<String>) -> Self {
        self.fires = Some(t.into());
        self
    }
    pub(crate) fn near(mut self, t: impl Into<String>) -> Self {
        self.near = Some(t.into());
        self
    }
    pub(crate) fn args(mut self, a: &[&'static str]) -> Self {
        self.args = a.to_vec();
        self
    }
    pub(crate) fn side(mut self, s: &'static str) -> Self {
        self.side = Some(s);
        self
    }
    pub(crate) fn severity(mut self, s: &'static str) -> Self {
        self.severity = Some(s);
        self
    }
    pub(crate) fn msg(mut self, m: &'static str) -> Self {
        self.msg = Some(m);
        self
    }
    pub(crate) fn hang(mut self, class: &'static str, label: &'static str) -> Self {
        self.hang = Some((class, label));
        self
    }
    pub(crate) fn patch(mut self, p: fn(&Path)) -> Self {
        self.patch = Some(p);
        self
    }
}

/// Side and severity of every rule in docs/rules.md, with its status.
pub(crate) struct CatalogueRule {
    pub(crate) side: String,
    pub(crate) severity: String,
    pub(crate) implemented: bool,
}

pub(crate) fn catalogue() -> BTreeMap<String, CatalogueRule> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md");
    let text = std::fs::read_to_string(&path).expect("docs/rules.md");
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | id | side | severity | check | source | status |
        if cells.len() < 8 || !cells[1].contains('-') || cells[1] == "id" || cells[1] == "---" {
            continue;
        }
        let id = cells[1];
        if !(id.starts_with("CECP-") || id.starts_with("NBOARD-") || id.starts_with("X-")) {
            continue;
        }
        out.insert(
            id.to_owned(),
            CatalogueRule {
                side: cells[2].to_owned(),
                severity: cells[3].to_owned(),
                implemented: cells[cells.len() - 2] == "implemented",
            },
        );
    }
    out
}

/// Writes and checks one transcript: the report.
pub(crate) fn check(transcript: &str, args: &[&str], patch: Option<fn(&Path)>) -> CheckReport {
    let dir = tempfile::tempdir().expect("tempdir");
    let rec = recording(dir.path(), "t", transcript);
    if let Some(p) = patch {
        p(&rec);
    }
    check_report(&rec, args).0
}

/// What is wrong with one case, if anything (one line per problem).
pub(crate) fn run_case(c: &Case, cat: &BTreeMap<String, CatalogueRule>) -> Vec<String> {
    let mut bad = Vec::new();
    let name = format!("{} [{}]", c.rule, c.what);
    let Some(entry) = cat.get(c.rule) else {
        return vec![format!("{name}: not in docs/rules.md")];
    };
    if let Some(t) = &c.fires {
        let report = check(t, &c.args, c.patch);
        let fired = rules_fired(&report);
        let found = findings_of(&report, c.rule);
        if found.is_empty() {
            bad.push(format!(
                "{name}: FIRING transcript did not report {}; reported {fired:?}\n--- transcript{}\n{}",
                c.rule,
                args_note(&c.args),
                show(t)
            ));
        }
        for f in &found {
            let severity = c.severity.unwrap_or(&entry.severity);
            if f.severity.as_str() != severity {
                bad.push(format!(
                    "{name}: severity {} (expected {severity}): {f:?}",
                    f.severity.as_str()
                ));
            }
            let side = match (entry.side.as_str(), c.side) {
                ("either", Some(s)) => Some(s),
                ("either", None) => None,
                (s, _) => Some(s),
            };
            match side {
                Some(s) if f.side.as_str() != s => bad.push(format!(
                    "{name}: side {} (expected {s}): {f:?}",
                    f.side.as_str()
                )),
                None if !(f.side.as_str() == "gui" || f.side.as_str() == "engine") => bad.push(
                    format!("{name}: side {} (expected gui or engine)", f.side.as_str()),
                ),
                _ => {}
            }
        }
        if let (Some(m), Some(f)) = (c.msg, found.first())
            && !f.message.as_str().contains(m)
        {
            bad.push(format!("{name}: message lacks {m:?}: {}", f.message));
        }
        if let Some((class, label)) = c.hang {
            let h = hangs(&report);
            let ok = h
                .iter()
                .any(|v| v.class.as_str() == class && v.label == label);
            if !ok {
                let seen: Vec<String> = h
                    .iter()
                    .map(|v| format!("{}/{}", v.class.as_str(), v.label))
                    .collect();
                bad.push(format!(
                    "{name}: hang verdict {class}/{label} expected, got {seen:?}\n--- transcript{}\n{}",
                    args_note(&c.args),
                    show(t)
                ));
            }
        }
    }
    if let Some(t) = &c.near {
        let report = check(t, &c.args, c.patch);
        let found = findings_of(&report, c.rule);
        if !found.is_empty() {
            bad.push(format!(
                "{name}: NEAR-MISS transcript reported {}: {}\n--- transcript{}\n{}",
                c.rule,
                found[0].message,
                args_note(&c.args),
                show(t)
            ));
        }
    }
    bad
}

/// A transcript as it is read: one event a line, without the source's indentation.
pub(crate) fn show(t: &str) -> String {
    t.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

pub(crate) fn args_note(args: &[&str]) -> String {
    if args.is_empty() {
        String::new()
    } else {
        format!(" (check {})", args.join(" "))
    }
}

/// Runs a table; fails once with every problem of every case.
pub(crate) fn run_table(table: &[Case]) {
    let cat = catalogue();
    let bad: Vec<String> = table.iter().flat_map(|c| run_case(c, &cat)).collect();
    assert!(
        bad.is_empty(),
        "{} problem(s):\n\n{}",
        bad.len(),
        bad.join("\n\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Sessions the cases build on
// ---------------------------------------------------------------------------------------------

/// The engine started, and `xboard`, `protover 2`: the engine's features follow.
pub(crate) const XB: &str = "
0.000 ! spawned engine
0.001 > xboard
0.002 > protover 2
";

/// A finished v2 handshake (ping, setboard, usermove accepted) and `new`; bodies start at 0.03.
pub(crate) const CECP_PRE: &str = r#"
0.000 ! spawned engine
0.001 > xboard
0.002 > protover 2
0.010 < feature ping=1 setboard=1 usermove=1 myname="Toy 1.0" done=1
0.011 > accepted ping
0.012 > accepted setboard
0.013 > accepted usermove
0.014 > accepted myname
0.020 > new
"#;

pub(crate) fn xb(body: &str) -> String {
    format!("{XB}{body}")
}

pub(crate) fn cecp(body: &str) -> String {
    format!("{CECP_PRE}{body}")
}

pub(crate) const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The start position of the NBoard text's example game, no moves.
pub(crate) const GGF_START: &str = "(;GM[Othello]PC[NBoard]PB[mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";

/// The NBoard text's example game: eight moves, Black to move.
pub(crate) const GGF_EXAMPLE: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

/// A board with four black discs and no white one: nobody can move, the game is over.
pub(crate) const GGF_OVER: &str = "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------**------**--------------------------- *];)";

/// `nboard 2`, `set depth 6`, `set game` at the start position; bodies start at 0.01.
pub(crate) fn nb(body: &str) -> String {
    format!(
        "0.000 ! spawned edax\n0.001 > nboard 2\n0.002 > set depth 6\n0.003 > set game {GGF_START}\n{body}"
    )
}

/// A UCI engine that finished its handshake and searches `go movetime 100` from 0.031.
pub(crate) const UCI_PRE: &str = "
0.000 ! spawned stockfish
0.001 > uci
0.010 < id name Stockfish
0.011 < uciok
0.020 > isready
0.021 < readyok
0.030 > position startpos
0.031 > go movetime 100
";

pub(crate) fn uci(body: &str) -> String {
    format!("{UCI_PRE}{body}")
}

/// Engine thinking output for `n` lines, one every `step` seconds from `from`, then its move.
pub(crate) fn thinking_burst(n: usize, from: f64, step: f64) -> String {
    let mut s = cecp("0.021 > post\n1.000 > usermove e2e4\n");
    for i in 0..n {
        let t = from + i as f64 * step;
        s.push_str(&format!(
            "{t:.4} < {} {} {} {} e7e5 g1f3\n",
            1 + i / 100,
            20 + i % 7,
            i / 10,
            1000 + i * 13
        ));
    }
    let end = from + n as f64 * step + 0.01;
    s.push_str(&format!("{end:.4} < move e7e5\n"));
    s
}

/// Turns the engine's `telluser Caf?` into the Latin-1 bytes `telluser Caf\xe9`.
pub(crate) fn latin1_cafe(rec: &Path) {
    let text = std::fs::read_to_string(rec).expect("read recording");
    let mut out = String::new();
    for line in text.lines() {
        let mut v: Value = serde_json::from_str(line).expect("recording line");
        if v["text"] == "telluser Caf?" {
            let bytes = b"telluser Caf\xe9";
            v["text"] = String::from_utf8_lossy(bytes).into_owned().into();
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            v["hex"] = hex.into();
        }
        out.push_str(&v.to_string());
        out.push('\n');
    }
    std::fs::write(rec, out).expect("write recording");
}

/// Fool's mate with the engine as Black: `d8h4` mates, and the engine says so.
pub(crate) const FOOLS_MATE: &str = "
1.000 > usermove f2f3
1.100 < move e7e5
1.200 > usermove g2g4
1.300 < move d8h4
1.301 < 0-1 {Black mates}
";

/// A UCI search whose 32 info lines of 127 characters (4096 bytes with their newlines) arrive
/// in one read at 0.115 (`burst`), or one a millisecond from 0.040 (flushed per line).
pub(crate) fn info_block(burst: bool) -> String {
    let mut s = String::new();
    for i in 0..32u32 {
        let line = format!(
            "info depth {} seldepth {} multipv 1 score cp {} nodes {} nps {} hashfull {} time {} pv e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
            10 + i,
            14 + i,
            20 + i,
            1_000_000 + i * 31_000,
            1_000_000 + i * 1_000,
            100 + i * 10,
            20 + 2 * i
        );
        assert_eq!(line.len(), 127, "{line}");
        let t = if burst {
            0.115
        } else {
            0.040 + f64::from(i) * 0.001
        };
        s.push_str(&format!("{t:.3} < {line}\n"));
    }
    uci(&format!("{s}0.135 < bestmove e2e4"))
}
