//! `LegalMoveGenerator`: the view python-chess's `board.legal_moves` returns. It supports
//! iteration, `in`, `len()`, `bool()` and `count()`; counting without listing uses the
//! rules crate's counting move generator.
//!
//! As in python-chess, a generator can also be made over any object with
//! `generate_legal_moves()` (`LegalMoveGenerator(board)`); it then iterates that, calling it
//! once per traversal. The native board is read directly.

use crate::board::{Board, Moves, on_rep};
use crate::rules::moves::Move;
use pyo3::prelude::*;
use pyo3::types::PyList;

fn listed<'py>(board: &Bound<'py, PyAny>, method: &str) -> PyResult<Bound<'py, PyList>> {
    let moves = board.call_method0(method)?;
    PyList::new(board.py(), moves.try_iter()?.collect::<PyResult<Vec<_>>>()?)
}

/// python-chess's `board.legal_moves`: the legal moves of a board, to iterate, count
/// (`count()`, `len()`), test (`move in board.legal_moves`) or `list()`.
#[pyclass(module = "shatranj", frozen)]
pub struct LegalMoveGenerator {
    board: Py<PyAny>,
}

impl LegalMoveGenerator {
    pub fn new(board: Py<Board>) -> LegalMoveGenerator {
        LegalMoveGenerator {
            board: board.into_any(),
        }
    }

    fn list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let board = self.board.bind(py);
        match board.cast::<Board>() {
            Ok(native) => on_rep!(&*crate::board::read(native)?, r => r.legal_move_list(py)),
            Err(_) => listed(board, "generate_legal_moves"),
        }
    }

    fn count_moves(&self, py: Python<'_>) -> PyResult<usize> {
        match self.board.bind(py).cast::<Board>() {
            Ok(native) => on_rep!(&*crate::board::read(native)?, r => r.count_legal()),
            Err(_) => Ok(self.list(py)?.len()),
        }
    }
}

#[pymethods]
impl LegalMoveGenerator {
    #[new]
    fn py_new(board: Py<PyAny>) -> LegalMoveGenerator {
        LegalMoveGenerator { board }
    }

    #[getter]
    fn board(&self, py: Python<'_>) -> Py<PyAny> {
        self.board.clone_ref(py)
    }

    /// Iterates over a snapshot of the legal moves (later pushes do not affect it).
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.list(py)?.try_iter()?.into_any())
    }

    /// For a generator over another object, `len()` is a `TypeError` (as python-chess has
    /// no `__len__`), so that `list(generator)` traverses that object only once.
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        if self.board.bind(py).cast::<Board>().is_err() {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "len() of a LegalMoveGenerator over a non-shatranj board: use count()",
            ));
        }
        self.count_moves(py)
    }

    fn count(&self, py: Python<'_>) -> PyResult<usize> {
        self.count_moves(py)
    }

    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.count_moves(py)? > 0)
    }

    fn __contains__(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(m) = r#move.cast::<Move>() else {
            return Ok(false);
        };
        match self.board.bind(py).cast::<Board>() {
            Ok(native) => on_rep!(&mut *crate::board::write(native)?, r => r.contains_legal(m)),
            Err(_) => self.list(py)?.contains(m),
        }
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let py = slf.py();
        let board = slf.get().board.bind(py);
        let sans = if let Ok(native) = board.cast::<Board>() {
            on_rep!(&mut *crate::board::write(native)?, r => r.sans(py))?
        } else {
            let list = slf.get().list(py)?;
            list.iter()
                .map(|m| board.call_method1("san", (m,))?.extract())
                .collect::<PyResult<Vec<String>>>()?
        };
        Ok(format!(
            "<LegalMoveGenerator at {:#x} ({})>",
            slf.as_ptr() as usize,
            sans.join(", ")
        ))
    }
}

/// python-chess's `board.pseudo_legal_moves`: moves that may leave the own king in check.
#[pyclass(module = "shatranj", frozen)]
pub struct PseudoLegalMoveGenerator {
    board: Py<PyAny>,
}

impl PseudoLegalMoveGenerator {
    pub fn new(board: Py<Board>) -> PseudoLegalMoveGenerator {
        PseudoLegalMoveGenerator {
            board: board.into_any(),
        }
    }

    fn list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let board = self.board.bind(py);
        match board.cast::<Board>() {
            Ok(native) => on_rep!(&mut *crate::board::write(native)?, r => r.pseudo_legal_list(py)),
            Err(_) => listed(board, "generate_pseudo_legal_moves"),
        }
    }
}

#[pymethods]
impl PseudoLegalMoveGenerator {
    #[new]
    fn py_new(board: Py<PyAny>) -> PseudoLegalMoveGenerator {
        PseudoLegalMoveGenerator { board }
    }

    #[getter]
    fn board(&self, py: Python<'_>) -> Py<PyAny> {
        self.board.clone_ref(py)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.list(py)?.try_iter()?.into_any())
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.list(py)?.len())
    }

    fn count(&self, py: Python<'_>) -> PyResult<usize> {
        self.__len__(py)
    }

    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(!self.list(py)?.is_empty())
    }

    fn __contains__(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        if r#move.cast::<Move>().is_err() {
            return Ok(false);
        }
        self.list(py)?.contains(r#move)
    }

    /// SAN for the legal moves, UCI for the others (python-chess's form).
    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let py = slf.py();
        let board = slf.get().board.bind(py);
        let mut parts = Vec::new();
        for m in slf.get().list(py)?.iter() {
            let legal: bool = board.call_method1("is_legal", (&m,))?.extract()?;
            let text: String = if legal {
                board.call_method1("san", (&m,))?.extract()?
            } else {
                m.call_method0("uci")?.extract()?
            };
            parts.push(text);
        }
        Ok(format!(
            "<PseudoLegalMoveGenerator at {:#x} ({})>",
            slf.as_ptr() as usize,
            parts.join(", ")
        ))
    }
}
