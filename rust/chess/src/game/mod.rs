//! `Game`: a game played under the rules with an arbiter — moves with thinking time on a
//! clock, illegal moves counted, resignation, draw offers and claims, and every way a game
//! ends (R4, R5, R6).
//!
//! `History` knows the positions; `Game` adds what happens around the board. Choices the
//! Laws leave open, made here:
//! - **Illegal moves** (R4.4) are refused and counted per player. In FIDE mode the third one
//!   loses (the limit is configurable); in automatic mode they are only refused, since a site
//!   without an arbiter never lets an illegal move onto the board — the count is kept, and a
//!   limit may be set. A loss by illegal moves is a draw when the opponent cannot mate (FIDE
//!   Laws 7.5.5, the same exception as R4.9). Text that is not a move at all (bad or
//!   ambiguous notation) is an error of the interface, not a move: it is neither counted nor
//!   timed.
//! - **Thinking time** runs while a player thinks, whether or not the move he then makes is
//!   legal: a refused move's time is charged to his clock without the increment, and the turn
//!   stays his. If the time spent exceeds the time left, the flag fell before the move was
//!   complete: the move does not count and the game is lost on time (R4.3) or drawn (R4.9).
//! - **Draw offers** (R4.7) need each player to have moved, like the agreement itself. An
//!   offer stands until the opponent accepts or declines it, or makes a move (FIDE Laws
//!   9.1.2.2: the offer lapses when the opponent plays on). An offer made while the opponent's
//!   offer stands is an acceptance.
//! - **Claims** (R4.8, FIDE mode only: automatic mode draws at once) are the player to
//!   move's: threefold repetition or fifty moves, now or with the move he announces. A correct
//!   claim ends the game without the announced move being played; an incorrect one changes
//!   nothing (FIDE 9.5.3's two-minute bonus and forced move are left to the caller).
//! - **Dead positions** (R4.6): the material list of R5.2 ends the game as
//!   `InsufficientMaterial` in both modes (python-chess's name); in FIDE mode every other
//!   dead position (`Position::is_dead_position`) ends it as `DeadPosition`.

mod clock;
mod time_control;

pub use time_control::{TimeControl, TimeControlError};

use crate::Color;
use crate::history::{AgreementTooEarly, History};
use crate::moves::Move;
use crate::outcome::{
    Outcome, Rules, Termination, illegal_moves_forfeit, resignation, time_forfeit,
};
use crate::position::Position;
use crate::san::{self, SanError};
use crate::uci::{self, UciError};
pub use clock::{Clock, FlagFall};
use core::fmt;
use core::num::NonZeroU32;
use std::time::Duration;

/// The default illegal-move limit in FIDE mode: the third illegal move loses (R4.4).
pub const FIDE_ILLEGAL_MOVE_LIMIT: NonZeroU32 = NonZeroU32::new(3).unwrap();

/// How the game ended, and who acted when a player's act ended it (the player who
/// resigned, ran out of time, reached the illegal-move limit or claimed the draw).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Ending {
    outcome: Outcome,
    by: Option<Color>,
}

/// A game under `rules`, with an optional clock.
#[derive(Clone, Debug)]
pub struct Game {
    history: History,
    rules: Rules,
    time_control: Option<TimeControl>,
    clock: Option<Clock>,
    illegal_moves: [u32; 2],
    illegal_move_limit: Option<NonZeroU32>,
    draw_offer: Option<Color>,
    ending: Option<Ending>,
}

/// Why the game refused an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game is over; nothing more can happen in it.
    GameOver { outcome: Outcome },
    /// An illegal move (R4.4): refused and counted. `lost` is the outcome when this move
    /// reached the limit and ended the game.
    IllegalMove {
        attempted: String,
        fen: String,
        color: Color,
        count: u32,
        limit: Option<NonZeroU32>,
        lost: Option<Outcome>,
    },
    /// SAN that is not SAN, or matches several moves: not a move, so not counted.
    Notation(SanError),
    /// UCI text that is not a move: not counted.
    UciNotation(UciError),
    /// A draw offer or agreement before each player has moved (R4.7).
    TooEarlyForDraw(AgreementTooEarly),
    /// Accepting or declining with no offer from the opponent standing.
    NoDrawOffer { color: Color },
    /// Claims exist only in FIDE mode; automatic mode draws by itself (R5.2).
    ClaimInAutomaticMode,
    /// The announced move of a claim is not legal.
    IllegalAnnouncedMove { mv: Move, fen: String },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::GameOver { outcome } => {
                write!(
                    f,
                    "the game is over ({outcome}); no further moves or actions"
                )
            }
            GameError::IllegalMove {
                attempted,
                fen,
                color,
                count,
                limit,
                lost,
            } => {
                write!(f, "illegal move {attempted} by {color} in {fen}: ")?;
                match (limit, lost) {
                    (_, Some(outcome)) => write!(
                        f,
                        "illegal move number {count}, the game is over ({outcome})"
                    ),
                    (Some(limit), None) => write!(
                        f,
                        "illegal move number {count}; illegal move number {limit} loses (R4.4)"
                    ),
                    (None, None) => write!(f, "refused (illegal move number {count})"),
                }
            }
            GameError::Notation(e) => e.fmt(f),
            GameError::UciNotation(e) => e.fmt(f),
            GameError::TooEarlyForDraw(e) => e.fmt(f),
            GameError::NoDrawOffer { color } => {
                write!(f, "{color} has no draw offer from the opponent to answer")
            }
            GameError::ClaimInAutomaticMode => f.write_str(
                "draw claims exist only under FIDE rules; under automatic rules threefold \
                 repetition and fifty moves draw by themselves (R5.2)",
            ),
            GameError::IllegalAnnouncedMove { mv, fen } => {
                write!(f, "the announced move {mv} is illegal in {fen}")
            }
        }
    }
}

impl std::error::Error for GameError {}

/// What was attempted: a legal move, or an illegal one described in the notation it came in.
enum Attempt {
    Legal(Move),
    Illegal(String),
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Position::new(), Rules::Fide, None)
    }
}

impl Game {
    /// A game from `start` under `rules`, with a clock when `time_control` is given. A start
    /// position that is already over (mate, stalemate, a dead position …) gives a game over.
    pub fn new(start: Position, rules: Rules, time_control: Option<TimeControl>) -> Game {
        let mut game = Game {
            history: History::new(start),
            rules,
            time_control,
            clock: time_control.map(|tc| Clock::new(tc.base, tc.increment, start.turn())),
            illegal_moves: [0; 2],
            illegal_move_limit: match rules {
                Rules::Fide => Some(FIDE_ILLEGAL_MOVE_LIMIT),
                Rules::Automatic => None,
            },
            draw_offer: None,
            ending: None,
        };
        game.ending = game
            .automatic_ending()
            .map(|outcome| Ending { outcome, by: None });
        game
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn time_control(&self) -> Option<TimeControl> {
        self.time_control
    }

    /// The positions and moves so far.
    pub fn history(&self) -> &History {
        &self.history
    }

    pub fn position(&self) -> &Position {
        self.history.position()
    }

    pub fn moves(&self) -> &[Move] {
        self.history.moves()
    }

    /// The time `color` has left, when the game has a clock. The clock of the player to
    /// move stands at the last time charged to it (by a move, a refused move or `spend`).
    pub fn remaining(&self, color: Color) -> Option<Duration> {
        self.clock.map(|c| c.remaining(color))
    }

    /// Illegal moves `color` has made (R4.4).
    pub fn illegal_moves(&self, color: Color) -> u32 {
        self.illegal_moves[color.index()]
    }

    /// The illegal move that loses: `Some(3)` by default in FIDE mode, `None` (never) in
    /// automatic mode.
    pub fn illegal_move_limit(&self) -> Option<NonZeroU32> {
        self.illegal_move_limit
    }

    /// Changes the limit; it takes effect from the next illegal move.
    pub fn set_illegal_move_limit(&mut self, limit: Option<NonZeroU32>) {
        self.illegal_move_limit = limit;
    }

    /// The player whose draw offer stands, if any.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.ending.map(|e| e.outcome)
    }

    pub fn is_over(&self) -> bool {
        self.ending.is_some()
    }

    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    pub fn result(&self) -> &'static str {
        self.outcome().map_or("*", |o| o.result())
    }

    /// `color`'s score in half points (R2.1: win 1, draw ½, loss 0 are 2, 1, 0), once the game
    /// is over.
    pub fn half_points(&self, color: Color) -> Option<u32> {
        self.outcome().map(|o| o.half_points(color))
    }

    /// The player whose act ended the game: who resigned, ran out of time, made the last
    /// illegal move, or claimed the draw. `None` for endings on the board and for agreement.
    pub fn ended_by(&self) -> Option<Color> {
        self.ending.and_then(|e| e.by)
    }

    fn ensure_going_on(&self) -> Result<(), GameError> {
        match self.outcome() {
            Some(outcome) => Err(GameError::GameOver { outcome }),
            None => Ok(()),
        }
    }

    // `Some(outcome)` always: the callers that end the game on a move answer with it directly.
    #[allow(clippy::unnecessary_wraps)]
    fn end(&mut self, outcome: Outcome, by: Option<Color>) -> Option<Outcome> {
        self.ending = Some(Ending { outcome, by });
        self.draw_offer = None;
        Some(outcome)
    }

    /// The endings that need no one's act (R4.1, R4.5, R4.6, R4.8; R5.1, R5.2), in this
    /// order: checkmate (so a mate on the 75th move stands), the material list, stalemate,
    /// dead positions (FIDE mode), seventy-five moves, fivefold; and in automatic mode
    /// fifty moves and threefold (`History::outcome_under`).
    fn automatic_ending(&self) -> Option<Outcome> {
        self.history.outcome_under(self.rules)
    }

    /// The flag of the player to move fell (R4.3, R4.9).
    fn flag_fell(&mut self, flag: FlagFall) -> Option<Outcome> {
        let outcome = time_forfeit(self.history.position(), flag.color, self.rules);
        self.end(outcome, Some(flag.color))
    }

    /// Plays `m` for the player to move after `spent` thinking time (ignored without a
    /// clock). `Ok(Some(outcome))` when this ended the game — by the move, or by the flag
    /// falling first, in which case the move was not played; `Ok(None)` when the game goes
    /// on. An illegal move is refused and counted (`GameError::IllegalMove`).
    pub fn push(&mut self, m: Move, spent: Duration) -> Result<Option<Outcome>, GameError> {
        self.ensure_going_on()?;
        let attempt = if self.position().is_legal(m) {
            Attempt::Legal(m)
        } else {
            Attempt::Illegal(m.to_string())
        };
        self.attempt(attempt, spent)
    }

    /// `push` for a move in SAN. Text that is not SAN, or ambiguous, is an error that
    /// changes nothing; well-formed SAN naming no legal move is an illegal move.
    pub fn push_san(&mut self, text: &str, spent: Duration) -> Result<Option<Outcome>, GameError> {
        self.ensure_going_on()?;
        let attempt = match san::parse_san(self.position(), text) {
            Ok(m) => Attempt::Legal(m),
            Err(SanError::Illegal { text, .. }) => Attempt::Illegal(text),
            Err(e) => return Err(GameError::Notation(e)),
        };
        self.attempt(attempt, spent)
    }

    /// `push` for a move in UCI notation (`e2e4`, `e7e8q`); `0000` is an illegal move.
    pub fn push_uci(&mut self, text: &str, spent: Duration) -> Result<Option<Outcome>, GameError> {
        self.ensure_going_on()?;
        let attempt = match uci::parse_uci(self.position(), text) {
            Ok(m) => Attempt::Legal(m),
            Err(UciError::Illegal { text, .. }) => Attempt::Illegal(text),
            Err(UciError::NullMove) => Attempt::Illegal("0000".to_owned()),
            Err(e) => return Err(GameError::UciNotation(e)),
        };
        self.attempt(attempt, spent)
    }

    fn attempt(&mut self, attempt: Attempt, spent: Duration) -> Result<Option<Outcome>, GameError> {
        let mover = self.position().turn();
        match attempt {
            Attempt::Legal(m) => {
                if let Some(Err(flag)) = self.clock.as_mut().map(|c| c.record_move(spent)) {
                    return Ok(self.flag_fell(flag));
                }
                self.history.push_unchecked(m);
                if self.draw_offer == Some(mover.other()) {
                    self.draw_offer = None;
                }
                match self.automatic_ending() {
                    Some(outcome) => Ok(self.end(outcome, None)),
                    None => Ok(None),
                }
            }
            Attempt::Illegal(attempted) => {
                if let Some(Err(flag)) = self.clock.as_mut().map(|c| c.spend(spent)) {
                    return Ok(self.flag_fell(flag));
                }
                let count = &mut self.illegal_moves[mover.index()];
                *count += 1;
                let count = *count;
                let limit = self.illegal_move_limit;
                let lost = if limit.is_some_and(|l| count >= l.get()) {
                    let outcome = illegal_moves_forfeit(self.position(), mover, self.rules);
                    self.end(outcome, Some(mover))
                } else {
                    None
                };
                Err(GameError::IllegalMove {
                    attempted,
                    fen: self.position().fen(),
                    color: mover,
                    count,
                    limit,
                    lost,
                })
            }
        }
    }

    /// The player to move thinks for `spent` without moving (time passing on a running
    /// clock). `Ok(Some(outcome))` when his flag falls (R4.3, R4.9).
    pub fn spend(&mut self, spent: Duration) -> Result<Option<Outcome>, GameError> {
        self.ensure_going_on()?;
        match &mut self.clock {
            Some(clock) => match clock.spend(spent) {
                Ok(()) => Ok(None),
                Err(flag) => Ok(self.flag_fell(flag)),
            },
            None => Ok(None),
        }
    }

    /// `color` resigns, at any moment, on move or not (R4.2): the opponent wins, unless he
    /// cannot mate, which draws (R4.9; R5.2 in automatic mode: only a lone king).
    pub fn resign(&mut self, color: Color) -> Result<Outcome, GameError> {
        self.ensure_going_on()?;
        let outcome = resignation(self.position(), color, self.rules);
        self.end(outcome, Some(color));
        Ok(outcome)
    }

    /// `color` offers a draw (R4.7). `Ok(Some(outcome))` when the opponent's offer was
    /// standing: two offers are an agreement.
    pub fn offer_draw(&mut self, color: Color) -> Result<Option<Outcome>, GameError> {
        self.ensure_going_on()?;
        let agreement = self
            .history
            .draw_by_agreement()
            .map_err(GameError::TooEarlyForDraw)?;
        if self.draw_offer == Some(color.other()) {
            return Ok(self.end(agreement, None));
        }
        self.draw_offer = Some(color);
        Ok(None)
    }

    /// `color` accepts the opponent's standing offer: drawn by agreement (R4.7).
    pub fn accept_draw(&mut self, color: Color) -> Result<Outcome, GameError> {
        self.ensure_going_on()?;
        let agreement = self
            .history
            .draw_by_agreement()
            .map_err(GameError::TooEarlyForDraw)?;
        if self.draw_offer != Some(color.other()) {
            return Err(GameError::NoDrawOffer { color });
        }
        self.end(agreement, None);
        Ok(agreement)
    }

    /// `color` declines the opponent's standing offer; play goes on.
    pub fn decline_draw(&mut self, color: Color) -> Result<(), GameError> {
        self.ensure_going_on()?;
        if self.draw_offer != Some(color.other()) {
            return Err(GameError::NoDrawOffer { color });
        }
        self.draw_offer = None;
        Ok(())
    }

    /// The player to move claims a draw (R4.8, FIDE mode): by the fifty-move rule or by
    /// threefold repetition, in the position now or, with `announced`, in the position that
    /// move would bring about. `Ok(true)` ends the game (the announced move is not played);
    /// `Ok(false)` is an incorrect claim and changes nothing.
    pub fn claim_draw(&mut self, announced: Option<Move>) -> Result<bool, GameError> {
        self.ensure_going_on()?;
        if self.rules == Rules::Automatic {
            return Err(GameError::ClaimInAutomaticMode);
        }
        let claimant = self.position().turn();
        let mut judged = self.history.clone();
        if let Some(m) = announced {
            judged
                .push(m)
                .map_err(|e| GameError::IllegalAnnouncedMove {
                    mv: e.mv,
                    fen: e.fen,
                })?;
        }
        // python-chess's order when both hold: fifty moves first.
        let termination = if judged.is_fifty_moves() {
            Termination::FiftyMoves
        } else if judged.is_repetition(3) {
            Termination::ThreefoldRepetition
        } else {
            return Ok(false);
        };
        let outcome = Outcome {
            termination,
            winner: None,
        };
        self.end(outcome, Some(claimant));
        Ok(true)
    }

    /// A sentence on how the game ended, for the closing PGN comment.
    pub fn ending_description(&self) -> Option<String> {
        let ending = self.ending?;
        let Outcome {
            termination,
            winner,
        } = ending.outcome;
        let by = ending.by;
        let name = |c: Option<Color>| match c {
            Some(Color::White) => "White",
            Some(Color::Black) => "Black",
            None => "A player",
        };
        let cannot_mate = |c: Option<Color>| {
            format!(
                "; {} cannot checkmate, so the game is drawn",
                name(c.map(Color::other))
            )
        };
        let drawn = |text: String| match winner {
            None => text + &cannot_mate(by),
            Some(_) => text,
        };
        Some(match termination {
            Termination::Checkmate => {
                format!("{} is checkmated", name(winner.map(Color::other)))
            }
            Termination::Stalemate => "Stalemate".to_owned(),
            Termination::InsufficientMaterial => {
                "Neither side has material to checkmate".to_owned()
            }
            Termination::DeadPosition => {
                "Dead position: neither side can ever checkmate".to_owned()
            }
            Termination::SeventyfiveMoves => {
                "Seventy-five moves by each side without a pawn move or capture".to_owned()
            }
            Termination::FivefoldRepetition => "Fivefold repetition".to_owned(),
            Termination::FiftyMoves => match by {
                Some(c) => format!("{} claims a draw by the fifty-move rule", name(Some(c))),
                None => "Fifty moves by each side without a pawn move or capture".to_owned(),
            },
            Termination::ThreefoldRepetition => match by {
                Some(c) => format!("{} claims a draw by threefold repetition", name(Some(c))),
                None => "Threefold repetition".to_owned(),
            },
            Termination::Resignation => drawn(format!("{} resigns", name(by))),
            Termination::TimeForfeit => drawn(format!("{}'s time ran out", name(by))),
            Termination::IllegalMoves => drawn(format!("{} forfeits by illegal moves", name(by))),
            Termination::Agreement => "Drawn by agreement".to_owned(),
        })
    }
}
