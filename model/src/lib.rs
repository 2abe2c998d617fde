//! koma-model: the policy/value network on libtorch.
//!
//! Inputs are generated from the variant definition ([`Encoder`]); the network ([`Net`]) is the
//! same for every board size; a [`Model`] binds it to a variant and a device, evaluates batches
//! for the search, and saves and loads checkpoints (safetensors weights + JSON metadata).

pub mod arch;
pub mod device;
pub mod encoding;
pub mod error;
pub mod model;
pub mod net;

pub use arch::Arch;
pub use device::DeviceChoice;
pub use encoding::{Encoder, MoveIndex, MOVE_FIELDS};
pub use error::ModelError;
pub use model::{Batch, Model, ModelMeta, Request};
