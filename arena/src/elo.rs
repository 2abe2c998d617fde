//! The Elo difference a match score implies, with a 95% confidence interval.
//!
//! Under the logistic Elo model a player expected to score `s` against another is
//! `-400 log10(1/s - 1)` points stronger. The interval comes from the normal approximation of
//! the mean per-game score, using the variance actually observed (so draws, which make
//! results less noisy, narrow it), mapped through the same curve. The variance also counts one
//! virtual win and one virtual loss: a few games that all ended alike (all drawn) show that
//! the players are close, not that their difference is known exactly, and without them the
//! interval would have no width at all. A score of exactly 0% or
//! 100% has no finite estimate; the interval's open end is then the exact (Clopper-Pearson)
//! bound for an all-won (all-lost) series of that length.

use std::fmt;

/// Two-sided 95% normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

/// The Elo difference for an expected score `s` in [0, 1] (infinite at 0 and 1).
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// An Elo difference with its 95% confidence interval, all for the first player over the
/// second. Infinite values stand for unbounded ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// Games behind the estimate.
    pub games: usize,
    /// Mean score per game, in [0, 1].
    pub score: f64,
    /// Point estimate (infinite for a 0% or 100% score).
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub lower: f64,
    /// Upper end of the 95% interval.
    pub upper: f64,
}

impl EloEstimate {
    /// The estimate from per-game scores (1 win, 0.5 draw, 0 loss, for the first player).
    /// With no games, everything is unknown: score 0.5, elo 0, interval unbounded.
    pub fn from_scores(scores: &[f64]) -> EloEstimate {
        let n = scores.len();
        if n == 0 {
            return EloEstimate {
                games: 0,
                score: 0.5,
                elo: 0.0,
                lower: f64::NEG_INFINITY,
                upper: f64::INFINITY,
            };
        }
        let nf = n as f64;
        let mean = scores.iter().sum::<f64>() / nf;
        // Exact bound for a one-sided series: all won, the chance p^n of that is 2.5% at p_lo.
        let exact_end = 0.025f64.powf(1.0 / nf);
        if mean >= 1.0 {
            return EloEstimate {
                games: n,
                score: 1.0,
                elo: f64::INFINITY,
                lower: elo_from_score(exact_end),
                upper: f64::INFINITY,
            };
        }
        if mean <= 0.0 {
            return EloEstimate {
                games: n,
                score: 0.0,
                elo: f64::NEG_INFINITY,
                lower: f64::NEG_INFINITY,
                upper: elo_from_score(1.0 - exact_end),
            };
        }
        // The games' squared deviations and those of a virtual win and loss, over n + 1
        // degrees of freedom (n + 2 values about the games' mean).
        let spread = scores.iter().map(|x| (x - mean).powi(2)).sum::<f64>()
            + (1.0 - mean).powi(2)
            + mean.powi(2);
        let var = spread / (nf + 1.0);
        let half = Z95 * (var / nf).sqrt();
        EloEstimate {
            games: n,
            score: mean,
            elo: elo_from_score(mean),
            lower: elo_from_score(mean - half),
            upper: elo_from_score(mean + half),
        }
    }

    /// Width of the interval (infinite when an end is open).
    pub fn width(&self) -> f64 {
        self.upper - self.lower
    }
}

/// An Elo value as text: signed, rounded, `inf` for an open end.
fn signed(x: f64) -> String {
    if x == f64::INFINITY {
        "+inf".into()
    } else if x == f64::NEG_INFINITY {
        "-inf".into()
    } else if x.abs() < 0.5 {
        // Not "-0" or "+0": no difference either way.
        "0".into()
    } else {
        format!("{:+.0}", x)
    }
}

impl fmt::Display for EloEstimate {
    /// `+191 [+120, +270] (95%)`; for a clean sweep `>= +552 (95%, all 100 games won)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.games == 0 {
            return f.write_str("unknown (no games)");
        }
        if self.score >= 1.0 {
            return write!(
                f,
                ">= {} (95%, all {} games won)",
                signed(self.lower),
                self.games
            );
        }
        if self.score <= 0.0 {
            return write!(
                f,
                "<= {} (95%, all {} games lost)",
                signed(self.upper),
                self.games
            );
        }
        write!(
            f,
            "{} [{}, {}] (95%)",
            signed(self.elo),
            signed(self.lower),
            signed(self.upper)
        )
    }
}
