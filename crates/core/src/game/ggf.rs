//! GGF (Generic Game Format), as NBoard sends it in `set game` and GGS writes its archives:
//! `(;GM[Othello]PC[..]PB[..]PW[..]TY[8]BO[8 ... *]B[F5/1.00/2.3]W[..]...;)`.
//!
//! The reader is tolerant: every deviation (missing `;` before `)`, bad evals, unknown move
//! text...) becomes a diagnostic and parsing goes on. Non-move properties are kept in order,
//! unknown ones included, so printing gives the game back.

use std::fmt::Write as _;

use super::Side;
use super::othello::{BoardTextError, OthelloBoard, OthelloMove};

/// A problem found while reading or replaying a game. `offset` is a byte offset into the
/// parsed text (reading) or `None` (replay); `ply` is the move index for replay problems.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GgfDiagnostic {
    pub offset: Option<usize>,
    pub ply: Option<usize>,
    pub message: String,
}

/// One `B[...]` or `W[...]` property.
#[derive(Debug, Clone, PartialEq)]
pub struct GgfMove {
    /// The colour letter of the property, as written.
    pub side: Side,
    pub mv: OthelloMove,
    pub eval: Option<f64>,
    /// Seconds.
    pub time: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct GgfGame {
    /// Every property but the moves, in file order (`BO`, `RE`, unknown tags...).
    pub tags: Vec<(String, String)>,
    /// The start board: from `BO`, the standard start if `BO` is missing, `None` when the
    /// game is not 8x8 Othello (see `board_unknown`).
    pub start: Option<OthelloBoard>,
    /// Why `start` is `None`.
    pub board_unknown: Option<String>,
    pub moves: Vec<GgfMove>,
    pub diagnostics: Vec<GgfDiagnostic>,
}

/// The result of replaying a game's moves on its start board.
#[derive(Debug, Clone, PartialEq)]
pub struct GgfReplay {
    /// Board after the last move that could be played; `None` when the board is unknown.
    pub board: Option<OthelloBoard>,
    /// How many moves were played before an illegal one (all of them when legal).
    pub played: usize,
    pub diagnostics: Vec<GgfDiagnostic>,
}

/// `RE[+64.00:r]`: score for Black (Othello's first colour) and an optional flag
/// (`r` resigned, `t` timeout, `s` mutual score).
#[derive(Debug, Clone, PartialEq)]
pub struct GgfResult {
    pub score: Option<f64>,
    pub flag: Option<String>,
}

fn diag(offset: usize, message: impl Into<String>) -> GgfDiagnostic {
    GgfDiagnostic {
        offset: Some(offset),
        ply: None,
        message: message.into(),
    }
}

/// A decimal without exponent (NBoard's `readDoubleNoExponent`); `Err` if malformed.
fn parse_number(text: &str) -> Result<Option<f64>, ()> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let body = t.strip_prefix(['+', '-']).unwrap_or(t);
    let digits = body.chars().filter(char::is_ascii_digit).count();
    let dots = body.chars().filter(|c| *c == '.').count();
    if digits == 0 || dots > 1 || digits + dots != body.len() {
        return Err(());
    }
    t.parse::<f64>().map(Some).map_err(|_| ())
}

fn parse_move_value(
    side: Side,
    value: &str,
    offset: usize,
    diags: &mut Vec<GgfDiagnostic>,
) -> Option<GgfMove> {
    let mut parts = value.split('/');
    let mv_text = parts.next().unwrap_or_default();
    let Some(mv) = OthelloMove::parse(mv_text) else {
        diags.push(diag(offset, format!("not a move: {value:?}")));
        return None;
    };
    let mut number = |what: &str, text: Option<&str>| match parse_number(text.unwrap_or_default()) {
        Ok(n) => n,
        Err(()) => {
            diags.push(diag(offset, format!("bad {what} in {value:?}")));
            None
        }
    };
    let eval = number("evaluation", parts.next());
    let time = number("time", parts.next());
    if parts.next().is_some() {
        diags.push(diag(offset, format!("extra fields in move {value:?}")));
    }
    Some(GgfMove {
        side,
        mv,
        eval,
        time,
    })
}

impl GgfGame {
    /// Reads the first game in `text`. Text before `(;` and after `;)` is ignored.
    #[must_use]
    pub fn parse(text: &str) -> GgfGame {
        Self::parse_at(text, 0).0
    }

    /// Reads every game in `text` (GGS archives hold one game per line).
    #[must_use]
    pub fn parse_all(text: &str) -> Vec<GgfGame> {
        let mut games = Vec::new();
        let mut pos = 0;
        while let Some(found) = text.get(pos..).and_then(|rest| rest.find('(')) {
            let (game, end) = Self::parse_at(text, pos + found);
            games.push(game);
            if end <= pos {
                break;
            }
            pos = end;
        }
        games
    }

    /// Parses one game starting at or after `from`; returns it and the offset after it.
    fn parse_at(text: &str, from: usize) -> (GgfGame, usize) {
        let bytes = text.as_bytes();
        let mut diags = Vec::new();
        let mut tags = Vec::new();
        let mut moves = Vec::new();
        let mut i = match text.get(from..).and_then(|rest| rest.find('(')) {
            Some(p) => from + p + 1,
            None => {
                diags.push(diag(from, "no '(' game start"));
                from
            }
        };
        if bytes.get(i) == Some(&b';') {
            i += 1;
        } else {
            diags.push(diag(i, "game start '(' not followed by ';'"));
        }
        loop {
            while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            match bytes.get(i) {
                None => {
                    diags.push(diag(i, "game not closed with ';)'"));
                    break;
                }
                Some(b';') if bytes.get(i + 1) == Some(&b')') => {
                    i += 2;
                    break;
                }
                Some(b')') => {
                    diags.push(diag(i, "missing ';' before ')'"));
                    i += 1;
                    break;
                }
                Some(c) if c.is_ascii_alphabetic() => {
                    let start = i;
                    while bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
                        i += 1;
                    }
                    let tag = &text[start..i];
                    if bytes.get(i) != Some(&b'[') {
                        diags.push(diag(i, format!("tag {tag} without '[value]'")));
                        continue;
                    }
                    let value_start = i + 1;
                    let (value, next) = match text[value_start..].find(']') {
                        Some(len) => (&text[value_start..value_start + len], value_start + len + 1),
                        None => {
                            diags.push(diag(start, format!("value of {tag} not closed with ']'")));
                            (&text[value_start..], text.len())
                        }
                    };
                    i = next;
                    if !(1..=2).contains(&tag.len()) || tag.bytes().any(|b| b.is_ascii_lowercase())
                    {
                        diags.push(diag(start, format!("unusual tag name {tag:?}")));
                    }
                    match tag {
                        "B" | "W" => {
                            let side = if tag == "B" { Side::Black } else { Side::White };
                            moves.extend(parse_move_value(side, value, start, &mut diags));
                        }
                        _ => tags.push((tag.to_string(), value.to_string())),
                    }
                }
                Some(_) => {
                    let ch = text[i..].chars().next().unwrap_or(' ');
                    diags.push(diag(i, format!("unexpected {ch:?} between properties")));
                    i += ch.len_utf8();
                }
            }
        }
        let mut game = GgfGame {
            tags,
            start: None,
            board_unknown: None,
            moves,
            diagnostics: diags,
        };
        game.resolve_start();
        (game, i)
    }

    fn resolve_start(&mut self) {
        if let Some(gm) = self.tag("GM")
            && !gm.trim().eq_ignore_ascii_case("othello")
        {
            self.board_unknown = Some(format!("game {gm:?} is not Othello"));
            return;
        }
        if let Some(ty) = self.tag("TY") {
            let size: String = ty
                .trim()
                .trim_start_matches('s')
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if !size.is_empty() && size != "8" {
                self.board_unknown = Some(format!("board size {size} (TY[{ty}])"));
                return;
            }
        }
        match self.tag("BO").map(OthelloBoard::from_ggf_board) {
            Some(Ok(board)) => self.start = Some(board),
            Some(Err(BoardTextError::UnsupportedSize(size))) => {
                self.board_unknown = Some(format!("board size {size} (BO)"));
            }
            Some(Err(e)) => {
                self.diagnostics.push(GgfDiagnostic {
                    offset: None,
                    ply: None,
                    message: format!("BO: {e}"),
                });
                self.board_unknown = Some(e.to_string());
            }
            None => {
                self.diagnostics.push(GgfDiagnostic {
                    offset: None,
                    ply: None,
                    message: "no BO tag: assuming the standard start".into(),
                });
                self.start = Some(OthelloBoard::new());
            }
        }
    }

    /// The first value of a tag, by exact name.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// `RE`, if present and readable.
    #[must_use]
    pub fn result(&self) -> Option<GgfResult> {
        let re = self.tag("RE")?;
        let (score, flag) = match re.split_once(':') {
            Some((s, f)) => (s, Some(f.trim().to_string())),
            None => (re, None),
        };
        Some(GgfResult {
            score: parse_number(score).ok().flatten(),
            flag,
        })
    }

    /// Prints the game: tags in order, then the moves, `PA` for passes, uppercase squares.
    #[must_use]
    pub fn print(&self) -> String {
        let mut out = String::from("(;");
        for (k, v) in &self.tags {
            let _ = write!(out, "{k}[{v}]");
        }
        for m in &self.moves {
            let letter = match m.side {
                Side::Black => 'B',
                Side::White => 'W',
            };
            let _ = write!(out, "{letter}[{}", m.mv);
            match (m.eval, m.time) {
                (None, None) => {}
                (Some(e), None) => {
                    let _ = write!(out, "/{e}");
                }
                (e, Some(t)) => {
                    out.push('/');
                    if let Some(e) = e {
                        let _ = write!(out, "{e}");
                    }
                    let _ = write!(out, "/{t}");
                }
            }
            out.push(']');
        }
        out.push_str(";)");
        out
    }

    /// Plays the moves on the start board, checking legality and that each move's colour
    /// letter is the side to move. A colour mismatch is a diagnostic; when the side to move
    /// has to pass and the other colour moves, the pass is taken as implied (diagnostic too).
    /// The first illegal move stops the replay.
    #[must_use]
    pub fn replay(&self) -> GgfReplay {
        let mut diagnostics = Vec::new();
        let Some(mut board) = self.start else {
            return GgfReplay {
                board: None,
                played: 0,
                diagnostics,
            };
        };
        let note = |ply: usize, message: String| GgfDiagnostic {
            offset: None,
            ply: Some(ply),
            message,
        };
        for (ply, m) in self.moves.iter().enumerate() {
            if m.side != board.turn() {
                if board.must_pass() && m.mv != OthelloMove::Pass {
                    diagnostics.push(note(
                        ply,
                        format!("{} did not pass explicitly", board.turn()),
                    ));
                    // must_pass guarantees the pass is legal.
                    let _ = board.pass();
                } else {
                    diagnostics.push(note(
                        ply,
                        format!("{} move {} but {} is to move", m.side, m.mv, board.turn()),
                    ));
                }
            }
            if let Err(e) = board.play_move(m.mv) {
                diagnostics.push(note(ply, format!("illegal move {}: {e}", m.mv)));
                return GgfReplay {
                    board: Some(board),
                    played: ply,
                    diagnostics,
                };
            }
        }
        GgfReplay {
            board: Some(board),
            played: self.moves.len(),
            diagnostics,
        }
    }
}

#[cfg(test)]
mod tests;
