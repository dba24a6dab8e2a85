//! Arbitrary bytes as a Syzygy table: the first byte picks the file name (one of the 70 of
//! the 3-4-man set, by index), the rest is the file. The table is installed in a tablebase
//! that has no other file and probed with a few legal positions of its material: WDL, DTZ
//! and the root ranking must answer a value or a typed error, never panic, loop or read
//! outside the bytes.

#![no_main]

use libfuzzer_sys::fuzz_target;
use shatranj_chess::Position;
use shatranj_syzygy::{SyzygyError, Tablebase};

const TABLES: [&str; 35] = [
    "KBBvK", "KBNvK", "KBPvK", "KBvK", "KBvKB", "KBvKN", "KBvKP", "KNNvK", "KNPvK", "KNvK",
    "KNvKN", "KNvKP", "KPPvK", "KPvK", "KPvKP", "KQBvK", "KQNvK", "KQPvK", "KQQvK", "KQRvK",
    "KQvK", "KQvKB", "KQvKN", "KQvKP", "KQvKQ", "KQvKR", "KRBvK", "KRNvK", "KRPvK", "KRRvK",
    "KRvK", "KRvKB", "KRvKN", "KRvKP", "KRvKR",
];

/// Legal positions of `name`'s material (White the left side), both sides to move, placed
/// by a fixed pseudo-random sequence.
fn positions(name: &str) -> Vec<Position> {
    let (white, black) = name.split_once('v').unwrap();
    let pieces: Vec<char> = white.chars().chain(black.chars().map(|c| c.to_ascii_lowercase())).collect();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as usize
    };
    let mut out = Vec::new();
    while out.len() < 6 {
        let mut board = [None; 64];
        for &c in &pieces {
            loop {
                let sq = next() % 64;
                if board[sq].is_none() && !(c.eq_ignore_ascii_case(&'p') && !(8..56).contains(&sq)) {
                    board[sq] = Some(c);
                    break;
                }
            }
        }
        let rows: Vec<String> = (0..8)
            .rev()
            .map(|rank| {
                let mut row = String::new();
                let mut empty = 0;
                for file in 0..8 {
                    match board[rank * 8 + file] {
                        None => empty += 1,
                        Some(c) => {
                            if empty > 0 {
                                row.push_str(&empty.to_string());
                                empty = 0;
                            }
                            row.push(c);
                        }
                    }
                }
                if empty > 0 {
                    row.push_str(&empty.to_string());
                }
                row
            })
            .collect();
        let turn = if out.len() % 2 == 0 { 'w' } else { 'b' };
        if let Ok(p) = format!("{} {turn} - - 0 1", rows.join("/")).parse() {
            out.push(p);
        }
    }
    out
}

fn typed(e: &SyzygyError) {
    assert!(
        matches!(
            e,
            SyzygyError::Truncated { .. } | SyzygyError::Corrupt { .. } | SyzygyError::MissingTable { .. }
        ),
        "{e:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else { return };
    let pick = pick as usize % 70;
    let name = TABLES[pick / 2];
    let file = format!("{name}{}", if pick % 2 == 0 { ".rtbw" } else { ".rtbz" });
    let mut tb = Tablebase::new();
    if let Err(e) = tb.insert_table_bytes(&file, bytes.to_vec()) {
        typed(&e);
    }
    for p in positions(name) {
        for r in [
            tb.probe_wdl(&p).map(|_| ()),
            tb.probe_dtz(&p).map(|_| ()),
            tb.rank_root_moves(&p, false).map(|_| ()),
        ] {
            if let Err(e) = r {
                typed(&e);
            }
        }
    }
});
