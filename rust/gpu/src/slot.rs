//! One set of buffers a chunk of positions travels through, and the state of its upload
//! buffer's mapping.
//!
//! | buffer    | usage                 | bytes                     | holds                              |
//! |-----------|-----------------------|---------------------------|------------------------------------|
//! | `staging` | `MAP_WRITE, COPY_SRC` | 16 + 32·capacity          | dispatch size, then the records    |
//! | `uniform` | `UNIFORM, COPY_DST`   | 16                        | the shader's `Batch`               |
//! | `input`   | `STORAGE, COPY_DST`   | 32·capacity               | compact records                    |
//! | `output`  | `STORAGE, COPY_SRC`   | 4·capacity                | scores                             |
//! | `readback`| `MAP_READ, COPY_DST`  | 32 + 4·capacity           | four timestamps, then the scores   |
//! | `resolve` | `QUERY_RESOLVE, COPY_SRC` | 32 (with timestamps)  | the resolved timestamps            |
//!
//! The host packs positions straight into the mapped `staging` buffer; one command buffer
//! copies it to `uniform` and `input`, runs the shader, and copies the scores (and the
//! timestamps) to `readback`. Every upload goes through `staging`, which the context owns:
//! `Queue::write_buffer` would allocate a fresh staging buffer of the batch's size per call.
//! After the submit, `staging` is mapped again for its next chunk (the mapping completes when
//! the GPU has copied out of it), so packing the next chunk into another slot never waits.

use shatranj_engine::eval::EvalError;
use std::sync::mpsc;

/// Bytes of the dispatch size at the head of `staging` (`count`, `row`, two words of padding).
pub const UNIFORM_BYTES: u64 = 16;
/// Bytes of the timestamps at the head of `readback` (four `u64` ticks).
pub const TIMESTAMP_BYTES: u64 = 32;
/// Bytes of one score.
pub const SCORE_BYTES: u64 = 4;

pub type MapResult = mpsc::Receiver<Result<(), wgpu::BufferAsyncError>>;

/// Where the upload buffer's mapping stands.
pub enum Staging {
    /// Mapped: the host may write.
    Mapped,
    /// A mapping was requested after the last submit; it completes once the GPU has copied.
    Pending(MapResult),
    /// Unmapped with no request (after a failed call).
    Unmapped,
}

pub struct Slot {
    /// Positions the buffers hold.
    pub capacity: usize,
    pub staging: wgpu::Buffer,
    pub staging_state: Staging,
    pub uniform: wgpu::Buffer,
    pub input: wgpu::Buffer,
    pub output: wgpu::Buffer,
    pub readback: wgpu::Buffer,
    /// Four timestamp queries and the buffer they resolve into, where the device has them.
    pub queries: Option<(wgpu::QuerySet, wgpu::Buffer)>,
    pub bind_group: wgpu::BindGroup,
    /// The submit that last used the slot.
    pub last_submission: Option<wgpu::SubmissionIndex>,
}

/// What a slot is made from.
pub struct SlotLayout<'a> {
    pub device: &'a wgpu::Device,
    pub layout: &'a wgpu::BindGroupLayout,
    pub params: &'a wgpu::Buffer,
    pub record_bytes: u64,
    pub timestamps: bool,
}

impl Slot {
    /// A slot for `capacity` positions; `created` counts the buffers made.
    pub fn new(l: &SlotLayout<'_>, capacity: usize, created: &mut u64) -> Slot {
        use wgpu::BufferUsages as U;
        let n = capacity as u64;
        let mut buffer = |label, size, usage, mapped_at_creation| {
            *created += 1;
            l.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation,
            })
        };
        let staging = buffer(
            "eval upload",
            UNIFORM_BYTES + n * l.record_bytes,
            U::MAP_WRITE | U::COPY_SRC,
            true,
        );
        let uniform = buffer("eval batch", UNIFORM_BYTES, U::UNIFORM | U::COPY_DST, false);
        let input = buffer(
            "eval positions",
            n * l.record_bytes,
            U::STORAGE | U::COPY_DST,
            false,
        );
        let output = buffer(
            "eval scores",
            n * SCORE_BYTES,
            U::STORAGE | U::COPY_SRC,
            false,
        );
        let readback = buffer(
            "eval readback",
            TIMESTAMP_BYTES + n * SCORE_BYTES,
            U::MAP_READ | U::COPY_DST,
            false,
        );
        let queries = l.timestamps.then(|| {
            let set = l.device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("eval timestamps"),
                ty: wgpu::QueryType::Timestamp,
                count: 4,
            });
            let resolve = buffer(
                "eval timestamps",
                TIMESTAMP_BYTES,
                U::QUERY_RESOLVE | U::COPY_SRC,
                false,
            );
            (set, resolve)
        });
        let bind_group = l.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("eval bind group"),
            layout: l.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: l.params.as_entire_binding(),
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
            staging,
            staging_state: Staging::Mapped,
            uniform,
            input,
            output,
            readback,
            queries,
            bind_group,
            last_submission: None,
        }
    }

    /// Asks for the upload buffer to be mapped again (after a submit, or a failure).
    pub fn request_staging(&mut self) {
        let (tx, rx) = mpsc::channel();
        self.staging.map_async(wgpu::MapMode::Write, .., move |r| {
            // The receiver outlives the mapping unless the context is gone.
            let _ = tx.send(r);
        });
        self.staging_state = Staging::Pending(rx);
    }

    /// Waits until the upload buffer is mapped: at once when it is, else after the GPU has
    /// copied out of it (its last submit) and `device` has run the mapping's callback.
    pub fn wait_for_staging(&mut self, device: &wgpu::Device) -> Result<(), EvalError> {
        if let Staging::Unmapped = self.staging_state {
            self.request_staging();
        }
        let Staging::Pending(rx) = &self.staging_state else {
            return Ok(());
        };
        let mut result = rx.try_recv().ok();
        if result.is_none() {
            let wait = match &self.last_submission {
                Some(s) => wgpu::PollType::Wait {
                    submission_index: Some(s.clone()),
                    timeout: Some(crate::context::CHUNK_TIMEOUT),
                },
                None => wgpu::PollType::Poll,
            };
            device
                .poll(wait)
                .map_err(|e| EvalError::Backend(format!("waiting for the GPU: {e}")))?;
            result = rx.try_recv().ok();
        }
        if result.is_none() {
            // The copy is done; the callback runs on the next poll at the latest.
            let _ = device.poll(wgpu::PollType::Poll);
            result = rx.try_recv().ok();
        }
        match result {
            Some(Ok(())) => {
                self.staging_state = Staging::Mapped;
                Ok(())
            }
            Some(Err(e)) => {
                self.staging_state = Staging::Unmapped;
                Err(EvalError::Backend(format!(
                    "mapping the upload buffer: {e}"
                )))
            }
            None => Err(EvalError::Backend(
                "the upload buffer was never mapped again".into(),
            )),
        }
    }
}
