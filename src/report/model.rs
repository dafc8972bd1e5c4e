//! The tournament report's types: what `kibitzer report --format json` prints and `--merge`
//! reads back. Typed, versioned (`schema`), documented in `docs/report.md` with a JSON Schema
//! in `docs/report.schema.json`.
//!
//! Everything in it merges exactly: counts add, latencies are fixed-bucket histograms, and the
//! places kept per row are the first few in (file, line) order, whichever worker saw them.

use crate::rules::HangClass;
use crate::rules::catalogue::{RuleId, Severity, Side};
use crate::rules::report::Counts;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

/// Bumped when a field changes meaning or goes away; fields may be added within a version.
pub const SCHEMA: &str = "kibitzer-report/1";

/// Places kept per row (a rule, a hang class, a runner verdict, a list of inputs).
pub const PLACES: usize = 5;

/// The report over many inputs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Report {
    /// The report's name and version.
    #[serde(deserialize_with = "schema_tag")]
    #[schemars(extend("const" = SCHEMA))]
    pub schema: crate::serde_static::StaticStr,
    /// `kibitzer VERSION`.
    pub tool: String,
    /// The deadline profile the timing rules used.
    #[schemars(extend("enum" = crate::rules::Profile::NAMES))]
    pub profile: String,
    /// `--c2w`: the Chess Academy profile CECP sessions were held to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub c2w: Option<String>,
    pub inputs: Inputs,
    /// Per engine, by name.
    pub engines: Vec<EngineReport>,
    /// Every engine's findings by severity (a folded finding as often as it happened).
    pub findings: Counts,
}

/// What was read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Inputs {
    /// Files judged.
    pub files: u64,
    /// Engine sessions in them (an engine process, or an engine's part of a log).
    pub sessions: u64,
    pub games: u64,
    /// Files that could not be read, or lost lines: the exit status is then 2.
    pub unreadable: u64,
    /// The first of them, by name.
    pub unreadable_files: Vec<InputProblem>,
    /// Files in the directories walked that are neither a recording nor a known log: not
    /// judged, and no error.
    pub not_recognised: u64,
    /// The first of them, by name.
    pub not_recognised_files: Vec<InputProblem>,
    /// The runner's PGN files read for results (`.pgn`, named or found in a directory).
    #[serde(default)]
    pub pgn_files: u64,
    /// Games in them.
    #[serde(default)]
    pub pgn_games: u64,
    /// Of those, the games some recording or log was matched to (one side or both).
    #[serde(default)]
    pub pgn_games_matched: u64,
    /// The first games no input was matched to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pgn_games_unmatched: Vec<PgnGameRef>,
}

/// A game of the runner's PGN.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct PgnGameRef {
    pub file: String,
    /// Its first line.
    pub line: u64,
    pub white: String,
    pub black: String,
    pub result: String,
}

/// A file that was not judged, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct InputProblem {
    pub file: String,
    pub error: String,
}

/// One engine, as it identified itself (`id name`, `feature myname`), over every input.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EngineReport {
    /// The name the engine gave; an engine that gave none is named by its command
    /// (`unnamed: /usr/games/fairymax`) or its log label.
    pub engine: String,
    /// The protocols it spoke (`uci`, `xboard`, `nboard`).
    pub protocols: Vec<String>,
    pub sessions: u64,
    pub games: u64,
    /// Results from the engine's point of view.
    pub results: Results,
    /// How its games ended, by ending, as the runner said and as kibitzer judges.
    pub endings: Vec<EndingCount>,
    /// Its findings by severity, derived from `rules`: every side's (a GUI's faults show up under the engine it
    /// drove; `rules` says whose each is).
    pub findings: Counts,
    /// Findings per rule, most severe first, then most frequent.
    pub rules: Vec<RuleRow>,
    /// Sessions that ended owing something, per stall class.
    pub hangs: Vec<HangRow>,
    /// What the runner (cutechess, fastchess...) said went wrong with the engine.
    pub runner_verdicts: Vec<VerdictRow>,
    /// Latencies per request type, and the time a search took beyond its budget.
    pub latencies: Vec<LatencyRow>,
    /// What its process used, from the proxy's samples (recordings made with sampling on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process: Option<ProcessRow>,
}

/// An engine's process over its sampled sessions. The growth of its memory across games is
/// the slope of resident memory at each game's end against the game's number, within each
/// session (a new process starts from its own baseline), pooled over the sessions: kept as
/// the sums that add up exactly when reports merge.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ProcessRow {
    /// Sessions with samples, and the games in them.
    pub sessions: u64,
    pub games: u64,
    /// The most resident memory any sample saw, KiB.
    pub peak_rss_kib: u64,
    /// Memory growth, KiB per game (`rss_sxy / rss_sxx`); absent with fewer than two games
    /// in one session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rss_growth_kib_per_game: Option<f64>,
    /// The sums behind it: Σ(x-x̄)(y-ȳ) and Σ(x-x̄)² within each session.
    pub rss_sxy: f64,
    pub rss_sxx: f64,
    /// CPU time used, and time ready to run but waiting for a CPU, ms.
    pub cpu_ms: u64,
    pub run_delay_ms: u64,
    /// `run_delay_ms` per game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starved_ms_per_game: Option<f64>,
}

/// `2 session(s), 8 game(s) sampled: peak 136 MiB, +30.1 MiB a game, CPU 45.2 s, waited for a
/// CPU 1.2 s (0.15 s a game)`.
pub fn process_line(p: &ProcessRow) -> String {
    let mib = |k: f64| k / 1024.0;
    let mut s = format!(
        "{} session(s), {} game(s) sampled: peak {:.0} MiB",
        p.sessions,
        p.games,
        mib(p.peak_rss_kib as f64)
    );
    if let Some(g) = p.rss_growth_kib_per_game {
        s.push_str(&format!(", {:+.1} MiB a game", mib(g)));
    }
    s.push_str(&format!(
        ", CPU {:.1} s, waited for a CPU {:.1} s",
        p.cpu_ms as f64 / 1e3,
        p.run_delay_ms as f64 / 1e3
    ));
    if let Some(w) = p.starved_ms_per_game {
        s.push_str(&format!(" ({:.2} s a game)", w / 1e3));
    }
    s
}

impl ProcessRow {
    /// One session: its usage and the start of each of its games (ns).
    pub fn of_session(u: &crate::rules::forensics::ProcessUsage, starts: &[u64]) -> ProcessRow {
        let ys: Vec<f64> = u
            .rss_at_game_ends(starts)
            .into_iter()
            .map(|y| y as f64)
            .collect();
        let n = ys.len() as f64;
        let (mut sxy, mut sxx) = (0.0, 0.0);
        if ys.len() >= 2 {
            let xbar = (n + 1.0) / 2.0;
            let ybar = ys.iter().sum::<f64>() / n;
            for (i, y) in ys.iter().enumerate() {
                let dx = (i + 1) as f64 - xbar;
                sxy += dx * (y - ybar);
                sxx += dx * dx;
            }
        }
        let mut row = ProcessRow {
            sessions: 1,
            games: starts.len() as u64,
            peak_rss_kib: u.peak_rss_kib,
            rss_sxy: sxy,
            rss_sxx: sxx,
            cpu_ms: u.cpu_ms,
            run_delay_ms: u.run_delay_ms,
            ..ProcessRow::default()
        };
        row.settle();
        row
    }

    pub fn merge(&mut self, o: &ProcessRow) {
        self.sessions += o.sessions;
        self.games += o.games;
        self.peak_rss_kib = self.peak_rss_kib.max(o.peak_rss_kib);
        self.rss_sxy += o.rss_sxy;
        self.rss_sxx += o.rss_sxx;
        self.cpu_ms += o.cpu_ms;
        self.run_delay_ms += o.run_delay_ms;
        self.settle();
    }

    /// The figures derived from the sums.
    pub fn settle(&mut self) {
        self.rss_growth_kib_per_game = (self.rss_sxx > 0.0).then(|| self.rss_sxy / self.rss_sxx);
        self.starved_ms_per_game =
            (self.games > 0).then(|| self.run_delay_ms as f64 / self.games as f64);
    }
}

/// Wins, draws and losses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Results {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Games without a result on the wire or in the log (a UCI game the GUI adjudicated),
    /// or where the engine's colour is not known.
    pub unknown: u64,
}

/// How a game ended.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    Checkmate,
    /// Stalemate, repetition, the fifty-move rule, insufficient material, an agreed draw.
    Draw,
    /// A variant's own win (three checks, king of the hill...).
    VariantEnd,
    Resignation,
    Adjudication,
    TimeForfeit,
    IllegalMove,
    Disconnect,
    Stall,
    /// The runner ended the game for the opponent's fault (its illegal move, its clock...):
    /// what a fault ending is to the engine that won by it.
    OpponentFault,
    /// A result with a reason none of the above.
    Other,
    /// No result: the game stopped without one on the wire (UCI has none) or in the log.
    NoResult,
}

impl Ending {
    pub fn as_str(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::Draw => "draw",
            Ending::VariantEnd => "variant end",
            Ending::Resignation => "resignation",
            Ending::Adjudication => "adjudication",
            Ending::TimeForfeit => "time forfeit",
            Ending::IllegalMove => "illegal move",
            Ending::Disconnect => "disconnect",
            Ending::Stall => "stall",
            Ending::OpponentFault => "opponent's fault",
            Ending::Other => "other",
            Ending::NoResult => "no result",
        }
    }

    /// An ending the engine is to blame for.
    pub fn is_fault(self) -> bool {
        matches!(
            self,
            Ending::TimeForfeit | Ending::IllegalMove | Ending::Disconnect | Ending::Stall
        )
    }
}

/// Games that ended one way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct EndingCount {
    pub ending: Ending,
    /// Games the runner or GUI said ended so (its result line's reason).
    pub runner: u64,
    /// Games kibitzer judges ended so: from the board, or from the engine's fault on the wire
    /// (its illegal move, its clock run out, its exit, its stall).
    pub kibitzer: u64,
    /// Of the games the runner said ended so, those kibitzer judges ended so too: the
    /// runner's verdict explained by kibitzer's finding or hang verdict.
    #[serde(default)]
    pub explained: u64,
    /// The first games kibitzer judges so, where they ended (faults only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub places: Vec<Place>,
    /// The first games the runner said ended so (a fault) that kibitzer found nothing to
    /// explain: where each game starts in its input.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unexplained: Vec<Place>,
}

/// A line of an input.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct Place {
    pub file: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// The command that opens the viewer there.
    pub view: String,
}

impl Place {
    pub fn new(file: &str, line: Option<u64>) -> Place {
        let quoted = shell_quote(file);
        let view = match line {
            Some(l) => format!("kibitzer view {quoted} +{l}"),
            None => format!("kibitzer view {quoted}"),
        };
        Place {
            file: file.to_owned(),
            line,
            view,
        }
    }
}

/// `file` as one shell word.
fn shell_quote(file: &str) -> String {
    let plain = !file.is_empty()
        && file
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,@%".contains(&b));
    if plain {
        file.to_owned()
    } else {
        format!("'{}'", file.replace('\'', r"'\''"))
    }
}

/// One rule's findings for an engine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RuleRow {
    pub rule: RuleId,
    pub severity: Severity,
    /// Who is at fault.
    pub side: Side,
    /// Times broken.
    pub count: u64,
    /// Sessions it was broken in.
    pub sessions: u64,
    /// The first places, in (file, line) order.
    pub places: Vec<Place>,
}

/// Sessions that ended owing something of one stall class.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct HangRow {
    pub class: HangClass,
    /// What the engine's process was doing, when the recording has samples.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process: Option<crate::rules::forensics::ProcessState>,
    /// `PENDING`, `STALL`, `TIMEOUT` or `DISCONNECT`.
    pub label: String,
    pub count: u64,
    pub places: Vec<Place>,
}

/// One kind of runner verdict on an engine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct VerdictRow {
    /// `illegal move`, `loss on time`, `stall`, `disconnect`...
    pub kind: String,
    pub count: u64,
    /// Of those, the verdicts kibitzer checked and found wrong (a move the runner called
    /// illegal that is legal in the position it quotes).
    pub kibitzer_disagrees: u64,
    pub places: Vec<Place>,
}

/// The latencies of one request type: the judge's figures, the same `check` prints.
pub type LatencyRow = crate::rules::LatencyStats;

fn schema_tag<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    crate::serde_static::tag(d, SCHEMA)
}
