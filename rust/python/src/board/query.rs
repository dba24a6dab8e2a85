//! Questions about the position and the game ([`Query`]): attacks, pins and checks, mate and
//! stalemate, material and whether a side can still mate, repetitions, the clocks' draw
//! rules and the outcome.

use super::legal_game::LegalGame;
use super::position::Placement;
use super::setup_mode::SetupGame;
use crate::args::square_set;
use crate::rules::outcome::py_outcome;
use pyo3::prelude::*;
use shatranj_chess::{Bitboard, Color, Outcome, Square, Termination};

/// Questions about the position and the game. The defaults are the answers of a board
/// without a position history (no repetition to claim) or without a legal position (no
/// dead-position analysis): setup mode's.
pub(crate) trait Query: Placement {
    fn attackers_mask(&self, color: Color, square: Square) -> PyResult<u64>;
    fn is_pinned(&self, color: Color, square: Square) -> PyResult<bool>;
    fn pin<'py>(
        &self,
        py: Python<'py>,
        color: Color,
        square: Square,
    ) -> PyResult<Bound<'py, PyAny>>;
    fn checkers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>>;
    fn is_check(&self) -> PyResult<bool>;
    fn is_checkmate(&self) -> PyResult<bool>;
    fn is_stalemate(&self) -> PyResult<bool>;
    fn is_insufficient_material(&self) -> PyResult<bool>;
    fn has_insufficient_material(&self, color: Color) -> PyResult<bool>;
    fn has_legal_en_passant(&self) -> PyResult<bool>;
    fn can_claim_fifty_moves(&self) -> PyResult<bool>;
    fn is_fifty_moves(&self) -> PyResult<bool>;
    fn is_seventyfive_moves(&self) -> PyResult<bool>;

    /// The game's outcome, python-chess's way (`claim_draw`: the draws a player may claim
    /// count too).
    fn game_outcome(&self, claim_draw: bool) -> Option<Outcome>;

    fn attackers<'py>(
        &self,
        py: Python<'py>,
        color: Color,
        square: Square,
    ) -> PyResult<Bound<'py, PyAny>> {
        square_set(py, Bitboard(self.attackers_mask(color, square)?))
    }

    fn is_attacked_by(&self, color: Color, square: Square) -> PyResult<bool> {
        Ok(self.attackers_mask(color, square)? != 0)
    }

    fn can_checkmate(&self, color: Color) -> PyResult<bool> {
        let _ = color;
        Python::attach(|py| Err(self.not_offered(py, "can_checkmate")))
    }

    fn is_dead_position(&self) -> PyResult<bool> {
        Python::attach(|py| Err(self.not_offered(py, "is_dead_position")))
    }

    fn winnability<'py>(
        &self,
        py: Python<'py>,
        color: Color,
        full: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = (color, full);
        Err(self.not_offered(py, "winnability"))
    }

    /// Without a position history, every position has occurred once.
    fn is_repetition(&self, count: i64) -> PyResult<bool> {
        Ok(count <= 1)
    }

    fn can_claim_threefold_repetition(&self) -> PyResult<bool> {
        Ok(false)
    }

    fn is_fivefold_repetition(&self) -> PyResult<bool> {
        Ok(false)
    }

    /// Without repetitions to claim, the fifty-move rule is the only claim.
    fn can_claim_draw(&self) -> PyResult<bool> {
        self.can_claim_fifty_moves()
    }

    fn outcome<'py>(
        &self,
        py: Python<'py>,
        claim_draw: bool,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.game_outcome(claim_draw)
            .map(|o| py_outcome(py, o))
            .transpose()
    }

    fn is_game_over(&self, claim_draw: bool) -> PyResult<bool> {
        Ok(self.game_outcome(claim_draw).is_some())
    }

    fn result(&self, claim_draw: bool) -> PyResult<String> {
        Ok(self
            .game_outcome(claim_draw)
            .map_or("*", |o| o.result())
            .to_owned())
    }
}

impl Query for LegalGame {
    fn attackers_mask(&self, color: Color, square: Square) -> PyResult<u64> {
        Ok(self.position().attackers(color, square).0)
    }

    fn is_attacked_by(&self, color: Color, square: Square) -> PyResult<bool> {
        Ok(self.position().is_attacked_by(color, square))
    }

    fn is_pinned(&self, color: Color, square: Square) -> PyResult<bool> {
        Ok(self.position().is_pinned(color, square))
    }

    fn pin<'py>(
        &self,
        py: Python<'py>,
        color: Color,
        square: Square,
    ) -> PyResult<Bound<'py, PyAny>> {
        square_set(py, self.position().pin_mask(color, square))
    }

    fn checkers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        square_set(py, self.position().checkers())
    }

    fn is_check(&self) -> PyResult<bool> {
        Ok(self.position().is_check())
    }

    fn is_checkmate(&self) -> PyResult<bool> {
        Ok(self.position().is_checkmate())
    }

    fn is_stalemate(&self) -> PyResult<bool> {
        Ok(self.position().is_stalemate())
    }

    fn is_insufficient_material(&self) -> PyResult<bool> {
        Ok(self.position().is_insufficient_material())
    }

    fn has_insufficient_material(&self, color: Color) -> PyResult<bool> {
        Ok(self.position().has_insufficient_material(color))
    }

    fn can_checkmate(&self, color: Color) -> PyResult<bool> {
        Ok(self.position().can_checkmate(color))
    }

    fn is_dead_position(&self) -> PyResult<bool> {
        Ok(self.position().is_dead_position())
    }

    fn winnability<'py>(
        &self,
        py: Python<'py>,
        color: Color,
        full: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let pos = *self.position();
        let answer = if full {
            py.detach(|| pos.winnability_full(color))
                .map_err(|e| crate::errors::SolverError::new_err(e.to_string()))?
        } else {
            pos.winnability(color)
        };
        crate::rules::winnability::py_winnability(py, &answer)
    }

    fn has_legal_en_passant(&self) -> PyResult<bool> {
        Ok(self.position().has_legal_en_passant())
    }

    fn is_repetition(&self, count: i64) -> PyResult<bool> {
        if count <= 1 {
            return Ok(true);
        }
        Ok(self
            .game
            .is_repetition(usize::try_from(count).unwrap_or(usize::MAX)))
    }

    fn can_claim_threefold_repetition(&self) -> PyResult<bool> {
        Ok(self.game.can_claim_threefold_repetition())
    }

    fn can_claim_fifty_moves(&self) -> PyResult<bool> {
        Ok(self.game.can_claim_fifty_moves())
    }

    fn can_claim_draw(&self) -> PyResult<bool> {
        Ok(self.game.can_claim_draw())
    }

    fn is_fifty_moves(&self) -> PyResult<bool> {
        Ok(self.game.is_fifty_moves())
    }

    fn is_fivefold_repetition(&self) -> PyResult<bool> {
        Ok(self.game.is_fivefold_repetition())
    }

    fn is_seventyfive_moves(&self) -> PyResult<bool> {
        Ok(self.game.is_seventyfive_moves())
    }

    fn game_outcome(&self, claim_draw: bool) -> Option<Outcome> {
        // The legal moves of this ply, when a listing or a push has cached them, answer
        // whether a move exists without generating them again.
        match self.cached_legal() {
            Some(moves) => self.game.outcome_knowing(claim_draw, !moves.is_empty()),
            None => self.game.outcome(claim_draw),
        }
    }
}

impl Query for SetupGame {
    fn attackers_mask(&self, color: Color, square: Square) -> PyResult<u64> {
        let setup = self.setup();
        Ok(setup.attackers(color, square, setup.board.occupied()).0)
    }

    fn is_pinned(&self, color: Color, square: Square) -> PyResult<bool> {
        Ok(self.setup().pin_mask(color, square).0 != u64::MAX)
    }

    fn pin<'py>(
        &self,
        py: Python<'py>,
        color: Color,
        square: Square,
    ) -> PyResult<Bound<'py, PyAny>> {
        square_set(py, self.setup().pin_mask(color, square))
    }

    fn checkers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        square_set(py, self.setup().checkers())
    }

    fn is_check(&self) -> PyResult<bool> {
        Ok(self.setup().is_check())
    }

    fn is_checkmate(&self) -> PyResult<bool> {
        Ok(self.mated())
    }

    fn is_stalemate(&self) -> PyResult<bool> {
        Ok(!self.setup().is_check() && self.legal_count() == 0)
    }

    fn is_insufficient_material(&self) -> PyResult<bool> {
        Ok(self.both_insufficient())
    }

    fn has_insufficient_material(&self, color: Color) -> PyResult<bool> {
        Ok(self.insufficient(color))
    }

    fn has_legal_en_passant(&self) -> PyResult<bool> {
        Ok(self.setup().has_legal_en_passant())
    }

    fn can_claim_fifty_moves(&self) -> PyResult<bool> {
        Ok(self.fifty_moves_claimable())
    }

    fn is_fifty_moves(&self) -> PyResult<bool> {
        Ok(self.fifty_moves())
    }

    fn is_seventyfive_moves(&self) -> PyResult<bool> {
        Ok(self.seventyfive_moves())
    }

    /// python-chess's outcome of a board with no position history to repeat: checkmate,
    /// material, stalemate, seventy-five moves, and fifty on a claim.
    fn game_outcome(&self, claim_draw: bool) -> Option<Outcome> {
        let end = |termination, winner| {
            Some(Outcome {
                termination,
                winner,
            })
        };
        if self.mated() {
            return end(Termination::Checkmate, Some(self.setup().turn.other()));
        }
        if self.both_insufficient() {
            return end(Termination::InsufficientMaterial, None);
        }
        if self.legal_count() == 0 {
            return end(Termination::Stalemate, None);
        }
        if self.seventyfive_moves() {
            return end(Termination::SeventyfiveMoves, None);
        }
        if claim_draw && self.fifty_moves_claimable() {
            return end(Termination::FiftyMoves, None);
        }
        None
    }
}
