//! Tournaments of three or more engines, as fastchess has them: `-tournament roundrobin`
//! (every engine plays every other; the default) or `-tournament gauntlet` (the first
//! `-seeds N` engines each play every engine after them).
//!
//! A tournament is a sequence of pairings, each a match of its own played by
//! [`run_match`] with `rounds`, `games`, `repeat` and `concurrency` as a two-engine match
//! has them, so that one runner plays every game and a pairing is exactly the match those
//! two engines would play alone (the same openings in the same order).
//!
//! The state file is the pairing's own (counts, next round, PGN length) with a
//! `tournament` object beside it: the pairing in play and the counts of the finished ones.
//! Before a pairing starts its state is written with the PGN length, faults and latencies
//! of the ones before it, so a run killed at any moment resumes the pairing it was in,
//! losing no counted game and repeating none.

use crate::options::{EngineSpec, MatchOptions, TournamentKind};
use crate::runner::{KeptGame, MatchError, MatchState, RoundGames, run_match};
use crate::stats::{Counts, Estimate};
use shatranj_engine::util::write_atomically;
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The pairings `(first, second)` of `n` engines, in the order they are played; the first
/// engine of a pairing has White in the first game of a pair.
pub fn pairings(n: usize, kind: TournamentKind, seeds: usize) -> Vec<(usize, usize)> {
    let firsts = match kind {
        TournamentKind::RoundRobin => n,
        TournamentKind::Gauntlet => seeds.min(n),
    };
    (0..firsts)
        .flat_map(|i| {
            let from = match kind {
                TournamentKind::RoundRobin => i + 1,
                TournamentKind::Gauntlet => seeds,
            };
            (from..n).map(move |j| (i, j))
        })
        .collect()
}

/// One pairing's counts, from its first engine's side.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingResult {
    pub first: usize,
    pub second: usize,
    pub counts: Counts,
}

/// An engine's standing against the field.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub engine: usize,
    pub name: String,
    /// `[L, D, W]` over all its games.
    pub trinomial: [u64; 3],
    pub points: f64,
    /// Elo against the field with its 95 % interval (from the trinomial counts); `None`
    /// before a game or when every game scored alike.
    pub estimate: Option<Estimate>,
}

/// The standings of the engines `names` after the `pairings`, best first (points, then
/// the order of the `-engine` options). A free function, so that a tournament whose
/// pairings were played elsewhere (on a Ray cluster) is ranked by the same rule.
pub fn standings(names: &[String], pairings: &[PairingResult]) -> Vec<Standing> {
    let mut tri = vec![[0u64; 3]; names.len()];
    for p in pairings {
        let [l, d, w] = p.counts.trinomial;
        for (k, x) in [l, d, w].into_iter().enumerate() {
            tri[p.first][k] += x;
            tri[p.second][2 - k] += x;
        }
    }
    let mut out: Vec<Standing> = tri
        .into_iter()
        .enumerate()
        .map(|(engine, t)| Standing {
            engine,
            name: names[engine].clone(),
            trinomial: t,
            points: t[2] as f64 + t[1] as f64 / 2.0,
            // `+ 0.0` turns an even score's -0.0 into 0.0.
            estimate: Estimate::from_counts(&t)
                .filter(|e| e.variance > 0.0 && e.elo.is_finite())
                .map(|e| Estimate {
                    elo: e.elo + 0.0,
                    ..e
                }),
        })
        .collect();
    out.sort_by(|a, b| b.points.total_cmp(&a.points).then(a.engine.cmp(&b.engine)));
    out
}

/// [`standings`] as the summaries' JSON list (for a caller without a JSON library).
pub fn standings_json(names: &[String], pairings: &[PairingResult]) -> String {
    let table: Vec<serde_json::Value> = standings(names, pairings)
        .iter()
        .map(Standing::to_json)
        .collect();
    serde_json::Value::from(table).to_string()
}

impl Standing {
    /// The standing as the summaries' JSON has it.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "name": self.name,
            "trinomial": self.trinomial,
            "points": self.points,
            "elo": self.estimate.as_ref().map(|e| e.elo),
            "elo_interval": self.estimate.as_ref().map(|e| [e.elo_interval.0, e.elo_interval.1]),
        })
    }
}

/// How a tournament ended.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentSummary {
    pub kind: TournamentKind,
    pub names: Vec<String>,
    /// The pairings played (the last one possibly stopped early), in order.
    pub pairings: Vec<PairingResult>,
    /// The last pairing's state: its faults and latencies hold the whole tournament's.
    pub state: MatchState,
    pub stopped_by: Option<String>,
    /// The counted rounds, with their pairing's index, when the options keep them.
    pub rounds: Vec<(usize, RoundGames)>,
}

fn kind_name(kind: TournamentKind) -> &'static str {
    match kind {
        TournamentKind::RoundRobin => "roundrobin",
        TournamentKind::Gauntlet => "gauntlet",
    }
}

impl TournamentSummary {
    /// The standings, best first (points, then the order of the `-engine` options).
    pub fn standings(&self) -> Vec<Standing> {
        standings(&self.names, &self.pairings)
    }

    /// The per-pairing results and the standings, as the CLI prints them at the end.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{}", "-".repeat(66));
        let _ = writeln!(
            out,
            "Tournament ({}, {} engines), pairings:",
            kind_name(self.kind),
            self.names.len()
        );
        for p in &self.pairings {
            let (w, d, l) = p.counts.wdl();
            let _ = write!(
                out,
                "  {} vs {}: +{w} ={d} -{l} ({:.1}/{})",
                self.names[p.first],
                self.names[p.second],
                w as f64 + d as f64 / 2.0,
                p.counts.games()
            );
            if p.counts.pairs() > 0 {
                let q = p.counts.pentanomial;
                let _ = write!(
                    out,
                    ", Ptnml(0-2): [{}, {}, {}, {}, {}]",
                    q[0], q[1], q[2], q[3], q[4]
                );
            }
            let _ = writeln!(out);
        }
        let _ = writeln!(out, "Standings (Elo against the field, 95 % interval):");
        let _ = writeln!(
            out,
            "{:>4} {:<20} {:>8} {:>8} {:>6} {:>7} {:>8}",
            "Rank", "Name", "Elo", "+/-", "Games", "Points", "Score"
        );
        for (rank, s) in self.standings().iter().enumerate() {
            let games: u64 = s.trinomial.iter().sum();
            let (elo, err) = match &s.estimate {
                // An interval that reaches a score of 0 or 1 has no finite width.
                Some(e) if e.elo_error().is_finite() => {
                    (format!("{:.2}", e.elo), format!("{:.2}", e.elo_error()))
                }
                Some(e) => (format!("{:.2}", e.elo), "-".to_owned()),
                None => ("-".to_owned(), "-".to_owned()),
            };
            let score = if games > 0 {
                100.0 * s.points / games as f64
            } else {
                0.0
            };
            let _ = writeln!(
                out,
                "{:>4} {:<20} {:>8} {:>8} {:>6} {:>7.1} {:>6.1} %",
                rank + 1,
                s.name,
                elo,
                err,
                games,
                s.points,
                score
            );
        }
        if !self.state.faults.is_empty() {
            let faults: Vec<String> = self
                .state
                .faults
                .iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect();
            let _ = writeln!(out, "Faults: {}", faults.join(", "));
        }
        let _ = write!(out, "{}", "-".repeat(66));
        out
    }

    /// The summary as JSON: names, pairings (names and counts), standings, faults,
    /// latencies, why it stopped early, and the kept rounds with their pairing.
    pub fn to_json(&self) -> String {
        let pairings: Vec<serde_json::Value> = self
            .pairings
            .iter()
            .map(|p| {
                serde_json::json!({
                    "first": self.names[p.first],
                    "second": self.names[p.second],
                    "trinomial": p.counts.trinomial,
                    "pentanomial": p.counts.pentanomial,
                })
            })
            .collect();
        let standings: Vec<serde_json::Value> =
            self.standings().iter().map(Standing::to_json).collect();
        let state: serde_json::Value =
            serde_json::from_str(&self.state.to_json()).expect("plain values");
        let rounds: Vec<serde_json::Value> = self
            .rounds
            .iter()
            .map(|(k, r)| {
                serde_json::json!({
                    "pairing": k,
                    "round": r.round,
                    "games": r.games.iter().map(KeptGame::to_json).collect::<Vec<_>>(),
                })
            })
            .collect();
        serde_json::to_string(&serde_json::json!({
            "tournament": kind_name(self.kind),
            "names": self.names,
            "pairings": pairings,
            "standings": standings,
            "faults": state["faults"],
            "latency": state["latency"],
            "stopped_by": self.stopped_by,
            "rounds": rounds,
        }))
        .expect("plain values")
    }
}

/// The tournament object of a state file: the pairing in play and the finished ones.
fn tournament_json(
    kind: TournamentKind,
    pairing: usize,
    done: &[PairingResult],
) -> serde_json::Value {
    serde_json::json!({
        "kind": kind_name(kind),
        "pairing": pairing,
        "done": done.iter().map(|p| serde_json::json!({
            "first": p.first,
            "second": p.second,
            "trinomial": p.counts.trinomial,
            "pentanomial": p.counts.pentanomial,
        })).collect::<Vec<_>>(),
    })
}

fn read_tournament(v: &serde_json::Value) -> Option<(usize, Vec<PairingResult>)> {
    let pairing = usize::try_from(v["pairing"].as_u64()?).ok()?;
    let numbers = |x: &serde_json::Value, n: usize| -> Option<Vec<u64>> {
        let a: Option<Vec<u64>> = x
            .as_array()?
            .iter()
            .map(serde_json::Value::as_u64)
            .collect();
        a.filter(|a| a.len() == n)
    };
    let done = v["done"]
        .as_array()?
        .iter()
        .map(|p| {
            let t = numbers(&p["trinomial"], 3)?;
            let q = numbers(&p["pentanomial"], 5)?;
            Some(PairingResult {
                first: usize::try_from(p["first"].as_u64()?).ok()?,
                second: usize::try_from(p["second"].as_u64()?).ok()?,
                counts: Counts {
                    trinomial: [t[0], t[1], t[2]],
                    pentanomial: [q[0], q[1], q[2], q[3], q[4]],
                },
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some((pairing, done))
}

/// Plays the tournament `options` describe (three or more engines); `args` are saved in
/// the state file, `report` receives each pairing's games and tables.
#[allow(clippy::needless_pass_by_value)]
pub fn run_tournament(
    options: &MatchOptions,
    args: &[String],
    stop: Arc<AtomicBool>,
    report: &mut dyn FnMut(&str),
) -> Result<TournamentSummary, MatchError> {
    let names: Vec<String> = options
        .engines
        .iter()
        .map(EngineSpec::display_name)
        .collect();
    let plan = pairings(names.len(), options.tournament, options.seeds);
    let mut done = Vec::new();
    let mut current = 0;
    let mut resuming = false;
    let mut last = MatchState {
        args: args.to_vec(),
        ..MatchState::default()
    };
    if let Some(path) = &options.config_file
        && path.exists()
    {
        let text = std::fs::read_to_string(path)
            .map_err(|e| MatchError(format!("{}: {e}", path.display())))?;
        let state = MatchState::from_json(&text)
            .map_err(|e| MatchError(format!("{}: {e}", path.display())))?;
        let (pairing, finished) = state
            .tournament
            .as_ref()
            .and_then(read_tournament)
            .filter(|(k, d)| *k < plan.len() && d.len() == *k)
            .ok_or_else(|| {
                MatchError(format!(
                    "{}: not the state of a tournament of these engines",
                    path.display()
                ))
            })?;
        (current, done, resuming) = (pairing, finished, true);
        last = state;
    }
    let mut kept = Vec::new();
    let mut stopped_by = None;
    for (k, &(i, j)) in plan.iter().enumerate().skip(current) {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let mut sub = options.clone();
        sub.engines = vec![options.engines[i].clone(), options.engines[j].clone()];
        let fresh = !(resuming && k == current);
        if fresh {
            let start = MatchState {
                args: args.to_vec(),
                pgn_bytes: last.pgn_bytes,
                faults: last.faults.clone(),
                latency: last.latency,
                tournament: Some(tournament_json(options.tournament, k, &done)),
                ..MatchState::default()
            };
            if let Some(path) = &options.config_file {
                write_atomically(path, start.to_json().as_bytes())
                    .map_err(|e| MatchError(format!("{}: {e}", path.display())))?;
            }
            sub.start_state = Some(start);
        }
        report(&format!(
            "Pairing {} of {}: {} vs {}",
            k + 1,
            plan.len(),
            names[i],
            names[j]
        ));
        // A fresh pairing starts from the state just written: no "Resuming" line for it.
        let mut filtered = |line: &str| {
            if !(fresh && line.starts_with("Resuming from ")) {
                report(line);
            }
        };
        let summary = run_match(&sub, args, Arc::clone(&stop), &mut filtered)?;
        kept.extend(summary.rounds.into_iter().map(|r| (k, r)));
        last = summary.state;
        done.push(PairingResult {
            first: i,
            second: j,
            counts: last.counts,
        });
        if summary.stopped_by.is_some() {
            stopped_by = summary.stopped_by;
            break;
        }
        if last.next_round < options.rounds {
            break;
        }
    }
    Ok(TournamentSummary {
        kind: options.tournament,
        names,
        pairings: done,
        state: last,
        stopped_by,
        rounds: kept,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_and_gauntlet_pairings() {
        assert_eq!(
            pairings(4, TournamentKind::RoundRobin, 1),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(
            pairings(4, TournamentKind::Gauntlet, 1),
            [(0, 1), (0, 2), (0, 3)]
        );
        assert_eq!(
            pairings(4, TournamentKind::Gauntlet, 2),
            [(0, 2), (0, 3), (1, 2), (1, 3)]
        );
    }

    #[test]
    fn standings_count_both_sides() {
        let summary = TournamentSummary {
            kind: TournamentKind::RoundRobin,
            names: vec!["a".into(), "b".into(), "c".into()],
            pairings: vec![
                PairingResult {
                    first: 0,
                    second: 1,
                    counts: Counts {
                        trinomial: [1, 1, 2],
                        pentanomial: [0; 5],
                    },
                },
                PairingResult {
                    first: 1,
                    second: 2,
                    counts: Counts {
                        trinomial: [0, 0, 4],
                        pentanomial: [0; 5],
                    },
                },
            ],
            state: MatchState::default(),
            stopped_by: None,
            rounds: Vec::new(),
        };
        let s = summary.standings();
        let got: Vec<(&str, f64, [u64; 3])> = s
            .iter()
            .map(|s| (s.name.as_str(), s.points, s.trinomial))
            .collect();
        assert_eq!(
            got,
            [
                ("b", 5.5, [2, 1, 5]),
                ("a", 2.5, [1, 1, 2]),
                ("c", 0.0, [4, 0, 0])
            ]
        );
        assert!(s[2].estimate.is_none(), "every game lost: no interval");
    }
}
