//! The network file's SCALE, fitted so that the network speaks the classical evaluation's
//! centipawns.
//!
//! The search's margins (reverse futility, futility, razoring, the resign and draw windows of
//! self-play) were tuned on the classical evaluation, so they are in its centipawns. A trained
//! network's centipawns are not: the result share of the target (`--wdl`) pulls its scores
//! towards the decisive outcomes of low-node self-play, and a generation labelled by an
//! inflated network inherits the inflation. gen1, trained at SCALE 400, scores 1.37× the
//! classical evaluation on the same positions (slope over 2,858 positions, correlation 0.97).
//! Played at 10,000 nodes a move against the classical evaluation, the same weights scored
//! −33 Elo at SCALE 400 and +69 at SCALE 292 (benchmarks/RESULTS.md, issue 19).
//!
//! SCALE only multiplies the output (`eval = out · SCALE`), so it can be chosen after
//! training without touching the weights. [`fit_scale`] makes the two evaluations equally
//! spread over the same positions, `√(Σ c² / Σ o²)` (the reduced-major-axis line through the
//! origin). Least squares of the classical score on the output, `Σ c·o / Σ o²`, would shrink
//! the scale by however much the two disagree: for gen1 it gives 0.68 × 400 = 274 where the
//! spreads give 284, and of the SCALEs played, 292 scored best (250: +44, 340: +54).

/// Classical scores beyond this many centipawns (lost or won positions, where the two
/// evaluations need not agree on how lost) do not take part in the fit.
pub const FIT_LIMIT_CP: i16 = 1500;

/// The SCALE at which `SCALE · output` is as spread as `classical`, over the pairs whose
/// classical score is within ±[`FIT_LIMIT_CP`]; `None` without such pairs, with outputs all
/// zero, or with outputs that disagree in sign with the classical scores on the whole. The
/// result is rounded and kept within the file format's 1 ..= 4096.
pub fn fit_scale(outputs: &[f32], classical: &[i16]) -> Option<i32> {
    let (mut co, mut oo, mut cc) = (0.0f64, 0.0f64, 0.0f64);
    for (&o, &c) in outputs.iter().zip(classical) {
        if c.unsigned_abs() > FIT_LIMIT_CP.unsigned_abs() || !o.is_finite() {
            continue;
        }
        let (c, o) = (f64::from(c), f64::from(o));
        co += c * o;
        oo += o * o;
        cc += c * c;
    }
    if oo <= 0.0 || co <= 0.0 {
        return None;
    }
    Some(((cc / oo).sqrt().round() as i32).clamp(1, 4096))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic stand-in for noise: a small, sign-alternating wobble.
    fn wobble(i: usize) -> f32 {
        ((i * 7919 % 101) as f32 - 50.0) / 2000.0
    }

    #[test]
    fn the_fit_recovers_the_scale_between_outputs_and_classical_scores() {
        for scale in [250.0f32, 292.0, 400.0, 555.0] {
            let classical: Vec<i16> = (0..2000).map(|i| i as i16 - 1000).collect();
            let outputs: Vec<f32> = classical
                .iter()
                .enumerate()
                .map(|(i, &c)| f32::from(c) / scale + wobble(i))
                .collect();
            let fitted = fit_scale(&outputs, &classical).unwrap();
            assert!(
                (fitted as f32 - scale).abs() <= scale * 0.02,
                "scale {scale}: fitted {fitted}"
            );
        }
    }

    #[test]
    fn decided_positions_do_not_pull_the_fit() {
        // Outputs at SCALE 300 within the limit, and wildly disagreeing ones beyond it.
        let mut classical = vec![300i16, -600, 900, -1200];
        let mut outputs = vec![1.0f32, -2.0, 3.0, -4.0];
        classical.extend([20_000, -20_000, 1501]);
        outputs.extend([0.5, -0.5, 100.0]);
        assert_eq!(fit_scale(&outputs, &classical), Some(300));
    }

    #[test]
    fn no_usable_pairs_give_no_scale() {
        assert_eq!(fit_scale(&[], &[]), None);
        assert_eq!(fit_scale(&[0.0, 0.0], &[100, -50]), None);
        assert_eq!(fit_scale(&[1.0], &[30_000]), None);
        assert_eq!(fit_scale(&[f32::NAN], &[10]), None);
        // A network that scores everything backwards has no sensible SCALE.
        assert_eq!(fit_scale(&[1.0, -2.0], &[-100, 200]), None);
    }

    #[test]
    fn the_scale_stays_within_the_file_format() {
        assert_eq!(fit_scale(&[1e-6], &[1000]), Some(4096));
        assert_eq!(fit_scale(&[1000.0], &[1]), Some(1));
    }
}
