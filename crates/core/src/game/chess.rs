//! Chess positions for CECP and UCI sessions, on top of shakmaty.
//!
//! One `ChessBoard` follows one game: it is built from a start position or a FEN (X-FEN,
//! Shredder-FEN, crazyhouse pockets, three-check counters) and accepts moves in every notation
//! that appears on the wire, returning each move in canonical UCI form and in SAN.

mod editor;
mod end;
mod error;
pub(crate) mod fast_legal;
mod giveaway;
pub(crate) mod light;
mod notation;
mod position_cache;
mod variant;

use shakmaty::{
    CastlingMode, Color, EnPassantMode, Move, Position, PositionErrorKinds, Role, Setup, Square,
    fen::Fen,
    san::{San, SanPlus, Suffix},
    uci::UciMove,
    variant::VariantPosition,
    zobrist::Zobrist64,
};

pub use editor::{ChessEditor, EditDiagnostic, EditOutcome};
use end::describe_end;
pub use end::{DrawClaim, EndReason, GameEnd};
pub use error::{BoardError, IllegalMove, IllegalReason};
pub use position_cache::{PositionCache, PositionUpdate, UciPositionError};
pub use variant::ChessVariant;

use super::Side;
use notation::{CecpMove, classify_cecp, normalize_san};

/// A chess position plus what is needed to judge the next move.
#[derive(Debug, Clone, PartialEq)]
pub struct ChessBoard {
    pos: VariantPosition,
    variant: ChessVariant,
    mode: CastlingMode,
    /// Hashes of the positions since the last irreversible move, current one last, for the
    /// threefold-repetition claim.
    history: Vec<Zobrist64>,
    /// Giveaway: the rooks that may still castle (shakmaty's Antichess holds no rights).
    giveaway_castles: shakmaty::Bitboard,
}

/// How the text on the wire spelled a castling move. Protocols fix the spelling (UCI without
/// Chess960: king two squares; with Chess960: king takes rook; CECP FRC: `O-O`), so the
/// session layer compares this with what was negotiated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CastlingNotation {
    KingTwoSquares,
    KingTakesRook,
    San,
}

/// A move the board accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// `None` for a null move.
    pub mv: Option<Move>,
    /// UCI in this board's castling convention (king takes rook in Chess960).
    pub uci: String,
    /// SAN with `+`/`#` suffix, `--` for a null move.
    pub san: String,
    /// Set for castling moves.
    pub castling: Option<CastlingNotation>,
}

fn side_of(color: Color) -> Side {
    match color {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

fn castling_mode(chess960: bool) -> CastlingMode {
    if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

fn position_error_text(kinds: PositionErrorKinds) -> String {
    format!("{kinds:?}")
        .trim_start_matches("PositionErrorKinds(")
        .trim_end_matches(')')
        .to_ascii_lowercase()
        .replace('_', " ")
}

impl ChessBoard {
    fn with_position(pos: VariantPosition, variant: ChessVariant, mode: CastlingMode) -> Self {
        let hash = pos.zobrist_hash(EnPassantMode::Legal);
        ChessBoard {
            pos,
            variant,
            mode,
            history: vec![hash],
            giveaway_castles: shakmaty::Bitboard::EMPTY,
        }
    }

    /// The variant's usual start position. Chess960 starts from the standard array (the GUI
    /// sends the real one); `nocastle` starts without castling rights.
    ///
    /// # Errors
    /// `UnsupportedVariant` for variants shakmaty cannot play.
    pub fn startpos(variant: ChessVariant) -> Result<Self, BoardError> {
        let rules = variant
            .rules()
            .ok_or_else(|| BoardError::UnsupportedVariant(variant.to_string()))?;
        let mode = castling_mode(variant.implies_chess960());
        let mut pos = VariantPosition::new(rules);
        if matches!(variant, ChessVariant::NoCastle) {
            let mut setup = pos.to_setup(EnPassantMode::Legal);
            setup.castling_rights = shakmaty::Bitboard::EMPTY;
            pos = VariantPosition::from_setup(rules, setup, mode)
                .map_err(|e| BoardError::BadPosition(position_error_text(e.kinds())))?;
        }
        let giveaway = variant == ChessVariant::Giveaway;
        let mut board = Self::with_position(pos, variant, mode);
        if giveaway {
            board.giveaway_castles = giveaway::all_rights();
        }
        Ok(board)
    }

    /// Builds a board from a FEN, strictly: any inconsistency is an error.
    ///
    /// # Errors
    /// Malformed FEN, impossible position or unsupported variant.
    pub fn from_fen(fen: &str, variant: ChessVariant, chess960: bool) -> Result<Self, BoardError> {
        Self::build_from_fen(fen, variant, chess960, false).map(|(b, _)| b)
    }

    /// Like [`ChessBoard::from_fen`], but drops castling rights and en-passant squares that
    /// do not fit the position (GUIs send sloppy castling fields) and says what was dropped.
    ///
    /// # Errors
    /// Malformed FEN, impossible position or unsupported variant.
    pub fn from_fen_lenient(
        fen: &str,
        variant: ChessVariant,
        chess960: bool,
    ) -> Result<(Self, Vec<String>), BoardError> {
        Self::build_from_fen(fen, variant, chess960, true)
    }

    fn build_from_fen(
        fen: &str,
        variant: ChessVariant,
        chess960: bool,
        lenient: bool,
    ) -> Result<(Self, Vec<String>), BoardError> {
        let rules = variant
            .rules()
            .ok_or_else(|| BoardError::UnsupportedVariant(variant.to_string()))?;
        let parsed = Fen::from_ascii(fen.trim().as_bytes())
            .map_err(|e| BoardError::BadFen(e.to_string()))?;
        let mode = castling_mode(chess960 || variant.implies_chess960());
        Self::from_setup(parsed.into_setup(), variant, rules, mode, lenient)
    }

    fn from_setup(
        mut setup: Setup,
        variant: ChessVariant,
        rules: shakmaty::variant::Variant,
        mode: CastlingMode,
        lenient: bool,
    ) -> Result<(Self, Vec<String>), BoardError> {
        // Giveaway's castling rights are the board's own: shakmaty's Antichess holds none.
        let mut giveaway_castles = shakmaty::Bitboard::EMPTY;
        let mut giveaway_warning = None;
        if variant == ChessVariant::Giveaway {
            let (kept, dropped) = giveaway::valid_rights(&setup);
            if dropped {
                if !lenient {
                    return Err(BoardError::BadPosition("invalid castling rights".into()));
                }
                giveaway_warning = Some("ignored invalid castling rights".to_owned());
            }
            giveaway_castles = kept;
            setup.castling_rights = shakmaty::Bitboard::EMPTY;
        }
        let (mut board, mut warnings) =
            Self::position_from_setup(setup, variant, rules, mode, lenient)?;
        board.giveaway_castles = giveaway_castles;
        warnings.extend(giveaway_warning);
        Ok((board, warnings))
    }

    fn position_from_setup(
        setup: Setup,
        variant: ChessVariant,
        rules: shakmaty::variant::Variant,
        mode: CastlingMode,
        lenient: bool,
    ) -> Result<(Self, Vec<String>), BoardError> {
        let mut result = VariantPosition::from_setup(rules, setup, mode);
        if variant == ChessVariant::Bughouse {
            // Pieces arrive from the partner's board: material counts prove nothing.
            result = result.or_else(shakmaty::PositionError::ignore_too_much_material);
        }
        match result {
            Ok(pos) => Ok((Self::with_position(pos, variant, mode), Vec::new())),
            Err(err) => {
                let kinds = err.kinds();
                let forgivable = PositionErrorKinds::INVALID_CASTLING_RIGHTS
                    | PositionErrorKinds::INVALID_EP_SQUARE;
                if !lenient || !(kinds - forgivable).is_empty() {
                    return Err(BoardError::BadPosition(position_error_text(kinds)));
                }
                let warnings = vec![format!("ignored {}", position_error_text(kinds))];
                let pos = err
                    .ignore_invalid_castling_rights()
                    .or_else(shakmaty::PositionError::ignore_invalid_ep_square)
                    .map_err(|e| BoardError::BadPosition(position_error_text(e.kinds())))?;
                Ok((Self::with_position(pos, variant, mode), warnings))
            }
        }
    }

    /// X-FEN (Shredder file letters only where `KQkq` would be ambiguous), with `[pockets]`
    /// for crazyhouse and `+w+b` check counters for three-check.
    #[must_use]
    pub fn fen(&self) -> String {
        if let Some(fen) = self.giveaway_fen() {
            return fen;
        }
        Fen::from_position(&self.pos, EnPassantMode::Legal).to_string()
    }

    #[must_use]
    pub fn turn(&self) -> Side {
        side_of(self.pos.turn())
    }

    #[must_use]
    pub fn fullmove(&self) -> u32 {
        self.pos.fullmoves().get()
    }

    /// Half-moves since the last capture or pawn move.
    #[must_use]
    pub fn halfmove_clock(&self) -> u32 {
        self.pos.halfmoves()
    }

    #[must_use]
    pub fn is_chess960(&self) -> bool {
        self.mode == CastlingMode::Chess960
    }

    #[must_use]
    pub fn variant(&self) -> &ChessVariant {
        &self.variant
    }

    /// The underlying shakmaty position, for callers that need more than this API offers.
    #[must_use]
    pub fn position(&self) -> &VariantPosition {
        &self.pos
    }

    #[must_use]
    pub fn is_check(&self) -> bool {
        self.pos.is_check()
    }

    /// Legal moves in this board's UCI convention.
    #[must_use]
    pub fn legal_moves_uci(&self) -> Vec<String> {
        let mut moves: Vec<String> = self
            .legal_moves()
            .into_iter()
            .map(|m| m.to_uci(self.mode).to_string())
            .collect();
        moves.extend(self.giveaway_castles_uci());
        moves
    }

    fn legal_moves(&self) -> shakmaty::MoveList {
        let mut moves = self.pos.legal_moves();
        if self.variant == ChessVariant::Losers && moves.iter().any(|m| m.is_capture()) {
            moves.retain(|m| m.is_capture());
        }
        moves
    }

    /// Replaces both crazyhouse pockets, as the CECP `holding [PNB] [pq]` command does in
    /// bughouse. Letters other than `PNBRQ` (either case) are an error.
    ///
    /// # Errors
    /// The variant has no pockets, or the holding text has foreign letters.
    pub fn set_holdings(&mut self, white: &str, black: &str) -> Result<(), BoardError> {
        if self.pos.pockets().is_none() {
            return Err(BoardError::BadPosition(format!(
                "{} has no pockets",
                self.variant
            )));
        }
        let mut setup = self.pos.to_setup(EnPassantMode::Always);
        let mut pockets = shakmaty::ByColor::<shakmaty::ByRole<u8>>::default();
        for (color, text) in [(Color::White, white), (Color::Black, black)] {
            for ch in text.chars().filter(|c| !matches!(c, '[' | ']' | ' ')) {
                let role = Role::from_char(ch)
                    .filter(|r| *r != Role::King)
                    .ok_or_else(|| BoardError::BadPosition(format!("bad holding piece {ch:?}")))?;
                let count = pockets.get_mut(color).get_mut(role);
                *count = count.saturating_add(1);
            }
        }
        setup.pockets = Some(pockets);
        let rules = self.pos.variant();
        let (board, _) = Self::from_setup(setup, self.variant.clone(), rules, self.mode, true)?;
        self.pos = board.pos;
        Ok(())
    }

    /// Plays a UCI move: `e2e4`, `e7e8q`, `P@e4`, `0000`, castling as `e1g1` or `e1h1`.
    ///
    /// # Errors
    /// Unparsable or illegal moves, with the reason.
    pub fn play_uci(&mut self, text: &str) -> Result<Played, IllegalMove> {
        let t = text.trim();
        let uci = UciMove::from_ascii(t.as_bytes())
            .map_err(|_| IllegalMove::new(t, IllegalReason::Syntax))?;
        self.play_uci_move(t, uci)
    }

    /// Plays a SAN move: `Nf3`, `exd5`, `e8=Q`, `O-O`, `0-0`, `P@e4`, with or without `+`/`#`.
    ///
    /// # Errors
    /// Unparsable, ambiguous or illegal moves, with the reason.
    pub fn play_san(&mut self, text: &str) -> Result<Played, IllegalMove> {
        let t = text.trim();
        let normalized = normalize_san(t);
        let san = SanPlus::from_ascii(normalized.as_bytes())
            .map_err(|_| IllegalMove::new(t, IllegalReason::Syntax))?
            .san;
        self.play_san_move(t, san)
    }

    /// Plays a move as a CECP GUI or engine may send it: coordinate (`e2e4`, `e7e8q`,
    /// `e7e8=q`), SAN, `O-O`, drops, `@@@@` null moves. Multi-leg moves (`c4d5,d5e4`) belong to
    /// fairy variants and are reported as not modelled.
    ///
    /// # Errors
    /// Unparsable, illegal or unmodelled moves, with the reason.
    pub fn play_cecp(&mut self, text: &str) -> Result<Played, IllegalMove> {
        let t = text.trim();
        match classify_cecp(t) {
            CecpMove::MultiLeg => Err(IllegalMove::new(
                t,
                IllegalReason::NotModelled("multi-leg move".into()),
            )),
            CecpMove::Coordinate(uci) => self.play_uci_move(t, uci),
            CecpMove::San => self.play_san(t),
        }
    }

    fn play_uci_move(&mut self, text: &str, uci: UciMove) -> Result<Played, IllegalMove> {
        if let UciMove::Normal { from, to, .. } = uci
            && let Some(castle) = self.giveaway_castle(text, from, to)
        {
            let notation = if self.pos.board().piece_at(to).is_some() {
                CastlingNotation::KingTakesRook
            } else {
                CastlingNotation::KingTwoSquares
            };
            return self.play_giveaway_castle(castle, notation);
        }
        let m = self.resolve_uci(text, uci)?;
        let castling = m.and_then(|m| match (m, uci) {
            (Move::Castle { rook, .. }, UciMove::Normal { to, .. }) => Some(if to == rook {
                CastlingNotation::KingTakesRook
            } else {
                CastlingNotation::KingTwoSquares
            }),
            _ => None,
        });
        Ok(self.apply(m, castling))
    }

    fn play_san_move(&mut self, text: &str, san: San) -> Result<Played, IllegalMove> {
        if let San::Castle(side) = san
            && let Some(castle) = self.giveaway_castle_san(text, side)
        {
            return self.play_giveaway_castle(castle, CastlingNotation::San);
        }
        let m = if san == San::Null {
            self.check_null(text)?;
            None
        } else {
            let m = san
                .to_move(&self.pos)
                .map_err(|e| self.explain_san(text, san, e))?;
            self.check_must_capture(text, m)?;
            Some(m)
        };
        let castling = m.filter(|m| m.is_castle()).map(|_| CastlingNotation::San);
        Ok(self.apply(m, castling))
    }

    /// `Ok(None)` is a legal null move.
    fn resolve_uci(&self, text: &str, uci: UciMove) -> Result<Option<Move>, IllegalMove> {
        if uci == UciMove::Null {
            self.check_null(text)?;
            return Ok(None);
        }
        // The usual move is decided without shakmaty's move generation (same verdict when it
        // decides, tested against shakmaty).
        let fast = match &self.pos {
            VariantPosition::Chess(c) => fast_legal::ordinary_move(c, &uci),
            _ => None,
        };
        let m = match fast {
            Some(m) => m,
            None => uci
                .to_move(&self.pos)
                .map_err(|_| IllegalMove::new(text, self.explain_uci(uci)))?,
        };
        self.check_must_capture(text, m)?;
        Ok(Some(m))
    }

    fn check_null(&self, text: &str) -> Result<(), IllegalMove> {
        if self.pos.is_check() {
            return Err(IllegalMove::new(text, IllegalReason::NullInCheck));
        }
        if let Some(end) = self.outcome() {
            return Err(IllegalMove::new(
                text,
                IllegalReason::GameOver(describe_end(end)),
            ));
        }
        Ok(())
    }

    fn check_must_capture(&self, text: &str, m: Move) -> Result<(), IllegalMove> {
        if self.variant == ChessVariant::Losers
            && !m.is_capture()
            && !self.pos.capture_moves().is_empty()
        {
            return Err(IllegalMove::new(text, IllegalReason::MustCapture));
        }
        Ok(())
    }

    fn apply(&mut self, m: Option<Move>, castling: Option<CastlingNotation>) -> Played {
        match m {
            Some(m) => {
                self.giveaway_after(&m);
                // Written straight into right-sized strings: `to_string` would go through the
                // formatter and grow the string a byte at a time.
                let mut uci = String::with_capacity(5);
                m.to_uci(self.mode).append_to_string(&mut uci);
                if self.pos.is_irreversible(m) {
                    self.history.clear();
                }
                let mut san = String::with_capacity(8);
                san_and_play(&mut self.pos, m).append_to_string(&mut san);
                // shakmaty writes pawn drops as `@e4`; CECP and PGN tools write `P@e4`.
                if san.starts_with('@') {
                    san.insert(0, 'P');
                }
                self.history
                    .push(self.pos.zobrist_hash(EnPassantMode::Legal));
                Played {
                    mv: Some(m),
                    uci,
                    san,
                    castling,
                }
            }
            None => {
                if let Some(pos) = null_moved(&self.pos, self.mode) {
                    self.pos = pos;
                }
                self.history.clear();
                self.history
                    .push(self.pos.zobrist_hash(EnPassantMode::Legal));
                Played {
                    mv: None,
                    uci: "0000".into(),
                    san: "--".into(),
                    castling: None,
                }
            }
        }
    }

    fn explain_uci(&self, uci: UciMove) -> IllegalReason {
        match uci {
            UciMove::Normal { from, .. } => {
                let Some(piece) = self.pos.board().piece_at(from) else {
                    return IllegalReason::NoPiece(from.to_string());
                };
                if piece.color != self.pos.turn() {
                    return IllegalReason::WrongColour {
                        square: from.to_string(),
                        owner: side_of(piece.color).to_string(),
                        turn: self.turn().to_string(),
                    };
                }
                self.generic_reason()
            }
            UciMove::Put { role, .. } => self.drop_reason(role),
            UciMove::Null => IllegalReason::NullInCheck,
        }
    }

    fn explain_san(&self, text: &str, san: San, err: shakmaty::san::SanError) -> IllegalMove {
        let reason = match (san, err) {
            (_, shakmaty::san::SanError::AmbiguousSan) => IllegalReason::Ambiguous(text.into()),
            (San::Put { role, .. }, _) => self.drop_reason(role),
            _ => self.generic_reason(),
        };
        IllegalMove::new(text, reason)
    }

    fn drop_reason(&self, role: Role) -> IllegalReason {
        if self.pos.pockets().is_none() {
            IllegalReason::DropNotInVariant
        } else {
            IllegalReason::BadDrop(format!("{role:?}").to_ascii_lowercase())
        }
    }

    fn generic_reason(&self) -> IllegalReason {
        match self.outcome() {
            Some(end) => IllegalReason::GameOver(describe_end(end)),
            None => IllegalReason::NotLegal {
                in_check: self.pos.is_check(),
            },
        }
    }

    /// Checks that a line of UCI moves (a PV) is playable from here without changing the
    /// board. Returns the number of moves, or the index and reason of the first bad one.
    /// Clones the position once and computes no SAN: this runs on every `info ... pv` line.
    ///
    /// # Errors
    /// `(index, reason)` of the first illegal move.
    pub fn check_line<'a>(
        &self,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<usize, (usize, IllegalMove)> {
        let mut probe = self.probe();
        let mut count = 0;
        for (index, text) in moves.into_iter().enumerate() {
            let uci = UciMove::from_ascii(text.as_bytes())
                .map_err(|_| (index, IllegalMove::new(text, IllegalReason::Syntax)))?;
            let m = match uci {
                UciMove::Normal { from, to, .. } => probe.giveaway_castle(text, from, to),
                _ => None,
            };
            let m = match m {
                Some(castle) => Some(castle.map_err(|e| (index, e))?),
                None => probe.resolve_uci(text, uci).map_err(|e| (index, e))?,
            };
            match m {
                Some(m) => {
                    probe.giveaway_after(&m);
                    probe.pos.play_unchecked(m);
                }
                None => {
                    if let Some(pos) = null_moved(&probe.pos, probe.mode) {
                        probe.pos = pos;
                    }
                }
            }
            count += 1;
        }
        Ok(count)
    }

    /// A copy for trying moves: the position only, no repetition history to allocate.
    fn probe(&self) -> ChessBoard {
        ChessBoard {
            pos: self.pos.clone(),
            variant: self.variant.clone(),
            mode: self.mode,
            history: Vec::new(),
            giveaway_castles: self.giveaway_castles,
        }
    }

    /// Like [`ChessBoard::check_line`] for CECP thinking output, whose PV is free text:
    /// move numbers (`12.`, `12...`, `1.e4`) are skipped, moves may be SAN or coordinate, and
    /// the first token that is no move at all ends them (PolyGlot, for one, relays an
    /// engine's `info string` as a thinking line). Returns the number of moves; the index in
    /// the error counts moves, not tokens.
    ///
    /// # Errors
    /// `(index, reason)` of the first move-shaped token that cannot be played.
    pub fn check_line_cecp<'a>(
        &self,
        tokens: impl IntoIterator<Item = &'a str>,
    ) -> Result<usize, (usize, IllegalMove)> {
        let mut probe = self.probe();
        let mut count = 0;
        for token in tokens {
            let text = strip_move_number(token);
            if text.is_empty() {
                continue;
            }
            match probe.play_cecp(text) {
                Ok(_) => count += 1,
                Err(e) if e.reason == IllegalReason::Syntax => break,
                Err(e) => return Err((count, e)),
            }
        }
        Ok(count)
    }

    /// Replays a UCI `position [startpos | fen F] moves ...` command from scratch.
    ///
    /// # Errors
    /// A bad start FEN, or the index and reason of the first illegal move.
    pub fn from_uci_position(
        start: Option<&str>,
        moves: &[&str],
        variant: ChessVariant,
        chess960: bool,
    ) -> Result<(ChessBoard, Vec<Played>), UciPositionError> {
        let mut board = match start {
            Some(fen) => ChessBoard::from_fen(fen, variant, chess960),
            None => ChessBoard::startpos_with_mode(variant, chess960),
        }
        .map_err(UciPositionError::Start)?;
        let mut played = Vec::with_capacity(moves.len());
        for (index, text) in moves.iter().enumerate() {
            let p = board
                .play_uci(text)
                .map_err(|error| UciPositionError::Move { index, error })?;
            played.push(p);
        }
        Ok((board, played))
    }

    /// Start position, with Chess960 castling when the session negotiated it (UCI_Chess960).
    ///
    /// # Errors
    /// `UnsupportedVariant` for variants shakmaty cannot play.
    pub fn startpos_with_mode(variant: ChessVariant, chess960: bool) -> Result<Self, BoardError> {
        let mut board = Self::startpos(variant)?;
        if chess960 {
            board.mode = CastlingMode::Chess960;
        }
        Ok(board)
    }

    /// Square of the side to move's king, if any (horde and antichess may have none).
    #[must_use]
    pub fn king_square(&self) -> Option<Square> {
        self.pos.board().king_of(self.pos.turn())
    }
}

/// `12.e4` -> `e4`, `12...` -> ``, but `0-0` stays (digits must be followed by a dot).
fn strip_move_number(token: &str) -> &str {
    let after_digits = token.trim_start_matches(|c: char| c.is_ascii_digit());
    if after_digits.len() < token.len() && after_digits.starts_with('.') {
        after_digits.trim_start_matches('.')
    } else {
        token
    }
}

/// The SAN of `m` with its `+`/`#` suffix, playing it. Same as shakmaty's
/// `SanPlus::from_move_and_play_unchecked`, whose suffix lists every legal move after every
/// move to tell mate from check; in standard chess a position without check needs no look,
/// and one ordinary legal move rules out mate (tested against shakmaty).
fn san_and_play(pos: &mut VariantPosition, m: Move) -> SanPlus {
    let san = San::from_move(&*pos, m);
    pos.play_unchecked(m);
    let suffix = match pos {
        VariantPosition::Chess(c) if c.checkers().is_empty() => None,
        VariantPosition::Chess(c) if fast_legal::has_ordinary_move(c) => Some(Suffix::Check),
        _ => Suffix::from_position(&*pos),
    };
    SanPlus { san, suffix }
}

/// The position with the other side to move and no en-passant square; `None` if shakmaty
/// refuses it (it never should for a position that was legal with the side to move not in
/// check).
fn null_moved(pos: &VariantPosition, mode: CastlingMode) -> Option<VariantPosition> {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    let black_moved = setup.turn == Color::Black;
    setup.swap_turn();
    setup.halfmoves = setup.halfmoves.saturating_add(1);
    if black_moved {
        setup.fullmoves = setup.fullmoves.saturating_add(1);
    }
    VariantPosition::from_setup(pos.variant(), setup, mode).ok()
}

#[cfg(test)]
mod tests;
