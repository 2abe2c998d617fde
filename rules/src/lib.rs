//! koma-rules: the rules core of koma.
//!
//! One generic, data-driven engine for large shogi variants: a variant is a TOML file listing
//! its pieces in XBetza, its setup and rule flags ([`Variant`]); the XBetza is compiled once
//! into move tables ([`xbetza`]); a [`Position`] generates legal moves, makes and unmakes them
//! with an incremental Zobrist hash, and says when the game is over ([`Outcome`]).
//!
//! Rules that go beyond the piece moves have modules of their own, so that the generic code stays
//! free of special cases: [`promotion`] (what a piece becomes at the end of its move: zone and
//! capture promotion, switchbacks, contagion), [`counters`] (limits on turn skips and checks in
//! a row), [`protected_royals`] (Hook Shogi's Emperor), [`burning`] (burning pieces) and [`ko_shogi`] (the named rule module
//! of Ko Shogi: shooting, burning, nets, the priests, chained and reverting promotions and its
//! win condition).

mod area_moves;
pub mod attacks;
pub(crate) mod board_scan;
#[cfg(test)]
mod board_scan_tests;
pub mod burning;
pub mod checks;
pub mod color;
pub mod command_role;
pub mod counters;
pub mod diagram;
mod exposure;
pub mod fen;
pub mod geometry;
pub mod ko_shogi;
pub mod legal;
pub mod lion_trading;
pub mod mate;
pub mod material;
pub mod movegen;
pub mod mv;
pub mod notation;
pub mod outcome;
pub mod outcome_text;
pub mod perft;
pub mod piece;
pub mod position;
pub mod promotion;
pub mod protected_royals;
pub mod shot;
pub mod square;
#[cfg(test)]
mod test_positions;
pub mod variant;
mod walker;
pub mod xbetza;
pub mod zobrist;

pub use checks::Checks;
pub use color::Color;
pub use command_role::CommandRole;
pub use diagram::{Diagram, How};
pub use fen::PositionTextError;
pub use geometry::Geometry;
pub use material::{PieceValues, ROYAL_VALUE};
pub use mv::{Move, Promotion};
pub use notation::{format_move, move_legs, parse_move_text, Leg, NotationError};
pub use outcome::{DrawReason, Outcome, WinReason};
pub use outcome_text::OutcomeTextError;
pub use perft::{perft, perft_copy_make, perft_divide};
pub use piece::{Piece, PieceKind};
pub use position::Position;
pub use shot::Shot;
pub use square::Square;
pub use variant::{load_variant, Variant, VariantError};
