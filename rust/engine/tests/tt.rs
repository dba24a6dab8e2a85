//! The lock-free transposition table under concurrent writers: a torn entry is never
//! accepted.

use shatranj_engine::tt::{Bound, TranspositionTable};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The score and move every writer stores for `key`: any accepted entry must carry them.
fn payload(key: u64) -> (u16, i32, i32, i32) {
    let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (
        (h >> 48) as u16 | 1,
        i32::from((h >> 16) as u16 as i16) / 2,
        i32::from((h >> 32) as u16 as i16) / 2,
        (h % 64) as i32 + 1,
    )
}

#[test]
fn colliding_writers_never_produce_a_torn_entry() {
    // Two buckets (8 entries) for 64 keys: every store evicts or overwrites another thread's.
    let tt = TranspositionTable::with_buckets(2).unwrap();
    let keys: Vec<u64> = (1..=64u64)
        .map(|i| i.wrapping_mul(0xD6E8_FEB8_6659_FD93))
        .collect();
    let done = AtomicBool::new(false);
    let accepted = AtomicU64::new(0);
    let writes_per_thread = 200_000;
    std::thread::scope(|s| {
        for t in 0..3usize {
            let (tt, keys) = (&tt, &keys);
            s.spawn(move || {
                let mut i = t;
                for _ in 0..writes_per_thread {
                    let key = keys[i % keys.len()];
                    let (m, score, eval, depth) = payload(key);
                    tt.store(key, m, score, eval, depth, Bound::Exact);
                    i = i.wrapping_mul(31).wrapping_add(7 + t);
                }
            });
        }
        let (tt, keys, done, accepted) = (&tt, &keys, &done, &accepted);
        s.spawn(move || {
            let mut n = 0u64;
            while !done.load(Ordering::Relaxed) || n < 100_000 {
                for &key in keys {
                    if let Some(e) = tt.probe(key) {
                        let (m, score, eval, depth) = payload(key);
                        assert_eq!(
                            (e.move_bits, e.score, e.eval, e.depth),
                            (m, score, eval, depth),
                            "entry accepted for {key:#x} with another key's data"
                        );
                        accepted.fetch_add(1, Ordering::Relaxed);
                    }
                    n += 1;
                }
            }
        });
        // Let writers finish, then the reader's loop ends.
        std::thread::sleep(std::time::Duration::from_millis(50));
        done.store(true, Ordering::Relaxed);
    });
    let accepted = accepted.load(Ordering::Relaxed);
    println!("{accepted} entries accepted and verified");
    assert!(accepted > 1000, "the reader should have seen many entries");
}

#[test]
fn hashfull_grows_with_use() {
    let tt = TranspositionTable::new(1).unwrap();
    tt.new_search();
    assert_eq!(tt.hashfull(), 0);
    for k in 1..50_000u64 {
        tt.store(
            k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            0,
            0,
            0,
            1,
            Bound::Upper,
        );
    }
    assert!(tt.hashfull() > 500, "{}", tt.hashfull());
}
