//! The position as an evaluation back end reads it: plain `u32` words a GPU buffer can hold.
//! The network ([`crate::nnue`]) reads it too, so this file imports nothing from the crate:
//! the network depends on it, never on the rest of [`crate::eval`].

use bytemuck::{Pod, Zeroable};
use shatranj_chess::{Color, Position, Role};

/// A position as the evaluation sees it, in a form a GPU can read: twelve bitboards as
/// `u32` pairs (`pieces[(color * 6 + role) * 2]` is the low half, squares a1–h4; `+ 1` the
/// high half, a5–h8; colour White 0, Black 1; role pawn 0 … king 5), and the side to move
/// (0 White, 1 Black). 112 bytes, a multiple of 16 so arrays of it have no padding.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Pod, Zeroable)]
pub struct PackedPosition {
    pub pieces: [u32; 24],
    pub turn: u32,
    pub reserved: [u32; 3],
}

impl PackedPosition {
    pub fn from_position(pos: &Position) -> PackedPosition {
        let mut pieces = [0u32; 24];
        let b = pos.board();
        for color in Color::ALL {
            for role in Role::ALL {
                let bb = (b.by_color(color) & b.by_role(role)).0;
                let i = (color.index() * 6 + role.index()) * 2;
                pieces[i] = bb as u32;
                pieces[i + 1] = (bb >> 32) as u32;
            }
        }
        PackedPosition {
            pieces,
            turn: pos.turn().index() as u32,
            reserved: [0; 3],
        }
    }

    /// The twelve bitboards, `[colour][role]`.
    pub fn bitboards(&self) -> [[u64; 6]; 2] {
        let mut bb = [[0u64; 6]; 2];
        for (c, side) in bb.iter_mut().enumerate() {
            for (r, slot) in side.iter_mut().enumerate() {
                let i = (c * 6 + r) * 2;
                *slot = u64::from(self.pieces[i]) | u64::from(self.pieces[i + 1]) << 32;
            }
        }
        bb
    }
}
