//! Errors of building, loading and saving models.

/// What went wrong with a model or checkpoint. Messages name the file and the mismatch.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// A checkpoint is for another variant.
    #[error("{file}: checkpoint is for variant '{found}', not '{expected}'")]
    WrongVariant {
        /// The metadata file.
        file: String,
        /// The variant asked for.
        expected: String,
        /// The variant in the file.
        found: String,
    },
    /// A checkpoint has another architecture than the one asked for.
    #[error("{file}: checkpoint architecture {found} differs from the expected {expected}")]
    WrongArchitecture {
        /// The metadata file.
        file: String,
        /// The architecture asked for.
        expected: String,
        /// The architecture in the file.
        found: String,
    },
    /// A checkpoint file is unreadable or inconsistent.
    #[error("{file}: corrupt checkpoint: {reason}")]
    Corrupt {
        /// The file.
        file: String,
        /// What is wrong.
        reason: String,
    },
    /// Reading or writing failed.
    #[error("{file}: {source}")]
    Io {
        /// The file.
        file: String,
        /// The error.
        source: std::io::Error,
    },
    /// A training pass's gradient could not be completed.
    #[error("gradient: {0}")]
    Gradient(String),
    /// libtorch refused an operation.
    #[error("libtorch: {0}")]
    Torch(#[from] tch::TchError),
}
