//! A position in 32 bytes, as the network's GPU kernel reads it: the occupancy and a 4-bit
//! piece code per occupied square. A third of the 112-byte bitboard record, which matters
//! when the host link, not the GPU, limits how many positions a second can be evaluated.

use crate::eval::packed::PackedPosition;
use bytemuck::{Pod, Zeroable};
use shatranj_chess::{Color, Position, Role};

/// `occupancy`: squares a1–h4 in word 0, a5–h8 in word 1. `codes`: for the occupied squares
/// in increasing order, `colour · 6 + role` (White 0–5, Black 6–11; pawn … king), eight to a
/// word from the low nibble up. `flags` bit 0: Black to move.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct CompactPosition {
    pub occupancy: [u32; 2],
    pub codes: [u32; 4],
    pub flags: u32,
    pub reserved: u32,
}

impl CompactPosition {
    /// From twelve bitboards `[colour][role]` and the side to move.
    pub fn from_bitboards(bb: &[[u64; 6]; 2], black_to_move: bool) -> CompactPosition {
        let mut code_at = [0u8; 64];
        let mut occupied = 0u64;
        for (c, side) in bb.iter().enumerate() {
            for (r, &set) in side.iter().enumerate() {
                occupied |= set;
                let mut s = set;
                while s != 0 {
                    code_at[s.trailing_zeros() as usize] = (c * 6 + r) as u8;
                    s &= s - 1;
                }
            }
        }
        let mut codes = [0u32; 4];
        let mut s = occupied;
        // A legal position has at most 32 pieces; anything beyond the 32nd is not stored.
        for k in 0..32 {
            if s == 0 {
                break;
            }
            let sq = s.trailing_zeros() as usize;
            s &= s - 1;
            codes[k / 8] |= u32::from(code_at[sq]) << (4 * (k % 8));
        }
        CompactPosition {
            occupancy: [occupied as u32, (occupied >> 32) as u32],
            codes,
            flags: u32::from(black_to_move),
            reserved: 0,
        }
    }

    pub fn from_position(pos: &Position) -> CompactPosition {
        let b = pos.board();
        let mut bb = [[0u64; 6]; 2];
        for color in Color::ALL {
            for role in Role::ALL {
                bb[color.index()][role.index()] = (b.by_color(color) & b.by_role(role)).0;
            }
        }
        CompactPosition::from_bitboards(&bb, pos.turn() == Color::Black)
    }

    pub fn from_packed(p: &PackedPosition) -> CompactPosition {
        CompactPosition::from_bitboards(&p.bitboards(), p.turn == 1)
    }

    /// The twelve bitboards and side to move again (pieces beyond the 32nd are not kept).
    pub fn to_packed(&self) -> PackedPosition {
        let mut pieces = [0u32; 24];
        for f in self.white_features() {
            let (code, sq) = (f / 64, f % 64);
            pieces[code * 2 + sq / 32] |= 1 << (sq % 32);
        }
        PackedPosition {
            pieces,
            turn: self.flags & 1,
            reserved: [0; 3],
        }
    }

    pub fn black_to_move(&self) -> bool {
        self.flags & 1 == 1
    }

    /// White-view features of the pieces, in square order.
    pub fn white_features(&self) -> impl Iterator<Item = usize> + '_ {
        let mut occ = u64::from(self.occupancy[0]) | u64::from(self.occupancy[1]) << 32;
        (0..32).map_while(move |k| {
            if occ == 0 {
                return None;
            }
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            let code = (self.codes[k / 8] >> (4 * (k % 8))) & 15;
            Some(64 * code as usize + sq)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::active_features;

    #[test]
    fn a_compact_position_holds_every_piece() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/8/8/8/8/8/8/K6k w - - 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            let c = CompactPosition::from_position(&pos);
            let packed = PackedPosition::from_position(&pos);
            assert_eq!(c, CompactPosition::from_packed(&packed));
            assert_eq!(c.to_packed(), packed);
            assert_eq!(c.black_to_move(), pos.turn() == Color::Black);
            let mut from_compact: Vec<usize> = c.white_features().collect();
            let mut expected = active_features(&pos).0;
            from_compact.sort();
            expected.sort();
            assert_eq!(from_compact, expected, "{fen}");
        }
        assert_eq!(std::mem::size_of::<CompactPosition>(), 32);
    }
}
