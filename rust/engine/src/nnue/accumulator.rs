//! Incremental accumulators for the search: one pair per ply, each the parent's plus the
//! rows of what the move changed, computed only when that ply is evaluated.

use super::{MAX_PIECES, Network, View, feature, piece_squares_into};
use shatranj_chess::{Board, Color, Position, Role};
use std::sync::Arc;

/// What a move changed, as White-view features: pieces that left a square and pieces that
/// arrived on one. Legal moves change at most two of each (castling; a capture that
/// promotes; en passant); anything larger is marked for a refresh.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    added: [u16; 2],
    removed: [u16; 2],
    n_added: u8,
    n_removed: u8,
    /// More changed than a delta holds: recompute from the position.
    refresh: bool,
}

impl Delta {
    /// The changes from `parent` to `child`, read off the boards, so every kind of move
    /// (castling, en passant, promotions) is covered by one rule.
    pub fn between(parent: &Board, child: &Board) -> Delta {
        let mut d = Delta::default();
        for color in Color::ALL {
            let (pc, cc) = (parent.by_color(color), child.by_color(color));
            // A side none of whose pieces moved or was taken: its squares and its king's
            // are the same. (A piece changes role only by promoting, which moves it; the
            // squares alone stay the same when Chess960 castling swaps king and rook.)
            if pc == cc && (parent.kings() & pc) == (child.kings() & cc) {
                continue;
            }
            for role in Role::ALL {
                let before = (pc & parent.by_role(role)).0;
                let after = (cc & child.by_role(role)).0;
                let (mut gone, mut came) = (before & !after, after & !before);
                while gone != 0 {
                    let sq = gone.trailing_zeros() as usize;
                    gone &= gone - 1;
                    d.push_removed(feature(Color::White, color, role, sq));
                }
                while came != 0 {
                    let sq = came.trailing_zeros() as usize;
                    came &= came - 1;
                    d.push_added(feature(Color::White, color, role, sq));
                }
            }
        }
        d
    }

    fn push_added(&mut self, f: usize) {
        match self.added.get_mut(usize::from(self.n_added)) {
            Some(slot) => {
                *slot = f as u16;
                self.n_added += 1;
            }
            None => self.refresh = true,
        }
    }

    fn push_removed(&mut self, f: usize) {
        match self.removed.get_mut(usize::from(self.n_removed)) {
            Some(slot) => {
                *slot = f as u16;
                self.n_removed += 1;
            }
            None => self.refresh = true,
        }
    }

    /// Rows to add and subtract per view.
    fn rows(&self) -> usize {
        usize::from(self.n_added + self.n_removed)
    }
}

/// A stack of accumulator pairs, one slot per ply of the search.
///
/// Each side's accumulator is brought up to date on its own: with king-bucketed inputs
/// ([`super::Inputs::KingBuckets`]) a king move that changes its side's [`View`] (another
/// bucket, or the other half of the board) rebuilds that side's accumulator from the
/// position, while the other side's is still updated by the move's rows.
pub struct AccumulatorStack {
    net: Arc<Network>,
    hidden: usize,
    /// Slot `p`: White's view then Black's, `hidden` values each.
    values: Vec<i16>,
    /// Per slot, whether White's and Black's accumulators are up to date.
    computed: Vec<[bool; 2]>,
    /// Per slot, the views of its position (White's, Black's).
    views: Vec<[View; 2]>,
    /// `deltas[p]`: from slot `p - 1` to slot `p`.
    deltas: Vec<Delta>,
    /// Accumulators (one side's each) updated by a move and rebuilt from scratch, for
    /// measurement.
    pub updates: u64,
    pub refreshes: u64,
    /// Check every evaluation against one from scratch (for tests): `checked` counts them,
    /// `mismatches` those that differ.
    pub verify: bool,
    pub checked: u64,
    pub mismatches: u64,
}

impl AccumulatorStack {
    pub fn new(net: Arc<Network>, slots: usize) -> AccumulatorStack {
        let hidden = net.hidden();
        let plain = [View::plain(Color::White), View::plain(Color::Black)];
        AccumulatorStack {
            net,
            hidden,
            values: vec![0; slots * 2 * hidden],
            computed: vec![[false; 2]; slots],
            views: vec![plain; slots],
            deltas: vec![Delta::default(); slots],
            updates: 0,
            refreshes: 0,
            verify: false,
            checked: 0,
            mismatches: 0,
        }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Computes slot `ply` from `pos` (the root of a search).
    pub fn reset(&mut self, ply: usize, pos: &Position) {
        for side in 0..2 {
            self.refresh(ply, side, pos);
        }
    }

    /// Slot `ply` will hold `child`, reached from slot `ply - 1`'s `parent`.
    #[inline]
    pub fn push(&mut self, ply: usize, parent: &Position, child: &Position) {
        self.deltas[ply] = Delta::between(parent.board(), child.board());
        let inputs = self.net.inputs();
        if inputs.king_dependent() {
            let board = child.board();
            self.views[ply] = Color::ALL
                .map(|c| inputs.view(c, board.king_of(c).map(shatranj_chess::Square::index)));
        }
        self.computed[ply] = [false; 2];
    }

    /// Slot `ply` holds the parent's pieces with the other side to move (a null move).
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        self.deltas[ply] = Delta::default();
        self.views[ply] = self.views[ply - 1];
        self.computed[ply] = [false; 2];
    }

    /// The evaluation of `pos`, the position of slot `ply`, for the side to move.
    pub fn evaluate(&mut self, ply: usize, pos: &Position) -> i32 {
        for side in 0..2 {
            if !self.computed[ply][side] {
                self.compute(ply, side, pos);
            }
        }
        let h = self.hidden;
        let slot = &self.values[ply * 2 * h..(ply + 1) * 2 * h];
        let (white, black) = slot.split_at(h);
        let pieces = pos.board().occupied().0.count_ones() as usize;
        let v = match pos.turn() {
            Color::White => self.net.output(white, black, pieces),
            Color::Black => self.net.output(black, white, pieces),
        };
        if self.verify {
            self.checked += 1;
            self.mismatches += u64::from(v != self.net.evaluate(pos));
        }
        v
    }

    /// Brings `side`'s accumulator of slot `ply` up to date: from the nearest ancestor where
    /// it is computed, applying each ply's changes, unless the side's view changed on the way
    /// (its king crossed a bucket or the board's middle) or refreshing from `pos` touches
    /// fewer rows.
    fn compute(&mut self, ply: usize, side: usize, pos: &Position) {
        let view = self.views[ply][side];
        let mut base = ply;
        let mut rows = 0;
        let mut blocked = false;
        while base > 0 && !self.computed[base][side] {
            rows += self.deltas[base].rows();
            blocked |= self.deltas[base].refresh;
            base -= 1;
            blocked |= self.views[base][side] != view;
        }
        let pieces = pos.board().occupied().0.count_ones() as usize;
        // More than 32 pieces (no legal position): the refresh counts only 32 of them.
        if blocked || !self.computed[base][side] || rows > pieces || pieces > MAX_PIECES {
            self.refresh(ply, side, pos);
            return;
        }
        for p in base + 1..=ply {
            self.apply(p, side);
        }
    }

    /// `side`'s accumulator of slot `ply` from scratch, with its view read off the pieces
    /// kept ([`Network::views`]: the same rule as every evaluation from scratch).
    fn refresh(&mut self, ply: usize, side: usize, pos: &Position) {
        let h = self.hidden;
        let mut pieces = [0usize; MAX_PIECES];
        let n = piece_squares_into(pos, &mut pieces);
        let (white, black) = self.net.views(&pieces[..n]);
        let view = if side == 0 { white } else { black };
        self.views[ply][side] = view;
        let acc = &mut self.values[(2 * ply + side) * h..(2 * ply + side + 1) * h];
        self.net.refresh_view(acc, view, &pieces[..n]);
        self.computed[ply][side] = true;
        self.refreshes += 1;
    }

    /// `side`'s accumulator of slot `p` from slot `p - 1`'s and `deltas[p]`.
    fn apply(&mut self, p: usize, side: usize) {
        let h = self.hidden;
        let d = self.deltas[p];
        let view = self.views[p][side];
        let (before, after) = self.values.split_at_mut((2 * p + side) * h);
        let parent = &before[(2 * (p - 1) + side) * h..][..h];
        let acc = &mut after[..h];
        acc.copy_from_slice(parent);
        let net = &*self.net;
        let added = &d.added[..usize::from(d.n_added)];
        let removed = &d.removed[..usize::from(d.n_removed)];
        let index = |f: u16| view.row(usize::from(f));
        let adds: [&[i16]; 2] =
            std::array::from_fn(|i| added.get(i).map_or(&[][..], |&f| net.row(index(f))));
        let subs: [&[i16]; 2] =
            std::array::from_fn(|i| removed.get(i).map_or(&[][..], |&f| net.row(index(f))));
        net.kernel()
            .apply(acc, &adds[..added.len()], &subs[..removed.len()]);
        self.computed[p][side] = true;
        self.updates += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::OutputBuckets;
    use crate::nnue::tests::{random_king_bucket_network, random_network_with};
    use shatranj_chess::uci::parse_uci;

    #[test]
    fn deltas_cover_every_kind_of_move() {
        let cases = [
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", 2, 2),
            ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", 2, 2),
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", 1, 2),
            ("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q", 1, 2),
            ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8n", 1, 1),
            ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "h1h8", 1, 1),
            ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 1, 2),
        ];
        for (fen, uci, added, removed) in cases {
            let pos: Position = fen.parse().unwrap();
            let mut child = pos;
            child.play_unchecked(parse_uci(&pos, uci).unwrap());
            let d = Delta::between(pos.board(), child.board());
            assert_eq!(
                (usize::from(d.n_added), usize::from(d.n_removed), d.refresh),
                (added, removed, false),
                "{fen} {uci}"
            );
        }
    }

    /// Chess960 castling, where the king or the rook stays put, or one lands on the other's
    /// origin: the delta read off the boards still names each piece that left and arrived.
    #[test]
    fn deltas_cover_chess960_castling() {
        use shatranj_chess::CastlingMode;
        // (FEN, king-takes-rook castling, pieces arrived, pieces left)
        let cases = [
            // The king stays on g1; the rook goes h1 to f1.
            ("4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", 1, 1),
            // The rook stays on d1; the king goes e1 to c1.
            ("4k3/8/8/8/8/8/8/3RK3 w D - 0 1", "e1d1", 1, 1),
            // King and rook swap squares (f1 and g1).
            ("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", "f1g1", 2, 2),
            // The king lands on the rook's origin (g1), the rook goes on to f1.
            ("4k3/8/8/8/8/8/8/4K1R1 w G - 0 1", "e1g1", 2, 2),
            // The rook lands on the king's origin (d1), the king goes on to c1.
            ("4k3/8/8/8/8/8/8/R2K4 w A - 0 1", "d1a1", 2, 2),
            // Black: the king stays on c8, the rook goes b8 to d8.
            ("1rk5/8/8/8/8/8/8/4K3 b b - 0 1", "c8b8", 1, 1),
        ];
        for (fen, uci, added, removed) in cases {
            let pos = Position::from_fen_with(fen, CastlingMode::Chess960).unwrap();
            let m = parse_uci(&pos, uci).unwrap();
            assert!(m.is_castle(), "{fen} {uci}");
            let mut child = pos;
            child.play_unchecked(m);
            let d = Delta::between(pos.board(), child.board());
            assert_eq!(
                (usize::from(d.n_added), usize::from(d.n_removed), d.refresh),
                (added, removed, false),
                "{fen} {uci}"
            );
        }
    }

    /// Along seeded random games, with null moves and jumps back up the stack, the lazy
    /// incremental evaluation equals the evaluation from scratch.
    #[test]
    fn incremental_equals_from_scratch_on_random_lines() {
        let net = Arc::new(random_network_with(17, 64, OutputBuckets::PieceCount));
        let stack = random_lines(&net, 99, |_| Position::new(), false);
        assert!(
            stack.updates > stack.refreshes,
            "{} updates, {} refreshes",
            stack.updates,
            stack.refreshes
        );
    }

    /// The same from Chess960 starting positions drawn by number, castling whenever it is
    /// legal half of the time so that every kind of castling is met.
    #[test]
    fn incremental_equals_from_scratch_on_chess960_lines() {
        let net = Arc::new(random_network_with(17, 64, OutputBuckets::PieceCount));
        let stack = random_lines(
            &net,
            960,
            |g| Position::chess960(g.below(960) as u32).unwrap(),
            true,
        );
        assert!(stack.updates > stack.refreshes);
    }

    /// The same for random architecture-3 networks (king buckets, mirroring; 1, 2, 4 and 8
    /// buckets), on every kernel this CPU runs, from the start and from sparse endgames
    /// where kings walk across buckets and the board's middle all the time. Kings crossing
    /// must cost only their own side a refresh.
    #[test]
    fn incremental_equals_from_scratch_with_king_buckets() {
        use crate::nnue::Kernel;
        let endgames = [
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ];
        for (i, k) in [1, 2, 4, 8].into_iter().enumerate() {
            let base = random_king_bucket_network(31 + k as u64, 64, k);
            for kernel in Kernel::ALL.into_iter().filter(|k| k.is_supported()) {
                println!("{k} king buckets, {kernel:?}");
                let net = Arc::new(base.with_kernel(kernel).unwrap());
                let stack = random_lines(&net, 7 + i as u64, |_| Position::new(), false);
                assert!(stack.updates > stack.refreshes);
                let stack = random_lines(
                    &net,
                    70 + i as u64,
                    |g| endgames[g.below(endgames.len())].parse().unwrap(),
                    false,
                );
                assert!(stack.updates > 0 && stack.refreshes > 40);
            }
        }
    }

    /// A king move from e1 to d1 changes White's view (the board's other half): White's
    /// accumulator is rebuilt, Black's updated by the move's two rows.
    #[test]
    fn a_king_crossing_refreshes_only_its_own_side() {
        let net = Arc::new(random_king_bucket_network(5, 32, 4));
        let mut stack = AccumulatorStack::new(Arc::clone(&net), 4);
        let pos: Position = "4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1".parse().unwrap();
        stack.reset(0, &pos);
        let (updates, refreshes) = (stack.updates, stack.refreshes);
        let mut child = pos;
        child.play_unchecked(parse_uci(&pos, "e1d1").unwrap());
        stack.push(1, &pos, &child);
        assert_eq!(stack.evaluate(1, &child), net.evaluate(&child));
        assert_eq!(
            (stack.updates - updates, stack.refreshes - refreshes),
            (1, 1)
        );
        // Black's king from e8 to f8 stays in its bucket and on its half (its own e1 and f1,
        // both seen as on d1 or c1): both sides only updated.
        let mut grandchild = child;
        grandchild.play_unchecked(parse_uci(&child, "e8f8").unwrap());
        stack.push(2, &child, &grandchild);
        let (updates, refreshes) = (stack.updates, stack.refreshes);
        assert_eq!(stack.evaluate(2, &grandchild), net.evaluate(&grandchild));
        assert_eq!(
            (stack.updates - updates, stack.refreshes - refreshes),
            (2, 0)
        );
    }

    /// Plays 40 seeded random lines from `start`, checking two evaluations in three against
    /// the network from scratch; returns the stack for its counters. The networks have output
    /// buckets, so captures also change which output layer scores the position.
    fn random_lines(
        net: &Arc<Network>,
        seed: u64,
        start: impl Fn(&mut crate::util::SplitMix64) -> Position,
        prefer_castling: bool,
    ) -> AccumulatorStack {
        let mut stack = AccumulatorStack::new(Arc::clone(net), 16);
        let mut g = crate::util::SplitMix64::new(seed);
        println!("seed {seed}");
        let mut castlings = 0;
        for _ in 0..40 {
            let mut line = vec![start(&mut g)];
            stack.reset(0, &line[0]);
            for _ in 0..60 {
                let ply = line.len() - 1;
                let pos = line[ply];
                // Back up a few plies now and then, as a search returns to siblings.
                if ply > 2 && g.below(4) == 0 {
                    line.truncate(ply - g.below(2));
                    continue;
                }
                if ply + 1 >= 16 {
                    line.truncate(4);
                    continue;
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let castle = moves.iter().copied().find(|m| m.is_castle());
                let mut child = pos;
                if g.below(10) == 0 && !pos.is_check() && child.play_null() {
                    stack.push_null(ply + 1);
                } else {
                    let m = match castle {
                        Some(c) if prefer_castling && g.below(2) == 0 => c,
                        _ => moves.as_slice()[g.below(moves.len())],
                    };
                    castlings += usize::from(m.is_castle());
                    child.play_unchecked(m);
                    stack.push(ply + 1, &pos, &child);
                }
                line.push(child);
                if g.below(3) != 0 || castle.is_some() {
                    assert_eq!(
                        stack.evaluate(ply + 1, &child),
                        net.evaluate(&child),
                        "{}",
                        child.fen()
                    );
                }
            }
        }
        assert!(
            !prefer_castling || castlings >= 20,
            "only {castlings} castlings"
        );
        stack
    }
}
