//! `GilCell`: a `RefCell` for the state of a frozen pyclass, whose borrow flag is a plain
//! integer guarded by the GIL.
//!
//! PyO3 guards a mutable pyclass with an atomic borrow flag, so that the class also works on
//! free-threaded Python; the flag costs a `lock cmpxchg` on every method call, a sixth of a
//! `Board.push` + `Board.pop` pair. This package runs with the GIL: it is built for the
//! stable ABI (`abi3`), which free-threaded CPython cannot load, its module does not declare
//! itself free-threading safe (so a free-threaded interpreter turns the GIL back on when it
//! is imported), and the module's init refuses to load where the GIL is off all the same
//! (`lib.rs`). So every thread that reaches a pyclass holds the GIL, and the GIL orders all
//! flag reads and writes: a plain `Cell` is enough. The borrows take a `Python` token, so no
//! code detached from the interpreter can take one; the guards are not `Send`, so none is
//! dropped off the GIL. They fail as PyO3's do (`RuntimeError`: "Already borrowed" /
//! "Already mutably borrowed") when Python code re-enters a board that a method is using.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::cell::{Cell, UnsafeCell};
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

/// A value with a borrow flag read and written only under the GIL: 0 unused, `n > 0` shared
/// by `n` readers, -1 lent to one writer.
pub struct GilCell<T> {
    flag: Cell<isize>,
    value: UnsafeCell<T>,
}

// SAFETY: every access goes through `borrow`/`borrow_mut`, which take a `Python` token, so
// the thread holds the GIL (see the module docs): flag and value are never touched by two
// threads at once, and the GIL's release and acquire order one thread's writes before the
// next thread's reads. `T: Send` because the value may be used, then dropped, on any thread.
unsafe impl<T: Send> Sync for GilCell<T> {}

impl<T> GilCell<T> {
    pub fn new(value: T) -> GilCell<T> {
        GilCell {
            flag: Cell::new(0),
            value: UnsafeCell::new(value),
        }
    }

    /// Shared access, or `RuntimeError` while a writer holds the value.
    #[inline]
    pub fn borrow<'a>(&'a self, _py: Python<'_>) -> PyResult<GilRef<'a, T>> {
        let flag = self.flag.get();
        if flag < 0 {
            return Err(PyRuntimeError::new_err("Already mutably borrowed"));
        }
        self.flag.set(flag + 1);
        Ok(GilRef {
            cell: self,
            _not_send: PhantomData,
        })
    }

    /// Exclusive access, or `RuntimeError` while anyone else holds the value.
    #[inline]
    pub fn borrow_mut<'a>(&'a self, _py: Python<'_>) -> PyResult<GilRefMut<'a, T>> {
        if self.flag.get() != 0 {
            return Err(PyRuntimeError::new_err("Already borrowed"));
        }
        self.flag.set(-1);
        Ok(GilRefMut {
            cell: self,
            _not_send: PhantomData,
        })
    }
}

/// A shared borrow of a [`GilCell`].
pub struct GilRef<'a, T> {
    cell: &'a GilCell<T>,
    /// Dropped where it was taken, under the GIL.
    _not_send: PhantomData<*const ()>,
}

impl<T> Deref for GilRef<'_, T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        // SAFETY: the flag counts this reader, so no writer exists until it is dropped.
        unsafe { &*self.cell.value.get() }
    }
}

impl<T> Drop for GilRef<'_, T> {
    #[inline]
    fn drop(&mut self) {
        // On the thread that borrowed (guards are not `Send`), under the GIL.
        self.cell.flag.set(self.cell.flag.get() - 1);
    }
}

/// An exclusive borrow of a [`GilCell`].
pub struct GilRefMut<'a, T> {
    cell: &'a GilCell<T>,
    /// Dropped where it was taken, under the GIL.
    _not_send: PhantomData<*const ()>,
}

impl<T> Deref for GilRefMut<'_, T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        // SAFETY: the flag is -1: this guard is the only access.
        unsafe { &*self.cell.value.get() }
    }
}

impl<T> DerefMut for GilRefMut<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as in `deref`.
        unsafe { &mut *self.cell.value.get() }
    }
}

impl<T> Drop for GilRefMut<'_, T> {
    #[inline]
    fn drop(&mut self) {
        self.cell.flag.set(0);
    }
}
