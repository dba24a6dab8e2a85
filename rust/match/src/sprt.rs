//! The sequential probability ratio test exactly as fishtest's `LLRcalc` computes it (and
//! fastchess reproduces): the generalized log-likelihood ratio of two hypotheses about the
//! Elo difference, each the maximum-likelihood distribution of the results whose expected
//! score (logistic model) or t-value (normalized model) the hypothesis fixes. After Michel
//! Van den Bergh's notes ("Normalized Elo", "A note on the SPRT").
//!
//! ```text
//! p̂ᵢ  = nᵢ / N        nᵢ the counts with each zero replaced by 1e-3, N = Σ nᵢ
//! LLR = N · Σ p̂ᵢ (ln p1ᵢ − ln p0ᵢ)
//! lower bound ln(β / (1 − α)), upper bound ln((1 − β) / α)
//! ```
//!
//! - **Logistic** (`elo0`, `elo1` in logistic Elo): the score `s = 1/(1 + 10^(−elo/400))`;
//!   the distribution closest to `p̂` with mean `s` is `pᵢ = p̂ᵢ / (1 + θ(aᵢ − s))`, θ the
//!   root of the secular equation `Σ p̂ᵢ (aᵢ − s)/(1 + θ(aᵢ − s)) = 0` in
//!   `(−1/(a_max − s), −1/(a_min − s))`.
//! - **Normalized** (`elo0`, `elo1` in nElo): `t = nElo / (800 / ln 10)`, times √2 for the
//!   pentanomial counts (a pair's t-value against a game's). The distribution with
//!   `(μ − ½)/σ = t`, by fishtest's fixed point: from the uniform distribution, up to ten
//!   times, take μ and σ of the current `p`, `φᵢ = aᵢ − ½ − t·σ·(1 + ((aᵢ − μ)/σ)²)/2`,
//!   solve `Σ p̂ᵢ φᵢ/(1 + θφᵢ) = 0` for θ in `(−1/max φ, −1/min φ)`, `pᵢ = p̂ᵢ/(1 + θφᵢ)`,
//!   stopping once no `pᵢ` moves by 1e-9.
//!
//! The secular equation's left side decreases strictly in θ on its interval, so it is solved
//! by bisection to the last bit rather than by Brent's method (fishtest's `brentq` with
//! `xtol` 1e-9): the roots agree to far below the two decimals LLRs are quoted with.
//!
//! No overshoot correction (fishtest's Siegmund correction of the bounds for a test that
//! stops between two updates) is applied: the runner updates the LLR after every pair, so
//! the overshoot is one pair's worth.

use crate::stats::{NELO_PER_T, outcome_scores, score_of_elo};
use std::fmt;
use std::str::FromStr;

/// How `elo0` and `elo1` are measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Model {
    /// Normalized Elo (nElo), fishtest's default since 2023: independent of the draw ratio.
    #[default]
    Normalized,
    /// Logistic (ordinary) Elo.
    Logistic,
}

impl Model {
    pub fn as_str(self) -> &'static str {
        match self {
            Model::Normalized => "normalized",
            Model::Logistic => "logistic",
        }
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Model {
    type Err = String;

    fn from_str(text: &str) -> Result<Model, String> {
        match text {
            "normalized" => Ok(Model::Normalized),
            "logistic" => Ok(Model::Logistic),
            _ => Err(format!(
                "unknown SPRT model {text:?} (normalized or logistic)"
            )),
        }
    }
}

/// A test of `elo0` (H0) against `elo1` (H1) with error rates `alpha` (accepting H1 when
/// H0 holds) and `beta` (accepting H0 when H1 holds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: Model,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// Keep playing.
    Continue,
    /// LLR at or below the lower bound: H0, the change is no better than `elo0`.
    AcceptH0,
    /// LLR at or above the upper bound: H1, the change is at least `elo1`.
    AcceptH1,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Continue => "continue",
            Decision::AcceptH0 => "H0 accepted",
            Decision::AcceptH1 => "H1 accepted",
        }
    }
}

/// The SPRT's parameters are out of range.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtError(pub String);

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SprtError {}

impl Sprt {
    /// A test, its parameters checked: `elo0 < elo1`, `alpha` and `beta` in (0, 1) with
    /// `alpha + beta < 1`.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: Model,
    ) -> Result<Sprt, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError(format!(
                "elo0 ({elo0}) must be below elo1 ({elo1})"
            )));
        }
        let rate = |x: f64| x > 0.0 && x < 1.0;
        if !(rate(alpha) && rate(beta) && alpha + beta < 1.0) {
            return Err(SprtError(format!(
                "alpha ({alpha}) and beta ({beta}) must lie in (0, 1) with alpha + beta < 1"
            )));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// `(lower, upper)`: `ln(β/(1−α))` and `ln((1−β)/α)`.
    pub fn bounds(&self) -> (f64, f64) {
        bounds(self.alpha, self.beta)
    }

    /// The log-likelihood ratio of `counts` (`[L, D, W]` or `[LL, LD, WL+DD, WD, WW]`).
    pub fn llr(&self, counts: &[u64]) -> Result<f64, SprtError> {
        llr(counts, self.elo0, self.elo1, self.model)
    }

    /// What the test says at `llr`.
    pub fn decide(&self, llr: f64) -> Decision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::AcceptH1
        } else if llr <= lower {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }
}

/// `(lower, upper)`: `ln(β/(1−α))` and `ln((1−β)/α)` (±2.944 at α = β = 0.05).
pub fn bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// The log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) given `counts`: `[L, D, W]`
/// games or `[LL, LD, WL+DD, WD, WW]` pairs, each zero counted as 1e-3.
pub fn llr(counts: &[u64], elo0: f64, elo1: f64, model: Model) -> Result<f64, SprtError> {
    let counts: Vec<f64> = counts.iter().map(|&c| c as f64).collect();
    llr_real(&counts, elo0, elo1, model)
}

/// As [`llr`], for counts as real numbers.
pub fn llr_real(counts: &[f64], elo0: f64, elo1: f64, model: Model) -> Result<f64, SprtError> {
    if counts.len() != 3 && counts.len() != 5 {
        return Err(SprtError(format!(
            "{} counts: give [L, D, W] or [LL, LD, WL+DD, WD, WW]",
            counts.len()
        )));
    }
    if counts.iter().any(|&c| !(c >= 0.0 && c.is_finite())) {
        return Err(SprtError(
            "the counts must be finite and non-negative".to_owned(),
        ));
    }
    if !(elo0.is_finite() && elo1.is_finite()) {
        return Err(SprtError("elo0 and elo1 must be finite".to_owned()));
    }
    let counts: Vec<f64> = counts.iter().map(|&c| c.max(1e-3)).collect();
    let n: f64 = counts.iter().sum();
    let phat: Vec<f64> = counts.iter().map(|c| c / n).collect();
    let a = outcome_scores(counts.len());
    let (p0, p1) = match model {
        Model::Logistic => (
            mle_expected(&a, &phat, score_of_elo(elo0)),
            mle_expected(&a, &phat, score_of_elo(elo1)),
        ),
        Model::Normalized => {
            let scale = if counts.len() == 5 {
                std::f64::consts::SQRT_2
            } else {
                1.0
            };
            let t = |nelo: f64| nelo / NELO_PER_T * scale;
            (
                mle_t_value(&a, &phat, 0.5, t(elo0)),
                mle_t_value(&a, &phat, 0.5, t(elo1)),
            )
        }
    };
    let sum: f64 = phat
        .iter()
        .zip(p0.iter().zip(&p1))
        .map(|(ph, (q0, q1))| ph * (q1.ln() - q0.ln()))
        .sum();
    Ok(n * sum)
}

/// The distribution closest to `phat` (in the sense of maximum likelihood) whose mean is
/// `s`: `pᵢ = p̂ᵢ / (1 + θ(aᵢ − s))`.
pub fn mle_expected(a: &[f64], phat: &[f64], s: f64) -> Vec<f64> {
    let shifted: Vec<f64> = a.iter().map(|ai| ai - s).collect();
    let theta = secular(&shifted, phat);
    phat.iter()
        .zip(&shifted)
        .map(|(p, x)| p / (1.0 + theta * x))
        .collect()
}

/// The distribution closest to `phat` whose t-value `(μ − reference)/σ` is `t`, by
/// fishtest's fixed point (`MLE_t_value`).
pub fn mle_t_value(a: &[f64], phat: &[f64], reference: f64, t: f64) -> Vec<f64> {
    let k = a.len();
    let mut p = vec![1.0 / k as f64; k];
    for _ in 0..10 {
        let (mu, var) = mean_variance(a, &p);
        let sigma = var.sqrt();
        let phi: Vec<f64> = a
            .iter()
            .map(|ai| ai - reference - t * sigma * (1.0 + ((mu - ai) / sigma).powi(2)) / 2.0)
            .collect();
        let theta = secular(&phi, phat);
        let next: Vec<f64> = phat
            .iter()
            .zip(&phi)
            .map(|(ph, f)| ph / (1.0 + theta * f))
            .collect();
        let moved = next
            .iter()
            .zip(&p)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max);
        p = next;
        if moved < 1e-9 {
            break;
        }
    }
    p
}

fn mean_variance(a: &[f64], p: &[f64]) -> (f64, f64) {
    let mu: f64 = a.iter().zip(p).map(|(a, p)| a * p).sum();
    let var: f64 = a.iter().zip(p).map(|(a, p)| p * (a - mu).powi(2)).sum();
    (mu, var)
}

/// The root θ of `Σ pᵢ xᵢ / (1 + θ xᵢ) = 0` in `(−1/max x, −1/min x)`, where every
/// `1 + θ xᵢ` stays positive. The `xᵢ` must take both signs (the target lies strictly
/// inside the outcomes' range); otherwise the distribution cannot be moved there and θ = 0
/// is returned, as good as any.
fn secular(x: &[f64], p: &[f64]) -> f64 {
    let lo_x = x.iter().copied().fold(f64::INFINITY, f64::min);
    let hi_x = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(lo_x < 0.0 && hi_x > 0.0) {
        return 0.0;
    }
    let f = |theta: f64| -> f64 {
        x.iter()
            .zip(p)
            .map(|(xi, pi)| pi * xi / (1.0 + theta * xi))
            .sum()
    };
    // f decreases from +∞ at −1/max x to −∞ at −1/min x: bisect to the last bit.
    let (mut lo, mut hi) = (-1.0 / hi_x, -1.0 / lo_x);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_decimals(x: f64) -> f64 {
        (x * 100.0).round() / 100.0
    }

    // The four reference values are fastchess's own tests (tests/sprt_test.cpp), with the
    // pentanomial written `[LL, LD, WL+DD, WD, WW]` (as issue 50 quotes them).
    #[test]
    fn normalized_pentanomial_reference() {
        let llr = llr(
            &[365, 16618, 36229, 16974, 390],
            0.0,
            2.0,
            Model::Normalized,
        )
        .unwrap();
        assert_eq!(two_decimals(llr), 2.25, "{llr}");
    }

    #[test]
    fn normalized_trinomial_reference() {
        // W 36433, L 36027, D 68692 as [L, D, W].
        let llr = llr(&[36027, 68692, 36433], 0.0, 2.0, Model::Normalized).unwrap();
        assert_eq!(two_decimals(llr), 0.92, "{llr}");
    }

    #[test]
    fn logistic_trinomial_reference() {
        let llr = llr(&[21184, 40708, 21404], 0.5, 2.5, Model::Logistic).unwrap();
        assert_eq!(two_decimals(llr), -1.57, "{llr}");
    }

    #[test]
    fn logistic_pentanomial_reference() {
        let llr = llr(&[223, 9863, 21279, 10037, 246], 0.5, 2.5, Model::Logistic).unwrap();
        assert_eq!(two_decimals(llr), -3.07, "{llr}");
    }

    #[test]
    fn bounds_at_five_percent() {
        let (lo, hi) = bounds(0.05, 0.05);
        assert!((lo + 2.944_438_979_166_44).abs() < 1e-12);
        assert!((hi - 2.944_438_979_166_44).abs() < 1e-12);
        let sprt = Sprt::new(0.0, 2.0, 0.05, 0.05, Model::Normalized).unwrap();
        assert_eq!(sprt.decide(3.0), Decision::AcceptH1);
        assert_eq!(sprt.decide(-3.0), Decision::AcceptH0);
        assert_eq!(sprt.decide(0.0), Decision::Continue);
        assert!(Sprt::new(2.0, 0.0, 0.05, 0.05, Model::Logistic).is_err());
        assert!(Sprt::new(0.0, 2.0, 0.0, 0.05, Model::Logistic).is_err());
    }

    #[test]
    fn the_fitted_distributions_have_the_asked_mean_and_t_value() {
        let phat = [0.1, 0.2, 0.3, 0.25, 0.15];
        let a = outcome_scores(5);
        let p = mle_expected(&a, &phat, 0.53);
        let (mu, _) = mean_variance(&a, &p);
        assert!((mu - 0.53).abs() < 1e-12, "{mu}");
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let p = mle_t_value(&a, &phat, 0.5, 0.04);
        let (mu, var) = mean_variance(&a, &p);
        assert!(((mu - 0.5) / var.sqrt() - 0.04).abs() < 1e-6);
    }

    #[test]
    fn zero_counts_count_as_a_thousandth() {
        let with_zero = llr(&[0, 10, 12], 0.0, 5.0, Model::Logistic).unwrap();
        let explicit = llr_real(&[1e-3, 10.0, 12.0], 0.0, 5.0, Model::Logistic).unwrap();
        assert_eq!(with_zero, explicit);
        assert!(llr(&[1, 2], 0.0, 5.0, Model::Logistic).is_err());
        // No games at all: every count is 1e-3, a uniform and nearly weightless sample.
        assert!(llr(&[0, 0, 0], 0.0, 5.0, Model::Normalized).unwrap().abs() < 0.01);
    }
}
