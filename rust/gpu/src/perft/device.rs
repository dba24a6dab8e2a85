//! The GPU side of perft: the compiled kernels of `shaders/perft.wgsl`, the buffers they work
//! in (made once, reused by every call), and one submit per batch of subtrees.
//!
//! A batch is a set of positions with the same number of plies left. Its command buffer holds
//! every level: `count_level`, `scan_blocks`, `generate_level` per level, then `leaf2` (or
//! `leaf1` for a single ply). Only the first level's size comes from the host; each later
//! level's size and its indirect dispatch arguments are written by `scan_blocks`, so the host
//! never waits between levels. If a level would not fit the position buffers, the shader sets
//! an overflow flag and writes nothing more; the host then splits the batch (see `super`).

use super::record::{GpuPosition, rays};
use crate::adapter::{self, AdapterOptions, GpuInfo};
use crate::context::scoped;
use shatranj_engine::eval::EvalError;
use std::sync::mpsc;
use std::time::Duration;

/// Invocations per workgroup (`WG` in the shader).
const WORKGROUP: u64 = 256;
/// Levels a batch may have (the shader's `Control.level_n` holds 28 sizes).
pub const MAX_PLIES: u32 = 24;
/// Root moves a batch may count separately (legal positions have at most 218 moves; test
/// positions with extra queens have more).
pub const MAX_ORIGINS: usize = 1024;
/// Bytes of the shader's `Control` (overflow, capacity, two pad words, 28 level sizes).
const CONTROL_BYTES: u64 = 128;
/// The most positions a level may hold so that its indirect dispatch stays within the
/// 65,535-workgroup limit of one dimension.
const DISPATCH_LIMIT: u64 = 65_535 * WORKGROUP;
const POSITION_BYTES: u64 = std::mem::size_of::<GpuPosition>() as u64;
/// Batches that may be in flight at once (the host gathers the next one meanwhile).
pub const PIPELINED: usize = 2;
/// The readback slot of [`PerftDevice::run`].
const OWN_SLOT: usize = PIPELINED;

/// A submitted batch whose counts are not read yet.
pub struct Pending {
    slot: usize,
    submission: wgpu::SubmissionIndex,
    mapped: mpsc::Receiver<Result<(), wgpu::BufferAsyncError>>,
    origins: usize,
}

/// How long one batch may take before the device counts as hung.
const BATCH_TIMEOUT: Duration = Duration::from_secs(600);

/// Whether the shader's bitboards are two 32-bit halves or native `u64`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bitboards {
    /// `u64` where the adapter offers `SHADER_INT64`, else two halves.
    Auto,
    /// Always two 32-bit halves (the portable path).
    Halves,
    /// Native `u64`; an error if the adapter lacks `SHADER_INT64`.
    Native,
}

/// What a [`PerftDevice`] has done, for tests and benchmarks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerftCounters {
    /// Command buffers submitted (one per batch, plus one per retried half after an overflow).
    pub submits: u64,
    /// Leaves counted on the GPU.
    pub leaves: u64,
    /// The most leaves one submit counted.
    pub max_leaves_per_submit: u64,
    /// Bytes written from the host: positions and each batch's control words.
    pub bytes_uploaded: u64,
    /// Bytes read back: each batch's control words and totals.
    pub bytes_read_back: u64,
    /// Buffers created, all at start-up: the count must not change afterwards.
    pub buffers_created: u64,
    /// Batches that did not fit and were split.
    pub overflows: u64,
    /// The most batches submitted and not yet read back at one time.
    pub max_in_flight: u64,
}

/// The device, its kernels and buffers.
pub struct PerftDevice {
    info: GpuInfo,
    native: bool,
    device: wgpu::Device,
    queue: wgpu::Queue,
    count: wgpu::ComputePipeline,
    scan: wgpu::ComputePipeline,
    generate: wgpu::ComputePipeline,
    leaf1: wgpu::ComputePipeline,
    leaf2: wgpu::ComputePipeline,
    /// Bind groups reading level k from buffer A (k even) or B (k odd).
    even: wgpu::BindGroup,
    odd: wgpu::BindGroup,
    args_group: wgpu::BindGroup,
    positions: wgpu::Buffer,
    control: wgpu::Buffer,
    totals: wgpu::Buffer,
    args: wgpu::Buffer,
    /// Where each batch's control words and totals are read back: [`PIPELINED`] slots for
    /// batches in flight one after another, and one for a batch run on its own.
    readbacks: Vec<wgpu::Buffer>,
    param_stride: u32,
    /// Positions a level may hold now, at most `allocated`.
    capacity: usize,
    allocated: usize,
    /// Batches submitted and not yet read back (or abandoned).
    in_flight: u64,
    counters: PerftCounters,
}

fn bind(binding: u32, buffer: &wgpu::Buffer) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: buffer.as_entire_binding(),
    }
}

/// The shader source for one bitboard representation.
pub fn shader_source(native: bool) -> String {
    let prelude = if native {
        include_str!("../../shaders/perft_bb64.wgsl")
    } else {
        include_str!("../../shaders/perft_bb32.wgsl")
    };
    format!("{prelude}\n{}", include_str!("../../shaders/perft.wgsl"))
}

impl PerftDevice {
    /// Opens the adapter `options` select, with room for `capacity` positions per level
    /// (`None`: as many as the device and a memory budget allow).
    pub fn open(
        options: &AdapterOptions,
        bitboards: Bitboards,
        capacity: Option<usize>,
    ) -> Result<PerftDevice, EvalError> {
        crate::quiet::quietly(|| PerftDevice::open_quietly(options, bitboards, capacity))
    }

    fn open_quietly(
        options: &AdapterOptions,
        bitboards: Bitboards,
        capacity: Option<usize>,
    ) -> Result<PerftDevice, EvalError> {
        let instance = adapter::instance(options)?;
        let adapter = adapter::choose(&instance, options)?;
        let info = GpuInfo::from_wgpu(&adapter.get_info());
        let offered = adapter.features().contains(wgpu::Features::SHADER_INT64);
        let native = match bitboards {
            Bitboards::Auto => offered,
            Bitboards::Halves => false,
            Bitboards::Native if offered => true,
            Bitboards::Native => {
                return Err(EvalError::Backend(format!(
                    "{info} does not offer SHADER_INT64 (64-bit integers in shaders)"
                )));
            }
        };
        let limits = adapter.limits();
        let features = if native {
            wgpu::Features::SHADER_INT64
        } else {
            wgpu::Features::empty()
        };
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("shatranj perft"),
            required_features: features,
            required_limits: limits.clone(),
            ..Default::default()
        }))
        .map_err(|e| EvalError::Backend(format!("cannot open {info}: {e}")))?;
        device.on_uncaptured_error(std::sync::Arc::new(|_e: wgpu::Error| {
            // Every call runs inside error scopes; anything escaping them is reported there.
        }));

        let max_binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let device_cap = (max_binding / POSITION_BYTES).min(DISPATCH_LIMIT) as usize;
        let default_cap = if info.is_software() { 1 << 18 } else { 1 << 23 };
        let capacity = capacity.unwrap_or(default_cap).clamp(256, device_cap);
        let param_stride = limits.min_uniform_buffer_offset_alignment.max(4);

        let mut buffers_created = 0u64;
        let built = scoped(&device, || {
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("perft.wgsl"),
                source: wgpu::ShaderSource::Wgsl(shader_source(native).into()),
            });
            let entry = |binding, ty| wgpu::BindGroupLayoutEntry {
                binding,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            };
            let storage = |read_only| wgpu::BufferBindingType::Storage { read_only };
            let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("perft bindings"),
                entries: &[
                    entry(0, storage(true)),
                    entry(1, storage(true)),
                    entry(2, storage(false)),
                    entry(3, storage(false)),
                    entry(4, storage(false)),
                    entry(5, storage(false)),
                    entry(6, storage(false)),
                    wgpu::BindGroupLayoutEntry {
                        binding: 7,
                        visibility: wgpu::ShaderStages::COMPUTE,
                        ty: wgpu::BindingType::Buffer {
                            ty: wgpu::BufferBindingType::Uniform,
                            has_dynamic_offset: true,
                            min_binding_size: wgpu::BufferSize::new(4),
                        },
                        count: None,
                    },
                ],
            });
            let args_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("perft dispatch arguments"),
                entries: &[entry(0, storage(false))],
            });
            let pipeline = |name: &str, layouts: &[Option<&wgpu::BindGroupLayout>]| {
                let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: Some(name),
                    bind_group_layouts: layouts,
                    immediate_size: 0,
                });
                device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(name),
                    layout: Some(&pl),
                    module: &module,
                    entry_point: Some(name),
                    compilation_options: wgpu::PipelineCompilationOptions::default(),
                    cache: None,
                })
            };
            let main = [Some(&layout)];
            let count = pipeline("count_level", &main);
            let scan = pipeline("scan_blocks", &[Some(&layout), Some(&args_layout)]);
            let generate = pipeline("generate_level", &main);
            let leaf1 = pipeline("leaf1", &main);
            let leaf2 = pipeline("leaf2", &main);

            use wgpu::BufferUsages as U;
            let mut buffer = |label, size: u64, usage| {
                buffers_created += 1;
                device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(label),
                    size: size.max(16),
                    usage,
                    mapped_at_creation: false,
                })
            };
            let n = capacity as u64;
            let ray_table = buffer("rays", 512 * 8, U::STORAGE | U::COPY_DST);
            let a = buffer("positions a", n * POSITION_BYTES, U::STORAGE | U::COPY_DST);
            let b = buffer("positions b", n * POSITION_BYTES, U::STORAGE);
            let counts = buffer("move counts", n * 4, U::STORAGE);
            let blocks = buffer("block sums", n.div_ceil(WORKGROUP) * 4, U::STORAGE);
            let control = buffer(
                "control",
                CONTROL_BYTES,
                U::STORAGE | U::COPY_DST | U::COPY_SRC,
            );
            let totals = buffer(
                "totals",
                MAX_ORIGINS as u64 * 8,
                U::STORAGE | U::COPY_DST | U::COPY_SRC,
            );
            let params = buffer(
                "levels",
                u64::from(param_stride) * u64::from(MAX_PLIES + 1),
                U::UNIFORM | U::COPY_DST,
            );
            let args = buffer(
                "dispatch arguments",
                12 * u64::from(MAX_PLIES + 2),
                U::STORAGE | U::INDIRECT | U::COPY_DST,
            );
            let readbacks: Vec<wgpu::Buffer> = (0..=PIPELINED)
                .map(|_| {
                    buffer(
                        "readback",
                        CONTROL_BYTES + MAX_ORIGINS as u64 * 8,
                        U::MAP_READ | U::COPY_DST,
                    )
                })
                .collect();
            queue.write_buffer(&ray_table, 0, bytemuck::cast_slice(&rays()));
            let mut levels = vec![0u8; params.size() as usize];
            for level in 0..=MAX_PLIES {
                let at = (level * param_stride) as usize;
                levels[at..at + 4].copy_from_slice(&level.to_le_bytes());
            }
            queue.write_buffer(&params, 0, &levels);
            let group = |src: &wgpu::Buffer, dst: &wgpu::Buffer| {
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("perft level"),
                    layout: &layout,
                    entries: &[
                        bind(0, &ray_table),
                        bind(1, src),
                        bind(2, dst),
                        bind(3, &counts),
                        bind(4, &blocks),
                        bind(5, &control),
                        bind(6, &totals),
                        wgpu::BindGroupEntry {
                            binding: 7,
                            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                                buffer: &params,
                                offset: 0,
                                size: wgpu::BufferSize::new(4),
                            }),
                        },
                    ],
                })
            };
            let even = group(&a, &b);
            let odd = group(&b, &a);
            let args_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("perft dispatch arguments"),
                layout: &args_layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: args.as_entire_binding(),
                }],
            });
            (
                [count, scan, generate, leaf1, leaf2],
                [even, odd, args_group],
                [a, control, totals, args],
                readbacks,
            )
        })?;
        let ([count, scan, generate, leaf1, leaf2], [even, odd, args_group], buffers, readbacks) =
            built;
        let [positions, control, totals, args] = buffers;
        Ok(PerftDevice {
            info,
            native,
            device,
            queue,
            count,
            scan,
            generate,
            leaf1,
            leaf2,
            even,
            odd,
            args_group,
            positions,
            control,
            totals,
            args,
            readbacks,
            param_stride,
            capacity,
            allocated: capacity,
            in_flight: 0,
            counters: PerftCounters {
                buffers_created,
                ..PerftCounters::default()
            },
        })
    }

    pub fn info(&self) -> &GpuInfo {
        &self.info
    }

    /// Whether the shader uses native `u64` bitboards (else two 32-bit halves).
    pub fn native_u64(&self) -> bool {
        self.native
    }

    /// Positions each level may hold.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Lets levels hold at most `positions` (256 to the size the buffers were made with;
    /// `None`: all of it). Tests use small levels to force batches to be split.
    pub fn set_capacity(&mut self, positions: Option<usize>) {
        self.capacity = positions.map_or(self.allocated, |n| n.clamp(256, self.allocated));
    }

    pub fn counters(&self) -> &PerftCounters {
        &self.counters
    }

    /// Counts the leaves `plies` (1 to [`MAX_PLIES`]) below each of `positions` (at most
    /// [`capacity`](Self::capacity) of them, origins below [`MAX_ORIGINS`]) and adds them to
    /// `totals[origin]`. Returns `Ok(false)`, adding nothing, when a level did not fit.
    pub fn run(
        &mut self,
        positions: &[GpuPosition],
        plies: u32,
        totals: &mut [u64],
    ) -> Result<bool, EvalError> {
        if positions.is_empty() {
            return Ok(true);
        }
        let pending = self.submit(positions, plies, OWN_SLOT)?;
        self.finish(pending, totals)
    }

    /// Submits a batch (see [`run`](Self::run)) and returns at once; `slot` (below
    /// [`PIPELINED`]) must not be that of another batch still pending. Batches run in the
    /// order they are submitted.
    pub fn submit(
        &mut self,
        positions: &[GpuPosition],
        plies: u32,
        slot: usize,
    ) -> Result<Pending, EvalError> {
        assert!(
            (1..=MAX_PLIES).contains(&plies),
            "plies {plies} out of range"
        );
        assert!(
            !positions.is_empty() && positions.len() <= self.capacity,
            "batch of {} positions, capacity {}",
            positions.len(),
            self.capacity
        );
        assert!(slot <= OWN_SLOT);
        let origins = positions
            .iter()
            .map(|p| p.origin as usize + 1)
            .max()
            .unwrap_or(0);
        assert!(origins <= MAX_ORIGINS, "origins {origins}");
        let device = self.device.clone();
        scoped(&device, || {
            self.encode_and_submit(positions, plies, origins, slot)
        })
    }

    fn encode_and_submit(
        &mut self,
        positions: &[GpuPosition],
        plies: u32,
        origins: usize,
        slot: usize,
    ) -> Pending {
        let n = positions.len() as u32;
        let mut control = [0u32; CONTROL_BYTES as usize / 4];
        control[1] = self.capacity as u32;
        control[4] = n;
        let first_args = [n.div_ceil(WORKGROUP as u32), 1, 1];
        self.queue
            .write_buffer(&self.positions, 0, bytemuck::cast_slice(positions));
        self.queue
            .write_buffer(&self.control, 0, bytemuck::cast_slice(&control));
        self.queue
            .write_buffer(&self.args, 0, bytemuck::cast_slice(&first_args));
        self.counters.bytes_uploaded += positions.len() as u64 * POSITION_BYTES
            + CONTROL_BYTES
            + std::mem::size_of_val(&first_args) as u64;

        let totals_bytes = origins as u64 * 8;
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("perft batch"),
            });
        encoder.clear_buffer(&self.totals, 0, Some(totals_bytes));
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("perft levels"),
                timestamp_writes: None,
            });
            let group = |level: u32| {
                if level.is_multiple_of(2) {
                    &self.even
                } else {
                    &self.odd
                }
            };
            let offset = |level: u32| [level * self.param_stride];
            let args_at = |level: u32| u64::from(level) * 12;
            // Levels above the last two plies are generated; the last two are counted.
            let generated = plies.saturating_sub(2);
            for level in 0..generated {
                pass.set_pipeline(&self.count);
                pass.set_bind_group(0, group(level), &offset(level));
                pass.dispatch_workgroups_indirect(&self.args, args_at(level));
                pass.set_pipeline(&self.scan);
                pass.set_bind_group(0, group(level), &offset(level));
                pass.set_bind_group(1, &self.args_group, &[]);
                pass.dispatch_workgroups(1, 1, 1);
                pass.set_pipeline(&self.generate);
                pass.set_bind_group(0, group(level), &offset(level));
                pass.dispatch_workgroups_indirect(&self.args, args_at(level));
            }
            let leaf = if plies == 1 { &self.leaf1 } else { &self.leaf2 };
            pass.set_pipeline(leaf);
            pass.set_bind_group(0, group(generated), &offset(generated));
            pass.dispatch_workgroups_indirect(&self.args, args_at(generated));
        }
        let readback = &self.readbacks[slot];
        encoder.copy_buffer_to_buffer(&self.control, 0, readback, 0, CONTROL_BYTES);
        encoder.copy_buffer_to_buffer(&self.totals, 0, readback, CONTROL_BYTES, totals_bytes);
        let submission = self.queue.submit([encoder.finish()]);
        self.counters.submits += 1;
        self.in_flight += 1;
        self.counters.max_in_flight = self.counters.max_in_flight.max(self.in_flight);
        let (tx, rx) = mpsc::channel();
        readback
            .slice(..CONTROL_BYTES + totals_bytes)
            .map_async(wgpu::MapMode::Read, move |r| {
                let _ = tx.send(r);
            });
        Pending {
            slot,
            submission,
            mapped: rx,
            origins,
        }
    }

    /// Waits for a submitted batch and adds its counts to `totals` (`Ok(false)`, adding
    /// nothing, when a level did not fit).
    pub fn finish(&mut self, pending: Pending, totals: &mut [u64]) -> Result<bool, EvalError> {
        assert!(pending.origins <= totals.len());
        self.in_flight -= 1;
        let read_bytes = CONTROL_BYTES + pending.origins as u64 * 8;
        let readback = &self.readbacks[pending.slot];
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(pending.submission),
                timeout: Some(BATCH_TIMEOUT),
            })
            .map_err(|e| EvalError::Backend(format!("waiting for the GPU: {e}")))?;
        match pending.mapped.try_recv() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(EvalError::Backend(format!("reading counts back: {e}"))),
            Err(_) => {
                return Err(EvalError::Backend(
                    "the GPU finished but the counts were never mapped".into(),
                ));
            }
        }
        let words: Vec<u32> = {
            let view = readback
                .slice(..read_bytes)
                .get_mapped_range()
                .map_err(|e| EvalError::Backend(format!("reading counts back: {e}")))?;
            view.chunks_exact(4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                .collect()
        };
        readback.unmap();
        self.counters.bytes_read_back += read_bytes;
        if words[0] != 0 {
            self.counters.overflows += 1;
            return Ok(false);
        }
        let base = CONTROL_BYTES as usize / 4;
        let mut leaves = 0u64;
        for (o, total) in totals.iter_mut().enumerate().take(pending.origins) {
            let n = u64::from(words[base + 2 * o]) | u64::from(words[base + 2 * o + 1]) << 32;
            *total += n;
            leaves += n;
        }
        self.counters.leaves += leaves;
        self.counters.max_leaves_per_submit = self.counters.max_leaves_per_submit.max(leaves);
        Ok(true)
    }

    /// Drops a submitted batch's counts (after an error elsewhere), leaving its readback
    /// slot free for the next batch.
    pub fn abandon(&mut self, pending: Pending) {
        self.in_flight -= 1;
        let _ = self.device.poll(wgpu::PollType::Wait {
            submission_index: Some(pending.submission),
            timeout: Some(BATCH_TIMEOUT),
        });
        if pending.mapped.try_recv().is_ok_and(|r| r.is_ok()) {
            self.readbacks[pending.slot].unmap();
        }
    }

    /// Destroys the device as a driver reset would (tests of the error path).
    #[doc(hidden)]
    pub fn destroy_device(&self) {
        self.device.destroy();
    }
}
