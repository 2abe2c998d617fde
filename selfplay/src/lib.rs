//! koma-selfplay: self-play workers.
//!
//! Workers ([`Worker`]) play many games at once against one batching evaluator thread
//! ([`koma_model::InferenceServer`]); finished games become [`koma_store::GameRecord`]s,
//! journalled in the worker's local [`koma_store::Spool`] as they end, sealed into chunks and
//! handed to the store's [`koma_store::Uploader`].

mod adjudication;
mod config;
mod spool_writes;
mod stats;
mod worker;

pub use adjudication::recorded_result;
pub use config::SelfplayConfig;
pub use stats::Stats;
pub use worker::Worker;
