//! PGN as runners write their games (`-pgnout` of fastchess and cutechess, c-chess-cli's,
//! xboard's saved games): the tag pairs, the main line and its comments, the result. What the
//! report needs to put a runner's result beside an engine's recording: where the game started,
//! the moves played (as UCI, to compare with the moves on the wire), who played, and how the
//! runner says it ended (its `Termination` tag and the reason in its last comment).
//!
//! Lenient where writers differ (comments across lines, `;` comments, `%` escape lines,
//! variations, NAGs, move numbers with or without a space), exact where the game is concerned:
//! a move the board cannot play stops the game's moves there and says why.

use super::chess::{ChessBoard, ChessVariant, EndReason};

/// The main line as UCI moves, and how the board says the game ended after them.
pub type MainLine = (Vec<String>, Option<&'static str>);

/// One game of a PGN file, as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The line (1-based) of its first tag.
    pub line: u64,
    pub tags: Vec<(String, String)>,
    /// The main line's moves, as written (SAN; a runner may write UCI).
    pub moves: Vec<String>,
    /// The main line's last comment: runners put the game's end there (`{+M1/245 0.011s,
    /// White mates}`, `{White disconnects}`).
    pub last_comment: Option<String>,
    /// The termination marker after the moves (`1-0`, `0-1`, `1/2-1/2`, `*`), when present.
    pub marker: Option<String>,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The result: the `Result` tag, or the marker after the moves when the tag is missing or
    /// unknown (`*`).
    pub fn result(&self) -> &str {
        match (self.tag("Result"), self.marker.as_deref()) {
            (Some(r), _) if r != "*" => r,
            (_, Some(m)) => m,
            (Some(r), None) => r,
            (None, None) => "*",
        }
    }

    /// How the runner says the game ended: the reason in the last comment (after the
    /// evaluation and time runners write first: `+M1/245 0.011s, White mates`), else the
    /// `Termination` tag.
    pub fn reason(&self) -> String {
        let from_comment = self.last_comment.as_deref().and_then(|c| {
            let c = c.trim();
            match c.rsplit_once(", ") {
                Some((eval, reason)) if looks_like_eval(eval) => Some(reason.trim().to_owned()),
                Some(_) => Some(c.to_owned()),
                None if looks_like_eval(c) || c.is_empty() => None,
                None => Some(c.to_owned()),
            }
        });
        from_comment
            .or_else(|| self.tag("Termination").map(str::to_owned))
            .unwrap_or_default()
    }

    /// The start position's FEN, when the game does not start from the standard position.
    pub fn fen(&self) -> Option<&str> {
        self.tag("FEN").filter(|f| !f.trim().is_empty())
    }

    /// Whether the game is Chess960 (`Variant` tag).
    pub fn chess960(&self) -> bool {
        self.tag("Variant").is_some_and(|v| {
            let v = v.to_ascii_lowercase().replace([' ', '-'], "");
            v == "chess960" || v == "fischerandom" || v == "fischerrandom" || v == "960"
        })
    }

    /// The main line as UCI moves in the board's own convention, as far as the board can
    /// follow it; `Err` with the moves so far and why it stopped.
    pub fn uci_moves(&self) -> Result<Vec<String>, (Vec<String>, String)> {
        self.played().map(|(moves, _)| moves)
    }

    /// The main line played through (as [`PgnGame::uci_moves`]) and how the board says the
    /// game ended after it (`checkmate`, `stalemate`, ...), when it did.
    pub fn played(&self) -> Result<MainLine, (Vec<String>, String)> {
        let variant = match self.tag("Variant") {
            None => ChessVariant::Standard,
            Some(_) if self.chess960() => ChessVariant::Chess960,
            Some(v) => ChessVariant::from_cecp(&v.to_ascii_lowercase()),
        };
        let chess960 = variant == ChessVariant::Chess960;
        let board = match self.fen() {
            Some(fen) => ChessBoard::from_fen_lenient(fen, variant, chess960).map(|(b, _)| b),
            None => ChessBoard::startpos(variant),
        };
        let mut board = board.map_err(|e| (Vec::new(), e.to_string()))?;
        let mut out = Vec::with_capacity(self.moves.len());
        for m in &self.moves {
            let played = board.play_san(m).or_else(|_| board.play_uci(m));
            match played {
                Ok(p) => out.push(p.uci),
                Err(e) => return Err((out, e.to_string())),
            }
        }
        let end = board.outcome().map(|e| match e.reason {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::VariantEnd => "variantend",
            EndReason::BareKing => "bareking",
        });
        Ok((out, end))
    }
}

/// `+0.21/12 0.204s`, `-M6/6 0.012s`, `0.00/2`, `book`: what a runner writes before the reason.
fn looks_like_eval(text: &str) -> bool {
    let t = text.trim();
    t == "book"
        || t.split_ascii_whitespace().next().is_some_and(|w| {
            let w = w.trim_start_matches(['+', '-']);
            (w.starts_with('M') || w.starts_with(|c: char| c.is_ascii_digit())) && w.contains('/')
        })
}

/// The games of a PGN text, in order. Text between games that is no PGN is passed over.
pub fn games(text: &str) -> Vec<PgnGame> {
    let mut out = Vec::new();
    let mut game: Option<PgnGame> = None;
    let mut in_movetext = false;
    // A comment or variation open across lines.
    let mut comment: Option<String> = None;
    let mut depth = 0usize;
    for (n, raw) in text.lines().enumerate() {
        let line_no = n as u64 + 1;
        let line = raw.trim_end_matches('\r');
        if comment.is_none() && depth == 0 {
            if line.starts_with('%') {
                continue;
            }
            let trimmed = line.trim_start();
            if trimmed.starts_with('[') {
                if in_movetext || game.is_none() {
                    out.extend(game.take());
                    game = Some(PgnGame {
                        line: line_no,
                        ..PgnGame::default()
                    });
                    in_movetext = false;
                }
                if let (Some(g), Some(tag)) = (game.as_mut(), tag_pair(trimmed)) {
                    g.tags.push(tag);
                }
                continue;
            }
        }
        if line.trim().is_empty() && comment.is_none() && depth == 0 {
            continue;
        }
        let g = game.get_or_insert_with(|| PgnGame {
            line: line_no,
            ..PgnGame::default()
        });
        in_movetext = true;
        let ended = movetext(line, g, &mut comment, &mut depth);
        if ended {
            out.extend(game.take());
            in_movetext = false;
        }
    }
    if let Some(mut g) = game.take() {
        if let Some(c) = comment.take() {
            g.last_comment = Some(c);
        }
        out.push(g);
    }
    out
}

/// `[Name "value"]`, with `\"` and `\\` escapes.
fn tag_pair(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.trim_start();
    let (name, _) = inner.split_once(|c: char| c.is_whitespace() || c == '"')?;
    let rest = &inner[name.len()..];
    let rest = rest.trim_start().strip_prefix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.extend(chars.next()),
            '"' => return Some((name.to_owned(), value)),
            c => value.push(c),
        }
    }
    None
}

/// One line of movetext into `g`; true when the game's termination marker was read.
fn movetext(line: &str, g: &mut PgnGame, comment: &mut Option<String>, depth: &mut usize) -> bool {
    let mut rest = line;
    loop {
        if let Some(c) = comment.as_mut() {
            match rest.find('}') {
                Some(end) => {
                    c.push_str(&rest[..end]);
                    let done = comment.take().unwrap_or_default();
                    if *depth == 0 {
                        g.last_comment = Some(done.trim().to_owned());
                    }
                    rest = &rest[end + 1..];
                }
                None => {
                    c.push_str(rest);
                    c.push(' ');
                    return false;
                }
            }
        }
        rest = rest.trim_start();
        let Some(first) = rest.chars().next() else {
            return false;
        };
        match first {
            '{' => {
                *comment = Some(String::new());
                rest = &rest[1..];
            }
            ';' => return false,
            '(' => {
                *depth += 1;
                rest = &rest[1..];
            }
            ')' => {
                *depth = depth.saturating_sub(1);
                rest = &rest[1..];
            }
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || "{}();".contains(c))
                    .unwrap_or(rest.len());
                let token = &rest[..end];
                rest = &rest[end..];
                if *depth > 0 {
                    continue;
                }
                if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                    g.marker = Some(token.to_owned());
                    return true;
                }
                if let Some(mv) = move_token(token) {
                    g.moves.push(mv.to_owned());
                    // A comment belongs to the move before it: a move after it is the last.
                    g.last_comment = None;
                }
            }
        }
    }
}

/// The move in a token: without its move number (`12.`, `12...`, `12.e4`) and annotation
/// (`!?`); `None` for numbers, NAGs and other marks.
fn move_token(token: &str) -> Option<&str> {
    let t = token.trim_start_matches(|c: char| c.is_ascii_digit());
    let t = if t.len() < token.len() || token.starts_with('.') {
        t.trim_start_matches('.')
    } else {
        t
    };
    let t = t.trim_end_matches(['!', '?']);
    if t.is_empty() || t.starts_with('$') {
        return None;
    }
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FASTCHESS: &str = r#"[Event "Fastchess Tournament"]
[White "stockfish"]
[Black "toga2"]
[Result "1-0"]
[SetUp "1"]
[FEN "r1bqkbnr/ppp1ppp1/2n5/3p3p/8/N4NP1/PPPPPP1P/R1BQKB1R w KQkq - 0 1"]
[Termination "normal"]

1. d4 {-0.21/12 0.204s} Nf6 {+0.08/8 0.064s} 2. Bg2 {-0.08/11
0.204s} e6 {+0.15/8 0.042s, White disconnects} 1-0

[Event "Fastchess Tournament"]
[White "toga2"]
[Black "stockfish"]
[Result "0-1"]
[Termination "abandoned"]

{White disconnects} 0-1
"#;

    #[test]
    fn runner_games_read_with_their_moves_and_reasons() {
        let g = games(FASTCHESS);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].line, 1);
        assert_eq!(g[0].tag("white"), Some("stockfish"));
        assert_eq!(g[0].moves, ["d4", "Nf6", "Bg2", "e6"]);
        assert_eq!(g[0].reason(), "White disconnects");
        assert_eq!(g[0].result(), "1-0");
        assert_eq!(
            g[0].uci_moves().unwrap_or_default(),
            ["d2d4", "g8f6", "f1g2", "e7e6"]
        );
        assert_eq!(g[1].line, 12);
        assert!(g[1].moves.is_empty());
        assert_eq!(g[1].reason(), "White disconnects");
    }

    #[test]
    fn the_board_says_how_a_game_ended_after_its_moves() {
        let g = games("[White \"a\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
        assert_eq!(g[0].played().map(|(_, end)| end), Ok(Some("checkmate")));
        // The near miss: a game that stopped before its end.
        let g = games("[White \"a\"]\n\n1. f3 e5 2. g4 0-1\n");
        assert_eq!(g[0].played().map(|(_, end)| end), Ok(None));
    }

    #[test]
    fn a_reason_falls_back_to_the_termination_tag() {
        let g =
            games("[Result \"1-0\"]\n[Termination \"time forfeit\"]\n\n1. e4 {+0.3/9 1.2s} 1-0\n");
        assert_eq!(g[0].reason(), "time forfeit");
    }

    #[test]
    fn variations_nags_and_escapes_are_not_moves() {
        let g =
            games("[White \"a \\\"b\\\"\"]\n\n1.e4 $1 (1. d4 {x} d5) 1... e5!? ; rest\n2. Nf3 *\n");
        assert_eq!(g[0].tag("White"), Some("a \"b\""));
        assert_eq!(g[0].moves, ["e4", "e5", "Nf3"]);
        assert_eq!(g[0].marker.as_deref(), Some("*"));
    }

    #[test]
    fn a_move_the_board_cannot_play_stops_the_line_with_why() {
        let g = games("[White \"x\"]\n\n1. e4 e5 2. Ke3 *\n");
        let (so_far, why) = g[0].uci_moves().expect_err("Ke3 is illegal");
        assert_eq!(so_far, ["e2e4", "e7e5"]);
        assert!(!why.is_empty());
    }
}
