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
use crate::protocol::Protocol;
use crate::session::{Owed, Search};

/// What to do with one step.
enum Change {
    Keep,
    Replace(String, String),
    Drop(String),
}

/// Rewrites `script` (built from `a`) in place and returns what changed.
pub fn deterministic(script: &mut Script, a: &Analysis) -> Vec<Rewrite> {
    let protocol = a.session.protocol;
    let mut rewrites = Vec::new();
    let mut out: Vec<Step> = Vec::new();
    let mut old_to_new: Vec<Option<usize>> = Vec::with_capacity(script.steps.len());
    // Waits on inserted lines, by the new index of the step that waits.
    let mut extra: Vec<(usize, Wait)> = Vec::new();
    let mut pending_sync: Vec<Wait> = Vec::new();
    let mut carried: Vec<Wait> = Vec::new();
    let mut carried_gap: Option<u64> = None;
    let mut seen_newgame = false;
    let mut seen_position = false;
    // A rewritten search runs to its node budget: the GUI's stop or ponderhit until its end
    // would cut it short.
    let mut drop_until: Option<u64> = None;
    let mut sd_sent: Option<u32> = None;
    let ping_enabled = a.session.feature("ping").and_then(|f| f.value.flag()) == Some(true);
    let mut ping_n = 900_000u64;
    let steps = std::mem::take(&mut script.steps);
    let next_texts: Vec<String> = steps
        .iter()
        .skip(1)
        .map(|s| s.text.trim().to_owned())
        .chain([String::new()])
        .collect();
    for (step, next) in steps.into_iter().zip(next_texts) {
        let words: Vec<&str> = step.text.split_whitespace().collect();
        let first = words.first().copied().unwrap_or("");
        let search = step
            .seq
            .and_then(|q| a.session.searches.iter().find(|s| s.started.seq == q));
        let mut insert_before: Vec<(String, Option<Owed>, String)> = Vec::new();
        let mut insert_after: Vec<(String, Option<Owed>, String)> = Vec::new();
        let change = match (protocol, step.send.is_some()) {
            (_, false) => Change::Keep,
            (Some(Protocol::Uci), true) => {
                if drop_until.is_some_and(|end| step.seq.is_some_and(|q| q <= end))
                    && matches!(first, "stop" | "ponderhit")
                {
                    Change::Drop("the rewritten search ends by its node budget".into())
                } else {
                    match first {
                        "setoption" => threads_one(&step.text),
                        "ucinewgame" if next != "isready" => {
                            seen_newgame = true;
                            insert_after.push((
                                "isready".into(),
                                Some(Owed::ReadyOk),
                                "sync after ucinewgame".into(),
                            ));
                            Change::Keep
                        }
                        "ucinewgame" => {
                            seen_newgame = true;
                            Change::Keep
                        }
                        "position" => {
                            if !seen_position && !seen_newgame {
                                insert_before.push((
                                    "ucinewgame".into(),
                                    None,
                                    "a fresh game state before the first search".into(),
                                ));
                                insert_before.push((
                                    "isready".into(),
                                    Some(Owed::ReadyOk),
                                    "sync after ucinewgame".into(),
                                ));
                                seen_newgame = true;
                            }
                            seen_position = true;
                            Change::Keep
                        }
                        "go" => match search {
                            Some(s) if clock_limited(protocol, &step.text, false) => {
                                match budget(s) {
                                    Some(go) => {
                                        drop_until = s.ended.map(|e| e.seq).or(Some(u64::MAX));
                                        Change::Replace(
                                            go,
                                            "clock-limited search: the recorded search's final nodes (depth when no nodes were reported)"
                                                .into(),
                                        )
                                    }
                                    None => Change::Keep,
                                }
                            }
                            _ => Change::Keep,
                        },
                        _ => Change::Keep,
                    }
                }
            }
            (Some(Protocol::Cecp), true) => {
                if first == "?" {
                    Change::Drop("move now: the search ends at the recorded depth instead".into())
                } else if first == "random" {
                    Change::Drop("random mode makes the engine vary its moves".into())
                } else if first == "hard" {
                    Change::Replace(
                        "easy".into(),
                        "pondering changes what the engine has searched".into(),
                    )
                } else if let Some(generous) = unbounded_clock(&words) {
                    Change::Replace(
                        generous,
                        "the clock must not end a search before its depth".into(),
                    )
                } else {
                    if first == "sd" {
                        sd_sent = words.get(1).and_then(|d| d.parse().ok());
                    }
                    if first == "new" && ping_enabled {
                        ping_n += 1;
                        insert_after.push((
                            format!("ping {ping_n}"),
                            Some(Owed::Pong(ping_n.to_string())),
                            "sync after new".into(),
                        ));
                    }
                    if let Some(s) = search
                        && sd_sent.is_none()
                        && let Some(d) = s.last.as_ref().and_then(|l| l.depth)
                    {
                        insert_before.push((
                            format!("sd {d}"),
                            None,
                            "clock-limited search: the depth the recorded search reached".into(),
                        ));
                    }
                    Change::Keep
                }
            }
            _ => Change::Keep,
        };
        for (text, owed, why) in insert_before {
            insert(
                &mut out,
                &mut rewrites,
                &mut pending_sync,
                (text, owed, why),
                step.t,
            );
        }
        match change {
            Change::Drop(why) => {
                rewrites.push(Rewrite {
                    line: step.line,
                    original: Some(step.text.clone()),
                    replayed: None,
                    why,
                });
                carried.extend(step.waits);
                carried_gap = carried_gap.or(step.busy_gap);
                old_to_new.push(None);
                continue;
            }
            Change::Replace(text, why) => {
                rewrites.push(Rewrite {
                    line: step.line,
                    original: Some(step.text.clone()),
                    replayed: Some(text.clone()),
                    why,
                });
                let mut s = step.clone();
                s.send = Some(format!("{text}\n").into_bytes());
                s.text = text;
                push_original(
                    &mut out,
                    s,
                    &mut carried,
                    &mut carried_gap,
                    &mut pending_sync,
                    &mut extra,
                );
            }
            Change::Keep => {
                push_original(
                    &mut out,
                    step.clone(),
                    &mut carried,
                    &mut carried_gap,
                    &mut pending_sync,
                    &mut extra,
                );
            }
        }
        old_to_new.push(Some(out.len() - 1));
        for (text, owed, why) in insert_after {
            insert(
                &mut out,
                &mut rewrites,
                &mut pending_sync,
                (text, owed, why),
                step.t,
            );
        }
    }
    for s in &mut out {
        s.waits = std::mem::take(&mut s.waits)
            .into_iter()
            .filter_map(|mut w| {
                w.step = old_to_new.get(w.step).copied().flatten()?;
                Some(w)
            })
            .collect();
    }
    for (at, w) in extra {
        out[at].waits.push(w);
    }
    script.steps = out;
    rewrites
}

/// Adds a line of the rewrite's own; the next original step waits for its answer.
fn insert(
    out: &mut Vec<Step>,
    rewrites: &mut Vec<Rewrite>,
    pending_sync: &mut Vec<Wait>,
    (text, owed, why): (String, Option<Owed>, String),
    t: u64,
) {
    rewrites.push(Rewrite {
        line: None,
        original: None,
        replayed: Some(text.clone()),
        why,
    });
    out.push(Step {
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
        pending_sync.push(Wait {
            step: out.len() - 1,
            owed,
            latency: 0,
        });
    }
}

/// Adds an original step, with the waits of dropped steps before it (old indices) and the
/// syncs on inserted lines (new indices, kept apart until the old ones are renumbered).
fn push_original(
    out: &mut Vec<Step>,
    mut s: Step,
    carried: &mut Vec<Wait>,
    carried_gap: &mut Option<u64>,
    pending_sync: &mut Vec<Wait>,
    extra: &mut Vec<(usize, Wait)>,
) {
    s.waits.append(carried);
    if s.waits.is_empty() {
        s.busy_gap = s.busy_gap.or(carried_gap.take());
    }
    *carried_gap = None;
    out.push(s);
    let at = out.len() - 1;
    extra.extend(pending_sync.drain(..).map(|w| (at, w)));
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

/// `setoption name Threads value K` with K other than 1 becomes `... value 1`.
fn threads_one(text: &str) -> Change {
    let words: Vec<&str> = text.split_whitespace().collect();
    let name_at = words.iter().position(|w| *w == "name");
    let value_at = words.iter().position(|w| *w == "value");
    let (Some(n), Some(v)) = (name_at, value_at) else {
        return Change::Keep;
    };
    let name = words.get(n + 1..v).map(|w| w.join(" ")).unwrap_or_default();
    let value = words.get(v + 1..).map(|w| w.join(" ")).unwrap_or_default();
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
