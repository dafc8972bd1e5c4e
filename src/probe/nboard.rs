//! The NBoard (Othello) suite: what the NBoard GUI sends (nboard-protocol-v2.txt).

use super::positions::{OTHELLO_GAME_GGF, OTHELLO_START_GGF};
use super::run::{Run, Step, ms};
use crate::session::Owed;
use std::time::{Duration, Instant};

/// A restarted engine: the handshake again.
pub fn again(r: &mut Run, st: &mut ()) {
    handshake(r, st);
}

pub fn suite() -> Vec<Step<()>> {
    vec![
        Step {
            id: "nboard.handshake",
            title: "nboard 2 -> set myname; ping -> pong",
            run: handshake,
        },
        Step {
            id: "nboard.ping-idle",
            title: "ping while idle -> pong",
            run: ping_idle,
        },
        Step {
            id: "nboard.go-start",
            title: "set depth 4, set game (start position), go -> === move",
            run: go_start,
        },
        Step {
            id: "nboard.go-game",
            title: "set game with four moves, go -> === move",
            run: go_game,
        },
        Step {
            id: "nboard.ping-searching",
            title: "ping right after go -> pong only after ===, nothing after pong",
            run: ping_searching,
        },
        Step {
            id: "nboard.hint",
            title: "hint 2 -> search (or book) lines",
            run: hint,
        },
        Step {
            id: "nboard.quit",
            title: "quit -> the engine exits",
            run: quit,
        },
    ]
}

fn ping(r: &mut Run) -> bool {
    let n = r.next_ping();
    let seq = r.send(&format!("ping {n}"));
    let t = r.timeouts.answer;
    r.wait_noted(seq, Owed::Pong(n.to_string()), t)
}

fn handshake(r: &mut Run, _: &mut ()) {
    let began = Instant::now();
    r.send("nboard 2");
    let t = r.timeouts.handshake;
    if r.wait_for(t, |s| s.engine_name.is_some()) {
        r.observe(format!("set myname after {}", ms(began.elapsed())));
    } else {
        r.observe(format!("no set myname within {:.1} s", t.as_secs_f64()));
    }
    ping(r);
}

fn ping_idle(r: &mut Run, _: &mut ()) {
    ping(r);
}

fn go(r: &mut Run) {
    let seq = r.send("go");
    let t = r.timeouts.search;
    r.wait_noted(seq, Owed::NboardMove, t);
}

fn go_start(r: &mut Run, _: &mut ()) {
    r.send("set depth 4");
    r.send(&format!("set game {OTHELLO_START_GGF}"));
    go(r);
}

fn go_game(r: &mut Run, _: &mut ()) {
    r.send(&format!("set game {OTHELLO_GAME_GGF}"));
    go(r);
}

fn ping_searching(r: &mut Run, _: &mut ()) {
    r.send(&format!("set game {OTHELLO_START_GGF}"));
    let go_seq = r.send("go");
    let n = r.next_ping();
    let seq = r.send(&format!("ping {n}"));
    let t = r.timeouts.search;
    r.wait_noted(go_seq, Owed::NboardMove, t);
    r.wait_noted(seq, Owed::Pong(n.to_string()), t);
    // Anything the engine says after its pong belongs to a position the GUI left.
    r.pause(Duration::from_millis(200));
}

fn hint(r: &mut Run, _: &mut ()) {
    r.send(&format!("set game {OTHELLO_GAME_GGF}"));
    let seq = r.send("hint 2");
    let t = r.timeouts.search;
    r.wait_noted(seq, Owed::SearchOrBook, t);
    ping(r);
}

fn quit(r: &mut Run, _: &mut ()) {
    r.send("quit");
    r.quit_sent();
    let t = r.timeouts.quit;
    match r.wait_exit(t) {
        Some(d) => r.observe(format!("exited {} after quit", ms(d))),
        None => r.observe(format!("still running {:.1} s after quit", t.as_secs_f64())),
    }
}
