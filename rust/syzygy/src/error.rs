//! What can go wrong in a probe: one error type, each variant saying precisely what failed.

use std::fmt;
use std::path::PathBuf;

/// The two kinds of Syzygy file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// `.rtbw`: win/draw/loss.
    Wdl,
    /// `.rtbz`: distance to zeroing (the next capture or pawn move).
    Dtz,
}

impl TableKind {
    /// The file extension, dot included.
    pub const fn extension(self) -> &'static str {
        match self {
            TableKind::Wdl => ".rtbw",
            TableKind::Dtz => ".rtbz",
        }
    }

    pub(crate) const fn magic(self) -> u32 {
        match self {
            TableKind::Wdl => 0x5d23_e871,
            TableKind::Dtz => 0xa50c_66d7,
        }
    }
}

/// Why a probe has no answer.
///
/// Errors are values that can be kept and compared: a table that failed to open fails the
/// same way on every later probe (it is not reopened), so its error is stored and cloned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyzygyError {
    /// No directory added to the tablebase holds the table the position (or a position a
    /// capture leads to) needs. `table` is the file name, e.g. `KQvKR.rtbz`.
    MissingTable { table: String },
    /// The position has castling rights: the tables hold no such positions.
    CastlingRights,
    /// The file exists but could not be opened, sized or mapped.
    Io {
        path: PathBuf,
        kind: std::io::ErrorKind,
        message: String,
    },
    /// The file is too short for what its own header describes (or shorter than any table
    /// can be), as a partly downloaded or truncated file is.
    Truncated {
        path: PathBuf,
        size: u64,
        needed: u64,
    },
    /// The bytes are not a valid table: `what` says which field or structure is wrong and
    /// `offset` where in the file it was read (0 where no single offset applies).
    Corrupt {
        path: PathBuf,
        offset: u64,
        what: &'static str,
    },
}

impl SyzygyError {
    /// Is this a missing table (python-chess's `MissingTableError`)?
    pub fn is_missing_table(&self) -> bool {
        matches!(self, SyzygyError::MissingTable { .. })
    }
}

impl fmt::Display for SyzygyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyzygyError::MissingTable { table } => {
                write!(
                    f,
                    "syzygy table {table} not found in the tablebase directories"
                )
            }
            SyzygyError::CastlingRights => {
                f.write_str("syzygy tables do not contain positions with castling rights")
            }
            SyzygyError::Io {
                path,
                message,
                kind: _,
            } => write!(f, "cannot read {}: {message}", path.display()),
            SyzygyError::Truncated { path, size, needed } => write!(
                f,
                "{} is truncated: {size} bytes, its header needs at least {needed}",
                path.display()
            ),
            SyzygyError::Corrupt { path, offset, what } => write!(
                f,
                "{} is corrupt: {what} (at byte {offset})",
                path.display()
            ),
        }
    }
}

impl std::error::Error for SyzygyError {}

/// A defect found while reading a table, before the path is attached.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Defect {
    /// A read or a section at `needed` bytes lies past the end of the file.
    Short { needed: u64 },
    /// Something impossible in a valid table.
    Bad { offset: u64, what: &'static str },
}

impl Defect {
    pub(crate) fn bad(offset: usize, what: &'static str) -> Defect {
        Defect::Bad {
            offset: offset as u64,
            what,
        }
    }

    pub(crate) fn with_path(self, path: PathBuf, size: usize) -> SyzygyError {
        match self {
            Defect::Short { needed } => SyzygyError::Truncated {
                path,
                size: size as u64,
                needed,
            },
            Defect::Bad { offset, what } => SyzygyError::Corrupt { path, offset, what },
        }
    }
}
