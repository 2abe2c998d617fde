//! Network architecture settings.

use serde::{Deserialize, Serialize};

/// The size and shape of a network. Stored in every checkpoint's metadata; a checkpoint loads
/// only into a network of the same architecture.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Arch {
    /// Residual blocks in the trunk.
    pub blocks: usize,
    /// Channels of the trunk.
    pub channels: i64,
    /// Every this many blocks, a block adds a global-pooling bias (0: none).
    pub gpool_every: usize,
    /// Dimension of the per-square policy embeddings.
    pub head_dim: i64,
    /// Channels of the value head before pooling.
    pub value_channels: i64,
    /// Hidden units of the value head.
    pub value_hidden: i64,
}

impl Default for Arch {
    fn default() -> Self {
        Arch {
            blocks: 6,
            channels: 64,
            gpool_every: 3,
            head_dim: 32,
            value_channels: 16,
            value_hidden: 64,
        }
    }
}

impl Arch {
    /// The smallest network the model builds (one block of eight channels): enough to run every
    /// code path in a moment, for tests, fuzzing and smoke runs; it plays no better than chance.
    pub fn tiny() -> Arch {
        Arch {
            blocks: 1,
            channels: 8,
            gpool_every: 0,
            head_dim: 4,
            value_channels: 2,
            value_hidden: 8,
        }
    }
}
