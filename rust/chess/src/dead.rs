//! Who can still checkmate: `can_checkmate` and `is_dead_position` (R4.6, R4.9, R5.1).
//!
//! The question is "can `color` deliver mate by *any* series of legal moves, however bad
//! the opponent's play". The answer must be sound above all — a wrong "cannot" steals a
//! win — so every "cannot" rests on a proof, and whatever cannot be proven within the budget
//! is answered "can".
//!
//! The proofs, cheapest first:
//! - material (R5.2's list, `Position::has_insufficient_material`): a lone king, a lone
//!   minor piece against pieces that cannot block, bishops all on one square colour;
//! - a locked pawn wall that no piece can ever break and behind which no check is possible
//!   (the `fortress` module);
//! - a bounded helpmate search: every line of play, both sides cooperating, is followed;
//!   a line ends when it reaches one of the proofs above, a stalemate, or a mate of
//!   `color`. If every line ends that way within the budget, `color` can never mate. A mate
//!   of the opponent, or a line still open when the plies or nodes run out, means "can".
//!   Positions proven this way are remembered, so transpositions cost nothing twice.
//!
//! Moves are ordered so that lines that keep the game alive (promotions, quiet moves)
//! come before captures, which tend to simplify into proven draws: in a live
//! position the first open line ends the search after a handful of nodes.

use crate::fortress::pawn_wall_stops_mate;
use crate::{Board, CastlingRights, Color, Move, MoveKind, Position, Role, Square};
use std::collections::HashMap;

/// The budget of the helpmate search behind `can_checkmate`. When it runs out the answer
/// is "can" (sound, possibly incomplete).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DeadOptions {
    /// How many plies deep a line is followed before it counts as open.
    pub max_plies: u32,
    /// How many positions are expanded at most (bounds the time per call).
    pub max_nodes: u32,
}

impl Default for DeadOptions {
    /// Deep enough for short forced sequences (a forced capture into bare kings, a pawn
    /// that must be taken), small enough for the p99 target of 1 ms per call: a node costs
    /// about 0.25 µs in an endgame and 1.2 µs in a full middlegame (release build), so the
    /// worst case stays near 1 ms even where every node is a full one.
    fn default() -> DeadOptions {
        DeadOptions {
            max_plies: 10,
            max_nodes: 800,
        }
    }
}

impl Position {
    /// Can `color` checkmate by some series of legal moves from here, whatever the opponent
    /// plays (R4.6, R4.9)? Never `false` when a mate exists; `true` when unsure.
    pub fn can_checkmate(&self, color: Color) -> bool {
        can_checkmate_with(self, color, DeadOptions::default())
    }

    /// A dead position (R4.6): neither side can ever checkmate.
    pub fn is_dead_position(&self) -> bool {
        is_dead_position_with(self, DeadOptions::default())
    }
}

/// `Position::can_checkmate` with an explicit search budget.
pub fn can_checkmate_with(pos: &Position, color: Color, options: DeadOptions) -> bool {
    let mut search = HelpmateSearch {
        color,
        nodes_left: options.max_nodes,
        proven: HashMap::new(),
    };
    search.can_mate(pos, options.max_plies)
}

/// `Position::is_dead_position` with an explicit search budget for each side.
pub fn is_dead_position_with(pos: &Position, options: DeadOptions) -> bool {
    Color::ALL
        .into_iter()
        .all(|color| !can_checkmate_with(pos, color, options))
}

/// A proof, without search, that `color` can never checkmate from `pos`.
fn statically_cannot_mate(pos: &Position, color: Color) -> bool {
    pos.has_insufficient_material(color) || pawn_wall_stops_mate(pos, color)
}

/// Everything that decides the legal moves of a position (its key's inputs).
#[derive(PartialEq, Eq)]
struct Placement(Board, Color, CastlingRights, Option<Square>);

impl Placement {
    fn of(pos: &Position) -> Placement {
        Placement(
            *pos.board(),
            pos.turn(),
            pos.castling_rights(),
            pos.ep_square(),
        )
    }
}

struct HelpmateSearch {
    color: Color,
    nodes_left: u32,
    /// Positions from which `color` provably never mates, by key; what the key hashes is
    /// kept too, so that a key collision can never turn into a wrong "cannot". The move
    /// clocks are left out: they do not change which moves are legal.
    proven: HashMap<u64, Placement>,
}

impl HelpmateSearch {
    /// `false` only when every line from `pos` is proven mate-free for `self.color`.
    fn can_mate(&mut self, pos: &Position, plies: u32) -> bool {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            // Checkmate of the opponent is the goal; our own mate or stalemate ends the line.
            return pos.is_check() && pos.turn() != self.color;
        }
        if statically_cannot_mate(pos, self.color) {
            return false;
        }
        if self.proven.get(&pos.key()) == Some(&Placement::of(pos)) {
            return false;
        }
        if plies == 0 || self.nodes_left == 0 {
            return true;
        }
        self.nodes_left -= 1;
        let mut moves = moves;
        moves
            .as_mut_slice()
            .sort_unstable_by_key(|&m| liveliness(pos, m));
        for &m in moves.iter() {
            let mut child = *pos;
            child.play_unchecked(m);
            if self.can_mate(&child, plies - 1) {
                return true;
            }
        }
        self.proven.insert(pos.key(), Placement::of(pos));
        false
    }
}

/// Lower is tried first: moves that keep mating material on the board (a new queen, quiet
/// moves) before captures, which tend to simplify into proven draws. A live line then
/// reaches the ply limit, and so ends the proof attempt, after a handful of nodes.
fn liveliness(pos: &Position, m: Move) -> u8 {
    match m.kind() {
        MoveKind::Promotion(Role::Queen) => 0,
        MoveKind::Promotion(_) => 2,
        _ if !pos.is_capture(m) => 1,
        _ => 3,
    }
}
