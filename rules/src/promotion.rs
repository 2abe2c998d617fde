//! What a piece is at the end of its move: zone promotion, capture promotion, switchbacks,
//! contagion and the optional last-rank promotion.
//!
//! The answer is computed in one place, [`Variant::end_kind`], which both the move generator
//! (to write the move's promotion field) and `make_move` (to put the piece down) call, so the
//! two cannot disagree.
//!
//! Under `promotion = "capture"` (Shoko, Gyaku-sama and Hook Shogi):
//! - a capture turns the capturer into its precomputed `after_capture` kind: its promoted form
//!   if it has one; with `switchback`, a promoted piece turns back to its unpromoted form; a
//!   piece that `never_flips` stays as it is;
//! - contagion overrides that: capturing a `contagious` piece turns the capturer into the
//!   kind it names, unless the capturer is `contagion_immune`. When one move captures several
//!   contagious pieces, the last one in the order of the move text (kill squares in order, then
//!   the destination) decides;
//! - a move without capture keeps the kind, except that a piece with the last-rank option
//!   ending on the farthest rank may promote (`+`) or decline (`=`).
//!
//! The flip happens once, at the end of the move, whatever the number of captures.
//!
//! The move's promotion field is its identity: `+` ([`Promotion::Promote`]) exactly when the
//! piece ends the move as another kind (a promotion, forced or chosen, a contagious promotion,
//! or a switchback demotion), `=` when an open promotion is declined, nothing otherwise.

use crate::mv::{Move, Promotion};
use crate::piece::{Piece, PieceKind};
use crate::position::Position;
use crate::variant::{PieceType, PromotionRule, Rules, Variant};

impl Variant {
    /// The kind a piece of kind `mover` ends its move as. `victims` are the kinds it captured,
    /// in the order of the move text; `promote` is whether the move's promotion field is `+`
    /// (which decides only where the rules leave a choice).
    pub fn end_kind(
        &self,
        mover: PieceKind,
        victims: impl IntoIterator<Item = PieceKind>,
        promote: bool,
    ) -> PieceKind {
        // Outside the capture rule a piece changes kind only by promoting: answered without
        // reading its piece type (the material estimate asks this of every capture).
        if !promote && self.rules.promotion != PromotionRule::Capture {
            return mover;
        }
        let pt = self.piece(mover);
        if self.rules.promotion == PromotionRule::Capture {
            let mut victims = victims.into_iter().peekable();
            if victims.peek().is_some() {
                let mut end = pt.after_capture;
                if self.has_contagion && !pt.contagion_immune {
                    for v in victims {
                        if let Some(c) = self.piece(v).contagious {
                            end = c;
                        }
                    }
                }
                return end;
            }
        }
        match (promote, pt.promotes_to) {
            (true, Some(to)) => to,
            _ => mover,
        }
    }
}

/// Fills in each kind's `after_capture` once the promotion links are known.
pub(crate) fn resolve_after_capture(pieces: &mut [PieceType], rules: &Rules) {
    for (k, p) in pieces.iter_mut().enumerate() {
        let own = PieceKind(k as u8);
        p.after_capture = if rules.promotion != PromotionRule::Capture || p.never_flips {
            own
        } else if rules.switchback {
            p.demotes_to.or(p.promotes_to).unwrap_or(own)
        } else {
            p.promotes_to.unwrap_or(own)
        };
    }
}

impl Position {
    /// Adds a board move of `p` under capture promotion: a capture gets `+` when it changes the
    /// piece (and is dropped if the piece may not capture one of its victims); a non-capture to
    /// the farthest rank by a piece with the last-rank option comes as `+` and `=`.
    #[inline(always)]
    pub(crate) fn add_capture_rule_move(&self, p: Piece, mv: Move, out: &mut Vec<Move>) {
        let v = &*self.variant;
        let pt = v.piece(p.kind());
        let (from, to) = (mv.from(), mv.to());
        // The origin counts as empty: a move back to it (igui) captures only on the way.
        let dest = if to != from {
            self.board[to.index()]
        } else {
            Piece::EMPTY
        };
        if dest.is_empty() && !mv.has_kills() {
            // Pushed as built again from its squares (the same move): a copy of `mv` went
            // through memory, and most generated moves take this path.
            let quiet = Move::new(from, to);
            debug_assert_eq!(quiet, mv);
            if pt.last_rank_promotion && to != from && v.on_last_rank(p.color(), to) {
                out.push(quiet.with_promotion(Promotion::Promote));
                out.push(quiet.with_promotion(Promotion::Decline));
            } else {
                out.push(quiet);
            }
            return;
        }
        let kills = mv.kills();
        let victims = kills
            .iter()
            .map(|k| self.board[k.index()].kind())
            .chain(dest.is_piece().then(|| dest.kind()));
        if !pt.cannot_capture.is_empty() && victims.clone().any(|k| pt.cannot_capture.contains(k)) {
            return;
        }
        let end = if v.has_contagion {
            v.end_kind(p.kind(), victims, true)
        } else {
            pt.after_capture
        };
        out.push(if end != p.kind() {
            mv.with_promotion(Promotion::Promote)
        } else {
            mv
        });
    }
}
