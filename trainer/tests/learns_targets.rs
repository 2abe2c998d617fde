//! The training step learns what it is shown: a policy target on one move, a value target and
//! a material target, for each side to move. Guards the alignment of targets with moves and of inputs with the
//! side to move.

use koma_model::{Arch, Model};
use koma_rules::{load_variant, Position};
use koma_store::sorted_legal;
use koma_trainer::replay::{ReplayWindow, Sample};
use rand::rngs::StdRng;
use rand::SeedableRng;

fn sample(text: &str, best: &str, wdl: [f32; 3], material: f32) -> Sample {
    let v = load_variant("hand-shogi").unwrap();
    let mut pos = Position::from_text(&v, text).unwrap();
    let moves = sorted_legal(&mut pos);
    let i = moves.iter().position(|m| pos.move_text(m) == best).unwrap();
    Sample {
        text: text.into(),
        repetitions: 1,
        policy: vec![(i as u16, 1.0)],
        wdl,
        material,
    }
}

#[test]
fn a_few_hundred_steps_fit_policy_value_and_material_targets_for_both_sides() {
    let v = load_variant("hand-shogi").unwrap();
    let arch = Arch {
        blocks: 2,
        channels: 16,
        gpool_every: 2,
        head_dim: 8,
        value_channels: 4,
        value_hidden: 16,
    };
    // A seeded start (this test is alone in its process): from some initial weights 300
    // plain SGD steps leave the material head's tanh saturated, a question of the optimiser's
    // schedule, not of how targets are aligned, which is what this test guards.
    tch::manual_seed(3);
    let model = Model::new(&v, &arch, tch::Device::Cpu);
    // Black mates with G@h8; White, in the mirrored position, with G@b2.
    let black = sample("8k/9/9/9/7(SH)1/9/9/9/K8 b G", "G@h8", [1.0, 0.0, 0.0], 0.6);
    let white = sample("8k/9/9/9/9/1(sh)7/9/9/K8 w g", "G@b2", [1.0, 0.0, 0.0], 0.6);
    let lost = sample("8k/9/9/9/9/9/9/9/K8 b g", "a1a2", [0.0, 0.0, 1.0], -0.6);
    let mut window = ReplayWindow::new(100);
    window.push(vec![black.clone(), white.clone(), lost.clone()]);
    let mut opt = koma_trainer::optimizer::Sgd::new(model.var_store(), 0.9, 0.0);
    let mut rng = StdRng::seed_from_u64(1);
    for _ in 0..300 {
        let tb = window.draw(8, &model, &v, &mut rng);
        let refs: Vec<&koma_model::Request> = tb.requests.iter().collect();
        let batch = model.training_batch(&refs);
        let out = model.forward(&batch, true);
        let logp = model.move_log_probs(&out, &batch);
        let n = refs.len() as f64;
        let pt = tch::Tensor::from_slice(&tb.policy);
        let wt = tch::Tensor::from_slice(&tb.wdl).reshape([refs.len() as i64, 3]);
        let mt = tch::Tensor::from_slice(&tb.material);
        let loss = -(logp * pt).sum(tch::Kind::Float) / n
            - (out.wdl_logits.log_softmax(1, tch::Kind::Float) * wt).sum(tch::Kind::Float) / n
            + (&out.material - mt).square().mean(tch::Kind::Float);
        if std::env::var_os("KOMA_DEBUG").is_some() {
            eprintln!("loss {}", loss.double_value(&[]));
        }
        opt.zero_grad();
        model.backward(&loss, &out).unwrap();
        opt.step(0.05);
    }
    for (s, best) in [(&black, "G@h8"), (&white, "G@b2")] {
        let mut pos = Position::from_text(&v, &s.text).unwrap();
        let moves = sorted_legal(&mut pos);
        let e = model.evaluate_requests(&[&model.prepare(&pos, &moves)]);
        let (top, p) = moves
            .iter()
            .zip(&e[0].priors)
            .max_by(|a, b| a.1.total_cmp(b.1))
            .unwrap();
        assert_eq!(pos.move_text(top), best, "prior {p}");
        assert!(e[0].value() > 0.5, "value {}", e[0].value());
        assert!(e[0].material > 0.3, "material {}", e[0].material);
    }
    let mut pos = Position::from_text(&v, &lost.text).unwrap();
    let moves = sorted_legal(&mut pos);
    let e = model.evaluate_requests(&[&model.prepare(&pos, &moves)]);
    assert!(e[0].value() < -0.5, "value {}", e[0].value());
    assert!(e[0].material < -0.3, "material {}", e[0].material);
}
