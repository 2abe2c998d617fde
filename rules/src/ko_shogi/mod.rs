//! Ko Shogi (広将棋): the rules that are not piece moves, in one place.
//!
//! The specification is `shared/rules/ko-shogi.md` (sections are cited as §n). The variant file
//! `configs/variants/ko-shogi.toml` gives every piece's moves in XBetza as far as XBetza says
//! them, and names this module (`rules.module = "ko-shogi"`). The module finds the pieces it
//! acts on by their IDs and adds what the notation cannot say:
//! - `moves`: how each kind generates (its role): the XBetza table alone; the pawn, whose
//!   forward step needs its own drum (§3.4.8); the double movers whose second leg may use
//!   another atom or must keep the first jump's long direction (MA, BD, WG, CA, PCA, §3.4.1,
//!   §3.4.3); the thunderclap's self-avoiding walk (§3.4.4);
//! - `priests`: the priest move and the double priest move (§3.4.5), the priest dependency
//!   of drum and banner, and the fog–light reversion (§8.5);
//! - `shooting`: shots after a non-capturing move, ranges, clear lines, immunities and the
//!   fog aura (§5);
//! - `burning`: the poison flame's arrival burn and the passive burn (§6);
//! - `nets`: immobilization by the skyward and earthward nets (§7);
//! - `promotion`: which moves promote (zone, forced capture triggers, §8) and the clerk chain
//!   (§8.4);
//! - `commanders`: who still commands (§10), and check on a sole objective piece for the
//!   perpetual-check rule;
//! - `make`: the resolution order of a move (§9), with every square it changes journaled so
//!   that unmake is exact and the Zobrist hash stays incremental.
//!
//! Everything the rules depend on is on the board (promoted forms are kinds of their own, a
//! reverted piece is its unpromoted kind again, immobilization is recomputed every turn), so
//! the position, its hash and its text need nothing beyond the generic ones.

mod burning;
mod commanders;
mod make;
mod moves;
mod nets;
mod priests;
mod promotion;
mod shooting;
mod tables;
mod threats;

pub(crate) use moves::Context;
pub use tables::KoShogi;
pub(crate) use tables::{Role, Shooter};

use crate::color::Color;
use crate::geometry::Geometry;
use crate::piece::{Piece, PieceKind};
use crate::position::Position;
use crate::square::Square;

impl KoShogi {
    /// Whether `color` has a piece of `kind` on the board.
    #[inline]
    pub(crate) fn has(&self, pos: &Position, kind: PieceKind, color: Color) -> bool {
        pos.count(kind, color) > 0
    }

    /// The squares holding `color`'s pieces of `kind`.
    pub(crate) fn squares_of(&self, pos: &Position, kind: PieceKind, color: Color) -> Vec<Square> {
        if !self.has(pos, kind, color) {
            return Vec::new();
        }
        let p = Piece::new(kind, color);
        pos.variant
            .geometry
            .squares()
            .iter()
            .copied()
            .filter(|sq| pos.board[sq.index()] == p)
            .collect()
    }
}

/// Box distance between two board squares: the larger of the file and rank distances.
#[inline]
pub(crate) fn box_distance(g: &Geometry, a: Square, b: Square) -> u8 {
    let df = g.file_of(a).abs_diff(g.file_of(b));
    let dr = g.rank_of(a).abs_diff(g.rank_of(b));
    df.max(dr)
}

/// Whether two board squares are on one line (rank, file or diagonal) at most `n` steps apart.
#[inline]
pub(crate) fn on_line_within(g: &Geometry, a: Square, b: Square, n: u8) -> bool {
    let df = g.file_of(a).abs_diff(g.file_of(b));
    let dr = g.rank_of(a).abs_diff(g.rank_of(b));
    (df == 0 || dr == 0 || df == dr) && df.max(dr) <= n
}
