//! Searches compared one by one: fingerprints (bestmove, ponder, depth, score, PV, nodes),
//! the masked engine lines side by side, and which differences the clock explains.

use super::analysis::Analysis;
use super::compare::LineMap;
use super::mask::masked;
use super::report::{Difference, Fingerprint, Row, SearchDiff, SearchTally, SideBySide};
use super::script::Script;
use crate::protocol::{Dir, Protocol, uci};
use crate::recording::Source;
use crate::session::{GoLimits, Search};

/// Was the search limited by the clock (so its result depends on timing)? `go` is a UCI
/// search's limits.
pub fn clock_limited(
    protocol: Option<Protocol>,
    go: Option<GoLimits>,
    cecp_depth_set: bool,
) -> bool {
    match protocol {
        Some(Protocol::Uci) => go.is_none_or(|g| g.clock_limited()),
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

/// The limits of a UCI `go` line, as the protocol's parser reads it; `None` for another line.
pub fn go_limits(text: &str) -> Option<GoLimits> {
    match uci::parse(Dir::ToEngine, text, &mut Vec::new()) {
        uci::Msg::Go(go) => Some(GoLimits::of(&go)),
        _ => None,
    }
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
            clock_limited(protocol, s.go, sd)
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

type SearchResult = (Vec<SearchDiff>, SearchTally, Vec<SideBySide>);

/// Pairs the original's searches (those the script starts) with the replay's, in order.
pub(crate) fn compare(o: &Analysis, r: &Analysis, script: &Script, map: &LineMap) -> SearchResult {
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
        let Some(rs) = r.session.searches.get(k) else {
            if r.session.searches.len() < total && k == r.session.searches.len() {
                tally.missing = total - k;
                diffs.push(never_started(o, r, oi, os, total, clock[oi]));
            }
            continue;
        };
        tally.compared += 1;
        let pair = Pair {
            o,
            r,
            index: oi,
            os,
            rs,
            clock_limited: clock[oi],
            bounded: !clock[oi] && !replay_clock.get(k).copied().unwrap_or(true),
        };
        match pair.difference(&mut tally) {
            Some((diff, side)) => {
                sides.push(side);
                diffs.push(diff);
            }
            None => tally.identical += 1,
        }
    }
    let _ = map;
    tally.original = total;
    tally.replay = r.session.searches.len();
    (diffs, tally, sides)
}

/// The original's search `oi` (0-based) the replay never started.
fn never_started(
    o: &Analysis,
    r: &Analysis,
    oi: usize,
    os: &Search,
    total: usize,
    clock_limited: bool,
) -> SearchDiff {
    SearchDiff {
        index: oi + 1,
        original: fingerprint(o, os),
        replay: None,
        clock_limited,
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
    }
}

/// A search's engine lines, masked, each with its line in the input.
type Stream = Vec<(Option<u64>, String)>;

fn masked_stream(a: &Analysis, s: &Search) -> Stream {
    a.search_lines(s)
        .filter_map(|l| masked(l).map(|m| (a.line_of(l.index), m)))
        .collect()
}

/// A search of the original and the replay's search in its place.
struct Pair<'a> {
    o: &'a Analysis,
    r: &'a Analysis,
    /// The original's search's index (0-based).
    index: usize,
    os: &'a Search,
    rs: &'a Search,
    clock_limited: bool,
    /// Neither search was limited by the clock: their lines and nodes must be the same.
    bounded: bool,
}

impl Pair<'_> {
    /// How the two differ, counted in `tally`, and their lines side by side; `None` when
    /// they are identical.
    fn difference(&self, tally: &mut SearchTally) -> Option<(SearchDiff, SideBySide)> {
        let (o, r, os, rs) = (self.o, self.r, self.os, self.rs);
        let (of, rf) = (fingerprint(o, os), fingerprint(r, rs));
        let fields = differing(&of, &rf, self.bounded);
        let ostream = masked_stream(o, os);
        let rstream = masked_stream(r, rs);
        let first_row = (0..ostream.len().max(rstream.len()))
            .find(|&i| ostream.get(i).map(|x| &x.1) != rstream.get(i).map(|x| &x.1));
        if fields.is_empty() && (first_row.is_none() || !self.bounded) {
            return None;
        }
        let line = os
            .ended
            .and_then(|e| o.file_line_of_seq(e.seq))
            .or(o.file_line_of_seq(os.started.seq));
        let rline = rs.ended.and_then(|e| r.file_line_of_seq(e.seq));
        // Where it starts to differ: the first info line that does, else the answer.
        let (line, replay_line) = match first_row {
            Some(i) if self.bounded || !fields.is_empty() => (
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
        let expected = self.clock_limited || threads > 1;
        if expected {
            tally.expected += 1;
            if self.clock_limited {
                tally.expected_clock += 1;
            } else {
                tally.expected_threads += 1;
                tally.most_threads = tally.most_threads.max(threads);
            }
        } else {
            tally.differing += 1;
        }
        let message = self.message(&fields, threads, &of, &rf);
        let side = side_by_side(self.index + 1, &ostream, &rstream);
        let diff = SearchDiff {
            index: self.index + 1,
            original: of,
            replay: Some(rf),
            clock_limited: self.clock_limited,
            expected,
            fields,
            line,
            replay_line,
            message,
        };
        Some((diff, side))
    }

    /// What differs, and why it is expected when it is.
    fn message(&self, fields: &[&str], threads: u64, of: &Fingerprint, rf: &Fingerprint) -> String {
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
        format!(
            "search {} (`{}`{}) differs in {}: original {}; replay {}",
            self.index + 1,
            self.os.request,
            match (self.clock_limited, threads > 1) {
                (true, _) => ", clock-limited in the original: expected".to_owned(),
                (false, true) =>
                    format!(", searched with {threads} threads in the original: expected"),
                _ => String::new(),
            },
            fields.join(", "),
            show(of),
            show(rf)
        )
    }
}

/// Two searches' masked lines, row by row.
fn side_by_side(search: usize, ostream: &Stream, rstream: &Stream) -> SideBySide {
    SideBySide {
        search,
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
    }
}

/// In CECP and NBoard the engine's own moves make the game: once a search chose another
/// move, the GUI's next moves (taken from the original) belong to another game, and what
/// follows differs because of that search. Differences after it are as expected as it was.
/// Returns the line where the game took another course.
pub(crate) fn another_course(
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

#[cfg(test)]
mod tests {
    use super::*;

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
            assert!(clock_limited(uci, go_limits(clock), false), "{clock}");
        }
        for bounded in ["go nodes 100", "go depth 9", "go mate 3"] {
            assert!(!clock_limited(uci, go_limits(bounded), false), "{bounded}");
        }
        assert!(clock_limited(Some(Protocol::Cecp), None, false));
        assert!(!clock_limited(Some(Protocol::Cecp), None, true));
        assert!(!clock_limited(Some(Protocol::Nboard), None, false));
    }
}
