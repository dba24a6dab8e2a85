//! The rules of each variant: one zero-sized type per variant implementing [`Variant`].
//! Flags are associated constants and hooks are associated functions, so the generic
//! position code is specialised per variant at compile time.

use super::fen::VariantFenError;
use super::horde_material::horde_cannot_mate;
use super::position::VariantPosition;
use crate::attacks::king_attacks;
use crate::bitboard::Bitboard;
use crate::{Color, Rank, Role, Square};
use core::fmt;
use core::hash::Hash;

/// How many kings each side must have for a position of the variant to be valid.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum KingRule {
    /// Exactly one each (standard chess, king of the hill, three-check, racing kings,
    /// crazyhouse).
    OneEach,
    /// Any number: the king is an ordinary piece (antichess).
    Any,
    /// At most one each; a side may have lost its king to an explosion (atomic).
    AtMostOne,
    /// Black exactly one, White none: the horde is pawns and pieces (horde).
    HordeWhiteNone,
}

/// The rules of one variant. Every item has standard chess's behaviour as its default, so
/// a variant names only where it differs.
pub trait Variant: Copy + Default + fmt::Debug + Send + Sync + 'static {
    /// State standard chess lacks (remaining checks, pockets); `()` when there is none.
    type State: Copy + Default + PartialEq + Eq + Hash + fmt::Debug + Send + Sync;

    /// python-chess's `uci_variant`.
    const UCI_NAME: &'static str;
    /// python-chess's `starting_fen`.
    const STARTING_FEN: &'static str;
    const KINGS: KingRule = KingRule::OneEach;
    /// Captures are compulsory, there is no check, the king is an ordinary piece and pawns
    /// may promote to it (antichess, giveaway).
    const ANTICHESS: bool = false;
    /// A capture explodes the capturer and every piece but pawns around the target square;
    /// kings never capture and adjacent kings cannot check each other (atomic).
    const ATOMIC: bool = false;
    /// No move may give check (racing kings).
    const NO_CHECKS: bool = false;
    /// Pawns may stand on their first rank and step two squares from it (horde).
    const FIRST_RANK_PAWNS: bool = false;
    /// Captured pieces go to the capturer's pocket and may be dropped (crazyhouse).
    const DROPS: bool = false;

    /// The variant's own end of the game (python-chess's `is_variant_end`): then there are
    /// no legal moves.
    fn is_variant_end(_pos: &VariantPosition<Self>) -> bool {
        false
    }
    /// The side to move has won by the variant's rule (`is_variant_win`).
    fn is_variant_win(_pos: &VariantPosition<Self>) -> bool {
        false
    }
    /// The side to move has lost by the variant's rule (`is_variant_loss`).
    fn is_variant_loss(_pos: &VariantPosition<Self>) -> bool {
        false
    }
    /// The game is drawn by the variant's rule (`is_variant_draw`).
    fn is_variant_draw(_pos: &VariantPosition<Self>) -> bool {
        false
    }
    /// `color` cannot win by material alone (python-chess's `has_insufficient_material`
    /// for the variant).
    fn has_insufficient_material(pos: &VariantPosition<Self>, color: Color) -> bool {
        pos.board().has_insufficient_material(color)
    }

    /// A man of the side to move captured the piece `role` on `sq`.
    #[inline(always)]
    fn on_capture(_state: &mut Self::State, _by: Color, _sq: Square, _role: Role) {}
    /// A man moved from `from` to `to` (`promotion`: it promoted there).
    #[inline(always)]
    fn on_move(_state: &mut Self::State, _from: Square, _to: Square, _promotion: bool) {}
    /// `color` dropped a `role` from its pocket.
    #[inline(always)]
    fn on_drop(_state: &mut Self::State, _color: Color, _role: Role) {}
    /// How many `role`s `color` holds in its pocket.
    #[inline(always)]
    fn pocket_count(_state: &Self::State, _color: Color, _role: Role) -> u8 {
        0
    }
    /// Pieces that were promoted from pawns (crazyhouse returns them to pockets as pawns).
    #[inline(always)]
    fn promoted(_state: &Self::State) -> Bitboard {
        Bitboard::EMPTY
    }
    /// After a move is played (and the turn passed): three-check counts a check here.
    #[inline(always)]
    fn after_play(_pos: &mut VariantPosition<Self>) {}
    /// The state's share of the Zobrist key (0 for no state).
    fn state_key(_state: &Self::State) -> u64 {
        0
    }
    /// Takes the variant's own FEN parts out of `fields` (whitespace-split; a crazyhouse
    /// pocket in the placement field, a three-check field) and reads them.
    fn parse_extra(_fields: &mut Vec<String>) -> Result<Self::State, VariantFenError> {
        Ok(Self::State::default())
    }
    /// The squares the placement marked promoted (`~`); only crazyhouse keeps them.
    fn set_promoted(_state: &mut Self::State, _promoted: Bitboard) {}
    /// Appended to the placement field (crazyhouse's `[pocket]`).
    fn placement_suffix(_state: &Self::State) -> String {
        String::new()
    }
    /// A field after the en-passant field (three-check's `3+3`).
    fn extra_field(_state: &Self::State) -> Option<String> {
        None
    }
}

/// A 64-bit mix of `x` (splitmix64's finaliser): the variant state's Zobrist numbers,
/// derived rather than tabled.
pub(crate) const fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

// ----- antichess and giveaway ---------------------------------------------------------------

/// The antichess family's shared end and insufficient-material rules (giveaway's winner).
fn antichess_end<V: Variant>(pos: &VariantPosition<V>) -> bool {
    let b = pos.board();
    b.by_color(Color::White).is_empty() || b.by_color(Color::Black).is_empty()
}

fn antichess_win<V: Variant>(pos: &VariantPosition<V>) -> bool {
    pos.board().by_color(pos.turn()).is_empty() || pos.is_stalemate()
}

fn never<V: Variant>(_pos: &VariantPosition<V>) -> bool {
    false
}

/// Suicide's stalemate: the side to move, with men left and no move, against the other
/// side's count of men (python-chess's `_material_balance`: ours minus theirs).
fn suicide_stalemate<V: Variant>(pos: &VariantPosition<V>) -> Option<core::cmp::Ordering> {
    let b = pos.board();
    let ours = b.by_color(pos.turn()).count();
    if ours == 0 || !pos.is_stalemate() {
        return None;
    }
    Some(ours.cmp(&b.by_color(pos.turn().other()).count()))
}

/// Suicide: win by losing every man, or by being stalemated with fewer men than the other side.
fn suicide_win<V: Variant>(pos: &VariantPosition<V>) -> bool {
    pos.board().by_color(pos.turn()).is_empty()
        || suicide_stalemate(pos) == Some(core::cmp::Ordering::Less)
}

fn suicide_loss<V: Variant>(pos: &VariantPosition<V>) -> bool {
    suicide_stalemate(pos) == Some(core::cmp::Ordering::Greater)
}

fn suicide_draw<V: Variant>(pos: &VariantPosition<V>) -> bool {
    suicide_stalemate(pos) == Some(core::cmp::Ordering::Equal)
}

fn antichess_insufficient<V: Variant>(pos: &VariantPosition<V>, color: Color) -> bool {
    let b = pos.board();
    let (ours, theirs) = (b.by_color(color), b.by_color(color.other()));
    if ours.is_empty() {
        return false;
    }
    if theirs.is_empty() {
        return true;
    }
    if b.occupied() == b.bishops() {
        // Only bishops: ours can all be captured only if some stand on the colour of theirs.
        let we_light = (ours & Bitboard::LIGHT_SQUARES).any();
        let we_dark = (ours & Bitboard::DARK_SQUARES).any();
        let they_all_dark = (theirs & Bitboard::LIGHT_SQUARES).is_empty();
        let they_all_light = (theirs & Bitboard::DARK_SQUARES).is_empty();
        return (we_light && they_all_dark) || (we_dark && they_all_light);
    }
    if b.occupied() == b.knights() && b.knights().count() == 2 {
        let white_light = (b.by_color(Color::White) & Bitboard::LIGHT_SQUARES).any();
        let black_dark = (b.by_color(Color::Black) & Bitboard::DARK_SQUARES).any();
        return (pos.turn() == color) ^ white_light ^ black_dark;
    }
    false
}

macro_rules! antichess_rules {
    ($name:ident, $uci:literal, $fen:literal, $doc:literal) => {
        antichess_rules!($name, $uci, $fen, $doc, antichess_win, never, never);
    };
    ($name:ident, $uci:literal, $fen:literal, $doc:literal, $win:ident, $loss:ident, $draw:ident) => {
        #[doc = $doc]
        #[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl Variant for $name {
            /// The promoted pieces: a king promoted from a pawn never castles, and moving
            /// it keeps its side's castling rights.
            type State = Bitboard;
            const UCI_NAME: &'static str = $uci;
            const STARTING_FEN: &'static str = $fen;
            const KINGS: KingRule = KingRule::Any;
            const ANTICHESS: bool = true;

            #[inline(always)]
            fn on_capture(state: &mut Bitboard, _by: Color, sq: Square, _role: Role) {
                *state = state.without(sq);
            }
            #[inline(always)]
            fn on_move(state: &mut Bitboard, from: Square, to: Square, promotion: bool) {
                *state = if promotion || state.contains(from) {
                    state.without(from).with(to)
                } else {
                    state.without(to)
                };
            }
            #[inline(always)]
            fn promoted(state: &Bitboard) -> Bitboard {
                *state
            }
            fn set_promoted(state: &mut Bitboard, promoted: Bitboard) {
                *state = promoted;
            }

            fn is_variant_end(pos: &VariantPosition<Self>) -> bool {
                antichess_end(pos)
            }
            fn is_variant_win(pos: &VariantPosition<Self>) -> bool {
                $win(pos)
            }
            fn is_variant_loss(pos: &VariantPosition<Self>) -> bool {
                $loss(pos)
            }
            fn is_variant_draw(pos: &VariantPosition<Self>) -> bool {
                $draw(pos)
            }
            fn has_insufficient_material(pos: &VariantPosition<Self>, color: Color) -> bool {
                antichess_insufficient(pos, color)
            }
        }
    };
}

antichess_rules!(
    Antichess,
    "antichess",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    "Antichess (lichess): lose all your pieces or be stalemated to win. Captures are \
     compulsory, there is no check, the king is an ordinary piece. Starts without castling."
);
antichess_rules!(
    Giveaway,
    "giveaway",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "Giveaway: antichess's rules from the standard start, castling rights included \
     (python-chess's `GiveawayBoard`)."
);

antichess_rules!(
    Suicide,
    "suicide",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "Suicide (python-chess's `SuicideBoard`, FICS's rules): giveaway's moves, but a \
     stalemated side wins only with fewer men than the other side, and draws with as many.",
    suicide_win,
    suicide_loss,
    suicide_draw
);

// ----- atomic --------------------------------------------------------------------------------

/// Atomic: a capture explodes the capturer and all pieces but pawns around the target
/// square; win by exploding the enemy king. Kings cannot capture; adjacent kings cannot
/// check each other.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Atomic;

impl Variant for Atomic {
    type State = ();
    const UCI_NAME: &'static str = "atomic";
    const STARTING_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const KINGS: KingRule = KingRule::AtMostOne;
    const ATOMIC: bool = true;

    fn is_variant_end(pos: &VariantPosition<Self>) -> bool {
        let b = pos.board();
        Color::ALL
            .into_iter()
            .any(|c| (b.kings() & b.by_color(c)).is_empty())
    }
    fn is_variant_win(pos: &VariantPosition<Self>) -> bool {
        let b = pos.board();
        b.kings().any() && (b.kings() & b.by_color(pos.turn().other())).is_empty()
    }
    fn is_variant_loss(pos: &VariantPosition<Self>) -> bool {
        let b = pos.board();
        b.kings().any() && (b.kings() & b.by_color(pos.turn())).is_empty()
    }
    fn has_insufficient_material(pos: &VariantPosition<Self>, color: Color) -> bool {
        let b = pos.board();
        let (ours, theirs) = (b.by_color(color), b.by_color(color.other()));
        if (theirs & b.kings()).is_empty() {
            return false;
        }
        if (ours & !b.kings()).is_empty() {
            return true;
        }
        if (theirs & !b.kings()).any() {
            // Their own pieces may yet explode beside their king, unless only bishops
            // remain that can never meet.
            if b.occupied() == b.bishops() | b.kings() {
                let wb = b.bishops() & b.by_color(Color::White);
                let bb = b.bishops() & b.by_color(Color::Black);
                if (wb & Bitboard::DARK_SQUARES).is_empty() {
                    return (bb & Bitboard::LIGHT_SQUARES).is_empty();
                }
                if (wb & Bitboard::LIGHT_SQUARES).is_empty() {
                    return (bb & Bitboard::DARK_SQUARES).is_empty();
                }
            }
            return false;
        }
        if b.queens().any() || b.pawns().any() {
            return false;
        }
        if (b.knights() | b.bishops() | b.rooks()).count() == 1 {
            return true;
        }
        if b.occupied() == b.knights() | b.kings() {
            return b.knights().count() <= 2;
        }
        false
    }
}

// ----- king of the hill ----------------------------------------------------------------------

/// The four centre squares d4, e4, d5, e5.
const CENTRE: Bitboard = Bitboard(0x0000_0018_1800_0000);

/// King of the hill: standard chess, and a king reaching the centre wins.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct KingOfTheHill;

impl Variant for KingOfTheHill {
    type State = ();
    const UCI_NAME: &'static str = "kingofthehill";
    const STARTING_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn is_variant_end(pos: &VariantPosition<Self>) -> bool {
        (pos.board().kings() & CENTRE).any()
    }
    fn is_variant_win(pos: &VariantPosition<Self>) -> bool {
        (pos.board().kings() & pos.board().by_color(pos.turn()) & CENTRE).any()
    }
    fn is_variant_loss(pos: &VariantPosition<Self>) -> bool {
        (pos.board().kings() & pos.board().by_color(pos.turn().other()) & CENTRE).any()
    }
    fn has_insufficient_material(_pos: &VariantPosition<Self>, _color: Color) -> bool {
        false
    }
}

// ----- three-check ---------------------------------------------------------------------------

/// Three-check: standard chess, and giving the third check wins. The state is the checks
/// each side still has to give (White's, Black's), as python-chess's `remaining_checks`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ThreeCheck;

/// Remaining checks, White's then Black's.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RemainingChecks(pub [u8; 2]);

impl Default for RemainingChecks {
    fn default() -> RemainingChecks {
        RemainingChecks([3, 3])
    }
}

fn parse_count(text: &str) -> Option<u8> {
    text.parse::<u8>().ok().filter(|&n| n <= 3)
}

impl Variant for ThreeCheck {
    type State = RemainingChecks;
    const UCI_NAME: &'static str = "3check";
    const STARTING_FEN: &'static str =
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1";

    fn is_variant_end(pos: &VariantPosition<Self>) -> bool {
        pos.state().0.contains(&0)
    }
    fn is_variant_draw(pos: &VariantPosition<Self>) -> bool {
        pos.state().0 == [0, 0]
    }
    fn is_variant_loss(pos: &VariantPosition<Self>) -> bool {
        let r = pos.state().0;
        r[pos.turn().other().index()] == 0 && r[pos.turn().index()] > 0
    }
    fn is_variant_win(pos: &VariantPosition<Self>) -> bool {
        let r = pos.state().0;
        r[pos.turn().index()] == 0 && r[pos.turn().other().index()] > 0
    }
    fn has_insufficient_material(pos: &VariantPosition<Self>, color: Color) -> bool {
        // Any piece but the king can give check.
        (pos.board().by_color(color) & !pos.board().kings()).is_empty()
    }
    fn after_play(pos: &mut VariantPosition<Self>) {
        if pos.is_check() {
            let mover = pos.turn().other().index();
            pos.state_mut().0[mover] = pos.state().0[mover].saturating_sub(1);
        }
    }
    fn state_key(state: &RemainingChecks) -> u64 {
        mix(0x3C << 8 | u64::from(state.0[0]) << 4 | u64::from(state.0[1]))
    }
    /// python-chess's two forms: `3+3` after the en-passant field (remaining checks), and
    /// lichess's `+0+0` after the move number (checks given).
    fn parse_extra(fields: &mut Vec<String>) -> Result<RemainingChecks, VariantFenError> {
        let bad = |text: &str| VariantFenError::BadChecks {
            text: text.to_owned(),
        };
        if fields.len() >= 7 && fields[6].starts_with('+') {
            let text = fields.remove(6);
            let (w, b) = text[1..].split_once('+').ok_or_else(|| bad(&text))?;
            let (w, b) = (
                parse_count(w).ok_or_else(|| bad(&text))?,
                parse_count(b).ok_or_else(|| bad(&text))?,
            );
            return Ok(RemainingChecks([3 - w, 3 - b]));
        }
        if fields.len() >= 5 && fields[4].contains('+') {
            let text = fields.remove(4);
            let (w, b) = text.split_once('+').ok_or_else(|| bad(&text))?;
            return Ok(RemainingChecks([
                parse_count(w).ok_or_else(|| bad(&text))?,
                parse_count(b).ok_or_else(|| bad(&text))?,
            ]));
        }
        Ok(RemainingChecks::default())
    }
    fn extra_field(state: &RemainingChecks) -> Option<String> {
        Some(format!("{}+{}", state.0[0], state.0[1]))
    }
}

// ----- racing kings --------------------------------------------------------------------------

/// Racing kings: no checks, no pawns; the first king on the eighth rank wins, and if White
/// gets there first Black may still draw by arriving on the very next move.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RacingKings;

impl Variant for RacingKings {
    type State = ();
    const UCI_NAME: &'static str = "racingkings";
    const STARTING_FEN: &'static str = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1";
    const NO_CHECKS: bool = true;

    fn is_variant_end(pos: &VariantPosition<Self>) -> bool {
        let b = pos.board();
        let goal = Bitboard::from_rank(Rank::Eighth);
        if (b.kings() & goal).is_empty() {
            return false;
        }
        let black_king = b.kings() & b.by_color(Color::Black);
        let Some(bk) = black_king.last() else {
            return true;
        };
        if pos.turn() == Color::White || (black_king & goal).any() {
            return true;
        }
        // White has arrived; Black to move draws if its king can step onto the eighth rank.
        let targets = king_attacks(bk) & goal & !b.by_color(Color::Black);
        targets
            .into_iter()
            .all(|t| pos.attackers(Color::White, t).any())
    }
    fn is_variant_draw(pos: &VariantPosition<Self>) -> bool {
        let b = pos.board();
        let in_goal = b.kings() & Bitboard::from_rank(Rank::Eighth);
        Color::ALL
            .into_iter()
            .all(|c| (in_goal & b.by_color(c)).any())
    }
    fn is_variant_loss(pos: &VariantPosition<Self>) -> bool {
        let b = pos.board();
        Self::is_variant_end(pos)
            && (b.kings() & b.by_color(pos.turn()) & Bitboard::from_rank(Rank::Eighth)).is_empty()
    }
    fn is_variant_win(pos: &VariantPosition<Self>) -> bool {
        let b = pos.board();
        let in_goal = b.kings() & Bitboard::from_rank(Rank::Eighth);
        Self::is_variant_end(pos)
            && (in_goal & b.by_color(pos.turn())).any()
            && (in_goal & b.by_color(pos.turn().other())).is_empty()
    }
    fn has_insufficient_material(_pos: &VariantPosition<Self>, _color: Color) -> bool {
        false
    }
}

// ----- horde ---------------------------------------------------------------------------------

/// Horde: White's 36 pawns (which may step two squares from the first rank) against
/// Black's army; Black wins by capturing them all, White by checkmate.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Horde;

impl Variant for Horde {
    type State = ();
    const UCI_NAME: &'static str = "horde";
    const STARTING_FEN: &'static str =
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1";
    const KINGS: KingRule = KingRule::HordeWhiteNone;
    const FIRST_RANK_PAWNS: bool = true;

    fn is_variant_end(pos: &VariantPosition<Self>) -> bool {
        let b = pos.board();
        b.by_color(Color::White).is_empty() || b.by_color(Color::Black).is_empty()
    }
    fn is_variant_draw(pos: &VariantPosition<Self>) -> bool {
        pos.board().occupied().is_empty()
    }
    fn is_variant_loss(pos: &VariantPosition<Self>) -> bool {
        let b = pos.board();
        b.occupied().any() && b.by_color(pos.turn()).is_empty()
    }
    fn is_variant_win(pos: &VariantPosition<Self>) -> bool {
        let b = pos.board();
        b.occupied().any() && b.by_color(pos.turn().other()).is_empty()
    }
    /// Black can always win by capturing the horde; White needs the material for some
    /// mate, with Black's men walling in their king (lichess's analysis, in
    /// `horde_material`).
    fn has_insufficient_material(pos: &VariantPosition<Self>, color: Color) -> bool {
        color == Color::White && horde_cannot_mate(pos.board())
    }
}

// ----- crazyhouse ----------------------------------------------------------------------------

/// Crazyhouse: captured pieces change sides into the capturer's pocket and may be dropped
/// instead of a move (`N@f3`); promoted pieces go back as pawns.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Crazyhouse;

/// The pockets (counts by colour and role, pawn to queen) and the promoted pieces.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CrazyhouseState {
    pub pockets: [[u8; 5]; 2],
    pub promoted: Bitboard,
}

/// The pocket's text in python-chess's order (queens first), upper case for White.
fn pocket_text(state: &CrazyhouseState, color: Color) -> String {
    let mut out = String::new();
    for role in [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ] {
        for _ in 0..state.pockets[color.index()][role.index()] {
            out.push(if color.is_white() {
                role.upper_char()
            } else {
                role.char()
            });
        }
    }
    out
}

impl Variant for Crazyhouse {
    type State = CrazyhouseState;
    const UCI_NAME: &'static str = "crazyhouse";
    const STARTING_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    const DROPS: bool = true;

    fn has_insufficient_material(pos: &VariantPosition<Self>, _color: Color) -> bool {
        let b = pos.board();
        let s = pos.state();
        let in_pockets = |role: Role| s.pockets[0][role.index()] + s.pockets[1][role.index()] > 0;
        let pocketed: u32 = s.pockets.iter().flatten().map(|&n| u32::from(n)).sum();
        b.occupied().count() + pocketed <= 3
            && s.promoted.is_empty()
            && b.pawns().is_empty()
            && b.rooks().is_empty()
            && b.queens().is_empty()
            && !in_pockets(Role::Pawn)
            && !in_pockets(Role::Rook)
            && !in_pockets(Role::Queen)
    }
    #[inline(always)]
    fn on_capture(state: &mut CrazyhouseState, by: Color, sq: Square, role: Role) {
        let role = if state.promoted.contains(sq) {
            Role::Pawn
        } else {
            role
        };
        state.promoted = state.promoted.without(sq);
        if role != Role::King {
            let n = &mut state.pockets[by.index()][role.index()];
            *n = n.saturating_add(1);
        }
    }
    #[inline(always)]
    fn on_move(state: &mut CrazyhouseState, from: Square, to: Square, promotion: bool) {
        if promotion || state.promoted.contains(from) {
            state.promoted = state.promoted.without(from).with(to);
        } else {
            state.promoted = state.promoted.without(to);
        }
    }
    #[inline(always)]
    fn on_drop(state: &mut CrazyhouseState, color: Color, role: Role) {
        let n = &mut state.pockets[color.index()][role.index()];
        *n = n.saturating_sub(1);
    }
    #[inline(always)]
    fn pocket_count(state: &CrazyhouseState, color: Color, role: Role) -> u8 {
        if role == Role::King {
            0
        } else {
            state.pockets[color.index()][role.index()]
        }
    }
    #[inline(always)]
    fn promoted(state: &CrazyhouseState) -> Bitboard {
        state.promoted
    }
    fn state_key(state: &CrazyhouseState) -> u64 {
        let mut key = 0;
        for color in Color::ALL {
            for role in 0..5 {
                let n = u64::from(state.pockets[color.index()][role]);
                key ^= mix(0x2A << 16 | (color.index() as u64) << 12 | (role as u64) << 8 | n);
            }
        }
        for sq in state.promoted {
            key ^= mix(0x7E << 16 | sq.index() as u64);
        }
        key
    }
    /// The pocket as python-chess reads it: `[QRbp]` after the placement, or a ninth rank
    /// field (`…/8/QRbp`); `~` after a piece marks it promoted.
    fn parse_extra(fields: &mut Vec<String>) -> Result<CrazyhouseState, VariantFenError> {
        let mut state = CrazyhouseState::default();
        let Some(placement) = fields.first_mut() else {
            return Ok(state);
        };
        let (board_part, pocket) = if let Some(open) = placement.find('[') {
            if !placement.ends_with(']') {
                return Err(VariantFenError::BadPocket {
                    text: placement.clone(),
                });
            }
            (
                placement[..open].to_owned(),
                placement[open + 1..placement.len() - 1].to_owned(),
            )
        } else if placement.matches('/').count() == 8 {
            let (b, p) = placement.rsplit_once('/').unwrap_or((placement, ""));
            (b.to_owned(), p.to_owned())
        } else {
            (placement.clone(), String::new())
        };
        for c in pocket.chars() {
            let role = Role::from_char(c.to_ascii_lowercase())
                .filter(|&r| r != Role::King)
                .ok_or_else(|| VariantFenError::BadPocket {
                    text: pocket.clone(),
                })?;
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let n = &mut state.pockets[color.index()][role.index()];
            *n = n.saturating_add(1);
        }
        *placement = board_part;
        Ok(state)
    }
    fn set_promoted(state: &mut CrazyhouseState, promoted: Bitboard) {
        state.promoted = promoted;
    }
    fn placement_suffix(state: &CrazyhouseState) -> String {
        format!(
            "[{}{}]",
            pocket_text(state, Color::White),
            pocket_text(state, Color::Black)
        )
    }
}
