//! The float network the trainer optimises, its gradients, and its quantisation into the
//! integer network the engine runs ([`shatranj_engine::nnue`]).
//!
//! ```text
//! acc_v = b1 + Σ_{f ∈ view v} W1[row_v(f)] h_v = clamp(acc_v, 0, 1)²
//!         (row_v: the engine's `View::row`, king-bucketed and mirrored for architecture 3)
//!         (factorised: W1[row] + F[row mod 768], one shared block added to every bucket's)
//! k     = the output bucket of the piece count (always 0 with a single output layer)
//! out   = W2[k][..H] · h_us + W2[k][H..] · h_them + b2[k]    eval = out · SCALE (centipawns)
//! loss  = (σ(eval / 400) − (wdl · result + (1 − wdl) · σ(score / 400)))²
//! ```

use crate::data::Sample;
use shatranj_engine::nnue::file::Quantisation;
use shatranj_engine::nnue::{INPUTS, Inputs, NetError, Network, OutputBuckets};
use shatranj_engine::util::SplitMix64;

/// First-layer weights are kept within ±CLIP so that the quantised accumulators cannot
/// overflow: `33 · 1.98 · 255 < 32767`.
pub const CLIP: f32 = 1.98;

/// The bound on output weights under `q`: the engine admits integer output weights up to
/// `i16::MAX / QA` (so that the kernels' `v · w` fits an i16), which is `w · QB` here.
pub fn output_clip(q: Quantisation) -> f32 {
    ((i32::from(i16::MAX) / q.qa.max(1)) as f32 / q.qb.max(1) as f32).min(CLIP)
}
/// The score scale of the sigmoid (centipawns per unit of log-odds, times ln 10 / 4 ≈ 1).
pub const EVAL_SCALE: f32 = 400.0;

/// The parameters (or their gradients, or optimiser moments): one flat vector with the
/// layers at fixed offsets.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub hidden: usize,
    /// How a view's pieces become rows of `W1`.
    pub inputs: Inputs,
    pub buckets: OutputBuckets,
    /// Whether `values` ends with the *factor*: one block of 768 rows that every king
    /// bucket's rows share (row `r` reads `W1[r] + F[r mod 768]`). A bucket whose king
    /// squares are rare then still learns what a piece on a square is worth from every
    /// position, and only the king-dependent difference from its own. The engine never sees
    /// it: [`Params::folded`] adds it into each bucket before quantisation.
    pub factorised: bool,
    /// `W1 (R·H) | b1 (H) | W2 (B·2·H) | b2 (B) [| F (768·H)]` for `R` input rows and `B`
    /// output buckets.
    pub values: Vec<f32>,
}

impl Params {
    pub fn zeros(hidden: usize, inputs: Inputs, buckets: OutputBuckets) -> Params {
        Params {
            hidden,
            inputs,
            buckets,
            factorised: false,
            values: vec![0.0; Params::len_for(hidden, &inputs, buckets)],
        }
    }

    /// The same network with a factor of zeros appended: it evaluates exactly as before, and
    /// training then moves what all buckets share into the factor.
    #[must_use]
    pub fn with_factor(mut self) -> Params {
        if !self.factorised {
            self.factorised = true;
            self.values
                .resize(self.values.len() + INPUTS * self.hidden, 0.0);
        }
        self
    }

    /// Zeros shaped like `self` (the factor included): a gradient or optimiser moment.
    pub fn zeros_like(&self) -> Params {
        Params {
            values: vec![0.0; self.values.len()],
            ..self.clone_shape()
        }
    }

    fn clone_shape(&self) -> Params {
        Params {
            hidden: self.hidden,
            inputs: self.inputs,
            buckets: self.buckets,
            factorised: self.factorised,
            values: Vec::new(),
        }
    }

    pub fn len_for(hidden: usize, inputs: &Inputs, buckets: OutputBuckets) -> usize {
        let b = buckets.count();
        inputs.count() * hidden + hidden + b * 2 * hidden + b
    }

    /// Uniform in ±1/√fan-in for each layer, biases zero, from `seed`. (With output buckets
    /// the draws of the first bucket are those of a single-layer network of the same seed.)
    /// The first layer's limit is that of 768 inputs whatever the king buckets: a view reads
    /// one block, so its fan-in does not grow with them.
    pub fn random(hidden: usize, inputs: Inputs, buckets: OutputBuckets, seed: u64) -> Params {
        let mut p = Params::zeros(hidden, inputs, buckets);
        let mut g = SplitMix64::new(seed);
        let mut uniform = |limit: f32| {
            let u = (g.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * limit
        };
        let w1 = 1.0 / (INPUTS as f32).sqrt();
        let w2 = 1.0 / ((2 * hidden) as f32).sqrt();
        for v in p.w1_mut() {
            *v = uniform(w1);
        }
        for v in p.w2_mut() {
            *v = uniform(w2);
        }
        p
    }

    /// Where `b1`, `W2` and `b2` start.
    pub(crate) fn split(&self) -> (usize, usize, usize) {
        let h = self.hidden;
        let b1 = self.inputs.count() * h;
        (b1, b1 + h, b1 + h + self.buckets.count() * 2 * h)
    }

    pub fn w1(&self) -> &[f32] {
        &self.values[..self.split().0]
    }
    pub fn w1_mut(&mut self) -> &mut [f32] {
        let (a, _, _) = self.split();
        &mut self.values[..a]
    }
    pub fn b1(&self) -> &[f32] {
        let (a, b, _) = self.split();
        &self.values[a..b]
    }
    pub fn w2(&self) -> &[f32] {
        let (_, b, c) = self.split();
        &self.values[b..c]
    }
    pub fn w2_mut(&mut self) -> &mut [f32] {
        let (_, b, c) = self.split();
        &mut self.values[b..c]
    }
    pub fn b2(&self) -> &[f32] {
        &self.values[self.split().2..self.factor_start()]
    }

    /// Where the factor starts (the end of `values` when there is none).
    fn factor_start(&self) -> usize {
        Params::len_for(self.hidden, &self.inputs, self.buckets)
    }

    /// The factor's 768 rows (empty when not factorised).
    pub fn factor(&self) -> &[f32] {
        &self.values[self.factor_start()..]
    }

    /// The network the engine runs: the factor added into every bucket's rows, no factor.
    /// Evaluates as `self` does, up to float rounding.
    pub fn folded(&self) -> Params {
        let mut out = self.clone_shape();
        out.factorised = false;
        self.fold_into(&mut out);
        out
    }

    /// [`Params::folded`] into `out`, reusing its memory (the trainer folds once a batch).
    pub fn fold_into(&self, out: &mut Params) {
        *out = Params {
            values: std::mem::take(&mut out.values),
            factorised: false,
            ..self.clone_shape()
        };
        let plain = self.factor_start();
        out.values.clear();
        out.values.extend_from_slice(&self.values[..plain]);
        if self.factorised {
            let factor = self.factor();
            for block in
                out.values[..self.inputs.count() * self.hidden].chunks_exact_mut(factor.len())
            {
                for (w, f) in block.iter_mut().zip(factor) {
                    *w += f;
                }
            }
        }
    }

    /// The gradient of a factorised network from `plain`, the gradient of its folded twin:
    /// each bucket's rows as they are, and the factor's the sum of every bucket's (a factor
    /// row feeds the same row of each bucket).
    pub fn unfold_gradient(&mut self, plain: &Params) {
        let n = self.factor_start();
        self.values[..n].copy_from_slice(&plain.values[..n]);
        if !self.factorised {
            return;
        }
        let (w1, factor) = self.values.split_at_mut(n);
        factor.copy_from_slice(&w1[..factor.len()]);
        for block in w1[..self.inputs.count() * self.hidden]
            .chunks_exact(factor.len())
            .skip(1)
        {
            for (f, g) in factor.iter_mut().zip(block) {
                *f += g;
            }
        }
    }

    /// Keeps the folded first layer within ±`clip` (what makes the quantised accumulators
    /// safe): the factor is clipped, then each bucket's weight so that its sum with the
    /// factor is. Without a factor, the rows are clipped as they are.
    pub fn clip_first_layer(&mut self, clip: f32) {
        let rows = self.inputs.count() * self.hidden;
        let n = self.factor_start();
        let (w1, factor) = self.values.split_at_mut(n);
        for f in factor.iter_mut() {
            *f = f.clamp(-clip, clip);
        }
        if !self.factorised {
            for w in &mut w1[..rows] {
                *w = w.clamp(-clip, clip);
            }
            return;
        }
        for block in w1[..rows].chunks_exact_mut(factor.len()) {
            for (w, f) in block.iter_mut().zip(factor.iter()) {
                let sum = *w + f;
                if sum.abs() > clip {
                    *w = sum.clamp(-clip, clip) - f;
                }
            }
        }
    }

    pub fn clear(&mut self) {
        self.values.iter_mut().for_each(|v| *v = 0.0);
    }

    pub fn add(&mut self, other: &Params) {
        for (a, b) in self.values.iter_mut().zip(&other.values) {
            *a += b;
        }
    }

    /// The integer network: `W1, b1 × QA`, `W2 × QB`, `b2 × QA·QB`, rounded (the factor
    /// folded in first).
    pub fn quantise(&self, q: Quantisation) -> Result<Network, NetError> {
        if self.factorised {
            return self.folded().quantise(q);
        }
        let qa = q.qa as f32;
        let qb = q.qb as f32;
        let to_i16 = |v: f32| v.round().clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16;
        let fw = self.w1().iter().map(|&v| to_i16(v * qa)).collect();
        let fb = self.b1().iter().map(|&v| to_i16(v * qa)).collect();
        let ow = self.w2().iter().map(|&v| to_i16(v * qb)).collect();
        let ob = self
            .b2()
            .iter()
            .map(|&b| (b * qa * qb).round() as i32)
            .collect();
        Network::from_parts_with(q, self.inputs, self.buckets, fw, fb, ow, ob)
    }

    /// The float network a quantised one stands for: its weights as they are. The file's
    /// SCALE only says how the output reads in centipawns (see [`crate::calibrate`]); the
    /// weights were trained at the trainer's own scale whatever SCALE was written, so a run
    /// seeded by them starts at the loss they were trained to.
    pub fn from_network(net: &Network) -> Params {
        let q = net.header().quantisation;
        let (qa, qb) = (q.qa as f32, q.qb as f32);
        let mut values = Vec::new();
        values.extend(net.feature_weights().iter().map(|&w| f32::from(w) / qa));
        values.extend(net.feature_bias().iter().map(|&b| f32::from(b) / qa));
        values.extend(net.output_weights().iter().map(|&w| f32::from(w) / qb));
        values.extend(net.output_bias().iter().map(|&b| b as f32 / (qa * qb)));
        Params {
            hidden: net.hidden(),
            inputs: *net.inputs(),
            buckets: net.buckets(),
            factorised: false,
            values,
        }
    }

    /// `self` with `hidden` neurons, evaluating alike (net2wider): the first
    /// `self.hidden` neurons keep their weights; the new ones get first-layer rows drawn
    /// as [`Params::random`] draws them (from `seed`), a zero bias and zero output weights,
    /// so they are live (their gradients are not zero) but add nothing until training
    /// gives them a say. `None` when `hidden` is smaller than the network's. A factorised
    /// network is folded first when it grows (the new neurons have no factor to share).
    pub fn widened(self, hidden: usize, seed: u64) -> Option<Params> {
        let old = self.hidden;
        if hidden < old {
            return None;
        }
        if hidden == old {
            return Some(self);
        }
        if self.factorised {
            return self.folded().widened(hidden, seed);
        }
        let fresh = Params::random(hidden, self.inputs, self.buckets, seed);
        let mut out = Params::zeros(hidden, self.inputs, self.buckets);
        let (w1, fresh_w1) = (self.w1(), fresh.w1());
        for (r, row) in out.w1_mut().chunks_exact_mut(hidden).enumerate() {
            row[..old].copy_from_slice(&w1[r * old..(r + 1) * old]);
            row[old..].copy_from_slice(&fresh_w1[r * hidden + old..(r + 1) * hidden]);
        }
        let (b1_at, w2_at, b2_at) = out.split();
        out.values[b1_at..b1_at + old].copy_from_slice(self.b1());
        // Each output bucket reads `[us | them]`: both halves keep their old neurons first.
        for (k, layer) in self.w2().chunks_exact(2 * old).enumerate() {
            let at = w2_at + k * 2 * hidden;
            out.values[at..at + old].copy_from_slice(&layer[..old]);
            out.values[at + hidden..at + hidden + old].copy_from_slice(&layer[old..]);
        }
        out.values[b2_at..].copy_from_slice(self.b2());
        Some(out)
    }

    /// `self` as a network with `inputs`, evaluating alike: unchanged when the inputs are
    /// the same; a plain network seeds a king-bucketed one by its 768 rows, which become
    /// every bucket's (or, with `factorised`, the factor, every bucket's own rows zero).
    /// `None` for any other change of inputs (a bucketed network cannot become plain or
    /// another map without losing what its buckets learnt).
    pub fn with_inputs(self, inputs: Inputs, factorised: bool) -> Option<Params> {
        if self.factorised {
            return self.folded().with_inputs(inputs, factorised);
        }
        let out = match (self.inputs, inputs) {
            (a, b) if a == b => self,
            (Inputs::Plain, Inputs::KingBuckets(_)) => {
                let rows = INPUTS * self.hidden;
                let (plain_rows, rest) = self.values.split_at(rows);
                let mut values = Vec::with_capacity(inputs.count() * self.hidden + rest.len());
                for _ in 0..inputs.count() / INPUTS {
                    if factorised {
                        values.resize(values.len() + rows, 0.0);
                    } else {
                        values.extend_from_slice(plain_rows);
                    }
                }
                values.extend_from_slice(rest);
                let seeded = Params {
                    inputs,
                    values,
                    ..self.clone_shape()
                };
                if !factorised {
                    return Some(seeded);
                }
                let mut p = seeded.with_factor();
                let start = p.factor_start();
                p.values[start..].copy_from_slice(plain_rows);
                return Some(p);
            }
            _ => return None,
        };
        Some(if factorised { out.with_factor() } else { out })
    }

    /// The float network's evaluation in centipawns.
    pub fn evaluate(&self, s: &Sample, scale: f32) -> f32 {
        let mut scratch = Scratch::new(self.hidden);
        forward(self, s, &mut scratch) * scale
    }
}

/// Per-thread buffers of one sample's forward and backward pass.
pub struct Scratch {
    us: Vec<f32>,
    them: Vec<f32>,
    d_us: Vec<f32>,
    d_them: Vec<f32>,
}

impl Scratch {
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            us: vec![0.0; hidden],
            them: vec![0.0; hidden],
            d_us: vec![0.0; hidden],
            d_them: vec![0.0; hidden],
        }
    }
}

#[inline(always)]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

#[inline(always)]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[inline(always)]
fn accumulate(p: &Params, features: &[u16], acc: &mut [f32]) {
    let h = p.hidden;
    acc.copy_from_slice(p.b1());
    let w1 = p.w1();
    for &f in features {
        let row = &w1[usize::from(f) * h..(usize::from(f) + 1) * h];
        for (a, w) in acc.iter_mut().zip(row) {
            *a += w;
        }
    }
    // The trainer's hot path reads a folded network; this is for evaluation and tests.
    if p.factorised {
        let factor = p.factor();
        for &f in features {
            let r = usize::from(f) % INPUTS;
            for (a, w) in acc.iter_mut().zip(&factor[r * h..(r + 1) * h]) {
                *a += w;
            }
        }
    }
}

/// The network's output (before SCALE) for `s`, leaving the accumulators in `scratch`.
#[inline(always)]
pub fn forward(p: &Params, s: &Sample, scratch: &mut Scratch) -> f32 {
    let (us, them, n) = s.views(&p.inputs);
    accumulate(p, &us[..n], &mut scratch.us);
    accumulate(p, &them[..n], &mut scratch.them);
    let h = p.hidden;
    let k = p.buckets.bucket(n);
    let w2 = &p.w2()[2 * h * k..2 * h * (k + 1)];
    let mut out = p.b2()[k];
    for j in 0..h {
        out += w2[j] * screlu(scratch.us[j]) + w2[h + j] * screlu(scratch.them[j]);
    }
    out
}

/// What a training step needs besides the parameters.
#[derive(Copy, Clone, Debug)]
pub struct LossSettings {
    /// The weight of the game result in the target (the rest is the search score).
    pub wdl: f32,
    /// Centipawns per unit of network output (the file's SCALE).
    pub scale: f32,
}

/// The target of a sample: the blend of its result and its squashed score.
#[inline(always)]
pub fn target(s: &Sample, loss: LossSettings) -> f32 {
    loss.wdl * s.result() + (1.0 - loss.wdl) * sigmoid(f32::from(s.score) / EVAL_SCALE)
}

/// The loss of one sample, without gradients.
#[inline(always)]
pub fn sample_loss(p: &Params, s: &Sample, loss: LossSettings, scratch: &mut Scratch) -> f32 {
    let out = forward(p, s, scratch);
    let pred = sigmoid(out * loss.scale / EVAL_SCALE);
    let d = pred - target(s, loss);
    d * d
}

/// Adds the gradient of one sample's loss to `g` and returns the loss.
#[inline(always)]
pub fn backward(
    p: &Params,
    s: &Sample,
    loss: LossSettings,
    g: &mut Params,
    scratch: &mut Scratch,
) -> f32 {
    let out = forward(p, s, scratch);
    let k = loss.scale / EVAL_SCALE;
    let pred = sigmoid(out * k);
    let diff = pred - target(s, loss);
    let dout = 2.0 * diff * pred * (1.0 - pred) * k;
    let h = p.hidden;
    let bucket = p.buckets.bucket(usize::from(s.count));
    let w2 = &p.w2()[2 * h * bucket..2 * h * (bucket + 1)];
    {
        let (_, b, c) = p.split();
        let gv = &mut g.values;
        let (gw2, gb2) = gv[b..].split_at_mut(c - b);
        let gw2 = &mut gw2[2 * h * bucket..2 * h * (bucket + 1)];
        gb2[bucket] += dout;
        for j in 0..h {
            let (u, t) = (scratch.us[j], scratch.them[j]);
            gw2[j] += dout * screlu(u);
            gw2[h + j] += dout * screlu(t);
            scratch.d_us[j] = if u > 0.0 && u < 1.0 {
                dout * w2[j] * 2.0 * u
            } else {
                0.0
            };
            scratch.d_them[j] = if t > 0.0 && t < 1.0 {
                dout * w2[h + j] * 2.0 * t
            } else {
                0.0
            };
        }
    }
    let (a, b, _) = p.split();
    let factor_start = p.factor_start();
    let (gw1, rest) = g.values.split_at_mut(a);
    let (gb1, rest) = rest.split_at_mut(b - a);
    for ((b, u), t) in gb1.iter_mut().zip(&scratch.d_us).zip(&scratch.d_them) {
        *b += u + t;
    }
    let gf = &mut rest[factor_start - b..];
    let (us, them, n) = s.views(&p.inputs);
    for (features, d) in [(&us[..n], &scratch.d_us), (&them[..n], &scratch.d_them)] {
        for &f in features {
            let row = &mut gw1[usize::from(f) * h..(usize::from(f) + 1) * h];
            for (r, x) in row.iter_mut().zip(d.iter()) {
                *r += x;
            }
            if p.factorised {
                let r = usize::from(f) % INPUTS;
                for (r, x) in gf[r * h..(r + 1) * h].iter_mut().zip(d.iter()) {
                    *r += x;
                }
            }
        }
    }
    diff * diff
}

#[cfg(test)]
mod tests {
    use super::*;
    use shatranj_chess::Position;
    use shatranj_engine::games::datagen::TrainingPosition;

    fn sample(fen: &str, score: i16) -> Sample {
        Sample::from_position(&TrainingPosition {
            position: fen.parse::<Position>().unwrap(),
            score,
            winner: None,
            wdl: None,
        })
    }

    /// The analytic gradient matches finite differences of the loss, with one output layer
    /// and with buckets (where only the position's own layer gets a gradient).
    #[test]
    fn gradients_match_finite_differences() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        for inputs in every_inputs() {
            for buckets in OutputBuckets::ALL {
                for fen in fens {
                    check_gradients(inputs, buckets, false, &sample(fen, 150));
                }
            }
        }
        for inputs in &every_inputs()[1..] {
            for fen in fens {
                check_gradients(*inputs, OutputBuckets::PieceCount, true, &sample(fen, 150));
            }
        }
    }

    /// A random factorised network: buckets and factor both non-zero.
    fn factorised(hidden: usize, inputs: Inputs, buckets: OutputBuckets, seed: u64) -> Params {
        let mut p = Params::random(hidden, inputs, buckets, seed).with_factor();
        let start = p.factor_start();
        let mut g = SplitMix64::new(seed ^ 0xfac);
        for f in &mut p.values[start..] {
            *f = ((g.next_u64() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.05;
        }
        p
    }

    /// The trainer's fast path (the gradient of the folded network, the factor's the sum of
    /// the buckets') is the gradient of the factorised network itself; and a zero factor
    /// changes no evaluation.
    #[test]
    fn the_folded_gradient_unfolds_to_the_factorised_one() {
        use shatranj_engine::nnue::KingBuckets;
        let inputs = Inputs::KingBuckets(KingBuckets::preset(4).unwrap());
        let buckets = OutputBuckets::PieceCount;
        let p = factorised(32, inputs, buckets, 5);
        let loss = LossSettings {
            wdl: 0.3,
            scale: 400.0,
        };
        let mut scratch = Scratch::new(32);
        let mut direct = p.zeros_like();
        let folded = p.folded();
        let mut plain = folded.zeros_like();
        for (fen, score) in [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
                40,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", -90),
            ("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", 500),
        ] {
            let s = sample(fen, score);
            backward(&p, &s, loss, &mut direct, &mut scratch);
            backward(&folded, &s, loss, &mut plain, &mut scratch);
            let (a, b) = (p.evaluate(&s, 400.0), folded.evaluate(&s, 400.0));
            assert!((a - b).abs() < 1e-3, "{fen}: factorised {a}, folded {b}");
            let plain_params = Params::random(32, inputs, buckets, 5);
            let zero = plain_params.clone().with_factor();
            assert_eq!(zero.evaluate(&s, 400.0), plain_params.evaluate(&s, 400.0));
        }
        let mut unfolded = p.zeros_like();
        unfolded.unfold_gradient(&plain);
        assert!(unfolded.factor().iter().any(|&g| g != 0.0));
        for (i, (x, y)) in direct.values.iter().zip(&unfolded.values).enumerate() {
            assert!(
                (x - y).abs() <= 1e-6 + 1e-4 * x.abs(),
                "parameter {i}: factorised {x}, unfolded {y}"
            );
        }
    }

    /// The clip keeps every folded weight within the bound, whatever the factor, and leaves
    /// weights already inside it alone.
    #[test]
    fn the_clip_bounds_the_folded_first_layer() {
        use shatranj_engine::nnue::KingBuckets;
        let inputs = Inputs::KingBuckets(KingBuckets::preset(2).unwrap());
        let mut p = factorised(32, inputs, OutputBuckets::Single, 8);
        let before = p.clone();
        p.clip_first_layer(CLIP);
        assert_eq!(p, before, "weights within the clip moved");
        let start = p.factor_start();
        p.values[start] = 3.0;
        p.values[start + 1] = -1.5;
        p.values[1] = -1.0;
        p.values[0] = 1.5;
        p.clip_first_layer(CLIP);
        assert_eq!(p.factor()[0], CLIP);
        let folded = p.folded();
        assert!(folded.w1().iter().all(|w| w.abs() <= CLIP + 1e-6));
        assert!((folded.w1()[0] - CLIP).abs() < 1e-6, "{}", folded.w1()[0]);
        assert!((folded.w1()[1] + 2.5f32.min(CLIP)).abs() < 1e-6);
    }

    /// A quantised network read back as floats scores as its file does, at the file's
    /// SCALE; as the seed of a king-bucketed run, factorised or not, it still does wherever
    /// neither view is mirrored (both kings on files a-d); a bucketed network cannot become
    /// a plain one.
    #[test]
    fn a_network_read_back_scores_as_its_file() {
        use shatranj_engine::nnue::KingBuckets;
        let q = Quantisation {
            scale: 317,
            ..Quantisation::default()
        };
        let net = Params::random(64, Inputs::Plain, OutputBuckets::PieceCount, 12)
            .quantise(q)
            .unwrap();
        let bucketed = Inputs::KingBuckets(KingBuckets::preset(4).unwrap());
        for fen in [
            "2kr3r/pp1nbppp/2p1pn2/3p4/3P4/2NBPN2/PPQ2PPP/2KR3R w - - 0 12",
            "8/2p5/3p4/KP5r/1R3p2/2k5/4P1P1/8 b - - 0 1",
            "3k4/8/8/8/8/8/8/1K5R w - - 0 1",
        ] {
            let s = sample(fen, 0);
            let file = net.evaluate(&fen.parse().unwrap()) as f32;
            for (inputs, factorised) in
                [(Inputs::Plain, false), (bucketed, false), (bucketed, true)]
            {
                let p = Params::from_network(&net)
                    .with_inputs(inputs, factorised)
                    .unwrap();
                assert_eq!((p.inputs, p.factorised), (inputs, factorised));
                let float = p.evaluate(&s, 317.0);
                assert!(
                    (float - file).abs() < 2.0,
                    "{fen}, {inputs:?}, factorised {factorised}: float {float}, file {file}"
                );
            }
        }
        let seeded = Params::from_network(&net)
            .with_inputs(bucketed, false)
            .unwrap();
        assert!(seeded.with_inputs(Inputs::Plain, false).is_none());
    }

    /// A widened network scores as the narrower one it came from, in float and once
    /// quantised, for every input layout and output-bucket choice (the new neurons' output
    /// weights are zero); its new neurons have first-layer rows, so training reaches them;
    /// it cannot be narrowed.
    #[test]
    fn a_widened_network_scores_as_the_narrower_one() {
        let fens = [
            "2kr3r/pp1nbppp/2p1pn2/3p4/3P4/2NBPN2/PPQ2PPP/2KR3R w - - 0 12",
            "8/2p5/3p4/KP5r/1R3p2/2k5/4P1P1/8 b - - 0 1",
            "r1bq1rk1/ppp2ppp/2n2n2/3pp3/1bPP4/2N1PN2/PP1BBPPP/R2QK2R b KQ - 3 7",
        ];
        let q = Quantisation::default();
        for inputs in every_inputs() {
            for buckets in OutputBuckets::ALL {
                let narrow = Params::random(32, inputs, buckets, 21);
                let wide = narrow.clone().widened(96, 22).unwrap();
                assert_eq!(
                    (wide.hidden, wide.values.len()),
                    (96, Params::len_for(96, &inputs, buckets))
                );
                let new_rows = wide.w1().chunks_exact(96).map(|row| &row[32..]);
                assert!(
                    new_rows.flatten().any(|&w| w != 0.0),
                    "{inputs:?}: dead new neurons"
                );
                let (narrow_net, wide_net) =
                    (narrow.quantise(q).unwrap(), wide.quantise(q).unwrap());
                for fen in fens {
                    let s = sample(fen, 0);
                    let (a, b) = (narrow.evaluate(&s, 400.0), wide.evaluate(&s, 400.0));
                    assert!(
                        (a - b).abs() < 1e-3,
                        "{inputs:?}, {buckets:?}, {fen}: {a} vs {b}"
                    );
                    let position = fen.parse().unwrap();
                    assert_eq!(
                        narrow_net.evaluate(&position),
                        wide_net.evaluate(&position),
                        "{inputs:?}, {buckets:?}, {fen}"
                    );
                }
                assert!(wide.widened(64, 1).is_none());
            }
        }
    }

    /// Plain inputs and two king-bucket layouts.
    fn every_inputs() -> [Inputs; 3] {
        use shatranj_engine::nnue::KingBuckets;
        [
            Inputs::Plain,
            Inputs::KingBuckets(KingBuckets::preset(1).unwrap()),
            Inputs::KingBuckets(KingBuckets::preset(4).unwrap()),
        ]
    }

    fn check_gradients(inputs: Inputs, buckets: OutputBuckets, factor: bool, s: &Sample) {
        let mut p = if factor {
            factorised(32, inputs, buckets, 3)
        } else {
            Params::random(32, inputs, buckets, 3)
        };
        // Move the biases so most neurons sit inside SCReLU's sloped range.
        let h = p.hidden;
        for j in 0..h {
            p.values[inputs.count() * h + j] = 0.3;
        }
        let loss = LossSettings {
            wdl: 0.3,
            scale: 400.0,
        };
        let mut g = p.zeros_like();
        let mut scratch = Scratch::new(32);
        backward(&p, s, loss, &mut g, &mut scratch);
        let (us, them, n) = s.views(&inputs);
        let k = buckets.bucket(n);
        let (b1, w2, b2) = p.split();
        let w2 = w2 + 2 * h * k;
        let mut checks = vec![
            us[0] as usize * h + 5,
            us[3] as usize * h + 17,
            b1 + 9,
            w2 + 4,
            w2 + h + 30,
            b2 + k,
        ];
        if factor {
            // The factor rows of a piece in the side to move's view and the other's, at a
            // neuron inside SCReLU's sloped range in that view (else both are zero).
            let f = p.factor_start();
            let sloped = |d: &[f32]| d.iter().rposition(|&x| x != 0.0).unwrap();
            checks.push(f + (us[1] as usize % INPUTS) * h + sloped(&scratch.d_us));
            checks.push(f + (them[2] as usize % INPUTS) * h + sloped(&scratch.d_them));
        }
        let other = (0..buckets.count()).filter(|&o| o != k);
        for o in other {
            assert_eq!(
                g.b2()[o],
                0.0,
                "{buckets:?}: bucket {o} is not the position's"
            );
        }
        for i in checks {
            let eps = 1e-3;
            let mut plus = p.clone();
            plus.values[i] += eps;
            let mut minus = p.clone();
            minus.values[i] -= eps;
            let numeric = (sample_loss(&plus, s, loss, &mut scratch)
                - sample_loss(&minus, s, loss, &mut scratch))
                / (2.0 * eps);
            let analytic = g.values[i];
            assert!(
                (numeric - analytic).abs() <= 1e-4 + 0.02 * analytic.abs(),
                "{inputs:?}, {buckets:?}, factor {factor}, parameter {i}: numeric {numeric}, analytic {analytic}"
            );
            assert!(
                analytic != 0.0,
                "{inputs:?}, {buckets:?}, parameter {i}: no gradient"
            );
        }
    }

    /// The quantised network scores within a few centipawns of the float one, read through
    /// the engine's own evaluation of the position (its rows, buckets and mirroring).
    #[test]
    fn quantisation_stays_close_to_the_float_network() {
        for inputs in every_inputs() {
            for buckets in OutputBuckets::ALL {
                quantisation_stays_close_with(inputs, buckets);
            }
        }
    }

    fn quantisation_stays_close_with(inputs: Inputs, buckets: OutputBuckets) {
        let mut p = Params::random(64, inputs, buckets, 9);
        // Distinct biases per bucket, so that a wrong bucket shows.
        let b2 = p.split().2;
        for (k, b) in p.values[b2..].iter_mut().enumerate() {
            *b = 0.1 * k as f32;
        }
        let net = p.quantise(Quantisation::default()).unwrap();
        for (fen, score) in [
            (
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                0,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 0),
        ] {
            let s = sample(fen, score);
            let float = p.evaluate(&s, 400.0);
            let int = net.evaluate(&fen.parse().unwrap()) as f32;
            assert!(
                (float - int).abs() < 5.0,
                "{inputs:?}, {buckets:?}, {fen}: float {float}, quantised {int}"
            );
        }
    }

    /// Output weights at the clip still load; one step past the clip is refused, so the clip
    /// is the engine's own bound and not a looser or tighter guess.
    #[test]
    fn the_output_clip_is_the_engines_bound() {
        for qb in [64, 128, 256] {
            let q = Quantisation {
                qb,
                ..Quantisation::default()
            };
            let clip = output_clip(q);
            let mut p = Params::random(32, Inputs::Plain, OutputBuckets::Single, 4);
            p.w2_mut().iter_mut().for_each(|w| *w = clip);
            assert!(p.quantise(q).is_ok(), "QB {qb}: clip {clip} refused");
            if clip < CLIP {
                p.w2_mut()[0] = clip + 1.0 / qb as f32;
                assert!(p.quantise(q).is_err(), "QB {qb}: past the clip accepted");
            }
        }
        assert_eq!(output_clip(Quantisation::default()), 1.0);
    }
}
