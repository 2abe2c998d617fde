//! One rating scale for many players from pairwise results: the maximum-likelihood Elo fit
//! (Bradley-Terry on the Elo scale, a draw counting half a win), anchored at one player, with
//! 95% intervals from the curvature of the likelihood.
//!
//! A player who won every game has no finite maximum-likelihood rating, so each pair that
//! played also gets one virtual draw (as BayesElo's prior does with two): it pulls perfect
//! scores to a finite, still very large, difference and hardly moves the others.

/// The results of one pair of players: `a` scored `points` out of `games` against `b`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairResult {
    /// Index of the first player.
    pub a: usize,
    /// Index of the second player.
    pub b: usize,
    /// Points of `a` (win 1, draw 1/2).
    pub points: f64,
    /// Games played.
    pub games: f64,
}

/// A fitted rating.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// Elo, relative to the anchor.
    pub elo: f64,
    /// Half-width of the 95% interval (0 for the anchor).
    pub half_width: f64,
}

/// Why a fit cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FitError {
    /// A player is not linked to the anchor by games.
    #[error("player {0} has no chain of games to the anchor")]
    Disconnected(usize),
    /// A result names a player that does not exist or plays itself.
    #[error("result {0} is malformed (unknown player, self-play or no games)")]
    BadResult(usize),
}

const SCALE: f64 = std::f64::consts::LN_10 / 400.0;

fn expected(d: f64) -> f64 {
    1.0 / (1.0 + (-SCALE * d).exp())
}

/// Solves `m x = v` (m symmetric positive definite, small) by Gaussian elimination.
fn solve(mut m: Vec<Vec<f64>>, mut v: Vec<f64>) -> Option<Vec<f64>> {
    let n = v.len();
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| m[i][c].abs().total_cmp(&m[j][c].abs()))?;
        if m[p][c].abs() < 1e-12 {
            return None;
        }
        m.swap(c, p);
        v.swap(c, p);
        let pivot = m[c].clone();
        for r in c + 1..n {
            let f = m[r][c] / pivot[c];
            for (x, p) in m[r].iter_mut().zip(&pivot).skip(c) {
                *x -= f * p;
            }
            v[r] -= f * v[c];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|k| m[r][k] * x[k]).sum();
        x[r] = (v[r] - s) / m[r][r];
    }
    Some(x)
}

/// Fits ratings for `players` players from `results`, with player `anchor` at 0.
pub fn fit(players: usize, anchor: usize, results: &[PairResult]) -> Result<Vec<Rating>, FitError> {
    for (i, r) in results.iter().enumerate() {
        if r.a >= players || r.b >= players || r.a == r.b || r.games <= 0.0 {
            return Err(FitError::BadResult(i));
        }
    }
    // Every player must reach the anchor through games.
    let mut reached = vec![false; players];
    reached[anchor] = true;
    let mut changed = true;
    while changed {
        changed = false;
        for r in results {
            if reached[r.a] != reached[r.b] {
                reached[r.a] = true;
                reached[r.b] = true;
                changed = true;
            }
        }
    }
    if let Some(p) = reached.iter().position(|r| !r) {
        return Err(FitError::Disconnected(p));
    }
    // One virtual draw per pair that played.
    let data: Vec<PairResult> = results
        .iter()
        .map(|r| PairResult {
            points: r.points + 0.5,
            games: r.games + 1.0,
            ..*r
        })
        .collect();
    let free: Vec<usize> = (0..players).filter(|&p| p != anchor).collect();
    let slot = |p: usize| free.iter().position(|&q| q == p);
    let mut elo = vec![0.0; players];
    let hessian = |elo: &[f64]| {
        let n = free.len();
        let mut h = vec![vec![0.0; n]; n];
        let mut g = vec![0.0; n];
        for r in &data {
            let p = expected(elo[r.a] - elo[r.b]);
            let grad = SCALE * (r.points - r.games * p);
            let curv = SCALE * SCALE * r.games * p * (1.0 - p);
            if let Some(i) = slot(r.a) {
                g[i] += grad;
                h[i][i] += curv;
            }
            if let Some(j) = slot(r.b) {
                g[j] -= grad;
                h[j][j] += curv;
            }
            if let (Some(i), Some(j)) = (slot(r.a), slot(r.b)) {
                h[i][j] -= curv;
                h[j][i] -= curv;
            }
        }
        (h, g)
    };
    // Newton's method on the concave log-likelihood, with steps capped for the first rounds.
    for _ in 0..100 {
        let (h, g) = hessian(&elo);
        let Some(step) = solve(h, g) else {
            break;
        };
        let mut biggest: f64 = 0.0;
        for (k, &p) in free.iter().enumerate() {
            let s = step[k].clamp(-400.0, 400.0);
            elo[p] += s;
            biggest = biggest.max(s.abs());
        }
        if biggest < 1e-6 {
            break;
        }
    }
    let (h, _) = hessian(&elo);
    let n = free.len();
    let mut out: Vec<Rating> = elo
        .iter()
        .map(|&e| Rating {
            elo: e,
            half_width: 0.0,
        })
        .collect();
    for (k, &p) in free.iter().enumerate() {
        let mut unit = vec![0.0; n];
        unit[k] = 1.0;
        if let Some(col) = solve(h.clone(), unit) {
            out[p].half_width = 1.96 * col[k].max(0.0).sqrt();
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Games drawn from known ratings are fitted back within their intervals.
    #[test]
    fn recovers_known_ratings() {
        let truth = [0.0, 150.0, 400.0, 420.0, 700.0];
        let mut rng = StdRng::seed_from_u64(9);
        let mut results = Vec::new();
        for a in 0..truth.len() {
            for b in a + 1..truth.len() {
                let p = expected(truth[a] - truth[b]);
                let games = 400;
                let points = (0..games).filter(|_| rng.gen::<f64>() < p).count() as f64;
                results.push(PairResult {
                    a,
                    b,
                    points,
                    games: games as f64,
                });
            }
        }
        let r = fit(truth.len(), 0, &results).unwrap();
        assert_eq!(r[0].elo, 0.0);
        assert_eq!(r[0].half_width, 0.0);
        for (i, t) in truth.iter().enumerate().skip(1) {
            assert!(
                (r[i].elo - t).abs() <= r[i].half_width * 1.5,
                "player {i}: {:.1} +- {:.1}, truth {t}",
                r[i].elo,
                r[i].half_width
            );
            assert!(
                r[i].half_width > 10.0 && r[i].half_width < 80.0,
                "{:?}",
                r[i]
            );
        }
        // Order is kept.
        assert!(r[1].elo < r[2].elo && r[3].elo < r[4].elo);
    }

    #[test]
    fn a_perfect_score_stays_finite_and_chains_add_up() {
        // B beats A 40-0; C scores 75% against B.
        let results = [
            PairResult {
                a: 1,
                b: 0,
                points: 40.0,
                games: 40.0,
            },
            PairResult {
                a: 2,
                b: 1,
                points: 30.0,
                games: 40.0,
            },
        ];
        let r = fit(3, 0, &results).unwrap();
        assert!(r[1].elo > 500.0 && r[1].elo < 1000.0, "{:?}", r[1]);
        let d = r[2].elo - r[1].elo;
        // 30.5 of 41 with the virtual draw: 188 Elo.
        assert!((d - 400.0 * (30.5f64 / 10.5).log10()).abs() < 1.0, "{d}");
        assert!(r[2].half_width > r[1].half_width);
    }

    #[test]
    fn refuses_what_cannot_be_fitted() {
        let r = [PairResult {
            a: 1,
            b: 2,
            points: 1.0,
            games: 2.0,
        }];
        assert_eq!(fit(3, 0, &r), Err(FitError::Disconnected(1)));
        let r = [PairResult {
            a: 1,
            b: 1,
            points: 1.0,
            games: 2.0,
        }];
        assert_eq!(fit(2, 0, &r), Err(FitError::BadResult(0)));
    }
}
