//! TensorBoard scalars.

use std::path::Path;
use tensorboard_rs::summary_writer::SummaryWriter;

/// A TensorBoard event writer for one process role (`trainer`, `selfplay`).
pub struct Metrics {
    writer: SummaryWriter,
}

impl Metrics {
    /// Events under `dir`.
    pub fn new(dir: &Path) -> Metrics {
        let _ = std::fs::create_dir_all(dir);
        Metrics {
            writer: SummaryWriter::new(dir),
        }
    }

    /// Records one scalar.
    pub fn scalar(&mut self, tag: &str, value: f64, step: u64) {
        if value.is_finite() {
            self.writer.add_scalar(tag, value as f32, step as usize);
        }
    }

    /// Writes buffered events to disk.
    pub fn flush(&mut self) {
        self.writer.flush();
    }
}
