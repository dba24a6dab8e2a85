//! The PGN text of one self-play game, written by the rules crate's PGN writer.

use crate::games::play::GameRecord;
use shatranj_pgn::write_mainline;

/// The game as PGN: the seven-tag roster (`Round` is the game index), `Termination` and
/// `PlyCount`, `SetUp`/`FEN` when the game did not start from the standard position, then
/// the moves in SAN, wrapped at 80 columns, ending with the result. A `chess960` game (or
/// one whose start has castling rights only Chess960 has) is tagged `Variant "Chess960"`, so
/// that readers take its FEN's castling rights as X-FEN, as python-chess does.
pub fn format_pgn(
    game: &GameRecord,
    event: &str,
    white: &str,
    black: &str,
    chess960: bool,
) -> String {
    let mut tags: Vec<(String, String)> = [
        ("Event", event.to_owned()),
        ("Round", game.index.to_string()),
        ("White", white.to_owned()),
        ("Black", black.to_owned()),
        ("Termination", game.termination.name().to_owned()),
        ("PlyCount", game.moves.len().to_string()),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_owned(), value))
    .collect();
    if chess960 || !game.start.castling_rights().is_standard() {
        tags.push(("Variant".to_owned(), "Chess960".to_owned()));
        // Also from number 518, the standard start: the game is still a Chess960 game.
        tags.push(("SetUp".to_owned(), "1".to_owned()));
        tags.push(("FEN".to_owned(), game.start.fen()));
    }
    match write_mainline(&tags, &game.start, &game.moves, game.result()) {
        Ok(text) => text + "\n",
        // Every move was played by the search from a legal move list.
        Err(e) => format!("{{ self-play game {}: {e} }}\n", game.index),
    }
}
