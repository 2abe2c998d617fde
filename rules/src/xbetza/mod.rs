//! XBetza, the move notation of the variant definitions, compiled once into move tables.
//!
//! See `shared/rules/xbetza.md` for the notation as the definitions use it.

mod area;
mod compile;
pub mod directions;
pub mod parse;
mod program;

pub use compile::{compile, CompileError};
pub use parse::{parse, Atom, Component, LegSpec, Modifiers, ParseError};
pub use program::{Leap, Leg, LegNode, MoveTable, NodeReach, Path, PathReach, Slide, UNLIMITED};
