//! The game model: tag pairs, the start position and a tree of moves.
//!
//! The tree is an arena: nodes live in one `Vec` and point at each other by index (parent,
//! first child, next sibling), so a game of any size is a handful of allocations and a node
//! can be named by a plain number across the Python boundary. Node 0 is the root, the
//! position before the first move; every other node is the position after its `mv`.
//!
//! Comments live in one text per game ([`PgnGame::comment`] reads a node's, [`PgnGame::set_comment`]
//! writes it): a database game has a `[%clk]` comment on every move, and a `String` per node
//! was the reader's largest cost after move generation.

use super::error::PgnError;
use super::rules::PgnPosition;
use super::tags::Tags;
use super::{RESULTS, TAG_ROSTER};
use shatranj_chess::moves::Move;
use shatranj_chess::position::Position;

/// A Numeric Annotation Glyph (`$1` … `$255`); `!` is 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6.
pub type Nag = u8;

/// An index into [`PgnGame::nodes`].
pub type NodeId = usize;

/// One node of the move tree; `M` is the rules' move ([`Move`] in standard chess).
#[derive(Clone, Debug)]
pub struct Node<M = Move> {
    /// The move that led here; `None` only for the root.
    pub mv: Option<M>,
    /// Text after the move (for the root: before the first move): a span of the game's
    /// comment text, see [`PgnGame::comment`].
    comment: Span,
    /// Text before the move, written only where the node starts a variation
    /// ([`PgnGame::starting_comment`]).
    starting_comment: Span,
    /// Annotation glyphs, sorted and without repeats (a set, as in python-chess).
    pub nags: Vec<Nag>,
    parent: Link,
    first_child: Link,
    last_child: Link,
    next_sibling: Link,
}

/// Where a comment lies in [`PgnGame`]'s comment text.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Span {
    start: u32,
    len: u32,
}

impl Span {
    fn end(self) -> usize {
        self.start as usize + self.len as usize
    }

    fn range(self) -> core::ops::Range<usize> {
        self.start as usize..self.end()
    }
}

/// A node index in 32 bits, `NONE` for no node: four links cost 16 bytes instead of 64, and
/// a game has one node per move, so the tree stays small in cache and in memory.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Link(u32);

impl Link {
    const NONE: Link = Link(u32::MAX);

    fn to(id: NodeId) -> Link {
        // A game of four billion moves does not fit in memory long before this.
        Link(u32::try_from(id).expect("fewer than 2^32 nodes"))
    }

    fn get(self) -> Option<NodeId> {
        (self != Link::NONE).then_some(self.0 as NodeId)
    }
}

impl Default for Link {
    fn default() -> Link {
        Link::NONE
    }
}

impl<M> Default for Node<M> {
    fn default() -> Self {
        Node {
            mv: None,
            comment: Span::default(),
            starting_comment: Span::default(),
            nags: Vec::new(),
            parent: Link::NONE,
            first_child: Link::NONE,
            last_child: Link::NONE,
            next_sibling: Link::NONE,
        }
    }
}

impl<M> Node<M> {
    pub fn parent(&self) -> Option<NodeId> {
        self.parent.get()
    }

    /// The main continuation (the first variation).
    pub fn main_child(&self) -> Option<NodeId> {
        self.first_child.get()
    }

    /// The next variation of the parent, after this one.
    pub fn next_sibling(&self) -> Option<NodeId> {
        self.next_sibling.get()
    }

    /// Adds a NAG, keeping the list sorted and free of repeats.
    pub fn add_nag(&mut self, nag: Nag) {
        if let Err(i) = self.nags.binary_search(&nag) {
            self.nags.insert(i, nag);
        }
    }
}

/// A game read from (or to be written to) PGN, played under the rules of `P`: standard chess
/// (and Chess960) by default, a lichess variant with
/// [`AnyVariantPosition`](shatranj_chess::variant::AnyVariantPosition).
#[derive(Clone, Debug)]
pub struct PgnGame<P: PgnPosition = Position> {
    /// Tag pairs in the order they were read (or added).
    pub tags: Tags,
    /// The position before the first move: the `FEN` tag's, else the rules' start.
    pub start: P,
    /// The move tree; `nodes[0]` is the root.
    pub nodes: Vec<Node<P::Move>>,
    /// The game termination marker of the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub movetext_result: Option<String>,
    /// Every problem met while reading, in order, with line numbers.
    pub errors: Vec<PgnError>,
    /// The index in `errors` of the first problem that makes the game untrustworthy: a bad
    /// move in the main line (the rest of it is lost), a bad `FEN` tag, a comment that never
    /// closed, or text without any game in it. `None` for a sound game.
    pub fatal: Option<usize>,
    /// The 1-based line where the game's text began.
    pub first_line: usize,
    /// Every node's comments, one after another (a replaced comment leaves its old text
    /// unused here).
    comments: String,
}

/// Games are equal when they read the same: the comment text's layout does not count.
impl<P: PgnPosition> PartialEq for PgnGame<P> {
    fn eq(&self, other: &PgnGame<P>) -> bool {
        self.tags == other.tags
            && self.start == other.start
            && self.movetext_result == other.movetext_result
            && self.errors == other.errors
            && self.fatal == other.fatal
            && self.first_line == other.first_line
            && self.nodes.len() == other.nodes.len()
            && self
                .nodes
                .iter()
                .zip(&other.nodes)
                .enumerate()
                .all(|(id, (a, b))| {
                    a.mv == b.mv
                        && a.nags == b.nags
                        && (a.parent, a.first_child, a.last_child, a.next_sibling)
                            == (b.parent, b.first_child, b.last_child, b.next_sibling)
                        && self.comment(id) == other.comment(id)
                        && self.starting_comment(id) == other.starting_comment(id)
                })
    }
}

impl<P: PgnPosition> Eq for PgnGame<P> {}

impl Default for PgnGame {
    fn default() -> Self {
        PgnGame::new(Position::new())
    }
}

impl PgnGame {
    /// The root node's index.
    pub const ROOT: NodeId = 0;
}

impl<P: PgnPosition> PgnGame<P> {
    /// A game without tags or moves from `start`.
    pub fn new(start: P) -> PgnGame<P> {
        PgnGame {
            tags: Tags::new(),
            start,
            nodes: vec![Node::default()],
            movetext_result: None,
            errors: Vec::new(),
            fatal: None,
            first_line: 1,
            comments: String::new(),
        }
    }

    /// The comment after node `id`'s move (for the root: before the first move).
    pub fn comment(&self, id: NodeId) -> &str {
        &self.comments[self.nodes[id].comment.range()]
    }

    /// The comment before node `id`'s move, written where the node starts a variation.
    pub fn starting_comment(&self, id: NodeId) -> &str {
        &self.comments[self.nodes[id].starting_comment.range()]
    }

    pub fn set_comment(&mut self, id: NodeId, text: &str) {
        self.nodes[id].comment = self.store(text);
    }

    pub fn set_starting_comment(&mut self, id: NodeId, text: &str) {
        self.nodes[id].starting_comment = self.store(text);
    }

    /// Room for `bytes` more bytes of comments (the reader reserves once per game).
    pub(crate) fn reserve_comments(&mut self, bytes: usize) {
        self.comments.reserve(bytes);
    }

    /// Gives back the room reserved for comments when much of it went unused (a game read
    /// into Python may be kept for long).
    pub(crate) fn trim_comments(&mut self) {
        if self.comments.capacity() > 2 * self.comments.len() + 256 {
            self.comments.shrink_to_fit();
        }
    }

    fn store(&mut self, text: &str) -> Span {
        if text.is_empty() {
            return Span::default();
        }
        let start = self.comments.len();
        self.comments.push_str(text);
        Span {
            start: u32::try_from(start).expect("comments under 4 GB per game"),
            len: text.len() as u32,
        }
    }

    /// Joins `text` to node `id`'s comment as python-chess joins comments in a row: with one
    /// space, empty parts dropped. In place when the comment is the last text stored.
    pub(crate) fn append_comment(&mut self, id: NodeId, text: &str) {
        if text.is_empty() {
            return;
        }
        let span = self.nodes[id].comment;
        if span.len == 0 {
            self.nodes[id].comment = self.store(text);
            return;
        }
        if span.end() != self.comments.len() {
            let old = span.range();
            let start = self.comments.len();
            self.comments.extend_from_within(old);
            self.nodes[id].comment.start = start as u32;
        }
        self.comments.push(' ');
        self.comments.push_str(text);
        self.nodes[id].comment.len += 1 + text.len() as u32;
    }

    pub fn node(&self, id: NodeId) -> &Node<P::Move> {
        &self.nodes[id]
    }

    pub fn node_mut(&mut self, id: NodeId) -> &mut Node<P::Move> {
        &mut self.nodes[id]
    }

    /// Adds `mv` as the last variation after `parent` and returns the new node. The move is
    /// not checked here (the writer checks every move, see [`super::write_game`]).
    pub fn add_child(&mut self, parent: NodeId, mv: P::Move) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(Node {
            mv: Some(mv),
            parent: Link::to(parent),
            ..Node::default()
        });
        match self.nodes[parent].last_child.get() {
            Some(last) => self.nodes[last].next_sibling = Link::to(id),
            None => self.nodes[parent].first_child = Link::to(id),
        }
        self.nodes[parent].last_child = Link::to(id);
        id
    }

    /// The variations after `id`, main line first.
    pub fn children(&self, id: NodeId) -> Children<'_, P> {
        Children {
            game: self,
            next: self.nodes[id].main_child(),
        }
    }

    /// The main line's nodes after the root.
    pub fn mainline(&self) -> impl Iterator<Item = NodeId> + '_ {
        core::iter::successors(self.nodes[PgnGame::ROOT].main_child(), |&id| {
            self.nodes[id].main_child()
        })
    }

    /// The main line's moves.
    pub fn mainline_moves(&self) -> Vec<P::Move> {
        self.mainline().filter_map(|id| self.nodes[id].mv).collect()
    }

    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.get(name)
    }

    /// Sets a tag, replacing the first one of that name or adding it at the end.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        self.tags.set(name, value);
    }

    /// The result: the `Result` tag unless missing or `*`, else the movetext's termination
    /// marker, else `*` (python-chess gives the same, by copying the marker into the tag).
    pub fn result(&self) -> &str {
        match self.tag("Result") {
            Some(r) if r != "*" => r,
            _ => self.movetext_result.as_deref().unwrap_or("*"),
        }
    }

    /// The first problem that makes the game untrustworthy, if any.
    pub fn fatal_error(&self) -> Option<&PgnError> {
        self.fatal.map(|i| &self.errors[i])
    }

    /// Whether `text` is one of the four results.
    pub fn is_result(text: &str) -> bool {
        RESULTS.contains(&text)
    }

    /// The tags as they are written: the seven-tag roster first, in its order, with `?`
    /// (`????.??.??` for the date, the game's [`result`](Self::result) for `Result`) for a
    /// missing one; then the others in order.
    pub fn roster_tags(&self) -> Vec<(String, String)> {
        roster_first(&self.tags, self.result())
    }
}

/// `tags` with the seven-tag roster first (defaults for missing ones, `result` for a missing
/// `Result`), then the other tags in their order.
pub(crate) fn roster_first(tags: &Tags, result: &str) -> Vec<(String, String)> {
    let mut out = Vec::with_capacity(tags.len() + TAG_ROSTER.len());
    for (name, default) in TAG_ROSTER {
        let value = tags
            .get(name)
            .unwrap_or(if name == "Result" { result } else { default });
        let value = if name == "Result" && value == "*" {
            result
        } else {
            value
        };
        out.push((name.to_owned(), value.to_owned()));
    }
    for (k, v) in tags {
        if !TAG_ROSTER.iter().any(|&(name, _)| name == k) {
            out.push((k.to_owned(), v.to_owned()));
        }
    }
    out
}

/// Iterator over a node's variations.
pub struct Children<'a, P: PgnPosition = Position> {
    game: &'a PgnGame<P>,
    next: Option<NodeId>,
}

impl<P: PgnPosition> Iterator for Children<'_, P> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        let id = self.next?;
        self.next = self.game.nodes[id].next_sibling();
        Some(id)
    }
}
