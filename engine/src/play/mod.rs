//! `koma play`: a game against a trained model in the browser.
//!
//! No existing GUI shows 19x19 boards, multi-leg captures, shots and drops together, so koma
//! serves its own page. The server is small on purpose: one game, held in memory
//! ([`session`]), changed only through a JSON API ([`api`]) whose every answer is the whole
//! game state ([`state`]), and one self-contained page drawn from the variant's data, so every
//! built-in variant and variant file works without page changes. The engine's moves come from
//! the same [`crate::search::Searcher`] the engine protocols use.
//!
//! - [`game`]: the game record: start, moves, who played them, the result;
//! - [`state`]: the state document the page draws;
//! - [`session`]: the game plus the engine, and the rule that nothing changes while it thinks;
//! - [`api`]: requests to answers, without any HTTP (so tests call it directly);
//! - [`server`]: the HTTP front (tiny_http) and the embedded page.

pub mod api;
pub mod game;
pub mod server;
pub mod session;
pub mod state;

pub use api::{handle, ApiResponse};
pub use server::{PlayServer, PAGE};
pub use session::{EngineDefaults, Session};
