//! `LegalMoveGenerator`: the view python-chess's `board.legal_moves` returns. It supports
//! iteration, `in`, `len()`, `bool()` and `count()`; counting without listing uses the
//! rules crate's counting move generator.

use crate::board::Board;
use crate::moves::Move;
use pyo3::prelude::*;

#[pyclass(module = "shatranj", frozen)]
pub struct LegalMoveGenerator {
    board: Py<Board>,
}

impl LegalMoveGenerator {
    pub fn new(board: Py<Board>) -> LegalMoveGenerator {
        LegalMoveGenerator { board }
    }
}

#[pymethods]
impl LegalMoveGenerator {
    #[getter]
    fn board(&self, py: Python<'_>) -> Py<Board> {
        self.board.clone_ref(py)
    }

    /// Iterates over a snapshot of the legal moves (later pushes do not affect it).
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let list = self.board.bind(py).try_borrow()?.legal_move_list(py)?;
        Ok(list.try_iter()?.into_any())
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.board.bind(py).try_borrow()?.count_legal())
    }

    fn count(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.board.bind(py).try_borrow()?.count_legal())
    }

    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.board.bind(py).try_borrow()?.count_legal() > 0)
    }

    fn __contains__(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(m) = r#move.cast::<Move>() else {
            return Ok(false);
        };
        Ok(self
            .board
            .bind(py)
            .try_borrow_mut()?
            .find_legal(m.get().key)
            .is_some())
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let py = slf.py();
        let sans = slf.get().board.bind(py).try_borrow_mut()?.sans();
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
    board: Py<Board>,
}

impl PseudoLegalMoveGenerator {
    pub fn new(board: Py<Board>) -> PseudoLegalMoveGenerator {
        PseudoLegalMoveGenerator { board }
    }

    fn moves(&self, py: Python<'_>) -> PyResult<shatranj_chess::MoveList> {
        Ok(self
            .board
            .bind(py)
            .try_borrow()?
            .position()
            .pseudo_legal_moves())
    }
}

#[pymethods]
impl PseudoLegalMoveGenerator {
    #[getter]
    fn board(&self, py: Python<'_>) -> Py<Board> {
        self.board.clone_ref(py)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let list = crate::moves::list_of(py, &self.moves(py)?)?;
        Ok(list.try_iter()?.into_any())
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.moves(py)?.len())
    }

    fn count(&self, py: Python<'_>) -> PyResult<usize> {
        self.__len__(py)
    }

    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(!self.moves(py)?.is_empty())
    }

    fn __contains__(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(m) = r#move.cast::<Move>() else {
            return Ok(false);
        };
        Ok(crate::moves::find_key(&self.moves(py)?, m.get().key).is_some())
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let moves = slf.get().moves(slf.py())?;
        let ucis: Vec<String> = moves.iter().map(|m| m.to_uci()).collect();
        Ok(format!(
            "<PseudoLegalMoveGenerator at {:#x} ({})>",
            slf.as_ptr() as usize,
            ucis.join(", ")
        ))
    }
}
