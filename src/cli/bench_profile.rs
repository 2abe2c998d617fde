//! `koma bench --profile`: where one self-play position's time goes, stage by stage, on one
//! core with the variant's CPU preset. Each stage is timed on its own over the same sampled
//! positions (move generation, the rules' outcome test, the leaf mate search, the material
//! estimate, input encoding, the tree's own work, the network with and without the fast path,
//! a training step), then scaled by how often a self-play position needs it: one leaf per
//! simulation, the preset's mix of full and fast searches, and the trainer's samples per
//! position. The stages add up to the position's cost on one core; the table says which to
//! make cheaper.

use anyhow::Context;
use koma_mcts::{search, SearchConfig, Tree, UniformEvaluator};
use koma_model::{Inference, Model, Precision, Request};
use koma_rules::mate::Budget;
use koma_rules::{Move, PieceValues, Position, Variant};
use koma_trainer::optimizer::Sgd;
use koma_trainer::RunConfig;
use std::sync::Arc;
use std::time::Instant;
use tch::{Device, Kind, Tensor};

/// Microseconds per call of `f` over `items`, measured for about `secs` seconds.
fn per_call<T>(items: &mut [T], secs: f64, mut f: impl FnMut(&mut T)) -> f64 {
    let start = Instant::now();
    let mut calls = 0u64;
    while start.elapsed().as_secs_f64() < secs {
        for x in items.iter_mut() {
            f(x);
            calls += 1;
        }
    }
    start.elapsed().as_secs_f64() * 1e6 / calls.max(1) as f64
}

/// Microseconds per position of one batched forward pass.
pub(crate) fn network_us(model: &Model, requests: &[Request], batch: usize, secs: f64) -> f64 {
    let refs: Vec<&Request> = requests.iter().take(batch).collect();
    model.evaluate_requests(&refs);
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed().as_secs_f64() < secs {
        std::hint::black_box(model.evaluate_requests(&refs));
        n += refs.len() as u64;
    }
    start.elapsed().as_secs_f64() * 1e6 / n.max(1) as f64
}

/// Microseconds of one training step (forward and backward of a batch, optimiser step), its
/// inputs as the trainer gives them or (`dense`) as dense planes, the reference.
fn train_step_us(
    model: &Model,
    requests: &[Request],
    batch: usize,
    secs: f64,
    dense: bool,
) -> anyhow::Result<f64> {
    let mut opt = Sgd::new(model.var_store(), 0.9, 1e-4);
    let refs: Vec<&Request> = requests.iter().cycle().take(batch).collect();
    let start = Instant::now();
    let mut steps = 0u64;
    while start.elapsed().as_secs_f64() < secs || steps == 0 {
        let b = if dense {
            model.batch(&refs)
        } else {
            model.training_batch(&refs)
        };
        let out = model.forward(&b, true);
        let logp = model.move_log_probs(&out, &b);
        let loss = -logp.mean(Kind::Float)
            + out.wdl_logits.log_softmax(1, Kind::Float).mean(Kind::Float)
            + out.material.square().mean(Kind::Float);
        opt.zero_grad();
        model.backward(&loss, &out)?;
        opt.step(0.01);
        steps += 1;
    }
    let _ = Tensor::zeros([1], (Kind::Float, Device::Cpu));
    Ok(start.elapsed().as_secs_f64() * 1e6 / steps as f64)
}

/// Prints the profile of `v` with its CPU preset `cfg`.
pub fn run(
    v: &Arc<Variant>,
    cfg: &RunConfig,
    positions: &mut [Position],
    secs: f64,
) -> anyhow::Result<()> {
    let sp = &cfg.selfplay;
    let search_cfg = &sp.search;
    let legal: Vec<Vec<Move>> = positions.iter_mut().map(|p| p.legal_moves()).collect();
    let mut with_moves: Vec<(Position, Vec<Move>)> = positions
        .iter()
        .cloned()
        .zip(legal.iter().cloned())
        .collect();
    let slice = secs / 8.0;
    let movegen = per_call(positions, slice, |p| {
        std::hint::black_box(p.legal_moves());
    });
    let outcome = per_call(&mut with_moves, slice, |(p, m)| {
        std::hint::black_box(p.outcome_given(m.is_empty()));
    });
    let mate = per_call(&mut with_moves, slice, |(p, m)| {
        let mut budget = Budget::new(search_cfg.mate_budget);
        std::hint::black_box(p.forced_win(m, search_cfg.mate_plies, &mut budget));
    });
    let mut solver = koma_rules::mate::MateSolver::new(search_cfg.root_mate_nodes, 15);
    let root_mate = if search_cfg.root_mate_nodes > 0 {
        per_call(positions, slice, |p| {
            std::hint::black_box(solver.solve(p));
        })
    } else {
        0.0
    };
    let values = PieceValues::new(v);
    let material = per_call(&mut with_moves, slice, |(p, m)| {
        std::hint::black_box(values.quick_balance(p, m));
    });
    let model = Model::new(v, &cfg.model, Device::Cpu);
    let encoder = model.encoder().clone();
    let encode = per_call(&mut with_moves, slice, |(p, m)| {
        std::hint::black_box(encoder.request(p, m, None));
    });
    // The tree's own work: a search with every leaf check off, less its move generation.
    let tree_cfg = SearchConfig {
        mate_check: false,
        material_weight: 0.0,
        root_mate_nodes: 0,
        ..search_cfg.clone()
    };
    let start = Instant::now();
    let mut sims = 0u64;
    let mut i = 0;
    while start.elapsed().as_secs_f64() < slice {
        let pos = &mut positions[i % positions.len()];
        i += 1;
        let mut tree = Tree::new(tree_cfg.clone(), i as u64);
        if let Some(r) = search(&mut tree, pos, &UniformEvaluator, 400, 1, false) {
            sims += r.simulations as u64;
        }
    }
    let tree = (start.elapsed().as_secs_f64() * 1e6 / sims.max(1) as f64 - movegen).max(0.0);
    let requests: Vec<Request> = with_moves
        .iter()
        .map(|(p, m)| encoder.request(p, m, None))
        .collect();
    let batch = sp.games_in_flight().min(requests.len());
    let fp32 = network_us(&model, &requests, batch, slice);
    let mut fast = Model::new(v, &cfg.model, Device::Cpu);
    let choice = cfg.precision_choice().unwrap_or_default();
    let precision = choice.resolve(Device::Cpu);
    let inference = fast.prepare_to_play_at(choice, sp.evaluator_batch());
    let network = network_us(&fast, &requests, batch, slice);
    let (stem_us, trunk) = {
        let refs: Vec<&Request> = requests.iter().take(batch).collect();
        // At inference on the CPU the stem is computed from the requests' sparse features
        // and the heads score moves from the requests themselves: the input stage is the
        // stem, the trunk the residual blocks.
        let stem = fast
            .stem_activations(&refs)
            .context("the model prepared to play has no sparse stem (see the log)")?;
        let stem_us = per_call(&mut [()], slice / 2.0, |_| {
            let _ = std::hint::black_box(fast.stem_activations(&refs));
        }) / batch as f64;
        // In the loops the trunk and the heads are one pass, timed as a whole.
        let trunk = (!matches!(inference, Inference::Loops(_))).then(|| {
            per_call(&mut [()], slice / 2.0, |_| {
                let _ = std::hint::black_box(fast.trunk_features(&stem));
            }) / batch as f64
        });
        (stem_us, trunk)
    };
    let train = train_step_us(&model, &requests, cfg.trainer.batch_size, slice, false)?;
    let train_dense = train_step_us(&model, &requests, cfg.trainer.batch_size, slice, true)?;
    let train_fast = if precision != Precision::Fp32 {
        let mut mixed = Model::new(v, &cfg.model, Device::Cpu);
        mixed.set_training_precision(precision);
        Some(train_step_us(
            &mixed,
            &requests,
            cfg.trainer.batch_size,
            slice,
            false,
        )?)
    } else {
        None
    };
    // What one self-play position (one move played) costs.
    let sims_per_move = sp.full_search_fraction as f64 * sp.full_simulations as f64
        + (1.0 - sp.full_search_fraction as f64) * sp.fast_simulations as f64;
    let samples_per_position = sp.full_search_fraction as f64;
    let trainer_per_position =
        train / cfg.trainer.batch_size as f64 * cfg.trainer.target_ratio * samples_per_position;
    let rows = [
        ("move generation", movegen * sims_per_move),
        ("outcome test", outcome * sims_per_move),
        (
            "root mate search (full searches)",
            root_mate * sp.full_search_fraction as f64,
        ),
        ("leaf mate search", mate * sims_per_move),
        ("material estimate", material * sims_per_move),
        ("input encoding", encode * sims_per_move),
        ("tree (select, expand, back up)", tree * sims_per_move),
        ("network: input (sparse stem)", stem_us * sims_per_move),
    ];
    let network_rows = match trunk {
        Some(trunk) => vec![
            ("network: trunk (residual blocks)", trunk * sims_per_move),
            (
                "network: heads (move scoring, value)",
                (network - stem_us - trunk).max(0.0) * sims_per_move,
            ),
        ],
        None => vec![(
            "network: trunk and heads (fp32 loops)",
            (network - stem_us).max(0.0) * sims_per_move,
        )],
    };
    let rows: Vec<(&str, f64)> = rows
        .into_iter()
        .chain(network_rows)
        .chain([("trainer (its share per position)", trainer_per_position)])
        .collect();
    let total: f64 = rows.iter().map(|r| r.1).sum();
    println!(
        "bench profile: {} with its CPU preset ({} x {} network, {:.1} simulations per move, {inference}), microseconds per self-play position on one core:",
        v.id, cfg.model.blocks, cfg.model.channels, sims_per_move
    );
    println!("| stage | us per position | share |");
    println!("|---|---|---|");
    for (stage, us) in rows {
        println!("| {stage} | {us:.0} | {:.0}% |", 100.0 * us / total);
    }
    println!("| total | {total:.0} | 100% |");
    println!(
        "bench profile: network fp32 {fp32:.1} us per position, fast path {network:.1} (ratio {:.2}); one position costs {:.0} us, {:.0} positions/s per core",
        fp32 / network,
        total,
        1e6 / total
    );
    println!(
        "bench profile: training step from dense planes {train_dense:.0} us, from sparse features {train:.0} us (ratio {:.2})",
        train_dense / train
    );
    if let Some(fast) = train_fast {
        println!(
            "bench profile: training step fp32 {train:.0} us, convolutions in {precision:?} {fast:.0} us (ratio {:.2})",
            train / fast
        );
    }
    Ok(())
}
