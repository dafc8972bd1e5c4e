//! The semantic diff of a replay against its original: protocol behaviour (obligations
//! answered, findings, the engine's end, hangs) apart from search results, searches compared
//! by fingerprint with the volatile fields masked, and the verdict.

use super::analysis::Analysis;
use super::report::{
    DiffKind, Difference, HangPair, SearchDiff, SearchTally, SideBySide, Verdict, VerdictKind,
};
use super::run::Outcome;
use super::script::Script;
use crate::protocol::Protocol;
use crate::recording::Source;
use crate::rules::{HangVerdict, Side};

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
    let (searches, tally, sides) = super::searches::compare(o, r, script, &map);
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
        super::searches::another_course(&mut searches, &mut tally, &mut differences)
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
    let verdict = verdict(&differences, &hang, &searches, &tally, course);
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
pub(crate) struct LineMap {
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
    pub(crate) fn original_line(&self, seq: u64) -> Option<u64> {
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
            // The original's command as it was, and what was sent when --deterministic
            // rewrote it.
            let sent = step.text.trim();
            let original = o.line_by_seq(oseq).map_or(sent, |l| l.text.trim());
            let request = if original == sent {
                format!("`{original}`")
            } else {
                format!("`{original}` (replayed as `{sent}`)")
            };
            let message = if was {
                format!(
                    "the original engine answered {request} with {}; the replayed engine did not",
                    ob.owed
                )
            } else {
                format!(
                    "the replayed engine answered {request} with {}; the original engine did not",
                    ob.owed
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

/// Rules whose findings depend on timing, not on what the engine says.
fn timing_rule(rule: crate::rules::catalogue::RuleId) -> bool {
    let id = rule.as_str();
    rule.family() == crate::rules::catalogue::Family::Replay
        || [
            "TIMEOUT", "LATE", "DELAY", "FLOOD", "LATENCY", "HANG", "CLOCK",
        ]
        .iter()
        .any(|w| id.contains(w))
}

/// Engine-side errors and warnings one engine drew and the other did not.
fn findings(o: &Analysis, r: &Analysis, map: &LineMap, out: &mut Vec<Difference>) {
    let relevant =
        |a: &Analysis| -> Vec<(crate::rules::catalogue::RuleId, Option<u64>, u64, String)> {
            a.findings
                .iter()
                .filter(|f| {
                    f.side == Side::Engine && f.severity.counts_against() && !timing_rule(f.rule)
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
    tally: &SearchTally,
    course: Option<u64>,
) -> Verdict {
    let first = diffs.iter().find(|d| !d.expected);
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
    if let Some(d) = first {
        return Verdict {
            kind: VerdictKind::Diverged,
            line: d.line,
            replay_line: d.replay_line,
            search: search_of(d),
            summary: match d.line {
                Some(l) => format!("diverged at line {l}: {}", d.message),
                None => format!("diverged: {}", d.message),
            },
        };
    }
    // The game took another course and the replay never reached most of the original's
    // searches: what was compared is too little to call the session reproduced.
    let reached = tally.original.saturating_sub(tally.missing);
    if let Some(l) = course
        && tally.original > 0
        && reached * 2 < tally.original
    {
        return Verdict {
            kind: VerdictKind::Diverged,
            line: Some(l),
            replay_line: None,
            search: searches.iter().find(|s| s.line == Some(l)).map(|s| s.index),
            summary: format!(
                "diverged at line {l}: {} chose another move and the game took another course; the replay reached {reached} of the original's {} searches (--deterministic bounds the searches)",
                why_searches_differ(searches, l),
                tally.original
            ),
        };
    }
    Verdict {
        kind: VerdictKind::Reproduced,
        line: None,
        replay_line: None,
        search: None,
        summary: reproduced_summary(tally, searches, course),
    }
}

/// What made the search at `line` free to choose another move.
fn why_searches_differ(searches: &[SearchDiff], line: u64) -> &'static str {
    match searches.iter().find(|s| s.line == Some(line)) {
        Some(s) if !s.clock_limited => "a search with several threads",
        _ => "a clock-limited search",
    }
}

/// `reproduced: protocol behaviour equal; 12 of 70 searches identical, 58 differ as expected
/// (58 searched with 2 threads)`: what was compared comes first, so 0 identical searches is never hidden behind the
/// word.
fn reproduced_summary(t: &SearchTally, searches: &[SearchDiff], course: Option<u64>) -> String {
    let mut s = String::from("reproduced: protocol behaviour equal");
    if t.original == 0 {
        s.push_str("; the original has no search to compare");
        return s;
    }
    s.push_str(&format!(
        "; {} of {} search{} identical",
        t.identical,
        t.original,
        if t.original == 1 { "" } else { "es" }
    ));
    if t.expected > 0 {
        let mut why = Vec::new();
        if t.expected_clock > 0 {
            why.push(format!("{} limited by the clock", t.expected_clock));
        }
        if t.expected_threads > 0 {
            why.push(format!(
                "{} searched with {} threads",
                t.expected_threads, t.most_threads
            ));
        }
        let after_course = t
            .expected
            .saturating_sub(t.expected_clock + t.expected_threads);
        if after_course > 0 {
            why.push(format!("{after_course} after the game took another course"));
        }
        s.push_str(&format!(
            ", {} differ{} as expected ({})",
            t.expected,
            if t.expected == 1 { "s" } else { "" },
            why.join(", ")
        ));
    }
    if t.missing > 0 {
        s.push_str(&format!(", {} never reached", t.missing));
    }
    if let Some(l) = course {
        s.push_str(&format!(
            "; from line {l}, where {} chose another move, the game took another course",
            why_searches_differ(searches, l)
        ));
    }
    s
}
