//! What a match is told: its players, games, openings and limits ([`MatchConfig`]), and the
//! plan of each game ([`GamePlan`]).

use crate::error::ArenaError;
use crate::player::PlayerSpec;
use koma_model::PrecisionChoice;
use koma_rules::{Color, Variant};
use std::sync::Arc;
use std::time::Duration;
use tch::Device;

/// Everything a match needs to know.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// The variant played.
    pub variant: Arc<Variant>,
    /// Player A (the one the score and Elo are for).
    pub a: PlayerSpec,
    /// Player B.
    pub b: PlayerSpec,
    /// Games to play: an even number, as pairs of one opening played with each colour.
    pub games: usize,
    /// Random plies from the start position that make each pair's opening.
    pub opening_plies: u32,
    /// Seed of the openings, the baselines' choices and the trees.
    pub seed: u64,
    /// Position text to start from instead of the variant's start position.
    pub start: Option<String>,
    /// Adjudicate a draw (max length) once the position's ply count reaches this, before the
    /// variant's own limit.
    pub max_plies: Option<u32>,
    /// Most games in flight at once (`None`: all of them). Fewer games in flight means
    /// smaller batches but less memory for trees.
    pub concurrency: Option<usize>,
    /// CPU threads for libtorch during the match (`None`: leave its setting alone). The
    /// setting is process-wide; the previous value is restored when the match ends. The
    /// default is 1: the arena's batches are small, and libtorch's idle threads spin, which on
    /// a busy machine made a tiny model's match over ten times slower than on one thread.
    pub threads: Option<usize>,
    /// Where model players run.
    pub device: Device,
    /// The number format model players' networks run in.
    pub precision: PrecisionChoice,
    /// Interval between progress log lines.
    pub progress_every: Duration,
}

impl MatchConfig {
    /// A match of `games` games with the defaults of `koma arena`: 4 opening plies, seed 0,
    /// the variant's start position and length limit, all games in flight, one libtorch thread,
    /// on the CPU.
    pub fn new(variant: Arc<Variant>, a: PlayerSpec, b: PlayerSpec, games: usize) -> Self {
        MatchConfig {
            variant,
            a,
            b,
            games,
            opening_plies: 4,
            seed: 0,
            start: None,
            max_plies: None,
            concurrency: None,
            threads: Some(1),
            device: Device::Cpu,
            precision: PrecisionChoice::Auto,
            progress_every: Duration::from_secs(10),
        }
    }

    pub(crate) fn validate(&self) -> Result<(), ArenaError> {
        if self.games == 0 {
            return setting("games", "at least one pair (2 games) is needed");
        }
        if !self.games.is_multiple_of(2) {
            return setting(
                "games",
                &format!(
                    "{} is odd; games are played in pairs (each opening once with each \
                     player first)",
                    self.games
                ),
            );
        }
        self.validate_play()
    }

    /// The settings every set of games needs, whatever decides which games are played.
    pub(crate) fn validate_play(&self) -> Result<(), ArenaError> {
        if self.concurrency == Some(0) {
            return setting("concurrency", "at least one game must be in flight");
        }
        if self.threads == Some(0) {
            return setting("threads", "at least one thread is needed");
        }
        Ok(())
    }
}

/// A bad setting, as an error.
pub(crate) fn setting(setting: &'static str, reason: &str) -> Result<(), ArenaError> {
    Err(ArenaError::Setting {
        setting,
        reason: reason.to_owned(),
    })
}

/// One game to play: its number (which seeds its players' and trees' random choices and
/// orders the report), the colour player A has, and the opening it starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GamePlan {
    /// Game number, unique within the match.
    pub index: usize,
    /// The colour of player A.
    pub a_color: Color,
    /// The opening: games with the same number play the same random opening.
    pub opening: usize,
}

impl GamePlan {
    /// The plan of a match of `games` games: game `2k` plays opening `k` with A as Black (the
    /// first player), game `2k + 1` the same opening with A as White.
    pub fn paired(games: usize) -> Vec<GamePlan> {
        (0..games)
            .map(|index| GamePlan {
                index,
                a_color: if index % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                opening: index / 2,
            })
            .collect()
    }
}
