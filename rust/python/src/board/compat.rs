//! python-chess `Board` methods that only combine the board's own answers: the XBoard move
//! notation, the `generate_*` family with python-chess's `from_mask`/`to_mask`, attacks,
//! irreversibility, mirroring in place, `reset`, Shredder-FEN, `empty()` and the variant names.
//! They were attached to the class from Python at import (the former `_board_compat.py`);
//! here the class and its stub are the one definition. None is on a hot path: each filters or
//! combines the move lists and bitboards of the other traits ([`Compat`]'s methods are all
//! defaults), so every representation reaches them through those.

use super::fen::Fen;
use super::legal_game::LegalGame;
use super::moves::Moves;
use super::position::Placement;
use super::query::Query;
use super::setup_mode::SetupGame;
use super::stack::Stack;
use super::{Board, on_rep, read, write};
use crate::args;
use crate::rules::moves::{self, Move, uci_of};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList};
use shatranj_chess::{Bitboard, Color, Square, chess960};

/// python-chess's `BB_ALL`, the default of every mask.
const BB_ALL: u64 = u64::MAX;

/// Which moves a `generate_*` method keeps after the masks.
#[derive(Clone, Copy)]
pub(super) enum MoveFilter {
    Any,
    Capture,
    EnPassant,
    Castling,
}

/// A mask argument as python-chess reads it (`int(mask)`, a `SquareSet` too), cut to the
/// board's 64 squares; `None` (the default) is every square.
pub(super) fn mask(value: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    match value {
        None => Ok(BB_ALL),
        Some(value) => {
            let int = value.py().get_type::<PyInt>().call1((value,))?;
            int.bitand(BB_ALL)?.extract()
        }
    }
}

/// python-chess's extras, written once over the other traits: every representation has
/// them as they are.
pub(crate) trait Compat: Placement + Fen + Moves + Query {
    fn xboard(&self, r#move: &Bound<'_, Move>, chess960: Option<bool>) -> PyResult<String> {
        let key = r#move.get().key;
        if key == moves::NULL_KEY {
            return Ok("@@@@".to_owned());
        }
        let chess960 = match chess960 {
            Some(flag) => flag,
            None => self.chess960()?,
        };
        if chess960 && self.is_castling(r#move)? {
            let side = if self.is_queenside_castling(r#move)? {
                "O-O-O"
            } else {
                "O-O"
            };
            return Ok(side.to_owned());
        }
        Ok(uci_of(key))
    }

    /// The squares the piece on `square` attacks (empty for an empty square).
    fn attacks_mask(&self, square: Square) -> PyResult<u64> {
        // The rules crate's one definition of a piece's attacks (a pawn: its two diagonals).
        Ok(self.setup_state().attacks(square).0)
    }

    /// python-chess's definition: a capture or pawn move, a move that loses castling rights,
    /// or one that lets a legal en-passant capture go.
    fn is_irreversible(&self, r#move: &Bound<'_, Move>) -> PyResult<bool> {
        let key = r#move.get().key;
        if key == moves::NULL_KEY {
            return Ok(false);
        }
        if self.is_zeroing(r#move)? {
            return Ok(true);
        }
        let rights = self.castling_rights()?;
        if rights != 0 {
            let from = u8::try_from(key & 63).unwrap_or(0);
            let to = u8::try_from(key >> 6 & 63).unwrap_or(0);
            let touched = (1u64 << from) | (1u64 << to);
            let turn = self.turn()?;
            let king = self.king(if turn { Color::White } else { Color::Black })?;
            let back_rank: u64 = if turn { 0xff } else { 0xff << 56 };
            if king == Some(from) && rights & back_rank != 0 {
                return Ok(true);
            }
            if rights & touched != 0 {
                return Ok(true);
            }
        }
        self.has_legal_en_passant()
    }

    /// The moves of `list` from `from_mask` to `to_mask` that pass `filter`. Castling is
    /// selected by its rook's square, as python-chess selects it (king takes rook inside).
    fn masked<'py>(
        &self,
        list: Bound<'py, PyList>,
        from_mask: u64,
        to_mask: u64,
        filter: MoveFilter,
    ) -> PyResult<Bound<'py, PyList>> {
        let py = list.py();
        let everything = from_mask == BB_ALL && to_mask == BB_ALL;
        if everything && matches!(filter, MoveFilter::Any) {
            return Ok(list);
        }
        let kept = PyList::empty(py);
        for item in list.iter() {
            let m = item.cast::<Move>()?;
            if !everything {
                let key = m.get().key;
                let from = key & 63;
                if from_mask >> from & 1 == 0 {
                    continue;
                }
                let target = if self.is_castling(m)? {
                    self.castling_rook(key)?
                } else {
                    key >> 6 & 63
                };
                if to_mask >> target & 1 == 0 {
                    continue;
                }
            }
            let keep = match filter {
                MoveFilter::Any => true,
                MoveFilter::Capture => self.is_capture(m)?,
                MoveFilter::EnPassant => self.is_en_passant(m)?,
                MoveFilter::Castling => self.is_castling(m)?,
            };
            if keep {
                kept.append(m)?;
            }
        }
        Ok(kept)
    }

    /// The square of the rook a castling move castles with: its destination when written as
    /// king takes rook, else the corner on the king's side of the move.
    fn castling_rook(&self, key: u16) -> PyResult<u16> {
        let (from, to) = (key & 63, key >> 6 & 63);
        let ours = self.occupied_co()?[usize::from(self.turn()?)];
        if (self.rooks()? & ours) >> to & 1 == 1 {
            return Ok(to);
        }
        let rank = from & !7;
        Ok(if to > from { rank + 7 } else { rank })
    }

    fn has_pseudo_legal_en_passant(&mut self, py: Python<'_>) -> PyResult<bool> {
        let list = self.pseudo_legal_list(py)?;
        let ep = self.masked(list, BB_ALL, BB_ALL, MoveFilter::EnPassant)?;
        Ok(!ep.is_empty())
    }

    /// python-chess's `chess960_pos`: the placement decides, then the side to move and
    /// clocks unless ignored; never with an en-passant square. (`ignore_castling` is
    /// accepted and, as before, not consulted.)
    fn chess960_pos(
        &self,
        ignore_turn: bool,
        ignore_castling: bool,
        ignore_counters: bool,
    ) -> PyResult<Option<u32>> {
        let _ = ignore_castling;
        let Some(number) = chess960_number(&self.board_fen(Some(false))?) else {
            return Ok(None);
        };
        if !ignore_turn && !self.turn()? {
            return Ok(None);
        }
        if !ignore_counters && (self.halfmove_clock()? != 0 || self.fullmove_number()? != 1) {
            return Ok(None);
        }
        if self.ep_square()?.is_some() {
            return Ok(None);
        }
        Ok(Some(number))
    }
}

impl Compat for LegalGame {}

impl Compat for SetupGame {}

/// `generate_*`: the legal or pseudo-legal moves after the masks and `filter`, as an
/// iterator.
pub(super) fn generate<'py>(
    slf: &Bound<'py, Board>,
    pseudo_legal: bool,
    from_mask: Option<&Bound<'_, PyAny>>,
    to_mask: Option<&Bound<'_, PyAny>>,
    filter: MoveFilter,
) -> PyResult<Bound<'py, PyAny>> {
    let (from_mask, to_mask) = (mask(from_mask)?, mask(to_mask)?);
    let py = slf.py();
    let kept = on_rep!(&mut *write(slf)?, r => {
        let list = if pseudo_legal {
            r.pseudo_legal_list(py)?
        } else {
            r.legal_move_list(py)?
        };
        r.masked(list, from_mask, to_mask, filter)?
    });
    Ok(kept.try_iter()?.into_any())
}

/// `apply_mirror`: the mirrored board's FEN set on this one (the stack is cleared).
pub(super) fn apply_mirror(slf: &Bound<'_, Board>) -> PyResult<()> {
    let py = slf.py();
    let mirrored = on_rep!(&*read(slf)?, r => r.mirror(py))?;
    let fen = on_rep!(&*read(mirrored.bind(py))?, r => r.fen(false, "legal", None))?;
    write(slf)?.set_fen(&fen)
}

/// `attacks`: [`Compat::attacks_mask`] as a `SquareSet`.
pub(super) fn attacks<'py>(slf: &Bound<'py, Board>, square: i64) -> PyResult<Bound<'py, PyAny>> {
    let square = args::square(square)?;
    let mask = on_rep!(&*read(slf)?, r => r.attacks_mask(square))?;
    args::square_set(slf.py(), Bitboard(mask))
}

/// `transform`: a new board with every piece moved to `f(its square's bitboard)` (the
/// highest bit of the answer; a piece sent off the board is dropped), the side to move and
/// clocks kept, no castling rights or en-passant square.
pub(super) fn transform(slf: &Bound<'_, Board>, f: &Bound<'_, PyAny>) -> PyResult<Py<Board>> {
    let py = slf.py();
    let mut placement: [Option<String>; 64] = std::array::from_fn(|_| None);
    for square in 0..64i64 {
        // No borrow is held while `f` runs: it is any Python callable.
        let Some(sq) = u32::try_from(square).ok().and_then(Square::new) else {
            continue;
        };
        let piece = on_rep!(&*read(slf)?, r => r.piece_at(py, sq))?;
        if let Some(piece) = piece {
            let symbol: String = piece.call_method0("symbol")?.extract()?;
            let target = py
                .get_type::<PyInt>()
                .call1((f.call1((1u64 << square,))?,))?;
            let bits: i64 = target.call_method0("bit_length")?.extract()?;
            if let Some(slot) = usize::try_from(bits - 1)
                .ok()
                .and_then(|i| placement.get_mut(i))
            {
                *slot = Some(symbol);
            }
        }
    }
    let mut rows = Vec::with_capacity(8);
    for rank in (0..8).rev() {
        let (mut row, mut empty) = (String::new(), 0);
        for file in 0..8 {
            match &placement[rank * 8 + file] {
                None => empty += 1,
                Some(symbol) => {
                    if empty > 0 {
                        row += &empty.to_string();
                    }
                    row += symbol;
                    empty = 0;
                }
            }
        }
        if empty > 0 {
            row += &empty.to_string();
        }
        rows.push(row);
    }
    let fen = on_rep!(&*read(slf)?, r => r.fen(false, "legal", None))?;
    let [_, turn, _, _, halfmove, fullmove] = fen.split_whitespace().collect::<Vec<_>>()[..] else {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "a FEN of six fields expected, got {fen:?}"
        )));
    };
    let text = format!("{} {turn} - - {halfmove} {fullmove}", rows.join("/"));
    Py::new(py, Board::new(Some(&text), false)?)
}

/// `apply_transform`: [`transform`]'s board set on this one (the stack is cleared).
pub(super) fn apply_transform(slf: &Bound<'_, Board>, f: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = slf.py();
    let transformed = transform(slf, f)?;
    let fen = on_rep!(&*read(transformed.bind(py))?, r => r.fen(false, "legal", None))?;
    write(slf)?.set_fen(&fen)
}

/// The number of the Chess960 start placement `board_fen` shows (pieces only), or `None`.
fn chess960_number(board_fen: &str) -> Option<u32> {
    let rows: Vec<&str> = board_fen.split('/').collect();
    let [black, "pppppppp", "8", "8", "8", "8", "PPPPPPPP", white] = rows[..] else {
        return None;
    };
    if black != white.to_lowercase() {
        return None;
    }
    (0..960).find(|&n| {
        chess960::back_rank(n)
            .is_ok_and(|rank| rank.iter().map(|r| r.upper_char()).eq(white.chars()))
    })
}
