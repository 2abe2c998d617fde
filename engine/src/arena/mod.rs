//! The arena: matches between two players, with paired openings, batched model search and an
//! Elo estimate.
//!
//! - [`player`]: the players a match can pit against each other, parsed from text;
//! - [`baseline`]: the baselines that need no network (random, greedy capture, valued by
//!   [`koma_rules::PieceValues`]);
//! - [`external`]: engines outside koma (UCI, USI, XBoard), refereed by the arena;
//! - [`opening`]: the seeded random openings that make paired games differ from each other;
//! - [`game`]: one game in progress, with its search trees;
//! - [`driver`]: runs every game of a match at once, batching model evaluations;
//! - [`hand_match`]: matches as Hand Shogi's rules define them (two hands in a row);
//! - [`report`] and [`elo`]: what a match says about the two players.

pub mod baseline;
pub mod driver;
pub mod elo;
pub mod error;
pub mod external;
pub mod game;
pub mod hand_match;
pub mod opening;
pub mod player;
pub mod progress;
pub mod report;

pub use driver::{run_games, run_match, GamePlan, MatchConfig};
pub use elo::{elo_from_score, EloEstimate};
pub use error::ArenaError;
pub use hand_match::{run_hand_matches, HandMatch, HandMatchReport};
pub use koma_rules::PieceValues;
pub use player::{ModelPlayer, PlayerParseError, PlayerSpec, DEFAULT_SIMS};
pub use report::{ColourStats, EndReason, GameRecord, MatchReport};
