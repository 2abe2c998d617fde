//! Errors of the store, the chunk format and the self-play machinery.

/// What went wrong reading or writing the replay store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The object store refused an operation.
    #[error("store: {key}: {source}")]
    Backend {
        /// Key operated on.
        key: String,
        /// The store's error.
        source: object_store::Error,
    },
    /// A local directory could not be prepared.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// A chunk of games is damaged.
    #[error("chunk {key}: {reason}")]
    CorruptChunk {
        /// Its key.
        key: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A published model does not match its record.
    #[error("model {key}: {reason}")]
    BadModel {
        /// Its key.
        key: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A store URL or its settings cannot be used.
    #[error("store '{url}': {reason}")]
    BadUrl {
        /// The URL as given.
        url: String,
        /// What is wrong.
        reason: String,
    },
    /// Two processes write under the same worker id.
    #[error("chunk {key}: the store holds different games under this key; another process uses the same worker id (give each worker its own --worker-id)")]
    WorkerIdClash {
        /// The key.
        key: String,
    },
    /// A game record does not replay under the variant's rules.
    #[error("game record: {0}")]
    BadRecord(String),
}
