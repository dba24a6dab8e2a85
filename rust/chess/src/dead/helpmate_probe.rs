//! A helpmate probe for the dead-position test (R4.6, R4.9): a search that only looks for a
//! mate, never proves its absence, so that a position where a mate exists is answered "can"
//! after a few hundred positions instead of the exhaustive closure's budget (`helpmate`).
//!
//! Why it is needed: the closure walks every reachable position depth first, with no limit on
//! a line's length, so in a live position it wanders down one long line of shuffles before it
//! meets a mate: on the last twenty plies of the repository's gauntlet games it needed a
//! median of 1,200 positions to meet one, and one side in ten needed over 3,000. The probe
//! follows ALGORITHM's priced depth (CHA's `Find-Helpmate`): iterative deepening in which a
//! move that makes progress towards a mate is free, so that the long lines a helpmate needs (a
//! pawn run, a king walk) are reached at a small nominal depth, and moves that mostly throw the
//! mate away are dear:
//!
//! - **free** (progress): the winner promotes to a queen, pushes a pawn onto its sixth rank or
//!   beyond, captures, or brings its king or a knight nearer the loser's king; the loser's
//!   king steps nearer a corner (where mates are made); also any ordinary move right after a
//!   free one (a helpmate is made by both sides: one side's progress should not cost the
//!   other side's reply);
//! - **dear**: the loser captures one of the winner's men; an under-promotion;
//! - everything else costs one.
//!
//! Soundness does not depend on any of this: a line found is a sequence of legal moves that
//! ends in the winner's mate, and the caller reports it as such; "not found" is no answer. So
//! the table of searched positions may be keyed on the Zobrist key alone.

use crate::{Color, Move, MoveKind, Position, Role, Square};
use std::collections::HashMap;

/// The longest line the probe follows (plies): long enough for a pawn to run and promote and
/// the new queen to mate, short enough that the recursion stays shallow.
const MAX_PLY: usize = 48;

/// The nominal depths tried, one after the other.
const MAX_DEPTH: i32 = 12;

/// What a dear move costs.
const DEAR: i32 = 3;

/// A helpmate for `winner` from `root` (which has legal moves), looking at no more than
/// `max_nodes` positions; and the positions it looked at.
pub(crate) fn probe(root: &Position, winner: Color, max_nodes: u32) -> (Option<Vec<Move>>, u32) {
    let mut p = Probe {
        winner,
        nodes: 0,
        max_nodes,
        seen: HashMap::new(),
        line: Vec::with_capacity(MAX_PLY),
        ply: 0,
    };
    for depth in 1..=MAX_DEPTH {
        p.seen.clear();
        match p.search(root, depth, false) {
            Some(true) => {
                p.line.reverse();
                return (Some(p.line), p.nodes);
            }
            Some(false) => {}
            None => break, // out of nodes
        }
    }
    (None, p.nodes)
}

/// A move's price: progress, ordinary, or one that mostly throws the mate away.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Price {
    Progress,
    Ordinary,
    Dear,
}

struct Probe {
    winner: Color,
    nodes: u32,
    max_nodes: u32,
    /// Positions searched in this iteration, with the depth they had left.
    seen: HashMap<u64, i32>,
    /// The mating line, last move first (filled on the way back up).
    line: Vec<Move>,
    /// The current line's length.
    ply: usize,
}

impl Probe {
    /// `Some(true)`: a mate found (its moves in `line`); `Some(false)`: none within `depth`;
    /// `None`: the node budget ran out. `after_progress`: the move that led here made
    /// progress, so an ordinary reply is free.
    fn search(&mut self, pos: &Position, depth: i32, after_progress: bool) -> Option<bool> {
        let moves = pos.legal_moves();
        let mut priced: Vec<(Price, Move)> =
            moves.iter().map(|&m| (self.price(pos, m), m)).collect();
        priced.sort_by_key(|&(p, _)| p);
        for (price, m) in priced {
            let cost = match price {
                Price::Progress => 0,
                Price::Ordinary if after_progress => 0,
                Price::Ordinary => 1,
                Price::Dear => DEAR,
            };
            if cost > depth {
                continue;
            }
            let mut child = *pos;
            child.play_unchecked(m);
            if !child.has_legal_moves() {
                if child.turn() != self.winner && child.is_check() {
                    self.line.push(m);
                    return Some(true);
                }
                continue; // stalemate, or the winner mated
            }
            if child.has_insufficient_material(self.winner) || self.ply + 1 >= MAX_PLY {
                continue;
            }
            let left = depth - cost;
            let key = child.key();
            if self.seen.get(&key).is_some_and(|&d| d >= left) {
                continue;
            }
            self.nodes += 1;
            if self.nodes > self.max_nodes {
                return None;
            }
            self.seen.insert(key, left);
            self.ply += 1;
            let found = self.search(&child, left, price == Price::Progress);
            self.ply -= 1;
            if found? {
                self.line.push(m);
                return Some(true);
            }
        }
        Some(false)
    }

    fn price(&self, pos: &Position, m: Move) -> Price {
        let board = pos.board();
        let (from, to) = (m.from(), m.to());
        let loser = self.winner.other();
        let role = board.role_at(from);
        if pos.turn() == self.winner {
            let target = pos.king(loser);
            let advanced = relative_rank(self.winner, to) >= 5;
            match (m.kind(), role) {
                (MoveKind::Promotion(Role::Queen), _) => Price::Progress,
                (MoveKind::Promotion(_), _) => Price::Dear,
                _ if pos.is_capture(m) => Price::Progress,
                (_, Some(Role::Pawn)) if advanced => Price::Progress,
                (_, Some(Role::King | Role::Knight)) if nearer(to, from, target) => Price::Progress,
                _ => Price::Ordinary,
            }
        } else if board.by_color(self.winner).contains(to) {
            Price::Dear
        } else if role == Some(Role::King) && corner_distance(to) < corner_distance(from) {
            Price::Progress
        } else {
            Price::Ordinary
        }
    }
}

/// Does a move from `from` to `to` end nearer `target`?
fn nearer(to: Square, from: Square, target: Square) -> bool {
    to.distance(target) < from.distance(target)
}

/// The rank of `sq` counted from `color`'s side (0: its first rank).
fn relative_rank(color: Color, sq: Square) -> u32 {
    match color {
        Color::White => sq.rank().index(),
        Color::Black => 7 - sq.rank().index(),
    }
}

/// King steps to the nearest corner.
fn corner_distance(sq: Square) -> u32 {
    let (f, r) = (sq.file().index(), sq.rank().index());
    f.min(7 - f).max(r.min(7 - r))
}
