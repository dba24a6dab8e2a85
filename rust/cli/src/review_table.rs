//! The tables of `shatranj review --table FILE.csv`: one row per move in FILE.csv, one row
//! per game in FILE.games.csv, CSV with a header line (RFC 4180: fields holding a comma, a
//! quote or a line break are quoted, quotes doubled).
//!
//! Evaluations are White's: `*_cp` holds centipawns, `*_mate` a mate in n (positive when
//! White mates); exactly one of the two is set, or neither when unknown. A finished
//! checkmate is `*_mate` = 0, its winner the side that just moved. Win% is White's, the
//! accuracy the mover's; numbers are written in full (the shortest text that reads back
//! the same double). Empty fields are unknown (no evaluation, no best move).
//!
//! Why no Parquet: the `parquet` crate (arrow-rs's, even without arrow and with only zstd)
//! brings about twenty crates the workspace lacks (thrift, chrono, ahash, num-bigint, …) and
//! took a minute of CPU, 2 min 40 s of wall time on our two shared cores, to build optimised;
//! a Parquet file also cannot be appended game by game and truncated back to a checkpoint as
//! these files are. polars or pyarrow make Parquet of the CSV in one line
//! (`pl.read_csv("moves.csv").write_parquet("moves.parquet")`).

use shatranj_chess::pgn::PgnGame;
use shatranj_engine::review::{Eval, GameReview};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The columns of the move table.
pub const MOVE_COLUMNS: [&str; 19] = [
    "game",
    "ply",
    "move_number",
    "color",
    "san",
    "uci",
    "eval_before_cp",
    "eval_before_mate",
    "eval_after_cp",
    "eval_after_mate",
    "best_uci",
    "best_san",
    "pv",
    "win_before",
    "win_after",
    "accuracy",
    "judgement",
    "nag",
    "advice",
];

/// The columns of the game table.
pub const GAME_COLUMNS: [&str; 19] = [
    "game",
    "event",
    "white",
    "black",
    "result",
    "plies",
    "start_eval_cp",
    "start_eval_mate",
    "white_accuracy",
    "black_accuracy",
    "white_acpl",
    "black_acpl",
    "white_inaccuracies",
    "white_mistakes",
    "white_blunders",
    "black_inaccuracies",
    "black_mistakes",
    "black_blunders",
    "fen",
];

/// The move table's path and the game table's, from `--table`'s: `NAME.csv` and
/// `NAME.games.csv`.
pub fn paths(table: &Path) -> Result<(PathBuf, PathBuf), String> {
    let name = table
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let Some(stem) = name.strip_suffix(".csv") else {
        return Err(format!(
            "--table {}: the table format is told by the extension, and only .csv is written \
             here (Parquet: shatranj.review.review_pgn in Python, or convert the CSV with polars)",
            table.display()
        ));
    };
    Ok((
        table.to_owned(),
        table.with_file_name(format!("{stem}.games.csv")),
    ))
}

/// The header line of output `i` (1: moves, 2: games).
pub fn header(i: usize) -> &'static str {
    static MOVES: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    static GAMES: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    match i {
        1 => MOVES.get_or_init(|| MOVE_COLUMNS.join(",") + "\n"),
        _ => GAMES.get_or_init(|| GAME_COLUMNS.join(",") + "\n"),
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
            opt(m.judgement().map(|j| j.name())),
            opt(m.judgement().map(|j| j.nag())),
            field(&shatranj_engine::review::advice_comment(m)),
        ];
        let _ = writeln!(out, "{}", cols.join(","));
    }
    out
}

/// A game's row.
pub fn game_row(index: u64, game: &PgnGame, review: &GameReview) -> String {
    let tag = |name: &str| field(game.tag(name).unwrap_or(""));
    let [sc, sm] = eval_columns(review.start_eval);
    let fen = if game.tag("FEN").is_some() {
        game.start.fen()
    } else {
        String::new()
    };
    let mut cols = vec![
        index.to_string(),
        tag("Event"),
        tag("White"),
        tag("Black"),
        field(game.result()),
        review.moves.len().to_string(),
        sc,
        sm,
        opt(review.accuracy[0]),
        opt(review.accuracy[1]),
        opt(review.acpl[0]),
        opt(review.acpl[1]),
    ];
    for side in review.counts {
        cols.extend(side.iter().map(|n| n.to_string()));
    }
    cols.push(field(&fen));
    let mut out = cols.join(",");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_where_they_must_be() {
        assert_eq!(field("Nf3"), "Nf3");
        assert_eq!(field("Carlsen, Magnus"), "\"Carlsen, Magnus\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(header(1).split(',').count(), MOVE_COLUMNS.len());
        assert!(paths(Path::new("x/out.parquet")).is_err());
        assert_eq!(
            paths(Path::new("x/out.csv")).unwrap().1,
            PathBuf::from("x/out.games.csv")
        );
    }
}
