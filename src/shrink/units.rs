//! The pieces a session may lose without becoming an invalid one: whole games, searches (the
//! `position` lines before a `go`, the `go`, and the `stop` / `ponderhit` that ends it), option
//! settings, `isready` / `ping` pairs, `ucinewgame` / `new`. The handshake's first line, `quit`
//! and the close of the input are never dropped: a session without them is no session a GUI
//! would send.

use crate::replay::analysis::Analysis;
use crate::replay::script::Script;

/// What a unit is, for the progress lines and the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Game,
    Search,
    Option,
    Isready,
    NewGame,
    Position,
    Other,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Game => "game",
            Kind::Search => "search",
            Kind::Option => "option",
            Kind::Isready => "isready",
            Kind::NewGame => "new game",
            Kind::Position => "position",
            Kind::Other => "line",
        }
    }
}

/// Steps of the base script dropped together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    pub kind: Kind,
    pub steps: Vec<usize>,
}

/// The first word of a step's line.
pub fn head(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or("")
}

/// Steps that stay in every candidate: the first line when it opens the handshake, `quit`, the
/// close of the input, and the lines `--deterministic`'s rewriting added (no original event).
pub fn fixed(script: &Script) -> Vec<bool> {
    script
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let h = head(&s.text);
            s.send.is_none()
                || s.origin.is_none()
                || h == "quit"
                || (i == 0 && matches!(h, "uci" | "xboard" | "protover" | "nboard"))
                // CECP's handshake is two lines.
                || (i == 1 && h == "protover")
        })
        .collect()
}

/// One unit per game of `a` (the steps from the lines that prepared it to the next game's),
/// fixed steps left out.
pub fn games(script: &Script, a: &Analysis) -> Vec<Unit> {
    let fixed = fixed(script);
    let starts = script.game_starts(a);
    let n = script.steps.len();
    starts
        .iter()
        .enumerate()
        .map(|(g, &from)| {
            let to = starts.get(g + 1).copied().unwrap_or(n);
            Unit {
                kind: Kind::Game,
                steps: (from..to).filter(|&i| !fixed[i]).collect(),
            }
        })
        .filter(|u| !u.steps.is_empty())
        .collect()
}

/// CECP and NBoard lines that leave the game as it was: settings and `ping`. Every other line
/// of theirs (a move, `undo`, `go`, `force`, `setboard`, `set game`...) makes or changes the
/// game, and the engine's own moves are part of it: one of them dropped alone would make the
/// GUI's next moves illegal. Those go only with their whole game.
const SETTINGS: &[&str] = &[
    "ping", "post", "nopost", "hard", "easy", "level", "st", "sd", "time", "otim", "computer",
    "name", "random", "accepted", "rejected", "option", "memory", "cores", "egtpath", "hint", "bk",
    "ics", "rating",
];

/// Every step but the fixed ones, one unit each: the last pass over a CECP or NBoard session,
/// once whole games, settings and move lists are done, for the game lines left (a move, an
/// `undo`, a `setboard`) that the fault may not need.
pub fn single(script: &Script) -> Vec<Unit> {
    let fixed = fixed(script);
    (0..script.steps.len())
        .filter(|&i| !fixed[i] && script.steps[i].send.is_some())
        .map(|i| Unit {
            kind: Kind::Other,
            steps: vec![i],
        })
        .collect()
}

/// A CECP or NBoard line of `SETTINGS`' kind (by its first word).
pub fn is_setting(head: &str) -> bool {
    SETTINGS.contains(&head)
}

/// The finest units over the steps of the script. UCI: a search with the `position` lines
/// just before it and the `stop` / `ponderhit` that end it, and one unit for every other line.
/// CECP and NBoard: one unit for each setting and `ping` (`SETTINGS`; NBoard's `set depth`
/// and `set contempt`).
pub fn fine(script: &Script, protocol: Option<crate::protocol::Protocol>) -> Vec<Unit> {
    if protocol.is_some_and(|p| p != crate::protocol::Protocol::Uci) {
        return settings(script);
    }
    let fixed = fixed(script);
    let steps = &script.steps;
    let mut units = Vec::new();
    let mut taken = vec![false; steps.len()];
    let mut i = 0;
    while i < steps.len() {
        if fixed[i] || taken[i] {
            i += 1;
            continue;
        }
        let h = head(&steps[i].text);
        match h {
            "position" => {
                // The positions up to the search they prepare.
                let mut j = i;
                while j < steps.len() && head(&steps[j].text) == "position" && !fixed[j] {
                    j += 1;
                }
                let mut unit: Vec<usize> = (i..j).collect();
                let kind = if j < steps.len() && head(&steps[j].text) == "go" {
                    unit.extend(search_from(steps, j, &fixed));
                    Kind::Search
                } else {
                    Kind::Position
                };
                for &s in &unit {
                    taken[s] = true;
                }
                units.push(Unit { kind, steps: unit });
            }
            "go" => {
                let unit = search_from(steps, i, &fixed);
                for &s in &unit {
                    taken[s] = true;
                }
                units.push(Unit {
                    kind: Kind::Search,
                    steps: unit,
                });
            }
            _ => {
                taken[i] = true;
                units.push(Unit {
                    kind: match h {
                        "setoption" | "option" => Kind::Option,
                        "isready" | "ping" => Kind::Isready,
                        "ucinewgame" | "new" => Kind::NewGame,
                        _ => Kind::Other,
                    },
                    steps: vec![i],
                });
            }
        }
        i += 1;
    }
    units
}

fn settings(script: &Script) -> Vec<Unit> {
    let fixed = fixed(script);
    script
        .steps
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            let mut words = s.text.split_whitespace();
            let h = words.next().unwrap_or("");
            !fixed[*i]
                && (SETTINGS.contains(&h)
                    || (h == "set" && matches!(words.next(), Some("depth" | "contempt"))))
        })
        .map(|(i, s)| Unit {
            kind: if head(&s.text) == "ping" {
                Kind::Isready
            } else {
                Kind::Option
            },
            steps: vec![i],
        })
        .collect()
}

/// The `go` at `at` and the `stop` / `ponderhit` lines that end it (before the next search or
/// position).
fn search_from(steps: &[crate::replay::script::Step], at: usize, fixed: &[bool]) -> Vec<usize> {
    let mut unit = vec![at];
    for (j, s) in steps.iter().enumerate().skip(at + 1) {
        match head(&s.text) {
            "stop" | "ponderhit" if !fixed[j] => unit.push(j),
            "go" | "position" | "ucinewgame" | "quit" => break,
            _ => {}
        }
    }
    unit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recording::Source::{Engine as E, Gui as G};
    use crate::replay::script::tests::analysed;

    #[test]
    fn a_search_takes_its_positions_and_its_stop_and_the_handshake_stays() {
        let a = analysed(&[
            (0, G, "uci"),
            (10, E, "uciok"),
            (20, G, "setoption name Hash value 32"),
            (30, G, "isready"),
            (35, E, "readyok"),
            (40, G, "ucinewgame"),
            (50, G, "position startpos"),
            (50, G, "go ponder"),
            (60, G, "isready"),
            (61, E, "readyok"),
            (70, G, "stop"),
            (80, E, "bestmove e2e4"),
            (90, G, "quit"),
        ]);
        let s = Script::from_analysis(&a);
        let units = fine(&s, Some(crate::protocol::Protocol::Uci));
        let shown: Vec<(Kind, Vec<usize>)> =
            units.iter().map(|u| (u.kind, u.steps.clone())).collect();
        assert_eq!(
            shown,
            [
                (Kind::Option, vec![1]),
                (Kind::Isready, vec![2]),
                (Kind::NewGame, vec![3]),
                (Kind::Search, vec![4, 5, 7]),
                (Kind::Isready, vec![6]),
            ]
        );
        assert_eq!(
            fixed(&s),
            [
                true, false, false, false, false, false, false, false, true, true
            ]
        );
    }
}
