//! The network file: a 64-byte header and the quantised weights, little-endian.
//!
//! ```text
//! offset size
//!      0    8  magic "SHTRNNUE"
//!      8    2  format version (1)
//!     10    2  architecture: 1, (768 → H) × 2 → 1, SCReLU, perspective inputs;
//!                 2, the same with 8 output layers chosen by piece count (B = 8, else 1);
//!                 3, (K·768 → H) × 2 → B: king-bucketed, horizontally mirrored inputs
//!                    ([`super::inputs`]), K buckets by the map, B output layers (1 or 8)
//!     12    4  H, the hidden size: a multiple of 32 in 32 ..= 2048
//!     16    2  QA (1 ..= 255)
//!     18    2  QB (1 ..= 1024)
//!     20    4  SCALE (1 ..= 4096)
//!     24    4  payload length in bytes: M + 2 · (R·H + H + B·2·H) + B·4
//!     28    4  architectures 1 and 2: reserved, 0; architecture 3: B
//!     32   32  SHA-256 of the payload
//!     64       payload: architecture 3 only, the king-bucket map (M = 32 bytes, the bucket
//!              of each mirrored king square, files a–d, rank 1 first; K = the largest + 1);
//!              W1 (R rows of H i16, row f = input f; R = 768, or K·768 for architecture 3),
//!              b1 (H i16), W2 (B × 2·H i16: per bucket, side to move, then the other
//!              side), b2 (B i32)
//! ```
//!
//! An architecture-1 file is an architecture-2 one with a single bucket, byte for byte
//! apart from the number, so its weights hash the same. Architecture 3 hashes its map with
//! the weights: the same weights read through another map are another network.
//!
//! Anything else is refused with a [`NetError`] that says what is wrong: a wrong magic,
//! version, architecture, size, quantisation, length or hash, and weights whose arithmetic
//! could overflow (see [`super::Network`]). No file gives a panic or a silently wrong score.

use super::{Inputs, KingBuckets, Network, OutputBuckets};
use crate::util::{hex, sha256, write_atomically};
use std::fmt;
use std::path::{Path, PathBuf};

pub const MAGIC: [u8; 8] = *b"SHTRNNUE";
pub const VERSION: u16 = 1;
/// (768 → H) × 2 → 1 with `SCReLU` and perspective inputs.
pub const ARCH_PERSPECTIVE_SCRELU: u16 = 1;
/// The same with eight output layers chosen by piece count ([`OutputBuckets::PieceCount`]).
pub const ARCH_PIECE_COUNT_BUCKETS: u16 = 2;
/// King-bucketed, horizontally mirrored inputs ([`Inputs::KingBuckets`]), 1 or 8 output layers.
pub const ARCH_KING_BUCKETS: u16 = 3;
/// The bytes of architecture 3's king-bucket map.
pub const KING_MAP_BYTES: usize = super::inputs::KING_SQUARES;
pub const HEADER_BYTES: usize = 64;
/// The largest hidden size a file may have.
pub const MAX_HIDDEN: usize = 2048;

/// How float weights became integers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Quantisation {
    /// First layer and its bias are × QA; `SCReLU` clamps at QA.
    pub qa: i32,
    /// Output weights are × QB (the output bias × QA · QB).
    pub qb: i32,
    /// Centipawns per unit of the float network's output.
    pub scale: i32,
}

/// QA 255, QB 128, SCALE 400. QB is 128 rather than the usual 64 because, at 128 hidden, the
/// output weights' rounding is the largest quantisation error: on the gen-2 network's float
/// weights, QB 64 leaves a mean |quantised − float| of 16.9 cp, QB 128 one of 5.1 cp
/// (`benchmarks/nnue_quantisation.py`). The kernels' `v · w` product still fits an i16 for
/// every weight the file admits (|w| ≤ `i16::MAX` / QA).
impl Default for Quantisation {
    fn default() -> Quantisation {
        Quantisation {
            qa: 255,
            qb: 128,
            scale: 400,
        }
    }
}

impl Quantisation {
    /// Whether a file may carry these constants (QA ≤ 255 keeps `SCReLU`'s square within i32).
    pub fn check(&self) -> Result<(), NetError> {
        let ok = (1..=255).contains(&self.qa)
            && (1..=1024).contains(&self.qb)
            && (1..=4096).contains(&self.scale);
        if ok {
            Ok(())
        } else {
            Err(NetError::Quantisation {
                qa: self.qa,
                qb: self.qb,
                scale: self.scale,
            })
        }
    }
}

/// What a network file's header says.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct NetHeader {
    pub hidden: usize,
    pub inputs: Inputs,
    pub buckets: OutputBuckets,
    pub quantisation: Quantisation,
    /// SHA-256 of the payload.
    pub hash: [u8; 32],
}

impl NetHeader {
    /// The architecture number its file stores.
    pub fn architecture(&self) -> u16 {
        match self.inputs {
            Inputs::Plain => self.buckets.architecture(),
            Inputs::KingBuckets(_) => ARCH_KING_BUCKETS,
        }
    }
}

/// Why a network could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// Reading the file failed.
    Io {
        path: PathBuf,
        error: String,
    },
    /// Shorter than the header.
    TooShort {
        length: usize,
    },
    Magic {
        found: [u8; 8],
    },
    Version {
        found: u16,
        supported: u16,
    },
    Architecture {
        found: u16,
    },
    /// Architecture 3's output-layer count is neither 1 nor 8.
    OutputBucketCount {
        found: u32,
    },
    /// Architecture 3's king-bucket map is not a valid one.
    KingBucketMap(String),
    HiddenSize {
        found: usize,
    },
    Quantisation {
        qa: i32,
        qb: i32,
        scale: i32,
    },
    /// The payload length in the header, or the bytes after it, do not match `H`.
    Length {
        expected: usize,
        found: usize,
    },
    /// The weights are not those the header's hash names (a damaged file).
    Hash {
        expected: String,
        found: String,
    },
    /// An array given to build a network has the wrong number of values.
    Shape {
        what: &'static str,
        expected: usize,
        found: usize,
    },
    /// An output weight times QA leaves `i16`.
    OutputWeightRange {
        index: usize,
        weight: i16,
        limit: i32,
    },
    /// A neuron's accumulator could leave `i16` (bias plus its 32 largest weights).
    AccumulatorRange {
        neuron: usize,
        bound: i32,
    },
    /// An `EvalFile` name that is neither a path, `<default>` nor `classical`, or a build
    /// without an embedded network asked for `<default>`.
    Name(String),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            NetError::TooShort { length } => write!(
                f,
                "not a network file: {length} bytes, shorter than the {HEADER_BYTES}-byte header"
            ),
            NetError::Magic { found } => write!(
                f,
                "not a shatranj network file (magic {:?}, expected \"SHTRNNUE\")",
                String::from_utf8_lossy(found)
            ),
            NetError::Version { found, supported } => write!(
                f,
                "network format version {found} is not supported (this build reads {supported})"
            ),
            NetError::Architecture { found } => write!(
                f,
                "network architecture {found} is not supported (this build runs 1: (768->H)x2->1 SCReLU; 2: the same with 8 output buckets by piece count; 3: king-bucketed, mirrored inputs)"
            ),
            NetError::OutputBucketCount { found } => write!(
                f,
                "architecture 3 with {found} output buckets is not supported (1 or 8)"
            ),
            NetError::KingBucketMap(why) => write!(f, "bad king-bucket map: {why}"),
            NetError::HiddenSize { found } => write!(
                f,
                "hidden size {found} is not a multiple of 32 in 32..={MAX_HIDDEN}"
            ),
            NetError::Quantisation { qa, qb, scale } => write!(
                f,
                "quantisation QA {qa}, QB {qb}, SCALE {scale} is out of range (QA 1..=255, QB 1..=1024, SCALE 1..=4096)"
            ),
            NetError::Length { expected, found } => write!(
                f,
                "the weights are {found} bytes, but the hidden size and architecture need {expected}"
            ),
            NetError::Hash { expected, found } => write!(
                f,
                "the weights are damaged: their SHA-256 is {found}, the header says {expected}"
            ),
            NetError::Shape {
                what,
                expected,
                found,
            } => write!(f, "{what}: {found} values, expected {expected}"),
            NetError::OutputWeightRange {
                index,
                weight,
                limit,
            } => write!(
                f,
                "output weight {index} is {weight}: beyond ±{limit}, clamp(acc)·weight would overflow i16"
            ),
            NetError::AccumulatorRange { neuron, bound } => write!(
                f,
                "hidden neuron {neuron} could reach {bound} with 32 pieces: beyond the i16 accumulator"
            ),
            NetError::Name(what) => f.write_str(what),
        }
    }
}

impl std::error::Error for NetError {}

/// The payload's length for hidden size `h`, `inputs` and `buckets`.
pub fn payload_bytes(h: usize, inputs: &Inputs, buckets: OutputBuckets) -> usize {
    let b = buckets.count();
    map_bytes(inputs) + 2 * (inputs.count() * h + h + b * 2 * h) + 4 * b
}

/// The bytes of the king-bucket map at the payload's start (none for plain inputs).
const fn map_bytes(inputs: &Inputs) -> usize {
    match inputs {
        Inputs::Plain => 0,
        Inputs::KingBuckets(_) => KING_MAP_BYTES,
    }
}

pub(crate) fn check_hidden(h: usize) -> Result<(), NetError> {
    if h == 0 || !h.is_multiple_of(32) || h > MAX_HIDDEN {
        Err(NetError::HiddenSize { found: h })
    } else {
        Ok(())
    }
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl Network {
    /// Reads a network from the bytes of a file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER_BYTES {
            return Err(NetError::TooShort {
                length: bytes.len(),
            });
        }
        let mut magic = [0u8; 8];
        magic.copy_from_slice(&bytes[..8]);
        if magic != MAGIC {
            return Err(NetError::Magic { found: magic });
        }
        let version = u16_at(bytes, 8);
        if version != VERSION {
            return Err(NetError::Version {
                found: version,
                supported: VERSION,
            });
        }
        let arch = u16_at(bytes, 10);
        let (king_map, buckets) = if arch == ARCH_KING_BUCKETS {
            let count = u32_at(bytes, 28);
            let buckets = usize::try_from(count)
                .ok()
                .and_then(OutputBuckets::with_count)
                .ok_or(NetError::OutputBucketCount { found: count })?;
            (true, buckets)
        } else {
            let buckets = OutputBuckets::from_architecture(arch)
                .ok_or(NetError::Architecture { found: arch })?;
            (false, buckets)
        };
        let hidden = u32_at(bytes, 12) as usize;
        check_hidden(hidden)?;
        let quantisation = Quantisation {
            qa: i32::from(u16_at(bytes, 16)),
            qb: i32::from(u16_at(bytes, 18)),
            scale: u32_at(bytes, 20).min(i32::MAX as u32) as i32,
        };
        quantisation.check()?;
        let declared = u32_at(bytes, 24) as usize;
        let payload = &bytes[HEADER_BYTES..];
        // The map comes first, so its bucket count (and the payload's size) can be read.
        let inputs = if king_map {
            if payload.len() < KING_MAP_BYTES {
                return Err(NetError::Length {
                    expected: KING_MAP_BYTES,
                    found: payload.len(),
                });
            }
            let mut map = [0u8; KING_MAP_BYTES];
            map.copy_from_slice(&payload[..KING_MAP_BYTES]);
            Inputs::KingBuckets(KingBuckets::new(map).map_err(|e| NetError::KingBucketMap(e.0))?)
        } else {
            Inputs::Plain
        };
        let expected = payload_bytes(hidden, &inputs, buckets);
        for found in [declared, payload.len()] {
            if found != expected {
                return Err(NetError::Length { expected, found });
            }
        }
        let mut hash = [0u8; 32];
        hash.copy_from_slice(&bytes[32..64]);
        let actual = sha256(payload);
        if actual != hash {
            return Err(NetError::Hash {
                expected: hex(&hash),
                found: hex(&actual),
            });
        }
        let b = buckets.count();
        let biases_at = expected - 4 * b;
        let mut words = payload[map_bytes(&inputs)..biases_at]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| -> Vec<i16> { words.by_ref().take(n).collect() };
        let fw = take(inputs.count() * hidden);
        let fb = take(hidden);
        let ow = take(b * 2 * hidden);
        let ob = (0..b)
            .map(|k| u32_at(payload, biases_at + 4 * k) as i32)
            .collect();
        Network::from_parts_with(quantisation, inputs, buckets, fw, fb, ow, ob)
    }

    /// Reads the network file at `path`.
    pub fn load(path: &Path) -> Result<Network, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError::Io {
            path: path.to_path_buf(),
            error: e.to_string(),
        })?;
        Network::from_bytes(&bytes)
    }

    /// The weights as the file stores them (everything after the header).
    pub(crate) fn payload(&self) -> Vec<u8> {
        let h = self.hidden();
        let mut out = Vec::with_capacity(payload_bytes(h, self.inputs(), self.buckets()));
        if let Inputs::KingBuckets(k) = self.inputs() {
            out.extend_from_slice(k.map());
        }
        for w in self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// The bytes of the network's file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = self.payload();
        let q = self.header.quantisation;
        let mut out = Vec::with_capacity(HEADER_BYTES + payload.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.header.architecture().to_le_bytes());
        out.extend_from_slice(&(self.hidden() as u32).to_le_bytes());
        out.extend_from_slice(&(q.qa as u16).to_le_bytes());
        out.extend_from_slice(&(q.qb as u16).to_le_bytes());
        out.extend_from_slice(&(q.scale as u32).to_le_bytes());
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        let reserved = match self.inputs() {
            Inputs::Plain => 0,
            Inputs::KingBuckets(_) => self.buckets().count() as u32,
        };
        out.extend_from_slice(&reserved.to_le_bytes());
        out.extend_from_slice(&self.header.hash);
        out.extend_from_slice(&payload);
        out
    }

    /// Writes the network's file atomically (a temporary file, then a rename).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        write_atomically(path, &self.to_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::tests::{random_network, random_network_inputs, random_network_with};

    #[test]
    fn every_hidden_size_and_architecture_round_trips() {
        for buckets in OutputBuckets::ALL {
            for h in [32, 64, 128, 256, 512] {
                let net = random_network_with(h as u64, h, buckets);
                let bytes = net.to_bytes();
                assert_eq!(
                    bytes.len(),
                    HEADER_BYTES + payload_bytes(h, &Inputs::Plain, buckets)
                );
                assert_eq!(u16_at(&bytes, 10), buckets.architecture());
                let back = Network::from_bytes(&bytes).unwrap();
                assert_eq!(back, net);
                assert_eq!(back.buckets(), buckets);
                assert_eq!(back.output_bias(), net.output_bias());
                assert_eq!(back.hash_hex(), net.hash_hex());
            }
        }
    }

    /// Architecture 3 with every preset map and both output layouts: the map, the input
    /// count and the weights come back; the map is part of the hash.
    #[test]
    fn king_bucket_networks_round_trip() {
        for (k, _) in KingBuckets::PRESETS {
            for buckets in OutputBuckets::ALL {
                let inputs = Inputs::KingBuckets(KingBuckets::preset(k).unwrap());
                let net = random_network_inputs(k as u64, 64, inputs, buckets);
                let bytes = net.to_bytes();
                assert_eq!(
                    bytes.len(),
                    HEADER_BYTES
                        + KING_MAP_BYTES
                        + 2 * (k * 768 * 64 + 64 + buckets.count() * 128)
                        + 4 * buckets.count()
                );
                assert_eq!(u16_at(&bytes, 10), ARCH_KING_BUCKETS);
                assert_eq!(u32_at(&bytes, 28) as usize, buckets.count());
                let back = Network::from_bytes(&bytes).unwrap();
                assert_eq!(back, net);
                assert_eq!((back.inputs(), back.buckets()), (&inputs, buckets));
                assert_eq!(back.feature_weights(), net.feature_weights());
            }
        }
        // The same weights under another map of as many buckets: another network.
        let k2 = KingBuckets::preset(2).unwrap();
        let mut map = *k2.map();
        map.swap(0, 31);
        let other = Inputs::KingBuckets(KingBuckets::new(map).unwrap());
        let a = random_network_inputs(9, 32, Inputs::KingBuckets(k2), OutputBuckets::Single);
        let b = random_network_inputs(9, 32, other, OutputBuckets::Single);
        assert_eq!(a.feature_weights(), b.feature_weights());
        assert_ne!(a.hash_hex(), b.hash_hex());
    }

    /// Damaged architecture-3 headers and maps get their own errors.
    #[test]
    fn bad_king_bucket_files_are_refused() {
        let inputs = Inputs::KingBuckets(KingBuckets::preset(4).unwrap());
        let good = random_network_inputs(3, 32, inputs, OutputBuckets::PieceCount).to_bytes();
        let patched = |at: usize, with: &[u8]| {
            let mut b = good.clone();
            b[at..at + with.len()].copy_from_slice(with);
            Network::from_bytes(&b).unwrap_err().to_string()
        };
        assert!(patched(28, &3u32.to_le_bytes()).contains("3 output buckets"));
        assert!(patched(28, &1u32.to_le_bytes()).contains("bytes"));
        // Bucket 2 unused: the map is refused before its length or hash is looked at.
        let mut map = [0u8; 32];
        map[5] = 1;
        map[6] = 3;
        assert!(patched(HEADER_BYTES, &map).contains("king-bucket map"));
        // A map of 4 read as an architecture-2 file: wrong length.
        assert!(patched(10, &ARCH_PIECE_COUNT_BUCKETS.to_le_bytes()).contains("bytes"));
        let short = Network::from_bytes(&good[..HEADER_BYTES + 10]).unwrap_err();
        assert!(matches!(short, NetError::Length { .. }), "{short}");
    }

    /// A file whose architecture number is changed no longer matches its length: the
    /// number decides how the payload is read, and a mismatch is refused, not misread.
    #[test]
    fn the_architecture_number_decides_the_layout() {
        let single = random_network(2, 32).to_bytes();
        let mut as_bucketed = single.clone();
        as_bucketed[10..12].copy_from_slice(&ARCH_PIECE_COUNT_BUCKETS.to_le_bytes());
        let e = Network::from_bytes(&as_bucketed).unwrap_err();
        assert!(matches!(e, NetError::Length { .. }), "{e}");
    }

    /// Each kind of bad file gets its own error.
    #[test]
    fn bad_files_are_refused_with_what_is_wrong() {
        let good = random_network(1, 32).to_bytes();
        let patch = |at: usize, with: &[u8]| {
            let mut b = good.clone();
            b[at..at + with.len()].copy_from_slice(with);
            Network::from_bytes(&b).unwrap_err()
        };
        let cases: Vec<(NetError, &str)> = vec![
            (Network::from_bytes(&good[..10]).unwrap_err(), "shorter"),
            (patch(0, b"NOTANNET"), "magic"),
            (patch(8, &2u16.to_le_bytes()), "version 2"),
            (patch(10, &9u16.to_le_bytes()), "architecture 9"),
            (patch(10, &0u16.to_le_bytes()), "architecture 0"),
            (patch(12, &33u32.to_le_bytes()), "hidden size 33"),
            (patch(12, &64u32.to_le_bytes()), "bytes"),
            (patch(16, &0u16.to_le_bytes()), "QA 0"),
            (patch(18, &5000u16.to_le_bytes()), "QB 5000"),
            (patch(24, &7u32.to_le_bytes()), "7 bytes"),
            (patch(HEADER_BYTES + 100, &[0x55]), "damaged"),
            (
                Network::from_bytes(&good[..good.len() - 1]).unwrap_err(),
                "bytes",
            ),
            (
                Network::load(Path::new("/nonexistent/net.nnue")).unwrap_err(),
                "/nonexistent/net.nnue",
            ),
        ];
        for (e, needle) in cases {
            let text = e.to_string();
            assert!(text.contains(needle), "{needle:?} not in {text:?}");
        }
    }
}
