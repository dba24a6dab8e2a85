//! Outcomes as python-chess's `Outcome(termination, winner)`, with `Termination` an
//! `enum.Enum`; both are pure Python (shatranj/_outcome.py) so they behave exactly like
//! python-chess's dataclass and enum.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use shatranj_chess::Outcome;

pub fn py_outcome(py: Python<'_>, outcome: Outcome) -> PyResult<Bound<'_, PyAny>> {
    static OUTCOME: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    static TERMINATION: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    let termination = TERMINATION
        .import(py, "shatranj._outcome", "Termination")?
        .getattr(outcome.termination.name())?;
    let winner = outcome.winner.map(|c| c.is_white());
    OUTCOME
        .import(py, "shatranj._outcome", "Outcome")?
        .call1((termination, winner))
}
