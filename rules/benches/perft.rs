//! Perft speed of the rules core, with bulk counting at the leaves (the legal moves of a
//! depth-1 node are counted, not made).
//!
//! Besides criterion's timings, the run ends with a summary line per variant: nodes per second
//! of the rules core and of the independent reference generator on the same tree, and their
//! ratio, so that the figure is read against a reference measured on the same machine in the
//! same run. For Shoko, Gyaku-sama and Hook Shogi it also measures a middle-game position (60
//! random plies from the start, fixed seed), where far more pieces interact than in the closed
//! start positions. Ko Shogi, whose rules run in its rule module, is measured the same way with
//! its own reference generator (perft 3 from the start, perft 2 in the middle game, where
//! shooters, priests and promotions are at work). `KOMA_BENCH_DEPTH4=1` also runs Hand Shogi
//! perft(4) once and checks its count.

#[path = "../tests/reference/hand_shogi.rs"]
mod reference;

#[path = "../tests/reference/large_shogi.rs"]
mod large_reference;

#[path = "../tests/reference/ko_shogi.rs"]
mod ko_reference;

use criterion::{criterion_group, Criterion, Throughput};
use koma_rules::{load_variant, perft, Position};
use large_reference::{Game, RefPosition};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// Hand Shogi perft(4) from the start; perft(1..3) are cross-checked against the reference
/// generator in the tests, this count only by the rules core.
const HAND_SHOGI_PERFT4: u64 = 7_492_614_468;

/// The large variants: the reference's name, the perft depth measured from the start, and the
/// target in nodes per second.
const LARGE: [(Game, u32, f64); 3] = [
    (Game::Shoko, 4, 10e6),
    (Game::Gyaku, 4, 10e6),
    (Game::Hook, 3, 5e6),
];

/// Ko Shogi's target in nodes per second.
const KO_TARGET: f64 = 2e6;

fn bench_perft(c: &mut Criterion) {
    let v = load_variant("hand-shogi").unwrap();
    let mut pos = Position::start(&v);
    let nodes = perft(&mut pos, 3);
    let mut g = c.benchmark_group("hand-shogi");
    g.sample_size(10);
    g.throughput(Throughput::Elements(nodes));
    g.bench_function("perft3-bulk", |b| b.iter(|| perft(&mut pos, 3)));
    g.finish();
    for (game, depth, _) in LARGE {
        let v = load_variant(game.id()).unwrap();
        let mut pos = Position::start(&v);
        let nodes = perft(&mut pos, depth);
        let mut g = c.benchmark_group(game.id());
        g.sample_size(10);
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(format!("perft{depth}-bulk"), |b| {
            b.iter(|| perft(&mut pos, depth))
        });
        let mut mid = middle_game(game);
        let nodes = perft(&mut mid, 3);
        g.throughput(Throughput::Elements(nodes));
        g.bench_function("middle-game-perft3-bulk", |b| b.iter(|| perft(&mut mid, 3)));
        g.finish();
    }
    let v = load_variant("ko-shogi").unwrap();
    let mut pos = Position::start(&v);
    let mut g = c.benchmark_group("ko-shogi");
    g.sample_size(10);
    g.throughput(Throughput::Elements(perft(&mut pos, 2)));
    g.bench_function("perft2-bulk", |b| b.iter(|| perft(&mut pos, 2)));
    let mut mid = random_walk("ko-shogi", 60);
    g.throughput(Throughput::Elements(perft(&mut mid, 2)));
    g.bench_function("middle-game-perft2-bulk", |b| b.iter(|| perft(&mut mid, 2)));
    g.finish();
}

/// The position after 60 random legal plies from the start (fixed seed), or fewer if the game
/// ends.
fn middle_game(game: Game) -> Position {
    random_walk(game.id(), 60)
}

/// The position after `plies` random legal plies from the start of variant `id` (fixed seed),
/// or fewer if the game ends.
fn random_walk(id: &str, plies: usize) -> Position {
    let v = load_variant(id).unwrap();
    let mut pos = Position::start(&v);
    let mut rng = StdRng::seed_from_u64(0x6d6964);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.outcome().is_some() {
            break;
        }
        pos.make_move(moves[rng.gen_range(0..moves.len())]);
    }
    pos
}

/// Nodes per second of `f`, which returns a node count, over at least `min_secs`.
fn rate(min_secs: f64, mut f: impl FnMut() -> u64) -> f64 {
    let start = Instant::now();
    let mut nodes = 0;
    while start.elapsed().as_secs_f64() < min_secs {
        nodes += f();
    }
    nodes as f64 / start.elapsed().as_secs_f64()
}

fn summary() {
    let v = load_variant("hand-shogi").unwrap();
    let mut pos = Position::start(&v);
    let ours = rate(3.0, || perft(&mut pos, 3));
    let r = reference::RefPosition::start();
    let theirs = rate(3.0, || r.perft(2));
    println!(
        "summary hand-shogi: rules core {:.1} M nodes/s (perft 3, bulk counting); reference generator {:.2} M nodes/s (perft 2, no bulk counting); ratio {:.0}x; target 20 M nodes/s: {:.2}x of target",
        ours / 1e6,
        theirs / 1e6,
        ours / theirs,
        ours / 20e6
    );
    for (game, depth, target) in LARGE {
        let v = load_variant(game.id()).unwrap();
        let mut pos = Position::start(&v);
        let ours = rate(3.0, || perft(&mut pos, depth));
        let r = RefPosition::start(game);
        let theirs = rate(3.0, || r.perft(depth - 1));
        let mut mid = middle_game(game);
        let ours_mid = rate(3.0, || perft(&mut mid, 3));
        let r_mid = RefPosition::from_fen(game, &mid.to_text()).unwrap();
        let theirs_mid = rate(3.0, || r_mid.perft(2));
        println!(
            "summary {}: rules core {:.1} M nodes/s (perft {depth} from the start, bulk counting); reference generator {:.2} M nodes/s (perft {}, bulk counting); ratio {:.0}x; target {:.0} M nodes/s: {:.2}x of target; middle game: rules core {:.1} M nodes/s (perft 3), reference {:.2} M nodes/s (perft 2), ratio {:.0}x, {:.2}x of target",
            game.id(),
            ours / 1e6,
            theirs / 1e6,
            depth - 1,
            ours / theirs,
            target / 1e6,
            ours / target,
            ours_mid / 1e6,
            theirs_mid / 1e6,
            ours_mid / theirs_mid,
            ours_mid / target,
        );
    }
    let v = load_variant("ko-shogi").unwrap();
    let mut ko = Position::start(&v);
    let ours = rate(3.0, || perft(&mut ko, 3));
    let r = ko_reference::RefPosition::start();
    let theirs = rate(3.0, || r.perft(2));
    let mut mid = random_walk("ko-shogi", 60);
    let ours_mid = rate(3.0, || perft(&mut mid, 2));
    let r_mid = ko_reference::RefPosition::from_fen(&mid.to_text());
    let theirs_mid = rate(3.0, || r_mid.perft(1));
    println!(
        "summary ko-shogi: rules core {:.1} M nodes/s (perft 3 from the start, bulk counting); reference generator {:.3} M nodes/s (perft 2, bulk counting); ratio {:.0}x; target {:.0} M nodes/s: {:.2}x of target; middle game: rules core {:.1} M nodes/s (perft 2), reference {:.3} M nodes/s (perft 1), ratio {:.0}x, {:.2}x of target",
        ours / 1e6,
        theirs / 1e6,
        ours / theirs,
        KO_TARGET / 1e6,
        ours / KO_TARGET,
        ours_mid / 1e6,
        theirs_mid / 1e6,
        ours_mid / theirs_mid,
        ours_mid / KO_TARGET,
    );
    if std::env::var_os("KOMA_BENCH_DEPTH4").is_some() {
        let start = Instant::now();
        let n = perft(&mut pos, 4);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "summary hand-shogi perft(4) = {n} in {secs:.1} s: {:.1} M nodes/s",
            n as f64 / secs / 1e6
        );
        assert_eq!(n, HAND_SHOGI_PERFT4, "perft(4) changed");
    }
}

criterion_group!(benches, bench_perft);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    summary();
}
