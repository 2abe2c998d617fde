//! The one search driver of koma's front ends: `koma play` (the browser), the engine protocols
//! and any other place that plays one game at a time with a trained model.
//!
//! - [`loader`]: finds and loads the model a user names (a checkpoint stem, or the newest model
//!   published in a run directory, checked against its SHA-256), with its variant taken from
//!   the model's metadata;
//! - [`limits`]: what ends a search (simulations, time, a stop request), and the default
//!   simulations per move;
//! - [`options`]: the command-line options every front end that plays a model shares;
//! - [`ranges`]: the parsers of the search settings a user gives by hand, shared by those
//!   options and the arena's player strings;
//! - [`searcher`]: MCTS on one game with tree reuse between moves and leaves evaluated in
//!   batches (virtual loss), so a GPU sees full batches even for a single game;
//! - [`shared`]: a model behind a lock, for servers whose request threads share it;
//! - [`thought`]: what a finished search says (move, value, win/draw/loss, the moves it
//!   weighed, the principal variation).
//!
//! The arena plays many games at once and batches across them instead, but builds its search
//! settings with the same [`search_config`].

pub mod limits;
pub mod loader;
pub mod options;
pub mod ranges;
pub mod searcher;
pub mod shared;
pub mod thought;

pub use limits::{Limits, DEFAULT_SIMS};
pub use loader::{load_model, LoadError, LoadedModel, ModelSource};
pub use options::{OptionError, PlayOptions};
pub use searcher::{play_material_weight, search_config, SearchError, Searcher, SearcherOptions};
pub use shared::SharedModel;
pub use thought::{Progress, RootMove, Thought};
