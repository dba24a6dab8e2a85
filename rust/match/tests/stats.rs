//! The statistics against a direct computation: every pair's (or game's) score listed one by
//! one, the sample mean and variance taken over the list, and the formulas of fastchess's
//! `EloPentanomial`/`EloWDL` applied by hand; and against figures computed once with Python's
//! `math` module (its `erf` is the C library's) from the same formulas.

// Figures pasted digit for digit from the Python that printed them: separators would only
// hide a typo.
#![allow(clippy::unreadable_literal)]

use shatranj_match::sprt::{Model, Sprt, llr};
use shatranj_match::stats::{Counts, Estimate, GameScore, erf};

/// Mean and variance of the scores of `counts`, each game or pair listed one by one.
fn direct(counts: &[u64]) -> (f64, f64, f64) {
    let k = counts.len();
    let mut scores = Vec::new();
    for (i, &c) in counts.iter().enumerate() {
        for _ in 0..c {
            scores.push(i as f64 / (k - 1) as f64);
        }
    }
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / n;
    (n, mean, var)
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1.0)
}

#[test]
fn elo_interval_nelo_and_los_equal_a_direct_computation() {
    for counts in [
        vec![365u64, 16618, 36229, 16974, 390],
        vec![223, 9863, 21279, 10037, 246],
        vec![3, 20, 41, 30, 6],
        vec![36027, 68692, 36433],
        vec![21184, 40708, 21404],
        vec![17, 25, 58],
    ] {
        let e = Estimate::from_counts(&counts).unwrap();
        let (n, mean, var) = direct(&counts);
        let pairs = counts.len() == 5;
        let elo = |s: f64| 400.0 * (s / (1.0 - s)).log10();
        let half = 1.959963984540054 * (var / n).sqrt();
        let nelo = (mean - 0.5) / (var * if pairs { 2.0 } else { 1.0 }).sqrt() * 800.0
            / std::f64::consts::LN_10;
        let los = 0.5 * (1.0 + erf((mean - 0.5) / (2.0 * var / n).sqrt()));
        assert!(close(e.score, mean, 1e-12), "{counts:?}");
        assert!(close(e.variance, var, 1e-9), "{counts:?}");
        assert!(close(e.elo, elo(mean), 1e-9), "{counts:?}");
        assert!(
            close(e.elo_interval.0, elo(mean - half), 1e-9),
            "{counts:?}"
        );
        assert!(
            close(e.elo_interval.1, elo(mean + half), 1e-9),
            "{counts:?}"
        );
        assert!(close(e.nelo, nelo, 1e-9), "{counts:?}");
        assert!(close(e.los, los, 1e-12), "{counts:?}");
    }
}

#[test]
fn figures_computed_once_in_python() {
    // score, var over pairs; -400*log10(1/s-1); s ± 1.959963984540054*sqrt(var/n);
    // (s-.5)/sqrt(2*var)*800/ln 10; (1-math.erf(-(s-.5)/sqrt(2*var/n)))/2 (Python 3.12).
    let e = Estimate::from_counts(&[365, 16618, 36229, 16974, 390]).unwrap();
    assert!(close(e.elo, 0.9993428129307208, 1e-12));
    assert!(close(e.elo_interval.0, 0.07627305365244257, 1e-10));
    assert!(close(e.elo_interval.1, 1.922426680402269, 1e-12));
    assert!(close(e.nelo, 1.9622707934905137, 1e-12));
    assert!(close(e.los, 0.9830775979698243, 1e-12));
    assert_eq!(
        e.to_string(),
        "Elo: 1.00 +/- 0.92, nElo: 1.96 +/- 1.81, LOS: 98.31 %"
    );
}

#[test]
fn the_four_reference_llrs_to_two_decimals() {
    // fastchess's tests/sprt_test.cpp, as issue 50 quotes them.
    let cases: [(&[u64], f64, f64, Model, &str); 4] = [
        (
            &[365, 16618, 36229, 16974, 390],
            0.0,
            2.0,
            Model::Normalized,
            "2.25",
        ),
        (&[36027, 68692, 36433], 0.0, 2.0, Model::Normalized, "0.92"),
        (&[21184, 40708, 21404], 0.5, 2.5, Model::Logistic, "-1.57"),
        (
            &[223, 9863, 21279, 10037, 246],
            0.5,
            2.5,
            Model::Logistic,
            "-3.07",
        ),
    ];
    for (counts, elo0, elo1, model, want) in cases {
        let got = llr(counts, elo0, elo1, model).unwrap();
        assert_eq!(format!("{got:.2}"), want, "{counts:?} {model}");
        let sprt = Sprt::new(elo0, elo1, 0.05, 0.05, model).unwrap();
        assert_eq!(sprt.llr(counts).unwrap(), got);
    }
}

#[test]
fn counts_from_pairs_feed_the_estimate() {
    let mut c = Counts::default();
    for _ in 0..3 {
        c.add_pair(GameScore::Win, GameScore::Draw);
    }
    c.add_pair(GameScore::Loss, GameScore::Draw);
    assert_eq!(c.pentanomial, [0, 1, 0, 3, 0]);
    let e = c.estimate().unwrap();
    assert!(e.pentanomial);
    assert!(close(e.score, (3.0 * 0.75 + 0.25) / 4.0, 1e-15));
}
