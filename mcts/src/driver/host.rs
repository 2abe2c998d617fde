//! What the driver asks of whoever runs games on it (self-play, a match): the games to play,
//! each side's turn, the move chosen after a search, and what to do with a finished game.

use crate::config::SearchConfig;
use crate::search::SearchResult;
use koma_rules::{Move, Outcome, Position};

/// How one search tree of a game is made.
#[derive(Debug, Clone)]
pub struct TreeSpec {
    /// Its search settings.
    pub config: SearchConfig,
    /// Seed of its random choices (noise, Gumbel sampling).
    pub seed: u64,
    /// Index of the evaluator its leaves go to, among the driver's evaluators.
    pub evaluator: usize,
}

/// When a side gives up: its search's root value below `threshold` for `consecutive` of its
/// searches in a row (KataGo's resignation; self-play plays some games out to check it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResignRule {
    /// Root value (for the side to move) below which a search counts as lost.
    pub threshold: f32,
    /// Searches in a row below the threshold that make the side resign.
    pub consecutive: u32,
}

/// A game to start.
#[derive(Debug)]
pub struct GameStart<G> {
    /// The host's own data for the game.
    pub game: G,
    /// Where it starts (an opening may already have been played).
    pub position: Position,
    /// Its search trees.
    pub trees: Vec<TreeSpec>,
    /// The tree each colour searches with (`Color::index`), `None` for a side that never
    /// searches. Both colours may share one tree (self-play), which then carries its subtree
    /// from one side's search into the other's.
    pub tree_of: [Option<usize>; 2],
    /// A draw is adjudicated once the position's ply count reaches this.
    pub max_plies: Option<u32>,
    /// Resignation, when this game allows it.
    pub resign: Option<ResignRule>,
}

/// What the side to move does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// Search with its tree: `simulations` new simulations, with self-play's exploration when
    /// `noisy`, after the root's proof-number mate search when `prove`.
    Search {
        /// Simulations of this search.
        simulations: u32,
        /// Root noise (self-play).
        noisy: bool,
        /// Run the root's mate search (`SearchConfig::root_mate_nodes`) first.
        prove: bool,
    },
    /// Play this move (a player that does not search: a baseline, an outside engine).
    Play(Move),
    /// The side loses without a move (an outside engine broke the rules); the host keeps the
    /// reason.
    Forfeit,
}

/// The one who runs games on the driver.
pub trait Host {
    /// The host's record of one game (its moves, searches, random state).
    type Game;
    /// What may fail in the host's own work (storing a finished game).
    type Error;

    /// Whether to stop now, leaving the unfinished games (a stop request, enough games).
    fn stop(&self) -> bool {
        false
    }

    /// The next game to start, or `None` when no more are wanted.
    fn next_game(&mut self) -> Option<GameStart<Self::Game>>;

    /// What the side to move does in `pos`.
    fn turn(&mut self, game: &mut Self::Game, pos: &mut Position) -> Turn;

    /// The move to play in `pos` after its search ended with `result`.
    fn choose(&mut self, game: &mut Self::Game, pos: &mut Position, result: &SearchResult) -> Move;

    /// `mv` is about to be played in `pos`.
    fn played(&mut self, game: &mut Self::Game, pos: &mut Position, mv: Move);

    /// A game is over: `outcome` in `pos`, its final position (a resignation or forfeit is a
    /// win of the other side with that reason).
    fn finished(
        &mut self,
        game: Self::Game,
        pos: &Position,
        outcome: Outcome,
    ) -> Result<(), Self::Error>;

    /// Called after every round of evaluations (sealing chunks, progress lines).
    fn after_round(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}
