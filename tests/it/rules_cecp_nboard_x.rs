//! Every implemented CECP, NBoard and cross-protocol (`X-`) rule of docs/rules.md, through
//! `kibitzer check`: each fires on a short realistic session that breaks it, with the side and
//! severity of the catalogue, and stays silent on the closest correct session (its near miss).
//!
//! The cases are tables: a failure names the rule, the case and which transcript (firing or near
//! miss) went wrong, and a table reports all its failures at once. The coverage test reads
//! docs/rules.md: a rule marked implemented without a firing and a near-miss case here fails it.
//!
//! Rules of these families that docs/rules.md does not mark implemented, and are not tested:
//!
//! - not decidable from traffic: CECP-PONG-BEFORE-PENDING, X-STDERR-MIXED,
//!   X-PIPE-DEADLOCK

use crate::common;

use common::transcript::*;
use kibitzer::rules::Severity;
use kibitzer::rules::report::CheckReport;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

// ---------------------------------------------------------------------------------------------
// The case table and its runner
// ---------------------------------------------------------------------------------------------

/// One case of a rule: a transcript that must fire it, one that must not, or both.
struct Case {
    rule: &'static str,
    what: &'static str,
    fires: Option<String>,
    near: Option<String>,
    args: Vec<&'static str>,
    /// The side the finding must name, for rules whose catalogue side is `either`.
    side: Option<&'static str>,
    /// A severity other than the catalogue's (a profile that weighs the rule differently).
    severity: Option<&'static str>,
    /// Text the firing finding's message must contain.
    msg: Option<&'static str>,
    /// Hang verdict (class, label) the firing transcript must end in.
    hang: Option<(&'static str, &'static str)>,
    /// Rewrites the written recording before it is checked (bytes a transcript cannot hold).
    patch: Option<fn(&Path)>,
}

fn case(rule: &'static str, what: &'static str) -> Case {
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
    fn fires(mut self, t: impl Into<String>) -> Self {
        self.fires = Some(t.into());
        self
    }
    fn near(mut self, t: impl Into<String>) -> Self {
        self.near = Some(t.into());
        self
    }
    fn args(mut self, a: &[&'static str]) -> Self {
        self.args = a.to_vec();
        self
    }
    fn side(mut self, s: &'static str) -> Self {
        self.side = Some(s);
        self
    }
    fn severity(mut self, s: &'static str) -> Self {
        self.severity = Some(s);
        self
    }
    fn msg(mut self, m: &'static str) -> Self {
        self.msg = Some(m);
        self
    }
    fn hang(mut self, class: &'static str, label: &'static str) -> Self {
        self.hang = Some((class, label));
        self
    }
    fn patch(mut self, p: fn(&Path)) -> Self {
        self.patch = Some(p);
        self
    }
}

/// Side and severity of every rule in docs/rules.md, with its status.
struct CatalogueRule {
    side: String,
    severity: String,
    implemented: bool,
}

fn catalogue() -> BTreeMap<String, CatalogueRule> {
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
fn check(transcript: &str, args: &[&str], patch: Option<fn(&Path)>) -> CheckReport {
    let dir = tempfile::tempdir().expect("tempdir");
    let rec = recording(dir.path(), "t", transcript);
    if let Some(p) = patch {
        p(&rec);
    }
    check_report(&rec, args).0
}

/// What is wrong with one case, if anything (one line per problem).
fn run_case(c: &Case, cat: &BTreeMap<String, CatalogueRule>) -> Vec<String> {
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
fn show(t: &str) -> String {
    t.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

fn args_note(args: &[&str]) -> String {
    if args.is_empty() {
        String::new()
    } else {
        format!(" (check {})", args.join(" "))
    }
}

/// Runs a table; fails once with every problem of every case.
fn run_table(table: &[Case]) {
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
const XB: &str = "
0.000 ! spawned engine
0.001 > xboard
0.002 > protover 2
";

/// A finished v2 handshake (ping, setboard, usermove accepted) and `new`; bodies start at 0.03.
const CECP_PRE: &str = r#"
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

fn xb(body: &str) -> String {
    format!("{XB}{body}")
}

fn cecp(body: &str) -> String {
    format!("{CECP_PRE}{body}")
}

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The start position of the NBoard text's example game, no moves.
const GGF_START: &str = "(;GM[Othello]PC[NBoard]PB[mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";

/// The NBoard text's example game: eight moves, Black to move.
const GGF_EXAMPLE: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

/// A board with four black discs and no white one: nobody can move, the game is over.
const GGF_OVER: &str = "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------**------**--------------------------- *];)";

/// `nboard 2`, `set depth 6`, `set game` at the start position; bodies start at 0.01.
fn nb(body: &str) -> String {
    format!(
        "0.000 ! spawned edax\n0.001 > nboard 2\n0.002 > set depth 6\n0.003 > set game {GGF_START}\n{body}"
    )
}

/// A UCI engine that finished its handshake and searches `go movetime 100` from 0.031.
const UCI_PRE: &str = "
0.000 ! spawned stockfish
0.001 > uci
0.010 < id name Stockfish
0.011 < uciok
0.020 > isready
0.021 < readyok
0.030 > position startpos
0.031 > go movetime 100
";

fn uci(body: &str) -> String {
    format!("{UCI_PRE}{body}")
}

/// Engine thinking output for `n` lines, one every `step` seconds from `from`, then its move.
fn thinking_burst(n: usize, from: f64, step: f64) -> String {
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
fn latin1_cafe(rec: &Path) {
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
const FOOLS_MATE: &str = "
1.000 > usermove f2f3
1.100 < move e7e5
1.200 > usermove g2g4
1.300 < move d8h4
1.301 < 0-1 {Black mates}
";

/// A UCI search whose 32 info lines of 127 characters (4096 bytes with their newlines) arrive
/// in one read at 0.115 (`burst`), or one a millisecond from 0.040 (flushed per line).
fn info_block(burst: bool) -> String {
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

// ---------------------------------------------------------------------------------------------
// CECP: handshake and features
// ---------------------------------------------------------------------------------------------

#[test]
fn cecp_handshake_and_feature_rules() {
    run_table(&cecp_handshake_and_feature_cases());
}

fn cecp_handshake_and_feature_cases() -> Vec<Case> {
    let done0 = "
        0.010 < feature done=0
        0.020 < feature ping=1
        0.021 > accepted ping
    ";
    // The GUI interrupts the engine with SIGINT before `force` (xboard's habit).
    let sigint = |value: &str| {
        xb(&format!(
            "0.010 < feature ping=1 sigint={value} done=1
             0.011 > accepted ping
             0.012 > accepted sigint
             0.020 > new
             1.000 > e2e4
             1.500 < move e7e5
             2.000 ! signal signal=SIGINT SIGINT forwarded to engine
             2.001 > force"
        ))
    };
    vec![
        case("CECP-XBOARD-FIRST", "first line is new")
            .fires(
                "0.000 ! spawned engine
                 0.001 > new
                 0.002 > xboard
                 0.003 > protover 2
                 0.010 < feature ping=1 done=1
                 0.011 > accepted ping",
            )
            .near(xb(
                "0.010 < feature ping=1 done=1\n0.011 > accepted ping\n0.020 > new",
            )),
        case(
            "CECP-PROTOVER-AFTER-XBOARD",
            "hard between xboard and protover",
        )
        .fires(
            "0.000 ! spawned engine
                 0.001 > xboard
                 0.002 > hard
                 0.003 > protover 2
                 0.010 < feature ping=1 done=1
                 0.011 > accepted ping",
        )
        .near(xb(
            "0.010 < feature ping=1 done=1\n0.011 > accepted ping\n0.020 > hard",
        )),
        // A log that shows no engine start (cutechess, fastchess) but whose session's first
        // line is the GUI's `xboard` shows the session's start: the start rules apply. One
        // that begins mid-session (its first line a later command) stays exempt.
        case(
            "CECP-PROTOVER-AFTER-XBOARD",
            "a log starting at the GUI's xboard, hard before protover",
        )
        .fires(
            "0.001 > xboard
             0.002 > hard
             0.003 > protover 2
             0.010 < feature ping=1 done=1
             0.011 > accepted ping",
        )
        .near(
            "0.002 > hard
             0.003 > protover 2
             0.010 < feature ping=1 done=1
             0.011 > accepted ping",
        ),
        case(
            "CECP-FEATURE-TIMEOUT",
            "done=1 after 9 s, cutechess allows 8 s",
        )
        .fires(xb("9.000 < feature ping=1 done=1\n9.001 > accepted ping"))
        .near(xb("1.500 < feature ping=1 done=1\n1.501 > accepted ping"))
        .msg("8.0 s"),
        case("CECP-FEATURE-TIMEOUT", "xboard 4.9 profile allows 10 s")
            .fires(xb("10.500 < feature ping=1 done=1\n10.501 > accepted ping"))
            .near(xb("9.500 < feature ping=1 done=1\n9.501 > accepted ping"))
            .args(&["--profile", "xboard"])
            .msg("10.0 s"),
        case("CECP-FEATURE-TIMEOUT", "spec profile allows 2 s")
            .fires(xb("2.500 < feature ping=1 done=1\n2.501 > accepted ping"))
            .near(xb("1.900 < feature ping=1 done=1\n1.901 > accepted ping"))
            .args(&["--profile", "spec"]),
        case("CECP-FEATURE-TIMEOUT", "a protocol-1 engine says it does not know protover")
            .fires(xb("9.000 > new\n9.100 > e2e4\n9.500 < move e7e5"))
            .near(xb(
                "0.010 < Error (unknown command): protover\n9.000 > new\n9.100 > e2e4\n9.500 < move e7e5",
            )),
        case("CECP-FEATURE-TIMEOUT", "done=0 extends the wait to an hour")
            .fires(xb(&format!(
                "{done0}\n3601.0 < feature done=1\n3601.1 > new"
            )))
            .near(xb(&format!(
                "{done0}\n30.000 < feature done=1\n30.100 > new"
            ))),
        case("CECP-DONE0-HONOURED", "new after done=0, before done=1")
            .fires(xb(&format!("{done0}\n3.000 > new\n5.000 < feature done=1")))
            .near(xb(&format!("{done0}\n5.000 < feature done=1\n5.100 > new"))),
        case(
            "CECP-DONE0-HONOURED",
            "GUI kills the engine 8 s after done=0",
        )
        .fires(xb(&format!(
            "{done0}
                 8.000 ! signal signal=SIGTERM forwarded SIGTERM
                 8.010 ! engine_exit signal=SIGTERM engine killed by SIGTERM"
        ))),
        case(
            "CECP-COMMAND-BEFORE-FEATURES",
            "new 0.5 s after protover, done=1 at 1 s",
        )
        .fires(xb(
            "0.500 > new\n1.000 < feature ping=1 done=1\n1.001 > accepted ping",
        ))
        .near(xb(
            "0.400 < feature ping=1 done=1\n0.401 > accepted ping\n0.500 > new",
        )),
        case(
            "CECP-COMMAND-BEFORE-FEATURES",
            "silent engine, GUI waits the 2 s out",
        )
        .near(xb("2.100 > new\n2.200 > level 40 5 0\n2.300 > e2e4")),
        case("CECP-FEATURE-AFTER-DONE", "feature san=0 after done=1")
            .fires(xb("0.010 < feature ping=1 done=1
                 0.011 > accepted ping
                 0.020 < feature san=0
                 0.021 > accepted san"))
            .near(xb(r#"0.010 < feature ping=1 done=1
                   0.011 > accepted ping
                   0.020 < feature option="Hash -spin 64 1 1024"
                   0.021 > accepted option"#)),
        case(
            "CECP-FEATURE-NOT-ACKED",
            "setboard neither accepted nor rejected",
        )
        .fires(xb("0.010 < feature ping=1 setboard=1 done=1
                 0.011 > accepted ping
                 0.020 > new"))
        .near(xb("0.010 < feature ping=1 setboard=1 done=1
                 0.011 > accepted ping
                 0.012 > rejected setboard
                 0.020 > new")),
        case("CECP-FEATURE-SYNTAX", "string value without quotes")
            .fires(xb("0.010 < feature ping=1 myname=Toy done=1
                 0.011 > accepted ping
                 0.012 > accepted myname"))
            .near(xb(r#"0.010 < feature ping=1 myname="Toy 1.0" done=1
                   0.011 > accepted ping
                   0.012 > accepted myname"#)),
        case(
            "CECP-FEATURE-SYNTAX",
            "boolean feature ping=2 (booleans are 0 or 1)",
        )
        .fires(xb("0.010 < feature ping=2 done=1
             0.011 > accepted ping")),
        case("CECP-ACCEPTED-UNSOLICITED", "accepted san, never sent")
            .fires(xb("0.010 < feature ping=1 done=1
                 0.011 > accepted ping
                 0.012 > accepted san"))
            .near(xb("0.010 < feature ping=1 done=1
                 0.011 > accepted ping
                 0.012 > accepted done")),
        case("CECP-OPTION-UNKNOWN", "option Threads, only Hash declared")
            .fires(xb(
                r#"0.010 < feature ping=1 option="Hash -spin 64 1 1024" done=1
                   0.011 > accepted ping
                   0.012 > accepted option
                   0.020 > option Threads=4"#,
            ))
            .near(xb(
                r#"0.010 < feature ping=1 option="Hash -spin 64 1 1024" done=1
                   0.011 > accepted ping
                   0.012 > accepted option
                   0.020 > option Hash=128"#,
            )),
        case(
            "CECP-OPTION-UNKNOWN",
            "option Hash, the engine declared no option",
        )
        .fires(xb("0.010 < feature ping=1 done=1
             0.011 > accepted ping
             0.020 > option Hash=128")),
        case("CECP-SIGINT-DISABLED", "SIGINT although sigint=0")
            .fires(sigint("0"))
            .near(sigint("1")),
        case("CECP-SIGINT-DISABLED", "SIGTERM after quit, sigint=0").near(xb(
            "0.010 < feature ping=1 sigint=0 done=1
             0.011 > accepted ping
             0.012 > accepted sigint
             0.020 > new
             1.000 > quit
             6.000 ! signal signal=SIGTERM forwarded SIGTERM
             6.010 ! engine_exit signal=SIGTERM engine killed by SIGTERM",
        )),
    ]
}

// ---------------------------------------------------------------------------------------------
// CECP: ping
// ---------------------------------------------------------------------------------------------

#[test]
fn cecp_ping_rules() {
    run_table(&cecp_ping_cases());
}

fn cecp_ping_cases() -> Vec<Case> {
    // The engine moved and ponders (with `hard`) when the GUI pings at 2.000.
    let ponder = |mode: &str, pong: &str| {
        cecp(&format!(
            "0.030 > {mode}
             1.000 > usermove e2e4
             1.500 < move e7e5
             2.000 > ping 2
             {pong} < pong 2"
        ))
    };
    vec![
        case("CECP-PING-NOT-ENABLED", "ping without feature ping=1")
            .fires(xb("0.010 < feature usermove=1 done=1
                 0.011 > accepted usermove
                 0.020 > new
                 0.030 > ping 1
                 0.031 < pong 1"))
            .near(cecp("0.030 > ping 1\n0.031 < pong 1"))
            .msg("ping=1"),
        case("CECP-PING-NOT-DECLARED", "features without ping")
            .fires(xb("0.010 < feature usermove=1 setboard=1 done=1
                 0.011 > accepted usermove
                 0.012 > accepted setboard"))
            .near(xb("0.010 < feature ping=1 usermove=1 setboard=1 done=1
                 0.011 > accepted ping
                 0.012 > accepted usermove
                 0.013 > accepted setboard")),
        case(
            "CECP-PING-NOT-DECLARED",
            "python-chess refuses it: an error there",
        )
        .fires(xb("0.010 < feature usermove=1 setboard=1 done=1
                 0.011 > accepted usermove
                 0.012 > accepted setboard"))
        .args(&["--profile", "python-chess"])
        .severity("error"),
        case("CECP-PING-NOT-DECLARED", "feature ping=0 declares no ping").fires(xb(
            "0.010 < feature ping=0 usermove=1 done=1
             0.011 > accepted ping
             0.012 > accepted usermove",
        )),
        case("CECP-PONG-MISMATCH", "ping 1 answered by pong 2")
            .fires(cecp("1.000 > ping 1\n1.010 < pong 2"))
            .near(cecp("1.000 > ping 1\n1.010 < pong 1")),
        case(
            "CECP-PONG-TIMEOUT",
            "no pong for 20 s, cutechess allows 15 s",
        )
        .fires(cecp("1.000 > ping 3\n21.000 < 12 30 2000 90000 e7e5"))
        .near(cecp("1.000 > ping 3\n14.900 < pong 3"))
        .msg("15.0 s"),
        case("CECP-PONG-TIMEOUT", "the input ends 20 s after the ping")
            .fires(cecp("1.000 > ping 3"))
            .args(&["--at", "21"]),
        case(
            "CECP-PONG-TIMEOUT",
            "the spec profile sets no ping deadline",
        )
        .near(cecp("1.000 > ping 3\n21.000 < 12 30 2000 90000 e7e5"))
        .args(&["--profile", "spec"]),
        case("CECP-PONG-BEFORE-MOVE", "pong before the move it owes")
            .fires(cecp(
                "1.000 > usermove e2e4
                 1.100 > ping 2
                 1.200 < pong 2
                 1.500 < move e7e5",
            ))
            .near(cecp(
                "1.000 > usermove e2e4
                 1.100 > ping 2
                 1.500 < move e7e5
                 1.600 < pong 2",
            )),
        case("CECP-PONG-DUPLICATE", "pong 1 twice")
            .fires(cecp("1.000 > ping 1\n1.010 < pong 1\n1.020 < pong 1"))
            .near(cecp(
                "1.000 > ping 1\n1.010 < pong 1\n1.100 > ping 2\n1.110 < pong 2",
            )),
        case(
            "CECP-PONG-WHILE-PONDERING-DELAYED",
            "hard, engine moved: pong 800 ms after the ping",
        )
        .fires(ponder("hard", "2.800"))
        .near(ponder("hard", "2.400")),
        case(
            "CECP-PONG-WHILE-PONDERING-DELAYED",
            "easy: no pondering, a slow pong is no delay of this kind",
        )
        .near(ponder("easy", "2.800")),
    ]
}

// ---------------------------------------------------------------------------------------------
// CECP: moves and notation
// ---------------------------------------------------------------------------------------------

#[test]
fn cecp_move_rules() {
    run_table(&cecp_move_cases());
}

fn cecp_move_cases() -> Vec<Case> {
    let san = |gui: &str, engine: &str| {
        xb(&format!(
            "0.010 < feature ping=1 usermove=1 san=1 done=1
             0.011 > accepted ping
             0.012 > accepted usermove
             0.013 > accepted san
             0.020 > new
             1.000 > usermove {gui}
             1.500 < move {engine}"
        ))
    };
    vec![
        case("CECP-USERMOVE-FORMAT", "bare move although usermove=1")
            .fires(cecp("1.000 > e2e4\n1.500 < move e7e5"))
            .near(cecp("1.000 > usermove e2e4\n1.500 < move e7e5")),
        case("CECP-USERMOVE-FORMAT", "usermove prefix without usermove=1").fires(xb(
            "0.010 < feature ping=1 done=1
             0.011 > accepted ping
             0.020 > new
             1.000 > usermove e2e4
             1.500 < move e7e5",
        )),
        case(
            "CECP-USERMOVE-FORMAT",
            "usermove=1 rejected: bare moves are right",
        )
        .near(xb("0.010 < feature ping=1 usermove=1 done=1
             0.011 > accepted ping
             0.012 > rejected usermove
             0.020 > new
             1.000 > e2e4
             1.500 < move e7e5")),
        case("CECP-USERMOVE-FORMAT", "edit-mode placements are no moves").near(xb(
            "0.010 < feature ping=1 usermove=1 done=1
             0.011 > accepted ping
             0.012 > accepted usermove
             0.020 > new
             0.030 > force
             0.040 > edit
             0.050 > #
             0.060 > Ke1
             0.070 > Pe2
             0.080 > c
             0.090 > Ke8
             0.100 > .
             0.200 > go
             0.500 < move e2e4",
        )),
        case(
            "CECP-USERMOVE-FORMAT",
            "input starts mid-session: features unknown",
        )
        .near(
            "0.000 < move e7e5
             0.100 > usermove g1f3
             0.500 < move b8c6",
        ),
        case("CECP-MOVE-ECHO", "engine repeats e2e4")
            .fires(cecp("1.000 > usermove e2e4\n1.500 < move e2e4"))
            .near(cecp("1.000 > usermove e2e4\n1.500 < move e7e5")),
        case("CECP-MOVE-ILLEGAL", "engine plays e7e4")
            .fires(cecp("1.000 > usermove e2e4\n1.500 < move e7e4"))
            .near(cecp("1.000 > usermove e2e4\n1.500 < move e7e5")),
        case("CECP-ILLEGAL-MOVE-REPLY", "engine refuses the legal e2e4")
            .fires(cecp("1.000 > usermove e2e4\n1.010 < Illegal move: e2e4"))
            .near(cecp("1.000 > usermove e2e4\n1.500 < move e7e5"))
            .side("engine"),
        // The engine that refuses an illegal move is right: the GUI's fault is reported on
        // the GUI's own line, as CECP-GUI-MOVE-ILLEGAL (the GUI's half of this rule).
        case(
            "CECP-ILLEGAL-MOVE-REPLY",
            "engine rightly refuses the illegal e2e5",
        )
        .near(cecp("1.000 > usermove e2e5\n1.010 < Illegal move: e2e5")),
        // The engine's move crosses the GUI's force + ping: the GUI that plays on as if it had
        // been made (white's g1f3 next) applied a stale move; one that ignores it (black's
        // own e7e6 in force mode) did not.
        case(
            "CECP-STALE-MOVE",
            "the GUI plays on after a move from before its pong",
        )
        .fires(cecp(
            "1.000 > usermove e2e4
                 1.500 > force
                 1.501 > ping 5
                 1.600 < move e7e5
                 1.700 < pong 5
                 2.000 > usermove g1f3",
        ))
        .near(cecp(
            "1.000 > usermove e2e4
                 1.500 > force
                 1.501 > ping 5
                 1.600 < move e7e5
                 1.700 < pong 5
                 2.000 > usermove e7e6",
        ))
        .near(cecp(
            "1.000 > usermove e2e4
                 1.600 < move e7e5
                 2.000 > usermove g1f3",
        )),
        case("CECP-ILLEGAL-MOVE-FORMAT", "no colon before the move")
            .fires(cecp("1.000 > usermove e2e5\n1.010 < Illegal move e2e5"))
            .near(cecp(
                "1.000 > usermove e2e5\n1.010 < Illegal move (no such move): e2e5",
            )),
        case("CECP-GUI-MOVE-ILLEGAL", "GUI sends e2e5, engine plays on")
            .fires(cecp("1.000 > usermove e2e5\n1.500 < move e7e5"))
            .near(cecp("1.000 > usermove e2e4\n1.500 < move e7e5")),
        case(
            "CECP-GUI-MOVE-ILLEGAL",
            "the engine refused it: still the GUI's illegal move, on the GUI's line",
        )
        .fires(cecp("1.000 > usermove e2e5\n1.010 < Illegal move: e2e5"))
        .side("gui"),
        case("CECP-SAN-FEATURE", "SAN move, the engine did not set san=1")
            .fires(cecp("1.000 > usermove Nf3\n1.500 < move g8f6"))
            .near(cecp("1.000 > usermove g1f3\n1.500 < move g8f6")),
        case("CECP-SAN-FEATURE", "coordinates although san=1")
            .fires(san("e2e4", "e5"))
            .near(san("e4", "e5")),
        case(
            "CECP-SAN-FEATURE",
            "a knight drop is the same in coordinates and SAN (crazyhouse)",
        )
        .near(cecp(
            "1.000 > variant crazyhouse
             1.010 > usermove e2e4
             1.500 < move g8f6
             2.000 > usermove b1c3
             2.500 < move f6e4
             3.000 > usermove c3e4
             3.500 < move d7d5
             4.000 > usermove N@f5
             4.500 < move c8f5",
        )),
        case(
            "CECP-SAN-FEATURE",
            "input starts mid-session: features unknown",
        )
        .near(
            "0.000 < move e5
             0.100 > usermove Nf3
             0.500 < move Nc6",
        ),
    ]
}

// ---------------------------------------------------------------------------------------------
// CECP: time control
// ---------------------------------------------------------------------------------------------

#[test]
fn cecp_time_control_rules() {
    run_table(&cecp_time_control_cases());
}

fn cecp_time_control_cases() -> Vec<Case> {
    let time_feature = |value: u8, body: &str| {
        xb(&format!(
            "0.010 < feature ping=1 usermove=1 time={value} done=1
             0.011 > accepted ping
             0.012 > accepted usermove
             0.013 > accepted time
             0.020 > new
             0.030 > level 40 5 0
             {body}"
        ))
    };
    let clocks = "1.000 > time 30000\n1.010 > otim 30000\n1.020 > usermove e2e4\n1.500 < move e7e5";
    vec![
        case("CECP-TIME-WITHOUT-FEATURE", "time/otim although time=0")
            .fires(time_feature(0, clocks))
            .near(time_feature(1, clocks)),
        case("CECP-TIME-WITHOUT-FEATURE", "time=0, no clocks sent")
            .near(time_feature(0, "1.020 > usermove e2e4\n1.500 < move e7e5")),
        case("CECP-ST-UNITS", "st in milliseconds")
            .fires(cecp(
                "0.030 > st 30000\n1.000 > usermove e2e4\n1.500 < move e7e5",
            ))
            .near(cecp(
                "0.030 > st 30\n1.000 > usermove e2e4\n1.500 < move e7e5",
            ))
            .side("gui"),
        case("CECP-ST-EXCEEDED", "st 2, move after 3 s")
            .fires(cecp(
                "0.030 > st 2\n1.000 > usermove e2e4\n4.000 < move e7e5",
            ))
            .near(cecp(
                "0.030 > st 2\n1.000 > usermove e2e4\n3.400 < move e7e5",
            )),
        case(
            "CECP-TC-SEMANTICS",
            "level 0 0:30 0 re-sent before each move: a per-move limit",
        )
        .fires(cecp(
            "0.030 > level 0 0:30 0
                 1.000 > usermove e2e4
                 1.500 < move e7e5
                 1.600 > level 0 0:30 0
                 1.700 > usermove g1f3
                 2.000 < move b8c6",
        ))
        .msg("`level 0 0:30 0` after `level 0 0:30 0` within one game")
        // xboard -tc 0:30 and python-chess: the whole game's clock, sent once.
        .near(cecp(
            "0.030 > level 0 0:30 0
                 1.000 > usermove e2e4
                 1.500 < move e7e5
                 1.700 > usermove g1f3
                 2.000 < move b8c6
                 2.100 > usermove f1c4
                 2.400 < move g8f6",
        )),
        case("CECP-TC-SEMANTICS", "st after level")
            .fires(cecp(
                "0.030 > level 40 5 0\n0.040 > st 10\n1.000 > usermove e2e4\n1.500 < move e7e5",
            ))
            .near(cecp(
                "0.040 > st 10\n1.000 > usermove e2e4\n1.500 < move e7e5",
            )),
        case("CECP-TC-SEMANTICS", "level after st")
            .fires(cecp(
                "0.030 > st 10\n0.040 > level 40 5 0\n1.000 > usermove e2e4\n1.500 < move e7e5",
            ))
            .near(cecp(
                "0.040 > level 40 5 0\n1.000 > usermove e2e4\n1.500 < move e7e5",
            )),
        case("CECP-TC-SEMANTICS", "st in one game, level in the next")
            .fires(cecp(
                "0.030 > st 1\n0.040 > usermove e2e4\n0.900 < move e7e5\n1.000 > level 40 5 0\n1.100 > usermove d2d4\n2.000 < move d7d5",
            ))
            .near(cecp(
                "0.030 > st 1\n0.040 > usermove e2e4\n0.900 < move e7e5\n1.000 > new\n1.010 > level 40 5 0\n1.100 > usermove d2d4\n3.500 < move d7d5",
            )),
        case(
            "CECP-LEVEL-EVERY-MOVE",
            "the same level before the second move",
        )
        .fires(cecp(
            "0.030 > level 40 5 0
                 1.000 > usermove e2e4
                 1.500 < move e7e5
                 1.600 > level 40 5 0
                 1.700 > usermove g1f3
                 2.000 < move b8c6",
        ))
        .near(cecp(
            "0.030 > level 40 5 0
                 1.000 > usermove e2e4
                 1.500 < move e7e5
                 1.600 > result 1-0 {White wins}
                 1.700 > new
                 1.710 > level 40 5 0
                 1.720 > usermove d2d4
                 2.000 < move d7d5",
        )),
        case(
            "CECP-TIME-UNITS",
            "time in milliseconds for a 5-minute game",
        )
        .fires(cecp(
            "0.030 > level 40 5 0
                 1.000 > time 300000
                 1.010 > otim 300000
                 1.020 > usermove e2e4
                 1.500 < move e7e5",
        ))
        .near(cecp(
            "0.030 > level 40 5 0
                 1.000 > time 30000
                 1.010 > otim 30000
                 1.020 > usermove e2e4
                 1.500 < move e7e5",
        )),
        case(
            "CECP-TIME-UNITS",
            "8 cs left late in the game is a real clock",
        )
        .near(cecp(
            "0.030 > level 40 5 0
             1.000 > time 30000
             1.010 > otim 30000
             1.020 > usermove e2e4
             1.500 < move e7e5
             2.000 > time 8
             2.010 > otim 9000
             2.020 > usermove g1f3
             2.050 < move b8c6",
        )),
    ]
}

// ---------------------------------------------------------------------------------------------
// CECP: game state
// ---------------------------------------------------------------------------------------------

#[test]
fn cecp_game_state_rules() {
    run_table(&cecp_game_state_cases());
}

/// CECP-NEW-STATE is decided by `kibitzer probe`, which set the depth limit itself, and noted in
/// its recording; `check` finds it there. The near miss: the same session where the search
/// after `new` went deeper, with no such note.
#[test]
fn cecp_new_state_rule() {
    run_table(&cecp_new_state_cases());
}

fn cecp_new_state_cases() -> Vec<Case> {
    let session = |after_new: &str| {
        cecp(&format!(
            "0.100 > sd 3
             0.110 > go
             0.150 < 3 10 1 300 e2e4
             0.160 < move e2e4
             0.200 > new
             0.210 > level 40 0:30 0
             0.220 > go
             {after_new}"
        ))
    };
    vec![
        case(
            "CECP-NEW-STATE",
            "the probe's fact: the sd limit outlived new",
        )
        .fires(session(
            r#"0.250 < 3 10 1 300 d2d4
                 0.260 < move d2d4
                 0.270 ! probe {"fact":"depth_after_new","limit":3,"before":9,"after":3}"#,
        ))
        .near(session(
            r#"0.900 < 9 10 60 90000 d2d4
                 1.000 < move d2d4
                 1.010 ! probe {"fact":"depth_after_new","limit":3,"before":9,"after":9}"#,
        ))
        .msg("no deeper than 3"),
    ]
}

fn cecp_game_state_cases() -> Vec<Case> {
    let variants = |body: &str| {
        xb(&format!(
            r#"0.010 < feature ping=1 setboard=1 usermove=1 variants="normal,fischerandom" done=1
               0.011 > accepted ping
               0.012 > accepted setboard
               0.013 > accepted usermove
               0.014 > accepted variants
               0.020 > new
               {body}"#
        ))
    };
    // Features without setboard: xboard then sets positions up with `edit`.
    let editing = |body: &str| {
        xb(&format!(
            "0.010 < feature ping=1 done=1
             0.011 > accepted ping
             0.020 > new
             0.030 > force
             0.040 > edit
             0.050 > #
             0.060 > Ke1
             0.070 > Pe2
             0.080 > c
             0.090 > Ke8
             {body}"
        ))
    };
    let capablanca = r#"0.010 < feature ping=1 usermove=1 variants="normal,capablanca" done=1
        0.011 > accepted ping
        0.012 > accepted usermove
        0.013 > accepted variants
        0.020 > new
        0.030 > variant capablanca
        0.040 > level 40 5 0
        0.100 > usermove e2e4
        0.500 < move e7e5
        0.600 > usermove c1d3
        0.900 < move h8g6"#;
    let black_to_move = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    // e4 e5, then the knights out and back `n` times: after 2 the position after e4 e5 stands
    // for the third time.
    let shuffle = |n: usize| {
        let mut s = String::from("1.000 > usermove e2e4\n1.100 < move e7e5\n");
        let mut t = 1.2;
        for _ in 0..n {
            for (gui, engine) in [("g1f3", "b8c6"), ("f3g1", "c6b8")] {
                s.push_str(&format!(
                    "{t:.3} > usermove {gui}\n{:.3} < move {engine}\n",
                    t + 0.1
                ));
                t += 0.2;
            }
        }
        s
    };
    let claim = "9.000 < 1/2-1/2 {Draw by repetition}";
    vec![
        case("CECP-VARIANT-ORDER", "variant after setboard")
            .fires(variants(&format!(
                "0.030 > setboard {START_FEN}\n0.040 > variant fischerandom"
            )))
            .near(variants(&format!(
                "0.030 > variant fischerandom
                 0.040 > setboard {START_FEN}
                 1.000 > usermove e2e4
                 1.500 < move e7e5"
            ))),
        case("CECP-SETBOARD-WITHOUT-FEATURE", "setboard, no setboard=1")
            .fires(xb(&format!(
                "0.010 < feature ping=1 usermove=1 done=1
                 0.011 > accepted ping
                 0.012 > accepted usermove
                 0.020 > new
                 0.030 > setboard {START_FEN}"
            )))
            .near(cecp(&format!("0.030 > setboard {START_FEN}"))),
        case("CECP-UNDO-WITHOUT-FORCE", "undo outside force mode")
            .fires(cecp(
                "1.000 > usermove e2e4\n1.500 < move e7e5\n2.000 > undo",
            ))
            .near(cecp(
                "1.000 > usermove e2e4\n1.500 < move e7e5\n1.900 > force\n2.000 > undo",
            )),
        case(
            "CECP-REMOVE-ENGINE-ON-MOVE",
            "remove while the engine thinks",
        )
        .fires(cecp(
            "1.000 > usermove e2e4
                 1.500 < move e7e5
                 2.000 > usermove g1f3
                 2.100 > remove",
        ))
        .near(cecp(
            "1.000 > usermove e2e4\n1.500 < move e7e5\n2.000 > remove",
        )),
        case("CECP-GO-WHILE-THINKING", "go twice")
            .fires(cecp("1.000 > go\n1.100 > go\n1.500 < move e2e4"))
            .near(cecp(
                "0.900 > force\n1.000 > usermove e2e4\n1.100 > go\n1.500 < move e7e5",
            )),
        case("CECP-MOVE-IN-FORCE", "move in force mode")
            .fires(cecp(
                "0.900 > force\n1.000 > usermove e2e4\n1.500 < move e7e5",
            ))
            .near(cecp(
                "0.900 > force\n1.000 > usermove e2e4\n1.100 > go\n1.500 < move e7e5",
            )),
        case("CECP-MOVE-IN-FORCE", "move in analyze mode (post, analyze)")
            .fires(cecp(&format!(
                "0.030 > setboard {black_to_move}
                 0.900 > post
                 1.000 > analyze
                 1.500 < 1 20 5 120 e7e5
                 1.600 < move e7e5"
            )))
            .near(cecp(&format!(
                "0.030 > setboard {black_to_move}
                 0.900 > post
                 1.000 > analyze
                 1.500 < 1 20 5 120 e7e5
                 1.600 > exit
                 1.700 > go
                 2.000 < move e7e5"
            ))),
        case("CECP-MOVE-OUT-OF-TURN", "two moves in a row")
            .fires(cecp(
                "1.000 > usermove e2e4\n1.500 < move e7e5\n1.600 < move d7d5",
            ))
            .near(cecp(
                "1.000 > usermove e2e4
                 1.500 < move e7e5
                 1.600 > usermove g1f3
                 2.000 < move b8c6",
            )),
        case(
            "CECP-MOVE-OUT-OF-TURN",
            "unmodelled variant, moves alternate",
        )
        .near(xb(capablanca)),
        case("CECP-SETBOARD-BAD-FEN", "a rank of seven squares")
            .fires(cecp(
                "0.030 > setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP/RNBQKBNR w KQkq - 0 1",
            ))
            .near(cecp(&format!("0.030 > setboard {START_FEN}"))),
        case("CECP-SETBOARD-BAD-FEN", "no kings")
            .fires(cecp("0.030 > setboard 8/8/8/8/8/8/8/8 w - - 0 1")),
        case(
            "CECP-SETBOARD-IRREGULAR-FEN",
            "castling rights without rooks",
        )
        .fires(cecp("0.030 > setboard 4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1"))
        .near(cecp("0.030 > setboard 4k3/8/8/8/8/8/8/4K3 w - - 0 1")),
        case("CECP-EDIT-SYNTAX", "Zz9 in edit mode")
            .fires(editing("0.095 > Zz9\n0.100 > ."))
            .near(editing("0.100 > .\n0.200 > go\n0.500 < move e2e4")),
        case("CECP-UNDO-BEYOND-START", "undo on an empty game")
            .fires(cecp("0.030 > force\n0.040 > undo"))
            .near(cecp("0.030 > force\n0.035 > usermove e2e4\n0.040 > undo")),
        case("CECP-RESULT-CLAIM-INVALID", "repetition claimed at the second occurrence")
            .fires(cecp(&format!("{}\n{claim}", shuffle(1))))
            .near(cecp(&format!("{}\n{claim}", shuffle(2)))),
        case("CECP-RESULT-CLAIM-INVALID", "0-1 claimed after two moves")
            .fires(cecp(
                "1.000 > usermove f2f3\n1.100 < move e7e5\n1.200 > usermove g2g3\n1.300 < move d8h4\n1.301 < 0-1 {Black mates}",
            ))
            .near(cecp(FOOLS_MATE)),
        case(
            "CECP-RESULT-CLAIM-INVALID",
            "the mate's result line crossing the GUI's new on the wire",
        )
        .fires(cecp(
            "1.000 > usermove e2e4\n1.100 < move e7e5\n1.200 > new\n1.201 < 0-1 {Black mates}",
        ))
        .near(cecp(&format!(
            "{FOOLS_MATE}\n1.3005 > result 0-1 {{Black mates}}\n1.3006 > new\n1.3010 < 0-1 {{Black mates}}"
        ))),
        case("CECP-RESULT-CLAIM-INVALID", "resignation said as RESULT").near(cecp(
            "1.000 > usermove e2e4\n1.500 < move e7e5\n2.000 > usermove d1h5\n2.500 < 1-0 {Black resigns}",
        )),
        case("CECP-RESULT-MISSING", "mate, then new without result")
            .fires(cecp(&format!("{FOOLS_MATE}\n2.000 > new")))
            .near(cecp(&format!(
                "{FOOLS_MATE}\n1.900 > result 0-1 {{Black mates}}\n2.000 > new"
            ))),
        case("CECP-RESULT-MISSING", "mate, then quit without result")
            .fires(cecp(&format!(
                "{FOOLS_MATE}\n2.000 > quit\n2.050 ! engine_exit code=0 engine exited with code 0"
            )))
            .near(cecp(&format!(
                "{FOOLS_MATE}
                 1.900 > result 0-1 {{Black mates}}
                 2.000 > quit
                 2.050 ! engine_exit code=0 engine exited with code 0"
            ))),
        case("CECP-RESULT-MISSING", "mate, then the input ends")
            .fires(cecp(&format!("{FOOLS_MATE}\n2.000 ! gui_eof"))),
        case("CECP-RESULT-MISSING", "no mate on the board: new without result is fine").near(
            cecp("1.000 > usermove e2e4\n1.500 < move e7e5\n2.000 > new"),
        ),
    ]
}

// ---------------------------------------------------------------------------------------------
// CECP: output, termination, syntax
// ---------------------------------------------------------------------------------------------

#[test]
fn cecp_output_termination_and_syntax_rules() {
    run_table(&cecp_output_termination_and_syntax_cases());
}

fn cecp_output_termination_and_syntax_cases() -> Vec<Case> {
    let think = |line: &str| {
        cecp(&format!(
            "0.030 > post\n1.000 > usermove e2e4\n1.200 < {line}\n1.500 < move e7e5"
        ))
    };
    let analyze = |line: &str| {
        cecp(&format!(
            "0.030 > force\n0.040 > post\n0.050 > analyze\n0.500 > .\n0.510 < {line}"
        ))
    };
    vec![
        case("CECP-ERROR-FORMAT", "no colon after the type")
            .fires(cecp("0.030 > memory 64\n0.031 < Error (unknown command) memory"))
            .near(cecp("0.030 > memory 64\n0.031 < Error (unknown command): memory")),
        case("CECP-ERROR-FORMAT", "Error: without a type")
            .fires(cecp("0.030 > memory 64\n0.031 < Error: unknown command memory")),
        case("CECP-ERROR-FORMAT", "Invalid move: for a command that is no move")
            .fires(cecp("0.030 > sd 3\n0.031 < Invalid move: sd 3"))
            .near(cecp("0.030 > sd 3\n0.031 < Error (unknown command): sd 3")),
        case("CECP-COMMAND-REFUSED", "a command of the protocol refused")
            .fires(cecp("0.030 > computer\n0.031 < Error (unknown command): computer"))
            .near(cecp("0.030 > computer\n0.500 > ping 1\n0.501 < pong 1")),
        case("CECP-COMMAND-REFUSED", "refused in the wrong form, still refused")
            .fires(cecp("0.030 > sd 3\n0.031 < Invalid move: sd 3")),
        case("CECP-THINKING-FORMAT", "stat01 with a bad node count")
            .fires(analyze("stat01: 12 abc 5 3 20"))
            .near(analyze("stat01: 12 3000 5 3 20 Nf3")),
        case("CECP-THINKING-FORMAT", "score in pawns, not an integer")
            .fires(think("4 0.25 150 12000 e7e5 g1f3"))
            .near(think("4 25 150 12000 e7e5 g1f3")),
        // Sjeng draws the board before it answers `protover`: a start-up banner, not thinking
        // output. The same row once the engine is thinking is.
        case(
            "CECP-THINKING-FORMAT",
            "a board row that looks like thinking output",
        )
        .fires(think("8 | *R | *N | *B | *Q | *K | *B | *N | *R |"))
        .near(xb(
            "0.005 < Sjeng version 11.2, Copyright (C) 2000-2001 Gian-Carlo Pascutto
             0.005 <   +----+----+----+----+----+----+----+----+
             0.005 < 8 | *R | *N | *B | *Q | *K | *B | *N | *R |
             0.005 <   +----+----+----+----+----+----+----+----+
             0.006 < feature ping=1 setboard=1 usermove=1 done=1
             0.007 > accepted ping
             0.008 > accepted setboard
             0.009 > accepted usermove",
        )),
        case("CECP-THINKING-WITHOUT-POST", "thinking after nopost")
            .fires(cecp(
                "0.030 > nopost\n1.000 > usermove e2e4\n1.200 < 4 25 15 12000 e7e5 g1f3\n1.500 < move e7e5",
            ))
            .near(think("4 25 15 12000 e7e5 g1f3")),
        case("CECP-UNDOCUMENTED-OUTPUT", "free text")
            .fires(cecp("0.030 < Hello from engine"))
            .near(cecp("0.030 < telluser Hello from engine")),
        case("CECP-THINKING-PV-UNPLAYABLE", "e1e8 in the PV")
            .fires(think("4 25 15 12000 e7e5 e1e8"))
            .near(think("4 25 15 12000 e7e5 g1f3")),
        case("CECP-LEGACY-FORM", "my move is")
            .fires(cecp("1.000 > usermove e2e4\n1.500 < my move is e7e5"))
            .near(cecp("1.000 > usermove e2e4\n1.500 < move e7e5")),
        case("CECP-LEGACY-FORM", "1. ... e7e5")
            .fires(cecp("1.000 > usermove e2e4\n1.500 < 1. ... e7e5")),
        case("CECP-QUIT-NO-EXIT", "exit 6 s after quit, cutechess allows 5 s")
            .fires(cecp(
                "1.000 > quit\n7.000 ! engine_exit code=0 engine exited with code 0",
            ))
            .near(cecp(
                "1.000 > quit\n1.100 ! engine_exit code=0 engine exited with code 0",
            )),
        case("CECP-QUIT-NO-EXIT", "killed after quit")
            .fires(cecp(
                "1.000 > quit\n3.000 ! killed signal=SIGTERM engine killed by SIGTERM",
            ))
            .args(&["--profile", "xboard"]),
        case("CECP-SYNTAX", "level without INC")
            .fires(cecp("0.030 > level 40 5"))
            .near(cecp("0.030 > level 40 5 0"))
            .side("gui"),
        case("CECP-SYNTAX", "pong without a number")
            .fires(cecp("0.030 > ping 1\n0.040 < pong"))
            .near(cecp("0.030 > ping 1\n0.040 < pong 1"))
            .side("engine"),
        case("CECP-UNKNOWN-COMMAND", "foo bar")
            .fires(cecp("0.030 > foo bar"))
            .near(cecp("0.030 > computer")),
    ]
}

// ---------------------------------------------------------------------------------------------
// NBoard
// ---------------------------------------------------------------------------------------------

#[test]
fn nboard_rules() {
    run_table(&nboard_cases());
}

fn nboard_cases() -> Vec<Case> {
    let go = |answer: &str| nb(&format!("0.010 > go\n0.500 < {answer}"));
    let quit = "30.000 > quit\n30.100 ! engine_exit code=0 engine exited with code 0";
    vec![
        case("NBOARD-FIRST-COMMAND", "set depth before nboard")
            .fires(format!(
                "0.000 ! spawned edax
                 0.001 > set depth 6
                 0.002 > nboard 2
                 0.003 > set game {GGF_START}"
            ))
            .near(nb("")),
        case("NBOARD-GO-WITHOUT-SETUP", "go without set depth")
            .fires(format!(
                "0.000 ! spawned edax
                 0.001 > nboard 2
                 0.003 > set game {GGF_START}
                 0.010 > go
                 0.500 < === F5"
            ))
            .near(go("=== F5")),
        case("NBOARD-GO-WITHOUT-SETUP", "hint without set game").fires(
            "0.000 ! spawned edax
             0.001 > nboard 2
             0.002 > set depth 6
             0.010 > hint 1",
        ),
        case("NBOARD-MOVE-FORMAT", "eval is no number")
            .fires(go("=== F5/x"))
            .near(go("=== F5/0.50/1.2")),
        case("NBOARD-MOVE-ILLEGAL", "=== A1 at the start")
            .fires(go("=== A1/0.5"))
            .near(go("=== F5/0.5")),
        case("NBOARD-GUI-MOVE-ILLEGAL", "move A1 at the start")
            .fires(nb("0.010 > move A1"))
            .near(nb("0.010 > move F5")),
        case("NBOARD-GUI-MOVE-ILLEGAL", "set game with an illegal move").fires(
            "0.000 ! spawned edax
             0.001 > nboard 2
             0.002 > set depth 6
             0.003 > set game (;GM[Othello]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[A1];)",
        ),
        case("NBOARD-SET-GAME-SYNTAX", "GGF not closed")
            .fires(
                "0.000 ! spawned edax
                 0.001 > nboard 2
                 0.002 > set depth 6
                 0.003 > set game (;GM[Othello]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]",
            )
            .near(
                "0.000 ! spawned edax
                 0.001 > nboard 2
                 0.002 > set depth 6
                 0.003 > set game (;GM[Othello]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)",
            ),
        case("NBOARD-GO-AFTER-GAME-END", "go on a finished game, engine passes")
            .fires(format!(
                "0.000 ! spawned edax
                 0.001 > nboard 2
                 0.002 > set depth 6
                 0.003 > set game {GGF_OVER}
                 0.010 > go
                 0.500 < === PA"
            ))
            .near(go("=== F5")),
        case("NBOARD-GO-AFTER-GAME-END", "go on a finished game, no answer").fires(format!(
            "0.000 ! spawned edax
             0.001 > nboard 2
             0.002 > set depth 6
             0.003 > set game {GGF_OVER}
             0.010 > go
             2.000 > quit
             2.100 ! engine_exit code=0 engine exited with code 0"
        )),
        case("NBOARD-VERSION", "Edax refuses nboard 2 on stderr")
            .fires(
                "0.000 ! spawned edax
                 0.001 > nboard 2
                 0.002 ~ Error: Edax expected \"nboard 1\" protocol",
            )
            .near(
                "0.000 ! spawned edax
                 0.001 > nboard 2
                 0.002 ~ Edax 4.4 loading the opening book
                 0.003 < set myname Edax",
            ),
        // Stderr is pumped apart from stdout: the refusal can land after the GUI's next lines.
        case("NBOARD-VERSION", "the stderr refusal recorded late").fires(
            "0.000 ! spawned edax
             0.001 > nboard 2
             0.002 > ping 1
             0.003 < pong 1
             0.004 > quit
             0.005 ~ Error: Edax expected \"nboard 1\" protocol",
        ),
        case("NBOARD-VERSION", "the refusal on stdout").fires(
            "0.000 ! spawned edax
             0.001 > nboard 2
             0.002 < unsupported protocol version 2",
        ),
        // Black is to move at the start; E3 is White's move: the engine's board has the other
        // side to move (what a missed trailing pass does).
        case("NBOARD-SET-GAME-PARSE", "the engine answers for the wrong side")
            .fires(go("=== E3"))
            .near(go("=== F5"))
            .near(go("=== A1")),
        // The GUI moves, pings; after the pong the engine must not answer the old go.
        case("NBOARD-OUTPUT-AFTER-PONG", "=== for the old position after pong")
            .fires(nb(
                "0.010 > go
                 0.100 > move F5
                 0.101 > ping 2
                 0.200 < pong 2
                 0.300 < === D6",
            ))
            .near(nb(
                "0.010 > go
                 0.050 < === F5
                 0.100 > move F5
                 0.101 > ping 2
                 0.200 < pong 2
                 0.300 > go
                 0.400 < === D6",
            )),
        // NTest learns a game by searching its positions again: the search lines answer the
        // `learn` sent after the ping, not the old `go`.
        case("NBOARD-OUTPUT-AFTER-PONG", "search lines of a learn after pong")
            .fires(nb(
                "0.010 > hint 1
                 0.100 > move F5
                 0.101 > ping 2
                 0.200 < pong 2
                 0.300 < search D6 1.5 0 4",
            ))
            .near(nb(
                "0.010 > go
                 0.050 < === F5
                 0.100 > move F5
                 0.101 > ping 2
                 0.102 > learn
                 0.200 < pong 2
                 0.300 < search D6 1.5 0 4
                 0.400 < learn",
            )),
        case("NBOARD-MOVE-FORMAT", "Edax's === with spaces is what the GUI reads")
            .fires(go("=== F5 x 0.0"))
            .near(go("=== F5 -1.00 0.0")),
        case("NBOARD-STALE-RESULT", "the GUI plays an === that came before its pong")
            .fires(nb(
                "0.010 > go
                 0.100 > set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)
                 0.101 > ping 2
                 0.150 < === F5
                 0.200 < pong 2
                 0.300 > move F5",
            ))
            .near(nb(
                "0.010 > go
                 0.100 > set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)
                 0.101 > ping 2
                 0.150 < === F5
                 0.200 < pong 2
                 0.300 > go
                 0.400 < === F6
                 0.500 > move F6",
            )),
        // The same square, answered again after the fence of a new game, is a fresh answer.
        case("NBOARD-STALE-RESULT", "an early === is superseded by the answer after the fence")
            .fires(nb(
                "0.010 > go
                 0.100 > set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)
                 0.101 > ping 2
                 0.150 < === F5
                 0.200 < pong 2
                 0.300 > move F5",
            ))
            .near(nb(
                "0.010 > go
                 0.100 > set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)
                 0.101 > ping 2
                 0.150 < === F5
                 0.200 < pong 2
                 0.300 > set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)
                 0.301 > ping 3
                 0.350 < pong 3
                 0.400 > go
                 0.450 < === F5
                 0.500 > move F5",
            )),
        case("NBOARD-PONG-MISMATCH", "ping 2 answered by pong 1")
            .fires(nb("0.010 > ping 2\n0.020 < pong 1"))
            .near(nb("0.010 > ping 2\n0.020 < pong 2")),
        case("NBOARD-PONG-MISMATCH", "ping 1 answered by pong 2")
            .fires(nb("0.010 > ping 1\n0.020 < pong 2"))
            .near(nb("0.010 > ping 1\n0.020 < pong 1")),
        case("NBOARD-PONG-TIMEOUT", "no pong for 20 s, cutechess allows 15 s")
            .fires(nb("0.010 > ping 1\n20.000 < status thinking"))
            .near(nb("0.010 > ping 1\n10.000 < pong 1")),
        case("NBOARD-HINT-PV-FORMAT", "PV with spaces")
            .fires(nb("0.010 > hint 1\n0.100 < search F5 D6 C3 1.5 0 12"))
            .near(nb("0.010 > hint 1\n0.100 < search F5d6C3 1.5 0 12")),
        case("NBOARD-HINT-PV-FORMAT", "PV not starting with a move")
            .fires(nb("0.010 > hint 1\n0.100 < search Z9d6 1.5 0 12"))
            .near(nb("0.010 > hint 1\n0.100 < search F5-D6-C3 1.5 0 12")),
        case("NBOARD-HINT-PV-FORMAT", "Edax's console book line after go")
            .fires(nb(
                "0.010 > go\n0.100 < book    +1                                          f3 C5 c6\n0.110 < === f3 1.00 0.0",
            ))
            .near(nb("0.010 > hint 1\n0.100 < book f3C5c6     1 1 21")),
        case("NBOARD-LEARN-ACK", "learn answered by learn")
            .fires(nb("0.010 > learn\n0.100 < learn"))
            .near(nb("0.010 > learn\n0.100 < learned")),
        case("NBOARD-LEARN-ACK", "learn never acknowledged, later ping answered")
            .fires(nb("0.010 > learn\n0.100 > ping 2\n0.200 < pong 2"))
            .near(nb("0.010 > learn\n0.050 < learned\n0.100 > ping 2\n0.200 < pong 2")),
        case("NBOARD-SYNTAX", "set depth x")
            .fires(nb("0.010 > set depth x"))
            .near(nb("0.010 > set depth 8"))
            .side("gui"),
        case("NBOARD-UNKNOWN-COMMAND", "GUI sends frobnicate")
            .fires(nb("0.010 > frobnicate"))
            .near(nb("0.010 > set contempt 0"))
            .side("gui"),
        case("NBOARD-UNKNOWN-COMMAND", "engine says hello there")
            .fires(nb("0.010 < hello there"))
            .near(nb("0.010 < status hello there"))
            .side("engine"),
        case("NBOARD-UNSOLICITED", "=== without go")
            .fires(nb("0.100 < === F5"))
            .near(go("=== F5")),
        case("NBOARD-UNSOLICITED", "learned without learn")
            .fires(nb("0.100 < learned"))
            .near(nb("0.010 > learn\n0.100 < learned")),
        case("NBOARD-GO-NO-MOVE", "go, 30 s of thinking, then quit")
            .fires(nb(&format!(
                "0.010 > go\n0.020 < status Edax is thinking\n{quit}"
            )))
            .near(nb(&format!(
                "0.010 > go\n0.020 < status Edax is thinking\n0.500 < === F5/0.50/0.5\n{quit}"
            ))),
        case("NBOARD-GO-NO-MOVE", "the engine exits during the search")
            .fires(nb(
                "0.010 > go\n0.020 < status Edax is thinking\n0.400 ! engine_exit code=139 engine exited with code 139",
            ))
            .near(nb(
                "0.010 > go\n0.020 < status Edax is thinking\n0.300 < === F5\n0.400 ! engine_exit code=139 engine exited with code 139",
            )),
        case("NBOARD-GO-NO-MOVE", "the GUI closes the input during the search")
            .fires(nb("0.010 > go\n0.020 < status Edax is thinking\n0.400 ! gui_eof")),
    ]
}

// ---------------------------------------------------------------------------------------------
// Cross-protocol: transport
// ---------------------------------------------------------------------------------------------

#[test]
fn cross_protocol_transport_rules() {
    run_table(&cross_protocol_transport_cases());
}

fn cross_protocol_transport_cases() -> Vec<Case> {
    let cafe = |text: &str| {
        cecp(&format!(
            "0.030 < telluser {text}\n1.000 > quit\n1.100 ! engine_exit code=0 engine exited with code 0"
        ))
    };
    vec![
        case("X-LINE-NO-TERMINATOR", "last engine line without newline")
            .fires(cecp(
                r"1.000 > usermove e2e4
                  1.500 < move e7e5\z
                  1.600 ! engine_eof",
            ))
            .near(cecp("1.000 > usermove e2e4\n1.500 < move e7e5\n1.600 ! engine_eof"))
            .side("engine"),
        case("X-LINE-ENDING", "engine ends lines with CR LF")
            .fires(cecp(r"1.000 > usermove e2e4
                          1.500 < move e7e5\r"))
            .near(cecp("1.000 > usermove e2e4\n1.500 < move e7e5"))
            .side("engine"),
        case("X-LINE-ENDING", "GUI ends lines with CR LF")
            .fires(cecp(r"1.000 > usermove e2e4\r
                          1.500 < move e7e5"))
            .side("gui"),
        case("X-LINE-INTERLEAVED", "bestmove at the end of an info line")
            .fires(uci(
                "0.100 < info depth 5 score cp 13 pv e2e4 bestmove e2e4\n0.130 < bestmove e2e4",
            ))
            .near(uci(
                "0.100 < info depth 5 score cp 13 pv e2e4\n0.130 < bestmove e2e4",
            )),
        case("X-LINE-INTERLEAVED", "readyok glued to an info line")
            .fires(uci(
                "0.050 > isready\n0.110 < info nodes 100readyok\n0.130 < bestmove e2e4",
            ))
            .near(uci(
                "0.050 > isready\n0.060 < info string readyok soon\n0.061 < readyok\n0.130 < bestmove e2e4",
            )),
        case("X-LEADING-WHITESPACE", "spaces before bestmove")
            .fires(uci("0.130 <   bestmove e2e4"))
            .near(uci("0.130 < bestmove e2e4")),
        case("X-NON-UTF8", "Latin-1 byte from the engine")
            .fires(cafe("Caf?"))
            .near(cafe("Café"))
            .patch(latin1_cafe)
            .side("engine"),
        case("X-CONTROL-CHARS", "BEL in an engine line")
            .fires(cafe("Caf\x07e"))
            .near(cafe("Caf\te"))
            .side("engine"),
        case("X-OUTPUT-FLOOD", "1100 lines in 0.9 s")
            .fires(thinking_burst(1100, 1.001, 0.0008))
            .near(thinking_burst(900, 1.001, 0.0011)),
        case("X-OUTPUT-NOT-FLUSHED", "32 info lines, 4096 bytes in one read")
            .fires(info_block(true))
            .near(info_block(false)),
        // Judged from the whole session: an engine whose answers all wait for its exit is
        // buffered; one that answered in time all along and answers a last ping just after
        // `quit` is not.
        case(
            "X-OUTPUT-NOT-FLUSHED",
            "every answer arrives only at exit, after quit",
        )
        .fires(xb(
            "1.000 > quit
             1.010 < feature ping=1 done=1
             1.011 ! engine_eof engine closed its output
             1.012 ! engine_exit code=0 engine exited with code 0",
        ))
        .near(cecp(
            "1.000 > ping 2
             1.001 < pong 2
             1.500 > usermove e2e4
             1.600 < move e7e5
             2.000 > ping 3
             2.000 > quit
             2.010 < pong 3
             2.011 ! engine_eof engine closed its output
             2.012 ! engine_exit code=0 engine exited with code 0",
        )),
    ]
}

// ---------------------------------------------------------------------------------------------
// Cross-protocol: timing, lifecycle, hangs
// ---------------------------------------------------------------------------------------------

#[test]
fn cross_protocol_timing_and_lifecycle_rules() {
    run_table(&cross_protocol_timing_and_lifecycle_cases());
}

fn cross_protocol_timing_and_lifecycle_cases() -> Vec<Case> {
    let clock = |secs: &str| {
        cecp(&format!(
            "0.030 > level 40 5 0
             1.000 > time 500
             1.010 > otim 30000
             1.020 > usermove e2e4
             {secs} < move e7e5"
        ))
    };
    let quit_exit = "2.000 > quit\n2.050 ! engine_exit code=0 engine exited with code 0";
    // go movetime 100 at 0.031; the engine's last info reports 90 ms of search.
    let latency = |bestmove: &str| {
        uci(&format!(
            "0.120 < info depth 8 score cp 20 nodes 5000 time 90 pv e2e4\n{bestmove} < bestmove e2e4"
        ))
    };
    // `go movetime 100` at 0.031 (deadline 0.631): the engine silent until 3.0 s, sampled
    // every half second as `class(i)` says for the i-th sample; `answer` ends the silence.
    let silent = |class: &dyn Fn(u64) -> String, answer: &str| {
        let mut s = uci("");
        for i in 0..6u64 {
            s.push_str(&format!(
                "{}.{} ! sample {}\n",
                i / 2,
                5 * (i % 2),
                class(i)
            ));
        }
        s.push_str(answer);
        s
    };
    let bestmove_late = "3.000 < bestmove e2e4";
    let bestmove_in_time = "0.400 < bestmove e2e4";
    // A sample before the answer in time, then the same class: nothing was overdue.
    let in_time = |class: &dyn Fn(u64) -> String| {
        let mut s = uci(&format!("{bestmove_in_time}\n"));
        for i in 1..6u64 {
            s.push_str(&format!(
                "{}.{} ! sample {}\n",
                i / 2,
                5 * (i % 2),
                class(i)
            ));
        }
        s
    };
    let spinning = |i: u64| format!("cpu={} delay=5 states=R", i * 480);
    let starved = |i: u64| format!("cpu={} delay={} states=R", i * 5, i * 480);
    let waiting = |i: u64| format!("cpu={i} states=S reading=1");
    let asleep = |i: u64| format!("cpu={i} states=SS reading=0");
    let stopped = |_: u64| "cpu=10 states=T".to_owned();
    let blocked = |i: u64| format!("cpu={i} states=D faults={}", i * 10);
    vec![
        case("X-HANG-SPINNING", "on the CPU without output past the deadline")
            .fires(silent(&spinning, bestmove_late))
            .near(in_time(&spinning)),
        case("X-HANG-STARVED", "ready to run, no CPU, past the deadline")
            .fires(silent(&starved, bestmove_late))
            .near(in_time(&starved)),
        case("X-HANG-WAITING", "asleep in a read of its input past the deadline")
            .fires(silent(&waiting, bestmove_late))
            .near(in_time(&waiting)),
        case("X-HANG-ASLEEP", "asleep, not reading, past the deadline")
            .fires(silent(&asleep, bestmove_late))
            .near(in_time(&asleep)),
        case("X-HANG-STOPPED", "stopped past the deadline")
            .fires(silent(&stopped, bestmove_late))
            .near(in_time(&stopped)),
        case("X-HANG-BLOCKED", "in disk sleep past the deadline")
            .fires(silent(&blocked, bestmove_late))
            .near(in_time(&blocked)),
        case("X-CLOCK-UNDERFLOW", "move after the 5 s left on the clock")
            .fires(clock("6.500"))
            .near(clock("5.500")),
        case("X-NO-WATCHDOG", "GUI waits 69 s for a move and does nothing")
            .fires(cecp("1.000 > usermove e2e4\n1.500 < 1 20 5 120 e7e5"))
            .near(cecp(
                "1.000 > usermove e2e4\n1.500 < 1 20 5 120 e7e5\n40.000 > ?",
            ))
            .args(&["--at", "70"])
            .hang("search", "STALL"),
        case("X-ENGINE-EXIT", "engine exits while it owes a move")
            .fires(cecp(
                "1.000 > usermove e2e4\n1.500 ! engine_exit code=1 engine exited with code 1",
            ))
            .near(cecp(&format!(
                "1.000 > usermove e2e4\n1.500 < move e7e5\n{quit_exit}"
            )))
            .hang("disconnect", "DISCONNECT"),
        // xboard sends SIGINT with each move unless `feature sigint=0`: a death seconds after
        // it, while the move is owed, is still the engine's; one the SIGINT itself caused, at
        // once, is the GUI's doing.
        case("X-ENGINE-EXIT", "engine dies seconds after a forwarded SIGINT while it owes a move")
            .fires(cecp(
                "1.000 > usermove e2e4
                 1.001 ! signal signal=SIGINT SIGINT
                 4.000 ! engine_exit signal=SIGKILL engine killed by signal SIGKILL",
            ))
            .near(cecp(
                "1.000 > usermove e2e4
                 1.001 ! signal signal=SIGINT SIGINT
                 1.010 ! engine_exit signal=SIGINT engine killed by signal SIGINT",
            ))
            .hang("disconnect", "DISCONNECT"),
        case("X-ENGINE-EXIT", "engine closes its output while it owes a move")
            .fires(cecp("1.000 > usermove e2e4\n1.500 ! engine_eof"))
            .hang("disconnect", "DISCONNECT"),
        case("X-WRITE-TO-DEAD-PIPE", "GUI writes after the engine died")
            .fires(cecp(
                "1.000 > usermove e2e4
                 1.200 ! engine_exit code=139 engine exited with code 139
                 1.300 > ping 2
                 1.300 ! write_error writing to the engine failed: Broken pipe",
            ))
            .near(cecp(
                "1.000 > usermove e2e4
                 1.200 ! engine_exit code=139 engine exited with code 139
                 1.300 ! gui_eof",
            )),
        case(
            "X-OUTPUT-FLOOD-STOPPED",
            "probe stopped the engine past the lines a run keeps",
        )
        .fires(cecp(
            "1.000 > usermove e2e4
             1.500 < move e7e5
             2.000 ! flood_stopped output flood: more than 200000 lines from the engine in one run
             2.000 ! killed signal=SIGKILL output flood; sent SIGKILL",
        ))
        // The near miss: an engine killed for another reason (a watchdog) is no flood.
        .near(cecp(
            "1.000 > usermove e2e4
             1.500 < move e7e5
             2.000 ! killed signal=SIGKILL the watchdog fired; sent SIGKILL",
        )),
        case(
            "X-LINE-TOO-LONG",
            "a 100 MB info line, recorded in pieces; its pieces are no commands",
        )
        .fires(uci(
            "0.100 < info string xxxxxxxx\\+
             0.101 < xxxxxxxxxxxxxxxx\\+
             0.102 < bestmove xxxxxxxx
             0.120 < bestmove e2e4",
        ))
        // The near miss: a long line that fits one event.
        .near(uci(
            "0.100 < info string xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
             0.120 < bestmove e2e4",
        )),
        case(
            "X-LEFTOVER-PROCESS",
            "a process the engine detached outlived it and was swept",
        )
        .fires(cecp(
            "1.000 > usermove e2e4
             1.500 < move e7e5
             2.000 > quit
             2.050 ! engine_eof engine closed its output
             2.060 ! leftover_killed signal=SIGTERM still running after the engine exited: sleep [pid 42]; sent SIGTERM
             2.070 ! engine_exit code=0 engine exited with code 0",
        ))
        .near(cecp(&format!(
            "1.000 > usermove e2e4\n1.500 < move e7e5\n{quit_exit}"
        ))),
        case("X-ORPHAN-PROCESS", "engine killed 5 s after the GUI closed")
            .fires(cecp(
                "1.000 > usermove e2e4
                 1.500 < move e7e5
                 2.000 ! gui_eof
                 7.000 ! killed signal=SIGKILL engine killed by SIGKILL (9)",
            ))
            .near(cecp(
                "1.000 > usermove e2e4
                 1.500 < move e7e5
                 2.000 ! gui_eof
                 2.100 ! engine_exit code=0 engine exited with code 0",
            )),
        case("X-PROTOCOL-MISMATCH", "xboard GUI, UCI engine")
            .fires(xb("0.010 < id name Stockfish 16\n0.011 < uciok"))
            .near(xb("0.010 < feature ping=1 done=1\n0.011 > accepted ping")),
        case("X-PROTOCOL-MISMATCH", "a UCI engine refuses protover; a protocol-1 one does")
            .fires(xb(
                "0.010 < Unknown command: 'protover 2'. Type help for more information.",
            ))
            .near(xb("0.010 < Error (unknown command): protover")),
        case("X-PROTOCOL-MISMATCH", "UCI GUI, CECP engine")
            .fires(
                "0.000 ! spawned engine
                 0.001 > uci
                 0.010 < feature done=1
                 0.020 < id name X
                 0.030 < uciok",
            )
            .near(
                "0.000 ! spawned engine
                 0.001 > uci
                 0.020 < id name X
                 0.030 < uciok",
            ),
        case("X-BOARD-UNKNOWN", "setboard of a 10x8 Capablanca position")
            .fires(xb(
                r#"0.010 < feature ping=1 setboard=1 usermove=1 variants="normal,capablanca" done=1
                   0.011 > accepted ping
                   0.012 > accepted setboard
                   0.013 > accepted usermove
                   0.014 > accepted variants
                   0.020 > new
                   0.030 > variant capablanca
                   0.040 > setboard rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"#,
            ))
            .near(cecp(&format!("0.030 > setboard {START_FEN}"))),
        case("X-BOARD-UNKNOWN", "variant capablanca, moves played").fires(xb(
            r#"0.010 < feature ping=1 usermove=1 variants="normal,capablanca" done=1
               0.011 > accepted ping
               0.012 > accepted usermove
               0.013 > accepted variants
               0.020 > new
               0.030 > variant capablanca
               0.100 > usermove e2e4
               0.500 < move e7e5"#,
        )),
        case("X-INPUT-STARTS-MID-SESSION", "log starts with the engine's move")
            .fires(
                "0.000 < move e7e5
                 0.100 > usermove g1f3
                 0.500 < move b8c6",
            )
            .near(cecp(
                "1.000 > usermove e2e4
                 1.100 < move e7e5
                 1.200 > usermove g1f3
                 1.500 < move b8c6",
            ))
            .side("engine"),
        case("X-HANG", "ping unanswered 20 s, the engine still talks")
            .fires(cecp("1.000 > ping 3\n21.000 < 12 30 2000 90000 e7e5"))
            .near(cecp(&format!("1.000 > ping 3\n1.010 < pong 3\n{quit_exit}")))
            .side("engine")
            .hang("ping", "TIMEOUT"),
        case("X-HANG", "the input ends 20 s after ping 3")
            .fires(cecp("1.000 > ping 3"))
            .args(&["--at", "21"])
            .side("engine")
            .hang("ping", "TIMEOUT"),
        case("X-HANG", "the spec profile sets no ping deadline: a stall, no timeout")
            .near(cecp("1.000 > ping 3\n21.000 < 12 30 2000 90000 e7e5"))
            .args(&["--profile", "spec"]),
        case("X-HANG", "no feature done=1 for 10 s")
            .fires(xb("10.000 < tellics say hello"))
            .near(xb("0.010 < feature ping=1 done=1\n0.011 > accepted ping\n10.000 > new"))
            .side("engine")
            .hang("handshake", "TIMEOUT"),
        case("X-HANG", "the input ends 10 s after protover")
            .fires(xb(""))
            .args(&["--at", "10"])
            .side("engine")
            .hang("handshake", "TIMEOUT"),
        case("X-HANG", "st 2 and no move after 9 s")
            .fires(cecp(
                "0.030 > st 2
                 1.000 > usermove e2e4
                 1.500 < 1 20 5 120 e7e5
                 10.000 < 9 25 900 1200000 e7e5 g1f3",
            ))
            .near(cecp(
                "0.030 > st 2
                 1.000 > usermove e2e4
                 1.500 < 1 20 5 120 e7e5
                 2.900 < move e7e5
                 10.000 > quit",
            ))
            .side("engine")
            .hang("search", "TIMEOUT"),
        case("X-HANG", "unterminated thinking line, no move after 9 s")
            .fires(cecp(
                r"0.030 > st 2
                  1.000 > usermove e2e4
                  1.500 < 1 20 5 120 e7e5\z
                  10.000 > ?",
            ))
            .side("engine")
            .hang("buffering", "TIMEOUT"),
        case("X-HANG", "NBoard ping unanswered 20 s, the engine still talks")
            .fires(nb("0.010 > ping 1\n20.000 < status thinking"))
            .near(nb("0.010 > ping 1\n0.020 < pong 1\n20.000 < status thinking"))
            .side("engine")
            .hang("ping", "TIMEOUT"),
        case("X-HANG", "NBoard: the input ends 20 s after the ping")
            .fires(nb("0.010 > ping 1"))
            .args(&["--at", "20"])
            .side("engine")
            .hang("ping", "TIMEOUT"),
        case(
            "X-LATENCY-BUDGET",
            "engine searched 90 ms, bestmove 369 ms after go",
        )
        .fires(latency("0.400"))
        .near(latency("0.300")),
    ]
}

// ---------------------------------------------------------------------------------------------
// Healthy sessions and coverage
// ---------------------------------------------------------------------------------------------

/// Findings of severity warning or error, as `RULE: message` lines.
fn serious(report: &CheckReport) -> Vec<String> {
    findings(report)
        .filter(|x| x.severity >= Severity::Warning)
        .map(|x| format!("{}: {}", x.rule, x.message))
        .collect()
}

const HEALTHY_XBOARD: &str = r#"
0.000 ! spawned fairymax
0.001 > xboard
0.002 > protover 2
0.010 < feature ping=1 setboard=1 usermove=1 myname="Toy 1.0" done=1
0.011 > accepted ping
0.012 > accepted setboard
0.013 > accepted usermove
0.014 > accepted myname
0.015 > accepted done
0.020 > new
0.021 > random
0.022 > level 40 5 0
0.023 > post
0.024 > hard
0.030 > ping 1
0.031 < pong 1
0.040 > time 30000
0.041 > otim 30000
0.042 > usermove e2e4
0.300 < 1 20 5 120 e7e5
0.500 < move e7e5
0.600 > ping 2
0.601 < pong 2
0.700 > time 29950
0.701 > otim 29900
0.702 > usermove g1f3
1.000 < 2 15 20 900 b8c6 f1b5
1.200 < move b8c6
1.300 > ping 3
1.301 < pong 3
1.400 > result 1/2-1/2 {Draw agreed}
1.401 > quit
1.450 ! engine_exit code=0 engine exited with code 0
"#;

#[test]
fn a_healthy_xboard_game_breaks_no_rule() {
    for profile in ["cutechess", "xboard", "spec", "fastchess", "python-chess"] {
        let report = check(HEALTHY_XBOARD, &["--profile", profile], None);
        assert_eq!(
            serious(&report),
            Vec::<String>::new(),
            "profile {profile}: {:?}",
            rules_fired(&report)
        );
        assert!(
            hangs(&report).is_empty(),
            "profile {profile}: {:?}",
            hangs(&report)
        );
        assert_eq!(report.files[0].sessions[0].protocol, Some("xboard"));
    }
}

#[test]
fn a_healthy_nboard_session_breaks_no_rule() {
    let t = format!(
        "0.000 ! spawned edax
         0.001 > nboard 2
         0.002 > set depth 6
         0.003 > set game {GGF_EXAMPLE}
         0.004 > ping 1
         0.005 < set myname Edax6
         0.006 < pong 1
         0.007 > go
         0.010 < status Edax is thinking
         0.020 < nodestats 35805 0.00
         0.500 < search D6 -1.00 0 6
         0.600 < === D6/-1.00/0.5
         0.610 < status Edax is waiting
         0.700 > move D6/-1.00/0.5
         0.800 > hint 2
         0.900 < search C4d6 0.5 0 4
         1.000 > learn
         1.100 < learned
         1.200 > quit
         1.300 ! engine_exit code=0 engine exited with code 0"
    );
    let report = check(&t, &[], None);
    assert_eq!(
        serious(&report),
        Vec::<String>::new(),
        "{:?}",
        rules_fired(&report)
    );
    assert!(hangs(&report).is_empty(), "{:?}", hangs(&report));
    assert_eq!(report.files[0].sessions[0].protocol, Some("nboard"));
}

/// Every case of this file, by rule: (firing transcripts, near-miss transcripts).
fn coverage() -> BTreeMap<&'static str, (usize, usize)> {
    let mut out: BTreeMap<&'static str, (usize, usize)> = BTreeMap::new();
    for c in [
        cecp_handshake_and_feature_cases(),
        cecp_ping_cases(),
        cecp_move_cases(),
        cecp_time_control_cases(),
        cecp_game_state_cases(),
        cecp_new_state_cases(),
        cecp_output_termination_and_syntax_cases(),
        nboard_cases(),
        cross_protocol_transport_cases(),
        cross_protocol_timing_and_lifecycle_cases(),
    ]
    .into_iter()
    .flatten()
    {
        let e = out.entry(c.rule).or_default();
        e.0 += usize::from(c.fires.is_some());
        e.1 += usize::from(c.near.is_some());
    }
    out
}

#[test]
fn the_tables_cover_every_implemented_rule() {
    let cat = catalogue();
    let implemented: Vec<&String> = cat
        .iter()
        .filter(|(_, r)| r.implemented)
        .map(|(id, _)| id)
        .collect();
    assert!(
        implemented.len() >= 70,
        "docs/rules.md lists only {} implemented CECP/NBoard/X rules: parse error?",
        implemented.len()
    );
    let cov = coverage();
    let mut missing = Vec::new();
    for id in &implemented {
        match cov.get(id.as_str()) {
            Some((f, n)) if *f > 0 && *n > 0 => {}
            Some((f, n)) => missing.push(format!("{id}: {f} firing, {n} near-miss case(s)")),
            None => missing.push(format!("{id}: no case")),
        }
    }
    for id in cov.keys() {
        if !cat.get(*id).is_some_and(|r| r.implemented) {
            missing.push(format!("{id}: has cases but is not an implemented rule"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// A search cut off while its output still flows is thinking, not stalled: `PENDING`, said
/// as "still searching"; the same search silent for seconds is a `STALL`.
#[test]
fn a_search_whose_output_still_flows_is_pending_not_stalled() {
    let pre = UCI_PRE.replace("go movetime 100", "go infinite");
    let mut thinking = pre.to_owned();
    for i in 0..130 {
        thinking.push_str(&format!(
            "{:.3} < info depth {} score cp 20 nodes 5000 pv e2e4\n",
            0.1 + f64::from(i) * 0.1,
            i + 1
        ));
    }
    let report = check(&thinking, &["--at", "13"], None);
    let h = &report.files[0].hangs;
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!((h[0].label, h[0].class.as_str()), ("PENDING", "search"));
    assert!(h[0].summary.contains("still searching"), "{}", h[0].summary);
    // Near miss: the output stopped 3 s before the cut.
    let report = check(&thinking, &["--at", "16"], None);
    let h = &report.files[0].hangs;
    assert_eq!(h[0].label, "STALL", "{}", h[0].summary);
    assert!(!h[0].summary.contains("still searching"));
}
