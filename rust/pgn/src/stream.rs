//! PGN at database scale: compressed streams read in bounded memory, games parsed on every
//! core and handed back in file order.
//!
//! [`Source`] opens a path or any `Read` and picks the decompressor from the first bytes, not
//! from the file name: zstd (`28 B5 2F FD`), gzip (`1F 8B`), bzip2 (`BZh`), else plain text.
//! Multi-frame and multi-member files (what `zstd`, `pigz` and `pbzip2` write) are read to the
//! end. It counts the compressed bytes it has read, so a progress bar knows how far it is.
//!
//! [`GameStream`] (one value per game) and [`ChunkStream`] (one per chunk) run the pipeline:
//!
//! ```text
//!   reader thread: decompress → Chunker: ~512 KB chunks of whole games (no line is read)
//!         │  each chunk is handed to the thread pool, which cuts its games (ChunkGames) and
//!         ▼  parses them; its receiver is queued in a bounded channel (DEPTH chunks)
//!   consumer: takes the receivers in order and waits for each chunk: games in file order
//! ```
//!
//! Games are cut exactly as [`super::PgnReader`] cuts them (same splitter, same line numbers,
//! same UTF-8-else-Latin-1 decoding), so a stream and a `PgnReader` see the same games; how
//! the chunks are cut without reading every line is in [`super::chunk`]. A line longer than
//! [`MAX_LINE`] is cut there and a game longer than [`MAX_GAME`] ends there: binary garbage
//! without line breaks cannot grow a buffer without bound.

use super::chunk::{Chunk, ChunkGames, Chunker, Recycler};
use super::split::RawGame;
use std::collections::VecDeque;
use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::time::Duration;

/// A line longer than this is cut into pieces of this size.
pub const MAX_LINE: usize = 16 << 20;
/// A game whose text grows past this ends there (the rest starts another game).
pub const MAX_GAME: usize = 64 << 20;
/// Chunks queued or being parsed at once, per stream (each about [`CHUNK_BYTES`]).
///
/// [`CHUNK_BYTES`]: super::chunk::CHUNK_BYTES
const DEPTH: usize = 32;

/// How the bytes of a source are compressed, as told by their first bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Compression {
    None,
    Zstd,
    Gzip,
    Bzip2,
}

impl Compression {
    /// The format whose magic number `head` starts with (plain text when none matches).
    pub fn detect(head: &[u8]) -> Compression {
        if head.starts_with(&[0x28, 0xB5, 0x2F, 0xFD]) {
            Compression::Zstd
        } else if head.starts_with(&[0x1F, 0x8B]) {
            Compression::Gzip
        } else if head.starts_with(b"BZh") {
            Compression::Bzip2
        } else {
            Compression::None
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "plain",
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
        }
    }
}

/// A failure of the stream itself (not of a game in it): reading or decompressing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamError {
    /// The compression of the source.
    pub compression: Compression,
    /// Compressed bytes read from the source when it failed: the fault is at or before it.
    pub offset: u64,
    /// The decompressed line reached (1-based).
    pub line: usize,
    /// Whether the source ended in the middle of a compressed frame or member.
    pub truncated: bool,
    pub message: String,
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = if self.truncated {
            "truncated"
        } else {
            "corrupt or unreadable"
        };
        match self.compression {
            Compression::None => write!(
                f,
                "read error at byte {} (line {}): {}",
                self.offset, self.line, self.message
            ),
            c => write!(
                f,
                "{} stream {what} at compressed byte {} (line {}): {}",
                c.name(),
                self.offset,
                self.line,
                self.message
            ),
        }
    }
}

impl std::error::Error for StreamError {}

/// Counts the bytes read through it into a shared counter.
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// A byte source with its decompressor chosen: read it as plain PGN text.
pub struct Source {
    reader: Box<dyn Read + Send>,
    compression: Compression,
    consumed: Arc<AtomicU64>,
    total: Option<u64>,
}

impl Source {
    /// Opens the file at `path`; its size is the progress total.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Source> {
        let file = File::open(path)?;
        let total = file.metadata().ok().map(|m| m.len());
        Source::new(file, total)
    }

    /// Reads `input`; `total` is its size in bytes where known.
    pub fn new(input: impl Read + Send + 'static, total: Option<u64>) -> io::Result<Source> {
        let consumed = Arc::new(AtomicU64::new(0));
        let mut input = Counting {
            inner: input,
            count: Arc::clone(&consumed),
        };
        // Enough bytes for any magic number; a pipe may give them a few at a time.
        let mut head = [0u8; 4];
        let mut got = 0;
        while got < head.len() {
            match input.read(&mut head[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        let head = &head[..got];
        let raw = BufReader::with_capacity(1 << 16, io::Cursor::new(head.to_vec()).chain(input));
        let compression = Compression::detect(head);
        let reader: Box<dyn Read + Send> = match compression {
            Compression::None => Box::new(raw),
            Compression::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(raw)?),
            Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(raw)),
            Compression::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(raw)),
        };
        Ok(Source {
            reader,
            compression,
            consumed,
            total,
        })
    }

    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// A handle on the count of source (compressed) bytes read so far.
    pub fn consumed(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.consumed)
    }

    /// The source's size in bytes, where known.
    pub fn total(&self) -> Option<u64> {
        self.total
    }

    pub(crate) fn error(&self, e: &io::Error, line: usize) -> StreamError {
        let truncated = e.kind() == io::ErrorKind::UnexpectedEof
            || (self.compression != Compression::None
                && e.to_string().to_ascii_lowercase().contains("incomplete"));
        StreamError {
            compression: self.compression,
            offset: self.consumed.load(Ordering::Relaxed),
            line,
            truncated,
            message: e.to_string(),
        }
    }
}

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.reader.read(buf)
    }
}

/// The games of a [`Source`] one at a time on this thread (a [`GameStream`] without the
/// pool): the same cuts, lines and texts.
pub struct RawGames {
    chunker: Chunker,
    games: VecDeque<RawGame>,
    failed: bool,
}

impl RawGames {
    pub fn new(source: Source) -> RawGames {
        RawGames {
            chunker: Chunker::new(source),
            games: VecDeque::new(),
            failed: false,
        }
    }

    pub fn source(&self) -> &Source {
        self.chunker.source()
    }

    /// The next game's text; `None` at the end. After an error the iterator ends.
    pub fn next_game(&mut self) -> Option<Result<RawGame, StreamError>> {
        loop {
            if let Some(game) = self.games.pop_front() {
                return Some(Ok(game));
            }
            if self.failed {
                return None;
            }
            match self.chunker.next_chunk()? {
                Ok(chunk) => {
                    let mut games = ChunkGames::new(&chunk);
                    while let Some(raw) = games.next_game() {
                        self.games.push_back(raw.clone());
                    }
                }
                Err(e) => {
                    self.failed = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

/// What a pool task makes of one chunk's games.
pub type ChunkFn<B> = Arc<dyn Fn(&mut ChunkGames<'_>) -> B + Send + Sync>;

/// What each game's text becomes in the pool: `None` drops the game (a filter said no).
pub type ParseFn<T> = Arc<dyn Fn(&RawGame) -> Option<T> + Send + Sync>;

type ChunkResult<B> = Result<B, StreamError>;

/// The chunks of a [`Source`], each made into a `B` on a thread pool, in file order: the
/// pipeline under [`GameStream`], open for callers that fold a chunk's games into one value
/// (a table's columns) rather than one value per game. See the module docs.
pub struct ChunkStream<B: Send + 'static> {
    ordered: Option<Receiver<Receiver<ChunkResult<B>>>>,
    stop: Arc<AtomicBool>,
    consumed: Arc<AtomicU64>,
    total: Option<u64>,
    compression: Compression,
    done: bool,
}

impl<B: Send + 'static> ChunkStream<B> {
    /// Starts reading `source` on a thread of its own and folding each chunk with `fold` on
    /// `threads` threads of a pool made for the stream (`None`: rayon's global pool).
    pub fn new(source: Source, fold: ChunkFn<B>, threads: Option<usize>) -> io::Result<Self> {
        let pool = match threads {
            None => None,
            Some(n) => Some(Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n.max(1))
                    .thread_name(|i| format!("pgn-parse-{i}"))
                    .build()
                    .map_err(io::Error::other)?,
            )),
        };
        let (tx, rx) = mpsc::sync_channel(DEPTH);
        let stop = Arc::new(AtomicBool::new(false));
        let consumed = source.consumed();
        let total = source.total();
        let compression = source.compression();
        {
            let stop = Arc::clone(&stop);
            std::thread::Builder::new()
                .name("pgn-read".to_owned())
                .spawn(move || produce(Chunker::new(source), fold, pool, tx, &stop))?;
        }
        Ok(ChunkStream {
            ordered: Some(rx),
            stop,
            consumed,
            total,
            compression,
            done: false,
        })
    }

    /// Compressed bytes read from the source so far.
    pub fn bytes_read(&self) -> u64 {
        self.consumed.load(Ordering::Relaxed)
    }

    /// The source's size, where known.
    pub fn total_bytes(&self) -> Option<u64> {
        self.total
    }

    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// Asks the reader to stop; the stream then ends early.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The next chunk's value, waiting at most `timeout` for it: `Ok(Some(value))`, or
    /// `Ok(None)` at the end of the stream, or `Err(None)` on timeout (call again), or
    /// `Err(Some(e))` when the stream failed (the chunks before the failure came first).
    pub fn next_chunk(&mut self, timeout: Duration) -> Result<Option<B>, Option<StreamError>> {
        if self.done {
            return Ok(None);
        }
        let Some(ordered) = &self.ordered else {
            return Ok(None);
        };
        // The receiver of the next chunk in order, then the chunk's value itself.
        let result = match ordered.recv_timeout(timeout) {
            Ok(chunk_rx) => chunk_rx
                .recv()
                .unwrap_or_else(|_| Err(self.internal("a parse task ended without its chunk"))),
            Err(mpsc::RecvTimeoutError::Timeout) => return Err(None),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                self.done = true;
                return Ok(None);
            }
        };
        result.map(Some).map_err(|e| {
            self.done = true;
            Some(e)
        })
    }

    fn internal(&self, message: &str) -> StreamError {
        StreamError {
            compression: self.compression,
            offset: self.bytes_read(),
            line: 0,
            truncated: false,
            message: message.to_owned(),
        }
    }
}

impl<B: Send + 'static> Drop for ChunkStream<B> {
    fn drop(&mut self) {
        // The reader sees the flag, or fails to queue its next chunk, and ends.
        self.stop.store(true, Ordering::Relaxed);
        self.ordered = None;
    }
}

/// Games of a [`Source`], parsed on a thread pool, in file order. See the module docs.
pub struct GameStream<T: Send + 'static> {
    chunks: ChunkStream<Vec<Option<T>>>,
    current: VecDeque<Option<T>>,
    dropped: usize,
}

impl<T: Send + 'static> GameStream<T> {
    /// Starts reading `source` on a thread of its own and parsing with `parse` on `threads`
    /// threads of a pool made for the stream (`None`: rayon's global pool, every core).
    pub fn new(source: Source, parse: ParseFn<T>, threads: Option<usize>) -> io::Result<Self> {
        let fold: ChunkFn<Vec<Option<T>>> = Arc::new(move |games: &mut ChunkGames<'_>| {
            let mut out = Vec::new();
            while let Some(raw) = games.next_game() {
                out.push(parse(raw));
            }
            out
        });
        Ok(GameStream {
            chunks: ChunkStream::new(source, fold, threads)?,
            current: VecDeque::new(),
            dropped: 0,
        })
    }

    /// Compressed bytes read from the source so far.
    pub fn bytes_read(&self) -> u64 {
        self.chunks.bytes_read()
    }

    /// The source's size, where known.
    pub fn total_bytes(&self) -> Option<u64> {
        self.chunks.total_bytes()
    }

    pub fn compression(&self) -> Compression {
        self.chunks.compression()
    }

    /// Games the parse function dropped so far.
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// Asks the reader to stop; the stream then ends early.
    pub fn stop(&self) {
        self.chunks.stop();
    }

    /// The next batch of games, waiting at most `timeout` for it: `Ok(Some(games))`, or
    /// `Ok(None)` at the end of the stream, or `Err(None)` on timeout (call again), or
    /// `Err(Some(e))` when the stream failed (the games before the failure came first).
    pub fn next_batch(&mut self, timeout: Duration) -> Result<Option<Vec<T>>, Option<StreamError>> {
        if self.current.is_empty() {
            match self.chunks.next_chunk(timeout)? {
                Some(games) => self.current = games.into(),
                None => return Ok(None),
            }
        }
        let before = self.current.len();
        let games: Vec<T> = self.current.drain(..).flatten().collect();
        self.dropped += before - games.len();
        Ok(Some(games))
    }
}

impl<T: Send + 'static> Iterator for GameStream<T> {
    type Item = Result<T, StreamError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(slot) = self.current.pop_front() {
                if let Some(game) = slot {
                    return Some(Ok(game));
                }
                self.dropped += 1;
                continue;
            }
            match self.chunks.next_chunk(Duration::from_secs(3600)) {
                Ok(Some(games)) => self.current = games.into(),
                Ok(None) => return None,
                Err(None) => {}
                Err(Some(e)) => return Some(Err(e)),
            }
        }
    }
}

/// The reader thread: cuts chunks and hands each to the pool.
// The thread's entry owns what it is handed: `ordered` closing when it returns is the end of
// the stream for the consumer.
#[allow(clippy::needless_pass_by_value)]
fn produce<B: Send + 'static>(
    mut chunker: Chunker,
    fold: ChunkFn<B>,
    pool: Option<Arc<rayon::ThreadPool>>,
    ordered: SyncSender<Receiver<ChunkResult<B>>>,
    stop: &AtomicBool,
) {
    let recycler = chunker.recycler();
    while !stop.load(Ordering::Relaxed) {
        match chunker.next_chunk() {
            None => return,
            Some(Ok(chunk)) => {
                if !dispatch(chunk, &fold, pool.as_ref(), &ordered, &recycler) {
                    return;
                }
            }
            Some(Err(e)) => {
                let (tx, rx) = mpsc::sync_channel(1);
                let _ = tx.send(Err(e));
                let _ = ordered.send(rx);
                return;
            }
        }
    }
}

/// Starts folding `chunk` in the pool and queues its receiver; false when the consumer is
/// gone.
fn dispatch<B: Send + 'static>(
    chunk: Chunk,
    fold: &ChunkFn<B>,
    pool: Option<&Arc<rayon::ThreadPool>>,
    ordered: &SyncSender<Receiver<ChunkResult<B>>>,
    recycler: &Recycler,
) -> bool {
    let (tx, rx) = mpsc::sync_channel(1);
    let fold = Arc::clone(fold);
    let recycler = recycler.clone();
    let task = move || {
        // A panic must not cross into the pool (rayon would abort) nor reach a caller.
        let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            fold(&mut ChunkGames::new(&chunk))
        }));
        let result = out.map_err(|panic| {
            let message = panic
                .downcast_ref::<&str>()
                .map(std::string::ToString::to_string)
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_owned());
            StreamError {
                compression: Compression::None,
                offset: 0,
                line: chunk.first_line,
                truncated: false,
                message: format!("internal error while parsing: {message}"),
            }
        });
        recycler.give(chunk.bytes);
        let _ = tx.send(result);
    };
    match pool {
        Some(pool) => pool.spawn(task),
        None => rayon::spawn(task),
    }
    ordered.send(rx).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PgnReader, parse_game};
    use std::io::Write;

    fn corpus() -> String {
        let mut text = String::new();
        for i in 0..700 {
            text.push_str(&format!(
                "[Event \"Rated Blitz game\"]\n[Round \"{i}\"]\n[WhiteElo \"{}\"]\n\n\
                 1. e4 {{ [%clk 0:03:00] }} e5 {{ [%clk 0:02:59] }} 2. Nf3 Nc6 {} *\n\n",
                1500 + i,
                if i % 7 == 3 { "3. Qxh7" } else { "3. Bb5" }
            ));
        }
        text.push_str("[Event \"no blank line\"]\n1. d4 d5 *\n[Event \"next\"]\n1. c4 *");
        text
    }

    fn compress(c: Compression, text: &[u8]) -> Vec<u8> {
        match c {
            Compression::None => text.to_vec(),
            Compression::Zstd => zstd::encode_all(text, 3).unwrap(),
            Compression::Gzip => {
                // Two members, as pigz or `cat a.gz b.gz` write.
                let (a, b) = text.split_at(text.len() / 2);
                let mut out = Vec::new();
                for part in [a, b] {
                    let mut e =
                        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
                    e.write_all(part).unwrap();
                    out.extend(e.finish().unwrap());
                }
                out
            }
            Compression::Bzip2 => {
                let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
                e.write_all(text).unwrap();
                e.finish().unwrap()
            }
        }
    }

    const ALL: [Compression; 4] = [
        Compression::None,
        Compression::Zstd,
        Compression::Gzip,
        Compression::Bzip2,
    ];

    /// Every format gives the games a `PgnReader` gives, in order, with the same lines.
    #[test]
    fn streams_match_the_reader() {
        let text = corpus();
        let want: Vec<(usize, usize, bool)> = PgnReader::new(text.as_bytes())
            .map(|g| match g {
                Ok(g) => (g.first_line, g.mainline_moves().len(), true),
                Err(e) => (e.line, 0, false),
            })
            .collect();
        for c in ALL {
            let bytes = compress(c, text.as_bytes());
            let total = bytes.len() as u64;
            let source = Source::new(io::Cursor::new(bytes), Some(total)).unwrap();
            assert_eq!(source.compression(), c);
            for threads in [Some(1), Some(2), None] {
                let bytes = compress(c, text.as_bytes());
                let source = Source::new(io::Cursor::new(bytes), Some(total)).unwrap();
                let parse: ParseFn<_> = Arc::new(|raw: &RawGame| {
                    let g = parse_game(raw);
                    Some(match g.fatal_error() {
                        None => (g.first_line, g.mainline_moves().len(), true),
                        Some(e) => (e.line, 0, false),
                    })
                });
                let stream = GameStream::new(source, parse, threads).unwrap();
                let got: Vec<_> = stream.map(Result::unwrap).collect();
                assert_eq!(got, want, "{c:?} {threads:?}");
            }
        }
    }

    /// A truncated or corrupted compressed stream is an error naming the compressed offset,
    /// after the games before it.
    #[test]
    fn truncated_and_corrupt_streams_are_typed_errors() {
        let text = corpus();
        for c in [Compression::Zstd, Compression::Gzip, Compression::Bzip2] {
            let full = compress(c, text.as_bytes());
            let cut = full[..full.len() * 2 / 3].to_vec();
            let mut corrupt = full.clone();
            let mid = corrupt.len() / 2;
            for b in &mut corrupt[mid..mid + 64] {
                *b ^= 0x5A;
            }
            for (what, bytes) in [("truncated", cut), ("corrupt", corrupt)] {
                let len = bytes.len() as u64;
                let source = Source::new(io::Cursor::new(bytes), None).unwrap();
                let parse: ParseFn<usize> = Arc::new(|raw: &RawGame| Some(raw.first_line));
                let items: Vec<_> = GameStream::new(source, parse, Some(2)).unwrap().collect();
                let last = items.last().unwrap();
                let e = last.as_ref().expect_err(&format!("{c:?} {what}: no error"));
                assert_eq!(e.compression, c);
                assert!(e.offset > 0 && e.offset <= len, "{c:?} {what}: {e}");
                assert!(items[..items.len() - 1].iter().all(Result::is_ok));
                if what == "truncated" {
                    assert!(e.truncated, "{c:?}: {e}");
                }
                assert!(e.to_string().contains("compressed byte"), "{e}");
            }
        }
    }

    /// Binary garbage without line breaks is cut into bounded lines and ends.
    #[test]
    fn garbage_is_bounded() {
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        let mut bytes = vec![0u8; 3 << 20];
        for b in &mut bytes {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            *b = (state >> 24) as u8;
        }
        bytes[0] = b'x';
        let source = Source::new(io::Cursor::new(bytes), None).unwrap();
        let parse: ParseFn<usize> = Arc::new(|raw: &RawGame| Some(raw.text.len()));
        for game in GameStream::new(source, parse, Some(1)).unwrap() {
            assert!(game.unwrap() <= MAX_GAME + MAX_LINE + 1);
        }
    }

    #[test]
    fn magic_numbers() {
        assert_eq!(Compression::detect(b"[Event"), Compression::None);
        assert_eq!(Compression::detect(b""), Compression::None);
        assert_eq!(Compression::detect(b"BZh9"), Compression::Bzip2);
        assert_eq!(Compression::detect(&[0x1f, 0x8b, 8]), Compression::Gzip);
        assert_eq!(
            Compression::detect(&[0x28, 0xb5, 0x2f, 0xfd]),
            Compression::Zstd
        );
    }
}
