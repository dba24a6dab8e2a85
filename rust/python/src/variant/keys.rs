//! python-chess's move keys (see `rules::moves`) of the rules crate's `VariantMove`, and
//! back: the one thing about a variant move the boundary adds. The position itself is the
//! rules crate's `AnyVariantPosition`, each method dispatched with `on_any_variant!`.

use crate::rules::moves::{drop_key, key_of, make_key};
use shatranj_chess::castling::CastlingSide;
use shatranj_chess::variant::{Variant, VariantMove, VariantPosition};

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
