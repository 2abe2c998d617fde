//! The stem's convolution in a training pass on the CPU, from the encoder's sparse
//! [`Features`] instead of the dense planes.
//!
//! The inputs are nearly all zero, yet the stem's forward pass and its weight gradient over
//! the dense planes were a large share of a training step on the large boards
//! (`docs/experiments.md`). Read from the features, the forward pass is a sum of kernel rows,
//! one per input equal to 1 and tap that stays on the board, which libtorch's `embedding_bag`
//! computes: one bag per sample and output square, the bag's indices the (plane, tap) rows
//! added there. The kernel's gradient is the transpose: each (plane, tap) row's gradient is
//! the sum of the output gradients of the squares it was added to, the same `embedding_bag`
//! with the roles swapped. libtorch's own backward of `embedding_bag` scatters row by row and
//! measured 60-100x slower than that transposed sum, so the forward runs outside autograd, its
//! output is a leaf that collects its gradient, and [`StemTape::accumulate`] adds the
//! transposed sum to the kernel's gradient once the loss has been back-propagated. The
//! uniform planes (hands, the constant plane, repetitions, progress) hold one value on every
//! square: their part is each plane's response to a plane of ones (a small convolution that
//! autograd differentiates as usual) times the value. The sum runs in fp32 whatever the
//! training passes' convolution format.

use crate::encoding::{Encoder, Features};
use crate::error::ModelError;
use crate::stem_reach::Reach;
use std::cell::Cell;
use tch::{Kind, TchError, Tensor};

/// A batch's sparse stem inputs as index tensors: what [`stem_convolution`] reads.
#[derive(Debug)]
pub struct StemIndices {
    batch: i64,
    /// The board's ranks and files.
    shape: (i64, i64),
    /// The encoder's uniform planes.
    uniform_planes: std::ops::Range<i64>,
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
    /// Lays out the features of a batch, made by `encoder`, for the stem (`reach` is the
    /// encoder's board's): one counting sort by output square, one by row.
    pub(crate) fn new(features: &[&Features], reach: &Reach, encoder: &Encoder) -> StemIndices {
        let (height, width) = encoder.shape();
        let squares = encoder.squares();
        let rows = encoder.planes() * 9;
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
        let u = encoder.uniform_planes().len();
        let uniform: Vec<f32> = features
            .iter()
            .flat_map(|f| {
                debug_assert_eq!(f.uniform.len(), u);
                f.uniform.iter().copied()
            })
            .collect();
        StemIndices {
            batch: features.len() as i64,
            shape: (height, width),
            uniform_planes: {
                let r = encoder.uniform_planes();
                r.start as i64..r.end as i64
            },
            rows_by_square: Tensor::from_slice(&rows_by_square),
            square_starts: Tensor::from_slice(&square_starts),
            squares_by_row: Tensor::from_slice(&squares_by_row),
            row_starts: Tensor::from_slice(&row_starts),
            uniform: Tensor::from_slice(&uniform).view([features.len() as i64, u as i64]),
        }
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
    /// Whether [`StemTape::accumulate`] has carried the leaf's gradient to the kernel.
    carried: Cell<bool>,
}

/// The stem convolution (no bias) of a training pass, `[B, C, H, W]` contiguous, from the
/// weight `[C, planes, 3, 3]` (the encoder's uniform planes, a non-empty range, read as
/// such). The uniform planes' part is differentiated by autograd, which also gives the weight
/// the gradient that [`StemTape::accumulate`] adds the sparse part to after the backward
/// pass.
pub(crate) fn stem_convolution(weight: &Tensor, input: &StemIndices) -> (Tensor, StemTape) {
    let (height, width) = input.shape;
    let uniform = input.uniform_planes.clone();
    let size = weight.size();
    let (c, planes) = (size[0], size[1]);
    let (b, u) = (input.batch, uniform.end - uniform.start);
    assert!(u > 0, "the sparse stem needs the encoder's uniform planes");
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
    // Each uniform plane's response to a plane of ones, [u, C * H * W]: one plane of ones
    // convolved with the u kernels side by side as u * C output channels.
    let response = Tensor::ones([1, 1, height, width], (Kind::Float, weight.device()))
        .conv2d(
            &weight
                .narrow(1, uniform.start, u)
                .transpose(0, 1)
                .reshape([u * c, 1, 3, 3]),
            None::<Tensor>,
            [1, 1],
            [1, 1],
            [1, 1],
            1,
        )
        .view([u, c * height * width]);
    let uniform_part = input
        .uniform
        .to_device(weight.device())
        .mm(&response)
        .view([b, c, height, width]);
    let out = sparse.view([b, height, width, c]).permute([0, 3, 1, 2]) + uniform_part;
    let tape = StemTape {
        output: sparse,
        squares_by_row: input.squares_by_row.shallow_clone(),
        row_starts: input.row_starts.shallow_clone(),
        shape: [size[0], size[1], size[2], size[3]],
        carried: Cell::new(false),
    };
    (out.contiguous(), tape)
}

/// `embedding_bag` in sum mode: row `i` of the result is the sum of `table`'s rows listed in
/// `indices[starts[i]..starts[i + 1]]` (zero where the bag is empty).
fn sum_bags(table: &Tensor, indices: &Tensor, starts: &Tensor) -> Tensor {
    f_sum_bags(table, indices, starts).expect("embedding_bag of the stem's own indices")
}

fn f_sum_bags(table: &Tensor, indices: &Tensor, starts: &Tensor) -> Result<Tensor, TchError> {
    let (sums, _, _, _) = Tensor::f_embedding_bag(
        table,
        indices,
        starts,
        false,
        0,
        false,
        None::<Tensor>,
        false,
    )?;
    Ok(sums)
}

impl StemTape {
    /// Adds the sparse part's kernel gradient to `weight`'s gradient, once the loss has been
    /// back-propagated (which leaves the output gradient on the tape's leaf), and clears the
    /// leaf's gradient so that a second call adds nothing. Does nothing if the stem's output
    /// took no part in the loss.
    pub fn accumulate(&self, weight: &Tensor) -> Result<(), ModelError> {
        let mut grad_out = self.output.grad();
        if !grad_out.defined() {
            return Ok(());
        }
        let [c, planes, kh, kw] = self.shape;
        tch::no_grad(|| {
            let mut acc = weight.grad();
            if !acc.defined() {
                return Err(ModelError::Gradient(
                    "the stem kernel has no gradient to add its sparse part to".into(),
                ));
            }
            let grad_rows = f_sum_bags(&grad_out, &self.squares_by_row, &self.row_starts)?;
            let _ = acc.f_add_(&grad_rows.view([planes, kh, kw, c]).permute([3, 0, 1, 2]))?;
            let _ = grad_out.f_zero_()?;
            self.carried.set(true);
            Ok(())
        })
    }
}

/// A training pass whose loss went back through the stem without [`StemTape::accumulate`]
/// has trained the stem on its uniform planes alone: said where it happens.
impl Drop for StemTape {
    fn drop(&mut self) {
        if !self.carried.get() && self.output.grad().defined() {
            tracing::error!(
                "a training pass's sparse stem gradient was never added to the kernel (back-propagate through Model::backward)"
            );
        }
    }
}
