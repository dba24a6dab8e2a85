//! The cooperative helpmate search behind `can_checkmate` (R4.6, R4.9): both sides play for
//! one side's mate, and every position reached is followed until it is decided.
//!
//! The search is a depth-first walk of the positions reachable from the root, each expanded
//! once (transpositions and repetitions are kept in a table of visited positions). A line
//! stops at a position that is
//! - the winner's mate of the loser: the line is a helpmate, and the search ends;
//! - a stalemate or the winner's own mate, or one that a static proof (material, or the
//!   `fortress` proofs) shows the winner can never mate from: a dead end;
//! - already visited: whatever is reachable from it is being, or has been, walked.
//!
//! If the walk ends with no mate, no line was cut short and the budget held, then no
//! position reachable from the root is a mate by the winner: that is a proof. This is plain
//! graph reachability, so it holds with transpositions and cycles alike: a position skipped
//! as visited was (or is being) expanded itself. Any cut — the node budget spent, a line
//! longer than the ply limit — makes the answer "unknown", never "cannot".
//!
//! Moves are tried in an order that helps the mate along (the winner's men towards the
//! loser's king, the loser's men out of the way, no captures of the winner's men first), so
//! that in live positions a helpmate, when one is found within the budget, is found early.

use crate::dead::{Budget, ProofRules, static_proof};
use crate::{Board, CastlingRights, Color, Move, MoveKind, Position, Role, Square};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// What a bounded search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// A helpmate: these moves from the root end in the winner's mate.
    Mate(Vec<Move>),
    /// Every line ends in a dead end: the winner can never mate.
    NoMate,
    /// The budget ran out, or a line was cut, before either.
    Unknown,
}

/// Everything that decides the legal moves of a position (its key's inputs). Kept beside the
/// key in the visited table, so that a key collision can never skip an unvisited position
/// (which could turn into a wrong "cannot"). The move clocks are left out: they do not
/// change which moves are legal.
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

/// The visited table hashes Zobrist keys, which are uniform already.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A position on the walk's stack and the moves still to try from it (a range of `moves`).
struct Frame {
    pos: Position,
    start: usize,
    next: usize,
    end: usize,
}

/// A search for `winner`'s mate from `root`, within `budget`, closing lines with the static
/// proofs of `rules`; `root_moves` are the root's legal moves (not empty). Returns what it
/// found and how many positions it expanded.
pub(crate) fn search(
    root: &Position,
    root_moves: &crate::MoveList,
    winner: Color,
    budget: Budget,
    rules: ProofRules,
) -> (Found, u32) {
    if budget.max_nodes == 0 || budget.max_plies == 0 || beyond_budget(root, root_moves, budget) {
        return (Found::Unknown, 0);
    }
    // Sized once for the budget (up to a point), so that the quick tier, which a live
    // position spends in full, never regrows a table: the common call allocates three times.
    let nodes_hint = budget.max_nodes.min(1 << 10) as usize;
    let mut visited: HashMap<u64, Placement, BuildHasherDefault<KeyHasher>> =
        HashMap::with_capacity_and_hasher(nodes_hint, BuildHasherDefault::default());
    let mut moves: Vec<Move> = Vec::with_capacity(64 * budget.max_plies.min(64) as usize);
    let mut stack: Vec<Frame> = Vec::with_capacity(budget.max_plies.min(64) as usize);
    let mut nodes = 1;
    let mut cut = false;
    visited.insert(root.key(), Placement::of(root));
    push_frame(&mut stack, &mut moves, *root, root_moves, winner);
    while let Some(top) = stack.last_mut() {
        if top.next == top.end {
            moves.truncate(top.start);
            stack.pop();
            continue;
        }
        let m = moves[top.next];
        top.next += 1;
        let parent = top.pos;
        let mut child = parent;
        child.play_unchecked(m);
        let key = child.key();
        let placement = Placement::of(&child);
        if visited.get(&key) == Some(&placement) {
            continue;
        }
        let child_moves = child.legal_moves();
        if child_moves.is_empty() {
            if child.turn() != winner && child.is_check() {
                return (Found::Mate(line(&stack, &moves)), nodes);
            }
            continue; // stalemate, or the winner mated
        }
        if changes_static_facts(&parent, m) && static_proof(&child, None, winner, rules).is_some() {
            continue;
        }
        if nodes >= budget.max_nodes {
            return (Found::Unknown, nodes);
        }
        if stack.len() as u32 >= budget.max_plies {
            cut = true;
            continue;
        }
        nodes += 1;
        visited.insert(key, placement);
        push_frame(&mut stack, &mut moves, child, &child_moves, winner);
    }
    (if cut { Found::Unknown } else { Found::NoMate }, nodes)
}

/// Can no proof come of a search within `budget`? A proof closes every line. From a root not
/// in check and without an en-passant square, a quiet move of a piece leaves the static
/// facts as they were (`changes_static_facts`), so its child is closed only when it has no
/// legal moves, and otherwise costs a node of its own (expanded as a root child, or earlier
/// by transposition). With at least as many such moves as the budget has nodes, the search
/// can only run out, or find a helpmate on its first lines: either way an answer of "can".
/// Skipping it is what keeps a call on a live middlegame position to a few microseconds,
/// the common case; the answer's kind there is "unknown" rather than the odd early helpmate.
/// (Children without legal moves are not counted out, which can only make the skip more
/// eager, never unsound: skipping a search never turns a "can" into a "cannot".)
fn beyond_budget(root: &Position, root_moves: &crate::MoveList, budget: Budget) -> bool {
    if root.is_check() || root.ep_square().is_some() || root_moves.len() < budget.max_nodes as usize
    {
        return false;
    }
    // An opponent with hardly a move may have none after a quiet move: children that close
    // without a node of their own.
    if crate::dead::mobility(root, root.turn().other()) <= FEW_REPLIES {
        return false;
    }
    let pawns = root.board().pawns();
    let quiet = root_moves
        .iter()
        .filter(|&&m| !root.is_capture(m) && !m.is_promotion() && !pawns.contains(m.from()))
        .count();
    quiet >= budget.max_nodes as usize
}

/// The opponent's moves (as `dead::mobility` counts them) at or below which the skip of
/// `beyond_budget` is not taken.
const FEW_REPLIES: u32 = 6;

/// Can the static proofs answer differently after `m` than before it? Not after a quiet
/// move of a piece from a position without an en-passant square nor a check: material is
/// unchanged, so are the pawns, and a piece (or king) moving inside its flooded region
/// leaves the region, and so every flood and span of `reach`, exactly as it was. (A king in
/// check may stand outside its region, on a square a fixed pawn attacks.) The parent had no proof (it is
/// being expanded), so neither has the child, and the check is skipped: the search's nodes
/// are mostly such moves.
fn changes_static_facts(parent: &Position, m: Move) -> bool {
    parent.ep_square().is_some()
        || parent.is_check()
        || parent.is_capture(m)
        || m.is_promotion()
        || parent.board().pawns().contains(m.from())
}

/// Pushes `pos` with its moves, best first, onto the stack: each move's `towards_mate` key
/// is computed once and the moves are placed by a counting sort (stable, no comparisons).
fn push_frame(
    stack: &mut Vec<Frame>,
    moves: &mut Vec<Move>,
    pos: Position,
    list: &crate::MoveList,
    winner: Color,
) {
    let order = Order::new(&pos, winner);
    let mut keys = [0u8; crate::moves::INLINE_MOVES];
    let mut counts = [0usize; KEYS + 1];
    let start = moves.len();
    for (i, &m) in list.iter().enumerate() {
        let k = order.key(&pos, m);
        if let Some(slot) = keys.get_mut(i) {
            *slot = k;
        }
        counts[usize::from(k) + 1] += 1;
    }
    for k in 1..=KEYS {
        counts[k] += counts[k - 1];
    }
    moves.resize(start + list.len(), Move::normal(Square::A1, Square::A1));
    for (i, &m) in list.iter().enumerate() {
        let k = keys.get(i).copied().unwrap_or_else(|| order.key(&pos, m));
        let at = &mut counts[usize::from(k)];
        moves[start + *at] = m;
        *at += 1;
    }
    stack.push(Frame {
        pos,
        start,
        next: start,
        end: moves.len(),
    });
}

/// The moves from the root along the stack, the last one tried from each frame: the top
/// frame's is the mating move.
fn line(stack: &[Frame], moves: &[Move]) -> Vec<Move> {
    stack.iter().map(|f| moves[f.next - 1]).collect()
}

/// The number of distinct `Order::key` values.
const KEYS: usize = 20;

/// Lower is tried first. The winner: a new queen, then moves ending nearer the loser's king.
/// The loser: moves that keep the winner's men on the board, its men nearer its own king
/// (where they take flight squares away), its king towards the winner's king.
struct Order {
    winner_to_move: bool,
    winner_king: Square,
    loser_king: Square,
    winner_men: crate::Bitboard,
}

impl Order {
    fn new(pos: &Position, winner: Color) -> Order {
        Order {
            winner_to_move: pos.turn() == winner,
            winner_king: pos.king(winner),
            loser_king: pos.king(winner.other()),
            winner_men: pos.board().by_color(winner),
        }
    }

    /// Below `KEYS`.
    fn key(&self, pos: &Position, m: Move) -> u8 {
        let to = m.to();
        if self.winner_to_move {
            match m.kind() {
                MoveKind::Promotion(Role::Queen) => 0,
                MoveKind::Promotion(_) => 9,
                _ => to.distance(self.loser_king) as u8,
            }
        } else {
            let penalty = if self.winner_men.contains(to) { 10 } else { 0 };
            let near = if m.from() == self.loser_king {
                to.distance(self.winner_king)
            } else {
                to.distance(self.loser_king)
            };
            let _ = pos;
            penalty + near as u8
        }
    }
}
