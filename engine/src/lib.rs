//! koma-engine: a trained model playing one game at a time.
//!
//! [`search`] is the one search driver of the front ends that play a single game (tree reuse
//! between moves, batched leaves, time limits) and the one model loader of every front end;
//! [`game`] is the record of a game those front ends keep; [`protocol`] speaks XBoard/CECP,
//! USI and UCI on standard input and output. The browser front end (`koma-play`) and the
//! arena (`koma-arena`) build on these.

pub mod game;
pub mod protocol;
pub mod search;
