//! Making a move in the resolution order of §9: kills, the mover put down, arrival burn,
//! passive burn, promotion and clerk chain, priest-death reversion, fog–light reversion, then
//! who still commands. Every square changed goes through `Position::set_square`, which
//! journals its old content and keeps hash and piece counts, so unmake restores the journal.

use super::KoShogi;
use crate::mv::{Move, Promotion};
use crate::piece::Piece;
use crate::position::{Position, Undo, MAX_CAPTURED};
use crate::square::Square;

impl KoShogi {
    /// Plays `mv`, a move generated for the side to move.
    pub(crate) fn make_move(&self, pos: &mut Position, mv: Move, track_check: bool) {
        let us = pos.side;
        let (from, to) = (mv.from(), mv.to());
        let p = pos.board[from.index()];
        debug_assert!(
            p.is_color(us),
            "move of a square without a piece of the side to move"
        );
        let mut undo = Undo {
            mv,
            moved: p,
            captured: [(Square(0), Piece::EMPTY); MAX_CAPTURED],
            ncaptured: 0,
            hash_before: pos.hash,
            royal_sq_before: pos.royal_sq,
            royals_before: pos.royals,
            counters_before: pos.counters,
            gave_check: false,
            journal_len: pos.journal.len() as u32,
        };
        // 2. Kills and the mover on its final square.
        pos.set_square(from, Piece::EMPTY);
        for &k in mv.kills() {
            pos.set_square(k, Piece::EMPTY);
        }
        pos.set_square(to, p);
        // 3, 4. Burns.
        let mut alive = true;
        if p.kind() == self.k.pf {
            self.arrival_burn(pos, to);
        } else if self.next_to_enemy_flame(pos, us, to) {
            pos.set_square(to, Piece::EMPTY);
            alive = false;
        }
        // 5. Promotion, as the move says (generation decided which moves promote).
        if alive && mv.promotion() == Promotion::Promote {
            let to_kind = pos.variant.piece(p.kind()).promotes_to;
            debug_assert!(
                to_kind.is_some(),
                "a promoting move of a piece that cannot promote"
            );
            if let Some(kind) = to_kind {
                pos.set_square(to, Piece::new(kind, us));
                if p.kind() == self.k.cl {
                    self.clerk_chain(pos, us);
                }
            }
        }
        // 6, 7. Reversions.
        self.priest_death_reversion(pos);
        self.fog_light_reversion(pos);
        // 8. Who still commands; the outcome test reads it.
        self.refresh_commanders(pos);
        pos.side = us.opposite();
        pos.hash ^= pos.variant.zobrist.white_to_move;
        pos.ply += 1;
        let gave_check = pos.update_counters(us, &mv);
        undo.gave_check = gave_check.unwrap_or_else(|| {
            track_check && pos.variant.rules.perpetual_check_loses && self.in_check(pos, pos.side)
        });
        pos.history.push(undo);
    }
}
