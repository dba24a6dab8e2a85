//! The probes: WDL and DTZ of a position (captures and en passant resolved by search before
//! a table is read), and the ranking of the root moves.
//!
//! Ported from Fathom's `tbprobe.c` (jdart1/Fathom at c9c6fef: `probe_ab`, `probe_wdl`,
//! `probe_dtz`, `root_probe_dtz`, `root_probe_wdl`, `dtz_to_wdl`), which is:
//!
//! > Copyright (c) 2013-2018 Ronald de Man
//! > Copyright (c) 2015 basil00
//! > Modifications Copyright (c) 2016-2024 by Jon Dart
//! >
//! > Permission is hereby granted, free of charge, to any person obtaining a copy of this
//! > software and associated documentation files (the "Software"), to deal in the Software
//! > without restriction, including without limitation the rights to use, copy, modify,
//! > merge, publish, distribute, sublicense, and/or sell copies of the Software, and to
//! > permit persons to whom the Software is furnished to do so, subject to the following
//! > conditions:
//! >
//! > The above copyright notice and this permission notice shall be included in all copies
//! > or substantial portions of the Software.
//! >
//! > THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,
//! > INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A
//! > PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT
//! > HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF
//! > CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE
//! > OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
//!
//! Fathom's move generator and `Pos` are replaced by shatranj-chess's legal moves and
//! `Position`; its `success` out-parameter by a `Result` (failure) and a flag (the value
//! comes from a capture or en passant, Fathom's `success == 2`).

use crate::error::SyzygyError;
use crate::table::{Kind, Probed};
use crate::tablebase::Tablebase;
use shatranj_chess::{Move, Position, Role};

/// A win/draw/loss value, from the side to move's point of view. The "cursed" and
/// "blessed" values are wins and losses that the fifty-move rule turns into draws (with the
/// halfmove clock at zero).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    Loss = -2,
    BlessedLoss = -1,
    Draw = 0,
    CursedWin = 1,
    Win = 2,
}

impl Wdl {
    /// −2..=2, as python-chess's `probe_wdl` returns it.
    pub const fn value(self) -> i32 {
        self as i32
    }

    /// The value for −2..=2.
    pub const fn from_value(v: i32) -> Option<Wdl> {
        match v {
            -2 => Some(Wdl::Loss),
            -1 => Some(Wdl::BlessedLoss),
            0 => Some(Wdl::Draw),
            1 => Some(Wdl::CursedWin),
            2 => Some(Wdl::Win),
            _ => None,
        }
    }

    /// Internal values are always in range; clamping keeps that a total function.
    fn of(v: i32) -> Wdl {
        Wdl::from_value(v.clamp(-2, 2)).unwrap_or(Wdl::Draw)
    }
}

/// One legal move of a root position, as the tables judge it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub mv: Move,
    /// The outcome after the move, for the side to move at the root, counting the root's
    /// halfmove clock (a win that the clock leaves too few moves for is a cursed win).
    pub wdl: Wdl,
    /// Plies from the root to the next zeroing move, the move itself counted: positive
    /// for a win, negative for a loss, 0 for a draw (Fathom's root DTZ). In
    /// [`rank_root_moves_wdl`](Tablebase::rank_root_moves_wdl), 0.
    pub dtz: i32,
    /// Higher is better; moves of equal rank are equally good (Fathom's `tbRank`): 1000 for
    /// a win that the clock allows, 1000 − (dtz + clock) for one that it does not, 0 for a
    /// draw, −1000 for a loss that the clock does not save, and above −1000 for one that it
    /// may.
    pub rank: i32,
}

const WDL_TO_DTZ: [i32; 5] = [-1, -101, 0, 101, 1];

/// Fathom's `dtz_to_wdl`: the WDL of a DTZ (from the side to move) with `cnt50` plies on the
/// clock.
// Sign tests kept as Fathom writes them, so the port reads against it line by line.
#[allow(clippy::comparison_chain)]
fn dtz_to_wdl(cnt50: i32, dtz: i32) -> Wdl {
    if dtz > 0 {
        if dtz + cnt50 <= 100 {
            Wdl::Win
        } else {
            Wdl::CursedWin
        }
    } else if dtz < 0 {
        if -dtz + cnt50 <= 100 {
            Wdl::Loss
        } else {
            Wdl::BlessedLoss
        }
    } else {
        Wdl::Draw
    }
}

#[inline]
fn play(pos: &Position, m: Move) -> Position {
    let mut p = *pos;
    p.play_unchecked(m);
    p
}

impl Tablebase {
    /// The position's WDL value (python-chess's `probe_wdl`), the halfmove clock taken as
    /// zero. The position's own table must be there, and those its captures lead to.
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl, SyzygyError> {
        refuse_castling(pos)?;
        self.require(pos, Kind::Wdl)?;
        Ok(Wdl::of(self.wdl(pos)?.0))
    }

    /// The position's DTZ (python-chess's `probe_dtz`): plies to the next capture or pawn
    /// move with best play, positive when the side to move wins, negative when it loses, 0
    /// for a draw; beyond ±100 the win or loss is one the fifty-move rule draws. As with
    /// every Syzygy prober, a value can be one ply longer than the true distance (never
    /// where it matters for the fifty-move rule; see Fathom's notes), and a mated side gets
    /// −1.
    pub fn probe_dtz(&self, pos: &Position) -> Result<i32, SyzygyError> {
        refuse_castling(pos)?;
        self.require(pos, Kind::Wdl)?;
        self.require(pos, Kind::Dtz)?;
        self.dtz(pos)
    }

    /// The WDL value stored in the table (python-chess's `probe_wdl_table`): captures and
    /// en passant are not looked at, so this is the position's value only when no capture
    /// changes it. For tests and tools that check the tables themselves.
    pub fn probe_wdl_table(&self, pos: &Position) -> Result<Wdl, SyzygyError> {
        refuse_castling(pos)?;
        self.require(pos, Kind::Wdl)?;
        Ok(Wdl::of(self.wdl_table(pos)?))
    }

    /// The value stored in the DTZ table for a position whose WDL is `wdl`
    /// (python-chess's `probe_dtz_table`), or `None` where the table stores only the other
    /// side to move (DTZ tables keep one side). Captures, en passant and the sign are not
    /// applied: [`probe_dtz`](Tablebase::probe_dtz) does that.
    pub fn probe_dtz_table(&self, pos: &Position, wdl: Wdl) -> Result<Option<i32>, SyzygyError> {
        refuse_castling(pos)?;
        self.require(pos, Kind::Dtz)?;
        if pos.board().occupied().count() == 2 {
            return Ok(Some(0)); // KvK: no file, and nothing to count.
        }
        match self.probe_table(pos, Kind::Dtz, wdl.value())? {
            Probed::Value(v) => Ok(Some(v)),
            Probed::OtherSide => Ok(None),
        }
    }

    /// Every legal move with its WDL, DTZ and rank, by the DTZ tables (Fathom's
    /// `root_probe_dtz`): the moves of the highest rank keep the best outcome the fifty-move
    /// rule allows from here, counting the position's halfmove clock. With `has_repeated`
    /// (the game has repeated a position since the last zeroing move), wins are ranked by
    /// their DTZ, so the engine makes progress instead of shuffling.
    // Sign tests kept as Fathom writes them, so the port reads against it line by line.
    #[allow(clippy::comparison_chain)]
    pub fn rank_root_moves(
        &self,
        pos: &Position,
        has_repeated: bool,
    ) -> Result<Vec<RootMove>, SyzygyError> {
        refuse_castling(pos)?;
        let cnt50 = pos.halfmove_clock().min(1000) as i32;
        let mut out = Vec::new();
        for &m in &pos.legal_moves() {
            let after = play(pos, m);
            let mut v = if pos.is_zeroing(m) {
                // The move resets the clock: its DTZ is -101/-1/0/1/101.
                WDL_TO_DTZ[(2 - self.wdl(&after)?.0) as usize]
            } else {
                // Otherwise the DTZ after it, one ply longer.
                let v = -self.dtz(&after)?;
                v + v.signum()
            };
            if v == 2 && after.is_checkmate() {
                v = 1;
            }
            let rank = if v > 0 {
                if v + cnt50 <= 99 && !has_repeated {
                    1000
                } else {
                    1000 - (v + cnt50)
                }
            } else if v < 0 {
                if -v * 2 + cnt50 < 100 {
                    -1000
                } else {
                    -1000 + (-v + cnt50)
                }
            } else {
                0
            };
            out.push(RootMove {
                mv: m,
                wdl: dtz_to_wdl(cnt50, v),
                dtz: v,
                rank,
            });
        }
        Ok(out)
    }

    /// Every legal move with its WDL and rank by the WDL tables alone (Fathom's
    /// `root_probe_wdl`, for when DTZ tables are missing). Without `use_rule50`, cursed wins
    /// and blessed losses count as wins and losses.
    pub fn rank_root_moves_wdl(
        &self,
        pos: &Position,
        use_rule50: bool,
    ) -> Result<Vec<RootMove>, SyzygyError> {
        const WDL_TO_RANK: [i32; 5] = [-1000, -899, 0, 899, 1000];
        refuse_castling(pos)?;
        let mut out = Vec::new();
        for &m in &pos.legal_moves() {
            let mut v = -self.wdl(&play(pos, m))?.0;
            if !use_rule50 {
                v = 2 * v.signum();
            }
            out.push(RootMove {
                mv: m,
                wdl: Wdl::of(v),
                dtz: 0,
                rank: WDL_TO_RANK[(v + 2) as usize],
            });
        }
        Ok(out)
    }

    fn wdl_table(&self, pos: &Position) -> Result<i32, SyzygyError> {
        match self.probe_table(pos, Kind::Wdl, 0)? {
            Probed::Value(v) => Ok(v),
            // WDL tables answer for both sides (or say why not).
            Probed::OtherSide => Ok(0),
        }
    }

    /// Fathom's `probe_ab`: alpha-beta over captures, for positions without en passant
    /// rights (a capture never leaves any).
    fn probe_ab(&self, pos: &Position, mut alpha: i32, beta: i32) -> Result<i32, SyzygyError> {
        for &m in &pos.legal_captures() {
            if !pos.is_capture(m) {
                continue; // a promotion without a capture
            }
            let v = -self.probe_ab(&play(pos, m), -beta, -alpha)?;
            if v > alpha {
                if v >= beta {
                    return Ok(v);
                }
                alpha = v;
            }
        }
        let v = self.wdl_table(pos)?;
        Ok(alpha.max(v))
    }

    /// Fathom's `probe_wdl`: the value, and whether it comes from a capture (a winning one,
    /// or an en passant capture that beats the table, Fathom's `success == 2`), which tells
    /// the DTZ probe that the best move zeroes the clock.
    pub(crate) fn wdl(&self, pos: &Position) -> Result<(i32, bool), SyzygyError> {
        // Capture resolution: best_cap is the best capture without en passant, best_ep the
        // en passant captures where they do better.
        let mut best_cap = -3;
        let mut best_ep = -3;
        for &m in &pos.legal_captures() {
            if !pos.is_capture(m) {
                continue;
            }
            let v = -self.probe_ab(&play(pos, m), -2, -best_cap)?;
            if v > best_cap {
                if v == 2 {
                    return Ok((2, true));
                }
                if !m.is_en_passant() {
                    best_cap = v;
                } else if v > best_ep {
                    best_ep = v;
                }
            }
        }
        let v = self.wdl_table(pos)?;

        // max(v, best_cap) is the value of the position without en passant rights. Unless
        // that position is stalemate, the value is max(v, best_cap, best_ep).
        if best_ep > best_cap {
            if best_ep > v {
                return Ok((best_ep, true)); // en passant (maybe a cursed loss) is best
            }
            best_cap = best_ep;
        }
        if best_cap >= v {
            return Ok((best_cap, best_cap > 0));
        }
        // Without en passant the position would be stalemate: the table says draw, but the
        // side to move must capture.
        if best_ep > -3 && v == 0 {
            let only_ep = pos.legal_moves().iter().all(|m| m.is_en_passant());
            if only_ep && !pos.is_check() {
                return Ok((best_ep, true));
            }
        }
        Ok((v, false))
    }

    /// Fathom's `probe_dtz`.
    pub(crate) fn dtz(&self, pos: &Position) -> Result<i32, SyzygyError> {
        let (wdl, from_capture) = self.wdl(pos)?;
        if wdl == 0 {
            return Ok(0);
        }
        // A winning capture, or en passant as the only best move.
        if from_capture {
            return Ok(WDL_TO_DTZ[(wdl + 2) as usize]);
        }
        let moves = pos.legal_moves();
        // Winning: a pawn move that keeps the win zeroes at once.
        if wdl > 0 {
            for &m in &moves {
                if pos.moved_role(m) != Some(Role::Pawn) || pos.is_capture(m) {
                    continue;
                }
                let v = -self.wdl(&play(pos, m))?.0;
                if v == wdl {
                    return Ok(WDL_TO_DTZ[(wdl + 2) as usize]);
                }
            }
        }
        // The best move is no en passant capture, so wdl is also the value without en
        // passant rights, and the DTZ table can be read with it.
        match self.probe_table(pos, Kind::Dtz, wdl)? {
            Probed::Value(dtz) => {
                return Ok(WDL_TO_DTZ[(wdl + 2) as usize] + if wdl > 0 { dtz } else { -dtz });
            }
            Probed::OtherSide => {}
        }
        // The table stores the other side to move: one ply of search over the moves that
        // do not zero (captures and pawn moves are already accounted for: by the check
        // above when winning, by the starting value when losing).
        let mut best = if wdl > 0 {
            i32::MAX
        } else {
            // A (cursed) loss: at worst a losing capture or pawn move, -1 or -101; a mated
            // side gets -1.
            WDL_TO_DTZ[(wdl + 2) as usize]
        };
        for &m in &moves {
            if pos.is_capture(m) || pos.moved_role(m) == Some(Role::Pawn) {
                continue;
            }
            let after = play(pos, m);
            let v = -self.dtz(&after)?;
            if v == 1 && after.is_checkmate() {
                best = 1;
            } else if wdl > 0 {
                if v > 0 && v + 1 < best {
                    best = v + 1;
                }
            } else if v - 1 < best {
                best = v - 1;
            }
        }
        if best == i32::MAX {
            // Only a damaged table can say "won" and offer no winning move.
            return Err(self.damaged(pos, Kind::Dtz, "a won position has no winning move"));
        }
        Ok(best)
    }
}

fn refuse_castling(pos: &Position) -> Result<(), SyzygyError> {
    if pos.castling_rights().is_empty() {
        Ok(())
    } else {
        Err(SyzygyError::CastlingRights)
    }
}
