//! One input into a report of its own: judged by the one pipeline `check` runs, its findings,
//! streamed into per-engine rows, its latencies (the judge's) and hang verdicts added, its games read at the end. The
//! file's report is then merged into the worker's; nothing of the file is kept.

use super::model::{
    Ending, EngineReport, HangRow, InputProblem, Place, Report, RuleRow, VerdictRow,
};
use super::runner_games::{RunnerGames, Seen, unix_ns};
use crate::game::Side;
use crate::input::judged::JudgeInput;
use crate::rules::catalogue::{RuleId, Side as Party};
use crate::rules::{Checker, Finding, HangClass, HangVerdict};
use crate::session::{Game, OutcomeBy, Session};
use std::path::Path;

/// What kind of file it was found as: named by the user (a file that cannot be read is an
/// error) or found in a directory (a file that is no recording or log is passed over).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    Named,
    Walked,
}

/// Judges `path` into a report of its own (`shown` is its name in the report); its games take
/// their results from the runner's games they are matched to.
pub fn collect(
    path: &Path,
    shown: &str,
    found: Found,
    judge: &JudgeInput,
    runner: &RunnerGames,
    into: &mut Report,
) {
    let sessions = std::cell::RefCell::new(Vec::<SessionAcc>::new());
    let result = judge.run(
        path,
        |checker, line| stream(checker, line, shown, &mut sessions.borrow_mut()),
        |_, _| {},
        || sessions.borrow_mut().clear(),
    );
    let mut sessions = sessions.into_inner();
    let judged = match result {
        Ok(j) => j,
        Err(e) => return not_judged(&e, shown, found, into),
    };
    into.inputs.files += 1;
    if judged.lost > 0 {
        into.inputs.unreadable(InputProblem {
            file: shown.to_owned(),
            error: format!("{} line(s) could not be read", judged.lost),
        });
    }
    let checked = judged.checked;
    let ctx = GameCtx {
        shown,
        runner,
        started: judged.started.as_deref().and_then(unix_ns),
    };
    for (i, table) in checked.session_latencies.iter().enumerate() {
        crate::rules::latency::merge_tables(&mut acc(&mut sessions, i).report.latencies, table);
    }
    for h in &checked.hangs {
        let i = session_of(&checked.decoder, h.session.as_deref());
        hang(acc(&mut sessions, i), h, shown);
    }
    let all = checked.decoder.finish();
    if sessions.len() < all.len() {
        sessions.resize_with(all.len(), SessionAcc::default);
    }
    let engines = sessions_games(&all, &ctx, &mut sessions);
    for e in &engines {
        e.games_never_moved_in(&all, &mut sessions[e.first].report);
    }
    runner_verdicts(&all, shown, &mut sessions);
    for (i, (s, mut acc)) in all.iter().zip(sessions).enumerate() {
        if let Some(Some(u)) = checked.usage.get(i) {
            let starts: Vec<u64> = s.games.iter().map(|g| g.started.t).collect();
            acc.report.process = Some(super::model::ProcessRow::of_session(u, &starts));
        }
        let traffic = s.protocol.is_some() || s.counts[0] + s.counts[1] > 0;
        let r = &acc.report;
        if traffic || !r.rules.is_empty() || !r.hangs.is_empty() || !r.runner_verdicts.is_empty() {
            finish_session(s, acc, judged.engine_command.as_deref(), into);
        }
    }
}

/// A file that could not be judged: unreadable, or (found in a directory) no input at all.
fn not_judged(e: &anyhow::Error, shown: &str, found: Found, into: &mut Report) {
    let problem = InputProblem {
        file: shown.to_owned(),
        error: format!("{e:#}"),
    };
    // Only a file no importer recognises: one that cannot be read, or a recording
    // that does not parse, is still bad input wherever it was found.
    let not_recognised = found == Found::Walked
        && e.chain()
            .any(|c| c.downcast_ref::<crate::import::ImportError>().is_some());
    if not_recognised {
        into.inputs.not_recognised(problem);
    } else {
        into.inputs.unreadable(problem);
    }
}

/// A hang verdict of the session's: its row, and the end it puts to the engine's game. The
/// engine's stall or death ends its game; a GUI that went first (a runner killed mid-game)
/// ends it without a fault of the engine's.
fn hang(acc: &mut SessionAcc, h: &HangVerdict, shown: &str) {
    let fault = match (h.class, h.label) {
        _ if h.at_fault != Party::Engine => None,
        (HangClass::Disconnect, _) => Some(Ending::Disconnect),
        (HangClass::Handshake | HangClass::Ping | HangClass::Search, "STALL" | "TIMEOUT") => {
            Some(Ending::Stall)
        }
        _ => None,
    };
    if let Some(f) = fault {
        acc.faults.push((u64::MAX, f, h.request_line));
    }
    acc.report.add_hang(HangRow {
        process: h.process.as_ref().map(|p| p.state),
        class: h.class,
        label: h.label.to_owned(),
        count: 1,
        places: vec![Place::new(shown, h.request_line)],
    });
}

/// An engine of the input and the runner's result lines it has used (one flag a line).
struct EngineResults {
    engine: String,
    used: Vec<bool>,
    /// Its first session: where the games it never moved in are counted.
    first: usize,
}

/// Every session's games. Both engines of a game read the same result line: each engine
/// uses each line once, over all its instances (a runner playing games side by side starts
/// one per thread).
fn sessions_games(
    all: &[Session],
    ctx: &GameCtx,
    sessions: &mut [SessionAcc],
) -> Vec<EngineResults> {
    let results = all.iter().map(|s| s.runner_results.len()).sum();
    let mut engines: Vec<EngineResults> = Vec::new();
    for (i, acc) in sessions.iter_mut().enumerate().take(all.len()) {
        let Some(label) = all[i]
            .label
            .as_deref()
            .filter(|_| all[i].protocol.is_some())
        else {
            games(all, i, ctx, acc, &mut vec![false; results]);
            continue;
        };
        let engine = base_name(label).to_owned();
        let k = match engines.iter().position(|e| e.engine == engine) {
            Some(k) => k,
            None => {
                engines.push(EngineResults {
                    engine,
                    used: vec![false; results],
                    first: i,
                });
                engines.len() - 1
            }
        };
        games(all, i, ctx, acc, &mut engines[k].used);
    }
    engines
}

impl EngineResults {
    /// The games an engine never moved in (mated or adjudicated before its first turn): its
    /// session has no game for them, the runner's line names it.
    fn games_never_moved_in(&self, all: &[Session], rep: &mut EngineReport) {
        let lines = all.iter().flat_map(|s| &s.runner_results);
        for (r, _) in lines.zip(&self.used).filter(|(_, u)| !**u) {
            let side = if names(&self.engine, &r.white) {
                Side::White
            } else if names(&self.engine, &r.black) {
                Side::Black
            } else {
                continue;
            };
            rep.games += 1;
            let engine_score = score(&r.result, side);
            rep.ending(runner_ending(&r.reason, engine_score)).runner += 1;
            rep.ending(Ending::NoResult).kibitzer += 1;
            match engine_score {
                Some(1) => rep.results.wins += 1,
                Some(0) => rep.results.draws += 1,
                Some(_) => rep.results.losses += 1,
                None => rep.results.unknown += 1,
            }
        }
    }
}

/// The runner's verdicts, each in the session of the engine it blames. The runner names the
/// engine: its session, when the log has it; a verdict naming none (fastchess's `Could not
/// extract bestmove`) is the only engine's, or stays with the runner's lines when there are
/// several.
fn runner_verdicts(all: &[Session], shown: &str, sessions: &mut [SessionAcc]) {
    let engines: Vec<usize> = (0..all.len())
        .filter(|&i| all[i].protocol.is_some())
        .collect();
    for (i, s) in all.iter().enumerate() {
        for v in &s.verdicts {
            let named = v.verdict.engine.as_deref().and_then(|name| {
                all.iter()
                    .position(|x| x.label.as_deref().is_some_and(|l| names(l, name)))
            });
            let t = match (named, engines.as_slice()) {
                (Some(t), _) => t,
                (None, _) if s.protocol.is_some() => i,
                (None, [only]) => *only,
                (None, _) => i,
            };
            sessions[t].report.add_verdict(VerdictRow {
                kind: v.verdict.kind.as_str().to_owned(),
                count: 1,
                kibitzer_disagrees: u64::from(matches!(
                    v.kibitzer,
                    Some(crate::session::verdicts::VerdictCheck::Disagrees(_))
                )),
                places: vec![Place::new(shown, v.line)],
            });
        }
    }
}

/// What is gathered of one session while its file is read.
#[derive(Default)]
struct SessionAcc {
    report: EngineReport,
    /// The engine's faults that end a game: (event number, ending, input line).
    faults: Vec<(u64, Ending, Option<u64>)>,
    /// The lines that moved a board: (event number, input line).
    moves: Vec<(u64, u64)>,
}

fn acc(sessions: &mut Vec<SessionAcc>, i: usize) -> &mut SessionAcc {
    if sessions.len() <= i {
        sessions.resize_with(i + 1, SessionAcc::default);
    }
    &mut sessions[i]
}

fn session_of(decoder: &crate::session::Decoder, label: Option<&str>) -> usize {
    decoder
        .sessions()
        .position(|s| s.label.as_deref() == label)
        .unwrap_or(0)
}

/// After each line: its findings and the moves it played.
fn stream(checker: &mut Checker, line: Option<u64>, shown: &str, sessions: &mut Vec<SessionAcc>) {
    let findings = checker.take_findings();
    for f in findings {
        let i = session_of(checker.decoder(), f.session.as_deref());
        finding(acc(sessions, i), &f, shown);
    }
    let decoded = checker.decoded();
    if decoded.moved
        && let Some(line) = line
    {
        let i = decoded.session;
        let seq = checker
            .decoder()
            .sessions()
            .nth(i)
            .and_then(|s| s.games.last()?.plies.last())
            .map(|p| p.at.seq);
        if let Some(seq) = seq {
            acc(sessions, i).moves.push((seq, line));
        }
    }
}

/// The ending an engine's fault puts to its game.
fn fault_ending(rule: RuleId) -> Option<Ending> {
    match rule {
        RuleId::UciBestmoveIllegal | RuleId::CecpMoveIllegal | RuleId::NboardMoveIllegal => {
            Some(Ending::IllegalMove)
        }
        RuleId::XClockUnderflow => Some(Ending::TimeForfeit),
        RuleId::XEngineExit => Some(Ending::Disconnect),
        _ => None,
    }
}

fn finding(acc: &mut SessionAcc, f: &Finding, shown: &str) {
    if f.side == Party::Engine
        && let Some(ending) = fault_ending(f.rule)
    {
        acc.faults.push((f.seq, ending, f.line));
    }
    // `sessions` counts the session once: the row is new only on the rule's first finding.
    let known = acc
        .report
        .rules
        .iter()
        .any(|r| r.rule == f.rule && r.side == f.side && r.severity == f.severity);
    acc.report.add_rule(RuleRow {
        rule: f.rule,
        severity: f.severity,
        side: f.side,
        count: f.count,
        sessions: u64::from(!known),
        places: vec![Place::new(shown, f.line)],
    });
}

/// What the games of one input are read against.
struct GameCtx<'a> {
    shown: &'a str,
    runner: &'a RunnerGames,
    /// The input's time 0, Unix ns.
    started: Option<i128>,
}

/// Each game of session `i`: how it ended, as the runner said and as kibitzer judges, and
/// its result for the engine.
fn games(all: &[Session], i: usize, ctx: &GameCtx, acc: &mut SessionAcc, used: &mut [bool]) {
    let s = &all[i];
    let shown = ctx.shown;
    acc.faults.sort_by_key(|f| f.0);
    for (g, game) in s.games.iter().enumerate() {
        let pgn = runner_game(s, game, ctx);
        if game.plies.is_empty() && game.outcome.is_none() && pgn.is_none() {
            continue;
        }
        let until = s.games.get(g + 1).map_or(u64::MAX, |n| n.started.seq);
        let faults: Vec<(u64, Ending, Option<u64>)> = acc
            .faults
            .iter()
            .filter(|f| f.0 >= game.started.seq && (f.0 < until || (until == u64::MAX)))
            .copied()
            .collect();
        // The runner's line of the game is taken even when the board decided it: it is this
        // game's, and no other game (or game never moved in) may have it.
        // A draw the board only makes claimable is a guess when the game stopped there (the
        // engine may not have seen the last moves): the runner's result is the game's.
        let claimable = game
            .outcome
            .as_ref()
            .is_some_and(|o| o.by == OutcomeBy::Board && o.reason.contains("claimable"));
        let line = runner_line(all, i, game, game.engine_side, used).filter(|_| {
            pgn.is_some() || game.outcome.is_none() || game.engine_side.is_none() || claimable
        });
        let (said_by_line, side_in_line) = line.unzip();
        let board = game.outcome.as_ref().filter(|o| o.by == OutcomeBy::Board);
        // The runner's moves played on kibitzer's board: a mate the engine never saw (its
        // opponent's last move) is still the board's.
        let pgn_board_end = pgn.as_ref().and_then(|p| p.2);
        let (runner, side) = match pgn {
            // The runner's own record of the game: its result and reason stand.
            Some((o, side, _)) => (Some(o), game.engine_side.or(Some(side))),
            None if claimable => (
                said_by_line.or_else(|| game.outcome.clone()),
                game.engine_side.or(side_in_line),
            ),
            None => (
                game.outcome.clone().or(said_by_line),
                game.engine_side.or(side_in_line),
            ),
        };
        let r = &mut acc.report;
        r.games += 1;
        let engine_score = side.and_then(|side| score(&runner.as_ref()?.result, side));
        // A result without a reason (fastchess's trace log gives none for a mate) says
        // nothing of how the game ended.
        let said = runner
            .as_ref()
            .filter(|o| o.by != OutcomeBy::Board && !o.reason.trim().is_empty())
            .map(|o| runner_ending(&o.reason, engine_score));
        if let Some(e) = said {
            r.ending(e).runner += 1;
        }
        // Of the engine's faults in the game, the one the runner named explains its verdict;
        // otherwise the first is kibitzer's own reading.
        let fault = faults
            .iter()
            .find(|f| Some(f.1) == said)
            .or_else(|| {
                faults
                    .iter()
                    .find(|f| said.is_some_and(|s| explains(f.1, s)))
            })
            .or(faults.first())
            .copied();
        let judged = match (fault, board) {
            (Some((_, e, line)), _) => {
                super::merge::keep_first(&mut r.ending(e).places, vec![Place::new(shown, line)]);
                e
            }
            // A claimable draw the runner's own words overrule.
            (None, Some(_)) if claimable && said.is_some() => Ending::NoResult,
            (None, Some(o)) => board_ending(&o.reason),
            (None, None) => pgn_board_end.map_or(Ending::NoResult, board_ending),
        };
        r.ending(judged).kibitzer += 1;
        if let Some(e) = said {
            if explains(judged, e) {
                r.ending(e).explained += 1;
            } else if e.is_fault() {
                let at = game.plies.last().map_or(game.started.seq, |p| p.at.seq);
                let line = acc
                    .moves
                    .iter()
                    .take_while(|(seq, _)| *seq <= at)
                    .last()
                    .map(|(_, l)| *l);
                super::merge::keep_first(
                    &mut r.ending(e).unexplained,
                    vec![Place::new(shown, line)],
                );
            }
        }
        match (engine_score, fault) {
            (Some(1), _) => r.results.wins += 1,
            (Some(0), _) => r.results.draws += 1,
            (Some(_), _) => r.results.losses += 1,
            (None, Some(_)) if side.is_some() => r.results.losses += 1,
            _ => r.results.unknown += 1,
        }
    }
}

/// The runner's game (from its PGN) this game of the session was, with the engine's side in
/// it.
fn runner_game(
    s: &Session,
    game: &Game,
    ctx: &GameCtx,
) -> Option<(crate::session::GameOutcome, Side, Option<&'static str>)> {
    if ctx.runner.is_empty() || game.board_unknown.is_some() {
        return None;
    }
    let moves: Option<Vec<&str>> = game.plies.iter().map(|p| p.canonical()).collect();
    let wall = |t: u64| ctx.started.map(|s| s + i128::from(t));
    let last = game.plies.last().map_or(game.started.t, |p| p.at.t);
    let window = wall(game.started.t).zip(wall(last));
    let seen = Seen {
        start: game.start.as_deref(),
        moves: moves?,
        engine: s.engine_name.as_deref(),
        label: s.label.as_deref().map(base_name),
        side: game.engine_side,
        window,
    };
    let (g, side) = ctx.runner.find(&seen)?;
    Some((
        crate::session::GameOutcome {
            result: g.result.clone(),
            reason: g.reason.clone(),
            at: game.started,
            by: OutcomeBy::Runner,
        },
        side,
        g.board_end,
    ))
}

/// Whether kibitzer's reading of a game accounts for the runner's: the same ending, or a
/// stall and a time forfeit, which are one fault worded by the runner's watchdog (an engine
/// that stops answering loses on time under cutechess, "stalls" under fastchess's ping).
fn explains(judged: Ending, said: Ending) -> bool {
    judged == said
        || matches!(
            (judged, said),
            (Ending::Stall, Ending::TimeForfeit) | (Ending::TimeForfeit, Ending::Stall)
        )
}

/// How the runner says a game ended, from the engine's side: its words name the game's fault,
/// not whose, so the winner's game was ended by the loser's.
fn runner_ending(reason: &str, engine_score: Option<i8>) -> Ending {
    match classify(reason) {
        e if e.is_fault() && engine_score == Some(1) => Ending::OpponentFault,
        e => e,
    }
}

/// The engine's score from `result`: 1 a win, 0 a draw, -1 a loss; Othello's margins too.
fn score(result: &str, side: Side) -> Option<i8> {
    let white_score: i8 = match result {
        "1-0" => 1,
        "0-1" => -1,
        "1/2-1/2" => 0,
        // NBoard: Black's disc margin.
        m => match m.parse::<i64>().ok()? {
            0 => 0,
            n if n > 0 => -1,
            _ => 1,
        },
    };
    Some(match side {
        Side::White => white_score,
        Side::Black => -white_score,
    })
}

/// A game the engine's own session has no result (or colour) for: the runner's `Finished game`
/// line naming the engine's label, the first this session has not used since the game's last
/// move (a runner playing games side by side finishes one while others go on: the line that
/// follows this game's end is its own), with the engine's colour in it. When the game tells
/// the engine's colour, the line must name it on that side: a runner playing games side by
/// side finishes the other game of the same engine at about the same time, mostly with the
/// colours the other way round.
fn runner_line(
    all: &[Session],
    i: usize,
    game: &Game,
    colour: Option<Side>,
    used: &mut [bool],
) -> Option<(crate::session::GameOutcome, Side)> {
    let label = all[i].label.as_deref()?;
    let since = game.plies.last().map_or(game.started.t, |p| p.at.t);
    let lines = all.iter().flat_map(|s| &s.runner_results);
    for (k, r) in lines.enumerate() {
        let side = if names(label, &r.white) && colour != Some(Side::Black) {
            Side::White
        } else if names(label, &r.black) && colour != Some(Side::White) {
            Side::Black
        } else {
            continue;
        };
        // A later run's results in the same log are not this session's games.
        let this_run = all[i].log_ends.is_none_or(|end| r.at.t <= end.t);
        if !used[k] && r.at.t >= since && this_run {
            used[k] = true;
            let outcome = crate::session::GameOutcome {
                result: r.result.clone(),
                reason: r.reason.clone(),
                at: r.at,
                by: OutcomeBy::Runner,
            };
            return Some((outcome, side));
        }
    }
    None
}

/// The engine of a session label: without cutechess's `(id)` and fastchess's ` [thread K]`,
/// ` [run N]` or ` [thread K, run N]` (a later run appended to the same log).
fn base_name(label: &str) -> &str {
    let l = crate::export::without_id(label);
    let numbered = |part: &str, word: &str| {
        part.strip_prefix(word)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    match l.strip_suffix(']').and_then(|x| x.rsplit_once(" [")) {
        Some((base, inner))
            if inner
                .split(", ")
                .all(|p| numbered(p, "thread ") || numbered(p, "run ")) =>
        {
            base
        }
        _ => l,
    }
}

/// cutechess labels an engine `Name(id)`, fastchess's instances on later game threads are
/// `Name [thread K]`; their result lines say `Name`.
fn names(label: &str, name: &str) -> bool {
    label == name || base_name(label) == name
}

/// The ending a board outcome names (`checkmate`, `stalemate`, a claimable draw...).
fn board_ending(reason: &str) -> Ending {
    match reason {
        "checkmate" => Ending::Checkmate,
        "variantend" | "bareking" => Ending::VariantEnd,
        r if r.ends_with(" wins") => Ending::VariantEnd,
        _ => Ending::Draw,
    }
}

/// The ending a runner's or GUI's words name: `{White loses on time}`, `{Xboard adjudication:
/// ...}`, `{Black disconnects}`, `{White mates}`...
pub fn classify(reason: &str) -> Ending {
    let r = reason.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| r.contains(w));
    if has(&[
        "on time",
        "time forfeit",
        "timeout",
        "out of time",
        "flag",
        "time loss",
    ]) {
        Ending::TimeForfeit
    } else if has(&["illegal"]) {
        Ending::IllegalMove
    } else if has(&[
        "stall",
        "not responding",
        "unresponsive",
        "not responsive",
        "failed to respond",
    ]) {
        // Before "connection": cutechess and fastchess say "White's connection stalls".
        Ending::Stall
    } else if has(&["disconnect", "crash", "terminat", "connection"]) {
        Ending::Disconnect
    } else if has(&["adjudicat"]) {
        Ending::Adjudication
    } else if has(&["resign"]) {
        Ending::Resignation
    } else if has(&[
        "stalemate",
        "draw",
        "repetition",
        "fifty",
        "50",
        "insufficient",
        "agreed",
    ]) {
        Ending::Draw
    } else if has(&["mate"]) {
        Ending::Checkmate
    } else if has(&["check", "hill", "explod", "race", "wins"]) {
        Ending::VariantEnd
    } else {
        Ending::Other
    }
}

/// The session's rows under its engine's name.
fn finish_session(s: &Session, acc: SessionAcc, header_engine: Option<&str>, into: &mut Report) {
    let name = match (&s.engine_name, &s.label, header_engine) {
        (Some(n), _, _) => n.clone(),
        (None, _, _) if s.protocol.is_none() => "(the runner's lines: no engine named)".to_owned(),
        (None, Some(l), _) => format!("unnamed: {l}"),
        (None, None, Some(cmd)) => format!("unnamed: {cmd}"),
        (None, None, None) => "unnamed".to_owned(),
    };
    let mut report = acc.report;
    report.engine = name;
    report.sessions = 1;
    if let Some(p) = s.protocol {
        report.protocols = vec![p.name().to_owned()];
    }
    into.inputs.sessions += 1;
    into.inputs.games += report.games;
    into.add_engine(report);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runner_words_name_their_ending() {
        // cutechess and fastchess word a stall as the connection's: a stall, not a disconnect.
        assert_eq!(classify("White's connection stalls"), Ending::Stall);
        assert_eq!(classify("Black disconnects"), Ending::Disconnect);
        assert_eq!(classify("White loses on time"), Ending::TimeForfeit);
        assert_eq!(
            classify("White makes an illegal move: e4e5"),
            Ending::IllegalMove
        );
        assert_eq!(classify("failed to respond by 2418738"), Ending::Stall);
        assert_eq!(classify("White mates"), Ending::Checkmate);
        assert_eq!(classify("Draw by adjudication"), Ending::Adjudication);
    }

    #[test]
    fn a_stall_and_a_time_forfeit_explain_each_other_and_nothing_else() {
        assert!(explains(Ending::Stall, Ending::TimeForfeit));
        assert!(explains(Ending::TimeForfeit, Ending::Stall));
        assert!(explains(Ending::Disconnect, Ending::Disconnect));
        assert!(!explains(Ending::Disconnect, Ending::Stall));
        assert!(!explains(Ending::NoResult, Ending::IllegalMove));
    }
}
