//! Material signatures: which table a position belongs to, and the tables' file names.
//!
//! A table is named by its material, the stronger side first (`KQvKR`); it holds both
//! colourings, so the position's material is looked up as it stands and with the colours
//! swapped. The key packs the count of each piece, four bits each, kings included.

use shatranj_chess::{Board, Color, Role};

/// Pieces in the order file names list them.
const NAME_ORDER: [Role; 6] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// The most pieces of one kind a name may give (four bits of the key). A legal position
/// has at most ten of a kind, so no table a position can need is left out.
const MAX_OF_A_KIND: u8 = 15;

/// Counts of each piece, by colour and role (`counts[color][role - 1]`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Material {
    pub(crate) counts: [[u8; 6]; 2],
}

impl Material {
    pub(crate) fn of_board(board: &Board) -> Material {
        let mut counts = [[0u8; 6]; 2];
        for color in Color::ALL {
            let ours = board.by_color(color);
            for role in Role::ALL {
                counts[color as usize][role as usize - 1] =
                    (ours & board.by_role(role)).count() as u8;
            }
        }
        Material { counts }
    }

    /// Parses a table name such as `KQvKR`: the left side is White's, the right Black's.
    /// `None` unless each side has exactly one king, only the letters KQRBNP appear, and
    /// there is at least one piece besides the kings (`KvK` has no file).
    pub(crate) fn from_name(name: &str) -> Option<Material> {
        let (white, black) = name.split_once('v')?;
        let mut counts = [[0u8; 6]; 2];
        for (color, side) in [(Color::White, white), (Color::Black, black)] {
            for ch in side.chars() {
                let role = match ch {
                    'K' => Role::King,
                    'Q' => Role::Queen,
                    'R' => Role::Rook,
                    'B' => Role::Bishop,
                    'N' => Role::Knight,
                    'P' => Role::Pawn,
                    _ => return None,
                };
                let c = &mut counts[color as usize][role as usize - 1];
                *c += 1;
                if *c > MAX_OF_A_KIND {
                    return None;
                }
            }
        }
        let m = Material { counts };
        // Nothing a legal position cannot have: one king a side, at most eight pawns a side,
        // at most 32 men.
        let legal = Color::ALL
            .into_iter()
            .all(|c| m.count(c, Role::King) == 1 && m.count(c, Role::Pawn) <= 8);
        (legal && m.total() > 2 && m.total() <= 32).then_some(m)
    }

    pub(crate) fn count(&self, color: Color, role: Role) -> u8 {
        self.counts[color as usize][role as usize - 1]
    }

    pub(crate) fn total(&self) -> usize {
        self.counts.iter().flatten().map(|&c| c as usize).sum()
    }

    pub(crate) fn has_pawns(&self) -> bool {
        self.count(Color::White, Role::Pawn) > 0 || self.count(Color::Black, Role::Pawn) > 0
    }

    /// The same material with the colours swapped.
    pub(crate) fn flipped(&self) -> Material {
        Material {
            counts: [self.counts[1], self.counts[0]],
        }
    }

    pub(crate) fn key(&self) -> u64 {
        let mut key = 0u64;
        for (i, &c) in self.counts.iter().flatten().enumerate() {
            key |= (u64::from(c) & 0xf) << (4 * i);
        }
        key
    }

    /// The key of a board's material, computed without building the counts.
    #[inline]
    pub(crate) fn key_of_board(board: &Board) -> u64 {
        let mut key = 0u64;
        for color in Color::ALL {
            let ours = board.by_color(color);
            for role in Role::ALL {
                let c = u64::from((ours & board.by_role(role)).count());
                key |= (c & 0xf) << (4 * (color as usize * 6 + role as usize - 1));
            }
        }
        key
    }

    /// `KQRvKN`: White's side, then Black's.
    pub(crate) fn name(&self) -> String {
        let mut s = String::new();
        for color in Color::ALL {
            if color == Color::Black {
                s.push('v');
            }
            for role in NAME_ORDER {
                for _ in 0..self.count(color, role) {
                    s.push(role_char(role));
                }
            }
        }
        s
    }

    /// The name the table files use for this material whichever side has it: the side with
    /// more pieces first, and between equal numbers the one with the stronger pieces
    /// (compared queen first). Used to name a table that was not found.
    pub(crate) fn canonical_name(&self) -> String {
        let strength = |color: Color| {
            let side = self.counts[color as usize];
            let total: u8 = side.iter().sum();
            let by_value: Vec<u8> = NAME_ORDER[1..]
                .iter()
                .map(|&r| side[r as usize - 1])
                .collect();
            (total, by_value)
        };
        if strength(Color::Black) > strength(Color::White) {
            self.flipped().name()
        } else {
            self.name()
        }
    }
}

fn role_char(role: Role) -> char {
    match role {
        Role::King => 'K',
        Role::Queen => 'Q',
        Role::Rook => 'R',
        Role::Bishop => 'B',
        Role::Knight => 'N',
        Role::Pawn => 'P',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_keys_agree() {
        for name in ["KQvK", "KQvKR", "KBNvK", "KPvKP", "KRPvKB", "KQQQQQvK"] {
            let m = Material::from_name(name).unwrap();
            assert_eq!(m.name(), name);
            assert_eq!(m.canonical_name(), name);
            assert_eq!(m.flipped().canonical_name(), name);
        }
        for bad in ["KvK", "KQK", "KQvQ", "KXvK", "kqvk", "KQvKvK", ""] {
            assert_eq!(Material::from_name(bad), None, "{bad}");
        }
        let pos: shatranj_chess::Position = "8/8/8/3k4/8/8/8/KQ5r w - - 0 1".parse().unwrap();
        let m = Material::of_board(pos.board());
        assert_eq!(m.name(), "KQvKR");
        assert_eq!(m.key(), Material::key_of_board(pos.board()));
        assert_ne!(m.key(), m.flipped().key());
    }
}
