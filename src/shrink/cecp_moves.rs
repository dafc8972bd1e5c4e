//! A CECP game's move list made shorter: the GUI's moves from the game's start (after `new` or
//! a `setboard`, in `force` mode, no engine move among them) become one `setboard` with the
//! position they lead to, as the engine's `setboard=1` allows, or for a protocol-1 engine the
//! `edit` lines that set it up (when they are fewer than the moves). An engine that moved within the
//! run (after `go`) makes the position depend on its answers: such runs are left whole.

/// A run of the GUI's lines in one game that only it moves in: the steps of its moves and
/// take-backs, and where the game stood before the first (`None`: the start position).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRun {
    pub start: Option<String>,
    /// (step, a move in coordinate notation, or `undo` / `remove`).
    pub moves: Vec<(usize, String)>,
}

impl MoveRun {
    /// The FEN after the first `k` lines; `None` when the board cannot play them (a move the
    /// fault may be about is never played into a FEN) or a take-back has nothing to take.
    fn fen_after(&self, k: usize) -> Option<String> {
        let mut played: Vec<&str> = Vec::new();
        for (_, m) in self.moves.get(..k)? {
            let back = match m.as_str() {
                "undo" => 1,
                "remove" => 2,
                mv => {
                    played.push(mv);
                    0
                }
            };
            for _ in 0..back {
                played.pop()?;
            }
        }
        super::moves::fen_after(self.start.as_deref(), &played)
    }

    /// `setboard` with the position after the first `k` lines.
    pub fn setboard_after(&self, k: usize) -> Option<String> {
        Some(format!("setboard {}", self.fen_after(k)?))
    }

    /// The same position for a protocol-1 engine (no `setboard`): `edit` mode, as xboard sets
    /// one up (`a2a3` first when Black is to move, since `edit` keeps the side to move; the
    /// castling rights follow from the kings and rooks on their squares), one line each.
    pub fn edit_after(&self, k: usize) -> Option<Vec<String>> {
        edit_lines(&self.fen_after(k)?)
    }
}

/// The `edit` lines that set up `fen` after `new`.
pub fn edit_lines(fen: &str) -> Option<Vec<String>> {
    let mut fields = fen.split_whitespace();
    let placement = fields.next()?;
    let black_to_move = fields.next()? == "b";
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for (r, row) in placement.split('/').enumerate() {
        let rank = 8 - r;
        let mut file = 0u8;
        for c in row.chars() {
            if let Some(n) = c.to_digit(10) {
                file += n as u8;
                continue;
            }
            let square = format!("{}{rank}", (b'a' + file) as char);
            let piece = format!("{}{square}", c.to_ascii_uppercase());
            if c.is_ascii_uppercase() {
                &mut white
            } else {
                &mut black
            }
            .push(piece);
            file += 1;
        }
    }
    let mut lines = Vec::new();
    if black_to_move {
        lines.push("a2a3".to_owned());
    }
    lines.extend(["edit".to_owned(), "#".to_owned()]);
    lines.extend(white);
    lines.push("c".to_owned());
    lines.extend(black);
    lines.push(".".to_owned());
    Some(lines)
}

/// What a GUI line does to the game, read by the protocol's parser.
enum GameLine {
    New,
    SetBoard(String),
    /// A move, `undo` or `remove`, as a run keeps it.
    Play(String),
    /// Leaves the game where it was (settings, `ping`, `force`, answers to features).
    Neutral,
    /// Anything else (`go`, `edit`, `playother`...): the game no longer follows the GUI's
    /// lines alone.
    Other,
}

fn game_line(text: &str) -> GameLine {
    use crate::protocol::cecp::Msg;
    match crate::protocol::cecp::parse(crate::protocol::Dir::ToEngine, text, &mut Vec::new()) {
        Msg::New => GameLine::New,
        Msg::SetBoard(fen) if !fen.trim().is_empty() => GameLine::SetBoard(fen.trim().to_owned()),
        Msg::Move(m) | Msg::UserMove(m) if !m.is_empty() => GameLine::Play(m),
        Msg::Undo => GameLine::Play("undo".to_owned()),
        Msg::Remove => GameLine::Play("remove".to_owned()),
        Msg::Force => GameLine::Neutral,
        _ if super::units::is_setting(super::units::head(text)) => GameLine::Neutral,
        _ => GameLine::Other,
    }
}

/// A GUI line that plays a move (`usermove e2e4`, or `e2e4` bare).
pub fn is_gui_move(text: &str) -> bool {
    matches!(game_line(text), GameLine::Play(m) if m != "undo" && m != "remove")
}

/// The runs of the GUI's moves at the start of a game, over the `kept` steps' lines.
pub fn runs(lines: &[(usize, &str)]) -> Vec<MoveRun> {
    let mut runs = Vec::new();
    // Where the current game stands, while only the GUI moved since it was set.
    let mut current: Option<MoveRun> = None;
    for &(step, text) in lines {
        let start = match game_line(text) {
            GameLine::New => None,
            GameLine::SetBoard(fen) => Some(fen),
            GameLine::Play(m) => {
                if let Some(r) = current.as_mut() {
                    r.moves.push((step, m));
                }
                continue;
            }
            GameLine::Neutral => continue,
            GameLine::Other => {
                // The run so far is still one.
                runs.extend(current.take().filter(|r| !r.moves.is_empty()));
                continue;
            }
        };
        runs.extend(current.take().filter(|r| !r.moves.is_empty()));
        current = Some(MoveRun {
            start,
            moves: Vec::new(),
        });
    }
    runs.extend(current.filter(|r| !r.moves.is_empty()));
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_from_a_game_start_become_one_setboard() {
        let lines = [
            (0, "new"),
            (1, "force"),
            (2, "usermove e2e4"),
            (3, "ping 1"),
            (4, "e7e5"),
            (5, "undo"),
            (6, "usermove g1f3"),
            (7, "setboard 8/8/8/8/8/8/8/K6k w - - 0 1"),
            (8, "a1a2"),
            (9, "go"),
            (10, "a2a3"),
        ];
        let runs = runs(&lines);
        assert_eq!(runs.len(), 2, "{runs:?}");
        assert_eq!(
            runs[0].moves.iter().map(|m| m.0).collect::<Vec<_>>(),
            [2, 4, 5, 6]
        );
        assert_eq!(
            runs[0].setboard_after(2).unwrap(),
            "setboard rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        // The take-back counts: e7e5 taken back leaves e2e4 played...
        assert_eq!(
            runs[0].setboard_after(3).unwrap(),
            "setboard rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        // ...and g1f3 after it is White moving twice: no position.
        assert!(runs[0].setboard_after(4).is_none());
        assert_eq!(
            runs[1].start.as_deref(),
            Some("8/8/8/8/8/8/8/K6k w - - 0 1")
        );
        assert_eq!(runs[1].moves, [(8, "a1a2".to_owned())]);
        assert!(is_gui_move("usermove e7e8q"));
        let edit = runs[0].edit_after(1).unwrap();
        assert_eq!(edit[..3], ["a2a3", "edit", "#"]);
        assert!(edit.contains(&"Pe4".to_owned()) && edit.contains(&"Ke8".to_owned()));
        assert_eq!(edit.iter().filter(|l| *l == "c").count(), 1);
        assert_eq!(edit.last().map(String::as_str), Some("."));
        assert_eq!(edit.len(), 1 + 2 + 32 + 1 + 1);
        assert!(!is_gui_move("level 40 5 0"));
        assert!(!is_gui_move("undo"));
    }
}
