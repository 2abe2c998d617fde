//! Whether bf16 convolutions actually outrun fp32 ones on this CPU, measured once per process.
//!
//! A CPU that computes in bf16 natively does not make libtorch's bf16 convolutions faster by
//! itself: on an AMD EPYC (Zen 4, AVX512-BF16) the trunk ran about twice as fast in bf16, on an
//! Intel Xeon (Emerald Rapids, AVX512-BF16 without AMX exposed to the guest) it ran at 0.6-0.8x
//! of fp32, the casts and oneDNN's bf16 kernels costing more than the arithmetic saved. So the
//! `auto` precision times one residual block of a CPU preset's size in both formats, as the
//! trunk runs it (the stream in fp32, the convolutions in the trunk's format, channels-last),
//! and takes bf16 only where it is clearly faster.

use std::sync::OnceLock;
use std::time::Instant;
use tch::{Device, Kind, Tensor};

/// bf16 must take at most this share of fp32's time to be chosen: a margin over the probe's
/// noise, since a wrong bf16 choice also costs a little accuracy.
const MARGIN: f64 = 0.9;

/// The probe's timings, microseconds per block pass.
#[derive(Debug, Clone, Copy)]
pub struct ProbeTimes {
    /// The block with its convolutions in bf16.
    pub bf16_us: f64,
    /// The same block in fp32.
    pub fp32_us: f64,
}

impl ProbeTimes {
    /// Whether bf16 is the faster format by the margin.
    pub fn bf16_wins(&self) -> bool {
        self.bf16_us <= MARGIN * self.fp32_us
    }
}

/// Times one residual block (two 3x3 convolutions of 32 channels on a batch of 64 9x9
/// boards) in bf16 and in fp32: the fastest of several passes each, after warm-up passes.
pub fn probe() -> ProbeTimes {
    tch::no_grad(|| {
        // Fixed inputs, not the global generator: the probe must not move other seeded work.
        let n = 64 * 32 * 9 * 9;
        let x: Vec<f32> = (0..n)
            .map(|i| ((i * 7919) % 97) as f32 / 97.0 - 0.5)
            .collect();
        let w: Vec<f32> = (0..32 * 32 * 9)
            .map(|i| ((i * 104_729) % 89) as f32 / 890.0 - 0.05)
            .collect();
        let last = |t: Tensor| t.permute([0, 2, 3, 1]).contiguous().permute([0, 3, 1, 2]);
        let x = last(Tensor::from_slice(&x).reshape([64, 32, 9, 9]));
        let time = |kind: Kind| {
            let w = last(Tensor::from_slice(&w).reshape([32, 32, 3, 3]).to_kind(kind));
            let b = Tensor::zeros([32], (kind, Device::Cpu));
            let pass = || {
                let mut h = x
                    .to_kind(kind)
                    .conv2d(&w, Some(&b), [1, 1], [1, 1], [1, 1], 1);
                let _ = h.relu_();
                let mut y = h
                    .conv2d(&w, Some(&b), [1, 1], [1, 1], [1, 1], 1)
                    .to_kind(Kind::Float);
                y += &x;
                y
            };
            fastest_us(3, 12, || {
                let _ = std::hint::black_box(pass());
            })
        };
        ProbeTimes {
            bf16_us: time(Kind::BFloat16),
            fp32_us: time(Kind::Float),
        }
    })
}

/// The fastest of `runs` timed calls of `f`, in microseconds, after `warm_up` untimed ones:
/// the probes' measure, the minimum being the least disturbed by other work.
pub(crate) fn fastest_us(warm_up: usize, runs: usize, mut f: impl FnMut()) -> f64 {
    for _ in 0..warm_up {
        f();
    }
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e6
        })
        .fold(f64::INFINITY, f64::min)
}

/// Whether bf16 is the faster trunk format on this CPU: the probe, run on first use.
pub fn bf16_is_faster() -> bool {
    static FASTER: OnceLock<bool> = OnceLock::new();
    *FASTER.get_or_init(|| {
        let t = probe();
        let wins = t.bf16_wins();
        tracing::info!(
            bf16_us = format!("{:.0}", t.bf16_us),
            fp32_us = format!("{:.0}", t.fp32_us),
            "inference format probe: {} chosen",
            if wins { "bf16" } else { "fp32" }
        );
        wins
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bf16_is_chosen_only_when_clearly_faster() {
        let t = |bf16_us, fp32_us| ProbeTimes { bf16_us, fp32_us };
        assert!(t(50.0, 100.0).bf16_wins());
        assert!(!t(95.0, 100.0).bf16_wins());
        assert!(!t(150.0, 100.0).bf16_wins());
    }

    #[test]
    fn the_probe_times_both_formats() {
        let t = probe();
        assert!(t.bf16_us.is_finite() && t.bf16_us > 0.0, "{t:?}");
        assert!(t.fp32_us.is_finite() && t.fp32_us > 0.0, "{t:?}");
    }
}
