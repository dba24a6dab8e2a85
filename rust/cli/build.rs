//! Records the commit the binary is built from, for the data it generates (datagen's
//! manifest names its generator), with `-dirty` when the sources that make the binary (`rust/`,
//! `shaders/`, the workspace's `Cargo.toml` and `Cargo.lock`) differ from that commit: a
//! binary built from uncommitted changes must not name the commit before them. Outside a git
//! checkout the commit is "unknown".

#[path = "src/source_state.rs"]
mod source_state;

use source_state::{SOURCES, commit_name, git};

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    println!("cargo:rustc-env=SHATRANJ_COMMIT={}", commit_name(&root));
    // Rebuild when HEAD moves (a commit or a checkout) or a source changes. An edit of a Rust
    // file rebuilds this crate anyway (it depends on every other one).
    if let Some(dir) = git(&root, &["rev-parse", "--absolute-git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        println!("cargo:rerun-if-changed={dir}/refs/heads");
        println!("cargo:rerun-if-changed={dir}/packed-refs");
        for source in SOURCES {
            println!("cargo:rerun-if-changed={}", root.join(source).display());
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
