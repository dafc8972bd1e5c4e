//! The decoded session: what every front end (decode, export, check, view, replay) reads.
//!
//! Everything here is plain data; the [`super::Decoder`] fills it in line by line.

use super::move_text::MoveText;
use serde::Serialize;

use crate::game::{ChessBoard, ChessVariant, OthelloBoard, OthelloMove, Side};
use crate::protocol::cecp::FeatureSetting;
use crate::protocol::{Msg, Protocol, uci};
use crate::recording::Source;

pub use crate::rules::catalogue::{RuleId, Severity, Side as Party};

/// A fact the decoder noticed on one line: the line breaks a rule of the catalogue
/// (`docs/rules.md`). It names the rule and says what happened; how bad that is, and whether
/// it matters in context (after `quit`, under a `.c2w` profile, under `check --profile`), is
/// the judge's to say (`rules/`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Breach {
    /// The catalogue id (`UCI-BESTMOVE-ILLEGAL`, `CECP-PONG-MISMATCH`...).
    pub rule: RuleId,
    /// The side that sent the line, when a side did: who is at fault for a rule of either
    /// side.
    pub by: Option<Party>,
    pub message: String,
    /// The breach is a widespread idiom every GUI understands (Stockfish's `bestmove
    /// (none)`): the fact is kept, the judge weighs it as a note.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub idiom: bool,
}

impl Breach {
    pub fn new(id: RuleId, by: Option<Party>, message: impl Into<String>) -> Self {
        Breach {
            rule: id,
            by,
            message: message.into(),
            idiom: false,
        }
    }
}

/// Where and when something happened: the event's sequence number and time (ns).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct At {
    pub seq: u64,
    pub t: u64,
}

/// Handshake progress (`uci`->`uciok`, `protover`->`feature done=1`, `nboard`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Handshake {
    #[default]
    NotStarted,
    Started(At),
    Done(At),
}

/// What the engine owes for a request: the answer every front end (decode, check, view,
/// replay) matches on.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Owed {
    /// UCI `uci`.
    UciOk,
    /// UCI `isready`.
    ReadyOk,
    /// UCI `go`, `stop`.
    BestMove,
    /// CECP `protover 2`.
    FeatureDone,
    /// CECP: the engine is on move (`go`, a GUI move while it plays the other side).
    Move,
    /// CECP and NBoard `ping N` (the text of N).
    Pong(String),
    /// CECP `hint`.
    Hint,
    /// NBoard `go`.
    NboardMove,
    /// NBoard `hint`.
    SearchOrBook,
    /// NBoard `learn`.
    Learned,
}

impl std::fmt::Display for Owed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Owed::UciOk => f.write_str("uciok"),
            Owed::ReadyOk => f.write_str("readyok"),
            Owed::BestMove => f.write_str("bestmove"),
            Owed::FeatureDone => f.write_str("feature done=1"),
            Owed::Move => f.write_str("move"),
            Owed::Pong(n) => write!(f, "pong {n}"),
            Owed::Hint => f.write_str("Hint:"),
            Owed::NboardMove => f.write_str("==="),
            Owed::SearchOrBook => f.write_str("search/book"),
            Owed::Learned => f.write_str("learned"),
        }
    }
}

/// The kind of request that opened an obligation. With it the judge names the latency and
/// finds the deadline a profile sets, without reading the request's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    /// UCI `uci`.
    Uci,
    /// UCI `isready`.
    IsReady,
    /// UCI `go`; `open_ended` for `go infinite` and `go ponder`, which end only when told.
    Go { open_ended: bool },
    /// UCI `stop` (and `ponderhit`'s end of a ponder search is a `go`'s).
    Stop,
    /// CECP `protover 2`.
    Protover,
    /// CECP: the engine is on move.
    OnMove,
    /// CECP and NBoard `ping N`.
    Ping,
    /// CECP `hint`.
    Hint,
    /// NBoard `go`.
    NboardGo,
    /// NBoard `hint`.
    NboardHint,
    /// NBoard `learn`.
    Learn,
}

impl Request {
    /// The request and its answer, as latency tables name them.
    pub fn label(self) -> &'static str {
        match self {
            Request::Uci => "uci→uciok",
            Request::IsReady => "isready→readyok",
            Request::Go { .. } => "go→bestmove",
            Request::Stop => "stop→bestmove",
            Request::Protover => "protover→feature done=1",
            Request::OnMove => "on move→move",
            Request::Ping => "ping→pong",
            Request::Hint => "hint→Hint:",
            Request::NboardGo => "go→===",
            Request::NboardHint => "hint→search",
            Request::Learn => "learn→learned",
        }
    }
}

/// The limits a UCI `go` sets its search, read once from the message: what the answer's time
/// is measured against, and whether the clock decides where the search stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GoLimits {
    /// `movetime`: the milliseconds the search is given.
    pub movetime_ms: Option<u64>,
    /// `wtime` or `btime`: the search runs on a side's clock.
    pub clock: bool,
    /// `depth`, `nodes` or `mate`: a bound that holds whatever the time.
    pub bounded: bool,
    pub ponder: bool,
    pub infinite: bool,
}

impl GoLimits {
    pub fn of(go: &uci::Go) -> GoLimits {
        GoLimits {
            movetime_ms: go.movetime.and_then(|ms| u64::try_from(ms).ok()),
            clock: go.wtime.is_some() || go.btime.is_some(),
            bounded: go.depth.is_some() || go.nodes.is_some() || go.mate.is_some(),
            ponder: go.ponder,
            infinite: go.infinite,
        }
    }

    /// Where the search stops depends on time: a clock, a movetime, a search only `stop`
    /// ends, or no bound at all (the engine's own choice).
    pub fn clock_limited(&self) -> bool {
        self.clock || self.movetime_ms.is_some() || self.ponder || self.infinite || !self.bounded
    }
}

/// A GUI request that expects an answer, and the answer when it came.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Obligation {
    /// What the GUI sent, for display (`isready`, `go`, `ping 3`, `protover 2`...).
    pub request: String,
    /// Which kind of request that is.
    pub kind: Request,
    /// A UCI `go`'s limits.
    #[serde(skip)]
    pub go: Option<GoLimits>,
    /// What the engine owes.
    pub owed: Owed,
    pub opened: At,
    pub closed: Option<At>,
    /// Closed because the GUI withdrew the request (CECP `force` while the engine thinks).
    pub cancelled: bool,
}

impl Obligation {
    pub fn is_open(&self) -> bool {
        self.closed.is_none()
    }

    /// Latency in ns, when answered.
    pub fn latency(&self) -> Option<u64> {
        self.closed.map(|c| c.t.saturating_sub(self.opened.t))
    }
}

/// What a line made happen in the session, as the rules need to know it: the decoder decides
/// these once (when a search starts, which request a line answers) so no later stage has to
/// follow the session again. In the order they happened within the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fact {
    /// A request that owes an answer.
    Opened(Obligation),
    /// An obligation answered, or withdrawn (`cancelled`).
    Closed(Obligation),
    /// The engine started searching: `go` is the request's line; `started` is when the engine
    /// began, later than `go` for a `go` queued behind a running search.
    SearchStarted {
        go: At,
        started: At,
        ponder: bool,
        infinite: bool,
    },
    /// The running search ended: answered, or replaced by another. `reported_ms` is the
    /// search time the engine itself last reported (`info time`, CECP thinking output).
    SearchEnded { reported_ms: Option<u64> },
}

/// A CECP feature the engine announced and the GUI's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatureState {
    pub name: String,
    pub value: FeatureSetting,
    /// `Some(true)` accepted, `Some(false)` rejected, `None` not answered (yet).
    pub accepted: Option<bool>,
    pub at: At,
}

/// A UCI `setoption` (or CECP `option`) the GUI sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OptionSet {
    pub name: String,
    pub value: Option<String>,
    pub at: At,
}

/// An engine evaluation attached to a move or a search: from the engine's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Eval {
    /// Centipawns.
    Cp(i64),
    /// Mate in N moves (negative: getting mated).
    Mate(i32),
    /// Othello: discs.
    Discs(f64),
}

impl std::fmt::Display for Eval {
    /// PGN comment style: `+0.25`, `-1.50`, `+M3`, `-M2`, Othello `+4.00`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Eval::Cp(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let a = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", a / 100, a % 100)
            }
            Eval::Mate(m) => write!(f, "{}M{}", if m < 0 { '-' } else { '+' }, m.unsigned_abs()),
            Eval::Discs(d) => write!(f, "{d:+.2}"),
        }
    }
}

/// The latest report of a search (last `info` with a score or PV, or thinking line).
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct SearchReport {
    pub depth: Option<u32>,
    pub eval: Option<Eval>,
    pub nodes: Option<u64>,
    /// Milliseconds.
    pub time_ms: Option<u64>,
    /// Moves separated by single spaces, as sent.
    pub pv: String,
}

impl SearchReport {
    /// Replaces the PV. PVs grow a move or two per iteration: room for a long one is taken
    /// once per search instead of growing the text line after line.
    pub(crate) fn set_pv(&mut self, pv: &str) {
        const ROOM: usize = 128;
        self.pv.clear();
        if self.pv.capacity() < pv.len() {
            self.pv.reserve(pv.len().max(ROOM));
        }
        self.pv.push_str(pv);
    }
}

/// One search: UCI `go`...`bestmove`, CECP engine to move...`move`, NBoard `go`...`===`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Search {
    pub started: At,
    pub ended: Option<At>,
    /// The request as sent (`go wtime 1000 btime 1000`, `go`, `usermove e2e4`...).
    pub request: String,
    /// A UCI `go`'s limits.
    #[serde(skip)]
    pub go: Option<GoLimits>,
    pub ponder: bool,
    pub infinite: bool,
    /// Number of info/thinking lines.
    pub reports: u32,
    pub last: Option<SearchReport>,
    pub best: Option<String>,
    pub ponder_move: Option<String>,
    /// Game index and ply count at the search's root.
    pub game: Option<usize>,
    pub ply: usize,
}

/// Who sent a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mover {
    Gui,
    Engine,
}

/// One move of a game.
#[derive(Debug, Clone, PartialEq)]
pub struct Ply {
    /// As on the wire (UCI/CECP/NBoard text), canonical and SAN: [`Ply::text`],
    /// [`Ply::canonical`], [`Ply::san`].
    spelt: MoveText,
    pub by: Mover,
    pub at: At,
    /// The engine's evaluation of its own move (last report of the search that chose it).
    pub eval: Option<Eval>,
    pub depth: Option<u32>,
}

impl Ply {
    /// A move as sent (`text`), with its spellings once the board has played it.
    pub fn new(text: &str, canonical: Option<&str>, san: Option<&str>, by: Mover, at: At) -> Ply {
        Ply {
            spelt: MoveText::new(text, canonical, san),
            by,
            at,
            eval: None,
            depth: None,
        }
    }

    /// As on the wire (UCI/CECP/NBoard text).
    pub fn text(&self) -> &str {
        self.spelt.text()
    }

    /// Canonical UCI for chess (castling in the game's convention), upper-case square or
    /// `PA` for Othello; `None` when the board is unknown.
    pub fn canonical(&self) -> Option<&str> {
        self.spelt.canonical()
    }

    /// SAN for chess.
    pub fn san(&self) -> Option<&str> {
        self.spelt.san()
    }

    /// The board's spellings of the move, once it has played it.
    pub fn set_spellings(&mut self, canonical: &str, san: Option<&str>) {
        self.spelt = MoveText::new(self.text(), Some(canonical), san);
    }
}

impl Serialize for Ply {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Ply", 7)?;
        st.serialize_field("text", self.text())?;
        st.serialize_field("canonical", &self.canonical())?;
        st.serialize_field("san", &self.san())?;
        st.serialize_field("by", &self.by)?;
        st.serialize_field("at", &self.at)?;
        st.serialize_field("eval", &self.eval)?;
        st.serialize_field("depth", &self.depth)?;
        st.end()
    }
}

/// Which board game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    Chess,
    Othello,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameOutcome {
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: String,
    pub reason: String,
    pub at: At,
    /// Who said so.
    pub by: OutcomeBy,
}

/// Who decided a game's result: what the board shows is kibitzer's own knowledge, the rest
/// is someone's word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OutcomeBy {
    /// The position: mate, stalemate, a draw by rule (claimable when the game stopped).
    Board,
    /// The GUI (CECP `result`).
    Gui,
    /// The engine (a CECP result claim, `resign`).
    Engine,
    /// The program that ran the game, in its log (`Finished game N ...`).
    Runner,
}

/// One game as the session saw it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Game {
    pub kind: GameKind,
    pub started: At,
    /// Variant name as negotiated (`standard`, `chess960`, `crazyhouse`, `othello`...).
    pub variant: String,
    pub chess960: bool,
    /// Start position when not the variant's standard start: FEN (chess) or GGF board text
    /// (`8 ---...--- *`, Othello).
    pub start: Option<String>,
    pub plies: Vec<Ply>,
    pub outcome: Option<GameOutcome>,
    /// Set when the board cannot be followed (variant not modelled, bad start position...):
    /// moves are still kept, as tokens.
    pub board_unknown: Option<String>,
    /// The side the engine played, when it is known.
    pub engine_side: Option<Side>,
    /// NBoard: the tags of the last `set game` GGF (`PB`, `PW`, `PC`, `DT`...).
    pub tags: Vec<(String, String)>,
    /// Moves on the wire that were illegal where they were played, so the game could not be
    /// followed through them: whatever comes after the first is not known to be the game.
    pub gaps: Vec<Gap>,
}

/// A move the board could not follow: illegal in the position where it was sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Gap {
    /// Plies of the game before it.
    pub after_ply: usize,
    pub text: String,
    pub by: Mover,
    pub at: At,
    /// The line of the input it was on, when known.
    pub line: Option<u64>,
    pub reason: String,
}

impl Game {
    pub(crate) fn new(kind: GameKind, started: At, variant: &str, chess960: bool) -> Game {
        Game {
            kind,
            started,
            variant: variant.to_owned(),
            chess960,
            start: None,
            plies: Vec::new(),
            outcome: None,
            board_unknown: None,
            engine_side: None,
            tags: Vec::new(),
            gaps: Vec::new(),
        }
    }

    /// Notes a move that could not be followed (once per place and move).
    pub(crate) fn add_gap(&mut self, gap: Gap) {
        if !self
            .gaps
            .iter()
            .any(|g| g.after_ply == gap.after_ply && g.text == gap.text)
        {
            self.gaps.push(gap);
        }
    }

    /// The position after `ply` plies (`plies.len()` for the end): FEN for chess, board string
    /// for Othello; `None` when the board is unknown or a move does not replay.
    pub fn position_after(&self, ply: usize) -> Option<String> {
        if self.board_unknown.is_some() {
            return None;
        }
        let plies = self.plies.get(..ply)?;
        match self.kind {
            GameKind::Chess => {
                let mut b = self.chess_start()?;
                for p in plies {
                    b.play_uci(p.canonical()?).ok()?;
                }
                Some(b.fen())
            }
            GameKind::Othello => {
                let mut b = self.othello_start()?;
                for p in plies {
                    b.play_move(OthelloMove::parse(p.canonical()?)?).ok()?;
                }
                Some(b.display_string())
            }
        }
    }

    /// The chess start position of this game.
    pub fn chess_start(&self) -> Option<ChessBoard> {
        let variant = ChessVariant::from_cecp(&self.variant);
        match &self.start {
            Some(fen) => ChessBoard::from_fen(fen, variant, self.chess960).ok(),
            None => ChessBoard::startpos_with_mode(variant, self.chess960).ok(),
        }
    }

    pub fn othello_start(&self) -> Option<OthelloBoard> {
        match &self.start {
            Some(bo) => OthelloBoard::from_ggf_board(bo).ok(),
            None => Some(OthelloBoard::new()),
        }
    }

    /// Replaces the plies from `from` on (takebacks, a GUI resending a different line).
    pub(crate) fn truncate(&mut self, from: usize) {
        if from < self.plies.len() {
            self.plies.truncate(from);
            self.outcome = None;
            self.gaps.retain(|g| g.after_ply < from);
        }
    }
}

/// A board-position reference: game index and number of plies played in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PosRef {
    pub game: usize,
    pub ply: usize,
}

/// One decoded line of a session (kept by [`super::decode`]; the streaming decoder hands
/// them out one at a time instead).
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Index of the event in the input.
    pub index: usize,
    pub seq: u64,
    pub t: u64,
    pub src: Source,
    /// The raw text.
    pub text: String,
    /// `None` for stderr and proxy lines, and traffic before the protocol was known.
    pub msg: Option<Msg>,
    pub breaches: Vec<Breach>,
    /// The board after this line (for lines inside a game).
    pub position: Option<PosRef>,
    /// The line changed the board (a move, a new position, a takeback).
    pub moved: bool,
}

/// UCI or CECP modes that change what the engine is expected to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub struct Modes {
    /// CECP `force`: the engine plays neither side.
    pub force: bool,
    /// CECP `analyze` / UCI `go infinite`.
    pub analyze: bool,
    /// CECP `edit` mode in progress.
    pub edit: bool,
    /// UCI `go ponder` / CECP `hard`.
    pub ponder: bool,
    /// CECP `post`: thinking output on.
    pub post: bool,
    /// UCI: the GUI asked for analysis (`UCI_AnalyseMode` true, or `MultiPV` above 1): the
    /// engine's bestmove is then an answer, not a move the GUI is about to play.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub analysis_options: bool,
}

/// The clocks as the GUI last told them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Clocks {
    /// UCI `go`: milliseconds.
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub movetime: Option<i64>,
    /// CECP `level MPS BASE INC` (as sent).
    pub level: Option<String>,
    /// CECP `st` seconds.
    pub st: Option<u64>,
    /// CECP `time` / `otim`, centiseconds.
    pub time: Option<i64>,
    pub otim: Option<i64>,
}

/// Everything known about one session (one engine process / one `session` label).
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    /// The events' `session` label (`None` for a recording).
    pub label: Option<String>,
    pub protocol: Option<Protocol>,
    /// Why the protocol was chosen ("GUI sent 'uci'", "given by the caller").
    pub protocol_reason: String,
    /// Protocol version (`protover N`, `nboard N`).
    pub version: Option<u32>,
    pub handshake: Handshake,
    /// CECP: the engine asked for more time with `feature done=0` (and when), before any
    /// `done=1`.
    pub done_zero: Option<At>,
    pub engine_name: Option<String>,
    pub engine_author: Option<String>,
    pub features: Vec<FeatureState>,
    /// UCI options the engine declared.
    pub options: Vec<uci::OptionDecl>,
    pub option_sets: Vec<OptionSet>,
    pub obligations: Vec<Obligation>,
    pub games: Vec<Game>,
    pub searches: Vec<Search>,
    /// Searches started: `searches.len()` when they are kept, and still counted when not. An
    /// answer before the first one comes from a log that starts mid-session, not from a
    /// confused engine.
    pub search_count: u64,
    pub modes: Modes,
    pub clocks: Clocks,
    /// UCI_Chess960 / CECP fischerandom.
    pub chess960: bool,
    /// UCI_Variant / CECP variant, as sent.
    pub variant: String,
    pub first: Option<At>,
    pub last: Option<At>,
    /// Last line from the engine (stdout).
    pub last_engine: Option<At>,
    /// Number of lines seen, by source: gui, engine, stderr, proxy.
    pub counts: [u64; 4],
    /// Decoded lines, when kept (see [`super::decode`]).
    pub lines: Vec<Line>,
    /// The runner's own verdicts on engines stated in this session's lines (imported logs).
    pub verdicts: Vec<super::verdicts::VerdictSeen>,
    /// Game results the runner announced (cutechess and fastchess `Finished game N (A vs B):
    /// R {reason}`): the result of an engine-vs-engine game that the engines' own sessions
    /// cannot know (adjudication, time loss, resignation).
    pub runner_results: Vec<RunnerResult>,
    /// Where the runner's log stops for this session (`log_ends`: a new run of the runner
    /// begins in the same log); what comes later in the log is not this session's.
    pub log_ends: Option<At>,
}

/// `Finished game 3 (sf1 vs sf2): 1-0 {Black loses on time}`, as the runner wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunnerResult {
    pub at: At,
    pub white: String,
    pub black: String,
    pub result: String,
    pub reason: String,
}

impl RunnerResult {
    /// Reads cutechess's and fastchess's `Finished game N (WHITE vs BLACK): RESULT {REASON}`.
    pub fn parse(text: &str, at: At) -> Option<RunnerResult> {
        let rest = text.trim().strip_prefix("Finished game ")?;
        let open = rest.find(" (")?;
        if !rest[..open].bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let names = &rest[open + 2..];
        let vs = names.find(" vs ")?;
        let close = vs + names[vs..].find("): ")?;
        let (white, black) = (&names[..vs], &names[vs + 4..close]);
        let after = names[close + 3..].trim();
        let (result, reason) = match after.split_once(' ') {
            Some((r, why)) => (r, why.trim().trim_start_matches('{').trim_end_matches('}')),
            None => (after, ""),
        };
        ["1-0", "0-1", "1/2-1/2", "*"]
            .contains(&result)
            .then(|| RunnerResult {
                at,
                white: white.to_owned(),
                black: black.to_owned(),
                result: result.to_owned(),
                reason: reason.to_owned(),
            })
    }
}

impl Session {
    /// The boolean a CECP flag feature stands at: as the engine last set it, and off once the
    /// GUI rejected it (for the rest of the session). `None` when the engine did not set it,
    /// or not to 0 or 1.
    pub fn feature_flag(&self, name: &str) -> Option<bool> {
        let f = self.feature(name)?;
        if f.accepted == Some(false) && crate::protocol::cecp::boolean_feature(name) {
            Some(false)
        } else {
            f.value.flag()
        }
    }

    /// The engine's `feature done=1` came on an earlier line than `seq`.
    pub fn features_done_before(&self, seq: u64) -> bool {
        matches!(self.handshake, Handshake::Done(at) if at.seq < seq)
    }

    /// The producing tool's own lines (`[fastchess]`, `[python-chess]`...): no protocol
    /// session, whatever its events say.
    pub fn is_runner(&self) -> bool {
        self.label.as_deref().is_some_and(|l| l.starts_with('['))
            && self.counts[0] == 0
            && self.counts[1] == 0
            && self.counts[2] == 0
    }

    pub fn new(label: Option<String>) -> Session {
        Session {
            label,
            protocol: None,
            protocol_reason: String::new(),
            version: None,
            handshake: Handshake::NotStarted,
            done_zero: None,
            verdicts: Vec::new(),
            runner_results: Vec::new(),
            log_ends: None,
            engine_name: None,
            engine_author: None,
            features: Vec::new(),
            options: Vec::new(),
            option_sets: Vec::new(),
            obligations: Vec::new(),
            games: Vec::new(),
            searches: Vec::new(),
            search_count: 0,
            modes: Modes::default(),
            clocks: Clocks::default(),
            chess960: false,
            variant: "standard".into(),
            first: None,
            last: None,
            last_engine: None,
            counts: [0; 4],
            lines: Vec::new(),
        }
    }

    /// Obligations still unanswered.
    pub fn open_obligations(&self) -> impl Iterator<Item = &Obligation> {
        self.obligations.iter().filter(|o| o.is_open())
    }

    /// The position after a kept line, computed on demand.
    pub fn position_after(&self, line: &Line) -> Option<String> {
        let p = line.position?;
        self.games.get(p.game)?.position_after(p.ply)
    }

    /// A declared UCI option, by name (case-insensitive, as the UCI text asks).
    pub fn option(&self, name: &str) -> Option<&uci::OptionDecl> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// A feature's last announced value.
    pub fn feature(&self, name: &str) -> Option<&FeatureState> {
        self.features.iter().rev().find(|f| f.name == name)
    }
}

/// Index of a source in [`Session::counts`].
pub(crate) fn source_index(src: Source) -> usize {
    match src {
        Source::Gui => 0,
        Source::Engine => 1,
        Source::Stderr => 2,
        Source::Proxy => 3,
    }
}
