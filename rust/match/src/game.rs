//! One game between two UCI engines: clocks kept by the runner, every way a game ends, and
//! every way an engine can fail.
//!
//! - **The end on the board**: checkmate, stalemate, and every dead position by the rules
//!   crate's test (`Position::is_dead_position`, FIDE R4.6: neither side can ever mate,
//!   beyond the material list other runners stop at), the seventy-five-move rule and
//!   fivefold repetition; and, as every runner adjudicates them, threefold repetition and
//!   the fifty-move rule at once.
//! - **Adjudication**: `-draw`, `-resign`, `-maxmoves` and `-tb` (Syzygy WDL) (see
//!   [`crate::options`]).
//! - **Faults**, each a loss for the engine at fault with its reason in the PGN: a crash
//!   (its output ended), a hang (no `bestmove` within `-movetimeout` in a game without a
//!   clock, or a handshake deadline missed), an illegal or missing best move, and a loss on
//!   time (no `bestmove` within the time left plus `timemargin`, measured from writing `go`
//!   to the arrival of `bestmove`; a late answer, waited for briefly after `stop`, gives
//!   the time used and the engine's own count). A faulty engine process is dropped
//!   (killed) and started afresh for the next game.

use crate::latency::Latency;
use crate::openings::Opening;
use crate::options::{EngineSpec, MatchOptions, TbAdjudicate, TbOptions};
use crate::process::{EngineProcess, ProcessError, Search};
use shatranj_chess::{Color, History, Move, Rules, Termination};
use shatranj_engine::limits::Limits;
use shatranj_engine::score::Score;
use shatranj_engine::uci_client::UciClientError;
use shatranj_syzygy::{Tablebase, Wdl};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// An engine of the match: its settings and, once started, its process.
pub struct Player {
    pub spec: EngineSpec,
    pub name: String,
    engine: Option<EngineProcess>,
    /// Processes started after a fault.
    pub restarts: u64,
    started: bool,
    timeouts: crate::process::Timeouts,
}

impl Player {
    pub fn new(spec: EngineSpec, timeouts: crate::process::Timeouts) -> Player {
        Player {
            name: spec.display_name(),
            spec,
            engine: None,
            restarts: 0,
            started: false,
            timeouts,
        }
    }

    /// The running engine, started if need be (`uci`, the options, `isready`).
    pub fn engine(&mut self) -> Result<&mut EngineProcess, ProcessError> {
        if self.engine.is_none() {
            if self.started {
                self.restarts += 1;
            }
            self.started = true;
            let engine = EngineProcess::start(
                &self.spec.cmd,
                &self.spec.args,
                &self.spec.options,
                self.timeouts,
                shatranj_chess::CastlingMode::from_chess960(self.spec.chess960),
            )?;
            self.engine = Some(engine);
        }
        Ok(self.engine.as_mut().expect("started above"))
    }

    /// Ends (quits or kills) the process; the next game starts a fresh one.
    pub fn discard(&mut self) {
        self.engine = None;
    }
}

/// What an engine did wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// Its output ended, or it could not be started or written to.
    Crash,
    /// No answer within `-movetimeout` (no clock) or to `isready`.
    Hang,
    /// Its best move is illegal, or it gave none with legal moves on the board.
    IllegalMove,
    /// It answered after its time (plus `timemargin`) ran out.
    TimeLoss,
}

impl Fault {
    pub fn as_str(self) -> &'static str {
        match self {
            Fault::Crash => "crash",
            Fault::Hang => "hang",
            Fault::IllegalMove => "illegal move",
            Fault::TimeLoss => "time loss",
        }
    }

    /// Whether the match stops on it without `-recover` (fastchess's rule: an engine that
    /// misbehaves inside the rules loses the game; one that dies needs permission).
    pub fn needs_recover(self) -> bool {
        matches!(self, Fault::Crash | Fault::Hang)
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub white: String,
    pub black: String,
    pub opening: Opening,
    /// The moves the engines played, after the opening's.
    pub moves: Vec<Move>,
    /// One comment per played move: `score/depth time` (`+0.31/12 0.150s`).
    pub comments: Vec<String>,
    /// The nodes each played move's search reported.
    pub nodes: Vec<Option<u64>>,
    /// `None`: a draw.
    pub winner: Option<Color>,
    /// Why it ended, in words: `White mates`, `Black loses on time`, `Draw by adjudication`.
    pub reason: String,
    /// PGN's `Termination` tag: `normal`, `adjudication`, `time forfeit`, `rules infraction`,
    /// `abandoned`.
    pub termination: &'static str,
    /// The engine at fault, if one failed.
    pub fault: Option<(Color, Fault)>,
    /// The per-move latencies measured in the game.
    pub latency: Latency,
}

impl GameRecord {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A score in centipawns for adjudication, from the side that searched: mates as ±100,000.
fn centipawns(score: Score) -> i32 {
    match score {
        Score::Cp(v) => v,
        Score::Mate(m) if m > 0 => 100_000,
        Score::Mate(_) => -100_000,
    }
}

/// A move's comment: `+0.31/12 0.150s`, `+M5/20 1.020s`, or just the time.
fn comment(search: &Search, with_nodes: bool) -> String {
    let mut text = match search.score {
        Some(Score::Cp(v)) => format!("{:+.2}", f64::from(v) / 100.0),
        Some(Score::Mate(m)) if m > 0 => format!("+M{m}"),
        Some(Score::Mate(m)) => format!("-M{}", -m),
        None => String::new(),
    };
    if let Some(d) = search.depth
        && !text.is_empty()
    {
        text.push_str(&format!("/{d}"));
    }
    if !text.is_empty() {
        text.push(' ');
    }
    text.push_str(&format!("{:.3}s", search.elapsed.as_secs_f64()));
    if with_nodes && let Some(n) = search.nodes {
        text.push_str(&format!(" n={n}"));
    }
    text
}

/// The clock of one side: time left and moves made in the current period.
struct SideClock {
    left: Duration,
    moves_in_period: u32,
}

/// Plays one game, `white` against `black`, from `opening`. `None` when `stop` was raised
/// before the game ended (the game is abandoned and not counted).
pub fn play_game(
    white: &mut Player,
    black: &mut Player,
    opening: &Opening,
    options: &MatchOptions,
    tables: Option<&Tablebase>,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let mut record = GameRecord {
        white: white.name.clone(),
        black: black.name.clone(),
        opening: opening.clone(),
        moves: Vec::new(),
        comments: Vec::new(),
        nodes: Vec::new(),
        winner: None,
        reason: String::new(),
        termination: "normal",
        fault: None,
        latency: Latency::default(),
    };
    let lose = |record: &mut GameRecord, loser: Color, fault: Fault, detail: String| {
        record.winner = Some(loser.other());
        record.fault = Some((loser, fault));
        record.termination = match fault {
            Fault::TimeLoss => "time forfeit",
            Fault::IllegalMove => "rules infraction",
            Fault::Crash | Fault::Hang => "abandoned",
        };
        record.reason = format!("{} {detail}", color_name(loser));
    };
    // Start (if need be) and ucinewgame for both, before the first move: a fault here loses
    // the game too.
    for (color, player) in [(Color::White, &mut *white), (Color::Black, &mut *black)] {
        let result = player.engine().and_then(EngineProcess::new_game);
        if let Err(e) = result {
            player.discard();
            let fault = fault_of(&e, false);
            lose(&mut record, color, fault, describe(fault, &e));
            return Some(record);
        }
    }
    let mut history = History::new(opening.start);
    for &m in &opening.moves {
        history.push_unchecked(m);
    }
    let specs = [white.spec.clone(), black.spec.clone()];
    let mut clocks = [&specs[0], &specs[1]].map(|s| SideClock {
        left: s.tc.map(|tc| tc.base).unwrap_or_default(),
        moves_in_period: 0,
    });
    let mut draw_streak = 0u32;
    let mut resign_streak = [0u32; 2];
    let mut last_score: [Option<i32>; 2] = [None, None];
    let mut moves = opening.moves.clone();
    // The arrival of the last bestmove: the runner's turnaround runs from it to the next go.
    let mut last_arrival: Option<Instant> = None;
    loop {
        if let Some(end) = ended(&history) {
            (record.winner, record.reason) = end;
            return Some(record);
        }
        if let Some(max) = options.maxmoves
            && history.moves().len() >= 2 * max as usize
        {
            "Draw by adjudication: maximum moves".clone_into(&mut record.reason);
            record.termination = "adjudication";
            return Some(record);
        }
        if let (Some(tables), Some(tb)) = (tables, &options.tb)
            && let Some(winner) = tablebase_result(tables, tb, history.position())
        {
            record.winner = winner;
            record.reason = match winner {
                Some(w) => format!("{} wins by adjudication: tablebase", color_name(w)),
                None => "Draw by adjudication: tablebase".to_owned(),
            };
            record.termination = "adjudication";
            return Some(record);
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let side = history.position().turn();
        let me = side as usize;
        let spec = &specs[me];
        let mut limits = Limits {
            nodes: spec.nodes,
            depth: spec.depth,
            movetime: spec.movetime,
            ..Limits::default()
        };
        if spec.tc.is_some() || specs[1 - me].tc.is_some() {
            let [w, b] = &specs;
            limits.wtime = w.tc.map(|_| clocks[0].left);
            limits.btime = b.tc.map(|_| clocks[1].left);
            limits.winc = w.tc.map(|tc| tc.increment).filter(|i| !i.is_zero());
            limits.binc = b.tc.map(|tc| tc.increment).filter(|i| !i.is_zero());
            if let Some(tc) = spec.tc
                && let Some(per) = tc.moves
            {
                limits.movestogo = Some(per - clocks[me].moves_in_period % per);
            }
        }
        let timeout = match spec.tc {
            Some(_) => clocks[me].left + spec.timemargin,
            None => limits.movetime.unwrap_or_default() + options.move_timeout,
        };
        let player = if side == Color::White {
            &mut *white
        } else {
            &mut *black
        };
        let search = player
            .engine()
            .and_then(|e| e.go(&opening.start, &moves, &limits, timeout));
        let search = match search {
            Ok(s) => s,
            Err(e) => {
                player.discard();
                let fault = fault_of(&e, spec.tc.is_some());
                let detail = if fault == Fault::TimeLoss {
                    format!(
                        "loses on time (no bestmove within the {:.3} s left, margin included, \
                         nor {:.1} s after stop)",
                        timeout.as_secs_f64(),
                        crate::process::LATE_GRACE.as_secs_f64()
                    )
                } else {
                    describe(fault, &e)
                };
                lose(&mut record, side, fault, detail);
                return Some(record);
            }
        };
        if let Some(at) = last_arrival {
            record
                .latency
                .turnaround
                .add(search.sent.saturating_duration_since(at));
        }
        last_arrival = Some(search.arrived);
        if let Some(reported) = search.reported {
            record
                .latency
                .think
                .add(search.elapsed.saturating_sub(reported));
        }
        if spec.tc.is_none() && search.elapsed > timeout {
            player.discard();
            let detail = format!(
                "hangs (bestmove after {:.3} s, beyond the {:.3} s allowed)",
                search.elapsed.as_secs_f64(),
                timeout.as_secs_f64()
            );
            lose(&mut record, side, Fault::Hang, detail);
            return Some(record);
        }
        if spec.tc.is_some() && search.elapsed > clocks[me].left + spec.timemargin {
            player.discard();
            // What the engine said it used tells an engine that overran its own budget
            // (reported close to measured) from time lost in transit (reported far below).
            let reported = search
                .reported
                .map(|r| format!(", {:.3} s by its own count", r.as_secs_f64()))
                .unwrap_or_default();
            let detail = format!(
                "loses on time ({:.3} s used{reported}, {:.3} s left)",
                search.elapsed.as_secs_f64(),
                clocks[me].left.as_secs_f64()
            );
            lose(&mut record, side, Fault::TimeLoss, detail);
            return Some(record);
        }
        let Some(m) = search.best_move else {
            player.discard();
            lose(
                &mut record,
                side,
                Fault::IllegalMove,
                "gave no best move with legal moves on the board".to_owned(),
            );
            return Some(record);
        };
        if let Some(tc) = spec.tc {
            let c = &mut clocks[me];
            c.left = c.left.saturating_sub(search.elapsed) + tc.increment;
            c.moves_in_period += 1;
            if let Some(per) = tc.moves
                && c.moves_in_period.is_multiple_of(per)
            {
                c.left += tc.base;
            }
        }
        let with_nodes = options.pgnout.as_ref().is_some_and(|p| p.nodes);
        record.comments.push(comment(&search, with_nodes));
        record.nodes.push(search.nodes);
        record.moves.push(m);
        moves.push(m);
        let fullmove = history.position().fullmove_number();
        history.push_unchecked(m);

        // Adjudication by the engines' own scores.
        let score = search.score.map(centipawns);
        last_score[me] = score;
        if let Some(d) = options.draw {
            let quiet = score.is_some_and(|s| s.abs() <= d.score);
            if fullmove >= d.movenumber && quiet {
                draw_streak += 1;
            } else {
                draw_streak = 0;
            }
            if draw_streak >= 2 * d.movecount.max(1) {
                "Draw by adjudication".clone_into(&mut record.reason);
                record.termination = "adjudication";
                return Some(record);
            }
        }
        if let Some(r) = options.resign {
            let lost = score.is_some_and(|s| s <= -r.score);
            let agreed = !r.twosided || last_score[1 - me].is_some_and(|s| s >= r.score);
            if lost && agreed {
                resign_streak[me] += 1;
            } else {
                resign_streak[me] = 0;
            }
            if resign_streak[me] >= r.movecount.max(1) {
                record.winner = Some(side.other());
                record.reason = format!("{} wins by adjudication", color_name(side.other()));
                record.termination = "adjudication";
                return Some(record);
            }
        }
    }
}

/// The tablebase's verdict on a position within `-tbpieces` and without castling rights
/// (the tables know none): `Some(winner)` when `-tbadjudicate` takes it, `None` to play on
/// (too many pieces, no table, or a result the options leave to the board). A cursed win or
/// blessed loss is a draw, as the fifty-move rule makes it, unless `-tbignore50`.
// `Some(None)` is a draw, as `Outcome::winner`'s `None` is: the outer `None` (play on) is
// not a result at all.
#[allow(clippy::option_option)]
fn tablebase_result(
    tables: &Tablebase,
    tb: &TbOptions,
    pos: &shatranj_chess::Position,
) -> Option<Option<Color>> {
    let pieces = pos.board().occupied().count();
    let limit = tb
        .pieces
        .unwrap_or(u32::MAX)
        .min(tables.max_pieces() as u32);
    if pieces > limit || !pos.castling_rights().is_empty() {
        return None;
    }
    let wdl = tables.probe_wdl(pos).ok()?;
    verdict(wdl, pos.turn(), tb)
}

/// What a WDL result from `mover`'s side decides under the options (see
/// [`tablebase_result`]).
#[allow(clippy::option_option)]
fn verdict(wdl: Wdl, mover: Color, tb: &TbOptions) -> Option<Option<Color>> {
    let winner = match wdl {
        Wdl::Win => Some(mover),
        Wdl::Loss => Some(mover.other()),
        Wdl::CursedWin if tb.ignore50 => Some(mover),
        Wdl::BlessedLoss if tb.ignore50 => Some(mover.other()),
        Wdl::Draw | Wdl::CursedWin | Wdl::BlessedLoss => None,
    };
    let taken = match tb.adjudicate {
        TbAdjudicate::Both => true,
        TbAdjudicate::WinLoss => winner.is_some(),
        TbAdjudicate::Draw => winner.is_none(),
    };
    taken.then_some(winner)
}

/// The end by the rules: FIDE's (checkmate, stalemate, every dead position, seventy-five
/// moves, fivefold), then threefold and fifty moves at once.
fn ended(history: &History) -> Option<(Option<Color>, String)> {
    let outcome = history
        .outcome_under(Rules::Fide)
        .or_else(|| history.outcome_under(Rules::Automatic))?;
    let reason = match (outcome.termination, outcome.winner) {
        (Termination::Checkmate, Some(w)) => format!("{} mates", color_name(w)),
        (Termination::Stalemate, _) => "Draw by stalemate".to_owned(),
        (Termination::InsufficientMaterial, _) => "Draw by insufficient material".to_owned(),
        (Termination::DeadPosition, _) => "Draw by dead position".to_owned(),
        (Termination::ThreefoldRepetition | Termination::FivefoldRepetition, _) => {
            "Draw by repetition".to_owned()
        }
        (Termination::FiftyMoves | Termination::SeventyfiveMoves, _) => {
            "Draw by fifty-move rule".to_owned()
        }
        (t, _) => t.name().to_owned(),
    };
    Some((outcome.winner, reason))
}

fn fault_of(e: &ProcessError, clock: bool) -> Fault {
    match &e.0 {
        UciClientError::Timeout { waiting_for, .. } if clock && waiting_for == "bestmove" => {
            Fault::TimeLoss
        }
        UciClientError::Timeout { .. } => Fault::Hang,
        UciClientError::IllegalMove { .. } => Fault::IllegalMove,
        // A protocol error (a search without limits) cannot come from a match's options;
        // like a failed start or write, the engine is gone as far as the game is concerned.
        UciClientError::Start(_)
        | UciClientError::Crashed { .. }
        | UciClientError::Write(_)
        | UciClientError::Protocol(_) => Fault::Crash,
    }
}

fn describe(fault: Fault, e: &ProcessError) -> String {
    match fault {
        Fault::TimeLoss => format!("loses on time ({e})"),
        Fault::Hang => format!("hangs ({e})"),
        Fault::Crash => format!("disconnects ({e})"),
        Fault::IllegalMove => format!("makes an illegal move ({e})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(ignore50: bool, adjudicate: TbAdjudicate) -> TbOptions {
        TbOptions {
            paths: String::new(),
            pieces: None,
            ignore50,
            adjudicate,
        }
    }

    /// `-tbignore50`: a cursed win (a win the fifty-move rule spoils) and a blessed loss are
    /// draws, as the rule makes them, unless the option counts them as the win and loss they
    /// are without it. (The repository's 3–4-man tables hold no cursed win, so this is
    /// checked on the verdict rather than through a game.)
    #[test]
    fn tbignore50_turns_cursed_wins_and_blessed_losses_into_results() {
        let w = Color::White;
        let b = Color::Black;
        for (wdl, plain, ignoring) in [
            (Wdl::Win, Some(w), Some(w)),
            (Wdl::Loss, Some(b), Some(b)),
            (Wdl::Draw, None, None),
            (Wdl::CursedWin, None, Some(w)),
            (Wdl::BlessedLoss, None, Some(b)),
        ] {
            assert_eq!(
                verdict(wdl, w, &options(false, TbAdjudicate::Both)),
                Some(plain),
                "{wdl:?}"
            );
            assert_eq!(
                verdict(wdl, w, &options(true, TbAdjudicate::Both)),
                Some(ignoring),
                "{wdl:?} with -tbignore50"
            );
            // From Black's side the winner is the other colour.
            assert_eq!(
                verdict(wdl, b, &options(true, TbAdjudicate::Both)),
                Some(ignoring.map(Color::other)),
                "{wdl:?} with Black to move"
            );
        }
        // With -tbadjudicate, a cursed win is a draw to WIN_LOSS (played on) and to DRAW
        // (adjudicated) without -tbignore50, and the other way round with it.
        let cursed = |ignore50, how| verdict(Wdl::CursedWin, w, &options(ignore50, how));
        assert_eq!(cursed(false, TbAdjudicate::WinLoss), None);
        assert_eq!(cursed(false, TbAdjudicate::Draw), Some(None));
        assert_eq!(cursed(true, TbAdjudicate::WinLoss), Some(Some(w)));
        assert_eq!(cursed(true, TbAdjudicate::Draw), None);
    }
}
