//! `shatranj.match.run`: a match played by the match crate's runner, the same as
//! `shatranj match`, on a thread of its own while the caller waits without the GIL and stays
//! interruptible (Ctrl-C stops the workers, abandons the games in play, and raises).
//!
//! The options arrive as fastchess-style arguments (`python/shatranj/match.py` builds them
//! from keywords), the summary leaves as JSON that `match.py` turns into its dataclass: the
//! one parser and the one result format serve the CLI, Python and the Ray workers alike.

use crate::worker::run_interruptible;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use shatranj_match::options::MatchOptions;
use shatranj_match::runner::{MatchError, run_match};
use shatranj_match::tournament::run_tournament;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Checks `args` as `match_run` would, starting nothing; returns the engines' names.
#[pyfunction]
pub fn match_check(args: Vec<String>) -> PyResult<(String, String)> {
    let options = MatchOptions::parse(&args).map_err(|e| PyValueError::new_err(e.0))?;
    match options.engines.as_slice() {
        [a, b] => Ok((a.display_name(), b.display_name())),
        _ => Err(PyValueError::new_err("a match needs exactly two engines")),
    }
}

/// Plays the match `args` describe (fastchess's syntax), rounds `first_round..` (a share of
/// a match dealt to one worker); returns the summary as JSON, with every counted round's
/// games. `on_line`, if given, is called with each line of the live report (tables and
/// finished games) from the calling thread.
#[pyfunction]
#[pyo3(signature = (args, first_round=0, on_line=None))]
pub fn match_run(
    py: Python<'_>,
    args: Vec<String>,
    first_round: u64,
    on_line: Option<Py<PyAny>>,
) -> PyResult<String> {
    let mut options = MatchOptions::parse(&args).map_err(|e| PyValueError::new_err(e.0))?;
    if options.engines.len() != 2 {
        return Err(PyValueError::new_err("a match needs exactly two engines"));
    }
    if first_round >= options.rounds {
        return Err(PyValueError::new_err(format!(
            "first_round {first_round} is not below rounds {}",
            options.rounds
        )));
    }
    options.first_round = first_round;
    options.keep_rounds = true;
    run_reported(py, on_line, move |stop, report| {
        run_match(&options, &args, stop, report).map(|s| s.to_json())
    })
}

/// Plays the tournament `args` describe (three or more engines, fastchess's syntax);
/// returns its summary as JSON (pairings, standings and every counted round's games, with
/// its pairing). `on_line` as in `match_run`.
#[pyfunction]
#[pyo3(signature = (args, on_line=None))]
pub fn match_tournament(
    py: Python<'_>,
    args: Vec<String>,
    on_line: Option<Py<PyAny>>,
) -> PyResult<String> {
    let mut options = MatchOptions::parse(&args).map_err(|e| PyValueError::new_err(e.0))?;
    if options.engines.len() < 3 {
        return Err(PyValueError::new_err(
            "a tournament needs three or more engines (two play a match)",
        ));
    }
    options.keep_rounds = true;
    run_reported(py, on_line, move |stop, report| {
        run_tournament(&options, &args, stop, report).map(|s| s.to_json())
    })
}

/// Runs `job` (a match or a tournament) on a thread of its own without the GIL, handing
/// the report's lines to `on_line` from the calling thread; Ctrl-C raises `stop`.
fn run_reported(
    py: Python<'_>,
    on_line: Option<Py<PyAny>>,
    job: impl FnOnce(Arc<AtomicBool>, &mut dyn FnMut(&str)) -> Result<String, MatchError>
    + Send
    + 'static,
) -> PyResult<String> {
    let stop = Arc::new(AtomicBool::new(false));
    let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    let job = {
        let (stop, lines) = (Arc::clone(&stop), Arc::clone(&lines));
        move || {
            let mut report = |line: &str| {
                if let Ok(mut l) = lines.lock() {
                    l.push(line.to_owned());
                }
            };
            // A panic in the runner becomes an error here, never a crash of Python.
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(stop, &mut report)))
        }
    };
    let flush = |py: Python<'_>| -> PyResult<()> {
        let taken =
            std::mem::take(&mut *lines.lock().map_err(|_| {
                PyRuntimeError::new_err("the match's report was poisoned by a panic")
            })?);
        if let Some(f) = &on_line {
            for line in taken {
                f.call1(py, (line,))?;
            }
        }
        Ok(())
    };
    let cancel = {
        let stop = Arc::clone(&stop);
        move || stop.store(true, Ordering::SeqCst)
    };
    let result = run_interruptible(py, "match", Duration::from_millis(50), job, cancel, || {
        flush(py)
    })?;
    flush(py)?;
    match result {
        Ok(Ok(summary)) => Ok(summary),
        Ok(Err(e)) => Err(PyRuntimeError::new_err(e.0)),
        Err(_) => Err(PyRuntimeError::new_err(
            "the match runner failed unexpectedly (a panic); please report it",
        )),
    }
}
