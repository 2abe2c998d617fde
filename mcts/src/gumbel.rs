//! Gumbel AlphaZero at the root (Danihelka et al., 2022): sample m moves without replacement by
//! Gumbel-top-k over the policy logits, share the simulations among them by sequential halving,
//! and derive the policy target from completed Q-values.

use crate::config::SearchConfig;
use crate::node::EdgeStats;
use crate::noise::gumbel;
use rand::Rng;

/// The root's Gumbel state for one search.
#[derive(Debug, Clone)]
pub(crate) struct GumbelRoot {
    /// g(a) + logit(a) per root edge (g = 0 without noise).
    base: Vec<f32>,
    /// The visit count the k-th root simulation's move should have (sequential halving).
    schedule: Vec<u32>,
    /// Root simulations already started when the schedule began (the root's own evaluation).
    offset: u32,
    /// Visits each root move had when this search began (tree reuse): the schedule counts only
    /// the visits of this search.
    start_visits: Vec<u32>,
}

/// Visit counts, per simulation, that sequential halving gives the considered moves: in each
/// phase every remaining move gets an equal share, then the better half stays.
fn considered_visits(m: usize, sims: usize) -> Vec<u32> {
    if m <= 1 {
        return (0..sims as u32).collect();
    }
    let log2m = (m as f64).log2().ceil() as usize;
    let mut seq = Vec::with_capacity(sims);
    let mut visits = vec![0u32; m];
    let mut considered = m;
    while seq.len() < sims {
        let extra = (sims / (log2m * considered)).max(1);
        for _ in 0..extra {
            seq.extend_from_slice(&visits[..considered]);
            for v in visits.iter_mut().take(considered) {
                *v += 1;
            }
        }
        considered = (considered / 2).max(2);
    }
    seq.truncate(sims);
    seq
}

impl GumbelRoot {
    /// The state of a search of `budget` simulations over the root's edges (their
    /// `stats`), begun when `root_sims` root simulations had started; `noisy` samples the Gumbel variables
    /// (self-play), otherwise they are zero.
    pub(crate) fn new(
        stats: &[EdgeStats],
        cfg: &SearchConfig,
        budget: u32,
        root_sims: u32,
        noisy: bool,
        rng: &mut impl Rng,
    ) -> GumbelRoot {
        let mut base = Vec::with_capacity(stats.len());
        for e in stats {
            let logit = e.raw_prior.max(1e-12).ln();
            let g = if noisy { gumbel(rng) } else { 0.0 };
            base.push(logit + g);
        }
        let m = cfg.gumbel_considered.min(stats.len()).max(1);
        GumbelRoot {
            base,
            schedule: considered_visits(m, budget as usize),
            offset: root_sims,
            start_visits: stats.iter().map(|e| e.n).collect(),
        }
    }

    /// Index (among the root's edges) of the edge for the next simulation, the
    /// `root_sims`-th: among moves whose visits (completed and under way) equal the
    /// schedule's count, the best by g + logit + sigma(completed Q).
    pub(crate) fn select(
        &self,
        stats: &[EdgeStats],
        root_sims: u32,
        net_value: f32,
        cfg: &SearchConfig,
    ) -> usize {
        let k = root_sims.saturating_sub(1 + self.offset) as usize;
        let sigma = completed_sigma(stats, net_value, cfg);
        let target = self.schedule.get(k).copied();
        let mut best = None;
        let mut best_score = f32::NEG_INFINITY;
        for (i, (e, s)) in stats.iter().zip(&sigma).enumerate() {
            let n = e.n + e.inflight - self.start_visits[i];
            if let Some(t) = target {
                if n != t {
                    continue;
                }
            }
            let score = self.base[i] + s;
            if score > best_score {
                best_score = score;
                best = Some(i);
            }
        }
        // Past the schedule (more simulations than planned) or when every candidate is busy:
        // fall back to the best-scoring move among the most-visited.
        best.unwrap_or_else(|| self.final_choice(stats, net_value, cfg))
    }

    /// Index (among the root's edges) of the move to play: the best-scoring among the
    /// moves most visited by this search.
    pub(crate) fn final_choice(
        &self,
        stats: &[EdgeStats],
        net_value: f32,
        cfg: &SearchConfig,
    ) -> usize {
        let visits = |i: usize| stats[i].n - self.start_visits[i];
        let max_n = (0..stats.len()).map(visits).max().unwrap_or(0);
        let sigma = completed_sigma(stats, net_value, cfg);
        (0..stats.len())
            .filter(|&i| visits(i) == max_n)
            .max_by(|&x, &y| {
                (self.base[x] + sigma[x])
                    .partial_cmp(&(self.base[y] + sigma[y]))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .unwrap_or(0)
    }
}

/// sigma(completed Q) for each root edge: visited moves use their mean value, unvisited ones the
/// mixed value estimate (from the root's `net_value`), a draw counting the configured draw
/// score in both; values are rescaled to [0, 1] over the
/// root's moves, then scaled by (c_visit + max visits) * c_scale.
pub(crate) fn completed_sigma(stats: &[EdgeStats], net_value: f32, cfg: &SearchConfig) -> Vec<f32> {
    let sum_n: u32 = stats.iter().map(|e| e.n).sum();
    let max_n = stats.iter().map(|e| e.n).max().unwrap_or(0);
    let (mut pq, mut p) = (0.0f32, 0.0f32);
    for e in stats.iter().filter(|e| e.n > 0) {
        pq += e.raw_prior * e.q(cfg.draw_score).unwrap_or(0.0);
        p += e.raw_prior;
    }
    let v_net = net_value;
    let v_mix = if p > 0.0 {
        (v_net + sum_n as f32 * pq / p) / (1.0 + sum_n as f32)
    } else {
        v_net
    };
    let q: Vec<f32> = stats
        .iter()
        .map(|e| e.q(cfg.draw_score).unwrap_or(v_mix))
        .collect();
    let lo = q.iter().cloned().fold(f32::INFINITY, f32::min);
    let hi = q.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
    let scale = (cfg.gumbel_c_visit + max_n as f32) * cfg.gumbel_c_scale;
    q.iter()
        .map(|&x| scale * (x - lo) / (hi - lo).max(1e-8))
        .collect()
}

/// The improved policy softmax(logit + sigma(completed Q)) over the root's edges (their
/// `stats`): the Gumbel AlphaZero policy target.
pub(crate) fn improved_policy(stats: &[EdgeStats], net_value: f32, cfg: &SearchConfig) -> Vec<f32> {
    let sigma = completed_sigma(stats, net_value, cfg);
    let z: Vec<f32> = stats
        .iter()
        .zip(&sigma)
        .map(|(e, s)| e.raw_prior.max(1e-12).ln() + s)
        .collect();
    let m = z.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
    let ex: Vec<f32> = z.iter().map(|x| (x - m).exp()).collect();
    let s: f32 = ex.iter().sum();
    ex.into_iter().map(|x| x / s).collect()
}

#[cfg(test)]
mod tests {
    use super::considered_visits;

    #[test]
    fn sequential_halving_schedule() {
        // 4 moves, 8 simulations: one each, then the better two get... (log2 4 = 2 phases).
        let s = considered_visits(4, 8);
        assert_eq!(s, vec![0, 0, 0, 0, 1, 1, 2, 2]);
        let s = considered_visits(16, 64);
        assert_eq!(s.len(), 64);
        assert_eq!(&s[..16], &[0; 16]);
        assert_eq!(considered_visits(1, 3), vec![0, 1, 2]);
    }
}
