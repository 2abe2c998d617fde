//! Waiting out an unreachable store: exponential backoff between tries, capped, so that an
//! outage stalls the work that needs the store and is logged, but never ends a process.

use crate::error::StoreError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Delays between tries: `first`, doubling up to `max`.
#[derive(Debug, Clone)]
pub struct Backoff {
    first: Duration,
    max: Duration,
    next: Duration,
    failures: u32,
    until: Option<Instant>,
}

impl Backoff {
    /// A backoff from `first` to `max`.
    pub fn new(first: Duration, max: Duration) -> Backoff {
        Backoff {
            first,
            max,
            next: first,
            failures: 0,
            until: None,
        }
    }

    /// The store's usual policy: 1 s, doubling to 30 s.
    pub fn store() -> Backoff {
        Backoff::new(Duration::from_secs(1), Duration::from_secs(30))
    }

    /// Records a failure; returns how long to wait before the next try.
    pub fn fail(&mut self) -> Duration {
        let d = self.next;
        self.next = (self.next * 2).min(self.max);
        self.failures += 1;
        self.until = Some(Instant::now() + d);
        d
    }

    /// Records a success: the next failure waits `first` again.
    pub fn succeed(&mut self) {
        self.next = self.first;
        self.failures = 0;
        self.until = None;
    }

    /// Failures since the last success.
    pub fn failures(&self) -> u32 {
        self.failures
    }

    /// Whether the wait after the last failure is over (callers that poll use this instead of
    /// sleeping).
    pub fn ready(&self) -> bool {
        self.until.is_none_or(|u| Instant::now() >= u)
    }
}

/// Sleeps `d` in short slices; returns false if `stop` was set meanwhile.
pub fn sleep_unless(stop: &AtomicBool, d: Duration) -> bool {
    let end = Instant::now() + d;
    while Instant::now() < end {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(100).min(end - Instant::now()));
    }
    !stop.load(Ordering::Relaxed)
}

/// Runs `op` until it succeeds, logging each failure and backing off; returns `None` if `stop`
/// is set first. `what` names the operation in the log.
pub fn retry<T>(
    what: &str,
    stop: &AtomicBool,
    mut op: impl FnMut() -> Result<T, StoreError>,
) -> Option<T> {
    let mut b = Backoff::store();
    loop {
        match op() {
            Ok(v) => {
                if b.failures() > 0 {
                    tracing::info!(
                        "{what}: the store answers again after {} failed tries",
                        b.failures()
                    );
                }
                return Some(v);
            }
            Err(e) => {
                let d = b.fail();
                tracing::warn!(
                    "{what}: {e}; trying again in {}s (try {})",
                    d.as_secs(),
                    b.failures()
                );
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

    #[test]
    fn doubles_to_the_cap_and_resets() {
        let mut b = Backoff::new(Duration::from_millis(10), Duration::from_millis(35));
        let waits: Vec<u128> = (0..4).map(|_| b.fail().as_millis()).collect();
        assert_eq!(waits, vec![10, 20, 35, 35]);
        assert_eq!(b.failures(), 4);
        assert!(!b.ready());
        b.succeed();
        assert!(b.ready());
        assert_eq!(b.fail().as_millis(), 10);
    }

    #[test]
    fn retry_returns_after_failures_or_stops() {
        let stop = AtomicBool::new(false);
        let mut n = 0;
        let v = retry("test op", &stop, || {
            n += 1;
            if n < 2 {
                Err(StoreError::BadRecord("not yet".into()))
            } else {
                Ok(n)
            }
        });
        assert_eq!(v, Some(2));
        stop.store(true, Ordering::Relaxed);
        let never: Option<()> = retry("test op", &stop, || {
            Err(StoreError::BadRecord("down".into()))
        });
        assert_eq!(never, None);
    }
}
