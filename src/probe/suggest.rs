//! `kibitzer c2w suggest -- ENGINE`: a WinBoard engine tried out for what a Chess Academy
//! `.c2w` profile must say of it (how it takes a position, `st`, its depth command, the `level`
//! forms and `time`, `?`, `hint`, `draw`), and the profile written with a comment above each
//! line saying what was observed.
//!
//! Every experiment is a step of the probe's runner: the run is recorded, the recording is
//! judged by the one judge, and what the engine did is read from the same live session model.
//! A clock is found first, so that the later experiments search briefly under a control the
//! engine is known to take.

use super::cecp::{self, ClockFamily, PositionSetup, SetUp, Style};
use super::run::{Run, Step, StepRun, Timeouts, ms};
use super::{ProbeError, verdict};
use crate::game::chess::{ChessBoard, ChessVariant};
use crate::protocol::Protocol;
use crate::protocol::c2w::Command;
use crate::replay::driver::Driver;
use crate::rules::catalogue::RuleId;
use crate::rules::{Finding, Severity};
use crate::session::Decoder;
use crate::session::{Handshake, Owed};
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use std::ffi::OsString;
use std::path::Path;
use std::time::{Duration, Instant};

mod render;
pub use render::{Location, render};

/// White mates with Ra8: an engine that really took the position plays a1a8; one that did
/// not plays from wherever it was, which is illegal here.
pub const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";

/// A finished `c2w suggest` run.
pub struct Suggested {
    pub found: Found,
    pub steps: Vec<StepRun>,
    /// Error-severity findings against the engine, anywhere in the run.
    pub engine_errors: Vec<Finding>,
    /// How the engine ended.
    pub exit: Option<String>,
}

/// Starts `engine` in `dir`, runs the experiments with the session recorded to `output`, and
/// judges the recording.
pub fn suggest(
    engine: &[OsString],
    dir: Option<&Path>,
    output: &Path,
    timeouts: Timeouts,
) -> Result<Suggested, ProbeError> {
    let mut header = crate::capture::proxy::session_header(engine);
    header.label = Some("kibitzer c2w suggest".to_owned());
    header.protocol = Some(Protocol::Cecp.name().to_owned());
    let decoder = Decoder::new(Some(Protocol::Cecp));
    let driver = Driver::spawn_with(engine, dir, Some(output), &header, decoder)
        .map_err(|e| ProbeError::Engine(e.to_string()))?;
    let mut run = Run::new(driver, timeouts);
    let mut st = State::default();
    // A protocol-1 engine may say nothing until it moves: only an engine that said nothing
    // to anything is no WinBoard engine (or one that hung at its start).
    run.suite(&suite(), &mut st);
    let silent = run.engine_lines() == 0;
    let (runs, ended) = run.finish();
    if silent {
        return Err(ProbeError::Engine(format!(
            "the engine said nothing to xboard, protover 2, st 1 and go: is it a WinBoard (xboard) engine? (recording: {})",
            output.display()
        )));
    }
    let profile = verdict::profile(&timeouts);
    let judged =
        verdict::judge(output, Protocol::Cecp, &profile, None, &runs).map_err(ProbeError::Other)?;
    let uci = judged
        .steps
        .iter()
        .flat_map(|s| &s.findings)
        .chain(&judged.outside)
        .any(|f| f.rule == RuleId::XProtocolMismatch);
    if uci {
        return Err(ProbeError::Engine(format!(
            "the engine answers in UCI, not xboard: Chess Academy's .c2w profiles are for WinBoard engines (try `kibitzer probe` on it; recording: {})",
            output.display()
        )));
    }
    // The judge knows no `fen` command: in that step its board is not the engine's, and
    // what it says of the engine's moves there is not the engine's fault.
    let engine_errors = judged
        .steps
        .into_iter()
        .zip(&runs)
        .filter(|(_, run)| run.id != "suggest.fen")
        .flat_map(|(s, _)| s.findings)
        .chain(judged.outside)
        .filter(|f| f.severity == Severity::Error && f.side == crate::rules::Side::Engine)
        .collect();
    Ok(Suggested {
        found: st.found,
        steps: runs,
        engine_errors,
        exit: ended.exit,
    })
}

/// Why each key of the profile is what it is: the key and what was seen, in the order seen.
/// `null` where the run could not tell.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Found {
    /// `feature myname`, split into name and version when its last word has a digit.
    pub name: Option<String>,
    /// The last word of `myname` when it has a digit.
    pub version: Option<String>,
    /// 1 when the engine sent no feature after `protover 2`.
    #[schemars(extend("enum" = [1, 2]))]
    pub protocol_version: u32,
    pub setboard: Option<bool>,
    pub edit: Option<bool>,
    /// ColChess's FEN command: `fen FEN`, or (`fen\\n`) `fen` and the elements a line each.
    pub fen_command: Option<Command>,
    pub st: Option<bool>,
    /// The engine's depth command (`sd`, or GNU Chess 6's `depth`).
    pub sd: Option<String>,
    pub level_minutes: Option<bool>,
    pub level_seconds: Option<bool>,
    pub level_base_inc: Option<bool>,
    pub time: Option<bool>,
    pub move_now: Option<bool>,
    pub hint: Option<bool>,
    pub draw: Option<bool>,
    /// What was observed, in the order seen.
    pub notes: Vec<Note>,
}

/// One observation, under the profile key it decides (`protocol` for the handshake).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Note {
    /// The profile key the observation decides, or `protocol`.
    #[serde(deserialize_with = "crate::serde_static::interned")]
    pub key: crate::serde_static::StaticStr,
    pub text: String,
}

impl Found {
    fn note(&mut self, key: &'static str, text: impl Into<String>) {
        self.notes.push(Note {
            key,
            text: text.into(),
        });
    }

    /// What was observed for `key`.
    pub fn notes_of(&self, key: &str) -> impl Iterator<Item = &str> {
        self.notes
            .iter()
            .filter(move |n| n.key == key)
            .map(|n| n.text.as_str())
    }
}

/// What the JSON report's `schema` field says: every report names itself `kibitzer-NAME/N`.
pub const SCHEMA: &str = "kibitzer-c2w-suggestion/2";

/// `c2w suggest --format json` (docs/c2w-suggestion.schema.json): the `.c2w` profile
/// suggested for a WinBoard engine and what was observed.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SuggestionReport {
    /// The report's name and version.
    #[serde(deserialize_with = "schema_tag")]
    #[schemars(extend("const" = SCHEMA))]
    pub schema: crate::serde_static::StaticStr,
    /// `kibitzer VERSION`.
    pub tool: String,
    /// The engine command as run (the executable resolved to an absolute path).
    pub engine: Vec<String>,
    /// The recording of the session.
    pub recording: String,
    /// Where the profile was written (`-o`), if anywhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// The profile's text, a `;` comment above each key.
    pub profile: String,
    pub found: Found,
    /// Error-severity findings against the engine during the run.
    pub engine_errors: Vec<Finding>,
    /// 0, or 1 when there are engine errors.
    #[schemars(extend("enum" = [0, 1]))]
    pub exit_status: i32,
}

fn schema_tag<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    crate::serde_static::tag(d, SCHEMA)
}

/// The experiments' state: what they found, and the probe's CECP state for setting up
/// positions by `setboard` or by `edit`.
pub struct State {
    pub found: Found,
    setboard: cecp::State,
    edit: cecp::State,
    fen_line: cecp::State,
    fen_lines: cecp::State,
}

impl Default for State {
    fn default() -> State {
        let style = |position| Style {
            position,
            clock: ClockFamily::Level,
            move_now: false,
            profile: None,
        };
        State {
            found: Found {
                protocol_version: 2,
                ..Found::default()
            },
            setboard: cecp::State::new(style(PositionSetup::Setboard)),
            edit: cecp::State::new(style(PositionSetup::Edit)),
            fen_line: cecp::State::new(style(PositionSetup::FenCommand(fen(false)))),
            fen_lines: cecp::State::new(style(PositionSetup::FenCommand(fen(true)))),
        }
    }
}

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
            run: st,
        },
        Step {
            id: "suggest.level",
            title: "level 40 1 0, level 40 0:30 0, level 0 1 0, each with time/otim, go",
            run: level,
        },
        Step {
            id: "suggest.move-now",
            title: "? during a long search: the move at once?",
            run: move_now,
        },
        Step {
            id: "suggest.setboard",
            title: "setboard (a mate in one), go: the move of that position?",
            run: setboard,
        },
        Step {
            id: "suggest.edit",
            title: "edit (the same mate in one), go: the move of that position?",
            run: edit,
        },
        Step {
            id: "suggest.fen",
            title: "fen FEN, else fen and the FEN a line per element (ColChess), go",
            run: fen_command,
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
            run: depth,
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
        st.found.note(
            "protocol",
            if refused {
                "`protover 2` refused: a protocol-1 engine".to_owned()
            } else {
                format!(
                    "no feature within {:.0} s of `protover 2`: a protocol-1 engine",
                    first.as_secs_f64()
                )
            },
        );
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
            st.found
                .note("protocol", "features, but no `feature done=1`");
            break;
        }
    }
    let myname = r
        .session()
        .and_then(|s| cecp::feature(s, "myname").map(str::to_owned));
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
            .note("EngineName", format!("feature myname=\"{n}\""));
    }
    let (memory, hash_options) = r
        .session()
        .map(|s| {
            let memory = cecp::feature(s, "memory") == Some("1");
            let options: Vec<String> = s
                .features
                .iter()
                .filter(|f| f.name == "option" && f.value.to_ascii_lowercase().contains("hash"))
                .map(|f| f.value.trim_matches('"').to_owned())
                .collect();
            (memory, options)
        })
        .unwrap_or_default();
    if memory {
        st.found.note(
            "EngineTypeOfCmdHash",
            "feature memory=1: xboard sets its hash with `memory MB`, a form the text has no code for",
        );
    }
    for o in hash_options {
        st.found
            .note("EngineTypeOfCmdHash", format!("feature option=\"{o}\""));
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
fn refused(r: &Run, mark: Option<u64>, word: &str) -> Option<String> {
    r.lines_after(mark).into_iter().find(|l| {
        cecp::refusal(l)
            && l.split_once(':')
                .is_some_and(|(_, rest)| rest.split_whitespace().next() == Some(word))
    })
}

/// Gives the engine a moment to answer what was just sent: a ping when it has them.
fn settle(r: &mut Run) {
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
fn go_and_move(r: &mut Run, within: Duration) -> Option<(String, Duration)> {
    let seq = r.send("go");
    let began = Instant::now();
    // An engine that never said a word is hung, not slow: no second wait for it.
    let came = r.wait(seq, Owed::Move, within).is_some()
        || (r.engine_lines() > 0 && r.wait(seq, Owed::Move, r.timeouts.search).is_some());
    let mv = move_after(r, seq)?;
    came.then(|| (mv, began.elapsed()))
}

/// What the later experiments search under: the first clock the engine took, and how long
/// a move may take under it.
fn quick_clock(st: &State) -> (Vec<String>, Duration) {
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

fn st(r: &mut Run, st: &mut State) {
    r.send("new");
    let mark = r.send("st 1");
    settle(r);
    if let Some(l) = refused(r, mark, "st") {
        st.found.st = Some(false);
        st.found
            .note("EngineCmdST", format!("`st 1` answered `{l}`"));
        return;
    }
    let within = Duration::from_secs(1) + r.timeouts.answer;
    match go_and_move(r, within) {
        Some((mv, d)) if d <= Duration::from_millis(1500) => {
            st.found.st = Some(true);
            st.found
                .note("EngineCmdST", format!("`st 1`: move {mv} after {}", ms(d)));
        }
        Some((mv, d)) => {
            st.found.st = Some(false);
            st.found.note(
                "EngineCmdST",
                format!(
                    "`st 1` taken, but move {mv} came after {}: the limit is not kept",
                    ms(d)
                ),
            );
        }
        None => {
            st.found.st = Some(false);
            st.found.note("EngineCmdST", "`st 1`: no move");
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

fn depth(r: &mut Run, st: &mut State) {
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
                .note("EngineCmdSD", format!("`{word} 2` answered `{l}`"));
            continue;
        }
        let within = r.timeouts.search;
        let Some((mv, d)) = go_and_move(r, within) else {
            st.found
                .note("EngineCmdSD", format!("`{word} 2`, go: no move"));
            continue;
        };
        match deepest(r, mark) {
            Some(n) if n > 2 => st.found.note(
                "EngineCmdSD",
                format!("`{word} 2` taken, but its thinking reached depth {n}: not a depth limit"),
            ),
            deepest => {
                st.found.sd = Some(word.to_owned());
                st.found.note(
                    "EngineCmdSD",
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

fn level(r: &mut Run, st: &mut State) {
    let send_time = !declared_off(r, "time");
    if !send_time {
        st.found.time = Some(false);
        st.found.note(
            "EngineTypeOfCmdLevel",
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
                        "EngineTypeOfCmdLevel",
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
                    .note("EngineTypeOfCmdLevel", format!("`{line}` answered `{l}`"));
                false
            }
            None => {
                // With `time 1000` the engine has 10 s for 40 moves; without it, the base.
                let within = Duration::from_secs(if send_time { 10 } else { budget });
                match go_and_move(r, within + r.timeouts.answer) {
                    Some((mv, d)) => {
                        st.found.note(
                            "EngineTypeOfCmdLevel",
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
                            .note("EngineTypeOfCmdLevel", format!("`{line}`: no move"));
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
    let (clock, within) = quick_clock(st);
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

/// The engine said `feature NAME=0`.
fn declared_off(r: &Run, name: &str) -> bool {
    r.session()
        .is_some_and(|s| cecp::feature(s, name) == Some("0"))
}

fn setboard(r: &mut Run, st: &mut State) {
    if declared_off(r, "setboard") {
        st.found.setboard = Some(false);
        st.found.note(
            "EngineInitPos",
            "the engine declares setboard=0: setboard not tried",
        );
        r.not_applicable("the engine declares setboard=0");
        return;
    }
    let t = try_position(r, st, "setboard");
    st.found.setboard = Some(matches!(t, Taken::Yes { .. }));
    st.found.note("EngineInitPos", describe(&t, "setboard"));
}

/// ColChess's command (`EngineCmdSB=fen\\n` in the text): tried when neither setboard nor
/// edit worked.
fn fen_command(r: &mut Run, st: &mut State) {
    if st.found.setboard == Some(true) || st.found.edit == Some(true) {
        r.not_applicable("setboard or edit works: Chess Academy needs one method");
        return;
    }
    for own_line in [false, true] {
        let how = if own_line { "fen\\n" } else { "fen" };
        let t = try_position(r, st, how);
        st.found.note("EngineInitPos", describe(&t, how));
        if matches!(t, Taken::Yes { .. }) {
            st.found.fen_command = Some(fen(own_line));
            return;
        }
    }
}

fn fen(own_line: bool) -> Command {
    Command {
        word: "fen".to_owned(),
        own_line,
    }
}

fn edit(r: &mut Run, st: &mut State) {
    if st.found.setboard == Some(true) {
        r.not_applicable("setboard works: Chess Academy needs one method");
        return;
    }
    let t = try_position(r, st, "edit");
    st.found.edit = Some(matches!(t, Taken::Yes { .. }));
    st.found.note("EngineInitPos", describe(&t, "edit"));
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

fn move_now(r: &mut Run, st: &mut State) {
    r.send("new");
    for l in long_clock(st) {
        r.send(&l);
    }
    let go = r.send("go");
    r.pause(Duration::from_millis(500));
    if !r.owes(&Owed::Move) {
        st.found.move_now = None;
        st.found.note(
            "EngineMoveNow",
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
                .note("EngineMoveNow", format!("`?`: it moved {} after", ms(d)));
        }
        (Some(l), Some(d)) => {
            st.found.move_now = Some(false);
            st.found.note(
                "EngineMoveNow",
                format!("`?` answered `{l}`; its move came {} later", ms(d)),
            );
        }
        (refusal, None) => {
            st.found.move_now = Some(false);
            st.found.note(
                "EngineMoveNow",
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

/// `new`, the quick clock, `go`: the engine (White) moves and it is the GUI's turn.
fn engine_moved(r: &mut Run, st: &State) -> Option<String> {
    r.send("new");
    let (clock, within) = quick_clock(st);
    for l in &clock {
        r.send(l);
    }
    go_and_move(r, within + r.timeouts.answer).map(|(mv, _)| mv)
}

fn hint(r: &mut Run, st: &mut State) {
    if engine_moved(r, st).is_none() {
        st.found
            .note("EngineCmdHint", "no move to ask a hint after");
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
    st.found.note("EngineCmdHint", text);
    r.send("force");
}

fn draw(r: &mut Run, st: &mut State) {
    if declared_off(r, "draw") {
        st.found.draw = Some(false);
        st.found.note(
            "EngineCmdDraw",
            "the engine declares draw=0: it does not take draw offers",
        );
        r.not_applicable("the engine declares draw=0");
        return;
    }
    let Some(first) = engine_moved(r, st) else {
        st.found
            .note("EngineCmdDraw", "no move to offer a draw after");
        return;
    };
    let reply = cecp::reply_to(&first);
    let mark = r.send("draw");
    let (_, within) = quick_clock(st);
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
    st.found.note("EngineCmdDraw", text);
    r.send("force");
}

fn quit(r: &mut Run, st: &mut State) {
    cecp::quit(r, &mut st.setboard);
}
