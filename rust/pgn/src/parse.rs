//! One game's text into a [`PgnGame`].
//!
//! The tree is built as python-chess's `GameBuilder` builds it, so that both libraries read a
//! well-formed game into the same tree:
//! - a comment after a move (or before any move, at the root) is that node's comment; a
//!   comment after `(` or after another variation's end, before the next move, is the next
//!   move's starting comment; several comments in a row are joined with a space;
//! - NAGs and the suffixes `! ? !! ?? !? ?!` (R7.4, NAGs 1 … 6) go to the last move;
//! - `(` starts a variation: an alternative to the last move; `)` returns to the line it
//!   branched from;
//! - a bad move skips the rest of its variation — of the whole main line when it is in the
//!   main line, which makes the game untrustworthy (see [`PgnGame::fatal`]);
//! - a result in the main line is the termination marker; tokens after it are still read.
//!
//! Beyond python-chess: `;` comments are comments (python-chess drops them), and stray
//! tokens are reported rather than silently skipped.

use super::error::{PgnError, PgnErrorKind};
use super::lexer::{Lexer, Token};
use super::mainline::{MainLine, MainLineRead, read_mainline};
use super::rules::{GameRules, PgnPosition, variant_start};
use super::split::RawGame;
use super::tags::Tags;
use super::tree::{Nag, NodeId, PgnGame};
use super::{RESULTS, SUFFIX_NAGS};
use shatranj_chess::position::Position;
use shatranj_chess::san::SanError;
use shatranj_chess::variant::{AnyVariantPosition, VariantKind};

/// Reads one game's text (as cut by [`super::GameSplitter`]). Never fails: problems are in
/// [`PgnGame::errors`], and [`PgnGame::fatal`] says whether one of them spoils the game.
///
/// A database game (moves, comments after them, nothing else) is read by the lean main-line
/// reader and its tree built as a chain at once; any other goes through the tokens and the
/// tree builder. Both give the same tree (the main-line reader's tests hold it to that).
pub fn parse_game(raw: &RawGame) -> PgnGame {
    thread_local! {
        static LINE: std::cell::RefCell<MainLine> = std::cell::RefCell::new(MainLine::new());
    }
    let lean = LINE.with(|line| {
        let mut line = line.borrow_mut();
        (read_mainline(raw, &mut line) == MainLineRead::Complete && !line.annotated)
            .then(|| line.tree(raw))
    });
    lean.unwrap_or_else(|| parse_tree(raw))
}

/// A game read under the rules its `Variant` tag names: standard chess (and Chess960), or
/// one of the lichess variants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyPgnGame {
    Standard(PgnGame),
    Variant(PgnGame<AnyVariantPosition>),
}

impl AnyPgnGame {
    /// The problems met while reading (see [`PgnGame::errors`]).
    pub fn errors(&self) -> &[PgnError] {
        match self {
            AnyPgnGame::Standard(g) => &g.errors,
            AnyPgnGame::Variant(g) => &g.errors,
        }
    }

    /// The first problem that makes the game untrustworthy, if any.
    pub fn fatal_error(&self) -> Option<&PgnError> {
        match self {
            AnyPgnGame::Standard(g) => g.fatal_error(),
            AnyPgnGame::Variant(g) => g.fatal_error(),
        }
    }

    pub fn tags(&self) -> &Tags {
        match self {
            AnyPgnGame::Standard(g) => &g.tags,
            AnyPgnGame::Variant(g) => &g.tags,
        }
    }
}

/// Reads one game's text under the rules its `Variant` tag names (python-chess's names and
/// aliases, see [`GameRules::of_tag`]): a lichess variant's game with that variant's rules
/// (drops, explosions, antichess's captures and king promotions, …), anything else as
/// [`parse_game`] reads it. A `Variant` tag naming no known rules is reported in
/// [`PgnGame::errors`] ([`PgnErrorKind::UnknownVariant`]) and the game read as standard
/// chess, as python-chess reads it.
pub fn parse_any_game(raw: &RawGame) -> AnyPgnGame {
    let mut tags = Tags::new();
    let mut ignored = Vec::new();
    read_tag_section(raw, &mut tags, &mut ignored);
    match GameRules::of_tag(tags.get("Variant")) {
        Ok(GameRules::Variant(kind)) => AnyPgnGame::Variant(parse_variant_tree(raw, kind)),
        _ => AnyPgnGame::Standard(parse_game(raw)),
    }
}

/// [`parse_game`] through the tokens and the tree builder, whatever the game holds.
pub(crate) fn parse_tree(raw: &RawGame) -> PgnGame {
    let mut game = PgnGame::new(Position::new());
    game.first_line = raw.first_line;
    // A database game's tags (17 on lichess) in one allocation each for text and ends.
    game.tags = Tags::with_capacity(512, 24);
    let (rest, line_no) = read_tag_section(raw, &mut game.tags, &mut game.errors);
    // A scan of the tag section for a capital `V` spares most games a pass over the tags.
    let tag_section = &raw.text.as_bytes()[..raw.text.len() - rest.len()];
    let variant = memchr::memchr(b'V', tag_section).and_then(|_| game.tag("Variant"));
    let rules = GameRules::of_tag(variant);
    let start = match (&rules, game.tag("FEN")) {
        (Ok(GameRules::Variant(_)), _) => Err(PgnErrorKind::VariantGame {
            variant: variant.unwrap_or_default().to_owned(),
        }),
        (_, None) => Ok(Position::new()),
        (_, Some(text)) => {
            super::rules::start_position(text, variant).map_err(|e| PgnErrorKind::BadFen {
                fen: text.to_owned(),
                message: e.to_string(),
            })
        }
    };
    if let Err(unknown) = rules {
        // As python-chess: reported, and the game read as standard chess.
        let line = tag_line(raw, "[Variant");
        game.errors.push(PgnError::new(
            line,
            PgnErrorKind::UnknownVariant { name: unknown.name },
        ));
    }
    match start {
        Ok(start) => {
            game.start = start;
            read_movetext(&mut game, rest, line_no);
        }
        Err(kind) => {
            let tag = if matches!(kind, PgnErrorKind::BadFen { .. }) {
                "[FEN"
            } else {
                "[Variant"
            };
            mark_fatal(&mut game, PgnError::new(tag_line(raw, tag), kind));
        }
    }
    no_game(&mut game, raw);
    game
}

/// A lichess variant's game through the tokens and the tree builder.
pub(crate) fn parse_variant_tree(raw: &RawGame, kind: VariantKind) -> PgnGame<AnyVariantPosition> {
    let mut game = PgnGame::new(AnyVariantPosition::new(kind));
    game.first_line = raw.first_line;
    let (rest, line_no) = read_tag_section(raw, &mut game.tags, &mut game.errors);
    match variant_start(kind, game.tag("FEN")) {
        Ok(start) => {
            game.start = start;
            read_movetext(&mut game, rest, line_no);
        }
        Err(e) => {
            let kind = PgnErrorKind::BadFen {
                fen: game.tag("FEN").unwrap_or_default().to_owned(),
                message: e.to_string(),
            };
            mark_fatal(&mut game, PgnError::new(tag_line(raw, "[FEN"), kind));
        }
    }
    no_game(&mut game, raw);
    game
}

/// The line of the tag section where the tag `prefix` (`[FEN`) stands.
fn tag_line(raw: &RawGame, prefix: &str) -> usize {
    raw.first_line
        + raw
            .text
            .lines()
            .position(|l| l.trim_start().starts_with(prefix))
            .unwrap_or(0)
}

/// Reads the movetext `rest` (whose first line is `line_no`) into `game`'s tree.
fn read_movetext<P: PgnPosition>(game: &mut PgnGame<P>, rest: &str, line_no: usize) {
    // Comments are at most the movetext; a database game's are about half of it. A move
    // number stands before every move or two: room for the nodes at once, not a growing
    // copy per doubling.
    game.reserve_comments(rest.len() / 2);
    let numbers = memchr::memchr_iter(b'.', rest.as_bytes()).count();
    game.nodes.reserve(2 * numbers + 8);
    Builder::new(game).run(Lexer::new(rest, line_no));
    game.trim_comments();
    if game.nodes.capacity() > 2 * game.nodes.len() + 16 {
        game.nodes.shrink_to_fit();
    }
}

/// Junk text: nothing of a game was found, only problems.
fn no_game<P: PgnPosition>(game: &mut PgnGame<P>, raw: &RawGame) {
    if game.tags.is_empty()
        && game.nodes.len() == 1
        && game.fatal.is_none()
        && let Some(first) = game.errors.first().cloned()
    {
        let text = raw.text.trim().chars().take(40).collect();
        mark_fatal(
            game,
            PgnError::new(first.line, PgnErrorKind::NoGame { text }),
        );
    }
}

/// Reads the tag section (tag lines, blank lines and escape lines up to the first other line)
/// into `tags`, a line that is not a tag pair into `errors`; returns the rest of the text
/// and the number of its first line.
pub(crate) fn read_tag_section<'t>(
    raw: &'t RawGame,
    tags: &mut Tags,
    errors: &mut Vec<PgnError>,
) -> (&'t str, usize) {
    let mut line_no = raw.first_line;
    let mut rest = raw.text.as_str();
    while !rest.is_empty() {
        let (line, after) = match memchr::memchr(b'\n', rest.as_bytes()) {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, ""),
        };
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            if !tags.push_line(line) {
                errors.push(PgnError::new(
                    line_no,
                    PgnErrorKind::BadTag {
                        text: trimmed.to_owned(),
                    },
                ));
            }
        } else if !(trimmed.is_empty() || line.starts_with('%')) {
            break;
        }
        rest = after;
        line_no += 1;
    }
    (rest, line_no)
}

/// A word without its move number (`12.`, `12...`, or a bare `12`), which may be glued to the
/// move (`12.e4`); empty when the word is only a move number.
pub(crate) fn split_move_number(word: &str) -> &str {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
    if digits == word.len() || dots > 0 {
        &word[digits + dots..]
    } else {
        word
    }
}

fn mark_fatal<P: PgnPosition>(game: &mut PgnGame<P>, error: PgnError) {
    game.errors.push(error);
    if game.fatal.is_none() {
        game.fatal = Some(game.errors.len() - 1);
    }
}

/// A variation being read: its current node, the position there and the position before
/// the node's move (where a variation of that move starts). The positions are played lean
/// ([`Position::play_lean`]): enough to resolve and check moves.
struct Frame<P> {
    node: NodeId,
    pos: P,
    /// The position at the node's parent; `None` until known (a frame opened by `(` starts
    /// at a node whose parent's position was not kept: see [`Builder::position_at`]).
    before: Option<P>,
}

struct Builder<'g, P: PgnPosition> {
    game: &'g mut PgnGame<P>,
    /// The main line's frame, then one per open variation.
    stack: Vec<Frame<P>>,
    starting_comment: String,
    /// A move has been read since the last `(`: comments now follow moves.
    in_variation: bool,
    /// Open parentheses inside a variation being skipped after a bad move; 0 when reading.
    skip: usize,
}

impl<'g, P: PgnPosition> Builder<'g, P> {
    fn new(game: &'g mut PgnGame<P>) -> Builder<'g, P> {
        let start = game.start;
        Builder {
            game,
            stack: vec![Frame {
                node: PgnGame::ROOT,
                pos: start,
                before: None,
            }],
            starting_comment: String::new(),
            in_variation: false,
            skip: 0,
        }
    }

    /// The position at `node`, replayed from the start (for the rare variation that opens
    /// where no frame kept the position).
    fn position_at(&self, node: NodeId) -> P {
        let mut moves = Vec::new();
        let mut at = node;
        while let Some(parent) = self.game.nodes[at].parent() {
            moves.extend(self.game.nodes[at].mv);
            at = parent;
        }
        let mut pos = self.game.start;
        for &m in moves.iter().rev() {
            pos.play_exact(m);
        }
        pos
    }

    fn error(&mut self, line: usize, kind: PgnErrorKind) {
        self.game.errors.push(PgnError::new(line, kind));
    }

    fn top(&self) -> &Frame<P> {
        self.stack
            .last()
            .expect("the main line's frame is never popped")
    }

    fn run(mut self, lexer: Lexer<'_>) {
        let mut last_line = lexer.line();
        for (token, line) in lexer {
            last_line = line;
            match token {
                Token::Open => self.open(),
                Token::Close => self.close(line),
                _ if self.skip > 0 => {}
                Token::Comment(text) | Token::LineComment(text) => self.comment(text),
                Token::UnterminatedComment(text) => {
                    self.comment(text.strip_prefix(' ').unwrap_or(text));
                    mark_fatal(
                        self.game,
                        PgnError::new(line, PgnErrorKind::UnterminatedComment),
                    );
                }
                Token::Nag(text) => match text.parse::<Nag>() {
                    Ok(nag) => self.nag(nag),
                    Err(_) => self.error(
                        line,
                        PgnErrorKind::BadNag {
                            text: format!("${text}"),
                        },
                    ),
                },
                Token::Word(word) => self.word(word, line),
            }
        }
        if self.stack.len() > 1 {
            self.error(last_line, PgnErrorKind::UnterminatedVariation);
        }
    }

    fn open(&mut self) {
        if self.skip > 0 {
            self.skip += 1;
            return;
        }
        let top = self.top();
        let node = top.node;
        // As python-chess: a `(` before any move of the game has nothing to vary; ignored.
        if let Some(parent) = self.game.nodes[node].parent() {
            let pos = match top.before {
                Some(pos) => pos,
                None => self.position_at(parent),
            };
            self.stack.push(Frame {
                node: parent,
                pos,
                before: None,
            });
            self.in_variation = false;
        }
    }

    fn close(&mut self, line: usize) {
        if self.skip > 0 {
            self.skip -= 1;
            if self.skip > 0 {
                return;
            }
            if self.stack.len() == 1 {
                // Skipping the rest of the main line: a stray `)` does not end that.
                self.skip = 1;
                return;
            }
        } else if self.stack.len() == 1 {
            self.error(line, PgnErrorKind::UnmatchedParenthesis);
            return;
        }
        self.stack.pop();
    }

    fn comment(&mut self, text: &str) {
        let node = self.top().node;
        let at_empty_root = node == PgnGame::ROOT && self.game.nodes[node].main_child().is_none();
        if self.in_variation || at_empty_root {
            self.game.append_comment(node, text);
        } else {
            append_comment(&mut self.starting_comment, text);
        }
    }

    fn nag(&mut self, nag: Nag) {
        let node = self.top().node;
        self.game.nodes[node].add_nag(nag);
    }

    fn word(&mut self, word: &str, line: usize) {
        // Results begin with `1`, `0` or `*`: most words (moves) are not compared at all.
        if matches!(word.as_bytes().first(), Some(b'1' | b'0' | b'*')) && RESULTS.contains(&word) {
            if self.stack.len() == 1 {
                let result = &mut self.game.movetext_result;
                if result.as_deref().is_none_or(|r| r == "*") {
                    *result = Some(word.to_owned());
                }
            } else {
                self.error(
                    line,
                    PgnErrorKind::ResultInVariation {
                        text: word.to_owned(),
                    },
                );
            }
            return;
        }
        let san = split_move_number(word);
        if san.is_empty() {
            return;
        }
        // Suffixes (R7.4): `e4!?`, or alone after the move (`e4 !?`).
        let mut end = san.len();
        while end > 0 && matches!(san.as_bytes()[end - 1], b'!' | b'?') {
            end -= 1;
        }
        let core = &san[..end];
        let suffix = &san[core.len()..];
        if !core.is_empty() {
            self.san(core, line);
            if self.skip > 0 {
                return;
            }
        }
        if !suffix.is_empty() {
            match SUFFIX_NAGS.iter().find(|(s, _)| *s == suffix) {
                Some(&(_, nag)) => self.nag(nag),
                None => self.error(
                    line,
                    PgnErrorKind::BadSuffix {
                        text: suffix.to_owned(),
                    },
                ),
            }
        }
    }

    fn san(&mut self, text: &str, line: usize) {
        let null = P::null_move().filter(|_| {
            matches!(text.as_bytes()[0], b'-' | b'Z' | b'0' | b'@')
                && matches!(text, "--" | "Z0" | "0000" | "@@@@")
        });
        let kind = if let Some(null) = null {
            // A null move passes the turn, as in python-chess; not out of check.
            if self.top().pos.is_check() {
                Err(PgnErrorKind::NullMove {
                    text: text.to_owned(),
                })
            } else {
                Ok(null)
            }
        } else {
            let top = self.top();
            match top.pos.parse_san(text) {
                Ok(mv) => Ok(mv),
                Err(e @ SanError::Invalid { .. }) => Err(PgnErrorKind::Move(e)),
                // The frame's position is lean (no clocks): an illegal or ambiguous move's
                // error names the exact position, replayed.
                Err(_) => self
                    .position_at(top.node)
                    .parse_san(text)
                    .map_err(PgnErrorKind::Move),
            }
        };
        match kind {
            Ok(mv) => {
                let frame = self.stack.last_mut().expect("main line frame");
                let node = self.game.add_child(frame.node, mv);
                frame.before = Some(frame.pos);
                frame.pos.play_lean(mv);
                frame.node = node;
                if !self.starting_comment.is_empty() {
                    self.game.set_starting_comment(node, &self.starting_comment);
                    self.starting_comment.clear();
                }
                self.in_variation = true;
            }
            // Text that is not a move at all is reported and passed over (python-chess
            // skips it silently); a move that is illegal or ambiguous here cuts the line.
            Err(kind @ PgnErrorKind::Move(SanError::Invalid { .. })) => self.error(line, kind),
            Err(kind) => {
                let error = PgnError::new(line, kind);
                if self.stack.len() == 1 {
                    mark_fatal(self.game, error);
                } else {
                    self.game.errors.push(error);
                }
                self.skip = 1;
            }
        }
    }
}

/// Joins comments as python-chess does: with one space, empty parts dropped.
fn append_comment(target: &mut String, text: &str) {
    if text.is_empty() {
        return;
    }
    if !target.is_empty() {
        target.push(' ');
    }
    target.push_str(text);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reader plays its positions lean (no clocks), but an illegal move's error names
    /// the exact position, move clocks included; a variation's too.
    #[test]
    fn illegal_move_errors_name_the_exact_position() {
        let raw = RawGame {
            text: "1. e4 e5 2. Nf3 (2. Bc4 Nf6 3. Kd3) Nc6 3. Ke3 *\n".to_owned(),
            first_line: 1,
        };
        let game = parse_game(&raw);
        let fens: Vec<String> = game
            .errors
            .iter()
            .map(|e| match &e.kind {
                PgnErrorKind::Move(SanError::Illegal { fen, .. }) => fen.clone(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            fens,
            [
                "rnbqkb1r/pppp1ppp/5n2/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3",
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            ]
        );
        assert_eq!(game.fatal, Some(1));
    }
}
