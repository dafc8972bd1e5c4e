//! Driving a real engine through `kibitzer record` as a GUI would, line by line.

use super::*;
use kibitzer::recording::Source;
use std::io::Write;
use std::path::Path;
use std::process::{Child, ChildStdin};
use std::time::Duration;

pub const T: Duration = Duration::from_secs(30);

pub struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Lines,
    received: Vec<String>,
}

impl Session {
    pub fn start(rec: &Path, argv: &[&str]) -> Self {
        // `quit` then EOF gives a well-behaved engine 5 s to exit, ample on a loaded machine;
        // one that ignores both (GNU Chess when its start failed) is stopped by the proxy.
        let mut child = spawn_proxy_with(rec, &["--eof-grace", "5"], argv);
        let stdin = child.stdin.take();
        let lines = Lines::new(child.stdout.take().unwrap());
        Session {
            child,
            stdin,
            lines,
            received: Vec::new(),
        }
    }
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    }
    pub fn expect(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let seen = self.lines.until(what, T, pred);
        let last = seen.last().unwrap().trim_end().to_string();
        self.received.extend(seen);
        last
    }
    pub fn finish(mut self, quit: &str) -> (Vec<String>, i32) {
        self.send(quit);
        drop(self.stdin.take());
        let code = self.child.wait().unwrap().code().unwrap_or(-1);
        // Whatever the engine printed after our last expectation is still in the channel,
        // until the reader thread reaches the end of the proxy's output (it has exited).
        while let Some(l) = self.lines.next_within(Duration::from_secs(10)) {
            self.received.push(l);
        }
        (std::mem::take(&mut self.received), code)
    }
}

impl Drop for Session {
    /// A failed assertion must not leave the proxy (and its engine) running.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The recording's engine side equals what the client read, line for line.
pub fn assert_recorded_as_seen(rec: &Path, received: &[String]) {
    let r = read_recording(rec);
    let recorded: Vec<u8> = wire(&r, Source::Engine);
    let seen: Vec<u8> = received.concat().into_bytes();
    assert!(
        recorded == seen,
        "recording differs from what the client saw"
    );
    assert!(r.issues.is_empty(), "{:?}", r.issues);
}

/// Plays `xboard`, `protover 2`, `new` and two moves; returns false if the engine never
/// finished its feature negotiation.
pub fn cecp_game(rec: &Path, argv: &[&str], name: &str) -> bool {
    cecp_game_within(rec, argv, name, Duration::from_secs(3)).is_ok()
}

/// [`cecp_game`] giving up on the feature negotiation after `negotiation`; `Err` holds what
/// the engine said when it never negotiated.
pub fn cecp_game_within(
    rec: &Path,
    argv: &[&str],
    name: &str,
    negotiation: Duration,
) -> Result<(), Vec<String>> {
    let mut s = Session::start(rec, argv);
    s.send("xboard");
    // xboard gives engines time to start before `protover`; so do we.
    std::thread::sleep(Duration::from_millis(500));
    s.send("protover 2");
    let done = s.lines.until_within(negotiation, |l| l.contains("done=1"));
    let negotiated = done.last().is_some_and(|l| l.contains("done=1"));
    s.received.extend(done);
    if negotiated {
        s.send("new");
        s.send("st 1");
        s.send("post");
        for mv in ["e2e4", "d2d4"] {
            s.send(mv);
            // `My move is : e7e5` is the legacy form gnuchess uses when usermove was not accepted.
            let reply = s.expect(&format!("{name} move"), |l| {
                l.starts_with("move ") || l.starts_with("My move is")
            });
            assert!(
                reply.split_whitespace().last().unwrap().len() >= 4,
                "{reply}"
            );
        }
    }
    let (received, _) = s.finish("quit");
    assert_recorded_as_seen(rec, &received);
    if negotiated { Ok(()) } else { Err(received) }
}
