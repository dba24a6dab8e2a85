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

    /// The twelve bitboards and side to move again (pieces beyond the 32nd are not kept; a
    /// code above 11, which [`check`](Self::check) refuses, is no piece, as in the shaders).
    pub fn to_packed(&self) -> PackedPosition {
        let mut pieces = [0u32; 24];
        for f in self.white_features() {
            let (code, sq) = (f / 64, f % 64);
            if code < 12 {
                pieces[code * 2 + sq / 32] |= 1 << (sq % 32);
            }
        }
        PackedPosition {
            pieces,
            turn: self.flags & 1,
            reserved: [0; 3],
        }
    }

    /// Whether the record is one [`from_position`](Self::from_position) could have written:
    /// at most 32 pieces, each code a piece (0–11), exactly one king a side, no bit set in
    /// the unused nibbles, the flags or the reserved word. Records from outside (a numpy
    /// array) are checked with this before anything reads them.
    pub fn check(&self) -> Result<(), CompactError> {
        let occupied = u64::from(self.occupancy[0]) | u64::from(self.occupancy[1]) << 32;
        let pieces = occupied.count_ones() as usize;
        if pieces > 32 {
            return Err(CompactError::TooManyPieces(pieces));
        }
        if self.flags > 1 || self.reserved != 0 {
            return Err(CompactError::Flags);
        }
        let mut kings = [0u32; 2];
        for k in 0..32 {
            let code = (self.codes[k / 8] >> (4 * (k % 8))) & 15;
            if k >= pieces {
                if code != 0 {
                    return Err(CompactError::UnusedCode { index: k });
                }
            } else if code >= 12 {
                return Err(CompactError::BadCode { index: k, code });
            } else if code % 6 == 5 {
                kings[code as usize / 6] += 1;
            }
        }
        for (color, &count) in Color::ALL.iter().zip(&kings) {
            if count != 1 {
                return Err(CompactError::KingCount {
                    color: *color,
                    count,
                });
            }
        }
        Ok(())
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

/// Why 32 bytes are not a compact position ([`CompactPosition::check`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompactError {
    /// More occupied squares than the 32 codes the record holds.
    TooManyPieces(usize),
    /// A piece code above 11 (`index`: the piece's place in square order).
    BadCode { index: usize, code: u32 },
    /// A code set beyond the last piece.
    UnusedCode { index: usize },
    /// A flag other than bit 0 (Black to move), or the reserved word not zero.
    Flags,
    /// A side without exactly one king.
    KingCount { color: Color, count: u32 },
}

impl std::fmt::Display for CompactError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompactError::TooManyPieces(n) => {
                write!(
                    f,
                    "{n} occupied squares; a compact position holds at most 32"
                )
            }
            CompactError::BadCode { index, code } => {
                write!(f, "piece {index} has code {code}; codes are 0-11")
            }
            CompactError::UnusedCode { index } => {
                write!(f, "code {index} is set but there is no piece {index}")
            }
            CompactError::Flags => {
                f.write_str("the flags word may only be 0 or 1 and the reserved word must be 0")
            }
            CompactError::KingCount { color, count } => {
                write!(f, "{color} has {count} kings; exactly one is required")
            }
        }
    }
}

impl std::error::Error for CompactError {}

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
            from_compact.sort_unstable();
            expected.sort_unstable();
            assert_eq!(from_compact, expected, "{fen}");
        }
        assert_eq!(std::mem::size_of::<CompactPosition>(), 32);
    }

    #[test]
    fn check_accepts_what_positions_give_and_names_each_fault() {
        let pos: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1"
            .parse()
            .unwrap();
        let good = CompactPosition::from_position(&pos);
        assert_eq!(good.check(), Ok(()));
        #[allow(clippy::items_after_statements)] // the type belongs with its table
        type Spoil = fn(&mut CompactPosition);
        let cases: [(Spoil, CompactError); 5] = [
            (|c| c.flags = 2, CompactError::Flags),
            (|c| c.reserved = 1, CompactError::Flags),
            (
                |c| c.codes[0] |= 15,
                CompactError::BadCode { index: 0, code: 15 },
            ),
            // Kiwipete has 32 pieces: drop the last square, and its code is left over.
            (
                |c| c.occupancy[1] &= !(1 << 31),
                CompactError::UnusedCode { index: 31 },
            ),
            // The black king's code (11) becomes a black queen's (10).
            (
                |c| {
                    let k = c.white_features().position(|f| f == 11 * 64 + 60).unwrap();
                    c.codes[k / 8] ^= 1 << (4 * (k % 8));
                },
                CompactError::KingCount {
                    color: Color::Black,
                    count: 0,
                },
            ),
        ];
        for (spoil, expected) in cases {
            let mut c = good;
            spoil(&mut c);
            assert_eq!(c.check(), Err(expected.clone()), "{expected}");
        }
        let mut full = good;
        full.occupancy = [u32::MAX, 1];
        assert_eq!(full.check(), Err(CompactError::TooManyPieces(33)));
    }
}
