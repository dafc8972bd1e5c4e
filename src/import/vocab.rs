//! Which side usually says a line: the fallback when a log has no trustworthy direction marker
//! (PyChess) or when the marker glyph itself is ambiguous (`>`/`<` transcripts, NBoard).

/// The side that sends a protocol line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Gui,
    Engine,
}

/// First words only the GUI sends (UCI, CECP and NBoard together).
const GUI_WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "setoption",
    "register",
    "quit",
    "xboard",
    "protover",
    "new",
    "force",
    "level",
    "st",
    "sd",
    "nps",
    "time",
    "otim",
    "usermove",
    "ping",
    "accepted",
    "rejected",
    "variant",
    "random",
    "post",
    "nopost",
    "hard",
    "easy",
    "computer",
    "rating",
    "ics",
    "result",
    "setboard",
    "edit",
    "hint",
    "bk",
    "undo",
    "remove",
    "analyze",
    "exit",
    "draw",
    "memory",
    "cores",
    "egtpath",
    "playother",
    "white",
    "black",
    "nboard",
    "learn",
    "name",
    "pause",
    "resume",
    ".",
    "?",
];

/// First words only the engine sends.
const ENGINE_WORDS: &[&str] = &[
    "uciok",
    "readyok",
    "bestmove",
    "info",
    "id",
    "copyprotection",
    "registration",
    "feature",
    "move",
    "pong",
    "tellics",
    "tellicsnoalias",
    "telluser",
    "tellusererror",
    "tellopponent",
    "tellothers",
    "tellall",
    "askuser",
    "error",
    "illegal",
    "resign",
    "offer",
    "1-0",
    "0-1",
    "1/2-1/2",
    "===",
    "nodestats",
    "status",
    "search",
    "book",
    "learned",
    "analysis",
    "#",
];

/// Guesses the sender of one protocol line from its vocabulary.
pub fn side_of(line: &str) -> Option<Side> {
    let line = line.trim_start();
    let mut words = line.split_ascii_whitespace();
    let first = words.next()?;
    let lower = first.to_ascii_lowercase();
    match lower.as_str() {
        // UCI engines send `option name X type ...`; CECP GUIs send `option NAME=value`.
        "option" => {
            return Some(if line.contains(" type ") {
                Side::Engine
            } else {
                Side::Gui
            });
        }
        // NBoard: the engine sends `set myname`, the GUI every other `set`.
        "set" => {
            return Some(if words.next() == Some("myname") {
                Side::Engine
            } else {
                Side::Gui
            });
        }
        _ => {}
    }
    if GUI_WORDS.contains(&lower.as_str()) {
        return Some(Side::Gui);
    }
    if ENGINE_WORDS.contains(&lower.as_str()) || lower.starts_with('#') {
        return Some(Side::Engine);
    }
    // CECP thinking output: `ply score time nodes pv...`.
    let mut nums = line.split_ascii_whitespace().take(4);
    if nums.clone().count() == 4
        && nums.all(|w| w.trim_end_matches(['.', '&']).parse::<i64>().is_ok())
    {
        return Some(Side::Engine);
    }
    None
}

/// Is this the first word of a command a GUI sends (for unprefixed continuation lines)?
pub fn is_gui_command(line: &[u8]) -> bool {
    std::str::from_utf8(line)
        .ok()
        .and_then(side_of)
        .is_some_and(|s| s == Side::Gui)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_both_protocols() {
        assert_eq!(side_of("uci"), Some(Side::Gui));
        assert_eq!(side_of("protover 2"), Some(Side::Gui));
        assert_eq!(side_of("bestmove e2e4 ponder e7e5"), Some(Side::Engine));
        assert_eq!(
            side_of("option name Hash type spin default 16"),
            Some(Side::Engine)
        );
        assert_eq!(side_of("option Hash=16"), Some(Side::Gui));
        assert_eq!(side_of("set myname Edax6"), Some(Side::Engine));
        assert_eq!(side_of("set depth 6"), Some(Side::Gui));
        assert_eq!(side_of("5 -100 0 0 Qxc4 Nxg3"), Some(Side::Engine));
        assert_eq!(side_of("threads=1"), None);
        assert_eq!(side_of(""), None);
    }
}
