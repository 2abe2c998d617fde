//! koma-model: the policy/value network on libtorch.
//!
//! Inputs are generated from the variant definition ([`Encoder`]); the network ([`Net`]) is the
//! same for every board size; a [`Model`] binds it to a variant and a device, evaluates batches
//! for the search, and saves and loads checkpoints (safetensors weights + JSON metadata); an
//! [`InferenceServer`] thread owns a model and batches the leaves of every searcher that holds
//! one of its [`Client`]s.

pub mod arch;
pub mod bf16_probe;
pub mod cpu_net;
pub mod device;
pub mod encoding;
pub mod error;
mod loops_probe;
pub mod model;
pub mod move_scoring;
pub mod net;
pub mod precision;
pub mod server;
pub mod sparse_stem;
pub mod sparse_stem_training;
mod stem_reach;
#[cfg(test)]
mod test_positions;

pub use arch::Arch;
pub use device::DeviceChoice;
pub use encoding::{Encoder, Features, MoveIndex, Request, MOVE_FIELDS};
pub use error::ModelError;
pub use model::{Batch, BatchInput, Model, ModelMeta};
pub use precision::{Inference, Precision, PrecisionChoice};
pub use server::{Client, InferenceServer, InferenceStats, Reloader};
