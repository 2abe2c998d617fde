//! Rule counters: turn skips and checking moves in a row, with their limits.
//!
//! Shoko and Hook Shogi forbid skipping two turns in a row, Gyaku-sama Shogi a fourth skip in a
//! row and a fourth checking move in a row. What was done before changes which moves are legal,
//! so each player's counts are part of the position: they are kept in [`Position`], hashed
//! with the Zobrist counter keys (0 and 1: skips of Black and White, 2 and 3: checks), restored
//! by unmake, compared by repetition, and written in the position text. A counter exists only
//! where the variant limits it, so other variants hash and compare exactly as before.
//!
//! A turn skip is a move that ends on its origin and captures nothing ([`Move::is_skip`]); a
//! capture without moving (igui) is not one. A check is a move after which some piece of the
//! mover could capture a royal piece of the opponent ([`Position::in_check`]).

use crate::color::Color;
use crate::mv::Move;
use crate::position::Position;

/// Zobrist counter slot of `color`'s skips.
const SKIPS: usize = 0;
/// Zobrist counter slot of `color`'s checks.
const CHECKS: usize = 2;

impl Position {
    /// Turn skips `color` has made in a row up to now (0 where skips are not limited): part of
    /// the position, so that players and networks can see what is still allowed.
    #[inline]
    pub fn consecutive_skips(&self, color: Color) -> u8 {
        self.counters.skips[color.index()]
    }

    /// Checking moves `color` has made in a row up to now (0 where checks are not limited), for
    /// the same reason.
    #[inline]
    pub fn consecutive_checks(&self, color: Color) -> u8 {
        self.counters.checks[color.index()]
    }

    /// Sets `color`'s counters (position text), keeping the hash.
    pub(crate) fn set_counters(&mut self, color: Color, skips: u8, checks: u8) {
        self.hash ^= self.counters_hash();
        self.counters.skips[color.index()] = skips;
        self.counters.checks[color.index()] = checks;
        self.hash ^= self.counters_hash();
    }

    /// The part of the hash that the counters contribute.
    pub(crate) fn counters_hash(&self) -> u64 {
        let z = &self.variant.zobrist;
        let mut h = 0;
        for c in Color::ALL {
            h ^= z.counter(SKIPS + c.index(), self.counters.skips[c.index()]);
            h ^= z.counter(CHECKS + c.index(), self.counters.checks[c.index()]);
        }
        h
    }

    /// Updates the counters of `us`, who has just played `mv` (the side to move is already the
    /// opponent). Returns whether the move gave check when the rules needed to find out.
    #[inline]
    pub(crate) fn update_counters(&mut self, us: Color, mv: &Move) -> Option<bool> {
        let rules = &self.variant.rules;
        let (skip_rule, check_rule) = (
            rules.max_consecutive_skips.is_some(),
            rules.max_consecutive_checks.is_some(),
        );
        if skip_rule {
            let old = self.counters.skips[us.index()];
            let new = if mv.is_skip() {
                old.saturating_add(1)
            } else {
                0
            };
            if new != old {
                let z = &self.variant.zobrist;
                self.hash ^=
                    z.counter(SKIPS + us.index(), old) ^ z.counter(SKIPS + us.index(), new);
                self.counters.skips[us.index()] = new;
            }
        }
        if !check_rule {
            return None;
        }
        let check = self.in_check(us.opposite());
        let old = self.counters.checks[us.index()];
        let new = if check { old.saturating_add(1) } else { 0 };
        if new != old {
            let z = &self.variant.zobrist;
            self.hash ^= z.counter(CHECKS + us.index(), old) ^ z.counter(CHECKS + us.index(), new);
            self.counters.checks[us.index()] = new;
        }
        Some(check)
    }

    /// Removes the moves that a counter at its limit forbids: a skip after the most skips in a
    /// row, a check after the most checks in a row.
    pub(crate) fn retain_counter_legal(&mut self, moves: &mut Vec<Move>) {
        let us = self.side;
        let rules = &self.variant.rules;
        let no_skip = rules
            .max_consecutive_skips
            .is_some_and(|max| self.counters.skips[us.index()] >= max);
        let no_check = rules
            .max_consecutive_checks
            .is_some_and(|max| self.counters.checks[us.index()] >= max);
        if no_skip {
            moves.retain(|m| !m.is_skip());
        }
        if no_check {
            moves.retain(|&m| {
                self.make_move_inner(m, false);
                let check = self.history.last().is_some_and(|u| u.gave_check);
                self.unmake_move();
                !check
            });
        }
    }
}
