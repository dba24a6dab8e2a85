//! The 960 starting positions of Chess960 by their standard (Scharnagl) numbers, 0–959;
//! number 518 is the standard start position.
//!
//! The number encodes the first rank: `n % 4` places the light-squared bishop (b, d, f, h),
//! `n / 4 % 4` the dark-squared one (a, c, e, g), `n / 16 % 6` the queen on that free
//! square, `n / 96` (0–9) the two knights on a pair of the five free squares, and the king
//! stands between the two rooks on the last three. Black mirrors White.

use crate::board::Board;
use crate::castling::{CastlingRights, CastlingSide};
use crate::position::Position;
use crate::{Color, File, Piece, Rank, Role, Square};
use core::fmt;

/// How many Chess960 starting positions there are.
pub const COUNT: u32 = 960;

/// The knights' two squares among the five left free, by `n / 96`.
const KNIGHT_PAIRS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// A Chess960 number outside 0–959.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Chess960NumberError {
    pub number: u32,
}

impl fmt::Display for Chess960NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Chess960 starting positions are numbered 0 to 959, not {}",
            self.number
        )
    }
}

impl std::error::Error for Chess960NumberError {}

/// The first rank of starting position `number` (0–959), a to h.
pub fn back_rank(number: u32) -> Result<[Role; 8], Chess960NumberError> {
    if number >= COUNT {
        return Err(Chess960NumberError { number });
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let n = number as usize;
    rank[2 * (n % 4) + 1] = Some(Role::Bishop);
    rank[2 * (n / 4 % 4)] = Some(Role::Bishop);
    let free = |rank: &[Option<Role>; 8]| -> Vec<usize> {
        (0..8).filter(|&i| rank[i].is_none()).collect()
    };
    let queen = free(&rank)[n / 16 % 6];
    rank[queen] = Some(Role::Queen);
    let (a, b) = KNIGHT_PAIRS[n / 96];
    let squares = free(&rank);
    rank[squares[a]] = Some(Role::Knight);
    rank[squares[b]] = Some(Role::Knight);
    for (i, role) in free(&rank)
        .into_iter()
        .zip([Role::Rook, Role::King, Role::Rook])
    {
        rank[i] = Some(role);
    }
    Ok(rank.map(|r| r.unwrap_or(Role::Pawn)))
}

/// Starting position `number` (0–959) with all four castling rights, White to move.
pub fn start_position(number: u32) -> Result<Position, Chess960NumberError> {
    let rank = back_rank(number)?;
    let mut board = Board::empty();
    let mut castling = CastlingRights::NONE;
    let king = rank.iter().position(|&r| r == Role::King).unwrap_or(4);
    let rooks: Vec<usize> = (0..8).filter(|&i| rank[i] == Role::Rook).collect();
    for color in Color::ALL {
        for (i, &role) in rank.iter().enumerate() {
            let file = File::new(i as u32).unwrap_or(File::A);
            board.set_piece_at(
                Square::from_coords(file, color.back_rank()),
                Piece::new(color, role),
            );
            let pawn_rank = Rank::Second.relative_to(color);
            board.set_piece_at(
                Square::from_coords(file, pawn_rank),
                Piece::new(color, Role::Pawn),
            );
        }
        let king_file = File::new(king as u32).unwrap_or(File::E);
        for (&rook, side) in rooks
            .iter()
            .zip([CastlingSide::QueenSide, CastlingSide::KingSide])
        {
            let rook_file = File::new(rook as u32).unwrap_or(File::A);
            castling = castling.with(color, side, king_file, rook_file);
        }
    }
    // Every number gives a legal position; the fallback is never taken.
    Ok(
        Position::from_parts(board, Color::White, castling, None, 0, 1)
            .unwrap_or_else(|_| Position::new()),
    )
}

impl Position {
    /// Chess960 starting position `number` (0–959; 518 is the standard start position).
    pub fn chess960(number: u32) -> Result<Position, Chess960NumberError> {
        start_position(number)
    }

    /// The number of this position if it is a Chess960 starting position (move counters
    /// aside), as python-chess's `chess960_pos()`.
    pub fn chess960_number(&self) -> Option<u32> {
        (0..COUNT).find(|&n| {
            start_position(n).is_ok_and(|p| {
                p.board == self.board
                    && p.turn == self.turn
                    && p.castling == self.castling
                    && self.ep_square.is_none()
            })
        })
    }
}
