//! Streaming PGN for `shatranj.pgn.stream_games` and friends: a source (path, Python binary
//! file object, stdin) opened by the rules crate's `pgn::stream`, parsed on the thread pool,
//! and handed to Python a batch at a time. Waiting for a batch releases the GIL and stays
//! interruptible (Ctrl-C raises `KeyboardInterrupt` in the waiting thread; dropping the
//! stream stops the reader).

use crate::pgn::{PgnTree, error_tuple_of, tree_of};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use shatranj_pgn::stream::{GameStream, ParseFn, Source, StreamError};
use shatranj_pgn::{Condition, HeaderFilter, PgnError, PgnGame, RawGame, parse_game, scan_tags};
use std::io::{self, Read};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A Python binary file object read from the reader thread (which takes the GIL per read).
struct PyReader {
    file: Py<PyAny>,
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let data = self
                .file
                .call_method1(py, "read", (buf.len(),))
                .map_err(|e| io::Error::other(format!("read() failed: {e}")))?;
            let data = data.bind(py);
            if data.is_none() {
                // A non-blocking file with nothing yet: treat as the end.
                return Ok(0);
            }
            let bytes = data.cast::<PyBytes>().map_err(|_| {
                io::Error::other(
                    "the file object must be opened in binary mode (read() must return bytes)",
                )
            })?;
            let bytes = bytes.as_bytes();
            let n = bytes.len().min(buf.len());
            buf[..n].copy_from_slice(&bytes[..n]);
            Ok(n)
        })
    }
}

/// What a stream hands back per game.
enum Item {
    Game(Arc<PgnGame>),
    Skipped(PgnError),
    Headers(Vec<(String, String)>),
}

/// A failure of the stream: `(message, offset, line, compression, truncated)`.
pub(crate) type FailureTuple = (String, u64, usize, &'static str, bool);

fn failure_tuple(e: &StreamError) -> FailureTuple {
    (
        e.to_string(),
        e.offset,
        e.line,
        e.compression.name(),
        e.truncated,
    )
}

#[pyclass(module = "shatranj._core", frozen)]
pub struct PgnStream {
    inner: Mutex<Option<GameStream<Item>>>,
    compression: &'static str,
    total: Option<u64>,
    bytes: Arc<std::sync::atomic::AtomicU64>,
}

/// A batch for Python: `(games, skipped errors, headers, failure)`; `None` at the end.
type BatchTuple = (
    Vec<PgnTree>,
    Vec<crate::pgn::ErrorTuple>,
    Vec<Vec<(String, String)>>,
    Option<FailureTuple>,
);

#[pymethods]
impl PgnStream {
    /// The next batch, waiting without the GIL; `None` at the end.
    fn next_batch(&self, py: Python<'_>) -> PyResult<Option<BatchTuple>> {
        let mut guard = self
            .inner
            .lock()
            .map_err(|_| PyValueError::new_err("the stream failed earlier"))?;
        let Some(stream) = guard.as_mut() else {
            return Ok(None);
        };
        loop {
            let got = py.detach(|| stream.next_batch(Duration::from_millis(50)));
            match got {
                Ok(None) => return Ok(None),
                Ok(Some(items)) => {
                    let mut games = Vec::new();
                    let mut errors = Vec::new();
                    let mut headers = Vec::new();
                    for item in items {
                        match item {
                            Item::Game(g) => games.push(tree_of(g)),
                            Item::Skipped(e) => errors.push(error_tuple_of(&e)),
                            Item::Headers(h) => headers.push(h),
                        }
                    }
                    return Ok(Some((games, errors, headers, None)));
                }
                Err(Some(e)) => {
                    return Ok(Some((
                        Vec::new(),
                        Vec::new(),
                        Vec::new(),
                        Some(failure_tuple(&e)),
                    )));
                }
                Err(None) => {
                    if let Err(e) = py.check_signals() {
                        stream.stop();
                        *guard = None;
                        return Err(e);
                    }
                }
            }
        }
    }

    /// Stops the reader; later batches are `None`.
    fn close(&self) {
        if let Ok(mut guard) = self.inner.lock() {
            *guard = None;
        }
    }

    /// Bytes read from the source (compressed bytes for a compressed one).
    #[getter]
    fn bytes_read(&self) -> u64 {
        self.bytes.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The source's size where known (a file's size), else `None`.
    #[getter]
    fn total_bytes(&self) -> Option<u64> {
        self.total
    }

    /// `"plain"`, `"zstd"`, `"gzip"` or `"bzip2"`: what the first bytes said.
    #[getter]
    fn compression(&self) -> &'static str {
        self.compression
    }

    /// Games the filter left out so far.
    #[getter]
    fn filtered(&self) -> usize {
        self.inner
            .lock()
            .ok()
            .and_then(|g| g.as_ref().map(GameStream::dropped))
            .unwrap_or(0)
    }
}

/// Opens a source: a path (`str` or `os.PathLike`), `"-"` for standard input, or a binary
/// file object (a text one's `.buffer` is used). `total` overrides the progress total.
pub fn open_source(source: &Bound<'_, PyAny>, total: Option<u64>) -> PyResult<Source> {
    let os_error =
        |what: &str, e: io::Error| PyOSError::new_err(format!("cannot open {what}: {e}"));
    if let Ok(text) = source.cast::<PyString>() {
        let path = text.to_cow()?;
        if path == "-" {
            return Source::new(io::stdin(), total).map_err(|e| os_error("standard input", e));
        }
        return Source::open(&*path).map_err(|e| os_error(&path, e));
    }
    if let Ok(path) = source.extract::<std::path::PathBuf>() {
        return Source::open(&path).map_err(|e| os_error(&path.display().to_string(), e));
    }
    if source.hasattr("read")? {
        let file = match source.getattr("buffer") {
            Ok(buffer) if buffer.hasattr("read")? => buffer,
            _ => source.clone(),
        };
        let reader = PyReader {
            file: file.unbind(),
        };
        return Source::new(reader, total).map_err(|e| os_error("the file object", e));
    }
    Err(PyTypeError::new_err(format!(
        "a PGN source is a path, \"-\" (stdin) or a binary file object, not {}",
        source.get_type().name()?
    )))
}

/// Builds a filter from `(tag, op, value)` triples; `op` `"in"` takes a list of values.
pub fn header_filter(filter: Option<&Bound<'_, PyAny>>) -> PyResult<HeaderFilter> {
    let mut out = HeaderFilter::default();
    let Some(filter) = filter else {
        return Ok(out);
    };
    if filter.is_none() {
        return Ok(out);
    }
    for item in filter.try_iter()? {
        let item = item?;
        let (tag, op, value): (String, String, Bound<'_, PyAny>) =
            item.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "a filter is a list of (tag, op, value) triples, got {}",
                    item.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?;
        let condition = if op == "in" {
            let values: Vec<String> = value
                .try_iter()?
                .map(|v| v.and_then(|v| v.str().map(|s| s.to_string())))
                .collect::<PyResult<_>>()?;
            Condition::one_of(&tag, values)
        } else {
            let text = value.str()?.to_string();
            Condition::new(&tag, &op, &text).map_err(|e| PyValueError::new_err(e.to_string()))?
        };
        out.conditions.push(condition);
    }
    Ok(out)
}

/// Starts a stream. `mode` is `"games"` (parsed games; the unsound ones' errors are kept) or
/// `"headers"` (tag pairs only, the movetext never parsed).
#[pyfunction]
#[pyo3(signature = (source, mode = "games", filter = None, threads = None, total = None))]
pub fn pgn_open(
    source: &Bound<'_, PyAny>,
    mode: &str,
    filter: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
    total: Option<u64>,
) -> PyResult<PgnStream> {
    let filter = header_filter(filter)?;
    let parse: ParseFn<Item> = match mode {
        "games" => Arc::new(move |raw: &RawGame| {
            if !filter.accepts_raw(raw) {
                return None;
            }
            let game = parse_game(raw);
            Some(match game.fatal_error() {
                None => Item::Game(Arc::new(game)),
                Some(e) => Item::Skipped(e.clone()),
            })
        }),
        "headers" => Arc::new(move |raw: &RawGame| {
            let tags = scan_tags(raw);
            (filter.is_empty() || filter.accepts(&tags)).then_some(Item::Headers(tags))
        }),
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown stream mode {mode:?} (want \"games\" or \"headers\")"
            )));
        }
    };
    let source = open_source(source, total)?;
    let compression = source.compression().name();
    let total = source.total().or(total);
    let bytes = source.consumed();
    let stream = GameStream::new(source, parse, threads)
        .map_err(|e| PyOSError::new_err(format!("cannot start the PGN reader: {e}")))?;
    Ok(PgnStream {
        inner: Mutex::new(Some(stream)),
        compression,
        total,
        bytes,
    })
}
