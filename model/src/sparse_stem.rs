//! The network's first convolution at CPU inference, computed from the encoder's sparse
//! [`Features`] instead of the dense planes.
//!
//! The stem is a 3x3 convolution from every input plane to the trunk's channels. On the
//! large boards the planes are many (two per piece kind: 209 on Hook Shogi) and nearly all
//! zero, so the convolution over them was 42-43% of the trunk's convolution time on Hook and
//! Ko Shogi (16% on Hand Shogi), and writing the planes out and copying them into a tensor
//! cost more again. Read from the
//! features it is a sum: each input equal to 1 adds one kernel tap per neighbouring square,
//! and each uniform plane adds its value times the response of the kernel to a plane of ones
//! (which differs only at the edges, where the zero padding cuts taps off).

use crate::encoding::{Encoder, Features};
use crate::stem_reach::Reach;
use tch::{Kind, TchError, Tensor};

/// The folded stem convolution rearranged for sparse inputs.
pub struct SparseStem {
    channels: usize,
    height: usize,
    width: usize,
    /// Per plane and kernel tap (row-major 3x3), the weights of every output channel: what an
    /// input of 1 on that plane adds to the square the tap reaches.
    taps: Vec<f32>,
    /// Per uniform plane and square, the weights of every output channel summed over the taps
    /// that stay on the board: what a plane of ones adds to that square.
    uniform: Vec<f32>,
    /// Per output channel.
    bias: Vec<f32>,
    /// Per input square, where its taps land.
    reach: Reach,
}

impl SparseStem {
    /// From the stem's folded fp32 weight `[channels, planes, 3, 3]` and bias `[channels]`.
    pub fn new(weight: &Tensor, bias: &Tensor, encoder: &Encoder) -> Result<SparseStem, TchError> {
        let size = weight.size();
        let planes = encoder.planes();
        if size.len() != 4 || size[1] as usize != planes || size[2] != 3 || size[3] != 3 {
            return Err(TchError::Shape(format!(
                "a stem of shape {size:?} for {planes} planes of 3x3 taps"
            )));
        }
        let channels = size[0] as usize;
        if bias.size() != [size[0]] {
            return Err(TchError::Shape(format!(
                "a stem bias of shape {:?} for {channels} channels",
                bias.size()
            )));
        }
        // [planes, 3, 3, channels]: each tap's channels side by side.
        let taps = Vec::<f32>::try_from(
            weight
                .to_kind(Kind::Float)
                .permute([1, 2, 3, 0])
                .contiguous()
                .reshape([-1]),
        )?;
        let bias = Vec::<f32>::try_from(bias.to_kind(Kind::Float).contiguous().reshape([-1]))?;
        let (h, w) = encoder.shape();
        let (height, width) = (h as usize, w as usize);
        let squares = height * width;
        let reach = Reach::new(height, width);
        // A plane of ones is a 1 on every square: its response is the same landing taps
        // summed, and taps that would read off the board (the padding's zeros) never land.
        let mut uniform = vec![0.0f32; encoder.uniform_planes().len() * squares * channels];
        for (u, plane) in encoder.uniform_planes().enumerate() {
            let map = &mut uniform[u * squares * channels..][..squares * channels];
            for sq in 0..squares {
                for &(tap, o) in reach.lands(sq) {
                    let t = &taps[(plane * 9 + tap as usize) * channels..][..channels];
                    let out = &mut map[o as usize * channels..][..channels];
                    out.iter_mut().zip(t).for_each(|(o, x)| *o += x);
                }
            }
        }
        Ok(SparseStem {
            channels,
            height,
            width,
            taps,
            uniform,
            bias,
            reach,
        })
    }

    /// The stem's activations (the convolution, then ReLU) of each position, channels last:
    /// a tensor `[B, C, H, W]` whose memory is `[B, H, W, C]`, as the folded trunk reads it.
    pub fn forward(&self, features: &[&Features]) -> Tensor {
        let c = self.channels;
        Tensor::from_slice(&self.rows(features))
            .view([
                features.len() as i64,
                self.height as i64,
                self.width as i64,
                c as i64,
            ])
            .permute([0, 3, 1, 2])
    }

    /// The stem's activations of each position as rows, `[B, squares, C]`.
    pub fn rows(&self, features: &[&Features]) -> Vec<f32> {
        let (c, squares) = (self.channels, self.height * self.width);
        let mut out = vec![0.0f32; features.len() * squares * c];
        for (f, rows) in features.iter().zip(out.chunks_exact_mut(squares * c)) {
            self.position(f, rows);
        }
        out
    }

    /// One position's activations into `rows` (`[squares, C]`). A version with the channel
    /// count fixed at compile time (32, the CPU presets') measured twice as slow: the
    /// compiler's unrolled sums lost to its vectorised loop.
    fn position(&self, f: &Features, rows: &mut [f32]) {
        let (c, squares) = (self.channels, self.height * self.width);
        for row in rows.chunks_exact_mut(c) {
            row.copy_from_slice(&self.bias);
        }
        for (u, &v) in f.uniform.iter().enumerate() {
            if v != 0.0 {
                let map = &self.uniform[u * squares * c..][..squares * c];
                rows.iter_mut().zip(map).for_each(|(o, x)| *o += v * x);
            }
        }
        for &one in &f.ones {
            let (plane, sq) = (one as usize / squares, one as usize % squares);
            for &(tap, o) in self.reach.lands(sq) {
                let t = &self.taps[(plane * 9 + tap as usize) * c..][..c];
                let row = &mut rows[o as usize * c..][..c];
                row.iter_mut().zip(t).for_each(|(o, x)| *o += x);
            }
        }
        rows.iter_mut().for_each(|x| *x = x.max(0.0));
    }
}

/// Its shape only: the tables hold every weight of the stem.
impl std::fmt::Debug for SparseStem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SparseStem")
            .field("channels", &self.channels)
            .field("height", &self.height)
            .field("width", &self.width)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_positions::{random_positions, seeded_torch};
    use koma_rules::variant::builtin_ids;
    use koma_rules::{load_variant, Position};

    /// For every built-in variant and both sides to move, the stem computed from the sparse
    /// features equals libtorch's 3x3 convolution (zero padding) over the dense planes, then
    /// ReLU, to within fp32 rounding, with a random kernel and bias, at the CPU presets' 32
    /// channels and at 16. The positions include pieces in hand (Hand Shogi) and Ko Shogi's
    /// burn zones and nets.
    #[test]
    fn the_sparse_stem_is_the_dense_convolution() {
        let _generator = seeded_torch(7);
        let mut seen_hands = false;
        let mut seen_specials = false;
        for (id, channels) in builtin_ids()
            .into_iter()
            .flat_map(|id| [(id, 32), (id, 16)])
        {
            let v = load_variant(id).unwrap();
            let encoder = Encoder::new(&v);
            let planes = encoder.planes() as i64;
            let cpu = (Kind::Float, tch::Device::Cpu);
            let weight = Tensor::randn([channels, planes, 3, 3], cpu);
            let bias = Tensor::randn([channels], cpu);
            let stem = SparseStem::new(&weight, &bias, &encoder).unwrap();
            let mut ps = random_positions(id, 12);
            if id == "ko-shogi" {
                // Random games seldom promote to a poison flame or a net: a set position
                // with both, a piece in the flame's burn zone and two held by the net.
                let board = "18g/19/19/19/19/19/19/19/5(sw)13/4(PF)4(EW)1(sw)7/19/7(sw)11/\
                             19/19/19/19/19/19/G18";
                for side in ["b", "w"] {
                    ps.push(Position::from_text(&v, &format!("{board} {side} - 0")).unwrap());
                }
            }
            let features: Vec<Features> = ps.iter().map(|p| encoder.features(p, 2)).collect();
            let refs: Vec<&Features> = features.iter().collect();
            let len = encoder.input_len();
            let mut dense = vec![0.0f32; ps.len() * len];
            for (p, out) in ps.iter().zip(dense.chunks_exact_mut(len)) {
                encoder.encode_with_repetitions(p, 2, out);
            }
            let (h, w) = encoder.shape();
            let x = Tensor::from_slice(&dense).view([ps.len() as i64, planes, h, w]);
            let expected = x
                .conv2d(&weight, Some(&bias), [1, 1], [1, 1], [1, 1], 1)
                .relu();
            let got = stem.forward(&refs);
            let worst = (&got - &expected).abs().max().double_value(&[]);
            let scale = expected.abs().max().double_value(&[]);
            assert!(
                worst <= 1e-5 * scale.max(1.0),
                "{id}, {channels} channels: differs by {worst}"
            );
            assert!(
                ps.iter()
                    .any(|p| p.side_to_move() == koma_rules::Color::White),
                "{id}: both sides to move"
            );
            let hands = encoder.uniform_planes().len() - 3;
            seen_hands |= features
                .iter()
                .any(|f| f.uniform[..hands].iter().any(|&x| x > 0.0));
            // Ko Shogi's burn-zone and net planes are the last four.
            let specials = (planes as usize - 4) * encoder.squares();
            seen_specials |= v.has_rule_module()
                && features
                    .iter()
                    .any(|f| f.ones.iter().any(|&i| i as usize >= specials));
        }
        assert!(seen_hands, "pieces in hand encoded");
        assert!(seen_specials, "burn zones or nets encoded");
    }
}
