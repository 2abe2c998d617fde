//! koma-selfplay: self-play workers, game records and the replay store.
//!
//! Workers ([`Worker`]) play many games at once against one batching evaluator thread
//! ([`InferenceServer`]); finished games become [`GameRecord`]s, written as compressed,
//! checksummed chunks ([`chunk`]) under create-if-absent keys of the [`Store`]. Published models
//! are found through the store's LATEST record ([`publish`]).

pub mod chunk;
mod config;
mod error;
mod inference;
pub mod publish;
mod record;
mod stats;
mod store;
mod worker;

pub use config::SelfplayConfig;
pub use error::StoreError;
pub use inference::{Client, InferenceServer, Reloader};
pub use record::{sorted_legal, GameRecord, GameResult, SearchRecord};
pub use stats::Stats;
pub use store::Store;
pub use worker::Worker;
