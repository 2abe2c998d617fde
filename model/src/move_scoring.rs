//! The policy head's move scoring at inference on the CPU, done in plain loops.
//!
//! In a training pass each move's logit is built from tensors of one row per move: a gather of
//! every embedding the move reads, the products, the sums and a padded per-position softmax,
//! some thirty libtorch operations that each allocate a moves x `head_dim` tensor. On the CPU
//! at self-play's batch sizes those operations cost about as much as a third to two thirds of
//! the trunk, for a few dot products of 16 numbers per move. Here the per-square embeddings are
//! copied out once and every move's logit and the softmax are computed in place, with the
//! same formula as [`crate::net::Net::forward`] (a test holds the two to within rounding).

use crate::encoding::MoveIndex;

/// The tensors the move scoring reads, copied out of one forward pass, for a batch of `B`
/// positions on boards of `squares` squares with embeddings of `dim` numbers.
#[derive(Debug)]
pub struct MoveTables {
    /// Board squares per position.
    pub squares: usize,
    /// Embedding width (`head_dim`).
    pub dim: usize,
    /// Per square: q (origin), k (destination), u (origin, for kills), w (kill square),
    /// `[B, squares, 4 * dim]`.
    pub square_embed: Vec<f32>,
    /// Per square, variants that shoot only: the firing square's and the target's
    /// embeddings, `[B, squares, 2 * dim]`.
    pub shot_embed: Option<Vec<f32>>,
    /// The drop query of each droppable kind, `[kinds, dim]`.
    pub drop_embed: Vec<f32>,
    /// The drop query's per-position context, `[B, dim]`.
    pub drop_context: Vec<f32>,
    /// The promotion terms (none, promote, decline), `[3, dim]`.
    pub promo_embed: Vec<f32>,
}

/// A move field that points outside the tables: the batch and the network disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfTable;

impl MoveTables {
    /// Move probabilities of position `b` of the batch, one per row of `moves` (the softmax
    /// of the logits).
    pub fn priors(&self, b: usize, moves: &[MoveIndex]) -> Result<Vec<f32>, OutOfTable> {
        let mut out = Vec::with_capacity(moves.len());
        let d = self.dim;
        let scale = 1.0 / (d as f32).sqrt();
        let per_square = 4 * d;
        let board = self
            .square_embed
            .get(b * self.squares * per_square..(b + 1) * self.squares * per_square)
            .ok_or(OutOfTable)?;
        // Row `sq` of the board's embeddings, part `part` (0 q, 1 k, 2 u, 3 w); negative
        // squares read square 0, as the training pass's gathers do (their term is masked).
        let part = |sq: i64, part: usize| -> Result<&[f32], OutOfTable> {
            let at = sq.max(0) as usize * per_square + part * d;
            board.get(at..at + d).ok_or(OutOfTable)
        };
        let shots = match &self.shot_embed {
            Some(s) => Some(
                s.get(b * self.squares * 2 * d..(b + 1) * self.squares * 2 * d)
                    .ok_or(OutOfTable)?,
            ),
            None => None,
        };
        let ctx = self
            .drop_context
            .get(b * d..(b + 1) * d)
            .ok_or(OutOfTable)?;
        let mut query = vec![0.0f32; d];
        for m in moves {
            let [origin, dest, kill, promo, drop_kind, last, shot_from, shot_at] = *m;
            if origin < 0 {
                let at = drop_kind.max(0) as usize * d;
                let embed = self.drop_embed.get(at..at + d).ok_or(OutOfTable)?;
                for ((q, e), c) in query.iter_mut().zip(embed).zip(ctx) {
                    *q = e + c;
                }
            } else {
                query.copy_from_slice(part(origin, 0)?);
            }
            let at = usize::try_from(promo).map_err(|_| OutOfTable)? * d;
            let promo = self.promo_embed.get(at..at + d).ok_or(OutOfTable)?;
            for (q, p) in query.iter_mut().zip(promo) {
                *q += p;
            }
            let mut logit = dot(&query, part(dest, 1)?) * scale;
            if kill >= 0 {
                logit += dot(part(origin, 2)?, part(kill, 3)?) * scale;
            }
            if last >= 0 {
                logit += dot(part(origin, 2)?, part(last, 3)?) * scale;
            }
            if let (Some(s), true) = (shots, shot_from >= 0) {
                let row = |sq: i64, half: usize| {
                    let at = sq.max(0) as usize * 2 * d + half * d;
                    s.get(at..at + d).ok_or(OutOfTable)
                };
                logit += dot(row(shot_from, 0)?, row(shot_at, 1)?) * scale;
            }
            out.push(logit);
        }
        softmax_in_place(&mut out);
        Ok(out)
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Logits to probabilities, shifted by the largest so that no exponential overflows.
fn softmax_in_place(v: &mut [f32]) {
    let max = v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    if !max.is_finite() {
        return;
    }
    let mut sum = 0.0;
    for x in v.iter_mut() {
        *x = (*x - max).exp();
        sum += *x;
    }
    for x in v.iter_mut() {
        *x /= sum;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn softmax_sums_to_one_and_keeps_order() {
        let mut v = vec![1.0, 3.0, 2.0, -50.0];
        softmax_in_place(&mut v);
        assert!((v.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(v[1] > v[2] && v[2] > v[0] && v[0] > v[3]);
    }

    #[test]
    fn a_move_outside_the_tables_is_refused() {
        let tables = MoveTables {
            squares: 2,
            dim: 1,
            square_embed: vec![0.0; 8],
            shot_embed: None,
            drop_embed: vec![0.0],
            drop_context: vec![0.0],
            promo_embed: vec![0.0; 3],
        };
        assert_eq!(
            tables.priors(0, &[[0, 1, -1, 0, -1, -1, -1, -1]]),
            Ok(vec![1.0])
        );
        assert_eq!(
            tables.priors(0, &[[0, 2, -1, 0, -1, -1, -1, -1]]),
            Err(OutOfTable)
        );
        assert_eq!(tables.priors(1, &[]), Err(OutOfTable));
    }
}
