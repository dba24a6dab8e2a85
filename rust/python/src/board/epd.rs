//! EPD with operations, python-chess's way: `set_epd` and `from_epd` read a line's position
//! and its `opcode operand...;` groups, `epd(**operations)` writes them. The operand kinds are
//! python-chess's: a quoted string (`\"`, `\\`, `\n`, `\r`, `\t` escapes), a number (an int,
//! or a float when it has `.` or an exponent), or moves in SAN: a set for `bm`/`am`, a line
//! played move by move for `pv`, one move otherwise. Python's own `str`, `int` and `float`
//! read and write the text where python-chess leaves it to them (stripping, numbers, reprs in
//! errors), so the answers stay python-chess's.

use super::moves::Moves;
use super::notation::Notation;
use super::stack::Stack;
use super::{Board, on_rep, read, write};
use crate::rules::moves::{self, Move};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};

/// The opcodes whose operand is a list of moves (empty when the operand is missing).
const MOVE_LIST_OPCODES: [&str; 3] = ["bm", "am", "pv"];

fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// Python's `repr` of a string, for error messages as python-chess words them.
fn repr(py: Python<'_>, text: &str) -> PyResult<String> {
    Ok(PyString::new(py, text).repr()?.to_string())
}

/// Python's `str.isalpha` of one character (Unicode letters, as python-chess checks them).
fn is_alpha(py: Python<'_>, c: char) -> PyResult<bool> {
    PyString::new(py, c.encode_utf8(&mut [0; 4]))
        .call_method0("isalpha")?
        .extract()
}

/// `Board.set_epd`: the position of an EPD line (the clocks from `hmvc` and `fmvn`), and its
/// operations.
pub(super) fn set_epd<'py>(slf: &Bound<'py, Board>, epd: &str) -> PyResult<Bound<'py, PyDict>> {
    let py = slf.py();
    let parts: Vec<String> = PyString::new(py, epd)
        .call_method0("strip")?
        .call_method1("rstrip", (";",))?
        .call_method1("split", (None::<&str>, 4))?
        .extract()?;
    if parts.len() < 4 {
        return Err(PyValueError::new_err(format!(
            "an EPD needs four fields before its operations: {}",
            repr(py, epd)?
        )));
    }
    let position = parts[..4].join(" ");
    let operations = match parts.get(4) {
        Some(text) => read_operations(py, text, &format!("{position} 0 1"))?,
        None => PyDict::new(py),
    };
    let halfmove = match operations.get_item("hmvc")? {
        Some(value) => value.str()?.to_string(),
        None => "0".to_owned(),
    };
    let fullmove = match operations.get_item("fmvn")? {
        Some(value) => value.str()?.to_string(),
        None => "1".to_owned(),
    };
    write(slf)?.set_fen(&format!("{position} {halfmove} {fullmove}"))?;
    Ok(operations)
}

/// `Board.from_epd`: a new board of class `cls` at an EPD's position, and its operations.
pub(super) fn from_epd<'py>(
    cls: &Bound<'py, pyo3::types::PyType>,
    epd: &str,
    chess960: bool,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
    let kwargs = PyDict::new(cls.py());
    kwargs.set_item("chess960", chess960)?;
    let board = cls.call((), Some(&kwargs))?;
    let operations = set_epd(board.cast::<Board>()?, epd)?;
    Ok((board, operations))
}

/// The operations of an EPD, whose move operands are read in `position` (a FEN).
fn read_operations<'py>(
    py: Python<'py>,
    text: &str,
    position: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    let operations = PyDict::new(py);
    let mut i = 0;
    while i < n {
        while i < n && (is_blank(chars[i]) || chars[i] == ';') {
            i += 1;
        }
        if i >= n {
            break;
        }
        let start = i;
        while i < n && !(is_blank(chars[i]) || chars[i] == ';') {
            i += 1;
        }
        let opcode: String = chars[start..i].iter().collect();
        if opcode == "-" {
            continue;
        }
        if !is_alpha(py, chars[start])? {
            return Err(PyValueError::new_err(format!(
                "expected epd opcode to start with a letter, got: {}",
                repr(py, &opcode)?
            )));
        }
        while i < n && is_blank(chars[i]) {
            i += 1;
        }
        if i >= n || chars[i] == ';' {
            if MOVE_LIST_OPCODES.contains(&opcode.as_str()) {
                operations.set_item(&opcode, PyList::empty(py))?;
            } else {
                operations.set_item(&opcode, py.None())?;
            }
            i += 1;
            continue;
        }
        if chars[i] == '"' {
            let (value, next) = read_string(&chars, i + 1);
            operations.set_item(&opcode, value)?;
            i = next;
            continue;
        }
        let end = chars[i..]
            .iter()
            .position(|&c| c == ';')
            .map_or(n, |p| i + p);
        let raw: String = chars[i..end].iter().collect();
        let operand: String = PyString::new(py, &raw).call_method0("strip")?.extract()?;
        i = end + 1;
        let Some(first) = operand.chars().next() else {
            return Err(PyValueError::new_err(format!(
                "empty operand for epd operation {}",
                repr(py, &opcode)?
            )));
        };
        if "+-.0123456789".contains(first) {
            operations.set_item(&opcode, read_number(py, &opcode, &operand)?)?;
        } else {
            operations.set_item(&opcode, read_moves(py, &opcode, &operand, position)?)?;
        }
    }
    Ok(operations)
}

/// A quoted string from `chars[i]` (after the opening quote) and the index after it; an
/// unterminated string runs to the end, as in python-chess.
fn read_string(chars: &[char], mut i: usize) -> (String, usize) {
    let mut out = String::new();
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c == '"' {
            return (out, i);
        }
        if c == '\\' && i < chars.len() {
            out.push(match chars[i] {
                'n' => '\n',
                'r' => '\r',
                't' => '\t',
                other => other,
            });
            i += 1;
        } else {
            out.push(c);
        }
    }
    (out, i)
}

/// A number operand: Python's `float` when it has `.` or an exponent (finite only), else
/// Python's `int`.
fn read_number<'py>(py: Python<'py>, opcode: &str, operand: &str) -> PyResult<Bound<'py, PyAny>> {
    if operand.contains(['.', 'e', 'E']) {
        let value = py.get_type::<PyFloat>().call1((operand,))?;
        if !value.extract::<f64>()?.is_finite() {
            return Err(PyValueError::new_err(format!(
                "invalid numeric operand for epd operation {}: {}",
                repr(py, opcode)?,
                repr(py, operand)?
            )));
        }
        return Ok(value);
    }
    py.get_type::<PyInt>().call1((operand,))
}

/// A move operand in SAN, read in `position`: a line for `pv`, a set for `bm`/`am`, else one
/// move.
fn read_moves<'py>(
    py: Python<'py>,
    opcode: &str,
    operand: &str,
    position: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let board = Bound::new(py, Board::new(Some(position), false)?)?;
    on_rep!(&mut *write(&board)?, me => match opcode {
        "pv" => {
            let line = PyList::empty(py);
            for token in operand.split_whitespace() {
                line.append(me.push_san(py, token)?)?;
            }
            Ok(line.into_any())
        }
        "bm" | "am" => {
            let set = PyList::empty(py);
            for token in operand.split_whitespace() {
                set.append(me.parse_san(py, token)?)?;
            }
            Ok(set.into_any())
        }
        _ => Ok(me.parse_san(py, operand)?.into_any()),
    })
}

/// `Board.epd(**operations)`: the EPD position, then each operation as `opcode operand;`.
pub(super) fn epd_with_operations(
    slf: &Bound<'_, Board>,
    position: String,
    operations: &Bound<'_, PyDict>,
) -> PyResult<String> {
    let py = slf.py();
    let mut parts = vec![position];
    for opcode in operations.keys() {
        let opcode: String = opcode.extract()?;
        let mut chars = opcode.chars();
        let valid = match chars.next() {
            Some(first) => {
                is_alpha(py, first)?
                    && PyString::new(py, &opcode)
                        .call_method1("replace", ("_", "a"))?
                        .call_method0("isalnum")?
                        .extract::<bool>()?
            }
            None => false,
        };
        if !valid {
            return Err(PyValueError::new_err(format!(
                "invalid epd opcode: {}",
                repr(py, &opcode)?
            )));
        }
    }
    for (opcode, operand) in operations.iter() {
        let opcode: String = opcode.extract()?;
        parts.push(write_operand(slf, &opcode, &operand)?);
    }
    Ok(parts.join(" "))
}

/// One operation as python-chess writes it.
fn write_operand(
    slf: &Bound<'_, Board>,
    opcode: &str,
    operand: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let py = slf.py();
    if operand.is_none() {
        return Ok(format!("{opcode};"));
    }
    if let Ok(m) = operand.cast::<Move>() {
        if m.get().key == moves::NULL_KEY {
            return Ok(format!("{opcode} 0000;"));
        }
        let san = on_rep!(&mut *write(slf)?, r => r.san(m))?;
        return Ok(format!("{opcode} {san};"));
    }
    if operand.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "invalid epd operand for {}: {}",
            repr(py, opcode)?,
            operand.repr()?
        )));
    }
    if operand.is_instance_of::<PyInt>() {
        return Ok(format!("{opcode} {};", operand.str()?));
    }
    if operand.is_instance_of::<PyFloat>() {
        if !operand.extract::<f64>()?.is_finite() {
            return Err(PyValueError::new_err(format!(
                "expected finite float for epd operation {}, got {}",
                repr(py, opcode)?,
                operand.repr()?
            )));
        }
        return Ok(format!("{opcode} {};", operand.str()?));
    }
    if let Ok(text) = operand.cast::<PyString>() {
        let escaped = text
            .to_str()?
            .replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('\n', "\\n")
            .replace('\r', "\\r")
            .replace('\t', "\\t");
        return Ok(format!("{opcode} \"{escaped}\";"));
    }
    // Any other operand is moves: no borrow is held while Python iterates it.
    let moves: Vec<Bound<'_, PyAny>> = py.get_type::<PyList>().call1((operand,))?.extract()?;
    let mut sans = Vec::with_capacity(moves.len());
    if opcode == "pv" {
        let line = on_rep!(&*read(slf)?, r => r.copy_keeping(py, 0))?;
        let line = line.bind(py);
        for m in &moves {
            let m = m.cast::<Move>()?;
            on_rep!(&mut *write(line)?, r => {
                sans.push(r.san(m)?);
                r.push(m)?;
            });
        }
    } else {
        for m in &moves {
            let m = m.cast::<Move>()?;
            sans.push(on_rep!(&mut *write(slf)?, r => r.san(m))?);
        }
        sans.sort();
    }
    if sans.is_empty() {
        return Ok(format!("{opcode};"));
    }
    Ok(format!("{opcode} {};", sans.join(" ")))
}
