//! The set of tables: the directories, which files they hold, and each file opened lazily.

use crate::error::{SyzygyError, TableKind};
use crate::material::Material;
use crate::table::{Data, Kind, Layout, Probed, Table};
use shatranj_chess::Position;
use std::collections::HashMap;
use std::fs::File;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Syzygy tables from one or more directories, probed by
/// [`probe_wdl`](Tablebase::probe_wdl), [`probe_dtz`](Tablebase::probe_dtz) and
/// [`rank_root_moves`](Tablebase::rank_root_moves).
///
/// Adding directories needs `&mut self`; probing needs only `&self` and may happen from any
/// number of threads at once.
#[derive(Default)]
pub struct Tablebase {
    entries: Vec<Entry>,
    /// Material key (as the position stands) → entry, and whether the colours are the
    /// table's swapped.
    index: HashMap<u64, (usize, bool), BuildHasherDefault<KeyHasher>>,
    max_pieces: usize,
    directories: Vec<PathBuf>,
}

/// One material: its WDL and DTZ files, each opened on first use.
struct Entry {
    name: String,
    layout: Layout,
    paths: [Option<PathBuf>; 2],
    tables: [OnceLock<Result<Table, SyzygyError>>; 2],
}

fn slot(kind: Kind) -> usize {
    match kind {
        Kind::Wdl => 0,
        Kind::Dtz => 1,
    }
}

fn public_kind(kind: Kind) -> TableKind {
    match kind {
        Kind::Wdl => TableKind::Wdl,
        Kind::Dtz => TableKind::Dtz,
    }
}

/// Material keys are already well spread in their low bits; one multiply mixes them.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }
}

impl Tablebase {
    /// A tablebase with no tables: every probe but `KvK` answers
    /// [`SyzygyError::MissingTable`].
    pub fn new() -> Tablebase {
        Tablebase::default()
    }

    /// A tablebase with the tables of each directory (see
    /// [`add_directory`](Tablebase::add_directory)).
    pub fn open<P: AsRef<Path>>(
        directories: impl IntoIterator<Item = P>,
    ) -> Result<Tablebase, SyzygyError> {
        let mut tb = Tablebase::new();
        for dir in directories {
            tb.add_directory(dir)?;
        }
        Ok(tb)
    }

    /// A tablebase from a path list as UCI's `SyzygyPath` gives it: directories separated by
    /// `:` (`;` on Windows). Empty entries and `<empty>` (the UCI default) are skipped.
    pub fn from_path_list(list: &str) -> Result<Tablebase, SyzygyError> {
        if list.trim() == "<empty>" {
            return Ok(Tablebase::new());
        }
        Tablebase::open(std::env::split_paths(list).filter(|p| !p.as_os_str().is_empty()))
    }

    /// Adds the `.rtbw` and `.rtbz` files of a directory (not of its subdirectories) and
    /// returns how many were new. Files are only listed here; each is opened on the first
    /// probe that needs it. A table already known from an earlier directory keeps its file;
    /// a name that is no table (`README`, `KvK.rtbw`, `KQvQ.rtbw`) is passed over.
    pub fn add_directory(&mut self, directory: impl AsRef<Path>) -> Result<usize, SyzygyError> {
        self.add_directory_kinds(directory, true, true)
    }

    /// [`add_directory`](Tablebase::add_directory) taking only the WDL files, only the DTZ
    /// files, or both (python-chess's `load_wdl` and `load_dtz`): a caller that never asks
    /// for a DTZ need not have the `.rtbz` files found, and a second directory can then
    /// supply them.
    pub fn add_directory_kinds(
        &mut self,
        directory: impl AsRef<Path>,
        load_wdl: bool,
        load_dtz: bool,
    ) -> Result<usize, SyzygyError> {
        let dir = directory.as_ref();
        let io = |e: std::io::Error| SyzygyError::Io {
            path: dir.to_path_buf(),
            kind: e.kind(),
            message: e.to_string(),
        };
        let mut names: Vec<(String, Kind, PathBuf)> = Vec::new();
        for item in std::fs::read_dir(dir).map_err(io)? {
            let item = item.map_err(io)?;
            let file_name = item.file_name();
            let Some(file_name) = file_name.to_str() else {
                continue;
            };
            let Some((stem, kind)) = split_name(file_name) else {
                continue;
            };
            let wanted = match kind {
                Kind::Wdl => load_wdl,
                Kind::Dtz => load_dtz,
            };
            if !wanted {
                continue;
            }
            names.push((stem.to_owned(), kind, item.path()));
        }
        // Directory order is the file system's; sorted, the result does not depend on it.
        names.sort();
        let mut added = 0;
        for (stem, kind, path) in names {
            if self.register(&stem, kind, path) {
                added += 1;
            }
        }
        self.directories.push(dir.to_path_buf());
        Ok(added)
    }

    /// Adds one table file (`…/KQvKR.rtbw` or `.rtbz`), as found in a directory; true if it
    /// was new. A file whose name is no table, or whose table is already known, is passed
    /// over (false); a file that is not there is [`SyzygyError::Io`]. Like a directory's
    /// files, it is opened on the first probe that needs it (or by
    /// [`open_table`](Tablebase::open_table)).
    pub fn add_file(&mut self, path: impl AsRef<Path>) -> Result<bool, SyzygyError> {
        let path = path.as_ref();
        std::fs::metadata(path).map_err(|e| SyzygyError::Io {
            path: path.to_path_buf(),
            kind: e.kind(),
            message: e.to_string(),
        })?;
        let Some((stem, kind)) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(split_name)
        else {
            return Ok(false);
        };
        Ok(self.register(stem, kind, path.to_path_buf()))
    }

    /// Opens, maps and checks the header of a known table now rather than on its first
    /// probe (`name` such as `KQvKR`, in either colouring), so that a damaged file is found
    /// at start-up. A table without a file of that kind is [`SyzygyError::MissingTable`].
    pub fn open_table(&self, name: &str, kind: TableKind) -> Result<(), SyzygyError> {
        let k = match kind {
            TableKind::Wdl => Kind::Wdl,
            TableKind::Dtz => Kind::Dtz,
        };
        let missing = || SyzygyError::MissingTable {
            table: name.to_owned() + kind.extension(),
        };
        let material = Material::from_name(name).ok_or_else(missing)?;
        let &(i, _) = self.index.get(&material.key()).ok_or_else(missing)?;
        let entry = &self.entries[i];
        let path = entry.paths[slot(k)].as_ref().ok_or_else(missing)?;
        match entry.tables[slot(k)].get_or_init(|| open_table(path, k, &entry.layout)) {
            Ok(_) => Ok(()),
            Err(e) => Err(e.clone()),
        }
    }

    /// Records a file for its material; false if the name is no table or the slot is
    /// already filled.
    fn register(&mut self, stem: &str, kind: Kind, path: PathBuf) -> bool {
        let Some(material) = Material::from_name(stem) else {
            return false;
        };
        let i = match self.index.get(&material.key()) {
            Some(&(i, false)) => i,
            // The mirror of a table already known under its other name.
            Some(&(_, true)) => return false,
            None => {
                let layout = Layout::new(material);
                let i = self.entries.len();
                self.index.insert(material.key(), (i, false));
                if !layout.symmetric {
                    self.index.insert(material.flipped().key(), (i, true));
                }
                self.max_pieces = self.max_pieces.max(layout.num);
                self.entries.push(Entry {
                    name: stem.to_owned(),
                    layout,
                    paths: [None, None],
                    tables: [OnceLock::new(), OnceLock::new()],
                });
                i
            }
        };
        let entry = &mut self.entries[i];
        if entry.paths[slot(kind)].is_some() {
            return false;
        }
        entry.paths[slot(kind)] = Some(path);
        true
    }

    /// Installs a table from bytes instead of a file (`file_name` such as `KQvKR.rtbw`
    /// names it), parsing it at once; the parse error, if any, is also what later probes of
    /// the table answer. For tests and fuzzing: a damaged table without a file on disk.
    #[doc(hidden)]
    pub fn insert_table_bytes(
        &mut self,
        file_name: &str,
        bytes: Vec<u8>,
    ) -> Result<(), SyzygyError> {
        let (stem, kind) = split_name(file_name).ok_or_else(|| SyzygyError::MissingTable {
            table: file_name.to_owned(),
        })?;
        let material = Material::from_name(stem).ok_or_else(|| SyzygyError::MissingTable {
            table: file_name.to_owned(),
        })?;
        let path = PathBuf::from(file_name);
        let key = material.key();
        if !matches!(self.index.get(&key), Some((_, false))) {
            // Replace a mirrored registration too: the bytes are in this name's orientation.
            self.index.remove(&key);
            self.index.remove(&material.flipped().key());
            self.register(stem, kind, path.clone());
        }
        let (i, _) = self.index[&key];
        let entry = &mut self.entries[i];
        entry.paths[slot(kind)] = Some(path.clone());
        let size = bytes.len();
        let result = Table::parse(Data::Owned(bytes), kind, &entry.layout)
            .map_err(|d| d.with_path(path, size));
        let outcome = match &result {
            Ok(_) => Ok(()),
            Err(e) => Err(e.clone()),
        };
        entry.tables[slot(kind)] = OnceLock::from(result);
        outcome
    }

    /// The largest number of pieces (kings included) of a table found, 0 if none.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// The directories added, in order.
    pub fn directories(&self) -> &[PathBuf] {
        &self.directories
    }

    /// The names of the tables found (`KQvKR`), with whether their WDL and DTZ files were.
    pub fn tables(&self) -> impl Iterator<Item = (&str, bool, bool)> {
        self.entries
            .iter()
            .map(|e| (e.name.as_str(), e.paths[0].is_some(), e.paths[1].is_some()))
    }

    /// Fathom's `probe_table`: the raw table value of the position (WDL: −2..=2; DTZ: the
    /// stored distance for a position whose WDL is `wdl`), captures and en passant not
    /// considered.
    pub(crate) fn probe_table(
        &self,
        pos: &Position,
        kind: Kind,
        wdl: i32,
    ) -> Result<Probed, SyzygyError> {
        let key = Material::key_of_board(pos.board());
        let Some(&(i, flip)) = self.index.get(&key) else {
            if kind == Kind::Wdl && pos.board().occupied().count() == 2 {
                return Ok(Probed::Value(0)); // KvK: a draw, and no file.
            }
            let name = Material::of_board(pos.board()).canonical_name();
            return Err(SyzygyError::MissingTable {
                table: name + public_kind(kind).extension(),
            });
        };
        let entry = &self.entries[i];
        let s = slot(kind);
        let Some(path) = &entry.paths[s] else {
            return Err(SyzygyError::MissingTable {
                table: entry.name.clone() + public_kind(kind).extension(),
            });
        };
        let table = match entry.tables[s].get_or_init(|| open_table(path, kind, &entry.layout)) {
            Ok(t) => t,
            Err(e) => return Err(e.clone()),
        };
        table
            .probe(&entry.layout, pos, flip, wdl)
            .map_err(|d| d.with_path(path.clone(), table.len()))
    }
}

impl Tablebase {
    /// Fails unless the tablebase has the position's own `kind` file (or the position is
    /// `KvK`, which needs none). Probes check it first, as python-chess does, so that a
    /// position beyond the tables is a missing table even where a capture would decide it.
    pub(crate) fn require(&self, pos: &Position, kind: Kind) -> Result<(), SyzygyError> {
        let key = Material::key_of_board(pos.board());
        let known = self
            .index
            .get(&key)
            .is_some_and(|&(i, _)| self.entries[i].paths[slot(kind)].is_some());
        if known || pos.board().occupied().count() == 2 {
            return Ok(());
        }
        let name = Material::of_board(pos.board()).canonical_name();
        Err(SyzygyError::MissingTable {
            table: name + public_kind(kind).extension(),
        })
    }

    /// The error for a table whose values contradict each other at `pos`.
    pub(crate) fn damaged(&self, pos: &Position, kind: Kind, what: &'static str) -> SyzygyError {
        let key = Material::key_of_board(pos.board());
        let path = self
            .index
            .get(&key)
            .and_then(|&(i, _)| self.entries[i].paths[slot(kind)].clone())
            .unwrap_or_default();
        SyzygyError::Corrupt {
            path,
            offset: 0,
            what,
        }
    }
}

/// `KQvKR.rtbw` → (`KQvKR`, WDL).
fn split_name(file_name: &str) -> Option<(&str, Kind)> {
    if let Some(stem) = file_name.strip_suffix(".rtbw") {
        Some((stem, Kind::Wdl))
    } else {
        file_name
            .strip_suffix(".rtbz")
            .map(|stem| (stem, Kind::Dtz))
    }
}

/// Opens, maps and parses a table file.
fn open_table(path: &Path, kind: Kind, layout: &Layout) -> Result<Table, SyzygyError> {
    // Smaller than a header: nothing to map (and mapping zero bytes fails on some systems).
    const HEADER: u64 = 16;
    let io = |e: std::io::Error| SyzygyError::Io {
        path: path.to_path_buf(),
        kind: e.kind(),
        message: e.to_string(),
    };
    let file = File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    if size < HEADER {
        return Err(SyzygyError::Truncated {
            path: path.to_path_buf(),
            size,
            needed: HEADER,
        });
    }
    // SAFETY: the mapping is read-only and private to this tablebase; nothing in this
    // process writes the file. Memory-mapped files share one hazard that no reader can
    // rule out: if another process truncates the file while it is mapped, reading the lost
    // pages raises SIGBUS. Every reader of Syzygy files (Fathom, Stockfish) accepts it.
    #[allow(unsafe_code)]
    let map = unsafe { memmap2::MmapOptions::new().map(&file) }.map_err(io)?;
    #[cfg(unix)]
    {
        // Probes touch scattered blocks: read-ahead would only waste memory.
        let _ = map.advise(memmap2::Advice::Random);
    }
    let len = map.len();
    Table::parse(Data::Mapped(map), kind, layout).map_err(|d| d.with_path(path.to_path_buf(), len))
}
