//! Moves on the board: what a move is here (legal, capture, castling, zeroing, check),
//! `push` and `pop` (called by `hot_methods.rs`), `find_move`, and the move lists behind
//! `legal_moves` and `pseudo_legal_moves` (`legal.rs`).

use super::BoardState;
use crate::args;
use crate::errors::IllegalMoveError;
use crate::moves::{self, Move, interned, uci_of};
use crate::resolve::{castling_alias, is_castling, is_en_passant};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use shatranj_chess::{Bitboard, Role, san};

impl BoardState {
    pub(crate) fn is_pseudo_legal(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Ok(r#move.get().key != moves::NULL_KEY && g.now().is_pseudo_legal(r#move)?);
        }
        Ok({
            let pos = self.position();
            let key = r#move.get().key;
            let list = pos.pseudo_legal_moves();
            if self.chess960 {
                return Ok(crate::resolve::resolve_960(pos, key).is_some_and(|m| list.contains(&m)));
            }
            moves::find_key(&list, key)
                .or_else(|| {
                    castling_alias(pos, key).and_then(|alias| moves::find_key(&list, alias))
                })
                .is_some()
        })
    }

    pub(crate) fn is_legal(&mut self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return g.now().has_legal(r#move);
        }
        Ok(self.find_legal(r#move.get().key).is_some())
    }

    pub(crate) fn is_capture(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return g.now().is_capture(r#move);
        }
        Ok({
            let pos = self.position();
            self.read_key(r#move.get().key)
                .is_some_and(|m| pos.is_capture(m))
        })
    }

    pub(crate) fn is_en_passant(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return g.now().is_en_passant(r#move);
        }
        Ok(is_en_passant(self.position(), r#move.get().key))
    }

    pub(crate) fn is_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return g.now().is_castling(r#move);
        }
        Ok(is_castling(self.position(), r#move.get().key))
    }

    pub(crate) fn is_kingside_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return g.now().is_kingside_castling(r#move);
        }
        Ok({
            let key = r#move.get().key;
            is_castling(self.position(), key)
                && moves::to_square(key).file() > moves::from_square(key).file()
        })
    }

    pub(crate) fn is_queenside_castling(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return g.now().is_queenside_castling(r#move);
        }
        Ok({
            let key = r#move.get().key;
            is_castling(self.position(), key)
                && moves::to_square(key).file() < moves::from_square(key).file()
        })
    }

    pub(crate) fn is_zeroing(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return g.now().is_zeroing(r#move);
        }
        Ok({
            let pos = self.position();
            let key = r#move.get().key;
            // python-chess: any pawn on either square, or a capture.
            let touched =
                Bitboard::from_square(moves::from_square(key)).with(moves::to_square(key));
            (touched & pos.board().pawns()).any()
                || self.read_key(key).is_some_and(|m| pos.is_capture(m))
        })
    }

    pub(crate) fn gives_check(&mut self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Ok(g.now().after_key(r#move.get().key)?.0.is_check());
        }
        Ok(match self.find_legal(r#move.get().key) {
            Some(m) => self.position().gives_check(m),
            None => false,
        })
    }

    pub(crate) fn push(&mut self, r#move: &Bound<'_, Move>) -> PyResult<()> {
        if let Some(g) = &mut self.setup {
            return g.push(r#move.get().key);
        }
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

    pub(crate) fn pop<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, Move>> {
        if let Some(g) = &mut self.setup {
            return interned(py, g.pop()?);
        }
        match self.game.pop() {
            // The position is now the one the move was played in.
            Some(m) => interned(py, self.key_in(self.position(), m)),
            None => Err(PyIndexError::new_err("pop from empty move stack")),
        }
    }

    pub(crate) fn find_move<'py>(
        &mut self,
        py: Python<'py>,
        from_square: i64,
        to_square: i64,
        promotion: Option<i64>,
    ) -> PyResult<Bound<'py, Move>> {
        if let Some(g) = &self.setup {
            return g.now().find_move(py, from_square, to_square, promotion);
        }
        let from = args::square(from_square)?;
        let to = args::square(to_square)?;
        let mut promotion = promotion.map(args::role).transpose()?;
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
}

impl BoardState {
    pub fn legal_move_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if let Some(g) = &self.setup {
            return g.now().legal_moves(py);
        }
        // Generated afresh even when `push`'s cache holds them: the cache keeps the rules
        // crate's order, and generating in python-chess's order costs less than reordering.
        moves::legal_list_python_order(py, self.position(), self.chess960)
    }

    pub fn count_legal(&self, py: Python<'_>) -> PyResult<usize> {
        let _ = py;
        if let Some(g) = &self.setup {
            return Ok(g.count_legal());
        }
        Ok(match self.cached_legal() {
            Some(list) => list.len(),
            None => self.position().count_legal_moves(),
        })
    }

    pub fn sans(&mut self, py: Python<'_>) -> PyResult<Vec<String>> {
        if let Some(g) = &self.setup {
            let legal = g.now().legal_moves(py)?;
            return legal
                .iter()
                .map(|m| g.now().san(m.cast::<Move>()?))
                .collect();
        }
        let pos = *self.position();
        let legal = pos.legal_moves_python_order();
        Ok(legal
            .iter()
            .map(|&m| san::to_san_among(&pos, m, &legal))
            .collect())
    }

    pub fn pseudo_legal_list<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if let Some(g) = &self.setup {
            return g.now().pseudo_legal_moves(py);
        }
        let pos = self.position();
        moves::list_in(py, pos, &pos.pseudo_legal_moves(), self.chess960)
    }

    pub fn contains_legal(&mut self, py: Python<'_>, m: &Bound<'_, Move>) -> PyResult<bool> {
        let _ = py;
        if let Some(g) = &self.setup {
            return g.now().has_legal(m);
        }
        Ok(self.find_legal(m.get().key).is_some())
    }
}
