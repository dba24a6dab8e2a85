//! Match statistics as fishtest and fastchess compute them: the result counts, the score,
//! Elo with its 95 % interval, normalized Elo (nElo) and the likelihood of superiority (LOS).
//!
//! A match is counted two ways. The **trinomial** counts `[L, D, W]` are games at scores
//! `[0, ½, 1]`. The **pentanomial** counts `[LL, LD, WL+DD, WD, WW]` are game *pairs* (the
//! same opening, colours swapped) at scores `[0, ¼, ½, ¾, 1]`: the two games of a pair share
//! an opening, so they are not independent, and the variance of the pair scores is the honest
//! one (fishtest's and fastchess's choice since 2020). Every figure here is computed from
//! either, with the variance of the score about its mean:
//!
//! ```text
//! score = Σ pᵢ aᵢ                           pᵢ = nᵢ / N (N games or pairs), aᵢ the scores
//! var   = Σ pᵢ (aᵢ − score)²                per game (trinomial) or per pair (pentanomial)
//! Elo   = −400 · log10(1/score − 1)
//! 95 %  = Elo(score ± 1.959963984540054 · √(var / N))
//! nElo  = (score − ½) / √(k · var) · 800 / ln 10        k = 1 trinomial, 2 pentanomial
//! LOS   = (1 − erf(−(score − ½) / √(2 · var / N))) / 2
//! ```
//!
//! These are fastchess's `EloWDL` and `EloPentanomial` (the pentanomial nElo is per game:
//! a pair's variance is about twice a game's). The observed counts are used as they are
//! here; only the SPRT ([`crate::sprt`]) replaces zeros by 1e-3.

use std::fmt;

/// The 97.5 % quantile of the standard normal distribution (the 95 % two-sided interval).
pub const Z95: f64 = 1.959_963_984_540_054;

/// 800 / ln 10: one unit of the normalized scale in Elo (nElo = t · this, t the t-value per
/// game).
pub const NELO_PER_T: f64 = 347.435_585_522_601_46;

/// The result of one game from the first player's side, as its score counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameScore {
    Loss,
    Draw,
    Win,
}

impl GameScore {
    /// Half points: 0, 1 or 2.
    pub fn half_points(self) -> u32 {
        match self {
            GameScore::Loss => 0,
            GameScore::Draw => 1,
            GameScore::Win => 2,
        }
    }

    /// The same game from the other player's side.
    pub fn flipped(self) -> GameScore {
        match self {
            GameScore::Loss => GameScore::Win,
            GameScore::Draw => GameScore::Draw,
            GameScore::Win => GameScore::Loss,
        }
    }
}

/// The counts of a match between two players, from the first player's side: games
/// (trinomial) and pairs of games on one opening with colours swapped (pentanomial).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// `[L, D, W]`: games lost, drawn and won.
    pub trinomial: [u64; 3],
    /// `[LL, LD, WL+DD, WD, WW]`: pairs by their total, 0 to 2 points in half points.
    pub pentanomial: [u64; 5],
}

impl Counts {
    /// Adds one game to the trinomial counts only (a game outside a pair).
    pub fn add_game(&mut self, score: GameScore) {
        self.trinomial[score.half_points() as usize] += 1;
    }

    /// Adds a finished pair: both games to the trinomial counts, their total to the
    /// pentanomial ones.
    pub fn add_pair(&mut self, first: GameScore, second: GameScore) {
        self.add_game(first);
        self.add_game(second);
        self.pentanomial[(first.half_points() + second.half_points()) as usize] += 1;
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.trinomial.iter().sum()
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.pentanomial.iter().sum()
    }

    /// `(wins, draws, losses)`, the order tables print.
    pub fn wdl(&self) -> (u64, u64, u64) {
        let [l, d, w] = self.trinomial;
        (w, d, l)
    }

    /// The statistics from the pentanomial counts when there are pairs, else from the
    /// trinomial ones.
    pub fn estimate(&self) -> Option<Estimate> {
        if self.pairs() > 0 {
            Estimate::from_counts(&self.pentanomial)
        } else {
            Estimate::from_counts(&self.trinomial)
        }
    }
}

/// The scores `aᵢ` of `k` equally spaced outcomes from 0 to 1: `[0, ½, 1]` or
/// `[0, ¼, ½, ¾, 1]`.
pub fn outcome_scores(k: usize) -> Vec<f64> {
    (0..k).map(|i| i as f64 / (k - 1) as f64).collect()
}

/// Elo of a score: `−400 · log10(1/score − 1)` (±∞ at 0 and 1).
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The score of an Elo difference under the logistic model: `1 / (1 + 10^(−elo/400))`.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The statistics of a match, from trinomial or pentanomial counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Games (trinomial) or pairs (pentanomial).
    pub n: f64,
    /// Whether the counts were pentanomial.
    pub pentanomial: bool,
    /// The mean score, 0 to 1.
    pub score: f64,
    /// The variance of one game's (or pair's) score about the mean.
    pub variance: f64,
    /// The Elo difference.
    pub elo: f64,
    /// The 95 % interval of the Elo difference: `(lower, upper)`.
    pub elo_interval: (f64, f64),
    /// Normalized Elo (per game).
    pub nelo: f64,
    /// The 95 % interval of nElo.
    pub nelo_interval: (f64, f64),
    /// The likelihood of superiority, 0 to 1.
    pub los: f64,
}

impl Estimate {
    /// The statistics of `counts`: `[L, D, W]` or `[LL, LD, WL+DD, WD, WW]`. `None` for
    /// another length or no games.
    pub fn from_counts(counts: &[u64]) -> Option<Estimate> {
        let counts: Vec<f64> = counts.iter().map(|&c| c as f64).collect();
        Estimate::from_real_counts(&counts)
    }

    /// As [`Estimate::from_counts`], for counts as real numbers (weights).
    pub fn from_real_counts(counts: &[f64]) -> Option<Estimate> {
        let pentanomial = match counts.len() {
            3 => false,
            5 => true,
            _ => return None,
        };
        let n: f64 = counts.iter().sum();
        if n <= 0.0 || counts.iter().any(|&c| c < 0.0 || !c.is_finite()) {
            return None;
        }
        let a = outcome_scores(counts.len());
        let score = counts.iter().zip(&a).map(|(c, a)| c * a).sum::<f64>() / n;
        let variance = counts
            .iter()
            .zip(&a)
            .map(|(c, a)| c * (a - score).powi(2))
            .sum::<f64>()
            / n;
        let half_width = Z95 * (variance / n).sqrt();
        let (lower, upper) = (score - half_width, score + half_width);
        let k = if pentanomial { 2.0 } else { 1.0 };
        let nelo_of = |s: f64| (s - 0.5) / (k * variance).sqrt() * NELO_PER_T;
        let los = (1.0 - erf(-(score - 0.5) / (2.0 * variance / n).sqrt())) / 2.0;
        Some(Estimate {
            n,
            pentanomial,
            score,
            variance,
            elo: elo_of_score(score),
            elo_interval: (elo_of_score(lower), elo_of_score(upper)),
            nelo: nelo_of(score),
            nelo_interval: (nelo_of(lower), nelo_of(upper)),
            los,
        })
    }

    /// Half the width of the Elo interval: the `±` figure fastchess prints.
    pub fn elo_error(&self) -> f64 {
        (self.elo_interval.1 - self.elo_interval.0) / 2.0
    }

    /// Half the width of the nElo interval.
    pub fn nelo_error(&self) -> f64 {
        (self.nelo_interval.1 - self.nelo_interval.0) / 2.0
    }
}

impl fmt::Display for Estimate {
    /// `Elo: 12.34 +/- 5.67, nElo: 20.10 +/- 9.22, LOS: 99.12 %`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Elo: {:.2} +/- {:.2}, nElo: {:.2} +/- {:.2}, LOS: {:.2} %",
            self.elo,
            self.elo_error(),
            self.nelo,
            self.nelo_error(),
            self.los * 100.0
        )
    }
}

/// The error function, to about 1e-15 (a power series near 0, a continued fraction for
/// `erfc` in the tails): Rust's standard library has none.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return -erf(-x);
    }
    if x.is_infinite() {
        return 1.0;
    }
    if x < 2.5 {
        // erf x = 2/√π · Σ (−1)ⁿ x^(2n+1) / (n! (2n+1)), summed until the terms vanish.
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        for n in 1..200 {
            term *= -x2 / f64::from(n);
            let add = term / f64::from(2 * n + 1);
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        sum * std::f64::consts::FRAC_2_SQRT_PI
    } else {
        1.0 - erfc_tail(x)
    }
}

/// erfc x for x ≥ 2.5 by its continued fraction (Lentz's method).
fn erfc_tail(x: f64) -> f64 {
    // erfc x = exp(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + …)))))
    let tiny = 1e-300;
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for n in 1..500 {
        let a = f64::from(n) / 2.0;
        d = x + a * d;
        d = if d.abs() < tiny { tiny } else { d };
        c = x + a / c;
        c = if c.abs() < tiny { tiny } else { c };
        d = 1.0 / d;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / std::f64::consts::PI.sqrt() / f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_known_values() {
        // Abramowitz and Stegun, table 7.1, and erf(3), erf(4) to 16 digits.
        for (x, want) in [
            (0.0, 0.0),
            (0.1, 0.112_462_916_018_284_9),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (3.0, 0.999_977_909_503_001_4),
            (4.0, 0.999_999_984_582_742_1),
        ] {
            assert!((erf(x) - want).abs() < 1e-14, "erf({x}) = {}", erf(x));
            assert!((erf(-x) + want).abs() < 1e-14);
        }
        assert!((erfc_tail(5.0) - 1.537_459_794_428_034_8e-12).abs() < 1e-25);
    }

    #[test]
    fn pairs_count_into_both_kinds() {
        let mut c = Counts::default();
        c.add_pair(GameScore::Win, GameScore::Loss);
        c.add_pair(GameScore::Win, GameScore::Draw);
        c.add_pair(GameScore::Draw, GameScore::Draw);
        assert_eq!(c.trinomial, [1, 3, 2]);
        assert_eq!(c.pentanomial, [0, 0, 2, 1, 0]);
        assert_eq!((c.games(), c.pairs(), c.wdl()), (6, 3, (2, 3, 1)));
    }

    #[test]
    fn even_results_give_zero_elo_and_even_odds() {
        let e = Estimate::from_counts(&[10, 30, 10]).unwrap();
        assert_eq!((e.score, e.elo, e.nelo), (0.5, 0.0, 0.0));
        assert!((e.los - 0.5).abs() < 1e-15);
        assert!((e.elo_interval.0 + e.elo_interval.1).abs() < 1e-9);
        assert!(Estimate::from_counts(&[0, 0, 0]).is_none());
        assert!(Estimate::from_counts(&[1, 2, 3, 4]).is_none());
    }
}
