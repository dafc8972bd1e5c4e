//! The NBoard (Othello) suite: what the NBoard GUI sends (nboard-protocol-v2.txt).

use super::positions::{
    OTHELLO_BLACK_MUST_PASS_GGF, OTHELLO_FINISHED_GGF, OTHELLO_GAME_GGF, OTHELLO_START_GGF,
};
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
            title: "nboard 2, set depth 4, ping 1 (the reference GUI's start) -> pong; set myname",
            run: handshake,
        },
        Step {
            id: "nboard.ping-idle",
            title: "ping while idle -> pong",
            run: ping_idle,
        },
        Step {
            id: "nboard.go-start",
            title: "set game (start position), ping, go -> === move",
            run: go_start,
        },
        Step {
            id: "nboard.go-game",
            title: "set game with four moves, ping, go -> === move",
            run: go_game,
        },
        Step {
            id: "nboard.move-eval",
            title: "move F5/0.50/1.2 (a move with eval and time), ping, go -> === move",
            run: move_eval,
        },
        Step {
            id: "nboard.contempt",
            title: "set contempt 100, ping -> pong",
            run: contempt,
        },
        Step {
            id: "nboard.ping-searching",
            title: "ping right after go -> pong only after ===, nothing after pong",
            run: ping_searching,
        },
        Step {
            id: "nboard.hint",
            title: "set game, ping, hint 3 -> search (or book) lines; ping -> pong",
            run: hint,
        },
        Step {
            id: "nboard.pass",
            title: "set game where Black must pass, ping, go -> === PA",
            run: pass,
        },
        Step {
            id: "nboard.game",
            title: "a game against itself to its end: move, ping, go for every move",
            run: game,
        },
        Step {
            id: "nboard.learn",
            title: "set game (a finished game), ping, learn (learned or nothing); ping -> pong",
            run: learn,
        },
        Step {
            id: "nboard.analyze",
            title: "ping, analyze (analysis lines or nothing); ping -> pong",
            run: analyze,
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
    // The reference GUI's start (weltyc/novello ParsedEngine.java): `nboard 2` once, then with
    // its first request `set depth` and a ping. NTest and Edax name themselves on `set depth`.
    r.send("nboard 2");
    r.send("set depth 4");
    ping(r);
    let t = r.timeouts.answer;
    if r.wait_for(t, |s| s.engine_name.is_some()) {
        r.observe(format!("set myname after {}", ms(began.elapsed())));
    } else {
        r.observe("no set myname (optional)".to_owned());
    }
}

fn ping_idle(r: &mut Run, _: &mut ()) {
    ping(r);
}

/// A request as the reference GUI sends it: the state update was sent, then `ping N`, then
/// the request; the pong fences the engine's output for the new position.
fn fenced(r: &mut Run, request: &str) -> Option<u64> {
    ping(r);
    r.send(request)
}

fn go(r: &mut Run) {
    let seq = fenced(r, "go");
    let t = r.timeouts.search;
    r.wait_noted(seq, Owed::NboardMove, t);
}

fn go_start(r: &mut Run, _: &mut ()) {
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
    let seq = fenced(r, "hint 3");
    let t = r.timeouts.search;
    r.wait_noted(seq, Owed::SearchOrBook, t);
    ping(r);
}

fn move_eval(r: &mut Run, _: &mut ()) {
    r.send(&format!("set game {OTHELLO_START_GGF}"));
    // ParsedEngine sends the move as the game holds it: with the engine's eval and time.
    r.send("move F5/0.50/1.2");
    go(r);
}

fn contempt(r: &mut Run, _: &mut ()) {
    r.send("set contempt 100");
    ping(r);
}

fn pass(r: &mut Run, _: &mut ()) {
    r.send(&format!("set game {OTHELLO_BLACK_MUST_PASS_GGF}"));
    go(r);
    let best = r
        .session()
        .and_then(|s| s.searches.last()?.best.clone())
        .unwrap_or_default();
    r.observe(format!("=== {best}"));
}

/// The engine plays both sides from the start position until the board says the game is
/// over; every move goes back as `move X` before the next ping and go, as the GUI sends it.
fn game(r: &mut Run, _: &mut ()) {
    r.send(&format!("set game {OTHELLO_START_GGF}"));
    let mut moves = 0;
    // 60 squares and a pass for each at most: more is an engine that never ends the game.
    while moves < 130 && r.usable() {
        let before = r.session().map_or(0, |s| s.search_count);
        go(r);
        let Some(s) = r.session() else { break };
        if s.search_count == before {
            break;
        }
        let Some(best) = s.searches.last().and_then(|x| x.best.clone()) else {
            break;
        };
        let plies = |r: &Run| {
            r.session()
                .and_then(|s| s.games.last())
                .map_or(0, |g| g.plies.len())
        };
        let before = plies(r);
        r.send(&format!("move {}", best.to_ascii_uppercase()));
        moves += 1;
        // The board refused the move (an illegal `===`, already a finding): no game to go on.
        if plies(r) == before {
            r.observe(format!(
                "the game stops at the engine's illegal move {best}"
            ));
            return;
        }
        let over = r
            .session()
            .and_then(|s| s.games.last())
            .is_some_and(|g| g.outcome.is_some());
        if over {
            r.observe(format!("game over after {moves} moves"));
            return;
        }
    }
    r.observe(format!("no end of the game after {moves} moves"));
}

/// `learn` is for a game that is over ("Learn the current game"; the reference GUI offers it
/// when a game ends). The game is set with `set game`, as ParsedEngine sends a game the engine
/// did not see grow move by move, so that what the engine learns is one known game and not
/// the one the game step happened to play: Edax adds to its book every position it was
/// told of move by move and searches each at its book level (21 by default: minutes for a
/// game), but from `set game` it keeps only the final position, which needs no search. The
/// pong after `learn` is held to the same deadline as any other: a learning that never ends
/// is still a missing pong.
fn learn(r: &mut Run, _: &mut ()) {
    r.send(&format!("set game {OTHELLO_FINISHED_GGF}"));
    fenced(r, "learn");
    // `learned` is what the text asks; NTest says `learn`, Edax nothing: the fence decides.
    ping(r);
}

fn analyze(r: &mut Run, _: &mut ()) {
    fenced(r, "analyze");
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
