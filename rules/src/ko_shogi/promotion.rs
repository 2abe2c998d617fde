//! Promotion (§8): which moves promote, and the clerk chain.
//!
//! A piece that can promote (an unpromoted kind with a promoted form) and is still on the
//! board after the burns
//! - must promote when it kills an enemy G, GV, MT, BN or DR; when it is a step mover and
//!   kills an enemy SW, DA, FW or TC; when it is a cavalryman and kills an enemy Frankish
//!   cannon (§8.3; shots count, burns do not);
//! - else may promote when its origin or its destination is in its promotion zone (§8.2);
//! - but a drum or banner promotes by no rule while its side's priest is dead (§8.5, §8.6).
//!
//! So a move comes once with `+` (forced), as `+` and `=` (a choice), or once without suffix.
//! A piece that is burned has no promotion. When a clerk promotes, every unpromoted advance
//! and rear guard of its side promotes with it and every enemy poison flame is removed (§8.4).

use super::KoShogi;
use crate::color::Color;
use crate::mv::{Move, Promotion};
use crate::piece::Piece;
use crate::position::Position;
use crate::variant::KindSet;

impl KoShogi {
    /// Adds `mv` of the piece `p` with its promotion choices, or drops it when it would
    /// capture a kind the piece may not capture by displacement (§4.3: chariots and the heavenly
    /// fortress, the `cannot_capture` of the variant file).
    ///
    /// Inlined into each generator's loop: the moves that can have no choice (a piece that
    /// does not promote, a quiet move outside the zone: most of them) are pushed here, the
    /// rest go out of line to [`KoShogi::add_promotable_move`]. As a called function, this
    /// read each move back whole from the narrow stores that had just written it to the
    /// stack, and stalled there; Ko Shogi's move generation is 1.14-1.20x faster inlined.
    #[inline(always)]
    pub(crate) fn add_move(&self, pos: &Position, p: Piece, mv: Move, out: &mut Vec<Move>) {
        let v = &*pos.variant;
        let pt = v.piece(p.kind());
        let (from, to) = (mv.from(), mv.to());
        let dest = if to != from {
            pos.board[to.index()]
        } else {
            Piece::EMPTY
        };
        if dest.is_piece() && pt.cannot_capture.contains(dest.kind()) {
            return;
        }
        let us = p.color();
        let settled = pt.promotes_to.is_none()
            || (!dest.is_piece() && !mv.has_kills() && !v.in_zone(us, from) && !v.in_zone(us, to));
        if !settled {
            return self.add_promotable_move(pos, p, mv, dest, out);
        }
        if mv.has_kills() {
            out.push(mv);
        } else {
            // `mv` is kept in memory for the out-of-line path: pushed as built again.
            out.push(mv.rebuilt_plain());
        }
    }

    /// [`KoShogi::add_move`] for a piece that promotes, making a capture or touching the
    /// zone: the choices are open unless the burns take the mover, no priest is left, or a
    /// victim forces the promotion.
    #[inline(never)]
    fn add_promotable_move(
        &self,
        pos: &Position,
        p: Piece,
        mv: Move,
        dest: Piece,
        out: &mut Vec<Move>,
    ) {
        let v = &*pos.variant;
        let us = p.color();
        if !self.mover_survives(pos, p, &mv)
            || (self.needs_priest.contains(p.kind()) && !self.priest_lives(pos, us))
        {
            out.push(mv);
            return;
        }
        // A move that takes nothing is forced by no victim: only the zone decides.
        let takes = dest.is_piece() || mv.has_kills();
        let mut victims = KindSet::default();
        if takes {
            for &k in mv.kills() {
                victims.insert(pos.board[k.index()].kind());
            }
            if dest.is_piece() {
                victims.insert(dest.kind());
            }
        }
        if takes && self.forced(p, victims) {
            out.push(mv.with_promotion(Promotion::Promote));
        } else if v.in_zone(us, mv.from()) || v.in_zone(us, mv.to()) {
            out.push(mv.with_promotion(Promotion::Promote));
            out.push(mv.with_promotion(Promotion::Decline));
        } else {
            out.push(mv);
        }
    }

    /// Whether killing `victims` forces the promotion of `p` (§8.3).
    fn forced(&self, p: Piece, victims: KindSet) -> bool {
        let kind = p.kind();
        victims.0 & self.command_victims.0 != 0
            || (self.step_movers.contains(kind) && victims.0 & self.strong_victims.0 != 0)
            || (kind == self.k.cm && victims.contains(self.k.fc))
    }

    /// §8.4: `color`'s clerk has just promoted.
    pub(crate) fn clerk_chain(&self, pos: &mut Position, color: Color) {
        let k = &self.k;
        let (ag, rg) = (Piece::new(k.ag, color), Piece::new(k.rg, color));
        let flame = Piece::new(k.pf, color.opposite());
        let any = |pos: &Position, q: Piece| pos.counts[q.index()] > 0;
        if !(any(pos, ag) || any(pos, rg) || any(pos, flame)) {
            return;
        }
        for i in 0..pos.variant.geometry.num_squares() {
            let sq = pos.variant.geometry.squares()[i];
            let q = pos.board[sq.index()];
            if q == ag {
                pos.set_square(sq, Piece::new(k.sk, color));
            } else if q == rg {
                pos.set_square(sq, Piece::new(k.ew, color));
            } else if q == flame {
                pos.set_square(sq, Piece::EMPTY);
            }
        }
    }
}
