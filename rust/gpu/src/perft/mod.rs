//! Perft on the GPU: exact leaf counts of the legal move tree, with the move generation of
//! `shaders/perft.wgsl`.
//!
//! The host walks the top plies with the CPU move generator and gathers the positions a few
//! plies above the leaves into batches; each batch is one submit in which the GPU expands the
//! subtrees level by level and counts the last two plies without generating them (see
//! [`device`]). Every position carries the index of the root move it descends from, so one
//! batch may hold subtrees of many root moves and still yields the per-move split (`divide`).
//! A batch whose levels outgrow the buffers is split in halves, and a single subtree that is
//! too big is expanded one ply on the host: the result never depends on the buffer size.
//!
//! An optional hash table on the GPU ([`GpuPerftSettings::hash_mb`], see [`table`]) keeps
//! the counts of the batches' roots and of the positions two plies above the leaves: deep
//! counts (perft 9 and 10 from the start) meet the same subtrees over and over.
//!
//! ```no_run
//! use shatranj_chess::Position;
//! use shatranj_gpu::perft::{GpuPerft, GpuPerftSettings};
//!
//! let mut gpu = GpuPerft::from_env(&GpuPerftSettings::default())?;
//! assert_eq!(gpu.perft(&Position::new(), 5)?, 4_865_609);
//! # Ok::<(), shatranj_gpu::perft::GpuPerftError>(())
//! ```

pub mod device;
pub mod record;
pub mod table;

pub use device::{
    Bitboards, MAX_ORIGINS, MAX_PLIES, PIPELINED, Pending, PerftCounters, PerftDevice, ROOT_SLOTS,
};
pub use record::GpuPosition;

use crate::adapter::{AdapterOptions, GpuInfo};
use shatranj_chess::perft::{PerftMonitor, perft as cpu_perft};
use shatranj_chess::{Move, Position};
use shatranj_engine::eval::EvalError;
use std::fmt;

/// How a [`GpuPerft`] is set up.
#[derive(Clone, Debug)]
pub struct GpuPerftSettings {
    /// Native `u64` bitboards where offered, or always 32-bit halves.
    pub bitboards: Bitboards,
    /// Positions per level buffer (`None`: 2^18 on software adapters, 2^23 on GPUs, within
    /// the device's limits); small values force many batches and splits (tests).
    pub capacity: Option<usize>,
    /// Plies each batch covers on the GPU (`None`: as many as fit the buffers, at most 4).
    pub gpu_plies: Option<u32>,
    /// Size of the GPU's hash table of subtree counts in MiB (0: none; at most the device's
    /// largest storage binding, rounded down to a power of two).
    pub hash_mb: usize,
}

impl Default for GpuPerftSettings {
    fn default() -> Self {
        GpuPerftSettings {
            bitboards: Bitboards::Auto,
            capacity: None,
            gpu_plies: None,
            hash_mb: 0,
        }
    }
}

/// Why a GPU perft produced no count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuPerftError {
    /// No adapter, a lost device, or another failure of the GPU back end.
    Device(EvalError),
    /// A position the GPU does not handle (more root moves than it keeps totals for).
    Unsupported(String),
    /// Stopped through [`PerftMonitor::stop`]; the monitor keeps the finished root moves.
    Interrupted,
}

impl fmt::Display for GpuPerftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuPerftError::Device(e) => write!(f, "{e}"),
            GpuPerftError::Unsupported(what) => write!(f, "not supported on the GPU: {what}"),
            GpuPerftError::Interrupted => f.write_str("perft interrupted"),
        }
    }
}

impl std::error::Error for GpuPerftError {}

impl From<EvalError> for GpuPerftError {
    fn from(e: EvalError) -> Self {
        GpuPerftError::Device(e)
    }
}

/// Branching factor assumed when sizing batches (a split repairs an underestimate).
const BRANCHING: usize = 40;
/// The smallest batch worth a submit when choosing how many plies the GPU covers.
const MIN_BATCH: usize = 64;
/// Plies per batch at most, by default.
const DEFAULT_MAX_GPU_PLIES: u32 = 4;
/// With a table, batches grow by the share of roots found in it, at most this much.
const MAX_HIT_GROWTH: f64 = 16.0;

/// A GPU perft engine: the device and its buffers, the batch being gathered and the one the
/// GPU is counting meanwhile.
pub struct GpuPerft {
    device: PerftDevice,
    gpu_plies: Option<u32>,
    batch: Vec<Position>,
    records: Vec<GpuPosition>,
    in_flight: Option<InFlight>,
    next_slot: usize,
    calls: u64,
    /// Positions per batch in the current count (grown by the roots' hit rate).
    batch_size: usize,
    /// Table root probes and hits at the start of the current count.
    roots_at_start: (u64, u64),
}

/// A batch submitted and not yet read back.
struct InFlight {
    batch: Vec<Position>,
    records: Vec<GpuPosition>,
    pending: Pending,
}

impl GpuPerft {
    /// Opens the adapter `options` select.
    pub fn open(
        options: &AdapterOptions,
        settings: &GpuPerftSettings,
    ) -> Result<GpuPerft, GpuPerftError> {
        let device = PerftDevice::open(
            options,
            settings.bitboards,
            settings.capacity,
            mib(settings.hash_mb),
        )?;
        Ok(GpuPerft {
            device,
            gpu_plies: settings.gpu_plies.map(|p| p.clamp(1, MAX_PLIES)),
            batch: Vec::new(),
            records: Vec::new(),
            in_flight: None,
            next_slot: 0,
            calls: 0,
            batch_size: 1,
            roots_at_start: (0, 0),
        })
    }

    /// Opens the adapter the `SHATRANJ_WGPU_*` variables select.
    pub fn from_env(settings: &GpuPerftSettings) -> Result<GpuPerft, GpuPerftError> {
        GpuPerft::open(&AdapterOptions::from_env()?, settings)
    }

    pub fn info(&self) -> &GpuInfo {
        self.device.info()
    }

    /// Whether the shader runs on native `u64` bitboards (else on 32-bit halves).
    pub fn native_u64(&self) -> bool {
        self.device.native_u64()
    }

    /// Positions each level buffer holds.
    pub fn capacity(&self) -> usize {
        self.device.capacity()
    }

    /// Changes the settings that need no new buffers: the positions a level may hold (at
    /// most what the device was opened with) and the plies per batch.
    pub fn set_limits(&mut self, capacity: Option<usize>, gpu_plies: Option<u32>) {
        self.device.set_capacity(capacity);
        self.gpu_plies = gpu_plies.map(|p| p.clamp(1, MAX_PLIES));
    }

    /// Resizes the GPU's hash table to `mb` MiB (0: none); the same size keeps the table.
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), GpuPerftError> {
        Ok(self.device.set_table(mib(mb))?)
    }

    /// Empties the GPU's hash table (benchmarks: every count starts from nothing).
    pub fn clear_hash(&mut self) {
        self.device.clear_table();
    }

    /// Bytes of the GPU's hash table (0: none).
    pub fn hash_bytes(&self) -> u64 {
        self.device.table_bytes()
    }

    /// Uses only `buckets` buckets of the table (tests: collisions and replacements).
    #[doc(hidden)]
    pub fn limit_table(&mut self, buckets: Option<u32>) {
        self.device.limit_table(buckets);
    }

    /// The device itself (tests write table entries through it).
    #[doc(hidden)]
    pub fn device(&self) -> &PerftDevice {
        &self.device
    }

    /// What the device has done since it was opened.
    pub fn counters(&self) -> &PerftCounters {
        self.device.counters()
    }

    /// Calls of [`divide`](Self::divide) (and so of [`perft`](Self::perft)) so far.
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// The leaf count `depth` plies below `pos`.
    pub fn perft(&mut self, pos: &Position, depth: u32) -> Result<u64, GpuPerftError> {
        if depth == 0 {
            return Ok(1);
        }
        let split = self.divide(pos, depth, &PerftMonitor::new())?;
        Ok(split.iter().map(|&(_, n)| n).sum())
    }

    /// The leaf count under every legal root move, in move-list order, exactly as the CPU's
    /// [`shatranj_chess::perft::divide`] gives it; progress and finished root moves go to
    /// `monitor`, and [`PerftMonitor::stop`] ends the run between batches.
    pub fn divide(
        &mut self,
        pos: &Position,
        depth: u32,
        monitor: &PerftMonitor,
    ) -> Result<Vec<(Move, u64)>, GpuPerftError> {
        self.calls += 1;
        let result = self.divide_pipelined(pos, depth, monitor);
        // After an error or an interrupt, the batch still on the GPU is dropped.
        if let Some(f) = self.in_flight.take() {
            self.device.abandon(f.pending);
        }
        self.batch.clear();
        self.records.clear();
        result
    }

    fn divide_pipelined(
        &mut self,
        pos: &Position,
        depth: u32,
        monitor: &PerftMonitor,
    ) -> Result<Vec<(Move, u64)>, GpuPerftError> {
        let moves = pos.legal_moves();
        if moves.len() > MAX_ORIGINS {
            return Err(GpuPerftError::Unsupported(format!(
                "{} root moves (at most {MAX_ORIGINS})",
                moves.len()
            )));
        }
        if depth == 0 {
            monitor.begin_run(moves.len(), 1);
            return Ok(Vec::new());
        }
        let children: Vec<Position> = moves
            .iter()
            .map(|&m| {
                let mut c = *pos;
                c.play_unchecked(m);
                c
            })
            .collect();
        let below = depth - 1;
        let mut counts = vec![0u64; moves.len()];
        if below == 0 {
            monitor.begin_run(moves.len(), moves.len() as u64);
            for (i, &m) in moves.iter().enumerate() {
                counts[i] = 1;
                monitor.add_progress(1, 1);
                monitor.record_root(m, 1);
            }
            return Ok(moves.iter().copied().zip(counts).collect());
        }
        let gpu = self.plies_on_gpu(below);
        let host = below - gpu;
        let work: u64 = children.iter().map(|c| cpu_perft(c, host)).sum();
        monitor.begin_run(moves.len(), work);
        self.batch_size = self.base_batch_size(gpu);
        let c = self.device.counters();
        self.roots_at_start = (c.table_root_probes, c.table_root_hits);
        self.batch.clear();
        self.records.clear();
        let mut reported = 0;
        for (i, child) in children.iter().enumerate() {
            self.walk(child, host, i as u32, gpu, &mut counts, monitor)?;
            // Positions are queued in root-move order, so every root move before the first
            // one still on the GPU or queued has all its subtrees counted.
            let pending = self
                .in_flight
                .as_ref()
                .and_then(|f| f.records.first())
                .or(self.records.first())
                .map_or(i + 1, |r| r.origin as usize);
            for (j, &m) in moves.iter().enumerate().take(pending).skip(reported) {
                monitor.record_root(m, counts[j]);
            }
            reported = reported.max(pending);
        }
        self.flush(gpu, &mut counts, monitor)?;
        if let Some(last) = self.in_flight.take() {
            self.complete(last, gpu, &mut counts, monitor)?;
        }
        for (j, &m) in moves.iter().enumerate().skip(reported) {
            monitor.record_root(m, counts[j]);
        }
        Ok(moves.iter().copied().zip(counts).collect())
    }

    /// Plies the GPU covers below each batch position for subtrees `below` plies deep.
    fn plies_on_gpu(&self, below: u32) -> u32 {
        let most = self.gpu_plies.unwrap_or_else(|| {
            let mut g = 2;
            while g < DEFAULT_MAX_GPU_PLIES
                && self.device.capacity() / (2 * BRANCHING.pow(g - 1)) >= MIN_BATCH
            {
                g += 1;
            }
            g
        });
        below.min(most).max(1)
    }

    /// Positions per batch: the widest level (`gpu - 2` plies below the batch) should fill
    /// about half the level buffers.
    fn base_batch_size(&self, gpu: u32) -> usize {
        let cap = self.device.capacity();
        let size = if gpu <= 2 {
            cap
        } else {
            (cap / (2 * BRANCHING.pow(gpu - 2))).max(1)
        };
        size.min(self.device.batch_limit(gpu))
    }

    /// The batch size after a batch was read back: roots found in the table are not
    /// expanded, so a batch may grow by the inverse of the share missed so far in this
    /// count (an overestimate is repaired by a split).
    fn update_batch_size(&mut self, gpu: u32) {
        let c = self.device.counters();
        let probes = c.table_root_probes - self.roots_at_start.0;
        let hits = c.table_root_hits - self.roots_at_start.1;
        if probes == 0 {
            return;
        }
        let growth = (probes as f64 / (probes - hits).max(1) as f64).min(MAX_HIT_GROWTH);
        let size = (self.base_batch_size(gpu) as f64 * growth) as usize;
        self.batch_size = size.clamp(1, self.device.batch_limit(gpu));
    }

    /// Walks `host` plies below `pos` on the CPU and queues the positions there.
    fn walk(
        &mut self,
        pos: &Position,
        host: u32,
        origin: u32,
        gpu: u32,
        counts: &mut [u64],
        monitor: &PerftMonitor,
    ) -> Result<(), GpuPerftError> {
        if host == 0 {
            self.records.push(GpuPosition::new(pos, origin));
            self.batch.push(*pos);
            if self.batch.len() >= self.batch_size {
                self.flush(gpu, counts, monitor)?;
            }
            return Ok(());
        }
        for &m in &pos.legal_moves() {
            let mut c = *pos;
            c.play_unchecked(m);
            self.walk(&c, host - 1, origin, gpu, counts, monitor)?;
        }
        Ok(())
    }

    /// Counts the queued batch into `counts`.
    fn flush(
        &mut self,
        gpu: u32,
        counts: &mut [u64],
        monitor: &PerftMonitor,
    ) -> Result<(), GpuPerftError> {
        if self.batch.is_empty() {
            return Ok(());
        }
        if monitor.is_stopped() {
            return Err(GpuPerftError::Interrupted);
        }
        let batch = std::mem::take(&mut self.batch);
        let records = std::mem::take(&mut self.records);
        let pending = self.device.submit(&records, gpu, self.next_slot)?;
        self.next_slot = (self.next_slot + 1) % PIPELINED;
        let submitted = InFlight {
            batch,
            records,
            pending,
        };
        // The GPU counts this batch while the host gathers the next one; the one before it
        // is read back now.
        match self.in_flight.replace(submitted) {
            Some(previous) => self.complete(previous, gpu, counts, monitor),
            None => Ok(()),
        }
    }

    /// Reads a batch's counts back (running it again in parts if it did not fit) and keeps
    /// its vectors for the next batch.
    fn complete(
        &mut self,
        done: InFlight,
        gpu: u32,
        counts: &mut [u64],
        monitor: &PerftMonitor,
    ) -> Result<(), GpuPerftError> {
        let InFlight {
            mut batch,
            mut records,
            pending,
        } = done;
        let before: u64 = counts.iter().sum();
        if !self.device.finish(pending, counts)? {
            self.run_split(&batch, &records, gpu, counts)?;
        }
        let after: u64 = counts.iter().sum();
        monitor.add_progress(batch.len() as u64, after - before);
        self.update_batch_size(gpu);
        if self.batch.capacity() == 0 {
            batch.clear();
            records.clear();
            self.batch = batch;
            self.records = records;
        }
        Ok(())
    }

    /// Runs a batch, halving it while a level does not fit; one position too big on its own
    /// is expanded a ply on the host.
    fn run_split(
        &mut self,
        batch: &[Position],
        records: &[GpuPosition],
        gpu: u32,
        counts: &mut [u64],
    ) -> Result<(), GpuPerftError> {
        if self.device.run(records, gpu, counts)? {
            return Ok(());
        }
        if batch.len() > 1 {
            let half = batch.len() / 2;
            self.run_split(&batch[..half], &records[..half], gpu, counts)?;
            return self.run_split(&batch[half..], &records[half..], gpu, counts);
        }
        let origin = records[0].origin;
        let mut children = Vec::new();
        let mut child_records = Vec::new();
        for &m in &batch[0].legal_moves() {
            let mut c = batch[0];
            c.play_unchecked(m);
            child_records.push(GpuPosition::new(&c, origin));
            children.push(c);
        }
        if gpu == 1 {
            counts[origin as usize] += children.len() as u64;
            return Ok(());
        }
        self.run_split(&children, &child_records, gpu - 1, counts)
    }
}

/// `mb` MiB in bytes.
fn mib(mb: usize) -> u64 {
    (mb as u64).saturating_mul(1 << 20)
}

/// The process's shared GPU perft (environment-selected adapter, default settings), opened on
/// first use: opening compiles the shader, which takes seconds on a software adapter. A
/// failure to find an adapter is remembered; a failed device is replaced on the next call.
pub fn shared() -> Result<std::sync::Arc<std::sync::Mutex<GpuPerft>>, GpuPerftError> {
    use std::sync::{Arc, Mutex, PoisonError};
    type Shared = Option<Result<Arc<Mutex<GpuPerft>>, GpuPerftError>>;
    static SHARED: Mutex<Shared> = Mutex::new(None);
    let mut shared = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    match &*shared {
        Some(Ok(gpu)) => return Ok(gpu.clone()),
        Some(Err(e @ GpuPerftError::Device(EvalError::NoAdapter(_)))) => return Err(e.clone()),
        _ => {}
    }
    let opened = GpuPerft::from_env(&GpuPerftSettings::default()).map(|g| Arc::new(Mutex::new(g)));
    *shared = Some(opened.clone());
    opened
}
