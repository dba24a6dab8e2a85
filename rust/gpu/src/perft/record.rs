//! The shader's position record and the slider rays it reads: the one place where a CPU
//! [`Position`] becomes what `shaders/perft.wgsl` expects.

use bytemuck::{Pod, Zeroable};
#[cfg(test)]
use shatranj_chess::Square;
use shatranj_chess::{CastlingSide, Color, Position, Role};

/// One position as `shaders/perft.wgsl` stores it (64 bytes): bitboards of pawns, knights,
/// bishops, rooks, queens and kings, then White's men; `flags` (bit 0: Black to move; bits
/// 1–4: castling rights White king side, White queen side, Black king side, Black queen side;
/// bits 8–15: the en-passant target square, 0 for none; bits 16–27: the files of those four
/// rights' rooks, three bits each, 0 where the right is gone, so that Chess960 castles too)
/// and `origin`, the index of the root move the position descends from (its leaves are added
/// to that move's count).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct GpuPosition {
    pub bitboards: [u64; 7],
    pub flags: u32,
    pub origin: u32,
}

impl GpuPosition {
    /// `pos` as the shader's record, with leaves counted for root move `origin`.
    pub fn new(pos: &Position, origin: u32) -> GpuPosition {
        let board = pos.board();
        let mut bitboards = [0u64; 7];
        for role in Role::ALL {
            bitboards[role as usize - 1] = board.by_role(role).0;
        }
        bitboards[6] = board.by_color(Color::White).0;
        let rights = pos.castling_rights();
        let mut flags = u32::from(pos.turn() == Color::Black);
        for (r, color, side) in [
            (0, Color::White, CastlingSide::KingSide),
            (1, Color::White, CastlingSide::QueenSide),
            (2, Color::Black, CastlingSide::KingSide),
            (3, Color::Black, CastlingSide::QueenSide),
        ] {
            // A right held names its rook (Chess960: any file); the king is on its home square.
            if let Some(rook) = rights.rook_square(color, side) {
                flags |= 2 << r | (rook.file() as u32) << (16 + 3 * r);
            }
        }
        if let Some(ep) = pos.ep_square() {
            flags |= (ep.index() as u32) << 8;
        }
        GpuPosition {
            bitboards,
            flags,
            origin,
        }
    }
}

/// Directions of `shaders/perft.wgsl`: (file step, rank step) for N, E, NE, NW, S, W, SW, SE;
/// the first four raise the square index.
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (-1, 1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (1, -1),
];

/// `rays[s * 8 + d]`: the squares from `s` along direction `d` to the board's edge.
pub fn rays() -> Vec<u64> {
    let mut out = Vec::with_capacity(512);
    for s in 0..64i32 {
        for (df, dr) in DIRECTIONS {
            let (mut f, mut r) = (s % 8 + df, s / 8 + dr);
            let mut ray = 0u64;
            while (0..8).contains(&f) && (0..8).contains(&r) {
                ray |= 1 << (r * 8 + f);
                f += df;
                r += dr;
            }
            out.push(ray);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_is_64_bytes_and_the_start_position_reads_back() {
        assert_eq!(std::mem::size_of::<GpuPosition>(), 64);
        let start = GpuPosition::new(&Position::new(), 3);
        assert_eq!(start.bitboards[0], 0x00FF_0000_0000_FF00);
        assert_eq!(start.bitboards[5], 0x1000_0000_0000_0010);
        assert_eq!(start.bitboards[6], 0xFFFF);
        assert_eq!(start.flags, 0b11110 | 0o0707 << 16);
        assert_eq!(start.origin, 3);
    }

    #[test]
    fn en_passant_and_side_to_move() {
        let pos: Position = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3"
            .parse()
            .unwrap();
        let r = GpuPosition::new(&pos, 0);
        assert_eq!(r.flags & 1, 1);
        assert_eq!(r.flags >> 8 & 0xFF, Square::E3.index() as u32);
    }

    #[test]
    fn chess960_rights_carry_their_rooks_files() {
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let pos = Position::from_fen_with(fen, shatranj_chess::CastlingMode::Chess960).unwrap();
        // Rooks on h and f for both: files 7 and 5 in the order K, Q, k, q.
        let files = 7 | 5 << 3 | 7 << 6 | 5 << 9;
        assert_eq!(GpuPosition::new(&pos, 0).flags, 0b11110 | files << 16);
        // Standard chess: rooks on h and a.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let pos = Position::from_fen_with(start, shatranj_chess::CastlingMode::Chess960).unwrap();
        assert_eq!(GpuPosition::new(&pos, 0).flags, 0b11110 | 0o0707 << 16);
    }

    #[test]
    fn rays_reach_the_edges() {
        let rays = rays();
        assert_eq!(rays[0], 0x0101_0101_0101_0100); // a1 north
        assert_eq!(rays[2], 0x8040_2010_0804_0200); // a1 north-east
        assert_eq!(rays[63 * 8 + 6], 0x0040_2010_0804_0201); // h8 south-west
        assert_eq!(rays[4 * 8 + 5], 0x0F); // e1 west
    }
}
