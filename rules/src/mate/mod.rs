//! Forced wins, for every searcher: a few-ply mate search cheap enough for every new MCTS
//! leaf ([`short`]), a proof-number solver for the root and the classical baseline
//! ([`dfpn`]), and what both are made of ([`threat`]: the attacker's checks, the defender's
//! first legal move). A forced mate is never left to a network (as dlshogi and YaneuraOu's MCTS
//! engine do it).

pub mod dfpn;
pub mod short;
pub mod threat;

pub use dfpn::{MateAnswer, MateSolver};
pub use short::Budget;
pub use threat::CheckTest;
