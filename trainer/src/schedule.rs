//! The learning rate over a run: a linear warm-up, then constant, and, where the run has a
//! limit (minutes or steps), an optional fall over its last stretch.
//!
//! Why a fall at the end: a network trained at a constant rate keeps moving around the
//! minimum by the size of its steps; lowering the rate over the last part of a run lets it
//! settle, which is how fixed-length runs (Leela Chess Zero's step schedules, most image
//! training) get their best final weights. koma's runs are usually limited by minutes, so the
//! stretch is measured in the run's time, or in its steps where a step limit is what ends it.
//! The limits are those of one invocation (`--minutes`, `--steps`): a run resumed with new
//! limits is at full rate again and falls again at its new end.

use crate::config::TrainerConfig;
use std::time::{Duration, Instant};

/// How far a limited run has come: 0 at its start, 1 at its limit.
#[derive(Debug, Clone, Copy)]
pub struct RunSpan {
    start: Instant,
    deadline: Option<Instant>,
    first_step: u64,
    max_steps: Option<u64>,
}

impl RunSpan {
    /// A run that starts now at `first_step` and ends at `deadline` or at `max_steps` steps,
    /// whichever comes first.
    pub fn new(deadline: Option<Instant>, first_step: u64, max_steps: Option<u64>) -> RunSpan {
        RunSpan {
            start: Instant::now(),
            deadline,
            first_step,
            max_steps,
        }
    }

    /// The share of the run done once the step after `step` is taken (so the run's last step
    /// has progress 1), now: the larger of the time's share and the steps' share, so the limit
    /// that comes first sets it. `None` for a run with no limit.
    pub fn progress(&self, step: u64) -> Option<f64> {
        let by_time = self.deadline.map(|d| {
            let total = d
                .saturating_duration_since(self.start)
                .max(Duration::from_millis(1));
            self.start.elapsed().as_secs_f64() / total.as_secs_f64()
        });
        let by_steps = self.max_steps.map(|m| {
            let total = m.saturating_sub(self.first_step).max(1);
            (step + 1).saturating_sub(self.first_step) as f64 / total as f64
        });
        [by_time, by_steps]
            .into_iter()
            .flatten()
            .reduce(f64::max)
            .map(|p| p.min(1.0))
    }

    /// Whether the run has reached a limit with `step` steps taken: its deadline has passed,
    /// or its step limit is reached. The loops stop on this, and the fall follows the same
    /// limits.
    pub fn is_over(&self, step: u64) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.max_steps.is_some_and(|m| step >= m)
    }
}

/// The learning rate at `step` (counted over the run's whole history, so a resumed run does
/// not warm up again) when this invocation has come `progress` of the way to its limit.
pub fn learning_rate(c: &TrainerConfig, step: u64, progress: Option<f64>) -> f64 {
    let warm = ((step + 1) as f64 / c.warmup_steps.max(1) as f64).min(1.0);
    c.learning_rate * warm * anneal_factor(c, progress)
}

/// The factor of the fall at the end: 1 before the last `anneal_fraction` of the run, then a
/// half cosine down to `anneal_final` at the limit; 1 throughout where the run has no limit.
fn anneal_factor(c: &TrainerConfig, progress: Option<f64>) -> f64 {
    let (Some(p), true) = (progress, c.anneal_fraction > 0.0) else {
        return 1.0;
    };
    let into = (p - (1.0 - c.anneal_fraction)) / c.anneal_fraction;
    if into <= 0.0 {
        return 1.0;
    }
    let cos = 0.5 * (1.0 + (std::f64::consts::PI * into.min(1.0)).cos());
    c.anneal_final + (1.0 - c.anneal_final) * cos
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(fraction: f64, last: f64) -> TrainerConfig {
        TrainerConfig {
            learning_rate: 0.02,
            warmup_steps: 50,
            anneal_fraction: fraction,
            anneal_final: last,
            ..TrainerConfig::default()
        }
    }

    #[test]
    fn warm_up_is_linear_then_constant_without_a_fall() {
        let c = cfg(0.0, 0.1);
        assert!((learning_rate(&c, 0, Some(0.0)) - 0.02 / 50.0).abs() < 1e-12);
        assert!((learning_rate(&c, 24, None) - 0.01).abs() < 1e-12);
        for p in [None, Some(0.0), Some(0.9), Some(1.0)] {
            assert_eq!(learning_rate(&c, 1000, p), 0.02);
        }
    }

    #[test]
    fn the_rate_falls_over_the_last_stretch_to_its_final_share() {
        let c = cfg(0.3, 0.1);
        assert_eq!(learning_rate(&c, 1000, Some(0.5)), 0.02);
        assert!((learning_rate(&c, 1000, Some(0.7)) - 0.02).abs() < 1e-12);
        // Halfway through the stretch: halfway between the rate and its final share.
        assert!((learning_rate(&c, 1000, Some(0.85)) - 0.011).abs() < 1e-9);
        assert!((learning_rate(&c, 1000, Some(1.0)) - 0.002).abs() < 1e-12);
        let mut last = f64::INFINITY;
        for i in 0..=100 {
            let lr = learning_rate(&c, 1000, Some(0.7 + 0.003 * i as f64));
            assert!(lr <= last, "the fall never rises (at {i})");
            last = lr;
        }
        // A run with no limit has nothing to fall towards.
        assert_eq!(learning_rate(&c, 1000, None), 0.02);
    }

    #[test]
    fn progress_follows_the_limit_that_comes_first() {
        assert_eq!(RunSpan::new(None, 0, None).progress(500), None);
        let steps = RunSpan::new(None, 100, Some(300));
        assert_eq!(steps.progress(100), Some(0.005));
        assert_eq!(steps.progress(199), Some(0.5));
        // The last step a run of `--steps 300` takes is step 299: it ends the fall.
        assert_eq!(steps.progress(299), Some(1.0));
        assert_eq!(steps.progress(900), Some(1.0));
        let far = Instant::now() + Duration::from_secs(3600);
        let both = RunSpan::new(Some(far), 0, Some(10));
        assert_eq!(both.progress(4), Some(0.5));
        assert!(both.progress(0).unwrap() <= 0.1);
        let past = RunSpan::new(Some(Instant::now()), 0, None);
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(past.progress(0), Some(1.0));
        assert!(past.is_over(0));
        assert!(!steps.is_over(299) && steps.is_over(300));
        assert!(!both.is_over(9) && both.is_over(10));
        assert!(!RunSpan::new(None, 0, None).is_over(u64::MAX));
    }
}
