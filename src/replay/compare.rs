//! The semantic diff of a replay against its original: protocol behaviour (obligations
//! answered, findings, the engine's end, hangs) apart from search results, searches compared
//! by fingerprint with the volatile fields masked, and the verdict.

use super::analysis::Analysis;
use super::report::{
    DiffKind, Difference, Fingerprint, HangPair, Row, SearchDiff, SearchTally, SideBySide, Verdict,
    VerdictKind,
};
use super::run::Outcome;
use super::script::Script;
use crate::protocol::Protocol;
use crate::recording::Source;
use crate::rules::{HangVerdict, Severity, Side};
use crate::session::{Line, Search};

/// Everything the comparison finds.
pub struct Comparison {
    pub verdict: Verdict,
    pub tally: SearchTally,
    pub searches: Vec<SearchDiff>,
    pub differences: Vec<Difference>,
    pub first_divergence: Option<SideBySide>,
    pub hang: HangPair,
}

/// Compares the replay `r` of `script` (cut short as `outcome` says) with the original `o`.
pub fn compare(o: &Analysis, r: &Analysis, script: &Script, outcome: &Outcome) -> Comparison {
    let map = LineMap::new(r, script);
    let mut differences = Vec::new();
    obligations(o, r, script, &map, &mut differences);
    findings(o, r, &map, &mut differences);
    exits(o, r, &map, &mut differences);
    let (searches, tally, sides) = searches(o, r, script, &map);
    for s in &searches {
        differences.push(Difference {
            kind: DiffKind::Search,
            expected: s.expected,
            line: s.line,
            replay_line: s.replay_line,
            message: s.message.clone(),
        });
    }
    let mut searches = searches;
    let mut tally = tally;
    let course = if o.session.protocol != Some(Protocol::Uci) {
        another_course(&mut searches, &mut tally, &mut differences)
    } else {
        None
    };
    // The original's hang counts when the script sends the request it hung on.
    // PENDING is an input that ends while an answer is on its way (a log excerpt), no hang.
    let in_scope = |h: &&HangVerdict| {
        h.label != "PENDING"
            && h.request_line
                .is_none_or(|l| script.steps.iter().any(|st| st.line == Some(l)))
    };
    let hang = HangPair {
        original: o.hangs.iter().find(in_scope).cloned(),
        replay: r.hangs.first().cloned(),
    };
    hangs(o, &hang, outcome, script, &mut differences);
    differences.sort_by_key(|d| {
        (
            d.line.unwrap_or(u64::MAX),
            d.replay_line.unwrap_or(u64::MAX),
        )
    });
    let verdict = verdict(&differences, &hang, &searches, course);
    let first_divergence = verdict
        .search
        .and_then(|k| sides.into_iter().find(|s| s.search == k));
    Comparison {
        verdict,
        tally,
        searches,
        differences,
        first_divergence,
        hang,
    }
}

/// Lines of the replay told by the original's line numbers: a replayed GUI line is the step
/// it replays; an engine line follows the last GUI line sent before it.
struct LineMap {
    /// Per replay GUI line (in order): the step it replays.
    gui_steps: Vec<(u64, usize)>,
    /// Per step: the original's input line.
    step_lines: Vec<Option<u64>>,
    /// Per step: the replay's GUI line sequence number, when it was sent.
    step_seqs: Vec<Option<u64>>,
}

impl LineMap {
    fn new(r: &Analysis, script: &Script) -> LineMap {
        let sent: Vec<usize> = script
            .steps
            .iter()
            .enumerate()
            .filter(|(_, s)| s.send.is_some())
            .map(|(i, _)| i)
            .collect();
        let gui_steps: Vec<(u64, usize)> = r.gui_lines().map(|l| l.seq).zip(sent).collect();
        let mut step_seqs = vec![None; script.steps.len()];
        for (seq, step) in &gui_steps {
            step_seqs[*step] = Some(*seq);
        }
        LineMap {
            gui_steps,
            step_lines: script.steps.iter().map(|s| s.line).collect(),
            step_seqs,
        }
    }

    /// The original's line for a replay event `seq`: that of the last step sent before it.
    fn original_line(&self, seq: u64) -> Option<u64> {
        let i = self.gui_steps.partition_point(|(s, _)| *s <= seq);
        self.gui_steps[..i]
            .iter()
            .rev()
            .find_map(|(_, step)| self.step_lines[*step])
    }
}

fn answered(a: &Analysis, o: &crate::session::Obligation) -> bool {
    o.closed.is_some_and(|c| {
        !o.cancelled
            && a.line_by_seq(c.seq)
                .is_some_and(|l| l.src == Source::Engine)
    })
}

/// Obligations the original engine answered and the replay's did not, or the other way.
fn obligations(
    o: &Analysis,
    r: &Analysis,
    script: &Script,
    map: &LineMap,
    out: &mut Vec<Difference>,
) {
    for (i, step) in script.steps.iter().enumerate() {
        let (Some(oseq), Some(rseq)) = (step.seq, map.step_seqs[i]) else {
            continue;
        };
        // A `go` and the `stop` that ends it are answered by one `bestmove`: the `stop` is
        // the request to name (as the hang diagnosis does).
        let superseded =
            |x: &crate::session::Obligation| {
                o.session.obligations.iter().any(|y| {
                    y.owed == x.owed && y.opened.seq > x.opened.seq && y.closed == x.closed
                }) && x.owed == crate::session::Owed::BestMove
            };
        // An answer the original's input ends less than a second after asking for is not
        // known to be missing: a log excerpt stops there (the hang verdict's PENDING).
        let end = o.events.last().map_or(0, |e| e.t);
        let unknown = |x: &crate::session::Obligation| {
            x.closed.is_none() && o.exit.is_none() && end.saturating_sub(x.opened.t) < 1_000_000_000
        };
        let orig: Vec<_> = o
            .session
            .obligations
            .iter()
            .filter(|x| x.opened.seq == oseq && !superseded(x) && !unknown(x))
            .collect();
        for ob in orig {
            let rep = r
                .session
                .obligations
                .iter()
                .find(|x| x.opened.seq == rseq && x.owed == ob.owed);
            let (was, is) = (answered(o, ob), rep.is_some_and(|x| answered(r, x)));
            if was == is {
                continue;
            }
            let message = if was {
                format!(
                    "the original engine answered `{}` with {}; the replayed engine did not",
                    step.text, ob.owed
                )
            } else {
                format!(
                    "the replayed engine answered `{}` with {}; the original engine did not",
                    step.text, ob.owed
                )
            };
            out.push(Difference {
                kind: DiffKind::Protocol,
                expected: false,
                line: step.line,
                replay_line: r.file_line_of_seq(rseq),
                message,
            });
        }
    }
}

/// In CECP and NBoard the engine's own moves make the game: once a search chose another
/// move, the GUI's next moves (taken from the original) belong to another game, and what
/// follows differs because of that search. Differences after it are as expected as it was.
/// Returns the line where the game took another course.
fn another_course(
    searches: &mut [SearchDiff],
    tally: &mut SearchTally,
    diffs: &mut [Difference],
) -> Option<u64> {
    let (line, expected) = searches
        .iter()
        .find(|s| s.fields.contains(&"bestmove"))
        .and_then(|s| Some((s.line?, s.expected)))?;
    if !expected {
        return None;
    }
    let note = format!(" (after the game took another course at line {line})");
    for s in searches
        .iter_mut()
        .filter(|s| s.line.is_some_and(|l| l > line) && !s.expected)
    {
        s.expected = true;
        s.message.push_str(&note);
        if s.replay.is_some() {
            tally.expected += 1;
            tally.differing = tally.differing.saturating_sub(1);
        }
    }
    for d in diffs
        .iter_mut()
        .filter(|d| d.line.is_some_and(|l| l > line) && !d.expected)
    {
        d.expected = true;
        d.message.push_str(&note);
    }
    Some(line)
}

/// Rules whose findings depend on timing, not on what the engine says.
fn timing_rule(id: &str) -> bool {
    id.starts_with("REPLAY-")
        || [
            "TIMEOUT", "LATE", "DELAY", "FLOOD", "LATENCY", "HANG", "CLOCK",
        ]
        .iter()
        .any(|w| id.contains(w))
}

/// Engine-side errors and warnings one engine drew and the other did not.
fn findings(o: &Analysis, r: &Analysis, map: &LineMap, out: &mut Vec<Difference>) {
    let relevant = |a: &Analysis| -> Vec<(&'static str, Option<u64>, u64, String)> {
        a.findings
            .iter()
            .filter(|f| {
                f.side == Side::Engine
                    && matches!(f.severity, Severity::Error | Severity::Warning)
                    && !timing_rule(f.rule)
            })
            .map(|f| (f.rule, f.line, f.seq, f.message.clone()))
            .collect()
    };
    let (of, rf) = (relevant(o), relevant(r));
    for (rule, line, _, msg) in &of {
        if !rf.iter().any(|(x, ..)| x == rule) {
            out.push(Difference {
                kind: DiffKind::Protocol,
                expected: false,
                line: *line,
                replay_line: None,
                message: format!(
                    "the original engine broke {rule} ({msg}); the replayed engine did not"
                ),
            });
        }
    }
    for (rule, line, seq, msg) in &rf {
        if !of.iter().any(|(x, ..)| x == rule) {
            out.push(Difference {
                kind: DiffKind::Protocol,
                expected: false,
                line: map.original_line(*seq),
                replay_line: *line,
                message: format!(
                    "the replayed engine broke {rule} ({msg}); the original engine did not"
                ),
            });
        }
    }
}

/// A crash in one run and not the other, or different exit codes.
fn exits(o: &Analysis, r: &Analysis, map: &LineMap, out: &mut Vec<Difference>) {
    let (Some(oe), Some(re)) = (&o.exit, &r.exit) else {
        return;
    };
    let own = |e: &super::analysis::Exit| (!e.killed).then(|| (e.code, e.signal.clone()));
    if own(oe) == own(re) {
        return;
    }
    let describe = |e: &super::analysis::Exit| {
        if e.killed {
            format!("{} (killed)", e.text)
        } else {
            e.text.clone()
        }
    };
    let last_line = |a: &Analysis| a.file_lines.iter().rev().find_map(|l| *l);
    let rseq = r.events.last().map_or(0, |e| e.seq);
    out.push(Difference {
        kind: DiffKind::Exit,
        expected: false,
        line: map.original_line(rseq).or(last_line(o)),
        replay_line: last_line(r),
        message: format!(
            "the original: {}; the replay: {}",
            describe(oe),
            describe(re)
        ),
    });
}

fn same_hang(a: &HangVerdict, b: &HangVerdict) -> bool {
    a.class == b.class && a.owed == b.owed
}

fn hangs(
    o: &Analysis,
    pair: &HangPair,
    outcome: &Outcome,
    script: &Script,
    out: &mut Vec<Difference>,
) {
    match (&pair.original, &pair.replay) {
        (Some(a), Some(b)) if same_hang(a, b) => {}
        (Some(a), _) => out.push(Difference {
            kind: DiffKind::Hang,
            expected: false,
            line: a
                .request_line
                .or(o.file_lines.iter().rev().find_map(|l| *l)),
            replay_line: None,
            message: match &pair.replay {
                Some(b) => format!(
                    "the original hung ({}); the replay hung differently ({})",
                    a.summary, b.summary
                ),
                None => format!("the original hung ({}); the replay did not", a.summary),
            },
        }),
        (None, Some(b)) => {
            let line = outcome
                .stall
                .as_ref()
                .and_then(|s| script.steps[s.request_step].line)
                .or(b.request_line);
            out.push(Difference {
                kind: DiffKind::Hang,
                expected: false,
                line,
                replay_line: b.request_line,
                message: format!("the replay hung: {}", b.summary),
            });
        }
        (None, None) => {}
    }
}

fn verdict(
    diffs: &[Difference],
    hang: &HangPair,
    searches: &[SearchDiff],
    course: Option<u64>,
) -> Verdict {
    let first = diffs.iter().find(|d| !d.expected);
    let expected = diffs.iter().filter(|d| d.expected).count();
    let search_of = |d: &Difference| {
        searches
            .iter()
            .find(|s| d.kind == DiffKind::Search && s.line == d.line && s.message == d.message)
            .map(|s| s.index)
    };
    if let (Some(a), Some(b)) = (&hang.original, &hang.replay)
        && same_hang(a, b)
        && first.is_none_or(|d| d.line.unwrap_or(u64::MAX) >= a.request_line.unwrap_or(0))
    {
        return Verdict {
            kind: VerdictKind::HangReproduced,
            line: a.request_line,
            replay_line: b.request_line,
            search: None,
            summary: format!("hang reproduced: {}", b.summary),
        };
    }
    match first {
        Some(d) => Verdict {
            kind: VerdictKind::Diverged,
            line: d.line,
            replay_line: d.replay_line,
            search: search_of(d),
            summary: match d.line {
                Some(l) => format!("diverged at line {l}: {}", d.message),
                None => format!("diverged: {}", d.message),
            },
        },
        None => Verdict {
            kind: VerdictKind::Reproduced,
            line: None,
            replay_line: None,
            search: None,
            summary: if let Some(l) = course {
                format!(
                    "reproduced up to line {l}, where a clock-limited search chose another move and the game took another course (--deterministic bounds the searches)"
                )
            } else if expected == 0 {
                "reproduced".to_owned()
            } else {
                format!(
                    "reproduced: protocol behaviour and every search not limited by the clock match; {expected} search(es) limited by the clock (or searched with several threads) in the original differ, as such searches are expected to"
                )
            },
        },
    }
}

/// Was the search limited by the clock (so its result depends on timing)?
pub fn clock_limited(protocol: Option<Protocol>, request: &str, cecp_depth_set: bool) -> bool {
    match protocol {
        Some(Protocol::Uci) => {
            let toks: Vec<&str> = request.split_whitespace().collect();
            let clock = toks
                .iter()
                .any(|t| matches!(*t, "wtime" | "btime" | "movetime" | "infinite" | "ponder"));
            let bound = toks
                .iter()
                .any(|t| matches!(*t, "nodes" | "depth" | "mate"));
            clock || !bound
        }
        Some(Protocol::Cecp) => !cecp_depth_set,
        Some(Protocol::Nboard) => false,
        None => true,
    }
}

/// The `Threads` the GUI had set when the search at `seq` started (1 when never set): more
/// than one searches in a different order every run.
fn threads_at(a: &Analysis, seq: u64) -> u64 {
    a.session
        .option_sets
        .iter()
        .filter(|o| o.at.seq < seq && o.name.eq_ignore_ascii_case("threads"))
        .filter_map(|o| o.value.as_deref()?.trim().parse().ok())
        .next_back()
        .unwrap_or(1)
}

/// Per search of the original: was it clock-limited? (CECP: an `sd` before it bounds it.)
fn clock_flags(a: &Analysis) -> Vec<bool> {
    let protocol = a.session.protocol;
    let sd_lines: Vec<u64> = a
        .gui_lines()
        .filter(|l| l.text.trim_start().starts_with("sd "))
        .map(|l| l.seq)
        .collect();
    a.session
        .searches
        .iter()
        .map(|s| {
            let sd = sd_lines.iter().any(|q| *q < s.started.seq);
            clock_limited(protocol, &s.request, sd)
        })
        .collect()
}

/// The search's result. A CECP engine's move ends its search (`move e2e4`): it is the
/// bestmove.
fn fingerprint(a: &Analysis, s: &Search) -> Fingerprint {
    let last = s.last.as_ref();
    let moved = || {
        let l = a.line_by_seq(s.ended?.seq)?;
        (l.msg.as_ref()?.kind() == "move" && l.src == Source::Engine)
            .then(|| l.text.split_whitespace().last().map(str::to_owned))?
    };
    Fingerprint {
        request: s.request.clone(),
        bestmove: s.best.clone().or_else(moved),
        ponder: s.ponder_move.clone(),
        depth: last.and_then(|l| l.depth),
        score: last.and_then(|l| l.eval).map(|e| e.to_string()),
        nodes: last.and_then(|l| l.nodes),
        pv: last.map(|l| l.pv.clone()).filter(|p| !p.is_empty()),
    }
}

/// The fields of a fingerprint that differ (nodes only where both searches were bounded:
/// the node count of a timed search is the clock's).
fn differing(a: &Fingerprint, b: &Fingerprint, bounded: bool) -> Vec<&'static str> {
    let mut v = Vec::new();
    if a.bestmove != b.bestmove {
        v.push("bestmove");
    }
    if a.ponder != b.ponder {
        v.push("ponder");
    }
    if a.depth != b.depth {
        v.push("depth");
    }
    if a.score != b.score {
        v.push("score");
    }
    if a.pv != b.pv {
        v.push("pv");
    }
    if bounded && a.nodes != b.nodes {
        v.push("nodes");
    }
    v
}

/// UCI `info` fields that depend on timing or the machine, not on the search.
const VOLATILE: [&str; 9] = [
    "time",
    "nps",
    "hashfull",
    "tbhits",
    "sbhits",
    "cpuload",
    "currmove",
    "currmovenumber",
    "currline",
];
const INFO_KEYS: [&str; 17] = [
    "depth",
    "seldepth",
    "time",
    "nodes",
    "pv",
    "multipv",
    "score",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
    "string",
    "refutation",
    "currline",
];

/// An engine line of a search as compared: volatile fields masked; `None` for lines that
/// carry nothing but volatile fields.
pub fn masked(line: &Line) -> Option<String> {
    let kind = line.msg.as_ref().map(|m| m.kind());
    let text = line.text.trim();
    match kind {
        Some("info") => mask_info(text),
        Some("thinking") => {
            // `ply score time nodes pv`: the time is the clock's.
            let mut t: Vec<&str> = text.split_whitespace().collect();
            if t.len() >= 3 {
                t[2] = "*";
            }
            Some(t.join(" "))
        }
        // CECP `#` lines are debug output (Fairy-Max prints its clock there).
        // NBoard `status` lines tell the GUI what the engine is doing, when it gets to say it.
        Some("nodestats" | "stat01" | "empty" | "debug" | "status") => None,
        _ if text.is_empty() => None,
        _ => Some(text.split_whitespace().collect::<Vec<_>>().join(" ")),
    }
}

fn mask_info(text: &str) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    let mut skip = false;
    let mut toks = text.split_whitespace();
    let mut substantive = false;
    while let Some(t) = toks.next() {
        if t == "string" {
            out.push(t);
            out.extend(toks.by_ref());
            substantive = true;
            break;
        }
        if INFO_KEYS.contains(&t) || t == "info" {
            skip = VOLATILE.contains(&t);
            substantive |= matches!(t, "score" | "pv" | "refutation");
        }
        if !skip {
            out.push(t);
        }
    }
    substantive.then(|| out.join(" "))
}

type SearchResult = (Vec<SearchDiff>, SearchTally, Vec<SideBySide>);

fn searches(o: &Analysis, r: &Analysis, script: &Script, map: &LineMap) -> SearchResult {
    let clock = clock_flags(o);
    let replay_clock = clock_flags(r);
    let mut diffs = Vec::new();
    let mut sides = Vec::new();
    let mut tally = SearchTally::default();
    // The original's searches the script asks for (all of them, unless a subset was chosen).
    let in_script: Vec<(usize, &Search)> = o
        .session
        .searches
        .iter()
        .enumerate()
        .filter(|(_, s)| script.steps.iter().any(|st| st.seq == Some(s.started.seq)))
        .collect();
    let total = in_script.len();
    for (k, &(oi, os)) in in_script.iter().enumerate() {
        let line = os
            .ended
            .and_then(|e| o.file_line_of_seq(e.seq))
            .or(o.file_line_of_seq(os.started.seq));
        let Some(rs) = r.session.searches.get(k) else {
            if r.session.searches.len() < total && k == r.session.searches.len() {
                tally.missing = total - k;
                diffs.push(SearchDiff {
                    index: oi + 1,
                    original: fingerprint(o, os),
                    replay: None,
                    clock_limited: clock[oi],
                    expected: false,
                    fields: vec!["missing"],
                    line: o.file_line_of_seq(os.started.seq),
                    replay_line: None,
                    message: format!(
                        "search {} (`{}`) was never started in the replay ({} of {} searches replayed)",
                        oi + 1,
                        os.request,
                        r.session.searches.len(),
                        total
                    ),
                });
            }
            continue;
        };
        tally.compared += 1;
        let (of, rf) = (fingerprint(o, os), fingerprint(r, rs));
        let bounded = !clock[oi] && !replay_clock.get(k).copied().unwrap_or(true);
        let fields = differing(&of, &rf, bounded);
        let ostream: Vec<(Option<u64>, String)> = o
            .search_lines(os)
            .filter_map(|l| masked(l).map(|m| (o.line_of(l.index), m)))
            .collect();
        let rstream: Vec<(Option<u64>, String)> = r
            .search_lines(rs)
            .filter_map(|l| masked(l).map(|m| (r.line_of(l.index), m)))
            .collect();
        let first_row = (0..ostream.len().max(rstream.len()))
            .find(|&i| ostream.get(i).map(|x| &x.1) != rstream.get(i).map(|x| &x.1));
        if fields.is_empty() && (first_row.is_none() || !bounded) {
            tally.identical += 1;
            continue;
        }
        let rline = rs.ended.and_then(|e| r.file_line_of_seq(e.seq));
        // Where it starts to differ: the first info line that does, else the answer.
        let (line, replay_line) = match first_row {
            Some(i) if bounded || !fields.is_empty() => (
                ostream.get(i).and_then(|x| x.0).or(line),
                rstream.get(i).and_then(|x| x.0).or(rline),
            ),
            _ => (line, rline),
        };
        let fields = if fields.is_empty() {
            vec!["info"]
        } else {
            fields
        };
        let threads = threads_at(o, os.started.seq);
        let expected = clock[oi] || threads > 1;
        if expected {
            tally.expected += 1;
        } else {
            tally.differing += 1;
        }
        let show = |f: &Fingerprint| {
            format!(
                "bestmove {}{} depth {} score {}",
                f.bestmove.as_deref().unwrap_or("(none)"),
                f.ponder
                    .as_deref()
                    .map(|p| format!(" ponder {p}"))
                    .unwrap_or_default(),
                f.depth.map_or("-".into(), |d| d.to_string()),
                f.score.as_deref().unwrap_or("-"),
            )
        };
        let message = format!(
            "search {} (`{}`{}) differs in {}: original {}; replay {}",
            oi + 1,
            os.request,
            match (clock[oi], threads > 1) {
                (true, _) => ", clock-limited in the original: expected".to_owned(),
                (false, true) =>
                    format!(", searched with {threads} threads in the original: expected"),
                _ => String::new(),
            },
            fields.join(", "),
            show(&of),
            show(&rf)
        );
        let _ = map;
        sides.push(SideBySide {
            search: oi + 1,
            rows: (0..ostream.len().max(rstream.len()))
                .map(|i| {
                    let a = ostream.get(i);
                    let b = rstream.get(i);
                    Row {
                        same: a.map(|x| &x.1) == b.map(|x| &x.1),
                        original_line: a.and_then(|x| x.0),
                        original: a.map(|x| x.1.clone()),
                        replay_line: b.and_then(|x| x.0),
                        replay: b.map(|x| x.1.clone()),
                    }
                })
                .collect(),
        });
        diffs.push(SearchDiff {
            index: oi + 1,
            original: of,
            replay: Some(rf),
            clock_limited: clock[oi],
            expected,
            fields,
            line,
            replay_line,
            message,
        });
    }
    tally.original = total;
    tally.replay = r.session.searches.len();
    (diffs, tally, sides)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn volatile_info_fields_are_masked_and_empty_lines_dropped() {
        assert_eq!(
            mask_info("info depth 5 seldepth 7 time 120 nodes 3000 nps 25000 hashfull 3 tbhits 0 score cp 20 pv e2e4 e7e5").as_deref(),
            Some("info depth 5 seldepth 7 nodes 3000 score cp 20 pv e2e4 e7e5")
        );
        assert_eq!(
            mask_info("info depth 5 currmove e2e4 currmovenumber 1 time 3000"),
            None
        );
        assert_eq!(mask_info("info nps 100000 hashfull 10"), None);
        assert_eq!(
            mask_info("info string NNUE enabled time 5").as_deref(),
            Some("info string NNUE enabled time 5")
        );
    }

    #[test]
    fn searches_limited_by_the_clock_are_told_apart() {
        let uci = Some(Protocol::Uci);
        for clock in [
            "go wtime 1000 btime 1000",
            "go movetime 100",
            "go infinite",
            "go",
            "go ponder depth 5",
        ] {
            assert!(clock_limited(uci, clock, false), "{clock}");
        }
        for bounded in ["go nodes 100", "go depth 9", "go mate 3"] {
            assert!(!clock_limited(uci, bounded, false), "{bounded}");
        }
        assert!(clock_limited(Some(Protocol::Cecp), "go", false));
        assert!(!clock_limited(Some(Protocol::Cecp), "go", true));
        assert!(!clock_limited(Some(Protocol::Nboard), "go", false));
    }
}
