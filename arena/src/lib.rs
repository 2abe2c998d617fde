//! koma-arena: matches between players, and the Elo ladder of a run.
//!
//! - [`player`]: the players a match can pit against each other, parsed from text;
//! - [`baseline`]: the baselines that need no network (random, greedy capture, valued by
//!   [`koma_rules::PieceValues`]);
//! - [`alphabeta`]: the classical baseline, an alpha-beta searcher that grades models in
//!   every variant;
//! - [`external`]: engines outside koma (UCI, USI, XBoard), refereed by the arena;
//! - [`opening`]: the seeded random openings that make paired games differ from each other;
//! - [`config`]: what a match is told, and the plan of its games;
//! - [`models`]: the model players' networks, each served by an inference thread;
//! - [`host`]: a match as a host of koma's one game driver (`koma_mcts::driver`), which plays
//!   every game at once with the model players' leaves evaluated in batches;
//! - [`run`]: a match from its settings to its report;
//! - [`hand_match`]: matches as Hand Shogi's rules define them (two hands in a row);
//! - [`report`] and [`elo`]: what a match says about the two players;
//! - [`record_file`]: a match's games as a file, kept as each ends and read back to resume;
//! - [`ladder`]: every published model of a run rated on one Elo scale;
//! - [`teacher`]: the classical baseline's games written to a run's store as training
//!   targets, a supervised start for a network.

pub mod alphabeta;
pub mod baseline;
pub mod config;
pub mod elo;
pub mod engine_process;
pub mod error;
pub mod external;
pub mod hand_match;
pub mod host;
pub mod ladder;
pub mod lift_check;
pub mod models;
pub mod opening;
pub mod player;
pub mod progress;
pub mod record_file;
pub mod report;
pub mod run;
pub mod teacher;

pub use config::{GamePlan, MatchConfig};
pub use elo::{elo_from_score, EloEstimate};
pub use engine_process::stop_all_engines;
pub use error::ArenaError;
pub use hand_match::{run_hand_matches, HandMatch, HandMatchReport};
pub use koma_rules::PieceValues;
pub use player::{ModelPlayer, PlayerParseError, PlayerSpec, DEFAULT_SIMS};
pub use report::{ColourStats, EndReason, GameRecord, MatchReport};
pub use run::{resume_match, run_games, run_match};
