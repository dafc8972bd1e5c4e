//! What the real-world scenario tests share: a GUI played line by line in front of the real
//! `kibitzer record` (a scripted fault engine or a real Debian engine behind it), and the
//! report of `kibitzer check --format json` with the assertions an expert's verdict needs.
//!
//! Deadlines of 15 s or more are not waited for: the tests check the recording while the
//! session is still running, with `--at SECONDS` (the input judged as it stood that long after
//! its start, nothing said since), which is what a GUI stuck that long would have seen.

use crate::common;

use common::transcript::check_report;
use common::*;
use kibitzer::rules::report::CheckReport;
use kibitzer::rules::{Finding, HangVerdict};
use serde_json::Value;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::time::{Duration, Instant};

/// How long the GUI waits for any one answer before the test fails (a slow, loaded machine
/// answers in well under a second; nothing here waits for a deadline in real time).
pub(crate) const T: Duration = Duration::from_secs(20);

pub(crate) fn scenario_engine() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines/scenario_engine.py")
        .to_str()
        .expect("utf-8 path")
        .to_owned()
}

/// The GUI end of one proxied session.
pub(crate) struct Gui {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Lines,
    rec: PathBuf,
    _dir: tempfile::TempDir,
}

impl Gui {
    /// `kibitzer record -o REC --eof-grace 3 -- python3 scenario_engine.py SCENARIO`.
    pub(crate) fn scenario(name: &str) -> Gui {
        Gui::scenario_with(name, &[])
    }

    /// The same with extra `record` options (which replace the default `--eof-grace`).
    pub(crate) fn scenario_with(name: &str, options: &[&str]) -> Gui {
        let engine = scenario_engine();
        Gui::start(&["python3", &engine, name], options)
    }

    /// A real engine from PATH or /usr/games, with its arguments.
    pub(crate) fn real(name: &str, args: &[&str]) -> Gui {
        let path = engine(name);
        let mut argv = vec![path.to_str().expect("utf-8 path")];
        argv.extend_from_slice(args);
        Gui::start(&argv, &[])
    }

    pub(crate) fn start(argv: &[&str], options: &[&str]) -> Gui {
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

    pub(crate) fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .unwrap_or_else(|e| panic!("GUI could not send {line:?}: {e}"));
    }

    /// Sends `line` where the engine is gone or closed its input: the write fails with EPIPE,
    /// as it would on the bare engine's pipe.
    pub(crate) fn send_refused(&mut self, line: &str) {
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
    pub(crate) fn expect(&mut self, prefix: &str) -> String {
        let seen = self
            .lines
            .until(&format!("a line starting `{prefix}`"), T, |l| {
                l.starts_with(prefix)
            });
        seen.last().expect("a line").trim_end().to_owned()
    }

    pub(crate) fn pause(&self, ms: u64) {
        std::thread::sleep(Duration::from_millis(ms));
    }

    /// Waits until the recording holds the GUI line `text`: what the GUI wrote has reached the
    /// proxy, whatever the machine's load, before a live check reads the file.
    pub(crate) fn recorded(&self, text: &str) {
        self.recorded_event(&format!("the GUI line {text:?}"), |e| {
            e["src"] == "gui" && e["text"].as_str() == Some(text)
        });
    }

    /// Waits until the recording holds an event `pred` accepts.
    pub(crate) fn recorded_event(&self, what: &str, pred: impl Fn(&Value) -> bool) {
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
    pub(crate) fn check(&self, args: &[&str]) -> Report {
        Report::of(&self.rec, args)
    }

    /// The GUI sends `quit` and closes its input; the session's check.
    pub(crate) fn quit(mut self) -> Report {
        self.send("quit");
        self.close_input(&[])
    }

    /// The GUI closes its input (no `quit`); the session's check with `args`.
    pub(crate) fn close_input(mut self, args: &[&str]) -> Report {
        drop(self.stdin.take());
        self.wait_proxy();
        Report::of(&self.rec, args)
    }

    /// The GUI keeps its input open until the engine ends on its own (a crash, an exit);
    /// the session's check.
    pub(crate) fn engine_ends(mut self) -> Report {
        self.wait_proxy();
        Report::of(&self.rec, &[])
    }

    pub(crate) fn wait_proxy(&mut self) {
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
    pub(crate) fn uci_handshake(&mut self) {
        self.send("uci");
        self.expect("uciok");
        self.send("isready");
        self.expect("readyok");
    }

    /// CECP v2: `xboard`, `protover 2`, then `accepted NAME` for every feature the engine sets
    /// (as xboard does), until `done=1`.
    pub(crate) fn cecp_handshake(&mut self) {
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
pub(crate) fn feature_names(line: &str) -> Vec<String> {
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
pub(crate) type Hang<'a> = Option<(&'a str, &'a str, Option<&'a str>)>;
pub(crate) const NO_HANG: Hang<'static> = None;

/// The JSON report of one check.
pub(crate) struct Report {
    report: CheckReport,
}

impl Report {
    pub(crate) fn of(rec: &Path, args: &[&str]) -> Report {
        let (report, _) = check_report(rec, args);
        let file = &report.files[0];
        assert!(
            file.error.is_none() && file.lost_lines == 0,
            "the recording did not read cleanly: {file:?}"
        );
        Report { report }
    }

    pub(crate) fn findings(&self) -> &[Finding] {
        &self.report.files[0].findings
    }

    pub(crate) fn hangs(&self) -> &[HangVerdict] {
        &self.report.files[0].hangs
    }

    pub(crate) fn rules(&self) -> BTreeSet<String> {
        self.findings().iter().map(|f| f.rule.to_string()).collect()
    }

    /// Every finding and verdict, one per line, for failure messages.
    pub(crate) fn describe(&self) -> String {
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
    pub(crate) fn verdict(&self, case: &str, rules: &[&str], hang: Hang<'_>) -> &Report {
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
    pub(crate) fn blames(&self, rule: &str, side: &str) -> &Report {
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
    pub(crate) fn hang(&self) -> &HangVerdict {
        self.hangs()
            .first()
            .unwrap_or_else(|| panic!("no hang verdict\nkibitzer said:\n{}", self.describe()))
    }

    /// How the engine ended, as the hang verdict says.
    pub(crate) fn exit(&self) -> String {
        self.hang().exit.clone().unwrap_or_default()
    }
}

/// Fool's mate: White is checkmated.
pub(crate) const MATED: &str = "position startpos moves f2f3 e7e5 g2g4 d8h4";
/// 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nf6: White may castle short now.
pub(crate) const ITALIAN: &str = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6";

/// NBoard's `set game` line for the start position followed by `moves` (Black first).
pub(crate) fn set_game(moves: &[&str]) -> String {
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

#[test]
fn feature_names_read_quoted_values() {
    assert_eq!(
        feature_names(r#"feature myname="Fairy-Max 5.0b" ping=1 option="Resign -check 0" done=0"#),
        ["myname", "ping", "option", "done"]
    );
}
