//! Immobilization (§7): the nearest piece on each ranging ray of an enemy skyward net (left,
//! right, both forward diagonals) or earthward net (left, right, both backward diagonals), at
//! any distance, makes no move of any kind. Recomputed from the board every turn, so it needs
//! no state of its own.

use super::KoShogi;
use crate::color::Color;
use crate::position::Position;
use crate::square::Square;

impl KoShogi {
    /// The squares of `us`'s pieces held by the opponent's nets.
    pub(crate) fn immobilized(&self, pos: &Position, us: Color) -> Vec<Square> {
        let them = us.opposite();
        let mut frozen = Vec::new();
        let g = &pos.variant.geometry;
        // The owner's forward, in ranks.
        let fwd = if them == Color::Black { 1 } else { -1 };
        for (net, vertical) in [(self.k.sk, fwd), (self.k.ew, -fwd)] {
            let rays = [
                g.delta(-1, 0),
                g.delta(1, 0),
                g.delta(-1, vertical),
                g.delta(1, vertical),
            ];
            for sq in self.squares_of(pos, net, them) {
                for d in rays {
                    let mut t = sq.offset(d);
                    while pos.board[t.index()].is_empty() {
                        t = t.offset(d);
                    }
                    if pos.board[t.index()].is_color(us) {
                        frozen.push(t);
                    }
                }
            }
        }
        frozen
    }
}
