//! `shatranj tune`: SPSA of a tune build's search parameters over game pairs played by the
//! match runner (the update and schedule are `shatranj_match::spsa`, an iteration's games
//! `shatranj_match::tune`). The state file is rewritten after every iteration; Ctrl-C
//! abandons the iteration in play, and the same command run again resumes from the file.

use crate::match_args::MatchWords;
use shatranj_match::options::{MatchOptions, is_flag, split_flag};
use shatranj_match::spsa::{SpsaParam, SpsaState};
use shatranj_match::tune::{engine_params, play_iteration};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

const AFTER_HELP: &str = "\
The match's options (see `shatranj match --help`) with ONE -engine, a tune build of shatranj
(`cargo build --profile ci -p shatranj-cli --features tune`, copied aside), plus:
  -spsa iterations=N state=FILE [pairs=P] [seed=S] [params=A,B,...] [r_end=R]
      N iterations of P game pairs each (default 1), the + engine against the - engine;
      params: the engine's tunables to tune (default all it lists for `spsa`);
      r_end: every parameter's learning rate at the end (default the engine's, 0.002);
      seed: the perturbations' signs (default 1); the same seed and fixed nodes give the
      same trajectory. FILE is rewritten after every iteration; the same command run again
      (or only `-spsa state=FILE`) resumes it.

Example:
  shatranj tune -engine cmd=./shatranj-tune -each nodes=5000 option.Hash=16 \\
      -openings file=benchmarks/openings/balanced-8ply.fen order=random -srand 1 \\
      -concurrency 2 -maxmoves 200 \\
      -spsa iterations=2000 pairs=1 params=RFP_MARGIN,FUTILITY_BASE state=spsa.json";

#[derive(clap::Args)]
#[command(
    after_help = AFTER_HELP,
    mut_arg("options", |a| a.help("The match's options and -spsa (see below)"))
)]
pub struct TuneArgs {
    #[command(flatten)]
    pub words: MatchWords,
}

pub enum TuneCmdError {
    Usage(String),
    Run(String),
    Interrupted(PathBuf),
}

impl std::fmt::Display for TuneCmdError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TuneCmdError::Usage(e) | TuneCmdError::Run(e) => f.write_str(e),
            TuneCmdError::Interrupted(p) => write!(
                f,
                "interrupted; the same command resumes from {}",
                p.display()
            ),
        }
    }
}

impl TuneCmdError {
    pub fn exit_code(&self) -> u8 {
        match self {
            TuneCmdError::Usage(_) => 2,
            TuneCmdError::Run(_) => 1,
            TuneCmdError::Interrupted(_) => 130,
        }
    }
}

/// `-spsa`'s settings.
struct SpsaArgs {
    iterations: Option<u64>,
    state: PathBuf,
    pairs: u64,
    seed: u64,
    params: Option<Vec<String>>,
    r_end: Option<f64>,
}

fn parse_spsa(values: &[String]) -> Result<SpsaArgs, String> {
    let mut s = SpsaArgs {
        iterations: None,
        state: PathBuf::new(),
        pairs: 1,
        seed: 1,
        params: None,
        r_end: None,
    };
    for v in values {
        let (k, val) = v
            .split_once('=')
            .ok_or_else(|| format!("-spsa {v}: expected key=value"))?;
        let number = || format!("-spsa {k}={val}: not a number");
        match k {
            "iterations" => s.iterations = Some(val.parse().map_err(|_| number())?),
            "state" => s.state = PathBuf::from(val),
            "pairs" => s.pairs = val.parse().map_err(|_| number())?,
            "seed" => s.seed = val.parse().map_err(|_| number())?,
            "params" => s.params = Some(val.split(',').map(str::to_owned).collect()),
            "r_end" => {
                let r: f64 = val.parse().map_err(|_| number())?;
                if !(r.is_finite() && r > 0.0) {
                    return Err(format!("-spsa r_end={val}: must be positive"));
                }
                s.r_end = Some(r);
            }
            _ => return Err(format!("-spsa {k}={val}: unknown setting")),
        }
    }
    if s.state.as_os_str().is_empty() {
        return Err("-spsa needs state=FILE".to_owned());
    }
    if s.pairs == 0 || s.iterations == Some(0) {
        return Err("-spsa: iterations and pairs must be at least 1".to_owned());
    }
    Ok(s)
}

/// The match's arguments with the one `-engine` twice: `+` (first) and `−`.
fn plus_and_minus(rest: &[String]) -> Result<Vec<String>, String> {
    let starts: Vec<usize> = (0..rest.len()).filter(|&i| rest[i] == "-engine").collect();
    let [start] = starts.as_slice() else {
        return Err(format!(
            "tune takes one -engine (found {}): it plays that engine against itself",
            starts.len()
        ));
    };
    let end = (start + 1..rest.len())
        .find(|&i| is_flag(&rest[i]))
        .unwrap_or(rest.len());
    let group = &rest[start + 1..end];
    let mut out = rest[..*start].to_vec();
    for name in ["plus", "minus"] {
        out.push("-engine".to_owned());
        out.extend(group.iter().cloned());
        out.push(format!("name={name}"));
    }
    out.extend(rest[end..].iter().cloned());
    Ok(out)
}

/// The parameters to tune: the engine's list, narrowed to `names` in their order.
fn choose(
    all: Vec<SpsaParam>,
    names: Option<&[String]>,
    r_end: Option<f64>,
) -> Result<Vec<SpsaParam>, String> {
    let mut chosen = match names {
        None => all,
        Some(names) => names
            .iter()
            .map(|n| {
                all.iter()
                    .find(|p| p.name.eq_ignore_ascii_case(n))
                    .cloned()
                    .ok_or_else(|| {
                        let known: Vec<&str> = all.iter().map(|p| p.name.as_str()).collect();
                        format!("-spsa params: no {n} (the engine has {})", known.join(", "))
                    })
            })
            .collect::<Result<_, _>>()?,
    };
    if let Some(r) = r_end {
        for p in &mut chosen {
            p.r_end = r;
        }
    }
    Ok(chosen)
}

fn values_line(state: &SpsaState) -> String {
    state
        .params
        .iter()
        .map(|p| format!("{}={:.2}", p.name, p.value))
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn run(args: TuneArgs) -> Result<(), TuneCmdError> {
    let usage = TuneCmdError::Usage;
    let argv = args.words.options;
    let (spsa_values, _) = split_flag(&argv, "-spsa");
    let spsa = parse_spsa(&spsa_values).map_err(usage)?;
    let mut state = if spsa.state.exists() {
        let text = std::fs::read_to_string(&spsa.state)
            .map_err(|e| usage(format!("{}: {e}", spsa.state.display())))?;
        let state = SpsaState::from_json(&text)
            .map_err(|e| usage(format!("{}: {e}", spsa.state.display())))?;
        let only_state = spsa_values.len() == 1 && argv.len() == 2;
        if !only_state && argv != state.args {
            return Err(usage(format!(
                "{} holds a tune with other options; run the same command (or only -spsa \
                 state={}) to resume it, or name another state file",
                spsa.state.display(),
                spsa.state.display()
            )));
        }
        println!(
            "Resuming {} at iteration {} of {}",
            spsa.state.display(),
            state.iteration + 1,
            state.iterations
        );
        state
    } else {
        let iterations = spsa
            .iterations
            .ok_or_else(|| usage("-spsa needs iterations=N for a new tune".to_owned()))?;
        let (_, rest) = split_flag(&argv, "-spsa");
        let options = MatchOptions::parse(&plus_and_minus(&rest).map_err(usage)?)
            .map_err(|e| usage(e.to_string()))?;
        let e = &options.engines[0];
        let all = engine_params(&e.cmd, &e.args).map_err(usage)?;
        let params = choose(all, spsa.params.as_deref(), spsa.r_end).map_err(usage)?;
        SpsaState::new(params, iterations, spsa.seed, argv.clone())
    };
    // The saved arguments say how to play (a resume given only -spsa state=F reads them).
    let (spsa_values, rest) = split_flag(&state.args, "-spsa");
    let pairs = parse_spsa(&spsa_values).map_err(usage)?.pairs;
    let options = MatchOptions::parse(&plus_and_minus(&rest).map_err(usage)?)
        .map_err(|e| usage(e.to_string()))?;
    for p in &state.params {
        println!("{}", p.line());
    }
    let stop = Arc::new(AtomicBool::new(false));
    {
        let s = Arc::clone(&stop);
        let _ = ctrlc::set_handler(move || s.store(true, Ordering::SeqCst));
    }
    let started = std::time::Instant::now();
    let first = state.iteration;
    while !state.finished() {
        let p = state.perturbation();
        let played = play_iteration(&options, &state, &p, pairs, &stop)
            .map_err(|e| TuneCmdError::Run(e.to_string()))?;
        let Some(result) = played else {
            return Err(TuneCmdError::Interrupted(spsa.state));
        };
        state.apply(&p, result);
        shatranj_engine::util::fs::write_atomically(&spsa.state, state.to_json().as_bytes())
            .map_err(|e| TuneCmdError::Run(format!("{}: {e}", spsa.state.display())))?;
        let done = state.iteration - first;
        let rate = done as f64 / started.elapsed().as_secs_f64().max(1e-9);
        println!(
            "iteration {}/{} result {result:+} (total {:+}, {:.2} it/s) {}",
            state.iteration,
            state.iterations,
            state.total_result,
            rate,
            values_line(&state)
        );
        if stop.load(Ordering::SeqCst) {
            return Err(TuneCmdError::Interrupted(spsa.state));
        }
    }
    println!("Tuned (OpenBench's format, the value rounded):");
    for p in &state.params {
        println!("{}", p.line());
    }
    let options: Vec<String> = state
        .params
        .iter()
        .map(|p| format!("option.{}={}", p.name, p.value.round()))
        .collect();
    println!("As match options: {}", options.join(" "));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn the_one_engine_becomes_plus_and_minus() {
        let args = strings("-engine cmd=e option.Hash=16 -each nodes=5 -spsa state=s.json");
        let (spsa, rest) = split_flag(&args, "-spsa");
        assert_eq!(spsa, strings("state=s.json"));
        assert_eq!(
            plus_and_minus(&rest).unwrap(),
            strings(
                "-engine cmd=e option.Hash=16 name=plus -engine cmd=e option.Hash=16 \
                 name=minus -each nodes=5"
            )
        );
        assert!(plus_and_minus(&strings("-engine cmd=a -engine cmd=b")).is_err());
        assert!(plus_and_minus(&strings("-each nodes=5")).is_err());
    }

    #[test]
    fn spsa_settings_are_checked() {
        let s = parse_spsa(&strings(
            "iterations=10 state=f pairs=2 params=A,B r_end=0.01",
        ))
        .unwrap();
        assert_eq!((s.iterations, s.pairs, s.seed), (Some(10), 2, 1));
        assert_eq!(s.params.unwrap(), ["A", "B"]);
        for bad in [
            "iterations=10",
            "iterations=x state=f",
            "state=f pairs=0",
            "state=f r_end=-1",
            "state=f colour=blue",
        ] {
            assert!(parse_spsa(&strings(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn parameters_are_chosen_by_name() {
        let all = vec![
            SpsaParam::parse("A, int, 1, 0, 9, 1, 0.002").unwrap(),
            SpsaParam::parse("B, int, 2, 0, 9, 1, 0.002").unwrap(),
        ];
        let names = ["b".to_owned()];
        let chosen = choose(all.clone(), Some(&names), Some(0.01)).unwrap();
        assert_eq!(chosen.len(), 1);
        assert_eq!((chosen[0].name.as_str(), chosen[0].r_end), ("B", 0.01));
        assert!(
            choose(all, Some(&["C".to_owned()]), None)
                .err()
                .unwrap()
                .contains("A, B")
        );
    }
}
