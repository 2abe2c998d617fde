//! The trading rules of Lions (Chu Shogi and the games that took its Lion), for the kinds a
//! variant file marks `lion = true`:
//!
//! 1. A Lion may not capture an enemy Lion that is not next to it when that Lion is protected,
//!    unless the move first captured a piece that is not `trade_cheap` (the "bridge": a Lion
//!    that takes a Pawn or Go-between on the way is still under the rule).
//! 2. Counterstrike: after a Lion was captured by a piece that is not a Lion, the reply may not
//!    capture a Lion with a piece that is not a Lion.
//!
//! Protected means: after the capture, the opponent could capture on that square on its next
//! move. It is judged on the position after the move (so pieces the Lion took on the way no
//! longer protect, and lines it opened do), with pseudo-legal attacks: under the royal-capture
//! rule a pinned protector still protects.
//!
//! Rule 2 depends on the move before, so it is part of the position: a flag kept with the rule
//! counters ([`crate::counters`]), hashed with counter key 4, restored by unmake, and written
//! in the position text as `lionban=1`.

use crate::mv::Move;
use crate::piece::Piece;
use crate::position::{Position, Undo};
use crate::square::Square;

/// Zobrist counter slot of the counterstrike ban.
const LION_BAN: usize = 4;

impl Position {
    /// Whether the side to move may not capture a Lion with a piece that is not one, because
    /// the last move captured a Lion with a piece that was not one.
    #[inline]
    pub fn lion_counterstrike_banned(&self) -> bool {
        self.counters.lion_ban
    }

    /// Sets the counterstrike flag (position text), keeping the hash.
    pub(crate) fn set_lion_ban(&mut self, ban: bool) {
        if ban != self.counters.lion_ban {
            self.hash ^= self.variant.zobrist.counter(LION_BAN, 1);
            self.counters.lion_ban = ban;
        }
    }

    /// Sets the flag for the side now to move after the move recorded in `undo`.
    pub(crate) fn update_lion_ban(&mut self, undo: &Undo) {
        let v = &self.variant;
        let took_lion = undo.captured[..undo.ncaptured as usize]
            .iter()
            .any(|(_, c)| v.piece(c.kind()).lion);
        let ban = took_lion && !v.piece(undo.moved.kind()).lion;
        self.set_lion_ban(ban);
    }

    /// Whether the trading rules forbid `mv`, a pseudo-legal move of the side to move.
    pub(crate) fn lion_rules_forbid(&mut self, mv: &Move) -> bool {
        if mv.is_drop() {
            return false;
        }
        let v = &self.variant;
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        let mover = self.board[from.index()];
        let is_enemy_lion = |q: Piece| q.is_piece() && q.color() != us && v.piece(q.kind()).lion;
        let dest = if to != from {
            self.board[to.index()]
        } else {
            Piece::EMPTY
        };
        let mover_is_lion = v.piece(mover.kind()).lion;
        if !mover_is_lion {
            return self.counters.lion_ban
                && (is_enemy_lion(dest)
                    || mv
                        .kills()
                        .iter()
                        .any(|k| is_enemy_lion(self.board[k.index()])));
        }
        if !is_enemy_lion(dest) || self.adjacent(from, to) {
            return false;
        }
        let bridge = mv.kills().iter().any(|k| {
            let q = self.board[k.index()];
            q.is_piece() && !v.piece(q.kind()).trade_cheap
        });
        if bridge {
            return false;
        }
        let them = us.opposite();
        self.make_move_inner(*mv, false);
        let protected = self.is_attacked(to, them);
        self.unmake_move();
        protected
    }

    /// Whether the trading rules forbid some pseudo-legal move here (for checks and reports).
    pub fn lion_rules_struck_out(&mut self) -> bool {
        if !self.variant.has_lions {
            return false;
        }
        let mut moves = Vec::new();
        self.generate_pseudo_legal(&mut moves);
        moves.iter().any(|m| self.lion_rules_forbid(m))
    }

    /// Removes the moves the trading rules forbid.
    pub(crate) fn retain_lion_trading_legal(&mut self, moves: &mut Vec<Move>) {
        let mut i = 0;
        while i < moves.len() {
            if self.lion_rules_forbid(&moves[i]) {
                moves.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }

    fn adjacent(&self, a: Square, b: Square) -> bool {
        let g = &self.variant.geometry;
        let df = (g.file_of(a) as i32 - g.file_of(b) as i32).abs();
        let dr = (g.rank_of(a) as i32 - g.rank_of(b) as i32).abs();
        df.max(dr) <= 1
    }
}
