//! The GPU context: device, queue, compiled pipeline and the buffers a batch travels through,
//! built once and reused for every batch.
//!
//! Both programs read 32-byte compact records (`CompactPosition`, layout in
//! rust/engine/src/nnue/compact.rs and shaders/README.md): packed positions are converted on
//! the way, in parallel, straight into the mapped upload buffer ([`crate::pack`]).
//!
//! A batch is cut into chunks: up to [`PIPELINE_DEPTH`] of them for a large batch (none below
//! [`MIN_PIPELINED_CHUNK`] positions, none above [`GpuContext::max_chunk`]), so that several are
//! in flight at once. Chunks go round [`SLOTS`] slots ([`crate::slot`]), each with its own
//! buffers: while the GPU evaluates chunk `k`, the host packs chunk `k + 1` into the next
//! slot, and reads chunk `k - 1`'s scores only when it needs that slot again. Buffers grow
//! (to the next power of two of the chunk that needs it) and are otherwise kept from call to
//! call; [`EvalCounters`] counts what each call did.
//!
//! wgpu reports errors through callbacks rather than return values: an error scope around
//! each batch catches validation, out-of-memory and internal errors, an uncaptured-error
//! handler catches anything else (wgpu's default handler would panic), and the device-lost
//! callback marks the context dead. All of them end up as [`EvalError`] values.

use crate::adapter::{self, AdapterOptions, GpuInfo};
use crate::counters::{EvalCounters, Timestamps};
use crate::layout::{self, WORKGROUP_SIZE};
use crate::pack::{self, RECORD_BYTES, Source};
use crate::slot::{SCORE_BYTES, Slot, SlotLayout, TIMESTAMP_BYTES, UNIFORM_BYTES};
use shatranj_engine::eval::PackedPosition;
use shatranj_engine::eval::{EvalError, check_lengths};
use shatranj_engine::eval::{EvalParams, Evaluation, evaluate_bitboards};
use shatranj_engine::nnue::CompactPosition;
use std::collections::VecDeque;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Which shader a context runs. Both read compact positions (32 bytes).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Program {
    /// `shaders/eval.wgsl`: one invocation per position.
    Classical,
    /// `shaders/nnue.wgsl`: one workgroup per position.
    Network { hidden: usize },
}

/// Slots, and so chunks in flight at most.
pub const SLOTS: usize = 3;
/// Chunks a large batch is cut into, so that packing, the GPU and the readback overlap.
pub const PIPELINE_DEPTH: usize = 4;
/// Positions per chunk at least when a batch is cut for pipelining: below this a submit's
/// fixed cost outweighs the overlap.
pub const MIN_PIPELINED_CHUNK: usize = 1 << 16;
/// Positions per chunk at most: 32 MiB of records; larger batches are more chunks.
const CHUNK_LIMIT: usize = 1 << 20;
/// The smallest buffers a slot starts with (positions).
const INITIAL_CAPACITY: usize = 1024;
/// How long to wait for one chunk before calling the device hung.
pub(crate) const CHUNK_TIMEOUT: Duration = Duration::from_secs(300);

/// Errors the uncaptured-error handler and device-lost callback left for the next call.
#[derive(Default)]
struct Faults {
    lost: Option<String>,
    uncaptured: Option<EvalError>,
}

type SharedFaults = Arc<Mutex<Faults>>;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic elsewhere while holding the lock leaves plain data behind; keep going.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

pub(crate) fn convert(e: wgpu::Error) -> EvalError {
    match e {
        wgpu::Error::OutOfMemory { .. } => EvalError::OutOfMemory(e.to_string()),
        wgpu::Error::Validation { description, .. } => {
            EvalError::Backend(format!("validation: {description}"))
        }
        wgpu::Error::Internal { description, .. } => {
            EvalError::Backend(format!("internal: {description}"))
        }
    }
}

/// A chunk submitted to the GPU whose scores are not read back yet.
struct InFlight {
    slot: usize,
    /// Where its scores go in the caller's output.
    start: usize,
    len: usize,
    submission: wgpu::SubmissionIndex,
    mapped: mpsc::Receiver<Result<(), wgpu::BufferAsyncError>>,
}

/// Everything the GPU evaluation needs, created once.
pub struct GpuContext {
    info: GpuInfo,
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
    program: Program,
    /// The classical weights again, for the rare position with more than 32 pieces.
    classical: Option<Box<EvalParams>>,
    /// The weights: the classical parameter table, or the network's.
    params: wgpu::Buffer,
    slots: Vec<Slot>,
    timestamps: Timestamps,
    /// Nanoseconds per timestamp tick.
    timestamp_period: f64,
    max_chunk: usize,
    /// The device's limit on `max_chunk`.
    chunk_limit: usize,
    /// Positions per chunk at least when a batch is cut for pipelining.
    min_pipelined: usize,
    max_groups_x: u32,
    counters: EvalCounters,
    faults: SharedFaults,
}

impl GpuContext {
    /// Opens the adapter `options` select and compiles the shader of `evaluation`.
    pub fn new(options: &AdapterOptions, evaluation: &Evaluation) -> Result<GpuContext, EvalError> {
        // Drivers print window-system noise while a device is opened (see `quiet`).
        crate::quiet::quietly(|| GpuContext::open(options, evaluation))
    }

    fn open(options: &AdapterOptions, evaluation: &Evaluation) -> Result<GpuContext, EvalError> {
        let classical = match evaluation {
            Evaluation::Classical(params) => Some(params.clone()),
            Evaluation::Network(_) => None,
        };
        let (program, source, words): (Program, String, Vec<u32>) = match evaluation {
            Evaluation::Classical(params) => (
                Program::Classical,
                layout::shader_source(),
                bytemuck::cast_slice(params.as_words()).to_vec(),
            ),
            Evaluation::Network(net) => (
                Program::Network {
                    hidden: net.hidden(),
                },
                layout::nnue_shader_source(net),
                layout::network_words(net),
            ),
        };
        let instance = adapter::instance(options)?;
        let adapter = adapter::choose(&instance, options)?;
        let info = GpuInfo::from_wgpu(&adapter.get_info());
        let limits = adapter.limits();
        // Timestamps where offered: they split a batch's device time into upload, kernel and
        // readback, which wall-clock time alone cannot.
        let (timestamps, features) = Timestamps::offered(adapter.features());
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("shatranj eval"),
            required_features: features,
            // Everything the adapter offers: large storage bindings mean fewer chunks.
            required_limits: limits.clone(),
            ..Default::default()
        }))
        .map_err(|e| EvalError::Backend(format!("cannot open {info}: {e}")))?;

        let faults = SharedFaults::default();
        {
            let faults = faults.clone();
            device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
                let mut f = lock(&faults);
                if f.uncaptured.is_none() {
                    f.uncaptured = Some(convert(e));
                }
            }));
        }
        {
            let faults = faults.clone();
            device.set_device_lost_callback(move |reason, message| {
                let what = if message.is_empty() {
                    format!("{reason:?}")
                } else {
                    format!("{reason:?}: {message}")
                };
                lock(&faults).lost = Some(what);
            });
        }

        let max_binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let max_chunk = CHUNK_LIMIT.min((max_binding / RECORD_BYTES as u64) as usize);
        let mut context = scoped(&device, || {
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(match program {
                    Program::Classical => "eval.wgsl",
                    Program::Network { .. } => "nnue.wgsl",
                }),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            });
            let storage = |binding, read_only| wgpu::BindGroupLayoutEntry {
                binding,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            };
            let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("eval bindings"),
                entries: &[
                    storage(0, true),
                    storage(1, true),
                    storage(2, false),
                    wgpu::BindGroupLayoutEntry {
                        binding: 3,
                        visibility: wgpu::ShaderStages::COMPUTE,
                        ty: wgpu::BindingType::Buffer {
                            ty: wgpu::BufferBindingType::Uniform,
                            has_dynamic_offset: false,
                            min_binding_size: None,
                        },
                        count: None,
                    },
                ],
            });
            let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("eval pipeline layout"),
                bind_group_layouts: &[Some(&layout)],
                immediate_size: 0,
            });
            let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some("eval pipeline"),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some("main"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                cache: None,
            });
            let params_buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("eval weights"),
                size: (words.len() * 4) as u64,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            queue.write_buffer(&params_buffer, 0, bytemuck::cast_slice(&words));
            GpuContext {
                info: info.clone(),
                device: device.clone(),
                queue: queue.clone(),
                pipeline,
                layout,
                program,
                classical,
                params: params_buffer,
                slots: Vec::new(),
                timestamps,
                timestamp_period: f64::from(queue.get_timestamp_period()),
                max_chunk,
                chunk_limit: max_chunk,
                min_pipelined: MIN_PIPELINED_CHUNK,
                max_groups_x: limits.max_compute_workgroups_per_dimension.max(1),
                counters: EvalCounters {
                    buffers_created: 1,
                    ..EvalCounters::default()
                },
                faults: faults.clone(),
            }
        })?;
        let initial = INITIAL_CAPACITY.min(max_chunk);
        for _ in 0..SLOTS {
            let slot = scoped(&device, || context.make_slot(initial))?;
            context.slots.push(slot);
        }
        context.check_faults()?;
        Ok(context)
    }

    /// The adapter this context runs on.
    pub fn info(&self) -> &GpuInfo {
        &self.info
    }

    /// The shader this context runs.
    pub fn program(&self) -> Program {
        self.program
    }

    /// The most positions one dispatch takes; larger batches are split.
    pub fn max_chunk(&self) -> usize {
        self.max_chunk
    }

    /// Caps the positions per dispatch (never above the device's limit). Tests use small
    /// chunks to drive a batch through every slot.
    pub fn set_max_chunk(&mut self, positions: usize) {
        self.max_chunk = positions.clamp(1, self.chunk_limit);
    }

    /// Sets the smallest chunk a batch is cut into for pipelining (default
    /// [`MIN_PIPELINED_CHUNK`]); tests lower it to pipeline small batches.
    pub fn set_min_pipelined_chunk(&mut self, positions: usize) {
        self.min_pipelined = positions.max(1);
    }

    /// Positions each slot's buffers hold now (they grow with the largest chunk seen).
    pub fn capacities(&self) -> Vec<usize> {
        self.slots.iter().map(|s| s.capacity).collect()
    }

    /// What the context has done since it was opened.
    pub fn counters(&self) -> &EvalCounters {
        &self.counters
    }

    /// Which timestamp queries the device records.
    pub fn timestamps(&self) -> Timestamps {
        self.timestamps
    }

    /// Whether the device has been lost (every later call fails).
    pub fn is_lost(&self) -> bool {
        lock(&self.faults).lost.is_some()
    }

    /// Destroys the device as a driver reset would lose it, so tests can check that every
    /// later call fails with an error value rather than a panic.
    #[doc(hidden)]
    pub fn destroy_device(&self) {
        self.device.destroy();
    }

    /// Positions per chunk for a batch of `len`.
    pub fn chunk_for(&self, len: usize) -> usize {
        len.div_ceil(PIPELINE_DEPTH)
            .max(self.min_pipelined)
            .min(self.max_chunk)
            .max(1)
    }

    fn make_slot(&mut self, capacity: usize) -> Slot {
        let layout = SlotLayout {
            device: &self.device,
            layout: &self.layout,
            params: &self.params,
            record_bytes: RECORD_BYTES as u64,
            timestamps: self.timestamps != Timestamps::Off,
        };
        Slot::new(&layout, capacity, &mut self.counters.buffers_created)
    }

    /// Takes the errors the callbacks recorded: a lost device stays an error for good.
    fn check_faults(&self) -> Result<(), EvalError> {
        let mut f = lock(&self.faults);
        if let Some(lost) = &f.lost {
            return Err(EvalError::DeviceLost(format!("{}: {lost}", self.info.name)));
        }
        match f.uncaptured.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Scores `positions` into `out` (one slot per position), exactly as the CPU would:
    /// converted to compact records on rayon's threads on the way up; the classical
    /// evaluation scores a position with more than 32 pieces (no compact record) on the CPU.
    pub fn evaluate(
        &mut self,
        positions: &[PackedPosition],
        out: &mut [i32],
    ) -> Result<(), EvalError> {
        check_lengths(positions, out)?;
        let overflow = self.evaluate_source(positions, out)?;
        if let Some(params) = &self.classical {
            for &i in &overflow {
                let p = &positions[i];
                out[i] = evaluate_bitboards(params, &p.bitboards(), p.turn == 1);
            }
            self.counters.cpu_positions += overflow.len() as u64;
        }
        Ok(())
    }

    /// Scores compact positions, uploaded as they are (32 bytes a position).
    pub fn evaluate_compact(
        &mut self,
        positions: &[CompactPosition],
        out: &mut [i32],
    ) -> Result<(), EvalError> {
        if positions.len() != out.len() {
            return Err(EvalError::LengthMismatch {
                positions: positions.len(),
                outputs: out.len(),
            });
        }
        self.evaluate_source(positions, out).map(|_| ())
    }

    /// Scores `positions`; returns the indices of those with more than 32 pieces.
    fn evaluate_source<S: Source + ?Sized>(
        &mut self,
        positions: &S,
        out: &mut [i32],
    ) -> Result<Vec<usize>, EvalError> {
        self.check_faults()?;
        if positions.is_empty() {
            return Ok(Vec::new());
        }
        self.counters.calls += 1;
        let device = self.device.clone();
        let mut in_flight = VecDeque::with_capacity(SLOTS);
        let mut overflow = Vec::new();
        let result = scoped(&device, || {
            self.run_chunks(positions, out, &mut in_flight, &mut overflow)
        })
        .and_then(|r| r);
        if result.is_err() {
            // Leave the slots reusable: wait for whatever was submitted, unmap its scores,
            // and map every upload buffer again on its next use.
            let _ = device.poll(wgpu::PollType::wait_indefinitely());
            for job in in_flight.drain(..) {
                if job.mapped.try_recv().is_ok_and(|r| r.is_ok()) {
                    self.slots[job.slot].readback.unmap();
                }
            }
            for slot in &mut self.slots {
                if !matches!(slot.staging_state, crate::slot::Staging::Mapped) {
                    slot.staging.unmap();
                    slot.staging_state = crate::slot::Staging::Unmapped;
                }
            }
        }
        result
            .map_err(|e| self.explain(e))
            .and_then(|()| self.check_faults())
            .map(|()| overflow)
    }

    fn run_chunks<S: Source + ?Sized>(
        &mut self,
        positions: &S,
        out: &mut [i32],
        in_flight: &mut VecDeque<InFlight>,
        overflow: &mut Vec<usize>,
    ) -> Result<(), EvalError> {
        let chunk = self.chunk_for(positions.len());
        for (k, start) in (0..positions.len()).step_by(chunk).enumerate() {
            let slot = k % SLOTS;
            // The oldest chunk in flight is the one in this slot.
            if in_flight.len() == SLOTS
                && let Some(job) = in_flight.pop_front()
            {
                self.finish(&job, out)?;
            }
            let len = chunk.min(positions.len() - start);
            let job = self.submit(slot, positions, start, len, overflow)?;
            in_flight.push_back(job);
            let n = in_flight.len() as u64;
            self.counters.max_in_flight = self.counters.max_in_flight.max(n);
        }
        while let Some(job) = in_flight.pop_front() {
            self.finish(&job, out)?;
        }
        Ok(())
    }

    /// Packs positions `start..start + len` into slot `slot`, and submits the copy up, the
    /// shader and the copy back in one command buffer.
    fn submit<S: Source + ?Sized>(
        &mut self,
        slot: usize,
        positions: &S,
        start: usize,
        len: usize,
        overflow: &mut Vec<usize>,
    ) -> Result<InFlight, EvalError> {
        if self.slots[slot].capacity < len {
            let capacity = len.next_power_of_two().min(self.max_chunk).max(len);
            self.slots[slot] = self.make_slot(capacity);
        }
        // Classical: one invocation per position; network: one workgroup per position.
        let (groups, per_group) = match self.program {
            Program::Classical => ((len as u32).div_ceil(WORKGROUP_SIZE), WORKGROUP_SIZE),
            Program::Network { .. } => (len as u32, 1),
        };
        let groups_x = groups.min(self.max_groups_x);
        let groups_y = groups.div_ceil(groups_x);
        let uniform: [u32; 4] = [len as u32, groups_x * per_group, 0, 0];
        let records = len as u64 * RECORD_BYTES as u64;
        let upload = UNIFORM_BYTES + records;

        let device = self.device.clone();
        let s = &mut self.slots[slot];
        s.wait_for_staging(&device)?;
        {
            let mut view = s
                .staging
                .get_mapped_range_mut(..upload)
                .map_err(|e| EvalError::Backend(format!("writing positions: {e}")))?;
            let (mut head, body) = view.slice(..).split_at(UNIFORM_BYTES as usize);
            head.copy_from_slice(bytemuck::cast_slice(&uniform));
            let (tasks, over) = pack::pack(positions, start, len, body);
            self.counters.pack_tasks += tasks as u64;
            overflow.extend(over);
        }
        s.staging.unmap();
        s.staging_state = crate::slot::Staging::Unmapped;

        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("eval"),
        });
        let timed = self.timestamps;
        let queries = s.queries.as_ref().map(|(set, _)| set);
        if let (Timestamps::Full, Some(set)) = (timed, queries) {
            encoder.write_timestamp(set, 0);
        }
        encoder.copy_buffer_to_buffer(&s.staging, 0, &s.uniform, 0, UNIFORM_BYTES);
        encoder.copy_buffer_to_buffer(&s.staging, UNIFORM_BYTES, &s.input, 0, records);
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("eval"),
                timestamp_writes: queries.map(|set| wgpu::ComputePassTimestampWrites {
                    query_set: set,
                    beginning_of_pass_write_index: Some(1),
                    end_of_pass_write_index: Some(2),
                }),
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &s.bind_group, &[]);
            pass.dispatch_workgroups(groups_x, groups_y, 1);
        }
        let scores = len as u64 * SCORE_BYTES;
        encoder.copy_buffer_to_buffer(&s.output, 0, &s.readback, TIMESTAMP_BYTES, scores);
        if let Some((set, resolve)) = &s.queries {
            if timed == Timestamps::Full {
                encoder.write_timestamp(set, 3);
            }
            let (first, end) = timed.written_queries();
            encoder.resolve_query_set(set, first..end, resolve, 0);
            let bytes = u64::from(end - first) * 8;
            encoder.copy_buffer_to_buffer(resolve, 0, &s.readback, u64::from(first) * 8, bytes);
        }
        let submission = self.queue.submit([encoder.finish()]);
        s.last_submission = Some(submission.clone());
        // Mapped again once the GPU has copied out of it: ready for this slot's next chunk.
        s.request_staging();
        let (tx, rx) = mpsc::channel();
        let from = if s.queries.is_some() {
            0
        } else {
            TIMESTAMP_BYTES
        };
        s.readback.map_async(
            wgpu::MapMode::Read,
            from..TIMESTAMP_BYTES + scores,
            move |r| {
                // The receiver outlives the wait unless the call already failed.
                let _ = tx.send(r);
            },
        );
        let c = &mut self.counters;
        c.submits += 1;
        c.positions += len as u64;
        c.max_positions_per_submit = c.max_positions_per_submit.max(len as u64);
        c.bytes_uploaded += upload;
        Ok(InFlight {
            slot,
            start,
            len,
            submission,
            mapped: rx,
        })
    }

    /// `e`, unless the callbacks have a better explanation (a lost device shows up as failed
    /// work first, and its callback runs only once the device is polled).
    fn explain(&self, e: EvalError) -> EvalError {
        let _ = self.device.poll(wgpu::PollType::Poll);
        self.check_faults().err().unwrap_or(e)
    }

    /// Waits for a submitted chunk and copies its scores into `out`.
    fn finish(&mut self, job: &InFlight, out: &mut [i32]) -> Result<(), EvalError> {
        let wait = self.device.poll(wgpu::PollType::Wait {
            submission_index: Some(job.submission.clone()),
            timeout: Some(CHUNK_TIMEOUT),
        });
        if let Err(e) = wait {
            return Err(self.explain(EvalError::Backend(format!("waiting for the GPU: {e}"))));
        }
        // The map callback runs inside poll once the submission is done; if it has not, the
        // device failed underneath.
        let Ok(mapped) = job.mapped.try_recv() else {
            return Err(self.explain(EvalError::Backend(
                "the GPU finished but the scores were never mapped".into(),
            )));
        };
        if let Err(e) = mapped {
            return Err(self.explain(EvalError::Backend(format!("reading scores back: {e}"))));
        }
        let timed = self.slots[job.slot].queries.is_some();
        let readback = &self.slots[job.slot].readback;
        let bytes = job.len as u64 * SCORE_BYTES;
        let from = if timed { 0 } else { TIMESTAMP_BYTES };
        {
            let view = readback
                .slice(from..TIMESTAMP_BYTES + bytes)
                .get_mapped_range()
                .map_err(|e| EvalError::Backend(format!("reading scores back: {e}")))?;
            let at = (TIMESTAMP_BYTES - from) as usize;
            // Copied as bytes: the mapping need not be aligned for i32.
            bytemuck::cast_slice_mut::<i32, u8>(&mut out[job.start..job.start + job.len])
                .copy_from_slice(&view[at..]);
            if timed {
                let mut ticks = [0u64; 4];
                bytemuck::cast_slice_mut::<u64, u8>(&mut ticks).copy_from_slice(&view[..at]);
                let period = self.timestamp_period;
                self.timestamps.record(&mut self.counters, ticks, period);
            }
            self.counters.bytes_read_back += view.len() as u64;
        }
        readback.unmap();
        Ok(())
    }
}

/// Runs `f` inside error scopes for out-of-memory, validation and internal errors and turns
/// the first one caught into an [`EvalError`].
pub(crate) fn scoped<T>(device: &wgpu::Device, f: impl FnOnce() -> T) -> Result<T, EvalError> {
    let oom = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let internal = device.push_error_scope(wgpu::ErrorFilter::Internal);
    let value = f();
    let errors = [
        pollster::block_on(internal.pop()),
        pollster::block_on(validation.pop()),
        pollster::block_on(oom.pop()),
    ];
    match errors.into_iter().flatten().next() {
        Some(e) => Err(convert(e)),
        None => Ok(value),
    }
}
