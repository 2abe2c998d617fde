//! The inference fast path against the fp32 reference: batch normalisation folded into the
//! convolutions gives the same outputs, and the bf16 trunk of a trained network agrees with
//! fp32 on the move it prefers in at least 98% of positions, with values within 0.02.

use koma_mcts::Evaluator;
use koma_model::{Arch, Model, Precision};
use koma_rules::{load_variant, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tch::{Device, Tensor};

/// A network of a self-play preset's size whose batch normalisations have non-trivial
/// statistics and whose policy is sharp, as a trained network's are (a freshly initialised one
/// has near-uniform priors, where the preferred move is a coin toss in any precision). Every
/// weight is drawn from a seeded generator of the test's own, so the network is the same on
/// every run whatever else runs beside it.
fn trained_like(variant: &str, seed: u64) -> Model {
    let v = load_variant(variant).unwrap();
    let arch = Arch {
        blocks: 4,
        channels: 32,
        gpool_every: 2,
        head_dim: 16,
        value_channels: 8,
        value_hidden: 32,
    };
    let model = Model::new(&v, &arch, Device::Cpu);
    let mut rng = StdRng::seed_from_u64(seed);
    tch::no_grad(|| {
        let mut vars: Vec<_> = model.var_store().variables().into_iter().collect();
        vars.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, mut t) in vars {
            let size = t.size();
            let n: i64 = size.iter().product();
            let fan_in = (n / size.first().copied().unwrap_or(1).max(1)).max(1) as f64;
            let (centre, spread) = if name.ends_with("running_mean") {
                (0.0, 0.3)
            } else if name.ends_with("running_var") {
                (1.0, 0.5)
            } else if name.contains(".bn.weight") {
                (1.0, 0.2)
            } else if name.contains(".bn.bias") || name.ends_with(".bias") {
                (0.0, 0.1)
            } else if name.starts_with("policy") {
                (0.0, 6.0 * (3.0 / fan_in).sqrt())
            } else if name.starts_with("value_fc2") {
                // Logits of a few units, so values are not saturated at +-1.
                (0.0, 0.02 * (3.0 / fan_in).sqrt())
            } else {
                (0.0, (3.0 / fan_in).sqrt())
            };
            let vals: Vec<f32> = (0..n)
                .map(|_| (centre + spread * rng.gen_range(-1.0..1.0)) as f32)
                .collect();
            t.copy_(&Tensor::from_slice(&vals).reshape(size));
        }
    });
    model
}

/// A second model with the same weights (tests run side by side, so the global random seed
/// cannot be relied on to build two equal models).
fn copy_of(model: &Model, variant: &str) -> Model {
    let v = load_variant(variant).unwrap();
    let mut other = Model::new(&v, &model.meta.arch, Device::Cpu);
    other.var_store_mut().copy(model.var_store()).unwrap();
    other
}

fn positions(variant: &str, n: usize) -> Vec<Position> {
    let v = load_variant(variant).unwrap();
    let mut rng = StdRng::seed_from_u64(9);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::start(&v);
        for _ in 0..rng.gen_range(0..120) {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            pos.make_move(moves[rng.gen_range(0..moves.len())]);
        }
        if !pos.legal_moves().is_empty() && pos.outcome().is_none() {
            out.push(pos);
        }
    }
    out
}

fn best(priors: &[f32]) -> usize {
    priors
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map_or(0, |b| b.0)
}

/// Share of positions whose preferred move agrees, and the largest value difference.
fn compare(reference: &Model, fast: &Model, positions: &mut [Position]) -> (f64, f32) {
    let (mut same, mut worst) = (0usize, 0.0f32);
    for chunk in positions.chunks_mut(32) {
        let reqs: Vec<_> = chunk
            .iter_mut()
            .map(|p| {
                let m = p.legal_moves();
                reference.prepare(p, &m)
            })
            .collect();
        let a = reference.evaluate(reqs.clone());
        let b = fast.evaluate(reqs);
        for (x, y) in a.iter().zip(&b) {
            same += usize::from(best(&x.priors) == best(&y.priors));

            worst = worst.max((x.value() - y.value()).abs());
        }
    }
    (same as f64 / positions.len() as f64, worst)
}

#[test]
fn folded_batch_norm_gives_the_same_outputs() {
    for variant in ["hand-shogi", "ko-shogi"] {
        let reference = trained_like(variant, 1);
        let mut folded = copy_of(&reference, variant);
        folded.optimize_for_inference(Precision::Fp32);
        let mut ps = positions(variant, 64);
        let (agree, worst) = compare(&reference, &folded, &mut ps);
        assert!(agree >= 0.99, "{variant}: {agree}");
        assert!(worst < 1e-4, "{variant}: values differ by {worst}");
    }
}

/// A network from a short self-play run of `variant` with its CPU preset, kept as test data
/// (Hand Shogi: step 900, 1,389 games, 4 minutes; Ko Shogi: step 1,323, 122 games, 6 minutes): agreement is a
/// question about trained weights, whose policies are as sharp as real play makes them.
fn trained(variant: &str) -> Model {
    let stem = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(format!("{variant}-trained"));
    let v = load_variant(variant).unwrap();
    Model::load(&stem, &v, None, Device::Cpu).unwrap()
}

#[test]
fn the_bf16_trunk_agrees_with_fp32() {
    for variant in ["hand-shogi", "ko-shogi"] {
        let reference = trained(variant);
        let mut fast = trained(variant);
        fast.optimize_for_inference(Precision::Bf16);
        let mut ps = positions(variant, 400);
        let (agree, worst) = compare(&reference, &fast, &mut ps);
        eprintln!(
            "{variant}: best move agrees in {:.1}%, values within {worst:.4}",
            100.0 * agree
        );
        assert!(agree >= 0.98, "{variant}: best move agrees in {agree}");
        assert!(worst <= 0.02, "{variant}: values differ by {worst}");
    }
}
