//! The match: rounds dealt to `concurrency` workers, each with its own two engine
//! processes; results taken back **in round order**, so that the PGN, the counts, the table
//! and the SPRT's decision do not depend on which worker finished first (a fixed-node match
//! gives the same file at any concurrency).
//!
//! A round is one opening and one game (`-games 1`, colours alternating by round) or a pair
//! (`-games 2`/`-repeat`: the first engine has White in the first game, Black in the
//! second). After each round taken back the PGN is appended, the JSON state file rewritten
//! (atomically: a temporary file renamed over it) and the SPRT consulted; when it decides,
//! the workers stop and the games still in play are abandoned, uncounted.
//!
//! The state file holds the arguments, the next round and the counts, and the PGN file's
//! length after the last counted round: a run killed at any moment resumes from it (the PGN
//! cut back to that length), losing no counted game and repeating none.

use crate::game::{Fault, GameRecord, Player, play_game};
use crate::latency::Latency;
use crate::openings::{Opening, chess960_starts, deal, read_openings};
use crate::options::{MatchOptions, OpeningOrder};
use crate::sprt::Decision;
use crate::stats::{Counts, GameScore};
use shatranj_chess::Color;
use shatranj_engine::util::write_atomically;
use shatranj_pgn::{PgnGame, WriteOptions, write_game};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};

/// Where the match stands: what the state file holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchState {
    /// The arguments the match was started with.
    pub args: Vec<String>,
    /// Rounds counted (rounds `0..next_round` are in the PGN and the counts).
    pub next_round: u64,
    pub counts: Counts,
    /// Length of the PGN file after the last counted round.
    pub pgn_bytes: u64,
    /// Faults so far: `(engine name, fault)` counts.
    pub faults: BTreeMap<String, u64>,
    /// The per-move latencies of the counted games.
    pub latency: Latency,
    /// A tournament's own state (its finished pairings and the one in play), kept beside
    /// the pairing's; absent in a two-engine match's file.
    pub tournament: Option<serde_json::Value>,
}

impl MatchState {
    pub fn to_json(&self) -> String {
        let faults: serde_json::Map<String, serde_json::Value> = self
            .faults
            .iter()
            .map(|(k, v)| (k.clone(), (*v).into()))
            .collect();
        let mut value = serde_json::json!({
            "version": 1,
            "args": self.args,
            "next_round": self.next_round,
            "trinomial": self.counts.trinomial,
            "pentanomial": self.counts.pentanomial,
            "pgn_bytes": self.pgn_bytes,
            "faults": faults,
            "latency": self.latency.to_json(),
        });
        if let Some(t) = &self.tournament {
            value["tournament"] = t.clone();
        }
        serde_json::to_string_pretty(&value).expect("plain values") + "\n"
    }

    pub fn from_json(text: &str) -> Result<MatchState, String> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let bad = |what: &str| format!("the state file's {what} is missing or malformed");
        if v["version"].as_u64() != Some(1) {
            return Err("the state file's version is not 1".to_owned());
        }
        let numbers = |key: &str, n: usize| -> Result<Vec<u64>, String> {
            let a = v[key].as_array().ok_or_else(|| bad(key))?;
            let out: Option<Vec<u64>> = a.iter().map(serde_json::Value::as_u64).collect();
            out.filter(|o| o.len() == n).ok_or_else(|| bad(key))
        };
        let t = numbers("trinomial", 3)?;
        let p = numbers("pentanomial", 5)?;
        let args = v["args"]
            .as_array()
            .and_then(|a| a.iter().map(|x| x.as_str().map(str::to_owned)).collect())
            .ok_or_else(|| bad("args"))?;
        let faults = v["faults"]
            .as_object()
            .map(|m| {
                m.iter()
                    .filter_map(|(k, v)| Some((k.clone(), v.as_u64()?)))
                    .collect()
            })
            .unwrap_or_default();
        Ok(MatchState {
            args,
            next_round: v["next_round"].as_u64().ok_or_else(|| bad("next_round"))?,
            counts: Counts {
                trinomial: [t[0], t[1], t[2]],
                pentanomial: [p[0], p[1], p[2], p[3], p[4]],
            },
            pgn_bytes: v["pgn_bytes"].as_u64().ok_or_else(|| bad("pgn_bytes"))?,
            faults,
            latency: Latency::from_json(&v["latency"]),
            tournament: v.get("tournament").filter(|t| !t.is_null()).cloned(),
        })
    }
}

/// How a match ended.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSummary {
    pub state: MatchState,
    pub names: [String; 2],
    /// The SPRT's last word (`Continue` without `-sprt` or when the rounds ran out).
    pub decision: Decision,
    /// Set when the match stopped early on an engine failure (no `-recover`).
    pub stopped_by: Option<String>,
    /// The counted rounds' games, in round order, when the options ask to keep them.
    pub rounds: Vec<RoundGames>,
}

/// One game of a counted round, as the summary keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct KeptGame {
    pub white: String,
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: &'static str,
    pub reason: String,
    pub termination: &'static str,
    /// The first engine's score: 0, 1 (a draw) or 2 half points.
    pub first_half_points: u32,
    /// `"engine fault"` (the state file's fault key) when an engine failed.
    pub fault: Option<String>,
    /// The game as the PGN file has it.
    pub pgn: String,
}

impl KeptGame {
    /// The game as the summaries' JSON has it (a match's and a tournament's alike).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "white": self.white,
            "black": self.black,
            "result": self.result,
            "reason": self.reason,
            "termination": self.termination,
            "first_half_points": self.first_half_points,
            "fault": self.fault,
            "pgn": self.pgn,
        })
    }
}

/// A counted round's games.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundGames {
    pub round: u64,
    pub games: Vec<KeptGame>,
}

impl MatchSummary {
    /// The summary as JSON: the state file's fields, the names, the decision (`"H0"`,
    /// `"H1"` or null), why the match stopped early, and the kept rounds.
    pub fn to_json(&self) -> String {
        let mut v: serde_json::Value =
            serde_json::from_str(&self.state.to_json()).expect("written above");
        v["names"] = serde_json::json!(self.names);
        v["decision"] = match self.decision {
            Decision::AcceptH0 => "H0".into(),
            Decision::AcceptH1 => "H1".into(),
            Decision::Continue => serde_json::Value::Null,
        };
        v["stopped_by"] = self.stopped_by.clone().into();
        v["rounds"] = self
            .rounds
            .iter()
            .map(|r| {
                serde_json::json!({
                    "round": r.round,
                    "games": r.games.iter().map(KeptGame::to_json).collect::<Vec<_>>(),
                })
            })
            .collect();
        serde_json::to_string(&v).expect("plain values")
    }
}

/// One finished round from a worker: its games, each with whether the first engine had
/// White; `complete` is false when the round was abandoned (stop raised).
struct RoundResult {
    round: u64,
    games: Vec<(bool, GameRecord)>,
    complete: bool,
}

/// A match error: bad openings, an unwritable file, a corrupt state file.
#[derive(Debug)]
pub struct MatchError(pub String);

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MatchError {}

/// A game as PGN: the tags, the opening's moves, the engines' moves with their comments
/// (unless `min`), the reason in the last comment.
pub fn game_pgn(
    record: &GameRecord,
    round: u64,
    game: u32,
    options: &MatchOptions,
    time_control: &str,
) -> String {
    let min = options.pgnout.as_ref().is_some_and(|p| p.min);
    let mut pgn = PgnGame::new(record.opening.start);
    let round_tag = if options.games == 2 {
        format!("{}.{}", round + 1, game + 1)
    } else {
        (round + 1).to_string()
    };
    for (k, v) in [
        ("Event", "shatranj match"),
        ("Site", "?"),
        ("Round", round_tag.as_str()),
        ("White", record.white.as_str()),
        ("Black", record.black.as_str()),
        ("Result", record.result()),
        ("TimeControl", time_control),
        ("Termination", record.termination),
    ] {
        pgn.set_tag(k, v);
    }
    // A game from a set-up position names it, or no reader can replay the moves.
    if options.is_chess960() {
        pgn.set_tag("Variant", "Chess960");
    }
    if options.is_chess960() || record.opening.start != shatranj_chess::Position::new() {
        pgn.set_tag("SetUp", "1");
        pgn.set_tag("FEN", &record.opening.start.fen());
    }
    pgn.set_tag(
        "PlyCount",
        &(record.opening.moves.len() + record.moves.len()).to_string(),
    );
    let mut node = PgnGame::ROOT;
    for &m in &record.opening.moves {
        node = pgn.add_child(node, m);
    }
    if !record.opening.moves.is_empty() && !min {
        pgn.set_comment(node, "book");
    }
    for (i, &m) in record.moves.iter().enumerate() {
        node = pgn.add_child(node, m);
        if !min {
            pgn.set_comment(node, &record.comments[i]);
        }
    }
    let reason = if min || node == PgnGame::ROOT {
        record.reason.clone()
    } else {
        format!("{}, {}", pgn.comment(node), record.reason)
    };
    // At the root (a game that ended before its first move) this is the game's comment.
    pgn.set_comment(node, &reason);
    let mut text = write_game(&pgn, &WriteOptions::default()).expect("the games are legal");
    // A blank line between games, as the PGN standard has it: without it readers such as
    // python-chess run one game's movetext into the next game's tags.
    text.push_str("\n\n");
    text
}

/// The PGN `TimeControl` text of the engines' limits.
fn time_control_tag(options: &MatchOptions) -> String {
    let e = &options.engines[0];
    if let Some(tc) = e.tc {
        tc.to_string()
    } else if let Some(st) = e.movetime {
        format!("{}/move", st.as_secs_f64())
    } else {
        "-".to_owned()
    }
}

/// The live table, fastchess's block.
pub fn table(summary_names: &[String; 2], state: &MatchState, options: &MatchOptions) -> String {
    let c = &state.counts;
    let (w, d, l) = c.wdl();
    let games = c.games();
    let mut out = String::new();
    let _ = writeln!(out, "{}", "-".repeat(66));
    let _ = writeln!(
        out,
        "Results of {} vs {} ({}):",
        summary_names[0],
        summary_names[1],
        time_control_tag(options)
    );
    match c.estimate() {
        // No spread yet (every game or pair scored alike): no interval to show.
        Some(e) if e.variance == 0.0 => {
            let _ = writeln!(
                out,
                "Elo: {:.2} (no variance yet), score {:.2} %",
                e.elo,
                e.score * 100.0
            );
        }
        Some(e) => {
            let _ = writeln!(
                out,
                "Elo: {:.2} +/- {:.2} [{:.2}, {:.2}], nElo: {:.2} +/- {:.2}",
                e.elo,
                e.elo_error(),
                e.elo_interval.0,
                e.elo_interval.1,
                e.nelo,
                e.nelo_error()
            );
            let _ = writeln!(
                out,
                "LOS: {:.2} %, DrawRatio: {:.2} %",
                e.los * 100.0,
                if games > 0 {
                    100.0 * d as f64 / games as f64
                } else {
                    0.0
                }
            );
        }
        None => {
            let _ = writeln!(out, "Elo: -, nElo: -");
        }
    }
    let points = w as f64 + d as f64 / 2.0;
    let _ = writeln!(
        out,
        "Games: {games}, Wins: {w}, Losses: {l}, Draws: {d}, Points: {points:.1} ({:.2} %)",
        if games > 0 {
            100.0 * points / games as f64
        } else {
            0.0
        }
    );
    if c.pairs() > 0 {
        let p = c.pentanomial;
        let _ = writeln!(
            out,
            "Ptnml(0-2): [{}, {}, {}, {}, {}]",
            p[0], p[1], p[2], p[3], p[4]
        );
    }
    if let Some(s) = options.sprt {
        let counts: &[u64] = if options.games == 2 {
            &c.pentanomial
        } else {
            &c.trinomial
        };
        let llr = s.llr(counts).unwrap_or(0.0);
        let (lo, hi) = s.bounds();
        let _ = writeln!(
            out,
            "LLR: {llr:.2} ({lo:.2}, {hi:.2}) [{:.2}, {:.2}] {}",
            s.elo0, s.elo1, s.model
        );
    }
    if !state.faults.is_empty() {
        let faults: Vec<String> = state
            .faults
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        let _ = writeln!(out, "Faults: {}", faults.join(", "));
    }
    if options.show_latency {
        let _ = writeln!(out, "{}", latency_lines(&state.latency));
    }
    let _ = write!(out, "{}", "-".repeat(66));
    out
}

/// The runner's latency and the engines' think latency, two lines (see
/// [`crate::latency`]).
pub fn latency_lines(latency: &Latency) -> String {
    format!(
        "Runner latency (bestmove to next go): {}\nThink latency (measured less reported): {}",
        latency.turnaround.describe(),
        latency.think.describe()
    )
}

/// Runs the match: `args` are what is saved in the state file (so a resumed run re-reads
/// them); `report` receives each table and each game's one-line summary.
// `stop` is the caller's handle, shared with the workers and raised by Ctrl-C or a decided
// SPRT; taking it by value keeps the callers' one line (`Arc::clone(&stop)`) as it is.
#[allow(clippy::needless_pass_by_value)]
pub fn run_match(
    options: &MatchOptions,
    args: &[String],
    stop: Arc<AtomicBool>,
    report: &mut dyn FnMut(&str),
) -> Result<MatchSummary, MatchError> {
    let openings: Vec<Opening> = match &options.openings {
        // A book gives one walk per round (at most a million: the order wraps around).
        Some(o) => read_openings(
            o,
            usize::try_from(options.rounds.min(1_000_000)).unwrap_or(1_000_000),
            options.srand,
        )
        .map_err(MatchError)?,
        None if options.is_chess960() => chess960_starts(),
        None => vec![Opening::default()],
    };
    let order = match &options.openings {
        Some(o) => deal(openings.len(), o.order, o.start, options.srand),
        // Chess960 without a file: the 960 starts in an order drawn with -srand.
        None if options.is_chess960() => deal(960, OpeningOrder::Random, 1, options.srand),
        None => vec![0],
    };
    let names = [
        options.engines[0].display_name(),
        options.engines[1].display_name(),
    ];
    let tables = match &options.tb {
        Some(tb) => {
            let tables = shatranj_syzygy::Tablebase::from_path_list(&tb.paths)
                .map_err(|e| MatchError(format!("-tb {}: {e}", tb.paths)))?;
            if tables.max_pieces() == 0 {
                return Err(MatchError(format!(
                    "-tb {}: no Syzygy WDL tables found",
                    tb.paths
                )));
            }
            Some(tables)
        }
        None => None,
    };
    let mut state = options.start_state.clone().unwrap_or_else(|| MatchState {
        args: args.to_vec(),
        next_round: options.first_round,
        ..MatchState::default()
    });
    if let Some(path) = &options.config_file
        && path.exists()
    {
        let text = std::fs::read_to_string(path)
            .map_err(|e| MatchError(format!("{}: {e}", path.display())))?;
        state = MatchState::from_json(&text)
            .map_err(|e| MatchError(format!("{}: {e}", path.display())))?;
        report(&format!(
            "Resuming from {} at round {} ({} games counted)",
            path.display(),
            state.next_round + 1,
            state.counts.games()
        ));
    }
    let mut pgn_file = match &options.pgnout {
        Some(p) => {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&p.file)
                .map_err(|e| MatchError(format!("{}: {e}", p.file.display())))?;
            // Back to the last counted round: games written after it are played again.
            file.set_len(state.pgn_bytes)
                .map_err(|e| MatchError(format!("{}: {e}", p.file.display())))?;
            Some(file)
        }
        None => None,
    };
    let tc_tag = time_control_tag(options);
    let next = Arc::new(AtomicU64::new(state.next_round));
    let (tx, rx) = mpsc::channel::<RoundResult>();
    let mut decision = Decision::Continue;
    let mut stopped_by = None;
    let mut kept = Vec::new();
    let rounds = options.rounds;
    std::thread::scope(|scope| {
        for _ in 0..options
            .concurrency
            .min((rounds.saturating_sub(state.next_round)) as usize)
        {
            let tx = tx.clone();
            let next = Arc::clone(&next);
            let stop = Arc::clone(&stop);
            let (openings, order, tables) = (&openings, &order, tables.as_ref());
            scope.spawn(move || {
                let mut a = Player::new(options.engines[0].clone(), options.timeouts);
                let mut b = Player::new(options.engines[1].clone(), options.timeouts);
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let round = next.fetch_add(1, Ordering::Relaxed);
                    if round >= rounds {
                        break;
                    }
                    let opening = &openings[order[(round % order.len() as u64) as usize]];
                    let mut games = Vec::new();
                    let mut complete = true;
                    for g in 0..options.games {
                        let a_white = if options.games == 2 {
                            g == 0
                        } else {
                            round.is_multiple_of(2)
                        };
                        let played = if a_white {
                            play_game(&mut a, &mut b, opening, options, tables, &stop)
                        } else {
                            play_game(&mut b, &mut a, opening, options, tables, &stop)
                        };
                        let Some(r) = played else {
                            complete = false;
                            break;
                        };
                        games.push((a_white, r));
                    }
                    if tx
                        .send(RoundResult {
                            round,
                            games,
                            complete,
                        })
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<u64, RoundResult> = BTreeMap::new();
        let mut failure = None;
        for result in &rx {
            pending.insert(result.round, result);
            while let Some(r) = pending.remove(&state.next_round) {
                if !r.complete || decision != Decision::Continue || stopped_by.is_some() {
                    break;
                }
                match count_round(&r, options, &mut state, &mut pgn_file, &tc_tag, report) {
                    Ok(games) => {
                        if options.keep_rounds {
                            kept.push(RoundGames {
                                round: r.round,
                                games,
                            });
                        }
                    }
                    Err(e) => {
                        failure = Some(e);
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                }
                if let Some(path) = &options.config_file
                    && let Err(e) = write_atomically(path, state.to_json().as_bytes())
                {
                    failure = Some(MatchError(format!("{}: {e}", path.display())));
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
                if !options.recover
                    && let Some((name, fault)) = r.games.iter().find_map(|(a_white, g)| {
                        let (color, fault) = g.fault?;
                        fault.needs_recover().then(|| {
                            let a_at_fault = (color == Color::White) == *a_white;
                            (names[usize::from(!a_at_fault)].clone(), fault)
                        })
                    })
                {
                    stopped_by = Some(format!(
                        "{name}: {fault}; the match stops (-recover restarts the engine and \
                         plays on)"
                    ));
                    stop.store(true, Ordering::Relaxed);
                }
                if let Some(s) = options.sprt {
                    let counts: &[u64] = if options.games == 2 {
                        &state.counts.pentanomial
                    } else {
                        &state.counts.trinomial
                    };
                    decision = s.decide(s.llr(counts).unwrap_or(0.0));
                    if decision != Decision::Continue {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                // The caller prints the final table.
                if state.next_round.is_multiple_of(options.rating_interval)
                    && decision == Decision::Continue
                    && stopped_by.is_none()
                    && state.next_round < rounds
                {
                    report(&table(&names, &state, options));
                }
            }
        }
        match failure {
            Some(e) => Err(e),
            None => Ok(()),
        }
    })?;
    Ok(MatchSummary {
        state,
        names,
        decision,
        stopped_by,
        rounds: kept,
    })
}

/// Counts a round, appends its games to the PGN and reports each; returns them.
fn count_round(
    r: &RoundResult,
    options: &MatchOptions,
    state: &mut MatchState,
    pgn_file: &mut Option<std::fs::File>,
    tc_tag: &str,
    report: &mut dyn FnMut(&str),
) -> Result<Vec<KeptGame>, MatchError> {
    let mut scores = Vec::new();
    let mut kept = Vec::new();
    for (g, (a_white, record)) in r.games.iter().enumerate() {
        let a_color = if *a_white { Color::White } else { Color::Black };
        let score = match record.winner {
            None => GameScore::Draw,
            Some(c) if c == a_color => GameScore::Win,
            Some(_) => GameScore::Loss,
        };
        scores.push(score);
        state.latency.merge(&record.latency);
        let fault = record.fault.map(|(color, fault)| {
            let name = if color == Color::White {
                &record.white
            } else {
                &record.black
            };
            format!("{name} {}", fault_key(fault))
        });
        if let Some(key) = &fault {
            *state.faults.entry(key.clone()).or_default() += 1;
        }
        let text = if pgn_file.is_some() || options.keep_rounds {
            game_pgn(record, r.round, g as u32, options, tc_tag)
        } else {
            String::new()
        };
        if let Some(file) = pgn_file {
            file.write_all(text.as_bytes())
                .and_then(|()| file.flush())
                .map_err(|e| MatchError(format!("PGN: {e}")))?;
            state.pgn_bytes += text.len() as u64;
        }
        if options.keep_rounds {
            kept.push(KeptGame {
                white: record.white.clone(),
                black: record.black.clone(),
                result: record.result(),
                reason: record.reason.clone(),
                termination: record.termination,
                first_half_points: score.half_points(),
                fault,
                pgn: text,
            });
        }
        report(&format!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            state.counts.games() + g as u64 + 1,
            record.white,
            record.black,
            record.result(),
            record.reason
        ));
    }
    match scores.as_slice() {
        [a, b] => state.counts.add_pair(*a, *b),
        [a] => state.counts.add_game(*a),
        _ => {}
    }
    state.next_round = r.round + 1;
    Ok(kept)
}

fn fault_key(f: Fault) -> &'static str {
    f.as_str()
}
