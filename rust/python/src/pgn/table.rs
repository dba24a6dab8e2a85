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
//! - `("list_i16" | "list_i32" | "list_f32", n, list offsets, child values, child validity | None,
//!   list validity | None)`
//!
//! Move codes (`moves="codes"`): `from + 64 * to + 4096 * promotion`, squares 0 = a1 … 63 = h8,
//! promotion as python-chess's piece types (2 knight … 5 queen, 0 none); castling is the king's
//! move, as in UCI.

use crate::native_array::{Element, NativeArray, owned_buffer};
use crate::pgn::arrow_columns::{ListCol, StrCol, Validity};
use crate::pgn::stream::{FailureTuple, header_filter, open_source};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use shatranj_chess::{Move, Position, Role};
use shatranj_pgn::annotations::{self, Eval};
use shatranj_pgn::chunk::ChunkGames;
use shatranj_pgn::stream::{ChunkFn, ChunkStream};
use shatranj_pgn::{
    HeaderFilter, MainLine, MainLineRead, PgnError, PgnGame, Tags, parse_game, read_mainline,
    read_tags,
};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The most values [`Columns::with_room`] reserves room for in one buffer (beyond, a buffer
/// grows as any `Vec` does).
const MAX_ROOM: usize = 1 << 26;

/// What a row of a table is.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Kind {
    /// A sound game: its tags, moves, clocks and evaluations.
    Games,
    /// A position before a main-line move of a sound game.
    Positions,
    /// Any game's tags, its movetext never read (as `read_headers` reads them).
    Headers,
}

/// Options of a table read.
#[derive(Clone)]
struct Options {
    kind: Kind,
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
        Some(Role::Knight) => 2,
        Some(Role::Bishop) => 3,
        Some(Role::Rook) => 4,
        Some(Role::Queen) => 5,
        None | Some(_) => 0,
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

/// Appends a move's UCI text to `out` (with a fixed-size copy: this runs for every move).
fn push_uci(m: Move, out: &mut Vec<u8>) {
    let mut buf = [0u8; 5];
    if uci_bytes(m, &mut buf).len() == 4 {
        out.extend_from_slice(&buf[..4]);
    } else {
        out.extend_from_slice(&buf);
    }
}

/// The comment after each main-line move, whichever reader read the game.
enum Comments<'g> {
    /// Ranges of the game's text (no allocation per game: the common case).
    MainLine(&'g MainLine, &'g str),
    Tree(Vec<&'g str>),
}

impl Comments<'_> {
    fn get(&self, i: usize) -> &str {
        match self {
            Comments::MainLine(line, text) => line.comment(text, i),
            Comments::Tree(comments) => comments[i],
        }
    }
}

/// One sound game's data, whichever reader read it.
struct GameView<'g> {
    tags: &'g Tags,
    start: &'g Position,
    moves: &'g [Move],
    comments: Comments<'g>,
    result: &'g str,
    first_line: usize,
}

impl<'g> GameView<'g> {
    fn lean(line: &'g MainLine, text: &'g str) -> GameView<'g> {
        GameView {
            tags: &line.tags,
            start: &line.start,
            moves: &line.moves,
            comments: Comments::MainLine(line, text),
            result: line.result(),
            first_line: line.first_line,
        }
    }

    fn tree(game: &'g PgnGame, moves: &'g [Move]) -> GameView<'g> {
        GameView {
            tags: &game.tags,
            start: &game.start,
            moves,
            comments: Comments::Tree(game.mainline().map(|id| game.comment(id)).collect()),
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
    /// Emptied tag columns, for reuse (see [`Columns::clear`]).
    spare_tags: Vec<StrCol>,
    /// The clock and evaluation after each move of the game being added (kept from game to
    /// game, so that adding one allocates nothing once grown).
    notes: Vec<(Option<f32>, Option<Eval>)>,
}

impl Columns {
    fn new(options: Options) -> Columns {
        let n_fens = if options.kind == Kind::Positions {
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
            spare_tags: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Empty again, keeping every buffer: pool tasks reuse the columns the consumer is done
    /// with, so that reading a chunk allocates (and faults in) no new memory.
    fn clear(&mut self) {
        self.rows = 0;
        self.games = 0;
        self.tag_names.clear();
        for mut col in self.tags.drain(..) {
            col.clear();
            self.spare_tags.push(col);
        }
        self.result.clear();
        self.game.clear();
        self.ply.clear();
        self.first_line.clear();
        self.ply_count.clear();
        self.uci.0.truncate(1);
        self.uci.1.clear();
        self.codes.clear();
        self.clocks.clear();
        self.eval_cp.clear();
        self.eval_mate.clear();
        self.move_uci.clear();
        self.move_code.clear();
        self.clock.clear();
        self.cp.clear();
        self.mate.clear();
        for col in &mut self.fens {
            col.clear();
        }
    }

    /// Adds a game (the `game` column numbers it within these columns, from 0).
    fn add(&mut self, game: &GameView<'_>) {
        let game_index = self.games;
        self.games += 1;
        // The clock and evaluation after move `i`, read from its comment.
        let note = |i| {
            let (clock, eval) = annotations::clock_and_eval(game.comments.get(i));
            (clock.map(|v| v as f32), eval.map(|e| e.eval))
        };
        if self.options.kind == Kind::Positions {
            let mut pos = *game.start;
            let mut text = [0u8; 5];
            for (ply, &m) in game.moves.iter().enumerate() {
                let (clock, eval) = note(ply);
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
        let n = game.moves.len();
        if self.options.codes {
            self.codes
                .push_list(game.moves.iter().map(|&m| Some(move_code(m))));
        } else {
            let col = &mut self.uci.1;
            col.data.reserve(5 * n);
            col.offsets.reserve(n);
            for &m in game.moves {
                push_uci(m, &mut col.data);
                col.offsets.push(col.data.len() as i32);
            }
            // The list's strings are never null: no validity to keep.
            self.uci.0.push(col.offsets.len() as i32 - 1);
        }
        // Read every comment first, then fill each column in one sweep. A database game
        // mostly has a clock after every move and no evaluation at all: a run of validity
        // bits is written a byte at a time, and a game without any evaluation (or clock) gets
        // a null list, which costs no values (a list of nulls would cost four bytes a move).
        let notes = &mut self.notes;
        notes.clear();
        notes.extend((0..n).map(note));
        let clocks = &mut self.clocks;
        if notes.iter().all(|n| n.0.is_none()) {
            clocks.push_null_list();
        } else {
            if notes.iter().all(|n| n.0.is_some()) {
                clocks
                    .values
                    .extend(notes.iter().map(|n| n.0.unwrap_or_default()));
                clocks.valid.push_n(true, n);
            } else {
                for n in &*notes {
                    clocks.push_value(n.0);
                }
            }
            clocks.end_list();
        }
        if notes.iter().all(|n| n.1.is_none()) {
            self.eval_cp.push_null_list();
            self.eval_mate.push_null_list();
        } else {
            for (col, part) in [
                (
                    &mut self.eval_cp,
                    centipawns as fn(Option<Eval>) -> Option<i32>,
                ),
                (&mut self.eval_mate, mate_in),
            ] {
                for n in &*notes {
                    col.push_value(part(n.1));
                }
                col.end_list();
            }
        }
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

    /// Adds a game's tags alone (a headers table).
    fn add_headers(&mut self, tags: &Tags, first_line: usize) {
        self.add_tags(tags);
        self.game.push(self.games);
        self.first_line.push(first_line as i32);
        self.games += 1;
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
        let mut col = self.spare_tags.pop().unwrap_or_default();
        col.push_nulls(self.rows);
        self.tags.push(col);
        self.tags.len() - 1
    }

    /// Empty columns with room for `games` games shaped like `sample`'s (a quarter more, as
    /// games differ): the consumer appends the pool's columns to these without regrowing them
    /// (each regrowth would copy the table so far).
    fn with_room(options: Options, sample: &Columns, games: usize) -> Columns {
        fn list_col<T: Copy + Default>(
            c: &ListCol<T>,
            scale: impl Fn(usize) -> usize,
        ) -> ListCol<T> {
            ListCol::with_capacity(scale(c.offsets.len() - 1), scale(c.values.len()))
        }
        // Capped: a first chunk of one huge game must not reserve room for thousands.
        let scale = |n: usize| {
            let room =
                n.saturating_mul(games).saturating_mul(5) / (4 * sample.games.max(1) as usize);
            room.min(MAX_ROOM) + 1
        };
        let str_col = |c: &StrCol| StrCol::with_capacity(scale(c.len()), scale(c.data.len()));
        let mut uci = (
            Vec::with_capacity(scale(sample.uci.0.len())),
            str_col(&sample.uci.1),
        );
        uci.0.push(0);
        Columns {
            rows: 0,
            games: 0,
            tag_names: sample.tag_names.clone(),
            tags: sample.tags.iter().map(str_col).collect(),
            result: str_col(&sample.result),
            game: Vec::with_capacity(scale(sample.game.len())),
            ply: Vec::with_capacity(scale(sample.ply.len())),
            first_line: Vec::with_capacity(scale(sample.first_line.len())),
            ply_count: Vec::with_capacity(scale(sample.ply_count.len())),
            uci,
            codes: list_col(&sample.codes, scale),
            clocks: list_col(&sample.clocks, scale),
            eval_cp: list_col(&sample.eval_cp, scale),
            eval_mate: list_col(&sample.eval_mate, scale),
            move_uci: str_col(&sample.move_uci),
            move_code: Vec::with_capacity(scale(sample.move_code.len())),
            clock: list_col(&sample.clock, scale),
            cp: list_col(&sample.cp, scale),
            mate: list_col(&sample.mate, scale),
            fens: sample.fens.iter().map(str_col).collect(),
            spare_tags: Vec::new(),
            notes: Vec::new(),
            options,
        }
    }

    /// Appends `other`'s rows, numbering its games after these.
    fn append(&mut self, other: &Columns) {
        let base = self.games;
        if self.options.kind != Kind::Positions {
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

    /// The columns as Python tuples of buffers (see the module docs), handed over without a
    /// copy: each buffer is `(owner, address, size)` for `pyarrow.foreign_buffer`.
    fn into_python<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        // A flat column with nulls (a positions table's), or a list column.
        fn flat<T: Element + Default>(
            py: Python<'_>,
            kind: &'static str,
            n: usize,
            c: ListCol<T>,
        ) -> PyResult<(&'static str, usize, Buffer, Option<Buffer>)> {
            Ok((kind, n, buffer(py, c.values)?, validity(py, c.valid)?))
        }
        fn list<T: Element + Default>(
            py: Python<'_>,
            kind: &'static str,
            n: usize,
            c: ListCol<T>,
        ) -> PyResult<ListTuple> {
            let (valid, lists) = (validity(py, c.valid)?, validity(py, c.lists)?);
            Ok((
                kind,
                n,
                buffer(py, c.offsets)?,
                buffer(py, c.values)?,
                valid,
                lists,
            ))
        }
        let out = PyDict::new(py);
        let n = self.rows;
        let str_col = |c: StrCol| -> PyResult<Bound<'py, PyTuple>> {
            let (len, valid) = (c.len(), validity(py, c.valid)?);
            (
                "str",
                len,
                buffer(py, c.offsets)?,
                buffer(py, c.data)?,
                valid,
            )
                .into_pyobject(py)
        };
        let i32_col = |v: Vec<i32>| -> PyResult<_> { Ok(("i32", v.len(), buffer(py, v)?)) };
        let i64_col = |v: Vec<i64>| -> PyResult<_> { Ok(("i64", v.len(), buffer(py, v)?)) };
        if self.options.kind == Kind::Positions {
            out.set_item("game", i64_col(self.game)?)?;
            out.set_item("ply", i32_col(self.ply)?)?;
            let [fen] = <[StrCol; 1]>::try_from(self.fens)
                .map_err(|_| PyValueError::new_err("one FEN column"))?;
            out.set_item("fen", str_col(fen)?)?;
            if self.options.codes {
                out.set_item("move", ("i16", n, buffer(py, self.move_code)?))?;
            } else {
                out.set_item("move", str_col(self.move_uci)?)?;
            }
            out.set_item("clock", flat(py, "f32", n, self.clock)?)?;
            out.set_item("eval_cp", flat(py, "i32n", n, self.cp)?)?;
            out.set_item("eval_mate", flat(py, "i32n", n, self.mate)?)?;
            return Ok(out);
        }
        for (name, col) in self.tag_names.iter().zip(self.tags) {
            out.set_item(name, str_col(col)?)?;
        }
        out.set_item("game", i64_col(self.game)?)?;
        if self.options.kind == Kind::Headers {
            out.set_item("first_line", i32_col(self.first_line)?)?;
            return Ok(out);
        }
        out.set_item("result", str_col(self.result)?)?;
        out.set_item("ply_count", i32_col(self.ply_count)?)?;
        out.set_item("first_line", i32_col(self.first_line)?)?;
        if self.options.codes {
            out.set_item("moves", list(py, "list_i16", n, self.codes)?)?;
        } else {
            let (lists, strings) = self.uci;
            let (offsets, data) = (buffer(py, strings.offsets)?, buffer(py, strings.data)?);
            out.set_item("moves", ("list_str", n, buffer(py, lists)?, offsets, data))?;
        }
        out.set_item("clocks", list(py, "list_f32", n, self.clocks)?)?;
        out.set_item("eval_cp", list(py, "list_i32", n, self.eval_cp)?)?;
        out.set_item("eval_mate", list(py, "list_i32", n, self.eval_mate)?)?;
        for (ply, col) in self.options.fen_plies.iter().zip(self.fens) {
            out.set_item(format!("fen_{ply}"), str_col(col)?)?;
        }
        Ok(out)
    }
}

/// A buffer handed to Python: `(owner, address, size in bytes)`.
type Buffer = (Py<NativeArray>, usize, usize);

/// A list column handed to Python: kind, rows, list offsets, values, which values are there,
/// which lists are there (`None`: all).
type ListTuple = (
    &'static str,
    usize,
    Buffer,
    Buffer,
    Option<Buffer>,
    Option<Buffer>,
);

fn buffer<T: Element>(py: Python<'_>, values: Vec<T>) -> PyResult<Buffer> {
    owned_buffer(py, values)
}

/// Arrow's validity buffer, or `None` when no value is null.
fn validity(py: Python<'_>, valid: Validity) -> PyResult<Option<Buffer>> {
    valid.into_bitmap().map(|bits| buffer(py, bits)).transpose()
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

/// Columns the consumer has copied out, emptied for the pool to fill again.
type Spare = Arc<Mutex<Vec<Columns>>>;

struct State {
    stream: Option<ChunkStream<Fragment>>,
    options: Options,
    spare: Spare,
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
        let want = chunk_games.max(1);
        let mut columns: Option<Columns> = None;
        let mut ended = false;
        while columns.as_ref().map_or(0, |c| c.games) < want as i64 {
            let skipped = &mut state.skipped;
            let failure = &mut state.failure;
            let (options, spare) = (&state.options, &state.spare);
            // Append as many chunks as arrive within the slice, without the GIL, and hand
            // their emptied columns back to the pool.
            let got = py.detach(|| {
                while columns.as_ref().map_or(0, |c| c.games) < want as i64 {
                    match stream.next_chunk(Duration::from_millis(50)) {
                        Ok(Some(mut fragment)) => {
                            columns
                                .get_or_insert_with(|| {
                                    Columns::with_room(options.clone(), &fragment.columns, want)
                                })
                                .append(&fragment.columns);
                            skipped.extend(fragment.skipped.iter().map(crate::pgn::error_tuple_of));
                            fragment.columns.clear();
                            if let Ok(mut spare) = spare.lock()
                                && spare.len() < 64
                            {
                                spare.push(fragment.columns);
                            }
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
        let mut columns = columns.unwrap_or_else(|| Columns::new(state.options.clone()));
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
        columns.into_python(py).map(Some)
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

/// Starts a table read: `kind` is `"games"` (one row per sound game), `"positions"` (one row
/// per position before each main-line move) or `"headers"` (one row per game, tags only, the
/// movetext never read); `moves` is `"uci"` or `"codes"`; `fens` the plies whose FEN gets a
/// column (games table).
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
    /// A chunk's sound games into `columns`, the errors of the others into `skipped`.
    fn fill(
        columns: &mut Columns,
        skipped: &mut Vec<PgnError>,
        games: &mut ChunkGames<'_>,
        line: &mut MainLine,
        filter: &HeaderFilter,
    ) {
        while let Some(raw) = games.next_game() {
            if columns.options.kind == Kind::Headers {
                read_tags(raw, &mut line.tags);
                if filter.accepts_tags(&line.tags) {
                    columns.add_headers(&line.tags, raw.first_line);
                }
                continue;
            }
            if !filter.accepts_raw(raw) {
                continue;
            }
            if read_mainline(raw, line) == MainLineRead::Complete {
                columns.add(&GameView::lean(line, &raw.text));
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
    }
    let kind = match kind {
        "games" => Kind::Games,
        "positions" => Kind::Positions,
        "headers" => Kind::Headers,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown table kind {kind:?} (want \"games\", \"positions\" or \"headers\")"
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
        kind,
        codes,
        fen_plies: fens,
    };
    let filter = header_filter(filter)?;
    let fold_options = options.clone();
    let spare: Spare = Arc::default();
    let fold_spare = Arc::clone(&spare);
    let fold: ChunkFn<Fragment> = Arc::new(move |games: &mut ChunkGames<'_>| {
        let recycled = fold_spare.lock().ok().and_then(|mut s| s.pop());
        let mut columns = recycled.unwrap_or_else(|| Columns::new(fold_options.clone()));
        let mut skipped = Vec::new();
        thread_local! {
            static LINE: std::cell::RefCell<MainLine> = std::cell::RefCell::new(MainLine::new());
        }
        LINE.with_borrow_mut(|line| fill(&mut columns, &mut skipped, games, line, &filter));
        Fragment { columns, skipped }
    });
    let source = open_source(source, total)?;
    let stream = ChunkStream::new(source, fold, threads)
        .map_err(|e| PyOSError::new_err(format!("cannot start the PGN reader: {e}")))?;
    Ok(PgnTableReader {
        inner: Mutex::new(State {
            stream: Some(stream),
            options,
            spare,
            games: 0,
            skipped: Vec::new(),
            failure: None,
        }),
    })
}
