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

    /// Whether the rule counters could decide which moves are legal within the next `plies`
    /// plies, the side to move playing first. A side's counter is read by the legality
    /// test of each of its moves; at its k-th move in the span (from 0) it stands at most k
    /// above where it stands now, and at the first it is unchanged whatever the line. So
    /// where no side's counter plus its moves in the span less one reaches the counter's
    /// limit, every legality test in the span answers as at a counter below the limit,
    /// whether the counters are updated along the line or kept as they are now: the line
    /// may be played with [`Position::make_move_keeping_counters`]. Always false in
    /// variants that limit neither skips nor checks.
    pub fn counters_can_bind_within(&self, plies: u32) -> bool {
        let rules = &self.variant.rules;
        if rules.max_consecutive_skips.is_none() && rules.max_consecutive_checks.is_none() {
            return false;
        }
        Color::ALL.into_iter().any(|c| {
            // Moves of `c` in the span: the side to move plays its first ply.
            let moves = if c == self.side {
                plies.div_ceil(2)
            } else {
                plies / 2
            };
            let Some(growth) = moves.checked_sub(1) else {
                return false;
            };
            let reaches = |count: u8, limit: Option<u8>| {
                limit.is_some_and(|max| u32::from(count) + growth >= u32::from(max))
            };
            reaches(self.counters.skips[c.index()], rules.max_consecutive_skips)
                || reaches(
                    self.counters.checks[c.index()],
                    rules.max_consecutive_checks,
                )
        })
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

#[cfg(test)]
mod tests {
    use crate::test_positions::random_positions;
    use crate::Color;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    /// Where [`Position::counters_can_bind_within`] says the counters cannot bind over a span,
    /// a line of that many plies played with counters kept has the same legal moves at every
    /// ply as the line played with full makes: random lines (checks and skips preferred, so
    /// that counters grow) from random positions of every built-in variant, with the
    /// counters set to every value up to their limits.
    #[test]
    fn a_line_played_keeping_the_counters_has_the_same_legal_moves_where_they_cannot_bind() {
        let mut rng = StdRng::seed_from_u64(7);
        for id in crate::variant::builtin_ids() {
            let (mut lines, mut bound) = (0usize, 0usize);
            let mut visited = 0usize;
            random_positions(id, 3, |pos, _| {
                visited += 1;
                if !visited.is_multiple_of(6) {
                    return;
                }
                let rules = pos.variant().rules.clone();
                let limits = [rules.max_consecutive_skips, rules.max_consecutive_checks];
                let top = limits.iter().flatten().copied().max().unwrap_or(0);
                for count in 0..=top {
                    let mut start = pos.clone();
                    if top > 0 {
                        let clip = |l: Option<u8>| l.map_or(0, |m| count.min(m));
                        for c in Color::ALL {
                            let (s, k) = (clip(limits[0]), clip(limits[1]));
                            start.set_counters(c, s, k);
                        }
                    }
                    for plies in 1..=6u32 {
                        if start.counters_can_bind_within(plies) {
                            bound += 1;
                            continue;
                        }
                        lines += 1;
                        let (mut full, mut kept) = (start.clone(), start.clone());
                        for ply in 0..plies {
                            let a = full.legal_moves();
                            let b = kept.legal_moves();
                            assert_eq!(
                                a,
                                b,
                                "{id}: legal moves differ at ply {ply} of {plies} from {}",
                                start.to_text()
                            );
                            if a.is_empty() || full.outcome_given(false).is_some() {
                                break;
                            }
                            let pick = pick_growing(&mut full, &a, &mut rng);
                            full.make_move(pick);
                            kept.make_move_keeping_counters(pick);
                        }
                    }
                }
            });
            assert!(lines > 0, "{id}: no line tested");
            if id == "gyaku-sama-shogi" {
                assert!(bound > 0, "{id}: no span where the counters bind");
            }
        }
    }

    /// A move that grows a counter where there is one (a check or a skip), else any.
    fn pick_growing(
        pos: &mut crate::Position,
        legal: &[crate::Move],
        rng: &mut StdRng,
    ) -> crate::Move {
        let growing: Vec<crate::Move> = legal
            .iter()
            .copied()
            .filter(|&m| {
                if m.is_skip() {
                    return true;
                }
                pos.make_move(m);
                let check = pos.in_check(pos.side_to_move());
                pos.unmake_move();
                check
            })
            .collect();
        if !growing.is_empty() && rng.gen_bool(0.8) {
            growing[rng.gen_range(0..growing.len())]
        } else {
            legal[rng.gen_range(0..legal.len())]
        }
    }
}
