//! Setup mode (see the `board` module docs): the hand-over of a method to the Python setup
//! board (`shatranj._setup.SetupBoard`), and the calls into `shatranj._setup` that resolve a
//! FEN or an edit to either the hot path or setup mode. One file, so that the seam between the
//! rules crate's `Position` and setup mode's `Setup` is in one place.

use super::state::RawState;
use super::{Board, BoardState};
use crate::moves::Move;
use crate::py_modules;
use crate::setup::PySetup;
use pyo3::exceptions::PyIndexError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyList;
use shatranj_chess::Position;
use shatranj_chess::fen;

/// In setup mode, a method is answered by the Python setup board (see the module docs).
macro_rules! delegate {
    ($self:ident, $name:literal, $args:expr) => {
        if let Some(setup) = &$self.setup {
            return Python::attach(|py| {
                setup
                    .bind(py)
                    .call_method1($name, $args)?
                    .extract()
                    .map_err(Into::into)
            });
        }
    };
}

macro_rules! delegate_unit {
    ($self:ident, $name:literal, $args:expr) => {
        if let Some(setup) = &$self.setup {
            return Python::attach(|py| setup.bind(py).call_method1($name, $args).map(drop));
        }
    };
}

macro_rules! delegate_py {
    ($self:ident, $py:ident, $name:literal, $args:expr) => {
        if let Some(setup) = &$self.setup {
            return setup
                .bind($py)
                .call_method1($name, $args)?
                .extract()
                .map_err(Into::into);
        }
    };
}

macro_rules! delegate_get {
    ($self:ident, $name:literal) => {
        if let Some(setup) = &$self.setup {
            return Python::attach(|py| {
                setup.bind(py).getattr($name)?.extract().map_err(Into::into)
            });
        }
    };
}

macro_rules! delegate_get_py {
    ($self:ident, $py:ident, $name:literal) => {
        if let Some(setup) = &$self.setup {
            return setup
                .bind($py)
                .getattr($name)?
                .extract()
                .map_err(Into::into);
        }
    };
}

pub(super) use {delegate, delegate_get, delegate_get_py, delegate_py, delegate_unit};

impl BoardState {
    pub(super) fn with_setup(setup: Py<PyAny>) -> BoardState {
        let mut board = BoardState::from_position(Position::new());
        board.setup = Some(setup);
        board
    }

    /// The board `shatranj._setup` resolved a FEN or an edit to: the hot path when `clean`
    /// (a FEN with cleaned castling rights and en-passant square) is a legal position, else
    /// setup mode with `setup`.
    pub(super) fn adopt(clean: Option<String>, raw: RawState, setup: Py<PyAny>) -> BoardState {
        let chess960 = Python::attach(|py| {
            setup
                .bind(py)
                .getattr("chess960")
                .and_then(|flag| flag.is_truthy())
        })
        .unwrap_or(false);
        let mode = shatranj_chess::CastlingMode::from_chess960(chess960);
        if let Some(pos) = clean.and_then(|fen| fen::parse_with(&fen, mode).ok()) {
            let mut board = BoardState::from_position(pos);
            board.raw = raw;
            board.chess960 = chess960;
            return board;
        }
        BoardState::with_setup(setup)
    }

    /// A FEN the rules crate refused (or any FEN, for Chess960), resolved by
    /// `shatranj._setup.resolve_fen`, which raises `ValueError` for text no python-chess
    /// board would load.
    pub(super) fn lenient(
        py: Python<'_>,
        fen: Option<&str>,
        chess960: bool,
    ) -> PyResult<BoardState> {
        let resolve = py_modules::setup_resolve_fen(py)?;
        let (clean, raw, setup): (Option<String>, RawState, Py<PyAny>) =
            resolve.call1((fen, chess960))?.extract()?;
        Ok(BoardState::adopt(clean, raw, setup))
    }
}

/// The hot calls of setup mode (move lists, `push`, `pop`), answered from the setup board's
/// state (`_s`, the rules crate's `Setup`; `_stack`, its list of (move, setup before)) without
/// running its Python methods: a call through `SetupBoard` cost 1.5x the native board's time
/// for a move list and 6x for push+pop. Each does what the `SetupBoard` method of the same
/// name does, on the same state, so the methods still delegating see no difference.
pub(super) mod fast {
    use super::*;

    fn state<'py>(setup: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PySetup>> {
        Ok(setup.getattr(intern!(setup.py(), "_s"))?.cast_into()?)
    }

    fn stack<'py>(setup: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        Ok(setup.getattr(intern!(setup.py(), "_stack"))?.cast_into()?)
    }

    /// `SetupBoard.legal_move_list`.
    pub(in crate::board) fn legal_list<'py>(
        setup: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        state(setup)?.borrow().legal_list(setup.py())
    }

    /// `SetupBoard.count_legal`.
    pub(in crate::board) fn count_legal(setup: &Bound<'_, PyAny>) -> PyResult<usize> {
        Ok(state(setup)?.borrow().legal_count())
    }

    /// `SetupBoard.is_legal`.
    pub(in crate::board) fn is_legal(
        setup: &Bound<'_, PyAny>,
        m: &Bound<'_, Move>,
    ) -> PyResult<bool> {
        state(setup)?.borrow().has_legal(m)
    }

    /// `SetupBoard.push`: copy on write, the setups on the stack never change (copies of
    /// the board share them).
    pub(in crate::board) fn push(setup: &Bound<'_, PyAny>, m: &Bound<'_, Move>) -> PyResult<()> {
        let py = setup.py();
        let (before, stack) = (state(setup)?, stack(setup)?);
        let (after, played) = before.borrow().after(py, m)?;
        setup.setattr(intern!(py, "_s"), Bound::new(py, after)?)?;
        stack.append((played, before))
    }

    /// `SetupBoard.pop`.
    pub(in crate::board) fn pop<'py>(setup: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Move>> {
        let py = setup.py();
        let stack = stack(setup)?;
        let Some(last) = stack.len().checked_sub(1) else {
            return Err(PyIndexError::new_err("pop from empty move stack"));
        };
        let (m, before): (Bound<'py, Move>, Bound<'py, PyAny>) = stack.get_item(last)?.extract()?;
        stack.del_item(last)?;
        setup.setattr(intern!(py, "_s"), before)?;
        Ok(m)
    }
}

/// python-chess's writable attributes (`board.turn = ...`, `board.castling_rights = ...`):
/// the edit goes through `shatranj._setup.set_attribute`, which re-resolves the board.
pub(super) fn set_attribute(
    slf: &Bound<'_, Board>,
    name: &str,
    value: &Bound<'_, PyAny>,
) -> PyResult<()> {
    py_modules::setup_set_attribute(slf.py())?.call1((slf, name, value))?;
    Ok(())
}

/// The methods Python calls, on the state (see `Board`).
impl BoardState {
    pub(crate) fn _setup(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.setup.as_ref().map(|s| s.clone_ref(py))
    }

    pub(crate) fn _load(&mut self, clean: Option<String>, raw: RawState, setup: Py<PyAny>) {
        *self = BoardState::adopt(clean, raw, setup);
    }
}
