//! Every Python object the native module takes from Python code, in one place.
//!
//! Some answers are Python objects: python-chess's `Outcome` and `Termination` enum, the
//! `SquareSet` and `Winnability` classes (pure Python in the package, so they behave exactly
//! like python-chess's), numpy arrays; `status()` is python-chess's `Status` flag enum, a Chess960 board
//! unpickles through `shatranj._pickle.board_from_fen`,
//! `Board._repr_svg_` draws through `shatranj.svg`, and `Board.to_chess` builds a python-chess
//! board. Each accessor below imports its object on first use and keeps it for the
//! interpreter's life, so this list is what the Rust side depends on in Python, and adding a
//! dependency means adding a line here.
//!
//! Nothing is imported when `shatranj._core` loads (except `sys`, read once by the module's
//! init): the package's modules import `_core`, so that cycle closes only when a board first needs
//! them, and python-chess (the test reference, never a dependency) only when `to_chess` is
//! called.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyModule, PyType};

/// `pub fn $name(py) -> PyResult<&Bound<$ty>>`: `$module.$attr`, imported on the first call.
macro_rules! python_object {
    ($(#[$doc:meta])* $name:ident: $ty:ty = $module:literal, $attr:literal) => {
        $(#[$doc])*
        pub fn $name(py: Python<'_>) -> PyResult<&Bound<'_, $ty>> {
            static CELL: PyOnceLock<Py<$ty>> = PyOnceLock::new();
            CELL.import(py, $module, $attr)
        }
    };
}

/// `pub fn $name(py) -> PyResult<&Bound<PyModule>>`: the module `$module`, imported on the
/// first call.
macro_rules! python_module {
    ($(#[$doc:meta])* $name:ident = $module:literal) => {
        $(#[$doc])*
        pub fn $name(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
            static CELL: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
            CELL.get_or_try_init(py, || py.import($module).map(Bound::unbind))
                .map(|module| module.bind(py))
        }
    };
}

// The package's own Python.

python_object!(
    /// `shatranj._squareset.SquareSet`, python-chess's set of squares.
    square_set_class: PyType = "shatranj._squareset", "SquareSet"
);
python_object!(
    /// `shatranj._outcome.Outcome(termination, winner)`, python-chess's dataclass.
    outcome_class: PyType = "shatranj._outcome", "Outcome"
);
python_object!(
    /// `shatranj._outcome.Termination`, python-chess's `enum.Enum` of game endings.
    termination_class: PyType = "shatranj._outcome", "Termination"
);
python_object!(
    /// `shatranj._winnability.Winnability(kind, proof, line)`.
    winnability_class: PyType = "shatranj._winnability", "Winnability"
);
python_object!(
    /// `shatranj._bitboards.Status`, python-chess's `enum.IntFlag` of what `status()` finds.
    status_class: PyType = "shatranj._bitboards", "Status"
);
python_object!(
    /// `shatranj._pickle.board_from_fen(fen, chess960)`: `Board(fen, chess960=...)`, which
    /// unpickles a Chess960 board (the class takes the flag by keyword only).
    pickle_board_from_fen: PyAny = "shatranj._pickle", "board_from_fen"
);
python_object!(
    /// `shatranj.svg.board(board, **options)`, for `Board._repr_svg_`.
    svg_board: PyAny = "shatranj.svg", "board"
);
python_object!(
    /// `shatranj._core.nnue_network_from_bytes`: what a pickled `Network` is rebuilt with,
    /// named by its module so that pickles load.
    network_from_bytes: PyAny = "shatranj._core", "nnue_network_from_bytes"
);

// Other packages.

python_module!(
    /// `numpy`, for arrays over bytes Rust wrote (no compiled numpy dependency: one abi3
    /// wheel works with any numpy).
    numpy = "numpy"
);
/// numpy's C API table, the `_ARRAY_API` capsule of its `_multiarray_umath` module
/// (`numpy._core` from numpy 2, `numpy.core` before), looked up as numpy's own
/// `import_array()` looks it up; `numpy_c_api.rs` reads it.
pub fn numpy_array_api(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let module = py
        .import("numpy._core._multiarray_umath")
        .or_else(|_| py.import("numpy.core._multiarray_umath"))?;
    module.getattr("_ARRAY_API")
}
python_object!(
    /// `numpy.asarray`, which wraps a `NativeArray` without a copy.
    numpy_asarray: PyAny = "numpy", "asarray"
);
python_object!(
    /// python-chess's `chess.Board`, for `Board.to_chess`.
    chess_board_class: PyType = "chess", "Board"
);
python_object!(
    /// python-chess's `chess.Move`, for `Board.to_chess`.
    chess_move_class: PyType = "chess", "Move"
);
python_module!(
    /// `sys`, which the module's init asks whether the GIL is on.
    sys = "sys"
);
