//! Real-world cases (`/work/shared/design/real-world-cases.md`) rebuilt end to end: a scripted
//! fault engine (`tests/engines/scenario_engine.py SCENARIO`) or a real Debian engine runs
//! behind the real `kibitzer record`, the test plays the GUI line by line with the timing the
//! case needs, and `kibitzer check --format json` must name exactly the rules an expert would
//! name (every other rule is asserted not to fire) and give the right hang verdict.
//!
//! Deadlines of 15 s or more are not waited for: the test checks the recording while the
//! session is still running, with `--at SECONDS` (the input judged as it stood that long after
//! its start, nothing said since), which is what a GUI stuck that long would have seen.

use crate::common;

use common::transcript::check_report;
use common::*;
use kibitzer::rules::report::CheckReport;
use kibitzer::rules::{Finding, HangVerdict, Severity};
use serde_json::Value;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::time::{Duration, Instant};

/// How long the GUI waits for any one answer before the test fails (a slow, loaded machine
/// answers in well under a second; nothing here waits for a deadline in real time).
const T: Duration = Duration::from_secs(20);

fn scenario_engine() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines/scenario_engine.py")
        .to_str()
        .expect("utf-8 path")
        .to_owned()
}

/// The GUI end of one proxied session.
struct Gui {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Lines,
    rec: PathBuf,
    _dir: tempfile::TempDir,
}

impl Gui {
    /// `kibitzer record -o REC --eof-grace 3 -- python3 scenario_engine.py SCENARIO`.
    fn scenario(name: &str) -> Gui {
        Gui::scenario_with(name, &[])
    }

    /// The same with extra `record` options (which replace the default `--eof-grace`).
    fn scenario_with(name: &str, options: &[&str]) -> Gui {
        let engine = scenario_engine();
        Gui::start(&["python3", &engine, name], options)
    }

    /// A real engine from PATH or /usr/games, with its arguments.
    fn real(name: &str, args: &[&str]) -> Gui {
        let path = engine(name);
        let mut argv = vec![path.to_str().expect("utf-8 path")];
        argv.extend_from_slice(args);
        Gui::start(&argv, &[])
    }

    fn start(argv: &[&str], options: &[&str]) -> Gui {
        let dir = tempfile::tempdir().expect("tempdir");
        let rec = dir.path().join("session.jsonl");
        let mut opts: Vec<&str> = options.to_vec();
        if !opts.contains(&"--eof-grace") {
            // A GUI that closes its input stops an engine that ignores it 3 s later: long
            // enough for a healthy engine on a loaded machine to exit on its own.
            opts.extend(["--eof-grace", "3"]);
        }
        let mut child = proxy_command(&rec, &opts, argv)
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn kibitzer record");
        let stdin = child.stdin.take();
        let lines = Lines::new(child.stdout.take().expect("stdout"));
        Gui {
            child,
            stdin,
            lines,
            rec,
            _dir: dir,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .unwrap_or_else(|e| panic!("GUI could not send {line:?}: {e}"));
    }

    /// Sends `line` where the engine is gone or closed its input: the write fails with EPIPE,
    /// as it would on the bare engine's pipe.
    fn send_refused(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        let sent = stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush());
        assert_eq!(
            sent.map_err(|e| e.kind()),
            Err(std::io::ErrorKind::BrokenPipe),
            "{line:?} reached an engine that closed its input"
        );
    }

    /// Waits for the engine's first line starting with `prefix`; returns it.
    fn expect(&mut self, prefix: &str) -> String {
        let seen = self
            .lines
            .until(&format!("a line starting `{prefix}`"), T, |l| {
                l.starts_with(prefix)
            });
        seen.last().expect("a line").trim_end().to_owned()
    }

    fn pause(&self, ms: u64) {
        std::thread::sleep(Duration::from_millis(ms));
    }

    /// Waits until the recording holds the GUI line `text`: what the GUI wrote has reached the
    /// proxy, whatever the machine's load, before a live check reads the file.
    fn recorded(&self, text: &str) {
        self.recorded_event(&format!("the GUI line {text:?}"), |e| {
            e["src"] == "gui" && e["text"].as_str() == Some(text)
        });
    }

    /// Waits until the recording holds an event `pred` accepts.
    fn recorded_event(&self, what: &str, pred: impl Fn(&Value) -> bool) {
        let deadline = Instant::now() + T;
        loop {
            let file = std::fs::read_to_string(&self.rec).unwrap_or_default();
            let found = file
                .lines()
                .skip(1)
                .any(|l| serde_json::from_str::<Value>(l).is_ok_and(|e| pred(&e)));
            if found {
                return;
            }
            assert!(Instant::now() < deadline, "the recording never got {what}");
            self.pause(50);
        }
    }

    /// `kibitzer check --format json ARGS` on the recording as it stands, the session still
    /// running.
    fn check(&self, args: &[&str]) -> Report {
        Report::of(&self.rec, args)
    }

    /// The GUI sends `quit` and closes its input; the session's check.
    fn quit(mut self) -> Report {
        self.send("quit");
        self.close_input(&[])
    }

    /// The GUI closes its input (no `quit`); the session's check with `args`.
    fn close_input(mut self, args: &[&str]) -> Report {
        drop(self.stdin.take());
        self.wait_proxy();
        Report::of(&self.rec, args)
    }

    /// The GUI keeps its input open until the engine ends on its own (a crash, an exit);
    /// the session's check.
    fn engine_ends(mut self) -> Report {
        self.wait_proxy();
        Report::of(&self.rec, &[])
    }

    fn wait_proxy(&mut self) {
        let deadline = Instant::now() + T;
        loop {
            if self.child.try_wait().expect("wait for the proxy").is_some() {
                return;
            }
            assert!(Instant::now() < deadline, "the proxy did not end");
            self.pause(20);
        }
    }

    /// UCI: `uci` … `uciok`, `isready` … `readyok`.
    fn uci_handshake(&mut self) {
        self.send("uci");
        self.expect("uciok");
        self.send("isready");
        self.expect("readyok");
    }

    /// CECP v2: `xboard`, `protover 2`, then `accepted NAME` for every feature the engine sets
    /// (as xboard does), until `done=1`.
    fn cecp_handshake(&mut self) {
        self.send("xboard");
        self.send("protover 2");
        loop {
            let line = self.expect("feature ");
            for name in feature_names(&line) {
                if name != "done" {
                    self.send(&format!("accepted {name}"));
                }
            }
            if line.contains("done=1") {
                return;
            }
        }
    }
}

impl Drop for Gui {
    /// A failed assertion must not leave the proxy (and its engine) running.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The names a `feature` line sets: `feature myname="X Y" ping=1` → `myname`, `ping`.
fn feature_names(line: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = line.strip_prefix("feature").unwrap_or("").trim_start();
    while let Some(eq) = rest.find('=') {
        names.push(rest[..eq].trim().to_owned());
        rest = &rest[eq + 1..];
        rest = if let Some(quoted) = rest.strip_prefix('"') {
            quoted.split_once('"').map_or("", |(_, r)| r)
        } else {
            rest.split_once(' ').map_or("", |(_, r)| r)
        };
        rest = rest.trim_start();
    }
    names
}

/// A hang verdict as asserted: class, label and what the engine owes.
type Hang<'a> = Option<(&'a str, &'a str, Option<&'a str>)>;
const NO_HANG: Hang<'static> = None;

/// The JSON report of one check.
struct Report {
    report: CheckReport,
}

impl Report {
    fn of(rec: &Path, args: &[&str]) -> Report {
        let (report, _) = check_report(rec, args);
        let file = &report.files[0];
        assert!(
            file.error.is_none() && file.lost_lines == 0,
            "the recording did not read cleanly: {file:?}"
        );
        Report { report }
    }

    fn findings(&self) -> &[Finding] {
        &self.report.files[0].findings
    }

    fn hangs(&self) -> &[HangVerdict] {
        &self.report.files[0].hangs
    }

    fn rules(&self) -> BTreeSet<String> {
        self.findings().iter().map(|f| f.rule.to_string()).collect()
    }

    /// Every finding and verdict, one per line, for failure messages.
    fn describe(&self) -> String {
        let mut s = String::new();
        for f in self.findings() {
            s.push_str(&format!(
                "  {} [{} {}] {}\n",
                f.rule,
                f.side.as_str(),
                f.severity.as_str(),
                f.message
            ));
        }
        for h in self.hangs() {
            s.push_str(&format!(
                "  hang[{}] {}: {}\n",
                h.class.as_str(),
                h.label,
                h.summary
            ));
        }
        if s.is_empty() {
            s.push_str("  (no findings, no hang)\n");
        }
        s
    }

    /// Exactly these rules fired (each at least once) and no other; and the hang verdict is
    /// `hang` (class, label, what is owed) or there is none.
    fn verdict(&self, case: &str, rules: &[&str], hang: Hang<'_>) -> &Report {
        let want: BTreeSet<String> = rules.iter().map(|r| (*r).to_owned()).collect();
        let got = self.rules();
        let missing: Vec<&String> = want.difference(&got).collect();
        let extra: Vec<&String> = got.difference(&want).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{case}: rules differ from what an expert names\n  missing: {missing:?}\n  \
             should not fire: {extra:?}\nkibitzer said:\n{}",
            self.describe()
        );
        let hangs = self.hangs();
        match hang {
            None => assert!(
                hangs.is_empty(),
                "{case}: no hang expected\nkibitzer said:\n{}",
                self.describe()
            ),
            Some((class, label, owed)) => {
                assert_eq!(
                    hangs.len(),
                    1,
                    "{case}: one hang verdict expected ({class} {label})\nkibitzer said:\n{}",
                    self.describe()
                );
                let h = &hangs[0];
                let got = (h.class.as_str(), h.label, h.owed.as_deref());
                assert_eq!(
                    got,
                    (class, label, owed),
                    "{case}: hang verdict (class, label, owed)\nkibitzer said:\n{}",
                    self.describe()
                );
            }
        }
        self
    }

    /// Every finding of `rule` blames `side`.
    fn blames(&self, rule: &str, side: &str) -> &Report {
        for f in self.findings().iter().filter(|f| f.rule == rule) {
            assert_eq!(
                f.side.as_str(),
                side,
                "{rule} must blame the {side}\nkibitzer said:\n{}",
                self.describe()
            );
        }
        self
    }

    /// The one hang verdict.
    fn hang(&self) -> &HangVerdict {
        self.hangs()
            .first()
            .unwrap_or_else(|| panic!("no hang verdict\nkibitzer said:\n{}", self.describe()))
    }

    /// How the engine ended, as the hang verdict says.
    fn exit(&self) -> String {
        self.hang().exit.clone().unwrap_or_default()
    }
}

/// Fool's mate: White is checkmated.
const MATED: &str = "position startpos moves f2f3 e7e5 g2g4 d8h4";
/// 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nf6: White may castle short now.
const ITALIAN: &str = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6";

// ------------------------------------------------------------------------- 5.1 Handshake

/// H7 cutechess/cutechess#476: "Kill engine after waiting for uciok and readyok for a certain
/// amount of time" — cutechess "hang[s] up forever" when an engine never answers `uci`.
/// A GUI with no deadline (the spec profile sets none) still waiting 70 s later: no watchdog.
#[test]
fn h7_no_uciok_and_a_gui_without_deadline_waits_forever() {
    let mut gui = Gui::scenario("no-uciok");
    gui.send("uci");
    gui.expect("id author");
    gui.recorded("uci");
    gui.check(&["--profile", "spec", "--at", "70"]).verdict(
        "H7",
        &["X-NO-WATCHDOG"],
        Some(("handshake", "STALL", Some("uciok"))),
    );
    gui.quit().verdict("H7 after quit", &[], NO_HANG);
}

/// H8 Disservin/fastchess#635: "engines need to answer to first uci within 5 seconds"; fastchess
/// now gives a 10 s startup deadline. Twelve seconds on, the engine has timed out.
#[test]
fn h8_no_uciok_within_the_fastchess_startup_deadline() {
    let mut gui = Gui::scenario("no-uciok");
    gui.send("uci");
    gui.expect("id author");
    gui.recorded("uci");
    gui.check(&["--profile", "fastchess", "--at", "14"])
        .verdict(
            "H8",
            &["UCI-UCIOK-TIMEOUT", "X-HANG"],
            Some(("handshake", "TIMEOUT", Some("uciok"))),
        );
}

/// H10 leedavid/NewGG#11 "Redundant output": the engine prints `uciok` at start-up, before
/// `uci`. Only that line is wrong: the options it declares after the GUI's `uci` come before
/// the `uciok` that answers it.
#[test]
fn h10_uciok_printed_at_boot_before_uci() {
    let mut gui = Gui::scenario("uciok-at-boot");
    gui.expect("uciok");
    gui.uci_handshake();
    gui.quit()
        .verdict("H10", &["UCI-UNSOLICITED-OUTPUT"], NO_HANG)
        .blames("UCI-UNSOLICITED-OUTPUT", "engine");
}

/// H11 LeelaChessZero/lc0#1459: "some GUIs … start the timer immediately when calling the
/// engine instead of waiting for the proper readyok": the first `go` without `isready`.
#[test]
fn h11_go_before_readyok() {
    let mut gui = Gui::scenario("well-behaved");
    gui.send("uci");
    gui.expect("uciok");
    gui.send("position startpos");
    gui.send("go depth 3");
    gui.expect("bestmove e2e4");
    gui.quit()
        .verdict("H11", &["UCI-GO-BEFORE-READYOK"], NO_HANG)
        .blames("UCI-GO-BEFORE-READYOK", "gui");
}

/// H1 cutechess/cutechess#459 "winboard 'feature done' bug": NN engines send `feature done=0`
/// while loading (the spec then allows an hour), but cutechess kept its own short init timer
/// and went on before `done=1`.
#[test]
fn h1_gui_ignores_feature_done0() {
    let mut gui = Gui::scenario("cecp-done0-slow");
    gui.send("xboard");
    gui.send("protover 2");
    gui.expect("feature done=0");
    gui.pause(1000);
    gui.send("new");
    gui.send("force");
    let features = gui.expect("feature myname");
    for name in feature_names(&features) {
        if name != "done" {
            gui.send(&format!("accepted {name}"));
        }
    }
    gui.quit()
        .verdict("H1", &["CECP-DONE0-HONOURED"], NO_HANG)
        .blames("CECP-DONE0-HONOURED", "gui");
}

/// H4 niklasf/python-chess#572 "Timeout during initialization of GNU Chess 6.2.7": the debug
/// log shows only the banner `Chess`, no `feature … done=…` within python-chess's 2 s.
#[test]
fn h4_banner_but_no_features_within_python_chess_window() {
    let mut gui = Gui::scenario("cecp-banner-only");
    gui.expect("Chess");
    gui.send("xboard");
    gui.send("protover 2");
    gui.recorded("protover 2");
    gui.check(&["--profile", "python-chess", "--at", "5"])
        .verdict(
            "H4",
            &[
                "CECP-FEATURE-TIMEOUT",
                "X-HANG",
                // `Chess` is no CECP message.
                "CECP-UNDOCUMENTED-OUTPUT",
            ],
            Some(("handshake", "TIMEOUT", Some("feature done=1"))),
        )
        .blames("CECP-FEATURE-TIMEOUT", "engine");
}

/// H5 lichess-bot-devs/lichess-bot#408 "EngineError: xboard engine did not declare required
/// feature: ping": python-chess refuses engines without `ping=1`, so under its profile the
/// missing feature is an error, not a note.
#[test]
fn h5_engine_declares_no_ping() {
    let mut gui = Gui::scenario("cecp-no-ping");
    gui.cecp_handshake();
    gui.send("quit");
    let report = gui.close_input(&["--profile", "python-chess"]);
    report
        .verdict("H5", &["CECP-PING-NOT-DECLARED"], NO_HANG)
        .blames("CECP-PING-NOT-DECLARED", "engine");
    let f = report
        .findings()
        .iter()
        .find(|f| f.rule == "CECP-PING-NOT-DECLARED")
        .expect("finding");
    assert_eq!(f.severity, Severity::Error, "{}", report.describe());
}

/// H6 cutechess/cutechess#767 "Game abandoned: {White's connection stalls}": Stockfish, a UCI
/// engine, launched with proto=xboard. The real Stockfish answers `Unknown command: 'xboard'`:
/// no CECP engine rejects `xboard`, so the GUI speaks the wrong protocol.
#[test]
fn h6_uci_engine_spoken_to_in_cecp() {
    let mut gui = Gui::real("stockfish", &[]);
    gui.send("xboard");
    gui.send("protover 2");
    gui.expect("Unknown command: 'xboard'");
    gui.expect("Unknown command: 'protover 2'");
    gui.check(&["--at", "12"])
        .verdict(
            "H6",
            &[
                "X-PROTOCOL-MISMATCH",
                "CECP-FEATURE-TIMEOUT",
                "X-HANG",
                // The banner and the two complaints are no CECP messages.
                "CECP-UNDOCUMENTED-OUTPUT",
            ],
            Some(("handshake", "TIMEOUT", Some("feature done=1"))),
        )
        .blames("X-PROTOCOL-MISMATCH", "gui");
    gui.quit();
}

/// H9 lrozenblyum/chess#207 "Not accepted usermove": `feature usermove=1` was accepted after
/// the GUI had already sent `new` and the move g1f3 without the prefix; the engine missed the
/// move and waits for White while the GUI waits for its reply.
#[test]
fn h9_move_sent_before_the_features_arrive() {
    let mut gui = Gui::scenario("cecp-late-features");
    gui.send("xboard");
    gui.send("protover 2");
    gui.send("new");
    gui.send("g1f3");
    let features = gui.expect("feature ");
    for name in feature_names(&features) {
        if name != "done" {
            gui.send(&format!("accepted {name}"));
        }
    }
    gui.expect("Error (unknown command): g1f3");
    gui.recorded("accepted usermove");
    gui.check(&["--at", "6"])
        .verdict(
            "H9",
            // The bare g1f3 was the right form when it was sent (no feature was known yet):
            // the fault is sending it before the features, one finding.
            &["CECP-COMMAND-BEFORE-FEATURES"],
            Some(("search", "STALL", Some("move"))),
        )
        .blames("CECP-COMMAND-BEFORE-FEATURES", "gui");
}

/// H12 abulmo/edax-reversi `src/nboard.c`: Edax accepts only "nboard 1" and reports an error
/// on `nboard 2`, the current version of the protocol.
#[test]
fn h12_engine_rejects_nboard_version_2() {
    let mut gui = Gui::scenario("nboard-version-1-only");
    gui.send("nboard 2");
    gui.send("ping 1");
    gui.expect("pong 1");
    gui.quit().verdict("H12", &["NBOARD-VERSION"], NO_HANG);
}

// ---------------------------------------------------------------------- 5.2 Synchronisation

/// S1 AndyGrant/Ethereal#177 "while is searching the engine doesn't reply to 'isready'":
/// `readyok` only once the search is over.
#[test]
fn s1_readyok_only_after_a_timed_search() {
    let mut gui = Gui::scenario("readyok-after-search");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go nodes 1500000");
    gui.expect("info");
    gui.send("isready");
    gui.expect("bestmove");
    gui.expect("readyok");
    gui.quit()
        .verdict("S1", &["UCI-READYOK-DELAYED-BY-SEARCH"], NO_HANG)
        .blames("UCI-READYOK-DELAYED-BY-SEARCH", "engine");
}

/// S2 SnowballSH/Avalanche#17 "Responding to isready during a search": cutechess warns "not
/// responding to a ping". Twenty seconds into an analysis the `isready` is still unanswered
/// while the engine searches on: a ping stall past cutechess's 15 s, not a search one (an
/// infinite search owes no bestmove until `stop`).
#[test]
fn s2_isready_unanswered_during_infinite_search() {
    let mut gui = Gui::scenario("readyok-after-search");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go infinite");
    gui.expect("info");
    gui.send("isready");
    gui.pause(300);
    gui.recorded("isready");
    let live = gui.check(&["--at", "20"]);
    live.verdict(
        "S2",
        &["UCI-ISREADY-TIMEOUT", "X-HANG"],
        Some(("ping", "TIMEOUT", Some("readyok"))),
    );
    assert_eq!(
        live.hang().request.as_deref(),
        Some("isready"),
        "{}",
        live.describe()
    );
    gui.send("stop");
    gui.expect("readyok");
    gui.quit()
        .verdict("S2 after stop", &["UCI-READYOK-DELAYED-BY-SEARCH"], NO_HANG);
}

/// S3 nescitus/rodent-iv#29 "engine doesn't react to isready after go infinite": no `readyok`
/// until `stop`.
#[test]
fn s3_readyok_only_after_stop_in_analysis() {
    let mut gui = Gui::scenario("readyok-after-search");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go infinite");
    gui.expect("info");
    gui.send("isready");
    gui.pause(600);
    gui.send("stop");
    gui.expect("bestmove");
    gui.expect("readyok");
    gui.quit()
        .verdict("S3", &["UCI-READYOK-DELAYED-BY-SEARCH"], NO_HANG);
}

/// S4 gekomad/Cinnamon#3 "Do not stop search on isready": the engine aborted its search on
/// `isready` (the spec: answer "without stopping the search"). One fault: the `readyok` itself
/// came at once, it was not delayed by a search.
#[test]
fn s4_isready_stops_the_search() {
    let mut gui = Gui::scenario("isready-stops-search");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go infinite");
    gui.expect("info");
    gui.send("isready");
    gui.expect("bestmove");
    gui.expect("readyok");
    gui.quit()
        .verdict("S4", &["UCI-ISREADY-STOPS-SEARCH"], NO_HANG)
        .blames("UCI-ISREADY-STOPS-SEARCH", "engine");
}

/// S5 niklasf/python-chess#83 "0readyok?": `isready` during an early search, and the engine's
/// non-atomic writes garble the answer into `0readyok`.
#[test]
fn s5_readyok_garbled_by_interleaved_writes() {
    let mut gui = Gui::scenario("interleaved-readyok");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go nodes 1500000");
    gui.expect("info");
    gui.send("isready");
    gui.expect("0readyok");
    gui.expect("bestmove");
    gui.quit()
        .verdict(
            "S5",
            // `0readyok` is also no UCI message at all.
            &["X-LINE-INTERLEAVED", "UCI-UNKNOWN-COMMAND"],
            NO_HANG,
        )
        .blames("X-LINE-INTERLEAVED", "engine");
}

/// S6 pychess/pychess#551 "UCIEngine analysis mode synchronization problems": the GUI sent a
/// new `position` and `go` before the running search's `bestmove`, then took old `info` for
/// the new position.
#[test]
fn s6_new_position_and_go_while_searching() {
    let mut gui = Gui::scenario("well-behaved");
    gui.uci_handshake();
    gui.send("position startpos moves e2e4");
    gui.send("go nodes 1500000");
    gui.expect("info");
    gui.send("position startpos moves e2e4 e7e5");
    gui.send("go infinite");
    gui.expect("bestmove e7e5");
    gui.expect("info");
    gui.pause(200);
    gui.send("stop");
    gui.expect("bestmove g1f3");
    gui.quit()
        .verdict(
            "S6",
            &["UCI-POSITION-WHILE-SEARCHING", "UCI-GO-WHILE-SEARCHING"],
            NO_HANG,
        )
        .blames("UCI-GO-WHILE-SEARCHING", "gui")
        .blames("UCI-POSITION-WHILE-SEARCHING", "gui");
}

/// S10 dje-dev/Ceres#65 "Ceres doesn't output a readyok (nibbler)": the engine never becomes
/// ready; twenty seconds on, cutechess's 15 s ping deadline has passed.
#[test]
fn s10_readyok_never_comes() {
    let mut gui = Gui::scenario("no-readyok");
    gui.send("uci");
    gui.expect("uciok");
    gui.send("isready");
    gui.recorded("isready");
    gui.check(&["--at", "20"])
        .verdict(
            "S10",
            &["UCI-ISREADY-TIMEOUT", "X-HANG"],
            Some(("ping", "TIMEOUT", Some("readyok"))),
        )
        .blames("UCI-ISREADY-TIMEOUT", "engine");
}

/// S12 lichess-org/stockfish.wasm#13 "Freezes when 'go' inmediatly after receive 'bestmove'":
/// a legal `go` right after `bestmove`, and the engine never answers it.
#[test]
fn s12_engine_freezes_on_go_right_after_bestmove() {
    let mut gui = Gui::scenario("freeze-after-quick-go");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go depth 3");
    gui.expect("bestmove e2e4");
    gui.send("position startpos moves e2e4 e7e5");
    gui.send("go movetime 200");
    gui.recorded("go movetime 200");
    gui.check(&["--at", "6"]).verdict(
        "S12",
        &["UCI-BESTMOVE-LATE", "X-HANG"],
        Some(("search", "TIMEOUT", Some("bestmove"))),
    );
}

/// S9 Disservin/fastchess#631 "Add 'connection stalls' termination": stalls and crashes were
/// both labelled disconnects. An engine that exits (code 3) mid-search is a DISCONNECT, with
/// its exit code, not a stall.
#[test]
fn s9_exit_mid_search_is_a_disconnect_not_a_stall() {
    let mut gui = Gui::scenario("exit-mid-search");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go wtime 60000 btime 60000");
    let report = gui.engine_ends();
    report.verdict(
        "S9",
        &["X-ENGINE-EXIT"],
        Some(("disconnect", "DISCONNECT", Some("bestmove"))),
    );
    let exit = report.exit();
    assert!(exit.contains("code 3"), "{exit}\n{}", report.describe());
}

// --------------------------------------------------------------------- 5.3 Search lifecycle

/// L1 lichess-bot-devs/lichess-bot#893: `go … depth 5 movetime 2000` answered far too late.
#[test]
fn l1_bestmove_long_after_movetime() {
    let mut gui = Gui::scenario("slow-bestmove");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go depth 5 movetime 300");
    gui.expect("bestmove e2e4");
    gui.quit()
        .verdict("L1", &["UCI-BESTMOVE-LATE"], NO_HANG)
        .blames("UCI-BESTMOVE-LATE", "engine");
}

/// L2 Disservin/fastchess#486 "Illegal move <none> played by sf1": the runner gave up on a slow
/// search and sent `ucinewgame` and `isready` for the next game; the late `bestmove` arrived
/// after them, and the `readyok` only after it.
#[test]
fn l2_late_bestmove_after_the_next_game_began() {
    let mut gui = Gui::scenario("slow-bestmove");
    gui.send("uci");
    gui.expect("uciok");
    gui.send("ucinewgame");
    gui.send("isready");
    gui.expect("readyok");
    gui.send("position startpos");
    gui.send("go movetime 300");
    gui.pause(900);
    gui.send("ucinewgame");
    gui.send("isready");
    gui.expect("bestmove e2e4");
    gui.expect("readyok");
    gui.quit().verdict(
        "L2",
        &["UCI-BESTMOVE-LATE", "UCI-READYOK-DELAYED-BY-SEARCH"],
        NO_HANG,
    );
}

/// L3 cutechess/cutechess#180 "Premature 'bestmove' in ponder mode handled incorrectly":
/// Carballo left ponder mode on its own.
#[test]
fn l3_bestmove_while_pondering() {
    let mut gui = Gui::scenario("bestmove-in-ponder");
    gui.uci_handshake();
    gui.send("position startpos moves e2e4 e7e5 g1f3");
    gui.send("go ponder wtime 60000 btime 60000");
    gui.expect("bestmove b8c6");
    gui.quit()
        .verdict("L3", &["UCI-BESTMOVE-IN-PONDER"], NO_HANG)
        .blames("UCI-BESTMOVE-IN-PONDER", "engine");
}

/// L4 LeelaChessZero/lc0#693 "better fix for issue 651": no `bestmove` after `stop`. Twenty
/// seconds on, cutechess's 15 s deadline after `stop` has passed.
#[test]
fn l4_no_bestmove_after_stop() {
    let mut gui = Gui::scenario("ignores-stop");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go infinite");
    gui.expect("info");
    gui.send("stop");
    gui.recorded("stop");
    gui.check(&["--at", "20"])
        .verdict(
            "L4",
            &["UCI-BESTMOVE-MISSING-AFTER-STOP", "X-HANG"],
            Some(("search", "TIMEOUT", Some("bestmove"))),
        )
        .blames("UCI-BESTMOVE-MISSING-AFTER-STOP", "engine");
}

/// L7 LeelaChessZero/lc0#1209 "CPU usage high even for positions with zero moves": `go
/// infinite` on a checkmated position ("UCI hosts should not send malformed UCI commands").
#[test]
fn l7_go_infinite_on_a_mated_position() {
    let mut gui = Gui::scenario("well-behaved");
    gui.uci_handshake();
    gui.send(MATED);
    gui.send("go infinite");
    gui.expect("info");
    gui.pause(300);
    gui.send("stop");
    gui.expect("bestmove 0000");
    gui.quit()
        .verdict("L7", &["UCI-GO-ON-TERMINAL-POSITION"], NO_HANG)
        .blames("UCI-GO-ON-TERMINAL-POSITION", "gui");
}

/// L8 billforsternz/retro-sargon#3 "Engine won't stop calculating": `go movetime 1000` acts
/// like infinite until the GUI sends `stop`.
#[test]
fn l8_movetime_ignored_until_stop() {
    let mut gui = Gui::scenario("ignores-movetime");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go movetime 300");
    gui.expect("info");
    gui.pause(1200);
    gui.send("stop");
    gui.expect("bestmove e2e4");
    gui.quit()
        .verdict("L8", &["UCI-BESTMOVE-LATE"], NO_HANG)
        .blames("UCI-BESTMOVE-LATE", "engine");
}

/// L10 Disservin/fastchess#1029 "Crash is not detected when using fixed nodes": the engine
/// crashes during a `go nodes` search; the recording has the crash and its signal.
#[test]
fn l10_crash_during_a_nodes_search() {
    let mut gui = Gui::scenario("crash-mid-search");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go nodes 1000000");
    let report = gui.engine_ends();
    report
        .verdict(
            "L10",
            &["X-ENGINE-EXIT"],
            Some(("disconnect", "DISCONNECT", Some("bestmove"))),
        )
        .blames("X-ENGINE-EXIT", "engine");
    let exit = report.exit();
    assert!(exit.contains("SIGSEGV"), "{exit}\n{}", report.describe());
}

/// L11 lynx-chess/Lynx#284 + cutechess/cutechess#472: `info … pv` after `bestmove`, which the
/// GUI then checked against the next position ("constant warnings about illegal pv moves").
#[test]
fn l11_info_after_bestmove() {
    let mut gui = Gui::scenario("info-after-bestmove");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go depth 3");
    gui.expect("bestmove e2e4");
    gui.expect("info");
    gui.quit()
        .verdict("L11", &["UCI-INFO-AFTER-BESTMOVE"], NO_HANG)
        .blames("UCI-INFO-AFTER-BESTMOVE", "engine");
}

/// L12 jdart1/arasan-chess#48 "Winboard protocol: reply move may be invalidated by commands":
/// `undo` sent while the engine thinks (not in force mode), and the reply it had picked comes
/// anyway, for a position that no longer exists.
#[test]
fn l12_undo_while_thinking_then_a_stale_move() {
    let mut gui = Gui::scenario("cecp-move-after-undo");
    gui.cecp_handshake();
    gui.send("new");
    gui.send("e2e4");
    gui.pause(200);
    gui.send("undo");
    gui.expect("move e7e5");
    gui.quit()
        .verdict(
            "L12",
            &["CECP-UNDO-WITHOUT-FORCE", "CECP-MOVE-ILLEGAL"],
            NO_HANG,
        )
        .blames("CECP-UNDO-WITHOUT-FORCE", "gui")
        .blames("CECP-MOVE-ILLEGAL", "engine");
}

/// L13 lichess-bot-devs/lichess-bot#1036 "xboard: lichess does neither send quit nor result
/// command after engine timed out": the engine's clock ran out (0.5 s left, it took 2 s) and
/// the GUI never sent `result`.
#[test]
fn l13_loss_on_time_without_result() {
    let mut gui = Gui::scenario("cecp-slow-move");
    gui.cecp_handshake();
    gui.send("new");
    gui.send("level 0 1 0");
    gui.send("time 50");
    gui.send("otim 6000");
    gui.send("e2e4");
    gui.expect("move e7e5");
    gui.pause(500);
    gui.quit()
        .verdict(
            "L13",
            // The scripted engine sleeps to be late, and the proxy's samples see it asleep.
            &["X-CLOCK-UNDERFLOW", "CECP-RESULT-MISSING", "X-HANG-ASLEEP"],
            NO_HANG,
        )
        .blames("X-CLOCK-UNDERFLOW", "engine");
}

/// L14 lichess-bot-devs/lichess-bot#181: "It is probably an error for a 'go' command to be
/// sent to a thinking engine" (after a move out of force mode).
#[test]
fn l14_go_sent_to_a_thinking_engine() {
    let mut gui = Gui::scenario("cecp-ok");
    gui.cecp_handshake();
    gui.send("new");
    // One write: the `go` reaches the engine while it thinks, whatever the load.
    gui.send("e2e4\ngo");
    gui.expect("move e7e5");
    gui.send("ping 1");
    gui.expect("pong 1");
    gui.quit()
        .verdict("L14", &["CECP-GO-WHILE-THINKING"], NO_HANG)
        .blames("CECP-GO-WHILE-THINKING", "gui");
}

// ----------------------------------------------------------------------- 5.4 Move legality

/// M1 niklasf/python-chess#1119 "Leela crashes with 'invalid uci' when analyzing a game": in a
/// checkmated position Lc0 sent `a1a1` "where it should send `0000`". The GUI asked for a
/// search of a finished game, and the engine spelled "no move" wrongly: a null-move format
/// fault, not an illegal move.
#[test]
fn m1_a1a1_instead_of_0000_in_a_mated_position() {
    let mut gui = Gui::scenario("null-move-a1a1");
    gui.uci_handshake();
    gui.send(MATED);
    gui.send("go depth 3");
    gui.expect("bestmove a1a1");
    gui.quit().verdict(
        "M1",
        &["UCI-GO-ON-TERMINAL-POSITION", "UCI-BESTMOVE-NULL-FORMAT"],
        NO_HANG,
    );
}

/// M2 Witek902/Caissa#24 "Crash after bestmove 0000 (mate/stalemate at root)": the engine
/// answers a search of a mated position correctly, then dies before the GUI's next `isready`.
#[test]
fn m2_crash_after_bestmove_0000() {
    let mut gui = Gui::scenario("crash-after-null-bestmove");
    gui.uci_handshake();
    gui.send(MATED);
    gui.send("go depth 3");
    gui.expect("bestmove 0000");
    gui.send("isready");
    let report = gui.engine_ends();
    report
        .verdict(
            "M2",
            &["UCI-GO-ON-TERMINAL-POSITION", "X-ENGINE-EXIT"],
            Some(("disconnect", "DISCONNECT", Some("readyok"))),
        )
        .blames("X-ENGINE-EXIT", "engine");
    let exit = report.exit();
    assert!(exit.contains("SIGSEGV"), "{exit}\n{}", report.describe());
}

/// M3 official-stockfish/Stockfish#7000 "Engine process terminates on illegal moves in position
/// command, causing GUI … to freeze": `position startpos moves d2d4 a1f8` makes the engine exit
/// with code 1; the GUI keeps writing to the dead pipe.
#[test]
fn m3_illegal_position_kills_the_engine() {
    let mut gui = Gui::scenario("exit-on-illegal-position");
    gui.uci_handshake();
    gui.send("position startpos moves d2d4 a1f8\ngo depth 10");
    // The engine says why on stderr, then closes its input: from then on the GUI's writes fail,
    // as they would on the bare engine's pipe, and the recording says when that began.
    gui.recorded_event("the engine's complaint on stderr", |e| {
        e["src"] == "stderr"
            && e["text"]
                .as_str()
                .is_some_and(|t| t.contains("illegal move"))
    });
    gui.recorded_event("the engine closing its input", |e| {
        e["kind"] == "engine_stdin_closed"
    });
    gui.send_refused("isready");
    let report = gui.engine_ends();
    report
        .verdict(
            "M3",
            &["UCI-POSITION-ILLEGAL-MOVE", "X-ENGINE-EXIT"],
            Some(("disconnect", "DISCONNECT", Some("bestmove"))),
        )
        .blames("UCI-POSITION-ILLEGAL-MOVE", "gui")
        .blames("X-ENGINE-EXIT", "engine");
    let exit = report.exit();
    assert!(exit.contains("code 1"), "{exit}\n{}", report.describe());
}

/// M4 cutechess/cutechess#109 "Forfeit if Xboard engine claims illegal move": the GUI never
/// sends illegal moves, so `Illegal move` for a legal one is the engine's bug.
#[test]
fn m4_engine_rejects_a_legal_move() {
    let mut gui = Gui::scenario("cecp-illegal-move-reply");
    gui.cecp_handshake();
    gui.send("new");
    gui.send("e2e4");
    gui.expect("Illegal move: e2e4");
    gui.quit()
        .verdict("M4", &["CECP-ILLEGAL-MOVE-REPLY"], NO_HANG)
        .blames("CECP-ILLEGAL-MOVE-REPLY", "engine");
}

/// M6 Disservin/fastchess#377 "question about illegal bestmove handling": an illegal
/// `bestmove`.
#[test]
fn m6_illegal_bestmove() {
    let mut gui = Gui::scenario("illegal-bestmove");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go depth 3");
    gui.expect("bestmove e2e5");
    gui.quit()
        .verdict("M6", &["UCI-BESTMOVE-ILLEGAL"], NO_HANG)
        .blames("UCI-BESTMOVE-ILLEGAL", "engine");
}

/// M7 okuhara/edax-reversi-AVX#1 and abulmo/edax-reversi#50 "nboard pass not parsed": Edax
/// ignored the trailing pass `B[PA]` of `set game`, so it thought Black (who has no move) was
/// to play and answered a pass while White has moves: "Illegal move from engine: PA/-64".
#[test]
fn m7_trailing_pass_of_set_game_ignored() {
    // A legal game from the start (tests/record_nboard.rs): Black has no move after these 28,
    // and passes.
    const MOVES: [&str; 29] = [
        "E6", "D6", "C3", "D3", "C4", "B5", "D2", "F7", "D7", "C6", "A6", "D8", "G8", "F5", "E8",
        "C5", "G4", "F6", "G7", "H3", "E7", "F8", "B6", "H6", "G6", "C7", "B7", "H8", "PA",
    ];
    let mut gui = Gui::scenario("nboard-ignores-trailing-pass");
    gui.send("nboard 2");
    gui.send("set depth 4");
    gui.send(&set_game(&MOVES));
    gui.send("go");
    gui.expect("=== PA");
    gui.quit()
        .verdict(
            "M7",
            &["NBOARD-MOVE-ILLEGAL", "NBOARD-SET-GAME-PARSE"],
            NO_HANG,
        )
        .blames("NBOARD-MOVE-ILLEGAL", "engine");
}

/// M8 nguyenpham/Banksia#7 "Illegal move": games with xboard engines end "illegal move".
#[test]
fn m8_engine_plays_an_illegal_move() {
    let mut gui = Gui::scenario("cecp-illegal-move");
    gui.cecp_handshake();
    gui.send("new");
    gui.send("e2e4");
    gui.expect("move e7e4");
    gui.quit()
        .verdict("M8", &["CECP-MOVE-ILLEGAL"], NO_HANG)
        .blames("CECP-MOVE-ILLEGAL", "engine");
}

/// Not a numbered case, but the race behind H5 (python-chess insists on `ping` to stay in
/// sync): pinged while it owes its move, the engine answers `pong` first. "If you do [receive a
/// ping while on move], you must not send the 'pong' reply to xboard until after you send your
/// move."
#[test]
fn cecp_pong_before_move() {
    let mut gui = Gui::scenario("cecp-pong-before-move");
    gui.cecp_handshake();
    gui.send("new");
    // One write: the ping reaches the engine while it thinks, whatever the load.
    gui.send("e2e4\nping 1");
    gui.expect("pong 1");
    gui.expect("move e7e5");
    gui.quit()
        .verdict("pong before move", &["CECP-PONG-BEFORE-MOVE"], NO_HANG)
        .blames("CECP-PONG-BEFORE-MOVE", "engine");
}

/// NBoard's `set game` line for the start position followed by `moves` (Black first).
fn set_game(moves: &[&str]) -> String {
    let mut g = String::from(
        "set game (;GM[Othello]PC[NBoard]DT[2026-01-01 00:00:00 GMT]PB[tester]PW[Scenario]\
         RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]",
    );
    for (i, m) in moves.iter().enumerate() {
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        g.push_str(&format!("{colour}[{m}]"));
    }
    g.push_str(";)");
    g
}

// ------------------------------------------------------------------ 5.5 Notation and format

/// N4 franciscoBSalgueiro/en-croissant#736: the reproduction feeds KxR castling (`e1h1`) in a
/// standard game: the GUI's notation is wrong.
#[test]
fn n4_gui_sends_king_takes_rook_castling_in_standard_chess() {
    let mut gui = Gui::scenario("well-behaved");
    gui.uci_handshake();
    gui.send(&format!("{ITALIAN} e1h1"));
    gui.send("go depth 3");
    gui.expect("bestmove f8c5");
    gui.quit()
        .verdict("N4", &["UCI-CASTLING-NOTATION"], NO_HANG)
        .blames("UCI-CASTLING-NOTATION", "gui");
}

/// N5 MinusKelvin/frozenight#2 "Illegal move when castling?": the engine castles as
/// king-takes-rook in standard chess; Arena aborts the tournament.
#[test]
fn n5_engine_castles_king_takes_rook_in_standard_chess() {
    let mut gui = Gui::scenario("kxr-castling");
    gui.uci_handshake();
    gui.send(ITALIAN);
    gui.send("go depth 3");
    gui.expect("bestmove e1h1");
    gui.quit()
        .verdict("N5", &["UCI-CASTLING-NOTATION"], NO_HANG)
        .blames("UCI-CASTLING-NOTATION", "engine");
}

/// N7 franciscoBSalgueiro/en-croissant#500: `info time … score -368 depth 3`, a `score`
/// without `cp`/`mate`. (The stray `-368` is also a syntax slip of the same line.)
#[test]
fn n7_score_without_unit() {
    let mut gui = Gui::scenario("score-without-unit");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go depth 3");
    gui.expect("bestmove e2e4");
    gui.quit()
        .verdict("N7", &["UCI-INFO-SCORE-UNIT", "UCI-SYNTAX"], NO_HANG)
        .blames("UCI-INFO-SCORE-UNIT", "engine");
}

/// N9 weltyc/othello `protocol/ResponseParser.java`: "Edax produces the mli with spaces between
/// components rather than slashes" (`=== d6 -1.00 0.0`), and the reference GUI reads them as
/// slashes on purpose, as the protocol text's own example writes them: no finding.
#[test]
fn n9_nboard_move_with_spaces_instead_of_slashes() {
    let mut gui = Gui::scenario("nboard-spaced-move");
    gui.send("nboard 2");
    gui.send("set depth 4");
    gui.send(&set_game(&[]));
    gui.send("go");
    gui.expect("=== f5");
    gui.quit().verdict("N9", &[], NO_HANG);
}

/// N10 Torom/BotLi#148 "Unexpected warnings during engine startup / game play": ` info depth
/// …` with leading whitespace, legal UCI but rejected by python-chess.
#[test]
fn n10_leading_whitespace() {
    let mut gui = Gui::scenario("leading-whitespace");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go depth 3");
    gui.expect("bestmove e2e4");
    gui.quit()
        .verdict("N10", &["X-LEADING-WHITESPACE"], NO_HANG)
        .blames("X-LEADING-WHITESPACE", "engine");
}

/// N11 vshcherbyna/igel#284 "UCI commands with new line '\n' not supported?": line-terminator
/// handling; here the engine's side of it, every line ending in CR LF (reported once).
#[test]
fn n11_crlf_line_endings() {
    let mut gui = Gui::scenario("crlf-output");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go depth 3");
    gui.expect("bestmove e2e4");
    let report = gui.quit();
    report
        .verdict("N11", &["X-LINE-ENDING"], NO_HANG)
        .blames("X-LINE-ENDING", "engine");
    assert_eq!(report.findings().len(), 1, "{}", report.describe());
}

// ---------------------------------------------------------------------- 5.6 Time controls

/// T1 lichess-bot-devs/lichess-bot#177 "Incorrect opening move time control sent to xboard
/// engines": `level 0 0:10 0` for the opening move instead of `st 10`, so the engine thinks the
/// whole game lasts 10 s; the real time control follows one move later.
#[test]
fn t1_level_used_as_a_per_move_limit() {
    let mut gui = Gui::scenario("cecp-ok");
    gui.cecp_handshake();
    gui.send("new");
    gui.send("level 0 0:10 0");
    gui.send("time 1000");
    gui.send("otim 1000");
    gui.send("e2e4");
    gui.expect("move e7e5");
    gui.send("level 0 5 0");
    gui.send("time 30000");
    gui.send("otim 30000");
    gui.send("g1f3");
    gui.expect("move b8c6");
    gui.quit()
        .verdict("T1", &["CECP-TC-SEMANTICS"], NO_HANG)
        .blames("CECP-TC-SEMANTICS", "gui");
}

/// T2 lichess-bot-devs/lichess-bot#189 "Xboard fixes": "Clock times are sent in centiseconds …
/// to Xboard engines according to the standard" — here 300000 (milliseconds) for a 5-minute
/// game.
#[test]
fn t2_time_sent_in_milliseconds() {
    let mut gui = Gui::scenario("cecp-ok");
    gui.cecp_handshake();
    gui.send("new");
    gui.send("level 40 5 0");
    gui.send("time 300000");
    gui.send("otim 300000");
    gui.send("e2e4");
    gui.expect("move e7e5");
    gui.quit()
        .verdict("T2", &["CECP-TIME-UNITS"], NO_HANG)
        .blames("CECP-TIME-UNITS", "gui");
}

/// T3 niklasf/python-chess#378 "Wrong time per move for xboard engine": `st` sent in
/// centiseconds (`st 1000` for 10 s), 100 times the intended time.
#[test]
fn t3_st_in_centiseconds() {
    let mut gui = Gui::scenario("cecp-ok");
    gui.cecp_handshake();
    gui.send("new");
    gui.send("st 1000");
    gui.send("e2e4");
    gui.expect("move e7e5");
    gui.quit()
        .verdict("T3", &["CECP-ST-UNITS"], NO_HANG)
        .blames("CECP-ST-UNITS", "gui");
}

/// T5 niklasf/python-chess#742 "Xboard time control implemented incorrectly": `level` re-sent
/// before every move although the time control never changes.
#[test]
fn t5_level_resent_before_every_move() {
    let mut gui = Gui::scenario("cecp-ok");
    gui.cecp_handshake();
    gui.send("new");
    gui.send("level 40 5 0");
    gui.send("time 30000");
    gui.send("otim 30000");
    gui.send("e2e4");
    gui.expect("move e7e5");
    gui.send("level 40 5 0");
    gui.send("time 29900");
    gui.send("otim 29800");
    gui.send("g1f3");
    gui.expect("move b8c6");
    gui.quit()
        .verdict("T5", &["CECP-LEVEL-EVERY-MOVE"], NO_HANG)
        .blames("CECP-LEVEL-EVERY-MOVE", "gui");
}

/// T9 niklasf/python-chess#386 "Time out error": Phalanx treats `st` as an average and answers
/// `st 3` after ~20 s; here `st 1` answered after 2 s.
#[test]
fn t9_st_exceeded() {
    let mut gui = Gui::scenario("cecp-slow-move");
    gui.cecp_handshake();
    gui.send("new");
    gui.send("st 1");
    gui.send("e2e4");
    gui.expect("move e7e5");
    gui.quit()
        // The scripted engine sleeps to be late, and the proxy's samples see it asleep.
        .verdict("T9", &["CECP-ST-EXCEEDED", "X-HANG-ASLEEP"], NO_HANG)
        .blames("CECP-ST-EXCEEDED", "engine");
}

// ------------------------------------------------------- 5.7 I/O buffering, output volume

/// B1 nescitus/cpw-engine#9 "Fixed linux stdio buffering issues": `uciok` never flushed on a
/// Linux pipe, so cutechess reports "Chess protocol was not started in time". The output
/// leaves in one 4096-byte block that ends mid-line; the rest, `uciok` included, would leave
/// only at exit. Forty seconds on: a handshake stall past cutechess's 35 s. The recorder keeps
/// a line until its newline, so the unterminated tail of the block is not in the recording
/// yet: neither X-LINE-NO-TERMINATOR nor the buffering class can be told mid-session (a known
/// limit, see the README); at exit it is (the test after this one).
#[test]
fn b1_unflushed_uciok_while_stuck() {
    let mut gui = Gui::scenario("unflushed-output");
    gui.send("uci");
    gui.expect("option name Scenario Option 00");
    gui.pause(500);
    gui.recorded("uci");
    gui.check(&["--at", "40"]).verdict(
        "B1 while stuck",
        &["UCI-UCIOK-TIMEOUT", "X-HANG"],
        Some(("handshake", "TIMEOUT", Some("uciok"))),
    );
}

/// B1, the end of the same session: at `quit` the engine exits and stdio flushes the rest. The
/// `uciok` that answers `uci` comes late, not unasked.
#[test]
fn b1_unflushed_uciok_flushed_at_exit() {
    let mut gui = Gui::scenario("unflushed-output");
    gui.send("uci");
    gui.expect("option name Scenario Option 00");
    gui.pause(500);
    gui.quit()
        .verdict("B1 at the end", &["X-OUTPUT-NOT-FLUSHED"], NO_HANG)
        .blames("X-OUTPUT-NOT-FLUSHED", "engine");
}

/// B3 official-stockfish/Stockfish#5460 "Fix output for GUI": "too much output in a short time
/// for a mate / depth 245 found quickly" hangs Fritz 19; here 3000 `info` lines in a burst.
#[test]
fn b3_info_flood() {
    let mut gui = Gui::scenario("info-flood");
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go depth 3");
    gui.expect("bestmove e2e4");
    gui.quit()
        .verdict("B3", &["UCI-INFO-FLOOD"], NO_HANG)
        .blames("UCI-INFO-FLOOD", "engine");
}

// ------------------------------------------------------------ 5.8 Process lifecycle, state

/// P2 franciscoBSalgueiro/en-croissant#404 "Stockfish not ended after running sometimes":
/// `quit` not effective; the proxy has to kill the engine (after cutechess's 5 s).
#[test]
fn p2_engine_ignores_quit() {
    let mut gui = Gui::scenario_with("ignores-quit", &["--eof-grace", "5.2"]);
    gui.uci_handshake();
    gui.quit()
        .verdict("P2", &["UCI-QUIT-NO-EXIT"], NO_HANG)
        .blames("UCI-QUIT-NO-EXIT", "engine");
}

/// P3 RuolinZheng08/renpy-chess#16 "stockfish … is not stopping after the game is over": the
/// GUI goes away without `quit` and the engine lives on until the proxy kills it.
#[test]
fn p3_engine_outlives_the_gui() {
    let mut gui = Gui::scenario("ignores-quit");
    gui.uci_handshake();
    gui.close_input(&[])
        .verdict("P3", &["X-ORPHAN-PROCESS"], NO_HANG)
        .blames("X-ORPHAN-PROCESS", "gui");
}

/// P5 coolchess123/tcec-gui#172 "Should engine crashes stall TCEC live ?": "If an engine fails
/// to start, cutechess crashes". The engine exits with code 1 on its first command.
#[test]
fn p5_engine_fails_to_start() {
    let mut gui = Gui::scenario("crash-at-start");
    gui.send("uci");
    let report = gui.engine_ends();
    report.verdict(
        "P5",
        &["X-ENGINE-EXIT"],
        Some(("disconnect", "DISCONNECT", Some("uciok"))),
    );
    let exit = report.exit();
    assert!(exit.contains("code 1"), "{exit}\n{}", report.describe());
}

// ------------------------------------------------------- Real engines, driven with misuse

/// What Stockfish 15.1 itself always draws: its start-up banner is no UCI message, and its
/// `option name Debug Log File type string default ` ends in a space.
const STOCKFISH: [&str; 2] = ["UCI-UNKNOWN-COMMAND", "X-LEADING-WHITESPACE"];

fn with_stockfish(rules: &[&'static str]) -> Vec<&'static str> {
    STOCKFISH.iter().chain(rules).copied().collect()
}

/// M3 with the real Stockfish 15.1, which does not exit: it drops the illegal move (and those
/// after it) and searches what is left. The GUI is at fault, and nothing else is wrong.
#[test]
fn m3_stockfish_given_an_illegal_move_in_position() {
    let mut gui = Gui::real("stockfish", &[]);
    gui.uci_handshake();
    gui.send("position startpos moves e2e4 e7e5 e1e3");
    gui.send("go depth 6");
    gui.expect("bestmove");
    gui.quit()
        .verdict(
            "M3 stockfish",
            &with_stockfish(&["UCI-POSITION-ILLEGAL-MOVE"]),
            NO_HANG,
        )
        .blames("UCI-POSITION-ILLEGAL-MOVE", "gui");
}

/// M3 with the real GNU Chess 6.2.7 in UCI mode (`-u`, whose handshake is reliable, unlike its
/// `protover 2`): it plays the illegal king move e1e3 and searches for Black. After an illegal
/// `position` the engine's behaviour is undefined and the board is unknown: its PVs and its
/// bestmove cannot be judged, only the GUI's fault stands.
#[test]
fn m3_gnuchess_given_an_illegal_move_in_position() {
    let mut gui = Gui::real("gnuchess", &["-u"]);
    gui.uci_handshake();
    gui.send("position startpos moves e2e4 e7e5 e1e3");
    gui.send("go depth 4");
    gui.expect("bestmove");
    gui.quit()
        .verdict("M3 gnuchess", &["UCI-POSITION-ILLEGAL-MOVE"], NO_HANG)
        .blames("UCI-POSITION-ILLEGAL-MOVE", "gui");
}

/// `setoption` while Stockfish searches (the UCI text: setoption "will only be sent when the
/// engine is waiting"). Stockfish 15.1 finishes the search before it resizes its hash.
#[test]
fn stockfish_setoption_during_a_search() {
    let mut gui = Gui::real("stockfish", &[]);
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go movetime 1500");
    gui.expect("info depth 1 ");
    gui.send("setoption name Hash value 32");
    gui.expect("bestmove");
    gui.send("isready");
    gui.expect("readyok");
    gui.quit()
        .verdict(
            "setoption during a search",
            &with_stockfish(&["UCI-SETOPTION-WHILE-SEARCHING"]),
            NO_HANG,
        )
        .blames("UCI-SETOPTION-WHILE-SEARCHING", "gui");
}

/// H11 with the real Stockfish: `go` before any `isready`/`readyok`.
#[test]
fn h11_stockfish_go_before_readyok() {
    let mut gui = Gui::real("stockfish", &[]);
    gui.send("uci");
    gui.expect("uciok");
    gui.send("position startpos");
    gui.send("go depth 5");
    gui.expect("bestmove");
    gui.quit()
        .verdict(
            "H11 stockfish",
            &with_stockfish(&["UCI-GO-BEFORE-READYOK"]),
            NO_HANG,
        )
        .blames("UCI-GO-BEFORE-READYOK", "gui");
}

/// `go infinite` never stopped, then the GUI closes its input without `quit`. Stockfish takes
/// the end of its input as `quit`: it ends the search with a `bestmove` and exits 0. That
/// bestmove is no fault (the GUI is gone, nobody can send `stop` any more), the clean exit is
/// no crash, and nothing is owed at the end.
#[test]
fn stockfish_go_infinite_never_stopped_then_gui_closes() {
    let mut gui = Gui::real("stockfish", &[]);
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go infinite");
    gui.expect("info depth 3 ");
    gui.close_input(&[])
        .verdict("go infinite, then EOF (stockfish)", &STOCKFISH, NO_HANG);
}

/// The same with GNU Chess 6.2.7 (`-u`), which ignores the end of its input and searches on:
/// the proxy stops it half a second later. The verdict names what was owed and the disconnect;
/// the engine lived on after the GUI left (X-ORPHAN-PROCESS); its death by the proxy's SIGTERM
/// is no crash of its own.
#[test]
fn gnuchess_go_infinite_never_stopped_then_gui_closes() {
    let mut gui = Gui::real("gnuchess", &["-u"]);
    gui.uci_handshake();
    gui.send("position startpos");
    gui.send("go infinite");
    gui.expect("info");
    gui.pause(300);
    let report = gui.close_input(&[]);
    report.verdict(
        "go infinite, then EOF (gnuchess)",
        &["X-ORPHAN-PROCESS"],
        Some(("disconnect", "DISCONNECT", Some("bestmove"))),
    );
    let h = report.hang();
    assert_eq!(
        h.request.as_deref(),
        Some("go infinite"),
        "{}",
        report.describe()
    );
    let exit = report.exit();
    assert!(exit.contains("SIGTERM"), "{exit}\n{}", report.describe());
}

/// `setboard` to Fairy-Max, which declares `setboard=0` (it sets positions up with `edit`) and
/// answers `Error (unknown command): setboard`.
#[test]
fn fairymax_setboard_without_the_feature() {
    let mut gui = Gui::real("fairymax", &[]);
    gui.cecp_handshake();
    gui.send("new");
    gui.send("force");
    gui.send("setboard rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
    gui.send("ping 1");
    gui.expect("pong 1");
    gui.quit()
        .verdict(
            "setboard to fairymax",
            &["CECP-SETBOARD-WITHOUT-FEATURE"],
            NO_HANG,
        )
        .blames("CECP-SETBOARD-WITHOUT-FEATURE", "gui");
}

/// M4 from the other side with the real Fairy-Max: the GUI sends an illegal move and the engine
/// rightly refuses it (`Illegal move:e2e5`). The GUI is at fault, on its own line
/// (CECP-GUI-MOVE-ILLEGAL, the GUI's half of CECP-ILLEGAL-MOVE-REPLY); the engine's refusal is
/// right and gets no finding.
#[test]
fn m4_fairymax_refuses_an_illegal_gui_move() {
    let mut gui = Gui::real("fairymax", &[]);
    gui.cecp_handshake();
    gui.send("new");
    gui.send("force");
    gui.send("e2e5");
    gui.expect("Illegal move");
    gui.send("ping 1");
    gui.expect("pong 1");
    gui.quit()
        .verdict("M4 fairymax", &["CECP-GUI-MOVE-ILLEGAL"], NO_HANG)
        .blames("CECP-GUI-MOVE-ILLEGAL", "gui");
}

#[test]
fn feature_names_read_quoted_values() {
    assert_eq!(
        feature_names(r#"feature myname="Fairy-Max 5.0b" ping=1 option="Resign -check 0" done=0"#),
        ["myname", "ping", "option", "done"]
    );
}
