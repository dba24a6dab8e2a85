//! `Move`: python-chess's move value (origin, destination, promotion), interned.
//!
//! A Python `Move` is identified by its *key*, `from | to << 6 | promotion << 12` (15 bits,
//! promotion 0 for none or a piece type 1..=6). Unlike the rules crate's 16-bit `Move` it
//! does not say whether a move castles or captures en passant: python-chess's `Move` does
//! not either, and `Move(E1, G1)` built by a user must equal the castling move a board
//! lists. The board resolves a key against its position when it needs the kind.
//!
//! A drop (`P@e4`, crazyhouse's, which python-chess's `Move` can hold) sets bit 15, with the
//! dropped piece type in the promotion bits and origin = destination: such a move parses,
//! prints and compares, but no board lists it, so a board refuses to play it.
//!
//! Every move the board hands out comes from a table of interned objects, filled lazily,
//! so iterating legal moves never allocates a Python object; moves built with the
//! constructor are ordinary objects that compare and hash equal to the interned ones.

use crate::args;
use crate::errors::InvalidMoveError;
use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::PyType;
use shatranj_chess::uci::UciMove;
use shatranj_chess::{Role, Square};
use std::ptr::null_mut;
use std::sync::atomic::{AtomicPtr, Ordering};

/// A move in python-chess's sense: squares 0..=63 and an optional promotion piece type.
#[pyclass(module = "shatranj", frozen, freelist = 64)]
pub struct Move {
    pub key: u16,
}

const TABLE_SIZE: usize = 1 << 15;

/// Interned moves by key. An entry, once set, owns one reference forever: moves are
/// immortal for the life of the process, so handing out borrowed pointers is sound.
static INTERNED: [AtomicPtr<ffi::PyObject>; TABLE_SIZE] =
    [const { AtomicPtr::new(null_mut()) }; TABLE_SIZE];

/// The interned `Move` object for `key` (which must be below 2^15).
#[inline]
pub fn interned(py: Python<'_>, key: u16) -> PyResult<Bound<'_, Move>> {
    let slot = &INTERNED[usize::from(key) & (TABLE_SIZE - 1)];
    let ptr = slot.load(Ordering::Acquire);
    if !ptr.is_null() {
        // SAFETY: the table only ever holds owned references to `Move` objects that are
        // never released (see `INTERNED`).
        return Ok(unsafe { Bound::from_borrowed_ptr(py, ptr).cast_into_unchecked() });
    }
    let obj = Bound::new(py, Move { key })?;
    // The GIL serialises writers; a racing second writer (free-threaded builds) only leaks
    // one object.
    let _ = slot.compare_exchange(
        null_mut(),
        obj.clone().into_ptr(),
        Ordering::AcqRel,
        Ordering::Acquire,
    );
    Ok(obj)
}

/// A Python list of the interned `Move`s of `moves`.
pub fn moves_list<'py>(
    py: Python<'py>,
    moves: &[shatranj_chess::Move],
) -> PyResult<Bound<'py, pyo3::types::PyList>> {
    let objects = moves
        .iter()
        .map(|&m| interned(py, key_of(m)))
        .collect::<PyResult<Vec<_>>>()?;
    pyo3::types::PyList::new(py, objects)
}

/// Promotion piece type (0 for none) by the rules crate's 4-bit move flag: 0–3 are normal,
/// en passant and castling; 4–7 promote to knight … queen; 8 and 9 to pawn and king.
const PROMOTION_OF_FLAG: [u16; 16] = [0, 0, 0, 0, 2, 3, 4, 5, 1, 6, 0, 0, 0, 0, 0, 0];

/// The Python key of a rules-crate move: castling and en passant become plain moves.
#[inline]
pub fn key_of(m: shatranj_chess::Move) -> u16 {
    let bits = m.to_bits();
    (bits & 0x0fff) | PROMOTION_OF_FLAG[usize::from(bits >> 12)] << 12
}

/// The move of `list` whose Python key is `key`. This is `push`'s legality check, so it
/// compares raw encodings: a key without promotion matches origin and destination with a
/// non-promotion flag (below 4); a promotion key matches one exact encoding.
#[inline]
pub fn find_key(list: &[shatranj_chess::Move], key: u16) -> Option<shatranj_chess::Move> {
    let squares = key & 0x0fff;
    // Flags 0-3 leave bits 14 and 15 clear, so masking bits 12 and 13 away compares origin,
    // destination and "not a promotion" at once.
    let (mask, want) = match key >> 12 {
        0 => (0xcfff, squares),
        promotion @ 2..=5 => (0xffff, squares | (promotion + 2) << 12),
        // Promotions to pawn or king are never legal.
        _ => return None,
    };
    // No early exit: a branch-free scan of a short list beats a mispredicted exit.
    let mut found = None;
    for &m in list.iter().rev() {
        if m.to_bits() & mask == want {
            found = Some(m);
        }
    }
    found
}

#[inline]
pub fn from_square(key: u16) -> Square {
    Square::new(u32::from(key & 63)).unwrap_or(Square::A1)
}

#[inline]
pub fn to_square(key: u16) -> Square {
    Square::new(u32::from(key >> 6 & 63)).unwrap_or(Square::A1)
}

#[inline]
pub fn promotion(key: u16) -> Option<Role> {
    Role::from_index(usize::from(key >> 12).wrapping_sub(1))
}

pub fn make_key(from: Square, to: Square, promotion: Option<Role>) -> u16 {
    from.index() as u16 | (to.index() as u16) << 6 | promotion.map_or(0, |r| r as u16) << 12
}

/// The null move `0000` (python-chess's `Move.null()`, a1 to a1).
pub const NULL_KEY: u16 = 0;

/// The drop flag of a key (see the module docs).
pub const DROP_FLAG: u16 = 1 << 15;

/// The piece type a drop key drops.
pub fn drop_of(key: u16) -> Option<Role> {
    (key & DROP_FLAG != 0).then(|| Role::from_index(usize::from(key >> 12 & 7).wrapping_sub(1)))?
}

pub fn drop_key(role: Role, to: Square) -> u16 {
    DROP_FLAG | (role as u16) << 12 | (to.index() as u16) << 6 | to.index() as u16
}

/// A new `Move` object for `key`: interned, except drops, whose keys lie outside the table.
pub fn move_object(py: Python<'_>, key: u16) -> PyResult<Bound<'_, Move>> {
    if key & DROP_FLAG != 0 {
        return Bound::new(py, Move { key });
    }
    interned(py, key)
}

pub fn uci_of(key: u16) -> String {
    if key == NULL_KEY {
        return "0000".to_owned();
    }
    if let Some(role) = drop_of(key) {
        return format!("{}@{}", role.char().to_ascii_uppercase(), to_square(key));
    }
    let mut s = format!("{}{}", from_square(key), to_square(key));
    if let Some(r) = promotion(key) {
        s.push(r.char());
    }
    s
}

/// Parses UCI text without a position (python-chess's `Move.from_uci`), drops included.
pub fn parse_uci_key(text: &str) -> PyResult<u16> {
    let bytes = text.as_bytes();
    if bytes.len() == 4 && bytes[1] == b'@' {
        let role = match bytes[0] {
            b'P' => Some(Role::Pawn),
            b'N' => Some(Role::Knight),
            b'B' => Some(Role::Bishop),
            b'R' => Some(Role::Rook),
            b'Q' => Some(Role::Queen),
            b'K' => Some(Role::King),
            _ => None,
        };
        let to = text.get(2..).and_then(|t| t.parse::<Square>().ok());
        return match (role, to) {
            (Some(role), Some(to)) => Ok(drop_key(role, to)),
            _ => Err(InvalidMoveError::new_err(format!(
                "invalid UCI drop {text:?}: expected a piece letter, '@' and a square, like P@e4"
            ))),
        };
    }
    match UciMove::parse(text) {
        Ok(UciMove::Null) => Ok(NULL_KEY),
        Ok(UciMove::Normal {
            from,
            to,
            promotion,
        }) => Ok(make_key(from, to, promotion)),
        Err(e) => Err(InvalidMoveError::new_err(e.to_string())),
    }
}

/// `Move(from_square, to_square, promotion, drop)` arguments, for pickling.
type MoveArgs = (u8, u8, Option<u8>, Option<u8>);

#[pymethods]
impl Move {
    #[new]
    #[pyo3(signature = (from_square, to_square, promotion = None, drop = None))]
    fn new(
        from_square: i64,
        to_square: i64,
        promotion: Option<i64>,
        drop: Option<i64>,
    ) -> PyResult<Self> {
        let from = args::square(from_square)?;
        let to = args::square(to_square)?;
        if let Some(drop) = drop {
            if promotion.is_some() {
                return Err(PyValueError::new_err("a drop cannot also promote"));
            }
            return Ok(Move {
                key: drop_key(args::role(drop)?, to),
            });
        }
        let promotion = promotion.map(args::role).transpose()?;
        Ok(Move {
            key: make_key(from, to, promotion),
        })
    }

    // python-chess's attribute name, not a conversion.
    #[allow(clippy::wrong_self_convention)]
    #[getter]
    fn from_square(&self) -> u8 {
        (self.key & 63) as u8
    }

    #[getter]
    fn to_square(&self) -> u8 {
        (self.key >> 6 & 63) as u8
    }

    #[getter]
    fn promotion(&self) -> Option<u8> {
        if self.key & DROP_FLAG != 0 {
            return None;
        }
        promotion(self.key).map(|r| r as u8)
    }

    /// The piece type dropped (crazyhouse's `P@e4`), else `None`; no board plays drops.
    #[getter]
    fn drop(&self) -> Option<u8> {
        drop_of(self.key).map(|r| r as u8)
    }

    fn uci(&self) -> String {
        uci_of(self.key)
    }

    fn xboard(&self) -> String {
        if self.key == NULL_KEY {
            "@@@@".to_owned()
        } else {
            uci_of(self.key)
        }
    }

    #[classmethod]
    fn from_uci<'py>(cls: &Bound<'py, PyType>, uci: &str) -> PyResult<Bound<'py, Move>> {
        move_object(cls.py(), parse_uci_key(uci)?)
    }

    #[classmethod]
    fn null<'py>(cls: &Bound<'py, PyType>) -> PyResult<Bound<'py, Move>> {
        interned(cls.py(), NULL_KEY)
    }

    fn __bool__(&self) -> bool {
        self.key != NULL_KEY
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", uci_of(self.key))
    }

    fn __str__(&self) -> String {
        uci_of(self.key)
    }

    fn __hash__(&self) -> isize {
        isize::from(self.key as i16)
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        let py = other.py();
        let Ok(other) = other.cast::<Move>() else {
            return py.NotImplemented();
        };
        let same = self.key == other.get().key;
        match op {
            CompareOp::Eq => same
                .into_pyobject(py)
                .unwrap()
                .to_owned()
                .into_any()
                .unbind(),
            CompareOp::Ne => (!same)
                .into_pyobject(py)
                .unwrap()
                .to_owned()
                .into_any()
                .unbind(),
            _ => py.NotImplemented(),
        }
    }

    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, MoveArgs)> {
        let me = slf.get();
        Ok((
            slf.get_type(),
            (me.from_square(), me.to_square(), me.promotion(), me.drop()),
        ))
    }
}

/// A new list of the interned moves for `moves`, built with the C API directly.
pub fn list_of<'py>(
    py: Python<'py>,
    moves: &[shatranj_chess::Move],
) -> PyResult<Bound<'py, pyo3::types::PyList>> {
    key_list(py, moves.iter().map(|&m| key_of(m)), moves.len())
}

/// A new list of the interned moves of `pos` for `moves`, castling written as a board in
/// `chess960` mode writes it (see [`crate::rules::resolve::key_in`]).
pub fn list_in<'py>(
    py: Python<'py>,
    pos: &shatranj_chess::Position,
    moves: &[shatranj_chess::Move],
    chess960: bool,
) -> PyResult<Bound<'py, pyo3::types::PyList>> {
    let keys = moves
        .iter()
        .map(|&m| crate::rules::resolve::key_in(pos, m, chess960));
    key_list(py, keys, moves.len())
}

/// A game's move stack as a board in `chess960` mode writes it: castling in Chess960 is the
/// king taking its rook, which only the position before the move knows.
pub fn stack_list<'py>(
    py: Python<'py>,
    game: &shatranj_chess::History,
    chess960: bool,
) -> PyResult<Bound<'py, pyo3::types::PyList>> {
    let moves = game.moves();
    if !chess960 {
        return list_of(py, moves);
    }
    let keys = game
        .positions()
        .zip(moves)
        .map(|(pos, &m)| crate::rules::resolve::key_in(pos, m, true));
    key_list(py, keys, moves.len())
}

/// A new list of the interned moves of `len` keys, built with the C API directly.
pub(crate) fn key_list(
    py: Python<'_>,
    keys: impl Iterator<Item = u16>,
    len: usize,
) -> PyResult<Bound<'_, pyo3::types::PyList>> {
    // SAFETY: `PyList_New` returns a new list with `len` NULL slots (or NULL with an
    // exception set); each slot is filled exactly once with an owned reference before the
    // list is handed out (`take(len)`, and every caller passes as many keys as `len`).
    unsafe {
        let list = Bound::from_owned_ptr_or_err(py, ffi::PyList_New(len as ffi::Py_ssize_t))?
            .cast_into_unchecked::<pyo3::types::PyList>();
        let mut filled = 0;
        for (i, key) in keys.take(len).enumerate() {
            let item = interned(py, key)?;
            ffi::PyList_SetItem(list.as_ptr(), i as ffi::Py_ssize_t, item.into_ptr());
            filled += 1;
        }
        assert_eq!(filled, len, "key_list: fewer keys than slots");
        Ok(list)
    }
}

/// A new list of the interned legal moves of `pos`, in python-chess's order (see the rules
/// crate's `python_order`), castling as a board in `chess960` mode writes it: the hot path
/// of `list(board.legal_moves)`. The moves go straight into a buffer of keys, without a
/// `MoveList` in between.
pub fn legal_list_python_order<'py>(
    py: Python<'py>,
    pos: &shatranj_chess::Position,
    chess960: bool,
) -> PyResult<Bound<'py, pyo3::types::PyList>> {
    let mut keys = [0u16; shatranj_chess::moves::INLINE_MOVES];
    let mut n = 0;
    pos.for_each_legal_move_python_order(|m| {
        if let Some(slot) = keys.get_mut(n) {
            *slot = crate::rules::resolve::key_in(pos, m, chess960);
        }
        n += 1;
    });
    let Some(keys) = keys.get(..n) else {
        // More moves than the buffer holds (contrived set-ups only).
        return list_in(py, pos, &pos.legal_moves_python_order(), chess960);
    };
    key_list(py, keys.iter().copied(), n)
}
