//! What a replay sends, and what it waits for before each line: the GUI side of the original,
//! with the original's sync points taken from the obligations the session model saw answered.

use super::analysis::Analysis;
use crate::recording::Source;
use crate::session::Owed;
use serde::Serialize;

/// One thing the replay does: send a GUI line, or close the engine's input.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// Exact bytes, terminator included; `None` closes the engine's input.
    pub send: Option<Vec<u8>>,
    /// The line as shown (no terminator).
    pub text: String,
    /// The original event this step replays (its index); `None` for a line a rewrite
    /// inserted or the close that ends a log.
    pub origin: Option<usize>,
    /// The original event's sequence number.
    pub seq: Option<u64>,
    /// The original's input line.
    pub line: Option<u64>,
    /// When the original sent it (ns since its start).
    pub t: u64,
    /// Answers the original had received before it sent this line.
    pub waits: Vec<Wait>,
    /// The engine owed an answer when the original sent this line, and none came since the
    /// previous line: the GUI's own pause (a `stop` after an infinite search, a GUI giving up),
    /// which sync pacing keeps (ns).
    pub busy_gap: Option<u64>,
}

/// An answer to wait for: the obligation step `step` opened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Wait {
    pub step: usize,
    pub owed: Owed,
    /// How long the original engine took to give it (ns): the watchdog allows a multiple.
    pub latency: u64,
}

/// The GUI side of a session, ready to be sent.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Script {
    pub steps: Vec<Step>,
}

impl Script {
    /// The GUI side of `a`: every GUI line as sent, then the close of the input.
    pub fn from_analysis(a: &Analysis) -> Script {
        let mut steps: Vec<Step> = a
            .gui_lines()
            .map(|l| Step {
                send: Some(a.events[l.index].wire_bytes()),
                text: l.text.clone(),
                origin: Some(l.index),
                seq: Some(l.seq),
                line: a.line_of(l.index),
                t: l.t,
                waits: Vec::new(),
                busy_gap: None,
            })
            .collect();
        let eof = a.events.iter().enumerate().find(|(_, e)| {
            e.src == Source::Proxy && e.kind == Some(crate::recording::ProxyKind::GuiEof)
        });
        let last_t = a.events.last().map_or(0, |e| e.t);
        steps.push(Step {
            send: None,
            text: "(close the input)".into(),
            origin: eof.map(|(i, _)| i),
            seq: eof.map(|(_, e)| e.seq),
            line: eof.and_then(|(i, _)| a.line_of(i)),
            t: eof.map_or(last_t, |(_, e)| e.t),
            waits: Vec::new(),
            busy_gap: None,
        });
        let step_at = |seq: u64| -> usize {
            // The first step sent after `seq`; the close when none is.
            steps
                .iter()
                .position(|s| s.seq.is_none_or(|q| q > seq))
                .unwrap_or(steps.len() - 1)
        };
        let step_of = |seq: u64| {
            steps
                .iter()
                .position(|s| s.seq == Some(seq) && s.send.is_some())
        };
        let engine_closed = |seq: u64| a.line_by_seq(seq).is_some_and(|l| l.src == Source::Engine);
        let mut waits: Vec<(usize, Wait)> = Vec::new();
        for o in &a.session.obligations {
            let Some(closed) = o.closed else { continue };
            if o.cancelled || !engine_closed(closed.seq) {
                continue;
            }
            let Some(opener) = step_of(o.opened.seq) else {
                continue;
            };
            waits.push((
                step_at(closed.seq),
                Wait {
                    step: opener,
                    owed: o.owed.clone(),
                    latency: closed.t.saturating_sub(o.opened.t),
                },
            ));
        }
        for (at, w) in waits {
            steps[at].waits.push(w);
        }
        // Was anything owed when a step was sent? Obligations open across the step.
        for i in 0..steps.len() {
            if !steps[i].waits.is_empty() || i == 0 {
                continue;
            }
            let Some(seq) = steps[i].seq.or(a.events.last().map(|e| e.seq + 1)) else {
                continue;
            };
            let busy = a
                .session
                .obligations
                .iter()
                .any(|o| o.opened.seq < seq && o.closed.is_none_or(|c| c.seq >= seq));
            if busy {
                steps[i].busy_gap = Some(steps[i].t.saturating_sub(steps[i - 1].t));
            }
        }
        Script { steps }
    }

    /// Lines to send (the close excluded).
    pub fn lines(&self) -> usize {
        self.steps.iter().filter(|s| s.send.is_some()).count()
    }

    /// Keeps the steps up to input line `until` (inclusive), then the close.
    pub fn until_line(&mut self, until: u64) {
        let keep = self
            .steps
            .iter()
            .position(|s| s.send.is_some() && s.line.is_some_and(|l| l > until))
            .unwrap_or(self.steps.len());
        if keep < self.steps.len() {
            let mut close = self.steps.pop().unwrap_or_else(close_step);
            // Answers to kept lines that the original got after the cut are still awaited.
            let mut waits: Vec<Wait> = self.steps[keep..]
                .iter()
                .flat_map(|s| s.waits.iter().cloned())
                .chain(close.waits)
                .filter(|w| w.step < keep)
                .collect();
            waits.dedup();
            self.steps.truncate(keep);
            close.waits = waits;
            close.busy_gap = None;
            close.origin = None;
            close.seq = None;
            close.line = None;
            self.steps.push(close);
        }
    }
}

fn close_step() -> Step {
    Step {
        send: None,
        text: "(close the input)".into(),
        origin: None,
        seq: None,
        line: None,
        t: 0,
        waits: Vec::new(),
        busy_gap: None,
    }
}
