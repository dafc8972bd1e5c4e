//! What the document keeps beside its rows, where it changes: the boards shown and the
//! requests answered, each in 12 bytes.

use crate::session::{Owed, PosRef};

/// Where a session's board changed: from this row on it shows ply `ply` of game `game`
/// (`game` `u32::MAX`: no board). 12 bytes, where an `Option<PosRef>` beside the row took 32.
#[derive(Debug, Clone, Copy)]
pub struct PosAt {
    pub row: u32,
    game: u32,
    ply: u32,
}

impl PosAt {
    pub fn new(row: u32, pos: Option<PosRef>) -> PosAt {
        // Past four billion games or plies the board is not shown rather than shown wrong.
        let fit = pos.and_then(|p| Some((u32::try_from(p.game).ok()?, u32::try_from(p.ply).ok()?)));
        match fit {
            Some((game, ply)) if game != u32::MAX => PosAt { row, game, ply },
            _ => PosAt {
                row,
                game: u32::MAX,
                ply: 0,
            },
        }
    }

    pub fn pos(&self) -> Option<PosRef> {
        (self.game != u32::MAX).then_some(PosRef {
            game: self.game as usize,
            ply: self.ply as usize,
        })
    }
}

/// An obligation once answered or withdrawn: 12 bytes ([`super::Doc::owed`] says what was owed).
#[derive(Debug, Clone, Copy)]
pub struct Answered {
    pub open_row: u32,
    pub close_row: u32,
    /// What was owed ([`OWED_PLAIN`] index, or [`PONG`] + index into `Doc::pongs`), and
    /// [`CANCELLED`].
    owed: u32,
}

/// What is owed, when it carries nothing: the code of an [`Answered`].
const OWED_PLAIN: [Owed; 9] = [
    Owed::UciOk,
    Owed::ReadyOk,
    Owed::BestMove,
    Owed::FeatureDone,
    Owed::Move,
    Owed::Hint,
    Owed::NboardMove,
    Owed::SearchOrBook,
    Owed::Learned,
];
const PONG: u32 = OWED_PLAIN.len() as u32;
const CANCELLED: u32 = 1 << 31;

impl Answered {
    /// Withdrawn by the GUI rather than answered.
    pub fn cancelled(&self) -> bool {
        self.owed & CANCELLED != 0
    }

    pub fn new(open_row: u32, close_row: u32, code: u32, cancelled: bool) -> Answered {
        Answered {
            open_row,
            close_row,
            owed: code | if cancelled { CANCELLED } else { 0 },
        }
    }

    /// What was owed; a pong's number is in `pongs`.
    pub fn owed(&self, pongs: &[String]) -> Owed {
        let code = self.owed & !CANCELLED;
        match OWED_PLAIN.get(code as usize) {
            Some(o) => o.clone(),
            None => Owed::Pong(
                pongs
                    .get((code - PONG) as usize)
                    .cloned()
                    .unwrap_or_else(|| "?".to_owned()),
            ),
        }
    }
}

/// The code of what is owed; a pong's number goes to `pongs`.
pub fn owed_code(owed: &Owed, pongs: &mut Vec<String>) -> u32 {
    // Every variant by name: one added to `Owed` must be given its code here.
    let code = match owed {
        Owed::UciOk => 0,
        Owed::ReadyOk => 1,
        Owed::BestMove => 2,
        Owed::FeatureDone => 3,
        Owed::Move => 4,
        Owed::Hint => 5,
        Owed::NboardMove => 6,
        Owed::SearchOrBook => 7,
        Owed::Learned => 8,
        Owed::Pong(n) => {
            pongs.push(n.clone());
            // Past two billion pings the number is not kept: the rest say `?`.
            (PONG + pongs.len() as u32 - 1).min(CANCELLED - 1)
        }
    };
    debug_assert!(OWED_PLAIN.get(code as usize).is_none_or(|p| p == owed));
    code
}
