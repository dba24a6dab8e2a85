//! `Board.push` and `Board.pop` as plain CPython methods, installed over PyO3's when the module
//! loads; the argument-free calls of `fen()`, `is_game_over()` and `to_planes()`; and
//! `to_planes_bytes()`, which has no PyO3 method at all.
//!
//! A loop of `push`/`pop` spends more time in the call than in the move. PyO3's wrappers count
//! the GIL in a thread-local on every call, extract arguments through a generic keyword
//! matcher and check `self`'s type a second time after CPython's method descriptor has; these
//! two methods skip all that: `pop` is a `METH_NOARGS` function, `push` a `METH_FASTCALL |
//! METH_KEYWORDS` one whose usual call (one positional `Move`) is two comparisons. The bodies
//! are the board's own (`Moves::push`, `Moves::pop` of its representation), so every rule and
//! error is unchanged; a panic is caught and raised as PyO3's
//! `PanicException`, as PyO3's wrappers do.
//!
//! `fen()`, `is_game_over()` and `to_planes()` are asked with no arguments almost always,
//! and answer in tens of nanoseconds, so the same wrapper costs are most of their time too.
//! Their replacements answer that call directly and hand any other (an argument, a
//! keyword) to the PyO3 method they replace, kept aside when installed ([`forward`]): one
//! implementation of each option, PyO3's argument errors unchanged.

use crate::board::{Board, BoardState, Export, Fen, Moves, Query, on_rep, read, write};
use crate::rules::moves::Move;
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::panic::PanicException;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyString, PyTuple};
use shatranj_chess::fen::{EnPassantMode, FenText};
use std::ffi::CStr;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr::null_mut;

/// Replaces `Board.push`, `Board.pop`, `Board.fen`, `Board.is_game_over` and
/// `Board.to_planes` with the functions below, and adds `Board.to_planes_bytes`.
pub fn install(py: Python<'_>) -> PyResult<()> {
    let board = py.get_type::<Board>();
    // The PyO3 methods the argument-free fast paths hand other calls to, taken before they
    // are replaced.
    for (name, original) in [
        ("fen", &FEN_METHOD),
        ("is_game_over", &IS_GAME_OVER_METHOD),
        ("to_planes", &TO_PLANES_METHOD),
    ] {
        let method = board.getattr(name)?.unbind();
        original.get_or_init(py, || method);
    }
    for (def, name) in [
        (
            ffi::PyMethodDef {
                ml_name: c"push".as_ptr(),
                ml_meth: ffi::PyMethodDefPointer {
                    PyCFunctionFastWithKeywords: push,
                },
                ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
                ml_doc: PUSH_DOC.as_ptr(),
            },
            "push",
        ),
        (
            ffi::PyMethodDef {
                ml_name: c"pop".as_ptr(),
                ml_meth: ffi::PyMethodDefPointer { PyCFunction: pop },
                ml_flags: ffi::METH_NOARGS,
                ml_doc: POP_DOC.as_ptr(),
            },
            "pop",
        ),
        (fast_def(c"fen", fen, FEN_DOC), "fen"),
        (
            fast_def(c"is_game_over", is_game_over, IS_GAME_OVER_DOC),
            "is_game_over",
        ),
        (
            fast_def(c"to_planes", to_planes, TO_PLANES_DOC),
            "to_planes",
        ),
        (
            ffi::PyMethodDef {
                ml_name: c"to_planes_bytes".as_ptr(),
                ml_meth: ffi::PyMethodDefPointer {
                    PyCFunction: to_planes_bytes,
                },
                ml_flags: ffi::METH_NOARGS,
                ml_doc: TO_PLANES_BYTES_DOC.as_ptr(),
            },
            "to_planes_bytes",
        ),
    ] {
        // The descriptor keeps a pointer to its definition for the life of the type.
        let def: &'static mut ffi::PyMethodDef = Box::leak(Box::new(def));
        // SAFETY: `def` is a valid, 'static method definition, the type is Board's (a heap
        // type, whose attributes may be set), and the GIL is held (`py`).
        let descr = unsafe {
            Bound::from_owned_ptr_or_err(py, ffi::PyDescr_NewMethod(board.as_type_ptr(), def))?
        };
        board.setattr(name, descr)?;
    }
    Ok(())
}

/// The text signatures make `inspect.signature` (and stubtest) read these as the PyO3
/// methods read: `push(self, move)`, `pop(self)`.
const PUSH_DOC: &CStr = c"push($self, move)\n--\n\nPlays a legal move (IllegalMoveError otherwise; a null move is refused in check).";
const POP_DOC: &CStr =
    c"pop($self)\n--\n\nTakes back the last move and returns it (IndexError on an empty stack).";

const TO_PLANES_BYTES_DOC: &CStr = c"to_planes_bytes($self)\n--\n\n`to_planes()` as 768 `bytes` (C order: plane, rank, file), without a numpy array.";

/// The text signatures and docs are the PyO3 methods' (`methods.rs`), which answer every
/// call with arguments.
const FEN_DOC: &CStr = c"fen($self, *, shredder=False, en_passant='legal', promoted=None)\n--\n\n";
const IS_GAME_OVER_DOC: &CStr = c"is_game_over($self, *, claim_draw=False)\n--\n\n";
const TO_PLANES_DOC: &CStr = c"to_planes($self)\n--\n\n`(12, 8, 8)` uint8 planes: white P N B R Q K, then black; `planes[p, rank, file]`.";

/// A `METH_FASTCALL | METH_KEYWORDS` method definition.
fn fast_def(
    name: &'static CStr,
    meth: ffi::PyCFunctionFastWithKeywords,
    doc: &'static CStr,
) -> ffi::PyMethodDef {
    ffi::PyMethodDef {
        ml_name: name.as_ptr(),
        ml_meth: ffi::PyMethodDefPointer {
            PyCFunctionFastWithKeywords: meth,
        },
        ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
        ml_doc: doc.as_ptr(),
    }
}

static FEN_METHOD: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static IS_GAME_OVER_METHOD: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static TO_PLANES_METHOD: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// `fen()`: a legal board's FEN written without allocating (`FenText`) and copied into
/// the Python string; a setup-mode board asks its representation.
fn fen_fast<'py>(board: &Bound<'py, Board>) -> PyResult<Bound<'py, PyAny>> {
    let py = board.py();
    let state = read(board)?;
    Ok(match &*state {
        BoardState::Legal(game) => {
            // python-chess's defaults (no Shredder castling, the legal en-passant square),
            // without the options' `PyResult`, which would copy the text once more.
            let text = FenText::fen(game.position(), EnPassantMode::Legal, false);
            PyString::new(py, text.as_str()).into_any()
        }
        BoardState::Setup(setup) => PyString::new(py, &setup.fen(false, "legal", None)?).into_any(),
    })
}

fn is_game_over_fast<'py>(board: &Bound<'py, Board>) -> PyResult<Bound<'py, PyAny>> {
    let over = on_rep!(&*read(board)?, r => r.is_game_over(false))?;
    Ok(PyBool::new(board.py(), over).to_owned().into_any())
}

fn to_planes_fast<'py>(board: &Bound<'py, Board>) -> PyResult<Bound<'py, PyAny>> {
    on_rep!(&*read(board)?, r => r.to_planes(board.py()))
}

/// `$name(self, *args, **kwargs)`: `$fast(self)` for a call without arguments, else the
/// PyO3 method kept in `$original`.
macro_rules! argument_free_fast_path {
    ($name:ident, $fast:ident, $original:ident) => {
        /// # Safety
        /// As for `push`.
        unsafe extern "C" fn $name(
            slf: *mut ffi::PyObject,
            args: *const *mut ffi::PyObject,
            nargsf: ffi::Py_ssize_t,
            kwnames: *mut ffi::PyObject,
        ) -> *mut ffi::PyObject {
            // SAFETY: see the function's contract.
            let py = unsafe { Python::assume_attached() };
            call(py, || {
                // SAFETY: `slf` is a live `Board` for the duration of the call.
                let slf = unsafe { Borrowed::from_ptr(py, slf) };
                if nargsf == 0 && kwnames.is_null() {
                    // SAFETY: the method descriptor checked `slf`'s type.
                    let board = unsafe { slf.cast_unchecked::<Board>() };
                    $fast(&*board)
                } else {
                    // SAFETY: the arguments as CPython passed them (the contract).
                    unsafe { forward(py, &$original, &slf, args, nargsf, kwnames) }
                }
            })
        }
    };
}

argument_free_fast_path!(fen, fen_fast, FEN_METHOD);
argument_free_fast_path!(is_game_over, is_game_over_fast, IS_GAME_OVER_METHOD);
argument_free_fast_path!(to_planes, to_planes_fast, TO_PLANES_METHOD);

/// Calls the PyO3 method `original` with `slf` and the vectorcall arguments, as a tuple and
/// a dict (the calls with arguments, not the hot ones).
///
/// # Safety
/// `args` holds `nargs` positional arguments followed by the values of the keywords named
/// in `kwnames` (a tuple, or null), all live for the duration of the call.
unsafe fn forward<'py>(
    py: Python<'py>,
    original: &PyOnceLock<Py<PyAny>>,
    slf: &Bound<'py, PyAny>,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> PyResult<Bound<'py, PyAny>> {
    let original = original
        .get(py)
        .ok_or_else(|| PyTypeError::new_err("Board method called before the module loaded"))?;
    // SAFETY: the contract.
    let (positional, kwargs) = unsafe { packed(py, Some(slf), args, nargs, kwnames) }?;
    original.bind(py).call(positional, kwargs.as_ref())
}

/// Vectorcall arguments as a tuple (after `first`, if given) and a dict of the keywords, for
/// a call made the classic way.
///
/// # Safety
/// As for `forward`: `args` holds `nargs` positional arguments followed by the values of the
/// keywords named in `kwnames` (a tuple, or null), all live for the duration of the call.
pub(super) unsafe fn packed<'py>(
    py: Python<'py>,
    first: Option<&Bound<'py, PyAny>>,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> PyResult<(Bound<'py, PyTuple>, Option<Bound<'py, PyDict>>)> {
    let nargs = usize::try_from(nargs).unwrap_or(0);
    // SAFETY: the contract: `args[..nargs]` are live objects.
    let arg = |i: usize| unsafe { Borrowed::from_ptr(py, *args.add(i)) }.to_owned();
    let positional: Vec<_> = first
        .cloned()
        .into_iter()
        .chain((0..nargs).map(arg))
        .collect();
    let positional = PyTuple::new(py, positional)?;
    let kwargs = if kwnames.is_null() {
        None
    } else {
        // SAFETY: `kwnames` is a live tuple (the contract).
        let names = unsafe { Borrowed::from_ptr(py, kwnames) }
            .cast::<PyTuple>()?
            .to_owned();
        let dict = PyDict::new(py);
        for (i, name) in names.iter().enumerate() {
            dict.set_item(name, arg(nargs + i))?;
        }
        Some(dict)
    };
    Ok((positional, kwargs))
}

/// Runs `body` as PyO3's wrappers do: an error or a panic becomes a raised exception and a
/// null return.
pub(super) fn call<'py>(
    py: Python<'py>,
    body: impl FnOnce() -> PyResult<Bound<'py, PyAny>>,
) -> *mut ffi::PyObject {
    let err = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(value)) => return value.into_ptr(),
        Ok(Err(err)) => err,
        Err(payload) => {
            let text = payload
                .downcast_ref::<&str>()
                .map(std::string::ToString::to_string)
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic in a Board method".to_owned());
            PanicException::new_err(text)
        }
    };
    err.restore(py);
    null_mut()
}

/// `Board.to_planes_bytes()`: a method of its own (no PyO3 method behind it, as it takes no
/// arguments), so that the call costs the `bytes` object and the planes.
///
/// # Safety
/// As for `push`: the GIL is held and `slf` is a `Board`.
unsafe extern "C" fn to_planes_bytes(
    slf: *mut ffi::PyObject,
    _unused: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: see the function's contract.
    let py = unsafe { Python::assume_attached() };
    call(py, || {
        // SAFETY: `slf` is a live `Board` for the duration of the call (the contract above).
        let slf = unsafe { Borrowed::from_ptr(py, slf) };
        // SAFETY: the method is installed on `Board` only, so `slf` is a `Board`.
        let board = unsafe { slf.cast_unchecked::<Board>() };
        Ok(on_rep!(&*read(&board)?, r => r.to_planes_bytes(py))?.into_any())
    })
}

/// `Board.push(move)`.
///
/// # Safety
/// CPython calls it through Board's method descriptor: the GIL is held, `slf` is a `Board`
/// (the descriptor checks the type), and `args` holds `nargs` positional arguments followed
/// by the values of the keywords named in `kwnames` (or null).
unsafe extern "C" fn push(
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargsf: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: see the function's contract.
    let py = unsafe { Python::assume_attached() };
    call(py, || {
        // The contract above: `slf` is a live `Board` and `kwnames` a live tuple or null for
        // the duration of the call, and `args` has `nargs + nkw` entries; one argument is read
        // only after the count is checked.
        // SAFETY: `slf` is a live object for the duration of the call.
        let slf = unsafe { Borrowed::from_ptr(py, slf) };
        // SAFETY: the method is installed on `Board` only, so `slf` is a `Board`.
        let board = unsafe { slf.cast_unchecked::<Board>() };
        // METH_FASTCALL functions get the plain count (no vectorcall offset flag).
        let nargs = nargsf;
        let nkw = if kwnames.is_null() {
            0
        } else {
            // SAFETY: `kwnames` is a live tuple (not null here).
            unsafe { ffi::PyTuple_Size(kwnames) }
        };
        let given_by_keyword = nkw == 1 && nargs == 0 && {
            // SAFETY: `kwnames` is a live tuple of one name (`nkw == 1`).
            let name = unsafe { Borrowed::from_ptr(py, ffi::PyTuple_GetItem(kwnames, 0)) };
            name.cast::<PyString>()
                .is_ok_and(|n| n.to_str().is_ok_and(|n| n == "move"))
        };
        if !(nargs == 1 && nkw == 0 || given_by_keyword) {
            return Err(PyTypeError::new_err(format!(
                "Board.push() takes exactly one argument, move ({} given)",
                nargs + nkw
            )));
        }
        // SAFETY: `args` has one entry (checked above: one positional or one keyword).
        let arg = unsafe { Borrowed::from_ptr(py, *args) };
        let m = arg.cast::<Move>().map_err(|_| {
            PyTypeError::new_err(format!(
                "argument 'move': expected a Move, got {}",
                crate::errors::type_name(&arg)
            ))
        })?;
        on_rep!(&mut *write(&board)?, r => r.push(&m))?;
        Ok(py.None().into_bound(py))
    })
}

/// `Board.pop()`.
///
/// # Safety
/// As for `push`: the GIL is held and `slf` is a `Board`.
unsafe extern "C" fn pop(
    slf: *mut ffi::PyObject,
    _unused: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: see the function's contract.
    let py = unsafe { Python::assume_attached() };
    call(py, || {
        // SAFETY: `slf` is a live `Board` for the duration of the call (the contract above).
        let slf = unsafe { Borrowed::from_ptr(py, slf) };
        // SAFETY: the method is installed on `Board` only, so `slf` is a `Board`.
        let board = unsafe { slf.cast_unchecked::<Board>() };
        Ok(on_rep!(&mut *write(&board)?, r => r.pop(py))?.into_any())
    })
}
