//! The engine's use of Syzygy endgame tablebases: the settings (UCI's `SyzygyPath`,
//! `SyzygyProbeDepth`, `SyzygyProbeLimit`, `Syzygy50MoveRule`), the ranking that narrows
//! the root moves to those that keep the tables' best outcome, and the WDL probe that ends
//! a search node after a capture or pawn move with an exact tablebase score.
//!
//! The probing itself is [`shatranj_syzygy`]'s; one [`Tablebase`] is shared by every search
//! thread through an [`Arc`] (its probes take `&self`).

use crate::score::{DRAW, TB_WIN, Value, tb_loss_in, tb_win_in};
use crate::tt::Bound;
use shatranj_chess::{Color, Move, Position};
use shatranj_syzygy::RootMove as TableMove;
/// The prober's types, so that users of the engine need no dependency of their own.
pub use shatranj_syzygy::{SyzygyError, Tablebase, Wdl};
use std::path::PathBuf;
use std::sync::Arc;

/// The default of `SyzygyProbeDepth`: probe at every depth.
pub const DEFAULT_PROBE_DEPTH: i32 = 1;
/// The largest `SyzygyProbeDepth`.
pub const MAX_PROBE_DEPTH: i32 = 100;
/// The default and largest `SyzygyProbeLimit`: the largest tables published have 7 men.
pub const MAX_PROBE_LIMIT: usize = 7;

/// How the engine uses tablebases: which tables, and where in the search it probes them.
#[derive(Clone)]
pub struct SyzygySettings {
    /// The tables (`None`: no `SyzygyPath`, so no probes at all).
    pub tables: Option<Arc<Tablebase>>,
    /// The search probes only at this depth or deeper (`SyzygyProbeDepth`), except in
    /// positions with fewer men than the largest tables, which are probed at every depth.
    pub probe_depth: i32,
    /// Positions with more men than this are not probed (`SyzygyProbeLimit`; 0 turns
    /// probing off).
    pub probe_limit: usize,
    /// Whether a win the fifty-move rule spoils (a "cursed" win) scores as the draw it is
    /// under that rule, as it does in a game (`Syzygy50MoveRule`); without it, as a win.
    pub rule50: bool,
}

impl Default for SyzygySettings {
    fn default() -> SyzygySettings {
        SyzygySettings {
            tables: None,
            probe_depth: DEFAULT_PROBE_DEPTH,
            probe_limit: MAX_PROBE_LIMIT,
            rule50: true,
        }
    }
}

impl PartialEq for SyzygySettings {
    /// Two settings are equal with the same tables object (not merely the same files).
    fn eq(&self, other: &SyzygySettings) -> bool {
        let same_tables = match (&self.tables, &other.tables) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        same_tables
            && self.probe_depth == other.probe_depth
            && self.probe_limit == other.probe_limit
            && self.rule50 == other.rule50
    }
}

impl Eq for SyzygySettings {}

impl std::fmt::Debug for SyzygySettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SyzygySettings")
            .field(
                "directories",
                &self.tables.as_ref().map(|t| t.directories().to_vec()),
            )
            .field("probe_depth", &self.probe_depth)
            .field("probe_limit", &self.probe_limit)
            .field("rule50", &self.rule50)
            .finish()
    }
}

impl SyzygySettings {
    /// The most men a position may have to be probed: the probe limit, or the largest
    /// tables found if they are smaller (Stockfish's `Cardinality`). 0 without tables.
    pub fn cardinality(&self) -> usize {
        self.tables
            .as_ref()
            .map_or(0, |t| t.max_pieces().min(self.probe_limit))
    }

    /// What the search threads need to probe, if probing is on.
    pub(crate) fn for_search(&self) -> Option<SearchProbe> {
        let cardinality = self.cardinality();
        let tables = self.tables.as_ref()?;
        (cardinality > 0).then(|| SearchProbe {
            tables: Arc::clone(tables),
            cardinality,
            probe_depth: self.probe_depth,
            rule50: self.rule50,
        })
    }
}

/// A `SyzygyPath` read: the tables of the directories that could be read, and why the others
/// could not.
pub struct OpenedTables {
    /// `None` when no directory held a table.
    pub tables: Option<Arc<Tablebase>>,
    /// Each directory that could not be listed, with the error.
    pub failures: Vec<(PathBuf, SyzygyError)>,
}

/// Reads a `SyzygyPath` value: directories separated by `:` (`;` on Windows); empty or
/// `<empty>` (the UCI default) means none. A directory that cannot be read is reported in
/// [`OpenedTables::failures`] and the others are still used (as Stockfish skips them), so one
/// mistyped entry does not lose the rest.
pub fn open_path_list(list: &str) -> OpenedTables {
    let list = list.trim();
    let mut tables = Tablebase::new();
    let mut failures = Vec::new();
    if list != "<empty>" {
        for dir in std::env::split_paths(list).filter(|p| !p.as_os_str().is_empty()) {
            if let Err(e) = tables.add_directory(&dir) {
                failures.push((dir, e));
            }
        }
    }
    OpenedTables {
        tables: (tables.max_pieces() > 0).then(|| Arc::new(tables)),
        failures,
    }
}

/// The search threads' view of the settings, with the cardinality worked out once.
pub(crate) struct SearchProbe {
    pub tables: Arc<Tablebase>,
    pub cardinality: usize,
    pub probe_depth: i32,
    pub rule50: bool,
}

impl SearchProbe {
    /// The tablebase score of a node at `ply` searched to `depth`, and the bound it is,
    /// when the node is one to probe: right after a capture or pawn move (the tables are
    /// exact only with the halfmove clock at zero), without castling rights, within the
    /// cardinality, and deep enough (Stockfish's rule: positions with fewer men than the
    /// cardinality are probed at any depth). `None` also when the probe fails (a missing or
    /// damaged table): the node is then searched as usual.
    ///
    /// A win is a lower bound (a mate may be found that is better still), a loss an upper
    /// bound, a draw exact. With the fifty-move rule, cursed wins and blessed losses score
    /// ±2 (a draw, but one worth playing for).
    #[inline]
    pub fn probe(&self, pos: &Position, depth: i32, ply: usize) -> Option<(Value, Bound)> {
        if pos.halfmove_clock() != 0 || !pos.castling_rights().is_empty() {
            return None;
        }
        let men = pos.board().occupied().count() as usize;
        if men > self.cardinality || (men == self.cardinality && depth < self.probe_depth) {
            return None;
        }
        let wdl = self.tables.probe_wdl(pos).ok()?;
        Some(wdl_score(wdl, ply, self.rule50))
    }
}

/// The search score and bound of a WDL value at `ply`.
fn wdl_score(wdl: Wdl, ply: usize, rule50: bool) -> (Value, Bound) {
    let draw_score = i32::from(rule50);
    let w = wdl.value();
    if w > draw_score {
        (tb_win_in(ply), Bound::Lower)
    } else if w < -draw_score {
        (tb_loss_in(ply), Bound::Upper)
    } else {
        (DRAW + 2 * w * draw_score, Bound::Exact)
    }
}

/// The WDL of `pos` when it is within the tables: no castling rights (the tables know
/// none), at most [`SyzygySettings::cardinality`] men, and a table that answers. `None`
/// otherwise (also for a missing or damaged table: the caller plays on as without tables).
/// The WDL assumes the halfmove clock at zero, as the tables do.
pub fn probe_within(settings: &SyzygySettings, pos: &Position) -> Option<Wdl> {
    let tables = settings.tables.as_ref()?;
    let men = pos.board().occupied().count() as usize;
    if men > settings.cardinality() || !pos.castling_rights().is_empty() {
        return None;
    }
    tables.probe_wdl(pos).ok()
}

/// The result the tables give a game reaching `pos`, as self-play and data generation
/// adjudicate it: `Some(winner)` (a draw is `Some(None)`) when `pos` is within the tables
/// ([`probe_within`]), `None` to play on. Games there apply the fifty-move rule, so a cursed
/// win or a blessed loss is a draw whatever `Syzygy50MoveRule` says (as the match runner's
/// `-tb` without `-tbignore50`).
pub fn game_result(settings: &SyzygySettings, pos: &Position) -> Option<Option<Color>> {
    let mover = pos.turn();
    Some(match probe_within(settings, pos)? {
        Wdl::Win => Some(mover),
        Wdl::Loss => Some(mover.other()),
        Wdl::Draw | Wdl::CursedWin | Wdl::BlessedLoss => None,
    })
}

/// The root moves the tables allow, and what the root is worth by them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootRanking {
    /// The moves to search: those that keep the best outcome. Where that is a win, only the
    /// moves that reach the next capture or pawn move (or mate) soonest, so that a won
    /// position is converted, never shuffled; where it is a loss, those that put it off
    /// longest; where a draw, every drawing move.
    pub moves: Vec<Move>,
    /// The root's value by the tables, from the side to move (a tablebase win or loss,
    /// or a draw score); reported instead of the search's own score unless that is a mate.
    pub score: Value,
    /// Whether the DTZ tables ranked the moves (else the WDL tables alone did).
    pub by_dtz: bool,
    /// Probes made: one per legal move, as `tbhits` counts them.
    pub probes: u64,
}

/// Ranks the root's moves by the tables, if the root is within them: no castling rights
/// and no more men than the cardinality. By DTZ where the DTZ tables are there, else by WDL.
/// `previous_keys` are the game's positions before the root (oldest first): if one since
/// the last capture or pawn move has repeated, wins are ranked by their DTZ even where
/// the fifty-move rule leaves time (Fathom's `has_repeated`). `searchmoves` (if not empty)
/// are the only moves considered.
pub fn rank_root(
    settings: &SyzygySettings,
    root: &Position,
    previous_keys: &[u64],
    searchmoves: &[Move],
) -> Option<RootRanking> {
    let tables = settings.tables.as_ref()?;
    let men = root.board().occupied().count() as usize;
    if men > settings.cardinality() || !root.castling_rights().is_empty() {
        return None;
    }
    let (ranked, by_dtz) = match tables.rank_root_moves(root, has_repeated(root, previous_keys)) {
        Ok(ranked) => (ranked, true),
        Err(_) => (
            tables.rank_root_moves_wdl(root, settings.rule50).ok()?,
            false,
        ),
    };
    let probes = ranked.len() as u64;
    let allowed: Vec<TableMove> = ranked
        .into_iter()
        .filter(|m| searchmoves.is_empty() || searchmoves.contains(&m.mv))
        .collect();
    let best_rank = allowed.iter().map(|m| m.rank).max()?;
    let mut kept: Vec<TableMove> = allowed
        .into_iter()
        .filter(|m| m.rank == best_rank)
        .collect();
    if by_dtz {
        // Among equally ranked wins, the fastest conversion; among losses, the slowest.
        let target = match best_rank.cmp(&0) {
            std::cmp::Ordering::Greater => kept.iter().map(|m| m.dtz).filter(|&d| d > 0).min(),
            std::cmp::Ordering::Less => kept.iter().map(|m| m.dtz).filter(|&d| d < 0).min(),
            std::cmp::Ordering::Equal => None,
        };
        if let Some(dtz) = target {
            kept.retain(|m| m.dtz == dtz);
        }
    }
    let score = root_score(kept[0].wdl, settings.rule50);
    Some(RootRanking {
        moves: kept.iter().map(|m| m.mv).collect(),
        score,
        by_dtz,
        probes,
    })
}

/// The value reported for a root whose best move keeps `wdl`.
fn root_score(wdl: Wdl, rule50: bool) -> Value {
    match wdl {
        Wdl::Win => TB_WIN,
        Wdl::Loss => -TB_WIN,
        Wdl::CursedWin if !rule50 => TB_WIN,
        Wdl::BlessedLoss if !rule50 => -TB_WIN,
        other => 2 * other.value(),
    }
}

/// Whether a position of the game has occurred twice since the last capture or pawn move
/// (the root's halfmove clock says how far back that was).
fn has_repeated(root: &Position, previous_keys: &[u64]) -> bool {
    let reach = (root.halfmove_clock() as usize).min(previous_keys.len());
    let mut since_zeroing: Vec<u64> = previous_keys[previous_keys.len() - reach..].to_vec();
    since_zeroing.push(root.key());
    since_zeroing.sort_unstable();
    since_zeroing.windows(2).any(|w| w[0] == w[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables() -> Arc<Tablebase> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/syzygy/regular");
        Arc::new(Tablebase::open([dir]).unwrap())
    }

    fn settings() -> SyzygySettings {
        SyzygySettings {
            tables: Some(tables()),
            ..SyzygySettings::default()
        }
    }

    #[test]
    fn wdl_scores_follow_the_fifty_move_rule_setting() {
        assert_eq!(wdl_score(Wdl::Win, 3, true), (tb_win_in(3), Bound::Lower));
        assert_eq!(wdl_score(Wdl::Loss, 3, true), (tb_loss_in(3), Bound::Upper));
        assert_eq!(wdl_score(Wdl::Draw, 3, true), (0, Bound::Exact));
        assert_eq!(wdl_score(Wdl::CursedWin, 3, true), (2, Bound::Exact));
        assert_eq!(wdl_score(Wdl::BlessedLoss, 3, true), (-2, Bound::Exact));
        assert_eq!(
            wdl_score(Wdl::CursedWin, 3, false),
            (tb_win_in(3), Bound::Lower)
        );
        assert_eq!(
            wdl_score(Wdl::BlessedLoss, 3, false),
            (tb_loss_in(3), Bound::Upper)
        );
    }

    #[test]
    fn the_search_probes_only_after_zeroing_moves_within_the_limits() {
        let probe = settings().for_search().unwrap();
        assert_eq!(probe.cardinality, 4);
        let krk: Position = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1".parse().unwrap();
        assert_eq!(probe.probe(&krk, 1, 2), Some((tb_win_in(2), Bound::Lower)));
        let clock: Position = "8/8/8/4k3/8/8/8/R3K3 w - - 3 1".parse().unwrap();
        assert_eq!(probe.probe(&clock, 5, 2), None, "the clock is not zero");
        let castling: Position = "8/8/8/4k3/8/8/8/R3K3 w Q - 0 1".parse().unwrap();
        assert_eq!(probe.probe(&castling, 5, 2), None, "castling rights");
        let five: Position = "8/8/8/4k3/8/8/3P4/R3K2R w - - 0 1".parse().unwrap();
        assert_eq!(probe.probe(&five, 5, 2), None, "more men than the tables");
        // At the cardinality, only from the probe depth on; below it, at any depth.
        let deep = SyzygySettings {
            probe_depth: 4,
            ..settings()
        }
        .for_search()
        .unwrap();
        let kqkr: Position = "4Q3/8/1K6/8/1r6/8/1k6/8 w - - 0 1".parse().unwrap();
        assert_eq!(deep.probe(&kqkr, 3, 2), None);
        assert_eq!(deep.probe(&kqkr, 4, 2), Some((tb_win_in(2), Bound::Lower)));
        assert!(deep.probe(&krk, 1, 2).is_some());
        let limited = SyzygySettings {
            probe_limit: 3,
            ..settings()
        };
        assert_eq!(limited.cardinality(), 3);
        assert_eq!(limited.for_search().unwrap().probe(&kqkr, 9, 0), None);
        assert!(limited.for_search().unwrap().probe(&krk, 9, 0).is_some());
        assert!(
            SyzygySettings {
                probe_limit: 0,
                ..settings()
            }
            .for_search()
            .is_none()
        );
        assert!(SyzygySettings::default().for_search().is_none());
    }

    #[test]
    fn the_root_keeps_the_fastest_win_and_every_draw() {
        let settings = settings();
        // KQvK: only the moves with the shortest DTZ are searched, and the root is won.
        let kqk: Position = "8/8/8/4k3/8/8/8/3QK3 w - - 0 1".parse().unwrap();
        let ranking = rank_root(&settings, &kqk, &[], &[]).unwrap();
        assert!(ranking.by_dtz);
        assert_eq!(ranking.score, TB_WIN);
        assert_eq!(ranking.probes, kqk.legal_moves().len() as u64);
        let tables = settings.tables.as_ref().unwrap();
        let best = tables
            .rank_root_moves(&kqk, false)
            .unwrap()
            .iter()
            .map(|m| m.dtz)
            .filter(|&d| d > 0)
            .min()
            .unwrap();
        for &m in &ranking.moves {
            let mut after = kqk;
            after.play_unchecked(m);
            assert_eq!(tables.probe_dtz(&after).unwrap(), -(best - 1), "{m}");
        }
        // KRvKR: a draw, held by every move that does not lose the rook.
        let krkr: Position = "8/8/3k4/3r4/8/8/3R4/3K4 w - - 0 1".parse().unwrap();
        let ranking = rank_root(&settings, &krkr, &[], &[]).unwrap();
        assert_eq!(ranking.score, DRAW);
        for &m in &ranking.moves {
            let mut after = krkr;
            after.play_unchecked(m);
            assert_eq!(tables.probe_wdl(&after).unwrap(), Wdl::Draw, "{m}");
        }
        assert!(ranking.moves.len() < krkr.legal_moves().len());
        // Castling rights or too many men: not in the tables.
        let castling: Position = "8/8/8/4k3/8/8/8/R3K3 w Q - 0 1".parse().unwrap();
        assert_eq!(rank_root(&settings, &castling, &[], &[]), None);
        // searchmoves narrows the choice before the ranking does.
        let d1d2 = Move::from_uci(&kqk, "d1d2").unwrap();
        let only = rank_root(&settings, &kqk, &[], &[d1d2]).unwrap();
        assert_eq!(only.moves, vec![d1d2]);
    }

    #[test]
    fn games_are_decided_within_the_tables_under_the_fifty_move_rule() {
        let settings = settings();
        let result = |fen: &str| game_result(&settings, &fen.parse().unwrap());
        // KQvK, White to move: won; Black to move in the same position: still lost for Black.
        assert_eq!(
            result("8/8/8/4k3/8/8/8/3QK3 w - - 0 1"),
            Some(Some(Color::White))
        );
        assert_eq!(
            result("8/8/8/4k3/8/8/8/3QK3 b - - 0 1"),
            Some(Some(Color::White))
        );
        // KRvKR: a draw.
        assert_eq!(result("8/8/3k4/3r4/8/8/3R4/3K4 w - - 0 1"), Some(None));
        // Castling rights, too many men, or no tables: play on.
        assert_eq!(result("8/8/8/4k3/8/8/8/R3K3 w Q - 0 1"), None);
        assert_eq!(result("8/8/8/4k3/8/8/3P4/R3K2R w - - 0 1"), None);
        let none = SyzygySettings::default();
        assert_eq!(
            game_result(&none, &"8/8/8/4k3/8/8/8/3QK3 w - - 0 1".parse().unwrap()),
            None
        );
    }

    #[test]
    fn repetitions_since_the_last_zeroing_move_are_seen() {
        let start: Position = "8/8/8/4k3/8/8/8/3QK3 w - - 0 1".parse().unwrap();
        let mut pos = start;
        let mut keys = Vec::new();
        for m in ["e1e2", "e5e6", "e2e1", "e6e5"] {
            keys.push(pos.key());
            pos.play(Move::from_uci(&pos, m).unwrap()).unwrap();
        }
        assert!(has_repeated(&pos, &keys));
        assert!(
            !has_repeated(&pos, &keys[1..]),
            "the first position is left out"
        );
        // With the clock at zero, the positions before are beyond the last zeroing move.
        assert!(!has_repeated(&start, &keys));
    }
}
