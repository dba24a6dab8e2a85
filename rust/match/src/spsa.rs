//! SPSA (simultaneous perturbation stochastic approximation) as OpenBench and fishtest run it
//! for engine parameters: each iteration perturbs every parameter by `±c_k` at once (the signs
//! drawn at random), plays the `+` engine against the `−` engine, and steps every parameter by
//! `a_k × result / c_k` in its sign's direction, where `result` is the `+` engine's wins less
//! its losses.
//!
//! The schedule is Spall's, with OpenBench's per-parameter scaling from the values wanted at
//! the end of the run (`c_end`, the perturbation, and `r_end`, the learning rate):
//! `c = c_end × N^γ`, `a = r_end × c_end² × (A + N)^α`, and at iteration `k` (from 0)
//! `c_k = c / (k + 1)^γ`, `a_k = a / (A + k + 1)^α`, with α = 0.602, γ = 0.101 and
//! `A = N / 10`. Values are clamped to their ranges after each step; the engines get them
//! rounded.
//!
//! This module plays nothing: [`SpsaState::perturbation`] says what to play, and
//! [`SpsaState::apply`] takes the result ([`crate::tune`] plays it with the match runner).
//! The signs of iteration `k` are a pure function of `(seed, k)`, so the whole state is the
//! parameters, the iteration and the seed, and a run resumed from its state file follows the
//! trajectory of one never stopped.

use shatranj_engine::util::rng::SplitMix64;

/// Spall's exponents and OpenBench's `A` as a fraction of the iterations.
pub const ALPHA: f64 = 0.602;
pub const GAMMA: f64 = 0.101;
pub const A_RATIO: f64 = 0.1;

/// One parameter under tuning (a line of OpenBench's list: `name, int, start, min, max,
/// c_end, r_end`) and its current value.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
    pub r_end: f64,
    /// The current estimate (a real number; the engines get it rounded).
    pub value: f64,
}

impl SpsaParam {
    /// Reads one line of OpenBench's format; only `int` parameters (the UCI spins).
    pub fn parse(line: &str) -> Result<SpsaParam, String> {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [name, kind, start, min, max, c_end, r_end] = fields.as_slice() else {
            return Err(format!(
                "'{line}': expected name, int, start, min, max, c_end, r_end"
            ));
        };
        if *kind != "int" {
            return Err(format!("'{line}': only int parameters are tuned"));
        }
        let number = |what: &str, text: &str| -> Result<f64, String> {
            text.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("'{line}': {what} '{text}' is not a number"))
        };
        let p = SpsaParam {
            name: (*name).to_owned(),
            start: number("start", start)?,
            min: number("min", min)?,
            max: number("max", max)?,
            c_end: number("c_end", c_end)?,
            r_end: number("r_end", r_end)?,
            value: 0.0,
        };
        if name.is_empty() || !(p.min <= p.start && p.start <= p.max) {
            return Err(format!("'{line}': needs a name and min <= start <= max"));
        }
        if !(p.c_end > 0.0 && p.r_end > 0.0) {
            return Err(format!("'{line}': c_end and r_end must be positive"));
        }
        Ok(SpsaParam {
            value: p.start,
            ..p
        })
    }

    /// The line of OpenBench's format with the current value as the start.
    pub fn line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {}",
            self.name,
            self.value.round(),
            self.min,
            self.max,
            self.c_end,
            self.r_end
        )
    }

    fn clamp(&self, v: f64) -> f64 {
        v.clamp(self.min, self.max)
    }

    /// The engine's value: rounded and within the range.
    fn engine_value(&self, v: f64) -> i32 {
        self.clamp(v).round() as i32
    }
}

/// The iteration's gains for one parameter: the perturbation `c_k` and the step `a_k`.
fn gains(p: &SpsaParam, iterations: u64, k: u64) -> (f64, f64) {
    let n = iterations as f64;
    let a_big = A_RATIO * n;
    let c = p.c_end * n.powf(GAMMA);
    let a = p.r_end * p.c_end * p.c_end * (a_big + n).powf(ALPHA);
    let k = k as f64;
    (c / (k + 1.0).powf(GAMMA), a / (a_big + k + 1.0).powf(ALPHA))
}

/// What one iteration plays: the `+` and `−` engines' values and the signs drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    pub iteration: u64,
    /// `+1.0` or `−1.0` per parameter.
    pub signs: Vec<f64>,
    pub plus: Vec<i32>,
    pub minus: Vec<i32>,
}

/// A tune: the parameters, how far it has gone, and what fixes its randomness.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaState {
    pub params: Vec<SpsaParam>,
    /// The planned number of iterations `N` (the schedule depends on it).
    pub iterations: u64,
    /// Iterations done: the next one to play.
    pub iteration: u64,
    /// The seed of the signs (iteration `k` draws from `SplitMix64::for_game(seed, k)`).
    pub seed: u64,
    /// The running sum of the results (wins less losses of the `+` engines), for progress.
    pub total_result: i64,
    /// What the tune was started with (the caller's arguments), checked on resume.
    pub args: Vec<String>,
}

impl SpsaState {
    pub fn new(params: Vec<SpsaParam>, iterations: u64, seed: u64, args: Vec<String>) -> Self {
        SpsaState {
            params,
            iterations,
            iteration: 0,
            seed,
            total_result: 0,
            args,
        }
    }

    pub fn finished(&self) -> bool {
        self.iteration >= self.iterations
    }

    /// The current iteration's engines: each parameter `± c_k` by its drawn sign.
    pub fn perturbation(&self) -> Perturbation {
        let k = self.iteration;
        let mut rng = SplitMix64::for_game(self.seed, k);
        let mut signs = Vec::with_capacity(self.params.len());
        let (mut plus, mut minus) = (Vec::new(), Vec::new());
        for p in &self.params {
            let sign = if rng.next_u64() & 1 == 1 { 1.0 } else { -1.0 };
            let (c_k, _) = gains(p, self.iterations, k);
            plus.push(p.engine_value(p.value + sign * c_k));
            minus.push(p.engine_value(p.value - sign * c_k));
            signs.push(sign);
        }
        Perturbation {
            iteration: k,
            signs,
            plus,
            minus,
        }
    }

    /// Takes the iteration's result (the `+` engine's wins less its losses) and steps.
    pub fn apply(&mut self, perturbation: &Perturbation, result: i64) {
        debug_assert_eq!(perturbation.iteration, self.iteration);
        let k = self.iteration;
        for (p, sign) in self.params.iter_mut().zip(&perturbation.signs) {
            let (c_k, a_k) = gains(p, self.iterations, k);
            p.value = p.clamp(p.value + a_k / c_k * result as f64 * sign);
        }
        self.iteration += 1;
        self.total_result += result;
    }

    pub fn to_json(&self) -> String {
        let params: Vec<serde_json::Value> = self
            .params
            .iter()
            .map(|p| {
                serde_json::json!({
                    "name": p.name, "start": p.start, "min": p.min, "max": p.max,
                    "c_end": p.c_end, "r_end": p.r_end, "value": p.value,
                })
            })
            .collect();
        let v = serde_json::json!({
            "version": 1,
            "args": self.args,
            "iterations": self.iterations,
            "iteration": self.iteration,
            "seed": self.seed,
            "total_result": self.total_result,
            "params": params,
        });
        serde_json::to_string_pretty(&v).expect("plain values") + "\n"
    }

    pub fn from_json(text: &str) -> Result<SpsaState, String> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let bad = |what: &str| format!("the SPSA state's {what} is missing or malformed");
        if v["version"].as_u64() != Some(1) {
            return Err("the SPSA state's version is not 1".to_owned());
        }
        let u = |key: &str| v[key].as_u64().ok_or_else(|| bad(key));
        let params = v["params"]
            .as_array()
            .ok_or_else(|| bad("params"))?
            .iter()
            .map(|p| {
                let f = |key: &str| {
                    p[key]
                        .as_f64()
                        .filter(|x| x.is_finite())
                        .ok_or_else(|| bad(&format!("params' {key}")))
                };
                Ok(SpsaParam {
                    name: p["name"]
                        .as_str()
                        .ok_or_else(|| bad("params' name"))?
                        .to_owned(),
                    start: f("start")?,
                    min: f("min")?,
                    max: f("max")?,
                    c_end: f("c_end")?,
                    r_end: f("r_end")?,
                    value: f("value")?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let args = v["args"]
            .as_array()
            .and_then(|a| a.iter().map(|x| x.as_str().map(str::to_owned)).collect())
            .ok_or_else(|| bad("args"))?;
        Ok(SpsaState {
            params,
            iterations: u("iterations")?,
            iteration: u("iteration")?,
            seed: u("seed")?,
            total_result: v["total_result"]
                .as_i64()
                .ok_or_else(|| bad("total_result"))?,
            args,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, start: f64, c_end: f64, r_end: f64) -> SpsaParam {
        SpsaParam::parse(&format!(
            "{name}, int, {start}, -100, 100, {c_end}, {r_end}"
        ))
        .unwrap()
    }

    /// A synthetic match: the engine's strength is a quadratic in its parameters with its
    /// top at `optimum` (in Elo), and each of a pair's two games is won by one side or the
    /// other with the logistic probability of the difference. Seeded per iteration, so a
    /// resumed run sees the same games.
    fn synthetic_pair(optimum: &[f64], p: &Perturbation, seed: u64) -> i64 {
        let elo = |v: &[i32]| -> f64 {
            v.iter()
                .zip(optimum)
                .map(|(&x, o)| -0.5 * (f64::from(x) - o).powi(2))
                .sum()
        };
        let diff = elo(&p.plus) - elo(&p.minus);
        let win = 1.0 / (1.0 + 10f64.powf(-diff / 400.0));
        let mut rng = SplitMix64::for_game(seed ^ 0x5eed, p.iteration);
        (0..2)
            .map(|_| {
                let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                if u < win { 1 } else { -1 }
            })
            .sum()
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let p = param("X", 0.0, 4.0, 0.002);
        let n = 1000;
        let (c_last, a_last) = gains(&p, n, n - 1);
        assert!((c_last - 4.0).abs() < 1e-9, "{c_last}");
        // r_k = a_k / c_k² at the end is r_end.
        assert!((a_last / (c_last * c_last) - 0.002).abs() < 1e-9);
        let (c_first, a_first) = gains(&p, n, 0);
        assert!(c_first > c_last && a_first > a_last);
    }

    #[test]
    fn spsa_on_a_noisy_quadratic_converges_to_its_optimum() {
        let seed = 20_261_206;
        println!("seed {seed}");
        let optimum = [37.0, -21.0, 5.0];
        let params = vec![
            param("A", 0.0, 4.0, 0.05),
            param("B", 0.0, 4.0, 0.05),
            param("C", 60.0, 4.0, 0.05),
        ];
        let mut s = SpsaState::new(params, 4000, seed, Vec::new());
        while !s.finished() {
            let p = s.perturbation();
            let r = synthetic_pair(&optimum, &p, seed);
            s.apply(&p, r);
        }
        for (p, o) in s.params.iter().zip(optimum) {
            println!("{}: {:.2} (optimum {o})", p.name, p.value);
            assert!(
                (p.value - o).abs() < 4.0,
                "{} ended at {:.2}, optimum {o}",
                p.name,
                p.value
            );
        }
    }

    #[test]
    fn values_stay_within_their_ranges() {
        // An optimum outside the range: the value stops at the bound, never past it.
        let mut s = SpsaState::new(vec![param("A", 90.0, 4.0, 0.5)], 500, 3, Vec::new());
        while !s.finished() {
            let p = s.perturbation();
            assert!(p.plus[0] <= 100 && p.minus[0] <= 100);
            let r = synthetic_pair(&[400.0], &p, 3);
            s.apply(&p, r);
            assert!(s.params[0].value <= 100.0);
        }
        assert!(s.params[0].value > 97.0, "{}", s.params[0].value);
    }

    #[test]
    fn the_state_file_round_trips() {
        let mut s = SpsaState::new(
            vec![param("A", 1.0, 2.0, 0.002), param("B", -3.0, 1.0, 0.01)],
            100,
            42,
            vec!["-engine".into(), "cmd=x".into()],
        );
        for _ in 0..7 {
            let p = s.perturbation();
            s.apply(&p, synthetic_pair(&[10.0, 10.0], &p, 42));
        }
        let back = SpsaState::from_json(&s.to_json()).unwrap();
        assert_eq!(back, s);
        assert_eq!(back.perturbation(), s.perturbation());
        assert!(SpsaState::from_json("{\"version\": 2}").is_err());
        assert!(SpsaState::from_json("not json").is_err());
        // Values read back bit for bit, or a resumed tune drifts from the straight one
        // (serde_json's default parser is off by an ulp for some numbers: float_roundtrip).
        let mut rng = SplitMix64::new(11);
        for _ in 0..2000 {
            let v = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 200.0 - 100.0;
            s.params[0].value = v;
            let back = SpsaState::from_json(&s.to_json()).unwrap();
            assert_eq!(back.params[0].value.to_bits(), v.to_bits(), "{v}");
        }
    }

    #[test]
    fn a_resumed_tune_follows_the_uninterrupted_trajectory() {
        let optimum = [20.0, -5.0];
        let fresh = || {
            SpsaState::new(
                vec![param("A", 0.0, 3.0, 0.02), param("B", 0.0, 3.0, 0.02)],
                300,
                7,
                Vec::new(),
            )
        };
        let mut straight = fresh();
        let mut trajectory = Vec::new();
        while !straight.finished() {
            let p = straight.perturbation();
            straight.apply(&p, synthetic_pair(&optimum, &p, 7));
            trajectory.push(straight.params.iter().map(|p| p.value).collect::<Vec<_>>());
        }
        // Stopped after 120 iterations (and once mid-iteration: the perturbation drawn but
        // never applied), written out, read back, and finished.
        let mut first = fresh();
        for _ in 0..120 {
            let p = first.perturbation();
            first.apply(&p, synthetic_pair(&optimum, &p, 7));
        }
        let _abandoned = first.perturbation();
        let mut resumed = SpsaState::from_json(&first.to_json()).unwrap();
        while !resumed.finished() {
            let p = resumed.perturbation();
            resumed.apply(&p, synthetic_pair(&optimum, &p, 7));
            let k = resumed.iteration as usize - 1;
            let now: Vec<f64> = resumed.params.iter().map(|p| p.value).collect();
            assert_eq!(now, trajectory[k], "iteration {k}");
        }
        assert_eq!(resumed, straight);
    }

    #[test]
    fn parameter_lines_are_checked() {
        let p = SpsaParam::parse("RFP_MARGIN, int, 75, 30, 150, 8, 0.002").unwrap();
        assert_eq!(p.value, 75.0);
        assert_eq!(p.line(), "RFP_MARGIN, int, 75, 30, 150, 8, 0.002");
        for bad in [
            "RFP_MARGIN, float, 75, 30, 150, 8, 0.002",
            "RFP_MARGIN, int, 75, 80, 150, 8, 0.002",
            "RFP_MARGIN, int, x, 30, 150, 8, 0.002",
            "RFP_MARGIN, int, 75, 30, 150, 0, 0.002",
            "RFP_MARGIN, int, 75",
        ] {
            assert!(SpsaParam::parse(bad).is_err(), "{bad}");
        }
    }
}
