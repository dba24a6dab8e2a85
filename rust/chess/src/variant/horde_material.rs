//! Whether the horde (White in horde) can still checkmate: lichess's mating-material
//! analysis for horde, as published by its author (Stefanos Papazis,
//! <https://github.com/stevepapazis/horde-insufficient-material-tests>, the analysis lichess
//! and python-chess adopted). Written here from that published analysis; python-chess's
//! `HordeBoard.has_insufficient_material` is the test oracle (`tests/variant_horde_material.rs`
//! and the seeded differential in `tests/variant_python_chess.rs`).
//!
//! The question is not whether White can force mate but whether any mate is possible at
//! all, even with Black's help. Mates split in two:
//!
//! * White controls every square around the king itself. That needs at least: a queen or a
//!   pawn plus anything; a rook plus a rook or a knight; a rook plus two bishops; the
//!   bishop pair plus a knight or a bishop; three knights; two knights and a bishop; or any
//!   four men. Bishops beyond two on one square colour add nothing (two already cover that
//!   colour's squares around the king), so they are not counted.
//! * White has less, and Black's own men must close the king's escape squares without
//!   being able to capture or block the checking piece. Which of Black's men can do that
//!   depends on White's material; the patterns are in [`defenders_allow_mate`].
//!
//! Black's pawns may promote, so where a pattern needs a knight or a rook a Black pawn will
//! do; a White pawn alone can mate wherever any piece it may become could.
//!
//! Black can always win by capturing the whole horde, so only White's material is analysed.

use crate::bitboard::Bitboard;
use crate::{Board, Color, Role};

/// Black's men other than the king, by what they do in a mating net. A bishop's square
/// colour matters: it can never close a square of the other colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Defender {
    Pawn,
    Knight,
    LightBishop,
    DarkBishop,
    Rook,
    Queen,
}

/// A set of [`Defender`] kinds: what may fill one place in a mating pattern.
#[derive(Copy, Clone, Debug)]
struct Kinds(u8);

impl Kinds {
    const fn of(kinds: &[Defender]) -> Kinds {
        let mut bits = 0;
        let mut i = 0;
        while i < kinds.len() {
            bits |= 1 << kinds[i] as u8;
            i += 1;
        }
        Kinds(bits)
    }
    const ANY: Kinds = Kinds(0b11_1111);

    fn contains(self, kind: usize) -> bool {
        self.0 & (1 << kind) != 0
    }
    fn without(self, kind: Defender) -> Kinds {
        Kinds(self.0 & !(1 << kind as u8))
    }
}

use Defender::{DarkBishop, Knight, LightBishop, Pawn, Queen, Rook};

/// How many of each [`Defender`] kind Black has (indexed by the kind).
#[derive(Copy, Clone, Debug)]
struct Defenders([u32; 6]);

impl Defenders {
    fn of(board: &Board) -> Defenders {
        let black = board.by_color(Color::Black);
        let bishops = board.bishops() & black;
        Defenders([
            (board.pawns() & black).count(),
            (board.knights() & black).count(),
            (bishops & Bitboard::LIGHT_SQUARES).count(),
            (bishops & Bitboard::DARK_SQUARES).count(),
            (board.rooks() & black).count(),
            (board.queens() & black).count(),
        ])
    }

    fn count(&self, kind: Defender) -> u32 {
        self.0[kind as usize]
    }

    /// Bishops on one square colour counted once (the lone knight's patterns).
    fn one_bishop_per_colour(mut self) -> Defenders {
        for kind in [LightBishop, DarkBishop] {
            self.0[kind as usize] = self.0[kind as usize].min(1);
        }
        self
    }

    /// Black has distinct men filling every place of `places` (each place the kinds that
    /// may fill it). At most three places, so trying each kind for each place in turn is
    /// cheap.
    fn can_fill(mut self, places: &[Kinds]) -> bool {
        let Some((first, rest)) = places.split_first() else {
            return true;
        };
        for kind in 0..6 {
            if first.contains(kind) && self.0[kind] > 0 {
                self.0[kind] -= 1;
                if self.can_fill(rest) {
                    return true;
                }
                self.0[kind] += 1;
            }
        }
        false
    }
}

/// White's lone piece, or the piece a lone pawn would become.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Lone {
    Queen,
    Rook,
    Bishop { light: bool },
    Knight,
}

/// The bishop of the other square colour than a White bishop's.
fn opposite_bishop(light: bool) -> Defender {
    if light { DarkBishop } else { LightBishop }
}

fn same_bishop(light: bool) -> Defender {
    if light { LightBishop } else { DarkBishop }
}

/// A lone White piece can mate only with these Black men walling in the king.
fn lone_piece_can_mate(piece: Lone, black: Defenders) -> bool {
    match piece {
        // A pawn or a rook beside the cornered king, or two bishops of one colour.
        Lone::Queen => {
            black.count(Pawn) > 0
                || black.count(Rook) > 0
                || black.count(LightBishop) >= 2
                || black.count(DarkBishop) >= 2
        }
        // A back rank closed by a pawn or rook and a pawn or knight, neither able to
        // interpose or capture.
        Lone::Rook => black.can_fill(&[Kinds::of(&[Pawn, Rook]), Kinds::of(&[Pawn, Knight])]),
        // Two men of the squares the bishop does not see.
        Lone::Bishop { light } => {
            let walls = Kinds::of(&[Pawn, opposite_bishop(light)]);
            black.can_fill(&[walls, walls])
        }
        // A knight or rook, a pawn, knight or bishop, and one more; bishops on one colour
        // count once.
        Lone::Knight => black.one_bishop_per_colour().can_fill(&[
            Kinds::of(&[Knight, Rook, Pawn]),
            Kinds::of(&[Pawn, Knight, LightBishop, DarkBishop]),
            Kinds::ANY,
        ]),
    }
}

/// White's material, by role, with its bishops by square colour.
#[derive(Copy, Clone, Debug)]
struct Horde {
    pawns: u32,
    knights: u32,
    light_bishops: u32,
    dark_bishops: u32,
    rooks: u32,
    queens: u32,
}

impl Horde {
    fn of(board: &Board) -> Horde {
        let white = board.by_color(Color::White);
        let count = |role: Role| (board.by_role(role) & white).count();
        let bishops = board.bishops() & white;
        Horde {
            pawns: count(Role::Pawn),
            knights: count(Role::Knight),
            light_bishops: (bishops & Bitboard::LIGHT_SQUARES).count(),
            dark_bishops: (bishops & Bitboard::DARK_SQUARES).count(),
            rooks: count(Role::Rook),
            queens: count(Role::Queen),
        }
    }

    fn bishops(&self) -> u32 {
        self.light_bishops + self.dark_bishops
    }

    /// The men that count toward a mate: bishops past two on one colour do not.
    fn attackers(&self) -> u32 {
        self.pawns
            + self.knights
            + self.rooks
            + self.queens
            + self.light_bishops.min(2)
            + self.dark_bishops.min(2)
    }

    /// White can cover every square around the king without Black's help.
    fn mates_alone(&self) -> bool {
        let n = self.attackers();
        n >= 4
            || (n >= 2 && (self.pawns > 0 || self.queens > 0))
            || (self.rooks > 0 && (self.rooks >= 2 || self.knights > 0 || self.bishops() >= 2))
            || (self.light_bishops > 0 && self.dark_bishops > 0 && n >= 3)
            || self.knights >= 3
            || (self.knights == 2 && self.bishops() > 0)
    }
}

/// With less than [`Horde::mates_alone`] needs, whether Black's men can wall in their own
/// king for White's `horde`.
fn defenders_allow_mate(horde: &Horde, black: Defenders) -> bool {
    let any_man = Kinds::ANY;
    let light = horde.light_bishops > 0;
    match horde.attackers() {
        // A knight and bishops on one colour: any Black man to spend the tempo that
        // avoids stalemate.
        3 => black.can_fill(&[any_man]),
        // Rook and bishop: one Black man on the escape square neither covers, which is
        // of the other colour than the White bishop's, so no bishop of its colour.
        2 if horde.rooks > 0 => black.can_fill(&[any_man.without(same_bishop(light))]),
        2 if horde.knights == 2 => {
            black.can_fill(&[Kinds::of(&[Pawn, Knight, LightBishop, DarkBishop])])
        }
        2 if light && horde.dark_bishops > 0 => {
            black.can_fill(&[Kinds::of(&[Pawn, LightBishop, DarkBishop])])
                || black.can_fill(&[
                    Kinds::of(&[Pawn, Knight, LightBishop, DarkBishop]),
                    Kinds::of(&[Pawn, LightBishop, DarkBishop, Rook, Queen]),
                ])
        }
        2 if horde.bishops() >= 2 => {
            // Two bishops on one colour.
            let walls = Kinds::of(&[Pawn, Knight, opposite_bishop(light)]);
            black.can_fill(&[walls, walls])
        }
        2 => {
            // Bishop and knight.
            let others = any_man.without(same_bishop(light));
            black.can_fill(&[Kinds::of(&[Pawn, opposite_bishop(light)])])
                || black.can_fill(&[others, others])
        }
        _ => {
            let lone = if horde.queens > 0 {
                Some(Lone::Queen)
            } else if horde.rooks > 0 {
                Some(Lone::Rook)
            } else if horde.bishops() > 0 {
                Some(Lone::Bishop { light })
            } else if horde.knights > 0 {
                Some(Lone::Knight)
            } else {
                None
            };
            match lone {
                Some(piece) => lone_piece_can_mate(piece, black),
                // A lone pawn: whatever it may promote to.
                None => [
                    Lone::Queen,
                    Lone::Rook,
                    Lone::Bishop { light: true },
                    Lone::Bishop { light: false },
                    Lone::Knight,
                ]
                .into_iter()
                .any(|piece| lone_piece_can_mate(piece, black)),
            }
        }
    }
}

/// The horde (White) cannot checkmate Black, whatever either side plays.
pub(crate) fn horde_cannot_mate(board: &Board) -> bool {
    let horde = Horde::of(board);
    if horde.attackers() == 0 {
        return true;
    }
    !horde.mates_alone() && !defenders_allow_mate(&horde, Defenders::of(board))
}
