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
    /// The original's engine ended the session itself (it exited, and the GUI never closed
    /// its input), this long (ns) after the GUI's last line: a replay waits for the engine's
    /// end rather than closing the input first.
    pub engine_ends: Option<u64>,
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
        let last_gui_t = steps
            .iter()
            .rev()
            .find(|s| s.send.is_some())
            .map_or(0, |s| s.t);
        let engine_ends = match eof {
            Some(_) => None,
            None => a
                .events
                .iter()
                .find(|e| e.kind == Some(crate::recording::ProxyKind::EngineExit))
                .map(|e| e.t.saturating_sub(last_gui_t)),
        };
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
        Script { steps, engine_ends }
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
            .map(|s| s.send.is_none() || s.line.is_none_or(|l| l <= until))
            .collect();
        self.retain(keep);
        if let Some(close) = self.steps.last_mut() {
            close.busy_gap = None;
        }
    }

    /// Keeps the handshake and game `n` (1-based; and the games after it with `and_after`),
    /// then the session's end (`quit`, the close). `Err` says how many games there are.
    pub fn games(&mut self, a: &Analysis, n: usize, and_after: bool) -> Result<(), String> {
        let games = &a.session.games;
        if n == 0 || n > games.len() {
            return Err(format!(
                "there is no game {n}: the session has {} game(s)",
                games.len()
            ));
        }
        let starts = self.game_starts(a);
        let start_step = |g: usize| starts[g];
        let first = start_step(0);
        let from = start_step(n - 1);
        let to = match starts.get(n) {
            Some(&g) if !and_after => g,
            _ => self.steps.len(),
        };
        let last = self.steps.len() - 1;
        let keep = self
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                i < first
                    || (from..to).contains(&i)
                    || i == last
                    || (i > to && s.text.trim() == "quit")
            })
            .collect();
        self.retain(keep);
        Ok(())
    }

    /// The step each game of `a` starts at: where the decoder saw it start, or earlier at the
    /// `ucinewgame`, `isready`, `setoption` and `new` lines that prepared it.
    pub fn game_starts(&self, a: &Analysis) -> Vec<usize> {
        let start_step = |g: &crate::session::Game| -> usize {
            let mut i = self
                .steps
                .iter()
                .position(|s| s.seq.is_none_or(|q| q >= g.started.seq))
                .unwrap_or(self.steps.len());
            while i > 0 {
                let prev = self.steps[i - 1].text.trim_start();
                if ["ucinewgame", "isready", "setoption", "new"]
                    .iter()
                    .any(|w| prev.starts_with(w))
                    && self.steps[i - 1].send.is_some()
                {
                    i -= 1;
                } else {
                    break;
                }
            }
            i
        };
        a.session.games.iter().map(start_step).collect()
    }

    /// Keeps the steps marked `true`. What a dropped step waited for (answers to kept lines)
    /// is awaited by the next kept step instead; waits on dropped steps go.
    pub fn retain(&mut self, keep: Vec<bool>) {
        // Without the original's last line, its engine's end is not part of the replay.
        if let Some(last) = self.steps.iter().rposition(|s| s.send.is_some())
            && !keep.get(last).copied().unwrap_or(false)
        {
            self.engine_ends = None;
        }
        let mut new_index = Vec::with_capacity(keep.len());
        let mut n = 0;
        for k in &keep {
            new_index.push(k.then_some(n));
            n += usize::from(*k);
        }
        let mut carried: Vec<Wait> = Vec::new();
        let mut out = Vec::with_capacity(n);
        for (step, k) in std::mem::take(&mut self.steps).into_iter().zip(&keep) {
            let mut step = step;
            let waits = std::mem::take(&mut step.waits);
            carried.extend(waits.into_iter().filter_map(|mut w| {
                w.step = new_index.get(w.step).copied().flatten()?;
                Some(w)
            }));
            if *k {
                carried.dedup();
                step.waits = std::mem::take(&mut carried);
                out.push(step);
            }
        }
        self.steps = out;
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::recording::Event;
    use crate::replay::analysis::analyse;
    use crate::rules::CheckOptions;
    use crate::rules::Profile;

    /// A session from `(ms, source, text)` lines; line N of the input is event N-1.
    pub(crate) fn analysed(lines: &[(u64, Source, &str)]) -> Analysis {
        let events = lines
            .iter()
            .enumerate()
            .map(|(i, (ms, src, text))| {
                (
                    Event::line(i as u64 + 1, ms * 1_000_000, *src, *text),
                    Some(i as u64 + 2),
                )
            })
            .collect();
        analyse(events, &CheckOptions::new(Profile::default_profile()))
    }

    use Source::{Engine as E, Gui as G};

    fn waits(s: &Step) -> Vec<(usize, String)> {
        s.waits
            .iter()
            .map(|w| (w.step, w.owed.to_string()))
            .collect()
    }

    #[test]
    fn each_line_waits_for_what_the_original_had_received_before_it() {
        let a = analysed(&[
            (0, G, "uci"),
            (10, E, "id name X"),
            (10, E, "uciok"),
            (20, G, "isready"),
            (25, E, "readyok"),
            (30, G, "position startpos"),
            (30, G, "go depth 5"),
            (40, E, "info depth 1 score cp 5 nodes 10 pv e2e4"),
            (50, E, "bestmove e2e4"),
            (60, G, "quit"),
        ]);
        let s = Script::from_analysis(&a);
        let texts: Vec<&str> = s.steps.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "uci",
                "isready",
                "position startpos",
                "go depth 5",
                "quit",
                "(close the input)"
            ]
        );
        assert_eq!(waits(&s.steps[0]), []);
        assert_eq!(waits(&s.steps[1]), [(0, "uciok".to_owned())]);
        assert_eq!(waits(&s.steps[2]), [(1, "readyok".to_owned())]);
        assert_eq!(waits(&s.steps[3]), []);
        assert_eq!(waits(&s.steps[4]), [(3, "bestmove".to_owned())]);
        assert_eq!(s.steps[1].waits[0].latency, 10_000_000);
        // Nothing was owed when these were sent: no pause is kept.
        assert!(s.steps.iter().all(|s| s.busy_gap.is_none()));
        assert_eq!(s.steps[3].line, Some(8));
    }

    #[test]
    fn a_line_sent_while_the_engine_owed_an_answer_keeps_the_guis_pause() {
        let a = analysed(&[
            (0, G, "uci"),
            (10, E, "uciok"),
            (20, G, "position startpos"),
            (20, G, "go infinite"),
            (40, E, "info depth 1 score cp 5 nodes 10 pv e2e4"),
            (2020, G, "stop"),
            (2030, E, "bestmove e2e4"),
            (2040, G, "quit"),
        ]);
        let s = Script::from_analysis(&a);
        let stop = s.steps.iter().find(|s| s.text == "stop").unwrap();
        assert_eq!(stop.waits, []);
        assert_eq!(stop.busy_gap, Some(2_000_000_000));
        let quit = s.steps.iter().find(|s| s.text == "quit").unwrap();
        assert_eq!(quit.busy_gap, None);
        assert!(!quit.waits.is_empty());
    }

    #[test]
    fn dropped_steps_hand_their_waits_to_the_next_kept_one() {
        let a = analysed(&[
            (0, G, "uci"),
            (10, E, "uciok"),
            (20, G, "isready"),
            (25, E, "readyok"),
            (30, G, "ucinewgame"),
            (40, G, "quit"),
        ]);
        let mut s = Script::from_analysis(&a);
        // `ucinewgame` waited for readyok; without it, `quit` does.
        s.retain(vec![true, true, false, true, true]);
        let texts: Vec<&str> = s.steps.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["uci", "isready", "quit", "(close the input)"]);
        assert_eq!(waits(&s.steps[2]), [(1, "readyok".to_owned())]);
        // Waits on a dropped request go; what the dropped request itself waited for stays.
        s.retain(vec![true, false, true, true]);
        assert_eq!(waits(&s.steps[1]), [(0, "uciok".to_owned())]);
    }

    #[test]
    fn until_keeps_the_lines_up_to_it_and_the_answers_they_got() {
        let a = analysed(&[
            (0, G, "uci"),
            (10, E, "uciok"),
            (20, G, "position startpos"),
            (20, G, "go depth 1"),
            (30, E, "bestmove e2e4"),
            (40, G, "position startpos moves e2e4"),
            (40, G, "go depth 1"),
            (50, E, "bestmove e7e5"),
        ]);
        let mut s = Script::from_analysis(&a);
        s.until_line(5);
        let texts: Vec<&str> = s.steps.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "uci",
                "position startpos",
                "go depth 1",
                "(close the input)"
            ]
        );
        assert_eq!(waits(&s.steps[3]), [(2, "bestmove".to_owned())]);
    }
}
