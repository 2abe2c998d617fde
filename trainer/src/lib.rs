//! koma-trainer: the training side of the loop.
//!
//! The [`Trainer`] takes self-play chunks into a sliding replay window, trains with a target
//! ratio of samples to new positions, publishes models through the store and writes full
//! checkpoints so a killed run resumes; [`session`] runs self-play and training together or
//! apart.

pub mod checkpoint;
pub mod config;
pub mod index;
pub mod listing;
pub mod metrics;
pub mod optimizer;
mod publishing;
pub mod replay;
pub mod schedule;
pub mod session;
pub mod status;
mod trainer;

pub use config::{RunConfig, TrainerConfig};
pub use publishing::publish_model;
pub use trainer::{PassStats, StepLosses, Trainer};
