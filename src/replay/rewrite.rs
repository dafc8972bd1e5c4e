//! `--deterministic`: the rewrites that make a search reproducible (docs/replay.md).
//! Clock-based UCI `go` becomes `go nodes N` with the nodes the recorded search reached (its
//! `stop`/`ponderhit` dropped), `Threads` becomes 1, the session starts with `ucinewgame` and
//! every `ucinewgame` is followed by `isready` to sync on; CECP searches without `sd` get the
//! depth the recorded one reached (`sd D`) and `?` is dropped; NBoard searches are already
//! depth-bounded. Each change is a [`Rewrite`] the CLI shows before running.

use super::analysis::Analysis;
use super::report::Rewrite;
use super::script::{Script, Step, Wait};
use super::searches::clock_limited;
use crate::protocol::{Dir, Protocol, uci};
use crate::session::{GoLimits, Owed, Search};

/// What to do with one step.
enum Change {
    Keep,
    Replace(String, String),
    Drop(String),
}

/// A line of the rewrite's own: its text, the answer the next original step waits for, and
/// why it is there.
struct Added {
    text: String,
    owed: Option<Owed>,
    why: String,
}

impl Added {
    fn new(text: impl Into<String>, owed: Option<Owed>, why: impl Into<String>) -> Added {
        Added {
            text: text.into(),
            owed,
            why: why.into(),
        }
    }
}

/// What the rewrite does about one step: the step itself, and lines sent before and after it.
struct Decision {
    change: Change,
    before: Vec<Added>,
    after: Vec<Added>,
}

impl Decision {
    fn keep() -> Decision {
        Decision::with(Change::Keep)
    }

    fn with(change: Change) -> Decision {
        Decision {
            change,
            before: Vec::new(),
            after: Vec::new(),
        }
    }
}

/// Rewrites `script` (built from `a`) in place and returns what changed.
pub fn deterministic(script: &mut Script, a: &Analysis) -> Vec<Rewrite> {
    let mut rewriter = Rewriter::new(a);
    let mut assembly = Assembly::default();
    let steps = std::mem::take(&mut script.steps);
    let next_texts: Vec<String> = steps
        .iter()
        .skip(1)
        .map(|s| s.text.trim().to_owned())
        .chain([String::new()])
        .collect();
    for (step, next) in steps.into_iter().zip(next_texts) {
        let decision = rewriter.decide(&step, &next);
        let t = step.t;
        for added in decision.before {
            assembly.insert(added, t);
        }
        assembly.apply(step, decision.change);
        for added in decision.after {
            assembly.insert(added, t);
        }
    }
    let (steps, rewrites) = assembly.finish();
    script.steps = steps;
    rewrites
}

/// What the rewrite knows of the session so far, to decide each step.
struct Rewriter<'a> {
    a: &'a Analysis,
    seen_newgame: bool,
    seen_position: bool,
    /// A rewritten search runs to its node budget: the GUI's stop or ponderhit until its end
    /// (this event) would cut it short.
    drop_until: Option<u64>,
    sd_sent: Option<u32>,
    ping_enabled: bool,
    ping_n: u64,
}

impl<'a> Rewriter<'a> {
    fn new(a: &'a Analysis) -> Rewriter<'a> {
        Rewriter {
            a,
            seen_newgame: false,
            seen_position: false,
            drop_until: None,
            sd_sent: None,
            ping_enabled: a.session.feature("ping").and_then(|f| f.value.flag()) == Some(true),
            ping_n: 900_000,
        }
    }

    /// `next` is the text of the step after this one.
    fn decide(&mut self, step: &Step, next: &str) -> Decision {
        if step.send.is_none() {
            return Decision::keep();
        }
        let search = step
            .seq
            .and_then(|q| self.a.session.searches.iter().find(|s| s.started.seq == q));
        match self.a.session.protocol {
            Some(Protocol::Uci) => self.uci(step, next, search),
            Some(Protocol::Cecp) => self.cecp(step, search),
            _ => Decision::keep(),
        }
    }

    /// A UCI command, read by the protocol's parser.
    fn uci(&mut self, step: &Step, next: &str, search: Option<&Search>) -> Decision {
        let mut diagnostics = Vec::new();
        let msg = uci::parse(Dir::ToEngine, &step.text, &mut diagnostics);
        match msg {
            uci::Msg::Stop | uci::Msg::PonderHit
                if self
                    .drop_until
                    .is_some_and(|end| step.seq.is_some_and(|q| q <= end)) =>
            {
                Decision::with(Change::Drop(
                    "the rewritten search ends by its node budget".into(),
                ))
            }
            // A `setoption` the parser had to guess at (no `name`) is sent as recorded.
            uci::Msg::SetOption { name, value } if diagnostics.is_empty() => {
                Decision::with(threads_one(&name, value.as_deref()))
            }
            uci::Msg::UciNewGame => {
                self.seen_newgame = true;
                let mut d = Decision::keep();
                if next != "isready" {
                    d.after.push(sync_after_newgame());
                }
                d
            }
            uci::Msg::Position(_) => {
                let mut d = Decision::keep();
                if !self.seen_position && !self.seen_newgame {
                    d.before.push(Added::new(
                        "ucinewgame",
                        None,
                        "a fresh game state before the first search",
                    ));
                    d.before.push(sync_after_newgame());
                    self.seen_newgame = true;
                }
                self.seen_position = true;
                d
            }
            uci::Msg::Go(go) => Decision::with(self.uci_go(&go, search)),
            _ => Decision::keep(),
        }
    }

    /// A clock-limited `go` becomes the bounded search the recorded one was.
    fn uci_go(&mut self, go: &uci::Go, search: Option<&Search>) -> Change {
        let Some(s) = search else {
            return Change::Keep;
        };
        if !clock_limited(Some(Protocol::Uci), Some(GoLimits::of(go)), false) {
            return Change::Keep;
        }
        match budget(s) {
            Some(bounded) => {
                self.drop_until = s.ended.map(|e| e.seq).or(Some(u64::MAX));
                Change::Replace(
                    bounded,
                    "clock-limited search: the recorded search's final nodes (depth when no nodes were reported)"
                        .into(),
                )
            }
            None => Change::Keep,
        }
    }

    fn cecp(&mut self, step: &Step, search: Option<&Search>) -> Decision {
        let words: Vec<&str> = step.text.split_whitespace().collect();
        let first = words.first().copied().unwrap_or("");
        match first {
            "?" => {
                return Decision::with(Change::Drop(
                    "move now: the search ends at the recorded depth instead".into(),
                ));
            }
            "random" => {
                return Decision::with(Change::Drop(
                    "random mode makes the engine vary its moves".into(),
                ));
            }
            "hard" => {
                return Decision::with(Change::Replace(
                    "easy".into(),
                    "pondering changes what the engine has searched".into(),
                ));
            }
            _ => {}
        }
        if let Some(generous) = unbounded_clock(&words) {
            return Decision::with(Change::Replace(
                generous,
                "the clock must not end a search before its depth".into(),
            ));
        }
        let mut d = Decision::keep();
        if first == "sd" {
            self.sd_sent = words.get(1).and_then(|d| d.parse().ok());
        }
        if first == "new" && self.ping_enabled {
            self.ping_n += 1;
            d.after.push(Added::new(
                format!("ping {}", self.ping_n),
                Some(Owed::Pong(self.ping_n.to_string())),
                "sync after new",
            ));
        }
        if let Some(s) = search
            && self.sd_sent.is_none()
            && let Some(depth) = s.last.as_ref().and_then(|l| l.depth)
        {
            d.before.push(Added::new(
                format!("sd {depth}"),
                None,
                "clock-limited search: the depth the recorded search reached",
            ));
        }
        d
    }
}

fn sync_after_newgame() -> Added {
    Added::new("isready", Some(Owed::ReadyOk), "sync after ucinewgame")
}

/// The rewritten script as it is put together: its steps, the rewrites the CLI shows, and
/// the waits, renumbered at the end from the original steps' indices to the new ones.
#[derive(Default)]
struct Assembly {
    out: Vec<Step>,
    rewrites: Vec<Rewrite>,
    /// The new index of each original step (`None` when dropped).
    old_to_new: Vec<Option<usize>>,
    /// Waits on inserted lines, by the new index of the step that waits.
    extra: Vec<(usize, Wait)>,
    /// Waits on inserted lines, for the next original step.
    pending_sync: Vec<Wait>,
    /// Waits of dropped steps, for the next original step.
    carried: Vec<Wait>,
    carried_gap: Option<u64>,
}

impl Assembly {
    fn apply(&mut self, step: Step, change: Change) {
        match change {
            Change::Drop(why) => {
                self.rewrites.push(Rewrite {
                    line: step.line,
                    original: Some(step.text.clone()),
                    replayed: None,
                    why,
                });
                self.carried.extend(step.waits);
                self.carried_gap = self.carried_gap.or(step.busy_gap);
                self.old_to_new.push(None);
            }
            Change::Replace(text, why) => {
                self.rewrites.push(Rewrite {
                    line: step.line,
                    original: Some(step.text.clone()),
                    replayed: Some(text.clone()),
                    why,
                });
                let mut s = step;
                s.send = Some(format!("{text}\n").into_bytes());
                s.text = text;
                self.push_original(s);
            }
            Change::Keep => self.push_original(step),
        }
    }

    /// Adds a line of the rewrite's own; the next original step waits for its answer.
    fn insert(&mut self, added: Added, t: u64) {
        let Added { text, owed, why } = added;
        self.rewrites.push(Rewrite {
            line: None,
            original: None,
            replayed: Some(text.clone()),
            why,
        });
        self.out.push(Step {
            send: Some(format!("{text}\n").into_bytes()),
            text,
            origin: None,
            seq: None,
            line: None,
            t,
            waits: Vec::new(),
            busy_gap: None,
        });
        if let Some(owed) = owed {
            self.pending_sync.push(Wait {
                step: self.out.len() - 1,
                owed,
                latency: 0,
            });
        }
    }

    /// Adds an original step, with the waits of dropped steps before it (old indices) and the
    /// syncs on inserted lines (new indices, kept apart until the old ones are renumbered).
    fn push_original(&mut self, mut s: Step) {
        s.waits.append(&mut self.carried);
        if s.waits.is_empty() {
            s.busy_gap = s.busy_gap.or(self.carried_gap.take());
        }
        self.carried_gap = None;
        self.out.push(s);
        let at = self.out.len() - 1;
        self.old_to_new.push(Some(at));
        self.extra
            .extend(self.pending_sync.drain(..).map(|w| (at, w)));
    }

    /// The steps with every wait pointing at its new index, and the rewrites.
    fn finish(mut self) -> (Vec<Step>, Vec<Rewrite>) {
        for s in &mut self.out {
            s.waits = std::mem::take(&mut s.waits)
                .into_iter()
                .filter_map(|mut w| {
                    w.step = self.old_to_new.get(w.step).copied().flatten()?;
                    Some(w)
                })
                .collect();
        }
        for (at, w) in self.extra {
            self.out[at].waits.push(w);
        }
        (self.out, self.rewrites)
    }
}

/// CECP clock commands, with a clock that never ends a search first: the searches are
/// bounded by `sd` instead. `None` for other commands.
fn unbounded_clock(words: &[&str]) -> Option<String> {
    match words {
        ["level", _, _, _] => Some("level 1 600 0".into()),
        ["st", _] => Some("st 36000".into()),
        ["time", _] => Some("time 3600000".into()),
        ["otim", _] => Some("otim 3600000".into()),
        _ => None,
    }
}

/// `setoption name Threads value K` with K other than 1 becomes `... value 1`. The name and
/// value are the parser's: the name runs to the first `value`, the value to the line's end.
fn threads_one(name: &str, value: Option<&str>) -> Change {
    let Some(value) = value else {
        return Change::Keep;
    };
    if name.eq_ignore_ascii_case("threads") && value != "1" {
        Change::Replace(
            format!("setoption name {name} value 1"),
            format!("{value} threads search in a different order every run"),
        )
    } else {
        Change::Keep
    }
}

/// The bounded `go` that stands for a recorded search: its final nodes, else its depth.
fn budget(s: &Search) -> Option<String> {
    let last = s.last.as_ref()?;
    match (last.nodes, last.depth) {
        (Some(n), _) if n > 0 => Some(format!("go nodes {n}")),
        (_, Some(d)) if d > 0 => Some(format!("go depth {d}")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recording::Source::{Engine as E, Gui as G};
    use crate::replay::script::tests::analysed;

    fn texts(s: &Script) -> Vec<&str> {
        s.steps.iter().map(|s| s.text.as_str()).collect()
    }

    #[test]
    fn clock_limited_uci_searches_become_node_limited_and_threads_one() {
        let a = analysed(&[
            (0, G, "uci"),
            (
                10,
                E,
                "option name Threads type spin default 1 min 1 max 512",
            ),
            (10, E, "uciok"),
            (20, G, "setoption name Threads value 4"),
            (20, G, "ucinewgame"),
            (20, G, "position startpos"),
            (20, G, "go wtime 1000 btime 1000"),
            (30, E, "info depth 1 score cp 5 nodes 20 pv e2e4"),
            (40, E, "info depth 2 score cp 9 nodes 345 pv d2d4 d7d5"),
            (50, E, "bestmove d2d4"),
            (60, G, "position startpos moves d2d4"),
            (60, G, "go infinite"),
            (70, E, "info depth 3 score cp -4 nodes 999 pv d7d5"),
            (900, G, "stop"),
            (910, E, "bestmove d7d5"),
            (920, G, "go nodes 50"),
            (930, E, "bestmove e7e5"),
        ]);
        let mut s = Script::from_analysis(&a);
        let rewrites = deterministic(&mut s, &a);
        assert_eq!(
            texts(&s),
            [
                "uci",
                "setoption name Threads value 1",
                "ucinewgame",
                "isready",
                "position startpos",
                "go nodes 345",
                "position startpos moves d2d4",
                "go nodes 999",
                "go nodes 50",
                "(close the input)"
            ]
        );
        // The line after the inserted isready waits for its readyok.
        let isready = s.steps.iter().position(|s| s.text == "isready").unwrap();
        assert!(
            s.steps[isready + 1]
                .waits
                .iter()
                .any(|w| w.step == isready && w.owed == Owed::ReadyOk)
        );
        // The waits still point at the right lines after the renumbering.
        let go2 = s
            .steps
            .iter()
            .position(|s| s.text == "go nodes 999")
            .unwrap();
        let next = &s.steps[go2 + 1];
        assert!(
            next.waits
                .iter()
                .any(|w| w.step == go2 && w.owed == Owed::BestMove)
        );
        let dropped: Vec<_> = rewrites.iter().filter(|r| r.replayed.is_none()).collect();
        assert_eq!(dropped.len(), 1);
        assert_eq!(dropped[0].original.as_deref(), Some("stop"));
        assert_eq!(dropped[0].line, Some(15));
    }

    #[test]
    fn setoption_is_read_as_uci_says_the_name_to_value_the_value_to_the_end() {
        let a = analysed(&[
            (0, G, "uci"),
            (10, E, "uciok"),
            // The value holds the words `name` and `value`: it is SyzygyPath's.
            (
                20,
                G,
                "setoption name SyzygyPath value /tb/name value Threads",
            ),
            // A name of two words, not Threads.
            (20, G, "setoption name Thread Count value 8"),
            // No `name`: not a line to rewrite.
            (20, G, "setoption Threads value 4"),
            (20, G, "setoption name threads value 8"),
            (20, G, "setoption name Threads value 1"),
        ]);
        let mut s = Script::from_analysis(&a);
        let rewrites = deterministic(&mut s, &a);
        assert_eq!(
            texts(&s),
            [
                "uci",
                "setoption name SyzygyPath value /tb/name value Threads",
                "setoption name Thread Count value 8",
                "setoption Threads value 4",
                "setoption name threads value 1",
                "setoption name Threads value 1",
                "(close the input)"
            ]
        );
        assert_eq!(rewrites.len(), 1, "{rewrites:?}");
        assert_eq!(
            rewrites[0].why,
            "8 threads search in a different order every run"
        );
    }

    #[test]
    fn cecp_searches_get_their_recorded_depth_and_an_open_clock() {
        let a = analysed(&[
            (0, G, "xboard"),
            (0, G, "protover 2"),
            (10, E, "feature ping=1 done=1"),
            (20, G, "new"),
            (20, G, "random"),
            (20, G, "level 40 5 0"),
            (20, G, "time 30000"),
            (20, G, "go"),
            (30, E, "3 20 5 1000 e2e4 e7e5 g1f3"),
            (40, E, "move e2e4"),
        ]);
        let mut s = Script::from_analysis(&a);
        deterministic(&mut s, &a);
        assert_eq!(
            texts(&s),
            [
                "xboard",
                "protover 2",
                "new",
                "ping 900001",
                "level 1 600 0",
                "time 3600000",
                "sd 3",
                "go",
                "(close the input)"
            ]
        );
    }
}
