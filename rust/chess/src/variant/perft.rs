//! Perft for the variants: leaf counts by copy-make, the root's moves split over threads
//! (rayon) from depth 4.

use super::position::{VariantMove, VariantPosition};
use super::rules::Variant;
use rayon::prelude::*;

fn count<V: Variant>(pos: &VariantPosition<V>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_moves().len() as u64,
        _ => pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut next = *pos;
                next.play_unchecked(m);
                count(&next, depth - 1)
            })
            .sum(),
    }
}

/// The number of leaf positions `depth` plies below `pos` (python-chess's `perft`).
pub fn perft<V: Variant>(pos: &VariantPosition<V>, depth: u32) -> u64 {
    if depth < 4 {
        return count(pos, depth);
    }
    perft_divide(pos, depth).iter().map(|(_, n)| n).sum()
}

/// Each legal move with the leaf count below it (`depth` ≥ 1).
pub fn perft_divide<V: Variant>(pos: &VariantPosition<V>, depth: u32) -> Vec<(VariantMove, u64)> {
    pos.legal_moves()
        .into_par_iter()
        .map(|m| {
            let mut next = *pos;
            next.play_unchecked(m);
            (m, count(&next, depth.saturating_sub(1)))
        })
        .collect()
}
