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
        let config = tempfile::tempdir().unwrap();
        let home = config.path().to_path_buf();
        Self::start_with(tag, args, &home, config)
    }

    /// [`Tmux::start`] with the config and state (history) in `home`.
    fn start_with(
        tag: &str,
        args: &str,
        home: &std::path::Path,
        config: tempfile::TempDir,
    ) -> Tmux {
        let name = format!("kibitzer-view-{tag}-{}", std::process::id());
        let cmd = format!(
            "XDG_CONFIG_HOME={0} XDG_STATE_HOME={0} {1} view {args}; echo EXIT=$?; stty -a | tr ' ' '\\n' | grep -x -- '-\\?icanon'; sleep 120",
            home.display(),
            env!("CARGO_BIN_EXE_kibitzer"),
        );
        Self::spawn(name, &["sh", "-c", &cmd], config)
    }

    /// A detached 120x36 tmux session running `argv`, in the crate's directory.
    fn spawn(name: String, argv: &[&str], config: tempfile::TempDir) -> Tmux {
        let st = Self::command(&name)
            .args(["new-session", "-d", "-s", &name, "-x", "120", "-y", "36"])
            .args(argv)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("tmux is needed for this test: apt-get install tmux");
        assert!(st.success());
        Tmux {
            name,
            _config: config,
        }
    }

    /// An interactive shell (with job control, as a user's) in a 120x36 pane.
    fn shell(tag: &str) -> Tmux {
        let name = format!("kibitzer-view-{tag}-{}", std::process::id());
        let config = tempfile::tempdir().unwrap();
        Self::spawn(
            name,
            &["env", "PS1=$ ", "bash", "--norc", "--noprofile", "-i"],
            config,
        )
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
        self.wait_for_all(&[what], &[])
    }

    /// Waits for a screen that shows every one of `shown` and none of `gone`. One capture can
    /// fall in the middle of a frame being drawn (the top half new, the status bar old), so
    /// what a frame must show together is waited for together, never asserted on the first
    /// capture that shows part of it.
    fn wait_for_all(&self, shown: &[&str], gone: &[&str]) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if shown.iter().all(|w| s.contains(w)) && !gone.iter().any(|w| s.contains(w)) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no screen with {shown:?} and without {gone:?}:\n{s}"
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
    t.wait_for_all(&["error[UCI-BESTMOVE-ILLEGAL]", "bestmove a1a1"], &[]);
    t.keys(&["?"]);
    t.wait_for_all(&["next error", "q or esc closes"], &[]);
    // `/` searches the help; q leaves it, not the viewer (not Esc: a key right after it
    // would read as Alt+key).
    t.keys(&["/", "less -N", "Enter"]);
    t.wait_for("help: line");
    t.keys(&["q"]);
    t.wait_for_gone("q or esc closes");
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
    t.wait_for_all(&["traffic · 947 lines", "<stdin> · recording"], &[]);
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
    let s = t.wait_for(" · printed on exit");
    let fen = s
        .lines()
        .find_map(|l| l.trim().strip_prefix("position "))
        .and_then(|l| l.split(" · ").next())
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

#[test]
fn ctrl_z_suspends_to_the_shell_and_fg_brings_the_screen_back() {
    let t = Tmux::shell("suspend");
    t.wait_for("$");
    let home = t._config.path().display().to_string();
    t.keys(&[
        &format!(
            "XDG_CONFIG_HOME={home} XDG_STATE_HOME={home} {} view recordings/stockfish-uci-game.jsonl; echo EXIT=$?",
            env!("CARGO_BIN_EXE_kibitzer")
        ),
        "Enter",
    ]);
    t.wait_for("traffic · 947 lines");
    t.keys(&["G"]);
    t.wait_for("engine_exit");
    t.keys(&["C-z"]);
    // The shell's job control took over: the viewer is stopped, the terminal is the shell's.
    t.wait_for_all(&["Stopped"], &["traffic ·"]);
    t.keys(&["stty -a | tr ' ' '\\n' | grep -x -- '-\\?icanon'", "Enter"]);
    let s = t.wait_for("icanon\n");
    assert!(
        s.lines().any(|l| l.trim() == "icanon"),
        "the terminal is back in canonical mode while suspended:\n{s}"
    );
    t.keys(&["clear; fg", "Enter"]);
    // Back where it was, with the same line selected.
    t.wait_for_all(&["traffic · 947 lines", "engine_exit"], &[]);
    t.keys(&["q"]);
    t.wait_for_gone("traffic ·");
    t.keys(&["echo EXIT=$?", "Enter"]);
    t.wait_for("EXIT=0");
}

#[test]
fn prompts_edit_with_readline_keys_and_remember_the_last_run() {
    let config = tempfile::tempdir().unwrap();
    let home = config.path().to_path_buf();
    {
        let t = Tmux::start_with(
            "prompt1",
            "recordings/stockfish-uci-game.jsonl",
            &home,
            tempfile::tempdir().unwrap(),
        );
        t.wait_for("traffic · 947 lines");
        // Typed wrong, mended with the arrows, Ctrl-A and Backspace.
        t.keys(&[
            "/", "bestmve", "Left", "Left", "o", "C-e", "C-a", "^", "Enter",
        ]);
        t.wait_for_all(&["/^bestmove/ match 1 of", "← bestmove"], &[]);
        t.keys(&["q"]);
        t.wait_for("EXIT=0");
    }
    let t = Tmux::start_with(
        "prompt2",
        "recordings/stockfish-uci-game.jsonl",
        &home,
        config,
    );
    t.wait_for("traffic · 947 lines");
    // The last run's search comes back with Up.
    t.keys(&["/", "Up"]);
    t.wait_for("\n/^bestmove");
    t.keys(&["Enter"]);
    t.wait_for("/^bestmove/ match 1 of");
    t.keys(&["q"]);
    t.assert_ended("0");
}

#[test]
fn follow_waits_for_a_log_and_shows_its_lines_as_the_gui_writes_them() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("xboard.debug");
    let t = Tmux::start("followlog", &format!("--follow {}", log.display()));
    t.wait_for("waiting for");
    let text = std::fs::read_to_string(
        "tests/fixtures/logs/xboard-debug__fairymax-vs-polyglot-stockfish.log",
    )
    .unwrap();
    let first: String = text.lines().take(40).map(|l| format!("{l}\n")).collect();
    std::fs::write(&log, first).unwrap();
    // The notice goes when the file appears, in the frame its first lines are drawn in.
    t.wait_for_all(&["← feature", "following ●"], &["waiting for"]);
    t.keys(&["q"]);
    t.assert_ended("0");
}

#[test]
fn the_search_pane_the_line_view_and_the_hang_verdict_by_keys() {
    let t = Tmux::start(
        "panes",
        "tests/fixtures/real/python-chess-stockfish-analysis-multipv3.jsonl +89",
    );
    // Every MultiPV line, best first, while the search runs; the bestmove ends it.
    t.wait_for_all(
        &["1 +0.41 d17/20 1. d4 Nf6", "3 +0.26 d16/23", "running"],
        &[],
    );
    t.keys(&["j"]);
    t.wait_for_all(&["bestmove d2d4"], &["· running"]);
    // Enter: the line alone; q closes it and the viewer stays.
    t.keys(&["Enter"]);
    t.wait_for("line 90 · esc closes");
    t.keys(&["q"]);
    t.wait_for_gone("esc closes");
    // L: the list alone, and back.
    t.keys(&["L"]);
    t.wait_for_all(&["L: panes"], &["┌ board"]);
    t.keys(&["L"]);
    t.wait_for("┌ board");
    t.keys(&["q"]);
    t.assert_ended("0");
}

#[test]
fn a_hang_is_jumped_to_and_process_samples_come_back_with_p() {
    let t = Tmux::start("hang", "tests/fixtures/forensics/spin-capture.jsonl");
    t.wait_for_all(
        &["TIMEOUT [SPINNING]", "filter: !kind:sample"],
        &["* sample"],
    );
    t.keys(&["x", "j", "Enter"]);
    t.wait_for("bytes  go movetime 300");
    t.keys(&["P"]);
    t.wait_for("* sample");
    t.keys(&["c"]);
    t.wait_for("engine memory");
    t.keys(&["q"]);
    t.assert_ended("0");
}
