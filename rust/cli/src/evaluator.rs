//! The one place the CLI opens a batch back end, and names the evaluation a command runs.

use shatranj_engine::{BatchEvaluator, Device, EvalError, Evaluation};
use std::sync::Arc;

pub fn open_evaluator(
    device: Device,
    evaluation: &Evaluation,
) -> Result<Arc<dyn BatchEvaluator>, EvalError> {
    shatranj_gpu::open_for(device, evaluation)
}

/// The `--eval-file` help of every command that searches. A plain string rather than a doc
/// comment on each field: rustdoc would read `<default>` as an unclosed HTML tag.
pub const EVAL_FILE_HELP: &str =
    "The evaluation: a network file, <default> (the built-in network) or classical";
