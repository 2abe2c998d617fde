//! What a mating attack is made of: moves after which the attacker threatens to win at once
//! ("checks", in every variant's own sense), and the test that the defender has no legal move
//! at all, which stops at the first one found.

use crate::color::Color;
use crate::mv::Move;
use crate::position::Position;
use crate::square::Square;
use crate::variant::CheckRule;

/// What deciding whether moves check needs of one position, prepared once for all its moves.
#[derive(Debug, Clone)]
pub struct CheckTest {
    /// The opponent's royal piece, when checks can be told without playing moves (one royal,
    /// no bent or hopping pieces on the mover's side, not Ko Shogi, and the royal not already
    /// attacked: under royal capture a side may leave it so, and then whether a move keeps
    /// the attack is not a question of what the moved piece attacks).
    king: Option<Square>,
    /// The mover's pieces that stand between the opponent's royal piece and a slider of the
    /// mover's that would attack it along that line: moving one may give a discovered check.
    uncovering: Vec<Square>,
    /// The squares of the mover's complex pieces ([`Position::complex_attacker_squares`]),
    /// for the moves that are played to tell whether they check: found once here rather
    /// than by a walk over the whole board after each of them (on 19x19 boards that walk
    /// was most of the leaf mate search's time).
    complex: Vec<Square>,
}

impl CheckTest {
    /// Prepares the test for the side to move of `pos`.
    pub fn new(pos: &Position) -> CheckTest {
        let us = pos.side;
        let them = us.opposite();
        let tables = &pos.variant.attacks[us.index()];
        let fast = !pos.variant.acts_away_from_moves()
            && pos.royals[them.index()] == 1
            && tables.complex.is_empty()
            && (pos.variant.rules.check == CheckRule::KingSafety
                || !pos.is_attacked(pos.royal_sq[them.index()], us));
        let complex = pos.complex_attacker_squares(us);
        if !fast {
            return CheckTest {
                king: None,
                uncovering: Vec::new(),
                complex,
            };
        }
        let king = pos.royal_sq[them.index()];
        let mut uncovering = Vec::new();
        for s in &tables.slides {
            let mut cur = king.0 as i32;
            let mut blocker = None;
            for k in 1..=s.max_reach {
                cur -= s.delta;
                let p = pos.board[cur as usize];
                if p.is_empty() {
                    continue;
                }
                if p.is_wall() {
                    break;
                }
                match blocker {
                    None if p.is_color(us) => blocker = Some(Square(cur as u16)),
                    None => break,
                    Some(b) => {
                        if p.is_color(us) && s.reach[p.index()] >= k {
                            uncovering.push(b);
                        }
                        break;
                    }
                }
            }
        }
        CheckTest {
            king: Some(king),
            uncovering,
            complex,
        }
    }
}

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

    /// [`Position::threatens_win`] with the attacker's complex pieces given as
    /// [`Position::is_attacked_given`] takes them: those of `complex` that still stand, and a
    /// piece on `moved_to` (the square a move just ended on). Ko Shogi, whose threat test is
    /// its own, and sides with several royals ask [`Position::threatens_win`].
    pub fn threatens_win_given(
        &self,
        attacker: Color,
        complex: &[Square],
        moved_to: Option<Square>,
    ) -> bool {
        let defender = attacker.opposite();
        if self.variant.ko.is_some() || self.royals[defender.index()] != 1 {
            return self.threatens_win(attacker);
        }
        let royal = self.royal_sq[defender.index()];
        self.is_attacked_given(royal, attacker, Some(complex))
            || moved_to.is_some_and(|to| {
                self.is_attacked_by_complex(royal, attacker, std::slice::from_ref(&to))
            })
    }

    /// Whether the legal move `mv` of the side to move threatens to win at once (a check) or
    /// wins outright (captures the last royal piece).
    pub fn is_attacking_move(&mut self, mv: Move) -> bool {
        let checks = CheckTest::new(self);
        self.gives_threat(mv, &checks)
    }

    /// [`Position::is_attacking_move`] with what the test needs of the position prepared once
    /// for all its moves. Where the opponent has one royal piece and the mover no piece with
    /// bent or hopping moves, most moves are answered without being played: a drop checks by
    /// what the dropped piece attacks; a move without captures on the way checks by what the
    /// moved piece attacks from its destination, unless it uncovers a line of another piece,
    /// which only the pieces [`CheckTest`] lists can do.
    pub fn gives_threat(&mut self, mv: Move, checks: &CheckTest) -> bool {
        let us = self.side;
        let them = us.opposite();
        if let Some(king) = checks.king {
            if let Some(kind) = mv.dropped() {
                return self.piece_attacks(kind, us, mv.to(), king);
            }
            let from = mv.from();
            if mv.kills().is_empty() && !checks.uncovering.contains(&from) && mv.to() != king {
                let p = self.board[from.index()];
                let victims = std::iter::once(self.board[mv.to().index()])
                    .filter(|q| q.is_color(them))
                    .map(|q| q.kind());
                let end = self.variant.end_kind(
                    p.kind(),
                    victims,
                    mv.promotion() == crate::mv::Promotion::Promote,
                );
                // The mover's own square is empty once it has moved.
                self.board[from.index()] = crate::piece::Piece::EMPTY;
                let attacks = self.piece_attacks(end, us, mv.to(), king);
                self.board[from.index()] = p;
                return attacks;
            }
        }
        // Whether a side threatens to win does not depend on the rule counters: they are kept,
        // and the check that updating them would look for is not looked for twice.
        self.make_move_keeping_counters(mv);
        let attacking = self.royals[them.index()] == 0
            || self.threatens_win_given(us, &checks.complex, Some(mv.to()));
        self.unmake_move();
        attacking
    }

    /// Clears `out` and fills it with the legal moves that [`Position::gives_threat`] calls
    /// checks (the same set as filtering [`Position::legal_moves`]): the pseudo-legal moves
    /// are tested for the check first and for legality after, so the many quiet moves of a
    /// mate-in-one test never pay the legality test, and where a drop's check is told by what
    /// the dropped piece attacks only the drops that attack the royal piece are made.
    pub fn legal_threats_into(&mut self, out: &mut Vec<Move>) {
        out.clear();
        let us = self.side;
        if self.royals[us.index()] == 0 || self.royals[us.opposite().index()] == 0 {
            return;
        }
        let checks = CheckTest::new(self);
        self.generate_board_moves(out);
        if checks.king.is_some() && self.drops_apply() {
            // A drop checks by what the dropped piece attacks: those drops are found
            // backwards from the royal piece instead of among every drop of the hand.
            out.retain(|&m| self.gives_threat(m, &checks));
            self.generate_drops_attacking_royal(out);
        } else {
            self.generate_candidate_drops(None, out);
            out.retain(|&m| self.gives_threat(m, &checks));
        }
        self.retain_legal(out);
    }

    /// The side to move's royal piece and its square, where its moves are tried before the
    /// others' (in check they are the likeliest way out, and a few where the side has
    /// dozens): not in Ko Shogi, whose moves come from its rule module, not from each
    /// piece's table.
    pub(crate) fn royal_to_move_first(&self) -> Option<(Square, crate::piece::Piece)> {
        let king = self.royal_sq[self.side.index()];
        let royal = self.board[king.index()];
        (self.variant.ko.is_none() && royal.is_color(self.side)).then_some((king, royal))
    }

    /// Whether the side to move has a legal move. Stops at the first one: the royal piece's
    /// own moves are generated and tried first (in check they are the likeliest way out, and
    /// they are a few where the whole side has dozens), then the other board moves, then
    /// drops, so proving that a check is not mate usually costs a few trial moves instead of
    /// generating and testing every move and drop.
    pub fn has_legal_move(&mut self) -> bool {
        let us = self.side;
        if self.royals[us.index()] == 0 || self.royals[us.opposite().index()] == 0 {
            return false;
        }
        let mut moves = Vec::with_capacity(64);
        let first = self.royal_to_move_first();
        if let Some((king, royal)) = first {
            self.generate_kind_from(king, royal, &mut moves);
            if moves.iter().any(|&mv| self.pseudo_legal_is_legal(mv)) {
                return true;
            }
            moves.clear();
        }
        self.generate_board_moves(&mut moves);
        let tried = |mv: &Move| first.is_some_and(|(king, _)| !mv.is_drop() && mv.from() == king);
        if moves
            .iter()
            .any(|mv| !tried(mv) && self.pseudo_legal_is_legal(*mv))
        {
            return true;
        }
        if !self.drops_apply() {
            return false;
        }
        moves.clear();
        let check = self.check_state();
        self.generate_candidate_drops(check.as_ref().and_then(|c| c.blocks()), &mut moves);
        moves.iter().any(|&mv| self.pseudo_legal_is_legal(mv))
    }
}

#[cfg(test)]
mod tests {
    use crate::mv::Move;
    use crate::position::Position;
    use crate::test_positions::random_positions;

    fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
        moves.sort_unstable();
        moves
    }

    /// The checks generated alone, and the legal moves in check generated with only the
    /// drops that can interpose, against the plain definitions: every legal move tested for a
    /// check, and every pseudo-legal move tested for legality one by one.
    fn agree(pos: &mut Position, legal: &[Move]) {
        let expected: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| pos.is_attacking_move(m))
            .collect();
        let mut threats = Vec::new();
        pos.legal_threats_into(&mut threats);
        assert_eq!(
            sorted(threats),
            sorted(expected),
            "checks of {}",
            pos.to_text()
        );
        let mut pseudo = Vec::new();
        pos.generate_pseudo_legal(&mut pseudo);
        let one_by_one: Vec<Move> = pseudo
            .into_iter()
            .filter(|&m| pos.pseudo_legal_is_legal(m))
            .collect();
        assert_eq!(
            sorted(legal.to_vec()),
            sorted(one_by_one),
            "legal moves of {}",
            pos.to_text()
        );
    }

    /// Whether the variant drops pieces the way the new paths handle (not Ko Shogi's way).
    fn pos_has_drops(id: &str) -> bool {
        let v = crate::variant::load_variant(id).unwrap();
        v.rules.drops && v.ko.is_none()
    }

    #[test]
    fn checks_alone_and_evasions_are_the_moves_the_definitions_give() {
        for id in crate::variant::builtin_ids() {
            // What the new paths were given to do: checking drops, drops that interpose.
            let mut drop_checks = 0usize;
            let mut interposing_drops = 0usize;
            random_positions(id, 6, |pos, legal| {
                agree(pos, legal);
                let mut threats = Vec::new();
                pos.legal_threats_into(&mut threats);
                drop_checks += threats.iter().filter(|m| m.is_drop()).count();
                // The defender's side of a check: every reply generated in check.
                let us = pos.side_to_move();
                let checks: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|&m| pos.is_attacking_move(m))
                    .take(4)
                    .collect();
                for m in checks {
                    pos.make_move(m);
                    if pos.outcome_given(false).is_none() && pos.threatens_win(us) {
                        let replies = pos.legal_moves();
                        interposing_drops += replies.iter().filter(|m| m.is_drop()).count();
                        agree(pos, &replies);
                    }
                    pos.unmake_move();
                }
            });
            if pos_has_drops(id) {
                assert!(drop_checks > 0, "{id}: no checking drop was generated");
                assert!(interposing_drops > 0, "{id}: no drop answered a check");
            }
        }
    }
}
