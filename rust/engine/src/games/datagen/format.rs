//! The game-data format that `shatranj datagen` writes and the trainer reads: whole games,
//! one record per move, in zstd-compressed shards.
//!
//! Positions are stored as the games that reached them, as viriformat does, because a game
//! costs 4 bytes a ply where a packed position costs 32: one training position is about
//! 1.6 bytes once compressed, so tens of millions fit in the repository. (viriformat itself
//! encodes moves with its own board types; our moves already are 16 bits, so the format is
//! ours, and small enough to describe here in full.)
//!
//! # Layout
//!
//! A shard is one zstd frame. Decompressed, all integers little-endian:
//!
//! ```text
//! header   8  magic "SHTRGAME"
//!          2  format version (1, or 2 when a ply carries a tablebase label)
//!          2  reserved, 0
//!          4  number of games
//! game     8  game index within its job (the datagen seed and this index make the game)
//!          1  result: 0 Black won, 1 draw, 2 White won
//!          1  length of the start position's FEN in bytes; 0 is the standard start
//!          2  number of plies
//!          …  the FEN (ASCII), if any
//!          4  per ply: the move (u16, `Move::to_bits`) and the score (i16)
//!             (version 2: 5, the WDL label (i8) after the score)
//! ```
//!
//! The score is the search's, in centipawns from the point of view of the side to move in
//! the position *before* the move. A training position is a position whose score is not
//! [`NOT_KEPT`]: datagen writes that sentinel for the opening plies, positions in check,
//! positions whose best move captures or promotes, and mate scores.
//!
//! The WDL label (version 2) is the Syzygy tables' value of the position before the move,
//! for the side to move (-2 loss, -1 blessed loss, 0 draw, 1 cursed win, 2 win), or
//! [`NO_LABEL`] for a position the tables do not cover; datagen writes labels only when
//! asked to (`--syzygy-label`). A shard without any label is written as version 1, byte
//! for byte what earlier builds wrote.
//!
//! Reading checks everything: the magic, the version, every result byte, every FEN, and
//! that every move is legal where it is played. A bad shard is a typed [`DataError`] that
//! names the game and ply, never a panic and never a silently different position.

use shatranj_chess::{Color, Move, Position};
use shatranj_syzygy::Wdl;
use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::games::opening::start_from_fen;
use crate::util::write_atomically;

/// The first bytes of a decompressed shard.
pub const MAGIC: [u8; 8] = *b"SHTRGAME";
/// The newest format version, which this build reads and writes (it reads every older one).
pub const VERSION: u16 = 2;
/// The version of shards without WDL labels (4 bytes a ply).
pub const VERSION_UNLABELLED: u16 = 1;
/// The WDL byte of a ply whose position has no tablebase label.
pub const NO_LABEL: i8 = i8::MIN;
/// The score of a ply whose position is not a training position.
pub const NOT_KEPT: i16 = i16::MIN;
/// The zstd level shards are written at (they are written once and stored for long).
pub const ZSTD_LEVEL: i32 = 19;

/// One ply of a game: the move played and, for a training position, its score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    pub mv: Move,
    /// Centipawns for the side to move before `mv`; `None` when not a training position.
    pub score: Option<i16>,
    /// The tables' WDL of the position before `mv`, for the side to move, where datagen
    /// labelled it (`--syzygy-label`); `None` elsewhere.
    pub wdl: Option<Wdl>,
}

/// One game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameData {
    /// The game's index within its datagen job.
    pub index: u64,
    pub start: Position,
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub plies: Vec<Ply>,
}

/// A training position: the position, its score and the game's result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TrainingPosition {
    pub position: Position,
    /// Centipawns for the side to move.
    pub score: i16,
    /// The game's winner (`None`: drawn).
    pub winner: Option<Color>,
    /// The tables' WDL for the side to move, where the position was labelled.
    pub wdl: Option<Wdl>,
}

impl TrainingPosition {
    /// The result for the side to move: 1 won, 0.5 drawn, 0 lost.
    pub fn result_for_side_to_move(&self) -> f32 {
        match self.winner {
            None => 0.5,
            Some(c) if c == self.position.turn() => 1.0,
            Some(_) => 0.0,
        }
    }
}

impl GameData {
    /// The game's training positions, in the order they were played.
    pub fn training_positions(&self) -> impl Iterator<Item = TrainingPosition> + '_ {
        let mut pos = self.start;
        self.plies.iter().filter_map(move |ply| {
            let here = pos;
            pos.play_unchecked(ply.mv);
            ply.score.map(|score| TrainingPosition {
                position: here,
                score,
                winner: self.winner,
                wdl: ply.wdl,
            })
        })
    }

    /// How many training positions the game holds.
    pub fn training_count(&self) -> usize {
        self.plies.iter().filter(|p| p.score.is_some()).count()
    }
}

/// Why game data could not be read or written.
#[derive(Debug)]
pub enum DataError {
    Io(io::Error),
    /// The first bytes are not [`MAGIC`] (not a shard, or not decompressed).
    Magic {
        found: [u8; 8],
    },
    Version {
        found: u16,
        supported: u16,
    },
    /// The data ended inside game number `game` (0-based, in file order) or its header.
    Truncated {
        game: u64,
    },
    /// More bytes follow the last game the header announced.
    TrailingData {
        games: u64,
    },
    BadResult {
        game: u64,
        byte: u8,
    },
    /// The WDL label at `ply` is neither -2..=2 nor [`NO_LABEL`].
    BadLabel {
        game: u64,
        ply: usize,
        byte: i8,
    },
    BadFen {
        game: u64,
        fen: String,
        error: String,
    },
    /// The move stored at `ply` is not legal in the position reached there.
    IllegalMove {
        game: u64,
        ply: usize,
        bits: u16,
    },
    /// A game to write has more plies than the format holds, or a FEN longer than 255 bytes.
    TooLong {
        game: u64,
        what: &'static str,
    },
    /// The error concerns this file.
    File {
        path: PathBuf,
        error: Box<DataError>,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io(e) => write!(f, "{e}"),
            DataError::Magic { found } => write!(
                f,
                "not a shatranj game-data shard (magic {:?}, expected \"SHTRGAME\")",
                String::from_utf8_lossy(found)
            ),
            DataError::Version { found, supported } => write!(
                f,
                "game-data format version {found} is not supported (this build reads 1 to {supported})"
            ),
            DataError::Truncated { game } => write!(f, "the data ends inside game {game}"),
            DataError::TrailingData { games } => {
                write!(f, "bytes follow the {games} games the header announced")
            }
            DataError::BadResult { game, byte } => {
                write!(f, "game {game}: result byte {byte} is not 0, 1 or 2")
            }
            DataError::BadFen { game, fen, error } => {
                write!(f, "game {game}: bad start FEN {fen:?}: {error}")
            }
            DataError::BadLabel { game, ply, byte } => write!(
                f,
                "game {game}: the WDL label at ply {ply} ({byte}) is not -2 to 2 or {NO_LABEL}"
            ),
            DataError::IllegalMove { game, ply, bits } => write!(
                f,
                "game {game}: the move at ply {ply} (bits {bits:#06x}) is not legal there"
            ),
            DataError::TooLong { game, what } => write!(f, "game {game}: {what}"),
            DataError::File { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for DataError {}

impl From<io::Error> for DataError {
    fn from(e: io::Error) -> DataError {
        DataError::Io(e)
    }
}

impl DataError {
    fn in_file(self, path: &Path) -> DataError {
        DataError::File {
            path: path.to_path_buf(),
            error: Box::new(self),
        }
    }
}

/// Encodes games (uncompressed) into `out`.
pub fn encode_games(games: &[GameData], out: &mut Vec<u8>) -> Result<(), DataError> {
    let labelled = games
        .iter()
        .any(|g| g.plies.iter().any(|p| p.wdl.is_some()));
    let version = if labelled {
        VERSION
    } else {
        VERSION_UNLABELLED
    };
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    let count = u32::try_from(games.len()).map_err(|_| DataError::TooLong {
        game: 0,
        what: "more than 2^32 games in one shard",
    })?;
    out.extend_from_slice(&count.to_le_bytes());
    for g in games {
        let fen = if g.start == Position::new() {
            String::new()
        } else {
            g.start.fen()
        };
        let fen_len = u8::try_from(fen.len()).map_err(|_| DataError::TooLong {
            game: g.index,
            what: "start FEN longer than 255 bytes",
        })?;
        let plies = u16::try_from(g.plies.len()).map_err(|_| DataError::TooLong {
            game: g.index,
            what: "more than 65535 plies",
        })?;
        out.extend_from_slice(&g.index.to_le_bytes());
        out.push(match g.winner {
            Some(Color::Black) => 0,
            None => 1,
            Some(Color::White) => 2,
        });
        out.push(fen_len);
        out.extend_from_slice(&plies.to_le_bytes());
        out.extend_from_slice(fen.as_bytes());
        for p in &g.plies {
            out.extend_from_slice(&p.mv.to_bits().to_le_bytes());
            // A real score of -32768 would read as the sentinel: keep it one above.
            let score = p.score.map_or(NOT_KEPT, |s| s.max(NOT_KEPT + 1));
            out.extend_from_slice(&score.to_le_bytes());
            if labelled {
                let label = p.wdl.map_or(NO_LABEL, |w| w.value() as i8);
                out.extend_from_slice(&label.to_le_bytes());
            }
        }
    }
    Ok(())
}

/// Reads the games of a decompressed stream, checking each as it goes.
pub struct GameReader<R: Read> {
    input: R,
    remaining: u64,
    ordinal: u64,
    done: bool,
    /// Bytes a ply: 4, or 5 with WDL labels (version 2).
    ply_bytes: usize,
}

impl<R: Read> GameReader<R> {
    /// Reads and checks the header.
    pub fn new(mut input: R) -> Result<GameReader<R>, DataError> {
        let mut header = [0u8; 16];
        read_exact_or(&mut input, &mut header, DataError::Truncated { game: 0 })?;
        let mut magic = [0u8; 8];
        magic.copy_from_slice(&header[..8]);
        if magic != MAGIC {
            return Err(DataError::Magic { found: magic });
        }
        let version = u16::from_le_bytes([header[8], header[9]]);
        if !(VERSION_UNLABELLED..=VERSION).contains(&version) {
            return Err(DataError::Version {
                found: version,
                supported: VERSION,
            });
        }
        let count = u32::from_le_bytes([header[12], header[13], header[14], header[15]]);
        Ok(GameReader {
            input,
            remaining: u64::from(count),
            ordinal: 0,
            done: false,
            ply_bytes: if version == VERSION_UNLABELLED { 4 } else { 5 },
        })
    }

    /// The games the header says are still to come.
    pub fn remaining(&self) -> u64 {
        self.remaining
    }

    fn read_game(&mut self) -> Result<GameData, DataError> {
        let game = self.ordinal;
        let truncated = || DataError::Truncated { game };
        let mut head = [0u8; 12];
        read_exact_or(&mut self.input, &mut head, truncated())?;
        let index = u64::from_le_bytes(head[..8].try_into().unwrap_or([0; 8]));
        let winner = match head[8] {
            0 => Some(Color::Black),
            1 => None,
            2 => Some(Color::White),
            byte => return Err(DataError::BadResult { game, byte }),
        };
        let fen_len = usize::from(head[9]);
        let plies = usize::from(u16::from_le_bytes([head[10], head[11]]));
        let start = if fen_len == 0 {
            Position::new()
        } else {
            let mut fen = vec![0u8; fen_len];
            read_exact_or(&mut self.input, &mut fen, truncated())?;
            let text = String::from_utf8_lossy(&fen).into_owned();
            start_from_fen(&text).map_err(|e| DataError::BadFen {
                game,
                fen: text.clone(),
                error: e.to_string(),
            })?
        };
        let mut raw = vec![0u8; plies * self.ply_bytes];
        read_exact_or(&mut self.input, &mut raw, truncated())?;
        let mut pos = start;
        let mut out = Vec::with_capacity(plies);
        for (ply, rec) in raw.chunks_exact(self.ply_bytes).enumerate() {
            let bits = u16::from_le_bytes([rec[0], rec[1]]);
            let score = i16::from_le_bytes([rec[2], rec[3]]);
            let wdl = match rec.get(4).map(|&b| b as i8) {
                None | Some(NO_LABEL) => None,
                Some(byte) => {
                    Some(Wdl::from_value(i32::from(byte)).ok_or(DataError::BadLabel {
                        game,
                        ply,
                        byte,
                    })?)
                }
            };
            let legal = pos.legal_moves();
            let Some(&mv) = legal.iter().find(|m| m.to_bits() == bits) else {
                return Err(DataError::IllegalMove { game, ply, bits });
            };
            pos.play_unchecked(mv);
            out.push(Ply {
                mv,
                score: (score != NOT_KEPT).then_some(score),
                wdl,
            });
        }
        Ok(GameData {
            index,
            start,
            winner,
            plies: out,
        })
    }
}

impl<R: Read> Iterator for GameReader<R> {
    type Item = Result<GameData, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if self.remaining == 0 {
            self.done = true;
            // Nothing may follow the announced games.
            let mut byte = [0u8; 1];
            return match self.input.read(&mut byte) {
                Ok(0) => None,
                Ok(_) => Some(Err(DataError::TrailingData {
                    games: self.ordinal,
                })),
                Err(e) => Some(Err(DataError::Io(e))),
            };
        }
        let game = self.read_game();
        self.remaining -= 1;
        self.ordinal += 1;
        if game.is_err() {
            self.done = true;
        }
        Some(game)
    }
}

fn read_exact_or(input: &mut impl Read, buf: &mut [u8], short: DataError) -> Result<(), DataError> {
    match input.read_exact(buf) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Err(short),
        Err(e) => Err(DataError::Io(e)),
    }
}

/// Compresses games into the bytes of a shard.
pub fn shard_bytes(games: &[GameData]) -> Result<Vec<u8>, DataError> {
    let mut raw = Vec::new();
    encode_games(games, &mut raw)?;
    Ok(zstd::bulk::compress(&raw, ZSTD_LEVEL)?)
}

/// Reads every game of a shard's bytes (zstd-compressed, as written by [`shard_bytes`]).
pub fn games_from_bytes(bytes: &[u8]) -> Result<Vec<GameData>, DataError> {
    let decoder = zstd::stream::read::Decoder::new(bytes)?;
    GameReader::new(decoder)?.collect()
}

/// Writes a shard so that it is never seen half-written: to a temporary file in the same
/// folder, flushed to disk, then renamed over `path`.
pub fn write_shard(path: &Path, games: &[GameData]) -> Result<Vec<u8>, DataError> {
    let bytes = shard_bytes(games).map_err(|e| e.in_file(path))?;
    write_atomically(path, &bytes).map_err(|e| DataError::Io(e).in_file(path))?;
    Ok(bytes)
}

/// Reads every game of the shard at `path`.
pub fn read_shard(path: &Path) -> Result<Vec<GameData>, DataError> {
    let bytes = std::fs::read(path).map_err(|e| DataError::Io(e).in_file(path))?;
    games_from_bytes(&bytes).map_err(|e| e.in_file(path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shatranj_chess::uci::parse_uci;

    fn game(index: u64, start: Position, moves: &[&str], winner: Option<Color>) -> GameData {
        let mut pos = start;
        let plies = moves
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let mv = parse_uci(&pos, text).unwrap();
                pos.play_unchecked(mv);
                Ply {
                    mv,
                    score: (i % 2 == 1).then_some(i as i16 * 10 - 25),
                    wdl: None,
                }
            })
            .collect();
        GameData {
            index,
            start,
            winner,
            plies,
        }
    }

    fn sample() -> Vec<GameData> {
        let kiwi: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
            .parse()
            .unwrap();
        vec![
            game(
                3,
                Position::new(),
                &["e2e4", "d7d5", "e4d5", "g8f6"],
                Some(Color::White),
            ),
            game(4, kiwi, &["e1g1", "e8c8", "d5e6", "h3g2", "e6f7"], None),
            game(9, Position::new(), &[], Some(Color::Black)),
        ]
    }

    #[test]
    fn games_round_trip_through_a_shard() {
        let games = sample();
        let bytes = shard_bytes(&games).unwrap();
        assert_eq!(games_from_bytes(&bytes).unwrap(), games);
        let kept: Vec<_> = games[0].training_positions().collect();
        assert_eq!(kept.len(), 2);
        assert_eq!(kept[0].score, -15);
        assert_eq!(kept[0].position.turn(), Color::Black);
        assert_eq!(kept[0].result_for_side_to_move(), 0.0);
        assert_eq!(kept[1].score, 5);
        let drawn: Vec<_> = games[1].training_positions().collect();
        assert_eq!(drawn[0].result_for_side_to_move(), 0.5);
    }

    /// Labelled games are written as version 2 (5 bytes a ply) and read back with their
    /// labels; unlabelled ones stay version 1, as earlier builds wrote them.
    #[test]
    fn wdl_labels_round_trip_as_version_2() {
        let mut raw = Vec::new();
        encode_games(&sample(), &mut raw).unwrap();
        assert_eq!(u16::from_le_bytes([raw[8], raw[9]]), VERSION_UNLABELLED);
        let krk: Position = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1".parse().unwrap();
        let mut games = sample();
        let mut labelled = game(5, krk, &["a1a2", "e5e4", "a2a3"], Some(Color::White));
        labelled.plies[0].wdl = Some(Wdl::Win);
        labelled.plies[1].wdl = Some(Wdl::Loss);
        games.push(labelled);
        let mut raw = Vec::new();
        encode_games(&games, &mut raw).unwrap();
        assert_eq!(u16::from_le_bytes([raw[8], raw[9]]), VERSION);
        let read = |raw: &[u8]| {
            GameReader::new(raw).and_then(std::iter::Iterator::collect::<Result<Vec<_>, _>>)
        };
        assert_eq!(read(&raw).unwrap(), games);
        let kept: Vec<_> = games[3].training_positions().collect();
        assert_eq!(kept[0].wdl, Some(Wdl::Loss));
        assert_eq!(kept[0].position.turn(), Color::Black);
        // The first game's first label byte (after move and score) spoiled.
        let mut bad = raw.clone();
        bad[16 + 12 + 4] = 7;
        assert!(matches!(
            read(&bad),
            Err(DataError::BadLabel {
                game: 0,
                ply: 0,
                byte: 7
            })
        ));
    }

    /// A Chess960 game (its start's castling rights by file, castling as king-takes-rook)
    /// reads back as written.
    #[test]
    fn chess960_games_round_trip() {
        let start = Position::from_fen_with(
            "1r4k1/8/8/8/8/8/PPP5/RK6 w A - 0 1",
            shatranj_chess::CastlingMode::Chess960,
        )
        .unwrap();
        let games = vec![
            game(0, start, &["b1a1", "g8g7", "c1b1"], None),
            game(1, Position::chess960(0).unwrap(), &["g2g3", "d8c6"], None),
        ];
        let bytes = shard_bytes(&games).unwrap();
        assert_eq!(games_from_bytes(&bytes).unwrap(), games);
    }

    /// Every way a shard can be damaged gives its own error, never a panic.
    #[test]
    fn damaged_shards_give_typed_errors() {
        let mut raw = Vec::new();
        encode_games(&sample(), &mut raw).unwrap();
        let read = |raw: &[u8]| {
            GameReader::new(raw).and_then(std::iter::Iterator::collect::<Result<Vec<_>, _>>)
        };
        assert!(read(&raw).is_ok());

        let mut bad = raw.clone();
        bad[0] = b'X';
        assert!(matches!(read(&bad), Err(DataError::Magic { .. })));
        let mut bad = raw.clone();
        bad[8] = 7;
        assert!(matches!(
            read(&bad),
            Err(DataError::Version { found: 7, .. })
        ));
        for cut in [3, 16, 20, 30, raw.len() - 1] {
            assert!(
                matches!(read(&raw[..cut]), Err(DataError::Truncated { .. })),
                "cut at {cut}"
            );
        }
        let mut bad = raw.clone();
        bad.push(0);
        assert!(matches!(
            read(&bad),
            Err(DataError::TrailingData { games: 3 })
        ));
        let mut bad = raw.clone();
        bad[16 + 8] = 5;
        assert!(matches!(
            read(&bad),
            Err(DataError::BadResult { game: 0, byte: 5 })
        ));
        // The first game's second move replaced by e2e4 again: illegal for Black.
        let mut bad = raw.clone();
        let first_move = 16 + 12;
        bad.copy_within(first_move..first_move + 2, first_move + 4);
        assert!(matches!(
            read(&bad),
            Err(DataError::IllegalMove {
                game: 0,
                ply: 1,
                ..
            })
        ));
        // A FEN that does not parse.
        let second = 16 + 12 + 4 * 4;
        let fen_start = second + 12;
        let mut bad = raw.clone();
        bad[fen_start] = b'?';
        assert!(matches!(read(&bad), Err(DataError::BadFen { game: 1, .. })));
        // Not zstd at all.
        assert!(games_from_bytes(b"plain text").is_err());
    }

    #[test]
    fn a_shard_is_written_whole_or_not_at_all() {
        let dir = std::env::temp_dir().join(format!("shatranj-format-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.sgd");
        write_shard(&path, &sample()).unwrap();
        assert_eq!(read_shard(&path).unwrap(), sample());
        let leftovers: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(std::result::Result::ok)
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
            .collect();
        assert!(leftovers.is_empty());
        let missing = read_shard(&dir.join("missing.sgd"))
            .unwrap_err()
            .to_string();
        assert!(missing.contains("missing.sgd"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
