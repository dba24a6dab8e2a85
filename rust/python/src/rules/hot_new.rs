//! `Board(fen)` and `Board()` through the class's vectorcall slot, installed when the module
//! loads.
//!
//! Calling a class the classic way packs the arguments into a tuple, runs `type.__call__`,
//! PyO3's `tp_new` wrapper (its generic keyword matcher for `fen` and `chess960`, the GIL
//! count) and then `object.__init__`: about as many instructions as parsing the FEN itself.
//! A class whose `tp_vectorcall` slot is set is called through it instead, with the
//! arguments where the caller left them; this one answers the usual calls, one `str` or
//! nothing, with the constructor's own body (`Board::construct`, so every rule and error is
//! the same), and hands any other call (`chess960=`, `None`, a non-`str`) to `type.__call__`
//! as if the slot were not set, so PyO3's argument errors are unchanged.
//!
//! The stable ABI this wheel is built for has no way to set the slot before Python 3.14
//! (`Py_tp_vectorcall`), and PyO3 none at all, so it is written into the type object at the
//! offset CPython's `PyTypeObject` gives it: a field only appended to since 3.8, whose offset
//! CPython itself records as `type`'s `tp_vectorcall_offset`. Before writing, [`install`]
//! checks that record and, against `PyType_GetSlot`, six slots of the head this module
//! assumes; where anything differs (another layout, another interpreter), it leaves the
//! class as PyO3 made it and `Board(fen)` takes the classic path. `Board` cannot be
//! subclassed (not a PyO3 `subclass`), so the callable is always the class itself.

use super::hot_methods::{call, packed};
use crate::board::{Board, STARTING_FEN};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::ffi::{c_int, c_uint, c_ulong, c_void};
use std::mem::offset_of;

type Slot = *mut c_void;

/// CPython's `PyTypeObject` (`cpython/object.h`) from the object header to `tp_vectorcall`,
/// for a build with the GIL (the module refuses to load without one, `lib.rs`).
#[repr(C)]
struct TypeObjectHead {
    ob_refcnt: ffi::Py_ssize_t,
    ob_type: Slot,
    ob_size: ffi::Py_ssize_t,
    tp_name: Slot,
    tp_basicsize: ffi::Py_ssize_t,
    tp_itemsize: ffi::Py_ssize_t,
    tp_dealloc: Slot,
    tp_vectorcall_offset: ffi::Py_ssize_t,
    tp_getattr: Slot,
    tp_setattr: Slot,
    tp_as_async: Slot,
    tp_repr: Slot,
    tp_as_number: Slot,
    tp_as_sequence: Slot,
    tp_as_mapping: Slot,
    tp_hash: Slot,
    tp_call: Slot,
    tp_str: Slot,
    tp_getattro: Slot,
    tp_setattro: Slot,
    tp_as_buffer: Slot,
    tp_flags: c_ulong,
    tp_doc: Slot,
    tp_traverse: Slot,
    tp_clear: Slot,
    tp_richcompare: Slot,
    tp_weaklistoffset: ffi::Py_ssize_t,
    tp_iter: Slot,
    tp_iternext: Slot,
    tp_methods: Slot,
    tp_members: Slot,
    tp_getset: Slot,
    tp_base: Slot,
    tp_dict: Slot,
    tp_descr_get: Slot,
    tp_descr_set: Slot,
    tp_dictoffset: ffi::Py_ssize_t,
    tp_init: Slot,
    tp_alloc: Slot,
    tp_new: Slot,
    tp_free: Slot,
    tp_is_gc: Slot,
    tp_bases: Slot,
    tp_mro: Slot,
    tp_cache: Slot,
    tp_subclasses: Slot,
    tp_weaklist: Slot,
    tp_del: Slot,
    tp_version_tag: c_uint,
    tp_finalize: Slot,
    tp_vectorcall: Slot,
}

/// `Py_TPFLAGS_HAVE_VECTORCALL` (not in the stable ABI's headers before 3.12).
const HAVE_VECTORCALL: c_ulong = 1 << 11;
/// `PY_VECTORCALL_ARGUMENTS_OFFSET`, the flag in a vectorcall's argument count.
const ARGUMENTS_OFFSET: usize = 1 << (usize::BITS - 1);

/// Sets `Board`'s vectorcall slot to [`new_board`], and its allocation and deallocation
/// slots to the free list's (`board_freelist.rs`), where the type object's layout is the one
/// [`TypeObjectHead`] describes; otherwise leaves the class as it is (see the module docs).
pub fn install(py: Python<'_>) -> PyResult<()> {
    let board = py.get_type::<Board>().as_type_ptr();
    let metatype = (&raw mut ffi::PyType_Type).cast::<ffi::PyTypeObject>();
    // Where PyO3 keeps a board's Rust value in its object, measured on one (dropped before
    // any slot changes): `board_freelist`'s `tp_dealloc` drops the value there.
    let value_offset = {
        let sample = Bound::new(py, Board::construct(Some(STARTING_FEN), false)?)?;
        let object = sample.as_ptr() as usize;
        (std::ptr::from_ref(sample.get()) as usize).checked_sub(object)
    };
    // SAFETY: both are live type objects (the GIL is held); `layout_known` reads only the
    // fields of the head it has checked against CPython's own record of the layout.
    unsafe {
        if layout_known(metatype) && layout_known(board) && (*head(board)).tp_vectorcall.is_null() {
            (*head(board)).tp_vectorcall = new_board as *const () as Slot;
            // The allocation slots, checked against `PyType_GetSlot` by `layout_known`.
            let h = head(board);
            let plain = (*h).tp_dictoffset == 0 && (*h).tp_weaklistoffset == 0;
            let size = usize::try_from((*h).tp_basicsize).unwrap_or(0);
            let value_offset = value_offset
                .filter(|&offset| plain && offset + std::mem::size_of::<Board>() <= size);
            super::board_freelist::install(
                board,
                &super::board_freelist::Slots {
                    alloc: &raw mut (*h).tp_alloc,
                    free: &raw mut (*h).tp_free,
                    dealloc: &raw mut (*h).tp_dealloc,
                },
                value_offset,
            );
        }
    }
    Ok(())
}

fn head(tp: *mut ffi::PyTypeObject) -> *mut TypeObjectHead {
    tp.cast()
}

/// Whether `tp`'s type object has the layout of [`TypeObjectHead`]: `type` records the
/// offset of `tp_vectorcall` where the head has it, and the flags and six slots read at the
/// head's offsets are the ones `PyType_GetFlags` and `PyType_GetSlot` give.
///
/// # Safety
/// `tp` is a live type object and the GIL is held.
unsafe fn layout_known(tp: *mut ffi::PyTypeObject) -> bool {
    let metatype = (&raw mut ffi::PyType_Type).cast::<ffi::PyTypeObject>();
    // SAFETY: `type` is a static type object at least as long as its header, whose
    // `tp_vectorcall_offset` is the fifth field after it in every CPython from 3.8: the
    // fields before it are read only to compare with what the C API says they hold.
    unsafe {
        let type_flags = ffi::PyType_GetFlags(metatype);
        let offset = usize::try_from((*head(metatype)).tp_vectorcall_offset).ok();
        if type_flags & HAVE_VECTORCALL == 0
            || offset != Some(offset_of!(TypeObjectHead, tp_vectorcall))
        {
            return false;
        }
        let h = &*head(tp);
        let slots: [(c_int, Slot); 6] = [
            (ffi::Py_tp_dealloc, h.tp_dealloc),
            (ffi::Py_tp_call, h.tp_call),
            (ffi::Py_tp_init, h.tp_init),
            (ffi::Py_tp_alloc, h.tp_alloc),
            (ffi::Py_tp_new, h.tp_new),
            (ffi::Py_tp_free, h.tp_free),
        ];
        ffi::PyType_GetFlags(tp) == h.tp_flags
            && slots
                .iter()
                .all(|&(slot, field)| ffi::PyType_GetSlot(tp, slot) == field)
    }
}

/// `Board(...)`: one `str` or no argument answered here, anything else by `type.__call__`.
///
/// # Safety
/// CPython calls it through the class's vectorcall slot: the GIL is held, `callable` is the
/// `Board` class, and `args` holds the positional arguments (the count in `nargsf`, less
/// the offset flag) followed by the values of the keywords named in `kwnames` (or null).
unsafe extern "C" fn new_board(
    callable: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargsf: usize,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: see the function's contract.
    let py = unsafe { Python::assume_attached() };
    call(py, || {
        let nargs = nargsf & !ARGUMENTS_OFFSET;
        if kwnames.is_null() {
            if nargs == 0 {
                return Ok(
                    Bound::new(py, Board::construct(Some(STARTING_FEN), false)?)?.into_any(),
                );
            }
            if nargs == 1 {
                // SAFETY: `args` has one positional entry (the count above).
                let arg = unsafe { Borrowed::from_ptr(py, *args) };
                // A `str` that is not UTF-8 (a lone surrogate) goes the classic way, which
                // raises PyO3's error for it.
                if let Ok(text) = arg.cast::<PyString>()
                    && let Ok(fen) = text.to_str()
                {
                    return Ok(Bound::new(py, Board::construct(Some(fen), false)?)?.into_any());
                }
            }
        }
        let nargs = ffi::Py_ssize_t::try_from(nargs).unwrap_or(0);
        // SAFETY: the contract: the arguments as CPython passed them.
        let (positional, kwargs) = unsafe { packed(py, None, args, nargs, kwnames) }?;
        // SAFETY: `callable` is live (the contract); its metatype's `tp_call` (`type_call`)
        // is what calling it would run without the slot, and takes a tuple and a dict or
        // null.
        unsafe {
            let type_call = ffi::PyType_GetSlot(ffi::Py_TYPE(callable), ffi::Py_tp_call);
            if type_call.is_null() {
                return Err(pyo3::exceptions::PyTypeError::new_err(
                    "Board is not callable",
                ));
            }
            let type_call: ffi::ternaryfunc = std::mem::transmute(type_call);
            let kwargs = kwargs.as_ref().map_or(std::ptr::null_mut(), Bound::as_ptr);
            Bound::from_owned_ptr_or_err(py, type_call(callable, positional.as_ptr(), kwargs))
        }
    })
}
