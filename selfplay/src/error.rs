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
    /// A game record does not replay under the variant's rules.
    #[error("game record: {0}")]
    BadRecord(String),
}
