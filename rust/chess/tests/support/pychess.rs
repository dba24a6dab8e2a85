//! Finding python-chess for the differential tests (`python_chess.rs`, `setup_python_chess.rs`)
//! and running their reference scripts.
//!
//! The interpreter is `$SHATRANJ_PYTHON`, else the repository's `.venv/bin/python` if it exists
//! (scripts/test creates it with python-chess), else `python3`. Without python-chess a test
//! fails, unless `SHATRANJ_NO_PYCHESS=1`.
//!
//! Included with `#[path = "support/pychess.rs"] mod pychess;`.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

const VENV_PYTHON: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../.venv/bin/python");

pub fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("SHATRANJ_PYTHON") {
        return p.into();
    }
    let venv = PathBuf::from(VENV_PYTHON);
    if venv.is_file() {
        venv
    } else {
        PathBuf::from("python3")
    }
}

pub fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().map_or(default, |s| {
        s.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={s:?} is not a number"))
    })
}

/// The python-chess version, or why it cannot be used.
pub fn pychess_version(python: &PathBuf) -> Result<String, String> {
    let out = Command::new(python)
        .args([
            "-c",
            "import chess, chess.polyglot; print(chess.__version__)",
        ])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} cannot import chess (python-chess): {}",
            python.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The python-chess version, or `None` where the test is to be skipped
/// (`SHATRANJ_NO_PYCHESS=1`); panics with how to install it otherwise.
pub fn require_pychess(python: &PathBuf) -> Option<String> {
    match pychess_version(python) {
        Ok(v) => Some(v),
        Err(e) => {
            if std::env::var("SHATRANJ_NO_PYCHESS").as_deref() == Ok("1") {
                println!("{e}; skipped because SHATRANJ_NO_PYCHESS=1");
                return None;
            }
            panic!(
                "{e}\nInstall python-chess (python3 -m venv .venv && .venv/bin/pip install chess), point \
                 SHATRANJ_PYTHON at an interpreter that has it, or set SHATRANJ_NO_PYCHESS=1 to skip this test."
            );
        }
    }
}

/// Runs a reference script and returns its standard output.
pub fn run_script(python: &PathBuf, script: &str, args: &[String]) -> String {
    let out = Command::new(python)
        .arg(script)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {script}: {e}"));
    assert!(
        out.status.success(),
        "{script} failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("script output is not UTF-8")
}
