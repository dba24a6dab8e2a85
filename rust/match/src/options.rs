//! The match's options in fastchess's syntax: a flag with one dash, then its value or its
//! `key=value` pairs, so that an engine author's fastchess command line runs unchanged where
//! the two runners overlap:
//!
//! ```text
//! -engine cmd=./new name=new option.Hash=16 -engine cmd=./old name=old
//! -each tc=10+0.1 timemargin=50 -rounds 5000 -repeat -concurrency 2
//! -openings file=book.epd format=epd order=random plies=8 start=1 -srand 7
//! -sprt elo0=0 elo1=2 alpha=0.05 beta=0.05 model=normalized
//! -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=600 twosided=true
//! -maxmoves 200 -pgnout file=games.pgn -recover -config file=match.json
//! ```
//!
//! `-tb DIRS` adjudicates by Syzygy WDL tables, with `-tbpieces N`, `-tbignore50` and
//! `-tbadjudicate BOTH|WIN_LOSS|DRAW` as in fastchess.
//!
//! fastchess's deadlines for the protocol's handshakes are `-startup-ms N` (to `uciok`,
//! default 10 s), `-ucinewgame-ms N` (to the `readyok` after `ucinewgame`, 60 s) and
//! `-ping-ms N` (any other `readyok`, 60 s); `-show-latency` prints the runner's latency
//! with every table.
//!
//! Ours only: `-movetimeout S` (how long a search without a clock may take before the engine
//! is judged hung, default 60 s), `-pgnout … min=true` (no move comments) and
//! `-openings … format=polyglot` (a Polyglot book: each round's opening a weighted walk of
//! `plies` moves through it, drawn with `-srand`). An option we do
//! not know is an error, not silently ignored: a misspelt `-sprt` must not run an endless
//! match.

use crate::process::{Timeouts, default_timeouts};
use crate::sprt::{Model, Sprt};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// A usage error: which option, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError(pub String);

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OptionError {}

fn error<T>(text: impl Into<String>) -> Result<T, OptionError> {
    Err(OptionError(text.into()))
}

/// fastchess's `tc=`: `[moves/]base+increment`, the base in seconds or `minutes:seconds`
/// (`10+0.1`, `40/60`, `1:30+1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineTc {
    /// Moves per period (the base is given again after each period); `None`: sudden death.
    pub moves: Option<u32>,
    pub base: Duration,
    pub increment: Duration,
}

impl EngineTc {
    pub fn parse(text: &str) -> Result<EngineTc, OptionError> {
        let bad = || OptionError(format!("tc={text}: expected [moves/]seconds[+increment]"));
        let seconds = |t: &str| -> Result<f64, OptionError> {
            let v: f64 = t.parse().map_err(|_| bad())?;
            if v.is_finite() && v >= 0.0 {
                Ok(v)
            } else {
                Err(bad())
            }
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => (Some(m.parse::<u32>().map_err(|_| bad())?), rest),
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((b, i)) => (b, seconds(i)?),
            None => (rest, 0.0),
        };
        let base = match base.split_once(':') {
            Some((m, s)) => seconds(m)? * 60.0 + seconds(s)?,
            None => seconds(base)?,
        };
        if base <= 0.0 || moves == Some(0) {
            return Err(bad());
        }
        Ok(EngineTc {
            moves,
            base: Duration::from_secs_f64(base),
            increment: Duration::from_secs_f64(increment),
        })
    }
}

impl fmt::Display for EngineTc {
    /// As PGN's `TimeControl` tag writes it: `40/60+0.6`, `10+0.1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", self.base.as_secs_f64())?;
        if !self.increment.is_zero() {
            write!(f, "+{}", self.increment.as_secs_f64())?;
        }
        Ok(())
    }
}

/// One engine: how to start it and what each of its searches may use.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineSpec {
    pub name: Option<String>,
    pub cmd: PathBuf,
    pub args: Vec<String>,
    /// `option.X=V`: `setoption name X value V`, in order.
    pub options: Vec<(String, String)>,
    pub tc: Option<EngineTc>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// `st=`: a fixed time per move.
    pub movetime: Option<Duration>,
    /// `timemargin=` (milliseconds): how far past its clock an engine may answer before the
    /// game is lost on time.
    pub timemargin: Duration,
    /// `-variant fischerandom`: `UCI_Chess960` is set where the engine has it, and castling
    /// is written as the king taking its rook.
    pub chess960: bool,
}

impl EngineSpec {
    /// The name tables and PGN use: `name=`, else the command's file name.
    pub fn display_name(&self) -> String {
        self.name.clone().unwrap_or_else(|| {
            self.cmd.file_name().map_or_else(
                || self.cmd.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        })
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        let number = |what: &str| OptionError(format!("{key}={value}: expected {what}"));
        match key {
            "cmd" => self.cmd = PathBuf::from(value),
            "name" => self.name = Some(value.to_owned()),
            "args" => self.args = value.split_whitespace().map(str::to_owned).collect(),
            "tc" => self.tc = Some(EngineTc::parse(value)?),
            "nodes" => self.nodes = Some(value.parse().map_err(|_| number("a node count"))?),
            "depth" => self.depth = Some(value.parse().map_err(|_| number("a depth"))?),
            "st" => {
                let s: f64 = value.parse().map_err(|_| number("seconds"))?;
                if !(s.is_finite() && s > 0.0) {
                    return Err(number("positive seconds"));
                }
                self.movetime = Some(Duration::from_secs_f64(s));
            }
            "timemargin" => {
                let ms: u64 = value.parse().map_err(|_| number("milliseconds"))?;
                self.timemargin = Duration::from_millis(ms);
            }
            // fastchess's restart=on|off: we restart an engine only after a fault.
            "restart" | "proto" if matches!(value, "off" | "uci") => {}
            _ => {
                if let Some(name) = key.strip_prefix("option.") {
                    self.options.retain(|(n, _)| n != name);
                    self.options.push((name.to_owned(), value.to_owned()));
                } else {
                    return error(format!("-engine {key}={value}: unknown engine setting"));
                }
            }
        }
        Ok(())
    }
}

/// In what order the openings are played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpeningOrder {
    #[default]
    Sequential,
    /// Shuffled once by `-srand`.
    Random,
}

/// What an openings file holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpeningFormat {
    /// One position a line.
    #[default]
    Epd,
    /// Games: the main line of each.
    Pgn,
    /// A Polyglot book (binary): each round's opening a walk through it (ours only).
    Polyglot,
}

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningOptions {
    pub file: PathBuf,
    pub format: OpeningFormat,
    pub order: OpeningOrder,
    /// PGN: at most this many plies of each game; Polyglot: the length of each walk (8
    /// when not given).
    pub plies: Option<usize>,
    /// The first opening used, counted from 1.
    pub start: usize,
    /// `-variant fischerandom`: EPD castling rights read as X-FEN or Shredder-FEN.
    pub chess960: bool,
}

/// `-draw`: a draw once both engines' scores stay within `score` centipawns for
/// `movecount` moves each, from move `movenumber` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAdjudication {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

/// `-resign`: a loss once an engine's score stays at or below `-score` for `movecount` of
/// its moves (and, `twosided`, its opponent's at or above `score`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignAdjudication {
    pub movecount: u32,
    pub score: i32,
    pub twosided: bool,
}

/// Which tablebase results adjudicate a game (`-tbadjudicate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TbAdjudicate {
    #[default]
    Both,
    WinLoss,
    Draw,
}

/// `-tb`: Syzygy WDL adjudication.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TbOptions {
    /// Directories, `:`-separated (`;` on Windows), as fastchess and `SyzygyPath` take them.
    pub paths: String,
    /// `-tbpieces`: only positions with at most this many pieces (default: the largest
    /// table found).
    pub pieces: Option<u32>,
    /// `-tbignore50`: a win the fifty-move rule would spoil (a cursed win) counts as a win.
    pub ignore50: bool,
    pub adjudicate: TbAdjudicate,
}

/// `-pgnout`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnOut {
    pub file: PathBuf,
    /// `min=true`: no move comments (score, depth, time).
    pub min: bool,
    /// `nodes=true`: the nodes of each search in its comment.
    pub nodes: bool,
}

/// Everything a match is told.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchOptions {
    pub engines: Vec<EngineSpec>,
    /// Rounds: one opening each, `games` games on it.
    pub rounds: u64,
    /// Games per round: 1, or 2 (a pair, colours swapped; `-repeat`).
    pub games: u32,
    pub concurrency: usize,
    pub openings: Option<OpeningOptions>,
    pub sprt: Option<Sprt>,
    pub draw: Option<DrawAdjudication>,
    pub resign: Option<ResignAdjudication>,
    /// A draw after this many moves (full moves).
    pub maxmoves: Option<u32>,
    pub pgnout: Option<PgnOut>,
    /// A crashed or hung engine loses the game and is restarted; without it the match stops.
    pub recover: bool,
    pub srand: u64,
    /// The JSON state file a stopped match resumes from.
    pub config_file: Option<PathBuf>,
    /// Print the table every this many rounds.
    pub rating_interval: u64,
    /// How long a search without a clock may take before its engine is judged hung.
    pub move_timeout: Duration,
    /// `-startup-ms`, `-ucinewgame-ms`, `-ping-ms`.
    pub timeouts: Timeouts,
    /// `-show-latency`: the latencies in every table, not only the last.
    pub show_latency: bool,
    /// `-tb`, `-tbpieces`, `-tbignore50`, `-tbadjudicate`.
    pub tb: Option<TbOptions>,
    /// The first round to play (not an option: a share of a match dealt to one worker of
    /// a cluster plays rounds `first_round..rounds`).
    pub first_round: u64,
    /// Keep each counted round's games in the summary (not an option: for the Python API,
    /// which returns them).
    pub keep_rounds: bool,
    /// `-tournament roundrobin|gauntlet`: how three or more engines are paired.
    pub tournament: TournamentKind,
    /// `-seeds N`: in a gauntlet, the first N engines play everyone else (default 1).
    pub seeds: usize,
    /// Where the match starts when no state file exists (not an option: a tournament hands
    /// each pairing the PGN length, faults and latencies of the pairings before it).
    pub start_state: Option<crate::runner::MatchState>,
    /// `-variant fischerandom`: Chess960 starts (from the openings file, else the 960
    /// positions in an order drawn with `-srand`).
    pub variant: Variant,
}

/// `-variant`: the rules the games start under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Variant {
    #[default]
    Standard,
    /// Chess960 (fastchess's `fischerandom`).
    Chess960,
}

impl MatchOptions {
    /// Whether the games are Chess960.
    pub fn is_chess960(&self) -> bool {
        self.variant == Variant::Chess960
    }
}

/// How the engines of a tournament (three or more) are paired; each pairing is a match of
/// `rounds` rounds, as a two-engine match would be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TournamentKind {
    /// Every engine plays every other.
    #[default]
    RoundRobin,
    /// The first `seeds` engines each play every engine after them.
    Gauntlet,
}

impl Default for MatchOptions {
    fn default() -> MatchOptions {
        MatchOptions {
            engines: Vec::new(),
            rounds: 1,
            games: 1,
            concurrency: 1,
            openings: None,
            sprt: None,
            draw: None,
            resign: None,
            maxmoves: None,
            pgnout: None,
            recover: false,
            srand: 0,
            config_file: None,
            rating_interval: 10,
            move_timeout: Duration::from_secs(60),
            timeouts: default_timeouts(),
            show_latency: false,
            tb: None,
            first_round: 0,
            keep_rounds: false,
            tournament: TournamentKind::RoundRobin,
            seeds: 1,
            start_state: None,
            variant: Variant::Standard,
        }
    }
}

/// Whether `word` names an option (`-engine`, `-each`, …) rather than being a value of the
/// one before: a dash, then a letter, so that a negative number stays a value.
pub fn is_flag(word: &str) -> bool {
    word.starts_with('-') && word.len() > 1 && word[1..].starts_with(|c: char| c.is_alphabetic())
}

/// Splits `args` into the values of every `flag` group (`flag` itself dropped) and the other
/// words, both in order: how `shatranj tune` takes out its own `-spsa`, and how `shatranj
/// match` compares two runs' arguments but for `-config`.
pub fn split_flag(args: &[String], flag: &str) -> (Vec<String>, Vec<String>) {
    let (mut group, mut rest) = (Vec::new(), Vec::new());
    let mut in_group = false;
    for a in args {
        if is_flag(a) {
            in_group = a == flag;
            if in_group {
                continue;
            }
        }
        if in_group {
            group.push(a.clone());
        } else {
            rest.push(a.clone());
        }
    }
    (group, rest)
}

/// `key=value` pairs up to the next flag.
fn pairs<'a>(flag: &str, values: &[&'a str]) -> Result<Vec<(&'a str, &'a str)>, OptionError> {
    values
        .iter()
        .map(|v| {
            v.split_once('=')
                .ok_or_else(|| OptionError(format!("{flag} {v}: expected key=value")))
        })
        .collect()
}

fn one<'a>(flag: &str, values: &[&'a str]) -> Result<&'a str, OptionError> {
    match values {
        [v] => Ok(v),
        _ => error(format!("{flag} takes one value")),
    }
}

fn parse_number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, OptionError> {
    text.parse()
        .map_err(|_| OptionError(format!("{flag} {text}: not a number")))
}

fn parse_bool(flag: &str, text: &str) -> Result<bool, OptionError> {
    match text {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        _ => error(format!("{flag} {text}: expected true or false")),
    }
}

impl MatchOptions {
    /// Reads fastchess-style arguments (without the program and subcommand names).
    pub fn parse<S: AsRef<str>>(args: &[S]) -> Result<MatchOptions, OptionError> {
        let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
        let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
        for a in args {
            if is_flag(a) {
                groups.push((a.trim_start_matches('-'), Vec::new()));
            } else if let Some((_, values)) = groups.last_mut() {
                values.push(a);
            } else {
                return error(format!("{a}: expected an option such as -engine"));
            }
        }
        let mut o = MatchOptions::default();
        let mut each = Vec::new();
        let mut engines = Vec::new();
        let mut sprt = None;
        let mut tb_pieces = None;
        let mut tb_ignore50 = false;
        let mut tb_adjudicate = TbAdjudicate::Both;
        for (flag, values) in groups {
            let f = format!("-{flag}");
            match flag {
                "engine" => engines.push(pairs(&f, &values)?),
                "each" => each.extend(pairs(&f, &values)?),
                "rounds" => o.rounds = parse_number(&f, one(&f, &values)?)?,
                "games" => o.games = parse_number(&f, one(&f, &values)?)?,
                "repeat" => {
                    o.games = match values.as_slice() {
                        [] => 2,
                        [n] => parse_number(&f, n)?,
                        _ => return error("-repeat takes at most one value"),
                    }
                }
                "concurrency" => o.concurrency = parse_number(&f, one(&f, &values)?)?,
                "srand" => o.srand = parse_number(&f, one(&f, &values)?)?,
                "maxmoves" => o.maxmoves = Some(parse_number(&f, one(&f, &values)?)?),
                "ratinginterval" => o.rating_interval = parse_number(&f, one(&f, &values)?)?,
                "movetimeout" => {
                    let s: f64 = parse_number(&f, one(&f, &values)?)?;
                    o.move_timeout = Duration::try_from_secs_f64(s)
                        .map_err(|_| OptionError(format!("-movetimeout {s}: bad duration")))?;
                }
                "recover" => o.recover = true,
                "tournament" => {
                    o.tournament = match one(&f, &values)? {
                        "roundrobin" => TournamentKind::RoundRobin,
                        "gauntlet" => TournamentKind::Gauntlet,
                        v => return error(format!("-tournament {v}: roundrobin or gauntlet")),
                    }
                }
                "variant" => {
                    o.variant = match one(&f, &values)? {
                        "standard" => Variant::Standard,
                        "fischerandom" => Variant::Chess960,
                        v => return error(format!("-variant {v}: standard or fischerandom")),
                    }
                }
                "seeds" => o.seeds = parse_number(&f, one(&f, &values)?)?,
                "tb" => {
                    o.tb = Some(TbOptions {
                        paths: one(&f, &values)?.to_owned(),
                        pieces: None,
                        ignore50: false,
                        adjudicate: TbAdjudicate::Both,
                    });
                }
                "tbpieces" => tb_pieces = Some(parse_number(&f, one(&f, &values)?)?),
                "tbignore50" => tb_ignore50 = true,
                "tbadjudicate" => {
                    tb_adjudicate = match one(&f, &values)? {
                        "BOTH" | "both" => TbAdjudicate::Both,
                        "WIN_LOSS" | "win_loss" => TbAdjudicate::WinLoss,
                        "DRAW" | "draw" => TbAdjudicate::Draw,
                        v => return error(format!("-tbadjudicate {v}: BOTH, WIN_LOSS or DRAW")),
                    }
                }
                "show-latency" => o.show_latency = true,
                "startup-ms" | "ucinewgame-ms" | "ping-ms" => {
                    let ms: u64 = parse_number(&f, one(&f, &values)?)?;
                    let t = Duration::from_millis(ms);
                    match flag {
                        "startup-ms" => o.timeouts.startup = t,
                        "ucinewgame-ms" => o.timeouts.ucinewgame = t,
                        _ => o.timeouts.ping = t,
                    }
                }
                "config" => {
                    for (k, v) in pairs(&f, &values)? {
                        match k {
                            "file" => o.config_file = Some(PathBuf::from(v)),
                            _ => return error(format!("-config {k}: unknown (file=)")),
                        }
                    }
                }
                "openings" => {
                    let mut file = None;
                    let mut op = OpeningOptions {
                        file: PathBuf::new(),
                        format: OpeningFormat::Epd,
                        order: OpeningOrder::Sequential,
                        plies: None,
                        start: 1,
                        chess960: false,
                    };
                    let mut format = None;
                    for (k, v) in pairs(&f, &values)? {
                        match k {
                            "file" => file = Some(PathBuf::from(v)),
                            "format" => {
                                format = Some(match v {
                                    "epd" => OpeningFormat::Epd,
                                    "pgn" => OpeningFormat::Pgn,
                                    "polyglot" => OpeningFormat::Polyglot,
                                    _ => {
                                        return error(format!(
                                            "-openings format={v}: epd, pgn or polyglot"
                                        ));
                                    }
                                });
                            }
                            "order" => {
                                op.order = match v {
                                    "sequential" => OpeningOrder::Sequential,
                                    "random" => OpeningOrder::Random,
                                    _ => {
                                        return error(format!(
                                            "-openings order={v}: sequential or random"
                                        ));
                                    }
                                }
                            }
                            "plies" => op.plies = Some(parse_number(&f, v)?),
                            "start" => {
                                op.start = parse_number(&f, v)?;
                                if op.start == 0 {
                                    return error("-openings start= counts from 1");
                                }
                            }
                            "policy" if v == "default" => {}
                            _ => return error(format!("-openings {k}={v}: unknown setting")),
                        }
                    }
                    let file = file.ok_or_else(|| OptionError("-openings needs file=".into()))?;
                    op.format = format.unwrap_or_else(|| {
                        let ext = file.extension().and_then(|e| e.to_str());
                        match ext.map(str::to_ascii_lowercase).as_deref() {
                            Some("pgn") => OpeningFormat::Pgn,
                            Some("bin") => OpeningFormat::Polyglot,
                            _ => OpeningFormat::Epd,
                        }
                    });
                    op.file = file;
                    o.openings = Some(op);
                }
                "sprt" => {
                    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
                    let mut model = Model::Normalized;
                    for (k, v) in pairs(&f, &values)? {
                        match k {
                            "elo0" => elo0 = Some(parse_number(&f, v)?),
                            "elo1" => elo1 = Some(parse_number(&f, v)?),
                            "alpha" => alpha = parse_number(&f, v)?,
                            "beta" => beta = parse_number(&f, v)?,
                            "model" => model = v.parse().map_err(OptionError)?,
                            _ => return error(format!("-sprt {k}={v}: unknown setting")),
                        }
                    }
                    let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
                        return error("-sprt needs elo0= and elo1=");
                    };
                    sprt = Some(
                        Sprt::new(elo0, elo1, alpha, beta, model)
                            .map_err(|e| OptionError(format!("-sprt: {e}")))?,
                    );
                }
                "draw" => {
                    let mut d = DrawAdjudication {
                        movenumber: 0,
                        movecount: 1,
                        score: 0,
                    };
                    for (k, v) in pairs(&f, &values)? {
                        match k {
                            "movenumber" => d.movenumber = parse_number(&f, v)?,
                            "movecount" => d.movecount = parse_number(&f, v)?,
                            "score" => d.score = parse_number(&f, v)?,
                            _ => return error(format!("-draw {k}={v}: unknown setting")),
                        }
                    }
                    o.draw = Some(d);
                }
                "resign" => {
                    let mut r = ResignAdjudication {
                        movecount: 1,
                        score: 0,
                        twosided: false,
                    };
                    for (k, v) in pairs(&f, &values)? {
                        match k {
                            "movecount" => r.movecount = parse_number(&f, v)?,
                            "score" => r.score = parse_number(&f, v)?,
                            "twosided" => r.twosided = parse_bool(&f, v)?,
                            _ => return error(format!("-resign {k}={v}: unknown setting")),
                        }
                    }
                    o.resign = Some(r);
                }
                "pgnout" => {
                    let mut p = PgnOut {
                        file: PathBuf::new(),
                        min: false,
                        nodes: false,
                    };
                    for (k, v) in pairs(&f, &values)? {
                        match k {
                            "file" => p.file = PathBuf::from(v),
                            "min" => p.min = parse_bool(&f, v)?,
                            "nodes" => p.nodes = parse_bool(&f, v)?,
                            "notation" if v == "san" => {}
                            _ => return error(format!("-pgnout {k}={v}: unknown setting")),
                        }
                    }
                    if p.file.as_os_str().is_empty() {
                        return error("-pgnout needs file=");
                    }
                    o.pgnout = Some(p);
                }
                _ => return error(format!("-{flag}: unknown option")),
            }
        }
        for pairs in engines {
            let mut e = EngineSpec::default();
            for &(k, v) in each.iter().chain(&pairs) {
                e.set(k, v)?;
            }
            if e.cmd.as_os_str().is_empty() {
                return error("-engine needs cmd=");
            }
            if e.tc.is_none() && e.nodes.is_none() && e.depth.is_none() && e.movetime.is_none() {
                return error(format!(
                    "engine {}: give tc=, nodes=, depth= or st= (with -engine or -each)",
                    e.display_name()
                ));
            }
            e.chess960 = o.is_chess960();
            o.engines.push(e);
        }
        let chess960 = o.is_chess960();
        if let Some(op) = &mut o.openings {
            op.chess960 = chess960;
            if chess960 && op.format == OpeningFormat::Polyglot {
                return error(
                    "-variant fischerandom: openings from EPD or PGN, not a Polyglot book",
                );
            }
        }
        o.sprt = sprt;
        match &mut o.tb {
            Some(tb) => {
                tb.pieces = tb_pieces;
                tb.ignore50 = tb_ignore50;
                tb.adjudicate = tb_adjudicate;
            }
            None if tb_pieces.is_some() || tb_ignore50 || tb_adjudicate != TbAdjudicate::Both => {
                return error("-tbpieces, -tbignore50 and -tbadjudicate need -tb");
            }
            None => {}
        }
        if o.engines.len() < 2 && o.config_file.is_none() {
            return error(format!(
                "a match needs at least two -engine (found {})",
                o.engines.len()
            ));
        }
        if o.engines.len() == 2 && o.engines[0].display_name() == o.engines[1].display_name() {
            return error("the two engines need different names (name=)");
        }
        if o.engines.len() > 2 {
            let mut names: Vec<String> = o.engines.iter().map(EngineSpec::display_name).collect();
            names.sort();
            if names.windows(2).any(|w| w[0] == w[1]) {
                return error("the engines of a tournament need different names (name=)");
            }
            if o.sprt.is_some() {
                return error(
                    "-sprt applies only to a match of two engines, not a tournament of more",
                );
            }
            if o.tournament == TournamentKind::Gauntlet && !(1..o.engines.len()).contains(&o.seeds)
            {
                return error(format!(
                    "-seeds {}: a gauntlet of {} engines needs 1 to {} seeds",
                    o.seeds,
                    o.engines.len(),
                    o.engines.len() - 1
                ));
            }
        }
        if !(1..=2).contains(&o.games) {
            return error("-games: 1 or 2 (a pair on one opening, colours swapped)");
        }
        if o.rounds == 0 || o.concurrency == 0 {
            return error("-rounds and -concurrency must be positive");
        }
        o.rating_interval = o.rating_interval.max(1);
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<MatchOptions, OptionError> {
        MatchOptions::parse(&text.split_whitespace().collect::<Vec<_>>())
    }

    #[test]
    fn a_flag_group_is_split_from_the_rest() {
        let words = |t: &str| t.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        let args = words("-config file=m.json -engine cmd=e -draw score=-5 -config x -5 -rounds 2");
        assert!(is_flag("-engine") && is_flag("-startup-ms"));
        assert!(!is_flag("-5") && !is_flag("-") && !is_flag("score=-5"));
        let (group, rest) = split_flag(&args, "-config");
        assert_eq!(group, words("file=m.json x -5"));
        assert_eq!(rest, words("-engine cmd=e -draw score=-5 -rounds 2"));
        assert_eq!(split_flag(&args, "-spsa"), (Vec::new(), args.clone()));
    }

    #[test]
    fn a_fastchess_command_line() {
        let o = parse(
            "-engine cmd=./new name=new option.Hash=16 -engine cmd=./old name=old \
             -each tc=40/1:30+0.5 timemargin=50 option.Threads=1 -rounds 500 -repeat \
             -concurrency 2 -openings file=book.epd format=epd order=random plies=8 start=3 \
             -srand 7 -sprt elo0=0 elo1=2 alpha=0.05 beta=0.1 model=logistic \
             -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=600 twosided=true \
             -maxmoves 200 -pgnout file=games.pgn -recover -config file=m.json \
             -startup-ms 2500 -ucinewgame-ms 700 -ping-ms 900 -show-latency \
             -tb /tb/a:/tb/b -tbpieces 5 -tbignore50 -tbadjudicate WIN_LOSS",
        )
        .unwrap();
        assert_eq!(o.engines.len(), 2);
        let new = &o.engines[0];
        assert_eq!(new.display_name(), "new");
        assert_eq!(
            new.options,
            vec![
                ("Threads".to_owned(), "1".to_owned()),
                ("Hash".to_owned(), "16".to_owned())
            ]
        );
        assert_eq!(
            new.tc,
            Some(EngineTc {
                moves: Some(40),
                base: Duration::from_secs(90),
                increment: Duration::from_millis(500)
            })
        );
        assert_eq!(new.timemargin, Duration::from_millis(50));
        assert_eq!((o.rounds, o.games, o.concurrency, o.srand), (500, 2, 2, 7));
        let op = o.openings.unwrap();
        assert_eq!(
            (op.format, op.order, op.plies, op.start),
            (OpeningFormat::Epd, OpeningOrder::Random, Some(8), 3)
        );
        let s = o.sprt.unwrap();
        assert_eq!(
            (s.elo0, s.elo1, s.beta, s.model),
            (0.0, 2.0, 0.1, Model::Logistic)
        );
        assert_eq!(o.draw.unwrap().score, 10);
        assert!(o.resign.unwrap().twosided);
        assert_eq!(o.maxmoves, Some(200));
        assert!(o.recover);
        assert_eq!(o.config_file, Some(PathBuf::from("m.json")));
        assert_eq!(
            o.timeouts,
            Timeouts {
                startup: Duration::from_millis(2500),
                ucinewgame: Duration::from_millis(700),
                ping: Duration::from_millis(900),
            }
        );
        assert!(o.show_latency);
        assert_eq!(
            o.tb,
            Some(TbOptions {
                paths: "/tb/a:/tb/b".to_owned(),
                pieces: Some(5),
                ignore50: true,
                adjudicate: TbAdjudicate::WinLoss
            })
        );
    }

    #[test]
    fn time_controls() {
        let tc = EngineTc::parse("10+0.1").unwrap();
        assert_eq!(
            (tc.moves, tc.base, tc.increment),
            (None, Duration::from_secs(10), Duration::from_millis(100))
        );
        assert_eq!(tc.to_string(), "10+0.1");
        assert_eq!(EngineTc::parse("40/60").unwrap().to_string(), "40/60");
        // The retired Python runner's cases: minutes:seconds, a bare base, half a second.
        for (text, base, increment, shown) in [
            ("1:30+1", 90_000, 1000, "90+1"),
            ("60", 60_000, 0, "60"),
            ("0.5+0", 500, 0, "0.5"),
            ("1+0.05", 1000, 50, "1+0.05"),
        ] {
            let tc = EngineTc::parse(text).unwrap();
            assert_eq!(
                (tc.base, tc.increment),
                (
                    Duration::from_millis(base),
                    Duration::from_millis(increment)
                ),
                "{text}"
            );
            assert_eq!(tc.to_string(), shown);
        }
        for bad in [
            "", "0+1", "x", "40/", "-1+0", "0/10", "10+", "+1", "ten", "10+0.1+1",
        ] {
            assert!(EngineTc::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn variant_fischerandom_reaches_the_engines_and_openings() {
        let two = "-engine cmd=a nodes=1 -engine cmd=b nodes=1";
        let o = parse(&format!("{two} -variant fischerandom -openings file=x.epd")).unwrap();
        assert!(o.is_chess960() && o.engines.iter().all(|e| e.chess960));
        assert!(o.openings.unwrap().chess960);
        assert!(!parse(two).unwrap().is_chess960());
        let e = parse(&format!("{two} -variant crazyhouse")).unwrap_err();
        assert!(e.0.contains("standard or fischerandom"), "{e}");
    }

    #[test]
    fn mistakes_are_named() {
        let two = "-engine cmd=a -engine cmd=b -each nodes=100";
        assert!(parse(two).is_ok());
        for (text, says) in [
            ("-engine cmd=a -engine cmd=b", "give tc="),
            ("-engine cmd=a nodes=1", "at least two"),
            (&format!("{two} -sprt elo0=0"), "elo1"),
            (&format!("{two} -sprt elo0=2 elo1=0"), "below"),
            (&format!("{two} -spr elo0=0 elo1=1"), "-spr: unknown"),
            (&format!("{two} -games 3"), "-games"),
            (&format!("{two} -each foo=1"), "unknown engine setting"),
            (
                "-engine cmd=./a nodes=1 -engine cmd=./a nodes=1",
                "different names",
            ),
            ("rounds 3", "expected an option"),
            (&format!("{two} -tbpieces 5"), "need -tb"),
            (&format!("{two} -tb x -tbadjudicate SOME"), "WIN_LOSS"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.0.contains(says), "{text}: {e}");
        }
    }
}
