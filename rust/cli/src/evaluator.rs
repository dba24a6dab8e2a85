//! The one place the CLI opens a batch back end. A build with the GPU crate replaces the
//! body with `shatranj_gpu::open`; until then `gpu` is a clear error.

use shatranj_engine::{BatchEvaluator, Device, EvalError};
use std::sync::Arc;

pub fn open_evaluator(device: Device) -> Result<Arc<dyn BatchEvaluator>, EvalError> {
    shatranj_engine::cpu_only_evaluator(device)
}
