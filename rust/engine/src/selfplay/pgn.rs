//! The PGN text of one self-play game, in one function so that a fuller PGN writer can
//! replace it without touching the rest of self-play.

use super::game::GameRecord;
use shatranj_chess::san::to_san;
use shatranj_chess::{Color, Position};

/// Movetext lines are wrapped before this many characters (PGN's export format: 80).
const LINE_WIDTH: usize = 79;

/// The game as PGN: the seven-tag roster (`Round` is the game index), `SetUp`/`FEN` when the
/// game did not start from the standard position, `Termination` and `PlyCount`, then the
/// moves in SAN, wrapped at 79 characters, ending with the result.
pub fn format_pgn(game: &GameRecord, event: &str, white: &str, black: &str) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{name} \"{escaped}\"]\n"));
    };
    let result = game.result();
    tag("Event", event);
    tag("Site", "?");
    tag("Date", "????.??.??");
    tag("Round", &game.index.to_string());
    tag("White", white);
    tag("Black", black);
    tag("Result", result);
    if game.start != Position::new() {
        tag("SetUp", "1");
        tag("FEN", &game.start.fen());
    }
    tag("Termination", game.termination.name());
    tag("PlyCount", &game.moves.len().to_string());
    out.push('\n');

    let mut pos = game.start;
    let mut tokens = Vec::with_capacity(game.moves.len() * 3 / 2 + 1);
    for (i, &m) in game.moves.iter().enumerate() {
        let number = pos.fullmove_number();
        if pos.turn() == Color::White {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(to_san(&pos, m));
        pos.play_unchecked(m);
    }
    tokens.push(result.to_owned());
    let mut line_len = 0;
    for t in tokens {
        if line_len > 0 && line_len + 1 + t.len() > LINE_WIDTH {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&t);
        line_len += t.len();
    }
    out.push('\n');
    out
}
