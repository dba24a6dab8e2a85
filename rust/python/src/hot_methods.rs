//! `Board.push` and `Board.pop` as plain CPython methods, installed over PyO3's when the module
//! loads.
//!
//! A loop of `push`/`pop` spends more time in the call than in the move. PyO3's wrappers count
//! the GIL in a thread-local on every call, extract arguments through a generic keyword
//! matcher and check `self`'s type a second time after CPython's method descriptor has; these
//! two methods skip all that: `pop` is a `METH_NOARGS` function, `push` a `METH_FASTCALL |
//! METH_KEYWORDS` one whose usual call (one positional `Move`) is two comparisons. The bodies
//! are the board's own (`Moves::push`, `Moves::pop` of its representation), so every rule and
//! error is unchanged; a panic is caught and raised as PyO3's
//! `PanicException`, as PyO3's wrappers do.

use crate::board::{Board, Moves, on_rep, write};
use crate::moves::Move;
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::panic::PanicException;
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::ffi::CStr;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr::null_mut;

/// Replaces `Board.push` and `Board.pop` with the functions below.
pub fn install(py: Python<'_>) -> PyResult<()> {
    let board = py.get_type::<Board>();
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

/// Runs `body` as PyO3's wrappers do: an error or a panic becomes a raised exception and a
/// null return.
fn call<'py>(
    py: Python<'py>,
    body: impl FnOnce() -> PyResult<Bound<'py, PyAny>>,
) -> *mut ffi::PyObject {
    let err = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(value)) => return value.into_ptr(),
        Ok(Err(err)) => err,
        Err(payload) => {
            let text = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic in Board.push/pop".to_owned());
            PanicException::new_err(text)
        }
    };
    err.restore(py);
    null_mut()
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
        // SAFETY (the unsafe blocks below): `slf` is a live `Board` and `kwnames` a live
        // tuple or null for the duration of the call, and `args` has `nargs + nkw` entries
        // (the contract above); one argument is read only after the count is checked.
        let slf = unsafe { Borrowed::from_ptr(py, slf) };
        let board = unsafe { slf.cast_unchecked::<Board>() };
        // METH_FASTCALL functions get the plain count (no vectorcall offset flag).
        let nargs = nargsf;
        let nkw = if kwnames.is_null() {
            0
        } else {
            unsafe { ffi::PyTuple_Size(kwnames) }
        };
        let given_by_keyword = nkw == 1 && nargs == 0 && {
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
        let board = unsafe { slf.cast_unchecked::<Board>() };
        Ok(on_rep!(&mut *write(&board)?, r => r.pop(py))?.into_any())
    })
}
