//! Move ordering: scores every legal move once, then hands them out best first by
//! selection (most nodes cut off after one or two moves, so a full sort would be wasted).
//!
//! Order: the transposition-table move; captures and queen promotions that do not lose
//! material by SEE, most valuable victim first; the two killer moves; the counter-move;
//! quiet moves by history; losing captures last (then under-promotions).

use crate::search::params::{HISTORY_MAX, SEE_VALUE};
use crate::see::{capture_gain, see_ge};
use shatranj_chess::{Color, Move, Position, Role};

const TT_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 26;
const KILLER_1: i32 = 1 << 25;
const KILLER_2: i32 = KILLER_1 - 1;
const COUNTER: i32 = KILLER_1 - 2;
const BAD_CAPTURE: i32 = -(1 << 26);
const UNDER_PROMOTION: i32 = -(1 << 27);

/// Quiet-move statistics of one search thread.
pub struct Heuristics {
    /// `history[colour][from][to]`: how often the move caused a cut-off, with decay.
    pub history: Box<[[[i32; 64]; 64]; 2]>,
    /// `counter[piece][to]`: the reply that refuted the previous move (piece = colour × 6 + role).
    pub counter: Box<[[Option<Move>; 64]; 12]>,
    /// Continuation history: `continuation[previous piece-to][piece-to]`, how well a quiet
    /// move did as a reply to the move one or two plies earlier (piece-to = piece × 64 + to).
    pub continuation: Vec<i32>,
}

/// Number of (piece, destination) pairs.
pub const PIECE_TO: usize = 12 * 64;

impl Default for Heuristics {
    // The history table goes straight into its box; an unoptimised build may pass it over
    // the stack once, well within any thread's stack.
    #[allow(clippy::large_stack_arrays)]
    fn default() -> Heuristics {
        Heuristics {
            history: Box::new([[[0; 64]; 64]; 2]),
            counter: Box::new([[None; 64]; 12]),
            continuation: vec![0; PIECE_TO * PIECE_TO],
        }
    }
}

impl Heuristics {
    pub fn history(&self, color: Color, m: Move) -> i32 {
        self.history[color.index()][m.from().index()][m.to().index()]
    }

    /// The quiet-move score: butterfly history plus the continuation histories of the
    /// previous plies' moves (`earlier` holds their piece-to indices).
    pub fn quiet_score(
        &self,
        color: Color,
        m: Move,
        piece_to: usize,
        earlier: &[Option<usize>; 2],
    ) -> i32 {
        let mut s = self.history(color, m);
        for k in earlier.iter().flatten() {
            s += self.continuation[k * PIECE_TO + piece_to];
        }
        s
    }

    /// History with gravity: scores approach `±HISTORY_MAX` but never pass it.
    pub fn update_history(&mut self, color: Color, m: Move, bonus: i32) {
        let h = &mut self.history[color.index()][m.from().index()][m.to().index()];
        gravity(h, bonus);
    }

    /// Updates both continuation histories of a quiet move.
    pub fn update_continuation(
        &mut self,
        piece_to: usize,
        earlier: &[Option<usize>; 2],
        bonus: i32,
    ) {
        for k in earlier.iter().flatten() {
            gravity(&mut self.continuation[k * PIECE_TO + piece_to], bonus);
        }
    }
}

fn gravity(h: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// Is `m` a capture or a promotion (the moves quiescence search looks at)?
pub fn is_tactical(pos: &Position, m: Move) -> bool {
    m.is_promotion() || pos.is_capture(m)
}

/// Ordering context of one node.
pub struct OrderingHints {
    pub tt_move: Option<Move>,
    pub killers: [Option<Move>; 2],
    pub counter: Option<Move>,
    /// Piece-to indices of the moves one and two plies before this node.
    pub earlier: [Option<usize>; 2],
}

/// The piece-to index of a move in `pos` (piece = colour × 6 + role of the mover).
pub fn piece_to(pos: &Position, m: Move) -> usize {
    let role = pos.moved_role(m).map_or(0, shatranj_chess::Role::index);
    (pos.turn().index() * 6 + role) * 64 + m.to().index()
}

/// Fills `out` with the moves of `moves` and their ordering scores.
pub fn score_moves(
    pos: &Position,
    moves: &[Move],
    hints: &OrderingHints,
    heur: &Heuristics,
    out: &mut Vec<(Move, i32)>,
) {
    out.clear();
    let turn = pos.turn();
    for &m in moves {
        let score = if Some(m) == hints.tt_move {
            TT_MOVE
        } else if is_tactical(pos, m) {
            tactical_score(pos, m)
        } else if Some(m) == hints.killers[0] {
            KILLER_1
        } else if Some(m) == hints.killers[1] {
            KILLER_2
        } else if Some(m) == hints.counter {
            COUNTER
        } else {
            heur.quiet_score(turn, m, piece_to(pos, m), &hints.earlier)
        };
        out.push((m, score));
    }
}

fn tactical_score(pos: &Position, m: Move) -> i32 {
    if let Some(r) = m.promotion()
        && r != Role::Queen
    {
        return UNDER_PROMOTION + capture_gain(pos, m);
    }
    let attacker = pos.moved_role(m).map_or(0, |r| SEE_VALUE[r.index()]);
    let mvv_lva = capture_gain(pos, m) * 16 - attacker / 16;
    if see_ge(pos, m, 0) {
        GOOD_CAPTURE + mvv_lva
    } else {
        BAD_CAPTURE + mvv_lva
    }
}

/// Scores captures for quiescence: most valuable victim, least valuable attacker.
pub fn score_captures(pos: &Position, moves: &[Move], out: &mut Vec<(Move, i32)>) {
    out.clear();
    for &m in moves {
        let attacker = pos.moved_role(m).map_or(0, |r| SEE_VALUE[r.index()]);
        out.push((m, capture_gain(pos, m) * 16 - attacker / 16));
    }
}

/// Moves the best remaining entry of `list[from..]` to `from` and returns it.
pub fn pick_next(list: &mut [(Move, i32)], from: usize) -> Option<(Move, i32)> {
    if from >= list.len() {
        return None;
    }
    let mut best = from;
    for i in from + 1..list.len() {
        if list[i].1 > list[best].1 {
            best = i;
        }
    }
    list.swap(from, best);
    Some(list[from])
}

/// Is this ordering score that of a capture losing material by SEE (or an under-promotion)?
pub fn is_bad_tactical(score: i32) -> bool {
    score < BAD_CAPTURE / 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use shatranj_chess::uci::parse_uci;

    #[test]
    fn tt_move_then_good_captures_then_quiets_then_bad_captures() {
        // White: Qd1 can take a defended pawn on d5 (bad), Nc3 can take the undefended
        // pawn on d5? No: use e4xd5 (good), Qxd5 later.
        let pos: Position = "4k3/8/2p5/3p4/4P3/2N5/8/3QK3 w - - 0 1".parse().unwrap();
        let tt = parse_uci(&pos, "e1f2").unwrap();
        let good = parse_uci(&pos, "e4d5").unwrap();
        let bad = parse_uci(&pos, "d1d5").unwrap();
        let hints = OrderingHints {
            tt_move: Some(tt),
            killers: [None, None],
            counter: None,
            earlier: [None, None],
        };
        let mut list = Vec::new();
        score_moves(
            &pos,
            &pos.legal_moves(),
            &hints,
            &Heuristics::default(),
            &mut list,
        );
        let mut order = Vec::new();
        let mut i = 0;
        while let Some((m, _)) = pick_next(&mut list, i) {
            order.push(m);
            i += 1;
        }
        assert_eq!(order[0], tt);
        assert!(order[1] == good || order[2] == good, "{order:?}");
        assert_eq!(*order.last().unwrap(), bad);
    }
}
