//! `Game`: the rules crate's `Game` (a game under the rules, with an arbiter) for Python.
//!
//! Only conversion lives here: colours, moves, seconds and time controls in; outcomes,
//! boards and exceptions out. The one thing added is the default thinking time — the
//! wall-clock time since the clock was last charged (by a move, a refused move or `spend`),
//! so that a game played live needs no stopwatch of its own.

use crate::args::{self, py_color};
use crate::board::Board;
use crate::errors::{GameOverError, IllegalMoveError, san_error, uci_error};
use crate::moves::{Move, interned, key_of};
use crate::outcome::py_outcome;
use crate::resolve::resolve;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyMapping};
use shatranj_chess::game::TimeControl;
use shatranj_chess::{GameError, Outcome, Position, Rules, san};
use std::num::NonZeroU32;
use std::time::{Duration, Instant};

#[pyclass(module = "shatranj")]
pub struct Game {
    game: shatranj_chess::Game,
    /// When the clock was last charged: the default thinking time is measured from here.
    since: Instant,
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

    /// Runs a timed action; the default clock restarts when it reached the clock (it did
    /// unless the game was over or the text was not a move).
    fn timed(
        &mut self,
        py: Python<'_>,
        seconds: Option<f64>,
        action: impl FnOnce(&mut shatranj_chess::Game, Duration) -> Result<Option<Outcome>, GameError>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let spent = self.spent(seconds)?;
        let result = action(&mut self.game, spent);
        if matches!(&result, Ok(_) | Err(GameError::IllegalMove { .. })) {
            self.since = Instant::now();
        }
        let outcome = result.map_err(game_error)?;
        Ok(outcome_or_none(py, outcome)?.map(Bound::unbind))
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
        let moves = self
            .game
            .moves()
            .iter()
            .map(|&m| interned(py, key_of(m)))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, moves)
    }

    #[pyo3(signature = (r#move, *, seconds = None))]
    fn push(
        &mut self,
        py: Python<'_>,
        r#move: &Bound<'_, Move>,
        seconds: Option<f64>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let m = resolve(self.game.position(), r#move.get().key);
        self.timed(py, seconds, |g, spent| g.push(m, spent))
    }

    #[pyo3(signature = (san, *, seconds = None))]
    fn push_san(
        &mut self,
        py: Python<'_>,
        san: &str,
        seconds: Option<f64>,
    ) -> PyResult<Option<Py<PyAny>>> {
        self.timed(py, seconds, |g, spent| g.push_san(san, spent))
    }

    #[pyo3(signature = (uci, *, seconds = None))]
    fn push_uci(
        &mut self,
        py: Python<'_>,
        uci: &str,
        seconds: Option<f64>,
    ) -> PyResult<Option<Py<PyAny>>> {
        self.timed(py, seconds, |g, spent| g.push_uci(uci, spent))
    }

    /// Time passes on the clock of the player to move without a move.
    #[pyo3(signature = (*, seconds = None))]
    fn spend(&mut self, py: Python<'_>, seconds: Option<f64>) -> PyResult<Option<Py<PyAny>>> {
        self.timed(py, seconds, |g, spent| g.spend(spent))
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
        self.game.set_illegal_move_limit(limit);
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
        let outcome = self.game.resign(args::color(color)?).map_err(game_error)?;
        py_outcome(py, outcome)
    }

    fn offer_draw<'py>(
        &mut self,
        py: Python<'py>,
        color: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let outcome = self
            .game
            .offer_draw(args::color(color)?)
            .map_err(game_error)?;
        outcome_or_none(py, outcome)
    }

    fn accept_draw<'py>(
        &mut self,
        py: Python<'py>,
        color: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let outcome = self
            .game
            .accept_draw(args::color(color)?)
            .map_err(game_error)?;
        py_outcome(py, outcome)
    }

    fn decline_draw(&mut self, color: &Bound<'_, PyAny>) -> PyResult<()> {
        self.game
            .decline_draw(args::color(color)?)
            .map_err(game_error)
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
        self.game.claim_draw(announced).map_err(game_error)
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

    fn __repr__(&self) -> String {
        format!(
            "<Game rules={:?} fen={:?} result={:?}>",
            self.rules(),
            self.game.position().fen(),
            self.game.result()
        )
    }
}
