//! The `eval_file=` argument of `Engine`, `evaluate` and `selfplay`: which static evaluation
//! to use, named as the UCI option `EvalFile` names it.
//!
//! A `str` is read as `EvalFile` reads it (`shatranj_engine::Evaluation::from_name`): a
//! network file's path, `"<default>"` (the network built into the binary) or `"classical"`.
//! Any other `os.PathLike` is always a path (so `Path("classical")` is a file of that name), a
//! `shatranj.nnue.Network` is used as it is, and `None` means the engine's default. The value
//! is read with the GIL ([`EvalSpec::extract`]) and the file loaded without it
//! ([`EvalSpec::resolve`]).

use crate::engine::network::Network;
use crate::errors::{NetworkError, net_message};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use shatranj_engine::{Evaluation, NetError};
use std::path::PathBuf;
use std::sync::Arc;

/// What `eval_file` asked for, before any file is read.
pub enum EvalSpec {
    Default,
    Name(String),
    Path(PathBuf),
    Network(Arc<shatranj_engine::Network>),
}

/// Appended to the error of a name that is not a readable file: the user may have meant one
/// of the two names.
const NAMES_HINT: &str =
    "eval_file takes a network file's path, \"<default>\" (the built-in network) or \"classical\"";

impl EvalSpec {
    pub fn extract(value: Option<&Bound<'_, PyAny>>) -> PyResult<EvalSpec> {
        let Some(value) = value.filter(|v| !v.is_none()) else {
            return Ok(EvalSpec::Default);
        };
        if let Ok(text) = value.cast::<PyString>() {
            return Ok(EvalSpec::Name(text.to_str()?.to_owned()));
        }
        if let Ok(net) = value.cast::<Network>() {
            return Ok(EvalSpec::Network(Arc::clone(net.get().inner())));
        }
        value.extract::<PathBuf>().map(EvalSpec::Path).map_err(|_| {
            let type_name = crate::errors::type_name(value);
            PyTypeError::new_err(format!(
                "eval_file must be a path (str or os.PathLike), \"<default>\", \"classical\", \
                 a shatranj.nnue.Network or None, not {type_name}"
            ))
        })
    }

    /// The evaluation, loading a file if one is named. Needs no GIL.
    pub fn resolve(self) -> Result<Evaluation, EvalFileError> {
        match self {
            EvalSpec::Default => Ok(Evaluation::default()),
            EvalSpec::Network(net) => Ok(Evaluation::Network(net)),
            EvalSpec::Path(path) => shatranj_engine::Network::load(&path)
                .map(|n| Evaluation::Network(Arc::new(n)))
                .map_err(|error| EvalFileError {
                    error,
                    path: Some(path),
                }),
            EvalSpec::Name(name) => Evaluation::from_name(&name).map_err(|error| {
                // `from_name`'s own complaints (an empty name, no built-in network) concern
                // no file.
                let path = (!matches!(error, NetError::Name(_))).then(|| name.trim().into());
                EvalFileError { error, path }
            }),
        }
    }

    /// [`EvalSpec::extract`] then [`EvalSpec::resolve`] with the GIL released.
    pub fn load(py: Python<'_>, value: Option<&Bound<'_, PyAny>>) -> PyResult<Evaluation> {
        let spec = EvalSpec::extract(value)?;
        py.detach(|| spec.resolve()).map_err(PyErr::from)
    }
}

/// A network named by `eval_file` that could not be loaded.
pub struct EvalFileError {
    error: NetError,
    /// The file it was read from, when it was a file.
    path: Option<PathBuf>,
}

impl From<EvalFileError> for PyErr {
    fn from(e: EvalFileError) -> PyErr {
        let text = net_message(&e.error, e.path.as_deref());
        match e.error {
            // A file that is not there may be a misspelt name.
            NetError::Io { .. } => NetworkError::new_err(format!("{text}; {NAMES_HINT}")),
            _ => NetworkError::new_err(text),
        }
    }
}
