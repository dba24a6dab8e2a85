//! Commands embedded in comments, as lichess and `ChessBase` write them: `[%clk 0:02:59]`
//! (clock after the move), `[%emt 0:00:04.2]` (time the move took), `[%eval 0.31,22]` /
//! `[%eval #-3]` (evaluation from White's view, pawns or mate, optional depth) and
//! `[%csl Gd4,Re5]` / `[%cal Ge2e4]` (highlighted squares and arrows).
//!
//! The grammar is python-chess's (`GameNode.clock()` etc.), so both read the same values from
//! the same comment: the first well-formed command counts for clocks and evals, every one for
//! arrows; a malformed command is passed over. Scanning is by hand (no regex crate): find
//! `[%`, then read the command's fields.

/// An evaluation from White's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns: pawns × 100, rounded half to even as Python's `round` (the grammar allows
    /// up to 10 integer digits, so this needs 64 bits).
    Cp(i64),
    /// Mate in this many moves; negative when Black mates. `#0` (mated) keeps 0. Saturates
    /// at the `i64` range.
    Mate(i64),
}

/// An `[%eval]` command: the score and the search depth if given.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EvalCommand {
    pub eval: Eval,
    pub depth: Option<u32>,
}

/// The colour letter, and the squares (0 = a1) of one `%csl` / `%cal` entry; a square
/// highlight (`%csl`) has `from == to`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Arrow {
    pub color: u8,
    pub from: u8,
    pub to: u8,
}

/// Positions just after each `[%name` followed by one whitespace character.
fn commands<'a>(comment: &'a str, name: &'a str) -> impl Iterator<Item = &'a [u8]> + 'a {
    let bytes = comment.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        loop {
            let i = memfind(&bytes[at..], *b"[%")? + at;
            at = i + 2;
            let rest = &bytes[at..];
            if rest.starts_with(name.as_bytes())
                && rest
                    .get(name.len())
                    .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c))
            {
                return Some(&rest[name.len() + 1..]);
            }
        }
    })
}

fn memfind(hay: &[u8], needle: [u8; 2]) -> Option<usize> {
    // The first byte by memchr, then a look at the next: comments are short, and a
    // `memmem` searcher costs more to build than this costs to run.
    let mut at = 0;
    while let Some(i) = memchr::memchr(needle[0], &hay[at..]) {
        let i = at + i;
        if hay.get(i + 1) == Some(&needle[1]) {
            return Some(i);
        }
        at = i + 1;
    }
    None
}

/// A run of ASCII digits at the start: its length.
fn digits(s: &[u8]) -> usize {
    s.iter().take_while(|b| b.is_ascii_digit()).count()
}

/// `H:MM:SS(.fff)` then `]`: seconds.
fn duration(s: &[u8]) -> Option<f64> {
    // Lichess's `H:MM:SS]` at once; every other spelling by the general reader below.
    if let [h, b':', m1, m2, b':', s1, s2, b']', ..] = *s {
        let d = [h, m1, m2, s1, s2];
        if d.iter().all(u8::is_ascii_digit) {
            let [h, m1, m2, s1, s2] = d.map(|c| u32::from(c - b'0'));
            return Some(f64::from(h * 3600 + (m1 * 10 + m2) * 60 + s1 * 10 + s2));
        }
    }
    let h = digits(s);
    if h == 0 || s.get(h) != Some(&b':') {
        return None;
    }
    let s2 = &s[h + 1..];
    let m = digits(s2);
    if m == 0 || s2.get(m) != Some(&b':') {
        return None;
    }
    let s3 = &s2[m + 1..];
    let mut n = digits(s3);
    if n == 0 {
        return None;
    }
    if s3.get(n) == Some(&b'.') {
        n += 1 + digits(&s3[n + 1..]);
    }
    if s3.get(n) != Some(&b']') {
        return None;
    }
    let num = |b: &[u8]| {
        // Whole numbers of up to 15 digits are exact in an f64: read them without the float
        // parser (a clock per move makes this hot); anything else goes to the parser.
        if b.len() <= 15 && b.iter().all(u8::is_ascii_digit) {
            let n = b.iter().fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'));
            return Some(n as f64);
        }
        std::str::from_utf8(b).ok()?.parse::<f64>().ok()
    };
    Some(num(&s[..h])? * 3600.0 + num(&s2[..m])? * 60.0 + num(&s3[..n])?)
}

/// The first well-formed `[%clk H:MM:SS]`: the clock after the move, in seconds.
pub fn clock(comment: &str) -> Option<f64> {
    commands(comment, "clk").find_map(duration)
}

/// The first well-formed `[%emt H:MM:SS]`: the time the move took, in seconds.
pub fn emt(comment: &str) -> Option<f64> {
    commands(comment, "emt").find_map(duration)
}

/// `,depth]` or `]`; the depth if any, `None` when neither.
// Three answers (no end, an end without depth, an end with one): the nesting says so.
#[allow(clippy::option_option)]
fn eval_end(s: &[u8]) -> Option<Option<u32>> {
    match s.first()? {
        b']' => Some(None),
        b',' => {
            let n = digits(&s[1..]);
            if n == 0 || s.get(n + 1) != Some(&b']') {
                return None;
            }
            // A depth too large for u32 is still a well-formed command.
            let depth = std::str::from_utf8(&s[1..=n]).ok()?.parse::<u64>().ok()?;
            Some(Some(depth.min(u64::from(u32::MAX)) as u32))
        }
        _ => None,
    }
}

fn eval_at(s: &[u8]) -> Option<EvalCommand> {
    if s.first() == Some(&b'#') {
        let body = &s[1..];
        let sign = usize::from(matches!(body.first(), Some(b'+' | b'-')));
        let n = digits(&body[sign..]);
        if n == 0 {
            return None;
        }
        let depth = eval_end(&body[sign + n..])?;
        let text = std::str::from_utf8(&body[..sign + n]).ok()?;
        // More digits than an i64 holds: saturate (the grammar puts no bound on them).
        let mate = text.parse::<i64>().unwrap_or(if text.starts_with('-') {
            i64::MIN + 1
        } else {
            i64::MAX
        });
        return Some(EvalCommand {
            eval: Eval::Mate(mate),
            depth,
        });
    }
    let sign = usize::from(matches!(s.first(), Some(b'+' | b'-')));
    let body = &s[sign..];
    let int = digits(body);
    // Either up to 10 digits, a point and one or two decimals; or 1..=10 digits and an
    // optional point.
    let mut len = None;
    if int <= 10 && body.get(int) == Some(&b'.') {
        let frac = digits(&body[int + 1..]);
        if (1..=2).contains(&frac) && eval_end(&body[int + 1 + frac..]).is_some() {
            len = Some(int + 1 + frac);
        }
    }
    if len.is_none() && (1..=10).contains(&int) {
        let with_point = int + usize::from(body.get(int) == Some(&b'.'));
        if eval_end(&body[with_point..]).is_some() {
            len = Some(with_point);
        }
    }
    let len = len?;
    let depth = eval_end(&body[len..])?;
    let text = std::str::from_utf8(&s[..sign + len]).ok()?;
    let text = text.strip_suffix('.').unwrap_or(text);
    let pawns: f64 = if text.is_empty() || text == "+" || text == "-" {
        return None;
    } else if text.starts_with('.') || text.starts_with("+.") || text.starts_with("-.") {
        // `.5` is 0.5: Rust's parser wants a digit first.
        text.replacen('.', "0.", 1).parse().ok()?
    } else {
        text.parse().ok()?
    };
    let cp = (pawns * 100.0).round_ties_even();
    Some(EvalCommand {
        eval: Eval::Cp(cp as i64),
        depth,
    })
}

/// The first well-formed `[%clk]` and the first well-formed `[%eval]` of a comment, in one
/// pass: [`clock`] and [`eval`] together, for readers that want both of every move (a table
/// of a database with a clock on every move).
pub fn clock_and_eval(comment: &str) -> (Option<f64>, Option<EvalCommand>) {
    let b = comment.as_bytes();
    if let Some(read) = lichess_comment(b) {
        return read;
    }
    let (mut clock, mut eval) = (None, None);
    let mut at = 0;
    // Each `[%` is a `%` after a `[`. A move's comment is a dozen bytes: a plain loop finds
    // them sooner than memchr sets up.
    let find = |from: usize| {
        let rest = &b[from..];
        if rest.len() < 64 {
            rest.iter().position(|&c| c == b'%')
        } else {
            memchr::memchr(b'%', rest)
        }
    };
    while let Some(i) = find(at) {
        let i = at + i;
        at = i + 1;
        if i == 0 || b[i - 1] != b'[' {
            continue;
        }
        let rest = &b[at..];
        let ws = |k: usize| {
            rest.get(k)
                .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c))
        };
        if clock.is_none() && rest.starts_with(b"clk") && ws(3) {
            clock = duration(&rest[4..]);
        } else if eval.is_none() && rest.starts_with(b"eval") && ws(4) {
            eval = eval_at(&rest[5..]);
        }
        if clock.is_some() && eval.is_some() {
            break;
        }
    }
    (clock, eval)
}

/// The two comments lichess writes after every move of a database game, read at once:
/// `[%clk H:MM:SS]` and `[%eval E] [%clk H:MM:SS]` (the whole comment, E in pawns with one or
/// two decimals, or `#N`). `None` for anything else, which the general reader reads; what
/// this reads, it reads as that one does (a test holds it to that).
fn lichess_comment(b: &[u8]) -> Option<(Option<f64>, Option<EvalCommand>)> {
    /// `[%clk H:MM:SS]`, checked and read eight bytes at a time (it follows every move).
    fn clock(s: &[u8]) -> Option<f64> {
        const PUNCT: u64 = u64::from_le_bytes([0, 0xFF, 0, 0, 0xFF, 0, 0, 0xFF]);
        const DIGITS: u64 = !PUNCT;
        let s: &[u8; 14] = s.try_into().ok()?;
        let head = u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
        // "H:MM:SS]" as one word, byte 0 the hour.
        let time = u64::from_le_bytes([s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13]]);
        if head != u32::from_le_bytes(*b"[%cl") || s[4..6] != *b"k " {
            return None;
        }
        if time & PUNCT != u64::from_le_bytes([0, b':', 0, 0, b':', 0, 0, b']']) {
            return None;
        }
        // Each digit byte XOR '0' must be 0..=9: a clear high nibble, and still one after +6.
        let d = (time & DIGITS) ^ (0x3030_3030_3030_3030 & DIGITS);
        if d & 0xF0F0_F0F0_F0F0_F0F0 != 0
            || (d + 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0 != 0
        {
            return None;
        }
        let digit = |i: u32| ((d >> (8 * i)) & 0xF) as u32;
        let seconds = digit(0) * 3600 + (digit(2) * 10 + digit(3)) * 60 + digit(5) * 10 + digit(6);
        Some(f64::from(seconds))
    }
    if b.len() == 14 {
        return Some((Some(clock(b)?), None));
    }
    let rest = b.strip_prefix(b"[%eval ")?;
    let (value, clk) = rest.split_at(rest.iter().position(|&c| c == b']')?);
    let clock = clock(clk.strip_prefix(b"] ")?)?;
    // An integer of at most `max` digits.
    let int = |s: &[u8], max: usize| {
        (!s.is_empty() && s.len() <= max && s.iter().all(u8::is_ascii_digit))
            .then(|| s.iter().fold(0i64, |n, &d| n * 10 + i64::from(d - b'0')))
    };
    // Mate and centipawn signs read alike but are kept as the four forms they are.
    #[allow(clippy::match_same_arms)]
    let (negative, body) = match value {
        [b'#', b'-', body @ ..] => (true, body),
        [b'#', b'+', body @ ..] | [b'#', body @ ..] => (false, body),
        [b'-', body @ ..] => (true, body),
        [b'+', body @ ..] | body => (false, body),
    };
    let sign = if negative { -1 } else { 1 };
    let eval = if *value.first()? == b'#' {
        Eval::Mate(sign * int(body, 18)?)
    } else {
        // Pawns with one or two decimals are exact in hundredths: no float, no rounding.
        let point = body.iter().position(|&c| c == b'.')?;
        let (whole, frac) = (int(&body[..point], 10)?, int(&body[point + 1..], 2)?);
        let frac = if body.len() - point == 2 {
            frac * 10
        } else {
            frac
        };
        Eval::Cp(sign * (whole * 100 + frac))
    };
    Some((Some(clock), Some(EvalCommand { eval, depth: None })))
}

/// The first well-formed `[%eval …]`.
pub fn eval(comment: &str) -> Option<EvalCommand> {
    commands(comment, "eval").find_map(eval_at)
}

fn square(s: &[u8]) -> Option<u8> {
    match s {
        [f @ b'a'..=b'h', r @ b'1'..=b'8', ..] => Some((r - b'1') * 8 + (f - b'a')),
        _ => None,
    }
}

/// One `%csl`/`%cal` body (`Ge2e4,Rd4` then `]`): its entries, or `None` when malformed.
fn arrow_list(s: &[u8]) -> Option<Vec<Arrow>> {
    let mut out = Vec::new();
    let mut at = 0;
    loop {
        let color = *s.get(at)?;
        if !matches!(color, b'R' | b'G' | b'Y' | b'B') {
            return None;
        }
        let from = square(&s[at + 1..])?;
        at += 3;
        let to = match square(&s[at..]) {
            Some(to) => {
                at += 2;
                to
            }
            None => from,
        };
        out.push(Arrow { color, from, to });
        match s.get(at)? {
            b',' => at += 1,
            b']' => return Some(out),
            _ => return None,
        }
    }
}

/// Every well-formed `[%csl …]` and `[%cal …]` entry, in order.
pub fn arrows(comment: &str) -> Vec<Arrow> {
    let mut out = Vec::new();
    let bytes = comment.as_bytes();
    let mut at = 0;
    while let Some(i) = memfind(&bytes[at..], *b"[%") {
        let start = at + i + 2;
        at = start;
        let rest = &bytes[start..];
        if (rest.starts_with(b"csl") || rest.starts_with(b"cal"))
            && rest
                .get(3)
                .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c))
            && let Some(list) = arrow_list(&rest[4..])
        {
            out.extend(list);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks() {
        assert_eq!(clock("[%clk 0:03:00]"), Some(180.0));
        assert_eq!(clock("x [%clk 1:02:03.5] y"), Some(3723.5));
        assert_eq!(clock("[%clk 0:00:07.]"), Some(7.0));
        assert_eq!(clock("[%clk 9:59:59]"), Some(35999.0));
        assert_eq!(clock("[%clk 0:0x:07]"), None);
        assert_eq!(clock("[%clk 10:00:01]"), Some(36001.0));
        assert_eq!(clock("[%clk 0:03] [%clk 0:00:01]"), Some(1.0));
        assert_eq!(clock("[%clk  0:00:01]"), None);
        assert_eq!(clock("[%clkx 0:00:01]"), None);
        assert_eq!(emt("[%emt 0:00:04.25]"), Some(4.25));
        assert_eq!(clock("[%emt 0:00:04]"), None);
    }

    #[test]
    fn evals() {
        let e = |s: &str| eval(s).map(|c| (c.eval, c.depth));
        assert_eq!(e("[%eval 0.29]"), Some((Eval::Cp(29), None)));
        assert_eq!(e("[%eval -1.5,20]"), Some((Eval::Cp(-150), Some(20))));
        assert_eq!(e("[%eval +3]"), Some((Eval::Cp(300), None)));
        assert_eq!(e("[%eval 3.]"), Some((Eval::Cp(300), None)));
        assert_eq!(e("[%eval .5]"), Some((Eval::Cp(50), None)));
        assert_eq!(e("[%eval #-3]"), Some((Eval::Mate(-3), None)));
        assert_eq!(e("[%eval #+2,30]"), Some((Eval::Mate(2), Some(30))));
        assert_eq!(e("[%eval 1.234] [%eval 0.01]"), Some((Eval::Cp(1), None)));
        assert_eq!(e("[%eval x]"), None);
        assert_eq!(e("[%eval 12345678901]"), None);
    }

    /// The one-pass reader gives what `clock` and `eval` give, on random mixtures of well-
    /// and malformed commands (fixed seed).
    #[test]
    fn clock_and_eval_agree_with_each() {
        let parts = [
            "[%clk 0:03:00]",
            "[%clk 1:02:03.5]",
            "[%clk 0:03]",
            "[%clk  0:00:01]",
            "[%clkx 1:0:0]",
            "[%eval 0.29]",
            "[%eval #-3]",
            "[%eval x]",
            "[%eval -1.5,20]",
            "[%evalx 1]",
            "[[%clk 0:00:09]",
            "[%[%eval 1]",
            "%clk 0:00:01]",
            "text",
            " ",
            "[%emt 0:00:04]",
            "[%",
        ];
        let seed = 0xC10C_u64;
        println!("annotation seed {seed:#x}");
        let mut next = crate::xorshift(seed);
        for _ in 0..5_000 {
            let comment: String = (0..next() % 6)
                .map(|_| parts[(next() % parts.len() as u64) as usize])
                .collect();
            assert_eq!(
                clock_and_eval(&comment),
                (clock(&comment), eval(&comment)),
                "{comment:?}"
            );
        }
    }

    #[test]
    fn lichess_comments_read_as_the_general_reader_does() {
        let seed = 0x011C_4E55_u64;
        println!("lichess comment seed {seed:#x}");
        let mut next = crate::xorshift(seed);
        let evals = [
            "0.29",
            "-1.5",
            "+0.07",
            "-0.00",
            "12.34",
            "9999999999.99",
            "#3",
            "#-12",
            "#+1",
            "#0",
            "1",
            "1.",
            ".5",
            "1.234",
            "0.3,20",
            "#x",
            "-",
            "#",
            "12345678901.5",
        ];
        for i in 0..20_000 {
            // Spellings of the right length that are no clock, byte by byte.
            let odd = [
                "0:0a:00",
                "0:00:0:",
                "::00:00",
                "0:60:99",
                "0/00:00",
                "0:00:00 ",
                "9:59:5\u{0}",
                "0:00;00",
                "0:0\u{7f}:00",
                ":0:00:0",
                "0:00:0]",
            ];
            let clock = match next() % 8 {
                0 => "1:02:03.5".to_owned(),
                1 => "10:00:00".to_owned(),
                2 => "0:3:00".to_owned(),
                3 => odd[(next() % odd.len() as u64) as usize].to_owned(),
                _ => format!("{}:{:02}:{:02}", next() % 10, next() % 60, next() % 60),
            };
            let eval = if i % 3 == 0 {
                let pawns = (next() % 200_000) as f64 / 100.0 - 1_000.0;
                match next() % 3 {
                    0 => format!("{pawns:.2}"),
                    1 => format!("{pawns:.1}"),
                    _ => format!("#{}", next() as i64 % 40),
                }
            } else {
                evals[(next() % evals.len() as u64) as usize].to_owned()
            };
            for comment in [
                format!("[%clk {clock}]"),
                format!("[%eval {eval}] [%clk {clock}]"),
            ] {
                assert_eq!(
                    clock_and_eval(&comment),
                    (super::clock(&comment), super::eval(&comment)),
                    "{comment:?}"
                );
            }
        }
        // The fast path does read the common forms.
        let read = lichess_comment(b"[%eval -1.05] [%clk 0:02:57]");
        assert_eq!(
            read,
            Some((
                Some(177.0),
                Some(EvalCommand {
                    eval: Eval::Cp(-105),
                    depth: None
                })
            ))
        );
        assert_eq!(
            lichess_comment(b"[%clk 1:00:00]"),
            Some((Some(3600.0), None))
        );
        assert_eq!(
            lichess_comment(b"[%clk 9:59:59]"),
            Some((Some(35999.0), None))
        );
        assert_eq!(lichess_comment(b"[%clk 0:0a:00]"), None);
        assert_eq!(lichess_comment(b"[%clK 0:00:00]"), None);
    }

    #[test]
    fn arrow_lists() {
        let a = arrows("[%csl Gd4,Re5] text [%cal Ge2e4,Bb1c3] [%cal Xa1a2] [%csl Ga9]");
        let sq = |s: &str| square(s.as_bytes()).unwrap();
        assert_eq!(
            a,
            vec![
                Arrow {
                    color: b'G',
                    from: sq("d4"),
                    to: sq("d4")
                },
                Arrow {
                    color: b'R',
                    from: sq("e5"),
                    to: sq("e5")
                },
                Arrow {
                    color: b'G',
                    from: sq("e2"),
                    to: sq("e4")
                },
                Arrow {
                    color: b'B',
                    from: sq("b1"),
                    to: sq("c3")
                },
            ]
        );
    }
}
