//! `--syzygy-path` of `selfplay` and `datagen`: the Syzygy tables that adjudicate games.

use shatranj_engine::syzygy::{SyzygySettings, open_path_list};

/// Opens the tables of a `:`-separated (`;` on Windows) directory list. Unlike UCI's
/// `SyzygyPath`, which skips a bad entry, a command line with a directory that cannot be
/// read, or with no table at all, is a mistake to report before hours of games.
pub fn open(list: &str) -> Result<SyzygySettings, String> {
    let opened = open_path_list(list);
    if let Some((dir, e)) = opened.failures.first() {
        return Err(format!("--syzygy-path {}: {e}", dir.display()));
    }
    match opened.tables {
        Some(tables) => Ok(SyzygySettings {
            tables: Some(tables),
            ..SyzygySettings::default()
        }),
        None => Err(format!("--syzygy-path {list}: no Syzygy tables found")),
    }
}
