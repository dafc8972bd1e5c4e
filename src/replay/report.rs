//! The replay report: typed, serialised as `replay --format json` (schema
//! `docs/replay-report.schema.json`, `"schema"` [`SCHEMA`]) and printed as text.

use crate::rules::HangVerdict;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt::Write as _;

/// What the JSON report's `schema` field says (`kibitzer-NAME/N`, N bumped on any incompatible
/// change), the convention of every report.
pub const SCHEMA: &str = "kibitzer-replay/3";

/// The report `kibitzer replay --format json` prints.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ReplayReport {
    /// The report's name and version.
    #[serde(deserialize_with = "schema_tag")]
    #[schemars(extend("const" = SCHEMA))]
    pub schema: crate::serde_static::StaticStr,
    pub original: OriginalInfo,
    pub replay: ReplayInfo,
    /// `--deterministic` rewrites, in the order of the script: each line replaced (original
    /// and replayed), dropped (no replayed) or inserted (no original).
    pub rewrites: Vec<Rewrite>,
    /// Drift between the recorded engine and this one, and setups that cannot reproduce.
    pub preflight: Vec<crate::rules::Finding>,
    pub verdict: Verdict,
    pub searches: SearchTally,
    /// Searches that differ (expected ones included, marked).
    pub search_diffs: Vec<SearchDiff>,
    /// Every difference, protocol and search, in the original's line order; the verdict is
    /// the first with `expected` false.
    pub differences: Vec<Difference>,
    /// The first diverging search's engine lines side by side (volatile fields masked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_divergence: Option<SideBySide>,
    /// The hang verdicts (as in `kibitzer check`'s report) of the original and of the replay.
    pub hang: HangPair,
    /// `--verify`: the new recording replayed once more.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification: Option<Verification>,
}

/// The second run of `--verify` (level L3 of replay.md).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Verification {
    /// Its recording.
    pub recording: String,
    /// Both runs gave the same answers.
    pub identical: bool,
    pub searches: SearchTally,
    /// The second run against the first.
    pub verdict: Verdict,
}

/// What was replayed.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct OriginalInfo {
    /// As named on the command line.
    pub file: String,
    /// `recording` or the log format (`xboard-debug`, `cutechess-cli`...).
    pub format: String,
    /// The log's engine session (`--session`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::serde_static::interned_opt"
    )]
    #[schemars(extend("enum" = ["uci", "xboard", "nboard"]))]
    pub protocol: Option<crate::serde_static::StaticStr>,
    /// The recorded engine's `id name` / `myname`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// GUI lines of the original, the script's.
    pub gui_lines: usize,
    /// Searches of the original.
    pub searches: usize,
}

/// The replay: the engine, how it was paced, how far it got.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ReplayInfo {
    pub engine_argv: Vec<String>,
    /// The replayed engine's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// The new recording, when one was written (its header's `replay_of` names the original).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recording: Option<String>,
    #[serde(deserialize_with = "crate::serde_static::interned")]
    #[schemars(extend("enum" = ["sync", "recorded", "fast"]))]
    pub pace: crate::serde_static::StaticStr,
    /// With pace `recorded`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<f64>,
    pub deterministic: bool,
    /// Determinism level of replay.md: `L0` wire replay, `L1` sync-paced, `L2` clock-normalised
    /// (`--deterministic`), `L3` verified (`--verify`: a second run gave the same answers).
    #[serde(deserialize_with = "crate::serde_static::interned")]
    #[schemars(extend("enum" = ["L0", "L1", "L2", "L3"]))]
    pub level: crate::serde_static::StaticStr,
    /// GUI lines sent, of the script's.
    pub lines_sent: usize,
    pub lines_total: usize,
    /// How the engine ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit: Option<String>,
    /// The watchdog fired: what was not answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stall: Option<super::run::Stall>,
}

/// A line of the script `--deterministic` rewrote.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Rewrite {
    /// The original's line; `None` for an inserted line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// The original text; `None` for an inserted line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original: Option<String>,
    /// What is sent instead; `None` for a dropped line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replayed: Option<String>,
    pub why: String,
}

/// Exit status 0 for `reproduced`, 1 otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum VerdictKind {
    /// The engine behaved as in the original (expected differences aside).
    Reproduced,
    /// It did not.
    Diverged,
    /// The original's hang happened again.
    HangReproduced,
}

impl VerdictKind {
    /// Exit status, the one convention of every command: 0 only for `reproduced`; 1 for a
    /// divergence or a reproduced hang (the verdict says which); 2 is bad input.
    pub fn exit_status(self) -> i32 {
        match self {
            VerdictKind::Reproduced => 0,
            VerdictKind::Diverged => 1,
            VerdictKind::HangReproduced => 1,
        }
    }
}

/// Whether the replay reproduced the original, and where it first differed.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Verdict {
    pub kind: VerdictKind,
    /// The original's line where behaviour first differs (or the hang's request).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// The same place in the new recording.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay_line: Option<u64>,
    /// The search (1-based) where it diverged, when a search did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<usize>,
    pub summary: String,
}

/// Searches of the original and of the replay, compared.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, JsonSchema)]
pub struct SearchTally {
    pub original: usize,
    pub replay: usize,
    pub compared: usize,
    pub identical: usize,
    /// Differing searches that were not limited by the clock: divergences.
    pub differing: usize,
    /// Differing searches that were clock-limited in the original: expected.
    pub expected: usize,
    /// Searches of the original the replay never reached.
    pub missing: usize,
    /// Of `expected`: limited by the clock in the original.
    #[serde(default)]
    pub expected_clock: usize,
    /// Of `expected`: searched with several threads in the original (and not clock-limited);
    /// the most threads any of them had.
    #[serde(default)]
    pub expected_threads: usize,
    #[serde(default)]
    pub most_threads: u64,
}

/// What a search answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Fingerprint {
    /// The request line (`go ...`).
    pub request: String,
    pub bestmove: Option<String>,
    pub ponder: Option<String>,
    pub depth: Option<u32>,
    /// `+0.25`, `-1.50`, `+M3` (the engine's view).
    pub score: Option<String>,
    pub nodes: Option<u64>,
    pub pv: Option<String>,
}

/// A search that differs.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SearchDiff {
    /// 1-based, in the order of the session (the original's numbering).
    pub index: usize,
    pub original: Fingerprint,
    /// `null`: the replay never reached this search.
    pub replay: Option<Fingerprint>,
    pub clock_limited: bool,
    /// A different result is expected: clock-limited or multi-threaded in the original, or
    /// after a CECP/NBoard game took another course at such a search.
    pub expected: bool,
    /// `bestmove`, `ponder`, `depth`, `score`, `pv`, `nodes`, `info`, or `missing`.
    #[serde(deserialize_with = "crate::serde_static::interned_vec")]
    #[schemars(extend("items" = {
        "type": "string",
        "enum": ["bestmove", "ponder", "depth", "score", "pv", "nodes", "info", "missing"],
    }))]
    pub fields: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay_line: Option<u64>,
    pub message: String,
}

/// What kind of difference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DiffKind {
    /// Obligations answered, engine-side findings.
    Protocol,
    /// The engine's end: exit code, crash.
    Exit,
    /// A hang verdict.
    Hang,
    /// A search's answer.
    Search,
}

/// A difference between the original and the replay.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Difference {
    pub kind: DiffKind,
    pub expected: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay_line: Option<u64>,
    pub message: String,
}

/// A search's engine lines side by side, volatile fields masked.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SideBySide {
    pub search: usize,
    pub rows: Vec<Row>,
}

/// A line of the original and the replay's at the same place.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Row {
    pub same: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original_line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay_line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay: Option<String>,
}

/// The hang verdicts of the original and of the replay, when there are.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct HangPair {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original: Option<HangVerdict>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay: Option<HangVerdict>,
}

fn schema_tag<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    crate::serde_static::tag(d, SCHEMA)
}

impl ReplayReport {
    /// The report as text: what was replayed, drift warnings, the differences, the first
    /// divergence side by side, the verdict last.
    pub fn text(&self) -> String {
        let mut s = String::new();
        self.what_was_replayed(&mut s);
        self.differences_text(&mut s);
        self.side_by_side(&mut s);
        self.verification_text(&mut s);
        let _ = writeln!(s, "verdict: {}", self.verdict.summary);
        s
    }

    /// What was replayed, against what, how far, and the drift warnings.
    fn what_was_replayed(&self, s: &mut String) {
        let o = &self.original;
        let r = &self.replay;
        let _ = writeln!(
            s,
            "replay of {}{} ({}, {}) against {}",
            o.file,
            o.session
                .as_deref()
                .map(|x| format!(" [session {x}]"))
                .unwrap_or_default(),
            o.protocol.unwrap_or("protocol unknown"),
            o.engine.as_deref().unwrap_or("engine unnamed"),
            r.engine_argv.join(" ")
        );
        let _ = writeln!(
            s,
            "  pace {}{}, level {}: {} of {} GUI lines sent; engine: {}; {}",
            r.pace,
            r.speed.map(|x| format!(" x{x}")).unwrap_or_default(),
            r.level,
            r.lines_sent,
            r.lines_total,
            r.engine.as_deref().unwrap_or("unnamed"),
            r.exit.as_deref().unwrap_or("still running")
        );
        if let Some(st) = &r.stall {
            let _ = writeln!(
                s,
                "  watchdog: no {} for `{}` within {:.1} s; the engine was killed",
                st.owed,
                st.request,
                st.waited_ns as f64 / 1e9
            );
        }
        if let Some(rec) = &r.recording {
            let _ = writeln!(s, "  new recording: {rec}");
        }
        for w in &self.preflight {
            let _ = writeln!(s, "{}[{}]: {}", w.severity.as_str(), w.rule, w.message);
        }
    }

    /// The searches compared, and the first differences.
    fn differences_text(&self, s: &mut String) {
        let o = &self.original;
        let t = &self.searches;
        let _ = writeln!(
            s,
            "searches: {} in the original, {} in the replay; {} compared: {} identical, {} differ, {} differ as expected (clock-limited or several threads){}",
            t.original,
            t.replay,
            t.compared,
            t.identical,
            t.differing,
            t.expected,
            if t.missing > 0 {
                format!(", {} never reached", t.missing)
            } else {
                String::new()
            }
        );
        const SHOWN: usize = 12;
        if self.differences.len() > SHOWN {
            let _ = writeln!(
                s,
                "the first {SHOWN} of {} differences (--format json lists every one):",
                self.differences.len()
            );
        }
        for d in self.differences.iter().take(SHOWN) {
            let tag = match d.kind {
                DiffKind::Protocol => "protocol",
                DiffKind::Exit => "exit",
                DiffKind::Hang => "hang",
                DiffKind::Search => "search",
            };
            let _ = writeln!(
                s,
                "{}{}: {}[{tag}] {}",
                o.file,
                d.line.map(|l| format!(":{l}")).unwrap_or_default(),
                if d.expected { "expected" } else { "differs" },
                d.message
            );
        }
    }

    /// The first divergence side by side.
    fn side_by_side(&self, s: &mut String) {
        if let Some(sb) = &self.first_divergence {
            let _ = writeln!(
                s,
                "search {} side by side (time, nps, hashfull, tbhits, currmove masked):",
                sb.search
            );
            let width = sb
                .rows
                .iter()
                .map(|r| r.original.as_deref().map_or(0, str::len))
                .max()
                .unwrap_or(0)
                .min(70);
            let cell = |l: Option<u64>, t: &Option<String>| match (l, t) {
                (Some(l), Some(t)) => format!("{l:>6} {t}"),
                (None, Some(t)) => format!("{:>6} {t}", ""),
                _ => format!("{:>6} -", ""),
            };
            for row in &sb.rows {
                let mark = if row.same { ' ' } else { '!' };
                let left = cell(row.original_line, &row.original);
                let _ = writeln!(
                    s,
                    "{mark} {left:<w$} | {}",
                    cell(row.replay_line, &row.replay),
                    w = width + 7
                );
            }
        }
    }

    /// Whether the new recording replays the same again.
    fn verification_text(&self, s: &mut String) {
        if let Some(v) = &self.verification {
            let _ = writeln!(
                s,
                "verify: the new recording replayed again ({}): {}; {} of {} searches identical",
                v.recording,
                if v.identical {
                    "the same answers (level L3)"
                } else {
                    "different answers: this replay is not reproducible"
                },
                v.searches.identical,
                v.searches.compared
            );
            if !v.identical {
                let _ = writeln!(s, "  second run: {}", v.verdict.summary);
            }
        }
    }
}
