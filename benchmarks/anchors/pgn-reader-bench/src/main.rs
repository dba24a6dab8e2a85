//! Games/s of the pgn-reader crate on one PGN file, single-threaded, as an anchor for
//! benchmarks/pgn.py. `raw` counts games and SAN tokens without playing them; `validated`
//! plays every main-line move on a shakmaty position (variations skipped), as a validating
//! reader must. A `.zst` input (told by its magic bytes) is decoded on the fly.
//!
//!     pgn-reader-bench raw|validated FILE   →   one line: mode games plies seconds

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{fen::Fen, CastlingMode, Chess, Position};
use std::io::Read;
use std::ops::ControlFlow;
use std::time::Instant;

#[derive(Default)]
struct Counter {
    validate: bool,
    games: u64,
    plies: u64,
    bad: u64,
}

impl Visitor for Counter {
    type Tags = Option<Chess>;
    type Movetext = Option<Chess>;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), Option<Chess>> {
        ControlFlow::Continue(None)
    }

    fn tag(&mut self, start: &mut Option<Chess>, name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        if self.validate && name == b"FEN" {
            let pos = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Standard).ok());
            match pos {
                Some(p) => *start = Some(p),
                None => {
                    self.bad += 1;
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, start: Option<Chess>) -> ControlFlow<(), Option<Chess>> {
        self.games += 1;
        ControlFlow::Continue(if self.validate {
            Some(start.unwrap_or_default())
        } else {
            None
        })
    }

    fn begin_variation(&mut self, _: &mut Option<Chess>) -> ControlFlow<(), Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn san(&mut self, pos: &mut Option<Chess>, san: SanPlus) -> ControlFlow<()> {
        self.plies += 1;
        if let Some(p) = pos {
            match san.san.to_move(p) {
                Ok(m) => p.play_unchecked(m),
                Err(_) => {
                    self.bad += 1;
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: Option<Chess>) {}
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let (mode, path) = match args.as_slice() {
        [_, mode, path] if mode == "raw" || mode == "validated" => (mode.clone(), path.clone()),
        _ => {
            eprintln!("usage: pgn-reader-bench raw|validated FILE");
            std::process::exit(2);
        }
    };
    let mut file = std::fs::File::open(&path)?;
    let mut magic = [0u8; 4];
    let n = file.read(&mut magic)?;
    let head = std::io::Cursor::new(magic[..n].to_vec()).chain(file);
    let input: Box<dyn Read> = if magic == [0x28, 0xB5, 0x2F, 0xFD] {
        Box::new(zstd::Decoder::new(head)?)
    } else {
        Box::new(head)
    };
    let start = Instant::now();
    let mut reader = Reader::new(input);
    let mut counter = Counter {
        validate: mode == "validated",
        ..Counter::default()
    };
    while reader.read_game(&mut counter)?.is_some() {}
    let seconds = start.elapsed().as_secs_f64();
    println!("{mode} {} {} {seconds:.4} bad={}", counter.games, counter.plies, counter.bad);
    Ok(())
}
