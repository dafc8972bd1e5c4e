//! PGN: one game per decoded chess game, engine evaluations as `{+0.25/12}` comments.

use std::fmt::Write as _;

use super::{Context, pgn_date, players};
use crate::game::Side;
use crate::session::{Game, GameKind, Mover, Session};

/// PGN `Variant` names for the CECP spellings the session keeps.
fn variant_tag(game: &Game) -> Option<&'static str> {
    Some(match game.variant.as_str() {
        "normal" | "standard" | "chess" if game.chess960 => "Chess960",
        "normal" | "standard" | "chess" => return None,
        "fischerandom" => "Chess960",
        "nocastle" => "No Castling",
        "crazyhouse" => "Crazyhouse",
        "bughouse" => "Bughouse",
        "atomic" => "Atomic",
        "3check" => "Three-check",
        "suicide" => "Antichess",
        "giveaway" => "Giveaway",
        "losers" => "Losers",
        "kingofthehill" => "King of the Hill",
        "racingkings" => "Racing Kings",
        "horde" => "Horde",
        _ => "Unknown",
    })
}

fn tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{escaped}\"]");
}

/// Renders one chess game; `None` when the board was unknown (no SAN to print).
pub fn pgn_game(session: &Session, game: &Game, round: usize, ctx: &Context) -> Option<String> {
    let (white, black) = players(session, game);
    pgn_with_players(game, &white, &black, round, ctx)
}

/// A game [`super::paired_games`] put together, with the players it found.
pub fn pgn_exported(e: &super::Exported, round: usize, ctx: &Context) -> Option<String> {
    pgn_with_players(&e.game, &e.white, &e.black, round, ctx)
}

fn pgn_with_players(
    game: &Game,
    white: &str,
    black: &str,
    round: usize,
    ctx: &Context,
) -> Option<String> {
    if game.kind != GameKind::Chess || game.board_unknown.is_some() {
        return None;
    }
    let start = game.chess_start()?;
    // A game with a move that could not be followed is not known past it: it is exported up
    // to there, with a comment saying why, and no result.
    let gap = game.gaps.first();
    let result = match gap {
        Some(_) => "*".to_owned(),
        None => game
            .outcome
            .as_ref()
            .map_or("*", |o| o.result.as_str())
            .to_owned(),
    };
    let mut out = String::new();
    tag(
        &mut out,
        "Event",
        if ctx.event.is_empty() {
            "?"
        } else {
            &ctx.event
        },
    );
    tag(
        &mut out,
        "Site",
        if ctx.site.is_empty() { "?" } else { &ctx.site },
    );
    tag(&mut out, "Date", &pgn_date(&ctx.started));
    tag(&mut out, "Round", &round.to_string());
    tag(&mut out, "White", white);
    tag(&mut out, "Black", black);
    tag(&mut out, "Result", &result);
    if let Some(v) = variant_tag(game) {
        tag(&mut out, "Variant", v);
    }
    if game.start.is_some() || game.chess960 {
        tag(&mut out, "SetUp", "1");
        tag(&mut out, "FEN", &start.fen());
    }
    match (gap, &game.outcome) {
        (Some(_), _) => tag(&mut out, "Termination", "unterminated"),
        (None, Some(o)) => tag(&mut out, "Termination", &o.reason),
        (None, None) => {}
    }
    out.push('\n');
    let mut tokens: Vec<String> = Vec::with_capacity(game.plies.len() * 2 + 1);
    let mut side = start.turn();
    let mut number = start.fullmove();
    let shown = gap.map_or(game.plies.len(), |g| g.after_ply.min(game.plies.len()));
    for (i, p) in game.plies[..shown].iter().enumerate() {
        let san = p.san()?;
        match side {
            Side::White => tokens.push(format!("{number}.")),
            Side::Black if i == 0 => tokens.push(format!("{number}...")),
            Side::Black => {}
        }
        tokens.push(san.to_owned());
        if p.by == Mover::Engine
            && let Some(e) = p.eval
        {
            let c = match p.depth {
                Some(d) => format!("{{{e}/{d}}}"),
                None => format!("{{{e}}}"),
            };
            tokens.push(c);
        }
        if side == Side::Black {
            number += 1;
        }
        side = side.other();
    }
    if let Some(g) = gap {
        tokens.push(gap_comment(game, g));
    }
    tokens.push(result);
    wrap(&mut out, &tokens, 79);
    out.push('\n');
    Some(out)
}

/// `{kibitzer: ...}` at the place where the game could not be followed.
pub fn gap_comment(game: &Game, g: &crate::session::Gap) -> String {
    let who = match g.by {
        Mover::Gui => "GUI",
        Mover::Engine => "engine",
    };
    let place = g
        .line
        .map_or_else(|| format!("event {}", g.at.seq), |l| format!("line {l}"));
    let rest = game.plies.len().saturating_sub(g.after_ply);
    let tail = match rest {
        0 => String::new(),
        n => format!("; {n} later move(s) on the wire are left out"),
    };
    format!(
        "{{kibitzer: the {who} move {} ({place}) is illegal here ({}): the game cannot be followed past this point{tail}}}",
        g.text,
        g.reason.replace(['{', '}'], "")
    )
}

/// Every chess game of the session, separated by blank lines. Returns the text and how many
/// games were skipped because their board was unknown.
pub fn pgn_session(session: &Session, ctx: &Context) -> (String, usize) {
    let mut out = String::new();
    let mut skipped = 0;
    let mut round = 0;
    for g in session.games.iter().filter(|g| g.kind == GameKind::Chess) {
        if g.plies.is_empty() && g.outcome.is_none() {
            continue;
        }
        round += 1;
        match pgn_game(session, g, round, ctx) {
            Some(text) => {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&text);
            }
            None => skipped += 1,
        }
    }
    (out, skipped)
}

fn wrap(out: &mut String, tokens: &[String], width: usize) {
    let mut col = 0;
    for t in tokens {
        if col > 0 && col + 1 + t.len() > width {
            out.push('\n');
            col = 0;
        } else if col > 0 {
            out.push(' ');
            col += 1;
        }
        out.push_str(t);
        col += t.len();
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recording::{Event, Source};
    use crate::session::decode;

    fn session(lines: &[(Source, &str)]) -> Session {
        let ev: Vec<Event> = lines
            .iter()
            .enumerate()
            .map(|(i, (s, t))| Event::line(i as u64, i as u64, *s, *t))
            .collect();
        decode(&ev, None).remove(0)
    }

    #[test]
    fn uci_game_with_evals_and_mate_result() {
        use Source::{Engine as E, Gui as G};
        let s = session(&[
            (G, "uci"),
            (E, "id name Fish"),
            (E, "uciok"),
            (G, "position startpos moves f2f3"),
            (G, "go"),
            (E, "info depth 7 score cp -25 pv e7e5"),
            (E, "bestmove e7e5"),
            (G, "position startpos moves f2f3 e7e5 g2g4"),
            (G, "go"),
            (E, "info depth 3 score mate 1 pv d8h4"),
            (E, "bestmove d8h4"),
        ]);
        let ctx = Context {
            event: "test".into(),
            site: "here".into(),
            started: "2024-05-01T10:00:00Z".into(),
        };
        let (pgn, skipped) = pgn_session(&s, &ctx);
        assert_eq!(skipped, 0);
        assert!(pgn.contains("[Date \"2024.05.01\"]"));
        assert!(pgn.contains("[White \"GUI\"]\n[Black \"Fish\"]"), "{pgn}");
        assert!(pgn.contains("[Result \"0-1\"]"));
        assert!(!pgn.contains("FEN"));
        assert!(
            pgn.contains("1. f3 e5 {-0.25/7} 2. g4 Qh4# {+M1/3} 0-1"),
            "{pgn}"
        );
    }

    #[test]
    fn fen_start_with_black_to_move_and_unknown_board_skipped() {
        use Source::{Engine as E, Gui as G};
        let s = session(&[
            (G, "position fen 4k3/8/8/8/8/8/8/R3K3 b Q - 0 12 moves e8d7"),
            (G, "go"),
            (E, "bestmove a1a7"),
        ]);
        let (pgn, _) = pgn_session(&s, &Context::default());
        assert!(
            pgn.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 b Q - 0 12\"]"),
            "{pgn}"
        );
        assert!(pgn.contains("12... Kd7 13. Ra7+ *"), "{pgn}");
        assert!(pgn.contains("[White \"engine\"]\n[Black \"GUI\"]"), "{pgn}");
        let x = session(&[
            (G, "xboard"),
            (G, "new"),
            (G, "variant xiangqi"),
            (G, "usermove h2e2"),
        ]);
        assert_eq!(pgn_session(&x, &Context::default()), (String::new(), 1));
    }
}
