//! The catalogue of every check `kibitzer check` knows, transcribed from the design's rule
//! tables (§6 of `rules.md`), and the generator of `docs/rules.md`.
//!
//! Ids are stable: reports, suppressions and tests refer to them, so an id may be added but
//! never renamed. A rule's presence here says nothing about whether a check exists yet; that is
//! [`crate::rules::implemented_ids`].

use std::fmt::{self, Write as _};

use serde::Serialize;

/// The side at fault when a rule fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Engine,
    Gui,
    /// Either side, depending on the case (the design writes "E/G"): e.g. a malformed move
    /// token is the fault of whoever sent it.
    Either,
}

impl Side {
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Engine => "engine",
            Side::Gui => "gui",
            Side::Either => "either",
        }
    }
}

/// How serious a finding is. The order matters: filters such as "warnings and worse" compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Harmless chatter worth knowing about (e.g. undocumented output).
    Chat,
    Note,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Chat => "chat",
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    /// Parses a severity as users type it on the command line; `warn` is accepted because the
    /// design's tables and most tools abbreviate it so.
    pub fn from_name(name: &str) -> Option<Severity> {
        let name = name.trim();
        [
            ("chat", Severity::Chat),
            ("note", Severity::Note),
            ("warning", Severity::Warning),
            ("warn", Severity::Warning),
            ("error", Severity::Error),
        ]
        .into_iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, s)| s)
    }
}

/// Which table of the design a rule comes from; also the prefix of its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    Uci,
    Cecp,
    Nboard,
    /// Transport, timing and lifecycle rules that hold whatever the protocol (`X-` ids).
    Cross,
    /// Diagnostics of `kibitzer replay`; they are not spec violations.
    Replay,
    /// A CECP session held to a Chess Academy `.c2w` profile (`check --c2w`).
    C2w,
}

impl Family {
    /// In the order the documentation lists them.
    pub const ALL: [Family; 6] = [
        Family::Uci,
        Family::Cecp,
        Family::Nboard,
        Family::Cross,
        Family::Replay,
        Family::C2w,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Family::Uci => "uci",
            Family::Cecp => "cecp",
            Family::Nboard => "nboard",
            Family::Cross => "cross",
            Family::Replay => "replay",
            Family::C2w => "c2w",
        }
    }

    /// The prefix every id of the family starts with.
    pub fn prefix(self) -> &'static str {
        match self {
            Family::Uci => "UCI-",
            Family::Cecp => "CECP-",
            Family::Nboard => "NBOARD-",
            Family::Cross => "X-",
            Family::Replay => "REPLAY-",
            Family::C2w => "C2W-",
        }
    }

    /// Heading for the documentation.
    pub fn title(self) -> &'static str {
        match self {
            Family::Uci => "UCI",
            Family::Cecp => "CECP / xboard",
            Family::Nboard => "NBoard",
            Family::Cross => "Cross-protocol",
            Family::Replay => "Replay",
            Family::C2w => "Chess Academy `.c2w` profiles (`check --c2w`)",
        }
    }
}

/// Whether a recording or log of the traffic can decide a rule: lines both ways with
/// timestamps, plus the proxy's own events (spawn, EOF, exit code or signal, signals
/// forwarded, write errors, kills).
///
/// The distinction matters because `check` runs on recordings after the fact; a rule that
/// needs more must come from the live proxy or from a replay, and the documentation says so
/// rather than listing it as merely "not yet" implemented.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decidable {
    Traffic,
    /// What a recording lacks to decide the rule.
    NotFromTraffic(&'static str),
}

/// One row of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Rule {
    pub id: &'static str,
    pub family: Family,
    /// Sub-heading within the family, for the documentation.
    pub group: &'static str,
    pub side: Side,
    pub severity: Severity,
    /// What the checker does, as the design states it.
    pub check: &'static str,
    /// The sentence of the spec (or other evidence) the rule rests on, verbatim where quoted.
    pub source: &'static str,
    pub decidable: Decidable,
}

/// Every rule, in the order of the design's tables (§6.1 UCI, §6.2 CECP, §6.3 NBoard, §6.4
/// cross-protocol, §6.5 replay and hang diagnostics).
///
/// `check` and `source` are copied from the design with their markdown backticks kept. Rows
/// without a source there (`—`) keep the dash; §6.5 has no side, severity or source columns,
/// so those rows say where they come from instead.
pub static RULES: &[Rule] = &[
    Rule {
        id: "UCI-FIRST-COMMAND",
        family: Family::Uci,
        group: "Handshake",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "first GUI line must be `uci`",
        source: r#""uci … this will be sent once as a first command after program boot""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-UNSOLICITED-OUTPUT",
        family: Family::Uci,
        group: "Handshake",
        side: Side::Engine,
        severity: Severity::Note,
        check: "engine prints protocol tokens (e.g. `uciok`) before `uci`",
        source: r#""The engine should boot and wait for input from the GUI""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-ID-MISSING",
        family: Family::Uci,
        group: "Handshake",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "no `id name` (or `id author`) between `uci` and `uciok`",
        source: r#""id name <x> … this must be sent after receiving the 'uci' command to identify the engine""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-UCIOK-TIMEOUT",
        family: Family::Uci,
        group: "Handshake",
        side: Side::Engine,
        severity: Severity::Error,
        check: "no `uciok` within T_uciok (profile: 10 s fastchess, 35 s cutechess ProtocolStartTimeout)",
        source: r#""If no uciok is sent within a certain time period, the engine task will be killed by the GUI.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-OPTION-AFTER-UCIOK",
        family: Family::Uci,
        group: "Handshake",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "`option` line after `uciok`",
        source: r#"uciok "Must be sent after the id and optional options"; options "should be sent once at engine startup after the 'uci' and the 'id' commands""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-OPTION-MALFORMED",
        family: Family::Uci,
        group: "Handshake",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "option without `name`/`type`; spin default ∉ [min,max]; combo default ∉ vars; unknown type",
        source: r#""There are 5 different types of options the engine can send: check, spin, combo, button, string""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-GO-BEFORE-READYOK",
        family: Family::Uci,
        group: "Handshake",
        side: Side::Gui,
        severity: Severity::Error,
        check: "first `go` of the session not preceded by `isready`→`readyok` (also timer started before readyok, H11)",
        source: r#"isready "is also required once before the engine is asked to do any search to wait for the engine to finish initializing.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-REGISTER-MISSING",
        family: Family::Uci,
        group: "Handshake",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "engine sent `registration error` and GUI never sent `register …`",
        source: r#""The GUI has to always answer with the 'register' command if the engine sends 'registration error' at engine startup""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-COPYPROTECTION-IGNORED",
        family: Family::Uci,
        group: "Handshake",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "GUI keeps using engine after `copyprotection error`",
        source: r#""If the engine reports 'copyprotection error' the GUI should not use this engine""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-ISREADY-TIMEOUT",
        family: Family::Uci,
        group: "Sync",
        side: Side::Engine,
        severity: Severity::Error,
        check: "`isready` without `readyok` within T_ping (15 s cutechess, 60 s fastchess)",
        source: r#""This command must always be answered with 'readyok'""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-READYOK-DELAYED-BY-SEARCH",
        family: Family::Uci,
        group: "Sync",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "`isready` during a search answered only after `bestmove`",
        source: r#""…can be sent also when the engine is calculating in which case the engine should also immediately answer with 'readyok' without stopping the search.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-ISREADY-STOPS-SEARCH",
        family: Family::Uci,
        group: "Sync",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "engine emits `bestmove` in response to `isready` (no `stop`)",
        source: r#"same sentence ("without stopping the search")"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-READYOK-UNSOLICITED",
        family: Family::Uci,
        group: "Sync",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "`readyok` with no outstanding `isready` (count-based)",
        source: r#"readyok "must be sent when the engine has received an 'isready' command""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-UCINEWGAME-NO-ISREADY",
        family: Family::Uci,
        group: "Sync",
        side: Side::Gui,
        severity: Severity::Note,
        check: "`ucinewgame` not followed by `isready` before the next `go`",
        source: r#""the GUI should always send 'isready' after 'ucinewgame' to wait for the engine to finish its operation.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-SETOPTION-WHILE-SEARCHING",
        family: Family::Uci,
        group: "Sync",
        side: Side::Gui,
        severity: Severity::Error,
        check: "`setoption` while a `go` is outstanding",
        source: r#"setoption "will only be sent when the engine is waiting.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-SETOPTION-UNKNOWN",
        family: Family::Uci,
        group: "Sync",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "`setoption name X` where X was never declared (case-insensitive); value out of declared range",
        source: r#""The name of the option in <id> should not be case sensitive"; option list defines allowed values"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-SETOPTION-NO-ISREADY",
        family: Family::Uci,
        group: "Sync",
        side: Side::Gui,
        severity: Severity::Note,
        check: "a slow option (Hash, paths, EvalFile, Threads) not followed by `isready` before `go`",
        source: r#""E.g. this should be sent after setting the path to the tablebases as this can take some time.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-GO-WITHOUT-POSITION",
        family: Family::Uci,
        group: "Search lifecycle",
        side: Side::Gui,
        severity: Severity::Error,
        check: "`go` with no `position` since `uci`/`ucinewgame`",
        source: r#""Before the engine is asked to search on a position, there will always be a position command""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-GO-WHILE-SEARCHING",
        family: Family::Uci,
        group: "Search lifecycle",
        side: Side::Gui,
        severity: Severity::Error,
        check: "`go` while a previous `go` has no `bestmove`",
        source: r#""for every 'go' command a 'bestmove' command is needed!" (one search at a time)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-POSITION-WHILE-SEARCHING",
        family: Family::Uci,
        group: "Search lifecycle",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "`position` during an outstanding search (without `stop` and `bestmove` first); info after it is stale",
        source: r#"implied by "Before the engine is asked to search … there will always be a position command" + S6"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-BESTMOVE-WITHOUT-GO",
        family: Family::Uci,
        group: "Search lifecycle",
        side: Side::Engine,
        severity: Severity::Error,
        check: "`bestmove` with no outstanding `go` (incl. reply to idle `stop`)",
        source: r#""if the engine receives a command which is not supposed to come, for example 'stop' when the engine is not calculating, it should also just ignore it.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-BESTMOVE-MISSING-AFTER-STOP",
        family: Family::Uci,
        group: "Search lifecycle",
        side: Side::Engine,
        severity: Severity::Error,
        check: "`stop` (or `quit`-less game end) without `bestmove` within T_idle (cutechess 15 s)",
        source: r#""this command must always be sent if the engine stops searching, also in pondering mode if there is a 'stop' command""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-BESTMOVE-LATE",
        family: Family::Uci,
        group: "Search lifecycle",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "`go movetime T` / `depth`/`nodes` / clock: `bestmove` after T + margin, or after the side's remaining clock",
        source: r#""movetime <x> search exactly x mseconds"; "wtime <x> white has x msec left on the clock""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-BESTMOVE-IN-INFINITE",
        family: Family::Uci,
        group: "Search lifecycle",
        side: Side::Engine,
        severity: Severity::Error,
        check: "`bestmove` during `go infinite` before `stop`",
        source: r#""infinite: search until the 'stop' command. Do not exit the search without being told so in this mode!""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-BESTMOVE-IN-PONDER",
        family: Family::Uci,
        group: "Search lifecycle",
        side: Side::Engine,
        severity: Severity::Error,
        check: "`bestmove` during `go ponder` before `stop`/`ponderhit`",
        source: r#""Do not exit the search in ponder mode, even if it's mate!""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-PONDER-AUTOSTART",
        family: Family::Uci,
        group: "Search lifecycle",
        side: Side::Engine,
        severity: Severity::Error,
        check: "engine emits search `info` between `bestmove` and the next `go`",
        source: r#""The engine must not start pondering automatically." / "should never start calculating or pondering without receiving a 'go' command first.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-PONDERHIT-WITHOUT-PONDER",
        family: Family::Uci,
        group: "Search lifecycle",
        side: Side::Gui,
        severity: Severity::Error,
        check: "`ponderhit` when no `go ponder` is outstanding",
        source: r#""ponderhit: the user has played the expected move. This will be sent if the engine was told to ponder on the same move the user has played.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-PONDERHIT-WRONG-POSITION",
        family: Family::Uci,
        group: "Search lifecycle",
        side: Side::Gui,
        severity: Severity::Error,
        check: "after `ponderhit`, the GUI's game (decoded) is not the pondered position (L6)",
        source: "same sentence",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-STALE-BESTMOVE",
        family: Family::Uci,
        group: "Search lifecycle",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "GUI already sent the next `position`/`ucinewgame` and still applies a late `bestmove` (L2)",
        source: "derived",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-GO-ON-TERMINAL-POSITION",
        family: Family::Uci,
        group: "Search lifecycle",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "`go` on a checkmate/stalemate position",
        source: "(engine behaviour undefined; lc0#1209, Caissa#24)",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-GO-EMPTY-SEARCHMOVES",
        family: Family::Uci,
        group: "Search lifecycle",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "`searchmoves` contains an illegal move",
        source: r#""restrict search to this moves only""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-MOVE-FORMAT",
        family: Family::Uci,
        group: "Move legality and notation",
        side: Side::Either,
        severity: Severity::Error,
        check: "move token not `[a-h][1-8][a-h][1-8][qrbn]?` (lowercase) and not `0000`",
        source: r#""The move format is in long algebraic notation … Examples: e2e4, e7e5, e1g1 (white short castling), e7e8q (for promotion)""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-BESTMOVE-NULL-FORMAT",
        family: Family::Uci,
        group: "Move legality and notation",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "no-legal-move answer other than `0000` (e.g. `a1a1`); `(none)` as a note",
        source: r#""A nullmove from the Engine to the GUI should be sent as 0000.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-POSITION-ILLEGAL-MOVE",
        family: Family::Uci,
        group: "Move legality and notation",
        side: Side::Gui,
        severity: Severity::Error,
        check: "`position … moves` contains an illegal move",
        source: "(engine behaviour undefined; Stockfish#7000)",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-POSITION-BAD-FEN",
        family: Family::Uci,
        group: "Move legality and notation",
        side: Side::Gui,
        severity: Severity::Error,
        check: "unparsable FEN or castling rights inconsistent with pieces",
        source: r#"position "fen <fenstring>""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-BESTMOVE-ILLEGAL",
        family: Family::Uci,
        group: "Move legality and notation",
        side: Side::Engine,
        severity: Severity::Error,
        check: "`bestmove` illegal in the decoded position",
        source: r#""found the move <move1> best in this position""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-PONDER-MOVE-ILLEGAL",
        family: Family::Uci,
        group: "Move legality and notation",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "`ponder` move illegal after bestmove",
        source: r#""the engine can send the move it likes to ponder on""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-CASTLING-NOTATION",
        family: Family::Uci,
        group: "Move legality and notation",
        side: Side::Either,
        severity: Severity::Error,
        check: "with `UCI_Chess960=true` castling must be king-takes-rook; with false (standard start) must be e1g1-style; flag any mismatch in either direction",
        source: r#""This is why castling moves are sent in the form king 'takes' his own rook. Example: e1h1 for the white short castle move in the normal chess start position.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-CHESS960-OPTION-NOT-SET",
        family: Family::Uci,
        group: "Move legality and notation",
        side: Side::Gui,
        severity: Severity::Error,
        check: "non-standard start position with castling rights but no `setoption name UCI_Chess960 value true` (when declared)",
        source: r#""Whenever a Chess960 game is played, the GUI should set this engine option to 'true'.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-INFO-AFTER-BESTMOVE",
        family: Family::Uci,
        group: "Info lines",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "`info` (with pv/score) after `bestmove` and before the next `go`",
        source: r#""Directly before that the engine should send a final 'info' command" (final = before bestmove)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-INFO-PV-ILLEGAL",
        family: Family::Uci,
        group: "Info lines",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "a pv move illegal when replayed from the searched position",
        source: r#"pv "the best line found""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-INFO-SCORE-UNIT",
        family: Family::Uci,
        group: "Info lines",
        side: Side::Engine,
        severity: Severity::Error,
        check: "`score` not followed by `cp <int>` or `mate <int>` (optionally `lowerbound`/`upperbound`)",
        source: r#""score cp <x> … mate <y>""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-INFO-SELDEPTH-WITHOUT-DEPTH",
        family: Family::Uci,
        group: "Info lines",
        side: Side::Engine,
        severity: Severity::Note,
        check: "`seldepth` without `depth` in the same line",
        source: r#""if the engine sends seldepth there must also be a 'depth' present in the same string.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-INFO-NONINTEGER",
        family: Family::Uci,
        group: "Info lines",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "non-integer `time`/`nodes`/`nps`/`cp`/`depth`",
        source: "fields defined as <x> integers; fastchess `isValidInfoLine`",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-INFO-MULTIPV-INCOMPLETE",
        family: Family::Uci,
        group: "Info lines",
        side: Side::Engine,
        severity: Severity::Note,
        check: "with MultiPV=k, an iteration reports fewer than k `multipv` lines",
        source: r#""in k-best mode always send all k variants in k strings together.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-INFO-BESTMOVE-PV-MISMATCH",
        family: Family::Uci,
        group: "Info lines",
        side: Side::Engine,
        severity: Severity::Note,
        check: "bestmove ≠ first move of the last multipv-1 PV",
        source: "fastchess `PvWarning::BestmoveMismatch`",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-INFO-CURRMOVE-EARLY",
        family: Family::Uci,
        group: "Info lines",
        side: Side::Engine,
        severity: Severity::Chat,
        check: "`currmove`/`currline`/`refutation` before 1 s of search",
        source: r#""I suggest to start sending 'currmove', 'currmovenumber', 'currline' and 'refutation' only after one second to avoid too much traffic.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-INFO-FLOOD",
        family: Family::Uci,
        group: "Info lines",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "> R lines/s sustained (default 1000/s) or > B KB burst",
        source: "Stockfish PR #5460; cutechess#218",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-INFO-STRING-REST-OF-LINE",
        family: Family::Uci,
        group: "Info lines",
        side: Side::Gui,
        severity: Severity::Note,
        check: "GUI tokenises text after `info string`",
        source: r#""if there is a string command the rest of the line will be interpreted as <str>.""#,
        decidable: Decidable::NotFromTraffic(
            "how the GUI tokenises an `info string` line happens inside the GUI and leaves no trace in what it sends back",
        ),
    },
    Rule {
        id: "UCI-QUIT-NO-EXIT",
        family: Family::Uci,
        group: "Termination and robustness",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "process alive T_quit after `quit` (cutechess QuitTimeout 5 s)",
        source: r#""quit the program as soon as possible""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-UNKNOWN-TOKEN-IGNORED",
        family: Family::Uci,
        group: "Termination and robustness",
        side: Side::Either,
        severity: Severity::Note,
        check: "side reacts to an unknown token with an error or desync instead of ignoring it (e.g. en-croissant#334 `wdl`)",
        source: r#""if the engine or the GUI receives an unknown command or token it should just ignore it and try to parse the rest of the string in this line.""#,
        decidable: Decidable::NotFromTraffic(
            "whether a side ignored a token or choked on it happens inside that side; the traffic shows at most a later desync, not its cause",
        ),
    },
    Rule {
        id: "CECP-XBOARD-FIRST",
        family: Family::Cecp,
        group: "Handshake and features",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "first line must be `xboard`",
        source: r#""This command will be sent once immediately after your engine process is started.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-PROTOVER-AFTER-XBOARD",
        family: Family::Cecp,
        group: "Handshake and features",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "v2 GUI: `protover N` must follow `xboard` immediately",
        source: r#""Beginning in protocol version 2 (in which N=2), this command will be sent immediately after the 'xboard' command.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-FEATURE-TIMEOUT",
        family: Family::Cecp,
        group: "Handshake and features",
        side: Side::Engine,
        severity: Severity::Error,
        check: "no `feature … done=1` within 2 s of `xboard` (unless `done=0` seen → 1 h)",
        source: r#""xboard … listens for feature commands for two seconds before sending any other commands. To end this timeout and avoid the wait, set the feature 'done=1'""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-DONE0-HONOURED",
        family: Family::Cecp,
        group: "Handshake and features",
        side: Side::Gui,
        severity: Severity::Error,
        check: "after `done=0`, GUI proceeds/kills before `done=1` or 1 h (H1)",
        source: r#""If you set done=0, the initial timeout is increased to one hour; in this case, you must set done=1 before xboard will enter normal operation.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-COMMAND-BEFORE-FEATURES",
        family: Family::Cecp,
        group: "Handshake and features",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "GUI sends game commands (`new`, moves, `level`) before `done=1` or the 2 s window ends (H9)",
        source: r#""xboard needs to know the values of some features before sending further commands to the engine""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-FEATURE-AFTER-DONE",
        family: Family::Cecp,
        group: "Handshake and features",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "non-`option` `feature` after `done=1`",
        source: r#""the timeout will end and xboard will not look for any more feature commands before starting normal operation." (exception: options "even after having received feature done=1")"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-FEATURE-NOT-ACKED",
        family: Family::Cecp,
        group: "Handshake and features",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "a feature without `accepted F`/`rejected F` reply",
        source: r#""each feature F that you set generates the response 'accepted F' if the feature is implemented, or 'rejected F' if it is not.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-FEATURE-SYNTAX",
        family: Family::Cecp,
        group: "Handshake and features",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "`feature` tokens not `NAME=VALUE`, strings not double-quoted, booleans not 0/1",
        source: r#""String values are written in double quotes … boolean values are written as 0 for false, 1 for true.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-PING-NOT-ENABLED",
        family: Family::Cecp,
        group: "Ping",
        side: Side::Gui,
        severity: Severity::Error,
        check: "GUI sends `ping` without engine `feature ping=1`",
        source: r#""The ping command is new in protocol version 2 and will not be sent unless you enable it with the 'feature' command.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-PING-NOT-DECLARED",
        family: Family::Cecp,
        group: "Ping",
        side: Side::Engine,
        severity: Severity::Note,
        check: "engine doesn't declare `ping=1` (races possible; python-chess refuses)",
        source: r#""it is highly recommended that you implement it … it is needed in all engines.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-PONG-MISMATCH",
        family: Family::Cecp,
        group: "Ping",
        side: Side::Engine,
        severity: Severity::Error,
        check: "`pong N` where N ≠ the oldest unanswered ping (or ≠ last ping)",
        source: r#""reply by sending the string pong N, where N is the same number you received.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-PONG-TIMEOUT",
        family: Family::Cecp,
        group: "Ping",
        side: Side::Engine,
        severity: Severity::Error,
        check: "`ping N` unanswered within T_ping (15 s cutechess)",
        source: "same",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-PONG-BEFORE-PENDING",
        family: Family::Cecp,
        group: "Ping",
        side: Side::Engine,
        severity: Severity::Error,
        check: "`pong` sent before effects of earlier commands are visible (e.g. pong after `new` but the next move reflects the old game)",
        source: r#""You must not reply to a 'ping' command until you have finished executing all commands that you received before it.""#,
        decidable: Decidable::NotFromTraffic(
            "needs the engine's internal state when it answered; the traffic shows only some later effects (e.g. a move from the old game), so it is only partially observable",
        ),
    },
    Rule {
        id: "CECP-PONG-BEFORE-MOVE",
        family: Family::Cecp,
        group: "Ping",
        side: Side::Engine,
        severity: Severity::Error,
        check: "engine on move receives `ping`, answers `pong` before its `move`",
        source: r#""if you do, you must not send the 'pong' reply to xboard until after you send your move.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-PONG-WHILE-PONDERING-DELAYED",
        family: Family::Cecp,
        group: "Ping",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "ping during pondering not answered promptly",
        source: r#""if you receive a ping while pondering, you should reply immediately and continue pondering.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-STALE-MOVE",
        family: Family::Cecp,
        group: "Ping",
        side: Side::Gui,
        severity: Severity::Error,
        check: r#"GUI applies an engine `move` received while a ping is outstanding after `new`/`force`/position change (xboard: "Ignoring extra move")"#,
        source: "xboard backend.c `if (cps->lastPing != cps->lastPong) /* Extra move from before last new; ignore */`",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-USERMOVE-FORMAT",
        family: Family::Cecp,
        group: "Moves and notation",
        side: Side::Gui,
        severity: Severity::Error,
        check: "moves sent with `usermove` prefix iff `usermove=1` accepted",
        source: r#""If usermove=1, xboard will send moves to the engine with the command 'usermove MOVE'; if usermove=0, xboard will send just the move""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-SAN-FEATURE",
        family: Family::Cecp,
        group: "Moves and notation",
        side: Side::Gui,
        severity: Severity::Error,
        check: "SAN moves sent to engine iff `san=1`",
        source: r#""If san=1, xboard will send moves to the engine in standard algebraic notation (SAN) … If san=0 … coordinate notation""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-TIME-WITHOUT-FEATURE",
        family: Family::Cecp,
        group: "Time control",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "`time`/`otim` sent although `time=0`",
        source: r#""If time=1, xboard will send the 'time' and 'otim' commands …; if time=0, it will not.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-TIME-UNITS",
        family: Family::Cecp,
        group: "Time control",
        side: Side::Gui,
        severity: Severity::Error,
        check: "`time`/`otim` value inconsistent with the TC by ×100/×1000 (heuristic: > base, or ≤ 10 for multi-minute games)",
        source: r#""time N Set a clock … N is a number in centiseconds (units of 1/100 second).""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-ST-UNITS",
        family: Family::Cecp,
        group: "Time control",
        side: Side::Either,
        severity: Severity::Error,
        check: "`st` value implausible (≥ 1000 or engine reply time ≫ st)",
        source: r#""st 30 This means that each move must be made in at most 30 seconds.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-ST-EXCEEDED",
        family: Family::Cecp,
        group: "Time control",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "engine move later than `st` + margin",
        source: r#""each move must be made in at most 30 seconds. Time not used on one move does not accumulate""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-TC-SEMANTICS",
        family: Family::Cecp,
        group: "Time control",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "`level 0 0:S 0` used for a per-move limit, or `level` and `st` both set for one game (after the same `new`) (T1)",
        source: r#""'level' … 'st' … Two mutually exclusive commands (erasing each other's effect)" (CECP/hgm text quoted in lichess-bot PR #91)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-LEVEL-EVERY-MOVE",
        family: Family::Cecp,
        group: "Time control",
        side: Side::Gui,
        severity: Severity::Note,
        check: "`level` re-sent without a TC change (T5)",
        source: "section 11: level sent at start / when the session changes",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-VARIANT-ORDER",
        family: Family::Cecp,
        group: "Game state",
        side: Side::Gui,
        severity: Severity::Error,
        check: "`variant` not between `new` and the first move/`edit`/`setboard`",
        source: r#""this command is sent after 'new' and before the first move or 'edit' command.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-SETBOARD-WITHOUT-FEATURE",
        family: Family::Cecp,
        group: "Game state",
        side: Side::Gui,
        severity: Severity::Error,
        check: "`setboard` without `setboard=1`",
        source: r#""It is not used unless it has been selected with the feature command.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-UNDO-WITHOUT-FORCE",
        family: Family::Cecp,
        group: "Game state",
        side: Side::Gui,
        severity: Severity::Error,
        check: "`undo` while the engine is not in force mode",
        source: r#""xboard will not send this command without putting you in 'force' mode first""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-REMOVE-ENGINE-ON-MOVE",
        family: Family::Cecp,
        group: "Game state",
        side: Side::Gui,
        severity: Severity::Error,
        check: "`remove` when the engine is on move",
        source: r#""It sends this command only when the user is on move.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-GO-WHILE-THINKING",
        family: Family::Cecp,
        group: "Game state",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "`go` while the engine is thinking (L14)",
        source: r#"`go` "Leave force mode and set the engine to play the color that is on move … Start thinking""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-MOVE-IN-FORCE",
        family: Family::Cecp,
        group: "Game state",
        side: Side::Engine,
        severity: Severity::Error,
        check: "engine sends `move` while in force mode or analyze mode",
        source: r#"force: "should not think, ponder, or make moves of its own." analyze "should be similar to force mode""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-MOVE-ECHO",
        family: Family::Cecp,
        group: "Moves and notation",
        side: Side::Engine,
        severity: Severity::Error,
        check: "engine `move` equal to the GUI's last move (echo)",
        source: r#""Do not echo moves from xboard with this command; send only new moves made by the engine.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-MOVE-ILLEGAL",
        family: Family::Cecp,
        group: "Moves and notation",
        side: Side::Engine,
        severity: Severity::Error,
        check: "engine move illegal in the decoded position",
        source: r#""your move should be either in coordinate notation … or in Standard Algebraic Notation""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-ILLEGAL-MOVE-REPLY",
        family: Family::Cecp,
        group: "Moves and notation",
        side: Side::Either,
        severity: Severity::Error,
        check: "engine replies `Illegal move…` to a GUI move: classify GUI (move really illegal) vs engine (legal move rejected)",
        source: r#""If your engine receives a MOVE command that is recognizably a move but is not legal in the current position, your engine must print an error message""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-ILLEGAL-MOVE-FORMAT",
        family: Family::Cecp,
        group: "Moves and notation",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "rejection not `Illegal move: MOVE` / `Illegal move (REASON): MOVE`",
        source: r#""in one of the above formats so that xboard can pass the error on to the user and retract the move.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-ERROR-FORMAT",
        family: Family::Cecp,
        group: "Output",
        side: Side::Engine,
        severity: Severity::Note,
        check: "unknown-command reply not `Error (TYPE): COMMAND`",
        source: r#""it should print an error message in the above format so that xboard can parse it.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-RESULT-CLAIM-INVALID",
        family: Family::Cecp,
        group: "Game state",
        side: Side::Engine,
        severity: Severity::Error,
        check: "engine `1-0/0-1/1/2-1/2 {…}` when the decoded game is not over by rule",
        source: r#""When your engine detects that the game has ended by rule, your engine must output a line of the form 'RESULT {comment}'… this command should thus not be used to offer draws""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-RESULT-MISSING",
        family: Family::Cecp,
        group: "Game state",
        side: Side::Gui,
        severity: Severity::Note,
        check: "game ended (mate, time, adjudication) but no `result` sent (L13)",
        source: r#""After the end of each game, xboard will send you a result command.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-THINKING-FORMAT",
        family: Family::Cecp,
        group: "Output",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "thinking line not `ply score time nodes pv` integers; time in cs",
        source: r#""ply score time nodes pv … time Current search time in centiseconds""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-THINKING-WITHOUT-POST",
        family: Family::Cecp,
        group: "Output",
        side: Side::Engine,
        severity: Severity::Note,
        check: "thinking output after `nopost`",
        source: r#""post Turn on thinking/pondering output … nopost Turn off""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-NEW-STATE",
        family: Family::Cecp,
        group: "Game state",
        side: Side::Engine,
        severity: Severity::Note,
        check: "after `new`, the engine still uses old `sd`/`nps`/state (replay divergence)",
        source: r#"new: "Remove any search depth limit previously set by the sd command." / nps "should persist until the next 'new' command""#,
        decidable: Decidable::NotFromTraffic(
            "an engine keeping old `sd`/`nps` or other state after `new` shows only as a divergence when the game is replayed",
        ),
    },
    Rule {
        id: "CECP-QUIT-NO-EXIT",
        family: Family::Cecp,
        group: "Termination",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "process alive after `quit` + SIGTERM grace",
        source: r#""The chess engine should immediately exit.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-SIGINT-DISABLED",
        family: Family::Cecp,
        group: "Termination",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "(proxy-observed) SIGINT delivered although `sigint=0`",
        source: r#""If sigint=1, xboard may send SIGINT … if sigint=0, it will not.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-UNDOCUMENTED-OUTPUT",
        family: Family::Cecp,
        group: "Output",
        side: Side::Engine,
        severity: Severity::Chat,
        check: "engine lines that are not defined commands (and not `#` debug with `debug=1`)",
        source: r#""an engine should not send any output to xboard that is not described in this document.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-FIRST-COMMAND",
        family: Family::Nboard,
        group: "Handshake",
        side: Side::Gui,
        severity: Severity::Error,
        check: "first line must be `nboard <v>`",
        source: r#""GUIs must send the 'nboard {version}' command as their first command to the engine.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-VERSION",
        family: Family::Nboard,
        group: "Handshake",
        side: Side::Either,
        severity: Severity::Warning,
        check: "engine rejects or ignores the version (Edax requires 1; the spec's current version is 2)",
        source: r#""Note: The current version of the protocol is version 2.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-GO-WITHOUT-SETUP",
        family: Family::Nboard,
        group: "Handshake",
        side: Side::Gui,
        severity: Severity::Error,
        check: "`go`/`hint` before both `set depth` and `set game`",
        source: r#""GUIs must also send the 'set depth' command and 'set game' command before issuing 'hint' and 'go' commands.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-SET-GAME-PARSE",
        family: Family::Nboard,
        group: "Moves",
        side: Side::Engine,
        severity: Severity::Error,
        check: "engine board after `set game` ≠ decoded GGF end position (incl. trailing pass `PA`) (M7)",
        source: r#"set game: "Tell the engine that all further commands relate to the position at the end of the given game, in GGF format.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-PONG-MISMATCH",
        family: Family::Nboard,
        group: "Ping",
        side: Side::Engine,
        severity: Severity::Error,
        check: "`pong n` ≠ last `ping n`",
        source: r#""ping n … respond with 'pong n'""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-PONG-TIMEOUT",
        family: Family::Nboard,
        group: "Ping",
        side: Side::Engine,
        severity: Severity::Error,
        check: "ping unanswered within T",
        source: r#""Required: Stop thinking and respond with 'pong n'.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-OUTPUT-AFTER-PONG",
        family: Family::Nboard,
        group: "Ping",
        side: Side::Engine,
        severity: Severity::Error,
        check: "`search`/`book`/`===` for the previous position after `pong n`",
        source: r#""If the engine is analyzing a position it must stop analyzing before sending 'pong n' otherwise NBoard will think the analysis relates to the current position.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-STALE-RESULT",
        family: Family::Nboard,
        group: "Ping",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "GUI uses `===`/`search`/`book` received while its last ping is unanswered (NBoard tags messages with `m_pong`)",
        source: r#"weltyc/nboard ParsedEngine: "the receiver should only use these commands if the computer is up-to-date""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-GO-NO-MOVE",
        family: Family::Nboard,
        group: "Moves",
        side: Side::Engine,
        severity: Severity::Error,
        check: "`go` never answered by `=== <move>`",
        source: r#"go "Required: The engine responds with '=== [move]'""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-MOVE-FORMAT",
        family: Family::Nboard,
        group: "Moves",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "`===` not `move[/eval[/time]]` (spaces instead of slashes, N9); eval omitted when not forced (note)",
        source: r#""Best: The engine responds with '=== [move]/[eval]/[time]'.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-MOVE-ILLEGAL",
        family: Family::Nboard,
        group: "Moves",
        side: Side::Engine,
        severity: Severity::Error,
        check: "`===` move illegal (pass `PA` only when no legal move)",
        source: "—",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-HINT-PV-FORMAT",
        family: Family::Nboard,
        group: "Output",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "`search`/`book` pv with whitespace or not starting with a 2-char move",
        source: r#""The pv must begin with two characters representing the move considered … and must not contain any whitespace.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-LEARN-ACK",
        family: Family::Nboard,
        group: "Output",
        side: Side::Engine,
        severity: Severity::Note,
        check: "`learn` not acknowledged (spec: `learned`; ntest sample code prints `learn`; NBoard GUI parses `learn`)",
        source: r#""learn … Required: Respond 'learned'.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-LINE-NO-TERMINATOR",
        family: Family::Cross,
        group: "Transport",
        side: Side::Either,
        severity: Severity::Warning,
        check: r#"bytes without `\n` pending > 200 ms, or at EOF"#,
        source: r#"UCI "all command strings the engine receives will end with '\n', also all commands the GUI receives should end with '\n'""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-LINE-ENDING",
        family: Family::Cross,
        group: "Transport",
        side: Side::Either,
        severity: Severity::Note,
        check: "CR or CRLF present (record exact bytes; normalise for decoding)",
        source: r#"UCI "Note: '\n' can be 0x0d or 0x0a0d or any combination depending on your OS.""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-OUTPUT-NOT-FLUSHED",
        family: Family::Cross,
        group: "Transport",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "heuristic: output arrives in bursts aligned to 4 KiB, or only at exit; `uciok` delayed until more output",
        source: r#"CECP §6 "Beware of using buffered I/O in your chess engine"; NBoard "The response from the engine to NBoard won't be sent until the output buffer is flushed." (B1)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-LINE-INTERLEAVED",
        family: Family::Cross,
        group: "Transport",
        side: Side::Engine,
        severity: Severity::Error,
        check: "a line that concatenates two protocol tokens (`0readyok`, `info … bestmove`)",
        source: "S5",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-LEADING-WHITESPACE",
        family: Family::Cross,
        group: "Transport",
        side: Side::Engine,
        severity: Severity::Note,
        check: "leading/trailing whitespace around tokens (legal in UCI, breaks some parsers)",
        source: r#"UCI "arbitrary white space between tokens is allowed" (N10)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-NON-UTF8",
        family: Family::Cross,
        group: "Transport",
        side: Side::Engine,
        severity: Severity::Note,
        check: "invalid UTF-8 or control bytes",
        source: "—",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-CONTROL-CHARS",
        family: Family::Cross,
        group: "Transport",
        side: Side::Engine,
        severity: Severity::Note,
        check: "invalid UTF-8 or control bytes",
        source: "—",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-STDERR-MIXED",
        family: Family::Cross,
        group: "Transport",
        side: Side::Gui,
        severity: Severity::Note,
        check: "stderr content interleaved in the protocol stream (we record stderr separately)",
        source: "B5",
        decidable: Decidable::NotFromTraffic(
            "stderr is recorded separately; whether the GUI mixes it into its protocol stream happens inside the GUI",
        ),
    },
    Rule {
        id: "X-OUTPUT-FLOOD",
        family: Family::Cross,
        group: "Transport",
        side: Side::Engine,
        severity: Severity::Warning,
        check: "rate above the threshold (per-direction lines/s and bytes/s)",
        source: "B3, B4",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-LATENCY-BUDGET",
        family: Family::Cross,
        group: "Timing",
        side: Side::Either,
        severity: Severity::Note,
        check: "(GUI-observed go→bestmove) − (engine-reported final `time`) > threshold; or move sent with < overhead left",
        source: "fastchess `-show-latency`; T7, T8",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-CLOCK-UNDERFLOW",
        family: Family::Cross,
        group: "Timing",
        side: Side::Engine,
        severity: Severity::Error,
        check: "bestmove after the side's clock reached zero (decoded from wtime/btime or time/otim + measured elapsed)",
        source: "time forfeit",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-ENGINE-EXIT",
        family: Family::Cross,
        group: "Lifecycle",
        side: Side::Engine,
        severity: Severity::Error,
        check: "process exit/EOF while an obligation is outstanding (record exit code/signal)",
        source: "P1, M3, L10",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-WRITE-TO-DEAD-PIPE",
        family: Family::Cross,
        group: "Lifecycle",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "GUI writes after engine EOF (EPIPE)",
        source: "M3",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-ORPHAN-PROCESS",
        family: Family::Cross,
        group: "Lifecycle",
        side: Side::Gui,
        severity: Severity::Warning,
        check: "engine alive when the GUI side closed or the session ended",
        source: "P2, P3",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-NO-WATCHDOG",
        family: Family::Cross,
        group: "Timing",
        side: Side::Gui,
        severity: Severity::Note,
        check: "outstanding obligation > 60 s and the GUI is silent (GUI has no deadline)",
        source: "H7, L9, L10",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-PROTOCOL-MISMATCH",
        family: Family::Cross,
        group: "Lifecycle",
        side: Side::Gui,
        severity: Severity::Error,
        check: "GUI speaks CECP to an engine that answers UCI (or vice versa), detected from the first lines",
        source: "H6",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-PIPE-DEADLOCK",
        family: Family::Cross,
        group: "Transport",
        side: Side::Either,
        severity: Severity::Error,
        check: "both sides blocked on writes (proxy observes full buffers in both directions)",
        source: "B6",
        decidable: Decidable::NotFromTraffic(
            "needs the fill levels of both pipe buffers while both sides are blocked; a recording has lines and times, not buffer state",
        ),
    },
    Rule {
        id: "REPLAY-DIVERGENCE",
        family: Family::Replay,
        group: "Replay diagnostics",
        side: Side::Either,
        severity: Severity::Note,
        check: "first search whose fingerprint (bestmove, ponder, depth, nodes, score, PV) differs from the recording",
        source: "§6.5 replay-specific diagnostic (not a spec violation)",
        decidable: Decidable::NotFromTraffic(
            "compares a replay's searches with the recording, so it needs a replay",
        ),
    },
    Rule {
        id: "REPLAY-NONDETERMINISTIC-SETUP",
        family: Family::Replay,
        group: "Replay diagnostics",
        side: Side::Either,
        severity: Severity::Note,
        check: "recording used Threads>1, wall-clock TCs, Ponder on, or no `ucinewgame`/`new` between games",
        source: "§6.5 replay-specific diagnostic (not a spec violation)",
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "REPLAY-BINARY-CHANGED",
        family: Family::Replay,
        group: "Replay diagnostics",
        side: Side::Either,
        severity: Severity::Note,
        check: "engine sha256, `id name`, EvalFile or `bench` signature differs from the recording",
        source: "§6.5 replay-specific diagnostic (not a spec violation)",
        decidable: Decidable::NotFromTraffic(
            "compares the replayed engine (its sha256, `id name`, EvalFile, `bench`) with the recording, so it needs a replay",
        ),
    },
    Rule {
        id: "REPLAY-OPTION-DRIFT",
        family: Family::Replay,
        group: "Replay diagnostics",
        side: Side::Either,
        severity: Severity::Note,
        check: "option set after `uciok`/features differs (defaults changed between versions)",
        source: "§6.5 replay-specific diagnostic (not a spec violation)",
        decidable: Decidable::NotFromTraffic(
            "compares the options the replayed engine declares with the recorded ones, so it needs a replay",
        ),
    },
    Rule {
        id: "X-HANG",
        family: Family::Cross,
        group: "Hang diagnosis",
        side: Side::Either,
        severity: Severity::Error,
        check: "an obligation is outstanding past its deadline; the subclass (handshake / ping / search / GUI-side / buffering / disconnect / deadlock) follows §5.10",
        source: "§5.10 hang diagnosis procedure (a diagnostic, not a spec violation)",
        decidable: Decidable::Traffic,
    },
    // Rules kibitzer adds to the design's tables (ids may be added, never renamed): the
    // facts the decoder notices that no row of §6 names. Their source says "(kibitzer)".
    Rule {
        id: "UCI-SYNTAX",
        family: Family::Uci,
        group: "Syntax",
        side: Side::Either,
        severity: Severity::Warning,
        check: r#"a command or message that does not follow its syntax (missing or bad argument, stray token)"#,
        source: r#""if the engine or the GUI receives an unknown command or token it should just ignore it and try to parse the rest of the string in this line." (kibitzer: the command definitions of the UCI text)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-UNKNOWN-COMMAND",
        family: Family::Uci,
        group: "Syntax",
        side: Side::Either,
        severity: Severity::Note,
        check: r#"a line that is no UCI command (GUI) or message (engine)"#,
        source: r#""if the engine or the GUI receives an unknown command or token it should just ignore it" (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "UCI-STOP-WITHOUT-SEARCH",
        family: Family::Uci,
        group: "Search lifecycle",
        side: Side::Gui,
        severity: Severity::Note,
        check: r#"`stop` while no search runs (harmless; often a race with `bestmove`)"#,
        source: r#""if the engine receives a command which is not supposed to come, for example 'stop' when the engine is not calculating, it should also just ignore it." (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-SYNTAX",
        family: Family::Cecp,
        group: "Syntax",
        side: Side::Either,
        severity: Severity::Warning,
        check: r#"a command that does not follow its syntax (missing or bad number, stray argument, legacy form)"#,
        source: r#"the command definitions of CECP v2 §8–§9 (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-UNKNOWN-COMMAND",
        family: Family::Cecp,
        group: "Syntax",
        side: Side::Gui,
        severity: Severity::Warning,
        check: r#"the GUI sends a line that is no CECP command"#,
        source: r#""an engine should not send any output to xboard that is not described in this document" holds both ways: the commands xboard sends are those of §8 (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-ACCEPTED-UNSOLICITED",
        family: Family::Cecp,
        group: "Handshake and features",
        side: Side::Gui,
        severity: Severity::Note,
        check: r#"`accepted`/`rejected` for a feature the engine never sent"#,
        source: r#""each feature F that you set generates the response 'accepted F' … or 'rejected F'" (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-MOVE-OUT-OF-TURN",
        family: Family::Cecp,
        group: "Game state",
        side: Side::Engine,
        severity: Severity::Error,
        check: r#"engine `move` when it is not on move (not in force mode: that is CECP-MOVE-IN-FORCE)"#,
        source: r#""move MOVE: Your engine is making the move MOVE" only when it is the engine's turn (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-GUI-MOVE-ILLEGAL",
        family: Family::Cecp,
        group: "Moves and notation",
        side: Side::Gui,
        severity: Severity::Error,
        check: r#"a move the GUI sends is illegal in the decoded position (the GUI's half of CECP-ILLEGAL-MOVE-REPLY, reported on the GUI's line; an engine that refuses the move is right and gets no finding)"#,
        source: r#""If your engine receives a MOVE command that is recognizably a move but is not legal in the current position, your engine must print an error message" (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-SETBOARD-BAD-FEN",
        family: Family::Cecp,
        group: "Game state",
        side: Side::Gui,
        severity: Severity::Error,
        check: r#"`setboard` (or `edit`) gives a position that fits no board"#,
        source: r#""setboard FEN: The setboard command is the new way to set up positions" (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-SETBOARD-IRREGULAR-FEN",
        family: Family::Cecp,
        group: "Game state",
        side: Side::Gui,
        severity: Severity::Warning,
        check: r#"`setboard` FEN with fields a lenient reader must repair (castling rights without the pieces, bad counters)"#,
        source: r#""setboard FEN" (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-EDIT-SYNTAX",
        family: Family::Cecp,
        group: "Game state",
        side: Side::Gui,
        severity: Severity::Warning,
        check: r#"an `edit` mode line that is no piece placement or edit command"#,
        source: r#""edit … the edit command … c, #, and piece-square pairs" (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-OPTION-UNKNOWN",
        family: Family::Cecp,
        group: "Handshake and features",
        side: Side::Gui,
        severity: Severity::Warning,
        check: r#"`option NAME=VALUE` for an option the engine did not declare"#,
        source: r#""option NAME[=VALUE] This command changes the setting of the option NAME defined by the engine" (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-UNDO-BEYOND-START",
        family: Family::Cecp,
        group: "Game state",
        side: Side::Gui,
        severity: Severity::Warning,
        check: r#"`undo`/`remove` takes back more moves than the game has"#,
        source: r#""undo … back up one move" (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-THINKING-PV-UNPLAYABLE",
        family: Family::Cecp,
        group: "Output",
        side: Side::Engine,
        severity: Severity::Note,
        check: r#"a thinking-output PV the board cannot play (e.g. a promotion written without its piece)"#,
        source: r#""pv: The principal variation … in free-form text" (thinking output is freeform; kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-PONG-DUPLICATE",
        family: Family::Cecp,
        group: "Ping",
        side: Side::Engine,
        severity: Severity::Warning,
        check: r#"`pong N` repeated for a ping that was already answered (GNU Chess 6 does this)"#,
        source: r#""reply by sending the string pong N, where N is the same number you received." (once; kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "CECP-LEGACY-FORM",
        family: Family::Cecp,
        group: "Output",
        side: Side::Engine,
        severity: Severity::Note,
        check: r#"a legacy form xboard still accepts: `1. ... e7e5` or `my move is` for `move e7e5`, `illegal move` in lowercase"#,
        source: r#"CECP §8 "xboard also accepts some variants of this command" (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-SYNTAX",
        family: Family::Nboard,
        group: "Output",
        side: Side::Either,
        severity: Severity::Warning,
        check: r#"a command or message that does not follow its syntax"#,
        source: r#"the command definitions of the NBoard protocol (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-UNKNOWN-COMMAND",
        family: Family::Nboard,
        group: "Output",
        side: Side::Either,
        severity: Severity::Note,
        check: r#"a line that is no NBoard command or message"#,
        source: r#"(kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-UNSOLICITED",
        family: Family::Nboard,
        group: "Output",
        side: Side::Engine,
        severity: Severity::Error,
        check: r#"`===` without a pending `go`, `learned` without `learn`"#,
        source: r#"go "Required: The engine responds with '=== [move]'" (answers only what was asked; kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-GUI-MOVE-ILLEGAL",
        family: Family::Nboard,
        group: "Moves",
        side: Side::Gui,
        severity: Severity::Error,
        check: r#"a move the GUI sends (or a `set game` move) is illegal on the decoded board"#,
        source: r#""move … Tell the engine to update its board with the move" (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-SET-GAME-SYNTAX",
        family: Family::Nboard,
        group: "Moves",
        side: Side::Gui,
        severity: Severity::Warning,
        check: r#"the GGF of `set game` does not parse cleanly"#,
        source: r#"set game: "in GGF format" (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "NBOARD-GO-AFTER-GAME-END",
        family: Family::Nboard,
        group: "Moves",
        side: Side::Gui,
        severity: Severity::Note,
        check: r#"`go` on a board where the game is over"#,
        source: r#"go "Required: The engine responds with '=== [move]'" (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-BOARD-UNKNOWN",
        family: Family::Cross,
        group: "Lifecycle",
        side: Side::Either,
        severity: Severity::Note,
        check: r#"the board of this variant or position is not modelled: moves are kept as text and not checked"#,
        source: r#"(kibitzer: not a fault; says why no move of the game is checked)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "X-INPUT-STARTS-MID-SESSION",
        family: Family::Cross,
        group: "Lifecycle",
        side: Side::Either,
        severity: Severity::Note,
        check: r#"an answer before any request: the recording or log starts in the middle of a session"#,
        source: r#"(kibitzer: not a fault; the request is not in the input)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "C2W-INITPOS-UNSUPPORTED",
        family: Family::C2w,
        group: "Position set-up",
        side: Side::Gui,
        severity: Severity::Error,
        check: r#"a position is set up (`setboard`, the profile's FEN command or `edit`) although the profile's `EngineInitPos` is 0 or missing"#,
        source: r#""EngineInitPos= 0 - if an engine cannot enter non-initial position""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "C2W-INITPOS-METHOD",
        family: Family::C2w,
        group: "Position set-up",
        side: Side::Gui,
        severity: Severity::Error,
        check: r#"a position is set up by another method than the profile's: `edit` when `EngineCmdSB` names a FEN command, or a FEN command (`setboard`, another word) when the profile has `edit` or another FEN command"#,
        source: r#""1 - if an engine can enter initial position: using "edit" command; fen 8/k/8/8/K/8/8/8 whomove castl ep - - using another command; a position will be entered as FEN-line, usually "setboard" command is used, in such case the following additional line is needable: EngineCmdSB=""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "C2W-FEN-FORM",
        family: Family::C2w,
        group: "Position set-up",
        side: Side::Gui,
        severity: Severity::Error,
        check: r#"the FEN command not in the form of `EngineCmdSB`: `CMD FEN` on one line, or with `\n` the command alone and then the FEN's elements (board, side to move, castling, en passant, optionally the two counters) one a line"#,
        source: r#""if an engine requires input of FEN line not as single line, but separately by elements and separated with <Enter>, must be entered \n""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "C2W-ST-COMMAND",
        family: Family::C2w,
        group: "Time controls",
        side: Side::Gui,
        severity: Severity::Error,
        check: r#"a seconds-per-move command other than `EngineCmdST N` (any, when the profile has no `EngineCmdST`)"#,
        source: r#""EngineCmdST= SearchTime command may be entered (if the time control "Seconds per move" is supported), usually abbreviated as "st""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "C2W-SD-COMMAND",
        family: Family::C2w,
        group: "Time controls",
        side: Side::Gui,
        severity: Severity::Error,
        check: r#"a search-depth command other than `EngineCmdSD N` (any, when the profile has no `EngineCmdSD`)"#,
        source: r#""EngineCmdSD= SearchDepth command may be entered (if supported). Usually abbreviated as "sd""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "C2W-LEVEL-FORM",
        family: Family::C2w,
        group: "Time controls",
        side: Side::Gui,
        severity: Severity::Error,
        check: r#"a `level` in a form `EngineTypeOfCmdLevel` excludes: anything but `level 0 BASE 0` under 0; a `MIN:SEC` base when the sum has 1 but not 2"#,
        source: r#""0 - engine supports base-inc time control only (like Amyan), the command "level" can be presented as "level 0 time 0" only 1 - engine supports the standard output of command "level"; time settings without seconds 2 - the same as 1, but time settings with seconds""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "C2W-TIME-COMMAND",
        family: Family::C2w,
        group: "Time controls",
        side: Side::Gui,
        severity: Severity::Warning,
        check: r#"`time` or `otim` although `EngineTypeOfCmdLevel` lacks 4"#,
        source: r#""4 - 'time" command is used (conforms to standards, the time control is considered and defined by the command "level")""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "C2W-HASH-FORM",
        family: Family::C2w,
        group: "Commands the profile declares",
        side: Side::Gui,
        severity: Severity::Error,
        check: r#"a hash command not in the form of `EngineTypeOfCmdHash` (11 `CMD 32M`, 12 `CMD 32`, 16 `CMD` then the size on the next line, 32 and 33 `CMD N`), or one on the wire when the profile puts the size on the command line (40–48, 331, 441) or in an ini file (101–104)"#,
        source: r#""EngineTypeOfCmdHash=11 for Crafty, Bionic hash size can be entered like hash 32M … EngineTypeOfCmdHash=12 … like hash 32 (no M letter)""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "C2W-MOVENOW-UNDECLARED",
        family: Family::C2w,
        group: "Commands the profile declares",
        side: Side::Gui,
        severity: Severity::Error,
        check: r#"`?` although the profile's `EngineMoveNow` is not 1"#,
        source: r#""EngineMoveNow= 0 - if an engine cannot stop computing after clicking on "?" and display the best move … 1 - if an engine supports the command "?""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "C2W-HINT-UNDECLARED",
        family: Family::C2w,
        group: "Commands the profile declares",
        side: Side::Gui,
        severity: Severity::Error,
        check: r#"`hint` although the profile has no `EngineCmdHint`, or another word for it"#,
        source: r#""EngineCmdHint= The Hint command is used (if supported by an engine) to display hint output like "Hint: move""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "C2W-HINT-SILENT",
        family: Family::C2w,
        group: "Commands the profile declares",
        side: Side::Engine,
        severity: Severity::Warning,
        check: r#"the profile's hint command (`EngineCmdHint`) gets no `Hint: MOVE` before the GUI's next command: the GUI's hint does nothing with this engine"#,
        source: r#""EngineCmdHint= The Hint command is used (if supported by an engine) to display hint output like "Hint: move"" (CECP lets an engine ignore `hint`; a profile that declares it says this one answers) (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "C2W-DRAW-UNDECLARED",
        family: Family::C2w,
        group: "Commands the profile declares",
        side: Side::Gui,
        severity: Severity::Error,
        check: r#"`draw` although the profile has no `EngineCmdDraw`, or another word for it"#,
        source: r#""EngineCmdDraw= The Draw command is used (if supported by an engine) to accept or decline draw""#,
        decidable: Decidable::Traffic,
    },
    Rule {
        id: "C2W-DECLARED-REFUSED",
        family: Family::C2w,
        group: "Commands the profile declares",
        side: Side::Engine,
        severity: Severity::Error,
        check: r#"the engine answers a command the profile declares with `Error (...): CMD`, `Illegal move: CMD` or `Invalid move: CMD`: the profile and the engine disagree"#,
        source: r#"the profile's command keys are to be given "if supported by an engine" (EngineCmdHint, EngineCmdDraw; likewise EngineCmdST, EngineCmdSD, EngineCmdSB, EngineMoveNow) (kibitzer)"#,
        decidable: Decidable::Traffic,
    },
];

/// The severity and the side at fault of a finding of rule `id` on a line `line_side` sent:
/// the catalogue's severity, and its side, or for rules of either side the sender's. An id
/// missing from the catalogue (a bug a test catches) still counts, as an error.
pub fn weigh(id: &str, line_side: Option<Side>) -> (Severity, Side) {
    let (severity, side) = match rule(id) {
        Some(r) => (r.severity, r.side),
        None => (Severity::Error, Side::Either),
    };
    match (side, line_side) {
        (Side::Either, Some(s)) => (severity, s),
        (s, _) => (severity, s),
    }
}

/// The rule with this id, ignoring ASCII case (users type ids in lowercase too).
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id.eq_ignore_ascii_case(id))
}

/// Renders `docs/rules.md`. `implemented` tells which ids have a check in the code; it is a
/// parameter so that the catalogue does not depend on the checker.
pub fn render_markdown(implemented: &dyn Fn(&str) -> bool) -> String {
    let mut out = String::new();
    write_markdown(&mut out, implemented).expect("writing to a String cannot fail");
    out
}

fn write_markdown(out: &mut String, implemented: &dyn Fn(&str) -> bool) -> fmt::Result {
    let decidable = RULES
        .iter()
        .filter(|r| r.decidable == Decidable::Traffic)
        .count();
    let done = RULES.iter().filter(|r| implemented(r.id)).count();

    writeln!(out, "# Rule catalogue")?;
    writeln!(out)?;
    writeln!(
        out,
        "<!-- Generated from src/rules/catalogue.rs; do not edit by hand. -->"
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "Every check `kibitzer check` performs has a stable id (ids may be added, never \
         renamed), the side at fault, a severity and the spec sentence it rests on."
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "This file is generated from `src/rules/catalogue.rs`, and `cargo test` fails when it \
         is stale. After changing the catalogue or the set of implemented checks, regenerate \
         it with:"
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "    KIBITZER_BLESS=1 cargo test --lib rules::catalogue"
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "Severities, from least to most serious: {}. Side `either` means the engine or the \
         GUI, depending on the case. A rule is decidable from traffic when a recording or log \
         (lines both ways with timestamps, plus the proxy's own events: spawn, EOF, exit code \
         or signal, signals forwarded, kills) is enough to decide it.",
        [
            Severity::Chat,
            Severity::Note,
            Severity::Warning,
            Severity::Error
        ]
        .map(Severity::as_str)
        .join(", ")
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "{} rules; {decidable} decidable from traffic; {done} implemented.",
        RULES.len()
    )?;

    for family in Family::ALL {
        writeln!(out)?;
        writeln!(out, "## {}", family.title())?;
        for group in groups(family) {
            writeln!(out)?;
            writeln!(out, "### {group}")?;
            writeln!(out)?;
            writeln!(out, "| id | side | severity | check | source | status |")?;
            writeln!(out, "|---|---|---|---|---|---|")?;
            for r in RULES
                .iter()
                .filter(|r| r.family == family && r.group == group)
            {
                writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} |",
                    r.id,
                    r.side.as_str(),
                    r.severity.as_str(),
                    escape_cell(r.check),
                    escape_cell(r.source),
                    status(r, implemented),
                )?;
            }
        }
    }

    writeln!(out)?;
    writeln!(out, "## Not decidable from traffic")?;
    writeln!(out)?;
    writeln!(
        out,
        "These rules need something a recording does not hold; they can only come from the \
         live proxy, a replay or the program's own logs."
    )?;
    writeln!(out)?;
    for r in RULES {
        if let Decidable::NotFromTraffic(reason) = r.decidable {
            writeln!(out, "- **{}**: {}", r.id, escape_inline(reason))?;
        }
    }
    Ok(())
}

/// The family's groups in the order they first appear, so that the documentation follows the
/// design's tables.
fn groups(family: Family) -> Vec<&'static str> {
    let mut groups: Vec<&'static str> = Vec::new();
    for r in RULES.iter().filter(|r| r.family == family) {
        if !groups.contains(&r.group) {
            groups.push(r.group);
        }
    }
    groups
}

fn status(rule: &Rule, implemented: &dyn Fn(&str) -> bool) -> &'static str {
    // A check that exists wins: a rule a recording cannot decide may still be implemented by
    // the live proxy or the replayer.
    if implemented(rule.id) {
        "implemented"
    } else if let Decidable::NotFromTraffic(_) = rule.decidable {
        "not decidable from traffic"
    } else {
        "not yet"
    }
}

/// Text for a table cell: a `|` would end the cell, even inside a code span, so GitHub
/// markdown wants it escaped everywhere.
fn escape_cell(text: &str) -> String {
    escape_inline(text).replace('|', "\\|")
}

/// The design quotes spec placeholders such as `<x>` outside code spans, where markdown would
/// take them for HTML tags and drop them; inside code spans `&lt;` would show literally, so only
/// the text between spans is escaped.
fn escape_inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for c in text.chars() {
        match c {
            '`' => {
                in_code = !in_code;
                out.push(c);
            }
            '<' if !in_code => out.push_str("&lt;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::path::Path;

    #[test]
    fn ids_are_unique_uppercase_and_prefixed() {
        let mut seen = HashSet::new();
        for r in RULES {
            assert!(seen.insert(r.id), "duplicate id {}", r.id);
            assert!(
                r.id.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-'),
                "{} is not an uppercase id",
                r.id
            );
            assert!(
                r.id.starts_with(r.family.prefix()),
                "{} does not start with {}",
                r.id,
                r.family.prefix()
            );
            assert!(!r.id.ends_with('-') && !r.id.contains("--"), "{}", r.id);
            assert!(!r.group.is_empty() && !r.check.is_empty() && !r.source.is_empty());
        }
    }

    #[test]
    fn counts_per_family_match_the_transcribed_tables() {
        // rules.md claims "51 UCI + 43 CECP + 13 NBoard + 16 cross-protocol = 123 checkable
        // rules (+5 replay/hang diagnostics)", and its tables do have 51, 43, 13 and 16 rows
        // and 5 diagnostics. The catalogue differs from the claim in two places, both by
        // design: the single 6.4 row "X-NON-UTF8 / X-CONTROL-CHARS" is two rules here (16 rows,
        // 17 rules), and the diagnostic X-HANG belongs to the cross-protocol family by its id,
        // leaving 4 in the replay family. 129 = 123 + 1 + 5. The second terms are the rules
        // kibitzer adds (their source says "(kibitzer)"): 129 + 24 = 153.
        let count = |f: Family| RULES.iter().filter(|r| r.family == f).count();
        assert_eq!(count(Family::Uci), 51 + 3);
        assert_eq!(count(Family::Cecp), 43 + 13);
        assert_eq!(count(Family::Nboard), 13 + 6);
        assert_eq!(count(Family::Cross), 17 + 1 + 2);
        assert_eq!(count(Family::Replay), 4);
        // The `.c2w` rules come from the Chess Academy text, not the design's tables (one,
        // C2W-HINT-SILENT, is kibitzer's reading of it).
        assert_eq!(count(Family::C2w), 13);
        assert_eq!(RULES.len(), 153 + 13);
    }

    #[test]
    fn spot_checks_against_the_design() {
        let expect = |id: &str, side: Side, severity: Severity| {
            let r = rule(id).unwrap_or_else(|| panic!("{id} missing"));
            assert_eq!((r.side, r.severity), (side, severity), "{id}");
        };
        expect("UCI-GO-WHILE-SEARCHING", Side::Gui, Severity::Error);
        expect("UCI-INFO-PV-ILLEGAL", Side::Engine, Severity::Warning);
        expect("CECP-MOVE-ILLEGAL", Side::Engine, Severity::Error);
        expect("NBOARD-FIRST-COMMAND", Side::Gui, Severity::Error);
        expect("X-LINE-ENDING", Side::Either, Severity::Note);
        expect("X-NON-UTF8", Side::Engine, Severity::Note);
        expect("X-CONTROL-CHARS", Side::Engine, Severity::Note);
        expect("X-HANG", Side::Either, Severity::Error);
        expect("REPLAY-DIVERGENCE", Side::Either, Severity::Note);
        assert_eq!(
            rule("UCI-INFO-CURRMOVE-EARLY").map(|r| r.group),
            Some("Info lines")
        );
    }

    #[test]
    fn lookup_ignores_case_but_not_spelling() {
        assert_eq!(
            rule("uci-bestmove-illegal").map(|r| r.id),
            Some("UCI-BESTMOVE-ILLEGAL")
        );
        assert!(rule("UCI-BESTMOVE").is_none());
        assert!(rule("").is_none());
    }

    #[test]
    fn severities_order_and_parse() {
        assert!(Severity::Chat < Severity::Note);
        assert!(Severity::Note < Severity::Warning);
        assert!(Severity::Warning < Severity::Error);
        for s in [
            Severity::Chat,
            Severity::Note,
            Severity::Warning,
            Severity::Error,
        ] {
            assert_eq!(Severity::from_name(s.as_str()), Some(s));
        }
        assert_eq!(Severity::from_name("WARN"), Some(Severity::Warning));
        assert_eq!(Severity::from_name("Error"), Some(Severity::Error));
        assert_eq!(Severity::from_name("fatal"), None);
    }

    #[test]
    fn serialized_names_match_as_str() {
        let r = rule("UCI-MOVE-FORMAT").unwrap();
        let v = serde_json::to_value(r).unwrap();
        assert_eq!(v["side"], "either");
        assert_eq!(v["severity"], "error");
        assert_eq!(v["family"], "uci");
        assert_eq!(v["decidable"], "traffic");
        let v = serde_json::to_value(rule("X-PIPE-DEADLOCK").unwrap()).unwrap();
        assert!(v["decidable"]["not-from-traffic"].is_string());
    }

    #[test]
    fn undecidable_rules_are_few_and_explained() {
        let undecidable: Vec<_> = RULES
            .iter()
            .filter_map(|r| match r.decidable {
                Decidable::NotFromTraffic(reason) => Some((r.id, reason)),
                Decidable::Traffic => None,
            })
            .collect();
        for (id, reason) in &undecidable {
            assert!(reason.len() > 20, "{id} needs a real reason");
        }
        // A guard, not a law: raising it should come with a reason per rule.
        assert!(undecidable.len() <= 10, "{undecidable:?}");
    }

    #[test]
    fn implemented_ids_are_catalogued() {
        for id in crate::rules::implemented_ids() {
            assert!(rule(id).is_some(), "implemented id {id} is not in RULES");
        }
    }

    /// Every rule id written in the code that judges traffic: the decoder, the parsers and
    /// the rules stage. Found by reading the sources, so that a new finding cannot name an
    /// id the catalogue lacks, and `implemented_ids` cannot claim a rule no code reports.
    fn ids_in_code() -> std::collections::BTreeSet<String> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut found = std::collections::BTreeSet::new();
        let mut dirs = vec![
            root.join("session"),
            root.join("protocol"),
            root.join("rules"),
        ];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                // The catalogue itself and test files name ids without reporting them.
                if name == "catalogue.rs" || name.contains("test") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let text = text.split("#[cfg(test)]").next().unwrap_or("");
                for piece in text.split('"').skip(1).step_by(2) {
                    let is_id = Family::ALL.iter().any(|f| piece.starts_with(f.prefix()))
                        && piece.len() > 3
                        && piece
                            .bytes()
                            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-')
                        && !piece.ends_with('-');
                    if is_id {
                        found.insert(piece.to_owned());
                    }
                }
            }
        }
        found
    }

    #[test]
    fn every_rule_id_in_the_code_is_catalogued_and_listed_as_implemented() {
        let in_code = ids_in_code();
        assert!(in_code.len() > 40, "{in_code:?}");
        for id in &in_code {
            assert!(
                rule(id).is_some(),
                "{id} is reported by the code but not in RULES"
            );
        }
        let listed: std::collections::BTreeSet<String> = crate::rules::implemented_ids()
            .iter()
            .map(|s| s.to_string())
            .collect();
        let missing: Vec<_> = in_code.difference(&listed).collect();
        let extra: Vec<_> = listed.difference(&in_code).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "implemented_ids() is out of date: add {missing:?}, remove {extra:?}"
        );
    }

    #[test]
    fn cells_escape_pipes_and_stray_tags() {
        assert_eq!(escape_cell("a | b"), "a \\| b");
        assert_eq!(escape_cell("`x|y`"), "`x\\|y`");
        assert_eq!(escape_cell("id name <x>"), "id name &lt;x>");
        assert_eq!(escape_cell("`cp <int>`"), "`cp <int>`");
    }

    #[test]
    fn rendering_has_one_row_per_rule() {
        let md = render_markdown(&|id| id == "UCI-FIRST-COMMAND");
        let rows = md
            .lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| id "))
            .count();
        assert_eq!(rows, RULES.len());
        assert!(md.contains("| UCI-FIRST-COMMAND | gui | warning |"));
        assert!(md.contains("1 implemented."));
        assert!(md.contains("| X-PIPE-DEADLOCK |") && md.contains("- **X-PIPE-DEADLOCK**: "));
    }

    #[test]
    fn docs_rules_md_is_current() {
        let ids = crate::rules::implemented_ids();
        let rendered = render_markdown(&|id| ids.iter().any(|i| i.eq_ignore_ascii_case(id)));
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md");
        if std::env::var_os("KIBITZER_BLESS").is_some_and(|v| v == "1") {
            std::fs::write(&path, &rendered).unwrap();
            return;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != rendered {
            // Point at the first difference: the whole file in an assert_eq! would bury it.
            let line = committed
                .lines()
                .zip(rendered.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| committed.lines().count().min(rendered.lines().count()));
            panic!(
                "docs/rules.md is stale (first difference at line {}); regenerate it with \
                 `KIBITZER_BLESS=1 cargo test --lib rules::catalogue` and commit it",
                line + 1
            );
        }
    }
}
