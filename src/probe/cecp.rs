//! The CECP (xboard/WinBoard) suite: what xboard sends, one step per kind of exchange.
//!
//! How positions are set up and which clock commands are used is a [`Style`], not fixed: a GUI
//! with its own habits (Chess Academy under a `.c2w` profile: `EngineCmdSB`, `EngineInitPos`,
//! `EngineCmdST`...) is the same suite with another style.

use super::positions::{
    CHESS960_FEN, CHESS960_MOVES, EN_PASSANT_FEN, EN_PASSANT_MOVE, LONG_GAME, MATE_IN_TWO_FEN,
};
use super::run::{Run, Step, ms};
use crate::game::chess::{ChessBoard, ChessVariant};
use crate::protocol::c2w::{Command, EngineProfile, InitPosition};
use crate::protocol::cecp as cecp_msg;
use crate::session::{Handshake, Mover, Owed, Session};
use std::time::{Duration, Instant};

mod style;
pub use style::{Clock, ClockFamily, PositionSetup, Style};
use style::{hash_line, profile_key};

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

/// The suite for a style: a `.c2w` profile's style adds its own commands (hint, draw, hash).
pub fn suite(style: &Style) -> Vec<Step<State>> {
    let mut steps = base_suite();
    if style.profile.is_some() {
        let quit = steps.pop();
        steps.extend([
            Step {
                id: "c2w.hash",
                title: "the profile's hash command, in its form, while idle",
                run: hash,
            },
            Step {
                id: "c2w.hint",
                title: "the profile's hint command after the engine's move -> Hint: MOVE",
                run: hint,
            },
            Step {
                id: "c2w.draw",
                title: "the profile's draw command (the opponent offers a draw), then a move",
                run: draw,
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
            run: handshake,
        },
        Step {
            id: "cecp.ping-idle",
            title: "ping while idle -> pong",
            run: ping_idle,
        },
        Step {
            id: "cecp.options",
            title: "one declared option of each type set (option NAME=VALUE)",
            run: options,
        },
        Step {
            id: "cecp.force-moves",
            title: "new, force, four moves (usermove or bare, per feature): no reply",
            run: force_moves,
        },
        Step {
            id: "cecp.go-clocks",
            title: "a search under each time control: sd, st, level + time/otim, incremental level",
            run: go_clocks,
        },
        Step {
            id: "cecp.ping-thinking",
            title: "ping while the engine thinks -> pong only after its move",
            run: ping_thinking,
        },
        Step {
            id: "cecp.move-now",
            title: "? while the engine thinks -> its move",
            run: move_now,
        },
        Step {
            id: "cecp.position-fen",
            title: "setboard (or edit) with castling rights and en passant, a move, go",
            run: position_fen,
        },
        Step {
            id: "cecp.position-moves",
            title: "new, force, 80 moves (both sides castled), go",
            run: position_moves,
        },
        Step {
            id: "cecp.chess960",
            title: "variant fischerandom, setboard, moves with O-O castling, go",
            run: chess960,
        },
        Step {
            id: "cecp.ponder",
            title: "hard (pondering on): a move, ping while it ponders, the GUI's reply, its move",
            run: ponder,
        },
        Step {
            id: "cecp.analyze",
            title: "post, analyze for a moment, exit",
            run: analyze,
        },
        Step {
            id: "cecp.game",
            title: "a game against itself from a position near mate, to its end, then result",
            run: game,
        },
        Step {
            id: "cecp.quit",
            title: "quit -> the engine exits",
            run: quit,
        },
    ]
}

pub(super) fn feature<'a>(s: &'a Session, name: &str) -> Option<&'a str> {
    s.feature(name).map(|f| f.value.trim_matches('"'))
}

/// A feature that is on: declared `=1`, or not declared and on by default in protocol 2.
pub(super) fn on(r: &Run, name: &str, default: bool) -> bool {
    r.session()
        .and_then(|s| feature(s, name).map(|v| v == "1"))
        .unwrap_or(default)
}

/// Answers every feature not answered yet, in order, as xboard does.
pub(super) fn ack_features(r: &mut Run, st: &mut State) {
    let names: Vec<(String, String)> = r
        .session()
        .map(|s| {
            s.features
                .iter()
                .skip(st.acked)
                .map(|f| (f.name.clone(), f.value.clone()))
                .collect()
        })
        .unwrap_or_default();
    for (name, _) in names {
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

fn handshake(r: &mut Run, st: &mut State) {
    r.send("xboard");
    let seq = r.send("protover 2");
    let began = Instant::now();
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
        if r.session().is_some_and(|s| feature(s, "done") == Some("0"))
            && deadline == r.timeouts.handshake
        {
            deadline += r.timeouts.handshake;
        }
        if !done || !r.usable() {
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

/// `ping N` and its `pong N`; false (and nothing sent) when the engine has no `ping=1`.
pub(super) fn ping(r: &mut Run, within: Duration) -> bool {
    if !on(r, "ping", false) {
        return false;
    }
    let n = r.next_ping();
    let seq = r.send(&format!("ping {n}"));
    r.wait_noted(seq, Owed::Pong(n.to_string()), within)
}

fn ping_idle(r: &mut Run, _: &mut State) {
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

fn options(r: &mut Run, st: &mut State) {
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
                .map(|f| f.value.trim_matches('"').to_owned())
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

/// A GUI move, as the engine asked for them (`usermove=1` or bare).
pub(super) fn send_move(r: &mut Run, mv: &str) -> Option<u64> {
    if on(r, "usermove", false) {
        r.send(&format!("usermove {mv}"))
    } else {
        r.send(mv)
    }
}

fn force_moves(r: &mut Run, _: &mut State) {
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

/// `go` and the engine's move, waited for up to `within`; the move's text.
pub(super) fn go(r: &mut Run, within: Duration) -> Option<String> {
    let seq = r.send("go");
    if r.wait_noted(seq, Owed::Move, within) {
        engine_move(r)
    } else {
        None
    }
}

/// The engine's last move in the current game.
pub(super) fn engine_move(r: &Run) -> Option<String> {
    r.session()?
        .games
        .last()?
        .plies
        .iter()
        .rev()
        .find(|p| p.by == Mover::Engine)
        .map(|p| p.text.clone())
}

/// Sets the clock for a new game.
fn set_clock(r: &mut Run, c: &Clock) {
    r.send(&c.setup());
}

/// The clocks before a move, as the style sends them; how long the move may take.
fn clocks_before_move(r: &mut Run, st: &State, c: &Clock) -> Duration {
    let time = st.style.sends_time(r);
    for line in c.before_move(time) {
        r.send(&line);
    }
    c.allowed(&r.timeouts, time)
}

/// The clocks before a move, then `go` and the engine's move.
fn go_on(r: &mut Run, st: &State, c: &Clock) -> Option<String> {
    let t = clocks_before_move(r, st, c);
    go(r, t)
}

fn go_clocks(r: &mut Run, st: &mut State) {
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

fn ping_thinking(r: &mut Run, st: &mut State) {
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

fn move_now(r: &mut Run, st: &mut State) {
    if !st.style.move_now {
        r.not_applicable(match &st.style.profile {
            Some(p) => format!(
                "the GUI sends no ? (move now): {}",
                match p.move_now {
                    Some(false) => profile_key(p, "EngineMoveNow", "0"),
                    _ => "the profile has no EngineMoveNow".to_owned(),
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
        r.observe("the engine had moved before ? was sent");
        return;
    }
    let began = Instant::now();
    r.send("?");
    if r.wait(seq, Owed::Move, t).is_some() {
        r.observe(format!("move {} after ?", ms(began.elapsed())));
    }
}

/// How a position was set up.
#[derive(PartialEq, Eq)]
pub(super) enum SetUp {
    /// `setboard`: all of the FEN.
    Exactly,
    /// `edit`: the pieces, White to move, no en passant.
    PiecesOnly,
    /// `edit` cannot say this position (Black to move).
    Cannot,
}

/// Sets up `fen` the way the style says.
pub(super) fn set_position(r: &mut Run, st: &State, fen: &str, variant: ChessVariant) -> SetUp {
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

fn position_fen(r: &mut Run, st: &mut State) {
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

/// Why the style cannot set up a position.
fn cannot_set_up(st: &State) -> String {
    match (&st.style.position, &st.style.profile) {
        (PositionSetup::Never, Some(p)) => match p.init_position {
            Some(_) => format!(
                "the GUI sets up no position: {}",
                profile_key(p, "EngineInitPos", "0")
            ),
            None => "the GUI sets up no position: the profile has no EngineInitPos".to_owned(),
        },
        _ => "edit cannot set up this position (Black to move)".to_owned(),
    }
}

fn position_moves(r: &mut Run, st: &mut State) {
    r.send("new");
    r.send("force");
    for mv in LONG_GAME.split_whitespace() {
        send_move(r, mv);
    }
    let c = st.style.search();
    set_clock(r, &c);
    go_on(r, st, &c);
}

fn chess960(r: &mut Run, st: &mut State) {
    let variants = r
        .session()
        .and_then(|s| feature(s, "variants").map(str::to_owned))
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

fn ponder(r: &mut Run, st: &mut State) {
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

fn analyze(r: &mut Run, _: &mut State) {
    if !on(r, "analyze", true) {
        r.not_applicable("the engine declares analyze=0");
        return;
    }
    r.send("new");
    r.send("force");
    send_move(r, "e2e4");
    r.send("post");
    r.send("analyze");
    r.pause(Duration::from_millis(500));
    r.send("exit");
    let t = r.timeouts.answer;
    ping(r, t);
}

/// Plies the game step plays at most before it calls the game unfinished.
const GAME_PLIES: usize = 12;

fn game(r: &mut Run, st: &mut State) {
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

/// The GUI's answer to the engine's first move from the start position: the first legal
/// reply in UCI order.
pub(super) fn reply_to(first: &str) -> Option<String> {
    let mut b = ChessBoard::startpos(ChessVariant::Standard).ok()?;
    b.play_cecp(first).ok()?;
    b.legal_moves_uci().into_iter().min()
}

/// An engine line refusing a command: `Error (...): CMD`, `Illegal move: CMD`.
pub(super) fn refusal(line: &str) -> bool {
    let l = line.trim_start().to_ascii_lowercase();
    l.starts_with("error") || l.starts_with("illegal move") || l.starts_with("invalid move")
}

fn hash(r: &mut Run, st: &mut State) {
    let Some(p) = st.style.profile.clone() else {
        return;
    };
    let Some(t) = p.hash_cmd_type else {
        r.not_applicable("the profile has no EngineTypeOfCmdHash: the GUI sends no hash size");
        return;
    };
    let Some(lines) = hash_line(&p) else {
        r.not_applicable(format!(
            "{}: the hash size goes on the engine's command line or in its ini file, not on the wire",
            profile_key(&p, "EngineTypeOfCmdHash", &t.code().to_string())
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

fn hint(r: &mut Run, st: &mut State) {
    let Some(word) = st.style.profile.as_ref().and_then(|p| p.hint_cmd.clone()) else {
        r.not_applicable("the profile has no EngineCmdHint: the GUI sends no hint");
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

fn draw(r: &mut Run, st: &mut State) {
    let Some(word) = st.style.profile.as_ref().and_then(|p| p.draw_cmd.clone()) else {
        r.not_applicable("the profile has no EngineCmdDraw: the GUI sends no draw offer");
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

pub(super) fn quit(r: &mut Run, _: &mut State) {
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
