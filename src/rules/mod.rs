//! The rules `kibitzer check` applies to decoded sessions.
//!
//! [`catalogue`] names every rule the design knows; the checks themselves are added one id at a
//! time, and [`implemented_ids`] records which exist so that `docs/rules.md` can tell users.
pub mod catalogue;

pub use catalogue::{Decidable, Family, RULES, Rule, Severity, Side, render_markdown, rule};

/// Ids of the rules that have a check in the code. `docs/rules.md` shows this list as each
/// rule's status, so adding a check means adding its id here and regenerating the page.
pub fn implemented_ids() -> &'static [&'static str] {
    &[
        "CECP-ACCEPTED-UNSOLICITED",
        "CECP-EDIT-SYNTAX",
        "CECP-ERROR-FORMAT",
        "CECP-FEATURE-SYNTAX",
        "CECP-GUI-MOVE-ILLEGAL",
        "CECP-ILLEGAL-MOVE-FORMAT",
        "CECP-ILLEGAL-MOVE-REPLY",
        "CECP-LEGACY-FORM",
        "CECP-MOVE-ECHO",
        "CECP-MOVE-ILLEGAL",
        "CECP-MOVE-IN-FORCE",
        "CECP-MOVE-OUT-OF-TURN",
        "CECP-OPTION-UNKNOWN",
        "CECP-PONG-DUPLICATE",
        "CECP-PONG-MISMATCH",
        "CECP-SETBOARD-BAD-FEN",
        "CECP-SETBOARD-IRREGULAR-FEN",
        "CECP-SYNTAX",
        "CECP-THINKING-FORMAT",
        "CECP-THINKING-PV-UNPLAYABLE",
        "CECP-UNDO-BEYOND-START",
        "CECP-UNDOCUMENTED-OUTPUT",
        "CECP-UNKNOWN-COMMAND",
        "NBOARD-GO-AFTER-GAME-END",
        "NBOARD-GUI-MOVE-ILLEGAL",
        "NBOARD-LEARN-ACK",
        "NBOARD-MOVE-FORMAT",
        "NBOARD-MOVE-ILLEGAL",
        "NBOARD-PONG-MISMATCH",
        "NBOARD-SET-GAME-SYNTAX",
        "NBOARD-SYNTAX",
        "NBOARD-UNKNOWN-COMMAND",
        "NBOARD-UNSOLICITED",
        "UCI-BESTMOVE-ILLEGAL",
        "UCI-BESTMOVE-WITHOUT-GO",
        "UCI-CASTLING-NOTATION",
        "UCI-GO-ON-TERMINAL-POSITION",
        "UCI-GO-WHILE-SEARCHING",
        "UCI-INFO-NONINTEGER",
        "UCI-INFO-PV-ILLEGAL",
        "UCI-INFO-SCORE-UNIT",
        "UCI-OPTION-MALFORMED",
        "UCI-PONDER-MOVE-ILLEGAL",
        "UCI-PONDERHIT-WITHOUT-PONDER",
        "UCI-POSITION-BAD-FEN",
        "UCI-POSITION-ILLEGAL-MOVE",
        "UCI-READYOK-UNSOLICITED",
        "UCI-SETOPTION-UNKNOWN",
        "UCI-STOP-WITHOUT-SEARCH",
        "UCI-SYNTAX",
        "UCI-UNKNOWN-COMMAND",
        "UCI-UNSOLICITED-OUTPUT",
        "X-BOARD-UNKNOWN",
        "X-ENGINE-EXIT",
        "X-INPUT-STARTS-MID-SESSION",
    ]
}
