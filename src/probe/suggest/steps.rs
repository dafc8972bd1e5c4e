//! The experiments' order and the ones about the engine as a whole: the handshake (protocol
//! version, name, hash), `hint`, `draw` and `quit`, with the small readings every experiment
//! shares (a refusal, a move, a settled engine). The clock experiments are in `clock.rs`, the
//! position set-ups in `position.rs`; what they found is assembled into the report by the
//! parent module.

use super::{State, clock, position};
use crate::probe::cecp;
use crate::probe::run::{Run, Step, ms};
use crate::protocol::c2w::C2wKey;
use crate::session::{Handshake, Owed};
use std::time::{Duration, Instant};

/// The experiments. The depth limit comes last: an engine may keep it past `new` (Fairy-Max
/// does), and every search after it would be a depth-2 one.
pub fn suite() -> Vec<Step<State>> {
    vec![
        Step {
            id: "suggest.handshake",
            title: "xboard, protover 2: features (a protocol-1 engine sends none)",
            run: handshake,
        },
        Step {
            id: "suggest.st",
            title: "st 1, go: taken, and a move within the second?",
            run: clock::st,
        },
        Step {
            id: "suggest.level",
            title: "level 40 1 0, level 40 0:30 0, level 0 1 0, each with time/otim, go",
            run: clock::level,
        },
        Step {
            id: "suggest.move-now",
            title: "? during a long search: the move at once?",
            run: clock::move_now,
        },
        Step {
            id: "suggest.setboard",
            title: "setboard (a mate in one), go: the move of that position?",
            run: position::setboard,
        },
        Step {
            id: "suggest.edit",
            title: "edit (the same mate in one), go: the move of that position?",
            run: position::edit,
        },
        Step {
            id: "suggest.fen",
            title: "fen FEN, else fen and the FEN a line per element (ColChess), go",
            run: position::fen_command,
        },
        Step {
            id: "suggest.hint",
            title: "hint after the engine's move: Hint: MOVE?",
            run: hint,
        },
        Step {
            id: "suggest.draw",
            title: "draw (the opponent offers one), then a move: refused?",
            run: draw,
        },
        Step {
            id: "suggest.depth",
            title: "sd 2 (else depth 2), post, go: taken, and no thinking deeper?",
            run: clock::depth,
        },
        Step {
            id: "suggest.quit",
            title: "quit",
            run: quit,
        },
    ]
}

fn handshake(r: &mut Run, st: &mut State) {
    r.send("xboard");
    r.send("protover 2");
    let began = Instant::now();
    // xboard gives a protocol-1 engine two seconds to say a first feature; an engine that is
    // still starting (a Python engine importing its libraries on a loaded machine) gets the
    // answer timeout (`--timeout`) when that is longer.
    let first = r
        .timeouts
        .handshake
        .min(r.timeouts.answer.max(Duration::from_secs(2)));
    let answered = r.wait_for(first, |s| !s.features.is_empty() || s.version == Some(1));
    let refused = r.session().is_some_and(|s| s.version == Some(1));
    if !answered || refused {
        r.forgive(Owed::FeatureDone);
        st.found.protocol_version = 1;
        st.found.note_protocol(if refused {
            "`protover 2` refused: a protocol-1 engine".to_owned()
        } else {
            format!(
                "no feature within {:.0} s of `protover 2`: a protocol-1 engine",
                first.as_secs_f64()
            )
        });
        r.observe("no feature: protocol 1");
        return;
    }
    loop {
        cecp::ack_features(r, &mut st.setboard);
        if r.session()
            .is_some_and(|s| matches!(s.handshake, Handshake::Done(_)))
        {
            break;
        }
        let seen = r.session().map_or(0, |s| s.features.len());
        let left = r.timeouts.handshake.saturating_sub(began.elapsed());
        let more = r.wait_for(left, |s| {
            matches!(s.handshake, Handshake::Done(_)) || s.features.len() > seen
        });
        if !more {
            r.forgive(Owed::FeatureDone);
            st.found.note_protocol("features, but no `feature done=1`");
            break;
        }
    }
    let myname = r
        .session()
        .and_then(|s| cecp::feature_text(s, "myname").map(str::to_owned));
    if let Some(n) = myname.filter(|n| !n.trim().is_empty()) {
        let n = n.trim();
        match n.rsplit_once(' ') {
            Some((name, v)) if v.bytes().any(|b| b.is_ascii_digit()) => {
                st.found.name = Some(name.trim().to_owned());
                st.found.version = Some(v.to_owned());
            }
            _ => st.found.name = Some(n.to_owned()),
        }
        st.found
            .note(C2wKey::Name, format!("feature myname=\"{n}\""));
    }
    let (memory, hash_options) = r
        .session()
        .map(|s| {
            let memory = cecp::feature(s, "memory").and_then(|v| v.flag()) == Some(true);
            let options: Vec<String> = s
                .features
                .iter()
                .map(|f| (f, f.value.to_string()))
                .filter(|(f, v)| f.name == "option" && v.to_ascii_lowercase().contains("hash"))
                .map(|(_, v)| v)
                .collect();
            (memory, options)
        })
        .unwrap_or_default();
    if memory {
        st.found.note(
            C2wKey::TypeOfCmdHash,
            "feature memory=1: xboard sets its hash with `memory MB`, a form the text has no code for",
        );
    }
    for o in hash_options {
        st.found
            .note(C2wKey::TypeOfCmdHash, format!("feature option=\"{o}\""));
    }
    let declared: Vec<String> = r
        .session()
        .map(|s| {
            s.features
                .iter()
                .filter(|f| f.name != "option")
                .map(|f| format!("{}={}", f.name, f.value))
                .collect()
        })
        .unwrap_or_default();
    r.observe(format!("features: {}", declared.join(" ")));
}

/// The engine's refusal of a line it was sent after `mark`: `Error (...): WORD ...`,
/// `Illegal move: WORD`, `Invalid move: WORD ...`.
pub(super) fn refused(r: &Run, mark: Option<u64>, word: &str) -> Option<String> {
    r.lines_after(mark).into_iter().find(|l| {
        cecp::refusal(l)
            && l.split_once(':')
                .is_some_and(|(_, rest)| rest.split_whitespace().next() == Some(word))
    })
}

/// Gives the engine a moment to answer what was just sent: a ping when it has them.
pub(super) fn settle(r: &mut Run) {
    let t = r.timeouts.answer;
    if !cecp::ping(r, t) {
        r.pause(Duration::from_millis(400));
    }
}

/// The engine's `move X` (or `My move is: X`, or GNU Chess's `1. ... X`) after the line
/// `mark`.
fn move_after(r: &Run, mark: Option<u64>) -> Option<String> {
    r.lines_after(mark).into_iter().find_map(|l| {
        let l = l.trim();
        if let Some(m) = l.strip_prefix("move ") {
            return Some(m.trim().to_owned());
        }
        if let Some((n, m)) = l.split_once(". ... ")
            && !n.is_empty()
            && n.bytes().all(|b| b.is_ascii_digit())
        {
            return m.split_whitespace().next().map(str::to_owned);
        }
        let (head, m) = l.split_once(':')?;
        head.trim_end()
            .eq_ignore_ascii_case("my move is")
            .then(|| m.trim().to_owned())
    })
}

/// `go` and the engine's move within `within`: the move and how long it took. Waits for
/// the move once more, to the search timeout, when it did not come in time (what it does
/// next is another experiment's).
pub(super) fn go_and_move(r: &mut Run, within: Duration) -> Option<(String, Duration)> {
    let seq = r.send("go");
    let began = Instant::now();
    // An engine that never said a word is hung, not slow: no second wait for it.
    let came = r.wait(seq, Owed::Move, within).is_some()
        || (r.engine_lines() > 0 && r.wait(seq, Owed::Move, r.timeouts.search).is_some());
    let mv = move_after(r, seq)?;
    came.then(|| (mv, began.elapsed()))
}

/// The engine said `feature NAME=0`.
pub(super) fn declared_off(r: &Run, name: &str) -> bool {
    r.session()
        .is_some_and(|s| cecp::feature(s, name).and_then(|v| v.flag()) == Some(false))
}

/// `new`, the quick clock, `go`: the engine (White) moves and it is the GUI's turn.
fn engine_moved(r: &mut Run, st: &State) -> Option<String> {
    r.send("new");
    let (clock, within) = clock::quick_clock(st);
    for l in &clock {
        r.send(l);
    }
    go_and_move(r, within + r.timeouts.answer).map(|(mv, _)| mv)
}

fn hint(r: &mut Run, st: &mut State) {
    if engine_moved(r, st).is_none() {
        st.found
            .note(C2wKey::CmdHint, "no move to ask a hint after");
        return;
    }
    let mark = r.send("hint");
    let t = r.timeouts.answer;
    let got = r.wait_line(mark, t, |l| l.starts_with("Hint:") || cecp::refusal(l));
    let text = match &got {
        Some((l, d)) if l.starts_with("Hint:") => {
            st.found.hint = Some(true);
            format!("`hint`: `{l}` after {}", ms(*d))
        }
        Some((l, _)) => {
            st.found.hint = Some(false);
            format!("`hint` answered `{l}`")
        }
        None => {
            st.found.hint = Some(false);
            format!("`hint`: no `Hint:` within {:.0} s", t.as_secs_f64())
        }
    };
    st.found.note(C2wKey::CmdHint, text);
    r.send("force");
}

fn draw(r: &mut Run, st: &mut State) {
    if declared_off(r, "draw") {
        st.found.draw = Some(false);
        st.found.note(
            C2wKey::CmdDraw,
            "the engine declares draw=0: it does not take draw offers",
        );
        r.not_applicable("the engine declares draw=0");
        return;
    }
    let Some(first) = engine_moved(r, st) else {
        st.found
            .note(C2wKey::CmdDraw, "no move to offer a draw after");
        return;
    };
    let reply = cecp::reply_to(&first);
    let mark = r.send("draw");
    let (_, within) = clock::quick_clock(st);
    if let Some(mv) = reply {
        let seq = cecp::send_move(r, &mv);
        r.wait(seq, Owed::Move, within + r.timeouts.answer);
    } else {
        settle(r);
    }
    let said = r.lines_after(mark);
    let refusal = refused(r, mark, "draw");
    let text = match refusal {
        Some(l) => {
            st.found.draw = Some(false);
            format!("`draw` answered `{l}`")
        }
        None => {
            st.found.draw = Some(true);
            match said.iter().find(|l| {
                let l = l.to_ascii_lowercase();
                l.starts_with("offer draw") || l.contains("decline") || l.contains("accept")
            }) {
                Some(l) => format!("`draw` taken: `{l}`"),
                None => "`draw` taken without complaint (it played on: declined)".to_owned(),
            }
        }
    };
    st.found.note(C2wKey::CmdDraw, text);
    r.send("force");
}

fn quit(r: &mut Run, st: &mut State) {
    cecp::quit(r, &mut st.setboard);
}
