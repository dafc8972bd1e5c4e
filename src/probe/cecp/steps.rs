//! The CECP suite's steps, one per kind of exchange (handshake, options, clocks, pings while
//! idle and thinking, `?`, positions, Chess960, pondering, analysis, a game, and a `.c2w`
//! profile's hash, hint and draw commands), each built from the shared actions in
//! `actions.rs`. Their order is `suite()`'s, in the parent module.

use super::State;
use super::actions::{
    SetUp, ack_features, cannot_set_up, clocks_before_move, feature_text, go_on, on, ping, refusal,
    reply_to, send_move, set_clock, set_position,
};
use super::style::{DEPTH, hash_line};
use super::{Clock, PositionSetup};
use crate::game::chess::{ChessBoard, ChessVariant};
use crate::probe::positions::{
    CHESS960_FEN, CHESS960_MOVES, EN_PASSANT_FEN, EN_PASSANT_MOVE, LONG_GAME, MATE_IN_TWO_FEN,
};
use crate::probe::run::{Run, ms};
use crate::protocol::c2w::C2wKey;
use crate::recording::ProbeFact;
use crate::session::{Handshake, Owed};
use std::time::{Duration, Instant};

pub(super) fn handshake(r: &mut Run, st: &mut State) {
    let (seq, began) = match r.take_begun() {
        Some(sent) => sent,
        None => {
            r.send("xboard");
            (r.send("protover 2"), Instant::now())
        }
    };
    let mut deadline = r.timeouts.handshake;
    loop {
        let seen = r.session().map_or(0, |s| s.features.len());
        let left = deadline.saturating_sub(began.elapsed());
        let done = r.wait_for(left, |s| {
            matches!(s.handshake, Handshake::Done(_))
                || s.features.len() > seen
                || s.version == Some(1)
        });
        ack_features(r, st);
        if r.session().is_some_and(|s| s.version == Some(1)) {
            r.observe("`protover` refused: a protocol-1 engine, no features");
            break;
        }
        if r.session()
            .is_some_and(|s| matches!(s.handshake, Handshake::Done(_)))
        {
            r.observe(format!("feature done=1 after {}", ms(began.elapsed())));
            break;
        }
        // done=0 asks for more time: the spec's hour is too long for a probe; the handshake
        // timeout once more.
        let extended =
            r.session().is_some_and(|s| s.done_zero.is_some()) && deadline == r.timeouts.handshake;
        if extended {
            deadline += r.timeouts.handshake;
        }
        if (!done && !extended) || !r.usable() {
            if seq.is_some() {
                r.observe(format!(
                    "no feature done=1 within {:.1} s",
                    deadline.as_secs_f64()
                ));
            }
            break;
        }
    }
    if let Some(s) = r.session() {
        let declared: Vec<String> = s
            .features
            .iter()
            .filter(|f| f.name != "option")
            .map(|f| format!("{}={}", f.name, f.value))
            .collect();
        let options = s.features.iter().filter(|f| f.name == "option").count();
        let text = format!(
            "features: {}; {options} option(s)",
            if declared.is_empty() {
                "(none)".to_owned()
            } else {
                declared.join(" ")
            }
        );
        r.observe(text);
    }
}

pub(super) fn ping_idle(r: &mut Run, _: &mut State) {
    if !on(r, "ping", false) {
        r.not_applicable("the engine declares no ping=1");
        return;
    }
    let t = r.timeouts.answer;
    ping(r, t);
}

/// `option NAME=VALUE` for a declared `feature option="NAME -TYPE ..."`, set to its default.
fn option_setting(decl: &str) -> Option<(String, String)> {
    let (name, rest) = decl.split_once(" -")?;
    let mut words = rest.split_whitespace();
    let kind = words.next()?.to_owned();
    let name = name.trim();
    let line = match kind.as_str() {
        "button" => {
            let lower = name.to_ascii_lowercase();
            let risky = ["save", "write", "quit", "exit", "reset", "load"]
                .iter()
                .any(|w| lower.contains(w));
            if risky {
                return None;
            }
            format!("option {name}")
        }
        "check" | "spin" | "slider" => format!("option {name}={}", words.next()?),
        "string" | "file" | "path" => {
            let v = rest.split_once(' ').map(|(_, v)| v.trim())?;
            if v.is_empty() {
                return None;
            }
            format!("option {name}={v}")
        }
        "combo" => {
            let choices = rest.split_once(' ').map(|(_, v)| v)?;
            let pick = choices
                .split("///")
                .map(str::trim)
                .find(|c| c.starts_with('*'))
                .or_else(|| choices.split("///").map(str::trim).next())?;
            format!("option {name}={}", pick.trim_start_matches('*'))
        }
        // `save` and `reset` act on the engine's settings file: not sent.
        _ => return None,
    };
    Some((kind, line))
}

pub(super) fn options(r: &mut Run, st: &mut State) {
    if st.style.profile.is_some() {
        r.not_applicable("a .c2w profile has no key for engine options: Chess Academy sets none");
        return;
    }
    let decls: Vec<String> = r
        .session()
        .map(|s| {
            s.features
                .iter()
                .filter(|f| f.name == "option")
                .map(|f| f.value.to_string())
                .collect()
        })
        .unwrap_or_default();
    if decls.is_empty() {
        r.not_applicable("the engine declares no option feature");
        return;
    }
    let mut kinds_done: Vec<String> = Vec::new();
    for d in &decls {
        let Some((kind, line)) = option_setting(d) else {
            continue;
        };
        if kinds_done.contains(&kind) {
            continue;
        }
        r.observe(format!("type {kind}: {line}"));
        r.send(&line);
        kinds_done.push(kind);
    }
    if kinds_done.is_empty() {
        r.not_applicable("no declared option can be set to its default safely");
        return;
    }
    let t = r.timeouts.answer;
    ping(r, t);
}

pub(super) fn force_moves(r: &mut Run, _: &mut State) {
    r.send("new");
    r.send("force");
    for mv in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        send_move(r, mv);
    }
    let t = r.timeouts.answer;
    if !ping(r, t) {
        r.pause(Duration::from_millis(300));
    }
}

pub(super) fn go_clocks(r: &mut Run, st: &mut State) {
    for c in st.style.forms() {
        if !r.usable() {
            return;
        }
        r.send("new");
        set_clock(r, &c);
        r.send("post");
        let time = st.style.sends_time(r);
        r.observe(format!("under {}:", c.describe(time)));
        go_on(r, st, &c);
    }
}

/// Moves no opening book has, so that a search after them thinks.
const OUT_OF_BOOK: [&str; 4] = ["a2a3", "h7h6", "b2b3", "g7g6"];

/// The xboard text: `new` "... Remove any search depth limit previously set by the sd
/// command". Decidable here, where the probe knows what it set: after `sd 3` and `new`, a
/// search on a clock that never goes deeper than 3 kept the limit (CECP-NEW-STATE). Last but
/// for `quit`, so that a limit kept cannot leak into another step.
pub(super) fn new_resets_depth(r: &mut Run, st: &mut State) {
    let Some(limit) = st.style.depth_limit() else {
        r.not_applicable("the GUI style sends no depth limit (no EngineCmdSD)");
        return;
    };
    let time = st.style.sends_time(r);
    let c = st
        .style
        .forms()
        .into_iter()
        .next()
        .unwrap_or_else(|| st.style.search());
    // A search out of any opening book (a book move shows no depth), after `new`, under `clock`:
    // how deep it went, when the engine said.
    let searched = |r: &mut Run, clock: &Clock, what: &str| -> Option<u32> {
        r.send("new");
        set_clock(r, clock);
        r.send("post");
        r.send("force");
        for m in OUT_OF_BOOK {
            send_move(r, m);
        }
        r.observe(format!("{what}, under {}:", clock.describe(time)));
        go_on(r, st, clock)?;
        r.session().and_then(|s| {
            s.searches
                .iter()
                .rev()
                .find(|x| x.ended.is_some())
                .and_then(|x| x.last.as_ref())
                .and_then(|l| l.depth)
        })
    };
    // The control: how deep this clock lets the engine go before any limit was set. An engine
    // that does not go past the limit anyway cannot show whether `new` removed it.
    let free = searched(r, &c, "no depth limit yet");
    if !r.usable() {
        return;
    }
    let Some(free) = free.filter(|d| *d > DEPTH) else {
        r.not_applicable(format!(
            "the engine went no deeper than {DEPTH} on that clock without a limit (or showed no \
             depth): whether `new` removes the limit cannot be told"
        ));
        return;
    };
    searched(r, &limit, "the depth limit");
    if !r.usable() {
        return;
    }
    if let Some(after) = searched(r, &c, "after new, the same clock again") {
        // The judge decides from the fact whether `new` removed the limit (CECP-NEW-STATE).
        r.fact(ProbeFact::DepthAfterNew {
            limit: DEPTH,
            before: free,
            after,
        });
        if after > DEPTH {
            r.observe(format!("depth {after} after new: the depth limit is gone"));
        }
    }
}

pub(super) fn ping_thinking(r: &mut Run, st: &mut State) {
    if !on(r, "ping", false) {
        r.not_applicable("the engine declares no ping=1");
        return;
    }
    r.send("new");
    let c = st.style.long();
    set_clock(r, &c);
    let t = clocks_before_move(r, st, &c);
    // At once: the engine is thinking for sure (an engine that answers before the move
    // answers at once too).
    let go_seq = r.send("go");
    let n = r.next_ping();
    let seq = r.send(&format!("ping {n}"));
    r.wait_noted(go_seq, Owed::Move, t);
    r.wait_noted(seq, Owed::Pong(n.to_string()), t);
}

pub(super) fn move_now(r: &mut Run, st: &mut State) {
    if !st.style.move_now {
        r.not_applicable(match &st.style.profile {
            Some(p) => format!(
                "the GUI sends no ? (move now): {}",
                match p.move_now {
                    Some(false) => p.quote(C2wKey::MoveNow, "0"),
                    _ => format!("the profile has no {}", C2wKey::MoveNow),
                }
            ),
            None => "the GUI style sends no ? (move now)".to_owned(),
        });
        return;
    }
    r.send("new");
    let c = st.style.long();
    set_clock(r, &c);
    let t = clocks_before_move(r, st, &c);
    let seq = r.send("go");
    r.pause(Duration::from_millis(300));
    if !r.owes(&Owed::Move) {
        // Nothing was tested: a step that tested nothing is not passed.
        r.not_applicable(
            "the engine had moved before ? was sent (300 ms into a search on a long clock): \
             nothing to test",
        );
        return;
    }
    let began = Instant::now();
    let mark = r.send("?");
    let moved = r.wait(seq, Owed::Move, t).map(|_| began.elapsed());
    if moved.is_some() {
        // A move already on its way comes before the engine's answer to `?`: a moment (a
        // ping when it has them) for a refusal to arrive.
        let a = r.timeouts.answer;
        if !ping(r, a) {
            r.pause(Duration::from_millis(400));
        }
    }
    let refused = r.lines_after(mark).into_iter().find(|l| {
        refusal(l)
            && l.split_once(':')
                .is_some_and(|(_, rest)| rest.split_whitespace().next() == Some("?"))
    });
    match (refused, moved) {
        (Some(l), _) => r.not_applicable(format!(
            "the engine does not take ? (it answered `{l}`), which the spec allows: its move \
             came on its own clock, so nothing was tested"
        )),
        (None, Some(d)) => r.observe(format!("move {} after ?", ms(d))),
        (None, None) => {}
    }
}

pub(super) fn position_fen(r: &mut Run, st: &mut State) {
    r.send("new");
    r.send("force");
    match set_position(r, st, EN_PASSANT_FEN, ChessVariant::Standard) {
        SetUp::Exactly => {
            send_move(r, EN_PASSANT_MOVE);
        }
        SetUp::PiecesOnly => {
            r.observe("edit cannot say en passant: the position is played without the capture")
        }
        SetUp::Cannot => {
            r.not_applicable(cannot_set_up(st));
            return;
        }
    }
    let c = st.style.search();
    set_clock(r, &c);
    go_on(r, st, &c);
}

pub(super) fn position_moves(r: &mut Run, st: &mut State) {
    r.send("new");
    r.send("force");
    for mv in LONG_GAME.split_whitespace() {
        send_move(r, mv);
    }
    let c = st.style.search();
    set_clock(r, &c);
    go_on(r, st, &c);
}

pub(super) fn chess960(r: &mut Run, st: &mut State) {
    let variants = r
        .session()
        .and_then(|s| feature_text(s, "variants").map(str::to_owned))
        .unwrap_or_default();
    if !variants.split(',').any(|v| v.trim() == "fischerandom") {
        r.not_applicable("the engine's variants feature does not list fischerandom");
        return;
    }
    if st.style.profile.is_some() {
        r.not_applicable("a .c2w profile has no key for variants: Chess Academy is taken to play standard chess only");
        return;
    }
    let setboard = match st.style.position {
        PositionSetup::Setboard => true,
        PositionSetup::Auto => on(r, "setboard", false),
        _ => false,
    };
    if !setboard {
        r.not_applicable("Chess960 castling rights need setboard, and the GUI uses edit");
        return;
    }
    r.send("new");
    r.send("variant fischerandom");
    r.send("force");
    r.send(&format!("setboard {CHESS960_FEN}"));
    let Ok(mut board) = ChessBoard::from_fen(CHESS960_FEN, ChessVariant::Chess960, true) else {
        return;
    };
    for mv in CHESS960_MOVES.split_whitespace() {
        // xboard sends castling in Chess960 as O-O / O-O-O.
        let text = match board.play_uci(mv) {
            Ok(p) if p.castling.is_some() => p.san.trim_end_matches(['+', '#']).to_owned(),
            _ => mv.to_owned(),
        };
        send_move(r, &text);
    }
    let c = st.style.search();
    set_clock(r, &c);
    go_on(r, st, &c);
}

pub(super) fn ponder(r: &mut Run, st: &mut State) {
    r.send("new");
    r.send("hard");
    let c = st.style.search();
    set_clock(r, &c);
    let Some(first) = go_on(r, st, &c) else {
        r.send("easy");
        return;
    };
    // It ponders now, on the GUI's time.
    r.pause(Duration::from_millis(300));
    let a = r.timeouts.answer;
    ping(r, a);
    let reply = reply_to(&first);
    match reply {
        Some(mv) => {
            let t = clocks_before_move(r, st, &c);
            let seq = send_move(r, &mv);
            r.wait_noted(seq, Owed::Move, t);
        }
        None => r.observe(format!("no reply to the engine's move {first}")),
    }
    r.send("easy");
    r.send("force");
}

pub(super) fn analyze(r: &mut Run, _: &mut State) {
    if !on(r, "analyze", true) {
        r.not_applicable("the engine declares analyze=0");
        return;
    }
    r.send("new");
    r.send("force");
    send_move(r, "e2e4");
    r.send("post");
    let seq = r.send("analyze");
    // A GUI shows the analysis for a while; a first thinking line is all the probe needs.
    r.wait_line(seq, Duration::from_millis(500), |l| {
        l.trim_start().starts_with(|c: char| c.is_ascii_digit())
    });
    let exit = r.send("exit");
    let t = r.timeouts.answer;
    if !ping(r, t) {
        r.pause(Duration::from_millis(200));
    }
    if let Some(l) = r
        .lines_after(exit)
        .into_iter()
        .find(|l| out_of_xboard_mode(l))
    {
        r.observe(format!(
            "note: after `exit` the engine left xboard mode (`{l}`): a prompt, a board or \
             `My move is` is for a human at a console, and later steps will suffer from it"
        ));
    }
}

/// A line of an engine's console mode: a prompt (`White (1) : `), a board diagram row, or
/// GNU Chess's `My move is : Nf3`.
fn out_of_xboard_mode(line: &str) -> bool {
    let l = line.trim();
    let prompt = (l.starts_with("White") || l.starts_with("Black"))
        && (l.ends_with(':') || l.ends_with('>'));
    let board_row = {
        let cells: Vec<&str> = l.split_whitespace().collect();
        cells.len() == 8
            && cells
                .iter()
                .all(|c| c.len() == 1 && "rnbqkpRNBQKP.-".contains(*c))
    };
    prompt || board_row || l.starts_with("My move is")
}

/// Plies the game step plays at most before it calls the game unfinished.
const GAME_PLIES: usize = 12;

pub(super) fn game(r: &mut Run, st: &mut State) {
    r.send("new");
    r.send("force");
    if set_position(r, st, MATE_IN_TWO_FEN, ChessVariant::Standard) == SetUp::Cannot {
        r.not_applicable(cannot_set_up(st));
        return;
    }
    let Ok(mut board) = ChessBoard::from_fen(MATE_IN_TWO_FEN, ChessVariant::Standard, false) else {
        return;
    };
    let c = st.style.search();
    set_clock(r, &c);
    let mut moves = Vec::new();
    for ply in 0..GAME_PLIES {
        if ply > 0 {
            // The engine plays the other side too: force, then go for the side on move.
            r.send("force");
        }
        let Some(mv) = go_on(r, st, &c) else {
            return;
        };
        if board.play_cecp(&mv).is_err() {
            r.observe(format!("the game stops: move {mv} cannot be played"));
            return;
        }
        moves.push(mv);
        if let Some(end) = board.outcome() {
            let result = match end.winner {
                Some(crate::game::Side::White) => "1-0",
                Some(crate::game::Side::Black) => "0-1",
                None => "1/2-1/2",
            };
            let why = format!("{:?}", end.reason).to_lowercase();
            r.send(&format!("result {result} {{{why}}}"));
            r.observe(format!(
                "the game ended after {} plies ({why}): {}",
                moves.len(),
                moves.join(" ")
            ));
            return;
        }
    }
    r.send("force");
    r.observe(format!(
        "the game was not over after {GAME_PLIES} plies: {}",
        moves.join(" ")
    ));
}

pub(super) fn hash(r: &mut Run, st: &mut State) {
    let Some(p) = st.style.profile.clone() else {
        return;
    };
    let Some(t) = p.hash_cmd_type else {
        r.not_applicable(format!(
            "the profile has no {}: the GUI sends no hash size",
            C2wKey::TypeOfCmdHash
        ));
        return;
    };
    let Some(lines) = hash_line(&p) else {
        r.not_applicable(format!(
            "{}: the hash size goes on the engine's command line or in its ini file, not on the wire",
            p.quote(C2wKey::TypeOfCmdHash, &t.code().to_string())
        ));
        return;
    };
    r.send("new");
    let sent: Vec<Option<u64>> = lines.iter().map(|l| r.send(l)).collect();
    let first = sent.first().copied().flatten();
    let t = r.timeouts.answer;
    if !ping(r, t) {
        r.pause(Duration::from_millis(500));
    }
    match r.lines_after(first).into_iter().find(|l| refusal(l)) {
        Some(l) => r.observe(format!("the engine answered `{l}`")),
        None => r.observe(format!("`{}` taken without complaint", lines.join("` + `"))),
    }
}

/// Has the engine made a move in this game yet, for the GUI to answer?
fn engine_moves_first(r: &mut Run, st: &State) -> Option<(Clock, String)> {
    r.send("new");
    let c = st.style.search();
    set_clock(r, &c);
    let mv = go_on(r, st, &c)?;
    Some((c, mv))
}

pub(super) fn hint(r: &mut Run, st: &mut State) {
    let Some(word) = st.style.profile.as_ref().and_then(|p| p.hint_cmd.clone()) else {
        r.not_applicable(format!(
            "the profile has no {}: the GUI sends no hint",
            C2wKey::CmdHint
        ));
        return;
    };
    // The engine plays White; on the GUI's (the user's) move, the user asks for a hint.
    if engine_moves_first(r, st).is_none() {
        return;
    }
    let seq = r.send(&word);
    let t = r.timeouts.answer;
    match r.wait_line(seq, t, |l| l.starts_with("Hint:") || refusal(l)) {
        Some((l, d)) => r.observe(format!("`{l}` after {}", ms(d))),
        None => r.observe(format!("no Hint: within {:.1} s", t.as_secs_f64())),
    }
    // The GUI's next command: a hint still unanswered is the judge's to see here.
    r.send("force");
}

pub(super) fn draw(r: &mut Run, st: &mut State) {
    let Some(word) = st.style.profile.as_ref().and_then(|p| p.draw_cmd.clone()) else {
        r.not_applicable(format!(
            "the profile has no {}: the GUI sends no draw offer",
            C2wKey::CmdDraw
        ));
        return;
    };
    let Some((c, first)) = engine_moves_first(r, st) else {
        return;
    };
    // The opponent offers a draw with its move, as xboard sends it: `draw`, then the move.
    let seq = r.send(&word);
    let reply = reply_to(&first);
    let Some(mv) = reply else {
        r.observe(format!("no reply to the engine's move {first}"));
        return;
    };
    let t = clocks_before_move(r, st, &c);
    let move_seq = send_move(r, &mv);
    r.wait_noted(move_seq, Owed::Move, t);
    let said = r.lines_after(seq);
    let answer = said.iter().find(|l| {
        refusal(l)
            || l.starts_with("offer draw")
            || l.to_ascii_lowercase().contains("decline")
            || l.to_ascii_lowercase().contains("accept")
    });
    match answer {
        Some(l) if l.starts_with("offer draw") => r.observe(format!("accepted the draw: `{l}`")),
        Some(l) => r.observe(format!("answered `{l}`")),
        None => r.observe("declined the draw silently (played on)"),
    }
    r.send("force");
}

pub(in crate::probe) fn quit(r: &mut Run, _: &mut State) {
    r.send("quit");
    r.quit_sent();
    let t = r.timeouts.quit;
    match r.wait_exit(t) {
        Some(d) => r.observe(format!("exited {} after quit", ms(d))),
        None => r.observe(format!("still running {:.1} s after quit", t.as_secs_f64())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_set_to_their_defaults() {
        let cases = [
            ("Hash -spin 64 1 1024", Some("option Hash=64")),
            ("Ponder -check 0", Some("option Ponder=0")),
            ("Book -string book.bin", Some("option Book=book.bin")),
            (
                "Style -combo Solid /// *Normal /// Risky",
                Some("option Style=Normal"),
            ),
            ("Clear Hash -button", Some("option Clear Hash")),
            ("Save Settings -save", None),
            ("Reset Learning -button", None),
        ];
        for (decl, want) in cases {
            assert_eq!(
                option_setting(decl).map(|(_, l)| l).as_deref(),
                want,
                "{decl}"
            );
        }
    }
}
