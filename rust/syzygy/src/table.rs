//! One table file: its header, the position index (encoding) and the decompressor.
//!
//! Ported from Fathom's `tbprobe.c` (jdart1/Fathom at c9c6fef, functions `init_enc_info`,
//! `setup_pairs`, `calc_symLen`, `init_table`, `encode`, `decompress_pairs`, `probe_table`
//! and the index tables), which is:
//!
//! > Copyright (c) 2013-2018 Ronald de Man
//! > Copyright (c) 2015 basil00
//! > Modifications Copyright (c) 2016-2024 by Jon Dart
//! >
//! > Permission is hereby granted, free of charge, to any person obtaining a copy of this
//! > software and associated documentation files (the "Software"), to deal in the Software
//! > without restriction, including without limitation the rights to use, copy, modify,
//! > merge, publish, distribute, sublicense, and/or sell copies of the Software, and to
//! > permit persons to whom the Software is furnished to do so, subject to the following
//! > conditions:
//! >
//! > The above copyright notice and this permission notice shall be included in all copies
//! > or substantial portions of the Software.
//! >
//! > THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,
//! > INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A
//! > PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT
//! > HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF
//! > CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE
//! > OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
//!
//! What differs from Fathom: the file is never trusted. Every offset is read as a number
//! and checked against the file's length before use (the file is a byte slice, not a
//! pointer), so a truncated or damaged file gives a [`Defect`] and never a read outside it:
//!
//! - the header's piece lists must be a grouping of the table's own material (Fathom fills
//!   a fixed array from them), pawn tables must lead with pawns, and the order nibbles must
//!   place every factor;
//! - sizes are computed with checked arithmetic, and every section must end inside the file;
//! - the Huffman symbol tree must be acyclic with children in range (Fathom recurses on it),
//!   code lengths must lie in 1..=64 and decoded symbols in range;
//! - a position's index must fall inside the table, the block walk inside the size table and
//!   the block inside the data; reads that run past the end of the file while decoding (the
//!   look-ahead at a file's last block) see zero bytes, as the zero-filled tail of a mapped
//!   page would.
//!
//! Only what WDL and DTZ need is here: no DTM (`.rtbm`), so no rank encoding.

use crate::error::Defect;
use crate::material::Material;
use shatranj_chess::{Color, Position, Role};

// ----- the bytes --------------------------------------------------------------------------

/// The bytes of a table file: mapped (the normal case) or owned (tables built in memory,
/// for tests and fuzzing).
pub(crate) enum Data {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl Data {
    #[inline]
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Data::Mapped(m) => m,
            Data::Owned(v) => v,
        }
    }
}

#[inline]
fn slice(b: &[u8], at: usize, len: usize) -> Result<&[u8], Defect> {
    let end = at
        .checked_add(len)
        .ok_or(Defect::bad(at, "offset overflows"))?;
    b.get(at..end).ok_or(Defect::Short { needed: end as u64 })
}

#[inline]
fn u8_at(b: &[u8], at: usize) -> Result<u8, Defect> {
    b.get(at).copied().ok_or(Defect::Short {
        needed: at as u64 + 1,
    })
}

#[inline]
fn u16_le(b: &[u8], at: usize) -> Result<u16, Defect> {
    let s = slice(b, at, 2)?;
    Ok(u16::from_le_bytes([s[0], s[1]]))
}

#[inline]
fn u32_le(b: &[u8], at: usize) -> Result<u32, Defect> {
    let s = slice(b, at, 4)?;
    Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// Big-endian read that sees zeros past the end of the file (the decoder's look-ahead).
#[inline]
fn be_padded<const N: usize>(b: &[u8], at: usize) -> u64 {
    let mut buf = [0u8; 8];
    if let Some(s) = b.get(at..at.saturating_add(N)) {
        buf[8 - N..].copy_from_slice(s);
    } else if let Some(s) = b.get(at..) {
        buf[8 - N..8 - N + s.len()].copy_from_slice(s);
    }
    u64::from_be_bytes(buf)
}

#[inline]
fn shl(x: u64, n: u64) -> u64 {
    if n >= 64 { 0 } else { x << n }
}

#[inline]
fn shr(x: u64, n: u64) -> u64 {
    if n >= 64 { 0 } else { x >> n }
}

// ----- index tables (Fathom's, unchanged) -------------------------------------------------

#[rustfmt::skip]
const OFF_DIAG: [i8; 64] = [
    0,-1,-1,-1,-1,-1,-1,-1,
    1, 0,-1,-1,-1,-1,-1,-1,
    1, 1, 0,-1,-1,-1,-1,-1,
    1, 1, 1, 0,-1,-1,-1,-1,
    1, 1, 1, 1, 0,-1,-1,-1,
    1, 1, 1, 1, 1, 0,-1,-1,
    1, 1, 1, 1, 1, 1, 0,-1,
    1, 1, 1, 1, 1, 1, 1, 0,
];

#[rustfmt::skip]
const TRIANGLE: [u8; 64] = [
    6, 0, 1, 2, 2, 1, 0, 6,
    0, 7, 3, 4, 4, 3, 7, 0,
    1, 3, 8, 5, 5, 8, 3, 1,
    2, 4, 5, 9, 9, 5, 4, 2,
    2, 4, 5, 9, 9, 5, 4, 2,
    1, 3, 8, 5, 5, 8, 3, 1,
    0, 7, 3, 4, 4, 3, 7, 0,
    6, 0, 1, 2, 2, 1, 0, 6,
];

#[rustfmt::skip]
const FLIP_DIAG: [u8; 64] = [
     0,  8, 16, 24, 32, 40, 48, 56,
     1,  9, 17, 25, 33, 41, 49, 57,
     2, 10, 18, 26, 34, 42, 50, 58,
     3, 11, 19, 27, 35, 43, 51, 59,
     4, 12, 20, 28, 36, 44, 52, 60,
     5, 13, 21, 29, 37, 45, 53, 61,
     6, 14, 22, 30, 38, 46, 54, 62,
     7, 15, 23, 31, 39, 47, 55, 63,
];

#[rustfmt::skip]
const LOWER: [u8; 64] = [
    28,  0,  1,  2,  3,  4,  5,  6,
     0, 29,  7,  8,  9, 10, 11, 12,
     1,  7, 30, 13, 14, 15, 16, 17,
     2,  8, 13, 31, 18, 19, 20, 21,
     3,  9, 14, 18, 32, 22, 23, 24,
     4, 10, 15, 19, 22, 33, 25, 26,
     5, 11, 16, 20, 23, 25, 34, 27,
     6, 12, 17, 21, 24, 26, 27, 35,
];

#[rustfmt::skip]
const DIAG: [u8; 64] = [
     0,  0,  0,  0,  0,  0,  0,  8,
     0,  1,  0,  0,  0,  0,  9,  0,
     0,  0,  2,  0,  0, 10,  0,  0,
     0,  0,  0,  3, 11,  0,  0,  0,
     0,  0,  0, 12,  4,  0,  0,  0,
     0,  0, 13,  0,  0,  5,  0,  0,
     0, 14,  0,  0,  0,  0,  6,  0,
    15,  0,  0,  0,  0,  0,  0,  7,
];

/// Fathom's `Flap[0]` (the file encoding's leading-pawn order).
#[rustfmt::skip]
const FLAP: [u8; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
     0,  6, 12, 18, 18, 12,  6,  0,
     1,  7, 13, 19, 19, 13,  7,  1,
     2,  8, 14, 20, 20, 14,  8,  2,
     3,  9, 15, 21, 21, 15,  9,  3,
     4, 10, 16, 22, 22, 16, 10,  4,
     5, 11, 17, 23, 23, 17, 11,  5,
     0,  0,  0,  0,  0,  0,  0,  0,
];

/// Fathom's `PawnTwist[0]`.
#[rustfmt::skip]
const PAWN_TWIST: [u8; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    47, 35, 23, 11, 10, 22, 34, 46,
    45, 33, 21,  9,  8, 20, 32, 44,
    43, 31, 19,  7,  6, 18, 30, 42,
    41, 29, 17,  5,  4, 16, 28, 40,
    39, 27, 15,  3,  2, 14, 26, 38,
    37, 25, 13,  1,  0, 12, 24, 36,
     0,  0,  0,  0,  0,  0,  0,  0,
];

#[rustfmt::skip]
const KK_IDX: [[i16; 64]; 10] = [
  [ -1, -1, -1,  0,  1,  2,  3,  4,
    -1, -1, -1,  5,  6,  7,  8,  9,
    10, 11, 12, 13, 14, 15, 16, 17,
    18, 19, 20, 21, 22, 23, 24, 25,
    26, 27, 28, 29, 30, 31, 32, 33,
    34, 35, 36, 37, 38, 39, 40, 41,
    42, 43, 44, 45, 46, 47, 48, 49,
    50, 51, 52, 53, 54, 55, 56, 57 ],
  [ 58, -1, -1, -1, 59, 60, 61, 62,
    63, -1, -1, -1, 64, 65, 66, 67,
    68, 69, 70, 71, 72, 73, 74, 75,
    76, 77, 78, 79, 80, 81, 82, 83,
    84, 85, 86, 87, 88, 89, 90, 91,
    92, 93, 94, 95, 96, 97, 98, 99,
   100,101,102,103,104,105,106,107,
   108,109,110,111,112,113,114,115],
  [116,117, -1, -1, -1,118,119,120,
   121,122, -1, -1, -1,123,124,125,
   126,127,128,129,130,131,132,133,
   134,135,136,137,138,139,140,141,
   142,143,144,145,146,147,148,149,
   150,151,152,153,154,155,156,157,
   158,159,160,161,162,163,164,165,
   166,167,168,169,170,171,172,173 ],
  [174, -1, -1, -1,175,176,177,178,
   179, -1, -1, -1,180,181,182,183,
   184, -1, -1, -1,185,186,187,188,
   189,190,191,192,193,194,195,196,
   197,198,199,200,201,202,203,204,
   205,206,207,208,209,210,211,212,
   213,214,215,216,217,218,219,220,
   221,222,223,224,225,226,227,228 ],
  [229,230, -1, -1, -1,231,232,233,
   234,235, -1, -1, -1,236,237,238,
   239,240, -1, -1, -1,241,242,243,
   244,245,246,247,248,249,250,251,
   252,253,254,255,256,257,258,259,
   260,261,262,263,264,265,266,267,
   268,269,270,271,272,273,274,275,
   276,277,278,279,280,281,282,283 ],
  [284,285,286,287,288,289,290,291,
   292,293, -1, -1, -1,294,295,296,
   297,298, -1, -1, -1,299,300,301,
   302,303, -1, -1, -1,304,305,306,
   307,308,309,310,311,312,313,314,
   315,316,317,318,319,320,321,322,
   323,324,325,326,327,328,329,330,
   331,332,333,334,335,336,337,338 ],
  [ -1, -1,339,340,341,342,343,344,
    -1, -1,345,346,347,348,349,350,
    -1, -1,441,351,352,353,354,355,
    -1, -1, -1,442,356,357,358,359,
    -1, -1, -1, -1,443,360,361,362,
    -1, -1, -1, -1, -1,444,363,364,
    -1, -1, -1, -1, -1, -1,445,365,
    -1, -1, -1, -1, -1, -1, -1,446 ],
  [ -1, -1, -1,366,367,368,369,370,
    -1, -1, -1,371,372,373,374,375,
    -1, -1, -1,376,377,378,379,380,
    -1, -1, -1,447,381,382,383,384,
    -1, -1, -1, -1,448,385,386,387,
    -1, -1, -1, -1, -1,449,388,389,
    -1, -1, -1, -1, -1, -1,450,390,
    -1, -1, -1, -1, -1, -1, -1,451 ],
  [452,391,392,393,394,395,396,397,
    -1, -1, -1, -1,398,399,400,401,
    -1, -1, -1, -1,402,403,404,405,
    -1, -1, -1, -1,406,407,408,409,
    -1, -1, -1, -1,453,410,411,412,
    -1, -1, -1, -1, -1,454,413,414,
    -1, -1, -1, -1, -1, -1,455,415,
    -1, -1, -1, -1, -1, -1, -1,456 ],
  [457,416,417,418,419,420,421,422,
    -1,458,423,424,425,426,427,428,
    -1, -1, -1, -1, -1,429,430,431,
    -1, -1, -1, -1, -1,432,433,434,
    -1, -1, -1, -1, -1,435,436,437,
    -1, -1, -1, -1, -1,459,438,439,
    -1, -1, -1, -1, -1, -1,460,440,
    -1, -1, -1, -1, -1, -1, -1,461 ],
];

const FILE_TO_FILE: [u8; 8] = [0, 1, 2, 3, 3, 2, 1, 0];
const WDL_TO_MAP: [usize; 5] = [1, 3, 0, 2, 0];
const PA_FLAGS: [u8; 5] = [8, 0, 0, 0, 4];

/// Groups of like pieces are at most this large (Binomial's first index); a legal position
/// has at most ten of a kind, a table name at most fifteen.
const MAX_GROUP: usize = 16;
/// Leading pawns: at most eight of one colour.
const MAX_LEADING: usize = 8;

/// `BINOMIAL[k][n]` = C(n, k), by Pascal's rule (Fathom multiplies, which overflows past
/// k = 6; the values are the same).
static BINOMIAL: [[u64; 64]; MAX_GROUP + 1] = {
    let mut t = [[0u64; 64]; MAX_GROUP + 1];
    let mut n = 0;
    while n < 64 {
        t[0][n] = 1;
        let mut k = 1;
        while k <= MAX_GROUP {
            t[k][n] = if n == 0 {
                0
            } else {
                t[k - 1][n - 1] + t[k][n - 1]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// Fathom's `PawnIdx[0]` and `PawnFactorFile`, for up to eight leading pawns.
static PAWN_IDX: ([[u64; 24]; MAX_LEADING], [[u64; 4]; MAX_LEADING]) = {
    let mut idx = [[0u64; 24]; MAX_LEADING];
    let mut factor = [[0u64; 4]; MAX_LEADING];
    let mut i = 0;
    while i < MAX_LEADING {
        let mut s = 0u64;
        let mut j = 0;
        while j < 24 {
            idx[i][j] = s;
            s += BINOMIAL[i][PAWN_TWIST[(1 + (j % 6)) * 8 + (j / 6)] as usize];
            if (j + 1) % 6 == 0 {
                factor[i][j / 6] = s;
                s = 0;
            }
            j += 1;
        }
        i += 1;
    }
    (idx, factor)
};

// ----- what the name says -----------------------------------------------------------------

/// What a table's material implies about its files (Fathom's `BaseEntry`).
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// The material with White = the name's left side.
    pub(crate) material: Material,
    /// Pieces, kings included.
    pub(crate) num: usize,
    pub(crate) symmetric: bool,
    pub(crate) has_pawns: bool,
    /// Piece tables whose only unique pieces are the kings encode the two kings together.
    pub(crate) kk_enc: bool,
    /// Pawns of the leading colour (the one with fewer pawns, but some), then of the other.
    pub(crate) pawns: [usize; 2],
}

impl Layout {
    pub(crate) fn new(material: Material) -> Layout {
        let white_pawns = material.count(Color::White, Role::Pawn) as usize;
        let black_pawns = material.count(Color::Black, Role::Pawn) as usize;
        let mut pawns = [white_pawns, black_pawns];
        if black_pawns > 0 && (white_pawns == 0 || white_pawns > black_pawns) {
            pawns.swap(0, 1);
        }
        let unique = material
            .counts
            .iter()
            .flatten()
            .filter(|&&c| c == 1)
            .count();
        Layout {
            material,
            num: material.total(),
            symmetric: material == material.flipped(),
            has_pawns: material.has_pawns(),
            kk_enc: unique == 2,
            pawns,
        }
    }

    /// Sub-tables per side: one per leading-pawn file (a–d) in pawn tables.
    fn num_tables(&self) -> usize {
        if self.has_pawns { 4 } else { 1 }
    }
}

// ----- the parsed file --------------------------------------------------------------------

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum Kind {
    Wdl,
    Dtz,
}

/// The Huffman-coded value stream of one sub-table (Fathom's `PairsData`).
#[derive(Debug)]
enum Pairs {
    /// Every position has the same value.
    Const([u8; 2]),
    Huffman(Box<Huffman>),
}

#[derive(Debug)]
struct Huffman {
    block_size: u32,
    idx_bits: u32,
    min_len: u32,
    /// Entries of the size table (`real_num_blocks` + the padding count).
    num_blocks: u64,
    real_num_blocks: u64,
    num_indices: u64,
    num_syms: usize,
    /// File offsets.
    offset: usize,
    sym_pat: usize,
    index_table: usize,
    size_table: usize,
    data: usize,
    sym_len: Vec<u8>,
    /// `base[l - min_len]`, already shifted into the top bits.
    base: Vec<u64>,
}

/// How positions map to indices in one sub-table (Fathom's `EncInfo`).
#[derive(Debug)]
struct EncInfo {
    pieces: Vec<u8>,
    norm: Vec<u8>,
    factor: Vec<u64>,
    /// Positions in the sub-table: every index is below it.
    size: u64,
    pairs: Pairs,
}

/// A DTZ value map: where its entries start and whether they are 16-bit.
#[derive(Copy, Clone, Debug, Default)]
struct DtzMap {
    start: usize,
    wide: bool,
}

/// A parsed table file.
pub(crate) struct Table {
    data: Data,
    kind: Kind,
    /// `sides[bside][t]`: WDL tables may be split by side to move (`sides[1]` empty when
    /// not); DTZ tables store one side only, in `sides[0]`.
    sides: [Vec<EncInfo>; 2],
    dtz_flags: Vec<u8>,
    dtz_maps: Vec<[DtzMap; 4]>,
}

/// What the sub-table of a probe says.
pub(crate) enum Probed {
    Value(i32),
    /// DTZ tables hold one side to move; the position has the other.
    OtherSide,
}

fn subfactor(k: u64, n: u64) -> Option<u64> {
    // C(n, k), as Fathom computes it; k <= n here.
    let mut f = n;
    let mut l = 1u64;
    for i in 1..k {
        f = f.checked_mul(n.checked_sub(i)?)?;
        l = l.checked_mul(i + 1)?;
    }
    Some(f / l)
}

fn valid_piece(code: u8) -> Option<(Color, Role)> {
    let color = if code & 8 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let role = match code & 7 {
        1 => Role::Pawn,
        2 => Role::Knight,
        3 => Role::Bishop,
        4 => Role::Rook,
        5 => Role::Queen,
        6 => Role::King,
        _ => return None,
    };
    Some((color, role))
}

impl Table {
    /// The file's length in bytes.
    pub(crate) fn len(&self) -> usize {
        self.data.bytes().len()
    }

    /// Reads a table's header and checks that every section lies inside the file.
    // The loops index by sub-table and half as Fathom's layout does; iterators would hide it.
    #[allow(clippy::needless_range_loop)]
    pub(crate) fn parse(data: Data, kind: Kind, layout: &Layout) -> Result<Table, Defect> {
        let b = data.bytes();
        let magic = match kind {
            Kind::Wdl => crate::TableKind::Wdl.magic(),
            Kind::Dtz => crate::TableKind::Dtz.magic(),
        };
        if u32_le(b, 0)? != magic {
            return Err(Defect::bad(0, "wrong magic number for this kind of table"));
        }
        let flags0 = u8_at(b, 4)?;
        let split = kind == Kind::Wdl && flags0 & 1 != 0;
        let num = layout.num_tables();
        let file_enc = layout.has_pawns;
        let more_pawns = file_enc && layout.pawns[1] > 0;

        let mut pos = 5usize;
        let mut sides: [Vec<EncHeader>; 2] = [Vec::new(), Vec::new()];
        for t in 0..num {
            // Both sides' lists share their bytes: low nibbles, then high ones.
            sides[0].push(enc_info(b, pos, 0, t, layout)?);
            if split {
                sides[1].push(enc_info(b, pos, 4, t, layout)?);
            }
            pos += layout.num + 1 + usize::from(more_pawns);
        }
        pos += pos & 1;

        // A pawn table's first fill takes the leading pawns from sub-table 0's list; every
        // list must begin with the same pawn for the rest of the fill to line up.
        if file_enc {
            let first = sides[0][0].pieces[0];
            if sides.iter().flatten().any(|e| e.pieces[0] != first) {
                return Err(Defect::bad(5, "sub-tables lead with different pawns"));
            }
        }

        let mut pairs: [Vec<(Pairs, [u64; 3])>; 2] = [Vec::new(), Vec::new()];
        let mut dtz_flags = Vec::new();
        for t in 0..num {
            let (p, sizes, flags) = setup_pairs(b, &mut pos, sides[0][t].size, kind)?;
            pairs[0].push((p, sizes));
            if kind == Kind::Dtz {
                dtz_flags.push(flags);
            }
            if split {
                let (p, sizes, _) = setup_pairs(b, &mut pos, sides[1][t].size, kind)?;
                pairs[1].push((p, sizes));
            }
        }

        let mut dtz_maps = Vec::new();
        if kind == Kind::Dtz {
            let map = pos;
            for &flags in &dtz_flags {
                let mut maps = [DtzMap::default(); 4];
                if flags & 2 != 0 {
                    if flags & 16 == 0 {
                        for m in &mut maps {
                            *m = DtzMap {
                                start: pos + 1,
                                wide: false,
                            };
                            pos += 1 + u8_at(b, pos)? as usize;
                        }
                    } else {
                        pos += pos & 1;
                        for m in &mut maps {
                            // Fathom indexes 16-bit entries from the map's start in 16-bit
                            // units; the same rounding, kept as a byte offset.
                            let units = (pos + 2 - map) / 2;
                            *m = DtzMap {
                                start: map + 2 * units,
                                wide: true,
                            };
                            pos += 2 + 2 * u16_le(b, pos)? as usize;
                        }
                    }
                }
                dtz_maps.push(maps);
            }
            pos += pos & 1;
        }

        // Then the index tables, the size tables and the 64-byte aligned data, each in
        // sub-table order.
        let advance = |pos: &mut usize, by: u64| -> Result<usize, Defect> {
            let at = *pos;
            let end = (at as u64)
                .checked_add(by)
                .filter(|&e| usize::try_from(e).is_ok())
                .ok_or(Defect::bad(at, "section size overflows"))?;
            if end > b.len() as u64 {
                return Err(Defect::Short { needed: end });
            }
            *pos = end as usize;
            Ok(at)
        };
        let mut offsets = [vec![[0usize; 3]; num], vec![[0usize; 3]; num]];
        let halves = if split { 2 } else { 1 };
        for section in 0..3 {
            for t in 0..num {
                for half in 0..halves {
                    if section == 2 {
                        pos = pos
                            .checked_add(0x3f)
                            .ok_or(Defect::bad(pos, "offset overflows"))?
                            & !0x3f;
                    }
                    let size = pairs[half][t].1[section];
                    offsets[half][t][section] = advance(&mut pos, size)?;
                }
            }
        }
        if b.len() % 64 != 16 {
            return Err(Defect::bad(
                b.len(),
                "file size is not 16 more than a multiple of 64",
            ));
        }

        let mut built: [Vec<EncInfo>; 2] = [Vec::new(), Vec::new()];
        for half in 0..halves {
            for (t, (header, (p, _))) in
                sides[half].drain(..).zip(pairs[half].drain(..)).enumerate()
            {
                let EncHeader {
                    pieces,
                    norm,
                    factor,
                    size,
                } = header;
                let pairs = match p {
                    Pairs::Huffman(mut h) => {
                        h.index_table = offsets[half][t][0];
                        h.size_table = offsets[half][t][1];
                        h.data = offsets[half][t][2];
                        Pairs::Huffman(h)
                    }
                    c @ Pairs::Const(_) => c,
                };
                built[half].push(EncInfo {
                    pieces,
                    norm,
                    factor,
                    size,
                    pairs,
                });
            }
        }
        Ok(Table {
            data,
            kind,
            sides: built,
            dtz_flags,
            dtz_maps,
        })
    }

    /// Fathom's `probe_table` for WDL (`wdl` unused) and DTZ (`wdl` the position's value).
    /// `flip`: the position's colours are the table's swapped (the material was found under
    /// its mirrored key).
    pub(crate) fn probe(
        &self,
        layout: &Layout,
        pos: &Position,
        flip: bool,
        wdl: i32,
    ) -> Result<Probed, Defect> {
        let white_to_move = pos.turn() == Color::White;
        let (flip, bside) = if layout.symmetric {
            (!white_to_move, false)
        } else {
            (flip, white_to_move == flip)
        };
        let b = self.data.bytes();
        let board = pos.board();
        let mut p = [0u8; 64];

        let fill =
            |ei: &EncInfo, p: &mut [u8; 64], mut i: usize, mirror: u8| -> Result<usize, Defect> {
                let code = *ei
                    .pieces
                    .get(i)
                    .ok_or(Defect::bad(5, "piece list too short"))?;
                let (color, role) = valid_piece(code).ok_or(Defect::bad(5, "bad piece code"))?;
                let color = if flip { color.other() } else { color };
                let start = i;
                for sq in board.by_color(color) & board.by_role(role) {
                    if i >= layout.num {
                        return Err(Defect::bad(5, "piece list does not match the material"));
                    }
                    p[i] = sq.index() as u8 ^ mirror;
                    i += 1;
                }
                if i == start {
                    return Err(Defect::bad(5, "piece list does not match the material"));
                }
                Ok(i)
            };

        let (ei, t) = if layout.has_pawns {
            let mirror = if flip { 0x38 } else { 0 };
            let mut i = fill(&self.sides[0][0], &mut p, 0, mirror)?;
            let t = leading_pawn(&mut p, layout);
            if self.kind == Kind::Dtz && (self.dtz_flags[t] & 1 != 0) != bside && !layout.symmetric
            {
                return Ok(Probed::OtherSide);
            }
            let ei = match self.kind {
                Kind::Wdl => self.sides[usize::from(bside)].get(t),
                Kind::Dtz => self.sides[0].get(t),
            }
            .ok_or(Defect::bad(4, "the table does not hold this side to move"))?;
            while i < layout.num {
                i = fill(ei, &mut p, i, mirror)?;
            }
            (ei, t)
        } else {
            let ei = match self.kind {
                Kind::Wdl => self.sides[usize::from(bside)].first(),
                Kind::Dtz => self.sides[0].first(),
            }
            .ok_or(Defect::bad(4, "the table does not hold this side to move"))?;
            if self.kind == Kind::Dtz && (self.dtz_flags[0] & 1 != 0) != bside && !layout.symmetric
            {
                return Ok(Probed::OtherSide);
            }
            let mut i = 0;
            while i < layout.num {
                i = fill(ei, &mut p, i, 0)?;
            }
            (ei, 0)
        };
        let idx = encode(&mut p[..layout.num], ei, layout)?;
        let w = decompress(&ei.pairs, b, idx, ei.size)?;

        match self.kind {
            Kind::Wdl => {
                if w[0] > 4 {
                    return Err(Defect::bad(0, "WDL value out of range"));
                }
                Ok(Probed::Value(i32::from(w[0]) - 2))
            }
            Kind::Dtz => {
                let flags = self.dtz_flags[t];
                let s = (wdl + 2) as usize;
                let mut v = w[0] as usize + (((w[1] & 0x0f) as usize) << 8);
                if flags & 2 != 0 {
                    let map = self.dtz_maps[t][WDL_TO_MAP[s]];
                    v = if map.wide {
                        u16_le(b, map.start + 2 * v)
                            .map_err(|_| Defect::bad(map.start, "DTZ map entry past the end"))?
                            as usize
                    } else {
                        u8_at(b, map.start + v)
                            .map_err(|_| Defect::bad(map.start, "DTZ map entry past the end"))?
                            as usize
                    };
                }
                let mut v = v as i32;
                if flags & PA_FLAGS[s] == 0 || wdl & 1 != 0 {
                    v *= 2;
                }
                Ok(Probed::Value(v))
            }
        }
    }
}

/// What a sub-table's header says about its index, before its decoder is read.
struct EncHeader {
    pieces: Vec<u8>,
    norm: Vec<u8>,
    factor: Vec<u64>,
    size: u64,
}

/// Reads one side's piece list and order nibbles at `at` and computes the factors
/// (Fathom's `init_enc_info`).
fn enc_info(
    b: &[u8],
    at: usize,
    shift: u32,
    t: usize,
    layout: &Layout,
) -> Result<EncHeader, Defect> {
    let n_pieces = layout.num;
    let file_enc = layout.has_pawns;
    let more_pawns = file_enc && layout.pawns[1] > 0;
    let header = slice(b, at, n_pieces + 1 + usize::from(more_pawns))?;
    let nibble = |x: u8| (x >> shift) & 0x0f;
    let pieces: Vec<u8> = header[1 + usize::from(more_pawns)..]
        .iter()
        .map(|&x| nibble(x))
        .collect();
    check_pieces(&pieces, layout).map_err(|what| Defect::bad(at, what))?;

    let order = nibble(header[0]) as usize;
    let order2 = if more_pawns {
        nibble(header[1]) as usize
    } else {
        0x0f
    };

    let mut norm = vec![0u8; n_pieces];
    let mut k = if file_enc {
        layout.pawns[0]
    } else if layout.kk_enc {
        2
    } else {
        3
    };
    norm[0] = k as u8;
    if more_pawns {
        norm[k] = layout.pawns[1] as u8;
        k += layout.pawns[1];
    }
    let mut i = k;
    while i < n_pieces {
        let mut j = i;
        while j < n_pieces && pieces[j] == pieces[i] {
            norm[i] += 1;
            j += 1;
        }
        i += norm[i] as usize;
    }

    let bad = Defect::bad(at, "table size overflows");
    let mut factor = vec![0u64; n_pieces];
    let (mut set_order, mut set_order2) = (false, !more_pawns);
    let mut n = 64 - k as u64;
    let mut f = 1u64;
    let mut i = 0;
    while k < n_pieces || i == order || i == order2 {
        if i == order {
            factor[0] = f;
            let m = if file_enc {
                PAWN_IDX.1[norm[0] as usize - 1][t]
            } else if layout.kk_enc {
                462
            } else {
                31332
            };
            f = f.checked_mul(m).ok_or(bad)?;
            set_order = true;
        } else if i == order2 {
            let lead = norm[0] as usize;
            factor[lead] = f;
            f = f
                .checked_mul(subfactor(u64::from(norm[lead]), 48 - lead as u64).ok_or(bad)?)
                .ok_or(bad)?;
            set_order2 = true;
        } else {
            factor[k] = f;
            f = f
                .checked_mul(subfactor(u64::from(norm[k]), n).ok_or(bad)?)
                .ok_or(bad)?;
            n -= u64::from(norm[k]);
            k += norm[k] as usize;
        }
        i += 1;
    }
    if !set_order || !set_order2 {
        return Err(Defect::bad(
            at,
            "the order nibbles place no factor for the leading pieces",
        ));
    }
    Ok(EncHeader {
        pieces,
        norm,
        factor,
        size: f,
    })
}

/// The piece list must be the table's own material, like pieces side by side, and in a
/// pawn table begin with the leading pawns (then the other colour's).
fn check_pieces(pieces: &[u8], layout: &Layout) -> Result<(), &'static str> {
    let mut counts = [[0u8; 6]; 2];
    for (i, &code) in pieces.iter().enumerate() {
        let (color, role) = valid_piece(code).ok_or("bad piece code in the piece list")?;
        counts[color as usize][role as usize - 1] += 1;
        if i > 0 && pieces[i - 1] != code && pieces[..i - 1].contains(&code) {
            return Err("like pieces are not side by side in the piece list");
        }
    }
    if counts != layout.material.counts {
        return Err("the piece list is not the table's material");
    }
    if layout.has_pawns {
        let lead = pieces[0];
        if lead & 7 != 1 || pieces[..layout.pawns[0]].iter().any(|&c| c != lead) {
            return Err("a pawn table's piece list does not begin with its leading pawns");
        }
        let other = lead ^ 8;
        if pieces[layout.pawns[0]..layout.pawns[0] + layout.pawns[1]]
            .iter()
            .any(|&c| c != other)
        {
            return Err("the other side's pawns do not follow the leading pawns");
        }
    }
    Ok(())
}

/// Reads one sub-table's Huffman header at `*pos` (Fathom's `setup_pairs`); returns the
/// decoder, the sizes of its index table, size table and data, and its flags byte.
fn setup_pairs(
    b: &[u8],
    pos: &mut usize,
    tb_size: u64,
    kind: Kind,
) -> Result<(Pairs, [u64; 3], u8), Defect> {
    let at = *pos;
    let flags = u8_at(b, at)?;
    if flags & 0x80 != 0 {
        let v = u8_at(b, at + 1)?;
        *pos = at + 2;
        let value = if kind == Kind::Wdl { v } else { 0 };
        return Ok((Pairs::Const([value, 0]), [0; 3], flags));
    }
    let head = slice(b, at, 10)?;
    let block_size = u32::from(head[1]);
    let idx_bits = u32::from(head[2]);
    let real_num_blocks = u64::from(u32::from_le_bytes([head[4], head[5], head[6], head[7]]));
    let num_blocks = real_num_blocks + u64::from(head[3]);
    let max_len = u32::from(head[8]);
    let min_len = u32::from(head[9]);
    if min_len == 0 || max_len < min_len || max_len > 64 {
        return Err(Defect::bad(at + 8, "Huffman code lengths out of range"));
    }
    if idx_bits == 0 || idx_bits > 63 {
        return Err(Defect::bad(at + 2, "index bits out of range"));
    }
    let h = (max_len - min_len + 1) as usize;
    let offset = at + 10;
    let num_syms = u16_le(b, at + 10 + 2 * h)? as usize;
    if num_syms > 4096 {
        return Err(Defect::bad(
            at + 10 + 2 * h,
            "more than 4096 Huffman symbols",
        ));
    }
    let sym_pat = at + 12 + 2 * h;
    let pat = slice(b, sym_pat, 3 * num_syms)?;
    *pos = sym_pat + 3 * num_syms + (num_syms & 1);

    let num_indices = tb_size.div_ceil(1u64 << idx_bits);
    let overflow = Defect::bad(at, "section size overflows");
    let sizes = [
        num_indices.checked_mul(6).ok_or(overflow)?,
        num_blocks * 2,
        real_num_blocks
            .checked_shl(block_size)
            .filter(|&s| s >> block_size == real_num_blocks)
            .ok_or(overflow)?,
    ];

    let sym_len = symbol_lengths(pat, num_syms).map_err(|what| Defect::bad(sym_pat, what))?;

    let offsets = slice(b, offset, 2 * h)?;
    let off = |i: usize| u64::from(u16::from_le_bytes([offsets[2 * i], offsets[2 * i + 1]]));
    let mut base = vec![0u64; h];
    for i in (0..h - 1).rev() {
        base[i] = base[i + 1].wrapping_add(off(i)).wrapping_sub(off(i + 1)) / 2;
    }
    for (i, v) in base.iter_mut().enumerate() {
        *v = shl(*v, 64 - (u64::from(min_len) + i as u64));
    }

    Ok((
        Pairs::Huffman(Box::new(Huffman {
            block_size,
            idx_bits,
            min_len,
            num_blocks,
            real_num_blocks,
            num_indices,
            num_syms,
            offset,
            sym_pat,
            index_table: 0,
            size_table: 0,
            data: 0,
            sym_len,
            base,
        })),
        sizes,
        flags,
    ))
}

/// How many values each symbol expands to, less one (Fathom's recursive `calc_symLen`, here
/// iterative so that a cyclic tree in a damaged file is found instead of overflowing the
/// stack). A symbol whose right child is 0xfff is a leaf.
fn symbol_lengths(pat: &[u8], num_syms: usize) -> Result<Vec<u8>, &'static str> {
    const UNSEEN: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let children = |s: usize| {
        let w = &pat[3 * s..3 * s + 3];
        let s1 = ((w[1] as usize & 0xf) << 8) | w[0] as usize;
        let s2 = ((w[2] as usize) << 4) | (w[1] as usize >> 4);
        (s1, s2)
    };
    let mut len = vec![0u32; num_syms];
    let mut state = vec![UNSEEN; num_syms];
    let mut stack = Vec::new();
    for root in 0..num_syms {
        if state[root] != UNSEEN {
            continue;
        }
        stack.push(root);
        while let Some(&s) = stack.last() {
            let (s1, s2) = children(s);
            if s2 == 0x0fff {
                len[s] = 0;
                state[s] = DONE;
                stack.pop();
                continue;
            }
            if s1 >= num_syms || s2 >= num_syms {
                return Err("a Huffman symbol refers to a symbol that does not exist");
            }
            state[s] = OPEN;
            let mut pending = false;
            for c in [s1, s2] {
                match state[c] {
                    UNSEEN => {
                        stack.push(c);
                        pending = true;
                    }
                    OPEN => return Err("the Huffman symbol tree has a cycle"),
                    _ => {}
                }
            }
            if !pending {
                len[s] = len[s1] + len[s2] + 1;
                if len[s] > 255 {
                    return Err("a Huffman symbol expands to more than 256 values");
                }
                state[s] = DONE;
                stack.pop();
            }
        }
    }
    Ok(len.into_iter().map(|l| l as u8).collect())
}

/// The leading pawn first (the one the file encoding orders first); returns its file's
/// sub-table, 0..4 (Fathom's `leading_pawn`).
fn leading_pawn(p: &mut [u8; 64], layout: &Layout) -> usize {
    for i in 1..layout.pawns[0] {
        if FLAP[p[0] as usize & 63] > FLAP[p[i] as usize & 63] {
            p.swap(0, i);
        }
    }
    FILE_TO_FILE[p[0] as usize & 7] as usize
}

/// The position's index in the sub-table (Fathom's `encode` for the piece and file
/// encodings). `p` holds the squares in the sub-table's piece order.
fn encode(p: &mut [u8], ei: &EncInfo, layout: &Layout) -> Result<u64, Defect> {
    let n = p.len();
    let bad = |what| Defect::bad(5, what);
    if p[0] & 0x04 != 0 {
        for s in p.iter_mut() {
            *s ^= 0x07;
        }
    }
    let mut idx: u64;
    let mut k: usize;
    if layout.has_pawns {
        let lead = layout.pawns[0];
        for i in 1..lead {
            for j in i + 1..lead {
                if PAWN_TWIST[p[i] as usize] < PAWN_TWIST[p[j] as usize] {
                    p.swap(i, j);
                }
            }
        }
        k = lead;
        idx = PAWN_IDX.0[k - 1][FLAP[p[0] as usize] as usize];
        for i in 1..k {
            idx = idx.wrapping_add(BINOMIAL[k - i][PAWN_TWIST[p[i] as usize] as usize]);
        }
        idx = idx.wrapping_mul(ei.factor[0]);

        // The other colour's pawns.
        if layout.pawns[1] > 0 {
            let t = k + layout.pawns[1];
            p[k..t].sort_unstable();
            let mut s = 0u64;
            for i in k..t {
                let sq = p[i] as usize;
                let skips = p[..k].iter().filter(|&&q| sq > q as usize).count();
                let column = sq
                    .checked_sub(skips + 8)
                    .ok_or(bad("a pawn stands on a back rank"))?;
                s = s.wrapping_add(BINOMIAL[i - k + 1][column]);
            }
            idx = idx.wrapping_add(s.wrapping_mul(ei.factor[k]));
            k = t;
        }
    } else {
        if p[0] & 0x20 != 0 {
            for s in p.iter_mut() {
                *s ^= 0x38;
            }
        }
        let lead = if layout.kk_enc { 2 } else { 3 };
        for i in 0..n {
            let d = OFF_DIAG[p[i] as usize];
            if d != 0 {
                if d > 0 && i < lead {
                    for s in p.iter_mut() {
                        *s = FLIP_DIAG[*s as usize];
                    }
                }
                break;
            }
        }
        let (p0, p1) = (p[0] as usize, p[1] as usize);
        if layout.kk_enc {
            let v = KK_IDX[TRIANGLE[p0] as usize][p1];
            if v < 0 {
                return Err(bad("the kings stand where no table index exists"));
            }
            idx = v as u64;
            k = 2;
        } else {
            let p2 = p[2] as usize;
            let s1 = usize::from(p1 > p0);
            let s2 = usize::from(p2 > p0) + usize::from(p2 > p1);
            idx = if OFF_DIAG[p0] != 0 {
                TRIANGLE[p0] as usize * 63 * 62 + (p1 - s1) * 62 + (p2 - s2)
            } else if OFF_DIAG[p1] != 0 {
                6 * 63 * 62 + DIAG[p0] as usize * 28 * 62 + LOWER[p1] as usize * 62 + p2 - s2
            } else if OFF_DIAG[p2] != 0 {
                6 * 63 * 62
                    + 4 * 28 * 62
                    + DIAG[p0] as usize * 7 * 28
                    + (DIAG[p1] as usize - s1) * 28
                    + LOWER[p2] as usize
            } else {
                6 * 63 * 62
                    + 4 * 28 * 62
                    + 4 * 7 * 28
                    + DIAG[p0] as usize * 7 * 6
                    + (DIAG[p1] as usize - s1) * 6
                    + (DIAG[p2] as usize - s2)
            } as u64;
            k = 3;
        }
        idx = idx.wrapping_mul(ei.factor[0]);
    }

    while k < n {
        let t = k + ei.norm[k] as usize;
        if t > n || t == k {
            return Err(bad("piece groups do not cover the piece list"));
        }
        p[k..t].sort_unstable();
        let mut s = 0u64;
        for i in k..t {
            let sq = p[i] as usize;
            let skips = p[..k].iter().filter(|&&q| sq > q as usize).count();
            let row = BINOMIAL
                .get(i - k + 1)
                .ok_or(bad("a group of like pieces is too large"))?;
            s = s.wrapping_add(row[sq - skips]);
        }
        idx = idx.wrapping_add(s.wrapping_mul(ei.factor[k]));
        k = t;
    }
    Ok(idx)
}

/// The value at `idx` (Fathom's `decompress_pairs` with 64-bit decoding): the first two
/// bytes of the symbol's pattern.
fn decompress(pairs: &Pairs, b: &[u8], idx: u64, size: u64) -> Result<[u8; 2], Defect> {
    let d = match pairs {
        Pairs::Const(v) => return Ok(*v),
        Pairs::Huffman(d) => d,
    };
    if idx >= size {
        return Err(Defect::bad(
            d.index_table,
            "position index outside the table",
        ));
    }
    let main_idx = idx >> d.idx_bits;
    if main_idx >= d.num_indices {
        return Err(Defect::bad(
            d.index_table,
            "position index outside the index table",
        ));
    }
    let mut lit_idx = (idx & ((1u64 << d.idx_bits) - 1)) as i64 - (1i64 << (d.idx_bits - 1));
    let entry = d.index_table + 6 * main_idx as usize;
    let mut block = u64::from(u32_le(b, entry)?);
    lit_idx += i64::from(u16_le(b, entry + 4)?);

    let size_of = |block: u64| -> Result<i64, Defect> {
        if block >= d.num_blocks {
            return Err(Defect::bad(d.size_table, "block outside the size table"));
        }
        Ok(i64::from(u16_le(b, d.size_table + 2 * block as usize)?))
    };
    if lit_idx < 0 {
        while lit_idx < 0 {
            if block == 0 {
                return Err(Defect::bad(entry, "block before the first"));
            }
            block -= 1;
            lit_idx += size_of(block)? + 1;
        }
    } else {
        while lit_idx > size_of(block)? {
            lit_idx -= size_of(block)? + 1;
            block += 1;
        }
    }
    if block >= d.real_num_blocks {
        return Err(Defect::bad(entry, "block outside the data"));
    }

    let mut ptr = d.data + ((block as usize) << d.block_size);
    let min_len = u64::from(d.min_len);
    let mut code = be_padded::<8>(b, ptr);
    ptr += 8;
    let mut bit_cnt = 0u64;
    let mut sym;
    loop {
        let mut l = 0usize;
        // base[h - 1] is 0, so this stops inside the table.
        while code < d.base[l] {
            l += 1;
        }
        let len = min_len + l as u64;
        let first = u64::from(u16_le(b, d.offset + 2 * l)?);
        let s = first + shr(code - d.base[l], 64 - len);
        if s >= d.num_syms as u64 {
            return Err(Defect::bad(d.offset, "Huffman code decodes to no symbol"));
        }
        sym = s as usize;
        let run = i64::from(d.sym_len[sym]) + 1;
        if lit_idx < run {
            break;
        }
        lit_idx -= run;
        code = shl(code, len);
        bit_cnt += len;
        if bit_cnt >= 32 {
            bit_cnt -= 32;
            code |= shl(be_padded::<4>(b, ptr), bit_cnt);
            ptr += 4;
        }
    }
    // Walk down the symbol's pair tree to the value (children have shorter runs).
    while d.sym_len[sym] != 0 {
        let w = &b[d.sym_pat + 3 * sym..d.sym_pat + 3 * sym + 3];
        let s1 = ((w[1] as usize & 0xf) << 8) | w[0] as usize;
        let run = i64::from(d.sym_len[s1]) + 1;
        if lit_idx < run {
            sym = s1;
        } else {
            lit_idx -= run;
            sym = ((w[2] as usize) << 4) | (w[1] as usize >> 4);
        }
    }
    let w = &b[d.sym_pat + 3 * sym..d.sym_pat + 3 * sym + 2];
    Ok([w[0], w[1]])
}
