//! The native half of `shatranj.syzygy`: a Syzygy tablebase (`shatranj-syzygy`) as the
//! class `SyzygyTablebase`, which `shatranj.syzygy.Tablebase` extends with python-chess's
//! remaining names, and the mapping of the prober's errors onto python-chess's exceptions.
//!
//! One probe holds the GIL: it takes about a microsecond, less than releasing and taking the
//! GIL back would cost. The batch probes (`probe_wdl_many`, `probe_dtz_many`) release it and
//! spread the positions over rayon's threads; the tables are read-only and shared.
//!
//! Adding directories needs the tablebase to itself; it is behind a `RwLock`, taken for
//! reading by probes and for writing only by `add_directory`, `add_file` and `close`.

use crate::board::Board;
use crate::ml::position_array::{self, Item};
use crate::native_array::numpy_array;
use pyo3::IntoPyObjectExt;
use pyo3::create_exception;
use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyType;
use rayon::prelude::*;
use shatranj_chess::{Board as Pieces, CastlingRights, Color, Piece, Position, Role, Square, fen};
use shatranj_engine::nnue::CompactPosition;
use shatranj_syzygy::{SyzygyError, TableKind, Tablebase, Wdl};
use std::path::PathBuf;
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

create_exception!(
    shatranj.syzygy,
    MissingTableError,
    PyKeyError,
    "Raised when a table the probe needs is not in the tablebase (python-chess's name; a KeyError, so `except KeyError` code keeps working)."
);
create_exception!(
    shatranj.syzygy,
    CorruptTableError,
    PyValueError,
    "Raised when a table file is not a valid Syzygy table: a bad magic number, header or compressed block. The message names the file, the defect and its byte offset."
);
create_exception!(
    shatranj.syzygy,
    TruncatedTableError,
    CorruptTableError,
    "Raised when a table file is shorter than its own header says (a partly copied or downloaded file). The message names the file, its size and the size needed."
);

/// A prober error as a Python exception. `pos` gives the FEN for the castling message, as
/// python-chess's does.
fn syzygy_error(e: SyzygyError, pos: Option<&Position>) -> PyErr {
    let text = e.to_string();
    match e {
        SyzygyError::MissingTable { .. } => MissingTableError::new_err(text),
        SyzygyError::CastlingRights => PyKeyError::new_err(match pos {
            Some(p) => format!("{text}: {}", fen::to_fen(p)),
            None => text,
        }),
        // Through std::io::Error, so a missing directory is FileNotFoundError, a forbidden
        // one PermissionError, as Python's own file functions raise.
        SyzygyError::Io { kind, .. } => std::io::Error::new(kind, text).into(),
        SyzygyError::Truncated { .. } => TruncatedTableError::new_err(text),
        SyzygyError::Corrupt { .. } => CorruptTableError::new_err(text),
    }
}

/// Errors that mean "no answer for this position" rather than "the tables are damaged":
/// what `get_wdl`/`get_dtz` and the batches' `default` turn into a value.
fn is_no_answer(e: &SyzygyError) -> bool {
    matches!(
        e,
        SyzygyError::MissingTable { .. } | SyzygyError::CastlingRights
    )
}

/// The position of a `shatranj.Board` (a legal standard chess position).
fn position_of(board: &Bound<'_, PyAny>) -> PyResult<Position> {
    let board = board.cast::<Board>().map_err(|_| {
        PyTypeError::new_err(format!(
            "expected a shatranj.Board, got {}",
            crate::errors::type_name(board)
        ))
    })?;
    Ok(*crate::board::read(board)?.valid_position()?)
}

/// `wdl` given to `probe_dtz_table`: −2..=2.
fn wdl_arg(wdl: i64) -> PyResult<Wdl> {
    i32::try_from(wdl)
        .ok()
        .and_then(Wdl::from_value)
        .ok_or_else(|| PyValueError::new_err(format!("wdl must be -2..=2, got {wdl}")))
}

/// A compact record (checked) as a position: no castling rights, no en passant square,
/// clocks at zero, which is all a record stores and what the tables need.
fn record_position(record: &CompactPosition) -> Result<Position, String> {
    let packed = record.to_packed();
    let bitboards = packed.bitboards();
    let mut board = Pieces::empty();
    for color in Color::ALL {
        for role in Role::ALL {
            let mut set = bitboards[color.index()][role.index()];
            while set != 0 {
                let sq = Square::new(set.trailing_zeros()).ok_or("square out of range")?;
                board.set_piece_at(sq, Piece::new(color, role));
                set &= set - 1;
            }
        }
    }
    let turn = if record.black_to_move() {
        Color::Black
    } else {
        Color::White
    };
    Position::from_parts(board, turn, CastlingRights::NONE, None, 0, 1).map_err(|e| e.to_string())
}

/// The positions of a batch: a `(N, 32)` array of records from `shatranj.pack_positions`,
/// or boards and FENs. Records and FENs are decoded on rayon's threads without the GIL.
fn batch_positions(py: Python<'_>, positions: &Bound<'_, PyAny>) -> PyResult<Vec<Position>> {
    if let Some(records) = position_array::records(positions)? {
        let records: &[CompactPosition] = &records;
        return py
            .detach(|| {
                records
                    .par_iter()
                    .enumerate()
                    .map(|(i, r)| {
                        r.check().map_err(|e| (i, e.to_string()))?;
                        record_position(r).map_err(|e| (i, e))
                    })
                    .collect::<Result<Vec<_>, _>>()
            })
            .map_err(|(i, what)| PyValueError::new_err(format!("positions[{i}]: {what}")));
    }
    let items: Vec<Item> = position_array::items(positions)?;
    py.detach(|| position_array::pack_items(&items, |p| *p))
        .map_err(position_array::fen_error)
}

/// Probes every position on rayon's threads with the GIL released; a position without an
/// answer gets `default` if one is given, else raises (as does any damaged table), naming
/// the first such position by its index.
///
/// The read lock is taken and given back without the GIL: a thread that held the lock while
/// waiting for the GIL could deadlock with one that holds the GIL while waiting for the lock
/// behind a queued writer.
fn probe_batch<T: Copy + Send>(
    py: Python<'_>,
    tables: &SyzygyTablebase,
    positions: &[Position],
    default: Option<T>,
    probe: impl Fn(&Tablebase, &Position) -> Result<T, SyzygyError> + Sync,
) -> PyResult<Vec<T>> {
    let results: Vec<Result<T, SyzygyError>> = py.detach(|| {
        let tables = tables.read();
        positions
            .par_iter()
            .map(|p| probe(&tables, p))
            .collect::<Vec<_>>()
    });
    let mut out = Vec::with_capacity(results.len());
    for (i, r) in results.into_iter().enumerate() {
        match (r, default) {
            (Ok(v), _) => out.push(v),
            (Err(e), Some(d)) if is_no_answer(&e) => out.push(d),
            (Err(e), _) => {
                let err = syzygy_error(e, Some(&positions[i]));
                let message = format!("positions[{i}]: {}", err.value(py));
                return Err(match err.get_type(py).call1((message,)) {
                    Ok(value) => PyErr::from_value(value),
                    Err(_) => err,
                });
            }
        }
    }
    Ok(out)
}

/// Syzygy endgame tables (WDL `.rtbw`, DTZ `.rtbz`) from one or more directories.
#[pyclass(module = "shatranj._core", subclass, frozen)]
pub struct SyzygyTablebase {
    tables: RwLock<Tablebase>,
}

impl SyzygyTablebase {
    /// The tables for probing. No code holding the lock panics, so a poisoned lock still
    /// holds a consistent tablebase.
    fn read(&self) -> RwLockReadGuard<'_, Tablebase> {
        self.tables
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn write(&self) -> RwLockWriteGuard<'_, Tablebase> {
        self.tables
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn probe<T>(
        &self,
        board: &Bound<'_, PyAny>,
        probe: impl FnOnce(&Tablebase, &Position) -> Result<T, SyzygyError>,
    ) -> PyResult<T> {
        let pos = position_of(board)?;
        probe(&self.read(), &pos).map_err(|e| syzygy_error(e, Some(&pos)))
    }

    /// `probe`, with `default` for a position the tables have no answer for.
    fn get<'py, T: IntoPyObject<'py>>(
        &self,
        board: &Bound<'py, PyAny>,
        default: Bound<'py, PyAny>,
        probe: impl FnOnce(&Tablebase, &Position) -> Result<T, SyzygyError>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let pos = position_of(board)?;
        let result = probe(&self.read(), &pos);
        match result {
            Ok(v) => v.into_bound_py_any(board.py()),
            Err(e) if is_no_answer(&e) => Ok(default),
            Err(e) => Err(syzygy_error(e, Some(&pos))),
        }
    }
}

#[pymethods]
impl SyzygyTablebase {
    /// `max_fds` is accepted for python-chess's signature and checked, but nothing needs it:
    /// a table file is closed as soon as it is memory-mapped, so no descriptor stays open.
    /// `VariantBoard` must be `shatranj.Board` (or a subclass): the tables of chess
    /// variants are not supported.
    #[new]
    #[pyo3(signature = (*, max_fds = Some(128), VariantBoard = None))]
    #[allow(non_snake_case)]
    fn new(max_fds: Option<i64>, VariantBoard: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        if let Some(n) = max_fds
            && n < 1
        {
            return Err(PyValueError::new_err(format!(
                "max_fds must be at least 1 or None, got {n}"
            )));
        }
        if let Some(variant) = VariantBoard
            && !variant.is_none()
        {
            let board_type = variant.py().get_type::<Board>();
            let ok = variant
                .cast::<PyType>()
                .is_ok_and(|t| t.is_subclass(&board_type).unwrap_or(false));
            if !ok {
                return Err(PyValueError::new_err(format!(
                    "shatranj.syzygy probes standard chess tables only: VariantBoard must be \
                     shatranj.Board, got {}",
                    variant
                        .repr()
                        .map_or_else(|_| "?".to_owned(), |r| r.to_string())
                )));
            }
        }
        Ok(SyzygyTablebase {
            tables: RwLock::new(Tablebase::new()),
        })
    }

    /// Adds the `.rtbw` (if `load_wdl`) and `.rtbz` (if `load_dtz`) files of a directory
    /// and returns how many were new. Files are opened on first use.
    #[pyo3(signature = (directory, *, load_wdl = true, load_dtz = true))]
    fn add_directory(
        &self,
        py: Python<'_>,
        directory: PathBuf,
        load_wdl: bool,
        load_dtz: bool,
    ) -> PyResult<usize> {
        py.detach(|| {
            self.write()
                .add_directory_kinds(&directory, load_wdl, load_dtz)
        })
        .map_err(|e| syzygy_error(e, None))
    }

    /// Adds one table file; 1 if it was new, 0 if its table was already known, its name is
    /// no table name, or its kind is not loaded.
    #[pyo3(signature = (path, *, load_wdl = true, load_dtz = true))]
    fn add_file(
        &self,
        py: Python<'_>,
        path: PathBuf,
        load_wdl: bool,
        load_dtz: bool,
    ) -> PyResult<usize> {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let wanted = (load_wdl && name.ends_with(TableKind::Wdl.extension()))
            || (load_dtz && name.ends_with(TableKind::Dtz.extension()));
        if !wanted {
            return Ok(0);
        }
        py.detach(|| self.write().add_file(&path))
            .map(usize::from)
            .map_err(|e| syzygy_error(e, None))
    }

    /// Opens a known table now (`name` such as `"KQvKR"`, `kind` `"wdl"` or `"dtz"`), so
    /// that a damaged file raises here rather than on its first probe.
    fn open_table(&self, py: Python<'_>, name: &str, kind: &str) -> PyResult<()> {
        let kind = match kind {
            "wdl" => TableKind::Wdl,
            "dtz" => TableKind::Dtz,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "kind must be 'wdl' or 'dtz', got {kind:?}"
                )));
            }
        };
        py.detach(|| self.read().open_table(name, kind))
            .map_err(|e| syzygy_error(e, None))
    }

    /// Win/draw/loss from the side to move: 2 win, 1 win the fifty-move rule draws, 0 draw,
    /// -1 loss the fifty-move rule saves, -2 loss. The halfmove clock is taken as zero.
    fn probe_wdl(&self, board: &Bound<'_, PyAny>) -> PyResult<i32> {
        self.probe(board, |t, p| t.probe_wdl(p).map(Wdl::value))
    }

    /// The WDL value the table stores, captures and en passant not looked at.
    fn probe_wdl_table(&self, board: &Bound<'_, PyAny>) -> PyResult<i32> {
        self.probe(board, |t, p| t.probe_wdl_table(p).map(Wdl::value))
    }

    /// Distance to zeroing: plies to the next capture or pawn move with best play, positive
    /// when the side to move wins, negative when it loses, 0 for a draw.
    fn probe_dtz(&self, board: &Bound<'_, PyAny>) -> PyResult<i32> {
        self.probe(board, Tablebase::probe_dtz)
    }

    /// `probe_dtz` of the position without its en passant square.
    fn probe_dtz_no_ep(&self, board: &Bound<'_, PyAny>) -> PyResult<i32> {
        self.probe(board, |t, p| {
            let without = Position::from_parts(
                *p.board(),
                p.turn(),
                p.castling_rights(),
                None,
                p.halfmove_clock(),
                p.fullmove_number(),
            )
            // Removing an en passant square leaves a legal position legal.
            .unwrap_or(*p);
            t.probe_dtz(&without)
        })
    }

    /// The DTZ table's value for a position whose WDL is `wdl`, as `(value, 1)`, or
    /// `(0, -1)` where the table stores only the other side to move.
    fn probe_dtz_table(&self, board: &Bound<'_, PyAny>, wdl: i64) -> PyResult<(i32, i32)> {
        let wdl = wdl_arg(wdl)?;
        self.probe(board, |t, p| {
            t.probe_dtz_table(p, wdl)
                .map(|v| v.map_or((0, -1), |v| (v, 1)))
        })
    }

    /// `probe_wdl`, or `default` where the tables have no answer (a missing table, castling
    /// rights). A damaged table still raises.
    #[pyo3(signature = (board, default = None))]
    fn get_wdl<'py>(
        &self,
        board: &Bound<'py, PyAny>,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let default = default.unwrap_or_else(|| board.py().None().into_bound(board.py()));
        self.get(board, default, |t, p| t.probe_wdl(p).map(Wdl::value))
    }

    /// `probe_dtz`, or `default` where the tables have no answer.
    #[pyo3(signature = (board, default = None))]
    fn get_dtz<'py>(
        &self,
        board: &Bound<'py, PyAny>,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let default = default.unwrap_or_else(|| board.py().None().into_bound(board.py()));
        self.get(board, default, Tablebase::probe_dtz)
    }

    /// WDL of many positions as a numpy `int8` array, on every core with the GIL released.
    /// `positions`: boards, FEN strings, or a `(N, 32)` `uint8` array from
    /// `shatranj.pack_positions` (which keeps no castling rights or en passant square).
    /// Without `default` a position with no answer raises; with it, it gets that value.
    #[pyo3(signature = (positions, *, default = None))]
    fn probe_wdl_many<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
        default: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let default = default
            .map(|d| {
                i8::try_from(d).map_err(|_| {
                    PyValueError::new_err(format!("default must fit in int8, got {d}"))
                })
            })
            .transpose()?;
        let positions = batch_positions(py, positions)?;
        let values = probe_batch(py, self, &positions, default, |t, p| {
            t.probe_wdl(p).map(|w| w.value() as i8)
        })?;
        numpy_array(py, values, &[positions.len()])
    }

    /// DTZ of many positions as a numpy `int32` array (see `probe_wdl_many`).
    #[pyo3(signature = (positions, *, default = None))]
    fn probe_dtz_many<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
        default: Option<i32>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let positions = batch_positions(py, positions)?;
        let values = probe_batch(py, self, &positions, default, Tablebase::probe_dtz)?;
        numpy_array(py, values, &[positions.len()])
    }

    /// The largest number of pieces (kings included) of a table added; 0 if none.
    #[getter]
    fn max_pieces(&self) -> usize {
        self.read().max_pieces()
    }

    /// Forgets every table and unmaps its files; later probes raise `MissingTableError`
    /// until directories are added again.
    fn close(&self, py: Python<'_>) {
        let old = py.detach(|| std::mem::take(&mut *self.write()));
        drop(old);
    }

    fn __enter__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __exit__(
        &self,
        py: Python<'_>,
        _exc_type: &Bound<'_, PyAny>,
        _exc_value: &Bound<'_, PyAny>,
        _traceback: &Bound<'_, PyAny>,
    ) -> bool {
        self.close(py);
        false
    }
}
