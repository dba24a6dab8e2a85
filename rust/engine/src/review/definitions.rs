//! Lichess's published definitions of a game review, as pure functions: Win%, move accuracy,
//! game accuracy, the judgements (inaccuracy, mistake, blunder) and the average centipawn
//! loss. The sources are lila's `WinPercent`, `AccuracyPercent`, `Advice` and `AccuracyCP`
//! (scalachess's `Eval`); where this module differs from lila it says why.
//!
//! Every evaluation here is an [`Eval`] from White's point of view. Floating-point sums run
//! in the order lila runs them, so the numbers agree with it (and with `shatranj.review`) to
//! the last digit or close to it.

use crate::score::Score;
use shatranj_chess::Color;

/// An evaluation from White's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Eval {
    /// Centipawns, positive when White is better.
    Cp(i32),
    /// Mate in this many moves: positive when White mates, negative when Black does; never 0
    /// (use [`Eval::Mated`] for a finished checkmate: a mate in 0 has no sign to say who won).
    Mate(i32),
    /// The game is over by checkmate and this side is mated.
    Mated(Color),
}

/// Centipawns a mate counts as, and the clamp of every centipawn value in Win% and ACPL
/// (scalachess's `Eval.Cp.CEILING`).
pub const CEILING: i32 = 1000;

/// The evaluation lichess gives the standard starting position (`Eval.Cp.initial`).
pub const START_EVAL: Eval = Eval::Cp(15);

impl Eval {
    /// An engine's score (from the side to move, `turn`) as seen by White. A mate in 0 is
    /// the side to move mated.
    pub fn from_score(score: Score, turn: Color) -> Eval {
        let sign = if turn == Color::White { 1 } else { -1 };
        match score {
            Score::Cp(cp) => Eval::Cp(sign * cp),
            Score::Mate(0) => Eval::Mated(turn),
            Score::Mate(n) => Eval::Mate(sign * n),
        }
    }

    /// Centipawns, a mate (or a finished checkmate) counting as ±[`CEILING`] for the side
    /// that mates; centipawns are not clamped here.
    pub fn as_cp(self) -> i32 {
        match self {
            Eval::Cp(cp) => cp,
            Eval::Mate(n) if n > 0 => CEILING,
            Eval::Mate(_) | Eval::Mated(Color::White) => -CEILING,
            Eval::Mated(Color::Black) => CEILING,
        }
    }

    /// [`Eval::as_cp`] clamped to ±[`CEILING`] (scalachess's `ceiled`).
    pub fn ceiled_cp(self) -> i32 {
        self.as_cp().clamp(-CEILING, CEILING)
    }

    /// The evaluation as `[%eval]` writes it (lichess's form): pawns with two decimals
    /// (`0.32`, `-1.50`), `#3` / `#-3` for a mate. A finished checkmate is `#+0` when White
    /// won and `#-0` when Black did: python-chess reads either as a mate in 0, and the sign
    /// keeps the winner for a reader that looks.
    pub fn to_pgn(self) -> String {
        match self {
            Eval::Cp(cp) => pawns(cp),
            Eval::Mate(n) => format!("#{n}"),
            Eval::Mated(Color::Black) => "#+0".to_owned(),
            Eval::Mated(Color::White) => "#-0".to_owned(),
        }
    }

    /// The evaluation as lichess's advice comments show it: pawns with two decimals or
    /// `Mate in n` (lila's `Info.evalComment`).
    pub fn to_comment(self) -> String {
        match self {
            Eval::Cp(cp) => pawns(cp),
            Eval::Mate(n) => format!("Mate in {}", n.unsigned_abs()),
            Eval::Mated(_) => "Checkmate".to_owned(),
        }
    }
}

/// Centipawns as pawns with two decimals, exactly (no floating point).
fn pawns(cp: i32) -> String {
    let sign = if cp < 0 { "-" } else { "" };
    let a = cp.unsigned_abs();
    format!("{sign}{}.{:02}", a / 100, a % 100)
}

/// Winning chances in [-1, 1] for a centipawn value (lila's `WinPercent.winningChances`),
/// not clamped in centipawns: the judgements use it on raw values.
pub fn winning_chances(cp: i32) -> f64 {
    const MULTIPLIER: f64 = -0.003_682_08;
    (2.0 / (1.0 + (MULTIPLIER * f64::from(cp)).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// White's Win% (0 to 100) of an evaluation: centipawns clamped to ±1000 first, a mate
/// counted as ±1000 for the side that mates.
pub fn win_percent(eval: Eval) -> f64 {
    win_percent_cp(eval.as_cp())
}

/// [`win_percent`] of centipawns.
pub fn win_percent_cp(cp: i32) -> f64 {
    50.0 + 50.0 * winning_chances(cp.clamp(-CEILING, CEILING))
}

/// The accuracy (0 to 100) of a move that took the mover's Win% from `before` to `after`
/// (lila's `AccuracyPercent.fromWinPercents`).
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let d = before - after;
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * d).exp() - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// The accuracy of one move from White's Win% before and after it, for `mover`: lila's
/// argument order (Black's move compares the Win% after with the one before, White's), not
/// `100 - x`, so the floating-point result is lila's.
pub fn mover_accuracy(white_before: f64, white_after: f64, mover: Color) -> f64 {
    match mover {
        Color::White => move_accuracy(white_before, white_after),
        Color::Black => move_accuracy(white_after, white_before),
    }
}

/// The side that plays move `i` (0-based) of a game `first_mover` began.
pub fn mover_of(i: usize, first_mover: Color) -> Color {
    if i.is_multiple_of(2) == (first_mover == Color::White) {
        Color::White
    } else {
        Color::Black
    }
}

/// Each side's accuracy (White, Black) over a game (lila's `AccuracyPercent.gameAccuracy`).
///
/// `evals` are White's evaluations after each move, `None` where unknown; `start` is the
/// evaluation before the first move ([`START_EVAL`] for the standard start). The Win% list
/// is `start` then `evals`; the window is `clamp(evals.len() / 10, 2, 8)` values; move `i`
/// (from value `i` to `i + 1`) is weighted by the population standard deviation of window
/// `i` clamped to [0.5, 12], where the windows are the first one repeated `window - 2`
/// times then every sliding window. A side's accuracy is the mean of the weighted mean of
/// its move accuracies and their harmonic mean (each floored at 1 there); `None` for a side
/// with no scored move. A move is skipped where a value it reads (its two Win% or any in its
/// window) is unknown: lila always has every evaluation, so this is our extension.
pub fn game_accuracy(
    evals: &[Option<Eval>],
    first_mover: Color,
    start: Option<Eval>,
) -> (Option<f64>, Option<f64>) {
    let all: Vec<Option<f64>> = std::iter::once(start)
        .chain(evals.iter().copied())
        .map(|e| e.map(win_percent))
        .collect();
    let window = (evals.len() / 10).clamp(2, 8);
    let mut windows: Vec<&[Option<f64>]> = Vec::with_capacity(all.len());
    let first = &all[..window.min(all.len())];
    for _ in 0..window.min(all.len()).saturating_sub(2) {
        windows.push(first);
    }
    if all.len() <= window {
        // Scala's `sliding` gives one window, the whole list, when the list is shorter.
        windows.push(&all);
    } else {
        windows.extend(all.windows(window));
    }
    let weights: Vec<Option<f64>> = windows.iter().map(|w| window_weight(w)).collect();

    // (accuracy, weight) of each side's scored moves.
    let mut moves: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, (pair, weight)) in all.windows(2).zip(&weights).enumerate() {
        let (Some(prev), Some(next), Some(weight)) = (pair[0], pair[1], *weight) else {
            continue;
        };
        let color = mover_of(i, first_mover);
        moves[color.index()].push((mover_accuracy(prev, next, color), weight));
    }
    let side = |m: &[(f64, f64)]| -> Option<f64> {
        let weighted = weighted_mean(m)?;
        let harmonic = harmonic_mean(m.iter().map(|&(a, _)| a))?;
        Some((weighted + harmonic) / 2.0)
    };
    (side(&moves[0]), side(&moves[1]))
}

/// A window's weight: its population standard deviation clamped to [0.5, 12], `None` when
/// a value in it is unknown.
fn window_weight(values: &[Option<f64>]) -> Option<f64> {
    let values: Vec<f64> = values.iter().copied().collect::<Option<_>>()?;
    Some(standard_deviation(&values).clamp(0.5, 12.0))
}

/// The population standard deviation (lila's `Maths.standardDeviation`; 0 for no values).
pub fn standard_deviation(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().fold(0.0, |s, &x| s + (x - mean) * (x - mean)) / n;
    variance.sqrt()
}

/// `Σ v·w / Σ w`; `None` without values or weight (lila's `Maths.weightedMean`).
fn weighted_mean(values: &[(f64, f64)]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let (sum, weights) = values
        .iter()
        .fold((0.0, 0.0), |(s, ws), &(v, w)| (s + v * w, ws + w));
    (weights != 0.0).then(|| sum / weights)
}

/// `n / Σ 1/max(1, v)`; `None` without values (lila's `Maths.harmonicMean`).
fn harmonic_mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (n, sum) = values.fold((0usize, 0.0), |(n, s), v| (n + 1, s + 1.0 / v.max(1.0)));
    (n > 0).then(|| n as f64 / sum)
}

/// How bad a move was, lichess's three grades.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// The name lichess writes: `Inaccuracy`, `Mistake`, `Blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }

    /// The NAG lichess writes: `$6` (`?!`), `$2` (`?`), `$4` (`??`).
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }
}

/// Why a move was judged (lila's `CpAdvice` and `MateAdvice`'s sequences).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AdviceKind {
    /// The winning chances dropped.
    WinningChances,
    /// "Checkmate is now unavoidable": the mover now gets mated.
    MateCreated,
    /// "Lost forced checkmate sequence": the mover had a forced mate and let it go.
    MateLost,
}

/// A judged move: the grade and the reason.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Advice {
    pub judgement: Judgement,
    pub kind: AdviceKind,
}

impl Advice {
    /// The sentence lichess writes before the best move: `Mistake`, or the mate sequence's
    /// description.
    pub fn description(self) -> &'static str {
        match self.kind {
            AdviceKind::WinningChances => self.judgement.name(),
            AdviceKind::MateCreated => "Checkmate is now unavoidable",
            AdviceKind::MateLost => "Lost forced checkmate sequence",
        }
    }
}

/// An evaluation from the mover's side, as lila's advice reads it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Pov {
    Cp(i32),
    Mate(i32),
    /// A finished checkmate: neither centipawns nor a mate to judge.
    Over,
}

fn pov(eval: Eval, mover: Color) -> Pov {
    let sign = if mover == Color::White { 1 } else { -1 };
    match eval {
        Eval::Cp(cp) => Pov::Cp(sign * cp),
        Eval::Mate(n) => Pov::Mate(sign * n),
        Eval::Mated(_) => Pov::Over,
    }
}

/// The judgement of a move by `mover` that took the evaluation from `prev` to `next`
/// (lila's `Advice.apply`), or `None` for a good enough move.
///
/// Both centipawns: the drop of the mover's winning chances, on raw centipawns, graded at
/// 0.3 / 0.2 / 0.1 (lila ceils both at ±1000 first; shatranj.review's definition does not,
/// and this follows it so the two agree — beyond ±1000 the chances differ by under 0.05).
/// Otherwise the mate rules: a mate against the mover appearing after centipawns is an
/// inaccuracy if the mover was already below -999, a mistake below -700, else a blunder; a
/// forced mate of the mover's turning into centipawns or a mate against it is an inaccuracy
/// if the new value is above 999 (a mate counts 0 there), a mistake above 700, else a
/// blunder; anything else (a mate delayed, a finished checkmate) is not judged.
///
/// Lichess also judges a move only where the engine preferred another one; that gate is the
/// caller's ([`super::review_moves`]).
pub fn judge(prev: Eval, next: Eval, mover: Color) -> Option<Advice> {
    let (p, n) = (pov(prev, mover), pov(next, mover));
    if let (Pov::Cp(a), Pov::Cp(b)) = (p, n) {
        let delta = winning_chances(a) - winning_chances(b);
        let judgement = if delta >= 0.3 {
            Judgement::Blunder
        } else if delta >= 0.2 {
            Judgement::Mistake
        } else if delta >= 0.1 {
            Judgement::Inaccuracy
        } else {
            return None;
        };
        return Some(Advice {
            judgement,
            kind: AdviceKind::WinningChances,
        });
    }
    let cp = |e: Pov| if let Pov::Cp(c) = e { c } else { 0 };
    let (judgement, kind) = match (p, n) {
        (Pov::Cp(a), Pov::Mate(m)) if m < 0 => (
            if a < -999 {
                Judgement::Inaccuracy
            } else if a < -700 {
                Judgement::Mistake
            } else {
                Judgement::Blunder
            },
            AdviceKind::MateCreated,
        ),
        (Pov::Mate(m), Pov::Cp(_)) if m > 0 => (lost(cp(n)), AdviceKind::MateLost),
        (Pov::Mate(m), Pov::Mate(k)) if m > 0 && k < 0 => (lost(cp(n)), AdviceKind::MateLost),
        _ => return None,
    };
    Some(Advice { judgement, kind })
}

fn lost(next_cp: i32) -> Judgement {
    if next_cp > 999 {
        Judgement::Inaccuracy
    } else if next_cp > 700 {
        Judgement::Mistake
    } else {
        Judgement::Blunder
    }
}

/// A centipawn loss of one move: `max(0, before - after)` from the mover's side, both
/// evaluations as centipawns ceiled at ±1000 (a mate ±1000).
pub fn centipawn_loss(before: Eval, after: Eval, mover: Color) -> i32 {
    let (b, a) = (before.ceiled_cp(), after.ceiled_cp());
    let loss = match mover {
        Color::White => b - a,
        Color::Black => a - b,
    };
    loss.max(0)
}

/// Each side's average centipawn loss (White, Black): the mean of [`centipawn_loss`] over its
/// moves whose two evaluations are known, rounded half up as Java's `Math.round`; `None` for
/// a side without such a move. `evals` and `start` are as in [`game_accuracy`].
pub fn acpl(
    evals: &[Option<Eval>],
    first_mover: Color,
    start: Option<Eval>,
) -> (Option<i64>, Option<i64>) {
    let mut sums = [(0i64, 0usize); 2];
    let mut prev = start;
    for (i, &next) in evals.iter().enumerate() {
        let mover = mover_of(i, first_mover);
        if let (Some(b), Some(a)) = (prev, next) {
            let s = &mut sums[mover.index()];
            s.0 += i64::from(centipawn_loss(b, a, mover));
            s.1 += 1;
        }
        prev = next;
    }
    let side = |(sum, n): (i64, usize)| (n > 0).then(|| java_round(sum as f64 / n as f64));
    (side(sums[0]), side(sums[1]))
}

/// Java's `Math.round`: the nearest integer, halves rounded up (towards +∞).
pub fn java_round(x: f64) -> i64 {
    (x + 0.5).floor() as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(x: f64, places: i32) -> f64 {
        let p = 10f64.powi(places);
        (x * p).round() / p
    }

    #[test]
    fn win_percent_reference_values() {
        assert_eq!(win_percent(Eval::Cp(0)), 50.0);
        assert_eq!(round(win_percent(Eval::Cp(100)), 4), 59.1026);
        assert_eq!(round(win_percent(Eval::Cp(300)), 4), 75.1126);
        assert_eq!(round(win_percent(Eval::Cp(1000)), 4), 97.5447);
        // Clamped at ±1000, a mate counting as 1000 for the side that mates.
        assert_eq!(win_percent(Eval::Cp(5000)), win_percent(Eval::Cp(1000)));
        assert_eq!(win_percent(Eval::Mate(3)), win_percent(Eval::Cp(1000)));
        assert_eq!(win_percent(Eval::Mate(-1)), win_percent(Eval::Cp(-1000)));
        assert_eq!(
            win_percent(Eval::Mated(Color::Black)),
            win_percent(Eval::Cp(1000))
        );
        assert_eq!(
            win_percent(Eval::Mated(Color::White)),
            win_percent(Eval::Cp(-1000))
        );
        assert!((win_percent(Eval::Cp(-100)) - (100.0 - 59.1026)).abs() < 1e-4);
    }

    #[test]
    fn move_accuracy_reference_values() {
        for (drop, expected) in [(5.0, 80.82), (10.0, 64.58), (20.0, 41.02), (40.0, 15.91)] {
            assert_eq!(
                round(move_accuracy(60.0, 60.0 - drop), 2),
                expected,
                "{drop}"
            );
        }
        assert_eq!(move_accuracy(40.0, 40.0), 100.0);
        assert_eq!(move_accuracy(40.0, 70.0), 100.0);
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    #[test]
    fn game_accuracy_reference_values() {
        let evals = [Some(Eval::Cp(-900)), Some(Eval::Cp(-900))];
        let (white, black) = game_accuracy(&evals, Color::White, Some(START_EVAL));
        assert_eq!(round(white.unwrap(), 2), 10.66);
        assert_eq!(black, Some(100.0));
        // Black first: the first move is Black's, so Black gets the collapse... which for
        // Black is a gain.
        let (white, black) = game_accuracy(&evals, Color::Black, Some(START_EVAL));
        assert_eq!((white, black), (Some(100.0), Some(100.0)));
        assert_eq!(
            game_accuracy(&[], Color::White, Some(START_EVAL)),
            (None, None)
        );
    }

    /// The game accuracy written out again the plainest way, on a longer game with a window
    /// larger than two and unknown values.
    #[test]
    fn game_accuracy_matches_a_plain_restatement() {
        let cps = [
            20, 35, -10, 5, 40, -150, -120, -300, 280, 250, 900, 30, -50, -40, 60, 800, 790, -2000,
            1500, 1400, 10, 20, 0, -5, 5,
        ];
        let mut evals: Vec<Option<Eval>> = cps.iter().map(|&c| Some(Eval::Cp(c))).collect();
        evals.push(Some(Eval::Mate(2)));
        evals.push(Some(Eval::Mate(1)));
        evals.push(Some(Eval::Mated(Color::Black)));
        let (w, b) = game_accuracy(&evals, Color::White, Some(START_EVAL));

        let mut wp = vec![win_percent_cp(15)];
        wp.extend(evals.iter().map(|e| win_percent(e.unwrap())));
        let n = evals.len();
        let size = (n / 10).clamp(2, 8);
        assert_eq!(size, 2);
        let mut acc = [Vec::new(), Vec::new()];
        for i in 0..n {
            // Window i: the first window for the first size-1 moves, then sliding.
            let start = i.saturating_sub(size - 2);
            let window = &wp[start..start + size];
            let mean = window.iter().sum::<f64>() / size as f64;
            let sd = (window.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / size as f64).sqrt();
            let white = i % 2 == 0;
            let a = if white {
                move_accuracy(wp[i], wp[i + 1])
            } else {
                move_accuracy(100.0 - wp[i], 100.0 - wp[i + 1])
            };
            acc[usize::from(!white)].push((a, sd.clamp(0.5, 12.0)));
        }
        let expect = |m: &Vec<(f64, f64)>| {
            let wm =
                m.iter().map(|(a, w)| a * w).sum::<f64>() / m.iter().map(|(_, w)| w).sum::<f64>();
            let hm = m.len() as f64 / m.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
            (wm + hm) / 2.0
        };
        assert!((w.unwrap() - expect(&acc[0])).abs() < 1e-9);
        assert!((b.unwrap() - expect(&acc[1])).abs() < 1e-9);

        // A window of 3 (30 moves): the first window counted for moves 0 and 1.
        let long: Vec<Option<Eval>> = (0..30)
            .map(|i| Some(Eval::Cp((i * 37 % 200) - 100)))
            .collect();
        let (w, _) = game_accuracy(&long, Color::White, Some(START_EVAL));
        let mut wp = vec![win_percent_cp(15)];
        wp.extend(long.iter().map(|e| win_percent(e.unwrap())));
        let mut m = Vec::new();
        for i in (0..30usize).step_by(2) {
            let start = i.saturating_sub(1);
            let window = &wp[start..start + 3];
            let sd = standard_deviation(window).clamp(0.5, 12.0);
            m.push((move_accuracy(wp[i], wp[i + 1]), sd));
        }
        assert!((w.unwrap() - expect(&m)).abs() < 1e-9);

        // An unknown value drops the moves that read it, in their pair or their window.
        let mut holes = evals.clone();
        holes[4] = None;
        let (w2, b2) = game_accuracy(&holes, Color::White, Some(START_EVAL));
        assert!(w2.is_some() && b2.is_some());
        assert_ne!(
            (w2, b2),
            game_accuracy(&evals, Color::White, Some(START_EVAL))
        );
        assert_eq!(
            game_accuracy(&[None, None], Color::White, Some(START_EVAL)),
            (None, None)
        );
    }

    #[test]
    fn judgements_on_winning_chances() {
        let j = |a, b, c| judge(Eval::Cp(a), Eval::Cp(b), c).map(|x| x.judgement);
        assert_eq!(j(0, -300, Color::White), Some(Judgement::Blunder));
        assert_eq!(j(0, 300, Color::Black), Some(Judgement::Blunder));
        assert_eq!(j(0, -120, Color::White), Some(Judgement::Mistake));
        assert_eq!(j(0, -60, Color::White), Some(Judgement::Inaccuracy));
        assert_eq!(j(0, -50, Color::White), None);
        assert_eq!(j(0, -300, Color::Black), None);
        // Raw centipawns: 3000 to 1000 loses 0.05 of winning chances.
        assert_eq!(j(3000, 1000, Color::White), None);
        // Every drop from +50 graded by the thresholds, which are inclusive.
        for cp in -600..=50 {
            let d = winning_chances(50) - winning_chances(cp);
            let want = [
                (0.3, Judgement::Blunder),
                (0.2, Judgement::Mistake),
                (0.1, Judgement::Inaccuracy),
            ]
            .into_iter()
            .find(|&(t, _)| d >= t)
            .map(|(_, j)| j);
            assert_eq!(j(50, cp, Color::White), want, "{cp}");
            assert_eq!(j(-50, -cp, Color::Black), want, "{cp}");
        }
    }

    #[test]
    fn judgements_with_mates() {
        use AdviceKind::*;
        use Judgement::*;
        let a = |p, n, c| judge(p, n, c).map(|x| (x.judgement, x.kind));
        // Checkmate now unavoidable, graded by how lost the mover already was.
        assert_eq!(
            a(Eval::Cp(-1200), Eval::Mate(-5), Color::White),
            Some((Inaccuracy, MateCreated))
        );
        assert_eq!(
            a(Eval::Cp(-800), Eval::Mate(-5), Color::White),
            Some((Mistake, MateCreated))
        );
        assert_eq!(
            a(Eval::Cp(-700), Eval::Mate(-5), Color::White),
            Some((Blunder, MateCreated))
        );
        assert_eq!(
            a(Eval::Cp(800), Eval::Mate(5), Color::Black),
            Some((Mistake, MateCreated))
        );
        // A forced mate lost.
        assert_eq!(
            a(Eval::Mate(3), Eval::Cp(1000), Color::White),
            Some((Inaccuracy, MateLost))
        );
        assert_eq!(
            a(Eval::Mate(3), Eval::Cp(701), Color::White),
            Some((Mistake, MateLost))
        );
        assert_eq!(
            a(Eval::Mate(3), Eval::Cp(700), Color::White),
            Some((Blunder, MateLost))
        );
        assert_eq!(
            a(Eval::Mate(3), Eval::Mate(-2), Color::White),
            Some((Blunder, MateLost))
        );
        assert_eq!(
            a(Eval::Mate(-3), Eval::Cp(-2000), Color::Black),
            Some((Inaccuracy, MateLost))
        );
        // A mate delayed, a mate found, a finished checkmate: not judged.
        assert_eq!(a(Eval::Mate(2), Eval::Mate(4), Color::White), None);
        assert_eq!(a(Eval::Mate(-2), Eval::Mate(-1), Color::White), None);
        assert_eq!(a(Eval::Cp(0), Eval::Mate(3), Color::White), None);
        assert_eq!(
            a(Eval::Mate(1), Eval::Mated(Color::Black), Color::White),
            None
        );
        assert_eq!(
            a(Eval::Cp(0), Eval::Mated(Color::Black), Color::White),
            None
        );
    }

    #[test]
    fn acpl_ceils_and_rounds_half_up() {
        let e = |c| Some(Eval::Cp(c));
        // White: 15 -> -85 (loss 100), 0 -> -1000 (ceiled; loss 1000). Black: -85 -> 0 (loss
        // 85), -3000 -> 0 (ceiled at -1000: loss 1000).
        let evals = [e(-85), e(0), e(-3000), e(0)];
        let (w, b) = acpl(&evals, Color::White, Some(START_EVAL));
        assert_eq!(w, Some(java_round((100.0 + 3000f64.min(1000.0)) / 2.0)));
        assert_eq!(b, Some(java_round((85.0 + 1000.0) / 2.0)));
        assert_eq!(java_round(2.5), 3);
        assert_eq!(java_round(-2.5), -2);
        assert_eq!(acpl(&[e(10)], Color::White, None), (None, None));
        assert_eq!(
            acpl(&[Some(Eval::Mate(-2))], Color::White, Some(Eval::Cp(0))),
            (Some(1000), None)
        );
    }

    #[test]
    fn scores_become_white_evals() {
        assert_eq!(Eval::from_score(Score::Cp(30), Color::Black), Eval::Cp(-30));
        assert_eq!(
            Eval::from_score(Score::Mate(2), Color::Black),
            Eval::Mate(-2)
        );
        assert_eq!(
            Eval::from_score(Score::Mate(-2), Color::Black),
            Eval::Mate(2)
        );
        assert_eq!(
            Eval::from_score(Score::Mate(0), Color::Black),
            Eval::Mated(Color::Black)
        );
        assert_eq!(Eval::Cp(32).to_pgn(), "0.32");
        assert_eq!(Eval::Cp(-150).to_pgn(), "-1.50");
        assert_eq!(Eval::Cp(-5).to_pgn(), "-0.05");
        assert_eq!(Eval::Mate(-3).to_pgn(), "#-3");
        assert_eq!(Eval::Mate(-3).to_comment(), "Mate in 3");
    }
}
