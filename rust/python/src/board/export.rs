//! The board in other forms ([`Export`]): the Polyglot key, numpy planes and features,
//! pickling (`__reduce__`, `__setstate__`: the start FEN and the moves in UCI) and
//! python-chess's `chess.Board` both ways.

use super::legal_game::LegalGame;
use super::position::Placement;
use super::setup_mode::SetupGame;
use super::{Board, BoardState, on_rep};
use crate::errors::{fen_error, uci_error};
use crate::ml::planes;
use crate::py_modules;
use crate::rules::moves::uci_of;
use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyBytes};
use shatranj_chess::fen::{self, EnPassantMode};
use shatranj_chess::{History, Position, uci};

/// The board in other forms. The defaults are for a board without a legal standard
/// position (setup mode), which has no Polyglot key, planes or python-chess game.
pub(crate) trait Export: Placement {
    /// `Board.__reduce__`: what rebuilds this board (`slf`) when unpickled.
    fn reduce<'py>(&self, slf: &Bound<'py, Board>) -> PyResult<Bound<'py, PyAny>>;

    /// The Polyglot key of the position (see `shatranj.polyglot.zobrist_hash`).
    fn zobrist_hash(&self) -> PyResult<u64> {
        Python::attach(|py| Err(self.not_offered(py, "zobrist_hash")))
    }

    fn to_planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Err(self.not_offered(py, "to_planes"))
    }

    /// `to_planes()`'s 768 bytes as `bytes` (`Board.to_planes_bytes`, `rules/hot_methods.rs`).
    fn to_planes_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Err(self.not_offered(py, "to_planes_bytes"))
    }

    fn features<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Err(self.not_offered(py, "features"))
    }

    fn to_chess<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Err(self.not_offered(py, "to_chess"))
    }

    /// The position `__setstate__` replays the pickled moves from: the game's start. A setup
    /// board pickles as its setup alone (see `reduce`), so it never gets moves to replay;
    /// given some, it replays them from the standard start, as a new `Board()` would.
    fn pickle_start(&self) -> Position {
        Position::new()
    }
}

impl Export for LegalGame {
    /// `(Board, (start FEN,), moves in UCI)`.
    fn reduce<'py>(&self, slf: &Bound<'py, Board>) -> PyResult<Bound<'py, PyAny>> {
        let start = fen::to_fen_with(self.game.start(), EnPassantMode::Always);
        let moves: Vec<String> = self
            .game
            .positions()
            .zip(self.game.moves())
            .map(|(pos, &m)| uci_of(self.key_in(pos, m)))
            .collect();
        if self.chess960 {
            // `Board(fen, chess960=True)` through a function: the class takes the flag by
            // keyword.
            let new = py_modules::pickle_board_from_fen(slf.py())?;
            return (new, (start, true), moves.join(" "))
                .into_pyobject(slf.py())
                .map(Bound::into_any);
        }
        (slf.get_type(), (start,), moves.join(" "))
            .into_pyobject(slf.py())
            .map(Bound::into_any)
    }

    fn zobrist_hash(&self) -> PyResult<u64> {
        Ok(self.position().key())
    }

    fn to_planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        planes::planes_array(py, self.position())
    }

    fn to_planes_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        planes::planes_bytes(py, self.position())
    }

    fn features<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        planes::features_array(py, std::slice::from_ref(self.position()))
    }

    fn to_chess<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
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

    fn pickle_start(&self) -> Position {
        *self.game.start()
    }
}

impl Export for SetupGame {
    /// `Board(fen, chess960=...)` of the current setup (the stack is not kept).
    fn reduce<'py>(&self, slf: &Bound<'py, Board>) -> PyResult<Bound<'py, PyAny>> {
        let fen = self.now().fen(false, "fen", false)?;
        let new = py_modules::pickle_board_from_fen(slf.py())?;
        (new, (fen, self.setup().chess960))
            .into_pyobject(slf.py())
            .map(Bound::into_any)
    }
}

impl BoardState {
    /// `Board.__setstate__`: the moves of a pickle (UCI, space-separated) replayed from the
    /// start (see [`Export::pickle_start`]); the board keeps its `chess960` flag.
    pub(super) fn __setstate__(&mut self, state: &str) -> PyResult<()> {
        let (start, chess960) = on_rep!(&*self, r => (r.pickle_start(), r.chess960()?));
        let mut game = History::new(start);
        for text in state.split_ascii_whitespace() {
            let m = uci::parse_uci(game.position(), text).map_err(uci_error)?;
            game.push_unchecked(m);
        }
        *self = BoardState::Legal(LegalGame::new(game, chess960));
        Ok(())
    }
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
    Ok(Board::wrap(BoardState::Legal(LegalGame::new(
        game, chess960,
    ))))
}
