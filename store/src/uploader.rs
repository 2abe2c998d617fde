//! The uploader: one thread per process that moves sealed chunks from the workers' spools to
//! the store, oldest first, under their create-if-absent keys, and removes each from the spool
//! only once the store has it. While the store is unreachable it backs off and logs; self-play
//! goes on and the spools grow.

use crate::backend::Store;
use crate::backoff::Backoff;
use crate::chunk_name::ChunkName;
use crate::error::StoreError;
use crossbeam::channel::{unbounded, Receiver, RecvTimeoutError, Sender};
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A sealed chunk to upload.
#[derive(Debug, Clone)]
pub struct Upload {
    /// The worker whose chunk it is.
    pub worker: String,
    /// Its file in the worker's spool.
    pub path: PathBuf,
}

/// What the uploader has done, for whoever reports it.
#[derive(Debug, Default)]
pub struct UploadStats {
    /// Chunks the store has acknowledged.
    chunks: AtomicU64,
    /// Sealed chunks waiting on local disk for the store (a gauge).
    waiting: AtomicU64,
}

impl UploadStats {
    /// Chunks the store has acknowledged so far.
    pub fn uploaded(&self) -> u64 {
        self.chunks.load(Ordering::Relaxed)
    }

    /// Sealed chunks waiting for the store now.
    pub fn waiting(&self) -> u64 {
        self.waiting.load(Ordering::Relaxed)
    }
}

/// The uploader thread.
pub struct Uploader {
    tx: Sender<Upload>,
    handle: JoinHandle<()>,
    stats: Arc<UploadStats>,
}

/// Uploads one chunk; Ok once the store holds exactly these bytes under its key.
pub fn upload(store: &Store, u: &Upload) -> Result<String, StoreError> {
    let file = u
        .path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = ChunkName::parse_file(&u.worker, &file).ok_or_else(|| StoreError::CorruptChunk {
        key: u.path.display().to_string(),
        reason: "not a chunk file name".into(),
    })?;
    let key = name.key();
    let bytes = std::fs::read(&u.path).map_err(|source| StoreError::Io {
        path: u.path.display().to_string(),
        source,
    })?;
    if !store.put_new(&key, bytes.clone())? {
        // The key exists: an earlier try that was cut off after the store took it, or another
        // process under the same worker id.
        if store.get(&key)?.as_deref() != Some(bytes.as_slice()) {
            return Err(StoreError::WorkerIdClash { key });
        }
    }
    std::fs::remove_file(&u.path).map_err(|source| StoreError::Io {
        path: u.path.display().to_string(),
        source,
    })?;
    Ok(key)
}

impl Uploader {
    /// Starts the thread. When every sender is gone it keeps trying what is left for at most
    /// `drain`, then leaves the rest in the spools for the next start.
    pub fn start(store: Arc<Store>, drain: Duration) -> Uploader {
        let (tx, rx) = unbounded();
        let stats = Arc::new(UploadStats::default());
        let counters = stats.clone();
        let handle = std::thread::Builder::new()
            .name("uploader".into())
            .spawn(move || run(&store, &counters, rx, drain))
            .expect("the uploader thread starts");
        Uploader { tx, handle, stats }
    }

    /// Its counters (they stay readable after [`Uploader::finish`]).
    pub fn stats(&self) -> Arc<UploadStats> {
        self.stats.clone()
    }

    /// A sender for workers.
    pub fn sender(&self) -> Sender<Upload> {
        self.tx.clone()
    }

    /// Waits for the thread after every worker's sender is dropped.
    pub fn finish(self) {
        drop(self.tx);
        let _ = self.handle.join();
    }
}

fn run(store: &Store, stats: &UploadStats, rx: Receiver<Upload>, drain: Duration) {
    let mut queue: VecDeque<Upload> = VecDeque::new();
    let mut backoff = Backoff::store();
    let mut closed_at: Option<Instant> = None;
    loop {
        if closed_at.is_none() {
            let wait = if queue.is_empty() {
                Duration::from_millis(500)
            } else {
                Duration::ZERO
            };
            match rx.recv_timeout(wait) {
                Ok(u) => queue.push_back(u),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => closed_at = Some(Instant::now()),
            }
            while let Ok(u) = rx.try_recv() {
                queue.push_back(u);
            }
        }
        stats.waiting.store(queue.len() as u64, Ordering::Relaxed);
        let Some(front) = queue.front() else {
            if closed_at.is_some() {
                stats.waiting.store(0, Ordering::Relaxed);
                return;
            }
            continue;
        };
        if !backoff.ready() {
            if closed_at.is_some_and(|t| t.elapsed() >= drain) {
                tracing::warn!(
                    "the store is still unreachable; {} chunks stay in the spool and are uploaded at the next start",
                    queue.len()
                );
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        match upload(store, front) {
            Ok(key) => {
                tracing::debug!("uploaded {key}");
                stats.chunks.fetch_add(1, Ordering::Relaxed);
                queue.pop_front();
                if backoff.failures() > 0 {
                    tracing::info!(
                        "the store {} takes uploads again after {} failed tries",
                        store.url(),
                        backoff.failures()
                    );
                }
                backoff.succeed();
            }
            Err(e @ StoreError::WorkerIdClash { .. })
            | Err(e @ StoreError::CorruptChunk { .. }) => {
                tracing::error!("{e}; the chunk stays at {}", front.path.display());
                queue.pop_front();
            }
            Err(e) => {
                let d = backoff.fail();
                tracing::warn!(
                    "uploading {}: {e}; {} chunks wait on local disk; trying again in {}s",
                    front.path.display(),
                    queue.len(),
                    d.as_secs()
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunk;

    #[test]
    fn uploads_once_and_detects_a_clashing_worker_id() {
        let dir = std::env::temp_dir().join(format!("koma-upload-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::memory();
        let bytes = chunk::encode(&[]);
        let path = dir.join("0000000003-0g-0p.chunk");
        std::fs::write(&path, &bytes).unwrap();
        let u = Upload {
            worker: "w".into(),
            path: path.clone(),
        };
        assert_eq!(
            upload(&store, &u).unwrap(),
            "games/w/0000000003-0g-0p.chunk"
        );
        assert!(!path.exists());
        // The same bytes again (a retried upload): acknowledged, not duplicated.
        std::fs::write(&path, &bytes).unwrap();
        upload(&store, &u).unwrap();
        assert_eq!(store.list("games").unwrap().len(), 1);
        // Different bytes under the same key: another process uses this worker id.
        std::fs::write(&path, b"other").unwrap();
        let e = upload(&store, &u).unwrap_err().to_string();
        assert!(e.contains("worker id"), "{e}");
        assert!(path.exists(), "the chunk stays on disk");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
