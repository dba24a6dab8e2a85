//! The learned evaluation: an efficiently updatable neural network (NNUE) of shape
//! (768 → H) × 2 → 1, with one output layer or one per material stage ([`OutputBuckets`]).
//!
//! # The network
//!
//! Inputs are the 768 piece-square features seen from each side ([`feature`]): friendly
//! pawn … king, then enemy pawn … king, 64 squares each, with the board flipped vertically
//! for Black. With king buckets (file architecture 3, [`inputs`]) each side reads them from
//! one of `K` blocks of 768 rows, chosen by its own king's square, and mirrored left to
//! right when that king is on files e–h. One hidden layer of `H` neurons, shared by both
//! sides, gives two *accumulators*, `acc_us` (the side to move's view) and `acc_them`:
//!
//! ```text
//! acc_v[j] = b1[j] + Σ_{f active in view v} W1[row_v(f)][j]                 (i16)
//! k        = the output bucket of the number of pieces on the board
//! sum      = Σ_j v(acc_us[j]) · (v(acc_us[j]) · W2[k][j])
//!          + Σ_j v(acc_them[j]) · (v(acc_them[j]) · W2[k][H + j])           (i32, mod 2³²)
//!            with v(x) = clamp(x, 0, QA)                                    (SCReLU)
//! eval     = clamp((sum / QA + b2[k]) · SCALE / (QA · QB), −MAX_EVAL, MAX_EVAL)
//! ```
//!
//! `/` truncates toward zero and `·` wraps modulo 2³², as in Rust's `wrapping_*` and
//! WGSL's `i32`, so the GPU computes the same integer. Float weights are quantised as
//! `W1, b1 × QA`, `W2 × QB`, `b2 × QA·QB`; the float network it approximates outputs
//! `eval / SCALE` ([`mod@file`] has the format, the trainer in `rust/train` the float side).
//!
//! # In the search
//!
//! A move changes two to four features, so each ply's accumulators are the parent's plus a
//! few rows ([`AccumulatorStack`]), computed lazily when an evaluation is actually asked for,
//! from the nearest computed ancestor, or from scratch when that is cheaper, or when a king
//! move changed its side's view (then only that side's accumulator is rebuilt).

mod accumulator;
mod compact;
pub mod file;
pub mod inputs;
pub mod kernels;

pub use accumulator::{AccumulatorStack, Delta};
pub use compact::{CompactError, CompactPosition};
pub use file::{NetError, NetHeader};
pub use inputs::{Inputs, KingBuckets, View};
pub use kernels::Kernel;

use crate::score::TB_WIN_BOUND;
use shatranj_chess::{Color, Position, Role};

/// Inputs per view: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// The largest |evaluation| the network returns: below every mate and tablebase score.
pub const MAX_EVAL: i32 = TB_WIN_BOUND - 1;

/// The input of piece `(color, role)` on square `sq` in the view of `perspective`.
#[inline]
#[allow(clippy::decimal_bitwise_operands)] // `sq ^ 56`: the vertical flip, as chess writes it
pub fn feature(perspective: Color, color: Color, role: Role, sq: usize) -> usize {
    let theirs = usize::from(color != perspective);
    let sq = if perspective == Color::White {
        sq
    } else {
        sq ^ 56
    };
    64 * (6 * theirs + role.index()) + sq
}

/// White's view of a piece-square (`64 · (6 · colour + role) + square`) seen by Black: the
/// colours swap and the board flips vertically (`sq ^ 56` touches only the square's bits).
#[inline]
#[allow(clippy::decimal_bitwise_operands)] // `^ 56`: the vertical flip, as chess writes it
pub const fn black_view(white_feature: usize) -> usize {
    ((white_feature + 384) % INPUTS) ^ 56
}

/// How the output layer is chosen. The accumulators are the same either way; only the last
/// layer (`W2`, `b2`) has one copy per bucket. Separate output layers let the network weigh
/// its hidden features differently in the opening and in an endgame at no cost in speed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OutputBuckets {
    /// One output layer for every position (file architecture 1).
    Single,
    /// Eight output layers, bucket `(pieces − 2) / 4` by the number of pieces on the board,
    /// kings included: 2–5 pieces use the first, 30–32 the last (file architecture 2).
    PieceCount,
}

impl OutputBuckets {
    /// Every kind, in file-architecture order.
    pub const ALL: [OutputBuckets; 2] = [OutputBuckets::Single, OutputBuckets::PieceCount];

    /// How many output layers the network has.
    pub const fn count(self) -> usize {
        match self {
            OutputBuckets::Single => 1,
            OutputBuckets::PieceCount => 8,
        }
    }

    /// The output layer of a position with `pieces` pieces on the board (at most
    /// [`MAX_PIECES`] count, as for the features).
    #[inline]
    pub const fn bucket(self, pieces: usize) -> usize {
        match self {
            OutputBuckets::Single => 0,
            OutputBuckets::PieceCount => {
                let p = if pieces > MAX_PIECES {
                    MAX_PIECES
                } else {
                    pieces
                };
                p.saturating_sub(2) / 4
            }
        }
    }

    /// The architecture number a network file stores for it.
    pub const fn architecture(self) -> u16 {
        match self {
            OutputBuckets::Single => file::ARCH_PERSPECTIVE_SCRELU,
            OutputBuckets::PieceCount => file::ARCH_PIECE_COUNT_BUCKETS,
        }
    }

    pub fn from_architecture(arch: u16) -> Option<OutputBuckets> {
        OutputBuckets::ALL
            .into_iter()
            .find(|b| b.architecture() == arch)
    }

    /// The kind with `count` output layers, if there is one.
    pub fn with_count(count: usize) -> Option<OutputBuckets> {
        OutputBuckets::ALL.into_iter().find(|b| b.count() == count)
    }
}

/// The most pieces the network sees: a legal position has at most 32, and the loader's
/// overflow check assumes no more.
pub const MAX_PIECES: usize = 32;

/// The active features of both views of `pos` with plain inputs: `(white view, black view)`.
/// A board with more than [`MAX_PIECES`] pieces (never a legal position) counts its first 32
/// in square order, as [`CompactPosition`] stores them, so every path computes the same number.
pub fn active_features(pos: &Position) -> (Vec<usize>, Vec<usize>) {
    let mut pieces = [0usize; MAX_PIECES];
    let n = piece_squares_into(pos, &mut pieces);
    let white = pieces[..n].to_vec();
    let black = white.iter().map(|&f| black_view(f)).collect();
    (white, black)
}

/// The piece-squares of `pos` (White's naming, [`feature`] with White's perspective), at most
/// [`MAX_PIECES`] of them: fills `out`, returns how many there are.
pub fn piece_squares_into(pos: &Position, out: &mut [usize; MAX_PIECES]) -> usize {
    let board = pos.board();
    let each_piece = |f: &mut dyn FnMut(usize)| {
        for color in Color::ALL {
            for role in Role::ALL {
                let mut bb = (board.by_color(color) & board.by_role(role)).0;
                while bb != 0 {
                    let sq = bb.trailing_zeros() as usize;
                    bb &= bb - 1;
                    f(feature(Color::White, color, role, sq));
                }
            }
        }
    };
    let mut n = 0;
    if board.occupied().0.count_ones() as usize > MAX_PIECES {
        // The first 32 in square order (never a legal position, so never fast).
        let mut all: Vec<usize> = Vec::with_capacity(64);
        each_piece(&mut |f| all.push(f));
        all.sort_by_key(|f| f % 64);
        all.truncate(MAX_PIECES);
        for f in all {
            out[n] = f;
            n += 1;
        }
    } else {
        each_piece(&mut |f| {
            out[n] = f;
            n += 1;
        });
    }
    n
}

/// A loaded network: quantised weights, checked so that no evaluation can overflow, with the
/// kernels this CPU runs best.
#[derive(Clone)]
pub struct Network {
    header: NetHeader,
    /// `inputs × hidden`, one row per input ([`Inputs::count`]).
    feature_weights: Vec<i16>,
    feature_bias: Vec<i16>,
    /// `buckets × 2 × hidden`: per bucket, the side to move's half, then the other side's.
    output_weights: Vec<i16>,
    /// One per bucket.
    output_bias: Vec<i32>,
    kernel: Kernel,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("hidden", &self.header.hidden)
            .field("inputs", &self.header.inputs)
            .field("buckets", &self.header.buckets)
            .field("hash", &self.hash_hex())
            .field("kernel", &self.kernel)
            .finish_non_exhaustive()
    }
}

/// Two networks are equal when their weights are, whatever kernels they run: when their
/// headers are, since the header holds the weights' SHA-256.
impl PartialEq for Network {
    fn eq(&self, other: &Network) -> bool {
        self.header == other.header
    }
}

impl Eq for Network {}

impl Network {
    /// A network with plain inputs from quantised weights, checked as a file's would be.
    pub fn from_parts(
        quantisation: file::Quantisation,
        buckets: OutputBuckets,
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Result<Network, NetError> {
        Network::from_parts_with(
            quantisation,
            Inputs::Plain,
            buckets,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        )
    }

    /// [`Network::from_parts`] with `inputs` (`feature_weights` has `inputs.count()` rows).
    pub fn from_parts_with(
        quantisation: file::Quantisation,
        inputs: Inputs,
        buckets: OutputBuckets,
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Result<Network, NetError> {
        let hidden = feature_bias.len();
        file::check_hidden(hidden)?;
        quantisation.check()?;
        let sizes = [
            (
                "feature weights",
                feature_weights.len(),
                inputs.count() * hidden,
            ),
            (
                "output weights",
                output_weights.len(),
                buckets.count() * 2 * hidden,
            ),
            ("output biases", output_bias.len(), buckets.count()),
        ];
        for (what, found, expected) in sizes {
            if found != expected {
                return Err(NetError::Shape {
                    what,
                    expected,
                    found,
                });
            }
        }
        let mut net = Network {
            header: NetHeader {
                hidden,
                inputs,
                buckets,
                quantisation,
                hash: [0; 32],
            },
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
            kernel: Kernel::best(),
        };
        net.check_ranges()?;
        net.header.hash = crate::util::sha256(&net.payload());
        Ok(net)
    }

    pub fn hidden(&self) -> usize {
        self.header.hidden
    }

    pub fn header(&self) -> &NetHeader {
        &self.header
    }

    pub fn feature_weights(&self) -> &[i16] {
        &self.feature_weights
    }

    pub fn feature_bias(&self) -> &[i16] {
        &self.feature_bias
    }

    pub fn buckets(&self) -> OutputBuckets {
        self.header.buckets
    }

    /// How the first layer's rows are chosen.
    pub fn inputs(&self) -> &Inputs {
        &self.header.inputs
    }

    /// Every bucket's output weights, bucket after bucket.
    pub fn output_weights(&self) -> &[i16] {
        &self.output_weights
    }

    /// One output bias per bucket.
    pub fn output_bias(&self) -> &[i32] {
        &self.output_bias
    }

    /// The SHA-256 of the weights, as hex: the network's identity.
    pub fn hash_hex(&self) -> String {
        crate::util::hex(&self.header.hash)
    }

    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The same network on other kernels (`None` if this CPU cannot run them).
    pub fn with_kernel(&self, kernel: Kernel) -> Option<Network> {
        kernel.is_supported().then(|| Network {
            kernel,
            ..self.clone()
        })
    }

    /// The row of feature `f`.
    #[inline]
    pub(crate) fn row(&self, f: usize) -> &[i16] {
        let h = self.header.hidden;
        &self.feature_weights[f * h..(f + 1) * h]
    }

    /// Fills `acc` (`hidden` values) with the accumulator of one view: bias plus the rows of
    /// `features`.
    pub fn accumulate(&self, acc: &mut [i16], features: &[usize]) {
        self.refresh(acc, features);
    }

    /// Fills `acc` with the accumulator of one view: bias plus the rows of `features`.
    pub(crate) fn refresh(&self, acc: &mut [i16], features: &[usize]) {
        self.kernel
            .accumulate(acc, &self.feature_bias, &self.feature_weights, features);
    }

    /// The evaluation from the two accumulators of a position with `pieces` pieces: `us`
    /// is the side to move's view.
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16], pieces: usize) -> i32 {
        let h = self.header.hidden;
        let q = self.header.quantisation;
        let qa = q.qa as i16;
        let k = self.header.buckets.bucket(pieces);
        let w = &self.output_weights[2 * h * k..2 * h * (k + 1)];
        let sum = self
            .kernel
            .screlu_dot(us, &w[..h], qa)
            .wrapping_add(self.kernel.screlu_dot(them, &w[h..], qa));
        finish(sum, self.output_bias[k], q)
    }

    /// The evaluation of `pos` from scratch, centipawns for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut pieces = [0usize; MAX_PIECES];
        let n = piece_squares_into(pos, &mut pieces);
        self.evaluate_pieces(&pieces[..n], pos.turn() == Color::Black)
    }

    /// The evaluation of a compact position (the GPU's input) from scratch.
    pub fn evaluate_compact(&self, c: &CompactPosition) -> i32 {
        let mut pieces = [0usize; MAX_PIECES];
        let mut n = 0;
        for f in c.white_features() {
            pieces[n] = f;
            n += 1;
        }
        self.evaluate_pieces(&pieces[..n], c.black_to_move())
    }

    /// The evaluation of a packed position (the batch back ends' input) from scratch.
    pub fn evaluate_packed(&self, p: &crate::eval::packed::PackedPosition) -> i32 {
        self.evaluate_compact(&CompactPosition::from_packed(p))
    }

    /// The rows of `pieces` (piece-squares) in `view`.
    pub fn rows(view: View, pieces: &[usize], out: &mut [usize; MAX_PIECES]) -> usize {
        for (o, &p) in out.iter_mut().zip(pieces) {
            *o = view.row(p);
        }
        pieces.len().min(MAX_PIECES)
    }

    /// Both views of a position with these piece-squares: `(White's, Black's)`.
    #[inline]
    pub fn views(&self, pieces: &[usize]) -> (View, View) {
        self.header.inputs.views(pieces.iter().copied())
    }

    /// Fills `acc` with the accumulator of `view` over `pieces` (piece-squares) from scratch.
    pub(crate) fn refresh_view(&self, acc: &mut [i16], view: View, pieces: &[usize]) {
        let mut rows = [0usize; MAX_PIECES];
        let n = Network::rows(view, pieces, &mut rows);
        self.refresh(acc, &rows[..n]);
    }

    /// The evaluation from scratch of the position whose piece-squares are `pieces`.
    pub fn evaluate_pieces(&self, pieces: &[usize], black_to_move: bool) -> i32 {
        let h = self.header.hidden;
        let mut w = [0i16; file::MAX_HIDDEN];
        let mut b = [0i16; file::MAX_HIDDEN];
        let (w, b) = (&mut w[..h], &mut b[..h]);
        let (white_view, black_view) = self.views(pieces);
        self.refresh_view(w, white_view, pieces);
        self.refresh_view(b, black_view, pieces);
        let pieces = pieces.len();
        if black_to_move {
            self.output(b, w, pieces)
        } else {
            self.output(w, b, pieces)
        }
    }

    /// Checks that no position can overflow the integer arithmetic: every accumulator stays
    /// in `i16` whatever 32 features are active (bias plus the 32 largest |weights| of its
    /// neuron within one king bucket's block, the rows one view can read), and every
    /// `clamp(acc) · W2` fits `i16`.
    fn check_ranges(&self) -> Result<(), NetError> {
        let h = self.header.hidden;
        let qa = self.header.quantisation.qa;
        for (j, &w) in self.output_weights.iter().enumerate() {
            if i32::from(w).abs() * qa > i32::from(i16::MAX) {
                return Err(NetError::OutputWeightRange {
                    index: j,
                    weight: w,
                    limit: i32::from(i16::MAX) / qa,
                });
            }
        }
        let mut column = vec![0i32; INPUTS];
        for block in 0..self.header.inputs.count() / INPUTS {
            for j in 0..h {
                for (f, c) in column.iter_mut().enumerate() {
                    *c = i32::from(self.feature_weights[(block * INPUTS + f) * h + j]).abs();
                }
                column.select_nth_unstable_by(31, |a, b| b.cmp(a));
                let bound =
                    i32::from(self.feature_bias[j]).abs() + column[..32].iter().sum::<i32>();
                if bound > i32::from(i16::MAX) {
                    return Err(NetError::AccumulatorRange { neuron: j, bound });
                }
            }
        }
        Ok(())
    }
}

/// The last step of the evaluation, shared by every kernel and by the GPU's definition.
#[inline]
pub fn finish(sum: i32, bias: i32, q: file::Quantisation) -> i32 {
    let v = (sum / q.qa).wrapping_add(bias).wrapping_mul(q.scale) / (q.qa * q.qb);
    v.clamp(-MAX_EVAL, MAX_EVAL)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::util::SplitMix64;

    /// A random network of `hidden` neurons whose weights use most of the allowed range.
    pub(crate) fn random_network(seed: u64, hidden: usize) -> Network {
        random_network_with(seed, hidden, OutputBuckets::Single)
    }

    /// [`random_network`] with `buckets`' output layers, each bias different.
    pub(crate) fn random_network_with(seed: u64, hidden: usize, buckets: OutputBuckets) -> Network {
        random_network_inputs(seed, hidden, Inputs::Plain, buckets)
    }

    /// [`random_network_with`] reading its rows through `inputs`.
    pub(crate) fn random_network_inputs(
        seed: u64,
        hidden: usize,
        inputs: Inputs,
        buckets: OutputBuckets,
    ) -> Network {
        let mut g = SplitMix64::new(seed);
        let mut r = |max: i32| (g.below(2 * max as usize + 1) as i32 - max) as i16;
        let fw = (0..inputs.count() * hidden).map(|_| r(400)).collect();
        let fb = (0..hidden).map(|_| r(2000)).collect();
        let n = buckets.count();
        let ow = (0..n * 2 * hidden).map(|_| r(127)).collect();
        let ob = (0..n as i32).map(|k| 1234 - 20_000 * k).collect();
        let q = file::Quantisation::default();
        Network::from_parts_with(q, inputs, buckets, fw, fb, ow, ob).unwrap()
    }

    /// A random network with the preset of `k` king buckets.
    pub(crate) fn random_king_bucket_network(seed: u64, hidden: usize, k: usize) -> Network {
        let inputs = Inputs::KingBuckets(KingBuckets::preset(k).unwrap());
        random_network_inputs(seed, hidden, inputs, OutputBuckets::PieceCount)
    }

    /// Each piece count has the bucket the formula gives, every bucket is used, and counts
    /// past 32 share the last one.
    #[test]
    fn output_buckets_follow_the_piece_count() {
        let b = OutputBuckets::PieceCount;
        let expected = [
            (0, 0),
            (2, 0),
            (5, 0),
            (6, 1),
            (17, 3),
            (29, 6),
            (30, 7),
            (32, 7),
        ];
        for (pieces, bucket) in expected {
            assert_eq!(b.bucket(pieces), bucket, "{pieces} pieces");
        }
        assert_eq!(b.bucket(40), 7);
        let used: std::collections::BTreeSet<usize> = (2..=32).map(|p| b.bucket(p)).collect();
        assert_eq!(used.len(), b.count());
        assert!((0..=40).all(|p| OutputBuckets::Single.bucket(p) == 0));
        for kind in OutputBuckets::ALL {
            assert_eq!(
                OutputBuckets::from_architecture(kind.architecture()),
                Some(kind)
            );
            assert_eq!(OutputBuckets::with_count(kind.count()), Some(kind));
        }
    }

    /// A bucketed network scores each position with the layer of its piece count: the same
    /// as a single-layer network made of that bucket's weights.
    #[test]
    fn a_bucketed_network_uses_the_layer_of_the_piece_count() {
        let net = random_network_with(8, 64, OutputBuckets::PieceCount);
        let h = net.hidden();
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            let k = net
                .buckets()
                .bucket(pos.board().occupied().0.count_ones() as usize);
            let single = Network::from_parts(
                net.header().quantisation,
                OutputBuckets::Single,
                net.feature_weights().to_vec(),
                net.feature_bias().to_vec(),
                net.output_weights()[2 * h * k..2 * h * (k + 1)].to_vec(),
                vec![net.output_bias()[k]],
            )
            .unwrap();
            assert_eq!(net.evaluate(&pos), single.evaluate(&pos), "{fen}");
        }
    }

    #[test]
    fn black_view_mirrors_colour_and_rank() {
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in 0..64 {
                    let w = feature(Color::White, color, role, sq);
                    assert_eq!(black_view(w), feature(Color::Black, color, role, sq));
                }
            }
        }
        assert_eq!(feature(Color::White, Color::White, Role::Pawn, 8), 8);
        assert_eq!(feature(Color::Black, Color::White, Role::Pawn, 8), 384 + 48);
    }

    /// The evaluation of a position and of its colour-flipped mirror are the same number:
    /// each side sees its own pieces the same way.
    #[test]
    fn a_mirrored_position_scores_the_same() {
        for net in [random_network(3, 64), random_king_bucket_network(3, 64, 4)] {
            for fen in [
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
            ] {
                let pos: Position = fen.parse().unwrap();
                assert_eq!(net.evaluate(&pos), net.evaluate(&pos.mirrored()), "{fen}");
            }
        }
    }

    /// With king buckets and mirroring, a position and its left-right mirror image (files
    /// a↔h) score the same: each view sees its king on files a–d either way. A plain network
    /// tells them apart.
    #[test]
    fn king_buckets_see_a_position_and_its_file_mirror_alike() {
        let net = random_king_bucket_network(11, 64, 4);
        let plain = random_network(11, 64);
        let mut plain_differs = 0;
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
            "rnbq1rk1/ppp2ppp/3p1n2/4p3/1bB1P3/2NP1N2/PPP2PPP/R1BQK2R w - - 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            let flipped: Position = flip_files(fen).parse().unwrap();
            assert_eq!(net.evaluate(&pos), net.evaluate(&flipped), "{fen}");
            plain_differs += usize::from(plain.evaluate(&pos) != plain.evaluate(&flipped));
        }
        assert!(plain_differs > 0);
    }

    /// The FEN with every rank reversed (files a↔h); castling rights dropped.
    fn flip_files(fen: &str) -> String {
        let mut parts: Vec<String> = fen.split(' ').map(str::to_string).collect();
        parts[0] = parts[0]
            .split('/')
            .map(|r| r.chars().rev().collect::<String>())
            .collect::<Vec<_>>()
            .join("/");
        parts[2] = "-".into();
        parts.join(" ")
    }

    /// Every row an architecture-3 view reads is the one a plain network built from that
    /// bucket's block (mirrored by hand) reads: the blocks really are per bucket.
    #[test]
    fn a_king_bucket_network_reads_its_kings_block() {
        let net = random_king_bucket_network(21, 32, 4);
        let h = net.hidden();
        for (fen, bucket) in [
            ("4k3/8/8/8/8/8/8/1K6 w - - 0 1", 0),
            ("4k3/8/8/8/8/8/3K4/8 b - - 0 1", 2),
            ("4k3/8/8/8/3K4/8/8/8 w - - 0 1", 3),
        ] {
            let pos: Position = fen.parse().unwrap();
            let king = pos.board().king_of(Color::White).unwrap().index();
            let view = net.inputs().view(Color::White, Some(king));
            assert_eq!(view.bucket(), bucket, "{fen}");
        }
        // A plain network made of block 3 scores a position whose both kings sit in bucket 3
        // on files a-d the same.
        let block = net.feature_weights()[3 * INPUTS * h..4 * INPUTS * h].to_vec();
        let plain = Network::from_parts(
            net.header().quantisation,
            net.buckets(),
            block,
            net.feature_bias().to_vec(),
            net.output_weights().to_vec(),
            net.output_bias().to_vec(),
        )
        .unwrap();
        let pos: Position = "8/8/2k5/8/8/1K6/8/R7 w - - 0 1".parse().unwrap();
        assert_eq!(net.evaluate(&pos), plain.evaluate(&pos));
    }

    #[test]
    fn nets_whose_arithmetic_could_overflow_are_refused() {
        let net = random_network(5, 32);
        let q = file::Quantisation::default();
        let mut ow = net.output_weights().to_vec();
        ow[3] = 200;
        let e = Network::from_parts(
            q,
            OutputBuckets::Single,
            net.feature_weights().to_vec(),
            net.feature_bias().to_vec(),
            ow,
            vec![0],
        )
        .unwrap_err();
        assert!(
            matches!(e, NetError::OutputWeightRange { index: 3, .. }),
            "{e}"
        );
        let mut fw = net.feature_weights().to_vec();
        for f in 0..40 {
            fw[f * 32 + 7] = 1000;
        }
        let e = Network::from_parts(
            q,
            OutputBuckets::Single,
            fw,
            net.feature_bias().to_vec(),
            net.output_weights().to_vec(),
            vec![0],
        )
        .unwrap_err();
        assert!(
            matches!(e, NetError::AccumulatorRange { neuron: 7, .. }),
            "{e}"
        );
    }
}
