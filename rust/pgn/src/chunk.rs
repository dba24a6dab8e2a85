//! Cutting a byte stream into chunks of whole games on one thread, and the games out of each
//! chunk on many.
//!
//! Where one game ends is a question of state (a `{` comment may run over lines, a tag
//! section may hold a blank line), so splitting line by line on the reader thread made it the
//! bottleneck of a parallel read. The [`Chunker`] instead looks only near the end of a block
//! for a *cut*: a place where, whatever came before, the [`GameSplitter`] is between games.
//! [`ChunkGames`] then runs the splitter over the chunk from that state, on a pool thread,
//! and gives exactly the games a sequential pass gives, with the same line numbers.
//!
//! A line `L` starting with `[` that looks like a tag pair, after one or more blank lines
//! whose last non-blank line begins with a printable ASCII byte other than `[` and `%`, is a
//! cut. That non-blank line leaves the splitter in the movetext (every state goes there on
//! such a line); the blank line then ends the game, or, inside a `{` comment, the tag-pair
//! line after it does. Files that never offer such a place (games of tags only, lines of
//! binary garbage) are cut by running the splitter itself over the pending bytes, once they
//! pass [`EXACT_AFTER`].

use super::reader::decode;
use super::split::{GameSplitter, LineAction, RawGame};
use super::stream::{MAX_GAME, MAX_LINE, Source, StreamError};
use std::io::{self, Read};

/// A chunk is cut at the first cut after this many bytes.
pub const CHUNK_BYTES: usize = 512 << 10;
/// Pending bytes without a cut after which the splitter itself finds one.
pub const EXACT_AFTER: usize = 8 << 20;
/// Decompressed bytes read at a time (small next to a chunk, so that little is left over
/// to move to the front of the buffer after each cut).
const BLOCK: usize = 256 << 10;
/// The candidate line of a cut must end within this many bytes (tag pairs are short).
const TAG_LINE_MAX: usize = 64 << 10;

/// How a chunk ends, which decides what happens to its last line and its last game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChunkEnd {
    /// At a cut: the next game begins right after. A game still open at the end is whole.
    Cut,
    /// At the end of the input: a last line without a line break is still a line, and a
    /// game still open is whole.
    Input,
    /// Where reading failed: a last line without a line break was never read, and a game
    /// still open was never finished (a sequential reader would not have given it).
    Failure,
}

/// A run of whole games (and the lines between them) cut from a stream.
#[derive(Clone, Debug)]
pub struct Chunk {
    pub bytes: Vec<u8>,
    /// The 1-based line number of its first line.
    pub first_line: usize,
    /// The splitter starts it as at the start of an input (a byte-order mark dropped from
    /// its first line): the first chunk, and one after a game cut at [`MAX_GAME`].
    pub fresh: bool,
    pub end: ChunkEnd,
}

/// The games of one chunk, in order, as a sequential pass over the whole input cuts them.
pub struct ChunkGames<'a> {
    bytes: &'a [u8],
    at: usize,
    /// The number of the last line read.
    line_no: usize,
    end: ChunkEnd,
    splitter: GameSplitter,
    raw: RawGame,
    /// A line that begins the next game, read while finishing the previous one.
    pending: Option<(usize, usize)>,
    finished: bool,
    /// Where the chunk could be cut after the last game given, and whether the splitter
    /// starts fresh there (see [`Chunk::fresh`]).
    resume: (usize, bool),
}

impl<'a> ChunkGames<'a> {
    pub fn new(chunk: &'a Chunk) -> ChunkGames<'a> {
        ChunkGames::over(&chunk.bytes, chunk.first_line, chunk.fresh, chunk.end)
    }

    pub(crate) fn over(bytes: &'a [u8], first_line: usize, fresh: bool, end: ChunkEnd) -> Self {
        let mut splitter = GameSplitter::new();
        if !fresh {
            splitter.not_first_line();
        }
        ChunkGames {
            bytes,
            at: 0,
            line_no: first_line - 1,
            end,
            splitter,
            raw: RawGame::default(),
            pending: None,
            finished: false,
            resume: (0, fresh),
        }
    }

    /// The next line as a byte range (without its `\n`); `None` at the end of the chunk.
    fn next_line(&mut self) -> Option<(usize, usize)> {
        let rest = &self.bytes[self.at..];
        if rest.is_empty() {
            return None;
        }
        let limit = rest.len().min(MAX_LINE);
        let len = match memchr::memchr(b'\n', &rest[..limit]) {
            Some(i) => {
                let start = self.at;
                self.at += i + 1;
                self.line_no += 1;
                return Some((start, start + i));
            }
            // A line without end is cut at MAX_LINE; what is left at the end of the input
            // is the last line, and at a failure it was never read.
            None if rest.len() >= MAX_LINE => limit,
            None if self.end == ChunkEnd::Failure => return None,
            None => rest.len(),
        };
        let start = self.at;
        self.at += len;
        self.line_no += 1;
        Some((start, start + len))
    }

    /// The next game, or `None` when the chunk has no more.
    pub fn next_game(&mut self) -> Option<&RawGame> {
        if self.finished {
            return None;
        }
        // Between calls the splitter is between games: each call reads one game whole.
        self.raw.text.clear();
        loop {
            let range = match self.pending.take() {
                Some(range) => range,
                None => {
                    if let Some(range) = self.next_line() {
                        range
                    } else {
                        self.finished = true;
                        let open = self.splitter.in_game() && self.end != ChunkEnd::Failure;
                        return open.then_some(&self.raw);
                    }
                }
            };
            let line = decode(&self.bytes[range.0..range.1]);
            let was_in_game = self.splitter.in_game();
            match self.splitter.feed(&line) {
                LineAction::Skip => {}
                LineAction::Take => {
                    if !was_in_game {
                        self.raw.first_line = self.line_no;
                    }
                    self.raw.text.push_str(line.trim_end_matches('\r'));
                    self.raw.text.push('\n');
                    if self.raw.text.len() > MAX_GAME {
                        self.splitter = GameSplitter::new();
                        self.resume = (self.at, true);
                        return Some(&self.raw);
                    }
                }
                LineAction::End => {
                    self.resume = (self.at, false);
                    return Some(&self.raw);
                }
                LineAction::EndBefore => {
                    // Fed again for the next game, under the same line number.
                    self.pending = Some(range);
                    self.resume = (range.0, false);
                    return Some(&self.raw);
                }
            }
        }
    }

    /// Where a chunk could end after the games given so far, and whether the splitter
    /// starts fresh there.
    fn resume(&self) -> (usize, bool) {
        self.resume
    }
}

/// How many lines `bytes` holds, counted as [`ChunkGames`] cuts them: a line longer than
/// [`MAX_LINE`] is several; at `end_of_input` a last line without a line break counts, else
/// it was not read yet.
pub(crate) fn count_lines(bytes: &[u8], end_of_input: bool) -> usize {
    let mut lines = 0;
    let mut start = 0;
    for i in memchr::memchr_iter(b'\n', bytes) {
        lines += (i - start) / MAX_LINE + 1;
        start = i + 1;
    }
    let tail = bytes.len() - start;
    lines += if end_of_input {
        tail.div_ceil(MAX_LINE)
    } else {
        tail / MAX_LINE
    };
    lines
}

fn is_blank_ascii(line: &[u8]) -> bool {
    line.iter()
        .all(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'\x0C'))
}

/// Whether a chunk may end just before `p`, the start of a line beginning with `[` (see the
/// module docs). `data` begins at a line start; whatever is unsure is no cut.
fn is_cut(data: &[u8], p: usize) -> bool {
    // The line at p: complete, and a tag pair (trimmed, it ends with `]` and holds a quote).
    let Some(len) = memchr::memchr(b'\n', &data[p..(p + TAG_LINE_MAX).min(data.len())]) else {
        return false;
    };
    let line = data[p..p + len].trim_ascii_end();
    if !(line.ends_with(b"]") && memchr::memchr(b'"', line).is_some()) {
        return false;
    }
    // Blank lines before it, then a line that sends the splitter to the movetext.
    let mut end = p - 1; // the `\n` ending the line before
    let mut blanks = 0;
    loop {
        let start = memchr::memrchr(b'\n', &data[end.saturating_sub(MAX_LINE)..end])
            .map(|i| end.saturating_sub(MAX_LINE) + i + 1);
        let start = match start {
            Some(s) => s,
            None if end < MAX_LINE => 0,
            None => return false,
        };
        let prev = &data[start..end];
        if is_blank_ascii(prev) {
            if start == 0 {
                return false;
            }
            blanks += 1;
            end = start - 1;
            continue;
        }
        return blanks > 0
            && prev.len() < MAX_LINE
            && prev[0].is_ascii_graphic()
            && !matches!(prev[0], b'[' | b'%');
    }
}

/// The first cut at or after `from` in `data` (which begins at a line start).
pub(crate) fn find_cut(data: &[u8], from: usize) -> Option<usize> {
    let finder = memchr::memmem::Finder::new(b"\n[");
    let mut at = from.max(1) - 1;
    while let Some(i) = finder.find(&data[at..]) {
        let p = at + i + 1;
        if is_cut(data, p) {
            return Some(p);
        }
        at = p;
    }
    None
}

/// Spent chunk buffers handed back for the [`Chunker`] to fill again: a chunk's pages are
/// then already mapped, where a fresh allocation would fault each one in again (which costs
/// more than reading the bytes on some virtual machines).
#[derive(Clone, Default)]
pub struct Recycler(std::sync::Arc<std::sync::Mutex<Vec<Vec<u8>>>>);

impl Recycler {
    /// Buffers kept at most (as many as a stream has chunks in flight, and a few more).
    const KEEP: usize = 40;

    /// Takes back a chunk's buffer once its games are read.
    pub fn give(&self, mut bytes: Vec<u8>) {
        bytes.clear();
        if let Ok(mut spare) = self.0.lock()
            && spare.len() < Recycler::KEEP
        {
            spare.push(bytes);
        }
    }

    fn take(&self) -> Vec<u8> {
        self.0
            .lock()
            .ok()
            .and_then(|mut s| s.pop())
            .unwrap_or_default()
    }
}

/// Cuts a [`Source`] into [`Chunk`]s. See the module docs.
pub struct Chunker {
    source: Source,
    recycler: Recycler,
    /// Read into from `len` on; kept from chunk to chunk (only its growth is ever zeroed).
    buf: Vec<u8>,
    /// Bytes of `buf` read and not yet cut off.
    len: usize,
    /// Lines before `buf`.
    lines: usize,
    /// The next chunk starts fresh (see [`Chunk::fresh`]).
    fresh: bool,
    eof: bool,
    /// A read error to report after the chunk before it.
    failure: Option<StreamError>,
    done: bool,
}

impl Chunker {
    pub fn new(source: Source) -> Chunker {
        Chunker {
            source,
            recycler: Recycler::default(),
            buf: Vec::new(),
            len: 0,
            lines: 0,
            fresh: true,
            eof: false,
            failure: None,
            done: false,
        }
    }

    pub fn source(&self) -> &Source {
        &self.source
    }

    /// Where the chunks' readers give their buffers back.
    pub fn recycler(&self) -> Recycler {
        self.recycler.clone()
    }

    /// Cuts `buf[..at]` off as a chunk, and moves what follows to the front.
    fn emit(&mut self, at: usize, end: ChunkEnd, fresh_after: bool) -> Chunk {
        let mut bytes = self.recycler.take();
        bytes.extend_from_slice(&self.buf[..at]);
        self.buf.copy_within(at..self.len, 0);
        self.len -= at;
        let chunk = Chunk {
            first_line: self.lines + 1,
            fresh: self.fresh,
            end,
            bytes,
        };
        self.lines += count_lines(&chunk.bytes, end == ChunkEnd::Input);
        self.fresh = fresh_after;
        chunk
    }

    /// Where the splitter itself ends the last game in the pending bytes, if one ends.
    fn exact_cut(&self) -> Option<(usize, bool)> {
        let mut games = ChunkGames::over(
            &self.buf[..self.len],
            self.lines + 1,
            self.fresh,
            ChunkEnd::Failure,
        );
        while games.next_game().is_some() {}
        let (at, fresh) = games.resume();
        (at > 0).then_some((at, fresh))
    }

    /// The next chunk; `None` at the end. After an error the chunker ends.
    pub fn next_chunk(&mut self) -> Option<Result<Chunk, StreamError>> {
        loop {
            if self.done {
                return None;
            }
            if let Some(e) = self.failure.take() {
                self.done = true;
                return Some(Err(e));
            }
            if self.len >= CHUNK_BYTES {
                let data = &self.buf[..self.len];
                if let Some(at) = find_cut(data, CHUNK_BYTES) {
                    return Some(Ok(self.emit(at, ChunkEnd::Cut, false)));
                }
                if self.len >= EXACT_AFTER
                    && let Some((at, fresh)) = self.exact_cut()
                {
                    return Some(Ok(self.emit(at, ChunkEnd::Cut, fresh)));
                }
            }
            if self.eof {
                self.done = true;
                return (self.len > 0).then(|| Ok(self.emit(self.len, ChunkEnd::Input, false)));
            }
            if self.buf.len() < self.len + BLOCK {
                self.buf.resize(self.len + BLOCK, 0);
            }
            match self.source.read(&mut self.buf[self.len..self.len + BLOCK]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let line = self.lines + count_lines(&self.buf[..self.len], false);
                    self.failure = Some(self.source.error(&e, line));
                    if self.len > 0 {
                        return Some(Ok(self.emit(self.len, ChunkEnd::Failure, false)));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PgnReader;

    /// The games of `text` as the line-at-a-time reader cuts them: (first line, text).
    fn sequential(text: &[u8]) -> Vec<(usize, String)> {
        let mut reader = PgnReader::new(text);
        let mut out = Vec::new();
        while let Some(g) = reader.next_raw() {
            let g = g.unwrap();
            out.push((g.first_line, g.text));
        }
        out
    }

    /// The same text cut into chunks at every cut `find_cut` offers from `every` bytes on,
    /// then split per chunk.
    fn chunked(text: &[u8], every: usize) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        let mut start = 0;
        let mut lines = 0;
        let mut fresh = true;
        loop {
            let data = &text[start..];
            let (len, end) = match find_cut(data, every.min(data.len())) {
                Some(at) => (at, ChunkEnd::Cut),
                None => (data.len(), ChunkEnd::Input),
            };
            let chunk = Chunk {
                bytes: data[..len].to_vec(),
                first_line: lines + 1,
                fresh,
                end,
            };
            let mut games = ChunkGames::new(&chunk);
            while let Some(g) = games.next_game() {
                out.push((g.first_line, g.text.clone()));
            }
            fresh = false;
            lines += count_lines(&chunk.bytes, end == ChunkEnd::Input);
            start += len;
            if end == ChunkEnd::Input {
                return out;
            }
        }
    }

    /// Lines that make cutting hard: tag sections with blank lines, comments over blank
    /// lines with tag-like lines in them, escape lines, CRLF, a byte-order mark, Latin-1,
    /// stray brackets, games without movetext and movetext without tags.
    const PIECES: &[&[u8]] = &[
        b"[Event \"a\"]\n",
        b"[Site \"b\"]\n",
        b"\n",
        b"\n",
        b"  \n",
        b"\r\n",
        b"1. e4 e5 2. Nf3 *\n",
        b"1. d4 { a comment\n",
        b"over lines }\n",
        b"{ open\n",
        b"}\n",
        b"[Event \"in a comment\"]\n",
        b"% escape\n",
        b"[not a tag\n",
        b"1. c4 ; rest { of line\n",
        b"[White \"caf\xC3\xA9\"]\r\n",
        b"[Black \"\xE9\"]\n",
        b"1-0\n",
        b"\xEF\xBB\xBF[Event \"bom\"]\n",
        b"\x0B\n",
        b"Nf3 Nf6 (Nc3) *\n",
        b"]\n",
    ];

    /// Random texts of those lines, cut every few bytes, give exactly the games of the
    /// line-by-line split (fixed seed).
    #[test]
    fn chunks_give_the_sequential_games() {
        let seed = 0x00C4_0A4E_5EED_u64;
        println!("chunk seed {seed:#x}");
        let mut next = crate::xorshift(seed);
        let mut cuts = 0;
        for round in 0..3_000 {
            let mut text = Vec::new();
            for _ in 0..(next() % 40) {
                text.extend_from_slice(PIECES[(next() % PIECES.len() as u64) as usize]);
            }
            if next().is_multiple_of(3) {
                text.pop();
            }
            let want = sequential(&text);
            for every in [1, 7, 40] {
                let got = chunked(&text, every);
                assert_eq!(
                    got,
                    want,
                    "round {round}, every {every}: {:?}",
                    String::from_utf8_lossy(&text)
                );
            }
            cuts += usize::from(find_cut(&text, 1).is_some());
        }
        assert!(cuts > 500, "only {cuts} texts offered a cut");
    }

    /// A cut is taken only where it is sure.
    #[test]
    fn cuts() {
        let cut = |text: &str| find_cut(text.as_bytes(), 1);
        assert_eq!(cut("1. e4 *\n\n[Event \"x\"]\n"), Some(9));
        assert_eq!(cut("1. e4 *\r\n \r\n[Event \"x\"]\r\n"), Some(12));
        // After tags, a blank line does not end the tag section.
        assert_eq!(cut("[Event \"a\"]\n\n[Site \"x\"]\n"), None);
        // An escape line, or no blank line, or an unfinished or untaglike line.
        assert_eq!(cut("% x\n\n[Event \"x\"]\n"), None);
        assert_eq!(cut("1. e4 *\n[Event \"x\"]\n"), None);
        assert_eq!(cut("1. e4 *\n\n[Event \"x\"]"), None);
        assert_eq!(cut("1. e4 *\n\n[Event x]\n"), None);
        // A comment open across the blank line: still a cut (the tag line ends the game).
        assert_eq!(cut("1. e4 { open\n\n[Event \"x\"]\n"), Some(14));
    }

    #[test]
    fn lines_are_counted_as_cut() {
        assert_eq!(count_lines(b"a\nb\n", false), 2);
        assert_eq!(count_lines(b"a\nb", false), 1);
        assert_eq!(count_lines(b"a\nb", true), 2);
        assert_eq!(count_lines(b"", true), 0);
        let long = vec![b'x'; MAX_LINE * 2 + 1];
        assert_eq!(count_lines(&long, true), 3);
        assert_eq!(count_lines(&long, false), 2);
    }
}
