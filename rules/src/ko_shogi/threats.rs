//! What Ko Shogi's special moves threaten, for the attack counts the network reads: a piece's
//! table shows its steps and slides, but not its shots, the second and third captures of its
//! multi-leg moves, or a poison flame's arrival burn. These come from the moves themselves.

use super::moves::Context;
use super::{KoShogi, Role};
use crate::color::Color;
use crate::mv::Move;
use crate::piece::Piece;
use crate::position::Position;
use crate::square::Square;

impl KoShogi {
    /// Whether the moves of `p` reach beyond its table (priests, shooters, double movers, the
    /// thunderclap) or burn (the poison flame), so that its threats must be generated.
    pub(crate) fn has_special_threats(&self, p: Piece) -> bool {
        p.kind() == self.k.pf || !matches!(self.roles[p.kind().index()], Role::Table | Role::Pawn)
    }

    /// Appends to `hits` the squares on which the piece `p` on `from` could remove an enemy
    /// piece with its next move: every kill and shot of its moves, an enemy on a destination,
    /// and, for a poison flame, the enemies next to each destination. `scratch` is reused
    /// between calls. Squares may repeat.
    pub(crate) fn special_threats(
        &self,
        pos: &Position,
        ctx: &Context,
        from: Square,
        p: Piece,
        scratch: &mut Vec<Move>,
        hits: &mut Vec<Square>,
    ) {
        scratch.clear();
        self.generate_piece(pos, ctx, from, p, scratch);
        let them = p.color().opposite();
        let burns = p.kind() == self.k.pf;
        for m in scratch.iter() {
            hits.extend_from_slice(m.kills());
            let to = m.to();
            if to != from && pos.board[to.index()].is_color(them) {
                hits.push(to);
            }
            if burns {
                for d in self.neighbours {
                    let n = to.offset(d);
                    if pos.board[n.index()].is_color(them) {
                        hits.push(n);
                    }
                }
            }
        }
    }

    /// The squares next to `color`'s poison flames: a piece of the other side that ends its
    /// move on one of them burns (§6.2).
    pub(crate) fn burn_zone(&self, pos: &Position, color: Color) -> Vec<Square> {
        let mut zone = Vec::new();
        for sq in self.squares_of(pos, self.k.pf, color) {
            for d in self.neighbours {
                let n = sq.offset(d);
                if !pos.board[n.index()].is_wall() && !zone.contains(&n) {
                    zone.push(n);
                }
            }
        }
        zone
    }
}
