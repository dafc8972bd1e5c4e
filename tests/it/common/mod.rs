//! Helpers shared by the integration tests: the real binary, real engines, line readers.
#![allow(dead_code)]

pub mod engine_session;
pub mod schema;
pub mod transcript;

use kibitzer::recording::{Recording, read_all};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

pub fn kibitzer() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kibitzer"))
}

/// Runs `kibitzer ARGS`, which must succeed (its stderr is the failure message), and returns
/// its stdout and stderr.
pub fn run_ok(args: &[&str]) -> (String, String) {
    let out = kibitzer().args(args).output().expect("run kibitzer");
    assert!(
        out.status.success(),
        "kibitzer {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A real engine from PATH or Debian's /usr/games. Missing engines fail the test with the
/// command that installs them: a silently skipped test would hide a broken setup.
pub fn engine(name: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path).chain([PathBuf::from("/usr/games")]) {
        let p = dir.join(name);
        if p.is_file() {
            return p;
        }
    }
    panic!(
        "engine `{name}` not found on PATH or in /usr/games; install it with \
         `sudo apt-get install -y stockfish fairymax gnuchess` (what .ci/run does)"
    );
}

/// The shipped Fairy-Max session recorded under recordings/fairymax.c2w, written into `dir`
/// with the profile in its header saying `EngineCmdSD=depth`: the GUI's `sd 4` then breaks the
/// profile the recording carries (C2W-SD-COMMAND).
pub fn fairymax_c2w_recording_breaking_its_profile(dir: &Path) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("recordings/fairymax-c2w.jsonl");
    let text = std::fs::read_to_string(&src).expect("the shipped recording");
    let (first, rest) = text.split_once('\n').expect("a header line");
    let mut header: serde_json::Value = serde_json::from_str(first).expect("a JSON header");
    let profile = header["c2w"]["text"]
        .as_str()
        .expect("a profile in the header")
        .replace("EngineCmdSD=sd", "EngineCmdSD=depth");
    header["c2w"]["text"] = serde_json::Value::String(profile);
    let rec = dir.join("depth.jsonl");
    std::fs::write(&rec, format!("{header}\n{rest}")).expect("write the recording");
    rec
}

pub fn read_recording(path: &Path) -> Recording {
    // The GUI (this test) sees the engine's exit before the recorder has written it.
    kibitzer::input::wait_for_recorder(path, std::time::Duration::from_secs(30));
    let f = std::fs::File::open(path)
        .unwrap_or_else(|e| panic!("recording {} missing: {e}", path.display()));
    read_all(BufReader::new(f)).expect("recording header")
}

/// Concatenated wire bytes of one source, as the recording reproduces them.
pub fn wire(rec: &Recording, src: kibitzer::recording::Source) -> Vec<u8> {
    rec.events
        .iter()
        .filter(|e| e.src == src)
        .flat_map(|e| e.wire_bytes())
        .collect()
}

pub fn proxy_kinds(rec: &Recording) -> Vec<&'static str> {
    rec.events
        .iter()
        .filter_map(|e| e.kind.map(|k| k.as_str()))
        .collect()
}

/// Reads lines from a child's stdout on a thread, so tests can wait with a timeout.
pub struct Lines {
    rx: Receiver<String>,
}

impl Lines {
    pub fn new(out: ChildStdout) -> Self {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(out);
            let mut line = String::new();
            while r.read_line(&mut line).map(|n| n > 0).unwrap_or(false) {
                if tx.send(std::mem::take(&mut line)).is_err() {
                    break;
                }
            }
        });
        Lines { rx }
    }

    pub fn next_within(&self, timeout: Duration) -> Option<String> {
        self.rx.recv_timeout(timeout).ok()
    }

    /// Like `until`, but returns what it saw instead of failing when time runs out.
    pub fn until_within(&self, timeout: Duration, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = std::time::Instant::now() + timeout;
        let mut seen = Vec::new();
        while let Ok(l) = self
            .rx
            .recv_timeout(deadline.saturating_duration_since(std::time::Instant::now()))
        {
            let done = pred(l.trim_end());
            seen.push(l);
            if done {
                break;
            }
        }
        seen
    }

    /// Waits for a line satisfying `pred`, returning every line seen up to and including it.
    pub fn until(&self, what: &str, timeout: Duration, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = std::time::Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(l) => {
                    let done = pred(l.trim_end());
                    seen.push(l);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("timed out after {timeout:?} waiting for {what}; got {seen:?}"),
            }
        }
    }
}

/// Starts `kibitzer record -o rec -- argv...` with piped stdio.
pub fn spawn_proxy(rec: &Path, argv: &[&str]) -> Child {
    spawn_proxy_with(rec, &[], argv)
}

/// Starts `kibitzer record -o rec OPTIONS -- argv...` with piped stdio.
pub fn spawn_proxy_with(rec: &Path, options: &[&str], argv: &[&str]) -> Child {
    proxy_command(rec, options, argv)
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn kibitzer")
}

/// `kibitzer record -o rec OPTIONS -- argv...` with stdin and stdout piped; stderr is the
/// caller's choice.
pub fn proxy_command(rec: &Path, options: &[&str], argv: &[&str]) -> Command {
    let mut cmd = kibitzer();
    cmd.args(["record", "-o"])
        .arg(rec)
        .args(options)
        .arg("--")
        .args(argv)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    cmd
}

pub fn read_all_bytes(mut r: impl Read) -> Vec<u8> {
    let mut v = Vec::new();
    r.read_to_end(&mut v).expect("read");
    v
}

/// Every shipped recording and every real or generated log the tests know.
pub fn shipped_inputs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["recordings", "tests/fixtures/corpus", "tests/fixtures/logs"] {
        for e in std::fs::read_dir(root.join(dir)).expect("dir").flatten() {
            let p = e.path();
            let ext = p.extension().and_then(|x| x.to_str()).unwrap_or("");
            if (dir == "recordings" && ext == "jsonl") || (dir != "recordings" && ext == "log") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// Runs a Python GUI (python-chess, or a hand-written one) as `python3 SCRIPT KIBITZER REC
/// ENGINE`; it must succeed. Returns the words it printed (the moves it played).
pub fn python_gui(script: &str, rec: &Path, engine: &Path) -> Vec<String> {
    let script_path = rec.with_extension("py");
    std::fs::write(&script_path, script).expect("script");
    let out = Command::new("python3")
        .arg(&script_path)
        .arg(env!("CARGO_BIN_EXE_kibitzer"))
        .arg(rec)
        .arg(engine)
        .output()
        .expect("python3 with python-chess (pip install chess==1.11.2)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

/// The SAN moves and the result of the first game of a PGN text (comments dropped).
pub fn pgn_moves(pgn: &str) -> (Vec<String>, String) {
    let movetext: String = pgn
        .lines()
        .skip_while(|l| l.starts_with('[') || l.is_empty())
        .take_while(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    // `{...}` comments may span lines and hold spaces.
    let mut plain = String::new();
    let mut depth = 0;
    for c in movetext.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let mut moves = Vec::new();
    let mut result = String::new();
    for t in plain.split_whitespace() {
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&t) {
            result = t.to_owned();
        } else if !t.ends_with('.') {
            moves.push(t.to_owned());
        }
    }
    (moves, result)
}

/// The real xboard (under xvfb-run) plays one game between `first` and `second` (engine
/// commands) and saves it to `pgn`; returns its moves and result.
pub fn xboard_game(dir: &Path, first: &str, second: &str, pgn: &Path) -> (Vec<String>, String) {
    use std::os::unix::process::CommandExt;
    use std::time::Instant;
    let xboard = engine("xboard");
    let mut child = Command::new("xvfb-run")
        .env_clear()
        .env("PATH", "/usr/games:/usr/bin:/bin")
        .env("HOME", dir)
        .args(["-a"])
        .arg(&xboard)
        .args(["-fcp", first, "-scp", second])
        .args(["-mg", "1", "-tc", "0:05", "-noGUI", "-saveGameFile"])
        .arg(pgn)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("xvfb-run (apt-get install xvfb xauth xboard)");
    let deadline = Instant::now() + Duration::from_secs(240);
    let game = loop {
        let text = std::fs::read_to_string(pgn).unwrap_or_default();
        let (moves, result) = pgn_moves(&text);
        if !result.is_empty() {
            break (moves, result);
        }
        if Instant::now() > deadline || child.try_wait().unwrap().is_some() {
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(child.id() as i32),
                nix::sys::signal::Signal::SIGKILL,
            );
            panic!("xboard saved no finished game within 240 s: {text}");
        }
        // Polls a file xboard writes once the game is over; nothing races it.
        std::thread::sleep(Duration::from_millis(250));
    };
    // xboard stays up after the match under -noGUI, and can outlive xvfb-run's exit on
    // SIGTERM (one was found still running 51 minutes after its test): TERM the group, give it
    // a while to go, then KILL what is left of it.
    let group = nix::unistd::Pid::from_raw(child.id() as i32);
    let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGTERM);
    let _ = child.wait();
    let gone_by = Instant::now() + Duration::from_secs(10);
    while nix::sys::signal::killpg(group, None).is_ok() && Instant::now() < gone_by {
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
    game
}

/// The scripted engine with GNU Chess 6.2.7's manners (`winboard_caps.py --gnu`), named
/// `GNU Chess`, `depth` for its depth limit, plus `extra` options: argv for `record`/`probe`.
/// The real engine answers `protover 2` in only some starts (record_gnuchess.rs).
pub fn gnu_like(extra: &[&str]) -> Vec<String> {
    let mut argv = vec![
        "python3".to_owned(),
        format!(
            "{}/tests/engines/winboard_caps.py",
            env!("CARGO_MANIFEST_DIR")
        ),
        "--gnu".to_owned(),
        "--name".to_owned(),
        "GNU Chess".to_owned(),
        "--sd".to_owned(),
        "depth".to_owned(),
    ];
    argv.extend(extra.iter().map(|s| s.to_string()));
    argv
}
