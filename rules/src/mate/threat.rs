//! What a mating attack is made of: moves after which the attacker threatens to win at once
//! ("checks", in every variant's own sense), and the test that the defender has no legal move
//! at all, which stops at the first one found.

use crate::color::Color;
use crate::mv::Move;
use crate::position::Position;
use crate::variant::CheckRule;

impl Position {
    /// Whether `attacker`, if it were to move, could win at once: `defender`'s royal piece is
    /// attacked (king-safety variants, or the last royal under royal capture), or in Ko Shogi
    /// its sole objective piece could be removed. With several royals left under royal
    /// capture no single capture wins, so there is no such threat.
    pub fn threatens_win(&self, attacker: Color) -> bool {
        let defender = attacker.opposite();
        if self.variant.ko.is_none()
            && self.variant.rules.check == CheckRule::RoyalCapture
            && self.royals[defender.index()] > 1
        {
            return false;
        }
        self.in_check(defender)
    }

    /// Whether the legal move `mv` of the side to move threatens to win at once (a check) or
    /// wins outright (captures the last royal piece). A drop can only threaten by what the
    /// dropped piece itself attacks, which is tested without playing it.
    pub fn is_attacking_move(&mut self, mv: Move) -> bool {
        let us = self.side;
        let them = us.opposite();
        if let Some(kind) = mv.dropped() {
            if self.variant.ko.is_none() && self.royals[them.index()] == 1 {
                let king = self.royal_sq[them.index()];
                if !self.piece_attacks(kind, us, mv.to(), king) {
                    return false;
                }
            }
        }
        self.make_move_inner(mv, false);
        let attacking = self.royals[them.index()] == 0 || self.threatens_win(us);
        self.unmake_move();
        attacking
    }

    /// Whether the side to move has a legal move. Stops at the first one: the royal piece's
    /// own moves are tried first (in check they are the likeliest way out), then the other
    /// board moves, then drops, so proving that a check is not mate usually costs a few
    /// trial moves instead of generating and testing every move and drop.
    pub fn has_legal_move(&mut self) -> bool {
        let us = self.side;
        if self.royals[us.index()] == 0 || self.royals[us.opposite().index()] == 0 {
            return false;
        }
        let mut moves = Vec::with_capacity(128);
        self.generate_board_moves(&mut moves);
        let king = self.royal_sq[us.index()];
        let (royal, rest): (Vec<Move>, Vec<Move>) =
            moves.iter().partition(|m| !m.is_drop() && m.from() == king);
        for mv in royal.into_iter().chain(rest) {
            if self.pseudo_legal_is_legal(mv) {
                return true;
            }
        }
        if self.variant.ko.is_some() || !self.variant.rules.drops {
            return false;
        }
        moves.clear();
        self.generate_drops(&mut moves);
        for mv in moves {
            if self.pseudo_legal_is_legal(mv) {
                return true;
            }
        }
        false
    }
}
