//! `Piece`: a piece type and a colour, as python-chess's `Piece`.

use crate::args;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use shatranj_chess::{Color, Role};

/// A piece: a piece type (1 pawn … 6 king) and a colour (`True` for White), as python-chess's
/// `Piece`.
#[pyclass(module = "shatranj", frozen)]
pub struct Piece {
    pub piece: shatranj_chess::Piece,
}

/// The twelve pieces, so `piece_at` hands out shared objects.
static INTERNED: PyOnceLock<Vec<Py<Piece>>> = PyOnceLock::new();

fn index(p: shatranj_chess::Piece) -> usize {
    p.color.index() * 6 + p.role.index()
}

pub fn interned(py: Python<'_>, p: shatranj_chess::Piece) -> PyResult<Bound<'_, Piece>> {
    let table = INTERNED.get_or_try_init(py, || -> PyResult<Vec<Py<Piece>>> {
        // Colour-major, role-minor: the order of `index`.
        let mut all = Vec::with_capacity(12);
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = shatranj_chess::Piece::new(color, role);
                all.push(Py::new(py, Piece { piece })?);
            }
        }
        Ok(all)
    })?;
    Ok(table[index(p)].bind(py).clone())
}

#[pymethods]
impl Piece {
    #[new]
    fn new(piece_type: i64, color: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(Piece {
            piece: shatranj_chess::Piece::new(args::color(color)?, args::role(piece_type)?),
        })
    }

    #[getter]
    fn piece_type(&self) -> u8 {
        args::piece_type(self.piece.role)
    }

    #[getter]
    fn color(&self) -> bool {
        self.piece.color.is_white()
    }

    fn symbol(&self) -> String {
        self.piece.char().to_string()
    }

    #[pyo3(signature = (*, invert_color = false))]
    fn unicode_symbol(&self, invert_color: bool) -> String {
        let mut p = self.piece;
        if invert_color {
            p.color = p.color.other();
        }
        p.unicode().to_string()
    }

    #[classmethod]
    fn from_symbol<'py>(cls: &Bound<'py, PyType>, symbol: &str) -> PyResult<Bound<'py, Piece>> {
        let mut chars = symbol.chars();
        match (
            chars.next().and_then(shatranj_chess::Piece::from_char),
            chars.next(),
        ) {
            (Some(p), None) => interned(cls.py(), p),
            _ => Err(PyValueError::new_err(format!(
                "invalid piece symbol {symbol:?}: expected one of PNBRQKpnbrqk"
            ))),
        }
    }

    fn __hash__(&self) -> isize {
        index(self.piece) as isize
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.cast::<Piece>() else {
            return Ok(py.NotImplemented());
        };
        let same = self.piece == other.get().piece;
        Ok(match op {
            CompareOp::Eq => same.into_pyobject(py)?.to_owned().into_any().unbind(),
            CompareOp::Ne => (!same).into_pyobject(py)?.to_owned().into_any().unbind(),
            _ => py.NotImplemented(),
        })
    }

    fn __repr__(&self) -> String {
        format!("Piece.from_symbol('{}')", self.piece.char())
    }

    fn __str__(&self) -> String {
        self.piece.char().to_string()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (u8, bool)) {
        let me = slf.get();
        (slf.get_type(), (me.piece_type(), me.color()))
    }
}
