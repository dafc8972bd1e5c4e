//! A CECP game's move list made shorter: the GUI's moves from the game's start (after `new` or
//! a `setboard`, in `force` mode, no engine move among them) become one `setboard` with the
//! position they lead to, as the engine's `setboard=1` allows. An engine that moved within the
//! run (after `go`) makes the position depend on its answers: such runs are left whole.

/// A run of the GUI's moves in one game: the steps of the moves, and where the game stood
/// before the first (`None`: the start position).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRun {
    pub start: Option<String>,
    /// (step, move in coordinate notation).
    pub moves: Vec<(usize, String)>,
}

impl MoveRun {
    /// `setboard` with the position after the first `k` moves; `None` when the board cannot
    /// play them (a move the fault may be about is never played into a FEN).
    pub fn setboard_after(&self, k: usize) -> Option<String> {
        let played: Vec<&str> = self
            .moves
            .get(..k)?
            .iter()
            .map(|(_, m)| m.as_str())
            .collect();
        let fen = super::moves::fen_after(self.start.as_deref(), &played)?;
        Some(format!("setboard {fen}"))
    }
}

/// The move a GUI line sends (`usermove e2e4`, or `e2e4` bare), when it is one.
pub fn gui_move(text: &str) -> Option<&str> {
    let mut words = text.split_whitespace();
    let first = words.next()?;
    let mv = if first == "usermove" {
        words.next()?
    } else {
        first
    };
    if words.next().is_some() {
        return None;
    }
    let b = mv.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    let shape = match b.len() {
        4 => true,
        5 => b"qrbnk".contains(&b[4]),
        _ => false,
    };
    (shape && square(b[0], b[1]) && square(b[2], b[3])).then_some(mv)
}

/// Lines that leave the game where it was (settings, `ping`, `force` itself, answers to
/// features): a run of moves may have them in between.
fn neutral(text: &str) -> bool {
    let head = text.split_whitespace().next().unwrap_or("");
    head == "force" || super::units::is_setting(head)
}

/// The runs of the GUI's moves at the start of a game, over the `kept` steps' lines.
pub fn runs(lines: &[(usize, &str)]) -> Vec<MoveRun> {
    let mut runs = Vec::new();
    // Where the current game stands, while only the GUI moved since it was set.
    let mut current: Option<MoveRun> = None;
    for &(step, text) in lines {
        let head = text.split_whitespace().next().unwrap_or("");
        if head == "new" {
            runs.extend(current.take().filter(|r| !r.moves.is_empty()));
            current = Some(MoveRun {
                start: None,
                moves: Vec::new(),
            });
        } else if head == "setboard" {
            runs.extend(current.take().filter(|r| !r.moves.is_empty()));
            let fen = text["setboard".len()..].trim();
            current = (!fen.is_empty()).then(|| MoveRun {
                start: Some(fen.to_owned()),
                moves: Vec::new(),
            });
        } else if let Some(mv) = gui_move(text) {
            if let Some(r) = current.as_mut() {
                r.moves.push((step, mv.to_owned()));
            }
        } else if !neutral(text) {
            // `go`, `undo`, `edit`, `playother`...: the game no longer follows the GUI's lines
            // alone; the run so far is still one.
            runs.extend(current.take().filter(|r| !r.moves.is_empty()));
        }
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
            [2, 4]
        );
        assert_eq!(
            runs[0].setboard_after(2).unwrap(),
            "setboard rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        assert_eq!(
            runs[1].start.as_deref(),
            Some("8/8/8/8/8/8/8/K6k w - - 0 1")
        );
        assert_eq!(runs[1].moves, [(8, "a1a2".to_owned())]);
        assert!(gui_move("usermove e7e8q").is_some());
        assert!(gui_move("level 40 5 0").is_none());
        assert!(gui_move("e2e9").is_none());
    }
}
