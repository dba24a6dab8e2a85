//! The one place the CLI opens a batch back end.

use shatranj_engine::{BatchEvaluator, Device, EvalError, Evaluation};
use std::sync::Arc;

pub fn open_evaluator(
    device: Device,
    evaluation: &Evaluation,
) -> Result<Arc<dyn BatchEvaluator>, EvalError> {
    shatranj_gpu::open_for(device, evaluation)
}
