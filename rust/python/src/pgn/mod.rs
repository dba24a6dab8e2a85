//! The native half of `shatranj.pgn`: reading games into the rules crate's `PgnGame`, handing
//! the tree to Python a level at a time, and writing PGN.
//!
//! Python's `Game` and nodes (python/shatranj/pgn/_tree.py) wrap a `PgnTree` and build node
//! objects only when they are visited, so reading a game costs the Rust parse plus a few
//! objects.
//!
//! The room: this file (one game as a tree, whole files, writing, comment annotations),
//! `stream.rs` (games streamed from a path, a file object or stdin, a batch at a time) and
//! `table.rs` (games straight into Arrow columns for `to_arrow`, over the buffers of
//! `arrow_columns.rs`).

pub mod arrow_columns;
pub mod stream;
pub mod table;

use crate::rules::moves::{self, Move, key_of};
use crate::rules::resolve::resolve;
use crate::variant::keys::{find, key_of_move};
use crate::worker::run_interruptible;
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use shatranj_chess::variant::{AnyVariantPosition, VariantKind, VariantMove};
use shatranj_chess::{Position, SanError, fen};
use shatranj_pgn::{
    AnyPgnGame, GameSplitter, LineAction, PgnError, PgnErrorKind, PgnGame, PgnPosition, RawGame,
    WriteOptions, parse_any_game, read_all, scan_tags, variant_start, write_with_tags,
};
use std::fs::File;
use std::io::BufReader;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A parsed game, shared read-only with Python: a standard (or Chess960) game, or a lichess
/// variant's, as its `Variant` tag says.
#[pyclass(module = "shatranj._core", frozen)]
pub struct PgnTree {
    game: AnyTree,
}

enum AnyTree {
    Standard(Arc<PgnGame>),
    Variant(Arc<PgnGame<AnyVariantPosition>>),
}

/// `$body` with `$g` bound to the tree's game, whatever its rules.
macro_rules! with_game {
    ($tree:expr, $g:ident => $body:expr) => {
        match &$tree.game {
            AnyTree::Standard($g) => $body,
            AnyTree::Variant($g) => $body,
        }
    };
}

/// python-chess's key of a move of a game's tree (castling as the king's move, which a
/// Chess960 board accepts too).
trait TreeMove: Copy {
    fn key(self) -> u16;
    /// The move as a variant's, for a variant game's tree.
    fn variant(self) -> Option<VariantMove>;
}

impl TreeMove for shatranj_chess::Move {
    fn key(self) -> u16 {
        key_of(self)
    }

    fn variant(self) -> Option<VariantMove> {
        None
    }
}

impl TreeMove for VariantMove {
    fn variant(self) -> Option<VariantMove> {
        Some(self)
    }

    fn key(self) -> u16 {
        match self {
            VariantMove::Drop { role, to } => moves::drop_key(role, to),
            VariantMove::Board(mv) => key_of(mv),
        }
    }
}

fn node_key<M: TreeMove>(mv: Option<M>) -> u16 {
    mv.map_or(moves::NULL_KEY, TreeMove::key)
}

/// An error as `(line, kind, message)`; `kind` picks the Python exception: "invalid",
/// "illegal", "ambiguous" (the move errors) or "pgn".
pub(crate) type ErrorTuple = (usize, &'static str, String);

pub(crate) fn error_tuple_of(e: &PgnError) -> ErrorTuple {
    error_tuple(e)
}

/// A tree over a game already shared.
pub(crate) fn tree_of(game: Arc<PgnGame>) -> PgnTree {
    PgnTree {
        game: AnyTree::Standard(game),
    }
}

fn error_tuple(e: &PgnError) -> ErrorTuple {
    let kind = match &e.kind {
        PgnErrorKind::Move(SanError::Invalid { .. }) => "invalid",
        PgnErrorKind::Move(SanError::Illegal { .. }) | PgnErrorKind::NullMove { .. } => "illegal",
        PgnErrorKind::Move(SanError::Ambiguous { .. }) => "ambiguous",
        _ => "pgn",
    };
    (e.line, kind, e.to_string())
}

/// One child node for Python: `(index, move, comment, starting_comment, nags)`.
type ChildTuple<'py> = (usize, Bound<'py, Move>, String, String, Vec<u8>);

#[pymethods]
impl PgnTree {
    /// Tag pairs in file order.
    fn tags(&self) -> Vec<(String, String)> {
        with_game!(self, g => g.tags.to_vec())
    }

    /// The movetext's termination marker, if any.
    #[getter]
    fn movetext_result(&self) -> Option<String> {
        with_game!(self, g => g.movetext_result.clone())
    }

    /// Every problem met while reading, in order.
    fn errors(&self) -> Vec<ErrorTuple> {
        with_game!(self, g => g.errors.iter().map(error_tuple).collect())
    }

    /// Whether a problem makes the game untrustworthy (the bulk reader skips such games).
    #[getter]
    fn fatal(&self) -> bool {
        with_game!(self, g => g.fatal.is_some())
    }

    #[getter]
    fn first_line(&self) -> usize {
        with_game!(self, g => g.first_line)
    }

    /// The FEN of the start position.
    fn start_fen(&self) -> String {
        with_game!(self, g => g.start.fen())
    }

    /// python-chess's `uci_variant` of the rules the game was read under; `None` for
    /// standard chess and Chess960.
    #[getter]
    fn variant(&self) -> Option<&'static str> {
        match &self.game {
            AnyTree::Standard(_) => None,
            AnyTree::Variant(g) => Some(g.start.kind().uci_name()),
        }
    }

    /// The root's comment.
    #[getter]
    fn root_comment(&self) -> String {
        with_game!(self, g => g.comment(PgnGame::ROOT).to_owned())
    }

    /// The variations after node `index`, main line first.
    fn children<'py>(&self, py: Python<'py>, index: usize) -> PyResult<Vec<ChildTuple<'py>>> {
        self.check(index)?;
        let keys = self.keys_from(index);
        with_game!(self, g => g
            .children(index)
            .map(|id| {
                let node = g.node(id);
                Ok((
                    id,
                    moves::move_object(py, keys.key(node.mv))?,
                    g.comment(id).to_owned(),
                    g.starting_comment(id).to_owned(),
                    node.nags.clone(),
                ))
            })
            .collect())
    }

    /// Whether node `index` has any variation.
    fn has_children(&self, index: usize) -> PyResult<bool> {
        self.check(index)?;
        Ok(with_game!(self, g => g.node(index).main_child().is_some()))
    }

    /// The main line's moves after node `index`.
    fn mainline_moves<'py>(
        &self,
        py: Python<'py>,
        index: usize,
    ) -> PyResult<Vec<Bound<'py, Move>>> {
        self.check(index)?;
        let mut keys = self.keys_from(index);
        with_game!(self, g => {
            let mut out = Vec::new();
            let mut next = g.node(index).main_child();
            while let Some(id) = next {
                let node = g.node(id);
                out.push(moves::move_object(py, keys.key(node.mv))?);
                keys.play(node.mv);
                next = node.main_child();
            }
            Ok(out)
        })
    }

    /// PGN of this tree with the given tags (written as given), result and root comment
    /// (the one thing Python may have changed without expanding the tree).
    #[pyo3(signature = (tags, result, columns, headers, comments, variations, root_comment))]
    #[allow(clippy::too_many_arguments)]
    fn write(
        &self,
        tags: Vec<(String, String)>,
        result: &str,
        columns: Option<usize>,
        headers: bool,
        comments: bool,
        variations: bool,
        root_comment: String,
    ) -> PyResult<String> {
        let options = WriteOptions {
            columns,
            headers,
            comments,
            variations,
        };
        with_game!(self, g => {
            let written = if root_comment == g.comment(PgnGame::ROOT) {
                write_with_tags(&**g, &tags, result, &options)
            } else {
                let mut game = (**g).clone();
                game.set_comment(PgnGame::ROOT, &root_comment);
                write_with_tags(&game, &tags, result, &options)
            };
            written.map_err(|e| PyValueError::new_err(e.to_string()))
        })
    }
}

/// Move keys of a tree's moves. python-chess writes a Chess960 castling move as the king
/// taking its rook, so a variant game in Chess960 mode keys its moves from the position
/// before them (`Some`, kept up to date by `play`); every other game's keys are the moves'
/// own.
struct Keys(Option<AnyVariantPosition>);

impl Keys {
    fn key<M: TreeMove>(&self, mv: Option<M>) -> u16 {
        match (&self.0, mv.and_then(TreeMove::variant)) {
            (Some(pos), Some(m)) => shatranj_chess::on_any_variant!(pos, p => key_of_move(p, m)),
            _ => node_key(mv),
        }
    }

    fn play<M: TreeMove>(&mut self, mv: Option<M>) {
        if let (Some(pos), Some(m)) = (&mut self.0, mv.and_then(TreeMove::variant)) {
            pos.play_unchecked(m);
        }
    }
}

impl PgnTree {
    /// The keys of the moves after node `index`.
    fn keys_from(&self, index: usize) -> Keys {
        let AnyTree::Variant(g) = &self.game else {
            return Keys(None);
        };
        if !g.start.castling_mode().is_chess960() {
            return Keys(None);
        }
        let mut path = Vec::new();
        let mut at = index;
        while let Some(parent) = g.node(at).parent() {
            path.extend(g.node(at).mv);
            at = parent;
        }
        let mut pos = g.start;
        for &m in path.iter().rev() {
            pos.play_unchecked(m);
        }
        Keys(Some(pos))
    }

    fn check(&self, index: usize) -> PyResult<()> {
        if index < with_game!(self, g => g.nodes.len()) {
            Ok(())
        } else {
            Err(PyValueError::new_err(format!(
                "no node {index} in this game"
            )))
        }
    }
}

fn tree(game: AnyPgnGame) -> PgnTree {
    PgnTree {
        game: match game {
            AnyPgnGame::Standard(g) => AnyTree::Standard(Arc::new(g)),
            AnyPgnGame::Variant(g) => AnyTree::Variant(Arc::new(g)),
        },
    }
}

/// What `pgn_read_game` makes of the game it cut: the parsed tree, only the tag pairs
/// (`read_headers`: the movetext is never parsed), or nothing (`skip_game`).
#[derive(Copy, Clone, PartialEq, Eq)]
enum ReadMode {
    Game,
    Headers,
    Skip,
}

/// A game read by `pgn_read_game`, in the form its mode asks for.
#[derive(IntoPyObject)]
pub enum ReadItem {
    Tree(PgnTree),
    Headers(Vec<(String, String)>),
    Skipped(bool),
}

fn finish(raw: &RawGame, mode: ReadMode) -> ReadItem {
    match mode {
        ReadMode::Game => ReadItem::Tree(tree(parse_any_game(raw))),
        ReadMode::Headers => ReadItem::Headers(scan_tags(raw)),
        ReadMode::Skip => ReadItem::Skipped(true),
    }
}

/// Reads the next game from a text handle, line by line with `readline()` as python-chess
/// does. `pending` is a line read before, which begins this game. Returns the game (`None`
/// at the end of the input) and a line that begins the next game, if one was read. `mode`
/// is `"game"`, `"headers"` (the tag pairs only) or `"skip"` (`True`).
#[pyfunction]
#[pyo3(signature = (handle, pending, line_no, mode = "game"))]
pub fn pgn_read_game(
    handle: &Bound<'_, PyAny>,
    pending: Option<String>,
    line_no: usize,
    mode: &str,
) -> PyResult<(Option<ReadItem>, Option<String>, usize)> {
    let mode = match mode {
        "game" => ReadMode::Game,
        "headers" => ReadMode::Headers,
        "skip" => ReadMode::Skip,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown read mode {mode:?} (want \"game\", \"headers\" or \"skip\")"
            )));
        }
    };
    let mut splitter = GameSplitter::new();
    let mut raw = RawGame::default();
    let mut line_no = line_no;
    let mut pending = pending;
    let readline = handle.getattr("readline")?;
    loop {
        let owned;
        let line: &str = if let Some(line) = pending.take() {
            owned = line;
            &owned
        } else {
            let obj = readline.call0()?;
            let text = obj.cast::<PyString>().map_err(|_| {
                PyTypeError::new_err(
                    "read_game needs a file opened in text mode (readline() must return str)",
                )
            })?;
            let text = text.to_cow()?;
            if text.is_empty() {
                let game = splitter.in_game().then(|| finish(&raw, mode));
                return Ok((game, None, line_no));
            }
            line_no += 1;
            owned = if line_no == 1 {
                // A UTF-8 byte-order mark read as text (a file opened as "utf-8", not
                // "utf-8-sig") starts the first line; python-chess skips it.
                text.strip_prefix('\u{feff}').unwrap_or(&text).to_owned()
            } else {
                text.into_owned()
            };
            &owned
        };
        let was_in_game = splitter.in_game();
        match splitter.feed(line) {
            LineAction::Skip => {}
            LineAction::Take => {
                if !was_in_game {
                    raw.first_line = line_no;
                }
                raw.text.push_str(line.trim_end_matches(['\n', '\r']));
                raw.text.push('\n');
            }
            LineAction::End => return Ok((Some(finish(&raw, mode)), None, line_no)),
            LineAction::EndBefore => {
                return Ok((Some(finish(&raw, mode)), Some(line.to_owned()), line_no));
            }
        }
    }
}

/// Games of a whole PGN file, with the errors of those skipped.
#[pyclass(module = "shatranj._core", frozen)]
pub struct PgnBatch {
    games: Vec<Arc<PgnGame>>,
    skipped: Vec<PgnError>,
}

#[pymethods]
impl PgnBatch {
    fn __len__(&self) -> usize {
        self.games.len()
    }

    fn game(&self, index: usize) -> PyResult<PgnTree> {
        self.games
            .get(index)
            .map(|g| tree_of(Arc::clone(g)))
            .ok_or_else(|| PyValueError::new_err(format!("no game {index}")))
    }

    #[getter]
    fn read(&self) -> usize {
        self.games.len()
    }

    #[getter]
    fn skipped(&self) -> usize {
        self.skipped.len()
    }

    /// The skipped games' errors.
    fn errors(&self) -> Vec<ErrorTuple> {
        self.skipped.iter().map(error_tuple).collect()
    }
}

/// Reads every game of the file at `path` on worker threads, without the GIL; Ctrl-C stops
/// it (`KeyboardInterrupt`).
#[pyfunction]
pub fn pgn_read_file(py: Python<'_>, path: std::path::PathBuf) -> PyResult<PgnBatch> {
    let file = File::open(&path)
        .map_err(|e| PyOSError::new_err(format!("cannot open {}: {e}", path.display())))?;
    let stop = Arc::new(AtomicBool::new(false));
    let job = {
        let stop = Arc::clone(&stop);
        move || read_all(BufReader::with_capacity(1 << 20, file), &stop)
    };
    let report = run_interruptible(
        py,
        "pgn",
        Duration::from_millis(20),
        job,
        || stop.store(true, Ordering::Relaxed),
        || Ok(()),
    )?;
    Ok(PgnBatch {
        games: report.games.into_iter().map(Arc::new).collect(),
        skipped: report.skipped,
    })
}

/// One node for `pgn_write`: `(parent, move, comment, starting_comment, nags)`; the parent is
/// an index into the same list, which starts with the root (whose parent and move are ignored)
/// and lists every node after its parent, variations in order.
type NodeTuple<'py> = (usize, Bound<'py, Move>, String, String, Vec<u8>);

/// PGN of a tree built in Python: `fen` is the start position (`None`: the rules' own);
/// `variant` a lichess variant's `uci_variant` (`None`: standard chess).
#[pyfunction]
#[pyo3(signature = (tags, fen, nodes, result, columns, headers, comments, variations, variant = None))]
#[allow(clippy::too_many_arguments)]
pub fn pgn_write(
    tags: Vec<(String, String)>,
    fen: Option<&str>,
    nodes: Vec<NodeTuple<'_>>,
    result: &str,
    columns: Option<usize>,
    headers: bool,
    comments: bool,
    variations: bool,
    variant: Option<&str>,
) -> PyResult<String> {
    let options = WriteOptions {
        columns,
        headers,
        comments,
        variations,
    };
    let written = match variant {
        None => {
            let start = match fen {
                None => Position::new(),
                Some(text) => fen::parse(text).map_err(|e| PyValueError::new_err(e.to_string()))?,
            };
            let game = build_tree(start, nodes, |before, key| {
                let m = resolve(before, key);
                before.after(m).ok().map(|after| (m, after))
            })?;
            write_with_tags(&game, &tags, result, &options).map_err(|e| e.to_string())
        }
        Some(name) => {
            let kind = VariantKind::from_name(name)
                .ok_or_else(|| PyValueError::new_err(format!("unknown variant {name:?}")))?;
            let start =
                variant_start(kind, fen).map_err(|e| PyValueError::new_err(e.to_string()))?;
            let game = build_tree(start, nodes, |before, key| {
                let m =
                    shatranj_chess::on_any_variant!(before, p => find(p, &p.legal_moves(), key))?;
                let mut after = *before;
                after.play_unchecked(m);
                Some((m, after))
            })?;
            write_with_tags(&game, &tags, result, &options).map_err(|e| e.to_string())
        }
    };
    written.map_err(PyValueError::new_err)
}

/// The tree `nodes` lists (see [`NodeTuple`]) from `start`; `play` resolves a move key in a
/// position into the move and the position after it (`None`: not legal there).
fn build_tree<P: PgnPosition>(
    start: P,
    nodes: Vec<NodeTuple<'_>>,
    play: impl Fn(&P, u16) -> Option<(P::Move, P)>,
) -> PyResult<PgnGame<P>> {
    let mut game = PgnGame::new(start);
    // Arena id and position of each listed node.
    let mut placed: Vec<(usize, P)> = Vec::with_capacity(nodes.len());
    for (i, (parent, mv, comment, starting_comment, nags)) in nodes.into_iter().enumerate() {
        let id = if i == 0 {
            placed.push((PgnGame::ROOT, start));
            PgnGame::ROOT
        } else {
            let &(parent_id, before) =
                placed.get(parent).filter(|_| parent < i).ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "node {i}: parent {parent} is not listed before it"
                    ))
                })?;
            let key = mv.get().key;
            let (m, after) = play(&before, key).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "illegal move {} in {}",
                    moves::uci_of(key),
                    before.fen()
                ))
            })?;
            let id = game.add_child(parent_id, m);
            placed.push((id, after));
            id
        };
        game.set_comment(id, &comment);
        game.set_starting_comment(id, &starting_comment);
        let node = game.node_mut(id);
        for nag in nags {
            node.add_nag(nag);
        }
    }
    Ok(game)
}

/// The first well-formed `[%clk …]` of a comment, in seconds.
#[pyfunction]
pub fn pgn_clock(comment: &str) -> Option<f64> {
    shatranj_pgn::annotations::clock(comment)
}

/// The first well-formed `[%emt …]` of a comment, in seconds.
#[pyfunction]
pub fn pgn_emt(comment: &str) -> Option<f64> {
    shatranj_pgn::annotations::emt(comment)
}

/// The first well-formed `[%eval …]`: `("cp" | "mate", value from White's view, depth)`.
#[pyfunction]
pub fn pgn_eval(comment: &str) -> Option<(&'static str, i64, Option<u32>)> {
    use shatranj_pgn::annotations::{Eval, eval};
    eval(comment).map(|c| match c.eval {
        Eval::Cp(v) => ("cp", v, c.depth),
        Eval::Mate(v) => ("mate", v, c.depth),
    })
}

/// Every `%csl` / `%cal` entry: `(colour letter, tail square, head square)`.
#[pyfunction]
pub fn pgn_arrows(comment: &str) -> Vec<(char, u8, u8)> {
    shatranj_pgn::annotations::arrows(comment)
        .into_iter()
        .map(|a| (char::from(a.color), a.from, a.to))
        .collect()
}
