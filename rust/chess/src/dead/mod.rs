//! Who can still checkmate: `can_checkmate`, `is_dead_position` and `winnability` (R4.6,
//! R4.9, R5.1).
//!
//! The question is "can `color` deliver mate by *any* series of legal moves, however bad
//! the opponent's play". The answer must be sound above all — a wrong "cannot" steals a
//! win — so every "cannot" rests on a proof, and whatever is not proven within the budget
//! is answered "can". [`Winnability`] says which it was: proved unwinnable (and by what),
//! a helpmate found (with its moves), or unknown within the budget.
//!
//! The proofs, in the order they are tried:
//! - the game is over (stalemate, or `color` is mated);
//! - material (R5.2's list, `Position::has_insufficient_material`);
//! - the static analysis of men that can never move (pawns blocked by pawns, kings or such
//!   men; pieces boxed in by their own), pawns that can never pass an enemy pawn on their
//!   file, and squares every other man can ever reach (`reach`), and the two proofs built on it (`fortress`): no check is ever possible;
//!   no square admits a mate, because the pieces a mate needs can never get there;
//! - a bounded cooperative helpmate search (`helpmate`), which closes every line it follows
//!   with the proofs above. Its budget comes in tiers: a quick one on every call; a deeper
//!   one when the static analysis found fixed pawns but could not conclude; and a large one
//!   (the exhaustive closure of ALGORITHM's design, tens of thousands of positions) behind a
//!   gate that says when it is worth it: both sides together have few moves (`few_moves`) —
//!   locked walls, where one weak pawn dissolves the static analysis but every line soon
//!   closes. Before that closure a helpmate probe (`probe`) looks for a mate
//!   the cheap way, so that the positions of real games that pass the gate (where a mate
//!   nearly always exists) do not pay for the closure. Elsewhere the quick tier's "unknown"
//!   stands;
//! - where all of ours is undecided, CHA's solver in its fast mode (feature `solver`,
//!   `DeadOptions::solver`), except where our closure ran out of budget (the fast mode has no
//!   bound of its own and takes seconds on such positions); its full search is
//!   `Position::winnability_full`.
//!
//! Each proof can be switched off ([`ProofRules`]), so that tests can show that each one is
//! needed, and benchmarks what each one adds.
//!
//! The room: this module holds the tiers and the answer types; `reach` is the static
//! analysis (what can never move, where the rest can go), `fortress` the proofs built on it,
//! `helpmate` the exhaustive closure search, `helpmate_probe` the quick search that only looks
//! for a mate, and `solver` (feature `solver`) CHA's solver behind our types.

mod fortress;
mod helpmate;
mod helpmate_probe;
mod reach;
#[cfg(feature = "solver")]
pub mod solver;

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::{Bitboard, Color, Move, Position, Role};
use fortress::{no_check_possible, no_mating_square};
use helpmate::{Found, search};
use helpmate_probe::probe;
use reach::Reach;

/// How `color`'s chances of mating were decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Winnability {
    /// Proven: `color` can never checkmate, by the argument named.
    Unwinnable(Proof),
    /// A helpmate: these legal moves, played from the position, end in `color`'s mate
    /// (empty when the opponent is mated already).
    Helpmate(Vec<Move>),
    /// Neither a proof nor a helpmate within the budget; counted as "can" (sound).
    Unknown,
}

impl Winnability {
    /// The answer of `can_checkmate`: everything but a proof counts as "can".
    pub fn can_checkmate(&self) -> bool {
        !matches!(self, Winnability::Unwinnable(_))
    }
}

/// The argument behind an "unwinnable" answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Proof {
    /// The game is over: stalemate, or `color` is mated.
    GameOver,
    /// Material alone (R5.2's list): a lone king, a lone minor piece that nothing can help.
    Material,
    /// No man of `color` can ever attack a square the opponent's king can ever reach.
    NoCheck,
    /// Checks are possible, but no square the opponent's king can reach admits a mate: the
    /// flight squares need pieces that can never get there.
    NoMatingSquare,
    /// The helpmate search followed every line to one of the proofs above, a stalemate or
    /// the opponent's mate, within the budget of the tier named.
    Search(Tier),
    /// CHA's solver in its fast mode (the `solver` feature), consulted where ours
    /// could not decide.
    SolverFast,
    /// CHA's solver in full (the `solver` feature): `Position::winnability_full`.
    Solver,
}

impl Proof {
    /// A short name (for Python and reports): `game_over`, `material`, `no_check`,
    /// `no_mating_square`, `search_quick`, `search_deep`, `solver_fast`, `solver`.
    pub fn name(self) -> &'static str {
        match self {
            Proof::GameOver => "game_over",
            Proof::Material => "material",
            Proof::NoCheck => "no_check",
            Proof::NoMatingSquare => "no_mating_square",
            Proof::Search(Tier::Quick) => "search_quick",
            Proof::Search(Tier::Deep) => "search_deep",
            Proof::SolverFast => "solver_fast",
            Proof::Solver => "solver",
        }
    }
}

/// The two budgets of the helpmate search.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Tier {
    /// Run on every call that needs a search.
    Quick,
    /// Run only when the quick tier was inconclusive and the static analysis found fixed
    /// pawns without concluding, or few moves are on the board (`DeadOptions::locked`).
    Deep,
}

/// A bound on one helpmate search. When it runs out the answer is "unknown", so "can".
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// How many positions are expanded at most (bounds the time per call).
    pub max_nodes: u32,
    /// How long a line may grow before it counts as cut (bounds the memory, and the
    /// length of a helpmate line reported).
    pub max_plies: u32,
}

impl Budget {
    /// No search at all (the tier is switched off).
    pub const NONE: Budget = Budget {
        max_nodes: 0,
        max_plies: 0,
    };
}

/// Which proofs may answer "cannot". All are on by default; each can be switched off alone,
/// so tests show that every one of them is needed (a mutation check) and benchmarks what
/// each adds. The helpmate search is switched off by a zero budget.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ProofRules {
    /// `Proof::Material`.
    pub material: bool,
    /// `Proof::NoCheck`.
    pub no_check: bool,
    /// `Proof::NoMatingSquare`.
    pub no_mating_square: bool,
}

impl Default for ProofRules {
    fn default() -> ProofRules {
        ProofRules {
            material: true,
            no_check: true,
            no_mating_square: true,
        }
    }
}

/// The budgets and proofs behind `can_checkmate`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DeadOptions {
    pub quick: Budget,
    /// The deep tier where the static analysis found fixed pawns but could not conclude.
    pub deep: Budget,
    /// The deep tier behind its gate (`few_moves`): the exhaustive closure that
    /// proves most locked walls with a weak point, rare in real games.
    pub locked: Budget,
    pub rules: ProofRules,
    /// Positions the helpmate probe (`probe`) may look at before the locked tier's closure
    /// (0: no probe). It finds no proofs, only helpmates, so it changes no answer's
    /// soundness; it keeps the closure's cost off the positions of real games that pass the
    /// gate, where a helpmate nearly always exists.
    pub probe: u32,
    /// Where our tiers end undecided, consult CHA's solver in its fast mode
    /// (`Proof::SolverFast`). On by default when the `solver` feature is; without the
    /// feature it has no effect.
    pub solver: bool,
}

impl Default for DeadOptions {
    /// The quick tier is a handful of nodes, so that a call on a live position (where no
    /// proof exists and the search can only run out) costs a few microseconds: a node is
    /// a move generation, about 0.2 µs in an endgame and 1 µs in a full middlegame
    /// (release build). The deep tier, rare on positions from real games, is bounded so
    /// that it stays near a millisecond even with the static analysis at every node. The
    /// locked tier's 20,000 positions (a few to tens of milliseconds) are what the closure
    /// of a locked wall with a weak point needs (ALGORITHM's measure: 90% of its proofs
    /// take under ~5,300); its gate keeps it off nearly every real game's position.
    fn default() -> DeadOptions {
        DeadOptions {
            quick: Budget {
                max_nodes: 12,
                max_plies: 12,
            },
            deep: Budget {
                max_nodes: 600,
                max_plies: 600,
            },
            locked: Budget {
                max_nodes: 20_000,
                max_plies: 20_000,
            },
            rules: ProofRules::default(),
            probe: 1_000,
            solver: cfg!(feature = "solver"),
        }
    }
}

impl Position {
    /// Can `color` checkmate by some series of legal moves from here, whatever the opponent
    /// plays (R4.6, R4.9)? Never `false` when a mate exists; `true` when unsure.
    pub fn can_checkmate(&self, color: Color) -> bool {
        can_checkmate_with(self, color, &DeadOptions::default())
    }

    /// A dead position (R4.6): neither side can ever checkmate.
    pub fn is_dead_position(&self) -> bool {
        is_dead_position_with(self, &DeadOptions::default())
    }

    /// Why `can_checkmate(color)` answers as it does: the proof, the helpmate found, or
    /// unknown within the budget.
    pub fn winnability(&self, color: Color) -> Winnability {
        winnability_with(self, color, &DeadOptions::default())
    }

    /// The full tier: our own proofs first, then, where they leave the question open, CHA's
    /// solver in full (`solver::solve`), whose helpmate is replayed and checked here.
    /// Decides practically every position; hard constructed ones may take a second or more.
    /// `Unknown` only when the solver gives up within its own budget.
    #[cfg(feature = "solver")]
    pub fn winnability_full(&self, color: Color) -> Result<Winnability, solver::SolverError> {
        let ours = DeadOptions {
            solver: false,
            ..DeadOptions::default()
        };
        match winnability_with(self, color, &ours) {
            Winnability::Unknown => solver::solve(self, color),
            decided => Ok(decided),
        }
    }
}

/// `Position::can_checkmate` with explicit budgets and proofs.
pub fn can_checkmate_with(pos: &Position, color: Color, options: &DeadOptions) -> bool {
    winnability_with(pos, color, options).can_checkmate()
}

/// `Position::is_dead_position` with explicit budgets and proofs for each side.
pub fn is_dead_position_with(pos: &Position, options: &DeadOptions) -> bool {
    // The static analysis does not depend on the side asked about: make it once.
    let reach = Reach::of(pos);
    Color::ALL.into_iter().all(|color| {
        !decide(pos, reach.as_ref(), color, options)
            .winnability
            .can_checkmate()
    })
}

/// `Position::winnability` with explicit budgets and proofs.
pub fn winnability_with(pos: &Position, color: Color, options: &DeadOptions) -> Winnability {
    analyse_with(pos, color, options).winnability
}

/// The answer with what it cost: for benchmarks and for tests of the tiers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub winnability: Winnability,
    /// The last tier of the search that ran (`None`: decided without search).
    pub tier: Option<Tier>,
    /// Positions the searches expanded, both tiers together.
    pub nodes: u32,
}

/// `winnability_with`, with the tier reached and the nodes spent.
pub fn analyse_with(pos: &Position, color: Color, options: &DeadOptions) -> Analysis {
    decide(pos, Reach::of(pos).as_ref(), color, options)
}

fn decide(pos: &Position, reach: Option<&Reach>, color: Color, options: &DeadOptions) -> Analysis {
    let done = |winnability, tier, nodes| Analysis {
        winnability,
        tier,
        nodes,
    };
    let moves = pos.legal_moves();
    if moves.is_empty() {
        let w = if pos.is_check() && pos.turn() != color {
            Winnability::Helpmate(Vec::new())
        } else {
            Winnability::Unwinnable(Proof::GameOver)
        };
        return done(w, None, 0);
    }
    if let Some(proof) = static_proof(pos, Some(reach), color, options.rules) {
        return done(Winnability::Unwinnable(proof), None, 0);
    }
    let (found, quick) = search(pos, &moves, color, options.quick, options.rules);
    match found {
        Found::Mate(line) => return done(Winnability::Helpmate(line), Some(Tier::Quick), quick),
        Found::NoMate => {
            let w = Winnability::Unwinnable(Proof::Search(Tier::Quick));
            return done(w, Some(Tier::Quick), quick);
        }
        Found::Unknown => {}
    }
    // The deep tier: the locked budget behind its gate (few moves on the board, and a pawn
    // structure for the static analysis to work on), the deep one where only the static
    // analysis found fixed pawns, none elsewhere.
    let few = few_moves(pos);
    let budget = if few && reach::pawn_structure(pos) {
        options.locked
    } else if reach.is_some_and(|r| pawn_locked(pos, r)) {
        options.deep
    } else {
        Budget::NONE
    };
    // Few moves but no pawn blocked nor facing an enemy pawn on its file: the kings and
    // pieces roam freely, so the closure could only run out (tens of milliseconds: the tail
    // of random playouts' endings, K+N against K+P and the like), and so would the solver's
    // fast mode, unbounded. Only the probe looks for the helpmate.
    if few && budget != options.locked {
        if options.probe > 0 {
            let (line, nodes) = probe(pos, color, options.probe);
            if let Some(line) = line {
                return done(Winnability::Helpmate(line), Some(Tier::Deep), quick + nodes);
            }
            return done(Winnability::Unknown, Some(Tier::Deep), quick + nodes);
        }
        return done(Winnability::Unknown, Some(Tier::Quick), quick);
    }
    if budget.max_nodes == 0 {
        return done(undecided(pos, color, options), Some(Tier::Quick), quick);
    }
    // Before a closure larger than the deep tier's, look for a helpmate the cheap way: where
    // one exists (most positions of real games that pass the gate) the closure would wander
    // through thousands of positions before meeting it.
    let mut quick = quick;
    if options.probe > 0 && budget.max_nodes > options.deep.max_nodes {
        let (line, nodes) = probe(pos, color, options.probe);
        quick += nodes;
        if let Some(line) = line {
            return done(Winnability::Helpmate(line), Some(Tier::Deep), quick);
        }
    }
    let (found, deep) = search(pos, &moves, color, budget, options.rules);
    let w = match found {
        Found::Mate(line) => Winnability::Helpmate(line),
        Found::NoMate => Winnability::Unwinnable(Proof::Search(Tier::Deep)),
        // The solver's fast mode is not bounded: where our closure spent its whole budget
        // (few moves, yet too many positions), its full-width search is the costly kind too
        // (seconds on the development set), so the arbiter does not wait for it there.
        Found::Unknown if budget == options.locked => Winnability::Unknown,
        Found::Unknown => undecided(pos, color, options),
    };
    done(w, Some(Tier::Deep), quick + deep)
}

/// The gate of the locked tier's closure: few moves on the board. The number of positions
/// reachable from here grows with the moves each side has, so where both sides together have
/// at most `FEW_MOVES` (counted as single steps and slides onto squares not held by their own
/// men, pawn pushes, single and double, onto empty squares and pawn captures; pins and checks
/// ignored), the closure is likely to finish: locked walls whose kings shuffle in small
/// compartments, pieces boxed in by their own pawns. Positions from real games have far more
/// moves nearly always (3% of the sides of the last twenty plies of the repository's
/// gauntlet games pass, and the probe finds the helpmate of most of those).
///
/// It replaces the earlier gate of a locked pawn structure (some pawn head-on against an enemy
/// pawn, no pawn alone on its file): on the development set that gate adds no proof to this
/// one, but it passes many middlegames of real games (chains of head-on pawns with every
/// piece still on the board), where the closure then wandered for thousands of positions.
fn few_moves(pos: &Position) -> bool {
    mobility(pos, Color::White) + mobility(pos, Color::Black) <= FEW_MOVES
}

/// The bound of `few_moves`: on the development set, with 24 the closure proves 840 of the 929
/// unwinnable sides (an ungated closure: 844), and 3% of the sides of real game endings pass.
const FEW_MOVES: u32 = 24;

const RANK_2: u64 = 0xFF << 8;
const RANK_7: u64 = 0xFF << 48;

/// `color`'s moves as counted by `few_moves`.
pub(crate) fn mobility(pos: &Position, color: Color) -> u32 {
    let b = pos.board();
    let occupied = b.occupied();
    let own = b.by_color(color).0;
    let enemy = b.by_color(color.other()).0;
    let mut n = 0;
    for sq in b.by_color(color) {
        let targets = match b.role_at(sq) {
            Some(Role::Knight) => knight_attacks(sq).0,
            Some(Role::King) => king_attacks(sq).0,
            Some(Role::Bishop) => bishop_attacks(sq, occupied).0,
            Some(Role::Rook) => rook_attacks(sq, occupied).0,
            Some(Role::Queen) => (bishop_attacks(sq, occupied) | rook_attacks(sq, occupied)).0,
            Some(Role::Pawn) => {
                let push = reach::forward(color, Bitboard::from_square(sq).0) & !occupied.0;
                let home = Bitboard::from_square(sq).0 & [RANK_2, RANK_7][color.index()];
                let double = reach::forward(color, reach::forward(color, home) & push);
                push | (double & !occupied.0) | (pawn_attacks(color, sq).0 & enemy)
            }
            None => 0,
        };
        n += (targets & !own).count_ones();
    }
    n
}

/// The deep tier's gate: some pawn of the static analysis's fixed men stands head-on
/// against a pawn (the other fixed men, boxed pieces and pawns blocked by pieces or a king,
/// are common in real endings, where 600 positions would cost a millisecond for nothing).
fn pawn_locked(pos: &Position, reach: &Reach) -> bool {
    let pawns = pos.board().pawns().0;
    reach.fixed & pawns & (pawns << 8 | pawns >> 8) != 0
}

/// What our tiers leave open: the solver's fast mode where it is enabled, else unknown
/// ("can"). An error of the solver (a position its board cannot hold) is unknown too.
fn undecided(pos: &Position, color: Color, options: &DeadOptions) -> Winnability {
    #[cfg(feature = "solver")]
    if options.solver && solver::solve_fast(pos, color) == Ok(true) {
        return Winnability::Unwinnable(Proof::SolverFast);
    }
    let _ = (pos, color, options);
    Winnability::Unknown
}

/// A proof, without search, that `color` can never checkmate from `pos` (which has legal
/// moves). `reach` is the static analysis of `pos` when the caller has made it already
/// (`Some(None)`: made, and no pawn is fixed).
// `reach` has three states (not made, made and empty, made), as the doc says.
#[allow(clippy::option_option)]
pub(crate) fn static_proof(
    pos: &Position,
    reach: Option<Option<&Reach>>,
    color: Color,
    rules: ProofRules,
) -> Option<Proof> {
    if rules.material && pos.has_insufficient_material(color) {
        return Some(Proof::Material);
    }
    if !rules.no_check && !rules.no_mating_square {
        return None;
    }
    let made;
    let reach = if let Some(r) = reach {
        r?
    } else {
        made = Reach::of(pos)?;
        &made
    };
    if rules.no_check && no_check_possible(reach, color) {
        return Some(Proof::NoCheck);
    }
    if rules.no_mating_square && no_mating_square(pos, reach, color) {
        return Some(Proof::NoMatingSquare);
    }
    None
}
