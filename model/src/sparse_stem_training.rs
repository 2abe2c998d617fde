//! The stem's convolution in a training pass on the CPU, from the encoder's sparse
//! [`Features`] instead of the dense planes.
//!
//! Training convolved every input plane of every sample, and its weight gradient convolved
//! them again: in libtorch on one thread at batch 64, the stem's forward and weight gradient
//! took 41% of the trunk's convolution time on Hook Shogi, 33% on Ko, 20% on Shoko and 12%
//! on Hand Shogi, for inputs that are nearly all zero. Read from the features, the forward
//! pass is a sum of kernel rows (one per input equal to 1 and tap that stays on the board),
//! which libtorch's `embedding_bag` computes: one bag per sample and output square, the bag's
//! indices the (plane, tap) rows it adds. Its gradient is the transpose: the gradient of each
//! (plane, tap) row is the sum of the output gradients of the squares it was added to, the
//! same `embedding_bag` with the roles swapped. libtorch's own backward for `embedding_bag`
//! measured 60-100x slower than that transposed forward (it scatters row by row), so the
//! forward runs outside autograd, its output is a leaf that collects its gradient, and
//! [`StemTape::accumulate`] adds the transposed sum to the stem weight's gradient once the
//! loss has been back-propagated. The uniform planes (hands, the constant plane, repetitions,
//! progress) hold one value on every square: their part is each plane's response to a plane of
//! ones (a small convolution that autograd differentiates as usual) times the value.

use crate::encoding::Features;
use crate::stem_reach::Reach;
use tch::{Kind, TchError, Tensor};

/// A batch's sparse stem inputs as index tensors: what [`stem_convolution`] reads.
#[derive(Debug)]
pub struct StemIndices {
    batch: i64,
    /// Per sample and output square (a bag), the (plane, tap) rows added there, `[E]`.
    rows_by_square: Tensor,
    /// Where each bag starts in `rows_by_square`, `[B * H * W]`.
    square_starts: Tensor,
    /// Per (plane, tap) row, the bags it was added to, `[E]`.
    squares_by_row: Tensor,
    /// Where each row's bags start in `squares_by_row`, `[planes * 9]`.
    row_starts: Tensor,
    /// The uniform planes' values, `[B, U]`.
    uniform: Tensor,
}

impl StemIndices {
    /// Lays out the features of a batch (`planes` planes of `height` x `width`, of which
    /// `uniform_planes` are uniform) for the stem: one counting sort by output square, one
    /// by row.
    pub(crate) fn new(
        features: &[&Features],
        reach: &Reach,
        planes: usize,
        (height, width): (usize, usize),
        uniform_planes: usize,
    ) -> StemIndices {
        let squares = height * width;
        let rows = planes * 9;
        let bags = features.len() * squares;
        // (bag, row) of every input equal to 1 and tap that lands on the board.
        let mut entries: Vec<(u32, u32)> = Vec::new();
        for (b, f) in features.iter().enumerate() {
            for &one in &f.ones {
                let (plane, sq) = (one as usize / squares, one as usize % squares);
                for &(tap, o) in reach.lands(sq) {
                    entries.push(((b * squares) as u32 + o, (plane * 9) as u32 + tap));
                }
            }
        }
        let (square_starts, rows_by_square) = group(&entries, bags, |e| e.0, |e| e.1);
        let (row_starts, squares_by_row) = group(&entries, rows, |e| e.1, |e| e.0);
        let u = uniform_planes;
        let uniform: Vec<f32> = features
            .iter()
            .flat_map(|f| {
                debug_assert_eq!(f.uniform.len(), u);
                f.uniform.iter().copied()
            })
            .collect();
        StemIndices {
            batch: features.len() as i64,
            rows_by_square: Tensor::from_slice(&rows_by_square),
            square_starts: Tensor::from_slice(&square_starts),
            squares_by_row: Tensor::from_slice(&squares_by_row),
            row_starts: Tensor::from_slice(&row_starts),
            uniform: Tensor::from_slice(&uniform).view([features.len() as i64, u as i64]),
        }
    }

    /// Samples in the batch.
    pub fn len(&self) -> i64 {
        self.batch
    }

    /// Whether the batch is empty.
    pub fn is_empty(&self) -> bool {
        self.batch == 0
    }
}

/// Entries grouped by `key` (a counting sort, stable): the start of each of `keys` groups and
/// the `value` of every entry in group order.
fn group(
    entries: &[(u32, u32)],
    keys: usize,
    key: impl Fn(&(u32, u32)) -> u32,
    value: impl Fn(&(u32, u32)) -> u32,
) -> (Vec<i64>, Vec<i64>) {
    let mut starts = vec![0i64; keys + 1];
    for e in entries {
        starts[key(e) as usize + 1] += 1;
    }
    for k in 0..keys {
        starts[k + 1] += starts[k];
    }
    let mut next = starts.clone();
    let mut values = vec![0i64; entries.len()];
    for e in entries {
        let at = &mut next[key(e) as usize];
        values[*at as usize] = value(e) as i64;
        *at += 1;
    }
    starts.pop();
    (starts, values)
}

/// What the stem's sparse part leaves for the backward pass: the leaf that collects the
/// gradient of its output, and the indices to carry that gradient back to the kernel.
#[derive(Debug)]
pub struct StemTape {
    output: Tensor,
    squares_by_row: Tensor,
    row_starts: Tensor,
    /// The stem weight's shape, `[C, planes, 3, 3]`.
    shape: [i64; 4],
}

/// The stem convolution (no bias) of a training pass, `[B, C, H, W]` contiguous, from the
/// weight `[C, planes, 3, 3]` whose planes `uniform` are the uniform ones.
/// The uniform planes' part is differentiated by autograd; the sparse part's gradient is
/// added by [`StemTape::accumulate`] after the backward pass.
pub fn stem_convolution(
    weight: &Tensor,
    input: &StemIndices,
    (height, width): (i64, i64),
    uniform: std::ops::Range<i64>,
) -> (Tensor, StemTape) {
    let size = weight.size();
    let (c, planes) = (size[0], size[1]);
    let b = input.batch;
    // [planes * 9, C]: each (plane, tap) row's channels side by side.
    let rows = tch::no_grad(|| {
        weight
            .detach()
            .permute([1, 2, 3, 0])
            .contiguous()
            .view([planes * 9, c])
    });
    let sparse = tch::no_grad(|| sum_bags(&rows, &input.rows_by_square, &input.square_starts))
        .set_requires_grad(true);
    let u = uniform.end - uniform.start;
    let dense_part = sparse.view([b, height, width, c]).permute([0, 3, 1, 2]);
    let out = if u > 0 {
        // Plane u of sample u is all ones: the response of each uniform plane.
        let ones = Tensor::eye(u, (Kind::Float, weight.device()))
            .view([u, u, 1, 1])
            .expand([u, u, height, width], false)
            .contiguous();
        let response = ones.conv2d(
            &weight.narrow(1, uniform.start, u),
            None::<Tensor>,
            [1, 1],
            [1, 1],
            [1, 1],
            1,
        );
        let uniform = input
            .uniform
            .to_device(weight.device())
            .mm(&response.view([u, c * height * width]))
            .view([b, c, height, width]);
        dense_part + uniform
    } else {
        dense_part.contiguous()
    };
    let tape = StemTape {
        output: sparse,
        squares_by_row: input.squares_by_row.shallow_clone(),
        row_starts: input.row_starts.shallow_clone(),
        shape: [size[0], size[1], size[2], size[3]],
    };
    (out.contiguous(), tape)
}

/// `embedding_bag` in sum mode: row `i` of the result is the sum of `table`'s rows listed in
/// `indices[starts[i]..starts[i + 1]]` (zero where the bag is empty).
fn sum_bags(table: &Tensor, indices: &Tensor, starts: &Tensor) -> Tensor {
    let (sums, _, _, _) = Tensor::embedding_bag(
        table,
        indices,
        starts,
        false,
        0,
        false,
        None::<Tensor>,
        false,
    );
    sums
}

impl StemTape {
    /// Adds the sparse part's kernel gradient to `weight`'s gradient, once the loss has been
    /// back-propagated (which leaves the output gradient on the tape's leaf). Does nothing if
    /// the stem's output took no part in the loss.
    pub fn accumulate(&self, weight: &Tensor) -> Result<(), TchError> {
        let grad_out = self.output.grad();
        if !grad_out.defined() {
            return Ok(());
        }
        let [c, planes, kh, kw] = self.shape;
        tch::no_grad(|| {
            let grad_rows = sum_bags(&grad_out, &self.squares_by_row, &self.row_starts);
            let grad = grad_rows.view([planes, kh, kw, c]).permute([3, 0, 1, 2]);
            // The uniform planes' part reaches the weight through autograd, so its gradient
            // exists (the model uses this path only where there are uniform planes).
            let mut acc = weight.grad();
            if !acc.defined() {
                return Err(TchError::Kind(
                    "the stem weight has no gradient to add the sparse part to".into(),
                ));
            }
            acc.f_add_(&grad).map(|_| ())
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::test_positions::random_positions;
    use crate::{Arch, Model, Request};
    use koma_rules::load_variant;
    use koma_rules::variant::builtin_ids;
    use tch::{Device, Kind, Tensor};

    /// The loss of one training pass over `requests` and the gradient of every variable,
    /// from the dense planes (`sparse` false) or the sparse features.
    fn pass(model: &Model, requests: &[Request], sparse: bool) -> (Tensor, Vec<Tensor>) {
        let refs: Vec<&Request> = requests.iter().collect();
        let batch = if sparse {
            model.training_batch(&refs)
        } else {
            model.batch(&refs)
        };
        assert_eq!(
            matches!(batch.input, crate::BatchInput::Features(_)),
            sparse
        );
        let out = model.forward(&batch, true);
        // Every output in the loss, each weighted differently, so that every head and the
        // whole trunk carry a gradient back to the stem.
        let loss = -model.move_log_probs(&out, &batch).mean(Kind::Float) * 1.3
            + (out.wdl_logits.log_softmax(1, Kind::Float)
                * Tensor::from_slice(&[0.2f32, 0.5, 0.3]))
            .sum(Kind::Float)
            + out.material.square().mean(Kind::Float) * 0.7;
        let mut vars = model.var_store().trainable_variables();
        for v in &mut vars {
            v.zero_grad();
        }
        model.backward(&loss, &out).unwrap();
        let outputs = Tensor::cat(
            &[
                out.move_logits.flatten(0, -1),
                out.wdl_logits.flatten(0, -1),
                out.material.flatten(0, -1),
            ],
            0,
        )
        .detach();
        (outputs, vars.iter().map(|v| v.grad().copy()).collect())
    }

    /// For every built-in variant, a training pass from the sparse features computes the
    /// outputs of the dense planes' pass and the same gradient for every variable (the stem
    /// kernel's included: its sparse part comes from the tape) to fp32 rounding.
    #[test]
    fn the_sparse_training_pass_is_the_dense_one() {
        tch::manual_seed(11);
        let arch = Arch {
            blocks: 2,
            channels: 16,
            gpool_every: 2,
            head_dim: 8,
            value_channels: 4,
            value_hidden: 16,
        };
        for id in builtin_ids() {
            let v = load_variant(id).unwrap();
            let model = Model::new(&v, &arch, Device::Cpu);
            let requests: Vec<Request> = random_positions(id, 6)
                .into_iter()
                .enumerate()
                .map(|(i, mut p)| {
                    let moves = p.legal_moves();
                    model.encoder().request(&p, &moves, Some(i % 3))
                })
                .collect();
            let (dense_out, dense_grads) = pass(&model, &requests, false);
            let (sparse_out, sparse_grads) = pass(&model, &requests, true);
            let close = |a: &Tensor, b: &Tensor| {
                let worst = (a - b).abs().max().double_value(&[]);
                let scale = a.abs().max().double_value(&[]).max(1e-3);
                worst <= 2e-4 * scale
            };
            assert!(close(&dense_out, &sparse_out), "{id}: outputs differ");
            for (i, (d, s)) in dense_grads.iter().zip(&sparse_grads).enumerate() {
                assert_eq!(d.size(), s.size(), "{id}: variable {i}");
                assert!(
                    close(d, s),
                    "{id}: gradient of variable {i} ({:?}) differs by {}",
                    d.size(),
                    (d - s).abs().max().double_value(&[])
                );
            }
            // The stem kernel is among them, and its gradient is not zero.
            let planes = model.encoder().planes() as i64;
            let kernel = dense_grads
                .iter()
                .zip(&sparse_grads)
                .find(|(d, _)| d.size() == [arch.channels, planes, 3, 3])
                .unwrap_or_else(|| panic!("{id}: no gradient of the stem kernel's shape"));
            assert!(kernel.1.abs().sum(Kind::Float).double_value(&[]) > 0.0);
        }
    }
}
