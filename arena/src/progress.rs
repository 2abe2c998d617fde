//! Periodic progress lines for long matches: games done, rate, ETA and the score so far.

use std::time::{Duration, Instant};

/// Logs at most once per interval (and once at the end), so that a long match shows it is
/// alive without flooding the log.
#[derive(Debug)]
pub struct Progress {
    total: usize,
    start: Instant,
    last: Instant,
    every: Duration,
    /// Games finished before this run (a resumed match): counted as done, not in the rate.
    kept: usize,
}

impl Progress {
    /// Starts the clock for a match of `total` games.
    pub fn new(total: usize, every: Duration) -> Progress {
        let now = Instant::now();
        Progress {
            total,
            start: now,
            last: now,
            every,
            kept: 0,
        }
    }

    /// The same, for a match of which `kept` games were finished before this run started.
    pub fn resumed(self, kept: usize) -> Progress {
        Progress { kept, ..self }
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Reports `done` finished games and A's points so far, if the interval has passed or the
    /// match is over.
    pub fn update(&mut self, done: usize, a_points: f64) {
        let now = Instant::now();
        if done < self.total && now.duration_since(self.last) < self.every {
            return;
        }
        self.last = now;
        let secs = now.duration_since(self.start).as_secs_f64().max(1e-9);
        let rate = done.saturating_sub(self.kept) as f64 / secs;
        let eta = if done <= self.kept {
            "unknown".to_owned()
        } else {
            format!("{:.0} s", (self.total - done) as f64 / rate)
        };
        let score = if done == 0 {
            "-".to_owned()
        } else {
            format!("{:.1}%", 100.0 * a_points / done as f64)
        };
        tracing::info!(
            games = format!("{done}/{}", self.total),
            rate = format!("{rate:.2} games/s"),
            eta,
            score_a = score,
            "arena"
        );
    }
}
