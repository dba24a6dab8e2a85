//! `_core.parse_uci_info`: an engine's `info` line as python-chess's info dict, in one call.
//!
//! Engines print thousands of info lines per search, each with a principal variation of
//! a dozen moves or more. Parsing one in Python costs a native call per move; here the
//! line is split, its numbers read and its moves checked against the position (the rules
//! crate's UCI parser, the same as `Board.push_uci`) without leaving Rust.
//!
//! The result matches python-chess's `chess.engine._parse_uci_info` key for key, in the
//! same order: `python/tests/engine/test_engine_client.py` compares the two on fixed lines
//! (key order included) and on a seeded token soup. There is no Python copy of this parser.
//! Two parts are left to Python, which wraps them in its classes: `"score"` comes back as
//! `(is_mate, value)` and `"wdl"` as `(wins, draws, losses)`. What does not parse is left
//! out and described in the returned list of messages, which Python logs (as python-chess
//! logs them).
//!
//! The root may be a standard `Board` or a `shatranj.variant` board: an engine playing a
//! variant (`UCI_Variant`) writes its lines in the variant's moves, drops (`N@f3`)
//! included, so they are read by the variant's rules ([`LineRoot`]).

use crate::board::Board;
use crate::rules::moves::{interned, key_of, parse_uci_key};
use crate::variant::VariantBoard;
use crate::variant::keys::key_of_move;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyInt, PyList, PyString};
use shatranj_chess::on_any_variant;
use shatranj_chess::variant::{Variant, VariantPosition};
use shatranj_chess::{Position, uci};

/// A position an engine's line of moves is read from: standard chess's, or a variant's.
trait LineRoot: Copy {
    /// Plays the legal move `token` names, returning its python-chess key; `None` if it
    /// names none.
    fn play_uci(&mut self, token: &str) -> Option<u16>;
    fn fen_text(&self) -> String;
}

impl LineRoot for Position {
    fn play_uci(&mut self, token: &str) -> Option<u16> {
        let m = uci::parse_uci(self, token).ok()?;
        self.play_unchecked(m);
        Some(key_of(m))
    }
    fn fen_text(&self) -> String {
        self.fen()
    }
}

impl<V: Variant> LineRoot for VariantPosition<V> {
    fn play_uci(&mut self, token: &str) -> Option<u16> {
        let m = self.parse_uci(token).ok()?;
        let key = key_of_move(self, m);
        self.play_unchecked(m);
        Some(key)
    }
    fn fen_text(&self) -> String {
        self.fen()
    }
}

// python-chess's `Info` flags.
const INFO_SCORE: u32 = 2;
const INFO_PV: u32 = 4;
const INFO_REFUTATION: u32 = 8;
const INFO_CURRLINE: u32 = 16;

/// The interned key of an integer field, `None` for other words (interned: a line sets a
/// dozen keys, and making a new string for each would cost more than the parsing).
fn int_field<'py>(py: Python<'py>, word: &str) -> Option<Bound<'py, PyString>> {
    let key = match word {
        "depth" => intern!(py, "depth"),
        "seldepth" => intern!(py, "seldepth"),
        "nodes" => intern!(py, "nodes"),
        "multipv" => intern!(py, "multipv"),
        "currmovenumber" => intern!(py, "currmovenumber"),
        "hashfull" => intern!(py, "hashfull"),
        "nps" => intern!(py, "nps"),
        "tbhits" => intern!(py, "tbhits"),
        "cpuload" => intern!(py, "cpuload"),
        _ => return None,
    };
    Some(key.clone())
}

/// Whether a token continues a line of moves: python-chess's test
/// `re.match(r"[a-h][1-8][a-h][1-8][pnbrqk]?|[PNBRQK]@[a-h][1-8]|0000\Z", token)`,
/// which looks at a prefix only (the move parser then rejects the rest).
fn continues_line(token: &str) -> bool {
    let b = token.as_bytes();
    let file = |c: u8| (b'a'..=b'h').contains(&c);
    let rank = |c: u8| (b'1'..=b'8').contains(&c);
    (b.len() >= 4 && file(b[0]) && rank(b[1]) && file(b[2]) && rank(b[3]))
        || (b.len() >= 4 && b"PNBRQK".contains(&b[0]) && b[1] == b'@' && file(b[2]) && rank(b[3]))
        || token == "0000"
}

/// The moves written from `tokens[start]` on, played from `pos`, and the index after
/// them; `None` if one is not legal (like `_variation` in Python).
fn variation<R: LineRoot>(pos: &R, tokens: &[&str], start: usize) -> Option<(Vec<u16>, usize)> {
    let mut end = start;
    while end < tokens.len() && continues_line(tokens[end]) {
        end += 1;
    }
    let mut p = *pos;
    let mut keys = Vec::with_capacity(end - start);
    for token in &tokens[start..end] {
        keys.push(p.play_uci(token)?);
    }
    Some((keys, end))
}

fn move_list<'py>(py: Python<'py>, keys: &[u16]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for &key in keys {
        list.append(interned(py, key)?)?;
    }
    Ok(list)
}

/// An int as Python's `int()` reads it: plain decimal digits here, anything else (signs,
/// underscores, huge values, other scripts' digits) by calling `int` itself.
fn int_of<'py>(py: Python<'py>, text: &str) -> Option<Bound<'py, PyAny>> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if !digits.is_empty() && digits.len() <= 18 && digits.bytes().all(|c| c.is_ascii_digit()) {
        let value: i64 = text.parse().ok()?;
        return value.into_pyobject(py).ok().map(Bound::into_any);
    }
    py.get_type::<PyInt>().call1((text,)).ok()
}

fn float_of<'py>(py: Python<'py>, text: &str) -> Option<Bound<'py, PyAny>> {
    py.get_type::<PyFloat>().call1((text,)).ok()
}

struct Problems<'a, 'py> {
    py: Python<'py>,
    text: &'a str,
    messages: Vec<String>,
}

impl Problems<'_, '_> {
    fn repr(&self) -> String {
        PyString::new(self.py, self.text)
            .repr()
            .map_or_else(|_| format!("{:?}", self.text), |r| r.to_string())
    }

    fn field(&mut self, what: &str) {
        let message = format!("Exception parsing {what} from info: {}", self.repr());
        self.messages.push(message);
    }

    fn line<R: LineRoot>(&mut self, what: &str, pos: &R) {
        let message = format!(
            "Exception parsing {what} from info: {}, position at root: {}",
            self.repr(),
            pos.fen_text()
        );
        self.messages.push(message);
    }

    fn score_kind(&mut self, kind: &str) {
        let message = format!(
            "Unknown score kind {} in info (expected cp or mate): {}",
            PyString::new(self.py, kind)
                .repr()
                .map_or_else(|_| format!("{kind:?}"), |r| r.to_string()),
            self.repr()
        );
        self.messages.push(message);
    }
}

/// Parses an info line (without the word `info`) in the position of `board` (a `Board` or a
/// variant board), keeping the parts `selector` (python-chess's `Info` flags) asks for.
/// Returns the dict and the messages for the parts that did not parse.
#[pyfunction]
pub fn parse_uci_info<'py>(
    py: Python<'py>,
    text: &str,
    board: &Bound<'py, PyAny>,
    selector: u32,
) -> PyResult<(Bound<'py, PyDict>, Vec<String>)> {
    if selector == 0 {
        return Ok((PyDict::new(py), Vec::new()));
    }
    if let Ok(board) = board.cast::<Board>() {
        let pos = *crate::board::read(board)?.valid_position()?;
        return parse_info(py, text, pos, selector);
    }
    let variant = board.cast::<VariantBoard>()?.borrow().position();
    on_any_variant!(variant, pos => parse_info(py, text, pos, selector))
}

fn parse_info<'py, R: LineRoot>(
    py: Python<'py>,
    text: &str,
    pos: R,
    selector: u32,
) -> PyResult<(Bound<'py, PyDict>, Vec<String>)> {
    let info = PyDict::new(py);
    let mut problems = Problems {
        py,
        text,
        messages: Vec::new(),
    };
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let count = tokens.len();
    let token = |i: usize| tokens.get(i).copied().unwrap_or("");
    let mut i = 0;
    while i < count {
        let word = tokens[i];
        i += 1;
        if let Some(key) = int_field(py, word) {
            let value = token(i);
            i += 1;
            match int_of(py, value) {
                Some(number) => info.set_item(key, number)?,
                None => problems.field(word),
            }
            continue;
        }
        match word {
            "time" => {
                let value = token(i);
                i += 1;
                // As Python's `int(ms) / 1000.0`: the int rounded to a float, then divided.
                match int_of(py, value).and_then(|n| n.extract::<f64>().ok()) {
                    Some(ms) => info.set_item(intern!(py, "time"), ms / 1000.0)?,
                    None => problems.field(word),
                }
            }
            "ebf" => {
                let value = token(i);
                i += 1;
                match float_of(py, value) {
                    Some(number) => info.set_item("ebf", number)?,
                    None => problems.field(word),
                }
            }
            "score" if selector & INFO_SCORE != 0 => {
                let kind = token(i);
                let value = token(i + 1);
                i += 2;
                if i < count && (tokens[i] == "lowerbound" || tokens[i] == "upperbound") {
                    info.set_item(tokens[i], true)?;
                    i += 1;
                }
                match kind {
                    "cp" | "mate" => match int_of(py, value) {
                        Some(number) => {
                            info.set_item(intern!(py, "score"), (kind == "mate", number))?;
                        }
                        None => problems.field("score"),
                    },
                    _ => problems.score_kind(kind),
                }
            }
            "pv" if selector & INFO_PV != 0 => match variation(&pos, &tokens, i) {
                Some((keys, end)) => {
                    info.set_item(intern!(py, "pv"), move_list(py, &keys)?)?;
                    i = end;
                }
                None => problems.line("pv", &pos),
            },
            "string" => {
                // The rest of the line as written (inner spacing kept), as python-chess
                // keeps it: everything after the first `i` words.
                let rest = text.split_whitespace().take(i).fold(text, |rest, word| {
                    let at = rest.find(word).map_or(rest.len(), |p| p + word.len());
                    &rest[at..]
                });
                info.set_item("string", rest.trim_start())?;
                break;
            }
            "currmove" => {
                let value = token(i);
                i += 1;
                match parse_uci_key(value) {
                    Ok(key) => info.set_item("currmove", interned(py, key)?)?,
                    Err(_) => problems.field("currmove"),
                }
            }
            "wdl" => {
                let values: Vec<Option<Bound<'py, PyAny>>> =
                    (0..3).map(|k| int_of(py, token(i + k))).collect();
                i += 3;
                match (&values[0], &values[1], &values[2]) {
                    (Some(w), Some(d), Some(l)) => info.set_item("wdl", (w, d, l))?,
                    _ => problems.field("wdl"),
                }
            }
            "currline" if selector & INFO_CURRLINE != 0 => {
                let lines = if let Some(existing) = info.get_item("currline")? {
                    existing.cast_into::<PyDict>()?
                } else {
                    let fresh = PyDict::new(py);
                    info.set_item("currline", &fresh)?;
                    fresh
                };
                let value = token(i);
                i += 1;
                let parsed =
                    int_of(py, value).and_then(|cpu| Some((cpu, variation(&pos, &tokens, i)?)));
                match parsed {
                    Some((cpu, (keys, end))) => {
                        lines.set_item(cpu, move_list(py, &keys)?)?;
                        i = end;
                    }
                    None => problems.line("currline", &pos),
                }
            }
            "refutation" if selector & INFO_REFUTATION != 0 => {
                let refutations = if let Some(existing) = info.get_item("refutation")? {
                    existing.cast_into::<PyDict>()?
                } else {
                    let fresh = PyDict::new(py);
                    info.set_item("refutation", &fresh)?;
                    fresh
                };
                let value = token(i);
                i += 1;
                let mut after = pos;
                let parsed = after
                    .play_uci(value)
                    .and_then(|refuted| Some((refuted, variation(&after, &tokens, i)?)));
                match parsed {
                    Some((refuted, (keys, end))) => {
                        refutations.set_item(interned(py, refuted)?, move_list(py, &keys)?)?;
                        i = end;
                    }
                    None => problems.line("refutation", &pos),
                }
            }
            _ => {}
        }
    }
    Ok((info, problems.messages))
}
