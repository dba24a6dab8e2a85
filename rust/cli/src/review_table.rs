//! The tables of `shatranj review --table FILE`: one row per move in FILE, one row per game
//! in FILE's `NAME.games.EXT` beside it, as CSV (`.csv`) or Parquet (`.parquet`). The
//! columns, their order, types and meaning are those of `shatranj.review`'s tables in
//! Python (`MOVE_COLUMNS`, `GAME_COLUMNS` in `_tables.py`): one schema for both languages.
//!
//! CSV has a header line (RFC 4180: fields holding a comma, a quote or a line break are
//! quoted, quotes doubled); an empty field is unknown (Parquet's null). Parquet is made from
//! the CSV when a run ends (see `review_parquet`), so the CSV is always what a run writes.
//!
//! Evaluations are White's: `*_cp` holds centipawns, `*_mate` a mate in n (positive when
//! White mates); exactly one of the two is set, or neither when unknown. A finished
//! checkmate is `*_mate` = 0, its winner the side that just moved. Win% is White's, the
//! accuracy the mover's; numbers are written in full (the shortest text that reads back
//! the same double). `depth` and `nodes` are those of the search of the position before the
//! move (unknown from comments, or where the game was over). `game` is the game's number in
//! the input, from 1 (Python's is its index among the games read, from 0). A game that could
//! not be reviewed (and was skipped) has a row in the games table with its tags, if it had
//! any, and `error`; the other columns are unknown.

use shatranj_engine::review::{Eval, GameReview, is_standard_start};
use shatranj_pgn::PgnGame;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// A column's type: Parquet's INT64, INT32, DOUBLE or UTF-8 `BYTE_ARRAY` (pyarrow's int64,
/// int32, float64 and string). Every column may be null.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Int64,
    Int32,
    Double,
    Utf8,
}

use Kind::{Double, Int32, Int64, Utf8};

/// The columns of the move table.
pub const MOVE_COLUMNS: [(&str, Kind); 21] = [
    ("game", Int64),
    ("ply", Int32),
    ("move_number", Int32),
    ("color", Utf8),
    ("san", Utf8),
    ("uci", Utf8),
    ("eval_before_cp", Int32),
    ("eval_before_mate", Int32),
    ("eval_after_cp", Int32),
    ("eval_after_mate", Int32),
    ("best_uci", Utf8),
    ("best_san", Utf8),
    ("pv", Utf8),
    ("win_before", Double),
    ("win_after", Double),
    ("accuracy", Double),
    ("judgement", Utf8),
    ("nag", Int32),
    ("advice", Utf8),
    ("depth", Int32),
    ("nodes", Int64),
];

/// The columns of the game table.
pub const GAME_COLUMNS: [(&str, Kind); 28] = [
    ("game", Int64),
    ("event", Utf8),
    ("site", Utf8),
    ("date", Utf8),
    ("round", Utf8),
    ("white", Utf8),
    ("black", Utf8),
    ("result", Utf8),
    ("white_elo", Int32),
    ("black_elo", Int32),
    ("eco", Utf8),
    ("time_control", Utf8),
    ("plies", Int32),
    ("start_eval_cp", Int32),
    ("start_eval_mate", Int32),
    ("white_accuracy", Double),
    ("black_accuracy", Double),
    ("white_acpl", Int32),
    ("black_acpl", Int32),
    ("white_inaccuracies", Int32),
    ("white_mistakes", Int32),
    ("white_blunders", Int32),
    ("black_inaccuracies", Int32),
    ("black_mistakes", Int32),
    ("black_blunders", Int32),
    ("engine", Utf8),
    ("fen", Utf8),
    ("error", Utf8),
];

/// The tags the game table keeps as text, in its order after `game` (the ratings, `eco` and
/// `time_control` come after `result`).
const TEXT_TAGS: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// How `--table` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    Csv,
    Parquet,
}

/// Where the tables go: the CSV files a run appends to (and a checkpoint measures), and
/// for Parquet the files made from them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TablePaths {
    pub format: Format,
    /// The move and game tables as CSV: the output itself, or Parquet's spool.
    pub csv: [PathBuf; 2],
    /// The move and game tables as Parquet.
    pub parquet: Option<[PathBuf; 2]>,
}

/// The paths from `--table`'s: `NAME.csv` and `NAME.games.csv`, or `NAME.parquet` and
/// `NAME.games.parquet` spooled in `NAME.spool.csv` and `NAME.games.spool.csv`.
pub fn paths(table: &Path) -> Result<TablePaths, String> {
    let name = table
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let beside = |n: String| table.with_file_name(n);
    if let Some(stem) = name.strip_suffix(".csv") {
        return Ok(TablePaths {
            format: Format::Csv,
            csv: [table.to_owned(), beside(format!("{stem}.games.csv"))],
            parquet: None,
        });
    }
    if let Some(stem) = name.strip_suffix(".parquet") {
        return Ok(TablePaths {
            format: Format::Parquet,
            csv: [
                beside(format!("{stem}.spool.csv")),
                beside(format!("{stem}.games.spool.csv")),
            ],
            parquet: Some([table.to_owned(), beside(format!("{stem}.games.parquet"))]),
        });
    }
    Err(format!(
        "--table {}: the table format is told by the extension: .csv or .parquet",
        table.display()
    ))
}

/// The header line of output `i` (1: moves, 2: games).
pub fn header(i: usize) -> &'static str {
    static MOVES: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    static GAMES: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let line = |columns: &[(&str, Kind)]| {
        let names: Vec<&str> = columns.iter().map(|c| c.0).collect();
        names.join(",") + "\n"
    };
    match i {
        1 => MOVES.get_or_init(|| line(&MOVE_COLUMNS)),
        _ => GAMES.get_or_init(|| line(&GAME_COLUMNS)),
    }
}

/// A CSV field: quoted where it must be.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

fn opt<T: ToString>(x: Option<T>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

/// An evaluation as its two columns, centipawns and mate.
fn eval_columns(e: Option<Eval>) -> [String; 2] {
    match e {
        None => [String::new(), String::new()],
        Some(Eval::Cp(cp)) => [cp.to_string(), String::new()],
        Some(Eval::Mate(n)) => [String::new(), n.to_string()],
        Some(Eval::Mated(_)) => [String::new(), "0".to_owned()],
    }
}

/// The rows of a game's moves.
pub fn move_rows(game: u64, review: &GameReview) -> String {
    let mut out = String::new();
    for m in &review.moves {
        let [bc, bm] = eval_columns(m.before);
        let [ac, am] = eval_columns(m.after);
        let cols = [
            game.to_string(),
            m.ply.to_string(),
            m.move_number.to_string(),
            m.color.fold_wb("white", "black").to_owned(),
            field(&m.san),
            m.uci.clone(),
            bc,
            bm,
            ac,
            am,
            opt(m.best_uci.as_deref()),
            field(&opt(m.best_san.as_deref())),
            m.pv_uci.join(" "),
            opt(m.win_before),
            opt(m.win_after),
            opt(m.accuracy),
            opt(m.judgement().map(shatranj_engine::review::Judgement::name)),
            opt(m.judgement().map(shatranj_engine::review::Judgement::nag)),
            field(&shatranj_engine::review::advice_comment(m)),
            opt(m.depth),
            opt(m.nodes),
        ];
        let _ = writeln!(out, "{}", cols.join(","));
    }
    out
}

/// A rating tag as a number: its digits, or unknown (as Python's `int(v) if v.isdigit()`).
fn rating(game: &PgnGame, tag: &str) -> String {
    match game.tag(tag) {
        Some(v) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
            v.parse::<i32>().map(|n| n.to_string()).unwrap_or_default()
        }
        _ => String::new(),
    }
}

/// The tag columns, `event` … `time_control`, of a game (all unknown without one).
fn tag_columns(game: Option<&PgnGame>) -> Vec<String> {
    let tag = |name: &str| field(game.and_then(|g| g.tag(name)).unwrap_or(""));
    let mut cols: Vec<String> = TEXT_TAGS.iter().map(|t| tag(t)).collect();
    for t in ["WhiteElo", "BlackElo"] {
        cols.push(game.map(|g| rating(g, t)).unwrap_or_default());
    }
    cols.push(tag("ECO"));
    cols.push(tag("TimeControl"));
    cols
}

/// A game's row; `engine` names what evaluated the positions (none from comments).
pub fn game_row(index: u64, game: &PgnGame, review: &GameReview, engine: Option<&str>) -> String {
    let [sc, sm] = eval_columns(review.start_eval);
    let mode = crate::review_cmd::castling_mode(game);
    let fen = if is_standard_start(&game.start, mode) {
        String::new()
    } else {
        game.start.fen()
    };
    let mut cols = vec![index.to_string()];
    cols.extend(tag_columns(Some(game)));
    cols.extend([
        review.moves.len().to_string(),
        sc,
        sm,
        opt(review.accuracy[0]),
        opt(review.accuracy[1]),
        opt(review.acpl[0]),
        opt(review.acpl[1]),
    ]);
    for side in review.counts {
        cols.extend(side.iter().map(std::string::ToString::to_string));
    }
    cols.push(field(engine.unwrap_or("")));
    cols.push(field(&fen));
    cols.push(String::new());
    cols.join(",") + "\n"
}

/// The row of a game that was not reviewed: its tags where it could be read, and why.
pub fn failed_row(index: u64, game: Option<&PgnGame>, error: &str) -> String {
    let mut cols = vec![index.to_string()];
    cols.extend(tag_columns(game));
    cols.resize(GAME_COLUMNS.len() - 1, String::new());
    cols.push(field(error));
    cols.join(",") + "\n"
}

/// Reads back the records of a table written here, one at a time (a quoted field may span
/// lines).
pub struct CsvRecords<R> {
    reader: R,
    line: String,
}

impl<R: std::io::BufRead> CsvRecords<R> {
    pub fn new(reader: R) -> CsvRecords<R> {
        CsvRecords {
            reader,
            line: String::new(),
        }
    }

    /// The next record's fields into `fields`; `false` at the end of the input.
    // The CSV states, quoted and not, each listed whole.
    #[allow(clippy::match_same_arms)]
    pub fn next_record(&mut self, fields: &mut Vec<String>) -> std::io::Result<bool> {
        fields.clear();
        let mut field = String::new();
        let mut quoted = false;
        let mut started = false;
        loop {
            self.line.clear();
            if self.reader.read_line(&mut self.line)? == 0 {
                if !started {
                    return Ok(false);
                }
                if quoted {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        "a quoted field runs to the end of the file",
                    ));
                }
                fields.push(field);
                return Ok(true);
            }
            started = true;
            let mut chars = self.line.chars().peekable();
            while let Some(c) = chars.next() {
                match (quoted, c) {
                    (true, '"') if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    (true, '"') => quoted = false,
                    (true, c) => field.push(c),
                    (false, '"') => quoted = true,
                    (false, ',') => fields.push(std::mem::take(&mut field)),
                    (false, '\r') if chars.peek() == Some(&'\n') => {}
                    (false, '\n') => {
                        fields.push(field);
                        return Ok(true);
                    }
                    (false, c) => field.push(c),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_where_they_must_be_and_read_back() {
        assert_eq!(field("Nf3"), "Nf3");
        assert_eq!(field("Carlsen, Magnus"), "\"Carlsen, Magnus\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(header(1).split(',').count(), MOVE_COLUMNS.len());
        assert_eq!(header(2).split(',').count(), GAME_COLUMNS.len());
        let texts = [
            "Nf3",
            "",
            "Carlsen, Magnus",
            "say \"hi\"",
            "two\nlines",
            "x\r\ny",
        ];
        let line = texts.map(field).join(",") + "\n";
        let two = line.clone() + &line;
        let mut records = CsvRecords::new(two.as_bytes());
        let mut fields = Vec::new();
        for _ in 0..2 {
            assert!(records.next_record(&mut fields).unwrap());
            assert_eq!(fields, texts);
        }
        assert!(!records.next_record(&mut fields).unwrap());
    }

    #[test]
    fn the_extension_tells_the_format() {
        assert!(paths(Path::new("x/out.json")).is_err());
        let csv = paths(Path::new("x/out.csv")).unwrap();
        assert_eq!(csv.format, Format::Csv);
        assert_eq!(csv.csv[1], PathBuf::from("x/out.games.csv"));
        let pq = paths(Path::new("x/out.parquet")).unwrap();
        assert_eq!(
            pq.parquet,
            Some([
                PathBuf::from("x/out.parquet"),
                PathBuf::from("x/out.games.parquet")
            ])
        );
        assert_eq!(
            pq.csv,
            [
                PathBuf::from("x/out.spool.csv"),
                PathBuf::from("x/out.games.spool.csv")
            ]
        );
    }

    #[test]
    fn a_failed_game_has_a_full_row() {
        let row = failed_row(5, None, "line 3: illegal, move");
        let mut fields = Vec::new();
        assert!(
            CsvRecords::new(row.as_bytes())
                .next_record(&mut fields)
                .unwrap()
        );
        assert_eq!(fields.len(), GAME_COLUMNS.len());
        assert_eq!(fields[0], "5");
        assert_eq!(fields.last().unwrap(), "line 3: illegal, move");
    }
}
