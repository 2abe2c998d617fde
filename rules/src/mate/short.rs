//! The short mate search of the MCTS leaves: mates in one and three plies, found by trying
//! only the attacker's checks (and outright wins) and, against each, every reply, within a
//! budget of trial moves so that a leaf never costs much more than its move generation.

use crate::mv::Move;
use crate::position::Position;
use crate::square::Square;

/// A mate search's limit and what it has spent.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Moves tried so far (made and unmade).
    pub spent: u32,
    /// Most moves it may try.
    pub limit: u32,
}

impl Budget {
    /// A budget of `limit` trial moves.
    pub fn new(limit: u32) -> Budget {
        Budget { spent: 0, limit }
    }

    fn take(&mut self) -> bool {
        self.spent += 1;
        self.spent <= self.limit
    }

    /// Whether it ran out (the answer "no mate" is then "none found").
    pub fn exhausted(&self) -> bool {
        self.spent > self.limit
    }
}

impl Position {
    /// A move of `legal` (the legal moves here) that wins by force within `plies` plies (1 or
    /// 3; an even number counts as the odd one below it): captures the last royal piece, or
    /// gives check after which the opponent has no legal move, or (with three plies) gives a
    /// check every reply to which allows a mate in one. `None` when there is none or the
    /// budget ran out first. `legal` must be all the legal moves: where only a check can win
    /// and the side has pieces in hand, the checks are generated afresh from the position.
    pub fn forced_win(&mut self, legal: &[Move], plies: u32, budget: &mut Budget) -> Option<Move> {
        let us = self.side;
        let them = us.opposite();
        // A capture of the last royal piece wins whatever else the position holds.
        if let Some(m) = self.winning_capture(legal) {
            return Some(m);
        }
        if let Some(m) = self.winning_repetition(legal) {
            return Some(m);
        }
        // Under royal capture a check wins only a ply later: within one ply the capture above
        // is the only win (bar a move that leaves the opponent without any, which the
        // three-ply search finds).
        let king_safety = self.variant.ko.is_none()
            && self.variant.rules.check == crate::variant::CheckRule::KingSafety;
        if (plies < 3 && !king_safety) || !self.can_be_threatened(them) {
            return None;
        }
        if self.only_checks_win_at_once() && self.holds_pieces_in_hand() {
            // Most of a full hand's drops give no check: the checks are generated alone
            // rather than picked out of `legal` one test at a time.
            let mut threats = Vec::with_capacity(32);
            self.legal_threats_into(&mut threats);
            return self.mate_among(&threats, None, plies, budget);
        }
        let checks = crate::mate::threat::CheckTest::new(self);
        self.mate_among(legal, Some(&checks), plies, budget)
    }

    /// Whether the side to move has a piece in hand to drop.
    fn holds_pieces_in_hand(&self) -> bool {
        let nk = self.variant.num_kinds();
        let i = self.side.index();
        self.variant.rules.drops && self.hands[i * nk..(i + 1) * nk].iter().any(|&n| n > 0)
    }

    /// The first of `candidates` (legal moves) that checks and wins by force within `plies`
    /// plies; `checks` is the test that picks the checks among them, `None` when every
    /// candidate is known to check already.
    fn mate_among(
        &mut self,
        candidates: &[Move],
        checks: Option<&crate::mate::threat::CheckTest>,
        plies: u32,
        budget: &mut Budget,
    ) -> Option<Move> {
        let us = self.side;
        let mut replies = Vec::new();
        for &m in candidates {
            if budget.exhausted() {
                return None;
            }
            if checks.is_some_and(|c| !self.gives_threat(m, c)) {
                continue;
            }
            if !budget.take() {
                return None;
            }
            self.make_move(m);
            let mates = match self.outcome_given(false) {
                Some(o) => o.winner() == Some(us),
                // No reply: checkmate (or a win by stalemate where the rules say so).
                None if !self.has_legal_move() => self
                    .outcome_given(true)
                    .is_some_and(|o| o.winner() == Some(us)),
                None if plies >= 3 => self.no_reply_escapes(&mut replies, budget),
                None => false,
            };
            self.unmake_move();
            if mates {
                return Some(m);
            }
        }
        None
    }

    /// Whether every legal reply of the side to move (just checked) allows a mate in one,
    /// the replies likeliest to answer the check tried first: the royal piece's own moves,
    /// generated alone (as [`Position::has_legal_move`] does), then the other moves, those
    /// that take a piece (the checking one among them) before the rest. One reply that
    /// escapes ends the search, and under royal capture most moves ignore the check: in
    /// generation order a check that failed was found to fail only after a full move
    /// generation for each reply before the first that answers it, and the whole side's
    /// moves were generated even where a step of the royal piece answers it. The order
    /// changes no answer, only how soon a failing check is dropped (so, where the budget
    /// binds, how many checks are tried).
    fn no_reply_escapes(&mut self, replies: &mut Vec<Move>, budget: &mut Budget) -> bool {
        let them = self.side.opposite();
        // The attacker's complex pieces, found once: no reply adds one.
        let complex = self.complex_attacker_squares(them);
        let first = self.royal_to_move_first();
        if let Some((king, royal)) = first {
            replies.clear();
            self.generate_kind_from(king, royal, replies);
            self.retain_legal(replies);
            if !self.every_reply_allows_mate(replies, budget, &complex) {
                return false;
            }
        }
        self.legal_moves_into(replies);
        if let Some((king, _)) = first {
            replies.retain(|m| m.is_drop() || m.from() != king);
        }
        let takes = |m: &Move| {
            !m.is_drop()
                && !m.is_skip()
                && (self.board[m.to().index()].is_color(them) || !m.kills().is_empty())
        };
        replies.sort_by_key(|m| !takes(m));
        self.every_reply_allows_mate(replies, budget, &complex)
    }

    /// Whether, after each of `replies` (the defender's legal moves), the attacker has a mate
    /// in one; `complex` holds the squares of the attacker's complex pieces.
    fn every_reply_allows_mate(
        &mut self,
        replies: &[Move],
        budget: &mut Budget,
        complex: &[Square],
    ) -> bool {
        let mut legal = Vec::new();
        let mut attackers = Vec::new();
        for &r in replies {
            if !budget.take() {
                return false;
            }
            self.make_move(r);
            let over = self.outcome_given(false);
            let mated = match over {
                Some(o) => o.winner() == Some(self.side),
                None if self.only_checks_win_at_once() => {
                    self.legal_threats_into(&mut legal);
                    self.mate_among(&legal, None, 1, budget).is_some()
                }
                None if self.only_the_royal_capture_wins_at_once() => {
                    self.can_take_the_royal(&mut legal, &mut attackers, complex)
                }
                None => {
                    self.legal_moves_into(&mut legal);
                    self.forced_win(&legal, 1, budget).is_some()
                }
            };
            self.unmake_move();
            if !mated {
                return false;
            }
        }
        true
    }

    /// Whether the side to move can start a forced win only with a check, so that a mate
    /// search needs the checking moves alone ([`Position::legal_threats_into`]): a
    /// king-safety variant (no royal to capture, [`Position::winning_capture`] finds
    /// nothing), and no pass that would win by repetition
    /// ([`Position::winning_repetition`]).
    pub(crate) fn only_checks_win_at_once(&self) -> bool {
        self.variant.ko.is_none()
            && self.variant.rules.check == crate::variant::CheckRule::KingSafety
            && !self.passing_back_may_win()
    }

    /// Whether a pass of the side to move could win by repetition: the variant makes a
    /// repetition lose for its maker and the opponent has just passed
    /// ([`Position::winning_repetition`] tells whether it does).
    fn passing_back_may_win(&self) -> bool {
        self.variant.rules.repetition_loses && self.history.last().is_some_and(|u| u.mv.is_skip())
    }

    /// Whether the side to move can win at once only by taking the opponent's one royal
    /// piece, so that a position where [`Position::threatens_win`] sees no attack on it has no
    /// win in one and needs no move generation: royal capture outside Ko Shogi, one royal left
    /// (a double capture could take two), and no pass that would win by repetition.
    fn only_the_royal_capture_wins_at_once(&self) -> bool {
        self.variant.ko.is_none()
            && self.variant.rules.check == crate::variant::CheckRule::RoyalCapture
            && self.royals[self.side.opposite().index()] == 1
            && !self.passing_back_may_win()
    }

    /// Whether the side to move, where [`Position::only_the_royal_capture_wins_at_once`],
    /// has a legal move that takes the opponent's royal piece: none where the attack test
    /// sees no attacker of it, else the capturing moves of the pieces that attack its square,
    /// generated alone ([`Position::generate_captures_on`] gives exactly the moves of a piece
    /// that take a square), not every move of the side. Burns act away from a burner's
    /// move, so variants with burners generate every move. `complex` holds (at least) the
    /// squares of the side's complex pieces; `moves` and `attackers` are scratch buffers.
    fn can_take_the_royal(
        &mut self,
        moves: &mut Vec<Move>,
        attackers: &mut Vec<Square>,
        complex: &[Square],
    ) -> bool {
        let us = self.side;
        if self.variant.has_burners() {
            return self.threatens_win_given(us, complex, None) && {
                self.legal_moves_into(moves);
                self.winning_capture(moves).is_some()
            };
        }
        // Without burns the royal is attacked exactly when it has attackers: one walk
        // answers both.
        let royal = self.royal_sq[us.opposite().index()];
        self.attackers_given(royal, us, Some(complex), attackers);
        if attackers.is_empty() {
            return false;
        }
        attackers.sort_unstable();
        attackers.dedup();
        moves.clear();
        for &from in attackers.iter() {
            self.generate_captures_on(from, self.board[from.index()], royal, moves);
        }
        self.retain_legal(moves);
        self.winning_capture(moves).is_some()
    }

    /// A pass that wins at once where a repetition loses for its maker: the opponent has just
    /// passed, and passing back brings the position the variant's number of times, which
    /// the opponent's first pass made (see [`Position::outcome`]). The search would otherwise
    /// see this win only by visiting the pass among all replies, and a player that passes
    /// first with the count one short hands it over.
    pub fn winning_repetition(&mut self, legal: &[Move]) -> Option<Move> {
        if !self.passing_back_may_win() {
            return None;
        }
        let us = self.side;
        let pass = legal.iter().copied().find(|m| m.is_skip())?;
        self.make_move(pass);
        let wins = self.outcome_given(false).and_then(|o| o.winner()) == Some(us);
        self.unmake_move();
        wins.then_some(pass)
    }

    /// A move of `legal` that wins at once by removing the opponent's last royal piece
    /// (royal-capture variants; a multiple capture may take the last two) or, in Ko Shogi, its
    /// sole objective piece.
    pub fn winning_capture(&mut self, legal: &[Move]) -> Option<Move> {
        let us = self.side;
        let them = us.opposite();
        let ko_target = match &self.variant.ko {
            Some(ko) => Some((ko.sole_objective(self, them)?, ko.flame_of(us))),
            None if self.variant.rules.check == crate::variant::CheckRule::RoyalCapture => None,
            None => return None,
        };
        // With one royal piece left and no burners, a move wins only by taking on its square.
        let lone_royal =
            (ko_target.is_none() && self.royals[them.index()] == 1 && !self.variant.has_burners())
                .then(|| self.royal_sq[them.index()]);
        for &m in legal {
            if m.is_drop() {
                continue;
            }
            if let Some(royal) = lone_royal {
                let takes = (m.to() == royal && m.from() != royal) || m.kills().contains(&royal);
                if !takes {
                    continue;
                }
            }
            let hits = match ko_target {
                Some((target, (flame, near))) => {
                    (m.to() == target && m.to() != m.from())
                        || m.kills().contains(&target)
                        || (self.board[m.from().index()] == flame
                            && near.iter().any(|&d| m.to().offset(d) == target))
                }
                None => {
                    let royal = |sq: &Square| {
                        let p = self.board[sq.index()];
                        p.is_color(them) && self.variant.is_royal(p) && *sq != m.from()
                    };
                    m.kills().iter().chain(std::iter::once(&m.to())).any(royal)
                        || (self.is_burner(self.board[m.from().index()])
                            && self.neighbours(m.to()).any(|n| royal(&n)))
                }
            };
            if !hits {
                continue;
            }
            self.make_move_inner(m, false);
            let won = self.royals[them.index()] == 0;
            self.unmake_move();
            if won {
                return Some(m);
            }
        }
        None
    }

    /// The one piece of `color` whose removal ends the game, if there is one: the last royal
    /// piece under royal capture, the sole objective piece in Ko Shogi.
    fn sole_target(&self, color: crate::color::Color) -> Option<crate::square::Square> {
        if let Some(ko) = &self.variant.ko {
            return ko.sole_objective(self, color);
        }
        (self.variant.rules.check == crate::variant::CheckRule::RoyalCapture
            && self.royals[color.index()] == 1)
            .then(|| self.royal_sq[color.index()])
    }

    /// Whether a single move could leave `color` threatened with losing at once. Only Ko
    /// Shogi's threat test is costly (it generates the other side's moves), and there a side
    /// that does not stand on one sole objective piece cannot be threatened by one move.
    fn can_be_threatened(&self, color: crate::color::Color) -> bool {
        self.variant.ko.is_none() || self.sole_target(color).is_some()
    }
}

#[cfg(test)]
mod tests {
    use crate::test_positions::random_positions;

    /// Where only taking the one royal piece wins at once, the capturing moves generated from
    /// the royal's attackers alone find a win exactly when the whole move list does.
    #[test]
    fn the_royal_is_taken_from_its_attackers_moves_exactly_when_from_all_moves() {
        for id in crate::variant::builtin_ids() {
            let v = crate::variant::load_variant(id).unwrap();
            if v.ko.is_some() || v.rules.check != crate::variant::CheckRule::RoyalCapture {
                continue;
            }
            let (mut asked, mut wins) = (0, 0);
            let (mut moves, mut attackers) = (Vec::new(), Vec::new());
            random_positions(id, 30, |pos, legal| {
                if !pos.only_the_royal_capture_wins_at_once() {
                    return;
                }
                asked += 1;
                let all = pos.winning_capture(legal).is_some();
                wins += usize::from(all);
                let complex = pos.complex_attacker_squares(pos.side_to_move());
                assert_eq!(
                    pos.can_take_the_royal(&mut moves, &mut attackers, &complex),
                    all,
                    "{id}: {}",
                    pos.to_text()
                );
            });
            assert!(wins >= 10, "{id}: {wins} wins among {asked} positions");
        }
    }
}
