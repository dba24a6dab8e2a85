//! [`AnyVariantPosition`]: a position of a variant chosen at run time, for callers that learn
//! the variant from data (a PGN file's `Variant` tag) rather than from a type.
//!
//! Each arm holds its variant's monomorphised [`VariantPosition<V>`], so a move generated
//! here runs that variant's own generator; the one `match` per call is small next to a
//! variant's move generation (pseudo-legal moves filtered by playing them).

use super::notation::VariantNotationError;
use super::position::{VariantMove, VariantPosition};
use super::rules::{
    Antichess, Atomic, Crazyhouse, Giveaway, Horde, KingOfTheHill, RacingKings, Suicide,
    ThreeCheck, Variant,
};
use super::{VariantFenError, VariantKind};
use crate::Color;
use crate::castling::CastlingMode;
use crate::san::SanError;

/// A position of one of the variants, the variant chosen at run time.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AnyVariantPosition {
    Antichess(VariantPosition<Antichess>),
    Giveaway(VariantPosition<Giveaway>),
    Suicide(VariantPosition<Suicide>),
    Atomic(VariantPosition<Atomic>),
    KingOfTheHill(VariantPosition<KingOfTheHill>),
    ThreeCheck(VariantPosition<ThreeCheck>),
    RacingKings(VariantPosition<RacingKings>),
    Horde(VariantPosition<Horde>),
    Crazyhouse(VariantPosition<Crazyhouse>),
}

impl AnyVariantPosition {
    /// The starting position of `kind`.
    pub fn new(kind: VariantKind) -> AnyVariantPosition {
        AnyVariantPosition::from_fen_with(kind, kind.starting_fen(), CastlingMode::Standard)
            .expect("the variants' starting FENs are constants of this crate, checked by its tests")
    }

    /// Reads a FEN of `kind` with castling in `mode` (see [`VariantPosition::from_fen_with`]).
    pub fn from_fen_with(
        kind: VariantKind,
        fen: &str,
        mode: CastlingMode,
    ) -> Result<AnyVariantPosition, VariantFenError> {
        use AnyVariantPosition as A;
        Ok(match kind {
            VariantKind::Antichess => A::Antichess(VariantPosition::from_fen_with(fen, mode)?),
            VariantKind::Giveaway => A::Giveaway(VariantPosition::from_fen_with(fen, mode)?),
            VariantKind::Suicide => A::Suicide(VariantPosition::from_fen_with(fen, mode)?),
            VariantKind::Atomic => A::Atomic(VariantPosition::from_fen_with(fen, mode)?),
            VariantKind::KingOfTheHill => {
                A::KingOfTheHill(VariantPosition::from_fen_with(fen, mode)?)
            }
            VariantKind::ThreeCheck => A::ThreeCheck(VariantPosition::from_fen_with(fen, mode)?),
            VariantKind::RacingKings => A::RacingKings(VariantPosition::from_fen_with(fen, mode)?),
            VariantKind::Horde => A::Horde(VariantPosition::from_fen_with(fen, mode)?),
            VariantKind::Crazyhouse => A::Crazyhouse(VariantPosition::from_fen_with(fen, mode)?),
        })
    }

    /// Reads a FEN of `kind` as python-chess's variant boards do: a position the variant's
    /// validity rules refuse is kept, with the reason beside it (see
    /// [`VariantPosition::from_fen_unchecked`]).
    pub fn from_fen_unchecked(
        kind: VariantKind,
        fen: &str,
        mode: CastlingMode,
    ) -> Result<(AnyVariantPosition, Option<VariantFenError>), VariantFenError> {
        use AnyVariantPosition as A;
        type Read = Result<(AnyVariantPosition, Option<VariantFenError>), VariantFenError>;
        fn read<V: Variant>(
            fen: &str,
            mode: CastlingMode,
            arm: fn(VariantPosition<V>) -> AnyVariantPosition,
        ) -> Read {
            let (pos, problem) = VariantPosition::<V>::from_fen_unchecked(fen, mode)?;
            Ok((arm(pos), problem))
        }
        match kind {
            VariantKind::Antichess => read(fen, mode, A::Antichess),
            VariantKind::Giveaway => read(fen, mode, A::Giveaway),
            VariantKind::Suicide => read(fen, mode, A::Suicide),
            VariantKind::Atomic => read(fen, mode, A::Atomic),
            VariantKind::KingOfTheHill => read(fen, mode, A::KingOfTheHill),
            VariantKind::ThreeCheck => read(fen, mode, A::ThreeCheck),
            VariantKind::RacingKings => read(fen, mode, A::RacingKings),
            VariantKind::Horde => read(fen, mode, A::Horde),
            VariantKind::Crazyhouse => read(fen, mode, A::Crazyhouse),
        }
    }

    /// Reads a FEN of `kind` as python-chess's variant boards in a PGN game are set up:
    /// castling rights as X-FEN or Shredder-FEN, and in Chess960 mode only when they are
    /// not standard chess's (kings on e1/e8, rooks in the corners) or `chess960` says so.
    pub fn from_fen_detecting_960(
        kind: VariantKind,
        fen: &str,
        chess960: bool,
    ) -> Result<AnyVariantPosition, VariantFenError> {
        let pos = AnyVariantPosition::from_fen_with(kind, fen, CastlingMode::Chess960)?;
        if chess960 || !crate::on_any_variant!(&pos, p => p.castling_rights().is_standard()) {
            Ok(pos)
        } else {
            AnyVariantPosition::from_fen_with(kind, fen, CastlingMode::Standard)
        }
    }

    pub fn kind(&self) -> VariantKind {
        match self {
            AnyVariantPosition::Antichess(_) => VariantKind::Antichess,
            AnyVariantPosition::Giveaway(_) => VariantKind::Giveaway,
            AnyVariantPosition::Suicide(_) => VariantKind::Suicide,
            AnyVariantPosition::Atomic(_) => VariantKind::Atomic,
            AnyVariantPosition::KingOfTheHill(_) => VariantKind::KingOfTheHill,
            AnyVariantPosition::ThreeCheck(_) => VariantKind::ThreeCheck,
            AnyVariantPosition::RacingKings(_) => VariantKind::RacingKings,
            AnyVariantPosition::Horde(_) => VariantKind::Horde,
            AnyVariantPosition::Crazyhouse(_) => VariantKind::Crazyhouse,
        }
    }

    pub fn fen(&self) -> String {
        crate::on_any_variant!(self, p => p.fen())
    }

    pub fn turn(&self) -> Color {
        crate::on_any_variant!(self, p => p.turn())
    }

    pub fn fullmove_number(&self) -> u32 {
        crate::on_any_variant!(self, p => p.fullmove_number())
    }

    pub fn castling_mode(&self) -> CastlingMode {
        crate::on_any_variant!(self, p => p.castling_mode())
    }

    pub fn is_check(&self) -> bool {
        crate::on_any_variant!(self, p => p.is_check())
    }

    pub fn legal_moves(&self) -> Vec<VariantMove> {
        crate::on_any_variant!(self, p => p.legal_moves())
    }

    pub fn is_legal(&self, m: VariantMove) -> bool {
        crate::on_any_variant!(self, p => p.is_legal(m))
    }

    /// See [`VariantPosition::resolve_san`].
    pub fn resolve_san(&self, text: &str) -> Result<VariantMove, SanError> {
        crate::on_any_variant!(self, p => p.resolve_san(text))
    }

    /// See [`VariantPosition::san`].
    pub fn san(&self, m: VariantMove) -> String {
        crate::on_any_variant!(self, p => p.san(m))
    }

    pub fn to_uci(&self, m: VariantMove) -> String {
        crate::on_any_variant!(self, p => p.to_uci(m))
    }

    /// See [`VariantPosition::play_unchecked`].
    pub fn play_unchecked(&mut self, m: VariantMove) {
        crate::on_any_variant!(self, p => p.play_unchecked(m));
    }

    /// Plays `m` if it is legal here.
    pub fn play(&mut self, m: VariantMove) -> Result<(), VariantNotationError> {
        if !self.is_legal(m) {
            return Err(VariantNotationError::IllegalMove {
                text: self.to_uci(m),
                fen: self.fen(),
            });
        }
        self.play_unchecked(m);
        Ok(())
    }
}

/// Runs `$body` with `$p` bound to the [`VariantPosition`] inside an [`AnyVariantPosition`]
/// (a reference or a mutable one), one monomorphised copy of `$body` per variant.
#[macro_export]
macro_rules! on_any_variant {
    ($any:expr, $p:ident => $body:expr) => {{
        use $crate::variant::AnyVariantPosition as __A;
        match $any {
            __A::Antichess($p) => $body,
            __A::Giveaway($p) => $body,
            __A::Suicide($p) => $body,
            __A::Atomic($p) => $body,
            __A::KingOfTheHill($p) => $body,
            __A::ThreeCheck($p) => $body,
            __A::RacingKings($p) => $body,
            __A::Horde($p) => $body,
            __A::Crazyhouse($p) => $body,
        }
    }};
}
