//! The name of the commit a binary is built from, as `git` sees the checkout: shared by the
//! build script (which records it for datagen's manifest) and the test that checks the
//! record is never stale.

use std::path::Path;
use std::process::Command;

/// What the binary is built from, relative to the workspace root.
pub const SOURCES: [&str; 4] = ["rust", "shaders", "Cargo.toml", "Cargo.lock"];

/// `git args` run in `root`: its trimmed output, or `None` where git is missing or fails.
pub fn git(root: &Path, args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// HEAD's short hash, with `-dirty` when the sources differ from it; "unknown" outside a
/// git checkout.
pub fn commit_name(root: &Path) -> String {
    let Some(head) = git(root, &["rev-parse", "--short=12", "HEAD"]) else {
        return "unknown".to_string();
    };
    let mut args = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    args.extend(SOURCES);
    match git(root, &args) {
        Some(changes) if changes.is_empty() => head,
        _ => format!("{head}-dirty"),
    }
}
