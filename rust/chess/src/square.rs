//! The board's geometry as values: files, ranks and squares (R1.1: files a–h, ranks 1–8,
//! a1 = 0 … h8 = 63).

use crate::Color;
use core::fmt;

/// A file, a (0) … h (7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum File {
    A = 0,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl File {
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    #[inline]
    pub const fn new(index: u32) -> Option<File> {
        if index < 8 {
            Some(File::ALL[index as usize])
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> u32 {
        self as u32
    }

    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => File::new(c as u32 - 'a' as u32),
            _ => None,
        }
    }
}

/// A rank, 1 (0) … 8 (7), counted from White's side (R1.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    First = 0,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl Rank {
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    #[inline]
    pub const fn new(index: u32) -> Option<Rank> {
        if index < 8 {
            Some(Rank::ALL[index as usize])
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> u32 {
        self as u32
    }

    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Rank::new(c as u32 - '1' as u32),
            _ => None,
        }
    }

    /// The same rank seen from the other side (rank 2 ↔ rank 7).
    pub const fn flip(self) -> Rank {
        Rank::ALL[7 - self as usize]
    }

    /// This rank seen from `color`'s side: `Rank::Second.relative_to(Black)` is rank 7.
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }
}

/// A square, a1 = 0, b1 = 1, … h8 = 63. The field is private so every `Square` is on the board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $i:expr),* $(,)?) => {
        impl Square { $(pub const $name: Square = Square($i);)* }
    };
}

square_consts! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// The square with this index, if it is on the board.
    #[inline]
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// # Safety-free contract
    /// Callers inside the crate guarantee `index < 64`; the mask keeps even a broken caller
    /// on the board instead of causing undefined behaviour.
    #[inline(always)]
    pub(crate) const fn from_index_masked(index: u32) -> Square {
        Square((index & 63) as u8)
    }

    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 8 + file as u8)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn file(self) -> File {
        File::ALL[(self.0 & 7) as usize]
    }

    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 >> 3) as usize]
    }

    /// The square `delta` steps away in index space, if still on the board (no file-wrap check).
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if 0 <= i && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// The same square seen from the other side (a1 ↔ a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 0b111_000)
    }

    /// Light squares are those where file + rank is odd, counting from zero; h1 and a8 are
    /// light (R1.1).
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.0 / 8 + self.0 % 8) % 2 == 1
    }

    /// Chebyshev distance, the number of king steps between two squares.
    pub fn distance(self, other: Square) -> u32 {
        let df = (self.file() as i32 - other.file() as i32).unsigned_abs();
        let dr = (self.rank() as i32 - other.rank() as i32).unsigned_abs();
        df.max(dr)
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64u8).map(Square)
    }

    /// Parses a square name such as `e4`.
    pub fn from_name(name: &str) -> Option<Square> {
        let mut chars = name.chars();
        let file = File::from_char(chars.next()?)?;
        let rank = Rank::from_char(chars.next()?)?;
        if chars.next().is_some() {
            return None;
        }
        Some(Square::from_coords(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl core::str::FromStr for Square {
    type Err = InvalidSquareName;
    fn from_str(s: &str) -> Result<Square, InvalidSquareName> {
        Square::from_name(s).ok_or_else(|| InvalidSquareName(s.to_owned()))
    }
}

/// The text is not a square name like `e4`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidSquareName(pub String);

impl fmt::Display for InvalidSquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid square name {:?}: expected a file a-h and a rank 1-8, like e4",
            self.0
        )
    }
}

impl std::error::Error for InvalidSquareName {}
