//! Outcomes as python-chess's `Outcome(termination, winner)`, with `Termination` an
//! `enum.Enum`; both are pure Python (shatranj/_outcome.py) so they behave exactly like
//! python-chess's dataclass and enum.

use crate::py_modules;
use pyo3::prelude::*;
use shatranj_chess::Outcome;

pub fn py_outcome(py: Python<'_>, outcome: Outcome) -> PyResult<Bound<'_, PyAny>> {
    let termination = py_modules::termination_class(py)?.getattr(outcome.termination.name())?;
    let winner = outcome.winner.map(shatranj_chess::Color::is_white);
    py_modules::outcome_class(py)?.call1((termination, winner))
}
