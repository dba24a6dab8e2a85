//! `shatranj match`: a match between two UCI engines (or a tournament of more) with fastchess's option syntax, a live
//! table and the SPRT (the runner is `shatranj_match::runner`).

use crate::match_args::MatchWords;
use shatranj_match::options::{MatchOptions, split_flag};
use shatranj_match::runner::{MatchState, latency_lines, run_match, table};
use shatranj_match::sprt::Decision;
use shatranj_match::tournament::run_tournament;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

const AFTER_HELP: &str = "\
Options (fastchess's syntax: one dash, then a value or key=value pairs):
  -engine cmd=PATH [name=N] [args=\"A B\"] [option.X=V]... [tc=[MOVES/]SECS[+INC]]
          [nodes=N] [depth=N] [st=SECS] [timemargin=MS]      once per engine (two or more)
  -each KEY=VALUE...          settings for both engines (an -engine's own win)
  -tournament roundrobin|gauntlet   three or more engines: everyone plays everyone
                              (the default), or the first -seeds play the rest
  -seeds N                    a gauntlet's seeds (default 1)
  -rounds N                   rounds, one opening each (default 1; per pairing)
  -games 1|2, -repeat         games per round: 2 = a pair, colours swapped
  -concurrency N              games at once (default 1)
  -openings file=F [format=epd|pgn|polyglot] [order=sequential|random] [plies=N] [start=N]
                              polyglot: a book (.bin), a weighted walk of plies (8) moves a
                              round, drawn with -srand
  -variant standard|fischerandom   Chess960: starts from the openings file (X-FEN or
                              Shredder-FEN), else the 960 in an order drawn with -srand;
                              UCI_Chess960 set on the engines that have it
  -srand N                    the seed of order=random
  -sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=normalized|logistic]
                              (two engines only)
  -draw movenumber=N movecount=N score=CP
  -resign movecount=N score=CP [twosided=true]
  -maxmoves N                 a draw after N moves
  -tb DIRS                    adjudicate by Syzygy WDL tables (DIRS ':'-separated)
  -tbpieces N                 only positions of at most N pieces (default: the tables')
  -tbadjudicate BOTH|WIN_LOSS|DRAW   which results end a game (BOTH)
  -tbignore50                 a cursed win is a win (else a draw, as the 50-move rule has it)
  -pgnout file=F [min=true] [nodes=true]
  -recover                    a crashed or hung engine loses the game, is restarted, and the
                              match goes on (without it the match stops)
  -config file=F              the JSON state file: written after every round; a run given
                              only -config file=F resumes the match it describes
  -ratinginterval N           the table every N rounds (default 10)
  -movetimeout SECS           a search without a clock that takes longer is a hang (60)
  -startup-ms N               deadline for uciok after starting an engine (10000)
  -ucinewgame-ms N            deadline for readyok after ucinewgame (60000)
  -ping-ms N                  deadline for any other readyok (60000)
  -show-latency               the runner's and the engines' per-move latency in every
                              table (always in the last)

Example:
  shatranj match -engine cmd=./new name=new -engine cmd=./old name=old \\
      -each tc=10+0.1 option.Hash=16 -rounds 20000 -repeat -concurrency 2 \\
      -openings file=book.epd order=random -sprt elo0=0 elo1=2 -pgnout file=games.pgn";

#[derive(clap::Args)]
#[command(
    after_help = AFTER_HELP,
    mut_arg("options", |a| a.help("fastchess-style options (see below)"))
)]
pub struct MatchArgs {
    #[command(flatten)]
    pub words: MatchWords,
}

pub enum MatchCmdError {
    Usage(String),
    Run(String),
    Interrupted,
}

impl std::fmt::Display for MatchCmdError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchCmdError::Usage(e) | MatchCmdError::Run(e) => f.write_str(e),
            MatchCmdError::Interrupted => {
                f.write_str("interrupted; the state file (if any) resumes the match")
            }
        }
    }
}

impl MatchCmdError {
    pub fn exit_code(&self) -> u8 {
        match self {
            MatchCmdError::Usage(_) => 2,
            MatchCmdError::Run(_) => 1,
            MatchCmdError::Interrupted => 130,
        }
    }
}

/// The arguments a run given the state file of an earlier one goes on with: that run's, and
/// with `-rounds N` beside `-config` (or beside the same arguments) its rounds raised to N, so
/// an SPRT still undecided at its last round, or a match found too short, goes on with the
/// rounds already counted. Fewer rounds than counted, or any other change, is refused.
fn resumed_args(
    given: &[String],
    state: &MatchState,
    path: &std::path::Path,
) -> Result<Vec<String>, MatchCmdError> {
    let (_, given) = split_flag(given, "-config");
    let (rounds, given_rest) = split_flag(&given, "-rounds");
    let (_, stored) = split_flag(&state.args, "-config");
    let (_, stored_rest) = split_flag(&stored, "-rounds");
    if !given_rest.is_empty() && given_rest != stored_rest {
        return Err(MatchCmdError::Usage(format!(
            "{} holds a match with other options; give only -config file={} to resume it \
             (with -rounds N to play more rounds), or another state file",
            path.display(),
            path.display()
        )));
    }
    let mut args = state.args.clone();
    if given.iter().any(|a| a == "-rounds") {
        let n = match rounds.as_slice() {
            [n] => n.parse::<u64>().ok(),
            _ => None,
        }
        .ok_or_else(|| {
            MatchCmdError::Usage(format!("-rounds {}: expected one number", rounds.join(" ")))
        })?;
        if n < state.next_round {
            return Err(MatchCmdError::Usage(format!(
                "-rounds {n}: {} already counts {} rounds",
                path.display(),
                state.next_round
            )));
        }
        let (_, without) = split_flag(&args, "-rounds");
        args = without;
        args.extend(["-rounds".to_owned(), n.to_string()]);
    }
    Ok(args)
}

pub fn run(args: MatchArgs) -> Result<(), MatchCmdError> {
    let mut argv = args.words.options;
    let first = MatchOptions::parse(&argv);
    // A run with the state file of an earlier one resumes it with that run's arguments.
    let config = match &first {
        Ok(o) => o.config_file.clone(),
        Err(_) => None,
    };
    if let Some(path) = config.filter(|p| p.exists()) {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| MatchCmdError::Usage(format!("{}: {e}", path.display())))?;
        let state = MatchState::from_json(&text)
            .map_err(|e| MatchCmdError::Usage(format!("{}: {e}", path.display())))?;
        argv = resumed_args(&argv, &state, &path)?;
    }
    let options = MatchOptions::parse(&argv).map_err(|e| MatchCmdError::Usage(e.to_string()))?;
    let stop = Arc::new(AtomicBool::new(false));
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let (s, i) = (Arc::clone(&stop), Arc::clone(&interrupted));
        let _ = ctrlc::set_handler(move || {
            i.store(true, Ordering::SeqCst);
            s.store(true, Ordering::SeqCst);
        });
    }
    let mut report = |line: &str| println!("{line}");
    if options.engines.len() > 2 {
        let summary = run_tournament(&options, &argv, Arc::clone(&stop), &mut report)
            .map_err(|e| MatchCmdError::Run(e.to_string()))?;
        println!("{}", summary.table());
        if let Some(why) = summary.stopped_by {
            return Err(MatchCmdError::Run(why));
        }
        if interrupted.load(Ordering::SeqCst) {
            return Err(MatchCmdError::Interrupted);
        }
        return Ok(());
    }
    let summary = run_match(&options, &argv, Arc::clone(&stop), &mut report)
        .map_err(|e| MatchCmdError::Run(e.to_string()))?;
    println!("{}", table(&summary.names, &summary.state, &options));
    if !options.show_latency {
        println!("{}", latency_lines(&summary.state.latency));
    }
    match summary.decision {
        Decision::AcceptH1 => println!("SPRT: H1 accepted ({} is stronger)", summary.names[0]),
        Decision::AcceptH0 => println!("SPRT: H0 accepted"),
        Decision::Continue if options.sprt.is_some() => println!("SPRT: no decision"),
        Decision::Continue => {}
    }
    if let Some(why) = summary.stopped_by {
        return Err(MatchCmdError::Run(why));
    }
    if interrupted.load(Ordering::SeqCst) {
        return Err(MatchCmdError::Interrupted);
    }
    Ok(())
}
