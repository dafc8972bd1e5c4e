//! `kibitzer c2w suggest -- ENGINE`: a WinBoard engine tried out for what a Chess Academy
//! `.c2w` profile must say of it (how it takes a position, `st`, its depth command, the `level`
//! forms and `time`, `?`, `hint`, `draw`), and the profile written with a comment above each
//! line saying what was observed.
//!
//! Every experiment is a step of the probe's runner: the run is recorded, the recording is
//! judged by the one judge, and what the engine did is read from the same live session model.
//! A clock is found first, so that the later experiments search briefly under a control the
//! engine is known to take.
//!
//! This file runs the suite and assembles the result (what was found, the report, the
//! engine's errors); the experiments themselves are in `steps.rs` (their order, the
//! handshake, `hint`, `draw`, `quit`), `clock.rs` and `position.rs`, and `render.rs` writes
//! the profile from what they found.

use super::cecp::{self, ClockFamily, PositionSetup, Style};
use super::run::{Run, StepRun, Timeouts};
use super::{ProbeError, verdict};
use crate::protocol::Protocol;
use crate::protocol::c2w::{C2wKey, Command, HashCmdType, ProfileWriter};
use crate::replay::driver::Driver;
use crate::rules::Finding;
use crate::rules::catalogue::RuleId;
use crate::session::Decoder;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use std::ffi::OsString;
use std::path::Path;

mod clock;
mod position;
mod render;
mod steps;
pub use render::{Location, render};
pub use steps::suite;

/// White mates with Ra8: an engine that really took the position plays a1a8; one that did
/// not plays from wherever it was, which is illegal here.
pub const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";

/// A finished `c2w suggest` run.
pub struct Suggested {
    pub found: Found,
    pub steps: Vec<StepRun>,
    /// Error-severity findings against the engine, anywhere in the run.
    pub engine_errors: Vec<Finding>,
    /// Warning-severity findings against the engine: the profile is written, and they are
    /// shown so a flaw is not hidden by the exit status.
    pub engine_warnings: Vec<Finding>,
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
    let (runs, starts) = run.finish();
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
    let (engine_errors, engine_warnings): (Vec<Finding>, Vec<Finding>) = judged
        .steps
        .into_iter()
        .zip(&runs)
        .filter(|(_, run)| run.id != "suggest.fen")
        .flat_map(|(s, _)| s.findings)
        .chain(judged.outside)
        .filter(|f| f.severity.counts_against() && f.side == crate::rules::Side::Engine)
        .partition(|f| f.severity.fails());
    Ok(Suggested {
        found: st.found,
        steps: runs,
        engine_errors,
        engine_warnings,
        exit: starts.last().and_then(|s| s.ended.exit.clone()),
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

/// The [`Note::key`] of what the handshake showed.
const PROTOCOL: &str = "protocol";

impl Found {
    fn note(&mut self, key: C2wKey, text: impl Into<String>) {
        self.notes.push(Note {
            key: key.as_str(),
            text: text.into(),
        });
    }

    /// An observation of the handshake (the protocol version), under no profile key.
    fn note_protocol(&mut self, text: impl Into<String>) {
        self.notes.push(Note {
            key: PROTOCOL,
            text: text.into(),
        });
    }

    /// What was observed for `key`.
    pub fn notes_of(&self, key: C2wKey) -> impl Iterator<Item = &str> {
        self.notes_under(key.as_str())
    }

    /// What was observed of the handshake.
    pub fn protocol_notes(&self) -> impl Iterator<Item = &str> {
        self.notes_under(PROTOCOL)
    }

    fn notes_under<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> {
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
    /// Warning-severity findings against the engine during the run (they leave the exit
    /// status at 0).
    #[serde(default)]
    pub engine_warnings: Vec<Finding>,
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
            fen_line: cecp::State::new(style(PositionSetup::FenCommand(position::fen(false)))),
            fen_lines: cecp::State::new(style(PositionSetup::FenCommand(position::fen(true)))),
        }
    }
}
