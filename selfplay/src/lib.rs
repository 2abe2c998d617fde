//! koma-selfplay: self-play workers, game records and the replay store.
//!
//! Workers ([`Worker`]) play many games at once against one batching evaluator thread
//! ([`InferenceServer`]); finished games become [`GameRecord`]s, journalled in the worker's
//! local [`Spool`] as they end, sealed into compressed, checksummed chunks ([`chunk`]) and
//! uploaded by the [`Uploader`] under create-if-absent keys of the [`Store`] (a local directory
//! or any S3-compatible service). Published models are found through the store's LATEST record
//! ([`publish`]).

pub mod backoff;
pub mod chunk;
mod chunk_name;
mod config;
mod error;
mod inference;
pub mod publish;
mod record;
mod spool;
mod stats;
mod store;
pub mod summary;
mod uploader;
mod worker;

pub use chunk_name::{valid_worker_id, ChunkName};
pub use config::SelfplayConfig;
pub use error::StoreError;
pub use inference::{Client, InferenceServer, Reloader};
pub use record::{sorted_legal, GameRecord, GameResult, SearchRecord};
pub use spool::Spool;
pub use stats::Stats;
pub use store::{ObjectInfo, Store, StoreOptions, StoreUrl};
pub use uploader::{upload, Upload, Uploader};
pub use worker::Worker;
