//! The exceptions `shatranj` raises, and the mapping of rules-crate errors onto them.
//!
//! The hierarchy is python-chess's: the three move errors are `ValueError`s, so code written
//! for python-chess (`except ValueError`) keeps working.

use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use shatranj_chess::{FenError, SanError, UciError};
use shatranj_engine::NetError;
use shatranj_engine::games::datagen::DataError;
use std::path::Path;

create_exception!(
    shatranj,
    InvalidMoveError,
    PyValueError,
    "Raised when move notation is not syntactically valid."
);
create_exception!(
    shatranj,
    IllegalMoveError,
    PyValueError,
    "Raised when the attempted move is illegal in the current position."
);
create_exception!(
    shatranj,
    AmbiguousMoveError,
    PyValueError,
    "Raised when the attempted move is ambiguous in the current position."
);

create_exception!(
    shatranj,
    GameOverError,
    PyValueError,
    "Raised when a move or other action is attempted in a game that is over."
);

create_exception!(
    shatranj,
    NetworkError,
    PyValueError,
    "Raised when a network (an eval_file, a network file or weights to build one from) cannot be used; the message says why."
);

create_exception!(
    shatranj,
    TrainingDataError,
    PyValueError,
    "Raised when game-data shards (datagen's .sgd files) cannot be read; the message names the file, game and ply."
);

create_exception!(
    shatranj,
    SolverError,
    PyValueError,
    "Raised by Board.winnability(color, full=True) when CHA's solver cannot take the position (a castling right it cannot represent, a board it refuses) or its answer fails the check on replay; the message says which."
);

/// A network that cannot be loaded or built. The engine's message says what is wrong; the
/// file's name is added where the message lacks it, so a list of candidates can be told apart.
/// The name of `value`'s type, for messages that say what was given instead (`?` when the
/// type has no readable name).
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

pub fn net_error(e: &NetError, path: Option<&Path>) -> PyErr {
    NetworkError::new_err(net_message(e, path))
}

/// The text of [`net_error`].
pub fn net_message(e: &NetError, path: Option<&Path>) -> String {
    let text = e.to_string();
    match path {
        Some(p) if !text.contains(&*p.to_string_lossy()) => format!("{}: {text}", p.display()),
        _ => text,
    }
}

/// A shard that cannot be read: the message names the file (`DataError::File`) and the game.
pub fn data_error(e: DataError) -> PyErr {
    TrainingDataError::new_err(e.to_string())
}

/// A bad FEN is a plain `ValueError`, as in python-chess; the message names the field.
pub fn fen_error(e: FenError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

pub fn san_error(e: SanError) -> PyErr {
    match e {
        SanError::Invalid { .. } => InvalidMoveError::new_err(e.to_string()),
        SanError::Illegal { .. } => IllegalMoveError::new_err(e.to_string()),
        SanError::Ambiguous { .. } => AmbiguousMoveError::new_err(e.to_string()),
    }
}

pub fn uci_error(e: UciError) -> PyErr {
    match e {
        UciError::Invalid { .. } => InvalidMoveError::new_err(e.to_string()),
        UciError::Illegal { .. } | UciError::NullMove => IllegalMoveError::new_err(e.to_string()),
    }
}

/// python-chess indexes a table with the square, so an out-of-range square is an
/// `IndexError` there too.
pub fn square_out_of_range(value: i64) -> PyErr {
    PyIndexError::new_err(format!("square index {value} out of range 0..=63"))
}
