//! How a perspective's pieces become rows of the first layer: the plain 768 inputs, or
//! king-bucketed, horizontally mirrored ones (file architecture 3).
//!
//! Every piece is first named by its *piece-square* `64 · (6 · colour + role) + square` as
//! White sees it ([`super::feature`] with White's perspective). A perspective then reads it
//! through a [`View`]:
//!
//! ```text
//! oriented = piece-square                      for White's view
//!          = black_view(piece-square)          for Black's (colours swap, ranks flip)
//! row      = bucket · 768 + (oriented XOR flip)
//! ```
//!
//! With plain inputs `bucket = 0` and `flip = 0`. With king buckets, the perspective's own king
//! (oriented the same way) chooses both: on files e–h the whole view is mirrored left to right
//! (`flip = 7`, which XORs only the file bits), so the king is always seen on files a–d, and
//! `bucket = map[4 · rank + file]` of that mirrored square. A move of anything but a king
//! keeps both views; a king move that crosses a bucket or the d/e line changes only its own
//! side's view, whose accumulator is then rebuilt ([`super::AccumulatorStack`]).
//!
//! The engine, the trainer (`rust/train`) and the shader's definition all compute rows with
//! [`View::row`], so the three cannot disagree on an index.

use super::{INPUTS, black_view};
use shatranj_chess::Color;

/// The king squares a mirrored view can see: four files × eight ranks.
pub const KING_SQUARES: usize = 32;
/// The most king buckets a file may have.
pub const MAX_KING_BUCKETS: usize = 32;

/// How the first layer's rows are chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Inputs {
    /// 768 rows, the same for every king square (file architectures 1 and 2).
    Plain,
    /// `K × 768` rows: one block per king bucket, the view mirrored when its king is on
    /// files e–h (file architecture 3).
    KingBuckets(KingBuckets),
}

/// Which bucket each king square of a mirrored view uses: `map[4 · rank + file]`, files a–d,
/// ranks 1–8 from the perspective's own side. Every bucket `0 .. count` is used.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct KingBuckets {
    map: [u8; KING_SQUARES],
    count: u8,
}

/// Why a king-bucket map was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BucketMapError(pub String);

impl std::fmt::Display for BucketMapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BucketMapError {}

impl KingBuckets {
    /// A map of 32 buckets, checked: every entry below [`MAX_KING_BUCKETS`] and every bucket
    /// from 0 to the largest used (so no block of rows is dead weight).
    pub fn new(map: [u8; KING_SQUARES]) -> Result<KingBuckets, BucketMapError> {
        let count = usize::from(*map.iter().max().unwrap_or(&0)) + 1;
        if count > MAX_KING_BUCKETS {
            return Err(BucketMapError(format!(
                "king bucket {} is beyond the largest allowed, {}",
                count - 1,
                MAX_KING_BUCKETS - 1
            )));
        }
        if let Some(unused) = (0..count).find(|&b| !map.iter().any(|&m| usize::from(m) == b)) {
            return Err(BucketMapError(format!(
                "king bucket {unused} is used by no square (buckets must be 0 .. K, each used)"
            )));
        }
        Ok(KingBuckets {
            map,
            count: count as u8,
        })
    }

    /// One of the named layouts, by its number of buckets (see [`KingBuckets::PRESETS`]).
    pub fn preset(count: usize) -> Option<KingBuckets> {
        KingBuckets::PRESETS
            .iter()
            .find(|(k, _)| *k == count)
            .and_then(|(_, rows)| {
                let mut map = [0u8; KING_SQUARES];
                for (rank, row) in rows.iter().enumerate() {
                    map[4 * rank..4 * rank + 4].copy_from_slice(row);
                }
                KingBuckets::new(map).ok()
            })
    }

    /// The named layouts, rank 1 first (files a–d): more buckets where the king usually is
    /// (its own back ranks), one for the rest of the board.
    pub const PRESETS: [(usize, [[u8; 4]; 8]); 4] = [
        (1, [[0; 4]; 8]),
        (
            2,
            [
                [0; 4], [1; 4], [1; 4], [1; 4], [1; 4], [1; 4], [1; 4], [1; 4],
            ],
        ),
        (
            4,
            [
                [0, 0, 1, 1],
                [2, 2, 2, 2],
                [3; 4],
                [3; 4],
                [3; 4],
                [3; 4],
                [3; 4],
                [3; 4],
            ],
        ),
        (
            8,
            [
                [0, 1, 2, 3],
                [4, 4, 5, 5],
                [6; 4],
                [6; 4],
                [7; 4],
                [7; 4],
                [7; 4],
                [7; 4],
            ],
        ),
    ];

    pub fn count(&self) -> usize {
        usize::from(self.count)
    }

    /// The bucket of each mirrored king square, `4 · rank + file`.
    pub fn map(&self) -> &[u8; KING_SQUARES] {
        &self.map
    }

    /// The bucket of a king on `oriented` (a square of the perspective's own orientation,
    /// files a–d after mirroring).
    #[inline]
    fn bucket(&self, mirrored: usize) -> usize {
        usize::from(self.map[(mirrored >> 3) * 4 + (mirrored & 3)])
    }
}

impl std::str::FromStr for KingBuckets {
    type Err = BucketMapError;

    /// `K` for a preset (1, 2, 4 or 8), or 32 comma-separated bucket numbers, rank 1 first,
    /// files a–d within a rank.
    fn from_str(text: &str) -> Result<KingBuckets, BucketMapError> {
        let text = text.trim();
        if !text.contains(',') {
            let k: usize = text.parse().map_err(|_| {
                BucketMapError(format!(
                    "king buckets {text:?}: expected 1, 2, 4 or 8, or 32 comma-separated buckets"
                ))
            })?;
            return KingBuckets::preset(k).ok_or_else(|| {
                BucketMapError(format!(
                    "no preset of {k} king buckets (1, 2, 4 or 8; or give 32 comma-separated buckets)"
                ))
            });
        }
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        if parts.len() != KING_SQUARES {
            return Err(BucketMapError(format!(
                "a king-bucket map has {KING_SQUARES} entries (files a-d, ranks 1-8), got {}",
                parts.len()
            )));
        }
        let mut map = [0u8; KING_SQUARES];
        for (slot, part) in map.iter_mut().zip(&parts) {
            *slot = part
                .parse()
                .map_err(|_| BucketMapError(format!("king bucket {part:?} is not a number")))?;
        }
        KingBuckets::new(map)
    }
}

/// One perspective's reading of piece-squares: see the module docs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct View {
    black: bool,
    /// 7 when mirrored left to right, else 0.
    flip: u8,
    /// `bucket · 768`.
    offset: u32,
}

impl View {
    /// The plain view of `perspective` (no bucket, no mirror).
    pub const fn plain(perspective: Color) -> View {
        View {
            black: matches!(perspective, Color::Black),
            flip: 0,
            offset: 0,
        }
    }

    /// The row of the piece-square `piece_square` (White's naming) in this view.
    #[inline(always)]
    pub fn row(self, piece_square: usize) -> usize {
        let oriented = if self.black {
            black_view(piece_square)
        } else {
            piece_square
        };
        self.offset as usize + (oriented ^ usize::from(self.flip))
    }

    /// The king bucket this view reads.
    pub fn bucket(self) -> usize {
        self.offset as usize / INPUTS
    }

    /// Whether the view is mirrored left to right.
    pub fn mirrored(self) -> bool {
        self.flip != 0
    }
}

impl Inputs {
    /// Rows of the first layer.
    pub fn count(&self) -> usize {
        match self {
            Inputs::Plain => INPUTS,
            Inputs::KingBuckets(k) => k.count() * INPUTS,
        }
    }

    /// Whether a king move can change a view (and so force a refresh).
    #[inline(always)]
    pub fn king_dependent(&self) -> bool {
        matches!(self, Inputs::KingBuckets(_))
    }

    /// The view of `perspective` whose own king stands on `king` (White's square numbering).
    /// A side without a king (never a legal position) reads as if its king were on its own
    /// a1, so every path, the GPU's included, agrees on such input too.
    #[inline]
    #[allow(clippy::decimal_bitwise_operands)] // `^ 56`: the vertical flip, as chess writes it
    pub fn view(&self, perspective: Color, king: Option<usize>) -> View {
        let plain = View::plain(perspective);
        let Inputs::KingBuckets(k) = self else {
            return plain;
        };
        let oriented = match (king, perspective) {
            (None, _) => 0,
            (Some(sq), Color::White) => sq,
            (Some(sq), Color::Black) => sq ^ 56,
        };
        let flip = if oriented & 7 >= 4 { 7 } else { 0 };
        let bucket = k.bucket(oriented ^ flip);
        View {
            flip: flip as u8,
            offset: (bucket * INPUTS) as u32,
            ..plain
        }
    }

    /// The king squares of both sides among piece-squares: the lowest square of each king
    /// (White's, Black's), as [`super::CompactPosition`] and the shader find them.
    pub fn kings(piece_squares: impl IntoIterator<Item = usize>) -> [Option<usize>; 2] {
        let mut kings = [None; 2];
        for ps in piece_squares {
            let (code, sq) = (ps / 64, ps % 64);
            let side = match code {
                5 => 0,
                11 => 1,
                _ => continue,
            };
            let k: &mut Option<usize> = &mut kings[side];
            if k.is_none_or(|s| sq < s) {
                *k = Some(sq);
            }
        }
        kings
    }

    /// Both views of a position whose pieces are `piece_squares`: `(White's, Black's)`.
    pub fn views(&self, piece_squares: impl IntoIterator<Item = usize>) -> (View, View) {
        if !self.king_dependent() {
            return (View::plain(Color::White), View::plain(Color::Black));
        }
        let [w, b] = Inputs::kings(piece_squares);
        (self.view(Color::White, w), self.view(Color::Black, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::feature;
    use shatranj_chess::Role;

    /// A king on e1 and on d1 see the same board mirrored: each piece's row in one view is
    /// the row of its file-mirrored twin in the other.
    #[test]
    fn a_king_on_the_right_half_mirrors_the_view() {
        let inputs = Inputs::KingBuckets(KingBuckets::preset(4).unwrap());
        let e1 = inputs.view(Color::White, Some(4));
        let d1 = inputs.view(Color::White, Some(3));
        assert!(e1.mirrored() && !d1.mirrored());
        assert_eq!(e1.bucket(), d1.bucket());
        for sq in 0..64 {
            let ps = feature(Color::White, Color::Black, Role::Knight, sq);
            let twin = feature(Color::White, Color::Black, Role::Knight, sq ^ 7);
            assert_eq!(e1.row(ps), d1.row(twin));
        }
        // Black's king on e8 is its own e1: the same bucket, mirrored too.
        let e8 = inputs.view(Color::Black, Some(60));
        assert_eq!((e8.bucket(), e8.mirrored()), (e1.bucket(), true));
        // A white pawn on a2 is, for Black with its king on e8, an enemy pawn on h7.
        let ps = feature(Color::White, Color::White, Role::Pawn, 8);
        assert_eq!(
            e8.row(ps),
            e8.bucket() * INPUTS + feature(Color::White, Color::Black, Role::Pawn, 55)
        );
    }

    /// Each preset's buckets follow its table, every row lands in its bucket's block, and
    /// plain inputs ignore the king.
    #[test]
    fn buckets_choose_the_block_of_rows() {
        let k4 = KingBuckets::preset(4).unwrap();
        let inputs = Inputs::KingBuckets(k4);
        assert_eq!(inputs.count(), 4 * INPUTS);
        // (square, bucket): a1 0, b1 0, c1 1, g1 (mirrored b1) 0, f1 (c1) 1, e2 2, e5 3.
        for (sq, bucket) in [(0, 0), (1, 0), (2, 1), (6, 0), (5, 1), (12, 2), (36, 3)] {
            let v = inputs.view(Color::White, Some(sq));
            assert_eq!(v.bucket(), bucket, "square {sq}");
            for ps in [0, 383, 384, 767] {
                assert_eq!(v.row(ps) / INPUTS, bucket);
            }
        }
        for sq in [None, Some(0), Some(63)] {
            for c in Color::ALL {
                assert_eq!(Inputs::Plain.view(c, sq), View::plain(c));
            }
        }
        for (k, _) in KingBuckets::PRESETS {
            assert_eq!(KingBuckets::preset(k).unwrap().count(), k);
        }
    }

    #[test]
    fn maps_parse_and_bad_ones_are_refused() {
        assert_eq!(
            "4".parse::<KingBuckets>(),
            Ok(KingBuckets::preset(4).unwrap())
        );
        let mut text = vec!["0"; 32];
        text[31] = "1";
        let m: KingBuckets = text.join(",").parse().unwrap();
        assert_eq!((m.count(), m.map()[31]), (2, 1));
        text[31] = "2";
        let e = text.join(",").parse::<KingBuckets>().unwrap_err();
        assert!(e.0.contains("bucket 1 is used by no square"), "{e}");
        for bad in ["3", "x", "0,1", "40"] {
            assert!(bad.parse::<KingBuckets>().is_err(), "{bad}");
        }
        let mut map = [0u8; 32];
        map[0] = 32;
        assert!(KingBuckets::new(map).is_err());
    }

    #[test]
    fn kings_are_the_lowest_square_of_each() {
        let k = |c: Color, sq: usize| feature(Color::White, c, Role::King, sq);
        assert_eq!(Inputs::kings([k(Color::White, 9), 3]), [Some(9), None]);
        assert_eq!(
            Inputs::kings([k(Color::Black, 60), k(Color::Black, 2), k(Color::White, 4)]),
            [Some(4), Some(2)]
        );
    }
}
