//! The lichess variants: antichess (and giveaway), atomic, king of the hill, three-check,
//! racing kings, horde and crazyhouse, with the rules python-chess's `chess.variant`
//! publishes.
//!
//! # Why it is built this way
//!
//! * **One type of rules per variant** ([`Antichess`], [`Atomic`], …), each a zero-sized
//!   type implementing [`Variant`]. [`VariantPosition<V>`] is generic over it, so every
//!   rule question (`V::ATOMIC`, `V::is_variant_end`, …) is a constant or a call the
//!   compiler resolves per variant: each variant gets its own monomorphised move generator
//!   with the other variants' branches folded away, and no variant pays a run-time switch.
//! * **The same position representation** as standard chess: [`Board`](crate::Board) for the placement,
//!   [`CastlingRights`](crate::CastlingRights) (Chess960 included, as Atomic960 castling needs), [`Move`](crate::Move) for
//!   moves on the board, and the same attack tables and Polyglot key tables.
//! * **Standard chess pays nothing.** [`Position`](crate::Position) keeps its own
//!   strictly-legal generator and fast paths untouched: its invariants (one king each, no
//!   check left standing) do not hold in antichess or horde, and its hot loops would carry
//!   every variant's test if the variants shared them. The variants' generator is simpler
//!   (pseudo-legal moves filtered by playing them on a copy, which is what atomic's
//!   explosions and racing kings' no-check rule need anyway), and lives here.
//! * **Variant state lives with its variant**: [`Variant::State`] is `()` for most, the
//!   remaining checks for three-check, pockets and the promoted-piece bitboard for
//!   crazyhouse. Standard chess has no such field at all.
//! * Drops, which no standard move is, are a case of [`VariantMove`] rather than a new
//!   [`MoveKind`](crate::MoveKind): the 16-bit `Move` and every `match` on its kind stay
//!   as they are.
//!
//! The definitions followed (published behaviour, not code) are python-chess 1.11.2's:
//! giveaway and antichess are the same rules (antichess starts without castling rights;
//! [`Suicide`] differs only in who wins a stalemate, by counting pieces).
//!
//! ```
//! use shatranj_chess::variant::{Atomic, VariantPosition, perft};
//!
//! let pos = VariantPosition::<Atomic>::new();
//! assert_eq!(perft(&pos, 3), 8_902);
//! let zh: shatranj_chess::variant::CrazyhousePosition =
//!     "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1".parse().unwrap();
//! assert_eq!(zh.legal_moves().len(), 67);
//! ```

mod any;
mod fen;
mod horde_material;
mod movegen;
mod notation;
mod perft;
mod position;
mod rules;

pub use any::AnyVariantPosition;
pub use fen::VariantFenError;
pub use notation::VariantNotationError;
pub use perft::{perft, perft_divide};
pub use position::{VariantMove, VariantOutcome, VariantPosition, VariantTermination};
pub use rules::{
    Antichess, Atomic, Crazyhouse, CrazyhouseState, Giveaway, Horde, KingOfTheHill, RacingKings,
    RemainingChecks, Suicide, ThreeCheck, Variant,
};

pub type AntichessPosition = VariantPosition<Antichess>;
pub type GiveawayPosition = VariantPosition<Giveaway>;
pub type SuicidePosition = VariantPosition<Suicide>;
pub type AtomicPosition = VariantPosition<Atomic>;
pub type KingOfTheHillPosition = VariantPosition<KingOfTheHill>;
pub type ThreeCheckPosition = VariantPosition<ThreeCheck>;
pub type RacingKingsPosition = VariantPosition<RacingKings>;
pub type HordePosition = VariantPosition<Horde>;
pub type CrazyhousePosition = VariantPosition<Crazyhouse>;

/// The variants by name, for callers that choose one at run time (the CLI's
/// `perft --variant`): each name maps to one monomorphised position type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum VariantKind {
    Antichess,
    Giveaway,
    Suicide,
    Atomic,
    KingOfTheHill,
    ThreeCheck,
    RacingKings,
    Horde,
    Crazyhouse,
}

impl VariantKind {
    pub const ALL: [VariantKind; 9] = [
        VariantKind::Antichess,
        VariantKind::Giveaway,
        VariantKind::Suicide,
        VariantKind::Atomic,
        VariantKind::KingOfTheHill,
        VariantKind::ThreeCheck,
        VariantKind::RacingKings,
        VariantKind::Horde,
        VariantKind::Crazyhouse,
    ];

    /// python-chess's `uci_variant` name.
    pub fn uci_name(self) -> &'static str {
        match self {
            VariantKind::Antichess => Antichess::UCI_NAME,
            VariantKind::Giveaway => Giveaway::UCI_NAME,
            VariantKind::Suicide => Suicide::UCI_NAME,
            VariantKind::Atomic => Atomic::UCI_NAME,
            VariantKind::KingOfTheHill => KingOfTheHill::UCI_NAME,
            VariantKind::ThreeCheck => ThreeCheck::UCI_NAME,
            VariantKind::RacingKings => RacingKings::UCI_NAME,
            VariantKind::Horde => Horde::UCI_NAME,
            VariantKind::Crazyhouse => Crazyhouse::UCI_NAME,
        }
    }

    /// Finds a variant by a name python-chess's `find_variant` accepts for it (case
    /// insensitive; the common aliases and the UCI names).
    pub fn from_name(name: &str) -> Option<VariantKind> {
        let n = name.to_ascii_lowercase();
        let kind = match n.as_str() {
            "antichess" | "anti chess" | "anti" => VariantKind::Antichess,
            "giveaway" | "giveaway chess" | "give away" | "give away chess" => {
                VariantKind::Giveaway
            }
            "suicide" | "suicide chess" => VariantKind::Suicide,
            "atomic" | "atom" | "atomic chess" => VariantKind::Atomic,
            "king of the hill" | "koth" | "kingofthehill" => VariantKind::KingOfTheHill,
            "three-check" | "three check" | "threecheck" | "three check chess" | "3-check"
            | "3 check" | "3check" => VariantKind::ThreeCheck,
            "racing kings" | "racing" | "race" | "racingkings" => VariantKind::RacingKings,
            "horde" | "horde chess" => VariantKind::Horde,
            "crazyhouse" | "crazy house" | "house" | "zh" => VariantKind::Crazyhouse,
            _ => return None,
        };
        Some(kind)
    }

    /// The variant's starting FEN (python-chess's `starting_fen`).
    pub fn starting_fen(self) -> &'static str {
        match self {
            VariantKind::Antichess => Antichess::STARTING_FEN,
            VariantKind::Giveaway => Giveaway::STARTING_FEN,
            VariantKind::Suicide => Suicide::STARTING_FEN,
            VariantKind::Atomic => Atomic::STARTING_FEN,
            VariantKind::KingOfTheHill => KingOfTheHill::STARTING_FEN,
            VariantKind::ThreeCheck => ThreeCheck::STARTING_FEN,
            VariantKind::RacingKings => RacingKings::STARTING_FEN,
            VariantKind::Horde => Horde::STARTING_FEN,
            VariantKind::Crazyhouse => Crazyhouse::STARTING_FEN,
        }
    }
}

/// Runs `$body` with `$V` bound to the rules type of `$kind` (one monomorphised copy of
/// `$body` per variant), e.g. `with_variant!(kind, V => perft(&VariantPosition::<V>::new(), 3))`.
#[macro_export]
macro_rules! with_variant {
    ($kind:expr, $V:ident => $body:expr) => {{
        use $crate::variant as __v;
        match $kind {
            __v::VariantKind::Antichess => {
                type $V = __v::Antichess;
                $body
            }
            __v::VariantKind::Giveaway => {
                type $V = __v::Giveaway;
                $body
            }
            __v::VariantKind::Suicide => {
                type $V = __v::Suicide;
                $body
            }
            __v::VariantKind::Atomic => {
                type $V = __v::Atomic;
                $body
            }
            __v::VariantKind::KingOfTheHill => {
                type $V = __v::KingOfTheHill;
                $body
            }
            __v::VariantKind::ThreeCheck => {
                type $V = __v::ThreeCheck;
                $body
            }
            __v::VariantKind::RacingKings => {
                type $V = __v::RacingKings;
                $body
            }
            __v::VariantKind::Horde => {
                type $V = __v::Horde;
                $body
            }
            __v::VariantKind::Crazyhouse => {
                type $V = __v::Crazyhouse;
                $body
            }
        }
    }};
}

#[cfg(test)]
mod tests;
