//! The GPU context: device, queue, compiled pipeline and the buffers a batch travels through,
//! built once and reused for every batch.
//!
//! A batch is cut into chunks of at most [`GpuContext::max_chunk`] positions. Chunks alternate
//! between two `Slot`s, each with its own input, output, readback and uniform buffers and its
//! bind group, so while the GPU evaluates chunk `k` in one slot the CPU uploads chunk `k + 1`
//! into the other, and reads chunk `k - 1`'s scores back. Buffers grow (to the next power of
//! two of the chunk that needs it) and are otherwise kept from call to call.
//!
//! wgpu reports errors through callbacks rather than return values: an error scope around
//! each batch catches validation, out-of-memory and internal errors, an uncaptured-error
//! handler catches anything else (wgpu's default handler would panic), and the device-lost
//! callback marks the context dead. All of them end up as [`EvalError`] values.

use crate::adapter::{self, AdapterOptions, GpuInfo};
use crate::layout::{self, WORKGROUP_SIZE};
use bytemuck::Pod;
use shatranj_engine::eval::Evaluation;
use shatranj_engine::eval::PackedPosition;
use shatranj_engine::eval::{EvalError, check_lengths};
use shatranj_engine::nnue::CompactPosition;
use std::mem::size_of;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Which shader a context runs, and so what its input buffer holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Program {
    /// `shaders/eval.wgsl`: one invocation per [`PackedPosition`] (112 bytes).
    Classical,
    /// `shaders/nnue.wgsl`: one workgroup per [`CompactPosition`] (32 bytes).
    Network { hidden: usize },
}

impl Program {
    fn input_bytes(self) -> u64 {
        match self {
            Program::Classical => size_of::<PackedPosition>() as u64,
            Program::Network { .. } => size_of::<CompactPosition>() as u64,
        }
    }
}
/// Bytes of one score.
const SCORE_BYTES: u64 = 4;
/// Bytes of the per-dispatch uniform (`count`, `row`, two words of padding).
const UNIFORM_BYTES: u64 = 16;
/// Positions per chunk at most: 112 MiB of packed or 32 MiB of compact input; larger batches
/// are several chunks.
const CHUNK_LIMIT: usize = 1 << 20;
/// The smallest buffers a slot starts with (positions).
const INITIAL_CAPACITY: usize = 1024;
/// How long to wait for one chunk before calling the device hung.
const CHUNK_TIMEOUT: Duration = Duration::from_secs(300);

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

/// One set of buffers a chunk is evaluated in.
struct Slot {
    /// Positions this slot's buffers hold.
    capacity: usize,
    input: wgpu::Buffer,
    output: wgpu::Buffer,
    readback: wgpu::Buffer,
    uniform: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
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
    /// The weights: the classical parameter table, or the network's.
    params: wgpu::Buffer,
    slots: Vec<Slot>,
    /// Reused for converting inputs to the program's format.
    compact: Vec<CompactPosition>,
    packed: Vec<PackedPosition>,
    max_chunk: usize,
    /// The device's limit on `max_chunk`.
    chunk_limit: usize,
    max_groups_x: u32,
    faults: SharedFaults,
}

impl GpuContext {
    /// Opens the adapter `options` select and compiles the shader of `evaluation`.
    pub fn new(options: &AdapterOptions, evaluation: &Evaluation) -> Result<GpuContext, EvalError> {
        // Drivers print window-system noise while a device is opened (see `quiet`).
        crate::quiet::quietly(|| GpuContext::open(options, evaluation))
    }

    fn open(options: &AdapterOptions, evaluation: &Evaluation) -> Result<GpuContext, EvalError> {
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
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("shatranj eval"),
            required_features: wgpu::Features::empty(),
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
        let max_chunk = CHUNK_LIMIT.min((max_binding / program.input_bytes()) as usize);
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
                params: params_buffer,
                slots: Vec::new(),
                compact: Vec::new(),
                packed: Vec::new(),
                max_chunk,
                chunk_limit: max_chunk,
                max_groups_x: limits.max_compute_workgroups_per_dimension.max(1),
                faults: faults.clone(),
            }
        })?;
        let initial = INITIAL_CAPACITY.min(max_chunk);
        for _ in 0..2 {
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
    /// chunks to drive a batch through both slots.
    pub fn set_max_chunk(&mut self, positions: usize) {
        self.max_chunk = positions.clamp(1, self.chunk_limit);
    }

    /// Positions each slot's buffers hold now (they grow with the largest chunk seen).
    pub fn capacities(&self) -> Vec<usize> {
        self.slots.iter().map(|s| s.capacity).collect()
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

    fn make_slot(&self, capacity: usize) -> Slot {
        let n = capacity as u64;
        let buffer = |label, size, usage| {
            self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        use wgpu::BufferUsages as U;
        let input = buffer(
            "positions",
            n * self.program.input_bytes(),
            U::STORAGE | U::COPY_DST,
        );
        let output = buffer("scores", n * SCORE_BYTES, U::STORAGE | U::COPY_SRC);
        let readback = buffer("readback", n * SCORE_BYTES, U::MAP_READ | U::COPY_DST);
        let uniform = buffer("batch", UNIFORM_BYTES, U::UNIFORM | U::COPY_DST);
        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("eval bind group"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: self.params.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: input.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: output.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: uniform.as_entire_binding(),
                },
            ],
        });
        Slot {
            capacity,
            input,
            output,
            readback,
            uniform,
            bind_group,
        }
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

    /// Scores `positions` into `out` (one slot per position), exactly as the CPU would. The
    /// network program converts them to compact positions first.
    pub fn evaluate(
        &mut self,
        positions: &[PackedPosition],
        out: &mut [i32],
    ) -> Result<(), EvalError> {
        check_lengths(positions, out)?;
        match self.program {
            Program::Classical => self.evaluate_input(positions, out),
            Program::Network { .. } => {
                let mut compact = std::mem::take(&mut self.compact);
                compact.clear();
                compact.extend(positions.iter().map(CompactPosition::from_packed));
                let r = self.evaluate_input(&compact, out);
                self.compact = compact;
                r
            }
        }
    }

    /// Scores compact positions: uploaded as they are by the network program (32 bytes a
    /// position), converted to packed ones for the classical program.
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
        match self.program {
            Program::Network { .. } => self.evaluate_input(positions, out),
            Program::Classical => {
                let mut packed = std::mem::take(&mut self.packed);
                packed.clear();
                packed.extend(positions.iter().map(CompactPosition::to_packed));
                let r = self.evaluate_input(&packed, out);
                self.packed = packed;
                r
            }
        }
    }

    /// Scores inputs already in the program's format.
    fn evaluate_input<T: Pod>(
        &mut self,
        positions: &[T],
        out: &mut [i32],
    ) -> Result<(), EvalError> {
        self.check_faults()?;
        if positions.is_empty() {
            return Ok(());
        }
        let device = self.device.clone();
        let mut in_flight: [Option<InFlight>; 2] = [None, None];
        let result =
            scoped(&device, || self.run_chunks(positions, out, &mut in_flight)).and_then(|r| r);
        if result.is_err() {
            // Leave the slots reusable: wait for whatever was submitted and unmap it.
            let _ = device.poll(wgpu::PollType::wait_indefinitely());
            for job in in_flight.iter_mut().filter_map(Option::take) {
                if job.mapped.try_recv().is_ok_and(|r| r.is_ok()) {
                    self.slots[job.slot].readback.unmap();
                }
            }
        }
        result
            .map_err(|e| self.explain(e))
            .and_then(|()| self.check_faults())
    }

    fn run_chunks<T: Pod>(
        &mut self,
        positions: &[T],
        out: &mut [i32],
        in_flight: &mut [Option<InFlight>; 2],
    ) -> Result<(), EvalError> {
        let chunk = self.max_chunk.max(1);
        for (k, start) in (0..positions.len()).step_by(chunk).enumerate() {
            let slot = k % 2;
            if let Some(job) = in_flight[slot].take() {
                self.finish(job, out)?;
            }
            let end = (start + chunk).min(positions.len());
            in_flight[slot] = Some(self.submit(slot, start, &positions[start..end])?);
        }
        // Chunks finish in submission order; the older one is in the other slot.
        let n_chunks = positions.len().div_ceil(chunk);
        for slot in [n_chunks % 2, (n_chunks + 1) % 2] {
            if let Some(job) = in_flight[slot].take() {
                self.finish(job, out)?;
            }
        }
        Ok(())
    }

    /// Uploads `chunk` into slot `slot`, dispatches the shader and queues the readback.
    fn submit<T: Pod>(
        &mut self,
        slot: usize,
        start: usize,
        chunk: &[T],
    ) -> Result<InFlight, EvalError> {
        let len = chunk.len();
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
        let s = &self.slots[slot];
        let uniform: [u32; 4] = [len as u32, groups_x * per_group, 0, 0];
        self.queue
            .write_buffer(&s.uniform, 0, bytemuck::cast_slice(&uniform));
        self.queue
            .write_buffer(&s.input, 0, bytemuck::cast_slice(chunk));
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("eval"),
            });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("eval"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &s.bind_group, &[]);
            pass.dispatch_workgroups(groups_x, groups_y, 1);
        }
        let bytes = len as u64 * SCORE_BYTES;
        encoder.copy_buffer_to_buffer(&s.output, 0, &s.readback, 0, bytes);
        let submission = self.queue.submit([encoder.finish()]);
        let (tx, rx) = mpsc::channel();
        s.readback
            .slice(..bytes)
            .map_async(wgpu::MapMode::Read, move |r| {
                // The receiver outlives the wait unless the call already failed.
                let _ = tx.send(r);
            });
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
    fn finish(&mut self, job: InFlight, out: &mut [i32]) -> Result<(), EvalError> {
        let wait = self.device.poll(wgpu::PollType::Wait {
            submission_index: Some(job.submission.clone()),
            timeout: Some(CHUNK_TIMEOUT),
        });
        if let Err(e) = wait {
            return Err(self.explain(EvalError::Backend(format!("waiting for the GPU: {e}"))));
        }
        let mapped = match job.mapped.try_recv() {
            Ok(r) => r,
            // The map callback runs inside poll once the submission is done; if it has
            // not, the device failed underneath.
            Err(_) => {
                return Err(self.explain(EvalError::Backend(
                    "the GPU finished but the scores were never mapped".into(),
                )));
            }
        };
        if let Err(e) = mapped {
            return Err(self.explain(EvalError::Backend(format!("reading scores back: {e}"))));
        }
        let readback = &self.slots[job.slot].readback;
        let bytes = job.len as u64 * SCORE_BYTES;
        {
            let view = readback
                .slice(..bytes)
                .get_mapped_range()
                .map_err(|e| EvalError::Backend(format!("reading scores back: {e}")))?;
            // Copied as bytes: the mapping need not be aligned for i32.
            bytemuck::cast_slice_mut::<i32, u8>(&mut out[job.start..job.start + job.len])
                .copy_from_slice(&view);
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
