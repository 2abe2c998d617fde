//! koma-store: where a run keeps its games and models, without libtorch.
//!
//! A [`Store`] is named by a URL ([`StoreUrl`]): a local directory (the default, no server),
//! any S3-compatible service, or memory for tests. Self-play games are [`GameRecord`]s; a
//! worker journals each finished game in its local [`Spool`], seals full journals into
//! compressed, checksummed chunks ([`chunk`]) named by [`ChunkName`], and the [`Uploader`]
//! sends them under create-if-absent keys. Models are published under step-numbered keys with
//! a LATEST record that readers verify ([`publish`]). [`backoff`] waits out an unreachable
//! store; [`summary`] describes a run's games.
//!
//! Everything here reads and writes bytes and rules data only, so the crate builds without
//! libtorch and its decoders can be fuzzed with sanitizers.

mod backend;
pub mod backoff;
pub mod chunk;
mod chunk_name;
mod error;
mod material_scale;
pub mod publish;
mod record;
pub mod spool;
pub mod summary;
mod uploader;

pub use backend::{ObjectInfo, Store, StoreOptions, StoreUrl};
pub use chunk_name::{valid_worker_id, ChunkName, TEACHER_WORKER_PREFIX};
pub use error::StoreError;
pub use material_scale::MaterialScale;
pub use record::{sorted_legal, GameRecord, GameResult, SearchRecord};
pub use spool::Spool;
pub use uploader::{upload, Upload, UploadStats, Uploader};
