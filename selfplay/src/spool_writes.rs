//! Writes to a worker's spool that wait out a full disk.
//!
//! A finished game with nowhere to be written is wasted work, and a worker that ended on the
//! first failed write would leave its games to the next start. So a failed write pauses
//! self-play: the worker says so once, with the spool's path and what it keeps there, tries
//! again with backoff, and says when it resumes. The games already in the spool stay there
//! untouched ([`koma_store::Spool::append`] cuts a half-written record back).

use koma_store::backoff::{sleep_unless, Backoff};
use koma_store::StoreError;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Runs `op` (a write to the spool under `dir`) until it succeeds; `None` if `stop` is set
/// while it fails.
pub fn until_written<T>(
    worker: &str,
    dir: &Path,
    stop: &AtomicBool,
    mut op: impl FnMut() -> Result<T, StoreError>,
) -> Option<T> {
    let mut wait = Backoff::new(Duration::from_secs(1), Duration::from_secs(10));
    let mut since = None;
    loop {
        match op() {
            Ok(v) => {
                if let Some(t) = since {
                    tracing::info!(
                        "worker {worker}: the spool {} takes writes again after {:.0} s; self-play resumes",
                        dir.display(),
                        Instant::elapsed(&t).as_secs_f64()
                    );
                }
                return Some(v);
            }
            Err(e) => {
                let d = wait.fail();
                if since.is_none() {
                    since = Some(Instant::now());
                    tracing::error!(
                        "worker {worker}: cannot write to the spool {} ({e}); self-play pauses \
                         until it can (free space there), and the games already in it are kept",
                        dir.display()
                    );
                } else {
                    tracing::warn!(
                        "worker {worker}: the spool still cannot be written ({e}); next try in {} s",
                        d.as_secs()
                    );
                }
                if !sleep_unless(stop, d) {
                    return None;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn waits_for_the_write_and_gives_up_only_when_stopped() {
        let stop = AtomicBool::new(false);
        let mut tries = 0;
        let full = || StoreError::Io {
            path: "spool/w/open-0000000000.journal".into(),
            source: std::io::Error::from_raw_os_error(28),
        };
        let got = until_written("w", Path::new("spool"), &stop, || {
            tries += 1;
            if tries < 3 {
                Err(full())
            } else {
                Ok(tries)
            }
        });
        assert_eq!(got, Some(3));
        stop.store(true, Ordering::Relaxed);
        let never: Option<()> = until_written("w", Path::new("spool"), &stop, || Err(full()));
        assert_eq!(never, None);
    }
}
