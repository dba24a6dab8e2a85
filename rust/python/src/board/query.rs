//! Questions about the position and the game: attacks, pins and checks, mate and stalemate,
//! material and whether a side can still mate, repetitions, the clocks' draw rules and the
//! outcome.

use super::BoardState;
use crate::args::{self, square_set};
use crate::outcome::py_outcome;
use pyo3::prelude::*;
use shatranj_chess::Bitboard;

impl BoardState {
    pub(crate) fn attackers_mask(&self, color: &Bound<'_, PyAny>, square: i64) -> PyResult<u64> {
        if let Some(g) = &self.setup {
            return g
                .now()
                .attackers_mask(args::color(color)?.is_white(), square, None);
        }
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
        if let Some(g) = &self.setup {
            return g.attackers(py, args::color(color)?, square);
        }
        square_set(py, Bitboard(self.attackers_mask(color, square)?))
    }

    pub(crate) fn is_attacked_by(&self, color: &Bound<'_, PyAny>, square: i64) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Ok(g
                .now()
                .attackers_mask(args::color(color)?.is_white(), square, None)?
                != 0);
        }
        Ok(self
            .position()
            .is_attacked_by(args::color(color)?, args::square(square)?))
    }

    pub(crate) fn is_pinned(&self, color: &Bound<'_, PyAny>, square: i64) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Ok(g.now().pin_mask(args::color(color)?.is_white(), square)? != u64::MAX);
        }
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
        if let Some(g) = &self.setup {
            return square_set(
                py,
                Bitboard(g.now().pin_mask(args::color(color)?.is_white(), square)?),
            );
        }
        let mask = self
            .position()
            .pin_mask(args::color(color)?, args::square(square)?);
        square_set(py, mask)
    }

    pub(crate) fn checkers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(g) = &self.setup {
            return square_set(py, g.setup().checkers());
        }
        square_set(py, self.position().checkers())
    }

    pub(crate) fn is_check(&self) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Ok(g.setup().is_check());
        }
        Ok(self.position().is_check())
    }

    pub(crate) fn is_checkmate(&self) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Ok(g.is_checkmate());
        }
        Ok(self.position().is_checkmate())
    }

    pub(crate) fn is_stalemate(&self) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Ok(g.is_stalemate());
        }
        Ok(self.position().is_stalemate())
    }

    pub(crate) fn is_insufficient_material(&self) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Ok(g.is_insufficient_material());
        }
        Ok(self.position().is_insufficient_material())
    }

    pub(crate) fn has_insufficient_material(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Ok(g.has_insufficient_material(args::color(color)?));
        }
        Ok(self
            .position()
            .has_insufficient_material(args::color(color)?))
    }

    pub(crate) fn can_checkmate(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Err(g.not_offered(color.py(), "can_checkmate"));
        }
        Ok(self.position().can_checkmate(args::color(color)?))
    }

    pub(crate) fn is_dead_position(&self) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Python::attach(|py| Err(g.not_offered(py, "is_dead_position")));
        }
        Ok(self.position().is_dead_position())
    }

    pub(crate) fn winnability<'py>(
        &self,
        py: Python<'py>,
        color: &Bound<'py, PyAny>,
        full: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Some(g) = &self.setup {
            return Err(g.not_offered(py, "winnability"));
        }
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
        if let Some(g) = &self.setup {
            return Ok(g.setup().has_legal_en_passant());
        }
        Ok(self.position().has_legal_en_passant())
    }

    pub(crate) fn is_repetition(&self, count: i64) -> PyResult<bool> {
        if self.setup.is_some() {
            return Ok(count <= 1);
        }
        if count <= 1 {
            return Ok(true);
        }
        Ok(self
            .game
            .is_repetition(usize::try_from(count).unwrap_or(usize::MAX)))
    }

    pub(crate) fn can_claim_threefold_repetition(&self) -> PyResult<bool> {
        if self.setup.is_some() {
            return Ok(false);
        }
        Ok(self.game.can_claim_threefold_repetition())
    }

    pub(crate) fn can_claim_fifty_moves(&self) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Ok(g.can_claim_fifty_moves());
        }
        Ok(self.game.can_claim_fifty_moves())
    }

    pub(crate) fn can_claim_draw(&self) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Ok(g.can_claim_fifty_moves());
        }
        Ok(self.game.can_claim_draw())
    }

    pub(crate) fn is_fifty_moves(&self) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Ok(g.is_fifty_moves());
        }
        Ok(self.game.is_fifty_moves())
    }

    pub(crate) fn is_fivefold_repetition(&self) -> PyResult<bool> {
        if self.setup.is_some() {
            return Ok(false);
        }
        Ok(self.game.is_fivefold_repetition())
    }

    pub(crate) fn is_seventyfive_moves(&self) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Ok(g.is_seventyfive_moves());
        }
        Ok(self.game.is_seventyfive_moves())
    }

    pub(crate) fn outcome<'py>(
        &self,
        py: Python<'py>,
        claim_draw: bool,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        if let Some(g) = &self.setup {
            return g.outcome(claim_draw).map(|o| py_outcome(py, o)).transpose();
        }
        self.game
            .outcome(claim_draw)
            .map(|o| py_outcome(py, o))
            .transpose()
    }

    pub(crate) fn is_game_over(&self, claim_draw: bool) -> PyResult<bool> {
        if let Some(g) = &self.setup {
            return Ok(g.outcome(claim_draw).is_some());
        }
        Ok(self.game.outcome(claim_draw).is_some())
    }

    pub(crate) fn result(&self, claim_draw: bool) -> PyResult<String> {
        if let Some(g) = &self.setup {
            return Ok(g.outcome(claim_draw).map_or("*", |o| o.result()).to_owned());
        }
        Ok(self
            .game
            .outcome(claim_draw)
            .map_or("*", |o| o.result())
            .to_owned())
    }
}
