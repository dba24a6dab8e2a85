//! The board as text: python-chess's `__str__` and `unicode()` layouts.

use shatranj_chess::{Board, File, Rank, Square};

/// Rank 8 first, pieces as FEN letters, empty squares as dots.
pub fn ascii(board: &Board) -> String {
    let mut out = String::with_capacity(128);
    for (r, rank) in Rank::ALL.iter().rev().enumerate() {
        if r > 0 {
            out.push('\n');
        }
        for (f, file) in File::ALL.iter().enumerate() {
            if f > 0 {
                out.push(' ');
            }
            let sq = Square::from_coords(*file, *rank);
            out.push(board.piece_at(sq).map_or('.', shatranj_chess::Piece::char));
        }
    }
    out
}

pub fn unicode(
    board: &Board,
    invert_color: bool,
    borders: bool,
    empty_square: &str,
    orientation: bool,
) -> String {
    let rule = "  -----------------\n";
    let ranks: Vec<Rank> = if orientation {
        Rank::ALL.iter().rev().copied().collect()
    } else {
        Rank::ALL.to_vec()
    };
    let files: Vec<File> = if orientation {
        File::ALL.to_vec()
    } else {
        File::ALL.iter().rev().copied().collect()
    };
    let mut out = String::new();
    for (r, rank) in ranks.iter().enumerate() {
        if borders {
            out.push_str(rule);
            out.push(rank.char());
            out.push(' ');
        }
        for (f, file) in files.iter().enumerate() {
            if borders {
                out.push('|');
            } else if f > 0 {
                out.push(' ');
            }
            match board.piece_at(Square::from_coords(*file, *rank)) {
                Some(mut p) => {
                    if invert_color {
                        p.color = p.color.other();
                    }
                    out.push(p.unicode());
                }
                None => out.push_str(empty_square),
            }
        }
        if borders {
            out.push('|');
        }
        if borders || r < 7 {
            out.push('\n');
        }
    }
    if borders {
        out.push_str(rule);
        out.push_str("   ");
        out.push_str(if orientation {
            "a b c d e f g h"
        } else {
            "h g f e d c b a"
        });
    }
    out
}
