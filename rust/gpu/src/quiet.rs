//! Keeps GPU drivers' noise off the user's terminal.
//!
//! Opening a Vulkan instance on a machine without a display makes Mesa's window-system code
//! (libwayland) print `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` to
//! stderr, once per device probed, though headless compute needs no display at all. The
//! driver writes to file descriptor 2 directly, so [`quietly`] points descriptor 2 at a pipe
//! while the GPU is opened, drains it on a thread, and afterwards writes back everything but
//! the known noise: nothing else printed meanwhile (by this process's other threads too) is
//! lost, only delayed.

/// Lines drivers print that say nothing to a user of headless compute.
const NOISE: &[&str] = &["XDG_RUNTIME_DIR is invalid or not set"];

/// Runs `f` with the drivers' known noise on stderr filtered out.
pub fn quietly<T>(f: impl FnOnce() -> T) -> T {
    #[cfg(unix)]
    {
        unix::quietly(f)
    }
    #[cfg(not(unix))]
    {
        f()
    }
}

/// What of `captured` to write back: every line but the noise.
fn keep(captured: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(captured.len());
    for line in captured.split_inclusive(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(line);
        if !NOISE.iter().any(|n| text.contains(n)) {
            out.extend_from_slice(line);
        }
    }
    out
}

#[cfg(unix)]
mod unix {
    use std::io::{Read, Write};
    use std::os::fd::{FromRawFd, RawFd};
    use std::sync::Mutex;

    /// One redirection at a time: descriptor 2 is process-wide.
    static LOCK: Mutex<()> = Mutex::new(());

    pub fn quietly<T>(f: impl FnOnce() -> T) -> T {
        let _guard = LOCK
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let _ = std::io::stderr().flush();
        let mut fds: [RawFd; 2] = [-1, -1];
        // SAFETY: plain POSIX calls on descriptors this function owns; every failure leaves
        // descriptor 2 as it was and just runs `f` unfiltered.
        let saved = unsafe { libc::dup(2) };
        // SAFETY: `fds` is a live array of the two descriptors `pipe` writes.
        if saved < 0 || unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
            if saved >= 0 {
                // SAFETY: `saved` is the descriptor `dup` just opened for us; nothing else holds it.
                unsafe { libc::close(saved) };
            }
            return f();
        }
        let [read_end, write_end] = fds;
        // SAFETY: both descriptors are open; on failure descriptor 2 is unchanged.
        if unsafe { libc::dup2(write_end, 2) } < 0 {
            // SAFETY: the three descriptors were opened above by this function and are closed once.
            unsafe {
                libc::close(read_end);
                libc::close(write_end);
                libc::close(saved);
            }
            return f();
        }
        // SAFETY: descriptor 2 now holds the pipe's write end; this copy is ours to close.
        unsafe { libc::close(write_end) };
        // SAFETY: `read_end` is ours and open; the File owns and closes it.
        let mut reader = unsafe { std::fs::File::from_raw_fd(read_end) };
        let drain = std::thread::spawn(move || {
            let mut captured = Vec::new();
            let _ = reader.read_to_end(&mut captured);
            captured
        });
        let value = f();
        // Descriptor 2 back: the pipe's last writer closes, so the drain thread finishes.
        // SAFETY: `saved` is the open copy of the original descriptor 2, closed once here.
        unsafe {
            libc::dup2(saved, 2);
            libc::close(saved);
        }
        let captured = drain.join().unwrap_or_default();
        let _ = std::io::stderr().write_all(&super::keep(&captured));
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_noise_is_dropped() {
        let text =
            b"error: XDG_RUNTIME_DIR is invalid or not set in the environment.\nreal warning\n\
                     error: XDG_RUNTIME_DIR is invalid or not set in the environment.\nlast";
        assert_eq!(keep(text), b"real warning\nlast".to_vec());
    }

    #[test]
    fn what_runs_inside_returns_its_value() {
        assert_eq!(quietly(|| 41 + 1), 42);
    }
}
