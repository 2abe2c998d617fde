//! The person's game clock: a main time for the game, then (or only) a fixed time per move,
//! as shogi's byoyomi. The engine keeps to its own budget per move, so only the person has a
//! clock. The server keeps the time (the page only shows it counting down), so that a page
//! reloaded or left in the background cannot gain any.

use serde::Serialize;
use std::time::{Duration, Instant};

/// A time control, chosen with a new game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// Main time for the game, in seconds (0: none).
    #[serde(default)]
    pub main_secs: u64,
    /// Time for each move once the main time is spent, in seconds (0: none).
    #[serde(default)]
    pub byoyomi_secs: u64,
}

impl TimeControl {
    /// Whether there is any clock.
    pub fn is_set(&self) -> bool {
        self.main_secs > 0 || self.byoyomi_secs > 0
    }

    fn main(&self) -> Duration {
        Duration::from_secs(self.main_secs)
    }

    fn byoyomi(&self) -> Duration {
        Duration::from_secs(self.byoyomi_secs)
    }
}

/// The clock as the state shows it, read at the moment of the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ClockView {
    /// The time control.
    pub control: TimeControl,
    /// Main time left, in milliseconds.
    pub main_left_ms: u64,
    /// Time left for this move once the main time is spent (the byoyomi), in milliseconds.
    pub byoyomi_left_ms: u64,
    /// Whether it runs now (the person's turn).
    pub running: bool,
}

/// The person's clock.
#[derive(Debug, Clone)]
pub struct PersonClock {
    control: TimeControl,
    main_left: Duration,
    turn_from: Option<Instant>,
}

impl PersonClock {
    /// A clock for a new game (a clock with nothing set never runs out).
    pub fn new(control: TimeControl) -> PersonClock {
        PersonClock {
            control,
            main_left: control.main(),
            turn_from: None,
        }
    }

    /// Whether there is a clock at all.
    pub fn is_set(&self) -> bool {
        self.control.is_set()
    }

    /// Starts the person's turn at `now` (nothing if it runs already).
    pub fn start(&mut self, now: Instant) {
        if self.is_set() && self.turn_from.is_none() {
            self.turn_from = Some(now);
        }
    }

    /// Stops the clock at `now`, charging the turn: the main time pays first, the byoyomi the
    /// rest (a move, the end of the game, or the engine's search). Whether the flag fell is
    /// [`PersonClock::flagged`]'s to say, before.
    pub fn pause(&mut self, now: Instant) {
        if let Some(from) = self.turn_from.take() {
            self.main_left = self.main_left.saturating_sub(now - from);
        }
    }

    /// Whether the person's time ran out by `now`.
    pub fn flagged(&self, now: Instant) -> bool {
        match self.turn_from {
            Some(from) if self.is_set() => now - from > self.main_left + self.control.byoyomi(),
            _ => false,
        }
    }

    /// The clock as of `now`.
    pub fn view(&self, now: Instant) -> Option<ClockView> {
        if !self.is_set() {
            return None;
        }
        let spent = self.turn_from.map_or(Duration::ZERO, |from| now - from);
        let main_left = self.main_left.saturating_sub(spent);
        let over = spent.saturating_sub(self.main_left);
        let byoyomi_left = self.control.byoyomi().saturating_sub(over);
        Some(ClockView {
            control: self.control,
            main_left_ms: main_left.as_millis() as u64,
            byoyomi_left_ms: byoyomi_left.as_millis() as u64,
            running: self.turn_from.is_some(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_time_pays_first_then_the_byoyomi() {
        let t0 = Instant::now();
        let s = Duration::from_secs;
        let mut c = PersonClock::new(TimeControl {
            main_secs: 10,
            byoyomi_secs: 5,
        });
        c.start(t0);
        assert!(!c.flagged(t0 + s(4)));
        c.pause(t0 + s(4));
        assert_eq!(c.view(t0 + s(4)).unwrap().main_left_ms, 6_000);
        c.start(t0 + s(10));
        // 6 s of main time, then 4 s of the 5 s byoyomi: still in time.
        assert!(!c.flagged(t0 + s(20)));
        let v = c.view(t0 + s(20)).unwrap();
        assert_eq!((v.main_left_ms, v.byoyomi_left_ms), (0, 1_000));
        assert!(!c.flagged(t0 + s(20)));
        c.pause(t0 + s(20));
        // Each later move has the whole byoyomi, and no more.
        c.start(t0 + s(30));
        assert!(!c.flagged(t0 + s(35)));
        assert!(c.flagged(t0 + s(35) + Duration::from_millis(1)));
        assert!(c.flagged(t0 + s(36)));
    }

    #[test]
    fn no_control_never_runs_out() {
        let t0 = Instant::now();
        let mut c = PersonClock::new(TimeControl::default());
        c.start(t0);
        assert!(!c.flagged(t0 + Duration::from_secs(1_000_000)));
        assert!(c.view(t0).is_none());
    }
}
