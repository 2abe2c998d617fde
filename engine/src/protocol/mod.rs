//! `koma-engine`: a trained model over the standard engine protocols, so GUIs, tournament
//! managers and other engines' tools can play it.
//!
//! The protocol is recognised from the first command (`xboard`, `usi` or `uci`), and each has
//! its module: [`xboard`] (CECP v2, with the board and pieces sent to the GUI for variants it
//! does not know), [`usi`] (Hand Shogi with a documented mapping to SFEN letters) and [`uci`]
//! (with `UCI_Variant`, in koma's notation). They share the engine's state ([`session`]), the
//! background search ([`job`]), time management ([`clock`]), line output ([`out`]) and, for
//! UCI and USI, `position`, `go` and `info` ([`uci_like`]); [`serve`] recognises the protocol. The
//! search itself is [`crate::search::Searcher`], as in `koma play`.
//!
//! Malformed or illegal input gets the protocol's own error reply and the engine goes on.

pub mod clock;
pub mod job;
pub mod letters;
pub mod out;
pub mod serve;
pub mod session;
pub mod uci;
pub mod uci_like;
pub mod usi;
pub mod xboard;

pub use serve::serve;
