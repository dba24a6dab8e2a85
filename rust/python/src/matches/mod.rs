//! `shatranj.match`'s native half, over the match crate: a match played by its runner
//! (`run.rs`) and its statistics (`stats.rs`). A folder named for matches, since `match` is
//! a keyword.

pub mod run;
pub mod stats;
