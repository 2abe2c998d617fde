//! The classical baseline: `alphabeta:depth=N[:millis=T][:contempt=C]`, an alpha-beta searcher on the
//! variant's own material values (the mobility-derived [`koma_rules::PieceValues`]) with a
//! quiescence search over captures and a proof-number mate search at the root. It needs no
//! network and plays every variant the rules core runs, so it grades models where no outside
//! engine exists: a depth-2 search already never leaves a piece hanging and takes what is
//! offered, which is exactly what a network must learn first.
//!
//! - the searcher itself lives with the search (`koma_mcts::alphabeta`), since play's
//!   tactics check of its chosen move runs it too; it is re-exported here;
//! - [`spec`]: the player string and its settings.

pub mod spec;

pub use koma_mcts::alphabeta::{AlphaBeta, SearchLimits, SearchOutcome};
pub use spec::AlphaBetaSpec;
