//! Hook Shogi's Emperor rule: a piece with `no_capture_protected_royal` may not capture an
//! enemy royal piece that is protected, even to win the game.
//!
//! Protected means: after the capture, another piece of the victim's side could capture on that
//! square on its next move. That is tested on the position after the move, so lines the capturer
//! opened or closed count, and with pseudo-legal attacks (a protector's own restrictions, such
//! as this rule for an enemy Emperor, are not applied again, which would never end).

use crate::mv::Move;
use crate::position::Position;
use std::sync::Arc;

impl Position {
    /// Whether `mv` is a capture of an enemy royal piece on the destination by a piece under
    /// the rule.
    #[inline]
    pub(crate) fn captures_royal_under_rule(&self, mv: &Move) -> bool {
        if mv.is_drop() || mv.to() == mv.from() {
            return false;
        }
        let v = &self.variant;
        let p = self.board[mv.from().index()];
        let q = self.board[mv.to().index()];
        v.protected_royal_rule.contains(p)
            && q.is_piece()
            && q.color() != p.color()
            && v.is_royal(q)
    }

    /// Removes the captures of protected royal pieces by pieces under the rule.
    pub(crate) fn retain_unprotected_royal_captures(&mut self, moves: &mut Vec<Move>) {
        if !moves.iter().any(|m| self.captures_royal_under_rule(m)) {
            return;
        }
        let them = self.side.opposite();
        let variant = Arc::clone(&self.variant);
        moves.retain(|&m| {
            let p = self.board[m.from().index()];
            if m.is_drop() || !variant.protected_royal_rule.contains(p) {
                return true;
            }
            if !self.captures_royal_under_rule(&m) {
                return true;
            }
            self.make_move_inner(m, false);
            let protected = self.is_attacked(m.to(), them);
            self.unmake_move();
            !protected
        });
    }
}
