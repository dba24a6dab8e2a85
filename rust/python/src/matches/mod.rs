//! `shatranj.match`'s native half, over the match crate: a match played by its runner
//! (`run.rs`), a tournament dealt to a Ray cluster (`plan.rs`) and its statistics
//! (`stats.rs`). A folder named for matches, since `match` is a keyword.

pub mod plan;
pub mod run;
pub mod stats;
