//! `Board.winnability(color)`: why `can_checkmate` answers as it does (FIDE R4.6, R4.9), as
//! the pure-Python dataclass `shatranj._winnability.Winnability(kind, proof, line)`.

use crate::py_modules;
use crate::rules::moves::moves_list;
use pyo3::prelude::*;
use shatranj_chess::Winnability;

pub fn py_winnability<'py>(py: Python<'py>, w: &Winnability) -> PyResult<Bound<'py, PyAny>> {
    let class = py_modules::winnability_class(py)?;
    match w {
        Winnability::Unwinnable(proof) => class.call1(("unwinnable", proof.name(), py.None())),
        Winnability::Helpmate(line) => class.call1(("helpmate", py.None(), moves_list(py, line)?)),
        Winnability::Unknown => class.call1(("unknown", py.None(), py.None())),
    }
}
