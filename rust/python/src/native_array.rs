//! numpy arrays over memory that Rust filled, without a copy and without a compiled numpy
//! dependency.
//!
//! A [`NativeArray`] owns the values and describes them with numpy's array interface
//! (`__array_interface__`, version 3); `numpy.asarray` then makes an array that points at them
//! and keeps the owner alive as its `base`. This is what lets `shatranj.nnue.read_data` hand
//! over gigabytes of training data with no second copy, while the one abi3 wheel still works
//! with any numpy (the buffer protocol is not in the limited API before Python 3.11).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// The element types handed to numpy.
pub trait Element: Copy + Send + Sync + 'static {
    /// numpy's type string for the type, without the byte-order character.
    const KIND: &'static str;
    /// Whether the byte order matters (`<`/`>`), or not (`|`, single bytes).
    const MULTIBYTE: bool;
    fn storage(values: Box<[Self]>) -> Storage;
}

/// The owned values; a closed set of types so that the pyclass needs no generics.
// Never read from Rust: numpy reads them through the address `NativeArray` hands out.
#[allow(dead_code)]
pub enum Storage {
    Bool(Box<[bool]>),
    I8(Box<[i8]>),
    U8(Box<[u8]>),
    I16(Box<[i16]>),
    I32(Box<[i32]>),
    I64(Box<[i64]>),
    F32(Box<[f32]>),
}

macro_rules! element {
    ($t:ty, $variant:ident, $kind:literal, $multi:literal) => {
        impl Element for $t {
            const KIND: &'static str = $kind;
            const MULTIBYTE: bool = $multi;
            fn storage(values: Box<[Self]>) -> Storage {
                Storage::$variant(values)
            }
        }
    };
}

element!(bool, Bool, "b1", false);
element!(i8, I8, "i1", false);
element!(u8, U8, "u1", false);
element!(i16, I16, "i2", true);
element!(i32, I32, "i4", true);
element!(i64, I64, "i8", true);
element!(f32, F32, "f4", true);

/// The owner of an array's values, seen by numpy through `__array_interface__`.
#[pyclass(module = "shatranj._core", frozen)]
pub struct NativeArray {
    /// Never read or resized after construction: numpy alone reads and writes the values,
    /// through `data`, for as long as an array keeps this object as its base.
    _storage: Storage,
    /// The address of the first value, taken from a mutable borrow before the values moved
    /// in here (moving a `Box` does not move what it points to).
    data: usize,
    shape: Vec<usize>,
    typestr: String,
}

#[pymethods]
impl NativeArray {
    #[getter]
    fn __array_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("version", 3)?;
        d.set_item("shape", PyTuple::new(py, &self.shape)?)?;
        d.set_item("typestr", &self.typestr)?;
        // (address, read-only): the arrays are writable, like any numpy array a user makes.
        d.set_item("data", (self.data, false))?;
        Ok(d)
    }
}

impl NativeArray {
    /// Takes `values` (whose length must be the shape's product) without a copy. A `Vec`
    /// with spare capacity is shrunk first (`into_boxed_slice`); callers that care size it
    /// exactly.
    fn new<T: Element>(values: Vec<T>, shape: &[usize]) -> NativeArray {
        debug_assert_eq!(values.len(), shape.iter().product::<usize>());
        let mut values = values.into_boxed_slice();
        let data = values.as_mut_ptr() as usize;
        let order = if !T::MULTIBYTE {
            '|'
        } else if cfg!(target_endian = "little") {
            '<'
        } else {
            '>'
        };
        NativeArray {
            _storage: T::storage(values),
            data,
            shape: shape.to_vec(),
            typestr: format!("{order}{}", T::KIND),
        }
    }
}

/// A numpy array of `shape` over `values` (whose length must be the shape's product).
pub fn numpy_array<'py, T: Element>(
    py: Python<'py>,
    values: Vec<T>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let owner = NativeArray::new(values, shape);
    crate::py_modules::numpy_asarray(py)?.call1((Bound::new(py, owner)?,))
}

/// `values` handed over without a copy as `(owner, address, size in bytes)`: what
/// `pyarrow.foreign_buffer(address, size, base=owner)` wraps, keeping the owner alive for as
/// long as the buffer lives. (pyarrow's `py_buffer` would want the buffer protocol, which
/// the limited API lacks before Python 3.11.)
pub fn owned_buffer<T: Element>(
    py: Python<'_>,
    values: Vec<T>,
) -> PyResult<(Py<NativeArray>, usize, usize)> {
    let size = std::mem::size_of_val(values.as_slice());
    let len = values.len();
    let owner = NativeArray::new(values, &[len]);
    let data = owner.data;
    Ok((Py::new(py, owner)?, data, size))
}
