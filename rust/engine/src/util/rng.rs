//! The seeded random generator every deterministic tool uses: openings, the bench's
//! evaluation sample, the trainer's initial weights and shuffles, the GPU identity tests.

/// `SplitMix64`: tiny, fast, and good enough to pick opening moves; its whole state is one
/// `u64`, so a game's generator is a pure function of `(seed, index)`.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The generator of game `index` of the match seeded `seed`.
    pub fn for_game(seed: u64, index: u64) -> SplitMix64 {
        let mut g = SplitMix64(seed);
        let a = g.next_u64();
        SplitMix64(a ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), by Lemire's multiply-shift (bias below 2^-32 here).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_below_stays_in_range() {
        let mut g = SplitMix64::new(1);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            let v = g.below(5);
            seen[v] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
