//! One game, two engines: an engine-vs-engine log (cutechess, xboard, fastchess) holds the
//! same game once per engine session, each seeing its own engine's moves and evaluations and
//! the other's as GUI moves. Exported separately they would be two games with a "GUI"
//! opponent; paired, they are one game with both engines' names and both sides' evals.

use crate::game::Side;
use crate::session::{Game, GameKind, Mover, Session};

/// A game to export and who played it.
#[derive(Debug, Clone)]
pub struct Exported {
    pub game: Game,
    pub white: String,
    pub black: String,
    /// The sessions the game was seen in (one, or the two engines').
    pub sessions: Vec<Option<String>>,
    /// The session of the engine that played White, and Black's, when known.
    pub white_session: Option<usize>,
    pub black_session: Option<usize>,
}

/// Games the engines could not have played together are never paired: a pair must have the
/// same start and variant, one move list must extend the other, the engines must play
/// opposite colours, and the games must overlap in time (within this slack).
const TIME_SLACK_NS: u64 = 10_000_000_000;

/// Every game of every session, engine-vs-engine pairs merged, in order of their start.
pub fn games(sessions: &[Session]) -> Vec<Exported> {
    let mut all: Vec<(usize, usize)> = sessions
        .iter()
        .enumerate()
        .flat_map(|(s, sess)| (0..sess.games.len()).map(move |g| (s, g)))
        .collect();
    all.sort_by_key(|&(s, g)| sessions[s].games[g].started.t);
    let mut taken = vec![false; all.len()];
    let mut out = Vec::new();
    for i in 0..all.len() {
        if taken[i] {
            continue;
        }
        taken[i] = true;
        let (s1, g1) = all[i];
        let (a, sa) = (&sessions[s1].games[g1], &sessions[s1]);
        let partner = (i + 1..all.len()).find(|&j| {
            let (s2, g2) = all[j];
            !taken[j] && s2 != s1 && same_game(a, &sessions[s2].games[g2])
        });
        match partner {
            Some(j) => {
                taken[j] = true;
                let (s2, g2) = all[j];
                out.push(merge(
                    (s1, sa),
                    a,
                    (s2, &sessions[s2]),
                    &sessions[s2].games[g2],
                ));
            }
            None => {
                let (white, black) = super::players(sa, a);
                let (w, b) = engine_colours(a);
                out.push(Exported {
                    game: a.clone(),
                    white,
                    black,
                    sessions: vec![sa.label.clone()],
                    white_session: (w && !b).then_some(s1),
                    black_session: (b && !w).then_some(s1),
                });
            }
        }
    }
    apply_runner_results(sessions, &mut out);
    out
}

/// A game the board did not end gets the result the runner announced for those two engines
/// (`Finished game 3 (sf1 vs sf2): 1-0 {Black loses on time}`), the first one after its start.
fn apply_runner_results(sessions: &[Session], out: &mut [Exported]) {
    let results: Vec<&crate::session::RunnerResult> =
        sessions.iter().flat_map(|s| &s.runner_results).collect();
    let mut used = vec![false; results.len()];
    for e in out.iter_mut().filter(|e| e.game.outcome.is_none()) {
        let named = |i: Option<usize>, name: &str| {
            i.and_then(|i| sessions.get(i)).is_some_and(|s| {
                s.engine_name.as_deref() == Some(name)
                    || s.label
                        .as_deref()
                        .is_some_and(|l| l == name || without_id(l) == name)
            })
        };
        let found = results.iter().enumerate().find(|(k, r)| {
            !used[*k]
                && r.at.t >= e.game.started.t
                && named(e.white_session, &r.white)
                && named(e.black_session, &r.black)
        });
        if let Some((k, r)) = found {
            used[k] = true;
            e.game.outcome = Some(crate::session::GameOutcome {
                result: r.result.clone(),
                reason: r.reason.clone(),
                at: r.at,
                by: crate::session::OutcomeBy::Runner,
            });
        }
    }
}

/// cutechess labels an engine `Name(id)`; its result lines say `Name`.
pub fn without_id(label: &str) -> &str {
    match label
        .strip_suffix(')')
        .and_then(|l| l.rfind('(').map(|i| (l, i)))
    {
        Some((l, i)) if l[i + 1..].bytes().all(|b| b.is_ascii_digit()) => &label[..i],
        _ => label,
    }
}

/// The colours the session's engine moved (or was asked to move) in this game.
pub(crate) fn engine_colours(g: &Game) -> (bool, bool) {
    let first = match g.kind {
        GameKind::Chess => g.chess_start().map(|b| b.turn()),
        GameKind::Othello => g.othello_start().map(|b| b.turn()),
    }
    .unwrap_or(Side::White);
    let (mut white, mut black) = (false, false);
    for (i, p) in g.plies.iter().enumerate() {
        if p.by == Mover::Engine {
            match if i % 2 == 0 { first } else { first.other() } {
                Side::White => white = true,
                Side::Black => black = true,
            }
        }
    }
    if !white && !black {
        match g.engine_side {
            Some(Side::White) => white = true,
            Some(Side::Black) => black = true,
            None => {}
        }
    }
    (white, black)
}

fn span(g: &Game) -> (u64, u64) {
    let end = g.plies.last().map_or(g.started.t, |p| p.at.t);
    (g.started.t, end.max(g.started.t))
}

fn same_game(a: &Game, b: &Game) -> bool {
    if a.kind != b.kind
        || a.start != b.start
        || a.variant != b.variant
        || a.chess960 != b.chess960
        || a.board_unknown.is_some()
        || b.board_unknown.is_some()
        || a.plies.is_empty()
        || b.plies.is_empty()
    {
        return false;
    }
    let key = |p: &crate::session::Ply| {
        p.canonical()
            .map(str::to_owned)
            .unwrap_or_else(|| p.text().to_owned())
    };
    if !a.plies.iter().zip(&b.plies).all(|(x, y)| key(x) == key(y)) {
        return false;
    }
    let (aw, ab) = engine_colours(a);
    let (bw, bb) = engine_colours(b);
    // Opposite colours: each engine on one side only, and not the same side.
    let opposite = (aw != ab) && (bw != bb) && aw != bw;
    let ((a0, a1), (b0, b1)) = (span(a), span(b));
    let overlap = a0 <= b1.saturating_add(TIME_SLACK_NS) && b0 <= a1.saturating_add(TIME_SLACK_NS);
    opposite && overlap
}

fn name(s: &Session) -> String {
    s.engine_name
        .clone()
        .or_else(|| s.label.clone())
        .unwrap_or_else(|| "engine".to_owned())
}

fn merge((ia, sa): (usize, &Session), a: &Game, (ib, sb): (usize, &Session), b: &Game) -> Exported {
    // A game that broke at an illegal move is only known up to there: the broken view wins,
    // so the export stops where it must. Otherwise the longer view has every move.
    let first_gap = |g: &Game| g.gaps.first().map_or(usize::MAX, |x| x.after_ply);
    let a_is_base = match first_gap(a).cmp(&first_gap(b)) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => a.plies.len() >= b.plies.len(),
    };
    let (base, other) = if a_is_base { (a, b) } else { (b, a) };
    let mut game = base.clone();
    for (p, q) in game.plies.iter_mut().zip(&other.plies) {
        if p.by != Mover::Engine && q.by == Mover::Engine {
            *p = q.clone();
        }
    }
    if game.outcome.is_none() {
        game.outcome = other.outcome.clone();
    }
    game.engine_side = None;
    let (a_white, _) = engine_colours(a);
    let (white, black) = if a_white {
        (name(sa), name(sb))
    } else {
        (name(sb), name(sa))
    };
    let (white_session, black_session) = if a_white { (ia, ib) } else { (ib, ia) };
    Exported {
        game,
        white,
        black,
        sessions: vec![sa.label.clone(), sb.label.clone()],
        white_session: Some(white_session),
        black_session: Some(black_session),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cutechess_ids_are_dropped_from_labels_only() {
        assert_eq!(without_id("SF-Debug1(0)"), "SF-Debug1");
        assert_eq!(without_id("Carballo (1.7)"), "Carballo (1.7)");
        assert_eq!(without_id("sf1"), "sf1");
    }
}
