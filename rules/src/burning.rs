//! Burning (Tenjiku Shogi's Fire Demon), for the kinds a variant file marks `burns = true`.
//!
//! - Arrival burn: after a move of a burning piece that it survives, every enemy piece on the
//!   eight squares next to where it ends is removed (also after a pass, which ends where it
//!   began). A piece that becomes a burner by promoting does not burn on that move.
//! - Passive burn: a piece whose move ends next to an enemy burner is removed after the move's
//!   captures, which stand; a burner removed so burns nothing. The burners that count are
//!   those on the board as the move starts, so a piece that takes a burner on the way and ends
//!   next to its square is burnt by it.
//!
//! Burns are consequences of a move, not kills: the move text does not show them. Make records
//! burnt pieces with the captures, so unmake restores them.

use crate::color::Color;
use crate::piece::Piece;
use crate::position::{Position, Undo};
use crate::square::Square;

impl Position {
    /// The board squares next to `sq`.
    pub(crate) fn neighbours(&self, sq: Square) -> impl Iterator<Item = Square> + '_ {
        self.variant
            .geometry
            .king_steps()
            .into_iter()
            .map(move |d| Square((sq.0 as i32 + d) as u16))
            .filter(|n| !self.board[n.index()].is_wall())
    }

    /// Whether a piece of `mover` ending its move on `to` stands next to a burner of the other
    /// side, on the board as it is now.
    pub(crate) fn next_to_enemy_burner(&self, mover: Color, to: Square) -> bool {
        let burners = &self.variant.burner_codes;
        self.neighbours(to).any(|n| {
            let q = self.board[n.index()];
            q.is_color(mover.opposite()) && burners.contains(q)
        })
    }

    /// Removes every enemy piece next to `at`, where the side to move's burner has just ended
    /// its move, recording them in `undo` as captures.
    pub(crate) fn arrival_burn(&mut self, at: Square, undo: &mut Undo) {
        let them = self.side.opposite();
        for d in self.variant.geometry.king_steps() {
            let n = Square((at.0 as i32 + d) as u16);
            let q = self.board[n.index()];
            if q.is_color(them) {
                self.capture(n, q, undo);
            }
        }
    }

    /// The squares of `by`'s burners.
    fn burners_of(&self, by: Color) -> impl Iterator<Item = Square> + '_ {
        self.variant
            .geometry
            .squares()
            .iter()
            .copied()
            .filter(move |s| {
                let q = self.board[s.index()];
                q.is_color(by) && self.variant.burner_codes.contains(q)
            })
    }

    /// Appends the squares the burner `p` on `from` would burn by one of its moves: those next
    /// to a destination where it survives. Squares may repeat.
    pub(crate) fn burn_reach(&self, from: Square, p: Piece, out: &mut Vec<Square>) {
        let mut moves = Vec::new();
        self.generate_kind_from(from, p, &mut moves);
        let mut ends: Vec<Square> = moves.iter().map(|m| m.to()).collect();
        ends.sort_unstable();
        ends.dedup();
        for to in ends {
            if !self.next_to_enemy_burner(p.color(), to) {
                out.extend(self.neighbours(to));
            }
        }
    }

    /// Whether the burner `p` on `from` could burn `sq` by one of its moves.
    fn burns_square(&self, from: Square, p: Piece, sq: Square) -> bool {
        let near = |a: Square| self.neighbours(a).any(|n| n == sq);
        let mut moves = Vec::new();
        self.generate_kind_from(from, p, &mut moves);
        moves
            .iter()
            .any(|m| near(m.to()) && !self.next_to_enemy_burner(p.color(), m.to()))
    }

    /// The squares of `by`'s burners that could burn `sq` by their next move (an attack on
    /// `sq` that no move's kill squares show), appended to `out`.
    pub(crate) fn burn_attackers(&self, sq: Square, by: Color, out: &mut Vec<Square>) {
        for from in self.burners_of(by) {
            if self.burns_square(from, self.board[from.index()], sq) {
                out.push(from);
            }
        }
    }

    /// Whether some burner of `by` could burn `sq` by its next move.
    pub(crate) fn burn_attacked(&self, sq: Square, by: Color) -> bool {
        self.burners_of(by)
            .any(|from| self.burns_square(from, self.board[from.index()], sq))
    }

    /// Whether `p` is a piece of a burning kind.
    #[inline]
    pub fn is_burner(&self, p: Piece) -> bool {
        p.is_piece() && self.variant.burner_codes.contains(p)
    }
}
