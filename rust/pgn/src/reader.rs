//! Reading games from a stream, one at a time, and a whole input in parallel.

use super::error::{PgnError, PgnErrorKind};
use super::parse::{AnyPgnGame, parse_any_game, parse_game};
use super::split::{GameSplitter, LineAction, RawGame};
use super::tree::PgnGame;
use rayon::prelude::*;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};

/// A streaming PGN reader: an iterator of games.
///
/// Each item is a sound game (`Ok`, possibly with minor problems in [`PgnGame::errors`]) or
/// the error that made a game unusable (`Err`, see [`PgnGame::fatal`]); either way the reader
/// goes on with the next game. [`games_read`](Self::games_read) and
/// [`games_skipped`](Self::games_skipped) count the two, so no game goes missing unseen. A read
/// error of the underlying stream is returned once, then the iterator ends.
///
/// Lines are decoded as UTF-8, and a line that is not UTF-8 as Latin-1 (older PGN files are).
pub struct PgnReader<R> {
    input: R,
    splitter: GameSplitter,
    line_no: usize,
    bytes: Vec<u8>,
    /// A line that begins the next game, read while finishing the previous one.
    pending: Option<String>,
    raw: RawGame,
    read: usize,
    skipped: usize,
    done: bool,
}

impl<R: BufRead> PgnReader<R> {
    pub fn new(input: R) -> PgnReader<R> {
        PgnReader {
            input,
            splitter: GameSplitter::new(),
            line_no: 0,
            bytes: Vec::new(),
            pending: None,
            raw: RawGame::default(),
            read: 0,
            skipped: 0,
            done: false,
        }
    }

    /// Games returned as `Ok` so far.
    pub fn games_read(&self) -> usize {
        self.read
    }

    /// Games returned as `Err` so far.
    pub fn games_skipped(&self) -> usize {
        self.skipped
    }

    /// The next game's raw text, without parsing it; `None` at the end of the input.
    pub fn next_raw(&mut self) -> Option<Result<RawGame, PgnError>> {
        if self.done {
            return None;
        }
        self.raw.text.clear();
        loop {
            let line = match self.pending.take() {
                Some(line) => line,
                None => match self.read_line() {
                    Ok(Some(line)) => line,
                    Ok(None) => {
                        self.done = true;
                        return self.splitter.in_game().then(|| Ok(self.take_raw()));
                    }
                    Err(e) => {
                        self.done = true;
                        return Some(Err(PgnError::new(
                            self.line_no,
                            PgnErrorKind::Io(e.to_string()),
                        )));
                    }
                },
            };
            let was_in_game = self.splitter.in_game();
            match self.splitter.feed(&line) {
                LineAction::Skip => {}
                LineAction::Take => {
                    if !was_in_game {
                        self.raw.first_line = self.line_no;
                    }
                    self.raw.text.push_str(line.trim_end_matches(['\n', '\r']));
                    self.raw.text.push('\n');
                }
                LineAction::End => return Some(Ok(self.take_raw())),
                LineAction::EndBefore => {
                    // Fed again for the next game, under the same line number.
                    self.pending = Some(line);
                    return Some(Ok(self.take_raw()));
                }
            }
        }
    }

    fn take_raw(&mut self) -> RawGame {
        RawGame {
            text: std::mem::take(&mut self.raw.text),
            first_line: self.raw.first_line,
        }
    }

    fn read_line(&mut self) -> std::io::Result<Option<String>> {
        self.bytes.clear();
        if self.input.read_until(b'\n', &mut self.bytes)? == 0 {
            return Ok(None);
        }
        self.line_no += 1;
        Ok(Some(decode(&self.bytes).into_owned()))
    }

    /// The next game under the rules its `Variant` tag names (see
    /// [`parse_any_game`](super::parse_any_game)); counted as the iterator counts games.
    pub fn next_any(&mut self) -> Option<Result<AnyPgnGame, PgnError>> {
        Some(match self.next_raw()? {
            Ok(raw) => {
                let game = parse_any_game(&raw);
                self.verdict(game.fatal_error()).map(|()| game)
            }
            Err(e) => Err(e),
        })
    }

    /// Counts a parsed game, read or skipped by its fatal error, which it returns.
    fn verdict(&mut self, fatal: Option<&PgnError>) -> Result<(), PgnError> {
        match fatal {
            None => {
                self.read += 1;
                Ok(())
            }
            Some(e) => {
                self.skipped += 1;
                Err(e.clone())
            }
        }
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(match self.next_raw()? {
            Ok(raw) => {
                let game = parse_game(&raw);
                self.verdict(game.fatal_error()).map(|()| game)
            }
            Err(e) => Err(e),
        })
    }
}

/// UTF-8, or Latin-1 for a line that is not UTF-8 (borrowed when it is UTF-8).
pub(crate) fn decode(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => std::borrow::Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// Everything [`read_all`] found: the sound games in input order, and the errors of the
/// games it skipped.
#[derive(Clone, Debug, Default)]
pub struct ReadReport {
    pub games: Vec<PgnGame>,
    pub skipped: Vec<PgnError>,
    /// Set when `stop` was raised before the end of the input.
    pub stopped: bool,
}

impl ReadReport {
    pub fn games_read(&self) -> usize {
        self.games.len()
    }

    pub fn games_skipped(&self) -> usize {
        self.skipped.len()
    }
}

/// Reads a whole input: games are cut from the stream on this thread and parsed in batches
/// on rayon's threads, in order. `stop` (checked between batches) ends the read early.
/// An I/O error ends it too and is the last entry of `skipped`.
pub fn read_all<R: BufRead>(input: R, stop: &AtomicBool) -> ReadReport {
    const BATCH: usize = 256;
    let mut reader = PgnReader::new(input);
    let mut report = ReadReport::default();
    let mut batch = Vec::with_capacity(BATCH);
    loop {
        let mut io_error = None;
        while batch.len() < BATCH {
            match reader.next_raw() {
                Some(Ok(raw)) => batch.push(raw),
                Some(Err(e)) => io_error = Some(e),
                None => break,
            }
        }
        let exhausted = batch.len() < BATCH;
        let parsed: Vec<PgnGame> = batch.par_iter().map(parse_game).collect();
        batch.clear();
        for game in parsed {
            match game.fatal_error() {
                None => report.games.push(game),
                Some(e) => report.skipped.push(e.clone()),
            }
        }
        report.skipped.extend(io_error);
        if exhausted {
            return report;
        }
        if stop.load(Ordering::Relaxed) {
            report.stopped = true;
            return report;
        }
    }
}
