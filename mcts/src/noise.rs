//! Random draws the search needs: Dirichlet noise and Gumbel variables.

use rand::Rng;
use rand_distr::{Distribution, Gamma};

/// A Dirichlet sample with the same concentration `alpha` on each of `n` components.
pub fn dirichlet(rng: &mut impl Rng, alpha: f32, n: usize) -> Vec<f32> {
    let gamma = Gamma::new(alpha.max(1e-3) as f64, 1.0).expect("valid gamma parameters");
    let mut v: Vec<f32> = (0..n).map(|_| gamma.sample(rng) as f32).collect();
    let sum: f32 = v.iter().sum();
    if sum > 0.0 {
        v.iter_mut().for_each(|x| *x /= sum);
    } else {
        v.iter_mut().for_each(|x| *x = 1.0 / n as f32);
    }
    v
}

/// A standard Gumbel sample.
pub fn gumbel(rng: &mut impl Rng) -> f32 {
    let u: f32 = rng.gen_range(1e-7..1.0);
    -(-u.ln()).ln()
}
