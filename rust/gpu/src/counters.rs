//! What the evaluation context has done, counted the way GPU perft counts it
//! ([`crate::perft::PerftCounters`]): submits, positions per submit, bytes each way, buffers
//! created (all at warm-up), batches in flight, and, where the adapter has timestamp queries,
//! the device's own time for the upload, the kernel and the readback. Tests assert them; the
//! benchmark prints them, and the H200 prediction in benchmarks/RESULTS.md is built on them.

/// Running totals since the context was opened (subtract two snapshots for one call).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalCounters {
    /// Calls of `evaluate` / `evaluate_compact` with at least one position.
    pub calls: u64,
    /// Command buffers submitted: one per chunk.
    pub submits: u64,
    /// Positions scored on the GPU.
    pub positions: u64,
    /// The most positions one submit carried.
    pub max_positions_per_submit: u64,
    /// Bytes the device copied from host memory: 16 bytes of dispatch size and 32 per
    /// position for each submit.
    pub bytes_uploaded: u64,
    /// Bytes read from mapped memory: 4 per score, plus 32 of timestamps per timed submit.
    pub bytes_read_back: u64,
    /// Buffers created, at start-up and when a chunk outgrows its slot: after warm-up with
    /// the largest batch, the count must not change.
    pub buffers_created: u64,
    /// The most chunks submitted and not yet read back at one time.
    pub max_in_flight: u64,
    /// Rayon tasks that packed positions into the upload buffers.
    pub pack_tasks: u64,
    /// Positions with more than 32 pieces (no compact record), scored on the CPU instead
    /// (classical evaluation only; the network's own reference drops such pieces alike).
    pub cpu_positions: u64,
    /// Submits timed by timestamp queries (0 where the adapter has none).
    pub timed_submits: u64,
    /// Device time copying positions from the upload buffer (needs timestamps inside
    /// encoders), in nanoseconds.
    pub upload_ns: u64,
    /// Device time of the compute passes, in nanoseconds.
    pub kernel_ns: u64,
    /// Device time copying scores to the readback buffer (needs timestamps inside encoders).
    pub readback_ns: u64,
}

/// Which timestamp queries the device was opened with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Timestamps {
    /// None: the adapter does not offer `TIMESTAMP_QUERY`.
    Off,
    /// The compute pass's start and end (`TIMESTAMP_QUERY`).
    Kernel,
    /// Also before the upload copy and after the readback copy
    /// (`TIMESTAMP_QUERY_INSIDE_ENCODERS`).
    Full,
}

impl Timestamps {
    /// The best the adapter's `features` allow, and the features to request for it.
    pub fn offered(features: wgpu::Features) -> (Timestamps, wgpu::Features) {
        let kernel = wgpu::Features::TIMESTAMP_QUERY;
        let inside = kernel | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS;
        if features.contains(inside) {
            (Timestamps::Full, inside)
        } else if features.contains(kernel) {
            (Timestamps::Kernel, kernel)
        } else {
            (Timestamps::Off, wgpu::Features::empty())
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Timestamps::Off => "off",
            Timestamps::Kernel => "kernel",
            Timestamps::Full => "full",
        }
    }

    /// The query indices a submit writes, as a range: of 0 (before the upload), 1 and 2
    /// (around the compute pass) and 3 (after the readback copy).
    pub(crate) fn written_queries(self) -> (u32, u32) {
        match self {
            Timestamps::Full => (0, 4),
            _ => (1, 3),
        }
    }

    /// Adds one submit's four raw timestamps (`ticks`, those not written are ignored) at
    /// `period` nanoseconds a tick.
    pub(crate) fn record(self, counters: &mut EvalCounters, ticks: [u64; 4], period: f64) {
        let ns = |a: u64, b: u64| (b.saturating_sub(a) as f64 * period) as u64;
        match self {
            Timestamps::Off => return,
            Timestamps::Kernel => {}
            Timestamps::Full => {
                counters.upload_ns += ns(ticks[0], ticks[1]);
                counters.readback_ns += ns(ticks[2], ticks[3]);
            }
        }
        counters.kernel_ns += ns(ticks[1], ticks[2]);
        counters.timed_submits += 1;
    }
}

impl EvalCounters {
    /// The counts from `before` to `self` (maxima are kept as they are).
    pub fn since(&self, before: &EvalCounters) -> EvalCounters {
        EvalCounters {
            calls: self.calls - before.calls,
            submits: self.submits - before.submits,
            positions: self.positions - before.positions,
            max_positions_per_submit: self.max_positions_per_submit,
            bytes_uploaded: self.bytes_uploaded - before.bytes_uploaded,
            bytes_read_back: self.bytes_read_back - before.bytes_read_back,
            buffers_created: self.buffers_created - before.buffers_created,
            max_in_flight: self.max_in_flight,
            pack_tasks: self.pack_tasks - before.pack_tasks,
            cpu_positions: self.cpu_positions - before.cpu_positions,
            timed_submits: self.timed_submits - before.timed_submits,
            upload_ns: self.upload_ns - before.upload_ns,
            kernel_ns: self.kernel_ns - before.kernel_ns,
            readback_ns: self.readback_ns - before.readback_ns,
        }
    }

    /// One line of JSON fields (no braces), for the benchmark's output.
    pub fn json_fields(&self) -> String {
        format!(
            "\"calls\": {}, \"submits\": {}, \"positions\": {}, \"max_positions_per_submit\": {}, \
             \"bytes_uploaded\": {}, \"bytes_read_back\": {}, \"buffers_created\": {}, \
             \"max_in_flight\": {}, \"pack_tasks\": {}, \"cpu_positions\": {}, \
             \"timed_submits\": {}, \"upload_ns\": {}, \"kernel_ns\": {}, \"readback_ns\": {}",
            self.calls,
            self.submits,
            self.positions,
            self.max_positions_per_submit,
            self.bytes_uploaded,
            self.bytes_read_back,
            self.buffers_created,
            self.max_in_flight,
            self.pack_tasks,
            self.cpu_positions,
            self.timed_submits,
            self.upload_ns,
            self.kernel_ns,
            self.readback_ns
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_follow_the_features_and_add_what_was_written() {
        use wgpu::Features as F;
        assert_eq!(Timestamps::offered(F::empty()).0, Timestamps::Off);
        assert_eq!(
            Timestamps::offered(F::TIMESTAMP_QUERY).0,
            Timestamps::Kernel
        );
        let both = F::TIMESTAMP_QUERY | F::TIMESTAMP_QUERY_INSIDE_ENCODERS;
        assert_eq!(Timestamps::offered(both), (Timestamps::Full, both));
        let mut c = EvalCounters::default();
        Timestamps::Kernel.record(&mut c, [0, 10, 30, 0], 2.0);
        assert_eq!((c.kernel_ns, c.upload_ns, c.timed_submits), (40, 0, 1));
        Timestamps::Full.record(&mut c, [5, 10, 30, 31], 1.0);
        assert_eq!((c.kernel_ns, c.upload_ns, c.readback_ns), (60, 5, 1));
        Timestamps::Off.record(&mut c, [0, 1, 2, 3], 1.0);
        assert_eq!(c.timed_submits, 2);
    }
}
