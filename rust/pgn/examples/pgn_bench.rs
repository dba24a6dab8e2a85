//! Reads a PGN file and reports games per second: the streaming reader on one thread, and
//! `read_all` on rayon's threads, and the cost of SAN parsing alone.
//!
//! `cargo run --release -p shatranj-pgn --example pgn_bench -- FILE [once|lean [ROUNDS] | split | stream|stream-lean THREADS [ROUNDS]]`
//!
//! Every streaming mode opens FILE itself (`Source::open`: plain or compressed, told by its
//! magic bytes) inside the timed region, as the pgn-reader anchor does and as
//! `shatranj.pgn`'s path sources do: both sides pay the same reads from the page cache.

use shatranj_pgn::{PgnReader, read_all};
use std::io::BufReader;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: pgn_bench FILE")?;
    if std::env::args().nth(2).as_deref() == Some("stream") {
        // The whole pipeline (reader thread, parse pool of N threads, games in order), as
        // `shatranj.pgn.stream_games` runs it without Python.
        use shatranj_pgn::parse_game;
        use shatranj_pgn::stream::{GameStream, ParseFn, Source};
        let threads: usize = std::env::args().nth(3).map_or(Ok(1), |n| n.parse())?;
        let rounds: usize = std::env::args().nth(4).map_or(Ok(3), |n| n.parse())?;
        for _ in 0..rounds {
            let start = Instant::now();
            let source = Source::open(&path)?;
            let parse: ParseFn<usize> =
                std::sync::Arc::new(|raw| Some(parse_game(raw).nodes.len()));
            let stream = GameStream::new(source, parse, Some(threads))?;
            let mut n = 0usize;
            for game in stream {
                game?;
                n += 1;
            }
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{n} games, {threads} parse threads: {:.0} games/s",
                n as f64 / secs
            );
        }
        return Ok(());
    }
    if std::env::args().nth(2).as_deref() == Some("split") {
        // The reader thread's share of a stream: cutting the games alone.
        use shatranj_pgn::stream::{RawGames, Source};
        for _ in 0..3 {
            let start = Instant::now();
            let source = Source::open(&path)?;
            let mut games = RawGames::new(source);
            let mut n = 0usize;
            while let Some(raw) = games.next_game() {
                n += usize::from(!raw?.text.is_empty());
            }
            let secs = start.elapsed().as_secs_f64();
            println!("{n} games cut: {:.0} games/s", n as f64 / secs);
        }
        return Ok(());
    }
    if let Some(mode @ ("once" | "lean")) = std::env::args().nth(2).as_deref() {
        // One pass on this thread of what a stream does per chunk (cut the chunks, cut their
        // games, parse each into a tree, or read its main line lean), for callgrind and for
        // one-core timings.
        use shatranj_pgn::chunk::{ChunkGames, Chunker};
        use shatranj_pgn::stream::Source;
        use shatranj_pgn::{MainLine, MainLineRead, parse_game, read_mainline};
        for _ in 0..std::env::args().nth(3).map_or(Ok(1), |n| n.parse())? {
            let start = Instant::now();
            let source = Source::open(&path)?;
            let mut chunker = Chunker::new(source);
            let (mut n, mut plies, mut unusual) = (0usize, 0usize, 0usize);
            let mut line = MainLine::new();
            while let Some(chunk) = chunker.next_chunk() {
                let chunk = chunk?;
                let mut games = ChunkGames::new(&chunk);
                while let Some(raw) = games.next_game() {
                    if mode == "lean" && read_mainline(raw, &mut line) == MainLineRead::Complete {
                        n += 1;
                        plies += line.moves.len();
                        continue;
                    }
                    unusual += usize::from(mode == "lean");
                    let game = parse_game(raw);
                    n += usize::from(game.fatal.is_none());
                    plies += game.nodes.len() - 1;
                }
            }
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{n} games, {plies} plies ({mode}, {unusual} unusual), one thread: {:.0} games/s",
                n as f64 / secs
            );
        }
        return Ok(());
    }
    if std::env::args().nth(2).as_deref() == Some("stream-lean") {
        // The pipeline with main lines read lean on the pool (what a table read does).
        use shatranj_pgn::chunk::ChunkGames;
        use shatranj_pgn::stream::{ChunkFn, ChunkStream, Source};
        use shatranj_pgn::{MainLine, MainLineRead, parse_game, read_mainline};
        use std::time::Duration;
        let threads: usize = std::env::args().nth(3).map_or(Ok(1), |n| n.parse())?;
        let rounds: usize = std::env::args().nth(4).map_or(Ok(3), |n| n.parse())?;
        for _ in 0..rounds {
            let start = Instant::now();
            let source = Source::open(&path)?;
            let fold: ChunkFn<(usize, usize)> =
                std::sync::Arc::new(|games: &mut ChunkGames<'_>| {
                    let mut line = MainLine::new();
                    let (mut n, mut plies) = (0, 0);
                    while let Some(raw) = games.next_game() {
                        n += 1;
                        plies += match read_mainline(raw, &mut line) {
                            MainLineRead::Complete => line.moves.len(),
                            MainLineRead::Partial => parse_game(raw).nodes.len() - 1,
                        };
                    }
                    (n, plies)
                });
            let mut stream = ChunkStream::new(source, fold, Some(threads))?;
            let mut n = 0usize;
            while let Some((games, _)) = stream
                .next_chunk(Duration::from_secs(60))
                .map_err(|e| format!("{e:?}"))?
            {
                n += games;
            }
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{n} games, {threads} parse threads, lean: {:.0} games/s",
                n as f64 / secs
            );
        }
        return Ok(());
    }
    let bytes = std::fs::read(&path)?;
    for _ in 0..3 {
        let start = Instant::now();
        let mut reader = PgnReader::new(BufReader::new(&bytes[..]));
        let plies: usize = reader
            .by_ref()
            .flatten()
            .map(|g| g.mainline_moves().len())
            .sum();
        let one = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let report = read_all(&bytes[..], &AtomicBool::new(false));
        let all = start.elapsed().as_secs_f64();
        let games = reader.games_read();
        san_only(&report.games);
        println!(
            "{games} games ({} skipped), {plies} plies: PgnReader {:.0} games/s, read_all {:.0} games/s ({} games)",
            reader.games_skipped(),
            games as f64 / one,
            report.games_read() as f64 / all,
            report.games_read()
        );
    }
    Ok(())
}

/// SAN parsing alone over the same plies: the share of the reader's time spent in `parse_san`.
fn san_only(games: &[shatranj_pgn::PgnGame]) -> f64 {
    use shatranj_chess::san;
    let mut cases = Vec::new();
    for g in games {
        let mut pos = g.start;
        for m in g.mainline_moves() {
            cases.push((pos, san::to_san(&pos, m)));
            pos.play_unchecked(m);
        }
    }
    let start = Instant::now();
    let mut n = 0;
    for (pos, text) in &cases {
        n += usize::from(san::parse_san(pos, text).is_ok());
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "parse_san: {} plies, {:.0} ns each",
        n,
        secs * 1e9 / n as f64
    );
    secs
}
