//! What the search pane shows at a line: the search of the line's session as it stood there,
//! every MultiPV line at its latest report, and whether the search still ran.

use super::board::{game_at, san_line, session_of};
use super::doc::Doc;
use crate::protocol::uci::{Bound, ScoreValue};
use crate::protocol::{self, Dir, Msg, nboard};
use crate::session::{Eval, GameKind};

/// One principal variation at its latest report.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PvLine {
    /// 1 for the best line (and for an engine that sends no `multipv`).
    pub multipv: u32,
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    /// `+0.25`, `M3`, `-M2`; Othello discs.
    pub score: Option<String>,
    /// `lowerbound` / `upperbound`: the score is only a bound.
    pub bound: Option<Bound>,
    /// In SAN with move numbers when the board is known, else as sent.
    pub pv: String,
    /// Row of the report.
    pub row: usize,
}

/// The search in progress (or ended) at a line.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SearchView {
    pub request: String,
    /// Only while the search runs: false on its `bestmove` line and after.
    pub running: bool,
    /// The line that ended it (`bestmove e2e4`), once the cursor is at or past it.
    pub ended_by: Option<String>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time_ms: Option<u64>,
    /// Best first.
    pub lines: Vec<PvLine>,
}

/// How far back from the cursor reports are looked for.
const REPORT_LOOKBACK: usize = 50_000;
/// More lines than any pane can show: `MultiPV 500` stops being read there.
const MAX_LINES: usize = 64;

/// The search running or last ended at row `r` of its session: every MultiPV line, best
/// first, with its PV in SAN where the game is chess.
pub fn search_at(doc: &Doc, r: usize) -> Option<SearchView> {
    let row = doc.rows.get(r)?;
    let s = session_of(doc, r)?;
    let protocol = s.protocol?;
    let (start, end) = search_span(doc, r, row.session())?;
    let mut v = SearchView {
        request: doc.text(start).trim().to_owned(),
        running: end > r,
        ended_by: (end <= r).then(|| doc.text(end).trim().to_owned()),
        ..SearchView::default()
    };
    collect_reports(doc, protocol, r, (start, end), row.session(), &mut v);
    if let Some(p) = doc.pos(start)
        && let Some(g) = game_at(s, p.game)
        && g.kind == GameKind::Chess
    {
        for line in &mut v.lines {
            if let Some(san) = san_line(g, p.ply, &line.pv) {
                line.pv = san;
            }
        }
    }
    Some(v)
}

/// The rows that start and end the last search of `session` that started at or before row
/// `r`, when it says something about `r`: not a search of an earlier game, nor of the file
/// before it was truncated or replaced.
fn search_span(doc: &Doc, r: usize, session: u16) -> Option<(usize, usize)> {
    let i = doc.searches.partition_point(|x| x.start as usize <= r);
    let search = doc.searches[..i]
        .iter()
        .rev()
        .find(|x| x.session == session)?;
    let start = search.start as usize;
    if let (Some(now), Some(then)) = (doc.pos(r), doc.pos(start))
        && now.game != then.game
    {
        return None;
    }
    if doc
        .restarts
        .iter()
        .any(|&x| (x as usize) > start && (x as usize) <= r)
    {
        return None;
    }
    Some((start, search.end as usize))
}

/// The search's reports up to row `r`, the latest of each MultiPV line, into `v`, in the
/// order of their numbers.
fn collect_reports(
    doc: &Doc,
    protocol: protocol::Protocol,
    r: usize,
    (start, end): (usize, usize),
    session: u16,
    v: &mut SearchView,
) {
    // NBoard: `go` reports its best line deeper and deeper (the latest `search` line is the
    // best); `hint N` reports a line for each of N moves and a `book` line is one of the book's
    // moves, so there each move has a line of its own.
    let hint = doc.kind(start) == "hint";
    let mut moves: Vec<String> = Vec::new();
    let lo = r.saturating_sub(REPORT_LOOKBACK).max(start);
    for k in (lo..=r.min(end)).rev() {
        if doc.rows[k].session() != session
            || !matches!(
                doc.kind(k),
                "info" | "thinking" | "search" | "book" | "nodestats"
            )
        {
            continue;
        }
        let (msg, _) = protocol::parse(protocol, Dir::FromEngine, &doc.text(k));
        let Some(line) = report_line(msg, hint, &mut moves, k, v) else {
            continue;
        };
        // Reports come as rounds (multipv 1, 2, 3 at one depth): going back, the first line
        // seen again once the best is known closes the set.
        if v.lines.iter().any(|x| x.multipv == line.multipv) {
            if v.lines.iter().any(|x| x.multipv == 1) {
                break;
            }
            continue;
        }
        v.lines.push(line);
        if v.lines.len() >= MAX_LINES {
            break;
        }
    }
    if !moves.is_empty() {
        // Best first, as a MultiPV search reports them.
        let eval = |l: &PvLine| {
            l.score
                .as_deref()
                .and_then(|s| s.split(',').next()?.parse::<f64>().ok())
                .unwrap_or(f64::NEG_INFINITY)
        };
        v.lines.sort_by(|a, b| eval(b).total_cmp(&eval(a)));
        for (n, l) in (1..).zip(&mut v.lines) {
            l.multipv = n;
        }
    }
    v.lines.sort_by_key(|x| x.multipv);
}

/// One report of the engine's, row `k`, as a line of the search (`None` for one that gives
/// no line); the first report met (the latest) also gives the search's nodes, speed and
/// time.
fn report_line(
    msg: Msg,
    hint: bool,
    moves: &mut Vec<String>,
    k: usize,
    v: &mut SearchView,
) -> Option<PvLine> {
    Some(match msg {
        Msg::Nboard(nboard::Msg::NodeStats { nodes, seconds }) => {
            if v.nodes.is_none() {
                v.nodes = Some(nodes);
                let ms = (seconds * 1000.0) as u64;
                v.time_ms = Some(ms);
                v.nps = (ms > 0).then(|| nodes.saturating_mul(1000) / ms);
            }
            return None;
        }
        Msg::Nboard(nboard::Msg::Search(l)) => nboard_line(&l, hint, moves, k),
        Msg::Nboard(nboard::Msg::Book(l)) => nboard_line(&l, true, moves, k),
        Msg::Uci(crate::protocol::uci::Msg::Info(info)) => {
            if info.pv.is_none() && info.score.is_none() {
                return None;
            }
            if v.lines.is_empty() {
                (v.nodes, v.nps, v.time_ms) = (info.nodes, info.nps, info.time);
            }
            PvLine {
                multipv: info.multipv.unwrap_or(1).max(1),
                depth: info.depth,
                seldepth: info.seldepth,
                score: info.score.and_then(|sc| sc.value).map(|sv| match sv {
                    ScoreValue::Cp(cp) => Eval::Cp(i64::from(cp)).to_string(),
                    ScoreValue::Mate(m) => Eval::Mate(m).to_string(),
                }),
                bound: info.score.map(|sc| sc.bound).filter(|b| *b != Bound::Exact),
                pv: info.pv.map(|p| p.as_str().to_owned()).unwrap_or_default(),
                row: k,
            }
        }
        Msg::Cecp(crate::protocol::cecp::Msg::Thinking(t)) => {
            if v.lines.is_empty() {
                v.nodes = Some(t.nodes);
                v.time_ms = Some(t.time_centis() * 10);
                v.nps = (t.time_centis() > 0).then(|| t.nodes * 100 / t.time_centis());
            }
            PvLine {
                multipv: 1,
                depth: Some(t.ply),
                score: Some(Eval::Cp(t.score).to_string()),
                pv: t.pv.clone(),
                row: k,
                ..PvLine::default()
            }
        }
        _ => return None,
    })
}

/// An NBoard `search`/`book` line; `per_move`: it gets the line of its move (`moves` numbers
/// them as they are met), else it is the best line.
fn nboard_line(
    l: &nboard::SearchLine,
    per_move: bool,
    moves: &mut Vec<String>,
    k: usize,
) -> PvLine {
    let multipv = if per_move {
        let mv = l.first_move().to_ascii_uppercase();
        match moves.iter().position(|x| *x == mv) {
            Some(i) => i + 1,
            None => {
                moves.push(mv);
                moves.len()
            }
        }
    } else {
        1
    };
    let digits: String = l.depth.chars().take_while(char::is_ascii_digit).collect();
    PvLine {
        multipv: u32::try_from(multipv).unwrap_or(u32::MAX),
        depth: digits.parse().ok(),
        score: Some(match l.eval.parse::<f64>() {
            Ok(d) => Eval::Discs(d).to_string(),
            Err(_) => l.eval.clone(),
        }),
        pv: othello_moves(&l.pv),
        row: k,
        ..PvLine::default()
    }
}

/// An NBoard PV (`F5d6C3`, `F5-D6-C3`, `g4E7`) as moves: `F5 D6 C3`.
fn othello_moves(pv: &str) -> String {
    let squares: Vec<char> = pv.chars().filter(|c| *c != '-').collect();
    squares
        .chunks(2)
        .map(|m| m.iter().collect::<String>().to_ascii_uppercase())
        .collect::<Vec<_>>()
        .join(" ")
}
