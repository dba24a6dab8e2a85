//! Columns for `shatranj.pgn.to_arrow`: each pool task reads its chunk's games (main lines
//! read lean, see `pgn::read_mainline`; a game with variations or other unusual movetext
//! through the tree) straight into Arrow-layout buffers (offsets, values, validity), and the
//! consumer only appends those buffers, without the GIL, before handing them to Python as
//! bytes for `pyarrow.Array.from_buffers`. No arrow crate is needed: the layouts are Arrow's
//! columnar format, written directly, so one abi3 wheel works with any pyarrow.
//!
//! Column kinds sent to Python, as tuples:
//! - `("str", n, offsets i32, data, validity | None)`
//! - `("i32", n, values)`
//! - `("list_str", n, list offsets, child offsets, child data)`
//! - `("list_i16" | "list_i32" | "list_f32", n, list offsets, child values, child validity | None)`
//!
//! Move codes (`moves="codes"`): `from + 64 * to + 4096 * promotion`, squares 0 = a1 … 63 = h8,
//! promotion as python-chess's piece types (2 knight … 5 queen, 0 none); castling is the king's
//! move, as in UCI.

use crate::pgn_stream::{FailureTuple, header_filter, open_source};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use shatranj_chess::pgn::annotations::{self, Eval};
use shatranj_chess::pgn::chunk::ChunkGames;
use shatranj_chess::pgn::stream::{ChunkFn, ChunkStream};
use shatranj_chess::pgn::{Lean, MainLine, PgnError, PgnGame, Tags, parse_game, read_mainline};
use shatranj_chess::{Move, Position, Role};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Default)]
struct StrCol {
    offsets: Vec<i32>,
    data: Vec<u8>,
    valid: Vec<bool>,
}

impl StrCol {
    fn new() -> StrCol {
        StrCol {
            offsets: vec![0],
            ..StrCol::default()
        }
    }

    fn push(&mut self, value: Option<&[u8]>) {
        if let Some(v) = value {
            self.data.extend_from_slice(v);
        }
        self.offsets.push(self.data.len() as i32);
        self.valid.push(value.is_some());
    }

    fn len(&self) -> usize {
        self.valid.len()
    }

    fn push_nulls(&mut self, n: usize) {
        for _ in 0..n {
            self.push(None);
        }
    }

    /// Appends `other`'s values after this column's.
    fn append(&mut self, other: &StrCol) {
        let base = self.data.len() as i32;
        self.offsets
            .extend(other.offsets[1..].iter().map(|o| o + base));
        self.data.extend_from_slice(&other.data);
        self.valid.extend_from_slice(&other.valid);
    }
}

#[derive(Default)]
struct ListCol<T> {
    offsets: Vec<i32>,
    values: Vec<T>,
    valid: Vec<bool>,
}

impl<T: Copy + Default> ListCol<T> {
    fn new() -> Self {
        ListCol {
            offsets: vec![0],
            values: Vec::new(),
            valid: Vec::new(),
        }
    }

    fn push_list(&mut self, items: impl Iterator<Item = Option<T>>) {
        for item in items {
            self.push_value(item);
        }
        self.offsets.push(self.values.len() as i32);
    }

    /// One value of a flat column (a positions table's), nulls allowed.
    fn push_value(&mut self, item: Option<T>) {
        self.values.push(item.unwrap_or_default());
        self.valid.push(item.is_some());
    }

    fn append(&mut self, other: &ListCol<T>) {
        let base = self.values.len() as i32;
        self.offsets
            .extend(other.offsets[1..].iter().map(|o| o + base));
        self.values.extend_from_slice(&other.values);
        self.valid.extend_from_slice(&other.valid);
    }
}

fn bitmap(valid: &[bool]) -> Option<Vec<u8>> {
    if valid.iter().all(|&v| v) {
        return None;
    }
    let mut out = vec![0u8; valid.len().div_ceil(8)];
    for (i, &v) in valid.iter().enumerate() {
        if v {
            out[i / 8] |= 1 << (i % 8);
        }
    }
    Some(out)
}

fn as_bytes<T: bytemuck::Pod>(v: &[T]) -> &[u8] {
    bytemuck::cast_slice(v)
}

/// Options of a table read.
#[derive(Clone)]
struct Options {
    positions: bool,
    codes: bool,
    fen_plies: Vec<usize>,
}

/// Table columns hold evaluations as int32: a larger one (the grammar allows ten digits of
/// pawns) saturates.
fn clamp32(v: i64) -> i32 {
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// The centipawns of an evaluation (null for a mate or none).
fn centipawns(eval: Option<Eval>) -> Option<i32> {
    match eval {
        Some(Eval::Cp(v)) => Some(clamp32(v)),
        _ => None,
    }
}

/// The moves to mate of an evaluation (null for centipawns or none).
fn mate_in(eval: Option<Eval>) -> Option<i32> {
    match eval {
        Some(Eval::Mate(v)) => Some(clamp32(v)),
        _ => None,
    }
}

fn move_code(m: Move) -> i16 {
    let promo = match m.promotion() {
        None => 0,
        Some(Role::Knight) => 2,
        Some(Role::Bishop) => 3,
        Some(Role::Rook) => 4,
        Some(Role::Queen) => 5,
        Some(_) => 0,
    };
    (m.from().index() as i16) + 64 * (m.to().index() as i16) + 4096 * promo
}

/// A move's UCI text (`e2e4`, `e7e8q`; castling as the king's move) written into `buf`
/// without the formatting machinery (it runs for every move of every game).
fn uci_bytes(m: Move, buf: &mut [u8; 5]) -> &[u8] {
    if m == Move::NULL {
        // As python-chess writes a null move in UCI.
        *buf = *b"00000";
        return &buf[..4];
    }
    let (from, to) = (m.from().index() as u8, m.to().index() as u8);
    buf[0] = b'a' + from % 8;
    buf[1] = b'1' + from / 8;
    buf[2] = b'a' + to % 8;
    buf[3] = b'1' + to / 8;
    let promo = match m.promotion() {
        Some(Role::Knight) => b'n',
        Some(Role::Bishop) => b'b',
        Some(Role::Rook) => b'r',
        Some(Role::Queen) => b'q',
        _ => return &buf[..4],
    };
    buf[4] = promo;
    &buf[..5]
}

/// One sound game's data, whichever reader read it.
struct GameView<'g> {
    tags: &'g Tags,
    start: &'g Position,
    moves: &'g [Move],
    /// The comment after each move.
    comments: Vec<&'g str>,
    result: &'g str,
    first_line: usize,
}

impl<'g> GameView<'g> {
    fn lean(line: &'g MainLine, text: &'g str) -> GameView<'g> {
        GameView {
            tags: &line.tags,
            start: &line.start,
            moves: &line.moves,
            comments: (0..line.moves.len())
                .map(|i| line.comment(text, i))
                .collect(),
            result: line.result(),
            first_line: line.first_line,
        }
    }

    fn tree(game: &'g PgnGame, moves: &'g [Move]) -> GameView<'g> {
        GameView {
            tags: &game.tags,
            start: &game.start,
            moves,
            comments: game.mainline().map(|id| game.comment(id)).collect(),
            result: game.result(),
            first_line: game.first_line,
        }
    }
}

/// Columns being filled: a pool task's for its chunk, then the consumer's for a table chunk.
struct Columns {
    options: Options,
    /// Rows: games, or positions for a positions table.
    rows: usize,
    games: i64,
    /// Tag columns in first-seen order.
    tag_names: Vec<String>,
    tags: Vec<StrCol>,
    result: StrCol,
    game: Vec<i64>,
    ply: Vec<i32>,
    first_line: Vec<i32>,
    ply_count: Vec<i32>,
    uci: (Vec<i32>, StrCol),
    codes: ListCol<i16>,
    clocks: ListCol<f32>,
    eval_cp: ListCol<i32>,
    eval_mate: ListCol<i32>,
    /// Positions table: one value per row.
    move_uci: StrCol,
    move_code: Vec<i16>,
    clock: ListCol<f32>,
    cp: ListCol<i32>,
    mate: ListCol<i32>,
    fens: Vec<StrCol>,
}

impl Columns {
    fn new(options: Options) -> Columns {
        let n_fens = if options.positions {
            1
        } else {
            options.fen_plies.len()
        };
        Columns {
            options,
            rows: 0,
            games: 0,
            tag_names: Vec::new(),
            tags: Vec::new(),
            result: StrCol::new(),
            game: Vec::new(),
            ply: Vec::new(),
            first_line: Vec::new(),
            ply_count: Vec::new(),
            uci: (vec![0], StrCol::new()),
            codes: ListCol::new(),
            clocks: ListCol::new(),
            eval_cp: ListCol::new(),
            eval_mate: ListCol::new(),
            move_uci: StrCol::new(),
            move_code: Vec::new(),
            clock: ListCol::new(),
            cp: ListCol::new(),
            mate: ListCol::new(),
            fens: (0..n_fens).map(|_| StrCol::new()).collect(),
        }
    }

    /// Adds a game (the `game` column numbers it within these columns, from 0).
    fn add(&mut self, game: &GameView<'_>) {
        let game_index = self.games;
        self.games += 1;
        let notes: Vec<(Option<f32>, Option<Eval>)> = game
            .comments
            .iter()
            .map(|c| {
                let (clock, eval) = annotations::clock_and_eval(c);
                (clock.map(|v| v as f32), eval.map(|e| e.eval))
            })
            .collect();
        let clocks = notes.iter().map(|n| n.0);
        let evals = notes.iter().map(|n| n.1);
        if self.options.positions {
            let mut pos = *game.start;
            let mut text = [0u8; 5];
            for (ply, ((&m, clock), eval)) in game.moves.iter().zip(clocks).zip(evals).enumerate() {
                self.game.push(game_index);
                self.ply.push(ply as i32);
                self.fens[0].push(Some(pos.fen().as_bytes()));
                if self.options.codes {
                    self.move_code.push(move_code(m));
                } else {
                    self.move_uci.push(Some(uci_bytes(m, &mut text)));
                }
                self.clock.push_value(clock);
                self.cp.push_value(centipawns(eval));
                self.mate.push_value(mate_in(eval));
                pos.play_recorded(m);
                self.rows += 1;
            }
            return;
        }
        self.add_tags(game.tags);
        self.result.push(Some(game.result.as_bytes()));
        self.game.push(game_index);
        self.first_line.push(game.first_line as i32);
        self.ply_count.push(game.moves.len() as i32);
        if self.options.codes {
            self.codes
                .push_list(game.moves.iter().map(|&m| Some(move_code(m))));
        } else {
            let mut text = [0u8; 5];
            for &m in game.moves {
                self.uci.1.push(Some(uci_bytes(m, &mut text)));
            }
            self.uci.0.push(self.uci.1.len() as i32);
        }
        self.clocks.push_list(clocks);
        self.eval_cp.push_list(evals.clone().map(centipawns));
        self.eval_mate.push_list(evals.map(mate_in));
        if !self.options.fen_plies.is_empty() {
            let mut pos = *game.start;
            let mut at: Vec<Option<String>> = vec![None; self.options.fen_plies.len()];
            for ply in 0..=game.moves.len() {
                for (slot, &want) in self.options.fen_plies.iter().enumerate() {
                    if want == ply {
                        at[slot] = Some(pos.fen());
                    }
                }
                if ply < game.moves.len() {
                    pos.play_recorded(game.moves[ply]);
                }
            }
            for (col, fen) in self.fens.iter_mut().zip(&at) {
                col.push(fen.as_deref().map(str::as_bytes));
            }
        }
        self.rows += 1;
    }

    fn add_tags(&mut self, tags: &Tags) {
        // Database games list the same tags in the same order: when this game's names are
        // the columns', in order, each value goes straight to its column.
        let same_layout = tags.len() == self.tag_names.len()
            && tags.iter().zip(&self.tag_names).all(|((k, _), n)| k == n);
        if same_layout {
            for (col, (_, v)) in self.tags.iter_mut().zip(tags) {
                col.push(Some(v.as_bytes()));
            }
            return;
        }
        for (name, _) in tags {
            self.tag_column(name);
        }
        for (i, name) in self.tag_names.iter().enumerate() {
            self.tags[i].push(tags.get(name).map(str::as_bytes));
        }
    }

    /// The index of tag column `name`, made (null so far) if new.
    fn tag_column(&mut self, name: &str) -> usize {
        if let Some(i) = self.tag_names.iter().position(|n| n == name) {
            return i;
        }
        self.tag_names.push(name.to_owned());
        let mut col = StrCol::new();
        col.push_nulls(self.rows);
        self.tags.push(col);
        self.tags.len() - 1
    }

    /// Appends `other`'s rows, numbering its games after these.
    fn append(&mut self, other: &Columns) {
        let base = self.games;
        if !self.options.positions {
            for (name, col) in other.tag_names.iter().zip(&other.tags) {
                let i = self.tag_column(name);
                self.tags[i].append(col);
            }
            for col in &mut self.tags {
                col.push_nulls(self.rows + other.rows - col.len());
            }
        }
        self.game.extend(other.game.iter().map(|g| g + base));
        self.ply.extend_from_slice(&other.ply);
        self.first_line.extend_from_slice(&other.first_line);
        self.ply_count.extend_from_slice(&other.ply_count);
        self.result.append(&other.result);
        let uci_base = self.uci.1.len() as i32;
        self.uci
            .0
            .extend(other.uci.0[1..].iter().map(|o| o + uci_base));
        self.uci.1.append(&other.uci.1);
        self.codes.append(&other.codes);
        self.clocks.append(&other.clocks);
        self.eval_cp.append(&other.eval_cp);
        self.eval_mate.append(&other.eval_mate);
        self.move_uci.append(&other.move_uci);
        self.move_code.extend_from_slice(&other.move_code);
        self.clock.append(&other.clock);
        self.cp.append(&other.cp);
        self.mate.append(&other.mate);
        for (mine, theirs) in self.fens.iter_mut().zip(&other.fens) {
            mine.append(theirs);
        }
        self.rows += other.rows;
        self.games += other.games;
    }

    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        let n = self.rows;
        let bytes = |b: &[u8]| PyBytes::new(py, b);
        let opt = |b: Option<Vec<u8>>| b.map(|b| PyBytes::new(py, &b));
        let str_col = |c: &StrCol| -> PyResult<Bound<'py, PyTuple>> {
            PyTuple::new(
                py,
                [
                    "str".into_pyobject(py)?.into_any(),
                    c.len().into_pyobject(py)?.into_any(),
                    bytes(as_bytes(&c.offsets)).into_any(),
                    bytes(&c.data).into_any(),
                    opt(bitmap(&c.valid)).into_pyobject(py)?.into_any(),
                ],
            )
        };
        let i32_col = |v: &[i32]| ("i32", v.len(), bytes(as_bytes(v)));
        let list_col = |kind: &str, offsets: &[i32], values: &[u8], valid: &[bool]| {
            (
                kind.to_owned(),
                offsets.len() - 1,
                bytes(as_bytes(offsets)),
                bytes(values),
                opt(bitmap(valid)),
            )
        };
        // A flat column with nulls: a list column's child, sent as a one-row-per-value list.
        let flat = |kind: &str, values: &[u8], valid: &[bool], len: usize| {
            (kind.to_owned(), len, bytes(values), opt(bitmap(valid)))
        };
        if self.options.positions {
            out.set_item("game", ("i64", n, bytes(as_bytes(&self.game))))?;
            out.set_item("ply", i32_col(&self.ply))?;
            out.set_item("fen", str_col(&self.fens[0])?)?;
            if self.options.codes {
                out.set_item("move", ("i16", n, bytes(as_bytes(&self.move_code))))?;
            } else {
                out.set_item("move", str_col(&self.move_uci)?)?;
            }
            out.set_item(
                "clock",
                flat("f32", as_bytes(&self.clock.values), &self.clock.valid, n),
            )?;
            out.set_item(
                "eval_cp",
                flat("i32n", as_bytes(&self.cp.values), &self.cp.valid, n),
            )?;
            out.set_item(
                "eval_mate",
                flat("i32n", as_bytes(&self.mate.values), &self.mate.valid, n),
            )?;
            return Ok(out);
        }
        for (name, col) in self.tag_names.iter().zip(&self.tags) {
            out.set_item(name, str_col(col)?)?;
        }
        out.set_item("game", ("i64", n, bytes(as_bytes(&self.game))))?;
        out.set_item("result", str_col(&self.result)?)?;
        out.set_item("ply_count", i32_col(&self.ply_count))?;
        out.set_item("first_line", i32_col(&self.first_line))?;
        if self.options.codes {
            out.set_item(
                "moves",
                list_col(
                    "list_i16",
                    &self.codes.offsets,
                    as_bytes(&self.codes.values),
                    &self.codes.valid,
                ),
            )?;
        } else {
            out.set_item(
                "moves",
                (
                    "list_str",
                    n,
                    bytes(as_bytes(&self.uci.0)),
                    bytes(as_bytes(&self.uci.1.offsets)),
                    bytes(&self.uci.1.data),
                ),
            )?;
        }
        out.set_item(
            "clocks",
            list_col(
                "list_f32",
                &self.clocks.offsets,
                as_bytes(&self.clocks.values),
                &self.clocks.valid,
            ),
        )?;
        out.set_item(
            "eval_cp",
            list_col(
                "list_i32",
                &self.eval_cp.offsets,
                as_bytes(&self.eval_cp.values),
                &self.eval_cp.valid,
            ),
        )?;
        out.set_item(
            "eval_mate",
            list_col(
                "list_i32",
                &self.eval_mate.offsets,
                as_bytes(&self.eval_mate.values),
                &self.eval_mate.valid,
            ),
        )?;
        for (ply, col) in self.options.fen_plies.iter().zip(&self.fens) {
            out.set_item(format!("fen_{ply}"), str_col(col)?)?;
        }
        Ok(out)
    }
}

/// What a pool task makes of its chunk: the columns of its sound games, and the errors of
/// the games it had to leave out.
struct Fragment {
    columns: Columns,
    skipped: Vec<PgnError>,
}

/// A table read in progress: chunks of columns of about `chunk_games` games each.
#[pyclass(module = "shatranj._core", frozen)]
pub struct PgnTableReader {
    inner: Mutex<State>,
}

struct State {
    stream: Option<ChunkStream<Fragment>>,
    options: Options,
    games: i64,
    skipped: Vec<crate::pgn::ErrorTuple>,
    failure: Option<FailureTuple>,
}

#[pymethods]
impl PgnTableReader {
    /// The next chunk of columns (a dict name → buffers), or `None` at the end.
    fn next_chunk<'py>(
        &self,
        py: Python<'py>,
        chunk_games: usize,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let mut guard = self
            .inner
            .lock()
            .map_err(|_| PyValueError::new_err("the table reader failed earlier"))?;
        let state = &mut *guard;
        let Some(stream) = state.stream.as_mut() else {
            return Ok(None);
        };
        let mut columns = Columns::new(state.options.clone());
        let mut ended = false;
        while columns.games < chunk_games.max(1) as i64 {
            let skipped = &mut state.skipped;
            let failure = &mut state.failure;
            // Append as many chunks as arrive within the slice, without the GIL.
            let got = py.detach(|| {
                while columns.games < chunk_games.max(1) as i64 {
                    match stream.next_chunk(Duration::from_millis(50)) {
                        Ok(Some(fragment)) => {
                            columns.append(&fragment.columns);
                            skipped.extend(fragment.skipped.iter().map(crate::pgn::error_tuple_of));
                        }
                        Ok(None) => return Status::Ended,
                        Err(Some(e)) => {
                            *failure = Some((
                                e.to_string(),
                                e.offset,
                                e.line,
                                e.compression.name(),
                                e.truncated,
                            ));
                            return Status::Ended;
                        }
                        Err(None) => return Status::Waiting,
                    }
                }
                Status::More
            });
            match got {
                Status::Ended => {
                    ended = true;
                    break;
                }
                Status::Waiting => {
                    if let Err(e) = py.check_signals() {
                        stream.stop();
                        state.stream = None;
                        return Err(e);
                    }
                }
                Status::More => {}
            }
        }
        // The games of this chunk are numbered after those of the chunks before.
        for g in &mut columns.game {
            *g += state.games;
        }
        state.games += columns.games;
        if ended {
            state.stream = None;
        }
        if columns.games == 0 && ended {
            return Ok(None);
        }
        columns.to_python(py).map(Some)
    }

    /// Errors of the games skipped so far, and the stream's failure if it failed.
    fn report(&self) -> PyResult<(Vec<crate::pgn::ErrorTuple>, Option<FailureTuple>, i64)> {
        let guard = self
            .inner
            .lock()
            .map_err(|_| PyValueError::new_err("the table reader failed earlier"))?;
        Ok((guard.skipped.clone(), guard.failure.clone(), guard.games))
    }
}

/// Where a slice of waiting for chunks left off.
enum Status {
    More,
    Ended,
    Waiting,
}

/// Starts a table read: `kind` is `"games"` (one row per game) or `"positions"` (one row per
/// position before each main-line move); `moves` is `"uci"` or `"codes"`; `fens` the plies
/// whose FEN gets a column (games table).
#[pyfunction]
#[pyo3(signature = (source, kind = "games", moves = "uci", fens = Vec::new(), filter = None, threads = None, total = None))]
#[allow(clippy::too_many_arguments)]
pub fn pgn_table(
    source: &Bound<'_, PyAny>,
    kind: &str,
    moves: &str,
    fens: Vec<usize>,
    filter: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
    total: Option<u64>,
) -> PyResult<PgnTableReader> {
    let positions = match kind {
        "games" => false,
        "positions" => true,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown table kind {kind:?} (want \"games\" or \"positions\")"
            )));
        }
    };
    let codes = match moves {
        "uci" => false,
        "codes" => true,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown move form {moves:?} (want \"uci\" or \"codes\")"
            )));
        }
    };
    let options = Options {
        positions,
        codes,
        fen_plies: fens,
    };
    let filter = header_filter(filter)?;
    let fold_options = options.clone();
    let fold: ChunkFn<Fragment> = Arc::new(move |games: &mut ChunkGames<'_>| {
        let mut columns = Columns::new(fold_options.clone());
        let mut skipped = Vec::new();
        let mut line = MainLine::new();
        while let Some(raw) = games.next_game() {
            if !filter.accepts_raw(raw) {
                continue;
            }
            if read_mainline(raw, &mut line) == Lean::Read {
                columns.add(&GameView::lean(&line, &raw.text));
                continue;
            }
            let game = parse_game(raw);
            match game.fatal_error() {
                None => {
                    let moves = game.mainline_moves();
                    columns.add(&GameView::tree(&game, &moves));
                }
                Some(e) => skipped.push(e.clone()),
            }
        }
        Fragment { columns, skipped }
    });
    let source = open_source(source, total)?;
    let stream = ChunkStream::new(source, fold, threads)
        .map_err(|e| PyOSError::new_err(format!("cannot start the PGN reader: {e}")))?;
    Ok(PgnTableReader {
        inner: Mutex::new(State {
            stream: Some(stream),
            options,
            games: 0,
            skipped: Vec::new(),
            failure: None,
        }),
    })
}
