//! `TimeControl`: equal base time for each player plus an increment per move (R6.1), read
//! from the way players write it (`5+3`) and from PGN's `TimeControl` tag (`300+3`).
//!
//! The two text forms disagree on the unit of the base: players and sites write minutes
//! (`5+3` blitz, `90+30` classical) while PGN writes seconds (`300+3`). No rule of thumb
//! tells `180+2` (three-minute blitz in a PGN tag) from `180+2` (three hours), so the two
//! forms have two parsers: `FromStr` reads minutes plus seconds, with explicit units allowed
//! on either number (`300s+0`, `1.5m+0`), and [`TimeControl::from_pgn`] reads seconds.

use core::fmt;
use core::str::FromStr;
use std::time::Duration;

/// Equal `base` time for each player, and `increment` added to a player's clock after each
/// of his moves (R6.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

/// Text that is not a time control, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControlError {
    pub text: String,
    pub reason: &'static str,
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid time control {:?}: {}; expected minutes+seconds such as \"5+3\" or \"90+30\" \
             (units may be explicit: \"300s+0\")",
            self.text, self.reason
        )
    }
}

impl std::error::Error for TimeControlError {}

/// One number of a time control, in `default_unit` seconds unless it carries its own unit.
fn amount(text: &str, default_unit: f64) -> Result<Duration, &'static str> {
    let text = text.trim();
    let (number, unit) = match text.strip_suffix(['s', 'm']) {
        Some(number) if text.ends_with('s') => (number, 1.0),
        Some(number) => (number, 60.0),
        None => (text, default_unit),
    };
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err("each part must be a non-negative number");
    }
    let value: f64 = number
        .parse()
        .map_err(|_| "each part must be a non-negative number")?;
    Duration::try_from_secs_f64(value * unit).map_err(|_| "a number is too large")
}

impl TimeControl {
    /// A time control; the base time must be positive.
    pub fn new(base: Duration, increment: Duration) -> Result<TimeControl, TimeControlError> {
        if base.is_zero() {
            return Err(TimeControlError {
                text: format!("{}+{}", base.as_secs_f64(), increment.as_secs_f64()),
                reason: "the base time must be positive",
            });
        }
        Ok(TimeControl { base, increment })
    }

    fn parse_with(text: &str, base_unit: f64) -> Result<TimeControl, TimeControlError> {
        let error = |reason| TimeControlError {
            text: text.to_owned(),
            reason,
        };
        let (base, increment) = text
            .split_once('+')
            .ok_or_else(|| error("no '+' between base time and increment"))?;
        let base = amount(base, base_unit).map_err(error)?;
        let increment = amount(increment, 1.0).map_err(error)?;
        if base.is_zero() {
            return Err(error("the base time must be positive"));
        }
        Ok(TimeControl { base, increment })
    }

    /// PGN's `TimeControl` tag for a single period: seconds, `300+3` (or `300`, no increment).
    pub fn from_pgn(text: &str) -> Result<TimeControl, TimeControlError> {
        if text.contains('+') {
            TimeControl::parse_with(text, 1.0)
        } else {
            TimeControl::parse_with(&format!("{text}+0"), 1.0).map_err(|e| TimeControlError {
                text: text.to_owned(),
                ..e
            })
        }
    }

    /// PGN's `TimeControl` tag: base and increment in seconds, `300+3`.
    pub fn to_pgn(&self) -> String {
        format!(
            "{}+{}",
            seconds_text(self.base),
            seconds_text(self.increment)
        )
    }
}

/// Whole seconds without a fraction, otherwise as many decimals as needed.
fn seconds_text(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        d.as_secs().to_string()
    } else {
        let text = format!("{}.{:09}", d.as_secs(), d.subsec_nanos());
        text.trim_end_matches('0').to_owned()
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Minutes plus seconds, as players write it: `5+3`, `90+30`, `0.5+0`; a number may carry
    /// its unit, `s` or `m` (`300s+0` is five minutes).
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        TimeControl::parse_with(text, 60.0)
    }
}

impl fmt::Display for TimeControl {
    /// The unambiguous form with units, which `FromStr` reads back: `300s+3s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}s+{}s",
            seconds_text(self.base),
            seconds_text(self.increment)
        )
    }
}
