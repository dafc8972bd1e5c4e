//! What every CECP step does the way xboard does it: answering features, `ping`, sending a
//! move in the form the engine asked for, setting the clock, `go`, setting up a position by
//! `setboard` or `edit` (or a `.c2w` profile's command). The suite's steps and `c2w
//! suggest`'s experiments are both built from these, so the two talk to an engine alike.

use super::{Clock, PositionSetup, State};
use crate::game::chess::{ChessBoard, ChessVariant};
use crate::probe::run::Run;
use crate::protocol::c2w::C2wKey;
use crate::protocol::cecp as cecp_msg;
use crate::protocol::cecp::FeatureSetting;
use crate::session::{Mover, Owed, Session};
use std::time::Duration;

/// The engine's own value of a feature, as it declared it (the probe's answer aside).
pub(in crate::probe) fn feature<'a>(s: &'a Session, name: &str) -> Option<&'a FeatureSetting> {
    s.feature(name).map(|f| &f.value)
}

/// The text of a string feature (`myname`, `variants`).
pub(in crate::probe) fn feature_text<'a>(s: &'a Session, name: &str) -> Option<&'a str> {
    feature(s, name).and_then(FeatureSetting::text)
}

/// A feature that is on: declared `=1`, or not declared and on by default in protocol 2.
pub(in crate::probe) fn on(r: &Run, name: &str, default: bool) -> bool {
    r.session()
        .and_then(|s| feature(s, name).map(|v| v.flag() == Some(true)))
        .unwrap_or(default)
}

/// Answers every feature not answered yet, in order, as xboard does.
pub(in crate::probe) fn ack_features(r: &mut Run, st: &mut State) {
    let names: Vec<String> = r
        .session()
        .map(|s| {
            s.features
                .iter()
                .skip(st.acked)
                .map(|f| f.name.clone())
                .collect()
        })
        .unwrap_or_default();
    for name in names {
        st.acked += 1;
        if name == "done" {
            continue;
        }
        // Anything a protocol-2 GUI does not know is rejected, and `san=1` too, so the engine
        // must send coordinate moves: whether it honours a rejection shows.
        let verb = if name != "san" && cecp_msg::FEATURES.contains(&name.as_str()) {
            "accepted"
        } else {
            "rejected"
        };
        r.send(&format!("{verb} {name}"));
    }
}

/// `ping N` and its `pong N`; false (and nothing sent) when the engine has no `ping=1`.
pub(in crate::probe) fn ping(r: &mut Run, within: Duration) -> bool {
    if !on(r, "ping", false) {
        return false;
    }
    let n = r.next_ping();
    let seq = r.send(&format!("ping {n}"));
    r.wait_noted(seq, Owed::Pong(n.to_string()), within)
}

/// A GUI move, as the engine asked for them (`usermove=1` or bare).
pub(in crate::probe) fn send_move(r: &mut Run, mv: &str) -> Option<u64> {
    if on(r, "usermove", false) {
        r.send(&format!("usermove {mv}"))
    } else {
        r.send(mv)
    }
}

/// `go` and the engine's move, waited for up to `within`; the move's text.
pub(in crate::probe) fn go(r: &mut Run, within: Duration) -> Option<String> {
    let seq = r.send("go");
    if r.wait_noted(seq, Owed::Move, within) {
        engine_move(r)
    } else {
        None
    }
}

/// The engine's last move in the current game.
pub(in crate::probe) fn engine_move(r: &Run) -> Option<String> {
    r.session()?
        .games
        .last()?
        .plies
        .iter()
        .rev()
        .find(|p| p.by == Mover::Engine)
        .map(|p| p.text().to_owned())
}

/// Sets the clock for a new game.
pub(super) fn set_clock(r: &mut Run, c: &Clock) {
    r.send(&c.setup());
}

/// The clocks before a move, as the style sends them; how long the move may take.
pub(super) fn clocks_before_move(r: &mut Run, st: &State, c: &Clock) -> Duration {
    let time = st.style.sends_time(r);
    for line in c.before_move(time) {
        r.send(&line);
    }
    c.allowed(&r.timeouts, time)
}

/// The clocks before a move, then `go` and the engine's move.
pub(super) fn go_on(r: &mut Run, st: &State, c: &Clock) -> Option<String> {
    let t = clocks_before_move(r, st, c);
    go(r, t)
}

/// How a position was set up.
#[derive(PartialEq, Eq)]
pub(in crate::probe) enum SetUp {
    /// `setboard`: all of the FEN.
    Exactly,
    /// `edit`: the pieces, White to move, no en passant.
    PiecesOnly,
    /// `edit` cannot say this position (Black to move).
    Cannot,
}

/// Sets up `fen` the way the style says.
pub(in crate::probe) fn set_position(
    r: &mut Run,
    st: &State,
    fen: &str,
    variant: ChessVariant,
) -> SetUp {
    let setboard = match &st.style.position {
        PositionSetup::Setboard => true,
        PositionSetup::Edit => false,
        PositionSetup::Auto => on(r, "setboard", false),
        PositionSetup::Never => return SetUp::Cannot,
        PositionSetup::FenCommand(c) if c.own_line => {
            r.send(&c.word);
            // The FEN's elements, one a line: board, side to move, castling, en passant.
            for element in fen.split_whitespace().take(4) {
                r.send(element);
            }
            return SetUp::Exactly;
        }
        PositionSetup::FenCommand(c) => {
            r.send(&format!("{} {fen}", c.word));
            return SetUp::Exactly;
        }
    };
    if setboard {
        r.send(&format!("setboard {fen}"));
        return SetUp::Exactly;
    }
    let chess960 = variant == ChessVariant::Chess960;
    let Ok(board) = ChessBoard::from_fen(fen, variant, chess960) else {
        return SetUp::Cannot;
    };
    // `edit` says where the pieces are, nothing else: White to move, castling rights from
    // the pieces on their squares, no en passant.
    if fen.split_whitespace().nth(1) != Some("w") {
        return SetUp::Cannot;
    }
    r.send("edit");
    r.send("#");
    let placement = board.fen();
    let mut black = false;
    for color in [false, true] {
        if color != black {
            r.send("c");
            black = color;
        }
        for (rank_i, rank) in placement
            .split_whitespace()
            .next()
            .unwrap_or("")
            .split('/')
            .enumerate()
        {
            let mut file = 0u8;
            for ch in rank.chars() {
                if let Some(n) = ch.to_digit(10) {
                    file += n as u8;
                    continue;
                }
                if ch.is_ascii_lowercase() == color {
                    let sq = format!("{}{}", (b'a' + file) as char, 8 - rank_i);
                    r.send(&format!("{}{sq}", ch.to_ascii_uppercase()));
                }
                file += 1;
            }
        }
    }
    r.send(".");
    SetUp::PiecesOnly
}

/// Why the style cannot set up a position.
pub(super) fn cannot_set_up(st: &State) -> String {
    match (&st.style.position, &st.style.profile) {
        (PositionSetup::Never, Some(p)) => match p.init_position {
            Some(_) => format!(
                "the GUI sets up no position: {}",
                p.quote(C2wKey::InitPos, "0")
            ),
            None => format!(
                "the GUI sets up no position: the profile has no {}",
                C2wKey::InitPos
            ),
        },
        _ => "edit cannot set up this position (Black to move)".to_owned(),
    }
}

/// The GUI's answer to the engine's first move from the start position: the first legal
/// reply in UCI order.
pub(in crate::probe) fn reply_to(first: &str) -> Option<String> {
    let mut b = ChessBoard::startpos(ChessVariant::Standard).ok()?;
    b.play_cecp(first).ok()?;
    b.legal_moves_uci().into_iter().min()
}

/// An engine line refusing a command: `Error (...): CMD`, `Illegal move: CMD`.
pub(in crate::probe) fn refusal(line: &str) -> bool {
    let l = line.trim_start().to_ascii_lowercase();
    l.starts_with("error") || l.starts_with("illegal move") || l.starts_with("invalid move")
}
