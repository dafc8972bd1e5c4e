//! GGF: Othello games of NBoard sessions, in the format NBoard itself sends in `set game`.

use super::{Context, pgn_date, players};
use crate::game::{GgfGame, GgfMove, OthelloMove};
use crate::session::{Game, GameKind, Session};

/// Renders one Othello game; `None` when its board is unknown.
pub fn ggf_game(session: &Session, game: &Game, ctx: &Context) -> Option<String> {
    if game.kind != GameKind::Othello || game.board_unknown.is_some() {
        return None;
    }
    let start = game.othello_start()?;
    let mut board = start;
    let mut moves = Vec::with_capacity(game.plies.len());
    for p in &game.plies {
        let mv = OthelloMove::parse(p.canonical()?)?;
        let side = board.turn();
        board.play_move(mv).ok()?;
        moves.push(GgfMove {
            side,
            mv,
            eval: p.eval.and_then(|e| match e {
                crate::session::Eval::Discs(d) => Some(d),
                _ => None,
            }),
            time: None,
        });
    }
    let (black, white) = players(session, game);
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut set = |k: &str, v: String| match tags.iter_mut().find(|(n, _)| n == k) {
        Some(t) => t.1 = v,
        None => tags.push((k.to_owned(), v)),
    };
    set("GM", "Othello".into());
    set(
        "PC",
        if ctx.event.is_empty() {
            "kibitzer".into()
        } else {
            ctx.event.clone()
        },
    );
    set("DT", pgn_date(&ctx.started).replace('.', "-"));
    set("PB", black);
    set("PW", white);
    for (k, v) in &game.tags {
        if k != "RE" {
            set(k, v.clone());
        }
    }
    set("TY", "8".into());
    set("BO", start.to_ggf_board());
    if let Some(o) = &game.outcome {
        set("RE", o.result.clone());
    } else if let Some((_, v)) = game.tags.iter().find(|(k, _)| k == "RE") {
        set("RE", v.clone());
    }
    let ggf = GgfGame {
        tags,
        start: Some(start),
        board_unknown: None,
        moves,
        diagnostics: Vec::new(),
    };
    Some(ggf.print())
}

/// Every Othello game of the session, one per line. Returns the text and the number of
/// games skipped because their board was unknown.
pub fn ggf_session(session: &Session, ctx: &Context) -> (String, usize) {
    let mut out = String::new();
    let mut skipped = 0;
    for g in session.games.iter().filter(|g| g.kind == GameKind::Othello) {
        match ggf_game(session, g, ctx) {
            Some(t) => {
                out.push_str(&t);
                out.push('\n');
            }
            None => skipped += 1,
        }
    }
    (out, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recording::{Event, Source};
    use crate::session::decode;

    #[test]
    fn nboard_game_round_trips_through_ggf() {
        let lines = [
            (Source::Gui, "nboard 2"),
            (Source::Engine, "set myname Edax"),
            (
                Source::Gui,
                "set game (;GM[Othello]PB[me]PW[x]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)",
            ),
            (Source::Gui, "go"),
            (Source::Engine, "=== D6/-1.5"),
            // NBoard plays the engine's proposal by sending it back as a move.
            (Source::Gui, "move D6"),
        ];
        let ev: Vec<Event> = lines
            .iter()
            .enumerate()
            .map(|(i, (s, t))| Event::line(i as u64, 0, *s, *t))
            .collect();
        let s = decode(&ev, None).remove(0);
        let (text, skipped) = ggf_session(&s, &Context::default());
        assert_eq!(skipped, 0);
        assert!(text.contains("B[F5]W[D6/-1.5];)"), "{text}");
        let back = GgfGame::parse(&text);
        assert!(back.diagnostics.is_empty(), "{:?}", back.diagnostics);
        assert_eq!(back.replay().played, 2);
        // The GUI's own tags win over the derived player names.
        assert_eq!(back.tag("PB"), Some("me"));
    }
}
