//! Time management: from what a protocol says about the clock to the budget of one search.
//!
//! Every protocol ends up with the same questions (how much time is left, is there an
//! increment, a byoyomi, a number of moves to the next time control, a fixed time or node
//! count), so they fill one [`Clock`] and ask it for [`Limits`].

use crate::search::Limits;
use std::time::Duration;

/// Moves assumed left in the game when the protocol does not say: a long game for these
/// variants, so the engine spends its time evenly rather than early.
const DEFAULT_MOVES_TO_GO: u32 = 40;

/// Least time a search gets.
const MIN_THINK: Duration = Duration::from_millis(10);

/// What the engine knows about its time for the next move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the engine's clock.
    pub remaining: Option<Duration>,
    /// Added after each move.
    pub increment: Duration,
    /// Moves to the next time control (`None`: the rest of the game).
    pub moves_to_go: Option<u32>,
    /// Byoyomi: time for each move once the main time is spent.
    pub byoyomi: Duration,
    /// A fixed time for this move.
    pub movetime: Option<Duration>,
    /// A fixed number of simulations ("nodes").
    pub nodes: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Kept back for the round trip to the GUI.
    pub overhead: Duration,
}

impl Clock {
    /// The budget of the next search; `fallback_sims` when the GUI set no limit at all.
    pub fn limits(&self, fallback_sims: u32) -> Limits {
        if self.infinite {
            return Limits::default();
        }
        let mut limits = Limits {
            sims: self.nodes,
            time: None,
        };
        if let Some(t) = self.movetime {
            limits.time = Some(t.saturating_sub(self.overhead).max(MIN_THINK));
        } else if let Some(left) = self.remaining {
            let mtg = self.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).max(1);
            // An even share of the main time, most of the increment, and the byoyomi that
            // comes with every move; never more than half of what is on the clock beyond it.
            let share = left / mtg + self.increment * 3 / 4;
            let cap = left / 2 + self.byoyomi;
            let t = (share + self.byoyomi)
                .min(cap)
                .saturating_sub(self.overhead);
            limits.time = Some(t.max(MIN_THINK));
        } else if !self.byoyomi.is_zero() {
            limits.time = Some(self.byoyomi.saturating_sub(self.overhead).max(MIN_THINK));
        }
        if limits.is_infinite() {
            // Nothing said at all: a fixed strength rather than a search that never ends.
            limits.sims = Some(fallback_sims.max(1));
        }
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn fixed_limits_are_kept() {
        let c = Clock {
            movetime: Some(ms(1000)),
            overhead: ms(50),
            ..Clock::default()
        };
        assert_eq!(c.limits(64).time, Some(ms(950)));
        let c = Clock {
            nodes: Some(300),
            ..Clock::default()
        };
        assert_eq!(c.limits(64), Limits::sims(300));
        let c = Clock {
            infinite: true,
            ..Clock::default()
        };
        assert!(c.limits(64).is_infinite());
        assert_eq!(Clock::default().limits(64), Limits::sims(64));
    }

    #[test]
    fn a_clock_is_shared_over_the_moves_to_go() {
        let c = Clock {
            remaining: Some(ms(60_000)),
            increment: ms(1000),
            ..Clock::default()
        };
        assert_eq!(c.limits(64).time, Some(ms(1500 + 750)));
        let c = Clock {
            remaining: Some(ms(60_000)),
            moves_to_go: Some(10),
            ..Clock::default()
        };
        assert_eq!(c.limits(64).time, Some(ms(6000)));
        // Never more than half the clock, however few moves are left.
        let c = Clock {
            remaining: Some(ms(10_000)),
            moves_to_go: Some(1),
            ..Clock::default()
        };
        assert_eq!(c.limits(64).time, Some(ms(5000)));
    }

    #[test]
    fn byoyomi_is_spent_each_move() {
        let c = Clock {
            remaining: Some(Duration::ZERO),
            byoyomi: ms(3000),
            overhead: ms(100),
            ..Clock::default()
        };
        assert_eq!(c.limits(64).time, Some(ms(2900)));
        let c = Clock {
            byoyomi: ms(1000),
            ..Clock::default()
        };
        assert_eq!(c.limits(64).time, Some(ms(1000)));
    }
}
