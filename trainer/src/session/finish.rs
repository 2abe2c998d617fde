//! The trainer's status record and the end of a trainer run.

use crate::status;
use crate::trainer::Trainer;
use koma_store::backoff::{sleep_unless, Backoff};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Steps per second between status records.
pub struct StepRate {
    at: Instant,
    step: u64,
}

impl StepRate {
    /// Starts counting from `step`.
    pub fn new(step: u64) -> StepRate {
        StepRate {
            at: Instant::now(),
            step,
        }
    }

    fn take(&mut self, step: u64) -> f64 {
        let dt = self.at.elapsed().as_secs_f64().max(1e-9);
        let r = step.saturating_sub(self.step) as f64 / dt;
        *self = StepRate::new(step);
        r
    }
}

/// Writes the trainer's status record; an unreachable store only costs a debug line.
pub fn write_status(trainer: &Trainer, rate: &mut StepRate) {
    let s = trainer.status(rate.take(trainer.state.step));
    if let Err(e) = status::write(trainer.store(), &s) {
        tracing::debug!("writing the trainer status: {e}");
    }
}

/// The end of a trainer run: a checkpoint (local), then the model and status to the store,
/// tried for up to 30 s; what the store did not take is published at the next start.
pub fn finish_trainer(trainer: &mut Trainer, rate: &mut StepRate) -> anyhow::Result<()> {
    trainer.checkpoint()?;
    let never = AtomicBool::new(false);
    let give_up = Instant::now() + Duration::from_secs(30);
    let mut wait = Backoff::new(Duration::from_secs(1), Duration::from_secs(8));
    loop {
        match trainer.publish() {
            Ok(_) => break,
            Err(e) if Instant::now() < give_up => {
                let d = wait.fail();
                tracing::warn!(
                    "publishing the final model: {e:#}; trying again in {}s",
                    d.as_secs()
                );
                sleep_unless(&never, d);
            }
            Err(e) => {
                tracing::warn!(
                    "publishing the final model: {e:#}; it is in the checkpoint and is published at the next start"
                );
                break;
            }
        }
    }
    write_status(trainer, rate);
    trainer.metrics().flush();
    Ok(())
}
