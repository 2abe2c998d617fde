//! The one game loop of koma: many games at once over batching evaluators, for self-play and
//! for matches alike (KataGo plays both through one loop), so tree reuse, searches and their
//! stall guard, resignation and length adjudication follow the same rules wherever a game is
//! played.
//!
//! - [`host`]: what the one who runs games provides ([`Host`]): games to start, each side's
//!   turn, the move chosen after a search, what to do with a finished game;
//! - `game`: one game in flight and the rules of its loop;
//! - `run`: the rounds of [`play_games`].

mod game;
pub mod host;
mod run;

pub use host::{GameStart, Host, ResignRule, TreeSpec, Turn};
pub use run::play_games;
