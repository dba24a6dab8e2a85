//! Columns for `shatranj.pgn.to_arrow`: games parsed on the pool (each into a compact row),
//! appended into Arrow-layout buffers (offsets, values, validity bitmaps) without the GIL, and
//! handed to Python as bytes for `pyarrow.Array.from_buffers`. No arrow crate is needed: the
//! layouts are Arrow's columnar format, written directly, so one abi3 wheel works with any
//! pyarrow.
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
use shatranj_chess::pgn::stream::{GameStream, ParseFn};
use shatranj_chess::pgn::{PgnError, PgnGame, RawGame, parse_game};
use shatranj_chess::{Move, Position, Role};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What each game contributes. Built on the pool and dropped on the thread that fills the
/// columns, so it is a few allocations, not one per tag: the tag names and values and the
/// result lie one after another in `text`.
struct Row {
    text: String,
    /// For each tag, where its name ends and where its value ends in `text` (each name
    /// begins where the previous value ended).
    tag_ends: Vec<(u32, u32)>,
    /// The result is `text[result_start..]`.
    result_start: usize,
    first_line: usize,
    moves: Vec<Move>,
    clocks: Vec<Option<f32>>,
    evals: Vec<Option<Eval>>,
    /// FENs at the chosen plies (games table), or before every move (positions table).
    fens: Vec<Option<String>>,
}

impl Row {
    fn tags(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        let mut start = 0;
        self.tag_ends.iter().map(move |&(name_end, value_end)| {
            let (name_end, value_end) = (name_end as usize, value_end as usize);
            let pair = (&self.text[start..name_end], &self.text[name_end..value_end]);
            start = value_end;
            pair
        })
    }

    fn result(&self) -> &str {
        &self.text[self.result_start..]
    }
}

enum Item {
    Row(Box<Row>),
    Skipped(PgnError),
}

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
            self.values.push(item.unwrap_or_default());
            self.valid.push(item.is_some());
        }
        self.offsets.push(self.values.len() as i32);
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

fn row_of(game: &PgnGame, options: &Options) -> Row {
    let mut moves = Vec::new();
    let mut clocks = Vec::new();
    let mut evals = Vec::new();
    for id in game.mainline() {
        let node = game.node(id);
        let Some(mv) = node.mv else { break };
        moves.push(mv);
        clocks.push(annotations::clock(game.comment(id)).map(|c| c as f32));
        evals.push(annotations::eval(game.comment(id)).map(|e| e.eval));
    }
    let mut fens = Vec::new();
    if options.positions || !options.fen_plies.is_empty() {
        let mut pos: Position = game.start;
        let mut at = vec![None; options.fen_plies.len()];
        for ply in 0..=moves.len() {
            if options.positions && ply < moves.len() {
                fens.push(Some(pos.fen()));
            }
            for (slot, &want) in options.fen_plies.iter().enumerate() {
                if want == ply {
                    at[slot] = Some(pos.fen());
                }
            }
            if ply < moves.len() {
                pos.play_unchecked(moves[ply]);
            }
        }
        if !options.positions {
            fens = at;
        }
    }
    let size: usize = game.tags.iter().map(|(k, v)| k.len() + v.len()).sum();
    let mut text = String::with_capacity(size + 8);
    let mut tag_ends = Vec::with_capacity(game.tags.len());
    for (name, value) in &game.tags {
        text.push_str(name);
        let name_end = text.len() as u32;
        text.push_str(value);
        tag_ends.push((name_end, text.len() as u32));
    }
    let result_start = text.len();
    text.push_str(game.result());
    Row {
        text,
        tag_ends,
        result_start,
        first_line: game.first_line,
        moves,
        clocks,
        evals,
        fens,
    }
}

/// The columns being filled for one chunk.
struct Chunk {
    options: Options,
    rows: usize,
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

impl Chunk {
    fn new(options: Options) -> Chunk {
        let n_fens = if options.positions {
            1
        } else {
            options.fen_plies.len()
        };
        Chunk {
            options,
            rows: 0,
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

    fn add(&mut self, row: &Row, game_index: i64) {
        if self.options.positions {
            self.add_positions(row, game_index);
            return;
        }
        // Database games list the same tags in the same order: when this row's names are
        // the columns', in order, each value goes straight to its column.
        let same_layout = row.tag_ends.len() == self.tag_names.len()
            && row.tags().zip(&self.tag_names).all(|((k, _), n)| k == n);
        if same_layout {
            for (col, (_, v)) in self.tags.iter_mut().zip(row.tags()) {
                col.push(Some(v.as_bytes()));
            }
        } else {
            for (name, _) in row.tags() {
                if !self.tag_names.iter().any(|n| n == name) {
                    self.tag_names.push(name.to_owned());
                    let mut col = StrCol::new();
                    for _ in 0..self.rows {
                        col.push(None);
                    }
                    self.tags.push(col);
                }
            }
            for (i, name) in self.tag_names.iter().enumerate() {
                let value = row
                    .tags()
                    .find(|(k, _)| k == name)
                    .map(|(_, v)| v.as_bytes());
                self.tags[i].push(value);
            }
        }
        self.result.push(Some(row.result().as_bytes()));
        self.game.push(game_index);
        self.first_line.push(row.first_line as i32);
        self.ply_count.push(row.moves.len() as i32);
        if self.options.codes {
            self.codes
                .push_list(row.moves.iter().map(|&m| Some(move_code(m))));
        } else {
            let mut text = [0u8; 5];
            for &m in &row.moves {
                self.uci.1.push(Some(uci_bytes(m, &mut text)));
            }
            self.uci.0.push(self.uci.1.len() as i32);
        }
        self.clocks.push_list(row.clocks.iter().copied());
        self.eval_cp.push_list(row.evals.iter().map(|e| match e {
            Some(Eval::Cp(v)) => Some(clamp32(*v)),
            _ => None,
        }));
        self.eval_mate.push_list(row.evals.iter().map(|e| match e {
            Some(Eval::Mate(v)) => Some(clamp32(*v)),
            _ => None,
        }));
        for (i, fen) in row.fens.iter().enumerate() {
            self.fens[i].push(fen.as_deref().map(str::as_bytes));
        }
        self.rows += 1;
    }

    fn add_positions(&mut self, row: &Row, game_index: i64) {
        let mut text = [0u8; 5];
        for (ply, m) in row.moves.iter().enumerate() {
            self.game.push(game_index);
            self.ply.push(ply as i32);
            self.fens[0].push(row.fens[ply].as_deref().map(str::as_bytes));
            if self.options.codes {
                self.move_code.push(move_code(*m));
            } else {
                self.move_uci.push(Some(uci_bytes(*m, &mut text)));
            }
            self.clock.values.push(row.clocks[ply].unwrap_or_default());
            self.clock.valid.push(row.clocks[ply].is_some());
            let (cp, mate) = match row.evals[ply] {
                Some(Eval::Cp(v)) => (Some(clamp32(v)), None),
                Some(Eval::Mate(v)) => (None, Some(clamp32(v))),
                None => (None, None),
            };
            self.cp.values.push(cp.unwrap_or_default());
            self.cp.valid.push(cp.is_some());
            self.mate.values.push(mate.unwrap_or_default());
            self.mate.valid.push(mate.is_some());
            self.rows += 1;
        }
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

/// A table read in progress: chunks of columns, each at most `chunk_games` games.
#[pyclass(module = "shatranj._core", frozen)]
pub struct PgnTableReader {
    inner: Mutex<State>,
}

struct State {
    stream: Option<GameStream<Item>>,
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
        let mut chunk = Chunk::new(state.options.clone());
        let mut taken = 0usize;
        let mut ended = false;
        while taken < chunk_games.max(1) {
            let games = &mut state.games;
            let skipped = &mut state.skipped;
            let failure = &mut state.failure;
            let got = py.detach(|| {
                // Fill from as many batches as arrive within the slice, without the GIL.
                let mut status = 0u8; // 0 more, 1 ended, 2 timeout
                while taken < chunk_games.max(1) {
                    match stream.next_batch(Duration::from_millis(50)) {
                        Ok(Some(items)) => {
                            for item in items {
                                match item {
                                    Item::Row(row) => {
                                        chunk.add(&row, *games);
                                        *games += 1;
                                        taken += 1;
                                    }
                                    Item::Skipped(e) => {
                                        skipped.push(crate::pgn::error_tuple_of(&e))
                                    }
                                }
                            }
                        }
                        Ok(None) => {
                            status = 1;
                            break;
                        }
                        Err(Some(e)) => {
                            *failure = Some((
                                e.to_string(),
                                e.offset,
                                e.line,
                                e.compression.name(),
                                e.truncated,
                            ));
                            status = 1;
                            break;
                        }
                        Err(None) => {
                            status = 2;
                            break;
                        }
                    }
                }
                status
            });
            match got {
                1 => {
                    ended = true;
                    break;
                }
                2 => {
                    if let Err(e) = py.check_signals() {
                        stream.stop();
                        state.stream = None;
                        return Err(e);
                    }
                }
                _ => {}
            }
        }
        if ended {
            state.stream = None;
        }
        if chunk.rows == 0 && taken == 0 && ended {
            return Ok(None);
        }
        chunk.to_python(py).map(Some)
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
    let parse_options = options.clone();
    let parse: ParseFn<Item> = Arc::new(move |raw: &RawGame| {
        if !filter.accepts_raw(raw) {
            return None;
        }
        let game = parse_game(raw);
        Some(match game.fatal_error() {
            None => Item::Row(Box::new(row_of(&game, &parse_options))),
            Some(e) => Item::Skipped(e.clone()),
        })
    });
    let source = open_source(source, total)?;
    let stream = GameStream::new(source, parse, threads)
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
