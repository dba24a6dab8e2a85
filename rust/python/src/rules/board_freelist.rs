//! A free list of `Board` objects behind the class's `tp_alloc` and `tp_free` slots, and a
//! plain `tp_dealloc`, written when the module loads (by `hot_new::install`, under its check
//! of the type object's layout), so that a board created and dropped in a loop
//! (`Board(fen)`, `board.copy()`) reuses the memory of the last one instead of a fresh
//! garbage-collected allocation, its zeroing and its tracking, and a free.
//!
//! PyO3's `tp_dealloc` goes through its trampoline (an attach guard, a panic catch) and asks
//! the type for its `tp_free` slot by `PyType_GetSlot` on every call: 201 of a `Board(fen)`'s
//! 2,036 instructions went to deallocation. [`dealloc`] does what PyO3's does for this class
//! and no more: untrack, drop the Rust value in place, free, release the type. The value is
//! found at the offset `install` measured on a live board; the class has no `__dict__` and
//! no weak references (checked there), and its value holds no Python object, so there is
//! nothing else to clear, and its drop (vectors' memory) cannot panic.
//!
//! PyO3 has a free list (`#[pyclass(freelist = N)]`), but it guards the list with a mutex
//! and looks the class up on every allocation: 120 instructions to allocate and 70 to free,
//! of a `Board(fen)` of about 2,300 (callgrind). This package runs with the GIL (see
//! `gil_cell.rs`: the module refuses to load without it), so this list is a plain array the
//! GIL guards, and the class is the one the slots were written into.
//!
//! What comes off the list is what PyO3's free list hands out: memory the class's own
//! allocator made, which PyO3's deallocation has untracked from the garbage collector and
//! dropped, given a fresh header by `PyObject_Init`; PyO3 writes every field of the object
//! after `tp_alloc` (it never relies on the allocator's zeroing). The object stays untracked,
//! as with PyO3's list: a `Board` holds no Python object, so it can be in no cycle. Anything
//! else (a subtype, an item count, an empty list; a full list on free) goes to the slots the
//! class had before.

use pyo3::ffi;
use std::cell::{Cell, UnsafeCell};
use std::ffi::c_void;
use std::ptr::null_mut;

/// Boards kept for reuse: a loop that makes and drops one at a time needs one; a few more
/// cover short bursts without holding much memory (about 250 bytes each).
const CAPACITY: usize = 16;

/// The list, the class it serves and the slots it replaced.
struct FreeList {
    objects: UnsafeCell<[*mut ffi::PyObject; CAPACITY]>,
    len: Cell<usize>,
    board: Cell<*mut ffi::PyTypeObject>,
    alloc: Cell<Option<ffi::allocfunc>>,
    free: Cell<Option<ffi::freefunc>>,
    /// Where a board object's Rust value starts, in bytes from its header.
    value_offset: Cell<usize>,
}

// SAFETY: every field is read and written only by `install`, `alloc` and `free`, which
// CPython (and the module's init) calls with the GIL held, and this package never runs
// without the GIL (`gil_cell.rs`): no two threads touch the list at once, and the GIL's
// release and acquire order one thread's writes before the next thread's reads.
unsafe impl Sync for FreeList {}

static LIST: FreeList = FreeList {
    objects: UnsafeCell::new([null_mut(); CAPACITY]),
    len: Cell::new(0),
    board: Cell::new(null_mut()),
    alloc: Cell::new(None),
    free: Cell::new(None),
    value_offset: Cell::new(0),
};

/// The slots [`install`] writes: fields of the `Board` class's type object.
pub(super) struct Slots {
    pub alloc: *mut *mut c_void,
    pub free: *mut *mut c_void,
    pub dealloc: *mut *mut c_void,
}

/// Puts [`alloc`] and [`free`] into `board`'s slots, keeping the slots they replace for
/// what the list does not serve, and [`dealloc`] into its `tp_dealloc` where `value_offset`
/// is known (`Some`).
///
/// # Safety
/// The GIL is held, `board` is the `Board` class, and `slots` point at its type object's
/// fields (checked by the caller against `PyType_GetSlot`); none has been replaced yet. A
/// `value_offset` is where a `Board` object's Rust value starts, and the class has no
/// `__dict__` and no weak-reference list.
pub(super) unsafe fn install(
    board: *mut ffi::PyTypeObject,
    slots: &Slots,
    value_offset: Option<usize>,
) {
    let Slots {
        alloc: tp_alloc,
        free: tp_free,
        dealloc: tp_dealloc,
    } = *slots;
    // SAFETY: the contract: both fields belong to the live `Board` type object, and hold a
    // `tp_alloc` and a `tp_free` function (or null, which `Option` of a function pointer
    // reads as `None`).
    unsafe {
        LIST.alloc
            .set(std::mem::transmute::<*mut c_void, Option<ffi::allocfunc>>(
                *tp_alloc,
            ));
        LIST.free
            .set(std::mem::transmute::<*mut c_void, Option<ffi::freefunc>>(
                *tp_free,
            ));
        if LIST.alloc.get().is_none() || LIST.free.get().is_none() {
            return;
        }
        LIST.board.set(board);
        *tp_alloc = alloc as *const () as *mut c_void;
        *tp_free = free as *const () as *mut c_void;
        if let Some(offset) = value_offset {
            LIST.value_offset.set(offset);
            *tp_dealloc = dealloc as *const () as *mut c_void;
        }
    }
}

/// `Board`'s `tp_dealloc`: what PyO3's does for this class (see the module docs), without
/// its trampoline and slot lookups.
///
/// # Safety
/// CPython's `tp_dealloc` contract: the GIL is held and `obj` is a `Board` whose last
/// reference is gone.
unsafe extern "C" fn dealloc(obj: *mut ffi::PyObject) {
    // SAFETY: the contract; `install` set this slot only with the value's offset measured on
    // a live board, and `free` is this class's `tp_free`. The type is read before the
    // memory is freed, and released after it, as PyO3 does (an instance of a heap type holds
    // a reference to it).
    unsafe {
        ffi::PyObject_GC_UnTrack(obj.cast());
        let tp = ffi::Py_TYPE(obj);
        std::ptr::drop_in_place(
            obj.byte_add(LIST.value_offset.get())
                .cast::<crate::board::Board>(),
        );
        free(obj.cast());
        ffi::Py_DECREF(tp.cast());
    }
}

/// `Board`'s `tp_alloc`: the last freed board, or the class's own allocator.
///
/// # Safety
/// CPython's `tp_alloc` contract: the GIL is held and `subtype` is a live type object.
unsafe extern "C" fn alloc(
    subtype: *mut ffi::PyTypeObject,
    nitems: ffi::Py_ssize_t,
) -> *mut ffi::PyObject {
    let len = LIST.len.get();
    if len > 0 && nitems == 0 && subtype == LIST.board.get() {
        LIST.len.set(len - 1);
        // SAFETY: the GIL guards the list (see `FreeList`); entries below `len` are objects
        // `free` kept, whose memory the class's allocator made for a `Board`. `PyObject_Init`
        // gives it the header of a new reference to `subtype` (and a reference to the type,
        // as the allocator would).
        unsafe {
            let obj = (*LIST.objects.get())[len - 1];
            return ffi::PyObject_Init(obj, subtype);
        }
    }
    match LIST.alloc.get() {
        // SAFETY: the slot this one replaced, under the same contract.
        Some(original) => unsafe { original(subtype, nitems) },
        None => null_mut(),
    }
}

/// `Board`'s `tp_free`: keeps the memory for [`alloc`], or gives it to the class's own
/// `tp_free` when the list is full.
///
/// # Safety
/// CPython's `tp_free` contract: the GIL is held and `obj` is the memory of a `Board` the
/// class's deallocation has finished with.
unsafe extern "C" fn free(obj: *mut c_void) {
    if obj.is_null() {
        return;
    }
    let len = LIST.len.get();
    // Only a `Board`'s memory is kept: it is the class's slot, and the class has no
    // subclasses (not a PyO3 `subclass`), but the check is one comparison.
    // SAFETY: `obj` is an object whose header is still readable (the contract).
    let is_board = unsafe { ffi::Py_TYPE(obj.cast()) } == LIST.board.get();
    if len < CAPACITY && is_board {
        // SAFETY: the GIL guards the list (see `FreeList`).
        unsafe { (*LIST.objects.get())[len] = obj.cast() };
        LIST.len.set(len + 1);
        return;
    }
    if let Some(original) = LIST.free.get() {
        // SAFETY: the slot this one replaced, under the same contract.
        unsafe { original(obj) };
    }
}
