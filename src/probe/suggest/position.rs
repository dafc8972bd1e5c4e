//! How the engine takes a position: `setboard`, `edit`, or ColChess's `fen` command, each
//! tried with a mate in one so that a position the engine silently ignored shows in its move.

use super::steps::{declared_off, go_and_move, refused, settle};
use super::{MATE_IN_ONE, State, clock};
use crate::game::chess::{ChessBoard, ChessVariant};
use crate::probe::cecp::{self, SetUp};
use crate::probe::run::Run;
use crate::protocol::c2w::{C2wKey, Command};

/// How a position set-up went.
enum Taken {
    /// The engine played `mv`, legal in the position (`mate`: the mate in one).
    Yes {
        mv: String,
        mate: bool,
    },
    /// A refusal of the set-up.
    Refused(String),
    /// A move the position does not have: the engine did not take it.
    Ignored(String),
    NoMove,
}

fn try_position(r: &mut Run, st: &mut State, how: &str) -> Taken {
    r.send("new");
    let mark = r.send("force");
    let (clock, within) = clock::quick_clock(st);
    let cs = match how {
        "setboard" => &st.setboard,
        "edit" => &st.edit,
        "fen" => &st.fen_line,
        _ => &st.fen_lines,
    };
    let word = how.trim_end_matches("\\n");
    if cecp::set_position(r, cs, MATE_IN_ONE, ChessVariant::Standard) == SetUp::Cannot {
        return Taken::NoMove;
    }
    for l in &clock {
        r.send(l);
    }
    settle(r);
    if let Some(l) = refused(r, mark, word) {
        return Taken::Refused(l);
    }
    let Some((mv, _)) = go_and_move(r, within + r.timeouts.answer) else {
        return Taken::NoMove;
    };
    let Ok(mut board) = ChessBoard::from_fen(MATE_IN_ONE, ChessVariant::Standard, false) else {
        return Taken::NoMove;
    };
    if board.play_cecp(&mv).is_err() {
        return Taken::Ignored(mv);
    }
    let mate = board.outcome().is_some();
    Taken::Yes { mv, mate }
}

fn describe(t: &Taken, how: &str) -> String {
    match t {
        Taken::Yes { mv, mate: true } => {
            format!("`{how}` of the mate in one {MATE_IN_ONE}: it mated with {mv}")
        }
        Taken::Yes { mv, .. } => {
            format!("`{how}` of {MATE_IN_ONE}: move {mv}, legal there (not the mate)")
        }
        Taken::Refused(l) => format!("`{how}` answered `{l}`"),
        Taken::Ignored(mv) => format!(
            "after `{how}` of {MATE_IN_ONE} it played {mv}, which that position does not have: the position was not taken"
        ),
        Taken::NoMove => format!("after `{how}`: no move"),
    }
}

pub(super) fn setboard(r: &mut Run, st: &mut State) {
    if declared_off(r, "setboard") {
        st.found.setboard = Some(false);
        st.found.note(
            C2wKey::InitPos,
            "the engine declares setboard=0: setboard not tried",
        );
        r.not_applicable("the engine declares setboard=0");
        return;
    }
    let t = try_position(r, st, "setboard");
    st.found.setboard = Some(matches!(t, Taken::Yes { .. }));
    st.found.note(C2wKey::InitPos, describe(&t, "setboard"));
}

/// ColChess's command (`EngineCmdSB=fen\\n` in the text): tried when neither setboard nor
/// edit worked.
pub(super) fn fen_command(r: &mut Run, st: &mut State) {
    if st.found.setboard == Some(true) || st.found.edit == Some(true) {
        r.not_applicable("setboard or edit works: Chess Academy needs one method");
        return;
    }
    for own_line in [false, true] {
        let how = if own_line { "fen\\n" } else { "fen" };
        let t = try_position(r, st, how);
        st.found.note(C2wKey::InitPos, describe(&t, how));
        if matches!(t, Taken::Yes { .. }) {
            st.found.fen_command = Some(fen(own_line));
            return;
        }
    }
}

pub(super) fn fen(own_line: bool) -> Command {
    Command {
        word: "fen".to_owned(),
        own_line,
    }
}

pub(super) fn edit(r: &mut Run, st: &mut State) {
    if st.found.setboard == Some(true) {
        r.not_applicable("setboard works: Chess Academy needs one method");
        return;
    }
    let t = try_position(r, st, "edit");
    st.found.edit = Some(matches!(t, Taken::Yes { .. }));
    st.found.note(C2wKey::InitPos, describe(&t, "edit"));
}
