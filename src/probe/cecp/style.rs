//! A GUI's habits in the CECP suite: how it sets positions up, which clock commands it
//! uses, whether it sends `?`; xboard's by default, or a `.c2w` profile's (Chess Academy).

use super::*;

/// How a GUI sets up a position.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum PositionSetup {
    /// `setboard FEN` when the engine declares `setboard=1`, else `edit` (what xboard does).
    #[default]
    Auto,
    /// Always `setboard FEN`.
    Setboard,
    /// Always `edit` ... `.`.
    Edit,
    /// A FEN command of the GUI's own (a `.c2w` profile's `EngineCmdSB`): `WORD FEN`, or with
    /// `\n` the word alone and then the FEN's elements one a line.
    FenCommand(Command),
    /// The GUI sets up no position (`EngineInitPos=0`).
    Never,
}

/// A time control the GUI sets before `go`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Clock {
    /// `sd DEPTH` alone (or the profile's word for it).
    Depth { word: String, depth: u32 },
    /// `st SECONDS` (or the profile's word for it).
    SecondsPerMove { word: String, seconds: u32 },
    /// `level MOVES BASE INC`, then `time` and `otim` (centiseconds) before `go` when the
    /// GUI sends them. `base_s`: the base in seconds, the engine's whole clock without `time`.
    Level {
        moves: u32,
        base: String,
        base_s: u32,
        inc: u32,
        time_cs: u32,
    },
}

impl Clock {
    pub(super) fn depth(word: &str, depth: u32) -> Clock {
        Clock::Depth {
            word: word.to_owned(),
            depth,
        }
    }

    pub(super) fn per_move(word: &str, seconds: u32) -> Clock {
        Clock::SecondsPerMove {
            word: word.to_owned(),
            seconds,
        }
    }

    /// What the GUI sends once per game: `sd`, `st` or `level`.
    pub(super) fn setup(&self) -> String {
        match self {
            Clock::Depth { word, depth } => format!("{word} {depth}"),
            Clock::SecondsPerMove { word, seconds } => format!("{word} {seconds}"),
            Clock::Level {
                moves, base, inc, ..
            } => format!("level {moves} {base} {inc}"),
        }
    }

    /// What the GUI sends before every `go` and every move the engine answers: the clocks,
    /// when it sends them at all.
    pub(super) fn before_move(&self, send_time: bool) -> Vec<String> {
        match self {
            Clock::Level { time_cs, .. } if send_time => {
                vec![format!("time {time_cs}"), format!("otim {time_cs}")]
            }
            _ => Vec::new(),
        }
    }

    /// How long the move may take at most, as far as this clock says.
    pub(super) fn allowed(&self, t: &crate::probe::run::Timeouts, send_time: bool) -> Duration {
        match self {
            Clock::Depth { .. } => t.search,
            Clock::SecondsPerMove { seconds, .. } => {
                Duration::from_secs(u64::from(*seconds)) + t.answer
            }
            Clock::Level { time_cs, .. } if send_time => {
                Duration::from_millis(u64::from(*time_cs) * 10) + t.answer
            }
            Clock::Level { base_s, .. } => Duration::from_secs(u64::from(*base_s)) + t.answer,
        }
    }

    pub(super) fn describe(&self, send_time: bool) -> String {
        let mut v = vec![self.setup()];
        v.extend(self.before_move(send_time));
        format!("`{}`", v.join("`, `"))
    }
}

/// Which of CECP's two exclusive time controls the GUI uses in a session (`sd` goes with
/// either): `--cecp-clock`.
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
    /// Chess Academy under this `.c2w` profile: its commands and forms wherever the profile
    /// has a key (`None`: xboard's habits).
    pub profile: Option<EngineProfile>,
}

impl Default for Style {
    /// xboard's habits: `setboard` when declared (else `edit`), `level`, `?` sent.
    fn default() -> Style {
        Style {
            position: PositionSetup::Auto,
            clock: ClockFamily::Level,
            move_now: true,
            profile: None,
        }
    }
}

impl Style {
    /// Chess Academy's way under `p`: positions per `EngineInitPos`/`EngineCmdSB`, `?` only
    /// with `EngineMoveNow=1`, `level` in the form of `EngineTypeOfCmdLevel` (with `time` only
    /// when it has 4), `st`/`sd` with the profile's words and only when declared.
    pub fn from_profile(p: &EngineProfile) -> Style {
        let position = match (p.init_position, &p.fen_command) {
            (Some(InitPosition::FenCommand), Some(c)) => PositionSetup::FenCommand(c.clone()),
            (Some(InitPosition::Edit), _) => PositionSetup::Edit,
            _ => PositionSetup::Never,
        };
        Style {
            position,
            clock: ClockFamily::Level,
            move_now: p.move_now == Some(true),
            profile: Some(p.clone()),
        }
    }

    /// What the style does, a line per choice: the report card's account of how a profile
    /// drove the engine.
    pub fn describe(&self) -> Vec<String> {
        let Some(p) = &self.profile else {
            return Vec::new();
        };
        let mut v = Vec::new();
        v.push(match &self.position {
            PositionSetup::FenCommand(c) if c.own_line => format!(
                "positions: `{}` alone, then the FEN one element a line ({})",
                c.word,
                p.quote(C2wKey::CmdSB, &c.to_string())
            ),
            PositionSetup::FenCommand(c) => format!(
                "positions: `{} FEN` ({})",
                c.word,
                p.quote(C2wKey::CmdSB, &c.to_string())
            ),
            PositionSetup::Edit => format!(
                "positions: edit ({} without {})",
                p.quote(C2wKey::InitPos, "1"),
                C2wKey::CmdSB
            ),
            _ => match p.init_position {
                Some(_) => format!("positions: none set up ({})", p.quote(C2wKey::InitPos, "0")),
                None => format!("positions: none set up (no {})", C2wKey::InitPos),
            },
        });
        v.push(match p.level_type {
            Some(f) => format!(
                "level: {} ({}); time/otim {}",
                self.level(40, 60, 0, 0).setup(),
                p.quote(C2wKey::TypeOfCmdLevel, &f.raw.to_string()),
                if f.time_command {
                    "sent (4)"
                } else {
                    "not sent (no 4)"
                }
            ),
            None => format!(
                "level: xboard's forms (no {}); time/otim unless the engine says time=0",
                C2wKey::TypeOfCmdLevel
            ),
        });
        for (key, cmd, what) in [
            (C2wKey::CmdST, &p.st_cmd, "seconds per move"),
            (C2wKey::CmdSD, &p.sd_cmd, "search depth"),
            (C2wKey::CmdHint, &p.hint_cmd, "hint"),
            (C2wKey::CmdDraw, &p.draw_cmd, "draw"),
        ] {
            v.push(match cmd {
                Some(w) => format!("{what}: `{w}` ({})", p.quote(key, w)),
                None => format!("{what}: never sent (no {key})"),
            });
        }
        v.push(match p.move_now {
            Some(true) => format!("move now: `?` ({})", p.quote(C2wKey::MoveNow, "1")),
            Some(false) => format!("move now: never sent ({})", p.quote(C2wKey::MoveNow, "0")),
            None => format!("move now: never sent (no {})", C2wKey::MoveNow),
        });
        v.push(match (p.hash_cmd_type, hash_line(p)) {
            (Some(t), Some(lines)) => format!(
                "hash: `{}` ({})",
                lines.join("` + `"),
                p.quote(C2wKey::TypeOfCmdHash, &t.code().to_string())
            ),
            (Some(t), None) => format!(
                "hash: not on the wire ({}: on the command line or in an ini file)",
                p.quote(C2wKey::TypeOfCmdHash, &t.code().to_string())
            ),
            (None, _) => format!("hash: never sent (no {})", C2wKey::TypeOfCmdHash),
        });
        v
    }

    /// A `level` of `moves` moves in `base_s` seconds (increment `inc`), in the GUI's form,
    /// with `time_cs` on the engine's clock.
    pub(super) fn level(&self, moves: u32, base_s: u32, inc: u32, time_cs: u32) -> Clock {
        let minutes = base_s.div_ceil(60).max(1);
        let flags = self.profile.as_ref().and_then(|p| p.level_type);
        let (moves, base, base_s) = match flags {
            // "level 0 time 0" only: the base in minutes, no moves per session.
            Some(f) if f.base_inc_only => (0, minutes.to_string(), minutes * 60),
            Some(f) if f.level_seconds => {
                (moves, format!("{}:{:02}", base_s / 60, base_s % 60), base_s)
            }
            Some(_) => (moves, minutes.to_string(), minutes * 60),
            None if base_s.is_multiple_of(60) => (moves, (base_s / 60).to_string(), base_s),
            None => (moves, format!("{}:{:02}", base_s / 60, base_s % 60), base_s),
        };
        let inc = if flags.is_some_and(|f| f.base_inc_only) {
            0
        } else {
            inc
        };
        Clock::Level {
            moves,
            base,
            base_s,
            inc,
            time_cs,
        }
    }

    /// Whether `time`/`otim` go before moves: the profile's 4 when it has
    /// `EngineTypeOfCmdLevel`, else unless the engine said `time=0`.
    pub(super) fn sends_time(&self, r: &Run) -> bool {
        match self.profile.as_ref().and_then(|p| p.level_type) {
            Some(f) => f.time_command,
            None => on(r, "time", true),
        }
    }

    /// The clock of the searches that are not about clocks (positions, the game, pondering).
    pub(super) fn search(&self) -> Clock {
        match self.clock {
            ClockFamily::St if self.profile.is_none() => Clock::per_move("st", 1),
            _ => self.level(40, 10, 0, 1000),
        }
    }

    /// A search long enough for a command to arrive while it runs (about 1.5 s).
    pub(super) fn long(&self) -> Clock {
        match self.clock {
            ClockFamily::St if self.profile.is_none() => Clock::per_move("st", 2),
            // xboard's: five minutes, a minute left.
            _ if self.profile.is_none() => self.level(40, 300, 0, 6000),
            _ => self.level(40, 60, 0, 6000),
        }
    }

    /// The depth limit the GUI sets (`sd 3`, or the profile's word), when it sets one. Not
    /// among [`Style::forms`]: an engine that keeps it past `new` (Fairy-Max does) would make
    /// every later search a depth-3 one, so it has a step of its own near the suite's end.
    pub(super) fn depth_limit(&self) -> Option<Clock> {
        match &self.profile {
            None => Some(Clock::depth("sd", DEPTH)),
            Some(p) => p.sd_cmd.as_ref().map(|w| Clock::depth(w, DEPTH)),
        }
    }

    /// The time-control forms the clock step tries, one search each (after `new`).
    pub(super) fn forms(&self) -> Vec<Clock> {
        let Some(p) = &self.profile else {
            let mut v = Vec::new();
            match self.clock {
                ClockFamily::Level => {
                    v.push(self.level(40, 30, 0, 3000));
                    v.push(self.level(0, 60, 1, 500));
                }
                ClockFamily::St => v.push(Clock::per_move("st", 1)),
            }
            return v;
        };
        let mut v = Vec::new();
        if let Some(w) = &p.st_cmd {
            v.push(Clock::per_move(w, 1));
        }
        match p.level_type {
            None => {
                v.push(self.level(40, 30, 0, 3000));
                v.push(self.level(0, 60, 1, 500));
            }
            Some(f) => {
                if f.base_inc_only {
                    v.push(self.level(0, 60, 0, 3000));
                }
                if f.level_seconds {
                    v.push(self.level(40, 30, 0, 3000));
                }
                if f.level_minutes || (!f.level_seconds && !f.base_inc_only) {
                    v.push(Clock::Level {
                        moves: 40,
                        base: "1".to_owned(),
                        base_s: 60,
                        inc: 0,
                        time_cs: 3000,
                    });
                }
            }
        }
        v
    }
}

/// The depth of the GUI's depth limit: shallow enough that any search on a clock goes deeper.
pub(super) const DEPTH: u32 = 3;

/// The lines of the profile's hash command for 16 MB, when it goes on the wire.
pub(super) fn hash_line(p: &EngineProfile) -> Option<Vec<String>> {
    let size = p.hash_cmd_type?.size_of_16_mb()?;
    let word = p.hash_cmd.as_ref().map_or("hash", |c| c.word.as_str());
    Some(match &p.hash_cmd {
        Some(c) if c.own_line => vec![word.to_owned(), size.to_owned()],
        _ => vec![format!("{word} {size}")],
    })
}
