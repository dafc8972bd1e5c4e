//! `kibitzer view` end to end: the real binary in a real terminal (tmux), driven by keys; the
//! terminal must come back in its normal mode however the viewer ends (q, Ctrl-C, SIGTERM).
//! tmux is installed by `.ci/test` like the engines; a missing tmux fails the test.

use std::process::Command;
use std::time::{Duration, Instant};

struct Tmux {
    name: String,
    _config: tempfile::TempDir,
}

impl Tmux {
    /// `tmux` on this test's own server (`-L`): tests that start their sessions at the same
    /// moment would otherwise race to start the one shared server, and a loser's
    /// `new-session` fails.
    fn tmux(&self) -> Command {
        Self::command(&self.name)
    }

    fn command(name: &str) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", name]);
        c
    }

    /// Starts `kibitzer view ARGS` in a 120x36 tmux pane; the shell around it prints the exit
    /// status and whether the terminal is back in canonical mode.
    fn start(tag: &str, args: &str) -> Tmux {
        let name = format!("kibitzer-view-{tag}-{}", std::process::id());
        let config = tempfile::tempdir().unwrap();
        let cmd = format!(
            "XDG_CONFIG_HOME={} {} view {args}; echo EXIT=$?; stty -a | tr ' ' '\\n' | grep -x -- '-\\?icanon'; sleep 120",
            config.path().display(),
            env!("CARGO_BIN_EXE_kibitzer"),
        );
        let st = Self::command(&name)
            .args([
                "new-session",
                "-d",
                "-s",
                &name,
                "-x",
                "120",
                "-y",
                "36",
                "sh",
                "-c",
                &cmd,
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("tmux is needed for this test: apt-get install tmux");
        assert!(st.success());
        Tmux {
            name,
            _config: config,
        }
    }

    fn screen(&self) -> String {
        let out = self
            .tmux()
            .args(["capture-pane", "-p", "-t", &self.name])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits (generously: CI is a loaded 2-core machine) for `what` on the screen.
    fn wait_for(&self, what: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(what) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no {what:?} on the screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn wait_for_gone(&self, what: &str) {
        let start = Instant::now();
        while self.screen().contains(what) {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "{what:?} stays on the screen"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn keys(&self, keys: &[&str]) {
        let st = self
            .tmux()
            .args(["send-keys", "-t", &self.name])
            .args(keys)
            .status()
            .unwrap();
        assert!(st.success());
    }

    /// The viewer's process: the child of the pane's shell.
    fn viewer_pid(&self) -> String {
        let out = self
            .tmux()
            .args(["list-panes", "-t", &self.name, "-F", "#{pane_pid}"])
            .output()
            .unwrap();
        let shell = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        let out = Command::new("pgrep").args(["-P", &shell]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    /// After the viewer ended: its status, and the terminal restored (canonical mode, the
    /// viewer's screen gone).
    fn assert_ended(&self, status: &str) {
        let s = self.wait_for(&format!("EXIT={status}"));
        let s = if s.contains("icanon") {
            s
        } else {
            self.wait_for("icanon")
        };
        assert!(
            s.lines().any(|l| l.trim() == "icanon"),
            "terminal left in raw mode:\n{s}"
        );
        assert!(
            !s.contains("traffic ·"),
            "the viewer's screen is still there:\n{s}"
        );
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        // The session was the server's only one: killing the server ends both.
        let _ = self.tmux().arg("kill-server").status();
    }
}

#[test]
fn finds_the_illegal_move_shows_help_and_quits_cleanly() {
    let t = Tmux::start(
        "keys",
        "tests/fixtures/corpus/python-chess__python-chess-429__1.log",
    );
    t.wait_for("traffic ·");
    t.keys(&["e"]);
    let s = t.wait_for("error[UCI-BESTMOVE-ILLEGAL]");
    assert!(s.contains("bestmove a1a1"), "{s}");
    t.keys(&["?"]);
    // Wait for the help's content, not its title: a capture can fall between the two being
    // drawn on a loaded machine.
    let s = t.wait_for("next error");
    assert!(s.contains("help · any key closes"), "{s}");
    // Any key closes the help (not Esc: a key right after it would read as Alt+key).
    t.keys(&["h"]);
    t.wait_for_gone("help · any key closes");
    t.keys(&["/", "^ValueError", "Enter"]);
    t.wait_for("bytes  ValueError");
    t.keys(&["q"]);
    t.assert_ended("0");
}

#[test]
fn ctrl_c_restores_the_terminal() {
    let t = Tmux::start("ctrlc", "recordings/stockfish-uci-game.jsonl");
    t.wait_for("traffic · 947 lines");
    t.keys(&["G"]);
    t.wait_for("engine_exit");
    t.keys(&["C-c"]);
    t.assert_ended("0");
}

#[test]
fn sigterm_restores_the_terminal() {
    let t = Tmux::start("term", "recordings/fairymax-cecp-game.jsonl");
    t.wait_for("traffic ·");
    let pid = t.viewer_pid();
    assert!(
        !pid.is_empty() && !pid.contains('\n'),
        "viewer pid: {pid:?}"
    );
    let st = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(st.success());
    t.assert_ended("143");
}

#[test]
fn standard_input_is_read_and_keys_still_come_from_the_terminal() {
    let t = Tmux::start("stdin", "- < recordings/stockfish-uci-game.jsonl");
    let s = t.wait_for("traffic · 947 lines");
    assert!(s.contains("<stdin> · recording"), "{s}");
    t.keys(&["G"]);
    t.wait_for("engine_exit");
    t.keys(&["q"]);
    t.assert_ended("0");
}

#[test]
fn y_prints_the_copied_position_when_the_viewer_ends() {
    let t = Tmux::start("copy", "recordings/stockfish-uci-game.jsonl");
    t.wait_for("traffic · 947 lines");
    // The first search's `go`: the board after the GUI's position.
    t.keys(&[")"]);
    t.wait_for("search · go");
    t.keys(&["y"]);
    let s = t.wait_for("copied ");
    let fen = s
        .lines()
        .find_map(|l| l.trim().strip_prefix("copied "))
        .unwrap()
        .trim()
        .to_owned();
    assert_eq!(fen.split(' ').count(), 6, "{fen}");
    t.keys(&["q"]);
    let s = t.wait_for("EXIT=0");
    assert!(
        s.lines().any(|l| l.trim() == fen),
        "the FEN is printed on exit:\n{s}"
    );
}
