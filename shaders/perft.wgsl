// Perft on the GPU: a strictly legal move generator and the level-by-level tree expansion
// that `shatranj_gpu::perft` drives. One invocation handles one position throughout.
//
// Compiled after a bitboard prelude (shaders/perft_bb32.wgsl or shaders/perft_bb64.wgsl) that
// defines `BB`, `EMPTY`, `FULL`, `bb`, `lo32`, `hi32`, `is_empty`, `bit`, `shl`, `shr` and
// `clear_lowest`; nothing here depends on which one.
//
// Per level of a subtree the host records three dispatches, all sized on the GPU (indirect):
//   count_level    legal moves of every position -> counts[i]; per-workgroup sums -> blocks[g]
//   scan_blocks    one workgroup: blocks[] -> exclusive offsets; the next level's size and
//                  its indirect dispatch arguments (or the overflow flag)
//   generate_level every position writes its children at blocks[g] + (scan of counts in g)
// and at the bottom `leaf1` (count the moves) or `leaf2` (play every move, count the child's
// moves: the last two plies without generating them). Leaf counts go to 64-bit totals per
// origin (the root move a position descends from) made of two 32-bit atomics with a carry.
//
// Position record (64 bytes, `GpuPosition` on the host): bitboards of pawns, knights,
// bishops, rooks, queens, kings, then White's men; `flags` bit 0 the side to move (1 Black),
// bits 1-4 castling rights (White king side, White queen side, Black king side, Black queen
// side), bits 8-15 the en-passant target square (0: none; a target is never a1), bits 16-27
// the files of the four rights' rooks, three bits each in the same order (0 where the right
// is gone; Chess960 puts the rooks anywhere, standard chess on h and a); `origin`.

struct Pos {
    b: array<BB, 7>,
    flags: u32,
    origin: u32,
}

struct Control {
    // 0: a level would have exceeded `capacity` (its count was set to 0 instead).
    overflow: u32,
    capacity: u32,
    // The hash table's buckets (0: no table) and the plies left below level 0
    // (shaders/perft_table.wgsl).
    table_buckets: u32,
    root_plies: u32,
    // Positions at each level of the subtree.
    level_n: array<u32, 24>,
    // Table probes and hits at level 0 and two plies above the leaves.
    root_probes: atomic<u32>,
    root_hits: atomic<u32>,
    leaf_probes: atomic<u32>,
    leaf_hits: atomic<u32>,
}

struct Params {
    level: u32,
}

const WG: u32 = 256u;
const PAWN: u32 = 0u;
const KNIGHT: u32 = 1u;
const BISHOP: u32 = 2u;
const ROOK: u32 = 3u;
const QUEEN: u32 = 4u;
const KING: u32 = 5u;
const WHITE: u32 = 6u;
// How a move is made: plainly, en passant, or castling (its target the castling rook's square).
const NORMAL: u32 = 0u;
const EN_PASSANT: u32 = 1u;
const CASTLE: u32 = 2u;

@group(0) @binding(0) var<storage, read> rays: array<BB, 512>;
@group(0) @binding(1) var<storage, read> src: array<Pos>;
@group(0) @binding(2) var<storage, read_write> dst: array<Pos>;
@group(0) @binding(3) var<storage, read_write> counts: array<u32>;
@group(0) @binding(4) var<storage, read_write> blocks: array<u32>;
@group(0) @binding(5) var<storage, read_write> control: Control;
@group(0) @binding(6) var<storage, read_write> totals: array<atomic<u32>>;
@group(0) @binding(7) var<uniform> params: Params;
// Only scan_blocks writes the indirect arguments (x, y, z per level), so only its pipeline
// binds them: the other kernels are dispatched from this buffer.
@group(1) @binding(0) var<storage, read_write> args: array<u32>;

// --- bit scans on 32-bit halves ----------------------------------------------------------------

fn popcnt(b: BB) -> u32 {
    return countOneBits(lo32(b)) + countOneBits(hi32(b));
}

fn lsb(b: BB) -> u32 {
    let l = lo32(b);
    if l != 0u {
        return countTrailingZeros(l);
    }
    return 32u + countTrailingZeros(hi32(b));
}

fn msb(b: BB) -> u32 {
    let h = hi32(b);
    if h != 0u {
        return 32u + firstLeadingBit(h);
    }
    return firstLeadingBit(lo32(b));
}

fn has(b: BB, s: u32) -> bool {
    return !is_empty(b & bit(s));
}

fn not_file_a() -> BB {
    return bb(0xFEFEFEFEu, 0xFEFEFEFEu);
}

fn not_file_h() -> BB {
    return bb(0x7F7F7F7Fu, 0x7F7F7F7Fu);
}

// --- attacks -----------------------------------------------------------------------------------

// Squares a pawn set attacks: White's upwards, Black's downwards.
fn pawn_attacks(p: BB, white: bool) -> BB {
    if white {
        return (shl(p, 9u) & not_file_a()) | (shl(p, 7u) & not_file_h());
    }
    return (shr(p, 7u) & not_file_a()) | (shr(p, 9u) & not_file_h());
}

fn knight_attacks(s: u32) -> BB {
    let b = bit(s);
    let a = not_file_a();
    let h = not_file_h();
    let ab = bb(0xFCFCFCFCu, 0xFCFCFCFCu);
    let gh = bb(0x3F3F3F3Fu, 0x3F3F3F3Fu);
    return (shl(b, 17u) & a) | (shl(b, 15u) & h) | (shl(b, 10u) & ab) | (shl(b, 6u) & gh)
        | (shr(b, 17u) & h) | (shr(b, 15u) & a) | (shr(b, 10u) & gh) | (shr(b, 6u) & ab);
}

fn king_attacks(s: u32) -> BB {
    let b = bit(s);
    let row = b | (shl(b, 1u) & not_file_a()) | (shr(b, 1u) & not_file_h());
    return (row | shl(row, 8u) | shr(row, 8u)) & ~b;
}

// Directions 0-3 (N, E, NE, NW) raise the square index, 4-7 (S, W, SW, SE) lower it; 0, 1, 4,
// 5 are orthogonal. `rays[s * 8 + d]` is every square from s along d on an empty board.
fn is_positive(d: u32) -> bool {
    return d < 4u;
}

// The nearest square of `blockers` (all on one ray) from the ray's origin.
fn nearest(blockers: BB, d: u32) -> u32 {
    if is_positive(d) {
        return lsb(blockers);
    }
    return msb(blockers);
}

// A slider's reach along d from s: the ray up to and including the first occupied square.
fn ray_attacks(s: u32, d: u32, occ: BB) -> BB {
    let r = rays[s * 8u + d];
    let blk = r & occ;
    if is_empty(blk) {
        return r;
    }
    return r ^ rays[nearest(blk, d) * 8u + d];
}

fn rook_attacks(s: u32, occ: BB) -> BB {
    return ray_attacks(s, 0u, occ) | ray_attacks(s, 1u, occ) | ray_attacks(s, 4u, occ)
        | ray_attacks(s, 5u, occ);
}

fn bishop_attacks(s: u32, occ: BB) -> BB {
    return ray_attacks(s, 2u, occ) | ray_attacks(s, 3u, occ) | ray_attacks(s, 6u, occ)
        | ray_attacks(s, 7u, occ);
}

// --- the position seen from the side to move -------------------------------------------------

struct Analysis {
    white: bool,
    occ: BB,
    us: BB,
    them: BB,
    king: u32,
    checkers: BB,
    // Where a move other than the king's must land: everything when not in check, the checker
    // and the squares between it and the king in single check, nothing in double check.
    check_mask: BB,
    // Unions of the pin lines (king exclusive, pinner inclusive) along ranks and files, and
    // along diagonals. A man pinned on one line can stay on it, and no move of it along its
    // own direction can reach another line of the same kind (those run parallel to its own).
    pin_hv: BB,
    pin_d: BB,
    // Squares the opponent attacks with our king lifted off the board.
    danger: BB,
}

fn analyse(p: Pos) -> Analysis {
    var a: Analysis;
    a.white = (p.flags & 1u) == 0u;
    a.occ = p.b[PAWN] | p.b[KNIGHT] | p.b[BISHOP] | p.b[ROOK] | p.b[QUEEN] | p.b[KING];
    if a.white {
        a.us = p.b[WHITE];
    } else {
        a.us = a.occ & ~p.b[WHITE];
    }
    a.them = a.occ & ~a.us;
    a.king = lsb(p.b[KING] & a.us);
    let their_hv = (p.b[ROOK] | p.b[QUEEN]) & a.them;
    let their_d = (p.b[BISHOP] | p.b[QUEEN]) & a.them;

    a.checkers = (knight_attacks(a.king) & p.b[KNIGHT] & a.them)
        | (pawn_attacks(bit(a.king), a.white) & p.b[PAWN] & a.them);
    var slider_mask = EMPTY;
    a.pin_hv = EMPTY;
    a.pin_d = EMPTY;
    for (var d = 0u; d < 8u; d++) {
        let r = rays[a.king * 8u + d];
        let blk = r & a.occ;
        if is_empty(blk) {
            continue;
        }
        let orthogonal = d == 0u || d == 1u || d == 4u || d == 5u;
        var sliders = their_d;
        if orthogonal {
            sliders = their_hv;
        }
        let first = nearest(blk, d);
        if has(sliders, first) {
            a.checkers |= bit(first);
            slider_mask |= r ^ rays[first * 8u + d];
        } else if has(a.us, first) {
            let beyond = blk & ~bit(first);
            if !is_empty(beyond) {
                let second = nearest(beyond, d);
                if has(sliders, second) {
                    let line = r ^ rays[second * 8u + d];
                    if orthogonal {
                        a.pin_hv |= line;
                    } else {
                        a.pin_d |= line;
                    }
                }
            }
        }
    }
    let n_checkers = popcnt(a.checkers);
    if n_checkers == 0u {
        a.check_mask = FULL;
    } else if n_checkers == 1u {
        a.check_mask = a.checkers | slider_mask;
    } else {
        a.check_mask = EMPTY;
    }

    let occ = a.occ & ~bit(a.king);
    var danger = pawn_attacks(p.b[PAWN] & a.them, !a.white)
        | king_attacks(lsb(p.b[KING] & a.them));
    var knights = p.b[KNIGHT] & a.them;
    while !is_empty(knights) {
        danger |= knight_attacks(lsb(knights));
        knights = clear_lowest(knights);
    }
    var hv = their_hv;
    while !is_empty(hv) {
        danger |= rook_attacks(lsb(hv), occ);
        hv = clear_lowest(hv);
    }
    var dg = their_d;
    while !is_empty(dg) {
        danger |= bishop_attacks(lsb(dg), occ);
        dg = clear_lowest(dg);
    }
    a.danger = danger;
    return a;
}

// Where the knight, bishop, rook or queen on s may legally go.
fn piece_targets(p: Pos, a: Analysis, s: u32, role: u32) -> BB {
    let pinned_hv = has(a.pin_hv, s);
    let pinned_d = has(a.pin_d, s);
    var t = EMPTY;
    if role == KNIGHT {
        if !pinned_hv && !pinned_d {
            t = knight_attacks(s);
        }
    } else {
        if role != ROOK && !pinned_hv {
            var diag = bishop_attacks(s, a.occ);
            if pinned_d {
                diag &= a.pin_d;
            }
            t |= diag;
        }
        if role != BISHOP && !pinned_d {
            var ortho = rook_attacks(s, a.occ);
            if pinned_hv {
                ortho &= a.pin_hv;
            }
            t |= ortho;
        }
    }
    return t & ~a.us & a.check_mask;
}

// Pawn targets of a whole set: single pushes, double pushes, captures towards the a-file and
// towards the h-file (each also holds promotions; en passant is separate).
struct PawnTargets {
    push1: BB,
    push2: BB,
    take_west: BB,
    take_east: BB,
}

fn rank_mask(rank: u32) -> BB {
    if rank < 4u {
        return bb(0xFFu << (8u * rank), 0u);
    }
    return bb(0u, 0xFFu << (8u * (rank - 4u)));
}

fn forward(b: BB, white: bool) -> BB {
    if white {
        return shl(b, 8u);
    }
    return shr(b, 8u);
}

fn pawn_targets(p: Pos, a: Analysis) -> PawnTargets {
    var t: PawnTargets;
    let pawns = p.b[PAWN] & a.us;
    let empty = ~a.occ;
    // Pushes: not by pawns pinned on a diagonal; a pawn pinned on a file stays on it.
    let pushers = pawns & ~a.pin_d;
    let free = pushers & ~a.pin_hv;
    let held = pushers & a.pin_hv;
    let one = (forward(free, a.white) | (forward(held, a.white) & a.pin_hv)) & empty;
    var third = rank_mask(5u);
    if a.white {
        third = rank_mask(2u);
    }
    t.push1 = one & a.check_mask;
    t.push2 = forward(one & third, a.white) & empty & a.check_mask;
    // Captures: not by pawns pinned on a rank or file.
    let takers = pawns & ~a.pin_hv;
    let tfree = takers & ~a.pin_d;
    let theld = takers & a.pin_d;
    let victims = a.them & a.check_mask;
    if a.white {
        t.take_west = ((shl(tfree, 7u) | (shl(theld, 7u) & a.pin_d)) & not_file_h()) & victims;
        t.take_east = ((shl(tfree, 9u) | (shl(theld, 9u) & a.pin_d)) & not_file_a()) & victims;
    } else {
        t.take_west = ((shr(tfree, 9u) | (shr(theld, 9u) & a.pin_d)) & not_file_h()) & victims;
        t.take_east = ((shr(tfree, 7u) | (shr(theld, 7u) & a.pin_d)) & not_file_a()) & victims;
    }
    return t;
}

// Pawns that could take en passant (before the check of the king's safety).
fn ep_square(p: Pos) -> u32 {
    return (p.flags >> 8u) & 0xFFu;
}

fn ep_candidates(p: Pos, a: Analysis) -> BB {
    let ep = ep_square(p);
    if ep == 0u {
        return EMPTY;
    }
    return pawn_attacks(bit(ep), !a.white) & p.b[PAWN] & a.us;
}

// Whether the pawn on `from_sq` taking en passant leaves its own king safe: the whole test on the
// board after the capture (two men leave one rank at once, so pin lines do not tell).
fn ep_is_legal(p: Pos, a: Analysis, from_sq: u32) -> bool {
    let to_sq = ep_square(p);
    let victim = to_sq ^ 8u;
    let occ = (a.occ & ~bit(from_sq) & ~bit(victim)) | bit(to_sq);
    let them = a.them & ~bit(victim);
    let hv = (p.b[ROOK] | p.b[QUEEN]) & them;
    let dg = (p.b[BISHOP] | p.b[QUEEN]) & them;
    let k = a.king;
    return is_empty(rook_attacks(k, occ) & hv) && is_empty(bishop_attacks(k, occ) & dg)
        && is_empty(knight_attacks(k) & p.b[KNIGHT] & them)
        && is_empty(pawn_attacks(bit(k), a.white) & p.b[PAWN] & them);
}

// The squares of the back rank at `base` (0 or 56) from file `f0` to file `f1`, both included.
fn rank_span(base: u32, f0: u32, f1: u32) -> BB {
    let lo = min(f0, f1);
    let hi = max(f0, f1);
    let files = ((2u << hi) - 1u) & ~((1u << lo) - 1u);
    if base == 0u {
        return bb(files, 0u);
    }
    return bb(0u, files << 24u);
}

// The rook square of castling right `r` (0-3: White king side, White queen side, Black king
// side, Black queen side): its file is in `flags` bits 16 + 3r (Chess960 puts rooks anywhere).
fn castling_rook(flags: u32, r: u32) -> u32 {
    return select(0u, 56u, r >= 2u) + ((flags >> (16u + 3u * r)) & 7u);
}

// Castlings allowed now, as the squares of their rooks (standard chess and Chess960 alike:
// the king lands on the g or c file, the rook on the f or d file). Every square either crosses
// or lands on must be empty but for the two themselves; none the king crosses or lands on may
// be attacked, its landing square also not once the rook has left (a slider behind the rook
// on the back rank: king c1, castling rook b1, enemy queen a1).
fn castle_targets(p: Pos, a: Analysis) -> BB {
    var t = EMPTY;
    var first = 0u;
    var base = 0u;
    if !a.white {
        first = 2u;
        base = 56u;
    }
    if !is_empty(a.checkers) || ((p.flags >> (1u + first)) & 3u) == 0u {
        return t;
    }
    let rooks = p.b[ROOK] & a.us;
    let king_file = a.king & 7u;
    for (var side = 0u; side < 2u; side++) {
        let r = first + side;
        if ((p.flags >> (1u + r)) & 1u) == 0u {
            continue;
        }
        let rook = castling_rook(p.flags, r);
        if !has(rooks, rook) {
            continue;
        }
        var king_to = 6u;
        var rook_to = 5u;
        if side == 1u {
            king_to = 2u;
            rook_to = 3u;
        }
        let path = rank_span(base, king_file, king_to);
        let ends = bit(a.king) | bit(rook);
        let must_be_empty = (path | rank_span(base, rook & 7u, rook_to)) & ~ends;
        if !is_empty(a.occ & must_be_empty) || !is_empty(a.danger & path) {
            continue;
        }
        let after = (a.occ & ~ends) | bit(base + rook_to);
        let their_hv = (p.b[ROOK] | p.b[QUEEN]) & a.them;
        if !is_empty(rook_attacks(base + king_to, after) & their_hv) {
            continue;
        }
        t |= bit(rook);
    }
    return t;
}

fn promotion_rank(a: Analysis) -> BB {
    if a.white {
        return rank_mask(7u);
    }
    return rank_mask(0u);
}

// The number of legal moves: popcounts of target sets, four per promotion.
fn count_moves(p: Pos) -> u32 {
    let a = analyse(p);
    var n = popcnt(king_attacks(a.king) & ~a.us & ~a.danger);
    if popcnt(a.checkers) > 1u {
        return n;
    }
    n += popcnt(castle_targets(p, a));
    for (var role = KNIGHT; role <= QUEEN; role++) {
        var men = p.b[role] & a.us;
        while !is_empty(men) {
            n += popcnt(piece_targets(p, a, lsb(men), role));
            men = clear_lowest(men);
        }
    }
    let t = pawn_targets(p, a);
    let last = promotion_rank(a);
    n += popcnt(t.push1) + popcnt(t.push2) + popcnt(t.take_west) + popcnt(t.take_east);
    n += 3u * (popcnt(t.push1 & last) + popcnt(t.take_west & last) + popcnt(t.take_east & last));
    var ep = ep_candidates(p, a);
    while !is_empty(ep) {
        if ep_is_legal(p, a, lsb(ep)) {
            n += 1u;
        }
        ep = clear_lowest(ep);
    }
    return n;
}

// --- making moves ----------------------------------------------------------------------------

// `flags` less the castling rights (and their rook files) that a move of `role` from `from_sq`
// to `to_sq` ends: the mover's two when its king moves (castling included), and any right
// whose rook square the move leaves or lands on.
fn rights_after(flags: u32, from_sq: u32, to_sq: u32, role: u32, white: bool) -> u32 {
    var f = flags;
    if role == KING {
        if white {
            f &= ~(6u | (0x3Fu << 16u));
        } else {
            f &= ~(24u | (0x3Fu << 22u));
        }
    }
    for (var r = 0u; r < 4u; r++) {
        if ((f >> (1u + r)) & 1u) != 0u {
            let rook = castling_rook(f, r);
            if rook == from_sq || rook == to_sq {
                f &= ~((2u << r) | (7u << (16u + 3u * r)));
            }
        }
    }
    return f;
}

// The position after `role` moves from `from_sq` to `to_sq`, becoming `becomes` (the promoted role,
// else `role`); `en_passant` marks an en-passant capture.
fn make(p: Pos, from_sq: u32, to_sq: u32, role: u32, becomes: u32, special: u32) -> Pos {
    var c = p;
    let white = (p.flags & 1u) == 0u;
    let fb = bit(from_sq);
    let tb = bit(to_sq);
    if special == CASTLE {
        // `to_sq` is the castling rook's square: king and rook land on g and f, or c and d.
        let base = from_sq & 56u;
        var king_to = base + 6u;
        var rook_to = base + 5u;
        if to_sq < from_sq {
            king_to = base + 2u;
            rook_to = base + 3u;
        }
        c.b[KING] = (c.b[KING] & ~fb) | bit(king_to);
        c.b[ROOK] = (c.b[ROOK] & ~tb) | bit(rook_to);
        if white {
            c.b[WHITE] = (c.b[WHITE] & ~fb & ~tb) | bit(king_to) | bit(rook_to);
        }
    } else {
        for (var r = 0u; r < 6u; r++) {
            c.b[r] &= ~tb;
        }
        c.b[role] &= ~fb;
        c.b[becomes] |= tb;
        if white {
            c.b[WHITE] = (c.b[WHITE] & ~fb) | tb;
        } else {
            c.b[WHITE] &= ~tb;
        }
        if special == EN_PASSANT {
            let victim = bit(to_sq ^ 8u);
            c.b[PAWN] &= ~victim;
            c.b[WHITE] &= ~victim;
        }
    }
    var flags = (rights_after(p.flags, from_sq, to_sq, role, white) & 0x0FFF001Eu)
        | ((p.flags & 1u) ^ 1u);
    if role == PAWN && (to_sq == from_sq + 16u || from_sq == to_sq + 16u) {
        flags |= ((from_sq + to_sq) / 2u) << 8u;
    }
    c.flags = flags;
    return c;
}

// --- visiting every move ---------------------------------------------------------------------

const GENERATE: u32 = 0u;
const COUNT_CHILDREN: u32 = 1u;

// What `visit` does with each move: write the child at `out_at` (then advance it), or add the
// child's legal move count to `child_sum`.
var<private> visit_mode: u32;
var<private> out_at: u32;
var<private> child_sum: u32;

fn visit(p: Pos, from_sq: u32, to_sq: u32, role: u32, becomes: u32, special: u32) {
    let c = make(p, from_sq, to_sq, role, becomes, special);
    if visit_mode == GENERATE {
        dst[out_at] = c;
        out_at += 1u;
    } else {
        child_sum += count_moves(c);
    }
}

fn visit_all(p: Pos, from_sq: u32, targets: BB, role: u32, special: u32) {
    var t = targets;
    while !is_empty(t) {
        visit(p, from_sq, lsb(t), role, role, special);
        t = clear_lowest(t);
    }
}

// Pawn moves to `targets`, each from `to_sq - delta` (delta signed, as the square difference).
fn visit_pawns(p: Pos, targets: BB, delta: i32, last: BB) {
    var t = targets;
    while !is_empty(t) {
        let to_sq = lsb(t);
        let from_sq = u32(i32(to_sq) - delta);
        if has(last, to_sq) {
            for (var r = KNIGHT; r <= QUEEN; r++) {
                visit(p, from_sq, to_sq, PAWN, r, NORMAL);
            }
        } else {
            visit(p, from_sq, to_sq, PAWN, PAWN, NORMAL);
        }
        t = clear_lowest(t);
    }
}

// Every legal move of p, in no particular order, through `visit`.
fn visit_moves(p: Pos) {
    let a = analyse(p);
    visit_all(p, a.king, king_attacks(a.king) & ~a.us & ~a.danger, KING, NORMAL);
    if popcnt(a.checkers) > 1u {
        return;
    }
    visit_all(p, a.king, castle_targets(p, a), KING, CASTLE);
    for (var role = KNIGHT; role <= QUEEN; role++) {
        var men = p.b[role] & a.us;
        while !is_empty(men) {
            let s = lsb(men);
            visit_all(p, s, piece_targets(p, a, s, role), role, NORMAL);
            men = clear_lowest(men);
        }
    }
    let t = pawn_targets(p, a);
    let last = promotion_rank(a);
    var up = 8;
    var west = 7;
    var east = 9;
    if !a.white {
        up = -8;
        west = -9;
        east = -7;
    }
    visit_pawns(p, t.push1, up, last);
    visit_pawns(p, t.push2, 2 * up, last);
    visit_pawns(p, t.take_west, west, last);
    visit_pawns(p, t.take_east, east, last);
    var ep = ep_candidates(p, a);
    while !is_empty(ep) {
        let from_sq = lsb(ep);
        if ep_is_legal(p, a, from_sq) {
            visit(p, from_sq, ep_square(p), PAWN, PAWN, EN_PASSANT);
        }
        ep = clear_lowest(ep);
    }
}

// --- the kernels ------------------------------------------------------------------------------

var<workgroup> shared_sums: array<u32, WG>;

// Inclusive scan of `v` over the workgroup (Hillis-Steele); every invocation must call it.
fn workgroup_scan(local: u32, v: u32) -> u32 {
    shared_sums[local] = v;
    workgroupBarrier();
    for (var step = 1u; step < WG; step <<= 1u) {
        var add = 0u;
        if local >= step {
            add = shared_sums[local - step];
        }
        workgroupBarrier();
        shared_sums[local] += add;
        workgroupBarrier();
    }
    let r = shared_sums[local];
    workgroupBarrier();
    return r;
}

// 64-bit total of origin o += v, as two 32-bit atomics: a carry when the low word wraps.
fn add_total(o: u32, v: u32) {
    if v == 0u {
        return;
    }
    let old = atomicAdd(&totals[2u * o], v);
    if old + v < old {
        atomicAdd(&totals[2u * o + 1u], 1u);
    }
}

@compute @workgroup_size(WG)
fn count_level(@builtin(global_invocation_id) gid: vec3<u32>,
               @builtin(local_invocation_index) local: u32,
               @builtin(workgroup_id) group: vec3<u32>) {
    let n = control.level_n[params.level];
    let i = gid.x;
    var c = 0u;
    if i < n {
        c = count_moves(src[i]);
        counts[i] = c;
    }
    write_block_sum(local, group.x, c);
}

// The workgroup's sum of the move counts `c` -> blocks[group] (every invocation calls it).
fn write_block_sum(local: u32, group: u32, c: u32) {
    let sum = workgroup_scan(local, c);
    if local == WG - 1u {
        blocks[group] = sum;
    }
}

@compute @workgroup_size(WG)
fn scan_blocks(@builtin(local_invocation_index) local: u32) {
    let level = params.level;
    let n = control.level_n[level];
    let groups = (n + WG - 1u) / WG;
    let per = (groups + WG - 1u) / WG;
    let begin = min(local * per, groups);
    let end = min(begin + per, groups);
    var sum = 0u;
    for (var g = begin; g < end; g++) {
        sum += blocks[g];
    }
    let inclusive = workgroup_scan(local, sum);
    var run = inclusive - sum;
    for (var g = begin; g < end; g++) {
        let b = blocks[g];
        blocks[g] = run;
        run += b;
    }
    if local == WG - 1u {
        var next = inclusive;
        if next > control.capacity {
            control.overflow = 1u;
            next = 0u;
        }
        control.level_n[level + 1u] = next;
        args[3u * (level + 1u)] = (next + WG - 1u) / WG;
        args[3u * (level + 1u) + 1u] = 1u;
        args[3u * (level + 1u) + 2u] = 1u;
    }
}

@compute @workgroup_size(WG)
fn generate_level(@builtin(global_invocation_id) gid: vec3<u32>,
                  @builtin(local_invocation_index) local: u32,
                  @builtin(workgroup_id) group: vec3<u32>) {
    let n = control.level_n[params.level];
    let next_n = control.level_n[params.level + 1u];
    let i = gid.x;
    var c = 0u;
    if i < n {
        c = counts[i];
    }
    let inclusive = workgroup_scan(local, c);
    // An overflowing level has no next level: nothing is written. A position with no
    // children to write (none legal, or found in the hash table) writes none.
    if i < n && next_n != 0u && c != 0u {
        visit_mode = GENERATE;
        out_at = blocks[group.x] + inclusive - c;
        let p = src[i];
        visit_moves(p);
    }
}

@compute @workgroup_size(WG)
fn leaf1(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i < control.level_n[params.level] {
        let p = src[i];
        add_total(p.origin, count_moves(p));
    }
}

@compute @workgroup_size(WG)
fn leaf2(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i < control.level_n[params.level] {
        let p = src[i];
        visit_mode = COUNT_CHILDREN;
        child_sum = 0u;
        visit_moves(p);
        add_total(p.origin, child_sum);
    }
}
