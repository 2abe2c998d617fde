//! What can stop the ladder.

use crate::error::ArenaError;
use crate::ladder::fit::FitError;
use crate::ladder::records::RecordError;

/// What can stop the ladder.
#[derive(Debug, thiserror::Error)]
pub enum LadderError {
    /// A match could not be played.
    #[error(transparent)]
    Arena(#[from] ArenaError),
    /// A file of the ladder.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The results cannot be fitted.
    #[error("rating fit: {0}")]
    Fit(#[from] FitError),
    /// The plot.
    #[error("plot {path}: {reason}")]
    Plot {
        /// The file.
        path: String,
        /// What went wrong.
        reason: String,
    },
}
