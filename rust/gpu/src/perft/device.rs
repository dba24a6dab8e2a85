//! The GPU side of perft: the compiled kernels of `shaders/perft.wgsl`, the buffers they work
//! in (made once, reused by every call), and one submit per batch of subtrees.
//!
//! A batch is a set of positions with the same number of plies left. Its command buffer holds
//! every level: `count_level`, `scan_blocks`, `generate_level` per level, then `leaf2` (or
//! `leaf1` for a single ply). Only the first level's size comes from the host; each later
//! level's size and its indirect dispatch arguments are written by `scan_blocks`, so the host
//! never waits between levels. If a level would not fit the position buffers, the shader sets
//! an overflow flag and writes nothing more; the host then splits the batch (see `super`).
//!
//! With a hash table ([`PerftDevice::set_table`]), level 0 runs `count_roots` (a root found in
//! the table is counted and not expanded), the leaves run `leaf2_hashed`, and a batch of three
//! plies or more ends with `store_roots`; each root then has its own total, read back and
//! added to its root move's on the host (see [`super::table`] for the entry format).

use super::record::{GpuPosition, rays};
use super::table::BUCKET_BYTES;
use crate::adapter::{self, AdapterOptions, GpuInfo};
use crate::context::scoped;
use shatranj_engine::eval::EvalError;
use std::sync::mpsc;
use std::time::Duration;

/// Invocations per workgroup (`WG` in the shader).
const WORKGROUP: u64 = 256;
/// Levels a batch may have (the shader's `Control.level_n` holds 24 sizes).
pub const MAX_PLIES: u32 = 24;
/// Root moves a batch may count separately (legal positions have at most 218 moves; test
/// positions with extra queens have more).
pub const MAX_ORIGINS: usize = 1024;
/// Bytes of the shader's `Control` (overflow, capacity, table buckets, root plies, 24 level
/// sizes, 4 table counters).
const CONTROL_BYTES: u64 = 128;
/// Word index of the first table counter in `Control`.
const COUNTER_WORD: usize = 28;
/// Positions a batch may have when each root has its own total (a table and three plies or
/// more): the size of the totals buffer.
pub const ROOT_SLOTS: usize = 65_536;
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
    /// With a total per root: the origin of each root, in batch order.
    roots: Option<Vec<u32>>,
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
    /// Hash table probes and hits at the batches' roots (level 0).
    pub table_root_probes: u64,
    pub table_root_hits: u64,
    /// Hash table probes and hits two plies above the leaves.
    pub table_leaf_probes: u64,
    pub table_leaf_hits: u64,
}

impl PerftCounters {
    /// The counts from `before` to `self` (maxima are kept as they are), as
    /// [`EvalCounters::since`](crate::EvalCounters::since) does for the evaluation.
    pub fn since(&self, before: &PerftCounters) -> PerftCounters {
        PerftCounters {
            submits: self.submits - before.submits,
            leaves: self.leaves - before.leaves,
            max_leaves_per_submit: self.max_leaves_per_submit,
            bytes_uploaded: self.bytes_uploaded - before.bytes_uploaded,
            bytes_read_back: self.bytes_read_back - before.bytes_read_back,
            buffers_created: self.buffers_created - before.buffers_created,
            overflows: self.overflows - before.overflows,
            max_in_flight: self.max_in_flight,
            table_root_probes: self.table_root_probes - before.table_root_probes,
            table_root_hits: self.table_root_hits - before.table_root_hits,
            table_leaf_probes: self.table_leaf_probes - before.table_leaf_probes,
            table_leaf_hits: self.table_leaf_hits - before.table_leaf_hits,
        }
    }
}

/// The device, its kernels and buffers.
pub struct PerftDevice {
    info: GpuInfo,
    native: bool,
    device: wgpu::Device,
    queue: wgpu::Queue,
    kernels: Kernels,
    layout: wgpu::BindGroupLayout,
    /// Bind groups reading level k from buffer A (k even) or B (k odd).
    even: wgpu::BindGroup,
    odd: wgpu::BindGroup,
    args_group: wgpu::BindGroup,
    /// What the level groups bind: rays, A, B, move counts, block sums, control, totals,
    /// levels.
    bound: [wgpu::Buffer; 8],
    /// The hash table (a 32-byte placeholder while there is none).
    table: wgpu::Buffer,
    /// Buckets the table was made with (0: none) and those in use (tests use fewer).
    table_buckets: u32,
    table_limit: u32,
    /// The batch's records with each root's own index as origin.
    rooted: Vec<GpuPosition>,
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

/// The compiled entry points of the perft shader.
struct Kernels {
    count: wgpu::ComputePipeline,
    scan: wgpu::ComputePipeline,
    generate: wgpu::ComputePipeline,
    leaf1: wgpu::ComputePipeline,
    leaf2: wgpu::ComputePipeline,
    count_roots: wgpu::ComputePipeline,
    leaf2_hashed: wgpu::ComputePipeline,
    store_roots: wgpu::ComputePipeline,
}

const TABLE_USAGE: wgpu::BufferUsages = wgpu::BufferUsages::STORAGE
    .union(wgpu::BufferUsages::COPY_DST)
    .union(wgpu::BufferUsages::COPY_SRC);

/// The bind groups reading level k from buffer A (k even) or B (k odd).
fn level_groups(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    bound: &[wgpu::Buffer; 8],
    table: &wgpu::Buffer,
) -> (wgpu::BindGroup, wgpu::BindGroup) {
    let [rays, a, b, counts, blocks, control, totals, params] = bound;
    let group = |src: &wgpu::Buffer, dst: &wgpu::Buffer| {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("perft level"),
            layout,
            entries: &[
                bind(0, rays),
                bind(1, src),
                bind(2, dst),
                bind(3, counts),
                bind(4, blocks),
                bind(5, control),
                bind(6, totals),
                wgpu::BindGroupEntry {
                    binding: 7,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: params,
                        offset: 0,
                        size: wgpu::BufferSize::new(4),
                    }),
                },
                bind(8, table),
            ],
        })
    };
    (group(a, b), group(b, a))
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
    format!(
        "const ROOT_SLOTS: u32 = {ROOT_SLOTS}u;\n{prelude}\n{}\n{}",
        include_str!("../../shaders/perft.wgsl"),
        include_str!("../../shaders/perft_table.wgsl")
    )
}

impl PerftDevice {
    /// Opens the adapter `options` select, with room for `capacity` positions per level
    /// (`None`: as many as the device and a memory budget allow) and a hash table of at most
    /// `table_bytes` (0: none).
    pub fn open(
        options: &AdapterOptions,
        bitboards: Bitboards,
        capacity: Option<usize>,
        table_bytes: u64,
    ) -> Result<PerftDevice, EvalError> {
        crate::quiet::quietly(|| {
            PerftDevice::open_quietly(options, bitboards, capacity, table_bytes)
        })
    }

    fn open_quietly(
        options: &AdapterOptions,
        bitboards: Bitboards,
        capacity: Option<usize>,
        table_bytes: u64,
    ) -> Result<PerftDevice, EvalError> {
        use wgpu::BufferUsages as U;
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
                    entry(8, storage(false)),
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
            let kernels = Kernels {
                count: pipeline("count_level", &main),
                scan: pipeline("scan_blocks", &[Some(&layout), Some(&args_layout)]),
                generate: pipeline("generate_level", &main),
                leaf1: pipeline("leaf1", &main),
                leaf2: pipeline("leaf2", &main),
                count_roots: pipeline("count_roots", &main),
                leaf2_hashed: pipeline("leaf2_hashed", &main),
                store_roots: pipeline("store_roots", &main),
            };

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
            // The roots' 64-bit totals, then their keys (3 words each; see perft_table.wgsl).
            let totals_bytes = ROOT_SLOTS as u64 * 8;
            let bound = [
                buffer("rays", 512 * 8, U::STORAGE | U::COPY_DST),
                buffer("positions a", n * POSITION_BYTES, U::STORAGE | U::COPY_DST),
                buffer("positions b", n * POSITION_BYTES, U::STORAGE),
                buffer("move counts", n * 4, U::STORAGE),
                buffer("block sums", n.div_ceil(WORKGROUP) * 4, U::STORAGE),
                buffer(
                    "control",
                    CONTROL_BYTES,
                    U::STORAGE | U::COPY_DST | U::COPY_SRC,
                ),
                buffer(
                    "totals",
                    totals_bytes + ROOT_SLOTS as u64 * 12,
                    U::STORAGE | U::COPY_DST | U::COPY_SRC,
                ),
                buffer(
                    "levels",
                    u64::from(param_stride) * u64::from(MAX_PLIES + 1),
                    U::UNIFORM | U::COPY_DST,
                ),
            ];
            let table = buffer("perft table", BUCKET_BYTES, TABLE_USAGE);
            let args = buffer(
                "dispatch arguments",
                12 * u64::from(MAX_PLIES + 2),
                U::STORAGE | U::INDIRECT | U::COPY_DST,
            );
            let readbacks: Vec<wgpu::Buffer> = (0..=PIPELINED)
                .map(|_| {
                    buffer(
                        "readback",
                        CONTROL_BYTES + totals_bytes,
                        U::MAP_READ | U::COPY_DST,
                    )
                })
                .collect();
            queue.write_buffer(&bound[0], 0, bytemuck::cast_slice(&rays()));
            let params = &bound[7];
            let mut levels = vec![0u8; params.size() as usize];
            for level in 0..=MAX_PLIES {
                let at = (level * param_stride) as usize;
                levels[at..at + 4].copy_from_slice(&level.to_le_bytes());
            }
            queue.write_buffer(params, 0, &levels);
            let (even, odd) = level_groups(&device, &layout, &bound, &table);
            let args_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("perft dispatch arguments"),
                layout: &args_layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: args.as_entire_binding(),
                }],
            });
            (
                kernels,
                layout,
                [even, odd, args_group],
                (bound, table, args),
                readbacks,
            )
        })?;
        let (kernels, layout, [even, odd, args_group], (bound, table, args), readbacks) = built;
        let mut device = PerftDevice {
            info,
            native,
            device,
            queue,
            kernels,
            layout,
            even,
            odd,
            args_group,
            bound,
            table,
            table_buckets: 0,
            table_limit: 0,
            rooted: Vec::new(),
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
        };
        device.set_table(table_bytes)?;
        Ok(device)
    }

    /// Replaces the hash table with one of at most `bytes` (a power of two of 32-byte
    /// buckets; 0: no table), emptied. Keeping the size keeps the table and its entries,
    /// which stay valid from one count to the next (a key is the whole position and depth).
    pub fn set_table(&mut self, bytes: u64) -> Result<(), EvalError> {
        let limit = self
            .device
            .limits()
            .max_storage_buffer_binding_size
            .min(self.device.limits().max_buffer_size);
        let buckets = (bytes.min(limit) / BUCKET_BYTES).min(1 << 31);
        let buckets = if buckets == 0 {
            0
        } else {
            1u32 << buckets.ilog2()
        };
        if buckets == self.table_buckets {
            self.table_limit = buckets;
            return Ok(());
        }
        let device = self.device.clone();
        let (table, (even, odd)) = scoped(&device, || {
            let table = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("perft table"),
                size: u64::from(buckets.max(1)) * BUCKET_BYTES,
                usage: TABLE_USAGE,
                mapped_at_creation: false,
            });
            let groups = level_groups(&device, &self.layout, &self.bound, &table);
            (table, groups)
        })?;
        self.counters.buffers_created += 1;
        self.table = table;
        self.even = even;
        self.odd = odd;
        self.table_buckets = buckets;
        self.table_limit = buckets;
        Ok(())
    }

    /// Empties the hash table (no new buffer).
    pub fn clear_table(&self) {
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("perft table clear"),
            });
        encoder.clear_buffer(&self.table, 0, None);
        self.queue.submit([encoder.finish()]);
    }

    /// Bytes of the hash table (0: none).
    pub fn table_bytes(&self) -> u64 {
        u64::from(self.table_buckets) * BUCKET_BYTES
    }

    /// Uses only the first `buckets` buckets of the table (a power of two, at least 1; `None`:
    /// all): tests force collisions and replacements with a tiny table.
    #[doc(hidden)]
    pub fn limit_table(&mut self, buckets: Option<u32>) {
        self.table_limit = match buckets {
            Some(b) if self.table_buckets > 0 => 1 << b.clamp(1, self.table_buckets).ilog2(),
            _ => self.table_buckets,
        };
    }

    /// Writes words into the table at word `at` (tests: entries made on the host, whole or
    /// torn, that the shader must accept or reject).
    #[doc(hidden)]
    pub fn write_table(&self, at: u64, words: &[u32]) {
        self.queue
            .write_buffer(&self.table, at * 4, bytemuck::cast_slice(words));
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

    /// Whether a batch of `plies` plies gives each root its own total (and so holds at most
    /// [`ROOT_SLOTS`] positions): with a table, from three plies on.
    pub fn totals_per_root(&self, plies: u32) -> bool {
        self.table_limit > 0 && plies >= 3
    }

    /// The most positions a batch of `plies` plies may have.
    pub fn batch_limit(&self, plies: u32) -> usize {
        if self.totals_per_root(plies) {
            self.capacity.min(ROOT_SLOTS)
        } else {
            self.capacity
        }
    }

    /// Counts the leaves `plies` (1 to [`MAX_PLIES`]) below each of `positions` (at most
    /// [`batch_limit`](Self::batch_limit) of them, origins below [`MAX_ORIGINS`]) and adds
    /// them to `totals[origin]`. Returns `Ok(false)`, adding nothing, when a level did not fit.
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
            !positions.is_empty() && positions.len() <= self.batch_limit(plies),
            "batch of {} positions, at most {}",
            positions.len(),
            self.batch_limit(plies)
        );
        assert!(slot <= OWN_SLOT);
        let origins = positions
            .iter()
            .map(|p| p.origin as usize + 1)
            .max()
            .unwrap_or(0);
        assert!(origins <= MAX_ORIGINS, "origins {origins}");
        let roots = self.totals_per_root(plies).then(|| {
            self.rooted.clear();
            self.rooted
                .extend(positions.iter().enumerate().map(|(i, p)| GpuPosition {
                    origin: i as u32,
                    ..*p
                }));
            positions.iter().map(|p| p.origin).collect::<Vec<u32>>()
        });
        let device = self.device.clone();
        scoped(&device, || {
            let (records, totals) = match &roots {
                Some(_) => (std::mem::take(&mut self.rooted), positions.len()),
                None => (Vec::new(), origins),
            };
            let uploaded = if roots.is_some() { &records } else { positions };
            let mut pending = self.encode_and_submit(uploaded, plies, totals, slot);
            if roots.is_some() {
                self.rooted = records;
            }
            pending.roots = roots;
            pending
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
        let hashed = self.table_limit > 0;
        let mut control = [0u32; CONTROL_BYTES as usize / 4];
        control[1] = self.capacity as u32;
        control[2] = self.table_limit;
        control[3] = plies;
        control[4] = n;
        let first_args = [n.div_ceil(WORKGROUP as u32), 1, 1];
        let [
            _,
            positions_buffer,
            _,
            _,
            _,
            control_buffer,
            totals_buffer,
            _,
        ] = &self.bound;
        self.queue
            .write_buffer(positions_buffer, 0, bytemuck::cast_slice(positions));
        self.queue
            .write_buffer(control_buffer, 0, bytemuck::cast_slice(&control));
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
        encoder.clear_buffer(totals_buffer, 0, Some(totals_bytes));
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
                pass.set_pipeline(if hashed && level == 0 {
                    &self.kernels.count_roots
                } else {
                    &self.kernels.count
                });
                pass.set_bind_group(0, group(level), &offset(level));
                pass.dispatch_workgroups_indirect(&self.args, args_at(level));
                pass.set_pipeline(&self.kernels.scan);
                pass.set_bind_group(0, group(level), &offset(level));
                pass.set_bind_group(1, &self.args_group, &[]);
                pass.dispatch_workgroups(1, 1, 1);
                pass.set_pipeline(&self.kernels.generate);
                pass.set_bind_group(0, group(level), &offset(level));
                pass.dispatch_workgroups_indirect(&self.args, args_at(level));
            }
            let leaf = match (plies, hashed) {
                (1, _) => &self.kernels.leaf1,
                (_, true) => &self.kernels.leaf2_hashed,
                (_, false) => &self.kernels.leaf2,
            };
            pass.set_pipeline(leaf);
            pass.set_bind_group(0, group(generated), &offset(generated));
            pass.dispatch_workgroups_indirect(&self.args, args_at(generated));
            if hashed && generated > 0 {
                pass.set_pipeline(&self.kernels.store_roots);
                pass.set_bind_group(0, group(0), &offset(0));
                pass.dispatch_workgroups(n.div_ceil(WORKGROUP as u32), 1, 1);
            }
        }
        let readback = &self.readbacks[slot];
        encoder.copy_buffer_to_buffer(control_buffer, 0, readback, 0, CONTROL_BYTES);
        encoder.copy_buffer_to_buffer(totals_buffer, 0, readback, CONTROL_BYTES, totals_bytes);
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
            roots: None,
        }
    }

    /// Waits for a submitted batch and adds its counts to `totals` (`Ok(false)`, adding
    /// nothing, when a level did not fit).
    pub fn finish(&mut self, pending: Pending, totals: &mut [u64]) -> Result<bool, EvalError> {
        if pending.roots.is_none() {
            assert!(pending.origins <= totals.len());
        }
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
        // Probes and hits happen in a batch that overflows too (its roots are run again).
        let c = &mut self.counters;
        let counter = |k: usize| u64::from(words[COUNTER_WORD + k]);
        c.table_root_probes += counter(0);
        c.table_root_hits += counter(1);
        c.table_leaf_probes += counter(2);
        c.table_leaf_hits += counter(3);
        if words[0] != 0 {
            self.counters.overflows += 1;
            return Ok(false);
        }
        let base = CONTROL_BYTES as usize / 4;
        let mut leaves = 0u64;
        for i in 0..pending.origins {
            let n = u64::from(words[base + 2 * i]) | u64::from(words[base + 2 * i + 1]) << 32;
            let o = pending.roots.as_ref().map_or(i, |r| r[i] as usize);
            totals[o] += n;
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
