//! `Game`: the rules crate's `Game` (a game under the rules, with an arbiter) for Python.
//!
//! Only conversion lives here: colours, moves, seconds and time controls in; outcomes,
//! boards and exceptions out. The one thing added is the default thinking time — the
//! wall-clock time since the clock was last charged (by a move, a refused move or `spend`),
//! so that a game played live needs no stopwatch of its own.

use crate::args::{self, py_color};
use crate::board::Board;
use crate::errors::{GameOverError, IllegalMoveError, san_error, uci_error};
use crate::rules::moves::{Move, key_of, moves_list};
use crate::rules::outcome::py_outcome;
use crate::rules::resolve::resolve;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyMapping, PyType};
use shatranj_chess::fen::{self, EnPassantMode};
use shatranj_chess::game::TimeControl;
use shatranj_chess::{Color, GameError, Outcome, Position, Rules, san};
use shatranj_pgn::GamePgn;
use std::num::NonZeroU32;
use std::time::{Duration, Instant};

/// A game played under the rules with an arbiter (FIDE R4–R6): moves with their thinking
/// time on a clock, illegal moves counted, resignation, draw offers and claims.
///
/// `rules` is `"fide"` (an arbiter: threefold repetition and fifty moves are claims, dead
/// positions by the real test) or `"automatic"` (they end the game at once); `time_control`
/// is `"minutes+seconds"`, `(base_s, increment_s)` or `None` (no clock); `fen` the start
/// position (default: the standard one).
// `game`: the rules crate's `Game` this class wraps, named for what it is.
#[allow(clippy::struct_field_names)]
#[pyclass(module = "shatranj")]
pub struct Game {
    game: shatranj_chess::Game,
    /// When the clock was last charged: the default thinking time is measured from here.
    since: Instant,
    /// Every action that changed the game, so that replaying it rebuilds the game exactly
    /// (pickling, copies): the rules crate's `Game` is deterministic given the times.
    log: Vec<Action>,
}

/// One action of a player (or the arbiter's setting), with its thinking time.
#[derive(Clone, Debug)]
enum Action {
    /// A python-chess move key.
    Move(u16, Duration),
    San(String, Duration),
    Uci(String, Duration),
    Spend(Duration),
    Resign(Color),
    Offer(Color),
    Accept(Color),
    Decline(Color),
    /// A claim, with the key of the announced move.
    Claim(Option<u16>),
    Limit(Option<NonZeroU32>),
}

/// What an action returned.
enum Done {
    Ended(Option<Outcome>),
    Claimed(bool),
    Nothing,
}

fn apply(game: &mut shatranj_chess::Game, action: &Action) -> Result<Done, GameError> {
    Ok(match action {
        Action::Move(key, spent) => {
            let m = resolve(game.position(), *key);
            Done::Ended(game.push(m, *spent)?)
        }
        Action::San(text, spent) => Done::Ended(game.push_san(text, *spent)?),
        Action::Uci(text, spent) => Done::Ended(game.push_uci(text, *spent)?),
        Action::Spend(spent) => Done::Ended(game.spend(*spent)?),
        Action::Resign(c) => Done::Ended(Some(game.resign(*c)?)),
        Action::Offer(c) => Done::Ended(game.offer_draw(*c)?),
        Action::Accept(c) => Done::Ended(Some(game.accept_draw(*c)?)),
        Action::Decline(c) => {
            game.decline_draw(*c)?;
            Done::Nothing
        }
        Action::Claim(key) => {
            let announced = key.map(|k| resolve(game.position(), k));
            Done::Claimed(game.claim_draw(announced)?)
        }
        Action::Limit(limit) => {
            game.set_illegal_move_limit(*limit);
            Done::Nothing
        }
    })
}

/// Pickled actions: `(kind, argument, nanoseconds)`.
type ActionState = (String, Option<String>, u64);

fn color_text(c: Color) -> String {
    c.fold_wb("w", "b").to_owned()
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

impl Action {
    fn timed(&self) -> bool {
        matches!(
            self,
            Action::Move(..) | Action::San(..) | Action::Uci(..) | Action::Spend(_)
        )
    }

    fn state(&self) -> ActionState {
        let (kind, arg, spent) = match self {
            Action::Move(key, d) => ("move", Some(key.to_string()), *d),
            Action::San(text, d) => ("san", Some(text.clone()), *d),
            Action::Uci(text, d) => ("uci", Some(text.clone()), *d),
            Action::Spend(d) => ("spend", None, *d),
            Action::Resign(c) => ("resign", Some(color_text(*c)), Duration::ZERO),
            Action::Offer(c) => ("offer", Some(color_text(*c)), Duration::ZERO),
            Action::Accept(c) => ("accept", Some(color_text(*c)), Duration::ZERO),
            Action::Decline(c) => ("decline", Some(color_text(*c)), Duration::ZERO),
            Action::Claim(key) => ("claim", key.map(|k| k.to_string()), Duration::ZERO),
            Action::Limit(l) => ("limit", l.map(|l| l.to_string()), Duration::ZERO),
        };
        (kind.to_owned(), arg, nanos(spent))
    }

    fn from_state((kind, arg, spent): ActionState) -> Option<Action> {
        let d = Duration::from_nanos(spent);
        let color = |a: &Option<String>| match a.as_deref() {
            Some("w") => Some(Color::White),
            Some("b") => Some(Color::Black),
            _ => None,
        };
        Some(match kind.as_str() {
            "move" => Action::Move(arg?.parse().ok()?, d),
            "san" => Action::San(arg?, d),
            "uci" => Action::Uci(arg?, d),
            "spend" => Action::Spend(d),
            "resign" => Action::Resign(color(&arg)?),
            "offer" => Action::Offer(color(&arg)?),
            "accept" => Action::Accept(color(&arg)?),
            "decline" => Action::Decline(color(&arg)?),
            "claim" => Action::Claim(match arg {
                Some(a) => Some(a.parse().ok()?),
                None => None,
            }),
            "limit" => Action::Limit(match arg {
                Some(a) => Some(a.parse().ok()?),
                None => None,
            }),
            _ => return None,
        })
    }
}

fn game_error(e: GameError) -> PyErr {
    match e {
        GameError::GameOver { .. } => GameOverError::new_err(e.to_string()),
        GameError::IllegalMove { .. } | GameError::IllegalAnnouncedMove { .. } => {
            IllegalMoveError::new_err(e.to_string())
        }
        GameError::Notation(e) => san_error(e),
        GameError::UciNotation(e) => uci_error(e),
        GameError::TooEarlyForDraw(_)
        | GameError::NoDrawOffer { .. }
        | GameError::ClaimInAutomaticMode => PyValueError::new_err(e.to_string()),
    }
}

fn rules_of(name: &str) -> PyResult<Rules> {
    match name {
        "fide" => Ok(Rules::Fide),
        "automatic" => Ok(Rules::Automatic),
        _ => Err(PyValueError::new_err(format!(
            "rules must be \"fide\" or \"automatic\", not {name:?}"
        ))),
    }
}

fn duration(seconds: f64, what: &str) -> PyResult<Duration> {
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(PyValueError::new_err(format!(
            "{what} must be a finite number of seconds >= 0, not {seconds}"
        )));
    }
    Duration::try_from_secs_f64(seconds)
        .map_err(|_| PyValueError::new_err(format!("{what} {seconds} is too large")))
}

/// `"5+3"` (minutes + seconds, see `TimeControl`'s `FromStr`) or `(base, increment)` in
/// seconds.
fn time_control_of(value: &Bound<'_, PyAny>) -> PyResult<TimeControl> {
    if let Ok(text) = value.extract::<String>() {
        return text
            .parse()
            .map_err(|e: shatranj_chess::TimeControlError| PyValueError::new_err(e.to_string()));
    }
    let (base, increment): (f64, f64) = value.extract().map_err(|_| {
        PyTypeError::new_err(
            "time_control must be a string like \"5+3\" (minutes+seconds) or a tuple \
             (base_seconds, increment_seconds)",
        )
    })?;
    TimeControl::new(
        duration(base, "the base time")?,
        duration(increment, "the increment")?,
    )
    .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `(time control in nanoseconds, actions)`.
type PickleState = (Option<(u64, u64)>, Vec<ActionState>);

fn outcome_or_none(py: Python<'_>, outcome: Option<Outcome>) -> PyResult<Option<Bound<'_, PyAny>>> {
    outcome.map(|o| py_outcome(py, o)).transpose()
}

impl Game {
    /// The thinking time of the action now: `seconds`, or the wall-clock time since the
    /// clock was last charged.
    fn spent(&self, seconds: Option<f64>) -> PyResult<Duration> {
        match seconds {
            Some(s) => duration(s, "seconds"),
            None => Ok(self.since.elapsed()),
        }
    }

    /// Applies an action, and logs it when it changed the game: when it succeeded, or was an
    /// illegal move (counted, and timed). A timed action that reached the clock restarts the
    /// default thinking time.
    fn act(&mut self, action: Action) -> PyResult<Done> {
        let result = apply(&mut self.game, &action);
        if matches!(&result, Ok(_) | Err(GameError::IllegalMove { .. })) {
            if action.timed() {
                self.since = Instant::now();
            }
            self.log.push(action);
        }
        result.map_err(game_error)
    }

    fn ended<'py>(
        &mut self,
        py: Python<'py>,
        action: Action,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self.act(action)? {
            Done::Ended(outcome) => outcome_or_none(py, outcome),
            Done::Claimed(_) | Done::Nothing => Ok(None),
        }
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (fen = None, rules = "fide", time_control = None))]
    fn new(
        fen: Option<&str>,
        rules: &str,
        time_control: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let start = match fen {
            Some(text) => text.parse::<Position>().map_err(crate::errors::fen_error)?,
            None => Position::new(),
        };
        let rules = rules_of(rules)?;
        let tc = time_control.map(time_control_of).transpose()?;
        Ok(Game {
            game: shatranj_chess::Game::new(start, rules, tc),
            since: Instant::now(),
            log: Vec::new(),
        })
    }

    /// `"fide"` or `"automatic"`.
    #[getter]
    fn rules(&self) -> &'static str {
        match self.game.rules() {
            Rules::Fide => "fide",
            Rules::Automatic => "automatic",
        }
    }

    /// `(base_seconds, increment_seconds)`, or `None` without a clock.
    #[getter]
    fn time_control(&self) -> Option<(f64, f64)> {
        self.game
            .time_control()
            .map(|tc| (tc.base.as_secs_f64(), tc.increment.as_secs_f64()))
    }

    /// A copy of the current position with the game's moves: changing it leaves the game
    /// alone.
    #[getter]
    fn board(&self, py: Python<'_>) -> PyResult<Py<Board>> {
        Py::new(py, Board::from_history(self.game.history().clone()))
    }

    #[getter]
    fn turn(&self) -> bool {
        py_color(self.game.position().turn())
    }

    #[getter]
    fn move_stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        moves_list(py, self.game.moves())
    }

    #[pyo3(signature = (r#move, *, seconds = None))]
    fn push<'py>(
        &mut self,
        py: Python<'py>,
        r#move: &Bound<'_, Move>,
        seconds: Option<f64>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let spent = self.spent(seconds)?;
        self.ended(py, Action::Move(r#move.get().key, spent))
    }

    #[pyo3(signature = (san, *, seconds = None))]
    fn push_san<'py>(
        &mut self,
        py: Python<'py>,
        san: &str,
        seconds: Option<f64>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let spent = self.spent(seconds)?;
        self.ended(py, Action::San(san.to_owned(), spent))
    }

    #[pyo3(signature = (uci, *, seconds = None))]
    fn push_uci<'py>(
        &mut self,
        py: Python<'py>,
        uci: &str,
        seconds: Option<f64>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let spent = self.spent(seconds)?;
        self.ended(py, Action::Uci(uci.to_owned(), spent))
    }

    /// Time passes on the clock of the player to move without a move.
    #[pyo3(signature = (*, seconds = None))]
    fn spend<'py>(
        &mut self,
        py: Python<'py>,
        seconds: Option<f64>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let spent = self.spent(seconds)?;
        self.ended(py, Action::Spend(spent))
    }

    /// Seconds left on `color`'s clock, or `None` without a clock.
    fn remaining(&self, color: &Bound<'_, PyAny>) -> PyResult<Option<f64>> {
        Ok(self
            .game
            .remaining(args::color(color)?)
            .map(|d| d.as_secs_f64()))
    }

    fn illegal_moves(&self, color: &Bound<'_, PyAny>) -> PyResult<u32> {
        Ok(self.game.illegal_moves(args::color(color)?))
    }

    /// The illegal move that loses (3 by default in FIDE mode), or `None` for never.
    #[getter]
    fn get_illegal_move_limit(&self) -> Option<u32> {
        self.game.illegal_move_limit().map(NonZeroU32::get)
    }

    #[setter]
    fn set_illegal_move_limit(&mut self, limit: Option<i64>) -> PyResult<()> {
        let limit =
            match limit {
                None => None,
                Some(n) => Some(u32::try_from(n).ok().and_then(NonZeroU32::new).ok_or_else(
                    || {
                        PyValueError::new_err(format!(
                            "illegal_move_limit must be None or a whole number >= 1, not {n}"
                        ))
                    },
                )?),
            };
        self.act(Action::Limit(limit))?;
        Ok(())
    }

    /// The colour whose draw offer stands, or `None`.
    #[getter]
    fn draw_offer(&self) -> Option<bool> {
        self.game.draw_offer().map(py_color)
    }

    fn resign<'py>(
        &mut self,
        py: Python<'py>,
        color: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let color = args::color(color)?;
        let outcome = self.ended(py, Action::Resign(color))?;
        outcome.ok_or_else(|| PyValueError::new_err("resignation gave no outcome"))
    }

    fn offer_draw<'py>(
        &mut self,
        py: Python<'py>,
        color: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let color = args::color(color)?;
        self.ended(py, Action::Offer(color))
    }

    fn accept_draw<'py>(
        &mut self,
        py: Python<'py>,
        color: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let color = args::color(color)?;
        let outcome = self.ended(py, Action::Accept(color))?;
        outcome.ok_or_else(|| PyValueError::new_err("an accepted draw gave no outcome"))
    }

    fn decline_draw(&mut self, color: &Bound<'_, PyAny>) -> PyResult<()> {
        self.act(Action::Decline(args::color(color)?))?;
        Ok(())
    }

    /// The player to move claims a draw, optionally with the move he announces (a `Move` or
    /// SAN).
    #[pyo3(signature = (r#move = None))]
    fn claim_draw(&mut self, r#move: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let announced = match r#move {
            None => None,
            Some(value) => Some(if let Ok(m) = value.cast::<Move>() {
                resolve(self.game.position(), m.get().key)
            } else if let Ok(text) = value.extract::<String>() {
                san::parse_san(self.game.position(), &text).map_err(san_error)?
            } else {
                return Err(PyTypeError::new_err(
                    "the announced move must be a Move or SAN text",
                ));
            }),
        };
        match self.act(Action::Claim(announced.map(key_of)))? {
            Done::Claimed(claimed) => Ok(claimed),
            Done::Ended(_) | Done::Nothing => Ok(false),
        }
    }

    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        outcome_or_none(py, self.game.outcome())
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    fn result(&self) -> &'static str {
        self.game.result()
    }

    /// 1.0, 0.5 or 0.0 (exact in binary floating point), or `None` while the game goes on.
    fn score(&self, color: &Bound<'_, PyAny>) -> PyResult<Option<f64>> {
        Ok(self
            .game
            .half_points(args::color(color)?)
            .map(|h| f64::from(h) / 2.0))
    }

    /// The game in PGN; `headers` set the seven-tag roster's values and add tags.
    #[pyo3(signature = (headers = None))]
    fn pgn(&self, headers: Option<&Bound<'_, PyMapping>>) -> PyResult<String> {
        let mut tags: Vec<(String, String)> = Vec::new();
        if let Some(headers) = headers {
            for item in headers.items()?.iter() {
                let (name, value): (String, String) = item.extract().map_err(|_| {
                    PyTypeError::new_err("PGN headers must map str names to str values")
                })?;
                tags.push((name, value));
            }
        }
        let tags: Vec<(&str, &str)> = tags.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        self.game
            .pgn(&tags)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// Pickles as the start position, the rules and every action with its time; unpickling
    /// replays them. The default thinking time restarts.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyType>, (String, &'static str), PickleState)> {
        let me = slf.borrow();
        let start = fen::to_fen_with(me.game.history().start(), EnPassantMode::Always);
        let tc = me
            .game
            .time_control()
            .map(|tc| (nanos(tc.base), nanos(tc.increment)));
        let log = me.log.iter().map(Action::state).collect();
        Ok((slf.get_type(), (start, me.rules()), (tc, log)))
    }

    fn __setstate__(&mut self, state: PickleState) -> PyResult<()> {
        let (tc, log) = state;
        let corrupt = |what: &str| PyValueError::new_err(format!("corrupt Game state: {what}"));
        let tc = match tc {
            Some((base, increment)) => Some(
                TimeControl::new(Duration::from_nanos(base), Duration::from_nanos(increment))
                    .map_err(|e| corrupt(&e.to_string()))?,
            ),
            None => None,
        };
        let start = *self.game.history().start();
        let mut game = shatranj_chess::Game::new(start, self.game.rules(), tc);
        let mut actions = Vec::with_capacity(log.len());
        for item in log {
            let action = Action::from_state(item.clone())
                .ok_or_else(|| corrupt(&format!("action {item:?}")))?;
            match apply(&mut game, &action) {
                Ok(_) | Err(GameError::IllegalMove { .. }) => actions.push(action),
                Err(e) => return Err(corrupt(&e.to_string())),
            }
        }
        self.game = game;
        self.log = actions;
        self.since = Instant::now();
        Ok(())
    }

    fn __copy__(&self) -> Game {
        Game {
            game: self.game.clone(),
            since: self.since,
            log: self.log.clone(),
        }
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.__copy__()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Game rules={:?} fen={:?} result={:?}>",
            self.rules(),
            self.game.position().fen(),
            self.game.result()
        )
    }
}
