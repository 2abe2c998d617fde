//! `koma play`: a game against a trained model in the browser.
//!
//! No existing GUI shows 19x19 boards, multi-leg captures, shots and drops together, so koma
//! serves its own page. The server is small on purpose: one game, held in memory
//! ([`session`]), changed only through a JSON API ([`api`]) whose every answer is the whole
//! game state ([`state`]), and one page drawn from the variant's data, so every built-in
//! variant and variant file works without page changes. The engine's moves come from the same
//! [`koma_engine::search::Searcher`] the engine protocols use, and the game record is theirs
//! too ([`koma_engine::game`]).
//!
//! - [`state`]: the state document the page draws;
//! - [`session`]: the game plus the engine, and the rule that nothing changes while it thinks;
//! - [`clock`]: the person's game clock, kept by the server;
//! - [`record`]: the game record written for "Save" and read back by "Load";
//! - [`pieces`]: the piece reference (names, move diagrams, rules);
//! - [`api`]: requests to answers, without any HTTP (so tests call it directly);
//! - [`page`]: the page's HTML, CSS and script, embedded at build time;
//! - [`server`]: the HTTP front (hyper), with limits on size, time and connections.

pub mod api;
pub mod clock;
pub mod page;
pub mod pieces;
pub mod record;
pub mod server;
pub mod session;
pub mod state;

pub use api::{handle, ApiResponse};
pub use page::PAGE;
pub use server::{PlayServer, ServerLimits};
pub use session::{EngineDefaults, Session};
