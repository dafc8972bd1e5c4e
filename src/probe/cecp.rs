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
use crate::session::{Handshake, Mover, Owed, Session};
use std::time::{Duration, Instant};

/// How a GUI sets up a position.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PositionSetup {
    /// `setboard FEN` when the engine declares `setboard=1`, else `edit` (what xboard does).
    #[default]
    Auto,
    /// Always `setboard FEN`.
    Setboard,
    /// Always `edit` ... `.`.
    Edit,
}

/// A time control the GUI sets before `go`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Clock {
    /// `sd DEPTH` alone.
    Depth(u32),
    /// `st SECONDS`.
    SecondsPerMove(u32),
    /// `level MOVES BASE INC`, then `time` and `otim` (centiseconds) before `go`.
    Level {
        moves: u32,
        base: String,
        inc: u32,
        time_cs: u32,
    },
}

impl Clock {
    /// What the GUI sends once per game: `sd`, `st` or `level`.
    fn setup(&self) -> String {
        match self {
            Clock::Depth(d) => format!("sd {d}"),
            Clock::SecondsPerMove(s) => format!("st {s}"),
            Clock::Level {
                moves, base, inc, ..
            } => format!("level {moves} {base} {inc}"),
        }
    }

    /// What the GUI sends before every `go` and every move the engine answers: the clocks,
    /// only to an engine that did not refuse them (`time=0`).
    fn before_move(&self, time_feature: bool) -> Vec<String> {
        match self {
            Clock::Level { time_cs, .. } if time_feature => {
                vec![format!("time {time_cs}"), format!("otim {time_cs}")]
            }
            _ => Vec::new(),
        }
    }

    /// How long the move may take at most, as far as this clock says.
    fn allowed(&self, t: &super::run::Timeouts) -> Duration {
        match self {
            Clock::Depth(_) => t.search,
            Clock::SecondsPerMove(s) => Duration::from_secs(u64::from(*s)) + t.answer,
            Clock::Level { time_cs, .. } => {
                Duration::from_millis(u64::from(*time_cs) * 10) + t.answer
            }
        }
    }

    fn describe(&self) -> String {
        let mut v = vec![self.setup()];
        v.extend(self.before_move(true));
        format!("`{}`", v.join("`, `"))
    }
}

/// Which of CECP's two exclusive time controls the GUI uses in a session (`sd` goes with
/// either). The judge holds a session that mixes them to CECP-TC-SEMANTICS, so a probe run
/// tries one family: `--cecp-clock`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ClockFamily {
    /// `level MPS BASE INC` with `time`/`otim` before each move: what xboard does by default.
    #[default]
    Level,
    /// `st SECONDS`: a fixed time per move.
    St,
}

/// How the GUI drives the engine.
#[derive(Debug, Clone)]
pub struct Style {
    pub position: PositionSetup,
    pub clock: ClockFamily,
    /// Send `?` (move now) during a search.
    pub move_now: bool,
}

impl Default for Style {
    /// xboard's habits: `setboard` when declared (else `edit`), `level`, `?` sent.
    fn default() -> Style {
        Style {
            position: PositionSetup::Auto,
            clock: ClockFamily::Level,
            move_now: true,
        }
    }
}

impl Style {
    /// The clock of the searches that are not about clocks (positions, the game, pondering).
    fn search(&self) -> Clock {
        match self.clock {
            ClockFamily::Level => Clock::Level {
                moves: 40,
                base: "0:10".to_owned(),
                inc: 0,
                time_cs: 1000,
            },
            ClockFamily::St => Clock::SecondsPerMove(1),
        }
    }

    /// A search long enough for a command to arrive while it runs (about 1.5 s).
    fn long(&self) -> Clock {
        match self.clock {
            ClockFamily::Level => Clock::Level {
                moves: 40,
                base: "5".to_owned(),
                inc: 0,
                time_cs: 6000,
            },
            ClockFamily::St => Clock::SecondsPerMove(2),
        }
    }

    /// The time-control forms the clock step tries, one search each.
    fn forms(&self) -> Vec<Clock> {
        let mut v = vec![Clock::Depth(3)];
        match self.clock {
            ClockFamily::Level => {
                v.push(Clock::Level {
                    moves: 40,
                    base: "0:30".to_owned(),
                    inc: 0,
                    time_cs: 3000,
                });
                v.push(Clock::Level {
                    moves: 0,
                    base: "1".to_owned(),
                    inc: 1,
                    time_cs: 500,
                });
            }
            ClockFamily::St => v.push(Clock::SecondsPerMove(1)),
        }
        v
    }
}

/// Features a GUI knows (protocol version 2); anything else is rejected. `san=1` is rejected
/// too, so the engine must send coordinate moves: whether it honours a rejection shows.
const KNOWN: [&str; 25] = [
    "ping",
    "setboard",
    "playother",
    "usermove",
    "time",
    "draw",
    "sigint",
    "sigterm",
    "reuse",
    "analyze",
    "myname",
    "variants",
    "colors",
    "ics",
    "name",
    "pause",
    "nps",
    "debug",
    "memory",
    "smp",
    "egt",
    "option",
    "exclude",
    "setscore",
    "highlight",
];

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

pub fn suite() -> Vec<Step<State>> {
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

fn feature<'a>(s: &'a Session, name: &str) -> Option<&'a str> {
    s.feature(name).map(|f| f.value.trim_matches('"'))
}

/// A feature that is on: declared `=1`, or not declared and on by default in protocol 2.
fn on(r: &Run, name: &str, default: bool) -> bool {
    r.session()
        .and_then(|s| feature(s, name).map(|v| v == "1"))
        .unwrap_or(default)
}

/// Answers every feature not answered yet, in order, as xboard does.
fn ack_features(r: &mut Run, st: &mut State) {
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
        let verb = if KNOWN.contains(&name.as_str()) {
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
            matches!(s.handshake, Handshake::Done(_)) || s.features.len() > seen
        });
        ack_features(r, st);
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
fn ping(r: &mut Run, within: Duration) -> bool {
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

fn options(r: &mut Run, _: &mut State) {
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
fn send_move(r: &mut Run, mv: &str) -> Option<u64> {
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
fn go(r: &mut Run, within: Duration) -> Option<String> {
    let seq = r.send("go");
    if r.wait_noted(seq, Owed::Move, within) {
        engine_move(r)
    } else {
        None
    }
}

/// The engine's last move in the current game.
fn engine_move(r: &Run) -> Option<String> {
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

/// The clocks before a move, then `go` and the engine's move.
fn go_on(r: &mut Run, c: &Clock) -> Option<String> {
    let time = on(r, "time", true);
    for line in c.before_move(time) {
        r.send(&line);
    }
    let t = c.allowed(&r.timeouts);
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
        r.observe(format!("under {}:", c.describe()));
        go_on(r, &c);
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
    let time = on(r, "time", true);
    for line in c.before_move(time) {
        r.send(&line);
    }
    // At once: the engine is thinking for sure (an engine that answers before the move
    // answers at once too).
    let go_seq = r.send("go");
    let n = r.next_ping();
    let seq = r.send(&format!("ping {n}"));
    let t = c.allowed(&r.timeouts);
    r.wait_noted(go_seq, Owed::Move, t);
    r.wait_noted(seq, Owed::Pong(n.to_string()), t);
}

fn move_now(r: &mut Run, st: &mut State) {
    if !st.style.move_now {
        r.not_applicable("the GUI style sends no ? (move now)");
        return;
    }
    r.send("new");
    let c = st.style.long();
    set_clock(r, &c);
    let time = on(r, "time", true);
    for line in c.before_move(time) {
        r.send(&line);
    }
    let seq = r.send("go");
    r.pause(Duration::from_millis(300));
    if !r.owes(&Owed::Move) {
        r.observe("the engine had moved before ? was sent");
        return;
    }
    let began = Instant::now();
    r.send("?");
    let t = c.allowed(&r.timeouts);
    if r.wait(seq, Owed::Move, t).is_some() {
        r.observe(format!("move {} after ?", ms(began.elapsed())));
    }
}

/// How a position was set up.
#[derive(PartialEq, Eq)]
enum SetUp {
    /// `setboard`: all of the FEN.
    Exactly,
    /// `edit`: the pieces, White to move, no en passant.
    PiecesOnly,
    /// `edit` cannot say this position (Black to move).
    Cannot,
}

/// Sets up `fen` the way the style says.
fn set_position(r: &mut Run, st: &State, fen: &str, variant: ChessVariant) -> SetUp {
    let setboard = match st.style.position {
        PositionSetup::Setboard => true,
        PositionSetup::Edit => false,
        PositionSetup::Auto => on(r, "setboard", false),
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
            r.not_applicable("edit cannot set up this position");
            return;
        }
    }
    let c = st.style.search();
    set_clock(r, &c);
    go_on(r, &c);
}

fn position_moves(r: &mut Run, st: &mut State) {
    r.send("new");
    r.send("force");
    for mv in LONG_GAME.split_whitespace() {
        send_move(r, mv);
    }
    let c = st.style.search();
    set_clock(r, &c);
    go_on(r, &c);
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
    let setboard = match st.style.position {
        PositionSetup::Setboard => true,
        PositionSetup::Edit => false,
        PositionSetup::Auto => on(r, "setboard", false),
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
    go_on(r, &c);
}

fn ponder(r: &mut Run, st: &mut State) {
    r.send("new");
    r.send("hard");
    let c = st.style.search();
    set_clock(r, &c);
    let t = c.allowed(&r.timeouts);
    let Some(first) = go_on(r, &c) else {
        r.send("easy");
        return;
    };
    // It ponders now, on the GUI's time.
    r.pause(Duration::from_millis(300));
    let a = r.timeouts.answer;
    ping(r, a);
    let reply = ChessBoard::startpos(ChessVariant::Standard)
        .ok()
        .and_then(|mut b| {
            b.play_cecp(&first).ok()?;
            b.legal_moves_uci().into_iter().min()
        });
    match reply {
        Some(mv) => {
            let time = on(r, "time", true);
            for line in c.before_move(time) {
                r.send(&line);
            }
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
        r.not_applicable("edit cannot set up this position");
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
        let Some(mv) = go_on(r, &c) else {
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

fn quit(r: &mut Run, _: &mut State) {
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
