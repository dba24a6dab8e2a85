//! Packing a chunk of positions into a mapped upload buffer, spread over rayon's threads.
//!
//! Both shaders read 32-byte [`CompactPosition`]s. Packed positions (112 bytes, what the
//! engine's batch back ends take) are converted on the way, tile by tile, straight into the
//! mapped memory the device copies from: no intermediate vector, and no thread left idle
//! while one converts (a single core converts a few hundred million records a second, below
//! what a `PCIe` 5 link carries at 32 bytes a record). Compact positions are copied as they are.

use rayon::prelude::*;
use shatranj_engine::eval::PackedPosition;
use shatranj_engine::nnue::CompactPosition;
use std::mem::size_of;
use wgpu::WriteOnly;

/// Bytes of one record on the GPU.
pub const RECORD_BYTES: usize = size_of::<CompactPosition>();
/// Positions per rayon task at least: below this, scheduling costs more than the copy.
pub const MIN_TILE: usize = 1024;
/// Positions converted on the stack before one write to the mapped memory.
const STRIDE: usize = 256;

/// Positions the context can upload.
pub trait Source: Sync {
    fn len(&self) -> usize;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes positions `start..start + n` as compact records into `dst` (`n` records long)
    /// and appends to `overflow` the indices of those with more than 32 pieces, whose record
    /// is incomplete.
    fn write(&self, start: usize, n: usize, dst: WriteOnly<'_, [u8]>, overflow: &mut Vec<usize>);
}

impl Source for [CompactPosition] {
    fn len(&self) -> usize {
        <[CompactPosition]>::len(self)
    }

    fn write(&self, start: usize, n: usize, mut dst: WriteOnly<'_, [u8]>, _: &mut Vec<usize>) {
        dst.copy_from_slice(bytemuck::cast_slice(&self[start..start + n]));
    }
}

impl Source for [PackedPosition] {
    fn len(&self) -> usize {
        <[PackedPosition]>::len(self)
    }

    fn write(&self, start: usize, n: usize, dst: WriteOnly<'_, [u8]>, overflow: &mut Vec<usize>) {
        let mut rest = dst;
        let mut tile = [CompactPosition::default(); STRIDE];
        for at in (start..start + n).step_by(STRIDE) {
            let m = STRIDE.min(start + n - at);
            for (i, (p, c)) in self[at..at + m].iter().zip(&mut tile).enumerate() {
                *c = CompactPosition::from_packed(p);
                if p.pieces.iter().map(|w| w.count_ones()).sum::<u32>() > 32 {
                    overflow.push(at + i);
                }
            }
            let (mut head, tail) = rest.split_at(m * RECORD_BYTES);
            head.copy_from_slice(bytemuck::cast_slice(&tile[..m]));
            rest = tail;
        }
    }
}

/// A piece of the mapped upload buffer handed to one rayon task.
struct Piece<'a>(WriteOnly<'a, [u8]>);

// SAFETY: a `WriteOnly<[u8]>` is an exclusive reference to bytes, as `&mut [u8]` is, which is
// `Send`; wgpu's own `Send` impl misses it only because its `T: Send` bound implies `Sized`.
// The pieces are disjoint (cut with `split_at`).
unsafe impl Send for Piece<'_> {}

/// How many positions each task packs, for a chunk of `n`: a few tasks per thread, so that
/// an unlucky thread does not hold the others up, and none smaller than [`MIN_TILE`].
pub fn tile_for(n: usize) -> usize {
    n.div_ceil(4 * rayon::current_num_threads()).max(MIN_TILE)
}

/// Writes `source[start..start + n]` into `dst` on rayon's threads; returns the number of
/// tasks and the overflowing positions' indices, in increasing order.
pub fn pack<S: Source + ?Sized>(
    source: &S,
    start: usize,
    n: usize,
    dst: WriteOnly<'_, [u8]>,
) -> (usize, Vec<usize>) {
    let tile = tile_for(n);
    let mut pieces = Vec::with_capacity(n.div_ceil(tile));
    let mut rest = dst;
    for at in (0..n).step_by(tile) {
        let m = tile.min(n - at);
        let (head, tail) = rest.split_at(m * RECORD_BYTES);
        pieces.push((start + at, m, Piece(head)));
        rest = tail;
    }
    let tasks = pieces.len();
    let overflow = pieces
        .into_par_iter()
        .map(|(at, m, piece)| {
            let mut overflow = Vec::new();
            source.write(at, m, piece.0, &mut overflow);
            overflow
        })
        .flatten()
        .collect();
    (tasks, overflow)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shatranj_chess::Position;

    #[test]
    fn packed_positions_become_the_compact_records_in_order() {
        let start = PackedPosition::from_position(&Position::new());
        let mut crowded = start;
        crowded.pieces[8] |= 0x00FF_0000; // eight more white queens on rank 3: 40 pieces
        let source: Vec<PackedPosition> = (0..3000)
            .map(|i| if i % 1000 == 7 { crowded } else { start })
            .collect();
        let mut bytes = vec![0u8; 2000 * RECORD_BYTES];
        let (tasks, overflow) = pack(&source[..], 500, 2000, WriteOnly::from(&mut bytes[..]));
        assert_eq!(tasks, 2000usize.div_ceil(tile_for(2000)));
        assert_eq!(overflow, vec![1007, 2007]);
        let records: &[CompactPosition] = bytemuck::cast_slice(&bytes);
        assert_eq!(records[0], CompactPosition::from_packed(&start));
        assert_eq!(records[507], CompactPosition::from_packed(&crowded));
        assert_eq!(records[1999], CompactPosition::from_packed(&start));

        let compact: Vec<CompactPosition> =
            source.iter().map(CompactPosition::from_packed).collect();
        let mut copied = vec![0u8; 2000 * RECORD_BYTES];
        let (_, none) = pack(&compact[..], 500, 2000, WriteOnly::from(&mut copied[..]));
        assert!(none.is_empty());
        assert_eq!(copied, bytes);
    }
}
