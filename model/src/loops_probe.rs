//! Which way of running one network is fastest on this CPU: libtorch's tensors or koma's
//! loops ([`crate::cpu_net`]) in fp32 or bf16, measured once per network shape and process.
//!
//! None wins everywhere. On the 2-core AMD host (AVX512-BF16) libtorch's bf16 convolutions
//! make 55 GFLOP/s at a batch of 8 and 98-192 at 64, its fp32 ones 34-56 and 63-96; the
//! loops' make 153-213 in bf16 and 98-115 in fp32 at any batch, and spare libtorch's cost per
//! operation, which on a small network at play's batches is as large as the convolutions.
//! On an Intel host libtorch's bf16 ran slower than its fp32. So `auto` runs the network
//! itself every way on a batch of positions and keeps the fastest.
//!
//! On a CPU with AVX2 but not AVX-512 (the AMD EPYC of Zen 3) the loops run in fp32 only,
//! against libtorch's fp32, and win at play's small batches where libtorch's cost per
//! operation dominates; at self-play's larger ones the probe decides.
//!
//! The batch matters as much as the CPU. On an Intel host with AMX, Hand Shogi's 3 x 24
//! network made 14,200 positions a second in the fp32 loops and 11,300 in libtorch's bf16
//! at a batch of 16, but 13,900 against 17,000 at self-play's 64: so a model is timed at
//! the batch it will serve, and each batch size gets its own decision.

use crate::Precision;
use std::collections::HashMap;
use std::sync::Mutex;

/// A challenger must take at most this share of the incumbent's time: near ties (where
/// noise picks the winner) stay with libtorch, the way chosen before the loops existed, and
/// with fp32 over bf16, which costs a little accuracy.
const MARGIN: f64 = 0.9;

/// Positions in the probe's batch when the caller does not know what it will serve: between
/// play's batches of 8 and self-play's of 64 and more.
pub(crate) const DEFAULT_BATCH: usize = 16;

/// The largest batch the probe times: beyond it the curves measured so far are flat or
/// falling, and the probe's own cost grows with the batch.
const MAX_BATCH: usize = 128;

/// The batch the probe times for a caller that expects batches of `expected` positions.
pub(crate) fn probe_batch(expected: usize) -> usize {
    expected.clamp(1, MAX_BATCH)
}

/// Decisions so far, by variant, network shape and batch.
static DECIDED: Mutex<Option<HashMap<String, (Precision, bool)>>> = Mutex::new(None);

/// The fastest way to run a network (the trunk's format, and whether in the loops) among
/// libtorch in `tensors` and the loops in fp32 and, with `bf16_loops`, bf16. `time` prepares
/// the network one way and returns its time for a batch of `batch` positions. Measured on
/// first use for `key` (the variant and network shape) and `batch`, then remembered.
pub(crate) fn fastest(
    key: String,
    batch: usize,
    tensors: Precision,
    bf16_loops: bool,
    mut time: impl FnMut(Precision, bool) -> f64,
) -> (Precision, bool) {
    let key = format!("{key} {tensors:?}, batch {batch}");
    // The lock is held while the probe runs: models loaded at once on several threads (the
    // ladder's matches side by side) wait for one decision instead of each timing its own,
    // which on a busy machine could differ from thread to thread.
    let mut decided = DECIDED.lock().unwrap_or_else(|e| e.into_inner());
    let decided = decided.get_or_insert_with(HashMap::new);
    if let Some(&d) = decided.get(&key) {
        return d;
    }
    let tensors_us = time(tensors, false);
    let fp32_us = time(Precision::Fp32, true);
    let bf16_us = bf16_loops.then(|| time(Precision::Bf16, true));
    let choice = choose(tensors, tensors_us, fp32_us, bf16_us);
    tracing::info!(
        tensors_us = format!("{tensors_us:.0}"),
        loops_fp32_us = format!("{fp32_us:.0}"),
        loops_bf16_us = bf16_us.map_or("-".into(), |b| format!("{b:.0}")),
        "inference probe ({key}): {} {:?} chosen",
        if choice.1 { "loops" } else { "libtorch" },
        choice.0
    );
    decided.insert(key, choice);
    choice
}

/// The choice from the timings: bf16 loops over fp32 loops, and the loops over libtorch,
/// each only when faster by the margin.
fn choose(
    tensors: Precision,
    tensors_us: f64,
    fp32_us: f64,
    bf16_us: Option<f64>,
) -> (Precision, bool) {
    let (loops, loops_us) = match bf16_us {
        Some(b) if b <= MARGIN * fp32_us => (Precision::Bf16, b),
        _ => (Precision::Fp32, fp32_us),
    };
    if loops_us <= MARGIN * tensors_us {
        (loops, true)
    } else {
        (tensors, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_times_the_batch_asked_within_its_bounds() {
        assert_eq!(probe_batch(64), 64);
        assert_eq!(probe_batch(0), 1);
        assert_eq!(probe_batch(256), MAX_BATCH);
    }

    #[test]
    fn a_way_wins_only_by_the_margin() {
        let (t, f, b) = (Precision::Bf16, Precision::Fp32, Precision::Bf16);
        // The bf16 loops clearly fastest.
        assert_eq!(choose(t, 100.0, 80.0, Some(50.0)), (b, true));
        // bf16 loops within 10% of fp32 loops: fp32 loops, which beat libtorch.
        assert_eq!(choose(t, 100.0, 80.0, Some(75.0)), (f, true));
        // The loops within 10% of libtorch: libtorch stays.
        assert_eq!(choose(t, 100.0, 95.0, Some(92.0)), (t, false));
        // No bf16 loops on this CPU.
        assert_eq!(choose(Precision::Fp32, 100.0, 60.0, None), (f, true));
    }
}
