//! koma-engine: playing the trained players.
//!
//! [`arena`] plays matches between two players (a model with its search settings, or a
//! baseline), many games at once so that model players evaluate their search leaves in large
//! batches, and reports results with an Elo estimate. [`search`] is the one search driver of
//! the front ends that play a single game: [`play`] (a game in the browser) and the engine
//! protocols.

pub mod arena;
pub mod ladder;
pub mod play;
pub mod protocol;
pub mod search;

pub use arena::{
    run_match, ArenaError, EloEstimate, EndReason, GameRecord, MatchConfig, MatchReport,
    ModelPlayer, PlayerParseError, PlayerSpec,
};
