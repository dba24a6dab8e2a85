//! The move stack (`peek`, `move_stack`, `ply`, `clear_stack`) and new boards made from this
//! one: `root`, `copy` with all, none or the last moves of the stack, and `mirror`.

use super::setup_mode::SetupGame;
use super::{Board, BoardState};
use crate::moves::Move;
use crate::moves::{self, interned};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use shatranj_chess::{Color, History};

impl BoardState {
    pub(crate) fn peek<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, Move>> {
        if let Some(g) = &self.setup {
            return interned(py, g.peek()?);
        }
        match self.game.moves().last() {
            Some(&m) => {
                let before = self
                    .game
                    .positions()
                    .rev()
                    .nth(1)
                    .unwrap_or(self.position());
                interned(py, self.key_in(before, m))
            }
            None => Err(PyIndexError::new_err("peek into empty move stack")),
        }
    }

    pub(crate) fn move_stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if let Some(g) = &self.setup {
            return moves::key_list(py, g.moves().iter().copied(), g.moves().len());
        }
        moves::stack_list(py, &self.game, self.chess960)
    }

    pub(crate) fn ply(&self) -> PyResult<u32> {
        if let Some(g) = &self.setup {
            let s = g.setup();
            return Ok(2 * (s.fullmove_number.max(1) - 1) + u32::from(s.turn == Color::Black));
        }
        Ok({
            let pos = self.position();
            2 * (pos.fullmove_number() - 1) + u32::from(pos.turn() == Color::Black)
        })
    }

    pub(crate) fn clear_stack(&mut self) -> PyResult<()> {
        if let Some(g) = &mut self.setup {
            g.clear_stack();
            return Ok(());
        }
        let pos = *self.position();
        let raw = self.raw;
        self.reset(History::new(pos));
        self.raw = raw;
        Ok(())
    }

    pub(crate) fn root(&self, py: Python<'_>) -> PyResult<Py<Board>> {
        if let Some(g) = &self.setup {
            return Py::new(py, Board::with_setup(g.root()));
        }
        self.board_of(py, History::new(*self.game.start()))
    }

    pub(crate) fn copy(
        &self,
        py: Python<'_>,
        stack: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<Board>> {
        let len = self
            .setup
            .as_ref()
            .map_or(self.stack_len(), |g| g.moves().len());
        let keep = match stack {
            None => len,
            Some(s) if s.is_instance_of::<pyo3::types::PyBool>() => {
                if s.is_truthy()? {
                    len
                } else {
                    0
                }
            }
            Some(s) => {
                let n: i64 = s
                    .extract()
                    .map_err(|_| PyTypeError::new_err("stack must be a bool or an int"))?;
                usize::try_from(n).unwrap_or(0).min(len)
            }
        };
        if let Some(g) = &self.setup {
            return Py::new(py, Board::with_setup(g.copy(keep)));
        }
        if keep == self.stack_len() {
            return self.board_of(py, self.game.clone());
        }
        let moves = self.game.moves();
        let split = moves.len() - keep;
        let mut start = *self.game.start();
        for &m in &moves[..split] {
            if m == shatranj_chess::Move::NULL {
                start.play_null();
            } else {
                start.play_unchecked(m);
            }
        }
        self.board_of(py, BoardState::replay(start, &moves[split..]))
    }

    pub(crate) fn __copy__(&self, py: Python<'_>) -> PyResult<Py<Board>> {
        if self.setup.is_some() {
            return self.copy(py, None);
        }
        self.board_of(py, self.game.clone())
    }

    pub(crate) fn __deepcopy__(
        &self,
        py: Python<'_>,
        _memo: &Bound<'_, PyAny>,
    ) -> PyResult<Py<Board>> {
        if self.setup.is_some() {
            return self.copy(py, None);
        }
        self.board_of(py, self.game.clone())
    }

    pub(crate) fn mirror(&self, py: Python<'_>) -> PyResult<Py<Board>> {
        if let Some(g) = &self.setup {
            return Py::new(
                py,
                Board::with_setup(SetupGame::new(g.now().mirror().inner)),
            );
        }
        self.board_of(py, History::new(self.position().mirrored()))
    }
}
