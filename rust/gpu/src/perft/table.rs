//! The GPU perft's hash table of subtree counts: the host's copy of the key and entry format
//! that `shaders/perft_table.wgsl` implements (the tests hold the two to each other by
//! writing entries from the host that the shader must accept or reject).
//!
//! WGSL has only 32-bit atomics and no ordering between locations, so an entry of four
//! words can be read while another invocation is writing it: the reader may see any mix of
//! the words of two (or more) stores. The entry is laid out so that such a mix fails the
//! check unless a 64-bit hash coincidence happens, the same odds as two positions sharing a
//! key (Hyatt's lockless scheme, with every key word masked by a hash of *both* data words):
//!
//! ```text
//! entry  = [k0 ^ h0(d0, d1), k1 ^ h1(d0, d1), d0, d1]      4 x u32, 16 bytes
//! d0, d1 = count (56 bits, low word first), remaining depth in d1's top byte
//! bucket = 2 entries (32 bytes): slot 0 keeps the deeper subtree, slot 1 takes the rest
//! ```
//!
//! A reader recomputes `h` from the data words it read and accepts the entry when both key
//! words unmask to the probe's key. If the data words come from one store X, the key words
//! from another store Y unmask to `kY ^ hY ^ hX`: the probe's key only when `h(X) = h(Y)`
//! on that word (2^-32 per word), and if every word is X's the count is X's own, which is
//! right. If the data words come from two stores, the data is a value nobody wrote and its
//! mask is unrelated to every stored mask: the key matches with odds 2^-64.
//!
//! The key is 96 bits hashed from the position record itself (the 14 bitboard words, the
//! state word, the remaining depth, the castling rooks' files): 64 bits are checked, 32 pick
//! the bucket, so the check bits are not spent on the index. An en-passant square no pawn of the side to move
//! attacks is left out (the shader sets one after every double push, and it changes no
//! count), so that move orders with and without a double push meet. The shader hashes a position only where it probes or
//! stores, once per position at two levels of a batch (the roots and the positions two plies
//! above the leaves), about 1 % of the work of counting that position's two plies; an
//! incremental Zobrist key would cost a table lookup in every move made at every level and
//! 8 more bytes in every record copied, whether the table is used or not.

use super::record::GpuPosition;

/// Words per entry and per bucket.
pub const ENTRY_WORDS: usize = 4;
pub const BUCKET_WORDS: usize = 2 * ENTRY_WORDS;
/// Bytes per bucket.
pub const BUCKET_BYTES: u64 = BUCKET_WORDS as u64 * 4;
/// Counts of 2^56 leaves or more are not stored.
pub const MAX_COUNT: u64 = (1 << 56) - 1;

const P1: u32 = 0x9E37_79B1;
const P2: u32 = 0x85EB_CA77;
const P3: u32 = 0xC2B2_AE3D;
const P4: u32 = 0x27D4_EB2F;
const P5: u32 = 0x1656_67B1;

/// murmur3's 32-bit finaliser (a bijection with full avalanche).
pub fn fmix(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x85EB_CA6B);
    x ^= x >> 13;
    x = x.wrapping_mul(0xC2B2_AE35);
    x ^ (x >> 16)
}

/// A position's key at a remaining depth: two words checked, one picking the bucket.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    pub check: [u32; 2],
    pub index: u32,
}

/// `flags` without an en-passant square that no pawn of the side to move attacks.
pub fn state_word(p: &GpuPosition) -> u32 {
    const NOT_FILE_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_FILE_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let ep = (p.flags >> 8) & 0xFF;
    if ep == 0 {
        return p.flags & 0xFFFF;
    }
    let white = p.flags & 1 == 0;
    let occupied = p.bitboards[..6].iter().fold(0, |a, b| a | b);
    let us = if white {
        p.bitboards[6]
    } else {
        occupied & !p.bitboards[6]
    };
    let target = 1u64 << ep;
    // The squares from which a pawn of the side to move takes on the target.
    let from = if white {
        (target >> 7 & NOT_FILE_A) | (target >> 9 & NOT_FILE_H)
    } else {
        (target << 9 & NOT_FILE_A) | (target << 7 & NOT_FILE_H)
    };
    if from & p.bitboards[0] & us == 0 {
        p.flags & 0xFF
    } else {
        p.flags & 0xFFFF
    }
}

/// The key of `p` (its origin ignored) with `depth` plies left.
pub fn key(p: &GpuPosition, depth: u32) -> Key {
    let mut words = [0u32; 16];
    for (i, b) in p.bitboards.iter().enumerate() {
        words[2 * i] = *b as u32;
        words[2 * i + 1] = (*b >> 32) as u32;
    }
    words[14] = state_word(p) | depth << 16;
    // The castling rooks' files (Chess960 games may share a board and rights, not rooks).
    words[15] = p.flags >> 16;
    // Three lanes with their own constants and rotations (xxHash32's round).
    let (mut a, mut b, mut c) = (0x2545_F491u32, 0x6A09_E667u32, 0xBB67_AE85u32);
    for &w in &words {
        a = a
            .wrapping_add(w.wrapping_mul(P2))
            .rotate_left(13)
            .wrapping_mul(P1);
        b = b
            .wrapping_add(w.wrapping_mul(P3))
            .rotate_left(17)
            .wrapping_mul(P4);
        c = c
            .wrapping_add(w.wrapping_mul(P5))
            .rotate_left(11)
            .wrapping_mul(P2);
    }
    Key {
        check: [fmix(a), fmix(b)],
        index: fmix(c),
    }
}

/// The mask of the key words: a hash of both data words.
pub fn data_mask(d0: u32, d1: u32) -> [u32; 2] {
    let h0 = fmix(d0 ^ fmix(d1 ^ 0x3C6E_F372));
    let h1 = fmix(d1 ^ fmix(d0 ^ 0xA54F_F53A) ^ 0x510E_527F);
    [h0, h1]
}

/// The four words stored for `key` with `count` leaves `depth` plies down.
pub fn encode(key: &Key, depth: u32, count: u64) -> [u32; ENTRY_WORDS] {
    assert!(count <= MAX_COUNT && depth < 256);
    let d0 = count as u32;
    let d1 = (count >> 32) as u32 | depth << 24;
    let [h0, h1] = data_mask(d0, d1);
    [key.check[0] ^ h0, key.check[1] ^ h1, d0, d1]
}

/// The count an entry's words hold for `key`, or `None` when they are another position's,
/// a mix of several stores, or empty.
pub fn verify(words: &[u32; ENTRY_WORDS], key: &Key) -> Option<u64> {
    let [h0, h1] = data_mask(words[2], words[3]);
    (words[0] ^ h0 == key.check[0] && words[1] ^ h1 == key.check[1])
        .then(|| u64::from(words[2]) | u64::from(words[3] & 0x00FF_FFFF) << 32)
}

/// The remaining depth an entry's words claim (slot choice only; a torn entry's is noise).
pub fn depth_of(words: &[u32; ENTRY_WORDS]) -> u32 {
    words[3] >> 24
}

#[cfg(test)]
mod tests {
    use super::*;
    use shatranj_chess::{Position, Square};

    fn records() -> Vec<GpuPosition> {
        let start = Position::new();
        let mut out = vec![GpuPosition::new(&start, 0)];
        for &m in &start.legal_moves() {
            let c = start.after(m).unwrap();
            out.push(GpuPosition::new(&c, 7));
            for &n in &c.legal_moves() {
                out.push(GpuPosition::new(&c.after(n).unwrap(), 9));
            }
        }
        out
    }

    #[test]
    fn an_entry_reads_back_for_its_key_only() {
        let all = records();
        let keys: Vec<Key> = all.iter().map(|p| key(p, 3)).collect();
        for (i, k) in keys.iter().enumerate() {
            let e = encode(k, 3, 1_000_000 + i as u64);
            assert_eq!(verify(&e, k), Some(1_000_000 + i as u64));
            assert_eq!(depth_of(&e), 3);
            for (j, other) in keys.iter().enumerate() {
                if j != i {
                    assert_eq!(verify(&e, other), None, "{i} read as {j}");
                }
            }
            // The same position at another depth is another key.
            assert_eq!(verify(&e, &key(&all[i], 4)), None);
        }
        // The origin is not part of the key; side and castling are.
        let mut moved = all[5];
        moved.origin += 3;
        assert_eq!(key(&moved, 3), keys[5]);
        for bit in [1, 2] {
            let mut other = all[5];
            other.flags ^= bit;
            assert_ne!(key(&other, 3), keys[5]);
        }
        assert_eq!(verify(&[0; 4], &keys[0]), None, "an empty entry");
    }

    /// Every mix of the words of two entries (each word from one or the other, as a reader
    /// racing a writer may see them) is rejected for both keys, unless it is one of the two
    /// entries (small counts share their high data word); for large counts the data words
    /// differ in both halves.
    #[test]
    fn a_torn_entry_is_rejected() {
        let all = records();
        let mut mixes = 0;
        for (i, pair) in all.windows(2).enumerate() {
            let (ka, kb) = (key(&pair[0], 4), key(&pair[1], 4));
            let counts = [(5 + i as u64, 6 + i as u64), (1 << 40 | i as u64, 7 << 33)];
            for (ca, cb) in counts {
                let a = encode(&ka, 4, ca);
                let b = encode(&kb, 4, cb);
                for mask in 1..(1 << ENTRY_WORDS) - 1 {
                    let torn: [u32; 4] =
                        std::array::from_fn(|w| if mask >> w & 1 == 1 { b[w] } else { a[w] });
                    // Words equal in both entries make some mixes one of the two.
                    let (as_a, as_b) = (torn == a, torn == b);
                    assert_eq!(
                        verify(&torn, &ka).is_some(),
                        as_a,
                        "pair {i} {mask:04b} as A"
                    );
                    assert_eq!(
                        verify(&torn, &kb).is_some(),
                        as_b,
                        "pair {i} {mask:04b} as B"
                    );
                    mixes += usize::from(!as_a && !as_b);
                }
            }
        }
        assert!(mixes > 10_000);
        // Two stores of the same key and count are the same words: any mix is that entry.
        let k = key(&all[3], 2);
        assert_eq!(encode(&k, 2, 77), encode(&k, 2, 77));
    }

    /// An en-passant square counts only where a pawn of the side to move could take there.
    #[test]
    fn en_passant_is_in_the_key_only_when_a_pawn_can_take() {
        let with_ep = |fen: &str, ep: Square| {
            let pos: Position = fen.parse().unwrap();
            let mut r = GpuPosition::new(&pos, 0);
            r.flags &= 0xFF;
            let plain = key(&r, 3);
            r.flags |= (ep.index() as u32) << 8;
            (plain, key(&r, 3))
        };
        // Black's d4 pawn takes on e3; White's e5 pawn takes on d6 (and nothing takes on a6).
        let (a, b) = with_ep("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1", Square::E3);
        assert_ne!(a, b);
        let (a, b) = with_ep("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", Square::D6);
        assert_ne!(a, b);
        // Nothing can take: 1.e4 from the start, a pawn on the wrong side, a file away.
        let (a, b) = with_ep(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            Square::E3,
        );
        assert_eq!(a, b);
        let (a, b) = with_ep("4k3/8/8/p7/7P/8/8/4K3 b - - 0 1", Square::H3);
        assert_eq!(a, b);
        let (a, b) = with_ep("4k3/8/8/8/2p1P3/8/8/4K3 b - - 0 1", Square::E3);
        assert_eq!(a, b);
    }

    #[test]
    fn keys_spread_over_buckets() {
        let all = records();
        let mut used = std::collections::HashSet::new();
        for p in &all {
            used.insert(key(p, 2).index & 63);
        }
        assert_eq!(used.len(), 64, "421 keys over 64 buckets");
    }
}
