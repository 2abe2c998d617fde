//! The network end to end on CPU: evaluation shapes, perspective, checkpoints and their
//! errors, and the batching evaluator with a pool of threads.

use koma_mcts::Evaluator;
use koma_model::{Arch, InferenceServer, Model, ModelError, Reloader};
use koma_rules::{load_variant, Position};
use std::time::{Duration, Instant};
use tch::Device;

fn tiny() -> Arch {
    Arch {
        blocks: 2,
        channels: 16,
        gpool_every: 2,
        head_dim: 8,
        value_channels: 4,
        value_hidden: 16,
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("koma-model-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn evaluation_gives_a_distribution_per_position() {
    let v = load_variant("hand-shogi").unwrap();
    let model = Model::new(&v, &tiny(), Device::Cpu);
    let mut a = Position::start(&v);
    let mut b = Position::start(&v);
    b.play_texts("e3e4 e7e6 e4e5").unwrap();
    let (ma, mb) = (a.legal_moves(), b.legal_moves());
    let reqs = vec![model.prepare(&a, &ma), model.prepare(&b, &mb)];
    let evals = model.evaluate(reqs);
    assert_eq!(evals.len(), 2);
    for (e, n) in evals.iter().zip([ma.len(), mb.len()]) {
        assert_eq!(e.priors.len(), n);
        let s: f32 = e.priors.iter().sum();
        assert!((s - 1.0).abs() < 1e-4, "priors sum {s}");
        assert!(e.priors.iter().all(|p| *p > 0.0));
        let w: f32 = e.wdl.iter().sum();
        assert!((w - 1.0).abs() < 1e-4);
    }
}

#[test]
fn both_sides_see_the_same_inputs_in_mirrored_positions() {
    // The start position with Black to move and the same position with White to move (after a
    // pass-like symmetric exchange) encode identically: the board is seen from the mover's side.
    let v = load_variant("hand-shogi").unwrap();
    let model = Model::new(&v, &tiny(), Device::Cpu);
    let start = Position::start(&v);
    let text = start.to_text().replace(" b ", " w ");
    let white = Position::from_text(&v, &text).unwrap();
    let mut x = vec![0.0; model.encoder().input_len()];
    let mut y = vec![0.0; model.encoder().input_len()];
    model.encoder().encode(&start, &mut x);
    model.encoder().encode(&white, &mut y);
    assert_eq!(x, y);
}

#[test]
fn checkpoint_round_trip_reproduces_outputs() {
    let v = load_variant("hand-shogi").unwrap();
    let mut model = Model::new(&v, &tiny(), Device::Cpu);
    model.meta.step = 17;
    let dir = temp_dir("roundtrip");
    let stem = dir.join("m");
    model.save(&stem).unwrap();
    let back = Model::load(&stem, &v, Some(&tiny()), Device::Cpu).unwrap();
    assert_eq!(back.meta.step, 17);
    let mut pos = Position::start(&v);
    let moves = pos.legal_moves();
    let e1 = model.evaluate(vec![model.prepare(&pos, &moves)]);
    let e2 = back.evaluate(vec![back.prepare(&pos, &moves)]);
    assert_eq!(e1, e2);
}

#[test]
fn wrong_variant_architecture_and_corruption_are_clear_errors() {
    let v = load_variant("hand-shogi").unwrap();
    let model = Model::new(&v, &tiny(), Device::Cpu);
    let dir = temp_dir("errors");
    let stem = dir.join("m");
    model.save(&stem).unwrap();

    let other_arch = Arch {
        channels: 32,
        ..tiny()
    };
    let e = Model::load(&stem, &v, Some(&other_arch), Device::Cpu).unwrap_err();
    assert!(matches!(e, ModelError::WrongArchitecture { .. }), "{e}");

    let json = dir.join("m.json");
    let text = std::fs::read_to_string(&json).unwrap();
    std::fs::write(&json, text.replace("hand-shogi", "hook-shogi")).unwrap();
    let e = Model::load(&stem, &v, None, Device::Cpu).unwrap_err();
    assert!(matches!(e, ModelError::WrongVariant { .. }), "{e}");
    assert!(e.to_string().contains("m.json"), "{e}");

    std::fs::write(&json, text).unwrap();
    let weights = dir.join("m.safetensors");
    let bytes = std::fs::read(&weights).unwrap();
    std::fs::write(&weights, &bytes[..bytes.len() / 2]).unwrap();
    let e = Model::load(&stem, &v, None, Device::Cpu).unwrap_err();
    assert!(matches!(e, ModelError::Corrupt { .. }), "{e}");
    assert!(e.to_string().contains("m.safetensors"), "{e}");

    std::fs::write(&json, "{ not json").unwrap();
    let e = Model::load(&stem, &v, None, Device::Cpu).unwrap_err();
    assert!(matches!(e, ModelError::Corrupt { .. }), "{e}");
}

/// Ko Shogi's network has the shot term and four more planes; it evaluates positions whose
/// legal moves shoot, and its checkpoint reproduces the outputs.
#[test]
fn ko_shogi_evaluates_shots_and_round_trips() {
    use rand::{Rng, SeedableRng};
    let v = load_variant("ko-shogi").unwrap();
    let model = Model::new(&v, &tiny(), Device::Cpu);
    let hook = Model::new(&load_variant("hook-shogi").unwrap(), &tiny(), Device::Cpu);
    assert!(model.encoder().has_shots() && !hook.encoder().has_shots());
    assert!(model
        .var_store()
        .variables()
        .keys()
        .any(|k| k.starts_with("shot")));
    assert!(!hook
        .var_store()
        .variables()
        .keys()
        .any(|k| k.starts_with("shot")));
    // A position along a random game where some legal moves shoot.
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let mut pos = Position::start(&v);
    let moves = loop {
        let moves = pos.legal_moves();
        if moves.iter().any(|m| m.shot_mask() != 0) {
            break moves;
        }
        pos.make_move(moves[rng.gen_range(0..moves.len())]);
    };
    let dir = temp_dir("ko");
    let stem = dir.join("m");
    model.save(&stem).unwrap();
    let back = Model::load(&stem, &v, None, Device::Cpu).unwrap();
    let e1 = model.evaluate(vec![model.prepare(&pos, &moves)]);
    let e2 = back.evaluate(vec![back.prepare(&pos, &moves)]);
    assert_eq!(e1, e2);
    assert_eq!(e1[0].priors.len(), moves.len());
    let s: f32 = e1[0].priors.iter().sum();
    assert!((s - 1.0).abs() < 1e-4, "priors sum {s}");
}

#[test]
fn a_pool_of_evaluators_answers_every_client_as_the_one_model_does() {
    // Two evaluator threads, each with its own load of one checkpoint, and four searchers
    // sending their batches at once: every answer is the single model's evaluation of the
    // same positions, whichever thread served it and whatever it was batched with.
    let v = load_variant("hand-shogi").unwrap();
    let model = Model::new(&v, &tiny(), Device::Cpu);
    let dir = temp_dir("pool");
    let stem = dir.join("m");
    model.save(&stem).unwrap();
    let load = || Model::load(&stem, &v, Some(&tiny()), Device::Cpu).unwrap();
    let mut positions = [Position::start(&v), Position::start(&v)];
    positions[1].play_texts("e3e4 e7e6 e4e5").unwrap();
    let moves: Vec<_> = positions.iter_mut().map(|p| p.legal_moves()).collect();
    let requests = || {
        positions
            .iter()
            .zip(&moves)
            .map(|(p, m)| model.prepare(p, m))
            .collect::<Vec<_>>()
    };
    let expected = model.evaluate(requests());
    // The first thread is offered a newer model once; the second never.
    let mut newer = Some({
        let mut m = load();
        m.meta.step = 9;
        m
    });
    let offer: Reloader = Box::new(move || newer.take());
    let never: Reloader = Box::new(|| None);
    let server = InferenceServer::start_pool(
        vec![(load(), offer), (load(), never)],
        4,
        Duration::from_millis(20),
    );
    let stats = server.stats();
    assert_eq!(stats.threads(), 2);
    let rounds = 25;
    std::thread::scope(|s| {
        for _ in 0..4 {
            let client = server.client();
            let batch = requests();
            let expected = &expected;
            s.spawn(move || {
                for _ in 0..rounds {
                    let got = client.evaluate(batch.clone());
                    assert_eq!(got.len(), expected.len());
                    for (g, e) in got.iter().zip(expected) {
                        assert_eq!(g.priors.len(), e.priors.len());
                        for (a, b) in g
                            .priors
                            .iter()
                            .zip(&e.priors)
                            .chain(g.wdl.iter().zip(&e.wdl))
                        {
                            assert!((a - b).abs() < 1e-4, "{a} against {b}");
                        }
                    }
                }
            });
        }
    });
    assert_eq!(stats.evaluated(), 4 * rounds * positions.len() as u64);
    // The newer model reached the first thread, and the clients see its step.
    let client = server.client();
    let deadline = Instant::now() + Duration::from_secs(10);
    while client.model_step() != 9 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(client.model_step(), 9);
    drop(client);
    server.shutdown();
}
