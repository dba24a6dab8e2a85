//! A game's PGN export (R7): the arbiter's tags, then the moves, a closing comment and the
//! result, written by this crate's writer. The rules crate's [`Game`] knows nothing of PGN, so
//! the export is the trait [`GamePgn`], which this crate implements for it.

use crate::{PgnGame, TAG_ROSTER, WriteOptions, is_tag_name, write_with_tags};
use core::fmt;
use shatranj_chess::Game;
use shatranj_chess::outcome::Termination;
use shatranj_chess::position::Position;

/// [`Game`] written as PGN.
pub trait GamePgn {
    /// The game in PGN: the seven-tag roster, `SetUp`/`FEN` for a game not from the start,
    /// `TimeControl` with a clock, `Termination` (PGN's values: `normal`, `time forfeit`,
    /// `rules infraction`, `unterminated`); then the SAN moves, a comment saying how the game
    /// ended, and the result. `tags` set the roster's values and add tags of their own;
    /// `Result`, `SetUp` and `FEN` always state the game's own.
    fn pgn(&self, tags: &[(&str, &str)]) -> Result<String, TagNameError>;
}

impl GamePgn for Game {
    fn pgn(&self, tags: &[(&str, &str)]) -> Result<String, TagNameError> {
        write(self, tags)
    }
}

/// Tags that state facts of the game itself, which callers cannot override.
const FACTS: [&str; 3] = ["Result", "SetUp", "FEN"];

/// A tag name PGN cannot hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagNameError {
    pub name: String,
}

impl fmt::Display for TagNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid PGN tag name {:?}: use letters, digits and _+#=:-, starting with a letter or digit",
            self.name
        )
    }
}

impl std::error::Error for TagNameError {}

/// PGN's `Termination` tag values (the standard's list): `normal` for every ending on the
/// board or by a player's decision, `time forfeit`, `rules infraction` for illegal moves,
/// `unterminated` while the game goes on.
fn termination_tag(termination: Option<Termination>) -> &'static str {
    match termination {
        None => "unterminated",
        Some(Termination::TimeForfeit) => "time forfeit",
        Some(Termination::IllegalMoves) => "rules infraction",
        Some(_) => "normal",
    }
}

fn write(game: &Game, tags: &[(&str, &str)]) -> Result<String, TagNameError> {
    if let Some((name, _)) = tags.iter().find(|(name, _)| !is_tag_name(name)) {
        return Err(TagNameError {
            name: (*name).to_owned(),
        });
    }
    let mut all: Vec<(String, String)> = TAG_ROSTER
        .iter()
        .map(|&(name, value)| (name.to_owned(), value.to_owned()))
        .collect();
    game.result().clone_into(&mut all[6].1);
    let start = *game.history().start();
    if start != Position::new() {
        all.push(("SetUp".to_owned(), "1".to_owned()));
        all.push(("FEN".to_owned(), start.fen()));
    }
    if let Some(tc) = game.time_control() {
        all.push(("TimeControl".to_owned(), tc.to_pgn()));
    }
    let termination = termination_tag(game.outcome().map(|o| o.termination));
    all.push(("Termination".to_owned(), termination.to_owned()));
    for &(name, value) in tags {
        if FACTS.contains(&name) {
            continue;
        }
        match all.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => value.clone_into(&mut slot.1),
            None => all.push((name.to_owned(), value.to_owned())),
        }
    }

    let mut record = PgnGame::new(start);
    let mut node = PgnGame::ROOT;
    for &m in game.moves() {
        node = record.add_child(node, m);
    }
    if let Some(description) = game.ending_description() {
        record.set_comment(node, &format!("{description}."));
    }
    let text = write_with_tags(&record, &all, game.result(), &WriteOptions::default())
        // The history only holds moves that were legal where they were played.
        .unwrap_or_else(|e| format!("{{ the game record is corrupt: {e} }}"));
    Ok(text + "\n\n")
}
