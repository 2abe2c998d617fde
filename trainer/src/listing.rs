//! Finding new chunks in the store without listing all of them.
//!
//! Chunk keys are `games/<worker>/<seq>-...chunk`, each worker's sorted in the order it uploads
//! them (one upload at a time, oldest first). So a pass lists the worker ids, then each worker's
//! keys after the last one seen (S3's `StartAfter`): its cost grows with the number of workers
//! and of new chunks, not with every chunk the store holds. A full listing still runs at the
//! first pass and every [`SWEEP_EVERY`], to pick up a chunk that arrived out of order (copied in
//! by hand, or a worker id reused after its spool was lost); the ingest index makes it safe to
//! see a key twice.

use koma_store::{Store, StoreError};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Time between full listings of `games/`.
pub const SWEEP_EVERY: Duration = Duration::from_secs(30 * 60);

/// What one pass listed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Listed {
    /// Keys to consider, sorted (some may be ingested already).
    pub keys: Vec<String>,
    /// Whether this pass listed every chunk.
    pub full: bool,
}

/// The newest key seen per worker, and when `games/` was last listed whole.
#[derive(Debug)]
pub struct ChunkListing {
    last: HashMap<String, String>,
    last_sweep: Option<Instant>,
    sweep_every: Duration,
}

fn worker_of(key: &str) -> Option<&str> {
    key.strip_prefix("games/")?.split('/').next()
}

impl ChunkListing {
    /// A listing whose first pass lists everything; later ones are incremental, with a full one
    /// every `sweep_every`.
    pub fn new(sweep_every: Duration) -> ChunkListing {
        ChunkListing {
            last: HashMap::new(),
            last_sweep: None,
            sweep_every,
        }
    }

    /// Keys that may be new since the previous pass.
    pub fn pass(&mut self, store: &Store) -> Result<Listed, StoreError> {
        let sweep = self
            .last_sweep
            .is_none_or(|t| t.elapsed() >= self.sweep_every);
        let keys = if sweep {
            let keys = store.list("games")?;
            self.last_sweep = Some(Instant::now());
            keys
        } else {
            let listings: Vec<(String, Option<String>)> = store
                .list_dirs("games")?
                .into_iter()
                .map(|w| {
                    let after = self.last.get(&w).cloned();
                    (format!("games/{w}"), after)
                })
                .collect();
            store.list_after_each(&listings)?
        };
        for k in &keys {
            if let Some(w) = worker_of(k) {
                let e = self.last.entry(w.to_owned()).or_default();
                if k.as_str() > e.as_str() {
                    k.clone_into(e);
                }
            }
        }
        let mut keys = keys;
        keys.sort();
        Ok(Listed { keys, full: sweep })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_passes_list_only_what_is_new_and_a_sweep_finds_stragglers() {
        let store = Store::memory();
        let put = |k: &str| assert!(store.put_new(k, b"x".to_vec()).unwrap());
        put("games/a/0000000000-1g-5p.chunk");
        put("games/b/0000000000-1g-5p.chunk");
        let mut l = ChunkListing::new(Duration::from_secs(3600));
        let first = l.pass(&store).unwrap();
        assert!(first.full);
        assert_eq!(first.keys.len(), 2);
        assert!(l.pass(&store).unwrap().keys.is_empty(), "nothing new");
        put("games/a/0000000001-1g-5p.chunk");
        put("games/c/0000000000-1g-5p.chunk");
        let next = l.pass(&store).unwrap();
        assert!(!next.full);
        assert_eq!(
            next.keys,
            [
                "games/a/0000000001-1g-5p.chunk",
                "games/c/0000000000-1g-5p.chunk"
            ]
        );
        // A key below a worker's newest is not seen by incremental passes, but by a sweep.
        put("games/b/0000000000-0g-0p.chunk");
        assert!(l.pass(&store).unwrap().keys.is_empty());
        l.sweep_every = Duration::ZERO;
        let sweep = l.pass(&store).unwrap();
        assert!(sweep.full);
        assert!(sweep
            .keys
            .contains(&"games/b/0000000000-0g-0p.chunk".to_owned()));
    }
}
