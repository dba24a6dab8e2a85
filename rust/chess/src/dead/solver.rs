//! The full tier of "can this side still mate" (R4.6 dead positions, R4.9 flag fall and
//! resignation): CHA's own solver, the `chasolver` crate (MIT), behind this crate's types.
//!
//! Our quick tier (`dead`) is sound but incomplete: what it cannot prove it answers "can".
//! The solver decides practically every position (every unwinnable timeout of the Lichess
//! database, its author reports), at a cost of microseconds on real positions and up to
//! seconds on constructed ones. It comes behind the cargo feature `solver` (on by default),
//! so that a user of the rules alone can leave it and its dependencies out.
//!
//! Nothing the solver says is taken on trust where it can be checked: a helpmate it returns
//! is replayed on our `Position`, each move matched to one of our legal moves, and must end
//! in the intended winner's mate. Its "unwinnable" has no witness to check; the differential
//! tests hold it against the labelled set and against our own proofs.
//!
//! The solver speaks the `chess` crate's board, whose castling is the standard one only.
//! [`solver_board`] is the one place where our position is converted.

use crate::dead::{Proof, Winnability};
use crate::{CastlingSide, Color, Move, MoveKind, Position, Role};
use core::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Why the solver could not answer about a position. Never a panic: the solver runs inside a
/// guard, and every answer it gives is checked before it is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverError {
    /// The solver's board cannot hold this position (a castling right whose rook does not
    /// start in a corner, as in Chess960).
    Unrepresentable(&'static str),
    /// The solver's board type refused the position as set up (its own sanity checks).
    Rejected,
    /// The helpmate the solver returned does not replay on this position: move `ply` (from
    /// 0), written in UCI, is not legal there.
    IllegalLine { ply: usize, uci: String },
    /// The helpmate the solver returned replays but does not end in the winner's mate.
    NotMate,
    /// The solver stopped with a panic (a bug in it); the answer is unknown.
    Panicked,
}

impl fmt::Display for SolverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverError::Unrepresentable(why) => {
                write!(f, "the solver cannot represent this position: {why}")
            }
            SolverError::Rejected => f.write_str("the solver's board refused this position"),
            SolverError::IllegalLine { ply, uci } => write!(
                f,
                "the solver's helpmate does not replay: move {ply} ({uci}) is illegal"
            ),
            SolverError::NotMate => f.write_str("the solver's helpmate does not end in mate"),
            SolverError::Panicked => f.write_str("the solver panicked"),
        }
    }
}

impl std::error::Error for SolverError {}

/// Our position as the solver's board: pieces, side to move, castling rights and the
/// en-passant file. A few hundred nanoseconds (`examples/dead_bench.rs` measures it).
/// Public for benchmarks only.
#[doc(hidden)]
pub fn solver_board(pos: &Position) -> Result<chess::Board, SolverError> {
    let mut builder = chess::BoardBuilder::new();
    for (sq, piece) in pos.board().pieces() {
        builder.piece(square(sq), role(piece.role), color(piece.color));
    }
    builder.side_to_move(color(pos.turn()));
    let rights = pos.castling_rights();
    // The solver's castling is standard chess's: kings on e1/e8, rooks in the corners.
    // Other rights (Chess960) it cannot play, so it cannot be asked.
    if !rights.is_standard() {
        return Err(SolverError::Unrepresentable(
            "a castling right other than standard chess's (Chess960)",
        ));
    }
    for c in Color::ALL {
        let cr = match (
            rights.has(c, CastlingSide::KingSide),
            rights.has(c, CastlingSide::QueenSide),
        ) {
            (false, false) => chess::CastleRights::NoRights,
            (true, false) => chess::CastleRights::KingSide,
            (false, true) => chess::CastleRights::QueenSide,
            (true, true) => chess::CastleRights::Both,
        };
        builder.castle_rights(color(c), cr);
    }
    if let Some(ep) = pos.ep_square() {
        builder.en_passant(Some(chess::File::from_index(ep.file().index() as usize)));
    }
    chess::Board::try_from(&builder).map_err(|_| SolverError::Rejected)
}

fn square(sq: crate::Square) -> chess::Square {
    chess::ALL_SQUARES[sq.index()]
}

fn color(c: Color) -> chess::Color {
    match c {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    }
}

fn role(r: Role) -> chess::Piece {
    match r {
        Role::Pawn => chess::Piece::Pawn,
        Role::Knight => chess::Piece::Knight,
        Role::Bishop => chess::Piece::Bishop,
        Role::Rook => chess::Piece::Rook,
        Role::Queen => chess::Piece::Queen,
        Role::King => chess::Piece::King,
    }
}

/// The solver alone, in full: a helpmate (checked on our position), a proof that none
/// exists (`Proof::Solver`), or unknown when the solver gives up within its own budget.
pub fn solve(pos: &Position, winner: Color) -> Result<Winnability, SolverError> {
    let board = solver_board(pos)?;
    let answer = catch_unwind(AssertUnwindSafe(|| {
        chasolver::winnability(&board, color(winner))
    }))
    .map_err(|_| SolverError::Panicked)?;
    match answer {
        None => Ok(Winnability::Unknown),
        Some(chasolver::Winnability::Unwinnable) => Ok(Winnability::Unwinnable(Proof::Solver)),
        Some(chasolver::Winnability::Winnable { helpmate }) => {
            replay(pos, winner, &helpmate).map(Winnability::Helpmate)
        }
    }
}

/// The solver's fast mode: `true` only when it proves `winner` can never mate. Cheap on real
/// games (its author measures a mean of 1.4 µs and a worst case under a millisecond on ten
/// million real timeout positions), but with no bound of its own: seconds on some
/// constructed positions with few moves, which is why the arbiter skips it where our own
/// closure ran out (`dead`).
pub fn solve_fast(pos: &Position, winner: Color) -> Result<bool, SolverError> {
    let board = solver_board(pos)?;
    catch_unwind(AssertUnwindSafe(|| {
        chasolver::is_unwinnable_fast(&board, color(winner))
    }))
    .map_err(|_| SolverError::Panicked)
}

/// The solver's line as our moves: each one matched to one of our legal moves, played, and
/// the last position must be `winner`'s mate.
fn replay(
    pos: &Position,
    winner: Color,
    line: &[chess::ChessMove],
) -> Result<Vec<Move>, SolverError> {
    let mut q = *pos;
    let mut moves = Vec::with_capacity(line.len());
    for (ply, cm) in line.iter().enumerate() {
        let (from, to) = (cm.get_source().to_index(), cm.get_dest().to_index());
        let promotion = cm.get_promotion().map(|p| match p {
            chess::Piece::Pawn => Role::Pawn,
            chess::Piece::Knight => Role::Knight,
            chess::Piece::Bishop => Role::Bishop,
            chess::Piece::Rook => Role::Rook,
            chess::Piece::Queen => Role::Queen,
            chess::Piece::King => Role::King,
        });
        let found = q.legal_moves().iter().copied().find(|m| {
            m.from().index() == from
                && m.to().index() == to
                && match m.kind() {
                    MoveKind::Promotion(r) => promotion == Some(r),
                    _ => promotion.is_none(),
                }
        });
        let Some(m) = found else {
            return Err(SolverError::IllegalLine {
                ply,
                uci: cm.to_string(),
            });
        };
        q.play_unchecked(m);
        moves.push(m);
    }
    if q.is_checkmate() && q.turn() != winner {
        Ok(moves)
    } else {
        Err(SolverError::NotMate)
    }
}
