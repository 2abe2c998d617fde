//! The inference fast path against the fp32 reference: batch normalisation folded into the
//! convolutions gives the same outputs, and the bf16 trunk of a trained network agrees with
//! fp32 on the move it prefers in at least 98% of positions, with values within 0.02.

use koma_mcts::Evaluator;
use koma_model::cpu_net::Isa;
use koma_model::{Arch, Inference, Model, Precision};
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
    trained_like_with(variant, seed, 32)
}

/// [`trained_like`] with `channels` channels in the trunk.
fn trained_like_with(variant: &str, seed: u64, channels: i64) -> Model {
    let v = load_variant(variant).unwrap();
    let arch = Arch {
        blocks: 4,
        channels,
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
    positions_within(variant, n, 120)
}

/// `n` positions from random games of up to `max_plies` plies.
fn positions_within(variant: &str, n: usize, max_plies: usize) -> Vec<Position> {
    let v = load_variant(variant).unwrap();
    let mut rng = StdRng::seed_from_u64(9);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::start(&v);
        for _ in 0..rng.gen_range(0..max_plies) {
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

/// The network requests of `positions` with their legal moves.
fn requests(model: &Model, positions: &mut [Position]) -> Vec<koma_model::Request> {
    positions
        .iter_mut()
        .map(|p| {
            let m = p.legal_moves();
            model.prepare(p, &m)
        })
        .collect()
}

/// How close to the reference's best prior another move's must be to count as a tie.
const NEAR_TIE: f32 = 0.95;

/// Share of positions whose preferred move agrees (up to a near tie), and the largest value
/// difference.
fn compare(reference: &Model, fast: &Model, positions: &mut [Position]) -> (f64, f32) {
    let (mut same, mut worst) = (0usize, 0.0f32);
    for chunk in positions.chunks_mut(32) {
        let reqs = requests(reference, chunk);
        let a = reference.evaluate(reqs.clone());
        let b = fast.evaluate(reqs);
        for (x, y) in a.iter().zip(&b) {
            // The fast path's favourite agrees when the reference rates it its best or tied
            // with its best within NEAR_TIE: bf16 keeps 8 bits of mantissa, so logits a few
            // hundredths apart may swap, which changes nothing a search would notice.
            let (mine, theirs) = (best(&x.priors), best(&y.priors));
            same += usize::from(x.priors[theirs] >= NEAR_TIE * x.priors[mine]);

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

/// A model prepared to play on the CPU scores moves in plain loops, not tensors: its priors
/// must be the tensor formula's to within rounding, for drops (Hand Shogi), moves with two
/// kills and shots (Ko Shogi). Compared against the same folded fp32
/// network scored through the tensor path (the training pass's `forward`).
#[test]
fn the_move_scoring_loops_give_the_tensor_formulas_priors() {
    let mut seen = [false; 3];
    for variant in ["hand-shogi", "ko-shogi"] {
        let mut model = trained_like(variant, 3);
        model.optimize_for_inference(Precision::Fp32);
        // Long random games: moves with two kills are rare early.
        let mut ps = positions_within(variant, 64, 400);
        for chunk in ps.chunks_mut(16) {
            let reqs = requests(&model, chunk);
            for r in &reqs {
                for m in &r.moves {
                    seen[0] |= m[0] < 0;
                    seen[1] |= m[5] >= 0;
                    seen[2] |= m[6] >= 0;
                }
            }
            let refs: Vec<_> = reqs.iter().collect();
            let batch = model.batch(&refs);
            let tensor_priors: Vec<f32> = tch::no_grad(|| {
                let out = model.forward(&batch, false);
                model.move_log_probs(&out, &batch).exp().try_into().unwrap()
            });
            let loops = model.evaluate(reqs);
            let mut at = 0;
            for e in &loops {
                for p in &e.priors {
                    let q = tensor_priors[at];
                    assert!(
                        (p - q).abs() <= 1e-5 + 1e-4 * q,
                        "{variant}: move {at}: {p} from the loops, {q} from tensors"
                    );
                    at += 1;
                }
            }
            assert_eq!(at, tensor_priors.len(), "{variant}: every move scored");
        }
    }
    assert_eq!(seen, [true; 3], "drops, second kills and shots all tried");
}

/// On a CPU with AVX-512 or AVX2 a model prepared in fp32 runs the pass after its stem in
/// koma's loops; they must give the unfolded fp32 network's priors, values and material to
/// within rounding, on every built-in variant (drops, shots, every board size koma has), in
/// every instruction set the CPU has (one with AVX-512 runs the AVX2 kernels too), and at
/// channel counts that fill whole registers (32), that do not (24, as Hand Shogi's preset,
/// in AVX-512), that take AVX2's tiles of three registers and of two (24, 32, 40) and that
/// leave one register alone (8; 40 in AVX-512: two at a time, then one).
#[test]
fn the_fp32_loops_compute_the_reference_network() {
    if !koma_model::cpu_net::available() {
        eprintln!("SKIPPED: this CPU has neither AVX-512 nor AVX2, so the loops never run here");
        return;
    }
    let isas: Vec<Isa> = [Isa::Avx512, Isa::Avx2]
        .into_iter()
        .filter(|isa| isa.runs_here())
        .collect();
    if !isas.contains(&Isa::Avx512) {
        eprintln!("SKIPPED: the AVX-512 kernels (this CPU has AVX2 only)");
    }
    for variant in koma_rules::variant::builtin_ids() {
        for (channels, &isa) in [8, 24, 32, 40]
            .into_iter()
            .flat_map(|c| isas.iter().map(move |i| (c, i)))
        {
            let reference = trained_like_with(variant, 5, channels);
            let mut loops = copy_of(&reference, variant);
            loops.optimize_for_inference(Precision::Fp32);
            assert_eq!(
                loops.inference(),
                Some(Inference::Loops(Precision::Fp32)),
                "{variant}"
            );
            assert_eq!(loops.set_loops_isa(isa), Some(isa), "{variant}");
            let mut ps = positions(variant, 12);
            let reqs = requests(&reference, &mut ps);
            let a = reference.evaluate(reqs.clone());
            let b = loops.evaluate(reqs);
            for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                let tag = format!("{variant}, {channels} channels, {isa:?}, position {i}");
                assert_eq!(x.priors.len(), y.priors.len(), "{tag}");
                for (p, q) in x.priors.iter().zip(&y.priors) {
                    assert!((p - q).abs() <= 1e-5 + 1e-4 * p, "{tag}: prior {q} for {p}");
                }
                for (p, q) in x.wdl.iter().zip(&y.wdl) {
                    assert!(
                        (p - q).abs() <= 1e-5,
                        "{tag}: wdl {:?} for {:?}",
                        y.wdl,
                        x.wdl
                    );
                }
                assert!((x.material - y.material).abs() <= 1e-5, "{tag}: material");
            }
        }
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

/// Both ways of running bf16 convolutions: libtorch's tensors, and koma's loops where the
/// CPU has AVX512-BF16 (bf16 products summed in fp32).
#[test]
fn the_bf16_trunk_agrees_with_fp32() {
    for variant in ["hand-shogi", "ko-shogi"] {
        let reference = trained(variant);
        let mut ways = vec![false];
        if koma_model::cpu_net::bf16_available() {
            ways.push(true);
        } else {
            eprintln!("SKIPPED: bf16 in the loops (this CPU has no AVX512-BF16)");
        }
        for loops in ways {
            let mut fast = trained(variant);
            fast.prepare_inference(Precision::Bf16, loops);
            assert_eq!(
                fast.inference().is_some_and(|i| i.is_loops()),
                loops,
                "{variant}"
            );
            let mut ps = positions(variant, 400);
            let (agree, worst) = compare(&reference, &fast, &mut ps);
            eprintln!(
                "{variant}, {:?}: best move agrees in {:.1}%, values within {worst:.4}",
                fast.inference(),
                100.0 * agree
            );
            assert!(agree >= 0.98, "{variant}: best move agrees in {agree}");
            assert!(worst <= 0.02, "{variant}: values differ by {worst}");
        }
    }
}

/// Loss and gradient of one training pass over `positions` (policy towards every legal move,
/// value towards a draw), the gradient flattened over every weight.
fn loss_and_gradient(model: &Model, positions: &mut [Position]) -> (f64, Tensor) {
    let reqs = requests(model, positions);
    let refs: Vec<_> = reqs.iter().collect();
    let batch = model.training_batch(&refs);
    let out = model.forward(&batch, true);
    let loss = -model.move_log_probs(&out, &batch).mean(tch::Kind::Float)
        - out
            .wdl_logits
            .log_softmax(1, tch::Kind::Float)
            .select(1, 1)
            .mean(tch::Kind::Float)
        + out.material.square().mean(tch::Kind::Float);
    let mut vars: Vec<_> = model.var_store().trainable_variables();
    for v in &mut vars {
        v.zero_grad();
    }
    model.backward(&loss, &out).unwrap();
    let grads: Vec<Tensor> = vars.iter().map(|v| v.grad().flatten(0, -1)).collect();
    (loss.double_value(&[]), Tensor::cat(&grads, 0))
}

/// Mixed-precision training (the convolutions in bf16, everything else in fp32) computes the
/// loss of a trained network within 1% of fp32 and a gradient pointing the same way (cosine
/// above 0.99): what the optimiser sees is fp32's step, rounded. Where the CPU has no native
/// bf16 the check still holds, only slower.
#[test]
fn bf16_training_passes_follow_fp32() {
    for variant in ["hand-shogi", "ko-shogi"] {
        let reference = trained(variant);
        let mut mixed = trained(variant);
        mixed.set_training_precision(Precision::Bf16);
        let mut ps = positions(variant, 64);
        let (loss_a, grad_a) = loss_and_gradient(&reference, &mut ps);
        let (loss_b, grad_b) = loss_and_gradient(&mixed, &mut ps);
        let cosine = (&grad_a * &grad_b).sum(tch::Kind::Double).double_value(&[])
            / (grad_a.norm().double_value(&[]) * grad_b.norm().double_value(&[]));
        eprintln!(
            "{variant}: loss {loss_a:.4} fp32, {loss_b:.4} bf16; gradient cosine {cosine:.4}"
        );
        assert!(
            (loss_a - loss_b).abs() <= 0.01 * loss_a.abs(),
            "{variant}: loss {loss_a} in fp32, {loss_b} with bf16 convolutions"
        );
        assert!(cosine > 0.99, "{variant}: gradient cosine {cosine}");
        // Not fp32 under another name: the rounding shows in the gradient.
        assert!(
            !grad_a.allclose(&grad_b, 0.0, 0.0, false),
            "{variant}: the bf16 pass gave fp32's exact gradient"
        );
    }
}
