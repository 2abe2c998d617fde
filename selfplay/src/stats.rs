//! Counters shared between self-play threads and whoever reports them.

use std::sync::atomic::{AtomicU64, Ordering};

/// Self-play counters, all monotone.
#[derive(Debug, Default)]
pub struct Stats {
    /// Games finished.
    pub games: AtomicU64,
    /// Moves played.
    pub moves: AtomicU64,
    /// Positions recorded with a full search (training samples).
    pub samples: AtomicU64,
    /// Games won by the first player.
    pub black_wins: AtomicU64,
    /// Games won by the second player.
    pub white_wins: AtomicU64,
    /// Drawn games.
    pub draws: AtomicU64,
    /// Games ended by resignation.
    pub resignations: AtomicU64,
}

impl Stats {
    /// Adds to a counter.
    pub fn add(c: &AtomicU64, n: u64) {
        c.fetch_add(n, Ordering::Relaxed);
    }

    /// Reads a counter.
    pub fn get(c: &AtomicU64) -> u64 {
        c.load(Ordering::Relaxed)
    }
}
