//! The clock experiments: which of `st`, the `level` forms with `time`/`otim`, and a depth
//! limit the engine keeps, and whether `?` makes it move at once. Their findings also decide
//! the clock every later experiment searches under ([`quick_clock`], [`long_clock`]), so they
//! run first.

use super::State;
use super::steps::{declared_off, go_and_move, refused, settle};
use crate::probe::run::{Run, ms};
use crate::protocol::c2w::C2wKey;
use crate::session::Owed;
use std::time::{Duration, Instant};

/// What the later experiments search under: the first clock the engine took, and how long
/// a move may take under it.
pub(super) fn quick_clock(st: &State) -> (Vec<String>, Duration) {
    let f = &st.found;
    if f.st == Some(true) {
        return (vec!["st 1".into()], Duration::from_secs(1));
    }
    let time = f.time == Some(true);
    let level = if f.level_seconds == Some(true) {
        Some("level 40 0:10 0")
    } else if f.level_minutes == Some(true) {
        Some("level 40 1 0")
    } else if f.level_base_inc == Some(true) {
        Some("level 0 1 0")
    } else {
        None
    };
    if let Some(l) = level {
        let mut v = vec![l.to_owned()];
        if time {
            v.extend(["time 1000".to_owned(), "otim 1000".to_owned()]);
            return (v, Duration::from_secs(10));
        }
        return (v, Duration::from_secs(60));
    }
    if let Some(w) = &f.sd {
        return (vec![format!("{w} 2")], Duration::from_secs(10));
    }
    (Vec::new(), Duration::from_secs(30))
}

pub(super) fn st(r: &mut Run, st: &mut State) {
    r.send("new");
    let mark = r.send("st 1");
    settle(r);
    if let Some(l) = refused(r, mark, "st") {
        st.found.st = Some(false);
        st.found
            .note(C2wKey::CmdST, format!("`st 1` answered `{l}`"));
        return;
    }
    let within = Duration::from_secs(1) + r.timeouts.answer;
    match go_and_move(r, within) {
        Some((mv, d)) if d <= Duration::from_millis(1500) => {
            st.found.st = Some(true);
            st.found
                .note(C2wKey::CmdST, format!("`st 1`: move {mv} after {}", ms(d)));
        }
        Some((mv, d)) => {
            st.found.st = Some(false);
            st.found.note(
                C2wKey::CmdST,
                format!(
                    "`st 1` taken, but move {mv} came after {}: the limit is not kept",
                    ms(d)
                ),
            );
        }
        None => {
            st.found.st = Some(false);
            st.found.note(C2wKey::CmdST, "`st 1`: no move");
        }
    }
}

/// The deepest depth of the engine's thinking lines after `mark`.
fn deepest(r: &Run, mark: Option<u64>) -> Option<u32> {
    r.lines_after(mark)
        .iter()
        .filter_map(|l| {
            let first = l.split_whitespace().next()?;
            let d = first
                .trim_end_matches(['.', '&', '+', '-'])
                .parse::<u32>()
                .ok()?;
            // Thinking output has at least depth, score, time, nodes.
            (l.split_whitespace().count() >= 4).then_some(d)
        })
        .max()
}

pub(super) fn depth(r: &mut Run, st: &mut State) {
    for word in ["sd", "depth"] {
        if !r.usable() {
            return;
        }
        r.send("new");
        let mark = r.send(&format!("{word} 2"));
        r.send("post");
        settle(r);
        if let Some(l) = refused(r, mark, word) {
            st.found
                .note(C2wKey::CmdSD, format!("`{word} 2` answered `{l}`"));
            continue;
        }
        let within = r.timeouts.search;
        let Some((mv, d)) = go_and_move(r, within) else {
            st.found
                .note(C2wKey::CmdSD, format!("`{word} 2`, go: no move"));
            continue;
        };
        match deepest(r, mark) {
            Some(n) if n > 2 => st.found.note(
                C2wKey::CmdSD,
                format!("`{word} 2` taken, but its thinking reached depth {n}: not a depth limit"),
            ),
            deepest => {
                st.found.sd = Some(word.to_owned());
                st.found.note(
                    C2wKey::CmdSD,
                    match deepest {
                        Some(n) => format!(
                            "`{word} 2`: move {mv} after {}, thinking no deeper than {n}",
                            ms(d)
                        ),
                        None => format!(
                            "`{word} 2`: move {mv} after {} (no thinking output to check the depth by)",
                            ms(d)
                        ),
                    },
                );
                r.send("nopost");
                return;
            }
        }
    }
    r.send("nopost");
}

pub(super) fn level(r: &mut Run, st: &mut State) {
    let send_time = !declared_off(r, "time");
    if !send_time {
        st.found.time = Some(false);
        st.found.note(
            C2wKey::TypeOfCmdLevel,
            "the engine declares time=0: no time commands",
        );
    }
    for (form, line, budget) in [
        ("minutes", "level 40 1 0", 60u64),
        ("seconds", "level 40 0:30 0", 30),
        ("base-inc", "level 0 1 0", 60),
    ] {
        if !r.usable() {
            return;
        }
        r.send("new");
        let mark = r.send(line);
        if send_time {
            r.send("time 1000");
            r.send("otim 1000");
        }
        settle(r);
        let level_refused = refused(r, mark, "level");
        let time_refused = refused(r, mark, "time").or_else(|| refused(r, mark, "otim"));
        if send_time && st.found.time.is_none() {
            match &time_refused {
                Some(l) => {
                    st.found.time = Some(false);
                    st.found.note(
                        C2wKey::TypeOfCmdLevel,
                        format!("`time 1000` answered `{l}`"),
                    );
                }
                None if level_refused.is_none() => st.found.time = Some(true),
                None => {}
            }
        }
        let ok = match level_refused {
            Some(l) => {
                st.found
                    .note(C2wKey::TypeOfCmdLevel, format!("`{line}` answered `{l}`"));
                false
            }
            None => {
                // With `time 1000` the engine has 10 s for 40 moves; without it, the base.
                let within = Duration::from_secs(if send_time { 10 } else { budget });
                match go_and_move(r, within + r.timeouts.answer) {
                    Some((mv, d)) => {
                        st.found.note(
                            C2wKey::TypeOfCmdLevel,
                            format!(
                                "`{line}`{}: move {mv} after {}",
                                if send_time { " + time 1000" } else { "" },
                                ms(d)
                            ),
                        );
                        true
                    }
                    None => {
                        st.found
                            .note(C2wKey::TypeOfCmdLevel, format!("`{line}`: no move"));
                        false
                    }
                }
            }
        };
        match form {
            "minutes" => st.found.level_minutes = Some(ok),
            "seconds" => st.found.level_seconds = Some(ok),
            _ => st.found.level_base_inc = Some(ok),
        }
    }
}

/// A clock under which a search lasts a few seconds at least.
fn long_clock(st: &State) -> Vec<String> {
    let f = &st.found;
    if f.st == Some(true) {
        return vec!["st 10".into()];
    }
    let time = if f.time == Some(true) {
        vec!["time 30000".to_owned(), "otim 30000".to_owned()]
    } else {
        Vec::new()
    };
    let level = if f.level_minutes == Some(true) {
        "level 40 5 0"
    } else if f.level_seconds == Some(true) {
        "level 40 5:00 0"
    } else if f.level_base_inc == Some(true) {
        "level 0 5 0"
    } else {
        return Vec::new();
    };
    let mut v = vec![level.to_owned()];
    v.extend(time);
    v
}

pub(super) fn move_now(r: &mut Run, st: &mut State) {
    r.send("new");
    for l in long_clock(st) {
        r.send(&l);
    }
    let go = r.send("go");
    r.pause(Duration::from_millis(500));
    if !r.owes(&Owed::Move) {
        st.found.move_now = None;
        st.found.note(
            C2wKey::MoveNow,
            "the engine moved within 0.5 s, before ? could be tried",
        );
        return;
    }
    let began = Instant::now();
    let mark = r.send("?");
    let t = r.timeouts.answer;
    let moved = r.wait(go, Owed::Move, t).map(|_| began.elapsed());
    // An engine whose move was already on its way answers the `?` after it: once it has
    // moved (and is idle again), its refusal is awaited (a ping, or a pause) before the move
    // can be credited to `?`. One still searching is left alone: it pongs only after its move.
    if moved.is_some() {
        settle(r);
    }
    let refusal = refused(r, mark, "?");
    match (refusal, moved) {
        (None, Some(d)) => {
            st.found.move_now = Some(true);
            st.found
                .note(C2wKey::MoveNow, format!("`?`: it moved {} after", ms(d)));
        }
        (Some(l), Some(d)) => {
            st.found.move_now = Some(false);
            st.found.note(
                C2wKey::MoveNow,
                format!("`?` answered `{l}`; its move came {} later", ms(d)),
            );
        }
        (refusal, None) => {
            st.found.move_now = Some(false);
            st.found.note(
                C2wKey::MoveNow,
                match refusal {
                    Some(l) => format!(
                        "`?` answered `{l}`, and no move within {:.0} s",
                        t.as_secs_f64()
                    ),
                    None => format!("no move within {:.0} s of `?`", t.as_secs_f64()),
                },
            );
            // Its move still comes on its own clock.
            r.wait(go, Owed::Move, r.timeouts.search);
        }
    }
}
