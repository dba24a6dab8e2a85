//! An engine process as a match drives it, over the engine crate's UCI client
//! ([`shatranj_engine::uci_client`]), which speaks the protocol for analysis and matches
//! alike: fastchess's handshake deadlines ([`Timeouts`]), lines stamped on arrival (so a
//! `bestmove` is timed as it arrived and the runner's own latency is measured apart from the
//! engine's), garbage output read lossily and ignored.
//!
//! What this module adds is the match's side of it: a search past its deadline is given
//! [`LATE_GRACE`] after `stop` (a late answer says by how much an engine overran its clock,
//! where silence is a hang), fastchess's default deadlines, and the words a fault is
//! reported in, which the PGN's reasons quote.

use shatranj_chess::{CastlingMode, Move, Position};
use shatranj_engine::limits::Limits;
use shatranj_engine::uci_client::{UciClientError, UciEngine, UciEngineConfig};
use std::fmt;
use std::path::Path;
use std::time::Duration;

pub use shatranj_engine::uci_client::{Timeouts, UciSearch as Search};

/// How long a search that missed its deadline is given, after `stop`, to answer.
pub const LATE_GRACE: Duration = Duration::from_millis(500);

/// fastchess's default deadlines: `-startup-ms` 10 s, `-ucinewgame-ms` and `-ping-ms` 60 s.
pub fn default_timeouts() -> Timeouts {
    Timeouts {
        startup: Duration::from_secs(10),
        ucinewgame: Duration::from_secs(60),
        ping: Duration::from_secs(60),
    }
}

/// What went wrong with an engine process: the client's error, told in the runner's words
/// (`no bestmove within 0.250 s`, `bestmove a1a1 is illegal: …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessError(pub UciClientError);

impl From<UciClientError> for ProcessError {
    fn from(e: UciClientError) -> ProcessError {
        ProcessError(e)
    }
}

impl fmt::Display for ProcessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            UciClientError::Crashed { waiting_for } => {
                write!(
                    f,
                    "the engine exited while the runner waited for {waiting_for}"
                )
            }
            UciClientError::Timeout { waiting_for, after } => {
                write!(f, "no {waiting_for} within {:.3} s", after.as_secs_f64())
            }
            UciClientError::IllegalMove { text, reason } => {
                write!(f, "bestmove {text} is illegal: {reason}")
            }
            e @ (UciClientError::Start(_)
            | UciClientError::Write(_)
            | UciClientError::Protocol(_)) => fmt::Display::fmt(e, f),
        }
    }
}

impl std::error::Error for ProcessError {}

/// A running engine.
pub struct EngineProcess {
    engine: UciEngine,
    /// How castling is written to the engine (Chess960: the king takes its rook).
    mode: CastlingMode,
}

impl EngineProcess {
    /// Starts the program, waits for `uciok` (within `startup`), sets the options and waits
    /// for `readyok` (within `ping`); in `mode` Chess960, sets `UCI_Chess960` where the
    /// engine has it.
    pub fn start(
        cmd: &Path,
        args: &[String],
        options: &[(String, String)],
        timeouts: Timeouts,
        mode: CastlingMode,
    ) -> Result<EngineProcess, ProcessError> {
        let config = UciEngineConfig {
            args: args.to_vec(),
            options: options.to_vec(),
            timeouts,
            ..UciEngineConfig::new(cmd)
        };
        let mut engine = UciEngine::start(&config)?;
        if mode.is_chess960() && engine.has_option("UCI_Chess960") {
            engine.set_option("UCI_Chess960", "true")?;
        }
        Ok(EngineProcess { engine, mode })
    }

    /// `id name`, as the engine gave it (its command until it does).
    pub fn name(&self) -> &str {
        &self.engine.name
    }

    /// `isready`, then `readyok` within `ping`: the engine still answers.
    pub fn ping(&mut self) -> Result<(), ProcessError> {
        Ok(self.engine.ready()?)
    }

    /// `ucinewgame`, then `readyok` within `ucinewgame`.
    pub fn new_game(&mut self) -> Result<(), ProcessError> {
        Ok(self.engine.new_game()?)
    }

    /// Searches the position reached by `moves` from `start` within `limits` (nodes, depth,
    /// movetime and the clocks), waiting `within` after writing `go` for `bestmove`. Then
    /// the engine is sent `stop`: a `bestmove` within [`LATE_GRACE`] more is returned with
    /// its (late) elapsed time, for the caller to judge; none is a timeout, and the caller
    /// ends the process.
    pub fn go(
        &mut self,
        start: &Position,
        moves: &[Move],
        limits: &Limits,
        within: Duration,
    ) -> Result<Search, ProcessError> {
        Ok(self
            .engine
            .go_with_grace(start, moves, self.mode, limits, within, LATE_GRACE)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_in_the_runners_words() {
        let timeout = ProcessError(UciClientError::Timeout {
            waiting_for: "uciok".to_owned(),
            after: Duration::from_secs(3),
        });
        assert_eq!(timeout.to_string(), "no uciok within 3.000 s");
        let illegal = ProcessError(UciClientError::IllegalMove {
            text: "a1a1".to_owned(),
            reason: "no piece".to_owned(),
        });
        assert_eq!(illegal.to_string(), "bestmove a1a1 is illegal: no piece");
        let crashed = ProcessError(UciClientError::Crashed {
            waiting_for: "bestmove".to_owned(),
        });
        assert_eq!(
            crashed.to_string(),
            "the engine exited while the runner waited for bestmove"
        );
    }
}
