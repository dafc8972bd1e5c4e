//! The CECP (xboard/WinBoard) suite: what xboard sends, one step per kind of exchange.
//!
//! How positions are set up and which clock commands are used is a [`Style`], not fixed: a GUI
//! with its own habits (Chess Academy under a `.c2w` profile: `EngineCmdSB`, `EngineInitPos`,
//! `EngineCmdST`...) is the same suite with another style.
//!
//! This file is the suite's order and its state; the steps are in `steps.rs`, built from the
//! xboard-like actions in `actions.rs` (which `c2w suggest` uses too), and the styles in
//! `style.rs`.

use super::run::{Run, Step};
use crate::protocol::c2w::{C2wKey, Command, EngineProfile, InitPosition};
use std::time::Duration;

mod actions;
mod steps;
mod style;
pub(super) use actions::{
    SetUp, ack_features, feature, feature_text, on, ping, refusal, reply_to, send_move,
    set_position,
};
pub(super) use steps::quit;
pub use style::{Clock, ClockFamily, PositionSetup, Style};

/// What the steps learn about the engine.
pub struct State {
    style: Style,
    /// Features acknowledged so far.
    acked: usize,
}

impl State {
    pub fn new(style: Style) -> State {
        State { style, acked: 0 }
    }
}

/// A restarted engine has acknowledged no feature yet: the handshake again.
pub fn again(r: &mut Run, st: &mut State) {
    st.acked = 0;
    steps::handshake(r, st);
}

/// The suite for a style: a `.c2w` profile's style adds its own commands (hint, draw, hash).
pub fn suite(style: &Style) -> Vec<Step<State>> {
    let mut steps = base_suite();
    if style.profile.is_some() {
        let quit = steps.pop();
        steps.extend([
            Step {
                id: "c2w.hash",
                title: "the profile's hash command, in its form, while idle",
                run: steps::hash,
            },
            Step {
                id: "c2w.hint",
                title: "the profile's hint command after the engine's move -> Hint: MOVE",
                run: steps::hint,
            },
            Step {
                id: "c2w.draw",
                title: "the profile's draw command (the opponent offers a draw), then a move",
                run: steps::draw,
            },
        ]);
        steps.extend(quit);
    }
    steps
}

fn base_suite() -> Vec<Step<State>> {
    vec![
        Step {
            id: "cecp.handshake",
            title: "xboard, protover 2 -> features (each accepted or rejected), done=1",
            run: steps::handshake,
        },
        Step {
            id: "cecp.ping-idle",
            title: "ping while idle -> pong",
            run: steps::ping_idle,
        },
        Step {
            id: "cecp.options",
            title: "one declared option of each type set (option NAME=VALUE)",
            run: steps::options,
        },
        Step {
            id: "cecp.force-moves",
            title: "new, force, four moves (usermove or bare, per feature): no reply",
            run: steps::force_moves,
        },
        Step {
            id: "cecp.go-clocks",
            title: "a search under each time control: st, level + time/otim, incremental level",
            run: steps::go_clocks,
        },
        Step {
            id: "cecp.ping-thinking",
            title: "ping while the engine thinks -> pong only after its move",
            run: steps::ping_thinking,
        },
        Step {
            id: "cecp.move-now",
            title: "? while the engine thinks -> its move",
            run: steps::move_now,
        },
        Step {
            id: "cecp.position-fen",
            title: "setboard (or edit) with castling rights and en passant, a move, go",
            run: steps::position_fen,
        },
        Step {
            id: "cecp.position-moves",
            title: "new, force, 80 moves (both sides castled), go",
            run: steps::position_moves,
        },
        Step {
            id: "cecp.chess960",
            title: "variant fischerandom, setboard, moves with O-O castling, go",
            run: steps::chess960,
        },
        Step {
            id: "cecp.ponder",
            title: "hard (pondering on): a move, ping while it ponders, the GUI's reply, its move",
            run: steps::ponder,
        },
        Step {
            id: "cecp.analyze",
            title: "post, analyze for a moment, exit",
            run: steps::analyze,
        },
        Step {
            id: "cecp.game",
            title: "a game against itself from a position near mate, to its end, then result",
            run: steps::game,
        },
        Step {
            id: "cecp.new-resets-depth",
            title: "sd 3 and a search; new, a clock and a search: the depth limit is gone",
            run: steps::new_resets_depth,
        },
        Step {
            id: "cecp.quit",
            title: "quit -> the engine exits",
            run: steps::quit,
        },
    ]
}
