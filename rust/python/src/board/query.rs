//! Questions about the position and the game: attacks, pins and checks, mate and stalemate,
//! material and whether a side can still mate, repetitions, the clocks' draw rules and the
//! outcome.

use super::BoardState;
use super::setup_mode::{delegate, delegate_py};
use crate::args::{self, square_set};
use crate::outcome::py_outcome;
use pyo3::prelude::*;
use shatranj_chess::Bitboard;

impl BoardState {
    pub(crate) fn attackers_mask(&self, color: &Bound<'_, PyAny>, square: i64) -> PyResult<u64> {
        delegate!(self, "attackers_mask", (color, square,));
        Ok(self
            .position()
            .attackers(args::color(color)?, args::square(square)?)
            .0)
    }

    pub(crate) fn attackers<'py>(
        &self,
        py: Python<'py>,
        color: &Bound<'py, PyAny>,
        square: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        delegate_py!(self, py, "attackers", (color, square,));
        square_set(py, Bitboard(self.attackers_mask(color, square)?))
    }

    pub(crate) fn is_attacked_by(&self, color: &Bound<'_, PyAny>, square: i64) -> PyResult<bool> {
        delegate!(self, "is_attacked_by", (color, square,));
        Ok(self
            .position()
            .is_attacked_by(args::color(color)?, args::square(square)?))
    }

    pub(crate) fn is_pinned(&self, color: &Bound<'_, PyAny>, square: i64) -> PyResult<bool> {
        delegate!(self, "is_pinned", (color, square,));
        Ok(self
            .position()
            .is_pinned(args::color(color)?, args::square(square)?))
    }

    pub(crate) fn pin<'py>(
        &self,
        py: Python<'py>,
        color: &Bound<'py, PyAny>,
        square: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        delegate_py!(self, py, "pin", (color, square,));
        let mask = self
            .position()
            .pin_mask(args::color(color)?, args::square(square)?);
        square_set(py, mask)
    }

    pub(crate) fn checkers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        delegate_py!(self, py, "checkers", ());
        square_set(py, self.position().checkers())
    }

    pub(crate) fn is_check(&self) -> PyResult<bool> {
        delegate!(self, "is_check", ());
        Ok(self.position().is_check())
    }

    pub(crate) fn is_checkmate(&self) -> PyResult<bool> {
        delegate!(self, "is_checkmate", ());
        Ok(self.position().is_checkmate())
    }

    pub(crate) fn is_stalemate(&self) -> PyResult<bool> {
        delegate!(self, "is_stalemate", ());
        Ok(self.position().is_stalemate())
    }

    pub(crate) fn is_insufficient_material(&self) -> PyResult<bool> {
        delegate!(self, "is_insufficient_material", ());
        Ok(self.position().is_insufficient_material())
    }

    pub(crate) fn has_insufficient_material(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        delegate!(self, "has_insufficient_material", (color,));
        Ok(self
            .position()
            .has_insufficient_material(args::color(color)?))
    }

    pub(crate) fn can_checkmate(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        delegate!(self, "can_checkmate", (color,));
        Ok(self.position().can_checkmate(args::color(color)?))
    }

    pub(crate) fn is_dead_position(&self) -> PyResult<bool> {
        delegate!(self, "is_dead_position", ());
        Ok(self.position().is_dead_position())
    }

    pub(crate) fn winnability<'py>(
        &self,
        py: Python<'py>,
        color: &Bound<'py, PyAny>,
        full: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        delegate_py!(self, py, "winnability", (color, full));
        let color = args::color(color)?;
        let pos = *self.position();
        let answer = if full {
            py.detach(|| pos.winnability_full(color))
                .map_err(|e| crate::errors::SolverError::new_err(e.to_string()))?
        } else {
            pos.winnability(color)
        };
        crate::winnability::py_winnability(py, &answer)
    }

    pub(crate) fn has_legal_en_passant(&self) -> PyResult<bool> {
        delegate!(self, "has_legal_en_passant", ());
        Ok(self.position().has_legal_en_passant())
    }

    pub(crate) fn is_repetition(&self, count: i64) -> PyResult<bool> {
        delegate!(self, "is_repetition", (count,));
        if count <= 1 {
            return Ok(true);
        }
        Ok(self
            .game
            .is_repetition(usize::try_from(count).unwrap_or(usize::MAX)))
    }

    pub(crate) fn can_claim_threefold_repetition(&self) -> PyResult<bool> {
        delegate!(self, "can_claim_threefold_repetition", ());
        Ok(self.game.can_claim_threefold_repetition())
    }

    pub(crate) fn can_claim_fifty_moves(&self) -> PyResult<bool> {
        delegate!(self, "can_claim_fifty_moves", ());
        Ok(self.game.can_claim_fifty_moves())
    }

    pub(crate) fn can_claim_draw(&self) -> PyResult<bool> {
        delegate!(self, "can_claim_draw", ());
        Ok(self.game.can_claim_draw())
    }

    pub(crate) fn is_fifty_moves(&self) -> PyResult<bool> {
        delegate!(self, "is_fifty_moves", ());
        Ok(self.game.is_fifty_moves())
    }

    pub(crate) fn is_fivefold_repetition(&self) -> PyResult<bool> {
        delegate!(self, "is_fivefold_repetition", ());
        Ok(self.game.is_fivefold_repetition())
    }

    pub(crate) fn is_seventyfive_moves(&self) -> PyResult<bool> {
        delegate!(self, "is_seventyfive_moves", ());
        Ok(self.game.is_seventyfive_moves())
    }

    pub(crate) fn outcome<'py>(
        &self,
        py: Python<'py>,
        claim_draw: bool,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        delegate_py!(self, py, "outcome", (claim_draw,));
        self.game
            .outcome(claim_draw)
            .map(|o| py_outcome(py, o))
            .transpose()
    }

    pub(crate) fn is_game_over(&self, claim_draw: bool) -> PyResult<bool> {
        delegate!(self, "is_game_over", (claim_draw,));
        Ok(self.game.outcome(claim_draw).is_some())
    }

    pub(crate) fn result(&self, claim_draw: bool) -> PyResult<String> {
        delegate!(self, "result", (claim_draw,));
        Ok(self
            .game
            .outcome(claim_draw)
            .map_or("*", |o| o.result())
            .to_owned())
    }
}
