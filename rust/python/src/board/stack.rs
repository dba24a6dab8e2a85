//! The move stack ([`Stack`]: `peek`, `move_stack`, `ply`, `clear_stack`) and new boards made
//! from this one: `root`, `copy` with all, none or the last moves of the stack, and `mirror`.

use super::legal_game::LegalGame;
use super::setup_mode::SetupGame;
use super::{Board, BoardState};
use crate::rules::moves::Move;
use crate::rules::moves::{self, interned};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use shatranj_chess::{Color, History};

/// The move stack, and boards made from this one.
pub(crate) trait Stack {
    /// The number of moves on the stack.
    fn stack_len(&self) -> usize;
    fn peek<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, Move>>;
    fn move_stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>>;
    /// python-chess's ply: half-moves since the start of the game, from the FEN's counters.
    fn ply(&self) -> PyResult<u32>;
    fn clear_stack(&mut self) -> PyResult<()>;
    fn root(&self, py: Python<'_>) -> PyResult<Py<Board>>;
    /// A copy with the last `keep` moves of the stack (at most all of them).
    fn copy_keeping(&self, py: Python<'_>, keep: usize) -> PyResult<Py<Board>>;
    /// The board with colours swapped and the position flipped; the stack is dropped.
    fn mirror(&self, py: Python<'_>) -> PyResult<Py<Board>>;

    /// A copy; `stack` is `True` (whole move stack), `False` (none) or the number of last
    /// moves to keep.
    fn copy(&self, py: Python<'_>, stack: Option<&Bound<'_, PyAny>>) -> PyResult<Py<Board>> {
        let len = self.stack_len();
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
        self.copy_keeping(py, keep)
    }

    fn __copy__(&self, py: Python<'_>) -> PyResult<Py<Board>> {
        self.copy_keeping(py, self.stack_len())
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<Py<Board>> {
        self.copy_keeping(py, self.stack_len())
    }
}

impl Stack for LegalGame {
    #[inline]
    fn stack_len(&self) -> usize {
        self.game.moves().len()
    }

    fn peek<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, Move>> {
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

    fn move_stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        moves::stack_list(py, &self.game, self.chess960)
    }

    fn ply(&self) -> PyResult<u32> {
        let pos = self.position();
        Ok(2 * (pos.fullmove_number() - 1) + u32::from(pos.turn() == Color::Black))
    }

    fn clear_stack(&mut self) -> PyResult<()> {
        // The castling rights and en-passant square as given (`raw`) stay: the position
        // does not change.
        self.game = History::new(*self.position());
        self.cache.clear();
        Ok(())
    }

    fn root(&self, py: Python<'_>) -> PyResult<Py<Board>> {
        self.board_of(py, History::new(*self.game.start()))
    }

    fn copy_keeping(&self, py: Python<'_>, keep: usize) -> PyResult<Py<Board>> {
        if keep >= self.stack_len() {
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
        self.board_of(py, LegalGame::replay(start, &moves[split..]))
    }

    fn mirror(&self, py: Python<'_>) -> PyResult<Py<Board>> {
        self.board_of(py, History::new(self.position().mirrored()))
    }
}

impl Stack for SetupGame {
    fn stack_len(&self) -> usize {
        self.moves().len()
    }

    fn peek<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, Move>> {
        interned(py, self.last_key()?)
    }

    fn move_stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        moves::key_list(py, self.moves().iter().copied(), self.moves().len())
    }

    fn ply(&self) -> PyResult<u32> {
        let s = self.setup();
        Ok(2 * (s.fullmove_number.max(1) - 1) + u32::from(s.turn == Color::Black))
    }

    fn clear_stack(&mut self) -> PyResult<()> {
        self.forget_moves();
        Ok(())
    }

    fn root(&self, py: Python<'_>) -> PyResult<Py<Board>> {
        Py::new(py, Board::wrap(BoardState::with_setup(self.first())))
    }

    fn copy_keeping(&self, py: Python<'_>, keep: usize) -> PyResult<Py<Board>> {
        Py::new(py, Board::wrap(BoardState::with_setup(self.keeping(keep))))
    }

    fn mirror(&self, py: Python<'_>) -> PyResult<Py<Board>> {
        let mirrored = SetupGame::new(self.now().mirror().inner);
        Py::new(py, Board::wrap(BoardState::with_setup(mirrored)))
    }
}
