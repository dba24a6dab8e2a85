//! The table's memory: a zeroed slice that costs nothing until it is used.
//!
//! `alloc_zeroed` is lazy for certain only on the allocator's `calloc` path, which Rust's
//! system allocator takes when the alignment asked for is at most the platform's minimum
//! (16 bytes on x86-64): a large `calloc` is a fresh `mmap`, whose pages the kernel zeroes
//! when they are first touched. Asked for the buckets' own 64-byte alignment, it takes the
//! aligned path instead, which writes the zeros itself: 4.5 s for 4 GB in an unoptimised
//! build (an optimised build happens to drop the writes, which is nothing to rely on). So
//! the block is asked for byte-aligned, a little larger, and the slice starts at the first
//! aligned address inside it.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ops::Deref;
use std::ptr::NonNull;

/// `len` zeroed values of `T`, aligned for `T`, in a block from the allocator's lazily
/// zeroed path.
pub(super) struct ZeroedSlice<T> {
    items: NonNull<T>,
    len: usize,
    /// The block as allocated, and its layout, to free it with.
    block: NonNull<u8>,
    layout: Layout,
}

// SAFETY: the slice owns its values like a `Box<[T]>` does.
unsafe impl<T: Send> Send for ZeroedSlice<T> {}
// SAFETY: shared access hands out only `&[T]`.
unsafe impl<T: Sync> Sync for ZeroedSlice<T> {}

impl<T> ZeroedSlice<T> {
    /// `len` values of all-zero bytes; `None` if the memory cannot be had.
    ///
    /// # Safety
    /// All-zero bytes must be a valid `T`.
    pub(super) unsafe fn new(len: usize) -> Option<ZeroedSlice<T>> {
        let align = align_of::<T>();
        let bytes = size_of::<T>().checked_mul(len)?;
        // Room to move the start up to the next multiple of `align`, and never zero bytes.
        let layout = Layout::from_size_align(bytes.checked_add(align)?, 1).ok()?;
        // SAFETY: the layout's size is not zero.
        let block = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        let offset = (align - block.as_ptr() as usize % align) % align;
        // SAFETY: `offset < align`, so the `bytes` from `offset` lie inside the block; the
        // address is aligned for `T`, and the zero bytes there are valid `T`s (the caller's
        // promise).
        let items = unsafe { block.add(offset) }.cast::<T>();
        Some(ZeroedSlice {
            items,
            len,
            block,
            layout,
        })
    }
}

impl<T> Deref for ZeroedSlice<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `items` points to `len` initialised, aligned values owned by `self`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr(), self.len) }
    }
}

impl<T> Drop for ZeroedSlice<T> {
    fn drop(&mut self) {
        // SAFETY: the values are initialised and dropped once; the block was allocated with
        // `layout` and is freed once.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.items.as_ptr(),
                self.len,
            ));
            dealloc(self.block.as_ptr(), self.layout);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[repr(align(64))]
    struct Line([u64; 8]);

    #[test]
    fn values_are_zero_and_aligned() {
        for len in [1, 2, 3, 1000] {
            // SAFETY: all-zero bytes are a valid `Line`.
            let s = unsafe { ZeroedSlice::<Line>::new(len) }.unwrap();
            assert_eq!(s.len(), len);
            assert_eq!(s.as_ptr() as usize % 64, 0, "{len}");
            assert!(s.iter().all(|l| l.0 == [0; 8]));
        }
        // SAFETY: as above.
        assert!(unsafe { ZeroedSlice::<Line>::new(usize::MAX / 8) }.is_none());
    }
}
