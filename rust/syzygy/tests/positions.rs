//! Exact values: python-chess's `data/endgame.epd` (200 positions), the vectors of its tests,
//! and 2,000 random positions with python-chess's answers (`data/pychess_seed1.txt`, made by
//! `tests/pychess/gen_syzygy.py`; the ignored `python_chess` test draws as many as asked).
//! Also the API's edges: castling rights, `KvK`, missing tables, threads.

use shatranj_chess::Position;
use shatranj_syzygy::{SyzygyError, Tablebase, Wdl};
use std::sync::Arc;

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/syzygy/regular");
const EPD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/syzygy/endgame.epd");
const VECTORS: &str = include_str!("data/pychess_seed1.txt");
const FATHOM_ROOT: &str = include_str!("data/fathom_root.txt");

fn tables() -> Tablebase {
    Tablebase::open([TABLES]).expect("data/syzygy/regular")
}

fn pos(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// `endgame.epd`: `FEN4 wdl_table N; wdl N; dtz N;` (four FEN fields, clocks zero).
fn epd() -> Vec<(String, i32, i32)> {
    let text = std::fs::read_to_string(EPD).expect("data/syzygy/endgame.epd");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let fen = format!("{} 0 1", fields[..4].join(" "));
            let ops = fields[4..].join(" ");
            let op = |name: &str| -> i32 {
                ops.split(';')
                    .map(str::trim)
                    .find_map(|o| o.strip_prefix(name).and_then(|v| v.strip_prefix(' ')))
                    .unwrap_or_else(|| panic!("{line}: no {name}"))
                    .parse()
                    .unwrap()
            };
            (fen, op("wdl"), op("dtz"))
        })
        .collect()
}

#[test]
fn endgame_epd_wdl_and_dtz_exact() {
    let tb = tables();
    let cases = epd();
    assert_eq!(cases.len(), 200);
    let mut wrong = Vec::new();
    for (fen, wdl, dtz) in &cases {
        let p = pos(fen);
        let got = (tb.probe_wdl(&p).map(Wdl::value), tb.probe_dtz(&p));
        if got != (Ok(*wdl), Ok(*dtz)) {
            wrong.push(format!("{fen}: got {got:?}, expected wdl {wdl}, dtz {dtz}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of 200 differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn python_chess_vectors() {
    let tb = tables();
    // A draw in the table, but a win by capturing en passant.
    let p = pos("8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 2");
    assert_eq!(tb.probe_wdl(&p), Ok(Wdl::Win));
    assert_eq!(tb.probe_dtz(&p), Ok(1));
    let no_ep = pos("8/8/8/k2Pp3/8/8/8/4K3 w - - 0 2");
    assert_eq!(tb.probe_wdl(&no_ep), Ok(Wdl::Draw));
    // DTZ -1 without en passant, 1 with it.
    assert_eq!(
        tb.probe_dtz(&pos("8/8/8/8/2pP4/2K5/4k3/8 b - - 0 1")),
        Ok(-1)
    );
    assert_eq!(
        tb.probe_dtz(&pos("8/8/8/8/2pP4/2K5/4k3/8 b - d3 0 1")),
        Ok(1)
    );
    // KNBvK.
    let knb = pos("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1");
    assert_eq!(tb.probe_wdl(&knb), Ok(Wdl::Loss));
    assert_eq!(tb.probe_dtz(&knb), Ok(-53));
}

#[test]
fn random_positions_match_python_chess() {
    let tb = tables();
    let mut n = 0;
    let mut wrong = Vec::new();
    for line in VECTORS.lines().filter(|l| !l.starts_with('#')) {
        let mut f = line.split(';');
        let (fen, wdl, dtz) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
        let (wdl, dtz): (i32, i32) = (wdl.parse().unwrap(), dtz.parse().unwrap());
        let p = pos(fen);
        let got = (tb.probe_wdl(&p).map(Wdl::value), tb.probe_dtz(&p));
        if got != (Ok(wdl), Ok(dtz)) {
            wrong.push(format!(
                "{fen}: got {got:?}, python-chess wdl {wdl}, dtz {dtz}"
            ));
        }
        n += 1;
    }
    assert_eq!(n, 2000);
    assert!(
        wrong.is_empty(),
        "{} of {n} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn castling_rights_have_no_answer() {
    let tb = tables();
    let p = pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert_eq!(tb.probe_wdl(&p), Err(SyzygyError::CastlingRights));
    assert_eq!(tb.probe_dtz(&p), Err(SyzygyError::CastlingRights));
    assert_eq!(
        tb.rank_root_moves(&p, false),
        Err(SyzygyError::CastlingRights)
    );
    // Without the right, the same position is in the tables.
    assert_eq!(
        tb.probe_wdl(&pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")),
        Ok(Wdl::Win)
    );
}

#[test]
fn kings_alone_and_missing_tables() {
    let tb = tables();
    let kk = pos("8/8/8/4k3/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        (tb.probe_wdl(&kk), tb.probe_dtz(&kk)),
        (Ok(Wdl::Draw), Ok(0))
    );
    // Five men: no table here, named the way the files are (stronger side first).
    let five = pos("8/8/8/4k3/8/8/2q5/RR2K3 b - - 0 1");
    assert_eq!(tb.max_pieces(), 4);
    assert_eq!(
        tb.probe_wdl(&five),
        Err(SyzygyError::MissingTable {
            table: "KRRvKQ.rtbw".into()
        })
    );
    // Even where a capture decides it (...Qxb1 or ...Qxa1 leads into the tables), a position
    // beyond the tables has no answer, as in python-chess.
    let capture = pos("8/8/8/3k4/8/8/1q6/RR2K3 b - - 0 1");
    assert_eq!(
        tb.probe_wdl(&capture),
        Err(SyzygyError::MissingTable {
            table: "KRRvKQ.rtbw".into()
        })
    );
    assert!(tb.probe_dtz(&capture).unwrap_err().is_missing_table());
    assert!(
        tb.rank_root_moves(&capture, false)
            .unwrap_err()
            .is_missing_table()
    );
    let start = Position::new();
    assert_eq!(tb.probe_wdl(&start), Err(SyzygyError::CastlingRights));
    let start = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    let err = tb.probe_dtz(&start).unwrap_err();
    assert_eq!(
        err.to_string(),
        "syzygy table KQRRBBNNPPPPPPPPvKQRRBBNNPPPPPPPP.rtbw not found in the tablebase directories"
    );
    // An empty tablebase knows KvK only.
    let empty = Tablebase::new();
    assert_eq!(empty.probe_wdl(&kk), Ok(Wdl::Draw));
    let krk = pos("8/8/8/4k3/8/8/8/R3K3 b - - 0 1");
    let err = empty.probe_wdl(&krk).unwrap_err();
    assert!(err.is_missing_table(), "{err}");
    assert_eq!(
        err.to_string(),
        "syzygy table KRvK.rtbw not found in the tablebase directories"
    );
}

#[test]
fn wdl_and_dtz_files_in_different_directories() {
    // Stockfish-style layouts keep WDL and DTZ apart; a table's two files are found in
    // whichever directories hold them.
    let root = std::env::temp_dir().join(format!("shatranj-syzygy-split-{}", std::process::id()));
    let (wdl_dir, dtz_dir) = (root.join("wdl"), root.join("dtz"));
    std::fs::create_dir_all(&wdl_dir).unwrap();
    std::fs::create_dir_all(&dtz_dir).unwrap();
    for entry in std::fs::read_dir(TABLES).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let to = if path.extension().is_some_and(|e| e == "rtbw") {
            &wdl_dir
        } else if path.extension().is_some_and(|e| e == "rtbz") {
            &dtz_dir
        } else {
            continue;
        };
        std::fs::copy(&path, to.join(&name)).unwrap();
    }
    let list = std::env::join_paths([&wdl_dir, &dtz_dir]).unwrap();
    let tb = Tablebase::from_path_list(list.to_str().unwrap()).unwrap();
    assert_eq!(tb.directories().len(), 2);
    assert_eq!(tb.tables().filter(|&(_, w, z)| w && z).count(), 35);
    assert_eq!(
        tb.probe_dtz(&pos("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1")),
        Ok(-53)
    );
    // Only the WDL directory: DTZ probes name the missing file.
    let wdl_only = Tablebase::open([&wdl_dir]).unwrap();
    let knb = pos("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1");
    assert_eq!(wdl_only.probe_wdl(&knb), Ok(Wdl::Loss));
    assert_eq!(
        wdl_only.probe_dtz(&knb),
        Err(SyzygyError::MissingTable {
            table: "KBNvK.rtbz".into()
        })
    );
    std::fs::remove_dir_all(&root).unwrap();
    // A directory that does not exist is an I/O error.
    assert!(matches!(
        Tablebase::open([root.join("nowhere")]),
        Err(SyzygyError::Io { .. })
    ));
}

#[test]
fn shared_across_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Tablebase>();
    let tb = Arc::new(tables());
    let cases = Arc::new(epd());
    // Several threads open the same tables at once and agree with the expected values.
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let (tb, cases) = (Arc::clone(&tb), Arc::clone(&cases));
            std::thread::spawn(move || {
                for (i, (fen, wdl, dtz)) in cases.iter().enumerate() {
                    let p = pos(fen);
                    if (i + t) % 2 == 0 {
                        assert_eq!(tb.probe_dtz(&p), Ok(*dtz), "{fen}");
                    }
                    assert_eq!(tb.probe_wdl(&p).map(Wdl::value), Ok(*wdl), "{fen}");
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}

/// The root ranking against Fathom's own (`data/fathom_root.txt`, made by
/// `tests/fathom/root_oracle.c` from Fathom's C code): 600 positions, halfmove clocks from 0
/// to 99, every legal move's rank equal.
#[test]
fn root_ranking_matches_fathom() {
    let tb = tables();
    let mut n = 0;
    for line in FATHOM_ROOT.lines().filter(|l| !l.starts_with('#')) {
        let mut f = line.split('|');
        let (fen, wdl, moves) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
        let p = pos(fen);
        assert_eq!(
            tb.probe_wdl(&p).unwrap().value() + 2,
            wdl.parse::<i32>().unwrap(),
            "{fen}"
        );
        let mut ours: Vec<String> = tb
            .rank_root_moves(&p, false)
            .unwrap()
            .iter()
            .map(|m| format!("{}:{}", m.mv, m.rank))
            .collect();
        ours.sort();
        assert_eq!(ours.join(" "), moves, "{fen}");
        n += 1;
    }
    assert_eq!(n, 600);
}

#[test]
fn root_moves_keep_the_win_and_the_draw() {
    let tb = tables();
    // In a win, the moves of the top rank win and one of them has the position's DTZ.
    let kqkr = pos("8/8/8/8/8/2k5/8/KQ5r w - - 0 1");
    let dtz = tb.probe_dtz(&kqkr).unwrap();
    let moves = tb.rank_root_moves(&kqkr, false).unwrap();
    assert_eq!(moves.len(), kqkr.legal_moves().len());
    let top = moves.iter().map(|m| m.rank).max().unwrap();
    assert_eq!(top, 1000);
    for m in moves.iter().filter(|m| m.rank == top) {
        assert_eq!(m.wdl, Wdl::Win);
        assert_eq!(tb.probe_wdl(&kqkr.after(m.mv).unwrap()), Ok(Wdl::Loss));
    }
    let best_dtz = moves
        .iter()
        .filter(|m| m.dtz > 0)
        .map(|m| m.dtz)
        .min()
        .unwrap();
    assert_eq!(best_dtz, dtz);
    // With the clock near 100, a win that takes too long ranks below the draw line.
    let late = pos("8/2K5/4B3/3N4/8/8/4k3/8 w - - 90 80");
    for m in tb.rank_root_moves(&late, false).unwrap() {
        assert!(m.rank < 1000, "{m:?}");
    }
    // WDL ranking: every move of KNBvK keeps the win or gives it away.
    let w = tb
        .rank_root_moves_wdl(&pos("8/2K5/4B3/3N4/8/8/4k3/8 w - - 0 1"), true)
        .unwrap();
    assert!(w.iter().any(|m| m.wdl == Wdl::Win && m.rank == 1000));
    assert!(w.iter().all(|m| m.wdl == Wdl::Win || m.wdl == Wdl::Draw));
}

/// Random legal positions of 2 to 12 men (any material, an en-passant square where one can
/// stand), `SHATRANJ_SEED` (default 1) and 20,000 of them: every probe answers a value or
/// `MissingTable`, and where both answer, WDL and DTZ agree (the sign, and beyond ±100 the
/// fifty-move rule's cursed win or blessed loss).
#[test]
fn fuzzed_positions_answer_or_name_a_missing_table() {
    let seed: u64 = std::env::var("SHATRANJ_SEED")
        .ok()
        .map_or(1, |s| s.trim().parse().expect("SHATRANJ_SEED"));
    println!("seed {seed} (SHATRANJ_SEED={seed} reproduces)");
    let tb = tables();
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |n: usize| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    };
    let (mut answered, mut missing, mut tried) = (0, 0, 0);
    while tried < 20_000 {
        let mut board = [' '; 64];
        let small = next(2) == 0;
        let men = 2 + next(if small { 3 } else { 11 });
        let mut pieces = vec!['K', 'k'];
        for _ in 2..men {
            pieces.push("QRBNPqrbnp".as_bytes()[next(10)] as char);
        }
        for piece in pieces {
            loop {
                let sq = next(64);
                let back_rank = !(8..56).contains(&sq);
                if board[sq] == ' ' && !(back_rank && piece.eq_ignore_ascii_case(&'p')) {
                    board[sq] = piece;
                    break;
                }
            }
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    ' ' => empty += 1,
                    c => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(c);
                    }
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let white = next(2) == 0;
        // An en-passant square behind a pawn that may just have double-stepped.
        let ep = (0..8)
            .map(|file| {
                if white {
                    (file, 4, 5, 6)
                } else {
                    (file, 3, 2, 1)
                }
            })
            .filter(|&(f, r, e, o)| {
                board[r * 8 + f] == if white { 'p' } else { 'P' }
                    && board[e * 8 + f] == ' '
                    && board[o * 8 + f] == ' '
            })
            .map(|(f, _, e, _)| format!("{}{}", (b'a' + f as u8) as char, e + 1))
            .next()
            .filter(|_| next(2) == 0)
            .unwrap_or_else(|| "-".into());
        let fen = format!("{fen} {} - {ep} 0 1", if white { 'w' } else { 'b' });
        let Ok(p) = fen.parse::<Position>() else {
            continue;
        };
        tried += 1;
        let (wdl, dtz) = (tb.probe_wdl(&p), tb.probe_dtz(&p));
        for e in [wdl.as_ref().err(), dtz.as_ref().err()]
            .into_iter()
            .flatten()
        {
            assert!(e.is_missing_table(), "{fen}: {e:?}");
        }
        let _ = tb
            .rank_root_moves(&p, next(2) == 0)
            .map_err(|e| assert!(e.is_missing_table(), "{fen}: {e:?}"));
        match (wdl, dtz) {
            (Ok(w), Ok(d)) => {
                answered += 1;
                let expected = match d {
                    d if d > 100 => Wdl::CursedWin,
                    d if d > 0 => Wdl::Win,
                    0 => Wdl::Draw,
                    d if d >= -100 => Wdl::Loss,
                    _ => Wdl::BlessedLoss,
                };
                assert_eq!(w, expected, "{fen}: WDL {w:?}, DTZ {d}");
            }
            (Err(_), Err(_)) => missing += 1,
            other => panic!("{fen}: {other:?}"),
        }
    }
    println!("{tried} positions: {answered} answered, {missing} beyond the tables");
    assert!(
        answered > 3_000 && missing > 3_000,
        "{answered} answered, {missing} missing"
    );
}
