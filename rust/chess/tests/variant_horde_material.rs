//! Horde's insufficient material: can the horde (White) still checkmate? Data-driven over
//! `tests/data/horde_material.txt` (python-chess's cases, the published analysis's mating
//! patterns, and constructed positions one Black helper short, each answer checked against
//! python-chess), plus the symmetries the answer must not depend on. The seeded differential
//! against python-chess on random positions is the Python package's
//! (`python/tests/variant/test_horde_material.py`).

use shatranj_chess::Color;
use shatranj_chess::variant::HordePosition;

const DATA: &str = include_str!("data/horde_material.txt");

/// The cases: (FEN, White cannot mate, source).
fn cases() -> Vec<(&'static str, bool, &'static str)> {
    DATA.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split(" | ").map(str::trim).collect();
            assert_eq!(fields.len(), 3, "bad line: {line}");
            let insufficient = match fields[1] {
                "insufficient" => true,
                "sufficient" => false,
                other => panic!("bad label {other:?} in: {line}"),
            };
            (fields[0], insufficient, fields[2])
        })
        .collect()
}

#[test]
fn horde_material_matches_the_labelled_cases() {
    let cases = cases();
    assert!(cases.len() >= 50, "only {} cases", cases.len());
    let (mut yes, mut no) = (0, 0);
    for (fen, insufficient, source) in cases {
        let pos: HordePosition = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(
            pos.has_insufficient_material(Color::White),
            insufficient,
            "{fen} ({source})"
        );
        assert!(!pos.has_insufficient_material(Color::Black), "{fen}: Black");
        assert!(!pos.is_insufficient_material(), "{fen}");
        if insufficient { yes += 1 } else { no += 1 }
    }
    // Both answers are exercised, so neither a constant nor an inverted test could pass.
    assert!(yes >= 15 && no >= 15, "{yes} insufficient, {no} sufficient");
}

/// Mirroring the board left to right turns every square's colour, for both sides alike:
/// bishops that shared a colour still do, a pair stays a pair, so the answer must not
/// change (castling rights and the en-passant square are dropped with the mirror).
#[test]
fn horde_material_ignores_a_left_right_flip() {
    for (fen, insufficient, source) in cases() {
        let mut fields: Vec<String> = fen.split(' ').map(str::to_owned).collect();
        fields[0] = fields[0]
            .split('/')
            .map(flip_rank)
            .collect::<Vec<_>>()
            .join("/");
        fields[2] = "-".to_owned();
        fields[3] = "-".to_owned();
        let flipped = fields.join(" ");
        let pos: HordePosition = flipped.parse().unwrap_or_else(|e| panic!("{flipped}: {e}"));
        assert_eq!(
            pos.has_insufficient_material(Color::White),
            insufficient,
            "{flipped}, the flip of {fen} ({source})"
        );
    }
}

/// One rank of a FEN placement, read right to left.
fn flip_rank(rank: &str) -> String {
    let mut squares = Vec::new();
    for c in rank.chars() {
        match c.to_digit(10) {
            Some(n) => squares.extend(std::iter::repeat_n(None, n as usize)),
            None => squares.push(Some(c)),
        }
    }
    let (mut out, mut empty) = (String::new(), 0);
    for square in squares.into_iter().rev() {
        match square {
            None => empty += 1,
            Some(c) => {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push(c);
            }
        }
    }
    if empty > 0 {
        out.push_str(&empty.to_string());
    }
    out
}
