//! A game's PGN export (R7): tags, SAN movetext and the result.
//!
//! The movetext is written by one small function, [`movetext`], so that a full PGN writer
//! (comments, NAGs, variations) can take its place without touching the rest.

use super::Game;
use crate::moves::Move;
use crate::outcome::Termination;
use crate::position::Position;
use crate::san;
use crate::types::Color;
use core::fmt;

/// The seven-tag roster, in PGN's order, with the placeholders for unknown values.
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Tags that state facts of the game itself, which callers cannot override.
const FACTS: [&str; 3] = ["Result", "SetUp", "FEN"];

/// A tag name PGN cannot hold: names are letters, digits and underscores, starting with a
/// letter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagNameError {
    pub name: String,
}

impl fmt::Display for TagNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid PGN tag name {:?}: use letters, digits and underscores, starting with a letter",
            self.name
        )
    }
}

impl std::error::Error for TagNameError {}

fn valid_tag_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// SAN movetext with move numbers: `1. e4 e5 2. Nf3`, or `1... e5 2. Nf3` from a position
/// with Black to move. The moves must be legal in turn from `start`.
pub fn movetext(start: &Position, moves: &[Move]) -> String {
    let mut pos = *start;
    let mut out = String::new();
    for (i, &m) in moves.iter().enumerate() {
        if !out.is_empty() {
            out.push(' ');
        }
        if pos.turn() == Color::White {
            out.push_str(&format!("{}. ", pos.fullmove_number()));
        } else if i == 0 {
            out.push_str(&format!("{}... ", pos.fullmove_number()));
        }
        out.push_str(&san::to_san(&pos, m));
        pos.play_unchecked(m);
    }
    out
}

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

/// A PGN string token: quotes and backslashes escaped, line breaks and other control
/// characters (which a tag cannot hold) turned into spaces.
fn quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Words joined by spaces into lines of at most 80 columns (a longer word stands alone).
fn wrap(text: &str) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if line > 0 && line + 1 + word.len() > 80 {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}

pub(super) fn write(game: &Game, tags: &[(&str, &str)]) -> Result<String, TagNameError> {
    if let Some((name, _)) = tags.iter().find(|(name, _)| !valid_tag_name(name)) {
        return Err(TagNameError {
            name: (*name).to_owned(),
        });
    }
    let mut all: Vec<(String, String)> = ROSTER
        .iter()
        .map(|&(name, value)| (name.to_owned(), value.to_owned()))
        .collect();
    all[6].1 = game.result().to_owned();
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
            Some(slot) => slot.1 = value.to_owned(),
            None => all.push((name.to_owned(), value.to_owned())),
        }
    }

    let mut out = String::new();
    for (name, value) in &all {
        out.push_str(&format!("[{name} {}]\n", quoted(value)));
    }
    out.push('\n');
    let mut body = movetext(&start, game.moves());
    if let Some(description) = game.ending_description() {
        // A comment cannot contain its closing brace.
        let description = description.replace('}', ")");
        body.push_str(&format!(" {{ {description}. }}"));
    }
    body.push(' ');
    body.push_str(game.result());
    out.push_str(&wrap(&body));
    out.push_str("\n\n");
    Ok(out)
}
