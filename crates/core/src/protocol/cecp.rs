//! CECP (xboard/WinBoard protocol v1 and v2): section 8 (GUI to engine) and section 9 (engine
//! to GUI) including the legacy idioms xboard still recognises.
//!
//! One enum serves both directions; the direction only picks the vocabulary. A bare token that
//! looks like a move (coordinate, promotion, drop, castling, SAN, multi-leg, null) is a move, since
//! whether the GUI meant a move or an unknown command depends on context only the session has.

use std::fmt;
use std::sync::LazyLock;

use regex::Regex;

use super::{Diagnostic, Dir, word_text};

pub use super::cecp_engine::{
    Feature, FeatureSetting, FeatureValue, OptionDef, OptionKind, Stat01, Thinking,
};

/// The features protocol version 2 defines (the `feature` command's list).
pub const FEATURES: [&str; 26] = [
    "ping",
    "setboard",
    "playother",
    "san",
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

/// CECP features whose values are booleans, written 0 or 1: every protocol-2 feature but
/// the four that take a string.
pub fn boolean_feature(name: &str) -> bool {
    FEATURES.contains(&name) && !matches!(name, "myname" | "variants" | "egt" | "option")
}

/// A CECP message.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    // ---- GUI -> engine (section 8)
    Xboard,
    Protover(u32),
    /// `accepted FEATURE` / `rejected FEATURE` (the rest of the line, e.g. `option nonsense`).
    Accepted(String),
    Rejected(String),
    New,
    Variant(String),
    Quit,
    Random,
    Force,
    Go,
    PlayOther,
    White,
    Black,
    Level(Level),
    /// `st SECONDS`.
    St(u64),
    Sd(u32),
    Nps(u64),
    /// `time N`, centiseconds (signed: clocks go negative).
    Time(i64),
    /// `otim N`, centiseconds.
    Otim(i64),
    UserMove(String),
    /// A bare move line (see [`looks_like_move`]); in edit mode `Pa4` is a placement, see
    /// [`edit_placement`].
    Move(String),
    /// `?`: move now.
    MoveNow,
    Ping(i64),
    Draw,
    Result {
        result: GameResult,
        comment: Option<String>,
    },
    SetBoard(String),
    Edit,
    /// Edit mode `c`: change the colour of the pieces placed.
    EditColor,
    /// Edit mode `#`: clear the board.
    EditClear,
    /// Edit mode `xa4`: empty a square (the square is kept).
    EditEmpty(String),
    /// `.`: leaves edit mode, or asks for a `stat01` line in analyze mode.
    Dot,
    Hint,
    Bk,
    Undo,
    Remove,
    Hard,
    Easy,
    Post,
    NoPost,
    Analyze,
    Exit,
    Name(String),
    Rating {
        own: i32,
        opponent: i32,
    },
    Ics(String),
    Computer,
    Pause,
    Resume,
    Memory(u64),
    Cores(u32),
    EgtPath {
        kind: String,
        path: String,
    },
    /// `option NAME[=VALUE]`.
    SetOption {
        name: String,
        value: Option<String>,
    },
    Exclude(MoveSel),
    Include(MoveSel),
    SetScore {
        score: i32,
        depth: u32,
    },
    Lift(String),
    Put(String),
    Hover(String),
    /// Bughouse: `partner [PLAYER]`.
    Partner(Option<String>),
    Ptell(String),
    /// Bughouse holdings, kept verbatim (`[PPPRQ] [R] BR`).
    Holding(String),

    // ---- engine -> GUI (section 9, thinking output, idioms)
    Feature(Vec<Feature>),
    /// `move MOVE` (also the legacy `NUMBER ... MOVE`, with a diagnostic).
    EngineMove(String),
    Pong(i64),
    IllegalMove {
        reason: Option<String>,
        mv: String,
    },
    Error {
        kind: String,
        command: String,
    },
    /// `1-0 {White mates}` and friends, sent by the engine.
    GameEnd {
        result: GameResult,
        comment: Option<String>,
    },
    Resign,
    OfferDraw,
    Tell {
        kind: TellKind,
        text: String,
    },
    AskUser {
        tag: String,
        text: String,
    },
    /// `# text` debug output.
    Debug(String),
    /// `Hint: MOVE`.
    HintMove(String),
    /// `setup`, `piece`, `highlight`, `click`, `choice`: arguments kept verbatim.
    Setup(String),
    Piece(String),
    Highlight(String),
    Click(String),
    Choice(String),
    Thinking(Thinking),
    /// A line starting with whitespace: a PV continuation (four spaces) or `bk` text.
    Continuation(String),
    Stat01(Stat01),
    FailHigh,
    FailLow,
    /// A legacy result idiom (`White resigns`, `computer mates`...); the whole line is kept.
    Idiom {
        idiom: Idiom,
        text: String,
    },

    Empty,
    Unknown(String),
}

/// `level MPS BASE INC`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Level {
    /// Moves per session; 0 = whole game (incremental clock).
    pub mps: u32,
    /// BASE (`MIN` or `MIN:SEC`) in seconds.
    pub base_seconds: u64,
    /// Characters after `MIN[:SEC]`, which the text tells engines to ignore (`25+5`).
    pub base_suffix: String,
    /// INC in milliseconds (the wire has seconds, possibly fractional).
    pub inc_ms: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    Unfinished,
}

impl GameResult {
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    pub fn from_token(t: &str) -> Option<GameResult> {
        match t {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unfinished),
            _ => None,
        }
    }
}

/// `exclude`/`include` argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveSel {
    All,
    Move(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TellKind {
    Opponent,
    Others,
    All,
    User,
    UserError,
    Ics,
    IcsNoAlias,
}

impl TellKind {
    pub fn command(self) -> &'static str {
        match self {
            TellKind::Opponent => "tellopponent",
            TellKind::Others => "tellothers",
            TellKind::All => "tellall",
            TellKind::User => "telluser",
            TellKind::UserError => "tellusererror",
            TellKind::Ics => "tellics",
            TellKind::IcsNoAlias => "tellicsnoalias",
        }
    }

    pub const ALL: [TellKind; 7] = [
        TellKind::Opponent,
        TellKind::Others,
        TellKind::All,
        TellKind::User,
        TellKind::UserError,
        TellKind::Ics,
        TellKind::IcsNoAlias,
    ];

    pub fn from_command(t: &str) -> Option<TellKind> {
        TellKind::ALL.into_iter().find(|k| k.command() == t)
    }
}

/// Legacy engine-to-GUI result forms from the overview's Idioms section. They are recognised
/// at the start of a line, case-sensitively, whatever follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Idiom {
    WhiteResigns,
    BlackResigns,
    White,
    Black,
    Draw,
    ComputerMates,
    OpponentMates,
    ComputerResigns,
    GameIsADraw,
    Checkmate,
}

impl Idiom {
    /// Longest prefixes first, so `White resigns` is not taken for `White`.
    pub(crate) const PREFIXES: [(&'static str, Idiom); 10] = [
        ("White resigns", Idiom::WhiteResigns),
        ("Black resigns", Idiom::BlackResigns),
        ("computer resigns", Idiom::ComputerResigns),
        ("computer mates", Idiom::ComputerMates),
        ("opponent mates", Idiom::OpponentMates),
        ("game is a draw", Idiom::GameIsADraw),
        ("checkmate", Idiom::Checkmate),
        ("White", Idiom::White),
        ("Black", Idiom::Black),
        ("Draw", Idiom::Draw),
    ];

    /// The result the idiom stands for, when it does not depend on who the engine plays.
    pub fn result(self) -> Option<GameResult> {
        match self {
            Idiom::WhiteResigns | Idiom::Black => Some(GameResult::BlackWins),
            Idiom::BlackResigns | Idiom::White => Some(GameResult::WhiteWins),
            Idiom::Draw | Idiom::GameIsADraw => Some(GameResult::Draw),
            _ => None,
        }
    }
}

static MOVE_RE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"^(?:[A-Z]?[a-z]?[0-9]{0,2}x?[a-z][0-9]{1,2}(?:=?[A-Za-z])?|[A-Za-z]@[a-z][0-9]{1,2}|[O0]-[O0](?:-[O0])?|@@@@)[+#!?]*$",
    )
    .ok()
});

/// Does a token look like a move in any syntax xboard sends or engines answer with: coordinate
/// (`e2e4`, `e7e8q`, `e1g1`, 10-rank `a0a1`), drop (`P@h3`), castling (`O-O`, `O-O-O`), SAN
/// (`Nf3`, `exd5`, `e8=Q`, `Qxf7#`), multi-leg (`c4d5,d5e4`, also with a trailing comma), null
/// (`@@@@`). `xa4` is the edit-mode "empty a4", not a move.
pub fn looks_like_move(t: &str) -> bool {
    let Some(re) = MOVE_RE.as_ref() else {
        return false;
    };
    if t.starts_with('x') {
        return false;
    }
    if t.contains(',') {
        let legs: Vec<&str> = t.strip_suffix(',').unwrap_or(t).split(',').collect();
        return legs
            .iter()
            .all(|l| !l.is_empty() && !l.starts_with('x') && re.is_match(l));
    }
    re.is_match(t)
}

/// In edit mode a move-looking `Pa4` means "put a pawn of the current colour on a4":
/// returns the piece letter and the square.
pub fn edit_placement(t: &str) -> Option<(char, &str)> {
    let mut cs = t.chars();
    let piece = cs.next()?;
    let square = cs.as_str();
    let mut sq = square.chars();
    let file_ok = sq.next().is_some_and(|c| c.is_ascii_lowercase());
    let rank = sq.as_str();
    let rank_ok = !rank.is_empty() && rank.len() <= 2 && rank.bytes().all(|b| b.is_ascii_digit());
    (piece.is_ascii_alphabetic() && file_ok && rank_ok).then_some((piece, square))
}

impl Msg {
    pub fn kind(&self) -> &'static str {
        match self {
            Msg::Xboard => "xboard",
            Msg::Protover(_) => "protover",
            Msg::Accepted(_) => "accepted",
            Msg::Rejected(_) => "rejected",
            Msg::New => "new",
            Msg::Variant(_) => "variant",
            Msg::Quit => "quit",
            Msg::Random => "random",
            Msg::Force => "force",
            Msg::Go => "go",
            Msg::PlayOther => "playother",
            Msg::White => "white",
            Msg::Black => "black",
            Msg::Level(_) => "level",
            Msg::St(_) => "st",
            Msg::Sd(_) => "sd",
            Msg::Nps(_) => "nps",
            Msg::Time(_) => "time",
            Msg::Otim(_) => "otim",
            Msg::UserMove(_) => "usermove",
            Msg::Move(_) => "usermove",
            Msg::MoveNow => "?",
            Msg::Ping(_) => "ping",
            Msg::Draw => "draw",
            Msg::Result { .. } => "result",
            Msg::SetBoard(_) => "setboard",
            Msg::Edit => "edit",
            Msg::EditColor => "edit-color",
            Msg::EditClear => "edit-clear",
            Msg::EditEmpty(_) => "edit-empty",
            Msg::Dot => ".",
            Msg::Hint => "hint",
            Msg::Bk => "bk",
            Msg::Undo => "undo",
            Msg::Remove => "remove",
            Msg::Hard => "hard",
            Msg::Easy => "easy",
            Msg::Post => "post",
            Msg::NoPost => "nopost",
            Msg::Analyze => "analyze",
            Msg::Exit => "exit",
            Msg::Name(_) => "name",
            Msg::Rating { .. } => "rating",
            Msg::Ics(_) => "ics",
            Msg::Computer => "computer",
            Msg::Pause => "pause",
            Msg::Resume => "resume",
            Msg::Memory(_) => "memory",
            Msg::Cores(_) => "cores",
            Msg::EgtPath { .. } => "egtpath",
            Msg::SetOption { .. } => "option",
            Msg::Exclude(_) => "exclude",
            Msg::Include(_) => "include",
            Msg::SetScore { .. } => "setscore",
            Msg::Lift(_) => "lift",
            Msg::Put(_) => "put",
            Msg::Hover(_) => "hover",
            Msg::Partner(_) => "partner",
            Msg::Ptell(_) => "ptell",
            Msg::Holding(_) => "holding",
            Msg::Feature(_) => "feature",
            Msg::EngineMove(_) => "move",
            Msg::Pong(_) => "pong",
            Msg::IllegalMove { .. } => "illegal-move",
            Msg::Error { .. } => "error",
            Msg::GameEnd { .. } => "game-end",
            Msg::Resign => "resign",
            Msg::OfferDraw => "offer-draw",
            Msg::Tell { kind, .. } => kind.command(),
            Msg::AskUser { .. } => "askuser",
            Msg::Debug(_) => "debug",
            Msg::HintMove(_) => "hint-move",
            Msg::Setup(_) => "setup",
            Msg::Piece(_) => "piece",
            Msg::Highlight(_) => "highlight",
            Msg::Click(_) => "click",
            Msg::Choice(_) => "choice",
            Msg::Thinking(_) => "thinking",
            Msg::Continuation(_) => "continuation",
            Msg::Stat01(_) => "stat01",
            Msg::FailHigh => "++",
            Msg::FailLow => "--",
            Msg::Idiom { .. } => "idiom",
            Msg::Empty => "empty",
            Msg::Unknown(_) => "unknown",
        }
    }
}

pub fn parse(dir: Dir, line: &str, d: &mut Vec<Diagnostic>) -> Msg {
    match dir {
        Dir::ToEngine => super::cecp_gui::parse(line, d),
        Dir::FromEngine => super::cecp_engine::parse(line, d),
    }
}

fn result_text(
    f: &mut fmt::Formatter<'_>,
    result: GameResult,
    comment: &Option<String>,
) -> fmt::Result {
    f.write_str(result.as_str())?;
    match comment {
        Some(c) => write!(f, " {{{c}}}"),
        None => Ok(()),
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level {} ", self.mps)?;
        let (m, s) = (self.base_seconds / 60, self.base_seconds % 60);
        if s == 0 {
            write!(f, "{m}")?;
        } else {
            write!(f, "{m}:{s:02}")?;
        }
        write!(f, "{} ", self.base_suffix)?;
        let (secs, ms) = (self.inc_ms / 1000, self.inc_ms % 1000);
        if ms == 0 {
            write!(f, "{secs}")
        } else {
            let frac = format!("{ms:03}");
            write!(f, "{secs}.{}", frac.trim_end_matches('0'))
        }
    }
}

impl fmt::Display for MoveSel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveSel::All => f.write_str("all"),
            MoveSel::Move(m) => f.write_str(m),
        }
    }
}

impl fmt::Display for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Msg::Protover(n) => write!(f, "protover {n}"),
            Msg::Accepted(s) => word_text(f, "accepted", s),
            Msg::Rejected(s) => word_text(f, "rejected", s),
            Msg::Variant(s) => word_text(f, "variant", s),
            Msg::Level(l) => l.fmt(f),
            Msg::St(n) => write!(f, "st {n}"),
            Msg::Sd(n) => write!(f, "sd {n}"),
            Msg::Nps(n) => write!(f, "nps {n}"),
            Msg::Time(n) => write!(f, "time {n}"),
            Msg::Otim(n) => write!(f, "otim {n}"),
            Msg::UserMove(m) => word_text(f, "usermove", m),
            Msg::Move(m) => f.write_str(m),
            Msg::Ping(n) => write!(f, "ping {n}"),
            Msg::Result { result, comment } => {
                f.write_str("result ")?;
                result_text(f, *result, comment)
            }
            Msg::SetBoard(s) => word_text(f, "setboard", s),
            Msg::EditColor => f.write_str("c"),
            Msg::EditClear => f.write_str("#"),
            Msg::EditEmpty(sq) => write!(f, "x{sq}"),
            Msg::Name(s) => word_text(f, "name", s),
            Msg::Rating { own, opponent } => write!(f, "rating {own} {opponent}"),
            Msg::Ics(s) => word_text(f, "ics", s),
            Msg::Memory(n) => write!(f, "memory {n}"),
            Msg::Cores(n) => write!(f, "cores {n}"),
            Msg::EgtPath { kind, path } => {
                word_text(f, "egtpath", kind)?;
                if !path.is_empty() {
                    write!(f, " {path}")?;
                }
                Ok(())
            }
            Msg::SetOption { name, value } => {
                write!(f, "option {name}")?;
                match value {
                    Some(v) => write!(f, "={v}"),
                    None => Ok(()),
                }
            }
            Msg::Exclude(m) => write!(f, "exclude {m}"),
            Msg::Include(m) => write!(f, "include {m}"),
            Msg::SetScore { score, depth } => write!(f, "setscore {score} {depth}"),
            Msg::Lift(s) => word_text(f, "lift", s),
            Msg::Put(s) => word_text(f, "put", s),
            Msg::Hover(s) => word_text(f, "hover", s),
            Msg::Partner(p) => word_text(f, "partner", p.as_deref().unwrap_or("")),
            Msg::Ptell(s) => word_text(f, "ptell", s),
            Msg::Holding(s) => word_text(f, "holding", s),
            Msg::Feature(fs) => {
                f.write_str("feature")?;
                for x in fs {
                    write!(f, " {x}")?;
                }
                Ok(())
            }
            Msg::EngineMove(m) => word_text(f, "move", m),
            Msg::Pong(n) => write!(f, "pong {n}"),
            Msg::IllegalMove { reason, mv } => {
                f.write_str("Illegal move")?;
                if let Some(r) = reason {
                    write!(f, " ({r})")?;
                }
                write!(f, ": {mv}")
            }
            Msg::Error { kind, command } => write!(f, "Error ({kind}): {command}"),
            Msg::GameEnd { result, comment } => result_text(f, *result, comment),
            Msg::OfferDraw => f.write_str("offer draw"),
            Msg::Tell { kind, text } => word_text(f, kind.command(), text),
            Msg::AskUser { tag, text } => {
                word_text(f, "askuser", tag)?;
                if !text.is_empty() {
                    write!(f, " {text}")?;
                }
                Ok(())
            }
            Msg::Debug(s) => word_text(f, "#", s),
            Msg::HintMove(m) => word_text(f, "Hint:", m),
            Msg::Setup(s) => word_text(f, "setup", s),
            Msg::Piece(s) => word_text(f, "piece", s),
            Msg::Highlight(s) => word_text(f, "highlight", s),
            Msg::Click(s) => word_text(f, "click", s),
            Msg::Choice(s) => word_text(f, "choice", s),
            Msg::Thinking(t) => t.fmt(f),
            Msg::Continuation(s) => write!(f, "    {s}"),
            Msg::Stat01(s) => s.fmt(f),
            Msg::Idiom { text, .. } => f.write_str(text),
            Msg::Empty => Ok(()),
            Msg::Unknown(s) => f.write_str(s),
            other => f.write_str(other.kind()),
        }
    }
}

#[cfg(test)]
#[path = "cecp_tests.rs"]
mod tests;
