//! The classical baseline: `alphabeta:depth=N[:millis=T][:contempt=C]`, an alpha-beta searcher on the
//! variant's own material values (the mobility-derived [`koma_rules::PieceValues`]) with a
//! quiescence search over captures and a proof-number mate search at the root. It needs no
//! network and plays every variant the rules core runs, so it grades models where no outside
//! engine exists: a depth-2 search already never leaves a piece hanging and takes what is
//! offered, which is exactly what a network must learn first.
//!
//! - [`search`]: the searcher itself;
//! - [`spec`]: the player string and its settings.

pub mod search;
pub mod spec;

pub use search::{AlphaBeta, SearchLimits, SearchOutcome};
pub use spec::AlphaBetaSpec;
