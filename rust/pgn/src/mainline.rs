//! A game's main line without its tree: what a table of games needs (tags, moves, the comment
//! after each move, the result), read in one pass with no allocation per move.
//!
//! [`read_mainline`] handles the movetext databases write: move numbers, SAN, `{ }` comments,
//! NAGs and suffixes, results. Anything else — a variation, a `;` or `%` comment, a second
//! comment after one move, a null move, a move that does not resolve, a broken `FEN` tag, a
//! game without tags — makes it answer [`MainLineRead::Partial`], and the caller reads the game with
//! [`super::parse_game`] instead. So whatever it reads, it reads as the tree would: the same
//! tags, the main line's moves, each node's comment and the result (a differential test
//! holds it to that).

use super::RESULTS;
use super::parse::{read_tag_section, split_move_number};
use super::rules::GameRules;
use super::split::RawGame;
use super::tags::Tags;
use super::tree::PgnGame;
use shatranj_chess::moves::Move;
use shatranj_chess::position::Position;
use shatranj_chess::san;

/// What [`read_mainline`] made of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MainLineRead {
    /// The game was read: see the [`MainLine`].
    Complete,
    /// The game holds something only the tree reader reads; the [`MainLine`] is partial.
    Partial,
}

/// A game's tags and main line. Kept and refilled from game to game, so reading one costs
/// no allocation once the buffers have grown.
#[derive(Clone, Debug, Default)]
pub struct MainLine {
    pub tags: Tags,
    /// The position before the first move.
    pub start: Position,
    pub moves: Vec<Move>,
    /// The comment after each move, as a byte range of the game's text (empty for none).
    comments: Vec<(u32, u32)>,
    /// The movetext's termination marker, if any.
    pub movetext_result: Option<&'static str>,
    pub first_line: usize,
    /// The game also holds what a main line leaves out and its tree keeps: NAGs or move
    /// suffixes, a comment before the first move, a tag line that is not a tag pair.
    pub annotated: bool,
}

impl MainLine {
    pub fn new() -> MainLine {
        MainLine::default()
    }

    /// The comment after move `i` (0-based), taken from the game's `text`.
    pub fn comment<'t>(&self, text: &'t str, i: usize) -> &'t str {
        let (start, end) = self.comments[i];
        &text[start as usize..end as usize]
    }

    /// The result, as [`super::PgnGame::result`] gives it.
    pub fn result(&self) -> &str {
        match self.tags.get("Result") {
            Some(r) if r != "*" => r,
            _ => self.movetext_result.unwrap_or("*"),
        }
    }

    fn clear(&mut self) {
        self.tags.clear();
        self.start = Position::new();
        self.moves.clear();
        self.comments.clear();
        self.movetext_result = None;
        self.annotated = false;
    }

    /// The game's tree, as [`super::parse_game`] reads it, for a game read without
    /// annotations (see [`MainLine::annotated`]): a chain of nodes with their comments.
    pub(crate) fn tree(&self, raw: &RawGame) -> PgnGame {
        debug_assert!(!self.annotated);
        let mut game = PgnGame::new(self.start);
        game.first_line = raw.first_line;
        game.tags = self.tags.clone();
        game.movetext_result = self.movetext_result.map(str::to_owned);
        game.nodes.reserve_exact(self.moves.len());
        let bytes = self.comments.iter().map(|&(a, b)| (b - a) as usize).sum();
        game.reserve_comments(bytes);
        let mut node = PgnGame::ROOT;
        for (i, &mv) in self.moves.iter().enumerate() {
            node = game.add_child(node, mv);
            let comment = self.comment(&raw.text, i);
            if !comment.is_empty() {
                game.set_comment(node, comment);
            }
        }
        game
    }
}

/// The bytes that end a word: whitespace and `{ } ( ) ; $` (as the lexer's).
static DELIMITER: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        table[i] = b.is_ascii_whitespace() || matches!(b, b'{' | b'}' | b'(' | b')' | b';' | b'$');
        i += 1;
    }
    table
};

/// Reads `raw` into `out` (see the module docs).
pub fn read_mainline(raw: &RawGame, out: &mut MainLine) -> MainLineRead {
    out.clear();
    out.first_line = raw.first_line;
    let mut errors = Vec::new();
    let (rest, _) = read_tag_section(raw, &mut out.tags, &mut errors);
    out.annotated = !errors.is_empty();
    if out.tags.is_empty() {
        // Maybe no game at all: the tree reader decides.
        return MainLineRead::Partial;
    }
    // Most games have no `Variant` tag: one SIMD scan of the tag section for its capital `V`
    // is cheaper than a second pass over the tags (a tag value may hold a `V` too).
    let tag_section = &raw.text.as_bytes()[..raw.text.len() - rest.len()];
    let variant = memchr::memchr(b'V', tag_section).and_then(|_| out.tags.get("Variant"));
    if let Some(name) = variant
        && !matches!(
            GameRules::of_tag(Some(name)),
            Ok(GameRules::Standard | GameRules::Chess960)
        )
    {
        // A variant's game, or a tag naming no known rules: the tree reader's business.
        return MainLineRead::Partial;
    }
    if let Some(text) = out.tags.get("FEN") {
        match super::rules::start_position(text, variant) {
            Ok(pos) => out.start = pos,
            Err(_) => return MainLineRead::Partial,
        }
    }
    let base = raw.text.len() - rest.len();
    let bytes = rest.as_bytes();
    let mut pos = out.start;
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let b = bytes[i];
        if line_start && b == b'%' {
            return MainLineRead::Partial;
        }
        line_start = b == b'\n';
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        match b {
            b'{' => {
                let Some(len) = memchr::memchr(b'}', &bytes[i + 1..]) else {
                    return MainLineRead::Partial;
                };
                let (mut start, mut end) = (i + 1, i + 1 + len);
                i = end + 1;
                if bytes[start..end].first() == Some(&b' ') {
                    start += 1;
                }
                if end > start && bytes[end - 1] == b' ' {
                    end -= 1;
                }
                // An empty comment adds nothing; one before the first move is the root's.
                if start == end {
                    continue;
                }
                if out.moves.is_empty() {
                    out.annotated = true;
                    continue;
                }
                let last = out.comments.last_mut().expect("a comment per move");
                if last.1 > last.0 {
                    // Comments in a row are joined: the tree reader's business.
                    return MainLineRead::Partial;
                }
                *last = ((base + start) as u32, (base + end) as u32);
            }
            b'(' | b')' | b';' | b'}' => return MainLineRead::Partial,
            _ => {
                let start = i;
                i += 1;
                while i < bytes.len() && !DELIMITER[bytes[i] as usize] {
                    i += 1;
                }
                // A NAG or a suffix only annotates: nothing of it is in a main line's data.
                if b == b'$' {
                    out.annotated = true;
                    continue;
                }
                let word = &rest[start..i];
                // Results and move numbers begin with a digit, `*` or `.`; a move never does.
                let san = if matches!(b, b'0'..=b'9' | b'*' | b'.') {
                    // Most such words are move numbers alone (`12.`, `12...`): nothing to read.
                    let w = word.as_bytes();
                    let digits = w.iter().take_while(|c| c.is_ascii_digit()).count();
                    if w[digits..].iter().all(|&c| c == b'.') {
                        continue;
                    }
                    if let Some(&result) = RESULTS.iter().find(|&&r| r == word) {
                        if out.movetext_result.is_none_or(|r| r == "*") {
                            out.movetext_result = Some(result);
                        }
                        continue;
                    }
                    split_move_number(word)
                } else {
                    word
                };
                let core = san.trim_end_matches(['!', '?']);
                out.annotated |= core.len() < san.len();
                if core.is_empty() {
                    continue;
                }
                if matches!(core, "--" | "Z0" | "0000" | "@@@@") {
                    return MainLineRead::Partial;
                }
                let Ok(mv) = san::parse_san(&pos, core) else {
                    return MainLineRead::Partial;
                };
                pos.play_lean(mv);
                out.moves.push(mv);
                out.comments.push((0, 0));
            }
        }
    }
    MainLineRead::Complete
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks that whatever the lean reader reads, it reads as the tree does; returns whether
    /// it read the game.
    fn agrees(text: &str) -> bool {
        let raw = RawGame {
            text: text.to_owned(),
            first_line: 3,
        };
        let mut lean = MainLine::new();
        let outcome = read_mainline(&raw, &mut lean);
        let tree = super::super::parse::parse_tree(&raw);
        if outcome == MainLineRead::Partial {
            return false;
        }
        assert!(tree.fatal.is_none(), "{text:?}: {:?}", tree.errors);
        assert_eq!(lean.tags, tree.tags, "{text:?}");
        assert_eq!(lean.start, tree.start, "{text:?}");
        assert_eq!(lean.moves, tree.mainline_moves(), "{text:?}");
        let comments: Vec<&str> = tree.mainline().map(|id| tree.comment(id)).collect();
        let lean_comments: Vec<&str> = (0..lean.moves.len())
            .map(|i| lean.comment(&raw.text, i))
            .collect();
        assert_eq!(lean_comments, comments, "{text:?}");
        assert_eq!(lean.result(), tree.result(), "{text:?}");
        assert_eq!(lean.first_line, tree.first_line);
        if !lean.annotated {
            assert_eq!(lean.tree(&raw), tree, "{text:?}");
        }
        true
    }

    /// Movetext of every kind, read by both readers: where the lean one reads, it agrees.
    #[test]
    fn agrees_with_the_tree() {
        let tags = "[Event \"x\"]\n[Result \"*\"]\n\n";
        let read = [
            "1. e4 { [%clk 0:03:00] } e5 { [%clk 0:02:59] } 2. Nf3 Nc6 1-0",
            "1. e4 {  two spaces  } 1... e5 {} { x } 2. Nf3 *",
            "{ root } 1. e4 e5!? 2. Nf3 $1 Nc6?? 0-1 3. Bb5",
            "1.e4 e5 2.Nf3 Nf6 3.Nxe5 d6 4.Nf3 Nxe4 5.d4 d5 1/2-1/2",
            "1. e4 d5 2. e5 f5 3. exf6 gxf6 4. Qh5+ Kd7 *",
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O Be7 5. d4 exd4 6. e5 Ne4 7. Bd5 Nc5 *",
        ];
        for movetext in read {
            assert!(agrees(&format!("{tags}{movetext}\n")), "{movetext}");
        }
        let unusual = [
            "1. e4 (1. d4 d5) e5 *",
            "1. e4 e5 ; a line comment\n2. Nf3 *",
            "1. e4 e5\n%escape\n2. Nf3 *",
            "1. e4 { a } { b } e5 *",
            "1. e4 -- 2. Nf3 *",
            "1. e4 e5 2. Ke3 *",
            "1. e4 { never closed",
            "1. e4 } e5 *",
        ];
        for movetext in unusual {
            assert!(!agrees(&format!("{tags}{movetext}\n")), "{movetext}");
        }
        // No tags: the tree decides whether it is a game at all.
        assert!(!agrees("1. e4 e5 *\n"));
        // A FEN tag sets the start; a broken one is the tree's.
        assert!(agrees(
            "[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O Kd7 *\n"
        ));
        assert!(!agrees("[FEN \"4k3/8/8 w - - 0 1\"]\n\n1. Kd2 *\n"));
    }

    /// Random legal games with random annotations: the lean reader reads every one that has
    /// nothing unusual, and agrees with the tree (fixed seed).
    #[test]
    fn agrees_on_random_games() {
        let seed = 0x004C_EA4E_u64;
        println!("mainline seed {seed:#x}");
        let mut next = crate::xorshift(seed);
        let (mut read, mut total) = (0, 0);
        for _ in 0..400 {
            let mut pos = Position::new();
            let mut text = String::from("[Event \"r\"]\n[Result \"*\"]\n\n");
            for ply in 0..(next() % 120) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(next() % moves.len() as u64) as usize];
                if ply % 2 == 0 {
                    text.push_str(&format!("{}. ", ply / 2 + 1));
                }
                text.push_str(&san::to_san(&pos, mv));
                match next() % 8 {
                    0 => text.push_str(" { [%clk 0:01:02] }"),
                    1 => text.push_str(" { [%eval 0.25] [%clk 0:00:09] }"),
                    2 => text.push_str(" $14"),
                    3 => text.push('!'),
                    _ => {}
                }
                text.push(if next().is_multiple_of(10) { '\n' } else { ' ' });
                pos.play_unchecked(mv);
            }
            text.push_str("*\n");
            total += 1;
            read += usize::from(agrees(&text));
        }
        assert_eq!(read, total, "every plain game is read lean");
    }
}
