//! Self-play figures between two readings, for logs and TensorBoard.

use crate::metrics::Metrics;
use crate::session::rig::SelfplayRig;
use koma_selfplay::Stats;
use std::time::Instant;

/// The counters at one reading.
pub struct Rates {
    /// When it was taken.
    pub at: Instant,
    games: u64,
    moves: u64,
    evaluated: u64,
    batches: u64,
    busy_ns: u64,
}

impl Rates {
    /// A reading of `rig`'s counters now.
    pub fn new(rig: &SelfplayRig) -> Rates {
        Rates {
            at: Instant::now(),
            games: Stats::get(&rig.stats.games),
            moves: Stats::get(&rig.stats.moves),
            evaluated: rig.inference.evaluated(),
            batches: rig.inference.batches(),
            busy_ns: rig.inference.busy_ns(),
        }
    }

    /// Records the rates since the last reading as TensorBoard scalars at `step`, then
    /// resets; returns games and positions per second.
    pub fn report(&mut self, rig: &SelfplayRig, m: &mut Metrics, step: u64) -> (f64, f64) {
        let now = Rates::new(rig);
        let s = &rig.stats;
        let dt = now.at.duration_since(self.at).as_secs_f64().max(1e-9);
        let games = (now.games - self.games) as f64;
        let moves = (now.moves - self.moves) as f64;
        let evals = (now.evaluated - self.evaluated) as f64;
        let batches = (now.batches - self.batches).max(1) as f64;
        let busy = (now.busy_ns - self.busy_ns) as f64 / 1e9;
        m.scalar("selfplay/games_per_second", games / dt, step);
        m.scalar("selfplay/positions_per_second", moves / dt, step);
        m.scalar("evaluator/positions_per_second", evals / dt, step);
        m.scalar("evaluator/batch_size", evals / batches, step);
        let threads = rig.inference.threads() as f64;
        m.scalar("evaluator/utilisation", busy / dt / threads, step);
        let total = Stats::get(&s.games).max(1) as f64;
        let share = |c: &std::sync::atomic::AtomicU64| Stats::get(c) as f64 / total;
        m.scalar("selfplay/game_length", share(&s.moves), step);
        m.scalar("results/black_win_rate", share(&s.black_wins), step);
        m.scalar("results/white_win_rate", share(&s.white_wins), step);
        m.scalar("results/draw_rate", share(&s.draws), step);
        m.scalar("results/resign_rate", share(&s.resignations), step);
        *self = now;
        (games / dt, moves / dt)
    }
}
