//! Immediate wins, for the search: a search with few simulations over hundreds of moves
//! rarely stumbles on the one move that mates, so a node whose side to move can win at once
//! is recognised when it is first reached (as strong shogi engines do with a leaf mate search).

use crate::mv::Move;
use crate::position::Position;
use crate::variant::CheckRule;

impl Position {
    /// A move of `legal` (the legal moves of this position) that wins at once: it captures the
    /// opponent's last royal piece, or (under the king-safety rule) gives check and leaves the
    /// opponent without a legal move. Non-checking moves that leave the opponent without a
    /// move are not looked for.
    pub fn winning_move(&mut self, legal: &[Move]) -> Option<Move> {
        let us = self.side;
        let them = us.opposite();
        match self.variant.rules.check {
            CheckRule::RoyalCapture => legal.iter().copied().find(|m| {
                let last = self.royals[them.index()] == 1;
                last && (m.kills().iter().chain(std::iter::once(&m.to())).any(|&sq| {
                    let p = self.board[sq.index()];
                    p.is_color(them) && self.variant.piece(p.kind()).royal
                }))
            }),
            CheckRule::KingSafety => {
                let king = self.royal_square(them)?;
                let mut replies = Vec::new();
                for &m in legal {
                    if let Some(kind) = m.dropped() {
                        // A drop checks only if the dropped piece itself attacks the king.
                        if !self.piece_attacks(kind, us, m.to(), king) {
                            continue;
                        }
                    }
                    self.make_move_inner(m, false);
                    let mates = self.in_check(them) && {
                        self.legal_moves_into(&mut replies);
                        replies.is_empty()
                    };
                    self.unmake_move();
                    if mates {
                        return Some(m);
                    }
                }
                None
            }
        }
    }
}
