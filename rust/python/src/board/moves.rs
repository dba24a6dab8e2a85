//! Moves on the board ([`Moves`]): what a move is here (legal, capture, castling, zeroing,
//! check), `push` and `pop` (called by `rules/hot_methods.rs`), `find_move`, and the move lists
//! behind `legal_moves` and `pseudo_legal_moves` (`rules/legal.rs`).

use super::legal_game::LegalGame;
use super::setup_mode::SetupGame;
use crate::errors::IllegalMoveError;
use crate::rules::moves::{self, Move, interned, key_of, uci_of};
use crate::rules::resolve::{castling_alias, is_castling, is_en_passant};
use crate::rules::setup::setup_move;
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use shatranj_chess::{Bitboard, Role, Square, san};

/// Moves on the board: each representation reads a Python move key in its own position.
pub(crate) trait Moves {
    /// Does the move follow the pieces' movement rules (own king safety aside)?
    fn is_pseudo_legal(&self, r#move: &Bound<'_, Move>) -> PyResult<bool>;
    fn is_legal(&mut self, r#move: &Bound<'_, Move>) -> PyResult<bool>;
    fn is_capture(&self, r#move: &Bound<'_, Move>) -> PyResult<bool>;
    fn is_en_passant(&self, r#move: &Bound<'_, Move>) -> PyResult<bool>;
    fn is_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool>;
    fn is_kingside_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool>;
    fn is_queenside_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool>;
    fn is_zeroing(&self, r#move: &Bound<'_, Move>) -> PyResult<bool>;
    /// Does the move give check? Illegal moves give no check on the hot path.
    fn gives_check(&mut self, r#move: &Bound<'_, Move>) -> PyResult<bool>;
    /// Plays a legal move or the null move (`IllegalMoveError` otherwise).
    fn push(&mut self, r#move: &Bound<'_, Move>) -> PyResult<()>;
    /// Takes back the last move and returns it.
    fn pop<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, Move>>;
    fn find_move<'py>(
        &mut self,
        py: Python<'py>,
        from_square: Square,
        to_square: Square,
        promotion: Option<Role>,
    ) -> PyResult<Bound<'py, Move>>;
    /// The legal moves in python-chess's order.
    fn legal_move_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>>;
    fn count_legal(&self) -> PyResult<usize>;
    /// The SAN of every legal move, in python-chess's order.
    fn sans(&mut self, py: Python<'_>) -> PyResult<Vec<String>>;
    fn pseudo_legal_list<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>>;
    fn contains_legal(&mut self, m: &Bound<'_, Move>) -> PyResult<bool>;
}

impl Moves for LegalGame {
    fn is_pseudo_legal(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        let pos = self.position();
        let key = r#move.get().key;
        let list = pos.pseudo_legal_moves();
        if self.chess960 {
            return Ok(
                crate::rules::resolve::resolve_960(pos, key).is_some_and(|m| list.contains(&m))
            );
        }
        Ok(moves::find_key(&list, key)
            .or_else(|| castling_alias(pos, key).and_then(|alias| moves::find_key(&list, alias)))
            .is_some())
    }

    fn is_legal(&mut self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(self.find_legal(r#move.get().key).is_some())
    }

    fn is_capture(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        let pos = self.position();
        Ok(self
            .read_key(r#move.get().key)
            .is_some_and(|m| pos.is_capture(m)))
    }

    fn is_en_passant(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(is_en_passant(self.position(), r#move.get().key))
    }

    fn is_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(is_castling(self.position(), r#move.get().key))
    }

    fn is_kingside_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        let key = r#move.get().key;
        Ok(is_castling(self.position(), key)
            && moves::to_square(key).file() > moves::from_square(key).file())
    }

    fn is_queenside_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        let key = r#move.get().key;
        Ok(is_castling(self.position(), key)
            && moves::to_square(key).file() < moves::from_square(key).file())
    }

    fn is_zeroing(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        let pos = self.position();
        let key = r#move.get().key;
        // python-chess: any pawn on either square, or a capture.
        let touched = Bitboard::from_square(moves::from_square(key)).with(moves::to_square(key));
        Ok((touched & pos.board().pawns()).any()
            || self.read_key(key).is_some_and(|m| pos.is_capture(m)))
    }

    fn gives_check(&mut self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(match self.find_legal(r#move.get().key) {
            Some(m) => self.position().gives_check(m),
            None => false,
        })
    }

    #[inline]
    fn push(&mut self, r#move: &Bound<'_, Move>) -> PyResult<()> {
        let key = r#move.get().key;
        if key == moves::NULL_KEY {
            return self.push_null();
        }
        match self.find_legal(key) {
            Some(m) => {
                self.push_legal(m);
                Ok(())
            }
            None => Err(IllegalMoveError::new_err(format!(
                "illegal move {} in {}",
                uci_of(key),
                self.position().fen()
            ))),
        }
    }

    #[inline]
    fn pop<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, Move>> {
        match self.game.pop() {
            // The position is now the one the move was played in.
            Some(m) => interned(py, self.key_in(self.position(), m)),
            None => Err(PyIndexError::new_err("pop from empty move stack")),
        }
    }

    fn find_move<'py>(
        &mut self,
        py: Python<'py>,
        from: Square,
        to: Square,
        promotion: Option<Role>,
    ) -> PyResult<Bound<'py, Move>> {
        let mut promotion = promotion;
        let b = self.position().board();
        if promotion.is_none()
            && b.pawns().contains(from)
            && (to.rank() == shatranj_chess::Rank::First
                || to.rank() == shatranj_chess::Rank::Eighth)
        {
            promotion = Some(Role::Queen);
        }
        let key = moves::make_key(from, to, promotion);
        let m = self.find_legal(key).ok_or_else(|| {
            IllegalMoveError::new_err(format!(
                "no matching legal move for {} in {}",
                uci_of(key),
                self.position().fen()
            ))
        })?;
        interned(py, self.key_in(self.position(), m))
    }

    fn legal_move_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        // Generated afresh even when `push`'s cache holds them: the cache keeps the rules
        // crate's order, and generating in python-chess's order costs less than reordering.
        moves::legal_list_python_order(py, self.position(), self.chess960)
    }

    fn count_legal(&self) -> PyResult<usize> {
        Ok(match self.cached_legal() {
            Some(list) => list.len(),
            None => self.position().count_legal_moves(),
        })
    }

    fn sans(&mut self, _py: Python<'_>) -> PyResult<Vec<String>> {
        let pos = *self.position();
        let legal = pos.legal_moves_python_order();
        Ok(legal
            .iter()
            .map(|&m| san::to_san_among(&pos, m, &legal))
            .collect())
    }

    fn pseudo_legal_list<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let pos = self.position();
        moves::list_in(py, pos, &pos.pseudo_legal_moves(), self.chess960)
    }

    fn contains_legal(&mut self, m: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(self.find_legal(m.get().key).is_some())
    }
}

/// Setup mode asks the rules crate's `Setup` (through its legal-move index in `PySetup`,
/// `rules/setup.rs`).
impl Moves for SetupGame {
    fn is_pseudo_legal(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        let key = r#move.get().key;
        Ok(key != moves::NULL_KEY && self.setup().is_pseudo_legal(setup_move(key)?))
    }

    fn is_legal(&mut self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        self.now().has_legal(r#move)
    }

    fn is_capture(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(self.setup().is_capture(setup_move(r#move.get().key)?))
    }

    fn is_en_passant(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(self.setup().is_en_passant(setup_move(r#move.get().key)?))
    }

    fn is_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(self.setup().is_castling(setup_move(r#move.get().key)?))
    }

    fn is_kingside_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(self
            .setup()
            .is_kingside_castling(setup_move(r#move.get().key)?))
    }

    fn is_queenside_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(self
            .setup()
            .is_queenside_castling(setup_move(r#move.get().key)?))
    }

    fn is_zeroing(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(self.setup().is_zeroing(setup_move(r#move.get().key)?))
    }

    fn gives_check(&mut self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        Ok(self.now().after_key(r#move.get().key)?.0.is_check())
    }

    #[inline]
    fn push(&mut self, r#move: &Bound<'_, Move>) -> PyResult<()> {
        self.play(r#move.get().key)
    }

    #[inline]
    fn pop<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, Move>> {
        interned(py, self.take_back()?)
    }

    fn find_move<'py>(
        &mut self,
        py: Python<'py>,
        from: Square,
        to: Square,
        promotion: Option<Role>,
    ) -> PyResult<Bound<'py, Move>> {
        let m = self.setup().find_move(from, to, promotion).map_err(|e| {
            IllegalMoveError::new_err(format!("no matching legal move for {} in {}", e.mv, e.fen))
        })?;
        interned(py, key_of(m))
    }

    fn legal_move_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        moves::list_of(py, self.now().legal())
    }

    fn count_legal(&self) -> PyResult<usize> {
        Ok(self.legal_count())
    }

    fn sans(&mut self, py: Python<'_>) -> PyResult<Vec<String>> {
        let now = self.now();
        moves::list_of(py, now.legal())?
            .iter()
            .map(|m| now.san(m.cast::<Move>()?))
            .collect()
    }

    fn pseudo_legal_list<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        moves::list_of(py, &self.setup().pseudo_legal_moves())
    }

    fn contains_legal(&mut self, m: &Bound<'_, Move>) -> PyResult<bool> {
        self.now().has_legal(m)
    }
}
