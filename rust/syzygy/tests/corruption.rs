//! Damaged tables give typed errors, never a panic or a read outside the file: every table
//! truncated at many lengths and with every header byte flipped, a seeded loop of random
//! damage (`SHATRANJ_SEED`, printed; `SHATRANJ_CORRUPTION_ROUNDS` rounds, default 2,000), and
//! damaged files on disk (the memory-mapped path).
//!
//! Each damaged table is installed in a tablebase that otherwise holds the intact set, and
//! probed (WDL, DTZ and the root ranking) with the positions of its material from
//! `data/pychess_seed1.txt`; the answers may be wrong (a flipped bit in the compressed data
//! is a different valid table), but every error must be `Truncated` or `Corrupt`.

use shatranj_chess::Position;
use shatranj_syzygy::{SyzygyError, Tablebase};
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::Path;

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/syzygy/regular");
const VECTORS: &str = include_str!("data/pychess_seed1.txt");

/// A side's pieces as indices into KQRBNP: smaller is stronger.
fn strength(side: &str) -> Vec<usize> {
    side.chars().map(|c| "KQRBNP".find(c).unwrap()).collect()
}

/// A position's table name, stronger side first (as the files are named).
fn material_name(p: &Position) -> String {
    let fen = p.board().board_fen();
    let order = |c: &char| "KQRBNP".find(*c).unwrap();
    let mut white: Vec<char> = fen.chars().filter(char::is_ascii_uppercase).collect();
    let mut black: Vec<char> = fen
        .chars()
        .filter(char::is_ascii_lowercase)
        .map(|c| c.to_ascii_uppercase())
        .collect();
    white.sort_by_key(order);
    black.sort_by_key(order);
    let (a, b): (String, String) = (white.into_iter().collect(), black.into_iter().collect());
    let stronger_first =
        (a.len(), std::cmp::Reverse(strength(&a))) >= (b.len(), std::cmp::Reverse(strength(&b)));
    if stronger_first {
        format!("{a}v{b}")
    } else {
        format!("{b}v{a}")
    }
}

/// The test positions by table name.
fn positions() -> BTreeMap<String, Vec<Position>> {
    let mut by_table: BTreeMap<String, Vec<Position>> = BTreeMap::new();
    for line in VECTORS.lines().filter(|l| !l.starts_with('#')) {
        let p: Position = line.split(';').next().unwrap().parse().unwrap();
        by_table.entry(material_name(&p)).or_default().push(p);
    }
    by_table
}

/// Every table file: (file name, bytes).
fn table_files() -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(TABLES)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("rtbw" | "rtbz")
            )
        })
        .map(|p| {
            (
                p.file_name().unwrap().to_str().unwrap().to_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    assert_eq!(files.len(), 70);
    files
}

fn damage_error(e: &SyzygyError) -> bool {
    matches!(
        e,
        SyzygyError::Truncated { .. } | SyzygyError::Corrupt { .. }
    )
}

/// Installs `bytes` as `file` in `tb` (the intact set, but for earlier damage to the same
/// file) and probes the table's positions; returns whether the damage was reported (by the
/// parse or by a probe). Panics (the test fails) on an error of any other kind.
fn install_and_probe(
    tb: &mut Tablebase,
    file: &str,
    bytes: Vec<u8>,
    positions: &[Position],
    what: &str,
) -> bool {
    let mut reported = false;
    if let Err(e) = tb.insert_table_bytes(file, bytes) {
        assert!(damage_error(&e), "{what}: install gave {e:?}");
        reported = true;
    }
    for (i, p) in positions.iter().enumerate() {
        let root = || {
            if i == 0 {
                tb.rank_root_moves(p, false).map(|_| ())
            } else {
                Ok(())
            }
        };
        let results = [
            tb.probe_wdl(p).map(|_| ()),
            tb.probe_dtz(p).map(|_| ()),
            root(),
        ];
        for r in results {
            if let Err(e) = r {
                assert!(
                    damage_error(&e),
                    "{what}: probing {} gave {e:?}",
                    p.board().board_fen()
                );
                reported = true;
            }
        }
    }
    reported
}

#[test]
fn truncated_tables_are_reported() {
    let by_table = positions();
    for (file, bytes) in table_files() {
        let stem = file.split('.').next().unwrap();
        let ps = &by_table[stem][..8];
        let mut tb = Tablebase::open([TABLES]).unwrap();
        let len = bytes.len();
        let mut cuts = vec![
            0,
            1,
            3,
            4,
            5,
            6,
            8,
            15,
            16,
            17,
            32,
            64,
            100,
            len / 4,
            len / 2,
            len * 3 / 4,
        ];
        cuts.extend([80, 64, 48, 17, 16, 1].map(|from_end| len.saturating_sub(from_end)));
        cuts.retain(|&c| c < len);
        for cut in cuts {
            let what = format!("{file} cut to {cut} of {len} bytes");
            let reported = install_and_probe(&mut tb, &file, bytes[..cut].to_vec(), ps, &what);
            assert!(reported, "{what}: not reported");
        }
    }
}

#[test]
fn every_header_byte_flipped() {
    // The header and Huffman set-up of every table: each of the first 256 bytes (or all, for
    // smaller files) xored with 0xff, then with one bit. Damage there must never panic, and
    // a damaged magic number is always reported; much of the rest cannot be (a changed
    // Huffman symbol or DTZ map entry is a different valid table).
    let by_table = positions();
    let (mut flips, mut reported) = (0, 0);
    for (file, bytes) in table_files() {
        let stem = file.split('.').next().unwrap();
        let ps = &by_table[stem][..4];
        let mut tb = Tablebase::open([TABLES]).unwrap();
        for at in 0..bytes.len().min(256) {
            for mask in [0xff, 0x10] {
                let mut damaged = bytes.clone();
                damaged[at] ^= mask;
                let what = format!("{file} byte {at} ^ {mask:#x}");
                let r = install_and_probe(&mut tb, &file, damaged, ps, &what);
                assert!(r || at >= 4, "{what}: not reported");
                reported += usize::from(r);
                flips += 1;
            }
        }
    }
    println!("{flips} header flips, {reported} reported as damage");
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[test]
fn random_damage_never_panics() {
    let seed: u64 = std::env::var("SHATRANJ_SEED")
        .ok()
        .map_or(1, |s| s.trim().parse().expect("SHATRANJ_SEED"));
    let rounds: usize = std::env::var("SHATRANJ_CORRUPTION_ROUNDS")
        .ok()
        .map_or(2_000, |s| s.trim().parse().expect("rounds"));
    println!("random damage: {rounds} rounds, seed {seed} (SHATRANJ_SEED={seed} reproduces)");
    let by_table = positions();
    let files = table_files();
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut reported = 0;
    let mut tb = Tablebase::open([TABLES]).unwrap();
    let mut last = None;
    for round in 0..rounds {
        let pick = rng.below(files.len());
        let (file, bytes) = &files[pick];
        // Damage one table at a time: put the last one back first.
        if let Some(j) = last.replace(pick) {
            let (f, b): &(String, Vec<u8>) = &files[j];
            tb.insert_table_bytes(f, b.clone()).unwrap();
        }
        let mut d = bytes.clone();
        let mut log = Vec::new();
        for _ in 0..=rng.below(3) {
            // Most damage lands in the first kilobyte, where the structure is.
            let hot = if rng.below(4) == 0 {
                d.len()
            } else {
                d.len().min(1024)
            };
            match rng.below(5) {
                0 => {
                    let at = rng.below(hot);
                    let bit = rng.below(8);
                    if at < d.len() {
                        d[at] ^= 1 << bit;
                    }
                    log.push(format!("flip bit {bit} of byte {at}"));
                }
                1 => {
                    let at = rng.below(hot);
                    let v = rng.next() as u8;
                    if at < d.len() {
                        d[at] = v;
                    }
                    log.push(format!("byte {at} = {v:#x}"));
                }
                2 => {
                    let at = rng.below(hot);
                    let n = 1 + rng.below(64);
                    for i in at..(at + n).min(d.len()) {
                        d[i] = rng.next() as u8;
                    }
                    log.push(format!("{n} random bytes at {at}"));
                }
                3 => {
                    let cut = rng.below(d.len());
                    d.truncate(cut);
                    log.push(format!("truncate to {cut}"));
                }
                _ => {
                    let at = rng.below(hot);
                    let n = 1 + rng.below(32);
                    let v = if rng.below(2) == 0 { 0 } else { 0xff };
                    for i in at..(at + n).min(d.len()) {
                        d[i] = v;
                    }
                    log.push(format!("{n} bytes of {v:#x} at {at}"));
                }
            }
        }
        let stem = file.split('.').next().unwrap();
        let what = format!("round {round} (seed {seed}): {file}: {}", log.join(", "));
        match catch_unwind(AssertUnwindSafe(|| {
            install_and_probe(&mut tb, file, d, &by_table[stem][..6], &what)
        })) {
            Ok(r) => reported += usize::from(r),
            Err(panic) => {
                eprintln!("panic in {what}");
                resume_unwind(panic);
            }
        }
    }
    println!("{reported} of {rounds} damaged tables reported as damage");
}

#[test]
fn damaged_files_on_disk() {
    let dir = std::env::temp_dir().join(format!("shatranj-syzygy-damaged-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(TABLES).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    let knb: Position = "8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1".parse().unwrap();
    let kqkr: Position = "7r/8/8/8/8/2k5/8/KQ6 w - - 0 1".parse().unwrap();
    let krk: Position = "8/8/8/4k3/8/8/8/R3K3 b - - 0 1".parse().unwrap();

    // Half of KBNvK.rtbz; KQvKR.rtbw with a wrong magic number; KRvK.rtbw empty.
    let half = |p: &Path| {
        let b = std::fs::read(p).unwrap();
        std::fs::write(p, &b[..b.len() / 2]).unwrap();
    };
    half(&dir.join("KBNvK.rtbz"));
    let mut b = std::fs::read(dir.join("KQvKR.rtbw")).unwrap();
    b[0] ^= 1;
    std::fs::write(dir.join("KQvKR.rtbw"), b).unwrap();
    std::fs::write(dir.join("KRvK.rtbw"), b"").unwrap();

    let tb = Tablebase::open([&dir]).unwrap();
    assert!(tb.probe_wdl(&knb).is_ok(), "the WDL file is intact");
    let e = tb.probe_dtz(&knb).unwrap_err();
    assert!(
        matches!(&e, SyzygyError::Truncated { path, .. } if path.ends_with("KBNvK.rtbz")),
        "{e:?}"
    );
    let e = tb.probe_wdl(&kqkr).unwrap_err();
    assert!(
        matches!(&e, SyzygyError::Corrupt { path, offset: 0, .. } if path.ends_with("KQvKR.rtbw")),
        "{e:?}"
    );
    assert!(e.to_string().contains("magic"), "{e}");
    let e = tb.probe_wdl(&krk).unwrap_err();
    assert!(
        matches!(&e, SyzygyError::Truncated { size: 0, .. }),
        "{e:?}"
    );
    // The same error again: a failed table is not reopened.
    assert_eq!(tb.probe_wdl(&krk).unwrap_err(), e);
    // A capture into a damaged table fails the probe of the bigger one: KRvKR with a rook
    // en prise leads into KRvK.
    let krkr: Position = "8/8/8/4k3/8/8/r7/R3K3 w - - 0 1".parse().unwrap();
    assert!(matches!(
        tb.probe_wdl(&krkr),
        Err(SyzygyError::Truncated { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}
