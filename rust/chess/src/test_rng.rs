//! Seeded randomness for the crate's tests: xorshift64 (the PGN crate's tests use the same
//! generator) and the text mutation the FEN readers are fuzzed with, one place for both.

/// xorshift64: a deterministic stream from a fixed seed, so a failing case can be replayed.
pub(crate) struct Xorshift(u64);

impl Xorshift {
    pub(crate) fn new(seed: u64) -> Xorshift {
        Xorshift(seed)
    }

    /// The next number below `n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    /// One random edit of `text` at byte `at` (`at <= text.len()`): a byte replaced, removed
    /// or inserted, the new bytes drawn from `alphabet`. At the end only insertion is possible.
    pub(crate) fn mutate_at(&mut self, text: &mut Vec<u8>, at: usize, alphabet: &[u8]) {
        match self.below(3) {
            0 if at < text.len() => text[at] = alphabet[self.below(alphabet.len())],
            1 if at < text.len() => {
                text.remove(at);
            }
            _ => text.insert(at, alphabet[self.below(alphabet.len())]),
        }
    }
}
