//! Which way of running one network is fastest on this CPU: libtorch's tensors or koma's
//! loops ([`crate::cpu_net`]) in fp32 or bf16, measured once per network shape and process.
//!
//! None wins everywhere. On the 2-core AMD host (AVX512-BF16) libtorch's bf16 convolutions
//! make 55 GFLOP/s at a batch of 8 and 98-192 at 64, its fp32 ones 34-56 and 63-96; the
//! loops' make 153-213 in bf16 and 98-115 in fp32 at any batch, and spare libtorch's cost per
//! operation, which on a small network at play's batches is as large as the convolutions.
//! On an Intel host libtorch's bf16 ran slower than its fp32. So `auto` runs the network
//! itself every way on a batch of positions and keeps the fastest.

use crate::{Model, Precision};
use koma_rules::Position;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// A challenger must take at most this share of the incumbent's time: near ties (where
/// noise picks the winner) stay with libtorch, the way chosen before the loops existed, and
/// with fp32 over bf16, which costs a little accuracy.
const MARGIN: f64 = 0.9;

/// Positions in the probe's batch: between play's batches of 8 and self-play's of 64 and
/// more, since a model serves whichever it is loaded for.
const BATCH: usize = 16;

/// Decisions so far, by variant and network shape.
static DECIDED: Mutex<Option<HashMap<String, (Precision, bool)>>> = Mutex::new(None);

/// The fastest way to run `model` (the trunk's format, and whether in the loops) among
/// libtorch in `tensors` and the loops in fp32 and, where the CPU has AVX512-BF16, bf16;
/// measured on first use for its variant and shape, then remembered. Leaves the model
/// prepared in some way; the caller prepares it as chosen.
pub(crate) fn fastest(model: &mut Model, tensors: Precision) -> (Precision, bool) {
    let key = format!("{} {:?} {tensors:?}", model.meta.variant, model.meta.arch);
    if let Some(&d) = DECIDED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .get(&key)
    {
        return d;
    }
    let requests = probe_requests(model);
    let bf16_possible = model.loops_possible(Precision::Bf16);
    let mut time = |p: Precision, loops: bool| {
        model.prepare_inference(p, loops);
        let refs: Vec<_> = requests.iter().collect();
        for _ in 0..2 {
            std::hint::black_box(model.evaluate_requests(&refs));
        }
        (0..6)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(model.evaluate_requests(&refs));
                t.elapsed().as_secs_f64() * 1e6
            })
            .fold(f64::INFINITY, f64::min)
    };
    let tensors_us = time(tensors, false);
    let fp32_us = time(Precision::Fp32, true);
    let bf16_us = bf16_possible.then(|| time(Precision::Bf16, true));
    let (loops, loops_us) = match bf16_us {
        Some(b) if b <= MARGIN * fp32_us => (Precision::Bf16, b),
        _ => (Precision::Fp32, fp32_us),
    };
    let choice = if loops_us <= MARGIN * tensors_us {
        (loops, true)
    } else {
        (tensors, false)
    };
    tracing::info!(
        tensors_us = format!("{tensors_us:.0}"),
        loops_fp32_us = format!("{fp32_us:.0}"),
        loops_bf16_us = bf16_us.map_or("-".into(), |b| format!("{b:.0}")),
        "inference probe ({key}, batch {BATCH}): {} {:?} chosen",
        if choice.1 { "loops" } else { "libtorch" },
        choice.0
    );
    DECIDED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .insert(key, choice);
    choice
}

/// A batch of positions a few moves into the game (a different legal move each time), so
/// that the batch holds different boards.
fn probe_requests(model: &Model) -> Vec<crate::Request> {
    let mut pos = Position::start(model.encoder().variant());
    (0..BATCH)
        .map(|i| {
            let moves = pos.legal_moves();
            let request = model.prepare(&pos, &moves);
            if let Some(&mv) = moves.get(i * 7 % moves.len().max(1)) {
                if pos.outcome().is_none() {
                    pos.make_move(mv);
                }
            }
            request
        })
        .collect()
}
