//! Writing games as PGN text.
//!
//! The output is python-chess's `StringExporter`'s, token for token, so a game written by
//! either library reads the same in both: tags one per line and a blank line; then the
//! movetext as tokens (`12.` / `12...` move numbers, SAN with `+`/`#`, `$n` NAGs, `{ comment }`,
//! `( variation )`, the result), each followed by a space, a line broken before a token that
//! would pass `columns`. A black move gets its number (`12...`) at the start of the movetext
//! and after a comment or a variation. Variations are written after the move they replace.

use super::rules::PgnPosition;
use super::tags::escape;
use super::tree::{NodeId, PgnGame, roster_first};
use shatranj_chess::Color;
use shatranj_chess::moves::Move;
use shatranj_chess::position::{IllegalMoveError, Position};

/// What to write and how wide.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Break movetext lines before this many characters; `None` writes one line.
    pub columns: Option<usize>,
    pub headers: bool,
    pub comments: bool,
    pub variations: bool,
}

impl Default for WriteOptions {
    /// 80 columns (the PGN standard's limit), everything written.
    fn default() -> Self {
        WriteOptions {
            columns: Some(80),
            headers: true,
            comments: true,
            variations: true,
        }
    }
}

/// Writes a game: the seven-tag roster first (see [`PgnGame::roster_tags`]), the other tags,
/// then the movetext ending with [`PgnGame::result`]. Fails on a move that is illegal where
/// it stands in the tree (a game read by [`super::PgnReader`] has none).
pub fn write_game<P: PgnPosition>(
    game: &PgnGame<P>,
    options: &WriteOptions,
) -> Result<String, P::IllegalMove> {
    write_with_tags(game, &game.roster_tags(), game.result(), options)
}

/// Writes a game with exactly these tags, in this order, and this result at the end of
/// the movetext (python-chess writes its `Headers` this way).
pub fn write_with_tags<P: PgnPosition>(
    game: &PgnGame<P>,
    tags: &[(String, String)],
    result: &str,
    options: &WriteOptions,
) -> Result<String, P::IllegalMove> {
    let mut w = Writer {
        options: *options,
        out: String::new(),
        line: String::new(),
        line_chars: 0,
        force_number: true,
    };
    if options.headers && !tags.is_empty() {
        for (name, value) in tags {
            w.write_line(&format!("[{name} \"{}\"]", escape(value)));
        }
        w.write_line("");
    }
    let root = game.node(PgnGame::ROOT);
    if !game.comment(PgnGame::ROOT).is_empty() {
        w.comment(game.comment(PgnGame::ROOT));
    }
    if let Some(first) = root.main_child() {
        w.line_from(game, first, game.start)?;
    }
    w.token(&format!("{result} "));
    w.flush();
    Ok(w.out.trim_end().to_owned())
}

/// The PGN of a game given as its moves from `start`: what a game arbiter or a self-play
/// loop records. `tags` go after the seven-tag roster, which is completed with `?`
/// defaults and `result` (`1-0`, `0-1`, `1/2-1/2` or `*`); `FEN` and `SetUp` tags are
/// added when `start` is not the standard position and `tags` lack them. Movetext is
/// wrapped at 80 columns. Fails when a move is illegal where it is played.
///
/// ```
/// use shatranj_chess::{Position, uci::UciMove};
/// use shatranj_pgn::write_mainline;
///
/// let start = Position::new();
/// let mut pos = start;
/// let mut moves = Vec::new();
/// for text in ["f2f3", "e7e5", "g2g4", "d8h4"] {
///     let m = UciMove::parse(text).unwrap().to_move(&pos).unwrap();
///     pos.play(m).unwrap();
///     moves.push(m);
/// }
/// let tags = vec![("White".to_owned(), "Fool".to_owned()), ("Termination".to_owned(), "normal".to_owned())];
/// let pgn = write_mainline(&tags, &start, &moves, "0-1").unwrap();
/// assert_eq!(pgn, "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
///                  [White \"Fool\"]\n[Black \"?\"]\n[Result \"0-1\"]\n[Termination \"normal\"]\n\n\
///                  1. f3 e5 2. g4 Qh4# 0-1");
/// ```
pub fn write_mainline(
    tags: &[(String, String)],
    start: &Position,
    moves: &[Move],
    result: &str,
) -> Result<String, IllegalMoveError> {
    let mut game = PgnGame::new(*start);
    game.tags = tags.iter().map(|(k, v)| (k, v)).collect();
    game.set_tag("Result", result);
    if *start != Position::new() && game.tag("FEN").is_none() {
        game.set_tag("SetUp", "1");
        game.set_tag("FEN", &start.fen());
    }
    let mut node = PgnGame::ROOT;
    for &m in moves {
        node = game.add_child(node, m);
    }
    let tags = roster_first(&game.tags, result);
    write_with_tags(&game, &tags, result, &WriteOptions::default())
}

struct Writer {
    options: WriteOptions,
    out: String,
    line: String,
    /// `line`'s length in characters (python-chess counts characters, not bytes).
    line_chars: usize,
    force_number: bool,
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Step {
    Node,
    Variations,
    Done,
}

/// A line being written: its current node, the position before that node's move, and the
/// sibling variations still to write after it.
struct Frame<P> {
    node: NodeId,
    before: P,
    step: Step,
    sideline: Option<NodeId>,
    in_variation: bool,
}

impl Writer {
    fn flush(&mut self) {
        if !self.line.is_empty() {
            self.out.push_str(self.line.trim_end());
            self.out.push('\n');
        }
        self.line.clear();
        self.line_chars = 0;
    }

    fn write_line(&mut self, text: &str) {
        self.flush();
        self.out.push_str(text.trim_end());
        self.out.push('\n');
    }

    fn token(&mut self, token: &str) {
        let chars = token.chars().count();
        if let Some(columns) = self.options.columns
            && self.line_chars + chars > columns
        {
            self.flush();
        }
        self.line.push_str(token);
        self.line_chars += chars;
    }

    fn comment(&mut self, text: &str) {
        if self.options.comments {
            let text = text.replace('}', "");
            self.token(&format!("{{ {} }} ", text.trim()));
            self.force_number = true;
        }
    }

    /// A line of play from `first` (whose parent position is `before`) to its end, with the
    /// variations branching from it; iterative, so deep nesting cannot overflow the stack.
    fn line_from<P: PgnPosition>(
        &mut self,
        game: &PgnGame<P>,
        first: NodeId,
        before: P,
    ) -> Result<(), P::IllegalMove> {
        let mut stack = vec![Frame {
            node: first,
            before,
            step: Step::Node,
            sideline: game.node(first).next_sibling(),
            in_variation: false,
        }];
        while let Some(top) = stack.last_mut() {
            if top.in_variation {
                top.in_variation = false;
                self.token(") ");
                self.force_number = true;
            }
            match top.step {
                Step::Node => {
                    let (node, before) = (top.node, top.before);
                    top.step = Step::Variations;
                    self.node(game, node, &before)?;
                }
                Step::Variations => {
                    if let Some(sideline) = top.sideline.filter(|_| self.options.variations) {
                        top.sideline = game.node(sideline).next_sibling();
                        top.in_variation = true;
                        let before = top.before;
                        self.token("( ");
                        self.force_number = true;
                        stack.push(Frame {
                            node: sideline,
                            before,
                            step: Step::Node,
                            sideline: None,
                            in_variation: false,
                        });
                    } else {
                        top.step = Step::Done;
                        let node = game.node(top.node);
                        if let (Some(child), Some(mv)) = (node.main_child(), node.mv) {
                            let mut after = top.before;
                            // Legal: checked when the node was written.
                            after.play_exact(mv);
                            stack.push(Frame {
                                node: child,
                                before: after,
                                step: Step::Node,
                                sideline: game.node(child).next_sibling(),
                                in_variation: false,
                            });
                        }
                    }
                }
                Step::Done => {
                    stack.pop();
                }
            }
        }
        Ok(())
    }

    fn node<P: PgnPosition>(
        &mut self,
        game: &PgnGame<P>,
        id: NodeId,
        before: &P,
    ) -> Result<(), P::IllegalMove> {
        let node = game.node(id);
        let mv = node.mv.expect("only the root has no move");
        before.check_legal(mv)?;
        if !game.starting_comment(id).is_empty() {
            self.comment(game.starting_comment(id));
        }
        let number = before.fullmove_number();
        if before.turn() == Color::White {
            self.token(&format!("{number}. "));
        } else if self.force_number {
            self.token(&format!("{number}... "));
        }
        let mut san = before.san(mv);
        san.push(' ');
        self.token(&san);
        self.force_number = false;
        if self.options.comments {
            for nag in &node.nags {
                self.token(&format!("${nag} "));
            }
        }
        if !game.comment(id).is_empty() {
            self.comment(game.comment(id));
        }
        Ok(())
    }
}
