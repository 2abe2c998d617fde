//! Errors of setting up and running a match.

use crate::player::PlayerParseError;
use koma_model::ModelError;
use koma_rules::{Outcome, PositionTextError};

/// Why a match could not be played. Messages name the player, setting or file at fault.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// A player string is malformed.
    #[error(transparent)]
    Player(#[from] PlayerParseError),
    /// A model player's checkpoint could not be loaded.
    #[error("player {player}: {source}")]
    Model {
        /// The player string.
        player: String,
        /// What the model crate reported.
        source: ModelError,
    },
    /// A match setting is out of range.
    #[error("{setting}: {reason}")]
    Setting {
        /// The setting (`games`, `threads`, ...).
        setting: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// The start position text is malformed.
    #[error("start position: {0}")]
    Start(#[from] PositionTextError),
    /// The start position is already decided.
    #[error("the start position is already decided ({0}): there is nothing to play")]
    StartDecided(Outcome),
    /// Random openings of the asked length kept ending the game.
    #[error(
        "no opening of {plies} random plies that leaves the game undecided was found in {tries} \
         tries; use fewer opening plies"
    )]
    Opening {
        /// Opening plies asked for.
        plies: u32,
        /// Attempts made.
        tries: u32,
    },
    /// A game read back from a record file does not belong to this match.
    #[error("game {game} of the record: {reason}")]
    Resume {
        /// The game's number.
        game: usize,
        /// What does not match.
        reason: String,
    },
    /// A finished game could not be kept in the record file.
    #[error("record file: {0}")]
    Record(String),
    /// The run's store or local spool failed (teacher games).
    #[error("teacher games: {0}")]
    Store(#[from] koma_store::StoreError),
    /// The teacher could not go on (a move it cannot name, no move where the rules give one).
    #[error("teacher games: {0}")]
    Teacher(String),
}
