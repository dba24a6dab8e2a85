//! The float network the trainer optimises, its gradients, and its quantisation into the
//! integer network the engine runs ([`shatranj_engine::nnue`]).
//!
//! ```text
//! acc_v = b1 + Σ_{f ∈ view v} W1[row_v(f)] h_v = clamp(acc_v, 0, 1)²
//!         (row_v: the engine's `View::row`, king-bucketed and mirrored for architecture 3)
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
    /// `W1 (R·H) | b1 (H) | W2 (B·2·H) | b2 (B)` for `R` input rows and `B` output buckets.
    pub values: Vec<f32>,
}

impl Params {
    pub fn zeros(hidden: usize, inputs: Inputs, buckets: OutputBuckets) -> Params {
        Params {
            hidden,
            inputs,
            buckets,
            values: vec![0.0; Params::len_for(hidden, &inputs, buckets)],
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
        &self.values[self.split().2..]
    }

    pub fn clear(&mut self) {
        self.values.iter_mut().for_each(|v| *v = 0.0);
    }

    pub fn add(&mut self, other: &Params) {
        for (a, b) in self.values.iter_mut().zip(&other.values) {
            *a += b;
        }
    }

    /// The integer network: `W1, b1 × QA`, `W2 × QB`, `b2 × QA·QB`, rounded.
    pub fn quantise(&self, q: Quantisation) -> Result<Network, NetError> {
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
    let (gw1, rest) = g.values.split_at_mut(a);
    let gb1 = &mut rest[..b - a];
    for ((b, u), t) in gb1.iter_mut().zip(&scratch.d_us).zip(&scratch.d_them) {
        *b += u + t;
    }
    let (us, them, n) = s.views(&p.inputs);
    for (features, d) in [(&us[..n], &scratch.d_us), (&them[..n], &scratch.d_them)] {
        for &f in features {
            let row = &mut gw1[usize::from(f) * h..(usize::from(f) + 1) * h];
            for (r, x) in row.iter_mut().zip(d.iter()) {
                *r += x;
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
                    check_gradients(inputs, buckets, &sample(fen, 150));
                }
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

    fn check_gradients(inputs: Inputs, buckets: OutputBuckets, s: &Sample) {
        let mut p = Params::random(32, inputs, buckets, 3);
        // Move the biases so most neurons sit inside SCReLU's sloped range.
        let h = p.hidden;
        for j in 0..h {
            p.values[inputs.count() * h + j] = 0.3;
        }
        let loss = LossSettings {
            wdl: 0.3,
            scale: 400.0,
        };
        let mut g = Params::zeros(32, inputs, buckets);
        let mut scratch = Scratch::new(32);
        backward(&p, s, loss, &mut g, &mut scratch);
        let (us, _, n) = s.views(&inputs);
        let k = buckets.bucket(n);
        let (b1, w2, b2) = p.split();
        let w2 = w2 + 2 * h * k;
        let checks = [
            us[0] as usize * h + 5,
            us[3] as usize * h + 17,
            b1 + 9,
            w2 + 4,
            w2 + h + 30,
            b2 + k,
        ];
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
                "{inputs:?}, {buckets:?}, parameter {i}: numeric {numeric}, analytic {analytic}"
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
