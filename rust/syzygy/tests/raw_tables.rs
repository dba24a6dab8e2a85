//! The raw table reads (`probe_wdl_table`, `probe_dtz_table`) with the vectors of
//! python-chess's `SyzygyTestCase` (the values its table classes return), `endgame.epd`'s
//! `wdl_table` column, and the ways of adding tables one file or one kind at a time.

use shatranj_chess::Position;
use shatranj_syzygy::{SyzygyError, TableKind, Tablebase, Wdl};

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/syzygy/regular");
const EPD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/syzygy/endgame.epd");

fn pos(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn one_file(name: &str) -> Tablebase {
    let mut tb = Tablebase::new();
    assert!(tb.add_file(format!("{TABLES}/{name}")).unwrap());
    tb
}

#[test]
fn wdl_table_values_are_python_chess_test_vectors() {
    let tb = one_file("KBNvK.rtbw");
    tb.open_table("KBNvK", TableKind::Wdl).unwrap();
    for (fen, want) in [
        ("8/8/8/5N2/5K2/2kB4/8/8 b - - 0 1", Wdl::Loss),
        ("7B/5kNK/8/8/8/8/8/8 w - - 0 1", Wdl::Win),
        ("N7/8/2k5/8/7K/8/8/B7 w - - 0 1", Wdl::Win),
        ("8/8/1NkB4/8/7K/8/8/8 w - - 1 1", Wdl::Draw),
        // The colours swapped: the table is found under its mirrored name.
        ("8/8/8/2n5/2b1K3/2k5/8/8 w - - 0 1", Wdl::Loss),
    ] {
        assert_eq!(tb.probe_wdl_table(&pos(fen)).unwrap(), want, "{fen}");
    }
    let tb = one_file("KRvKP.rtbw");
    assert_eq!(
        tb.probe_wdl_table(&pos("8/8/2K5/4P3/8/8/8/3r3k b - - 1 1"))
            .unwrap(),
        Wdl::Draw
    );
    assert_eq!(
        tb.probe_wdl_table(&pos("8/8/2K5/8/4P3/8/8/3r3k b - - 1 1"))
            .unwrap(),
        Wdl::Win
    );
}

#[test]
fn dtz_table_values_and_the_side_the_table_does_not_store() {
    let tb = one_file("KRvKN.rtbz");
    let white = pos("7n/6k1/4R3/4K3/8/8/8/8 w - - 0 1");
    assert_eq!(tb.probe_dtz_table(&white, Wdl::Win).unwrap(), None);
    let black = pos("7n/6k1/4R3/4K3/8/8/8/8 b - - 1 1");
    assert_eq!(tb.probe_dtz_table(&black, Wdl::Loss).unwrap(), Some(8));
    let tb = one_file("KNvKP.rtbz");
    let p = pos("8/1K6/1P6/8/8/8/6n1/7k w - - 0 1");
    assert_eq!(tb.probe_dtz_table(&p, Wdl::Win).unwrap(), Some(2));
}

#[test]
fn wdl_table_ignores_en_passant_and_captures_as_endgame_epd_says() {
    let tb = Tablebase::open([TABLES]).unwrap();
    let ep = pos("8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 2");
    assert_eq!(tb.probe_wdl_table(&ep).unwrap(), Wdl::Draw);
    assert_eq!(tb.probe_wdl(&ep).unwrap(), Wdl::Win);
    let text = std::fs::read_to_string(EPD).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = format!("{} 0 1", fields[..4].join(" "));
        let want: i32 = line
            .split("wdl_table ")
            .nth(1)
            .and_then(|r| r.split(';').next())
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert_eq!(
            tb.probe_wdl_table(&pos(&fen)).unwrap().value(),
            want,
            "{fen}"
        );
        n += 1;
    }
    assert_eq!(n, 200);
}

#[test]
fn raw_reads_refuse_castling_and_missing_tables() {
    let tb = one_file("KQvK.rtbw");
    let castling = pos("4k3/8/8/8/8/8/8/R3K2Q w Q - 0 1");
    assert_eq!(
        tb.probe_wdl_table(&castling),
        Err(SyzygyError::CastlingRights)
    );
    let krk = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert!(tb.probe_wdl_table(&krk).unwrap_err().is_missing_table());
    let kqk = pos("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1");
    // The WDL file alone: the DTZ read is a missing table.
    assert!(
        tb.probe_dtz_table(&kqk, Wdl::Win)
            .unwrap_err()
            .is_missing_table()
    );
    assert!(
        tb.open_table("KQvK", TableKind::Dtz)
            .unwrap_err()
            .is_missing_table()
    );
    assert!(
        tb.open_table("KRvK", TableKind::Wdl)
            .unwrap_err()
            .is_missing_table()
    );
    assert!(
        tb.open_table("not a table", TableKind::Wdl)
            .unwrap_err()
            .is_missing_table()
    );
}

#[test]
fn a_directory_can_give_one_kind_of_file() {
    let mut tb = Tablebase::new();
    assert_eq!(tb.add_directory_kinds(TABLES, true, false).unwrap(), 35);
    let p = pos("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1");
    assert_eq!(tb.probe_wdl(&p).unwrap(), Wdl::Loss);
    assert!(tb.probe_dtz(&p).unwrap_err().is_missing_table());
    // The DTZ files added later fill the empty slots.
    assert_eq!(tb.add_directory_kinds(TABLES, false, true).unwrap(), 35);
    assert_eq!(tb.probe_dtz(&p).unwrap(), -53);
    assert_eq!(tb.add_directory(TABLES).unwrap(), 0);
}

#[test]
fn add_file_reports_new_known_and_absent_files() {
    let mut tb = Tablebase::new();
    assert!(tb.add_file(format!("{TABLES}/KQvK.rtbw")).unwrap());
    assert!(!tb.add_file(format!("{TABLES}/KQvK.rtbw")).unwrap());
    assert!(!tb.add_file(format!("{TABLES}/SOURCE.txt")).unwrap());
    match tb.add_file(format!("{TABLES}/KQRvKR.rtbw")) {
        Err(SyzygyError::Io { kind, .. }) => assert_eq!(kind, std::io::ErrorKind::NotFound),
        other => panic!("expected a NotFound Io error, got {other:?}"),
    }
}
