//! New numpy arrays through numpy's C API, found at run time: the array a single board's
//! planes fill, made with one C call rather than `numpy.frombuffer(...).reshape(...)`'s
//! three Python calls and a `bytearray` (the whole cost of `Board.to_planes()` was there).
//!
//! numpy publishes its C API as a table of function pointers in a capsule (`_ARRAY_API`);
//! a C extension compiled against numpy's headers reads it in `import_array()`. This module
//! reads the same capsule when first asked (`py_modules::numpy_array_api`), so the one abi3
//! wheel still needs no compiled numpy dependency and works with numpy 1.x and 2.x alike:
//! it uses one entry of the table, `PyArray_New` (slot 93, unchanged since numpy 1.0, as
//! the table's slots are numpy's ABI), and one field of the array object, its data pointer,
//! the first field after the object header in numpy's `PyArrayObject_fields` (numpy's ABI
//! too). Where the capsule cannot be read, or numpy's ABI version is older than the one
//! these slots are checked against, [`new_u8_array`] says so (`None`) and the caller falls
//! back to the Python calls.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyCapsule;
use std::ffi::{c_int, c_uint, c_void};

/// numpy's `NPY_UBYTE` type number.
const NPY_UBYTE: c_int = 2;
/// The table's slots this module calls (numpy's `__multiarray_api.h`).
const SLOT_GET_NDARRAY_C_VERSION: usize = 0;
const SLOT_ARRAY_TYPE: usize = 2;
const SLOT_NEW: usize = 93;
/// numpy's C ABI version from numpy 1.7 (`0x01000009`); numpy 2 reports `0x02000000`.
const MIN_ABI_VERSION: c_uint = 0x0100_0009;

type GetVersion = unsafe extern "C" fn() -> c_uint;
type ArrayNew = unsafe extern "C" fn(
    subtype: *mut ffi::PyTypeObject,
    nd: c_int,
    dims: *const ffi::Py_ssize_t,
    type_num: c_int,
    strides: *const ffi::Py_ssize_t,
    data: *mut c_void,
    itemsize: c_int,
    flags: c_int,
    obj: *mut ffi::PyObject,
) -> *mut ffi::PyObject;

/// The two entries this module uses, read once from the table.
struct Api {
    array_type: *mut ffi::PyTypeObject,
    new: ArrayNew,
}

// SAFETY: the pointers are numpy's static type object and function, valid for the life of
// the process (an extension module is never unloaded), and only used under the GIL.
unsafe impl Send for Api {}
// SAFETY: as for `Send`: shared read-only pointers to static objects.
unsafe impl Sync for Api {}

/// The table's entries, or `None` when numpy's C API is not usable here.
fn api(py: Python<'_>) -> Option<&'static Api> {
    static API: PyOnceLock<Option<Api>> = PyOnceLock::new();
    API.get_or_init(py, || load(py).ok().flatten()).as_ref()
}

fn load(py: Python<'_>) -> PyResult<Option<Api>> {
    let capsule = crate::py_modules::numpy_array_api(py)?;
    let Ok(capsule) = capsule.cast::<PyCapsule>() else {
        return Ok(None);
    };
    // SAFETY: numpy's `_ARRAY_API` capsule is unnamed and holds a pointer to its table of
    // `void *`, which lives as long as numpy's module (never unloaded).
    let table = unsafe { ffi::PyCapsule_GetPointer(capsule.as_ptr(), std::ptr::null()) };
    if table.is_null() {
        // Not the capsule numpy's `import_array()` expects: leave the error unraised and
        // fall back.
        let _ = PyErr::take(py);
        return Ok(None);
    }
    let table = table.cast::<*const c_void>();
    // SAFETY: slot 0 of numpy's table is `PyArray_GetNDArrayCVersion`, in every numpy.
    let version = unsafe {
        let get: GetVersion = std::mem::transmute(*table.add(SLOT_GET_NDARRAY_C_VERSION));
        get()
    };
    if version < MIN_ABI_VERSION {
        return Ok(None);
    }
    // SAFETY: with numpy's ABI at least `MIN_ABI_VERSION`, slot 2 is `&PyArray_Type` and
    // slot 93 `PyArray_New`, with the signature `ArrayNew` spells out.
    unsafe {
        Ok(Some(Api {
            array_type: (*table.add(SLOT_ARRAY_TYPE)).cast_mut().cast(),
            new: std::mem::transmute::<*const c_void, ArrayNew>(*table.add(SLOT_NEW)),
        }))
    }
}

/// A new C-ordered `uint8` array of shape `dims`, zeroed, after `fill` has written into its
/// bytes; `None` where numpy's C API is not usable (see the module docs).
pub fn new_u8_array<'py>(
    py: Python<'py>,
    dims: &[ffi::Py_ssize_t],
    fill: impl FnOnce(&mut [u8]),
) -> Option<PyResult<Bound<'py, PyAny>>> {
    let api = api(py)?;
    let len: usize = dims
        .iter()
        .map(|&d| usize::try_from(d).unwrap_or(0))
        .product();
    let nd = c_int::try_from(dims.len()).ok()?;
    // SAFETY: `PyArray_New` with numpy's array type, `nd` dimensions from `dims`, a built-in
    // type number and null strides, data and object: numpy allocates C-ordered memory of
    // `len` bytes. Called with the GIL held (`py`).
    let array = unsafe {
        (api.new)(
            api.array_type,
            nd,
            dims.as_ptr(),
            NPY_UBYTE,
            std::ptr::null(),
            std::ptr::null_mut(),
            0,
            0,
            std::ptr::null_mut(),
        )
    };
    // SAFETY: a new reference, or null with an exception set.
    let array = match unsafe { Bound::from_owned_ptr_or_err(py, array) } {
        Ok(array) => array,
        Err(err) => return Some(Err(err)),
    };
    // SAFETY: a numpy array's first field after the object header is its data pointer
    // (`PyArrayObject_fields.data`), here to the `len` bytes just allocated, which nothing
    // else references yet.
    // The byte offset is the header's size, a multiple of a pointer's alignment, from an
    // object the allocator aligned for its fields: the field is aligned.
    #[allow(clippy::cast_ptr_alignment)]
    let data = unsafe {
        *array
            .as_ptr()
            .cast::<u8>()
            .add(std::mem::size_of::<ffi::PyObject>())
            .cast::<*mut u8>()
    };
    if data.is_null() {
        // numpy allocates at least one element; a null pointer means a layout this module
        // does not know.
        return None;
    }
    // SAFETY: `data` points at the array's `len` bytes (see above).
    let bytes = unsafe {
        std::ptr::write_bytes(data, 0, len);
        std::slice::from_raw_parts_mut(data, len)
    };
    fill(bytes);
    Some(Ok(array))
}
