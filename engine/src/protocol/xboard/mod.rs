//! XBoard/CECP v2.
//!
//! Moves are koma's canonical text, which is what XBoard itself sends and expects for these
//! games: squares `a1`..., a multi-leg move leg by leg with commas (`e5f6,f6g7`, the igui
//! `e5f6,f6e5`), the turn skip as XBoard's null move `@@@@` (koma's `e5e5` is read too), drops
//! as `P@e5` and promotions with `+` (`=` declines). XBoard knows pieces by one letter, so
//! drops and positions use the variant's letters ([`crate::protocol::letters`]) where it has
//! them.
//!
//! XBoard calls the side that moves first "white"; koma calls it Black (sente). Results and
//! colours sent to XBoard are in XBoard's naming.
//!
//! - [`session`]: the command loop, clocks and the engine's moves;
//! - [`describe`]: for a variant XBoard does not know, the engine announces it in `variants`
//!   and, when XBoard selects it, describes it: `setup` gives the board size, holdings, the
//!   piece-to-letter table and the start position, and `piece` gives each piece's moves in
//!   Betza notation, so XBoard can draw the board and highlight moves;
//! - [`board`]: XBoard's FEN and holdings to koma's position text and back;
//! - [`root_moves`]: the legal moves XBoard would refuse or relay otherwise, left out;
//! - [`thinking`]: moves and thinking lines as XBoard reads them.

pub mod board;
pub mod describe;
pub mod root_moves;
pub mod session;
pub mod thinking;

pub use describe::{describe, variant_name};
pub use root_moves::xboard_root_moves;
pub use session::run;
