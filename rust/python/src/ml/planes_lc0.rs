//! Training tensors in the layouts networks are trained on (`shatranj.planes`): Lc0's
//! 112-plane input with history, and the policy indices of Lc0 (1858 moves) and AlphaZero
//! (4672 = 73 planes × 64 squares), both ways.
//!
//! Every layout is from the side to move's view: when Black is to move the board is mirrored
//! top to bottom (square `s` becomes `s ^ 56`), so "our" pawns always move up the board.
//!
//! Lc0 input, float32 `(n, 112, 8, 8)`, plane `p`, row = rank (0 = rank 1 from our side),
//! column = file: for history step `t` = 0 (now) … 7 (seven plies ago), planes `13t … 13t+12`
//! are our P N B R Q K, their P N B R Q K, and a plane of ones when that position occurred
//! before in the game; a step before the game's start is all zeros. Then 104 we can castle
//! queenside, 105 we can castle kingside, 106 they queenside, 107 they kingside (all ones
//! when true), 108 ones when Black is to move, 109 the halfmove clock (every square holds the
//! count), 110 zeros, 111 ones.
//!
//! Lc0 policy (1858): for each from-square a1 … h8 (from our view), every queen-line and
//! knight destination in increasing square order (1792 moves); then the promotions to queen,
//! rook and bishop of each 7th-to-8th-rank pawn move (66). A knight promotion, and a plain
//! pawn move to the last rank, use the move's own index. Castling is the king's two-square
//! move (`e1g1`).
//!
//! AlphaZero policy (4672): index `plane * 64 + from` (from our view). Planes 0–55: queen-line
//! moves, `direction * 7 + distance - 1`, directions N NE E SE S SW W NW (N is forward);
//! planes 56–63: knight moves (+1,+2) (+2,+1) (+2,−1) (+1,−2) (−1,−2) (−2,−1) (−2,+1) (−1,+2)
//! as (file, rank) steps; planes 64–72: underpromotions, `64 + 3 * piece + direction`,
//! piece knight/bishop/rook, direction capture-left/forward/capture-right. A queen promotion
//! is its queen-line move.

use crate::board::Board;
use crate::ml::planes::numpy_from_bytes;
use crate::rules::moves::Move as PyMove;
use crate::rules::resolve::resolve;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyTuple};
use shatranj_chess::{CastlingSide, Color, Move, Position, Role};
use std::sync::OnceLock;

pub const LC0_PLANES: usize = 112;
pub const LC0_MOVES: usize = 1858;

/// The Lc0 move table: (from, to, promotion letter or 0) by index, from our view, and the
/// index of each move key (-1: none).
type Lc0Table = (Vec<(u8, u8, u8)>, Vec<i16>);

fn lc0_table() -> &'static Lc0Table {
    static TABLE: OnceLock<Lc0Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut moves = Vec::with_capacity(LC0_MOVES);
        for from in 0u8..64 {
            let (ff, fr) = (i32::from(from % 8), i32::from(from / 8));
            for to in 0u8..64 {
                let (tf, tr) = (i32::from(to % 8), i32::from(to / 8));
                let (df, dr) = (tf - ff, tr - fr);
                let line = (df == 0) != (dr == 0) || (df != 0 && df.abs() == dr.abs());
                let knight = (df.abs() == 1 && dr.abs() == 2) || (df.abs() == 2 && dr.abs() == 1);
                if line || knight {
                    moves.push((from, to, 0));
                }
            }
        }
        for from in 48u8..56 {
            let ff = i32::from(from % 8);
            for df in -1..=1 {
                let tf = ff + df;
                if !(0..8).contains(&tf) {
                    continue;
                }
                let to = 56 + tf as u8;
                for p in [b'q', b'r', b'b'] {
                    moves.push((from, to, p));
                }
            }
        }
        assert_eq!(moves.len(), LC0_MOVES);
        // Reverse map: from*64*4 + to*4 + promo slot (0 none, 1 q, 2 r, 3 b).
        let mut index = vec![-1i16; 64 * 64 * 4];
        for (i, &(from, to, p)) in moves.iter().enumerate() {
            index[key(from, to, p)] = i as i16;
        }
        (moves, index)
    })
}

fn key(from: u8, to: u8, promo: u8) -> usize {
    let slot = match promo {
        b'q' => 1,
        b'r' => 2,
        b'b' => 3,
        _ => 0,
    };
    (from as usize * 64 + to as usize) * 4 + slot
}

/// A square from the mover's view: black's ranks flipped (rank `r` to `7 - r`).
fn view(sq: u8, black: bool) -> u8 {
    if black { sq ^ 0b11_1000 } else { sq }
}

/// From, to (king's two-square move for castling) and promotion, in board coordinates.
fn squares_of(m: Move) -> (u8, u8, Option<Role>) {
    let from = m.from().index() as u8;
    let mut to = m.to().index() as u8;
    if m.is_castle() {
        // King onto its castling square whatever the internal form (king takes rook or not).
        let rank = from & !7;
        let kingside = (m.to().index() as u8 % 8) > (from % 8);
        to = rank + if kingside { 6 } else { 2 };
    }
    (from, to, m.promotion())
}

pub fn lc0_index(pos: &Position, m: Move) -> Option<usize> {
    let black = pos.turn() == Color::Black;
    let (from, to, promo) = squares_of(m);
    let (from, to) = (view(from, black), view(to, black));
    let p = match promo {
        Some(Role::Queen) => b'q',
        Some(Role::Rook) => b'r',
        Some(Role::Bishop) => b'b',
        _ => 0,
    };
    let i = lc0_table().1[key(from, to, p)];
    (i >= 0).then_some(i as usize)
}

pub fn az_index(pos: &Position, m: Move) -> Option<usize> {
    let black = pos.turn() == Color::Black;
    let (from, to, promo) = squares_of(m);
    let (from, to) = (view(from, black), view(to, black));
    let (df, dr) = (
        i32::from(to % 8) - i32::from(from % 8),
        i32::from(to / 8) - i32::from(from / 8),
    );
    let plane = if let Some(role @ (Role::Knight | Role::Bishop | Role::Rook)) = promo {
        let piece = match role {
            Role::Knight => 0,
            Role::Bishop => 1,
            _ => 2,
        };
        64 + 3 * piece + (df + 1) as usize
    } else {
        const KNIGHT: [(i32, i32); 8] = [
            (1, 2),
            (2, 1),
            (2, -1),
            (1, -2),
            (-1, -2),
            (-2, -1),
            (-2, 1),
            (-1, 2),
        ];
        if let Some(k) = KNIGHT.iter().position(|&d| d == (df, dr)) {
            56 + k
        } else {
            const DIRS: [(i32, i32); 8] = [
                (0, 1),
                (1, 1),
                (1, 0),
                (1, -1),
                (0, -1),
                (-1, -1),
                (-1, 0),
                (-1, 1),
            ];
            let dist = df.abs().max(dr.abs());
            if dist == 0 {
                return None;
            }
            let dir = DIRS.iter().position(|&d| d == (df / dist, dr / dist))?;
            if df != 0 && dr != 0 && df.abs() != dr.abs() {
                return None;
            }
            dir * 7 + (dist - 1) as usize
        }
    };
    Some(plane * 64 + from as usize)
}

fn write_lc0(game: &shatranj_chess::History, out: &mut [f32]) {
    // The positions of the game, oldest first, and their keys.
    let mut positions = Vec::with_capacity(game.moves().len() + 1);
    let mut pos = *game.start();
    positions.push(pos);
    for &m in game.moves() {
        pos.play_unchecked(m);
        positions.push(pos);
    }
    let keys: Vec<u64> = positions.iter().map(Position::key).collect();
    let now = positions.len() - 1;
    let current = &positions[now];
    let us = current.turn();
    let black = us == Color::Black;
    for t in 0..8 {
        let Some(i) = now.checked_sub(t) else { break };
        let p = &positions[i];
        let base = 13 * t;
        for (sq, piece) in p.board().pieces() {
            let plane = base + if piece.color == us { 0 } else { 6 } + piece.role.index();
            out[plane * 64 + view(sq.index() as u8, black) as usize] = 1.0;
        }
        if keys[..i].contains(&keys[i]) {
            out[(base + 12) * 64..(base + 13) * 64].fill(1.0);
        }
    }
    let rights = current.castling_rights();
    let them = us.other();
    let aux = [
        rights.has(us, CastlingSide::QueenSide),
        rights.has(us, CastlingSide::KingSide),
        rights.has(them, CastlingSide::QueenSide),
        rights.has(them, CastlingSide::KingSide),
        black,
    ];
    for (k, on) in aux.into_iter().enumerate() {
        if on {
            out[(104 + k) * 64..(105 + k) * 64].fill(1.0);
        }
    }
    out[109 * 64..110 * 64].fill(current.halfmove_clock() as f32);
    out[111 * 64..112 * 64].fill(1.0);
}

fn boards_of(boards: &Bound<'_, PyAny>) -> PyResult<Vec<shatranj_chess::History>> {
    let mut out = Vec::new();
    for item in boards.try_iter()? {
        let item = item?;
        let board = item.cast::<Board>().map_err(|_| {
            PyTypeError::new_err(format!(
                "expected shatranj.Board objects, got {}",
                crate::errors::type_name(&item)
            ))
        })?;
        out.push(crate::board::read(board)?.valid_history()?.clone());
    }
    Ok(out)
}

/// `(n, 112, 8, 8)` float32: Lc0's input planes, history from each board's move stack.
#[pyfunction]
pub fn planes_lc0<'py>(py: Python<'py>, boards: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let games = boards_of(boards)?;
    let width = LC0_PLANES * 64;
    let mut data = vec![0f32; games.len() * width];
    py.detach(|| {
        use rayon::prelude::*;
        data.par_chunks_mut(width)
            .zip(games.par_iter())
            .for_each(|(chunk, game)| write_lc0(game, chunk));
    });
    let bytes = PyByteArray::new(py, bytemuck::cast_slice(&data));
    let shape = PyTuple::new(py, [games.len(), LC0_PLANES, 8, 8])?;
    numpy_from_bytes(py, bytes, "float32", shape)
}

fn position_of(board: &Bound<'_, PyAny>) -> PyResult<Position> {
    let board = board
        .cast::<Board>()
        .map_err(|_| PyTypeError::new_err("expected a shatranj.Board"))?;
    Ok(*crate::board::read(board)?.valid_position()?)
}

/// The policy index of a legal move under `scheme` ("lc0" or "alphazero").
#[pyfunction]
pub fn policy_index(
    scheme: &str,
    board: &Bound<'_, PyAny>,
    mv: &Bound<'_, PyMove>,
) -> PyResult<usize> {
    let pos = position_of(board)?;
    let key = mv.get().key;
    let m = resolve(&pos, key);
    if !pos.legal_moves().iter().any(|&l| l == m) {
        return Err(PyValueError::new_err(format!(
            "{} is not a legal move in {}",
            crate::rules::moves::uci_of(key),
            pos.fen()
        )));
    }
    let index = match scheme {
        "lc0" => lc0_index(&pos, m),
        "alphazero" => az_index(&pos, m),
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown policy scheme {scheme:?}"
            )));
        }
    };
    index.ok_or_else(|| PyValueError::new_err("the move has no index in this scheme"))
}

/// The legal move with policy index `index` under `scheme`, or `None` when no legal move has
/// it; also every legal move's index, for masking a policy head's output.
#[pyfunction]
pub fn policy_legal(scheme: &str, board: &Bound<'_, PyAny>) -> PyResult<Vec<(usize, String)>> {
    let pos = position_of(board)?;
    let f = match scheme {
        "lc0" => lc0_index,
        "alphazero" => az_index,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown policy scheme {scheme:?}"
            )));
        }
    };
    Ok(pos
        .legal_moves()
        .iter()
        .filter_map(|&m| f(&pos, m).map(|i| (i, m.to_uci())))
        .collect())
}
