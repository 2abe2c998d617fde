//! Legal moves: pseudo-legal moves filtered by the variant's legality rules.
//!
//! Under the king-safety rule a move is legal when it does not leave the mover's royal piece
//! attacked. Testing every move by make/unmake is the obvious way; to keep generation fast, the
//! test is skipped where it cannot fail: drops when not in check (a drop only blocks), and
//! moves of a piece that is not on a slider line to its own royal piece when not in check.
//! Where the opponent attacks only by plain leaps and slides, no move is played to be tested:
//! such attacks see only which squares are occupied, so the move's squares are set on the
//! board, one reverse attack test is asked and the squares are put back (the royal piece's
//! own steps then open any slider line through the square they leave); and in check the drops
//! need no test at all (only a drop between the royal piece and a lone checking slider ends
//! the check).
//!
//! Under both check rules the counter limits ([`crate::counters`]), the protected-royal
//! rule ([`crate::protected_royals`]) and the Lion trading rules ([`crate::lion_trading`])
//! apply on top.

use crate::color::Color;
use crate::mv::{Move, Promotion, MAX_KILLS};
use crate::piece::Piece;
use crate::position::Position;
use crate::square::Square;
use crate::variant::CheckRule;

impl Position {
    /// The legal moves of the side to move. Empty when the game has been decided by a capture
    /// of the last royal piece.
    pub fn legal_moves(&mut self) -> Vec<Move> {
        let mut out = Vec::with_capacity(256);
        self.legal_moves_into(&mut out);
        out
    }

    /// Clears `out` and fills it with the legal moves.
    pub fn legal_moves_into(&mut self, out: &mut Vec<Move>) {
        out.clear();
        let us = self.side;
        if self.royals[us.index()] == 0 || self.royals[us.opposite().index()] == 0 {
            return;
        }
        // Found once: the drops made in check and the king-safety filter both use it.
        let check = self.check_state();
        self.generate_board_moves(out);
        self.generate_candidate_drops(check.as_ref().and_then(CheckState::blocks), out);
        self.retain_legal_given(out, check.as_ref());
    }

    /// Keeps the moves of `out` (pseudo-legal moves of the side to move) that are legal:
    /// the filters of [`Position::legal_moves_into`], which skip the test where it cannot
    /// fail, so a short list of candidates pays only for the moves that need one.
    pub(crate) fn retain_legal(&mut self, out: &mut Vec<Move>) {
        let check = self.check_state();
        self.retain_legal_given(out, check.as_ref());
    }

    /// [`Position::retain_legal`] with the side to move's check already known (`None`
    /// where king safety is not the rule).
    fn retain_legal_given(&mut self, out: &mut Vec<Move>, check: Option<&CheckState>) {
        if let Some(check) = check {
            self.retain_king_safe(out, check);
        }
        self.retain_counter_legal(out);
        if !self.variant.protected_royal_rule.is_empty() {
            self.retain_unprotected_royal_captures(out);
        }
        if self.variant.has_lions {
            self.retain_lion_trading_legal(out);
        }
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&mut self, mv: &Move) -> bool {
        let mut moves = Vec::new();
        self.legal_moves_into(&mut moves);
        moves.contains(mv)
    }

    /// Keeps the moves that do not leave the mover's royal piece attacked; `check` is the
    /// side to move's check ([`Position::check_state`]).
    fn retain_king_safe(&mut self, moves: &mut Vec<Move>, check: &CheckState) {
        let us = self.side;
        let them = us.opposite();
        let king = self.royal_sq[us.index()];
        let in_check = check.in_check;
        let complex = !self.variant.attacks[them.index()].complex.is_empty();
        let pinned = if in_check || complex {
            Vec::new()
        } else {
            self.pin_candidates(king, us)
        };
        let plain = self.attacks_are_plain(them);
        let mut i = 0;
        while i < moves.len() {
            let mv = moves[i];
            let legal = if let (true, Some(blocks)) = (mv.is_drop(), check.blocks()) {
                blocks.contains(&mv.to())
            } else {
                let needs_test = in_check
                    || complex
                    || (!mv.is_drop()
                        && (mv.from() == king
                            || !mv.kills().is_empty()
                            || pinned.contains(&mv.from())));
                !needs_test
                    || if plain {
                        self.plain_king_safe_after(mv, them)
                    } else {
                        self.king_safe_after(mv)
                    }
            };
            if legal {
                i += 1;
            } else {
                moves.swap_remove(i);
            }
        }
    }

    /// Whether `mv`, a move the pseudo-legal generator produced here, is legal: the same
    /// tests as [`Position::legal_moves_into`] applies to the whole list, for one move (a
    /// search that tries moves one at a time and stops at the first legal one).
    pub fn pseudo_legal_is_legal(&mut self, mv: Move) -> bool {
        let us = self.side;
        let them = us.opposite();
        if self.royals[us.index()] == 0 || self.royals[them.index()] == 0 {
            return false;
        }
        if self.variant.has_lions && self.lion_rules_forbid(&mv) {
            return false;
        }
        let rules = &self.variant.rules;
        if mv.is_skip()
            && rules
                .max_consecutive_skips
                .is_some_and(|max| self.counters.skips[us.index()] >= max)
        {
            return false;
        }
        let check_limited = rules
            .max_consecutive_checks
            .is_some_and(|max| self.counters.checks[us.index()] >= max);
        let king_safety = rules.check == CheckRule::KingSafety;
        let protected = !mv.is_drop()
            && self
                .variant
                .protected_royal_rule
                .contains(self.board[mv.from().index()])
            && self.captures_royal_under_rule(&mv);
        if !(king_safety || check_limited || protected) {
            return true;
        }
        if king_safety && !check_limited && !protected && self.attacks_are_plain(them) {
            return self.plain_king_safe_after(mv, them);
        }
        self.make_move_inner(mv, false);
        let mut legal = true;
        if king_safety {
            legal = !self.is_attacked(self.royal_sq[us.index()], them);
        }
        if legal && check_limited {
            legal = !self.history.last().is_some_and(|u| u.gave_check);
        }
        if legal && protected {
            legal = !self.is_attacked(mv.to(), them);
        }
        self.unmake_move();
        legal
    }

    fn king_safe_after(&mut self, mv: Move) -> bool {
        let us = self.side;
        self.make_move_inner(mv, false);
        let safe = !self.is_attacked(self.royal_sq[us.index()], us.opposite());
        self.unmake_move();
        safe
    }

    /// Whether `by` attacks only by plain leaps and slides (no complex pieces, no burns or
    /// rule module acting away from moves): the attacks that the shortcuts of king safety
    /// reason about.
    fn attacks_are_plain(&self, by: Color) -> bool {
        self.variant.attacks[by.index()].complex.is_empty() && !self.variant.acts_away_from_moves()
    }

    /// Whether the mover's royal piece stands unattacked after `mv`, where `them` attacks
    /// only by plain leaps and slides ([`Position::attacks_are_plain`]): such attacks see
    /// only which squares are occupied, so the move's squares are set on the board (its
    /// start and victims emptied, the mover on its end), one reverse attack test is asked,
    /// and the squares are put back. Make and unmake give the same answer at several times
    /// the cost (hash, hands, history, counters); a royal step opens any slider line through
    /// the square it leaves, as the test sees. A move that takes royalty from the mover (no
    /// built-in variant has one) is played instead.
    fn plain_king_safe_after(&mut self, mv: Move, them: Color) -> bool {
        let us = self.side;
        let v = &self.variant;
        let to = mv.to();
        let (mover, end) = match mv.dropped() {
            Some(kind) => {
                let p = Piece::new(kind, us);
                (p, p)
            }
            None => {
                let p = self.board[mv.from().index()];
                let end = if mv.promotion() == Promotion::Promote || v.has_contagion {
                    let board = &self.board;
                    let victims = mv
                        .taken_squares()
                        .map(|sq| board[sq.index()])
                        .filter(|q| q.is_piece())
                        .map(|q| q.kind());
                    let promote = mv.promotion() == Promotion::Promote;
                    Piece::new(v.end_kind(p.kind(), victims, promote), us)
                } else {
                    p
                };
                (p, end)
            }
        };
        let king = if v.is_royal(end) {
            to
        } else if v.is_royal(mover) {
            return self.king_safe_after(mv);
        } else {
            self.royal_sq[us.index()]
        };
        // Each square written with what it held, undone in reverse order.
        let mut saved = [(Square(0), Piece::EMPTY); MAX_KILLS + 2];
        let mut n = 0;
        let mut set = |board: &mut [Piece], sq: Square, p: Piece| {
            saved[n] = (sq, std::mem::replace(&mut board[sq.index()], p));
            n += 1;
        };
        if !mv.is_drop() {
            set(&mut self.board, mv.from(), Piece::EMPTY);
        }
        for &k in mv.kills() {
            set(&mut self.board, k, Piece::EMPTY);
        }
        set(&mut self.board, to, end);
        let safe = !self.is_attacked_simple(king, them);
        for &(sq, p) in saved[..n].iter().rev() {
            self.board[sq.index()] = p;
        }
        safe
    }

    /// The empty squares on which a dropped piece would end the check of our royal piece on
    /// `king`, when only the opponent's plain leaps and slides attack: the squares between it
    /// and the checking slider when exactly one slider checks, none when a leaper checks or
    /// two pieces do. A dropped piece opens no line, so nothing else can end a check.
    fn interpositions(&self, king: Square, us: Color) -> Vec<Square> {
        let t = &self.variant.attacks[us.opposite().index()];
        let at = king.0 as i32;
        if t.leaps
            .iter()
            .any(|(d, set)| set.contains(self.board[(at - d) as usize]))
        {
            return Vec::new();
        }
        let mut checkers = Vec::new();
        let mut between = Vec::new();
        for s in &t.slides {
            let mut cur = at;
            let mut line = Vec::new();
            for k in 1..=s.max_reach {
                cur -= s.delta;
                let p = self.board[cur as usize];
                if p.is_empty() {
                    line.push(Square(cur as u16));
                    continue;
                }
                if !p.is_wall() && s.reach[p.index()] >= k && !checkers.contains(&cur) {
                    checkers.push(cur);
                    between = line;
                }
                break;
            }
        }
        if checkers.len() == 1 {
            between
        } else {
            Vec::new()
        }
    }

    /// The side to move's check under king safety, found once for move generation and the
    /// legality filter; `None` where king safety is not the rule.
    pub(crate) fn check_state(&self) -> Option<CheckState> {
        if self.variant.rules.check != CheckRule::KingSafety {
            return None;
        }
        let us = self.side;
        let them = us.opposite();
        let king = self.royal_sq[us.index()];
        let in_check = self.is_attacked(king, them);
        // In check from plain leaps and slides only, a drop ends the check exactly when it
        // lands between the royal piece and the one slider giving it.
        let blocks =
            (in_check && self.attacks_are_plain(them)).then(|| self.interpositions(king, us));
        Some(CheckState { in_check, blocks })
    }

    /// Our pieces that stand between our royal piece and an enemy slider that would attack it
    /// along that line if they moved away.
    fn pin_candidates(&self, king: Square, us: Color) -> Vec<Square> {
        let them = us.opposite();
        let mut pinned = Vec::new();
        for s in &self.variant.attacks[them.index()].slides {
            let mut cur = king.0 as i32;
            let mut blocker = None;
            for k in 1..=s.max_reach {
                cur -= s.delta;
                let p = self.board[cur as usize];
                if p.is_empty() {
                    continue;
                }
                if p.is_wall() {
                    break;
                }
                match blocker {
                    None if p.color() == us => blocker = Some(Square(cur as u16)),
                    None => break,
                    Some(b) => {
                        if p.color() == them && s.reach[p.index()] >= k {
                            pinned.push(b);
                        }
                        break;
                    }
                }
            }
        }
        pinned
    }
}

/// The side to move's check under king safety ([`Position::check_state`]).
#[derive(Debug, Clone)]
pub(crate) struct CheckState {
    /// Whether the royal piece is attacked.
    in_check: bool,
    /// In check from plain leaps and slides only: the empty squares where a drop ends the
    /// check (those between the royal piece and the one slider giving it; none for a leap or
    /// a double check). Every other drop leaves the royal piece attacked, so move generation
    /// in check makes only these and the legality filter tests none of them. A dropped piece
    /// opens no line, so nothing else can end a check.
    blocks: Option<Vec<Square>>,
}

impl CheckState {
    /// The squares where a drop can end the check ([`CheckState::blocks`]); `None` when the
    /// side is not in check or the shortcut does not hold: every drop is then a candidate.
    pub(crate) fn blocks(&self) -> Option<&[Square]> {
        self.blocks.as_deref()
    }
}
