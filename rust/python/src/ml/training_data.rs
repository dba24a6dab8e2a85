//! Training data for Python: datagen's shards (`.sgd`, see
//! `shatranj_engine::games::datagen::format`) read into numpy columns, one row per training
//! position, and the same feature columns for boards.
//!
//! The rows are what `rust/train`'s `Sample` holds: the active features of both views
//! (`shatranj_engine::nnue::active_features`, padded to 32 with [`PAD`]), the side to move,
//! the score and the game's result for the side to move, and the tables' WDL where datagen
//! labelled the position (`--syzygy-label`; [`NO_WDL`] elsewhere). The games are split by index as
//! the trainer splits them (`index % validation_every == 0` goes to validation), so no
//! validation position has a twin from the same game in training.
//!
//! Shards are decoded in parallel with the GIL released; the columns are allocated once, at
//! their final size, filled in place (each shard its own slice) and handed to numpy without
//! a copy ([`crate::native_array`]): a position costs 136 bytes, so tens of millions fit.

use crate::board::Board;
use crate::errors::{TrainingDataError, data_error};
use crate::native_array::numpy_array;
use crate::worker::run_interruptible;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rayon::prelude::*;
use shatranj_chess::{Color, Position};
use shatranj_engine::games::datagen::format::NO_LABEL;
use shatranj_engine::games::datagen::{DataError, GameData, TrainingPosition, read_shard};
use shatranj_engine::nnue::{INPUTS, MAX_PIECES, active_features};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The index of an empty feature slot: one past the last feature, so a `(769, H)` weight
/// table whose last row is zero (or an `EmbeddingBag` with `padding_idx=768`) sums the
/// padded rows directly.
pub const PAD: i16 = INPUTS as i16;

/// The `wdl` of a position without a tablebase label: the shard format's own sentinel.
pub const NO_WDL: i8 = NO_LABEL;

const SLICE: Duration = Duration::from_millis(20);

/// Mutable views of `len` rows of every column.
struct Rows<'a> {
    white: &'a mut [i16],
    black: &'a mut [i16],
    count: &'a mut [u8],
    turn: &'a mut [bool],
    score: &'a mut [i16],
    result: &'a mut [f32],
    wdl: &'a mut [i8],
}

impl<'a> Rows<'a> {
    fn split_at(self, n: usize) -> (Rows<'a>, Rows<'a>) {
        let (wa, wb) = self.white.split_at_mut(n * MAX_PIECES);
        let (ba, bb) = self.black.split_at_mut(n * MAX_PIECES);
        let (ca, cb) = self.count.split_at_mut(n);
        let (ta, tb) = self.turn.split_at_mut(n);
        let (sa, sb) = self.score.split_at_mut(n);
        let (ra, rb) = self.result.split_at_mut(n);
        let (la, lb) = self.wdl.split_at_mut(n);
        (
            Rows {
                white: wa,
                black: ba,
                count: ca,
                turn: ta,
                score: sa,
                result: ra,
                wdl: la,
            },
            Rows {
                white: wb,
                black: bb,
                count: cb,
                turn: tb,
                score: sb,
                result: rb,
                wdl: lb,
            },
        )
    }

    /// Writes the features and side to move of `pos` into row `i`.
    fn put_position(&mut self, i: usize, pos: &Position) {
        let (white, black) = active_features(pos);
        let row = i * MAX_PIECES..(i + 1) * MAX_PIECES;
        for (slot, f) in self.white[row.clone()].iter_mut().zip(&white) {
            *slot = *f as i16;
        }
        for (slot, f) in self.black[row].iter_mut().zip(&black) {
            *slot = *f as i16;
        }
        self.count[i] = white.len() as u8;
        self.turn[i] = pos.turn() == Color::White;
    }

    fn put(&mut self, i: usize, t: &TrainingPosition) {
        self.put_position(i, &t.position);
        self.score[i] = t.score;
        self.result[i] = t.result_for_side_to_move();
        self.wdl[i] = t.wdl.map_or(NO_WDL, |w| w.value() as i8);
    }
}

/// The columns of `len` positions, features pre-filled with [`PAD`].
struct Columns {
    len: usize,
    white: Vec<i16>,
    black: Vec<i16>,
    count: Vec<u8>,
    turn: Vec<bool>,
    score: Vec<i16>,
    result: Vec<f32>,
    wdl: Vec<i8>,
}

impl Columns {
    fn new(len: usize) -> Columns {
        Columns {
            len,
            white: vec![PAD; len * MAX_PIECES],
            black: vec![PAD; len * MAX_PIECES],
            count: vec![0; len],
            turn: vec![false; len],
            score: vec![0; len],
            result: vec![0.0; len],
            wdl: vec![NO_WDL; len],
        }
    }

    fn rows(&mut self) -> Rows<'_> {
        Rows {
            white: &mut self.white,
            black: &mut self.black,
            count: &mut self.count,
            turn: &mut self.turn,
            score: &mut self.score,
            result: &mut self.result,
            wdl: &mut self.wdl,
        }
    }

    /// `{"white", "black", "count", "turn"}`, plus `"score"`, `"result"` and `"wdl"` when
    /// `labels`.
    fn into_dict(self, py: Python<'_>, labels: bool) -> PyResult<Bound<'_, PyDict>> {
        let n = self.len;
        let d = PyDict::new(py);
        d.set_item("white", numpy_array(py, self.white, &[n, MAX_PIECES])?)?;
        d.set_item("black", numpy_array(py, self.black, &[n, MAX_PIECES])?)?;
        d.set_item("count", numpy_array(py, self.count, &[n])?)?;
        d.set_item("turn", numpy_array(py, self.turn, &[n])?)?;
        if labels {
            d.set_item("score", numpy_array(py, self.score, &[n])?)?;
            d.set_item("result", numpy_array(py, self.result, &[n])?)?;
            d.set_item("wdl", numpy_array(py, self.wdl, &[n])?)?;
        }
        Ok(d)
    }
}

/// What reading stopped on.
enum ReadError {
    Data(DataError),
    /// A folder without shards: most likely the wrong folder.
    NoShards(PathBuf),
    Interrupted,
}

impl From<DataError> for ReadError {
    fn from(e: DataError) -> ReadError {
        ReadError::Data(e)
    }
}

/// Everything read: the two splits, the games and the files in reading order.
struct Read {
    train: Columns,
    validation: Columns,
    games: u64,
    files: Vec<PathBuf>,
}

/// The shard files a path names: the file itself, or the `.sgd` files in the folder, sorted
/// by name so that the rows' order does not depend on the file system (as `rust/train`).
fn shard_paths(path: &Path) -> Result<Vec<PathBuf>, ReadError> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let entries = std::fs::read_dir(path).map_err(|e| DataError::File {
        path: path.to_path_buf(),
        error: Box::new(DataError::Io(e)),
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "sgd"))
        .collect();
    if files.is_empty() {
        return Err(ReadError::NoShards(path.to_path_buf()));
    }
    files.sort();
    Ok(files)
}

fn to_validation(game: &GameData, every: u64) -> bool {
    every > 0 && game.index.is_multiple_of(every)
}

fn read(paths: &[PathBuf], every: u64, stop: &AtomicBool) -> Result<Read, ReadError> {
    let mut files = Vec::new();
    for p in paths {
        files.extend(shard_paths(p)?);
    }
    let shards: Vec<Result<Vec<GameData>, ReadError>> = files
        .par_iter()
        .map(|f| {
            if stop.load(Ordering::Relaxed) {
                return Err(ReadError::Interrupted);
            }
            Ok(read_shard(f)?)
        })
        .collect();
    // The first failure in file order, so the error does not depend on thread timing.
    let shards = shards.into_iter().collect::<Result<Vec<_>, _>>()?;

    let counts: Vec<(usize, usize)> = shards
        .iter()
        .map(|games| {
            games.iter().fold((0, 0), |(t, v), g| {
                let n = g.training_count();
                if to_validation(g, every) {
                    (t, v + n)
                } else {
                    (t + n, v)
                }
            })
        })
        .collect();
    let mut train = Columns::new(counts.iter().map(|c| c.0).sum());
    let mut validation = Columns::new(counts.iter().map(|c| c.1).sum());
    let games = shards.iter().map(|g| g.len() as u64).sum();

    // Each shard fills its own rows of both splits.
    let mut jobs = Vec::with_capacity(shards.len());
    let (mut t_rest, mut v_rest) = (train.rows(), validation.rows());
    for (games, &(t, v)) in shards.into_iter().zip(&counts) {
        let (t_here, t_next) = t_rest.split_at(t);
        let (v_here, v_next) = v_rest.split_at(v);
        jobs.push((games, t_here, v_here));
        (t_rest, v_rest) = (t_next, v_next);
    }
    jobs.into_par_iter()
        .try_for_each(|(games, mut t_rows, mut v_rows)| {
            let (mut ti, mut vi) = (0, 0);
            for g in &games {
                if stop.load(Ordering::Relaxed) {
                    return Err(ReadError::Interrupted);
                }
                let (rows, i) = if to_validation(g, every) {
                    (&mut v_rows, &mut vi)
                } else {
                    (&mut t_rows, &mut ti)
                };
                for t in g.training_positions() {
                    rows.put(*i, &t);
                    *i += 1;
                }
            }
            Ok(())
        })?;
    Ok(Read {
        train,
        validation,
        games,
        files,
    })
}

/// Reads datagen shards (files, or folders of `.sgd` files) into numpy columns: a dict with
/// `train` and `validation` (dicts of arrays: `white`, `black`, `count`, `turn`, `score`,
/// `result`, `wdl`), `games` and `files`.
#[pyfunction]
#[pyo3(signature = (paths, validation_every = 0))]
pub fn nnue_read_data(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    validation_every: i64,
) -> PyResult<Bound<'_, PyDict>> {
    let every = u64::try_from(validation_every).map_err(|_| {
        PyValueError::new_err(format!(
            "validation_every {validation_every} must not be negative (0: no validation split)"
        ))
    })?;
    if paths.is_empty() {
        return Err(PyValueError::new_err(
            "no paths: give a shard, a folder of .sgd shards, or a list of them",
        ));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let job = {
        let stop = Arc::clone(&stop);
        move || read(&paths, every, &stop)
    };
    let read = run_interruptible(
        py,
        "read_data",
        SLICE,
        job,
        || stop.store(true, Ordering::SeqCst),
        || Ok(()),
    )?
    .map_err(|e| match e {
        ReadError::Data(e) => data_error(e),
        ReadError::NoShards(dir) => TrainingDataError::new_err(format!(
            "{}: a folder with no .sgd shards in it",
            dir.display()
        )),
        // `run_interruptible` raised KeyboardInterrupt before the job could say this.
        ReadError::Interrupted => TrainingDataError::new_err("interrupted"),
    })?;
    let out = PyDict::new(py);
    out.set_item("train", read.train.into_dict(py, true)?)?;
    out.set_item("validation", read.validation.into_dict(py, true)?)?;
    out.set_item("games", read.games)?;
    let files = PyList::empty(py);
    for f in &read.files {
        files.append(f)?;
    }
    out.set_item("files", files)?;
    Ok(out)
}

/// The feature columns (`white`, `black`, `count`, `turn`) of boards, as `nnue_read_data`
/// gives them for training positions.
#[pyfunction]
pub fn nnue_features<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut positions = Vec::with_capacity(boards.len().unwrap_or(0));
    for (i, item) in boards.try_iter()?.enumerate() {
        let item = item?;
        let board = item.cast::<Board>().map_err(|_| {
            let type_name = crate::errors::type_name(&item);
            PyTypeError::new_err(format!(
                "boards[{i}]: expected a shatranj.Board, got {type_name}"
            ))
        })?;
        positions.push(*crate::board::read(board)?.valid_position()?);
    }
    let columns = py.detach(|| {
        let mut columns = Columns::new(positions.len());
        let mut rows = columns.rows();
        for (i, pos) in positions.iter().enumerate() {
            rows.put_position(i, pos);
        }
        columns
    });
    columns.into_dict(py, false)
}
