//! The one worker pool every batch of games runs on: self-play matches and data generation.
//!
//! Jobs `0 .. jobs` are handed out in order from an atomic cursor to `workers` scoped
//! threads (`{name}-{slot}`). Each job plays one game on a fresh engine and hands the engine's
//! stop handle to the pool, so a stop (Ctrl-C, or a failure the caller reports) halts the
//! cursor *and* cuts short every search under way. Results reach the caller on the calling
//! thread, in the order they finish, so the caller's bookkeeping (collecting records, writing
//! shards) needs no lock; a panicking game thread is reported as a typed error after every
//! thread has been joined.

use crate::engine::StopHandle;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

/// The caller hears [`Event::Tick`] at least this often (and after every result).
pub const TICK: Duration = Duration::from_millis(50);

/// What the pool tells its caller, on the caller's thread.
#[derive(Debug, PartialEq, Eq)]
pub enum Event<R, E> {
    /// A game finished (`Ok`) or a worker failed (`Err`; that worker stops).
    Finished(Result<R, E>),
    /// Time to report progress: after every result and at least every [`TICK`].
    Tick,
}

/// Whether the pool goes on after a result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// Start no more jobs and stop the searches under way (their games are dropped).
    Halt,
}

/// A game thread panicked or could not start (a bug or an exhausted system, never bad input);
/// the text says which.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerFailed(pub String);

/// Runs jobs `0 .. jobs` on `workers` threads (at most one per job, at least one).
///
/// `play(job, halt, register)` plays one game: it must pass its engine's stop handle to
/// `register`, stop between moves once `halt` is set, and return `Ok(None)` for a game it
/// abandoned. An `Err` ends that worker. `on_event` hears every `Ok(Some(_))` and every `Err`
/// on this thread, and ticks for progress; it may halt the pool. `stop` (from outside) halts
/// the pool as well.
pub fn run_indexed<R: Send, E: Send>(
    jobs: u64,
    workers: usize,
    name: &str,
    stop: &AtomicBool,
    play: impl Fn(u64, &AtomicBool, &dyn Fn(StopHandle)) -> Result<Option<R>, E> + Sync,
    mut on_event: impl FnMut(Event<R, E>) -> Flow,
) -> Result<(), WorkerFailed> {
    let workers = workers
        .min(usize::try_from(jobs).unwrap_or(usize::MAX))
        .max(1);
    let cursor = AtomicU64::new(0);
    let halt = AtomicBool::new(false);
    let engines: Mutex<Vec<Option<StopHandle>>> = Mutex::new(vec![None; workers]);
    let (send, receive) = mpsc::channel::<Result<R, E>>();

    let worker = |slot: usize, send: mpsc::Sender<Result<R, E>>| loop {
        let job = cursor.fetch_add(1, Ordering::Relaxed);
        if job >= jobs || halt.load(Ordering::Relaxed) {
            break;
        }
        let register = |h: StopHandle| {
            engines
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)[slot] = Some(h);
        };
        match play(job, &halt, &register) {
            Ok(Some(r)) => {
                if send.send(Ok(r)).is_err() {
                    break;
                }
            }
            Ok(None) => {}
            Err(e) => {
                let _ = send.send(Err(e));
                break;
            }
        }
    };

    let failed = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|slot| {
                let send = send.clone();
                let worker = &worker;
                std::thread::Builder::new()
                    .name(format!("{name}-{slot}"))
                    .spawn_scoped(s, move || worker(slot, send))
            })
            .collect();
        drop(send);
        let mut last = Instant::now();
        let (mut halting, mut halted) = (false, false);
        loop {
            if !halted && (halting || stop.load(Ordering::Relaxed)) {
                halted = true;
                halt.store(true, Ordering::Relaxed);
                let e = engines
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                for h in e.iter().flatten() {
                    h.stop();
                }
            }
            let mut news = false;
            match receive.recv_timeout(Duration::from_millis(5)) {
                Ok(result) => {
                    news = true;
                    halting |= on_event(Event::Finished(result)) == Flow::Halt;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if news || last.elapsed() >= TICK {
                last = Instant::now();
                halting |= on_event(Event::Tick) == Flow::Halt;
            }
        }
        let mut failed = None;
        for h in handles {
            match h {
                Ok(h) => {
                    if h.join().is_err() {
                        failed = Some("a game thread panicked".to_string());
                    }
                }
                Err(e) => failed = Some(format!("cannot start a game thread: {e}")),
            }
        }
        failed
    });
    failed.map_or(Ok(()), |what| Err(WorkerFailed(what)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_job_runs_once_and_a_halt_starts_no_more() {
        let stop = AtomicBool::new(false);
        let mut seen = Vec::new();
        let r = run_indexed(
            20,
            3,
            "pool-test",
            &stop,
            |job, _, _| Ok::<_, ()>(Some(job)),
            |e| {
                if let Event::Finished(r) = e {
                    seen.push(r.unwrap());
                }
                Flow::Continue
            },
        );
        assert_eq!(r, Ok(()));
        seen.sort_unstable();
        assert_eq!(seen, (0..20).collect::<Vec<u64>>());

        // One worker: job 3's result halts the pool. Job 4 starts only if the worker fetched
        // it before the caller's thread set the halt (a race the scheduler decides); if it did,
        // it waits for the halt, and its result is still reported. Either way no job after 4
        // starts, and every job started is reported.
        let started = AtomicU64::new(0);
        let mut results = 0;
        let r = run_indexed(
            1000,
            1,
            "pool-test",
            &stop,
            |job, halt, _| {
                started.fetch_add(1, Ordering::Relaxed);
                while job == 4 && !halt.load(Ordering::Relaxed) {
                    std::thread::yield_now();
                }
                Ok::<_, ()>(Some(job))
            },
            |e| match e {
                Event::Finished(r) => {
                    results += 1;
                    if r == Ok(3) {
                        Flow::Halt
                    } else {
                        Flow::Continue
                    }
                }
                Event::Tick => Flow::Continue,
            },
        );
        assert_eq!(r, Ok(()));
        let started = started.load(Ordering::Relaxed);
        assert!(
            (4..=5).contains(&started),
            "jobs 0-3 run, job 4 at most, no sixth starts: {started} started"
        );
        assert_eq!(results, started, "every job started is reported");
    }

    #[test]
    fn an_error_reaches_the_caller_and_a_panic_is_reported() {
        let stop = AtomicBool::new(false);
        let mut errors = 0;
        let r = run_indexed(
            5,
            2,
            "pool-test",
            &stop,
            |job, _, _| if job == 2 { Err("bad") } else { Ok(None::<()>) },
            // Halting on a tick could stop the pool before job 2 starts (on a loaded machine
            // the first tick can come before any worker runs): halt on the error itself.
            |e| {
                errors += usize::from(e == Event::Finished(Err("bad")));
                if errors > 0 {
                    Flow::Halt
                } else {
                    Flow::Continue
                }
            },
        );
        assert_eq!((r, errors), (Ok(()), 1));
        let r = run_indexed(
            2,
            2,
            "pool-test",
            &stop,
            |job, _, _| -> Result<Option<()>, ()> {
                assert!(job != 1, "job 1 fails on purpose");
                Ok(None)
            },
            |_| Flow::Continue,
        );
        assert_eq!(r, Err(WorkerFailed("a game thread panicked".into())));
    }
}
