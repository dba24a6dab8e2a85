//! The board in other forms: the Polyglot key, numpy planes and features, pickling
//! (`__reduce__`, `__setstate__`: the start FEN and the moves in UCI) and python-chess's
//! `chess.Board` both ways.

use super::{Board, BoardState, read};
use crate::errors::{fen_error, uci_error};
use crate::moves::uci_of;
use crate::planes;
use crate::py_modules;
use pyo3::prelude::*;
use pyo3::types::IntoPyDict;
use shatranj_chess::fen::{self, EnPassantMode};
use shatranj_chess::{History, uci};

impl BoardState {
    pub(crate) fn zobrist_hash(&self) -> PyResult<u64> {
        if let Some(g) = &self.setup {
            return Python::attach(|py| Err(g.not_offered(py, "zobrist_hash")));
        }
        Ok(self.position().key())
    }

    pub(crate) fn to_planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(g) = &self.setup {
            return Err(g.not_offered(py, "to_planes"));
        }
        planes::planes_array(py, std::slice::from_ref(self.position()))
    }

    pub(crate) fn features<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(g) = &self.setup {
            return Err(g.not_offered(py, "features"));
        }
        planes::features_array(py, std::slice::from_ref(self.position()))
    }

    pub(crate) fn __setstate__(&mut self, state: &str) -> PyResult<()> {
        let mut game = History::new(*self.game.start());
        for text in state.split_ascii_whitespace() {
            let m = uci::parse_uci(game.position(), text).map_err(uci_error)?;
            game.push_unchecked(m);
        }
        self.reset(game);
        Ok(())
    }

    pub(crate) fn to_chess<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(g) = &self.setup {
            return Err(g.not_offered(py, "to_chess"));
        }
        let board = py_modules::chess_board_class(py)?.call(
            (fen::to_fen_with(self.game.start(), EnPassantMode::Always),),
            Some(&[("chess960", self.chess960)].into_py_dict(py)?),
        )?;
        let from_uci = py_modules::chess_move_class(py)?.getattr("from_uci")?;
        for (pos, &m) in self.game.positions().zip(self.game.moves()) {
            board.call_method1("push", (from_uci.call1((uci_of(self.key_in(pos, m)),))?,))?;
        }
        Ok(board)
    }
}

/// `Board.__reduce__`: `(Board, (start FEN,), moves in UCI)`, or the setup board's own
/// reduction in setup mode.
pub(super) fn reduce<'py>(slf: &Bound<'py, Board>) -> PyResult<Bound<'py, PyAny>> {
    let me = read(slf)?;
    if let Some(g) = &me.setup {
        // `Board(fen, chess960=...)` of the current setup (the stack is not kept).
        let fen = g.fen(false, "fen", None)?;
        let new = py_modules::setup_board_from_fen(slf.py())?;
        return (new, (fen, g.setup().chess960))
            .into_pyobject(slf.py())
            .map(Bound::into_any);
    }
    let start = fen::to_fen_with(me.game.start(), EnPassantMode::Always);
    let moves: Vec<String> = me
        .game
        .positions()
        .zip(me.game.moves())
        .map(|(pos, &m)| uci_of(me.key_in(pos, m)))
        .collect();
    if me.chess960 {
        // `Board(fen, chess960=True)` through a function: the class takes the flag by keyword.
        let new = py_modules::setup_board_from_fen(slf.py())?;
        return (new, (start, true), moves.join(" "))
            .into_pyobject(slf.py())
            .map(Bound::into_any);
    }
    (slf.get_type(), (start,), moves.join(" "))
        .into_pyobject(slf.py())
        .map(Bound::into_any)
}

/// `Board.from_chess`: the start position and moves of a python-chess board.
pub(super) fn from_chess(board: &Bound<'_, PyAny>) -> PyResult<Board> {
    let root = board.call_method0("root")?;
    let kwargs = [("en_passant", "fen")].into_py_dict(board.py())?;
    let fen: String = root.call_method("fen", (), Some(&kwargs))?.extract()?;
    let chess960: bool = board.getattr("chess960")?.is_truthy()?;
    let mode = shatranj_chess::CastlingMode::from_chess960(chess960);
    let start = fen::parse_with(&fen, mode).map_err(fen_error)?;
    let mut game = History::new(start);
    for m in board.getattr("move_stack")?.try_iter()? {
        let text: String = m?.call_method0("uci")?.extract()?;
        let m = uci::parse_uci(game.position(), &text).map_err(uci_error)?;
        game.push_unchecked(m);
    }
    let mut state = BoardState::from_history(game);
    state.chess960 = chess960;
    Ok(Board::wrap(state))
}
