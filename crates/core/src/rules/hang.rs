//! Hang diagnosis: at the end of the input, or at a chosen time, who owes
//! whom what, since when, and what kind of stall that is.

use super::catalogue::Side as Party;
use super::finding::Place;
use super::forensics::ProcessVerdict;
use super::judge::{Tracker, secs};
use super::profile::Profile;
use crate::recording::Eol;
use crate::session::{Obligation, Owed, Request};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The kind of stall.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum HangClass {
    /// The engine owes `uciok` or `feature done=1`.
    Handshake,
    /// The engine owes `readyok` or `pong`.
    Ping,
    /// The engine owes its move or `bestmove`.
    Search,
    /// Nothing is owed by the engine, and the GUI stopped talking.
    GuiSide,
    /// The engine's last bytes have no line ending: buffered output, not a silent engine.
    Buffering,
    /// The engine exited or closed its output with an answer owed.
    Disconnect,
}

impl HangClass {
    pub fn as_str(self) -> &'static str {
        match self {
            HangClass::Handshake => "handshake",
            HangClass::Ping => "ping",
            HangClass::Search => "search",
            HangClass::GuiSide => "gui-side",
            HangClass::Buffering => "buffering",
            HangClass::Disconnect => "disconnect",
        }
    }
}

/// What a session was waiting for when the input ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HangVerdict {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    pub class: HangClass,
    /// `PENDING` (owed for under a second when the input ends, or still searching: its output
    /// under a second old), `STALL` (waiting longer, no
    /// deadline passed), `TIMEOUT` (a deadline passed) or `DISCONNECT`.
    #[serde(deserialize_with = "crate::serde_static::interned")]
    #[schemars(extend("enum" = ["PENDING", "STALL", "TIMEOUT", "DISCONNECT"]))]
    pub label: crate::serde_static::StaticStr,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owed: Option<String>,
    /// The request line the engine owes an answer to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiting_ns: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_engine_output_ago_ns: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_engine_line: Option<String>,
    /// How the engine ended (`engine killed by SIGKILL (9)`), when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit: Option<String>,
    /// What the engine's process was doing while it was silent with the answer owed, from
    /// the proxy's samples; absent when the input has none (a log, an older recording): the
    /// verdict is then decided from the traffic alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process: Option<crate::rules::forensics::ProcessVerdict>,
    /// `traffic` or `traffic+process`: what the verdict was decided from.
    #[serde(default = "traffic")]
    #[schemars(extend("enum" = ["traffic", "traffic+process"]))]
    pub evidence: String,
    /// One sentence: "engine owes bestmove for `go movetime 1000` since 12.4 s; ...".
    pub summary: String,
    // Not in the report: a verdict read back from one has them false, the engine and none.
    #[serde(skip)]
    pub is_timeout: bool,
    #[serde(skip)]
    pub no_watchdog: bool,
    #[serde(skip, default = "engine")]
    pub at_fault: Party,
    #[serde(skip)]
    pub request_place: Option<Place>,
}

fn engine() -> Party {
    Party::Engine
}

fn traffic() -> String {
    "traffic".to_owned()
}

/// The process verdict for the window an answer was owed in silence, and the evidence word.
fn process_of(tr: &Tracker, o: &Obligation, now: u64) -> (Option<ProcessVerdict>, String) {
    let silent_from = tr
        .last_engine
        .as_ref()
        .map_or(o.opened.t, |(t, _, _)| (*t).max(o.opened.t));
    let until = tr.exit.as_ref().map_or(now, |(t, _)| (*t).min(now));
    let v = tr.process_between(silent_from, until);
    let evidence = if tr.has_samples() {
        "traffic+process"
    } else {
        "traffic"
    };
    (v, evidence.to_owned())
}

/// The verdict for one session at time `now`; `None` when nothing is owed and nothing stalled.
pub(crate) fn diagnose(
    tr: &Tracker,
    open: &[Obligation],
    profile: &Profile,
    now: u64,
) -> Option<HangVerdict> {
    let last_engine = tr.last_engine.as_ref();
    let engine_ago = last_engine.map(|(t, _, _)| now.saturating_sub(*t));
    let last_line = last_engine.map(|(_, text, _)| shorten(text));
    let Some(o) = most_telling(tr, open) else {
        return gui_stall(tr, now, engine_ago, last_line);
    };
    let gone = tr.exit.as_ref().map(|(_, why)| why.clone()).or_else(|| {
        tr.engine_eof
            .map(|_| "the engine closed its output".to_owned())
    });
    let pending = tr.pending.get(&o.opened.seq);
    let request = pending
        .map(|p| p.text.clone())
        .unwrap_or_else(|| o.request.clone());
    let waiting = now.saturating_sub(o.opened.t);
    let timed_out = pending.is_some_and(|p| p.timed_out);
    // Under a second is no stall yet: the input just ends while the answer is on its way
    // (excerpts from bug reports end like that).
    let label = match (timed_out, waiting >= 1_000_000_000) {
        (true, _) => "TIMEOUT",
        (false, true) => "STALL",
        (false, false) => "PENDING",
    };
    let (process, evidence) = process_of(tr, o, now);
    let owing = Owing {
        o,
        owes: format!(
            "engine owes {} for `{request}` since {}",
            o.owed,
            secs(waiting)
        ),
        output: match (&last_line, engine_ago) {
            (Some(l), Some(ago)) => format!("last engine output {} ago ({l})", secs(ago)),
            _ => "the engine never wrote anything".to_owned(),
        },
        said: process
            .as_ref()
            .map(|p| format!("; the engine's process: {}", p.detail))
            .unwrap_or_default(),
        waiting,
        timed_out,
    };
    let mut v = HangVerdict {
        session: tr.label.as_deref().map(str::to_owned),
        class: HangClass::Search,
        label,
        owed: Some(o.owed.to_string()),
        request: Some(request),
        request_line: pending.and_then(|p| p.place.line),
        waiting_ns: Some(waiting),
        last_engine_output_ago_ns: engine_ago,
        last_engine_line: last_line,
        exit: gone.clone(),
        process,
        evidence,
        summary: String::new(),
        is_timeout: timed_out,
        no_watchdog: false,
        at_fault: Party::Engine,
        request_place: pending.map(|p| p.place),
    };
    // The GUI gave up on a stalled engine with `quit` and had to kill it: the stall is the
    // verdict, the kill only how it ended.
    let killed_stalled = tr.killed_after_quit && tr.quit.is_some_and(|q| o.opened.t <= q.t);
    if let Some(why) = gone.as_ref().filter(|_| !killed_stalled) {
        owing.disconnected(tr, why, &mut v);
        return Some(v);
    }
    owing.stalled(tr, &mut v);
    if let Some(why) = gone.as_ref().filter(|_| killed_stalled) {
        v.summary.push_str(&format!("; then: {why}"));
    }
    let gui_silent = tr.last_gui_t.is_none_or(|t| t <= o.opened.t);
    v.no_watchdog = waiting > u64::try_from(profile.watchdog.as_nanos()).unwrap_or(u64::MAX)
        && gui_silent
        && !timed_out;
    Some(v)
}

/// The request a verdict is about: the oldest one the engine still owes an answer to, except
/// that a `stop` tells more than the `go` it ends. An infinite or ponder search owes nothing
/// until it is stopped: a ping, or anything past its deadline, tells more. A session that
/// ended with `quit` owes nothing (the decoder withdrew it).
fn most_telling<'o>(tr: &Tracker, open: &'o [Obligation]) -> Option<&'o Obligation> {
    let open_ended = |o: &&Obligation| matches!(o.kind, Request::Go { open_ended: true });
    open.iter()
        .find(|o| tr.pending.get(&o.opened.seq).is_some_and(|p| p.timed_out))
        .or_else(|| open.iter().find(|o| o.kind == Request::Stop))
        .or_else(|| open.iter().find(|o| !open_ended(o)))
        .or(open.first())
}

/// The request the engine owes, in the words of the verdict's summary.
struct Owing<'a> {
    o: &'a Obligation,
    /// `engine owes bestmove for `go movetime 1000` since 12.4 s`.
    owes: String,
    /// What the engine last wrote, and when.
    output: String,
    /// What its process did meanwhile, when the samples tell (else empty).
    said: String,
    waiting: u64,
    timed_out: bool,
}

impl Owing<'_> {
    /// The engine is gone with the answer owed.
    fn disconnected(&self, tr: &Tracker, why: &str, v: &mut HangVerdict) {
        let Owing {
            o, owes, output, ..
        } = self;
        v.class = HangClass::Disconnect;
        v.label = "DISCONNECT";
        v.summary = match tr.gui_eof {
            // The GUI gave up waiting: say after how long, and how the engine ended.
            Some(eof) if eof >= o.opened.t => {
                v.at_fault = Party::Gui;
                format!(
                    "{owes}; the GUI gave up after {} and closed the input; then: {why}; {output}",
                    secs(eof.saturating_sub(o.opened.t))
                )
            }
            _ => format!("{owes}; but it is gone: {why}; {output}"),
        };
        v.summary.push_str(&self.said);
    }

    /// The engine is still there and silent, or still thinking: the kind of stall, and its
    /// summary.
    fn stalled(&self, tr: &Tracker, v: &mut HangVerdict) {
        let unterminated = tr
            .last_engine
            .as_ref()
            .is_some_and(|(_, _, eol)| *eol == Eol::None);
        v.class = match &self.o.owed {
            _ if unterminated => HangClass::Buffering,
            Owed::UciOk | Owed::FeatureDone => HangClass::Handshake,
            Owed::ReadyOk | Owed::Pong(_) => HangClass::Ping,
            _ => HangClass::Search,
        };
        let engine_ago = v.last_engine_output_ago_ns;
        let searching_output = v.last_engine_line.as_deref().is_some_and(|l| {
            l.starts_with("info") || l.trim_start().starts_with(|c: char| c.is_ascii_digit())
        });
        // Thinking, not stalled: the search's output still flows (the last of it under a
        // second ago, and since the request). No deadline passed, so nothing is wrong yet.
        let thinking = v.class == HangClass::Search
            && !self.timed_out
            && searching_output
            && engine_ago.is_some_and(|a| a < 1_000_000_000 && a < self.waiting);
        let label = v.label;
        if thinking {
            v.label = "PENDING";
        }
        let detail = match v.class {
            HangClass::Search if thinking => format!(
                "it is still searching: its last output came {} ago",
                secs(engine_ago.unwrap_or(0))
            ),
            HangClass::Buffering => {
                "its last bytes have no line ending: output buffered, not flushed".to_owned()
            }
            HangClass::Ping if searching_output && engine_ago.is_some_and(|a| a < self.waiting) => {
                "it keeps searching instead of answering at once".to_owned()
            }
            HangClass::Ping if label != "PENDING" => "it says nothing at all".to_owned(),
            HangClass::Handshake => "the handshake never finished".to_owned(),
            _ => String::new(),
        };
        let Owing { owes, output, .. } = self;
        v.summary = if detail.is_empty() {
            format!("{owes}; {output}")
        } else {
            format!("{owes}; {detail}; {output}")
        };
        if !thinking {
            v.summary.push_str(&self.said);
        }
    }
}

/// Nothing owed: a stall only if the GUI went quiet after the engine's last answer while the
/// session is still open (the input was cut at `--at`, or is still being written).
fn gui_stall(
    tr: &Tracker,
    now: u64,
    engine_ago: Option<u64>,
    last_line: Option<String>,
) -> Option<HangVerdict> {
    // Killed while the GUI still talked to it (not after the GUI's EOF or `quit`, when the
    // proxy stops it): owing nothing is no excuse for silence about how the session ended.
    if let (Some((t, why)), Some(sig)) = (&tr.exit, &tr.exit_signal)
        && tr.gui_eof.is_none_or(|g| g > *t)
        && tr.quit.is_none()
    {
        return Some(HangVerdict {
            session: tr.label.as_deref().map(str::to_owned),
            class: HangClass::Disconnect,
            label: "DISCONNECT",
            owed: None,
            request: None,
            request_line: None,
            waiting_ns: None,
            last_engine_output_ago_ns: engine_ago,
            last_engine_line: last_line.clone(),
            exit: Some(why.clone()),
            process: None,
            evidence: traffic(),
            summary: format!(
                "the engine owed nothing, but it was ended by {sig} while the GUI was still \
                 using it: {why}; {}",
                match (&last_line, engine_ago) {
                    (Some(l), Some(ago)) => format!("last engine output {} ago ({l})", secs(ago)),
                    _ => "the engine never wrote anything".to_owned(),
                }
            ),
            is_timeout: false,
            no_watchdog: false,
            at_fault: Party::Engine,
            request_place: None,
        });
    }
    if tr.exit.is_some() || tr.engine_eof.is_some() || tr.gui_eof.is_some() || tr.quit.is_some() {
        return None;
    }
    let (engine_t, _, _) = tr.last_engine.as_ref()?;
    let gui_t = tr.last_gui_t?;
    let quiet = now.saturating_sub(*engine_t.max(&gui_t));
    if *engine_t < gui_t || quiet < 1_000_000_000 {
        return None;
    }
    Some(HangVerdict {
        session: tr.label.as_deref().map(str::to_owned),
        class: HangClass::GuiSide,
        label: "STALL",
        owed: None,
        request: None,
        request_line: None,
        waiting_ns: Some(quiet),
        last_engine_output_ago_ns: engine_ago,
        last_engine_line: last_line.clone(),
        exit: None,
        process: None,
        evidence: traffic(),
        summary: format!(
            "the engine owes nothing; the GUI has said nothing for {} since the engine's {}",
            secs(quiet),
            last_line.unwrap_or_default()
        ),
        is_timeout: false,
        no_watchdog: false,
        at_fault: Party::Gui,
        request_place: None,
    })
}

fn shorten(line: &str) -> String {
    let t = line.trim();
    // `info depth 31 seldepth ...` is summed up by its first words.
    let words: Vec<&str> = t.split_ascii_whitespace().take(3).collect();
    let short = words.join(" ");
    if short.len() < t.len() {
        format!("{short} ...")
    } else {
        short
    }
}
