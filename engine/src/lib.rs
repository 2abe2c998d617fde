//! koma-engine: playing the trained players.
//!
//! [`arena`] plays matches between two players (a model with its search settings, or a
//! baseline), many games at once so that model players evaluate their search leaves in large
//! batches, and reports results with an Elo estimate. The engine protocols (XBoard, USI) will
//! live beside it.

pub mod arena;

pub use arena::{
    run_match, ArenaError, EloEstimate, EndReason, GameRecord, MatchConfig, MatchReport,
    ModelPlayer, PlayerParseError, PlayerSpec,
};
