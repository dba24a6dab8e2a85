//! `AnyVariant`: one enum over the monomorphised `VariantPosition<V>` of every variant, and
//! the conversions between the rules crate's `VariantMove` and python-chess's move keys.
//!
//! Why an enum rather than one pyclass per variant: python-chess's variant boards share one
//! API and differ only in rules, so one native class with one `match` per call keeps every
//! method written once (`on_variant!`), while each arm still runs its variant's own
//! monomorphised generator; the Python classes (`shatranj.variant`) only name the variant.

use crate::rules::moves::{drop_key, key_of, make_key};
use shatranj_chess::CastlingMode;
use shatranj_chess::castling::CastlingSide;
use shatranj_chess::variant::{
    Antichess, Atomic, Crazyhouse, Giveaway, Horde, KingOfTheHill, RacingKings, Suicide,
    ThreeCheck, Variant, VariantFenError, VariantKind, VariantMove, VariantPosition,
};

/// A position of one of the variants.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum AnyVariant {
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

/// Runs `$body` with `$p` bound to the position inside `$any` (a reference or a mutable
/// one), whatever its variant: one monomorphised copy of `$body` per variant.
macro_rules! on_variant {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::variant::position::AnyVariant::Antichess($p) => $body,
            $crate::variant::position::AnyVariant::Giveaway($p) => $body,
            $crate::variant::position::AnyVariant::Suicide($p) => $body,
            $crate::variant::position::AnyVariant::Atomic($p) => $body,
            $crate::variant::position::AnyVariant::KingOfTheHill($p) => $body,
            $crate::variant::position::AnyVariant::ThreeCheck($p) => $body,
            $crate::variant::position::AnyVariant::RacingKings($p) => $body,
            $crate::variant::position::AnyVariant::Horde($p) => $body,
            $crate::variant::position::AnyVariant::Crazyhouse($p) => $body,
        }
    };
}
pub(crate) use on_variant;

fn parse<V: Variant>(
    fen: &str,
    mode: CastlingMode,
) -> Result<(VariantPosition<V>, Option<VariantFenError>), VariantFenError> {
    VariantPosition::<V>::from_fen_unchecked(fen, mode)
}

impl AnyVariant {
    /// Reads `fen` as a position of `kind`, keeping one the variant's validity rules refuse
    /// (with the reason), as python-chess's boards do.
    pub fn from_fen(
        kind: VariantKind,
        fen: &str,
        chess960: bool,
    ) -> Result<(AnyVariant, Option<VariantFenError>), VariantFenError> {
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        Ok(match kind {
            VariantKind::Antichess => {
                let (p, e) = parse(fen, mode)?;
                (AnyVariant::Antichess(p), e)
            }
            VariantKind::Giveaway => {
                let (p, e) = parse(fen, mode)?;
                (AnyVariant::Giveaway(p), e)
            }
            VariantKind::Suicide => {
                let (p, e) = parse(fen, mode)?;
                (AnyVariant::Suicide(p), e)
            }
            VariantKind::Atomic => {
                let (p, e) = parse(fen, mode)?;
                (AnyVariant::Atomic(p), e)
            }
            VariantKind::KingOfTheHill => {
                let (p, e) = parse(fen, mode)?;
                (AnyVariant::KingOfTheHill(p), e)
            }
            VariantKind::ThreeCheck => {
                let (p, e) = parse(fen, mode)?;
                (AnyVariant::ThreeCheck(p), e)
            }
            VariantKind::RacingKings => {
                let (p, e) = parse(fen, mode)?;
                (AnyVariant::RacingKings(p), e)
            }
            VariantKind::Horde => {
                let (p, e) = parse(fen, mode)?;
                (AnyVariant::Horde(p), e)
            }
            VariantKind::Crazyhouse => {
                let (p, e) = parse(fen, mode)?;
                (AnyVariant::Crazyhouse(p), e)
            }
        })
    }

    pub fn kind(&self) -> VariantKind {
        match self {
            AnyVariant::Antichess(_) => VariantKind::Antichess,
            AnyVariant::Giveaway(_) => VariantKind::Giveaway,
            AnyVariant::Suicide(_) => VariantKind::Suicide,
            AnyVariant::Atomic(_) => VariantKind::Atomic,
            AnyVariant::KingOfTheHill(_) => VariantKind::KingOfTheHill,
            AnyVariant::ThreeCheck(_) => VariantKind::ThreeCheck,
            AnyVariant::RacingKings(_) => VariantKind::RacingKings,
            AnyVariant::Horde(_) => VariantKind::Horde,
            AnyVariant::Crazyhouse(_) => VariantKind::Crazyhouse,
        }
    }
}

/// python-chess's key of `m` (see `rules::moves`): castling as the king's move, or as the
/// king taking its rook in a Chess960 position; a drop with its flag.
pub fn key_of_move<V: Variant>(pos: &VariantPosition<V>, m: VariantMove) -> u16 {
    match m {
        VariantMove::Drop { role, to } => drop_key(role, to),
        VariantMove::Board(mv) if mv.is_castle() && pos.castling_mode().is_chess960() => {
            make_key(mv.from(), castling_rook(pos, mv.to()), None)
        }
        VariantMove::Board(mv) => key_of(mv),
    }
}

fn castling_rook<V: Variant>(
    pos: &VariantPosition<V>,
    king_to: shatranj_chess::Square,
) -> shatranj_chess::Square {
    let side = CastlingSide::of_king_to(king_to);
    pos.castling_rights()
        .rook_square(pos.turn(), side)
        .unwrap_or_else(|| side.rook_from(pos.turn()))
}

/// The move of `moves` that python-chess's `key` names: its own key, or for castling the
/// other form (python-chess reads `e1h1` as castling in standard chess, and a Chess960
/// board accepts the king's destination too).
pub fn find<V: Variant>(
    pos: &VariantPosition<V>,
    moves: &[VariantMove],
    key: u16,
) -> Option<VariantMove> {
    moves.iter().copied().find(|&m| {
        if key_of_move(pos, m) == key {
            return true;
        }
        match m {
            VariantMove::Board(mv) if mv.is_castle() => {
                key == make_key(mv.from(), mv.to(), None)
                    || key == make_key(mv.from(), castling_rook(pos, mv.to()), None)
            }
            _ => false,
        }
    })
}
