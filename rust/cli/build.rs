//! Records the commit the binary is built from, for the data it generates (datagen's
//! manifest names its generator), with `-dirty` when the sources that make the binary (`rust/`,
//! `shaders/`, the workspace's `Cargo.toml` and `Cargo.lock`) differ from that commit: a
//! binary built from uncommitted changes must not name the commit before them. Outside a git
//! checkout the commit is "unknown".

use std::process::Command;

/// What the binary is built from, relative to the workspace root.
const SOURCES: [&str; 4] = ["rust", "shaders", "Cargo.toml", "Cargo.lock"];

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(&root)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        None => "unknown".to_string(),
        Some(head) => {
            let mut args = vec!["status", "--porcelain", "--untracked-files=no", "--"];
            args.extend(SOURCES);
            match git(&args) {
                Some(changes) if changes.is_empty() => head,
                _ => format!("{head}-dirty"),
            }
        }
    };
    println!("cargo:rustc-env=SHATRANJ_COMMIT={commit}");
    // Rebuild when HEAD moves (a commit or a checkout) or a source changes. An edit of a Rust
    // file rebuilds this crate anyway (it depends on every other one).
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        println!("cargo:rerun-if-changed={dir}/refs/heads");
        println!("cargo:rerun-if-changed={dir}/packed-refs");
        for source in SOURCES {
            println!("cargo:rerun-if-changed={}", root.join(source).display());
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
