//! `shatranj.nnue.Network`: a loaded network, its weights as numpy arrays, and the two ways
//! to make one from Python's weights: float weights quantised exactly as the trainer
//! quantises them (`rust/train`'s `Params::quantise`), or weights already quantised.
//!
//! Weights arrive as little-endian bytes (`numpy.ndarray.tobytes`), checked and shaped by
//! `python/shatranj/nnue.py`; this side checks them again, because every network goes
//! through `shatranj_engine::Network::from_parts`, whose range checks guarantee that no
//! position can overflow the integer evaluation.

use crate::errors::{NetworkError, net_error};
use crate::native_array::numpy_array;
use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use shatranj_engine::NetError;
use shatranj_engine::nnue::OutputBuckets;
use shatranj_engine::nnue::file::Quantisation;
use std::path::PathBuf;
use std::sync::Arc;

/// `(W1, b1, W2, b2)` as numpy arrays (`b2` a float when the network has one output layer).
type FloatWeights<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
);

/// A network the engine can evaluate with: pass it as `eval_file=`, save it, or read its
/// weights.
#[pyclass(module = "shatranj._core", frozen, eq)]
#[derive(PartialEq)]
pub struct Network {
    inner: Arc<shatranj_engine::Network>,
}

impl Network {
    pub fn inner(&self) -> &Arc<shatranj_engine::Network> {
        &self.inner
    }

    fn quantisation(&self) -> Quantisation {
        self.inner.header().quantisation
    }

    /// The shape of `W2`: `(2, H)` with one output layer, `(B, 2, H)` with `B` buckets.
    fn output_shape(&self) -> Vec<usize> {
        let h = self.hidden();
        match self.inner.buckets() {
            OutputBuckets::Single => vec![2, h],
            b @ OutputBuckets::PieceCount => vec![b.count(), 2, h],
        }
    }

    /// `b2`, each value mapped by `f`: a number with one output layer, else a `(B,)` array.
    fn biases<'py, T>(&self, py: Python<'py>, f: impl Fn(i32) -> T) -> PyResult<Bound<'py, PyAny>>
    where
        T: crate::native_array::Element + IntoPyObject<'py>,
    {
        let b = self.inner.output_bias();
        match self.inner.buckets() {
            OutputBuckets::Single => f(b[0]).into_bound_py_any(py),
            OutputBuckets::PieceCount => {
                numpy_array(py, b.iter().map(|&v| f(v)).collect(), &[b.len()])
            }
        }
    }
}

impl From<shatranj_engine::Network> for Network {
    fn from(net: shatranj_engine::Network) -> Network {
        Network {
            inner: Arc::new(net),
        }
    }
}

#[pymethods]
impl Network {
    /// Hidden neurons per view.
    #[getter]
    fn hidden(&self) -> usize {
        self.inner.hidden()
    }

    /// The first layer's scale: its weights and biases are the float ones × QA.
    #[getter]
    fn qa(&self) -> i32 {
        self.quantisation().qa
    }

    /// The output weights' scale (the output bias is × QA · QB).
    #[getter]
    fn qb(&self) -> i32 {
        self.quantisation().qb
    }

    /// Centipawns per unit of the float network's output.
    #[getter]
    fn scale(&self) -> i32 {
        self.quantisation().scale
    }

    /// The SHA-256 of the weights, in hex: the network's identity.
    #[getter]
    fn hash(&self) -> String {
        self.inner.hash_hex()
    }

    /// `(768, hidden)` int16, row `f` the weights of feature `f` (a copy); `(K·768, hidden)`
    /// for a network with K king buckets (file architecture 3), bucket after bucket.
    #[getter]
    fn feature_weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let w = self.inner.feature_weights().to_vec();
        numpy_array(py, w, &[self.inner.inputs().count(), self.hidden()])
    }

    /// `(hidden,)` int16 (a copy).
    #[getter]
    fn feature_bias<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        numpy_array(py, self.inner.feature_bias().to_vec(), &[self.hidden()])
    }

    /// Output layers: 1, or 8 chosen by the number of pieces (`(pieces − 2) // 4`).
    #[getter]
    fn buckets(&self) -> usize {
        self.inner.buckets().count()
    }

    /// `(2, hidden)` int16: row 0 weighs the side to move's view, row 1 the other's; with
    /// output buckets `(buckets, 2, hidden)` (a copy).
    #[getter]
    fn output_weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let w = self.inner.output_weights().to_vec();
        numpy_array(py, w, &self.output_shape())
    }

    /// An int; with output buckets a `(buckets,)` int32 array.
    #[getter]
    fn output_bias<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.biases(py, |b| b)
    }

    /// The float weights this network stands for, `(W1, b1, W2, b2)`: the integers divided by
    /// their scales (QA, QA, QB, QA·QB), as float32 arrays and a float (a float32 array with
    /// output buckets). Quantising them again gives this network back (but for an output bias
    /// beyond float32's exact integers).
    fn to_float<'py>(&self, py: Python<'py>) -> PyResult<FloatWeights<'py>> {
        let q = self.quantisation();
        let (qa, qb) = (q.qa as f32, q.qb as f32);
        let scaled =
            |w: &[i16], by: f32| -> Vec<f32> { w.iter().map(|&v| f32::from(v) / by).collect() };
        let h = self.hidden();
        let qab = qa * qb;
        Ok((
            numpy_array(
                py,
                scaled(self.inner.feature_weights(), qa),
                &[self.inner.inputs().count(), h],
            )?,
            numpy_array(py, scaled(self.inner.feature_bias(), qa), &[h])?,
            numpy_array(
                py,
                scaled(self.inner.output_weights(), qb),
                &self.output_shape(),
            )?,
            self.biases(py, |b| b as f32 / qab)?,
        ))
    }

    /// Writes the network file (atomically: a temporary file, then a rename).
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        py.detach(|| self.inner.save(&path))
            .map_err(|e| PyOSError::new_err(format!("cannot write {}: {e}", path.display())))
    }

    /// The bytes of the network's file.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
    }

    /// Pickles as the file's bytes (checked again, hash included, when unpickled).
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let rebuild = crate::py_modules::network_from_bytes(py)?.clone();
        Ok((rebuild, (self.to_bytes(py),)))
    }

    fn __repr__(&self) -> String {
        let q = self.quantisation();
        format!(
            "<shatranj.nnue.Network hidden={} buckets={} hash={} qa={} qb={} scale={}>",
            self.hidden(),
            self.buckets(),
            &self.inner.hash_hex()[..12],
            q.qa,
            q.qb,
            q.scale
        )
    }
}

/// Reads a network file.
#[pyfunction]
pub fn nnue_load_network(py: Python<'_>, path: PathBuf) -> PyResult<Network> {
    py.detach(|| shatranj_engine::Network::load(&path))
        .map(Network::from)
        .map_err(|e| net_error(&e, Some(&path)))
}

/// A network from the bytes of a file.
#[pyfunction]
pub fn nnue_network_from_bytes(py: Python<'_>, data: &[u8]) -> PyResult<Network> {
    py.detach(|| shatranj_engine::Network::from_bytes(data))
        .map(Network::from)
        .map_err(|e| net_error(&e, None))
}

fn quantisation(qa: i64, qb: i64, scale: i64) -> PyResult<Quantisation> {
    let narrow = |name: &str, v: i64| {
        i32::try_from(v).map_err(|_| NetworkError::new_err(format!("{name} {v} is out of range")))
    };
    // The ranges themselves are checked by `Network::from_parts`.
    Ok(Quantisation {
        qa: narrow("qa", qa)?,
        qb: narrow("qb", qb)?,
        scale: narrow("scale", scale)?,
    })
}

/// Little-endian values of `N` bytes each.
fn words<const N: usize>(name: &str, bytes: &[u8]) -> PyResult<impl Iterator<Item = [u8; N]>> {
    if !bytes.len().is_multiple_of(N) {
        return Err(NetworkError::new_err(format!(
            "{name}: {} bytes is not a whole number of {N}-byte values",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(N)
        .map(|c| <[u8; N]>::try_from(c).expect("chunks_exact gives N bytes")))
}

/// Float weights × `by`, rounded and saturated to i16: `Params::quantise`'s rule, in f32 as
/// there. A NaN or infinity is refused (the trainer never makes one; a cast would turn it
/// into 0 or ±32767 without a word).
fn quantised(name: &str, bytes: &[u8], hidden: usize, by: f32) -> PyResult<Vec<i16>> {
    let mut out = Vec::with_capacity(bytes.len() / 4);
    for (i, w) in words::<4>(name, bytes)?.enumerate() {
        let v = f32::from_le_bytes(w);
        if !v.is_finite() {
            let at = if name.ends_with("bias") {
                format!("[{i}]")
            } else {
                format!("[{}, {}]", i / hidden.max(1), i % hidden.max(1))
            };
            return Err(NetworkError::new_err(format!("{name}{at} is {v}")));
        }
        out.push(
            (v * by)
                .round()
                .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16,
        );
    }
    Ok(out)
}

/// Builds the network; `range_hint` is added to a range error (a weight too large for the
/// integer arithmetic), to say how the float weights became these integers.
fn build(
    py: Python<'_>,
    q: Quantisation,
    parts: (Vec<i16>, Vec<i16>, Vec<i16>, Vec<i32>),
    range_hint: &str,
) -> PyResult<Network> {
    let (fw, fb, ow, ob) = parts;
    let buckets = OutputBuckets::with_count(ob.len()).ok_or_else(|| {
        NetworkError::new_err(format!(
            "{} output biases: a network has 1 output layer or 8 (one per piece-count bucket)",
            ob.len()
        ))
    })?;
    py.detach(|| shatranj_engine::Network::from_parts(q, buckets, fw, fb, ow, ob))
        .map(Network::from)
        .map_err(|e| match e {
            NetError::OutputWeightRange { .. } | NetError::AccumulatorRange { .. } => {
                NetworkError::new_err(format!("{e}{range_hint}"))
            }
            _ => net_error(&e, None),
        })
}

/// A network from float weights (`W1` 768·H, `b1` H, `W2` B·2·H as float32 bytes, `b2` one
/// float per output bucket B), quantised as the trainer quantises: `W1, b1 × QA`, `W2 × QB`,
/// `b2 × QA · QB`, rounded.
#[pyfunction]
#[pyo3(signature = (feature_weights, feature_bias, output_weights, output_bias, qa, qb, scale))]
#[allow(clippy::too_many_arguments)]
pub fn nnue_quantise(
    py: Python<'_>,
    feature_weights: &[u8],
    feature_bias: &[u8],
    output_weights: &[u8],
    output_bias: Vec<f64>,
    qa: i64,
    qb: i64,
    scale: i64,
) -> PyResult<Network> {
    let q = quantisation(qa, qb, scale)?;
    let hidden = feature_bias.len() / 4;
    let (fa, fb) = (q.qa as f32, q.qb as f32);
    let fw = quantised("feature_weights", feature_weights, hidden, fa)?;
    let bias = quantised("feature_bias", feature_bias, hidden, fa)?;
    let ow = quantised("output_weights", output_weights, hidden, fb)?;
    let mut ob = Vec::with_capacity(output_bias.len());
    for &b in &output_bias {
        let b2 = b as f32;
        if !b2.is_finite() {
            return Err(NetworkError::new_err(format!("output_bias is {b}")));
        }
        // `as i32` saturates, as in `Params::quantise`.
        ob.push((b2 * fa * fb).round() as i32);
    }
    let hint = format!(
        " (quantised with QA {}, QB {}: float feature weights and biases × QA, output weights \
         × QB; the trainer clips every float weight to ±1.98, which passes at the default QA and QB)",
        q.qa, q.qb
    );
    build(py, q, (fw, bias, ow, ob), &hint)
}

/// A network from weights already quantised (int16 bytes, and the int32 output biases).
#[pyfunction]
#[pyo3(signature = (feature_weights, feature_bias, output_weights, output_bias, qa, qb, scale))]
#[allow(clippy::too_many_arguments)]
pub fn nnue_from_quantised(
    py: Python<'_>,
    feature_weights: &[u8],
    feature_bias: &[u8],
    output_weights: &[u8],
    output_bias: Vec<i64>,
    qa: i64,
    qb: i64,
    scale: i64,
) -> PyResult<Network> {
    let q = quantisation(qa, qb, scale)?;
    let ints = |name: &str, bytes: &[u8]| -> PyResult<Vec<i16>> {
        Ok(words::<2>(name, bytes)?.map(i16::from_le_bytes).collect())
    };
    let ob = output_bias
        .iter()
        .map(|&b| {
            i32::try_from(b)
                .map_err(|_| NetworkError::new_err(format!("output_bias {b} does not fit int32")))
        })
        .collect::<PyResult<Vec<i32>>>()?;
    let parts = (
        ints("feature_weights", feature_weights)?,
        ints("feature_bias", feature_bias)?,
        ints("output_weights", output_weights)?,
        ob,
    );
    build(py, q, parts, "")
}
