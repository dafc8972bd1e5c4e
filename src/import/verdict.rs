//! The runners' own verdicts on engines, read from their messages.
//!
//! fastchess, cutechess, xboard and python-chess each say in their own words that an engine
//! played an illegal move, lost on time, stalled or went away. These are what a user reads
//! first in a bug report, so they are typed ([`RunnerVerdict`]) and shown beside kibitzer's
//! own findings. The wording comes from the tools' sources (fastchess `match.cpp` and
//! `uci_engine.cpp`, cutechess `chessgame.cpp` result texts, xboard `backend.c`,
//! python-chess `engine.py`); matching is case-insensitive and looks at words, not layout.

use crate::recording::{RunnerVerdict, VerdictKind};

/// The verdict a runner's message states, if any.
pub fn classify(msg: &str) -> Option<RunnerVerdict> {
    let lower = msg.to_ascii_lowercase();
    let has = |w: &str| lower.contains(w);
    let kind = if has("illegal pv move") || has("illegal pv") {
        VerdictKind::IllegalPv
    } else if has("illegal move") || has("makes an illegal") || has("invalid move") {
        VerdictKind::IllegalMove
    } else if has("false draw claim") || has("false win claim") || has("false claim") {
        VerdictKind::FalseClaim
    } else if has("loses on time") || has("time forfeit") || has("forfeits on time") {
        VerdictKind::TimeLoss
    } else if has("stalls")
        || has("not responsive")
        || has("didn't respond")
        || has("did not respond")
        || has("failed to respond")
        || has("timed out")
    {
        VerdictKind::Stall
    } else if has("disconnects")
        || has("crashed")
        || has("engine terminated")
        || has("terminated unexpectedly")
        || has("engine process died")
    {
        VerdictKind::Disconnect
    } else if has("invalid ponder")
        || has("no bestmove")
        || has("could not extract")
        || has("illegal uci")
        || has("no info line")
    {
        VerdictKind::BadOutput
    } else {
        return None;
    };
    let mv = match kind {
        VerdictKind::IllegalMove | VerdictKind::IllegalPv => move_of(msg),
        _ => None,
    };
    Some(RunnerVerdict {
        kind,
        engine: engine_of(msg),
        mv,
        position: None,
        command: None,
    })
}

/// The move named by `Illegal move X`, `illegal pv move X`, `illegal move: X`, `Illegal move
/// "X" from ...`, `illegal move (X)`.
fn move_of(msg: &str) -> Option<String> {
    let lower = msg.to_ascii_lowercase();
    let at = lower.find("move")? + "move".len();
    let rest = msg.get(at..)?;
    let word = rest
        .trim_start_matches([' ', ':', '"', '\'', '('])
        .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ')' | ',' | '}'))
        .next()?;
    let plausible = !word.is_empty()
        && word.len() <= 10
        && word.chars().all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, '-' | '=' | '+' | '#' | '@' | '<' | '>')
        })
        && !matches!(
            word.to_ascii_lowercase().as_str(),
            "played" | "from" | "by" | "-"
        );
    plausible.then(|| word.to_owned())
}

/// The engine a message blames: `played by E`, `from E`, `Engine E ...`, or the side in a
/// `Finished game N (A vs B): ... {White ...}` line.
fn engine_of(msg: &str) -> Option<String> {
    if let Some(side) = finished_game_side(msg) {
        return Some(side);
    }
    // c-chess-cli: `deadline: ENGINE failed to respond by TIME. Caught by main thread ...`.
    if let Some(rest) = msg.trim_start().strip_prefix("deadline: ")
        && let Some((name, _)) = rest.split_once(" failed to respond")
        && !name.is_empty()
    {
        return Some(name.to_owned());
    }
    for key in [" played by ", " from ", "Engine ", " by "] {
        if let Some(i) = msg.find(key) {
            let rest = &msg[i + key.len()..];
            let name: String = rest
                .split(|c: char| c.is_whitespace() || matches!(c, ':' | ',' | ';' | '}'))
                .next()
                .unwrap_or("")
                .trim_end_matches('.')
                .to_owned();
            if !name.is_empty()
                && !matches!(
                    name.as_str(),
                    "engine"
                        | "the"
                        | "a"
                        | "-"
                        | "uci"
                        | "move"
                        | "repetition"
                        | "adjudication"
                        | "agreement"
                        | "stalemate"
                        | "timeout"
                )
            {
                return Some(name);
            }
        }
    }
    None
}

/// `Finished game 3 (A vs B): 0-1 {White's connection stalls}` → `A`.
fn finished_game_side(msg: &str) -> Option<String> {
    let open = msg.find(" (")?;
    let close = msg[open..].find("):")? + open;
    let (white, black) = msg.get(open + 2..close)?.split_once(" vs ")?;
    let reason = &msg[msg.find('{')? + 1..];
    if reason.starts_with("White") {
        Some(white.to_owned())
    } else if reason.starts_with("Black") {
        Some(black.to_owned())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(msg: &str) -> (VerdictKind, Option<String>, Option<String>) {
        let v = classify(msg).unwrap_or_else(|| panic!("no verdict in {msg}"));
        (v.kind, v.engine, v.mv)
    }

    #[test]
    fn runners_words_become_typed_verdicts() {
        use VerdictKind::*;
        let s = |x: &str| Some(x.to_owned());
        assert_eq!(
            v("Warning; Illegal move aaaa played by sf1"),
            (IllegalMove, s("sf1"), s("aaaa"))
        );
        assert_eq!(
            v(
                "deadline: ../fridolin/200/src/Fridolin failed to respond by 2418738. Caught by main thread 1ms after."
            ),
            (Stall, s("../fridolin/200/src/Fridolin"), None)
        );
        assert_eq!(
            v("Warning; Illegal pv move e2e4 pv; info depth 1 pv e2e4"),
            (IllegalPv, None, s("e2e4"))
        );
        assert_eq!(
            v("Finished game 1 (XboardEngine vs Other): 0-1 {White's connection stalls}"),
            (Stall, s("XboardEngine"), None)
        );
        assert_eq!(
            v("Finished game 2 (A vs B): 1-0 {Black makes an illegal move: e7e5}").0,
            IllegalMove
        );
        assert_eq!(
            v("Finished game 2 (A vs B): 1-0 {Black loses on time}"),
            (TimeLoss, s("B"), None)
        );
        assert_eq!(
            v("Finished game 2 (A vs B): 0-1 {White disconnects}"),
            (Disconnect, s("A"), None)
        );
        assert_eq!(
            v("Warning; Engine sf2 is not responsive"),
            (Stall, s("sf2"), None)
        );
        assert_eq!(
            v("Warning; Engine sf1 loses on time"),
            (TimeLoss, s("sf1"), None)
        );
        assert_eq!(
            v("False draw claim: 'draw' by first"),
            (FalseClaim, s("first"), None)
        );
        assert_eq!(
            v("Illegal move \"e2e5\" from first machine"),
            (IllegalMove, s("first"), s("e2e5"))
        );
        assert_eq!(v("engine sent invalid ponder move").0, BadOutput);
        assert_eq!(
            v("Warning; No bestmove found in the last line from cdb2uci"),
            (BadOutput, s("cdb2uci"), None)
        );
    }

    #[test]
    fn ordinary_messages_are_no_verdicts() {
        for msg in [
            "Started game 1 of 2 (sf1 vs sf2)",
            "Finished game 1 (sf1 vs sf2): 1-0 {White mates}",
            "Score of sf1 vs sf2: 1 - 0 - 0",
            "Starting new HTTPS connection (1): lichess.org:443",
            "GameEnds(27, Xboard adjudication: Checkmate, 4)",
        ] {
            assert!(classify(msg).is_none(), "{msg}");
        }
    }
}
