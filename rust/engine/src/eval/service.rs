//! The batching service: many threads ask for evaluations one position (or one frontier) at
//! a time; one dispatcher thread gathers the requests into batches for a [`BatchEvaluator`].
//!
//! Why: a GPU pays tens of microseconds per dispatch whatever the batch size, so the
//! evaluations of many concurrent searches (self-play games, lazy-SMP threads, analyses)
//! must travel together. A batch is dispatched when it is *full* — `max_batch` positions,
//! or every live client is waiting (nobody else can add to it, so waiting longer only adds
//! latency) — or when the oldest request has waited `max_wait`.
//!
//! Requests are answered with values: an evaluator error reaches every client of the failed
//! batch as `Err`, and the service keeps running (the next batch may succeed). Dropping the
//! [`EvalService`] answers what is queued, stops the dispatcher and joins it; a client used
//! after that gets an error, never a hang.

use super::Evaluation;
use super::batch::{BatchEvaluator, Device, EvalError, cpu_evaluator};
use super::packed::PackedPosition;
use shatranj_chess::Position;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// When a batch is dispatched.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BatchConfig {
    /// Positions that make a batch full (a single larger request is still sent whole).
    pub max_batch: usize,
    /// The longest the oldest queued request waits for others to join it.
    pub max_wait: Duration,
}

impl BatchConfig {
    /// Large enough to fill a GPU dispatch from a few hundred concurrent searches.
    pub const DEFAULT_MAX_BATCH: usize = 4096;
    /// Short next to a search's per-move time, long next to one CPU evaluation.
    pub const DEFAULT_MAX_WAIT: Duration = Duration::from_micros(200);
}

impl Default for BatchConfig {
    fn default() -> BatchConfig {
        BatchConfig {
            max_batch: Self::DEFAULT_MAX_BATCH,
            max_wait: Self::DEFAULT_MAX_WAIT,
        }
    }
}

/// Counters of a service since it started.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ServiceStats {
    /// Positions evaluated (or attempted, for failed batches).
    pub evaluations: u64,
    /// Batches sent to the evaluator.
    pub batches: u64,
    /// Batches that failed.
    pub failed_batches: u64,
    /// The largest batch sent.
    pub max_batch: u64,
}

impl ServiceStats {
    /// Positions per batch on average (0 before the first batch).
    pub fn mean_batch(&self) -> f64 {
        if self.batches == 0 {
            0.0
        } else {
            self.evaluations as f64 / self.batches as f64
        }
    }
}

/// One client's mailbox: the dispatcher writes the answer, the client waits for it. Reused
/// for every request of that client, so a request allocates nothing once warm.
#[derive(Default)]
struct Mailbox {
    state: Mutex<Answer>,
    ready: Condvar,
}

#[derive(Default)]
struct Answer {
    done: bool,
    scores: Vec<i32>,
    error: Option<EvalError>,
}

/// A queued request: its positions are `positions[start..start + len]` of the queue.
struct Pending {
    mailbox: Arc<Mailbox>,
    start: usize,
    len: usize,
}

#[derive(Default)]
struct Queue {
    positions: Vec<PackedPosition>,
    pending: Vec<Pending>,
    /// When the oldest pending request arrived.
    oldest: Option<Instant>,
    shutdown: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    /// Wakes the dispatcher: a request arrived, or shutdown.
    work: Condvar,
    evaluator: Arc<dyn BatchEvaluator>,
    config: BatchConfig,
    /// Clients alive: when all of them wait, the batch cannot grow.
    clients: AtomicUsize,
    evaluations: AtomicU64,
    batches: AtomicU64,
    failed_batches: AtomicU64,
    max_batch: AtomicU64,
    first_error: Mutex<Option<EvalError>>,
    /// Searches that fell back to the CPU after a failed request.
    fallbacks: AtomicU64,
    fallback_reported: AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Nothing in this module panics while holding a lock; a poisoned one is still consistent.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The service: owns the dispatcher thread. Cheap clients come from [`EvalService::client`].
pub struct EvalService {
    shared: Arc<Shared>,
    dispatcher: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for EvalService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EvalService")
            .field("evaluator", &self.shared.evaluator.describe())
            .field("config", &self.shared.config)
            .finish_non_exhaustive()
    }
}

impl EvalService {
    /// Starts a dispatcher thread over `evaluator`.
    pub fn new(
        evaluator: Arc<dyn BatchEvaluator>,
        config: BatchConfig,
    ) -> Result<EvalService, EvalError> {
        let config = BatchConfig {
            max_batch: config.max_batch.max(1),
            ..config
        };
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            work: Condvar::new(),
            evaluator,
            config,
            clients: AtomicUsize::new(0),
            evaluations: AtomicU64::new(0),
            batches: AtomicU64::new(0),
            failed_batches: AtomicU64::new(0),
            max_batch: AtomicU64::new(0),
            first_error: Mutex::new(None),
            fallbacks: AtomicU64::new(0),
            fallback_reported: AtomicBool::new(false),
        });
        let s = Arc::clone(&shared);
        let dispatcher = std::thread::Builder::new()
            .name("eval-batcher".into())
            .spawn(move || dispatch_loop(&s))
            .map_err(|e| EvalError::Backend(format!("cannot start the batching thread: {e}")))?;
        Ok(EvalService {
            shared,
            dispatcher: Some(dispatcher),
        })
    }

    /// A handle for one thread's requests.
    pub fn client(&self) -> EvalClient {
        self.shared.clients.fetch_add(1, Ordering::SeqCst);
        EvalClient {
            shared: Arc::clone(&self.shared),
            mailbox: Arc::new(Mailbox::default()),
            packed: Vec::new(),
        }
    }

    pub fn config(&self) -> BatchConfig {
        self.shared.config
    }

    /// The back end's description.
    pub fn describe(&self) -> String {
        self.shared.evaluator.describe()
    }

    pub fn stats(&self) -> ServiceStats {
        let s = &self.shared;
        ServiceStats {
            evaluations: s.evaluations.load(Ordering::Relaxed),
            batches: s.batches.load(Ordering::Relaxed),
            failed_batches: s.failed_batches.load(Ordering::Relaxed),
            max_batch: s.max_batch.load(Ordering::Relaxed),
        }
    }

    /// A search could not get `error`'s request answered and evaluated on the CPU instead
    /// (which gives the same number): counted, and reported on stderr the first time only.
    pub fn record_fallback(&self, error: &EvalError) {
        self.shared.fallbacks.fetch_add(1, Ordering::Relaxed);
        if !self.shared.fallback_reported.swap(true, Ordering::Relaxed) {
            eprintln!("warning: batched evaluation failed ({error}); evaluating on the CPU");
        }
    }

    /// Evaluations that fell back to the CPU (see [`EvalService::record_fallback`]).
    pub fn fallbacks(&self) -> u64 {
        self.shared.fallbacks.load(Ordering::Relaxed)
    }

    /// The first error the evaluator reported, if any (kept so it can be reported once).
    pub fn first_error(&self) -> Option<EvalError> {
        lock(&self.shared.first_error).clone()
    }
}

impl Drop for EvalService {
    fn drop(&mut self) {
        lock(&self.shared.queue).shutdown = true;
        self.shared.work.notify_all();
        if let Some(h) = self.dispatcher.take() {
            let _ = h.join();
        }
    }
}

/// One thread's way into the service: blocking requests of one position or many.
pub struct EvalClient {
    shared: Arc<Shared>,
    mailbox: Arc<Mailbox>,
    /// Reused packing buffer for [`EvalClient::evaluate_many`].
    packed: Vec<PackedPosition>,
}

impl Drop for EvalClient {
    fn drop(&mut self) {
        self.shared.clients.fetch_sub(1, Ordering::SeqCst);
        // One fewer client may make the queued batch full.
        self.shared.work.notify_all();
    }
}

impl EvalClient {
    /// The evaluation of `pos` (centipawns, side to move), after it has travelled in a batch.
    pub fn evaluate(&mut self, pos: &Position) -> Result<i32, EvalError> {
        let packed = [PackedPosition::from_position(pos)];
        let mut out = [0];
        self.evaluate_packed(&packed, &mut out)?;
        Ok(out[0])
    }

    /// Evaluates all of `positions` in one request (for example every child of a node), so
    /// they travel in the same batch.
    pub fn evaluate_many(
        &mut self,
        positions: &[Position],
        out: &mut [i32],
    ) -> Result<(), EvalError> {
        let mut packed = std::mem::take(&mut self.packed);
        packed.clear();
        packed.extend(positions.iter().map(PackedPosition::from_position));
        let r = self.evaluate_packed(&packed, out);
        self.packed = packed;
        r
    }

    /// Evaluates packed positions in one request.
    pub fn evaluate_packed(
        &mut self,
        positions: &[PackedPosition],
        out: &mut [i32],
    ) -> Result<(), EvalError> {
        crate::eval::check_lengths(positions, out)?;
        if positions.is_empty() {
            return Ok(());
        }
        {
            let mut a = lock(&self.mailbox.state);
            a.done = false;
            a.error = None;
        }
        {
            let mut q = lock(&self.shared.queue);
            if q.shutdown {
                return Err(EvalError::Backend(
                    "the batching service has shut down".into(),
                ));
            }
            let start = q.positions.len();
            q.positions.extend_from_slice(positions);
            q.pending.push(Pending {
                mailbox: Arc::clone(&self.mailbox),
                start,
                len: positions.len(),
            });
            if q.oldest.is_none() {
                q.oldest = Some(Instant::now());
            }
        }
        self.shared.work.notify_one();
        let mut a = lock(&self.mailbox.state);
        while !a.done {
            a = self
                .mailbox
                .ready
                .wait(a)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        if let Some(e) = a.error.take() {
            return Err(e);
        }
        out.copy_from_slice(&a.scores[..out.len()]);
        Ok(())
    }
}

/// Is the queued batch ready to go?
fn batch_ready(shared: &Shared, q: &Queue) -> bool {
    if q.pending.is_empty() {
        return false;
    }
    q.shutdown
        || q.positions.len() >= shared.config.max_batch
        || q.pending.len() >= shared.clients.load(Ordering::SeqCst)
        || q.oldest
            .is_some_and(|t| t.elapsed() >= shared.config.max_wait)
}

fn dispatch_loop(shared: &Shared) {
    let mut positions = Vec::new();
    let mut pending = Vec::new();
    let mut scores = Vec::new();
    loop {
        {
            let mut q = lock(&shared.queue);
            loop {
                if batch_ready(shared, &q) {
                    break;
                }
                if q.shutdown && q.pending.is_empty() {
                    return;
                }
                q = match q.oldest {
                    Some(t) => {
                        let left = shared.config.max_wait.saturating_sub(t.elapsed());
                        shared
                            .work
                            .wait_timeout(q, left.max(Duration::from_micros(1)))
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .0
                    }
                    None => shared
                        .work
                        .wait(q)
                        .unwrap_or_else(std::sync::PoisonError::into_inner),
                };
            }
            std::mem::swap(&mut positions, &mut q.positions);
            std::mem::swap(&mut pending, &mut q.pending);
            q.oldest = None;
        }
        scores.clear();
        scores.resize(positions.len(), 0);
        let result = shared.evaluator.evaluate_packed(&positions, &mut scores);
        let n = positions.len() as u64;
        shared.evaluations.fetch_add(n, Ordering::Relaxed);
        shared.batches.fetch_add(1, Ordering::Relaxed);
        shared.max_batch.fetch_max(n, Ordering::Relaxed);
        if let Err(e) = &result {
            shared.failed_batches.fetch_add(1, Ordering::Relaxed);
            lock(&shared.first_error).get_or_insert_with(|| e.clone());
        }
        for p in pending.drain(..) {
            let mut a = lock(&p.mailbox.state);
            match &result {
                Ok(()) => {
                    a.scores.clear();
                    a.scores
                        .extend_from_slice(&scores[p.start..p.start + p.len]);
                }
                Err(e) => a.error = Some(e.clone()),
            }
            a.done = true;
            drop(a);
            p.mailbox.ready.notify_one();
        }
        positions.clear();
    }
}

/// Where a search sends its static evaluations.
///
/// `Direct` calls the CPU evaluation inline: tens of nanoseconds, nothing shared — the fast
/// path and the default. `Service` sends each one through a batching service, so that many
/// concurrent searches fill the batches of a back end that gains from them (a GPU). On a CPU
/// back end the round trip costs far more than the evaluation (see benchmarks/RESULTS.md),
/// which is why `auto` resolves to `Direct` there.
#[derive(Clone, Default)]
pub enum EvalRoute {
    #[default]
    Direct,
    Service(Arc<EvalService>),
}

/// Opens the batch back end of an evaluation for a device: `shatranj_gpu::open_for` in a
/// build with the GPU back end, [`cpu_only_evaluator`] without it. Injected, so this crate
/// needs no GPU code.
pub type OpenEvaluator = fn(Device, &Evaluation) -> Result<Arc<dyn BatchEvaluator>, EvalError>;

/// The back end of a build without a GPU: the CPU for `cpu` and `auto`, an error for `gpu`.
pub fn cpu_only_evaluator(
    device: Device,
    evaluation: &Evaluation,
) -> Result<Arc<dyn BatchEvaluator>, EvalError> {
    match device {
        Device::Cpu | Device::Auto => Ok(cpu_evaluator(evaluation)),
        Device::Gpu => Err(EvalError::NoAdapter(
            "built without the GPU back end".into(),
        )),
    }
}

impl EvalRoute {
    pub fn is_direct(&self) -> bool {
        matches!(self, EvalRoute::Direct)
    }

    /// The route of a search asked to evaluate `evaluation` on `device`. `cpu` and `auto`
    /// evaluate inline: one search makes one request at a time per thread, so a batch never
    /// grows past the thread count, and inline CPU evaluation measured faster than any round
    /// trip (benchmarks/RESULTS.md). `gpu` goes through a batching service over the GPU.
    pub fn for_device(
        device: Device,
        open: OpenEvaluator,
        batch: BatchConfig,
        evaluation: &Evaluation,
    ) -> Result<EvalRoute, EvalError> {
        match device {
            Device::Cpu | Device::Auto => Ok(EvalRoute::Direct),
            Device::Gpu => {
                let service = EvalService::new(open(device, evaluation)?, batch)?;
                Ok(EvalRoute::Service(Arc::new(service)))
            }
        }
    }

    /// The device this route evaluates on, for display: `cpu` inline, else the service's
    /// back end.
    pub fn describe(&self) -> String {
        match self {
            EvalRoute::Direct => "cpu (inline)".into(),
            EvalRoute::Service(s) => format!("{} (batched)", s.describe()),
        }
    }
}

impl std::fmt::Debug for EvalRoute {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalRoute::Direct => f.write_str("Direct"),
            EvalRoute::Service(s) => write!(f, "Service({})", s.describe()),
        }
    }
}

/// Two routes are equal when they are both direct or share the same service.
impl PartialEq for EvalRoute {
    fn eq(&self, other: &EvalRoute) -> bool {
        match (self, other) {
            (EvalRoute::Direct, EvalRoute::Direct) => true,
            (EvalRoute::Service(a), EvalRoute::Service(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Eq for EvalRoute {}
