//! The report card: typed, serialised with `"schema": "kibitzer-probe/3"`
//! (docs/probe-report.schema.json), and its text form.

use crate::rules::report::Standing;
use crate::rules::{Finding, HangVerdict};
use crate::untrusted::Untrusted;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt::Write as _;

/// What the JSON report's `schema` field says: every report names itself `kibitzer-NAME/N`.
pub const SCHEMA: &str = "kibitzer-probe/3";

/// Findings of one rule shown per step in the text form; the rest are counted.
const REPEATS: usize = 3;

/// The report card `kibitzer probe --format json` prints.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ProbeReport {
    /// The report's name and version.
    #[serde(deserialize_with = "schema_tag")]
    #[schemars(extend("const" = SCHEMA))]
    pub schema: crate::serde_static::StaticStr,
    /// `kibitzer VERSION`.
    pub tool: String,
    pub engine: EngineInfo,
    /// The recording of the whole run (`kibitzer view|check|dump|decode` open it).
    pub recording: String,
    /// `probe --c2w`: the Chess Academy profile the run drove the engine by.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub c2w: Option<C2wDrive>,
    /// What the probe waited for each kind of answer, which is also the judge's deadline
    /// (profile `probe`).
    pub timeouts_ms: TimeoutsMs,
    /// The suite's steps, in the order run.
    pub steps: Vec<StepReport>,
    /// Findings on no step's lines (before the first step: the engine's start).
    pub other_findings: Vec<Finding>,
    /// Who owed whom what when the run ended (the hang verdicts), for hangs on no step's lines.
    pub other_hangs: Vec<HangVerdict>,
    /// How the engine ended: `engine exited with code 0`, `engine killed by SIGTERM (15)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit: Option<String>,
    /// The probe had to kill the engine (its last start).
    pub killed: bool,
    /// Every start of the engine: the first, and one per restart after it was given up on
    /// (a hang, an exit), with the steps from `first_step` on run on it.
    pub starts: Vec<StartReport>,
    pub summary: Summary,
    /// When the card failed: the one cause it leads with (the first error in step order, or
    /// the first stalled step) and what to fix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<Cause>,
    /// `passed` (exit status 0), `passed with warnings` (exit status 0: a step violated by a
    /// warning, no error) or `failed` (1: an error-severity finding or a stalled step).
    #[serde(deserialize_with = "crate::serde_static::interned")]
    #[schemars(extend("enum" = ["passed", "passed with warnings", "failed"]))]
    pub verdict: crate::serde_static::StaticStr,
    /// 1 when an error-severity finding or a stalled step, else 0.
    #[schemars(extend("enum" = [0, 1]))]
    pub exit_status: i32,
}

fn schema_tag<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    crate::serde_static::tag(d, SCHEMA)
}

/// The engine probed.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct EngineInfo {
    /// Its command line.
    pub argv: Vec<String>,
    #[serde(deserialize_with = "crate::serde_static::interned")]
    #[schemars(extend("enum" = ["uci", "xboard", "nboard"]))]
    pub protocol: crate::serde_static::StaticStr,
    /// `given` (--protocol) or `detected: ...`, what autodetection saw.
    pub protocol_reason: String,
    /// `id name` / `myname` / `set myname`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// UCI `id author`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
}

/// One start of the engine.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct StartReport {
    /// 1 for the first start.
    pub number: u32,
    /// The index of the first step run on it.
    pub first_step: usize,
    /// How it ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit: Option<String>,
    /// The probe had to kill it.
    pub killed: bool,
    /// The last lines the engine wrote to its standard error (a traceback, an assertion).
    pub stderr_tail: Vec<String>,
}

/// Why a card failed, and what to fix.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Cause {
    /// The step (its index) where it happened; absent for a finding on no step's lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step_id: Option<String>,
    /// The rule broken; absent for a stalled step no rule names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<crate::rules::catalogue::RuleId>,
    /// The recording line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// What went wrong (the finding's message, or why the step stalled).
    pub what: String,
    /// What the engine's author should do about it.
    pub fix: String,
}

/// How a `.c2w` profile drove the engine.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct C2wDrive {
    /// The profile's path, absolute.
    pub file: String,
    /// `EngineName EngineVersion`.
    pub engine: String,
    /// What the profile made the GUI side do, one line per key (positions, level, st, sd,
    /// hint, draw, move now, hash), each naming the key and its line.
    pub drive: Vec<String>,
}

/// How long the probe waits per kind of answer, in milliseconds.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
pub struct TimeoutsMs {
    pub answer: u64,
    pub handshake: u64,
    pub search: u64,
    pub quit: u64,
    /// `isready` → `readyok`, `ping` → `pong`: up to cutechess's 15 s; slower than `answer`
    /// is a latency note on the card.
    pub ready: u64,
}

/// How a step went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Ran; no finding of warning or error severity on its lines.
    Passed,
    /// A warning or error finding on its lines.
    Violated,
    /// The probe gave up waiting, and no rule names the fault (the hang verdict says what
    /// was owed).
    Stalled,
    /// Does not apply to this engine (`reason` says why).
    NotApplicable,
    /// The engine could no longer be driven (`reason` says why).
    NotRun,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Violated => "violated",
            Status::Stalled => "stalled",
            Status::NotApplicable => "not applicable",
            Status::NotRun => "not run",
        }
    }
}

/// A step of the suite.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct StepReport {
    /// 1-based, in the order run.
    pub index: usize,
    /// The start of the engine it ran on (see `starts`); absent when it did not run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<u32>,
    /// Stable step id, `uci.go-depth`, `cecp.ping-thinking`... (docs/probe.md).
    #[serde(deserialize_with = "crate::serde_static::interned")]
    pub id: crate::serde_static::StaticStr,
    #[serde(deserialize_with = "crate::serde_static::interned")]
    pub title: crate::serde_static::StaticStr,
    pub status: Status,
    /// Why not applicable, not run or stalled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// First and last recording line of the step: its `probe step N` note to the line before
    /// the next step's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<[u64; 2]>,
    /// Every finding of the one judge on the step's lines, errors and warnings first.
    pub findings: Vec<Finding>,
    /// Hang verdicts whose request is on the step's lines.
    pub hangs: Vec<HangVerdict>,
    /// What the probe saw: latencies of answers, waits that timed out, what it chose to send;
    /// not findings.
    pub observations: Vec<String>,
    /// The line the engine went right after, when the step found one (an option that kills
    /// it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub culprit: Option<String>,
}

/// Steps by status, and findings by severity (notes count chat too).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, JsonSchema)]
pub struct Summary {
    pub passed: usize,
    pub violated: usize,
    pub stalled: usize,
    pub not_applicable: usize,
    pub not_run: usize,
    pub errors: usize,
    pub warnings: usize,
    pub notes: usize,
}

impl ProbeReport {
    /// Counts steps and findings, and sets the verdict and exit status.
    pub fn conclude(&mut self) {
        let mut s = Summary::default();
        for st in &self.steps {
            match st.status {
                Status::Passed => s.passed += 1,
                Status::Violated => s.violated += 1,
                Status::Stalled => s.stalled += 1,
                Status::NotApplicable => s.not_applicable += 1,
                Status::NotRun => s.not_run += 1,
            }
        }
        // Each finding once (a probe's findings are not folded), notes with chat.
        let c = crate::rules::report::Counts::of(
            self.steps
                .iter()
                .flat_map(|s| &s.findings)
                .chain(&self.other_findings),
        );
        (s.errors, s.warnings, s.notes) = (c.error, c.warning, c.note + c.chat);
        self.summary = s;
        // The findings' standing, as in every command, made worse (never better) by the
        // steps: steps are `not run` only once the engine is gone (it died, was given up on,
        // or was stopped for flooding) before the suite's end, so such a card is never a
        // pass; a card with violated steps never says only `passed`.
        let standing = if s.stalled > 0 || s.not_run > 0 {
            Standing::Failed
        } else if s.violated > 0 {
            c.standing().max(Standing::PassedWithWarnings)
        } else {
            c.standing()
        };
        let failed = standing == Standing::Failed;
        self.verdict = standing.as_str();
        self.exit_status = standing.exit_status();
        self.cause = if failed {
            super::cause::root_cause(&self.steps, &self.other_findings)
        } else {
            None
        };
    }

    /// Under a `.c2w` profile: `agree`, or the rules that say they do not, with counts. A
    /// disagreement is a `C2W-` finding, or an error a profile's form provoked (a move the
    /// engine could not follow after a position set up as the profile says).
    pub fn profile_agreement(&self) -> String {
        let mut rules: Vec<(crate::rules::catalogue::RuleId, usize)> = Vec::new();
        let all = self
            .steps
            .iter()
            .flat_map(|s| &s.findings)
            .chain(&self.other_findings);
        let disagrees = |f: &&Finding| {
            f.severity.fails()
                || (f.severity.counts_against()
                    && f.rule.family() == crate::rules::catalogue::Family::C2w)
        };
        for f in all.filter(disagrees) {
            match rules.iter_mut().find(|(r, _)| *r == f.rule) {
                Some((_, n)) => *n += 1,
                None => rules.push((f.rule, 1)),
            }
        }
        if rules.is_empty() && self.summary.stalled == 0 {
            return "agree".to_owned();
        }
        let mut parts: Vec<String> = rules
            .iter()
            .map(|(r, n)| {
                if *n > 1 {
                    format!("{r} x{n}")
                } else {
                    r.to_string()
                }
            })
            .collect();
        if self.summary.stalled > 0 {
            parts.push(format!("{} stalled step(s)", self.summary.stalled));
        }
        format!("disagree ({})", parts.join(", "))
    }

    pub fn render_text(&self, color: bool) -> String {
        let mut card = TextCard {
            r: self,
            painter: crate::style::Painter::new(color),
            out: String::new(),
        };
        card.cause();
        card.engine();
        let mut last_reason: Option<&String> = None;
        for st in &self.steps {
            card.step(st, &mut last_reason);
        }
        card.outside_the_steps();
        card.summary();
        card.starts();
        card.verdict();
        card.out
    }
}

/// The text form of a report card, written a part at a time.
struct TextCard<'r> {
    r: &'r ProbeReport,
    painter: crate::style::Painter,
    out: String,
}

impl<'r> TextCard<'r> {
    fn paint(&self, style: anstyle::Style, t: &str) -> String {
        self.painter.paint(style, t)
    }

    /// The cause a failed card leads with.
    fn cause(&mut self) {
        let Some(c) = &self.r.cause else {
            return;
        };
        let at = match (c.step, &c.step_id) {
            (Some(n), Some(id)) => format!("step {n} {id}: "),
            _ => String::new(),
        };
        let rule = c.rule.map(|r| format!("{r}: ")).unwrap_or_default();
        let failed = self.paint(crate::style::ERROR, "FAILED");
        let _ = writeln!(
            self.out,
            "{failed} because {at}{rule}{}; fix: {}",
            Untrusted(&c.what),
            Untrusted(&c.fix)
        );
    }

    /// The engine probed, and how a `.c2w` profile drove it.
    fn engine(&mut self) {
        let e = &self.r.engine;
        let argv = Untrusted(&e.argv.join(" ")).to_string();
        let who = match (&e.name, &e.author) {
            (Some(n), Some(a)) => format!("{} by {}", Untrusted(n), Untrusted(a)),
            (Some(n), None) => Untrusted(n).to_string(),
            _ => argv.clone(),
        };
        let title = self.paint(crate::style::BOLD, "kibitzer probe:");
        let _ = writeln!(
            self.out,
            "{title} {who} ({}, {}): {}",
            e.protocol,
            Untrusted(&e.protocol_reason),
            argv
        );
        if let Some(c) = &self.r.c2w {
            let _ = writeln!(
                self.out,
                "driven as Chess Academy would under {} ({}):",
                Untrusted(&c.file),
                Untrusted(&c.engine)
            );
            for d in &c.drive {
                let _ = writeln!(self.out, "      {}", Untrusted(d));
            }
        }
    }

    /// A step: its status line, why, its findings, hangs and observations. The steps after
    /// the engine was given up on share one reason (`last_reason`): said once.
    fn step(&mut self, st: &'r StepReport, last_reason: &mut Option<&'r String>) {
        let status = match st.status {
            Status::Passed => self.paint(crate::style::GOOD, "passed"),
            Status::Violated => self.paint(crate::style::ERROR, "violated"),
            Status::Stalled => self.paint(crate::style::STALL, "stalled"),
            Status::NotApplicable => self.paint(crate::style::DIM, "not applicable"),
            Status::NotRun => self.paint(crate::style::DIM, "not run"),
        };
        let pad = " ".repeat(14usize.saturating_sub(st.status.as_str().len()));
        let on = match st.start {
            Some(n) if self.r.starts.len() > 1 => format!(" [start {n}]"),
            _ => String::new(),
        };
        let width = self.r.steps.iter().map(|s| s.id.len()).max().unwrap_or(10);
        let _ = writeln!(
            self.out,
            "{:>3} {status}{pad} {:<width$}  {}{on}",
            st.index, st.id, st.title
        );
        match &st.reason {
            Some(r) if st.status == Status::NotRun && *last_reason == Some(r) => {}
            Some(r) => {
                let _ = writeln!(self.out, "      {}", Untrusted(r));
            }
            None => {}
        }
        if st.status == Status::NotRun {
            *last_reason = st.reason.as_ref();
        }
        self.step_findings(st);
        // A hang a finding of the step already names at its request is said once.
        let named = |h: &&HangVerdict| {
            st.findings
                .iter()
                .any(|f| f.severity.counts_against() && f.line == h.request_line)
        };
        for h in st.hangs.iter().filter(|h| !named(h)) {
            self.hang(h);
        }
        for o in &st.observations {
            let _ = writeln!(self.out, "      - {}", Untrusted(o));
        }
    }

    /// Chatter repeats (every unknown line): the first few findings of a rule, then a count.
    fn step_findings(&mut self, st: &StepReport) {
        let mut shown: Vec<(crate::rules::catalogue::RuleId, usize)> = Vec::new();
        for f in &st.findings {
            let n = match shown.iter_mut().find(|(r, _)| *r == f.rule) {
                Some((_, n)) => {
                    *n += 1;
                    *n
                }
                None => {
                    shown.push((f.rule, 1));
                    1
                }
            };
            if n <= REPEATS {
                self.finding(f);
            }
        }
        for (rule, n) in shown.iter().filter(|(_, n)| *n > REPEATS) {
            let _ = writeln!(
                self.out,
                "      ... and {} more {rule} (all in the JSON report)",
                n - REPEATS
            );
        }
    }

    fn finding(&mut self, f: &Finding) {
        let at = f
            .line
            .map(|l| format!("{}:{l}: ", Untrusted(&self.r.recording)))
            .unwrap_or_default();
        let rule = self.paint(crate::style::BOLD, f.rule.as_str());
        let _ = writeln!(
            self.out,
            "      {at}{}[{rule}] {}: {}",
            self.painter.severity(f.severity),
            f.side.as_str(),
            Untrusted(&f.message)
        );
    }

    fn hang(&mut self, h: &HangVerdict) {
        let painter = self.painter;
        hang_line(&mut self.out, &self.r.recording, h, &|s, t| {
            painter.paint(s, t)
        });
    }

    /// Findings and hangs on no step's lines.
    fn outside_the_steps(&mut self) {
        let r = self.r;
        if r.other_findings.is_empty() && r.other_hangs.is_empty() {
            return;
        }
        let _ = writeln!(self.out, "outside the steps:");
        for f in &r.other_findings {
            self.finding(f);
        }
        for h in &r.other_hangs {
            self.hang(h);
        }
    }

    fn summary(&mut self) {
        let s = &self.r.summary;
        let _ = writeln!(
            self.out,
            "\n{} passed, {} violated, {} stalled, {} not applicable, {} not run; \
             {} error(s), {} warning(s), {} note(s)",
            s.passed,
            s.violated,
            s.stalled,
            s.not_applicable,
            s.not_run,
            s.errors,
            s.warnings,
            s.notes
        );
    }

    /// How each start of the engine ended, and the last lines of its stderr.
    fn starts(&mut self) {
        let several = self.r.starts.len() > 1;
        for start in &self.r.starts {
            let killed = if start.killed {
                " (killed by the probe)"
            } else {
                ""
            };
            let which = if several {
                format!(
                    "engine start {} (steps {}-)",
                    start.number, start.first_step
                )
            } else {
                "engine".to_owned()
            };
            if let Some(x) = &start.exit {
                let _ = writeln!(self.out, "{which}: {}{killed}", Untrusted(x));
            }
            if !start.stderr_tail.is_empty() {
                let _ = writeln!(self.out, "{which}, the last lines of its stderr:");
                for l in &start.stderr_tail {
                    let _ = writeln!(self.out, "      | {}", Untrusted(l));
                }
            }
        }
    }

    /// The verdict, the profile's agreement with the engine, and where the recording is.
    fn verdict(&mut self) {
        let r = self.r;
        let s = &r.summary;
        let verdict = if r.exit_status == 0 && r.verdict == "passed" {
            self.paint(crate::style::GOOD, "PASSED")
        } else if r.exit_status == 0 {
            self.paint(
                crate::style::WARNING,
                &format!(
                    "PASSED WITH WARNINGS ({} violated step(s), {} warning(s); exit status 0)",
                    s.violated, s.warnings
                ),
            )
        } else {
            self.paint(crate::style::ERROR, "FAILED")
        };
        let _ = writeln!(self.out, "verdict: {verdict}");
        if r.c2w.is_some() {
            let _ = writeln!(self.out, "profile and engine: {}", r.profile_agreement());
        }
        let _ = writeln!(
            self.out,
            "recording: {} (open it with kibitzer dump, decode or check)",
            r.recording
        );
    }
}

fn hang_line(
    out: &mut String,
    rec: &str,
    h: &HangVerdict,
    paint: &dyn Fn(anstyle::Style, &str) -> String,
) {
    let at = h
        .request_line
        .map(|l| format!("{}:{l}: ", Untrusted(rec)))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "      {at}{} {}: {}",
        paint(crate::style::STALL, &format!("hang[{}]", h.class.as_str())),
        Untrusted(h.label),
        Untrusted(&h.summary)
    );
}
