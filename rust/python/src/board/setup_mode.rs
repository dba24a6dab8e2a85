//! `SetupGame`, setup mode's representation (see the `board` module docs): a board holding
//! what the rules crate's `Position` refuses (no king, nine queens, pawns on a back rank, the
//! side not to move in check) holds the rules crate's `Setup` and its move stack instead.
//! Here are its own operations (the stack, the rules python-chess applies to a board without
//! a position history), which its trait implementations in the other files build on.

use crate::py_modules;
use crate::rules::setup::PySetup;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use shatranj_chess::{Bitboard, Color, Setup, Status};

/// A board in setup mode: the setups of the game, each kept with its legal moves once
/// listed (a `PySetup` is the rules crate's `Setup` and a once-filled cell for them; no
/// Python object is made), and the moves between them. `setups[i]` is the setup `moves[i]`
/// was played in and the last one the current setup, so there is always one more setup than
/// moves. A push appends and a pop drops: setups never change or move once made (moving one
/// in and out of a field per push cost a quarter of push+pop).
pub struct SetupGame {
    setups: Vec<PySetup>,
    moves: Vec<u16>,
}

impl Clone for SetupGame {
    fn clone(&self) -> SetupGame {
        SetupGame {
            setups: self.setups.clone(),
            moves: self.moves.clone(),
        }
    }
}

impl SetupGame {
    pub(super) fn new(setup: Setup) -> SetupGame {
        SetupGame {
            setups: vec![PySetup::wrap(setup)],
            moves: Vec::new(),
        }
    }

    /// The current setup, with its legal moves.
    #[inline]
    pub(super) fn now(&self) -> &PySetup {
        // Never empty: `new` makes one and `pop_key` keeps it (see the type's docs).
        &self.setups[self.setups.len() - 1]
    }

    #[inline]
    pub(super) fn setup(&self) -> &Setup {
        &self.now().inner
    }

    /// The moves of the stack, as played.
    pub(super) fn moves(&self) -> &[u16] {
        &self.moves
    }

    /// Forgets the moves (the current setup becomes the root).
    pub(super) fn forget_moves(&mut self) {
        let first = self.setups.len() - 1;
        self.setups.drain(..first);
        self.moves.clear();
    }

    /// The castling rights that can be used: cleaned before the first move; after a move
    /// they are clean already and only lost (python-chess).
    pub(super) fn usable_castling_rights(&self) -> u64 {
        if self.moves.is_empty() {
            self.setup().clean_castling_rights().0
        } else {
            self.setup().castling_rights.0
        }
    }

    /// Whether `color` may castle on the a-side (`a_side`) or the h-side of its king.
    pub(super) fn side_rights(&self, color: Color, a_side: bool) -> bool {
        let Some(king) = self.setup().king(color) else {
            return false;
        };
        let rooks = Bitboard(self.usable_castling_rights()) & backrank(color);
        rooks
            .into_iter()
            .filter(|sq| (sq.index() < king.index()) == a_side)
            .count()
            > 0
    }

    /// Plays the move with this Python key (`IllegalMoveError` if it is not legal).
    #[inline]
    pub(super) fn play(&mut self, key: u16) -> PyResult<()> {
        let m = self.now().move_of_key(key)?;
        // The setup copied once, straight into its place, and the move played there: a
        // setup made on the stack and moved in cost a third of push (perf: stalls on its
        // copies).
        self.setups.push(PySetup::wrap(*self.setup()));
        let last = self.setups.len() - 1;
        self.setups[last].edit().play_unchecked(m);
        self.moves.push(crate::rules::setup::played_key(key, m));
        Ok(())
    }

    /// Takes back the last move and returns its key.
    #[inline]
    pub(super) fn take_back(&mut self) -> PyResult<u16> {
        let m = self
            .moves
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from empty move stack"))?;
        self.setups.pop();
        Ok(m)
    }

    pub(super) fn last_key(&self) -> PyResult<u16> {
        self.moves
            .last()
            .copied()
            .ok_or_else(|| PyIndexError::new_err("peek into empty move stack"))
    }

    /// The board after `stack` as `copy(stack=...)` reads it: all, none or the last moves.
    pub(super) fn keeping(&self, keep: usize) -> SetupGame {
        let keep = keep.min(self.moves.len());
        SetupGame {
            setups: self.setups[self.setups.len() - 1 - keep..].to_vec(),
            moves: self.moves[self.moves.len() - keep..].to_vec(),
        }
    }

    /// The setup before the first move of the stack.
    pub(super) fn first(&self) -> SetupGame {
        SetupGame::new(self.setups[0].inner)
    }

    pub(super) fn legal_count(&self) -> usize {
        self.now().legal().len()
    }

    pub(super) fn mated(&self) -> bool {
        self.setup().is_check() && self.legal_count() == 0
    }

    pub(super) fn insufficient(&self, color: Color) -> bool {
        self.setup().board.has_insufficient_material(color)
    }

    pub(super) fn both_insufficient(&self) -> bool {
        Color::ALL.into_iter().all(|c| self.insufficient(c))
    }

    pub(super) fn fifty_moves(&self) -> bool {
        self.setup().halfmove_clock >= 100 && self.legal_count() > 0
    }

    /// python-chess's claim: fifty moves now, or after a legal move that does not zero the
    /// clock (with a clock at 99).
    pub(super) fn fifty_moves_claimable(&self) -> bool {
        if self.fifty_moves() {
            return true;
        }
        let setup = self.setup();
        setup.halfmove_clock >= 99
            && self.now().legal().iter().any(|&m| {
                let mut after = *setup;
                !setup.is_zeroing(m) && {
                    after.play_unchecked(m);
                    after.halfmove_clock >= 100 && after.has_legal_moves()
                }
            })
    }

    pub(super) fn seventyfive_moves(&self) -> bool {
        self.setup().halfmove_clock >= 150 && self.legal_count() > 0
    }
}

/// One colour's first rank.
pub(super) fn backrank(color: Color) -> Bitboard {
    Bitboard::from_rank(color.back_rank())
}

/// python-chess's `Status` flags (`shatranj._bitboards.Status`, an `enum.IntFlag`).
pub(super) fn py_status(py: Python<'_>, status: Status) -> PyResult<Bound<'_, PyAny>> {
    py_modules::status_class(py)?.call1((status.bits(),))
}

/// The error for what a board without a legal standard position does not offer (the
/// engine's and the network's methods): `setup` is its position as a setup.
pub(super) fn not_offered(py: Python<'_>, setup: &Setup, name: &str) -> PyErr {
    let status = py_status(py, setup.status())
        .and_then(|s| s.repr().map(|r| r.to_string()))
        .unwrap_or_default();
    let chess960 = if setup.chess960 { ", Chess960" } else { "" };
    PyValueError::new_err(format!(
        "Board.{name} needs a legal standard chess position; this board (status {status}{chess960}) is played in setup mode, which does not offer it"
    ))
}
