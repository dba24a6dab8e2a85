//! `shatranj match -variant fischerandom`: games from Chess960 starts drawn with `-srand`,
//! tagged `Variant "Chess960"` with their start's FEN, castling sent to the engines as the
//! king taking its rook. Our engine plays itself, and Stockfish (where Debian's is
//! installed), without a fault: an engine that misread a castling move would send an
//! illegal one and lose by it.

use shatranj_chess::{CastlingMode, Position};
use std::path::Path;
use std::process::Command;

const EXE: &str = env!("CARGO_BIN_EXE_shatranj");
const STOCKFISH: &str = "/usr/games/stockfish";

#[test]
fn chess960_games_start_from_chess960_positions_and_castle_without_faults() {
    let dir = std::env::temp_dir().join(format!("shatranj-960-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("960.pgn");
    let cmd = format!("cmd={EXE}");
    let mut args: Vec<String> = [
        "match",
        "-variant",
        "fischerandom",
        "-engine",
        &cmd,
        "name=a",
        "nodes=400",
        "-engine",
        &cmd,
        "name=b",
        "nodes=200",
    ]
    .map(str::to_owned)
    .to_vec();
    let with_stockfish = Path::new(STOCKFISH).exists();
    if with_stockfish {
        args.extend(
            [
                "-engine",
                &format!("cmd={STOCKFISH}"),
                "name=sf",
                "nodes=300",
            ]
            .map(str::to_owned),
        );
    } else {
        eprintln!("{STOCKFISH} missing: our engine plays itself only");
    }
    args.extend(
        [
            "-each",
            "option.Threads=1",
            "-rounds",
            "3",
            "-repeat",
            "-srand",
            "7",
            "-maxmoves",
            "80",
        ]
        .map(str::to_owned),
    );
    args.extend(["-pgnout".to_owned(), format!("file={}", pgn.display())]);
    let out = Command::new(EXE).args(&args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!stdout.contains("Faults"), "{stdout}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = text.matches("[Event ").count();
    assert_eq!(games, if with_stockfish { 18 } else { 6 });
    assert_eq!(text.matches("[Variant \"Chess960\"]").count(), games);
    let mut numbers = Vec::new();
    for line in text.lines() {
        if let Some(fen) = line.strip_prefix("[FEN \"") {
            let start =
                Position::from_fen_with(fen.trim_end_matches("\"]"), CastlingMode::Chess960)
                    .unwrap();
            numbers.push(start.chess960_number().expect("a Chess960 start"));
        }
    }
    assert_eq!(numbers.len(), games);
    // Three rounds, three different starts, each played by both colours of every pairing.
    numbers.sort_unstable();
    numbers.dedup();
    assert_eq!(numbers.len(), 3, "{numbers:?}");
    // Castling happened (seed 7's starts), in SAN as every reader takes it.
    assert!(text.contains("O-O"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
