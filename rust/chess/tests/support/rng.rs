//! The seeded generator of the randomised tests: xorshift64* (Vigna). Small, fast and the
//! same on every machine, so a printed seed reproduces a run.
//!
//! Included with `#[path = "support/rng.rs"] mod rng;`.
#![allow(dead_code)]

pub struct Rng(u64);

impl Rng {
    /// Starts from the seed itself (zero, which xorshift cannot leave, becomes one).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// Starts from the seed mixed by splitmix64, so nearby seeds give unrelated streams.
    pub fn mixed(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng::new(z ^ (z >> 31))
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform enough in `0..n` for picking moves (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}
