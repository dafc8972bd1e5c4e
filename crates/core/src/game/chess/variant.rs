//! Chess variant names as CECP (`variant NAME`) and UCI (`UCI_Variant`) spell them, and how
//! each maps onto a shakmaty rules set.

use shakmaty::variant::Variant;

/// A chess variant as negotiated on the wire.
///
/// `Losers` and `Giveaway` have no shakmaty counterpart; they are approximations (see
/// [`ChessVariant::rules`]). `Bughouse` is played as crazyhouse whose pockets the GUI refreshes
/// with `holding` commands.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ChessVariant {
    /// `normal`, `chess`, `standard`, `fromPosition`.
    Standard,
    /// `fischerandom` (CECP), `chess960` (UCI_Variant): standard rules, Chess960 castling.
    Chess960,
    /// `nocastle`: standard rules; the start position has no castling rights.
    NoCastle,
    Crazyhouse,
    Bughouse,
    Atomic,
    ThreeCheck,
    /// FICS `suicide` and Lichess `antichess`: shakmaty's Antichess rules.
    Antichess,
    /// ICC wild 26, Fairy-Stockfish's and python-chess's `giveaway`: antichess with castling.
    /// Played on shakmaty's Antichess, with the castling rights and moves kept by the board
    /// (`chess/giveaway.rs`).
    Giveaway,
    /// ICC wild 17: chess where capturing is compulsory and you win by losing all your
    /// pieces or getting mated. Moves are checked as chess plus the must-capture rule; the
    /// outcome logic is ours (see `ChessBoard::outcome`).
    Losers,
    KingOfTheHill,
    RacingKings,
    Horde,
    /// Anything we cannot model: xiangqi, shogi, capablanca, 10x8 boards, kriegspiel...
    Unsupported(String),
}

impl ChessVariant {
    /// Parses a CECP `variant` argument (xboard names, case-insensitive). xboard prefixes
    /// board-size overrides as `8x8+0_fairy`; an `8x8+0_` prefix is transparent, any other
    /// size is unsupported.
    #[must_use]
    pub fn from_cecp(name: &str) -> ChessVariant {
        let trimmed = name.trim();
        let lower = trimmed.to_ascii_lowercase();
        let base = match lower.split_once('_') {
            Some((size, rest)) if size.contains('x') => {
                if size != "8x8+0" {
                    return ChessVariant::Unsupported(trimmed.to_string());
                }
                rest
            }
            _ => lower.as_str(),
        };
        match base {
            "normal" | "standard" | "chess" => ChessVariant::Standard,
            "fischerandom" | "chess960" | "frc" => ChessVariant::Chess960,
            "nocastle" => ChessVariant::NoCastle,
            "crazyhouse" => ChessVariant::Crazyhouse,
            "bughouse" => ChessVariant::Bughouse,
            "atomic" => ChessVariant::Atomic,
            "3check" | "threecheck" => ChessVariant::ThreeCheck,
            "suicide" | "antichess" => ChessVariant::Antichess,
            "giveaway" => ChessVariant::Giveaway,
            "losers" => ChessVariant::Losers,
            "kingofthehill" => ChessVariant::KingOfTheHill,
            "racingkings" => ChessVariant::RacingKings,
            "horde" => ChessVariant::Horde,
            _ => ChessVariant::Unsupported(trimmed.to_string()),
        }
    }

    /// Parses a `UCI_Variant` option value (Lichess / Fairy-Stockfish names).
    #[must_use]
    pub fn from_uci(name: &str) -> ChessVariant {
        let trimmed = name.trim();
        match trimmed.to_ascii_lowercase().as_str() {
            "chess" | "standard" | "normal" | "frompositon" | "fromposition" => {
                ChessVariant::Standard
            }
            "chess960" | "fischerandom" => ChessVariant::Chess960,
            "crazyhouse" => ChessVariant::Crazyhouse,
            "bughouse" => ChessVariant::Bughouse,
            "atomic" => ChessVariant::Atomic,
            "3check" | "threecheck" | "three-check" => ChessVariant::ThreeCheck,
            "antichess" | "suicide" => ChessVariant::Antichess,
            "giveaway" => ChessVariant::Giveaway,
            "losers" => ChessVariant::Losers,
            "kingofthehill" | "koth" => ChessVariant::KingOfTheHill,
            "racingkings" => ChessVariant::RacingKings,
            "horde" => ChessVariant::Horde,
            _ => ChessVariant::Unsupported(trimmed.to_string()),
        }
    }

    /// The shakmaty rules the board is played with, `None` when unsupported.
    #[must_use]
    pub fn rules(&self) -> Option<Variant> {
        Some(match self {
            ChessVariant::Standard
            | ChessVariant::Chess960
            | ChessVariant::NoCastle
            | ChessVariant::Losers => Variant::Chess,
            ChessVariant::Crazyhouse | ChessVariant::Bughouse => Variant::Crazyhouse,
            ChessVariant::Atomic => Variant::Atomic,
            ChessVariant::ThreeCheck => Variant::ThreeCheck,
            ChessVariant::Antichess | ChessVariant::Giveaway => Variant::Antichess,
            ChessVariant::KingOfTheHill => Variant::KingOfTheHill,
            ChessVariant::RacingKings => Variant::RacingKings,
            ChessVariant::Horde => Variant::Horde,
            ChessVariant::Unsupported(_) => return None,
        })
    }

    /// Whether the variant name itself means Chess960 castling.
    #[must_use]
    pub fn implies_chess960(&self) -> bool {
        matches!(self, ChessVariant::Chess960)
    }

    #[must_use]
    pub fn is_supported(&self) -> bool {
        !matches!(self, ChessVariant::Unsupported(_))
    }

    /// The CECP spelling (for display and diagnostics).
    #[must_use]
    pub fn cecp_name(&self) -> &str {
        match self {
            ChessVariant::Standard => "normal",
            ChessVariant::Chess960 => "fischerandom",
            ChessVariant::NoCastle => "nocastle",
            ChessVariant::Crazyhouse => "crazyhouse",
            ChessVariant::Bughouse => "bughouse",
            ChessVariant::Atomic => "atomic",
            ChessVariant::ThreeCheck => "3check",
            ChessVariant::Antichess => "suicide",
            ChessVariant::Giveaway => "giveaway",
            ChessVariant::Losers => "losers",
            ChessVariant::KingOfTheHill => "kingofthehill",
            ChessVariant::RacingKings => "racingkings",
            ChessVariant::Horde => "horde",
            ChessVariant::Unsupported(name) => name,
        }
    }
}

impl std::fmt::Display for ChessVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.cecp_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cecp_names() {
        assert_eq!(ChessVariant::from_cecp("normal"), ChessVariant::Standard);
        assert_eq!(
            ChessVariant::from_cecp("fischerandom"),
            ChessVariant::Chess960
        );
        assert_eq!(ChessVariant::from_cecp("bughouse"), ChessVariant::Bughouse);
        assert_eq!(ChessVariant::from_cecp("suicide"), ChessVariant::Antichess);
        assert_eq!(ChessVariant::from_cecp("3check"), ChessVariant::ThreeCheck);
        assert_eq!(ChessVariant::from_cecp("Losers"), ChessVariant::Losers);
        assert_eq!(
            ChessVariant::from_cecp("8x8+0_crazyhouse"),
            ChessVariant::Crazyhouse
        );
        for name in [
            "xiangqi",
            "shogi",
            "capablanca",
            "gothic",
            "shatranj",
            "twokings",
        ] {
            assert_eq!(
                ChessVariant::from_cecp(name),
                ChessVariant::Unsupported(name.into())
            );
        }
        assert_eq!(
            ChessVariant::from_cecp("10x8+0_fairy"),
            ChessVariant::Unsupported("10x8+0_fairy".into())
        );
    }

    #[test]
    fn uci_names() {
        assert_eq!(ChessVariant::from_uci("chess"), ChessVariant::Standard);
        assert_eq!(ChessVariant::from_uci("chess960"), ChessVariant::Chess960);
        assert_eq!(ChessVariant::from_uci("antichess"), ChessVariant::Antichess);
        assert_eq!(ChessVariant::from_uci("3check"), ChessVariant::ThreeCheck);
        assert_eq!(
            ChessVariant::from_uci("kingofthehill"),
            ChessVariant::KingOfTheHill
        );
        assert_eq!(
            ChessVariant::from_uci("racingkings"),
            ChessVariant::RacingKings
        );
        assert_eq!(ChessVariant::from_uci("horde"), ChessVariant::Horde);
        assert!(!ChessVariant::from_uci("makruk").is_supported());
        assert_eq!(
            ChessVariant::from_uci("losers").rules(),
            Some(Variant::Chess)
        );
    }
}
