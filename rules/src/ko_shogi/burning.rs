//! Burning (§6): a poison flame that completes a move removes every piece next to where it
//! ends, of both sides (arrival burn); then a moving piece that ends next to an enemy poison
//! flame is removed itself (passive burn), its kills standing. Burn losses are consequences of
//! a move, not kills: they never trigger a promotion.

use super::KoShogi;
use crate::color::Color;
use crate::mv::Move;
use crate::piece::Piece;
use crate::position::Position;
use crate::square::Square;

impl KoShogi {
    /// Step 3 of §9: the arrival burn around `at`.
    pub(crate) fn arrival_burn(&self, pos: &mut Position, at: Square) {
        for d in self.neighbours {
            let n = at.offset(d);
            if pos.board[n.index()].is_piece() {
                pos.set_square(n, Piece::EMPTY);
            }
        }
    }

    /// Whether a piece of `mover` ending on `at` stands next to an enemy poison flame (step 4
    /// of §9, on the board after the kills and the arrival burn).
    pub(crate) fn next_to_enemy_flame(&self, pos: &Position, mover: Color, at: Square) -> bool {
        let flame = Piece::new(self.k.pf, mover.opposite());
        pos.counts[flame.index()] > 0
            && self
                .neighbours
                .iter()
                .any(|&d| pos.board[at.offset(d).index()] == flame)
    }

    /// Whether the piece making `mv` is still on the board after the burns, judged before the
    /// move (for the promotion choices): a poison flame clears its neighbours first, so it
    /// always survives; another piece dies next to an enemy flame that the move does not kill.
    pub(crate) fn mover_survives(&self, pos: &Position, p: Piece, mv: &Move) -> bool {
        if p.kind() == self.k.pf {
            return true;
        }
        let flame = Piece::new(self.k.pf, p.color().opposite());
        if pos.counts[flame.index()] == 0 {
            return true;
        }
        !self.neighbours.iter().any(|&d| {
            let n = mv.to().offset(d);
            pos.board[n.index()] == flame && !mv.kills().contains(&n)
        })
    }
}
