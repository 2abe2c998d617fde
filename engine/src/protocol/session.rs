//! What every protocol front end shares: the model, the game the GUI has set up, and the
//! search jobs.

use crate::game::{Game, Mover};
use crate::protocol::clock::{expected_moves_to_go, Clock};
use crate::protocol::job::{Callbacks, GuiSettings, Jobs};
use crate::search::ranges::tactics_depth;
use crate::search::{LoadedModel, Searcher, SearcherOptions, SharedModel, DEFAULT_SIMS};
use koma_rules::{Color, Move, Position, Variant};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// How the engine was started.
#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// Search settings.
    pub options: SearcherOptions,
    /// Time kept back per move for the round trip to the GUI.
    pub overhead: Duration,
    /// Simulations per move when the GUI sets no limit at all (`--sims`).
    pub default_sims: u32,
}

impl EngineConfig {
    /// Play's search settings for `variant` ([`SearcherOptions::for_variant`]), 50 ms kept
    /// for the round trip, and the default simulations.
    pub fn for_variant(variant: &Variant) -> EngineConfig {
        EngineConfig {
            options: SearcherOptions::for_variant(variant),
            overhead: Duration::from_millis(50),
            default_sims: DEFAULT_SIMS,
        }
    }
}

/// The engine's side of a protocol session.
pub struct Engine {
    /// The variant of the model.
    pub variant: Arc<Variant>,
    /// The engine's name, as sent to GUIs.
    pub name: String,
    /// The game as the GUI has set it up, shared with the search thread (which plays the
    /// engine's move into it).
    game: Arc<Mutex<Game>>,
    /// Searches.
    pub jobs: Jobs,
    /// Start-up settings.
    pub config: EngineConfig,
    /// Why the GUI's last position was refused: until it sends one that can be set up, the
    /// engine has no position of the GUI's to search and says so instead of answering for a
    /// position the GUI does not have.
    pub refused: Option<String>,
}

impl Engine {
    /// An engine playing `loaded`.
    pub fn new(loaded: LoadedModel, config: EngineConfig) -> Engine {
        let variant = loaded.variant.clone();
        let name = format!("koma {} step {}", variant.id, loaded.step);
        let model = Arc::new(SharedModel::new(loaded.model));
        let searcher = Searcher::new(model, config.options.clone());
        Engine {
            game: Arc::new(Mutex::new(Game::new(
                Position::start(&variant),
                Color::White,
            ))),
            variant,
            name,
            jobs: Jobs::new(searcher),
            config,
            refused: None,
        }
    }

    /// The game (locked).
    pub fn game(&self) -> MutexGuard<'_, Game> {
        self.game.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The game, for a search thread's callback.
    pub fn game_handle(&self) -> Arc<Mutex<Game>> {
        self.game.clone()
    }

    /// Sets up a new game from `start` (cancelling any search).
    pub fn set_position(&mut self, start: Position) {
        self.jobs.cancel();
        self.refused = None;
        *self.game() = Game::new(start, Color::White);
    }

    /// Threads searching each move together, and libtorch's threads for the network, as
    /// `--threads` sets them at start-up.
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        self.jobs.set_threads(threads);
        self.config.options.threads = threads;
        tch::set_num_threads(threads.min(i32::MAX as usize) as i32);
    }

    /// Sets contempt as GUIs send it (`value`, a whole number from -100 to 100): in
    /// hundredths of a win, how much less than an even result a draw is worth to the engine
    /// (negative: it prefers draws). It applies from the next search on; false (nothing
    /// changed) when `value` is not such a number.
    pub fn set_contempt(&mut self, value: &str) -> bool {
        match value.trim().parse::<i32>() {
            Ok(c) if (-100..=100).contains(&c) => {
                self.config.options.config.draw_score = -(c as f32) / 100.0;
                true
            }
            _ => false,
        }
    }

    /// Sets the plies of the tactics check of each move chosen as GUIs send it (`value`, a
    /// whole number from 0, off, to [`crate::search::ranges::MAX_TACTICS_DEPTH`];
    /// `SearchConfig::tactics_depth`), from the next search on; false (nothing changed) when
    /// `value` is not such a number.
    pub fn set_tactics(&mut self, value: &str) -> bool {
        match tactics_depth(value) {
            Ok(d) => {
                self.config.options.config.tactics_depth = d;
                true
            }
            Err(_) => false,
        }
    }

    /// The engine's tactics check depth (see [`Engine::set_tactics`]).
    pub fn tactics(&self) -> u32 {
        self.config.options.config.tactics_depth
    }

    /// The engine's contempt (see [`Engine::set_contempt`]).
    pub fn contempt(&self) -> i32 {
        (-self.config.options.config.draw_score * 100.0).round() as i32
    }

    /// The GUI's position could not be set up (`why`): nothing is searched until one can.
    pub fn refuse_position(&mut self, why: String) {
        self.jobs.cancel();
        self.refused = Some(why);
    }

    /// Plays a move the GUI sent.
    pub fn play(&mut self, mv: Move) {
        self.game().play(mv, Mover::Human);
    }

    /// Starts searching the current position with the budget of `clock`, choosing among
    /// `root_moves` when given (UCI's `searchmoves`, drops a GUI cannot show).
    pub fn go(&mut self, clock: &Clock, root_moves: Option<Vec<Move>>, cb: Callbacks) {
        let (start, moves) = {
            let g = self.game();
            (g.start().clone(), g.moves().to_vec())
        };
        let mut clock = *clock;
        if clock.expected_moves.is_none() {
            let ply = start.ply() + moves.len() as u32;
            clock.expected_moves = Some(expected_moves_to_go(self.variant.rules.max_plies, ply));
        }
        let limits = clock.limits(self.config.default_sims);
        let settings = GuiSettings {
            draw_score: self.config.options.config.draw_score,
            tactics_depth: self.config.options.config.tactics_depth,
        };
        self.jobs
            .start(start, moves, root_moves, limits, settings, cb);
    }
}
