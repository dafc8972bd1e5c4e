//! An NBoard (Othello) session through the real proxy: the scripted engine
//! `tests/engines/nboard_engine.py`, driven the way the NBoard GUI drives an engine, with a
//! pass by each side, and the recording read back line for line.

use crate::common;

use common::*;
use kibitzer::recording::{ProxyKind, Recording, Source};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::time::Duration;

const T: Duration = Duration::from_secs(30);

/// A legal game from the start position (`nboard_engine.py --pass-game`): Black has no move at
/// index 28 and White none at index 59, both written as `PA`; the game ends 32-32 after A3.
const PASS_GAME: [&str; 62] = [
    "E6", "D6", "C3", "D3", "C4", "B5", "D2", "F7", "D7", "C6", "A6", "D8", "G8", "F5", "E8", "C5",
    "G4", "F6", "G7", "H3", "E7", "F8", "B6", "H6", "G6", "C7", "B7", "H8", "PA", "B2", "H7", "E3",
    "A1", "F4", "H4", "F3", "G3", "G2", "G5", "B3", "C2", "B1", "E2", "A7", "H2", "D1", "E1", "H5",
    "F2", "G1", "A8", "C1", "A2", "B4", "H1", "A5", "B8", "F1", "C8", "PA", "A4", "A3",
];
const BLACK_PASS: usize = 28;
const WHITE_PASS: usize = 59;

fn nboard_engine() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/nboard_engine.py")
}

/// NBoard's `set game` line for the start position followed by `moves` (Black first).
fn set_game(moves: &[&str]) -> String {
    let mut g = String::from(
        "set game (;GM[Othello]PC[NBoard]DT[2026-01-01 00:00:00 GMT]PB[tester]PW[ScriptedNBoard]\
         RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]",
    );
    for (i, m) in moves.iter().enumerate() {
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        g.push_str(&format!("{colour}[{m}]"));
    }
    g.push_str(";)");
    g
}

/// The GUI end of a proxied session: every line sent and received, in order.
pub struct Gui {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Lines,
    pub sent: Vec<String>,
    pub received: Vec<String>,
}

impl Gui {
    /// Starts `kibitzer record -o rec [extra...] -- argv...`.
    pub fn start(rec: &Path, extra: &[&str], argv: &[&str]) -> Self {
        let mut child = proxy_command(rec, extra, argv)
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn kibitzer");
        let stdin = child.stdin.take();
        let lines = Lines::new(child.stdout.take().expect("stdout"));
        Gui {
            child,
            stdin,
            lines,
            sent: Vec::new(),
            received: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
        self.sent.push(line.to_string());
    }

    /// Reads up to and including the first line matching `pred`; returns those lines trimmed.
    pub fn until(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let seen = self.lines.until(what, T, pred);
        self.received.extend(seen.iter().cloned());
        seen.iter().map(|l| l.trim_end().to_string()).collect()
    }

    /// Closes the proxy's stdin, waits for it, and collects what the engine still printed.
    pub fn finish(mut self) -> (Vec<String>, Vec<String>, std::process::ExitStatus) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        while let Some(l) = self.lines.next_within(Duration::from_millis(300)) {
            self.received.push(l);
        }
        (self.sent, self.received, status)
    }
}

/// `go` and the engine's move (`=== MOVE[/eval/time]` -> `MOVE`), after checking the thinking
/// output that precedes it.
fn go(gui: &mut Gui) -> String {
    gui.send("go");
    let seen = gui.until("=== reply to go", |l| l.starts_with("=== "));
    // The previous answer's trailing `status waiting` may come first.
    let thinking = seen.iter().position(|l| l == "status thinking");
    let nodestats = seen.iter().position(|l| l.starts_with("nodestats "));
    assert!(
        matches!((thinking, nodestats), (Some(a), Some(b)) if a < b),
        "no `status thinking` then `nodestats` before the move: {seen:?}"
    );
    let answer = seen.last().unwrap();
    let mv = answer[4..].split('/').next().unwrap().to_string();
    let is_square = mv.len() == 2
        && matches!(mv.as_bytes()[0], b'A'..=b'H')
        && matches!(mv.as_bytes()[1], b'1'..=b'8');
    assert!(mv == "PA" || is_square, "not a move: {answer}");
    mv
}

fn ping(gui: &mut Gui, n: u32) {
    gui.send(&format!("ping {n}"));
    let pong = format!("pong {n}");
    gui.until(&pong, |l| l == pong);
}

/// Records a complete NBoard session with the scripted engine into `rec` and returns the GUI's
/// view of it (lines sent, lines received with their terminators). Reusable by decode tests:
/// the session holds `set game` with and without passes, `move` with and without eval/time,
/// `go` answered by a move and by `PA` for each colour, `hint 2`, `analyze`, `learn`, `quit`.
pub fn record_nboard_session(rec: &Path) -> (Vec<String>, Vec<String>) {
    let engine = nboard_engine();
    let mut gui = Gui::start(
        rec,
        &["--protocol", "nboard"],
        &["python3", engine.to_str().unwrap()],
    );

    gui.send("nboard 2");
    gui.send("set depth 4");
    gui.send("set contempt 0");
    gui.send(&set_game(&[]));
    ping(&mut gui, 1);
    assert!(
        gui.received
            .iter()
            .any(|l| l.trim_end() == "set myname ScriptedNBoard"),
        "{:?}",
        gui.received
    );
    assert_ne!(go(&mut gui), "PA", "Black has four moves at the start");

    // Late middlegame, White to move; after White's H8 Black has no move.
    gui.send(&set_game(&PASS_GAME[..BLACK_PASS - 1]));
    ping(&mut gui, 2);
    assert_ne!(go(&mut gui), "PA");
    gui.send(&format!("move {}/-2.00/1.5", PASS_GAME[BLACK_PASS - 1]));
    assert_eq!(go(&mut gui), "PA", "Black must pass after H8");
    gui.send("move PA");

    gui.send("hint 2");
    let hints = gui.until("end of hint", |l| l == "status");
    let searches: Vec<&String> = hints.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(searches.len(), 2, "{hints:?}");

    // An unknown command must be ignored, as the protocol asks of engines.
    gui.send("frobnicate 7");
    for (i, mv) in PASS_GAME
        .iter()
        .enumerate()
        .take(WHITE_PASS - 1)
        .skip(BLACK_PASS + 1)
    {
        let line = if i % 3 == 0 {
            format!("move {mv}")
        } else {
            format!("move {mv}//0.25")
        };
        gui.send(&line);
    }
    ping(&mut gui, 3);

    // The same position again, as a GUI sends it after a takeback: the game text now holds
    // Black's pass as B[PA], and White is the one without a move.
    gui.send(&set_game(&PASS_GAME[..WHITE_PASS]));
    ping(&mut gui, 4);
    assert_eq!(go(&mut gui), "PA", "White has no move before A4");
    gui.send("move PA");
    let black = go(&mut gui);
    assert!(
        black == "A3" || black == "A4",
        "Black's moves are A3 and A4, not {black}"
    );
    gui.send("move A4");
    assert_eq!(go(&mut gui), "A3", "A3 is White's only move");
    gui.send("move A3");
    assert_eq!(go(&mut gui), "PA", "the game is over");

    gui.send("analyze");
    let analysis = gui.until("analysis of the last position", |l| {
        l.starts_with(&format!("analysis {} ", PASS_GAME.len()))
    });
    let analysis: Vec<&String> = analysis
        .iter()
        .filter(|l| l.starts_with("analysis "))
        .collect();
    // One line per position, passes included: the start and 62 moves.
    assert_eq!(analysis.len(), PASS_GAME.len() + 1);
    assert_eq!(analysis[0], "analysis 0 0.00");
    gui.send("learn");
    gui.until("learned", |l| l == "learned");
    gui.send("quit");

    let (sent, received, status) = gui.finish();
    assert!(status.success(), "proxy exit {status:?}");
    (sent, received)
}

fn texts(rec: &Recording, src: Source) -> Vec<String> {
    rec.events
        .iter()
        .filter(|e| e.src == src)
        .map(|e| e.text.clone())
        .collect()
}

#[test]
fn nboard_session_with_passes_is_recorded_line_for_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nboard.jsonl");
    let (sent, received) = record_nboard_session(&path);

    let rec = read_recording(&path);
    assert!(rec.issues.is_empty(), "{:?}", rec.issues);
    assert_eq!(rec.header.protocol.as_deref(), Some("nboard"));
    assert_eq!(texts(&rec, Source::Gui), sent);
    let received_text: Vec<String> = received
        .iter()
        .map(|l| l.trim_end_matches('\n').to_string())
        .collect();
    assert_eq!(texts(&rec, Source::Engine), received_text);
    assert_eq!(wire(&rec, Source::Engine), received.concat().into_bytes());
    let sent_wire: String = sent.iter().map(|l| format!("{l}\n")).collect();
    assert_eq!(wire(&rec, Source::Gui), sent_wire.into_bytes());
    assert!(texts(&rec, Source::Stderr).is_empty());

    // Both passes went over the wire in each direction.
    assert_eq!(received_text.iter().filter(|l| *l == "=== PA").count(), 3);
    assert_eq!(sent.iter().filter(|l| *l == "move PA").count(), 2);
    assert!(sent.iter().any(|l| l.contains("B[PA]")));

    let exit = rec
        .events
        .iter()
        .find(|e| e.kind == Some(ProxyKind::EngineExit))
        .expect("engine_exit event");
    assert_eq!(exit.code, Some(0));
    assert_eq!(
        proxy_kinds(&rec).first().copied(),
        Some("spawned"),
        "{:?}",
        proxy_kinds(&rec)
    );
}
