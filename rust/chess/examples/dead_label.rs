//! Builds the labelled set of hard dead-position cases, `tests/data/dead_labelled.txt`
//! (R4.6, R4.9): positions constructed by kind, each with its colour-swapped and
//! file-flipped images, and each side labelled by a slow search that shares nothing with
//! `can_checkmate` but move generation.
//!
//!     cargo run --release -p shatranj-chess --example dead_label -- [PER_KIND] [SEED] [KINDS] \
//!         > rust/chess/tests/data/dead_labelled.txt
//!
//! KINDS, a comma-separated list, makes only those kinds (the others are skipped without
//! drawing from the generator, so a kind's cases depend only on the kinds before it).
//!
//! The kinds (the families of hard positions that the Chess Unwinnability Analyzer's
//! benchmark is made of):
//! - `chain-bishops`: a locked pawn chain across the board, the kings anywhere, one or two
//!   bishops, sometimes of one colour on each side;
//! - `chain-pieces`: a chain with at most one open file, and one or two other pieces
//!   (knights, rooks, queens): kings and pieces sealed in the sectors the chain leaves;
//! - `breaks`: a chain with open files and extra pawns that can still move, so that only a
//!   capture (possible or not) or a push could open the wall;
//! - `forced`: sparse positions whose side to move has at most two legal moves, some of
//!   them forced into stalemate or the other side's mate.
//!
//! The label of a side is exact either way. `can`: a helpmate was found, and is written out
//! (a breadth-first search finds the shortest; a guided depth-first search, when the
//! breadth-first one runs out of room, some longer one). `cannot N`: a breadth-first search
//! visited every one of the N positions reachable from the case and none is that side's
//! mate; `cannot bare-king` for a side with nothing but its king (a king never gives check).
//! Positions with a side neither found nor exhausted within the caps are left out, and
//! counted on standard error. Every position with a side labelled "cannot" is kept; of the
//! rest (both sides can mate, the soundness cases) one in three, chosen by the seeded
//! generator, so that the set is not mostly of those. The choice looks only at the labels.

#[path = "../tests/support/labelled.rs"]
mod labelled;
#[path = "../tests/support/rng.rs"]
mod rng;

use labelled::{Case, Evidence, Label, images};
use rng::Rng;
use shatranj_chess::{Board, CastlingRights, Color, Move, Piece, Position, Role, Square};
use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

/// The most positions a breadth-first labelling visits.
const BFS_CAP: usize = 1_500_000;
/// The most positions the guided helpmate search expands per side.
const DFS_CAP: usize = 200_000;

fn main() {
    type Make = fn(&mut Rng) -> Option<Position>;
    let mut args = std::env::args().skip(1);
    let per_kind: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let seed: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(0x6465_6164);
    let only: Option<Vec<String>> = args
        .next()
        .map(|a| a.split(',').map(str::to_owned).collect());
    let mut rng = Rng::mixed(seed);
    println!("# The labelled dead-position set (tests/support/labelled.rs describes the format).");
    let kinds_arg = only
        .as_ref()
        .map_or(String::new(), |k| format!(" {}", k.join(",")));
    println!(
        "# Made by `cargo run --release -p shatranj-chess --example dead_label -- {per_kind} {seed}{kinds_arg}`."
    );
    let kinds: [(&str, Make); 6] = [
        ("chain-bishops", chain_bishops),
        ("chain-pieces", chain_pieces),
        ("chain-crowd", chain_crowd),
        ("breaks", breaks),
        ("chain-forced", chain_forced),
        ("forced", forced),
    ];
    for (kind, make) in kinds {
        if only.as_ref().is_some_and(|k| !k.iter().any(|k| k == kind)) {
            continue;
        }
        let (mut kept, mut dropped, mut skipped, mut seen) = (0, 0, 0, HashSet::new());
        while kept < per_kind {
            let Some(pos) = make(&mut rng) else { continue };
            if !seen.insert(pos.fen()) {
                continue;
            }
            let label = if sealed(&pos) {
                // A check of the construction: the guided search finds no mate either.
                for color in Color::ALL {
                    assert!(
                        guided(&pos, color).is_none(),
                        "sealed, yet a mate: {}",
                        pos.fen()
                    );
                }
                Some([
                    Label::Cannot(Evidence::Sealed),
                    Label::Cannot(Evidence::Sealed),
                ])
            } else {
                label(&pos)
            };
            match label {
                Some(labels) if !worth_keeping(&pos, &labels, &mut rng) => skipped += 1,
                Some(labels) => {
                    let case = Case {
                        kind: kind.to_owned(),
                        pos,
                        labels,
                    };
                    for image in images(&case) {
                        for color in Color::ALL {
                            image.check_line(color).expect("a mapped helpmate line");
                        }
                        println!("{}", image.line());
                    }
                    kept += 1;
                }
                None => dropped += 1,
            }
        }
        eprintln!(
            "{kind}: {kept} kept, {skipped} labelled but not kept (see `worth_keeping`), {dropped} left out (a side neither found nor exhausted)"
        );
    }
}

// ----- labelling ----------------------------------------------------------------------------

/// Every case with a side that cannot mate although it has mating material is kept; of the
/// cases where the only side that cannot mate is one short of material, one in four; of
/// those where both sides can mate (the soundness cases), one in three. The choice looks only
/// at the labels and the material, never at what `can_checkmate` says.
fn worth_keeping(pos: &Position, labels: &[Label; 2], rng: &mut Rng) -> bool {
    let hard = Color::ALL
        .into_iter()
        .any(|c| !labels[c.index()].can() && !pos.has_insufficient_material(c));
    if hard {
        true
    } else if labels.iter().all(Label::can) {
        rng.below(3) == 0
    } else {
        rng.below(4) == 0
    }
}

/// The construction behind `cannot sealed`, checked on the board: every file holds one white
/// pawn with a black pawn straight in front of it, neighbouring files' pawns a rank apart
/// (so no pawn attacks another); every other man stands behind its own pawn on its file;
/// and besides the kings there are only bishops of the square colour of their own pawns
/// (the pawns of a side are all of one colour, the chain being a diagonal zigzag). Then
/// nothing ever crosses or touches the chain. A bishop's squares are walled off by its own
/// pawns, which stand diagonally next to each other from file to file; the enemy pawns
/// stand on the other colour, so the bishop never attacks one, and attack only squares of
/// their own colour, so none ever attacks the bishop. A king's squares next to an enemy
/// pawn are squares that pawn attacks, and it can never cross to the other side either.
/// So no pawn ever moves, no man leaves its side, no man attacks a square of the other
/// side, and neither king is ever in check — provided neither is in check to begin with: a
/// king never *enters* a square an enemy pawn attacks, but may be set up on one (and be
/// mated there already), so a position with a check is never sealed. (Rooks are not admitted: a rook behind its
/// pawns can reach a square diagonally in front of an enemy pawn, which may take it and
/// open the chain.)
fn sealed(pos: &Position) -> bool {
    if pos.is_check() {
        return false;
    }
    let b = pos.board();
    let mut ranks = [0u32; 8];
    for file in 0..8u32 {
        let on_file = |c: Color| {
            (b.pawns() & b.by_color(c))
                .filter(|s| s.file().index() == file)
                .collect::<Vec<_>>()
        };
        let (white, black) = (on_file(Color::White), on_file(Color::Black));
        let ([w], [bl]) = (&white[..], &black[..]) else {
            return false;
        };
        if bl.index() != w.index() + 8 {
            return false;
        }
        ranks[file as usize] = w.rank().index();
    }
    if ranks.windows(2).any(|p| p[0].abs_diff(p[1]) != 1) {
        return false;
    }
    for color in Color::ALL {
        let Some(light) = pawn_colour(b, color) else {
            return false;
        };
        for (s, piece) in b.pieces() {
            if piece.color != color || piece.role == Role::Pawn {
                continue;
            }
            let r = ranks[s.file().index() as usize];
            let home = match color {
                Color::White => s.rank().index() < r,
                Color::Black => s.rank().index() > r + 1,
            };
            let kind_ok = match piece.role {
                Role::King => true,
                Role::Bishop => s.is_light() == light,
                _ => false,
            };
            if !home || !kind_ok {
                return false;
            }
        }
    }
    true
}

/// Both sides' labels, or `None` when a side is neither found nor exhausted.
fn label(pos: &Position) -> Option<[Label; 2]> {
    let bare =
        |c: Color| pos.board().by_color(c) == pos.board().by_piece(Piece::new(c, Role::King));
    if Color::ALL.into_iter().any(bare) {
        // The bare side is decided; the other may still need the searches.
        let (mates, exhausted) = breadth_first(pos, [!bare(Color::White), !bare(Color::Black)]);
        let side = |c: Color| -> Option<Label> {
            if bare(c) {
                return Some(Label::Cannot(Evidence::BareKing));
            }
            let line = mates[c.index()].clone().or_else(|| guided(pos, c));
            match (line, exhausted) {
                (Some(line), _) => Some(Label::Can(
                    line.iter().map(std::string::ToString::to_string).collect(),
                )),
                (None, Some(n)) => Some(Label::Cannot(Evidence::Searched(n))),
                (None, None) => None,
            }
        };
        return Some([side(Color::White)?, side(Color::Black)?]);
    }
    let (mut mates, exhausted) = breadth_first(pos, [true, true]);
    for color in Color::ALL {
        if mates[color.index()].is_none() && exhausted.is_none() {
            mates[color.index()] = guided(pos, color);
        }
    }
    let side = |i: usize| match (&mates[i], exhausted) {
        (Some(line), _) => Some(Label::Can(
            line.iter().map(std::string::ToString::to_string).collect(),
        )),
        (None, Some(n)) => Some(Label::Cannot(Evidence::Searched(n))),
        (None, None) => None,
    };
    Some([side(0)?, side(1)?])
}

/// A position's identity for the searches: its Polyglot key and a second, independent hash
/// of the placement and side to move (128 bits, so collisions are out of the question at
/// these sizes).
fn identity(pos: &Position) -> (u64, u64) {
    let mut h = DefaultHasher::new();
    pos.board().hash(&mut h);
    pos.turn().hash(&mut h);
    pos.ep_square().hash(&mut h);
    (pos.key(), h.finish())
}

/// Every position reachable from `pos`, breadth first, until each side `wanted` has a mate.
/// Returns the shortest helpmate found for each side, and the number of positions when all
/// were visited.
fn breadth_first(pos: &Position, wanted: [bool; 2]) -> ([Option<Vec<Move>>; 2], Option<u64>) {
    struct Node {
        pos: Position,
        parent: u32,
        mv: Option<Move>,
    }
    let mut nodes = vec![Node {
        pos: *pos,
        parent: u32::MAX,
        mv: None,
    }];
    let mut seen = HashSet::new();
    seen.insert(identity(pos));
    let mut mates: [Option<Vec<Move>>; 2] = [None, None];
    let mut next = 0;
    while next < nodes.len() {
        let p = nodes[next].pos;
        let moves = p.legal_moves();
        if moves.is_empty() {
            if p.is_check() {
                let winner = p.turn().other();
                if mates[winner.index()].is_none() {
                    let mut line = Vec::new();
                    let mut at = next;
                    while let Some(m) = nodes[at].mv {
                        line.push(m);
                        at = nodes[at].parent as usize;
                    }
                    line.reverse();
                    mates[winner.index()] = Some(line);
                }
            }
        } else {
            for &m in &moves {
                let mut child = p;
                child.play_unchecked(m);
                if seen.insert(identity(&child)) {
                    if nodes.len() >= BFS_CAP {
                        return (mates, None);
                    }
                    nodes.push(Node {
                        pos: child,
                        parent: next as u32,
                        mv: Some(m),
                    });
                }
            }
        }
        if (0..2).all(|i| !wanted[i] || mates[i].is_some()) {
            return (mates, None);
        }
        next += 1;
    }
    (mates, Some(nodes.len() as u64))
}

/// A depth-first search for `winner`'s mate with moves ordered towards it (the winner's men
/// towards the loser's king, promotions first; the loser's king towards the winner's men,
/// the loser never capturing first). Only ever used to find a "can"; its lines are checked.
fn guided(pos: &Position, winner: Color) -> Option<Vec<Move>> {
    let mut seen: HashSet<(u64, u64)> = HashSet::new();
    let mut stack: Vec<(Position, Vec<Move>, usize)> = Vec::new();
    seen.insert(identity(pos));
    stack.push((*pos, ordered(pos, winner), 0));
    let mut expanded = 1;
    while let Some((p, moves, i)) = stack.last_mut() {
        if *i == moves.len() {
            stack.pop();
            continue;
        }
        let m = moves[*i];
        *i += 1;
        let mut child = *p;
        child.play_unchecked(m);
        if child.is_checkmate() && child.turn() != winner {
            return Some(stack.iter().map(|(_, ms, i)| ms[*i - 1]).collect());
        }
        if stack.len() >= 400 || !seen.insert(identity(&child)) {
            continue;
        }
        expanded += 1;
        if expanded > DFS_CAP {
            return None;
        }
        let moves = ordered(&child, winner);
        stack.push((child, moves, 0));
    }
    None
}

fn ordered(pos: &Position, winner: Color) -> Vec<Move> {
    let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let loser_king = pos.king(winner.other());
    let winner_men = pos.board().by_color(winner);
    moves.sort_by_key(|&m| {
        if pos.turn() == winner {
            if m.promotion() == Some(Role::Queen) {
                0
            } else {
                1 + m.to().distance(loser_king)
            }
        } else {
            let capture = u32::from(pos.is_capture(m)) * 10;
            let near = winner_men.map(|sq| sq.distance(m.to())).min().unwrap_or(0);
            capture + near
        }
    });
    moves
}

// ----- generators ---------------------------------------------------------------------------

fn sq(file: u32, rank: u32) -> Square {
    Square::new(rank * 8 + file).expect("a square on the board")
}

/// A locked chain: for each file not in `open`, a white pawn on rank index `r` and a black
/// pawn straight in front of it, `r` moving up or down one rank from file to file (so no
/// pawn attacks an enemy pawn), between rank indices 1 and 5. Returns each file's `r`
/// (`None` for open files).
fn chain(rng: &mut Rng, board: &mut Board, open: &[u32]) -> [Option<u32>; 8] {
    let mut ranks = [None; 8];
    let mut rank = 1 + rng.below(5) as u32;
    for file in 0..8 {
        if !open.contains(&file) {
            board.set_piece_at(sq(file, rank), Piece::new(Color::White, Role::Pawn));
            board.set_piece_at(sq(file, rank + 1), Piece::new(Color::Black, Role::Pawn));
            ranks[file as usize] = Some(rank);
        }
        rank = match (rank, rng.below(2)) {
            (1, _) => 2,
            (5, _) => 4,
            (r, 0) => r - 1,
            (r, _) => r + 1,
        };
    }
    ranks
}

/// Is `s` on `color`'s own side of the chain (behind its pawns, on a file the chain closes)?
fn own_side(ranks: &[Option<u32>; 8], color: Color, s: Square) -> bool {
    let (file, rank) = (s.file().index(), s.rank().index());
    match (ranks[file as usize], color) {
        (Some(r), Color::White) => rank < r,
        (Some(r), Color::Black) => rank > r + 1,
        (None, _) => false,
    }
}

/// Puts `piece` on a random empty square that `ok` accepts (pawns off the back ranks), or
/// on any empty square when `ok` accepts none that is free.
fn place_where(rng: &mut Rng, board: &mut Board, piece: Piece, ok: impl Fn(Square) -> bool) {
    for tries in 0.. {
        let s = Square::new(rng.below(64) as u32).expect("a square");
        let back = s.rank().index() == 0 || s.rank().index() == 7;
        if board.piece_at(s).is_none()
            && !(piece.role == Role::Pawn && back)
            && (tries > 1000 || ok(s))
        {
            board.set_piece_at(s, piece);
            return;
        }
    }
}

/// Puts `piece` on a random empty square.
fn place(rng: &mut Rng, board: &mut Board, piece: Piece) {
    place_where(rng, board, piece, |_| true);
}

/// Puts `piece` on its own side of the chain four times in five, else anywhere.
fn place_mostly_home(rng: &mut Rng, board: &mut Board, ranks: &[Option<u32>; 8], piece: Piece) {
    if rng.below(5) < 4 {
        place_where(rng, board, piece, |s| own_side(ranks, piece.color, s));
    } else {
        place(rng, board, piece);
    }
}

/// The square colour of `color`'s pawns in a zigzag chain (all of one colour: the rank
/// changes by one from file to file), or a random one for a chain-less board.
fn pawn_colour(board: &Board, color: Color) -> Option<bool> {
    let pawns = board.pawns() & board.by_color(color);
    pawns.first().map(shatranj_chess::Square::is_light)
}

fn finish(rng: &mut Rng, mut board: Board, ranks: &[Option<u32>; 8]) -> Option<Position> {
    for color in Color::ALL {
        place_mostly_home(rng, &mut board, ranks, Piece::new(color, Role::King));
    }
    let turn = rng.pick(&Color::ALL);
    Position::from_parts(board, turn, CastlingRights::NONE, None, 0, 1).ok()
}

fn chain_bishops(rng: &mut Rng) -> Option<Position> {
    let mut board = Board::empty();
    let ranks = chain(rng, &mut board, &[]);
    // Each side: no bishop, one, or now and then two of one colour; mostly of its own pawns'
    // colour (which the enemy pawns can neither attack nor be attacked from).
    for color in Color::ALL {
        let own = pawn_colour(&board, color).unwrap_or(true);
        let light = if rng.below(3) < 2 { own } else { !own };
        for _ in 0..[0, 1, 1, 1, 2][rng.below(5)] {
            let piece = Piece::new(color, Role::Bishop);
            if rng.below(5) < 4 {
                place_where(rng, &mut board, piece, |s| {
                    s.is_light() == light && own_side(&ranks, color, s)
                });
            } else {
                place_where(rng, &mut board, piece, |s| s.is_light() == light);
            }
        }
    }
    finish(rng, board, &ranks)
}

fn chain_pieces(rng: &mut Rng) -> Option<Position> {
    const POOL: [Role; 5] = [
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Rook,
        Role::Queen,
    ];
    let mut board = Board::empty();
    let open: Vec<u32> = if rng.below(3) == 0 {
        vec![rng.below(8) as u32]
    } else {
        vec![]
    };
    let ranks = chain(rng, &mut board, &open);
    for _ in 0..=rng.below(2) {
        let piece = Piece::new(rng.pick(&Color::ALL), rng.pick(&POOL));
        place_mostly_home(rng, &mut board, &ranks, piece);
    }
    finish(rng, board, &ranks)
}

fn breaks(rng: &mut Rng) -> Option<Position> {
    let mut board = Board::empty();
    let first = rng.below(8) as u32;
    let open = if rng.below(2) == 0 {
        vec![first]
    } else {
        vec![first, rng.below(8) as u32]
    };
    let ranks = chain(rng, &mut board, &open);
    // Pawns that can still move: on the open files, or behind their own chain.
    for _ in 0..=rng.below(2) {
        let color = rng.pick(&Color::ALL);
        place_mostly_home(rng, &mut board, &ranks, Piece::new(color, Role::Pawn));
    }
    if rng.below(2) == 0 {
        const POOL: [Role; 3] = [Role::Knight, Role::Bishop, Role::Rook];
        let piece = Piece::new(rng.pick(&Color::ALL), rng.pick(&POOL));
        place_mostly_home(rng, &mut board, &ranks, piece);
    }
    finish(rng, board, &ranks)
}

fn chain_crowd(rng: &mut Rng) -> Option<Position> {
    let mut board = Board::empty();
    let ranks = chain(rng, &mut board, &[]);
    // Two to four men a side behind its own pawns: mostly bishops of its own pawns' colour
    // (sealed), now and then a rook, a queen, a knight or a bishop of the other colour.
    for color in Color::ALL {
        let own = pawn_colour(&board, color).unwrap_or(true);
        for _ in 0..2 + rng.below(3) {
            let home = |s: Square| own_side(&ranks, color, s);
            match rng.below(12) {
                0 => place_where(rng, &mut board, Piece::new(color, Role::Queen), home),
                1 => place_where(rng, &mut board, Piece::new(color, Role::Knight), home),
                2 => {
                    let piece = Piece::new(color, Role::Bishop);
                    place_where(rng, &mut board, piece, |s| home(s) && s.is_light() != own);
                }
                3 => place_where(rng, &mut board, Piece::new(color, Role::Rook), home),
                _ => {
                    let piece = Piece::new(color, Role::Bishop);
                    place_where(rng, &mut board, piece, |s| home(s) && s.is_light() == own);
                }
            }
        }
    }
    for color in Color::ALL {
        let piece = Piece::new(color, Role::King);
        place_where(rng, &mut board, piece, |s| own_side(&ranks, color, s));
    }
    let turn = rng.pick(&Color::ALL);
    Position::from_parts(board, turn, CastlingRights::NONE, None, 0, 1).ok()
}

/// A chain position whose side to move has at most three legal moves: kings squeezed
/// against the chain, forced lines.
fn chain_forced(rng: &mut Rng) -> Option<Position> {
    let pos = if rng.below(2) == 0 {
        chain_pieces(rng)?
    } else {
        chain_bishops(rng)?
    };
    (1..=3).contains(&pos.legal_moves().len()).then_some(pos)
}

/// Both kings and two to four men crowded into one corner's 4×4 block, the side to move with
/// at most three legal moves: forced lines, into stalemate or either side's mate.
fn forced_corner(rng: &mut Rng) -> Option<Position> {
    const POOL: [Role; 7] = [
        Role::Pawn,
        Role::Pawn,
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ];
    let (fx, fy) = (rng.below(2) as u32 * 4, rng.below(2) as u32 * 4);
    let corner = |s: Square| {
        (fx..fx + 4).contains(&s.file().index()) && (fy..fy + 4).contains(&s.rank().index())
    };
    let mut board = Board::empty();
    for _ in 0..2 + rng.below(3) {
        let piece = Piece::new(rng.pick(&Color::ALL), rng.pick(&POOL));
        place_where(rng, &mut board, piece, corner);
    }
    for color in Color::ALL {
        place_where(rng, &mut board, Piece::new(color, Role::King), corner);
    }
    let turn = rng.pick(&Color::ALL);
    let pos = Position::from_parts(board, turn, CastlingRights::NONE, None, 0, 1).ok()?;
    (1..=3).contains(&pos.legal_moves().len()).then_some(pos)
}

fn forced(rng: &mut Rng) -> Option<Position> {
    const POOL: [Role; 7] = [
        Role::Pawn,
        Role::Pawn,
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ];
    if rng.below(2) == 0 {
        return forced_corner(rng);
    }
    let mut board = Board::empty();
    for _ in 0..2 + rng.below(3) {
        let piece = Piece::new(rng.pick(&Color::ALL), rng.pick(&POOL));
        place(rng, &mut board, piece);
    }
    let pos = finish(rng, board, &[None; 8])?;
    let n = pos.legal_moves().len();
    (1..=2).contains(&n).then_some(pos)
}
