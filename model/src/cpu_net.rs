//! The folded network's inference pass on x86 CPUs with AVX-512 or AVX2, in koma's own loops.
//!
//! libtorch runs a network of this size (three to six blocks of 24 to 32 channels) as some
//! fifty small operations a pass, each dispatched, allocated and freed: on Hand Shogi's 3 x 24
//! network at play's batch of 8 that cost about as much again as the convolutions (184
//! microseconds a position against 102 at batch 128). Here the whole pass after the sparse
//! stem is plain loops over buffers reused across the batch: the 3x3 convolutions as
//! register-blocked AVX-512 sums over a zero-padded board (each tap's weights loaded once
//! for a run of up to nine squares, one input value broadcast per square), the
//! global-pooling biases, the residual sums, and the heads' 1x1 convolutions and small dense
//! layers. The convolutions run in fp32 (98-115 GFLOP/s on the 2-core AMD host, where
//! libtorch's fp32 convolutions made 34-56 at a batch of 8 and 63-96 at 64) or, on CPUs with
//! AVX512-BF16, as dot products of bf16 pairs summed in fp32 (153-213 GFLOP/s; libtorch's
//! bf16, 55-81 at 8 and 98-192 at 64). The residual stream, the pooling and the heads stay
//! in fp32. Whether the loops or libtorch are faster depends on the board, the batch and the
//! CPU, which [`crate::Model::prepare_to_play`] measures.
//!
//! CPUs without AVX-512 (AMD before Zen 4, most Intel desktop parts) run the same loops in
//! AVX2 registers of eight floats, fp32 only: there libtorch's only fast format is fp32, and
//! at play's small batches its cost per operation is the larger part of the pass.

use crate::move_scoring::MoveTables;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Outputs a dense layer sums at once: as wide as an AVX-512 register, two of AVX2's.
const DENSE_WIDTH: usize = 16;

/// Independent sums a dense layer keeps per output, so that multiply-adds of consecutive
/// inputs do not wait on each other (about four cycles each, two issued a cycle).
const PARTIAL_SUMS: usize = 4;

/// The vector instructions the convolutions run in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Isa {
    /// AVX-512: registers of 16 floats, 32 of them; bf16 dot products where the CPU has
    /// AVX512-BF16.
    Avx512,
    /// AVX2 with FMA: registers of 8 floats, 16 of them; fp32 only.
    Avx2,
}

impl Isa {
    /// The widest this CPU has, if any.
    pub fn best() -> Option<Isa> {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return Some(Isa::Avx512);
            }
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                return Some(Isa::Avx2);
            }
        }
        None
    }

    /// Whether this CPU can run it.
    pub fn runs_here(self) -> bool {
        matches!(
            (Isa::best(), self),
            (Some(Isa::Avx512), _) | (Some(Isa::Avx2), Isa::Avx2)
        )
    }

    /// Floats in one register.
    fn lanes(self) -> usize {
        match self {
            Isa::Avx512 => 16,
            Isa::Avx2 => 8,
        }
    }
}

/// Whether this CPU can run the loops' bf16 convolutions (AVX512-BF16).
pub fn bf16_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        Isa::best() == Some(Isa::Avx512) && std::arch::is_x86_feature_detected!("avx512bf16")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU can run the loops in fp32 (AVX-512 foundation instructions, or AVX2 with
/// FMA).
pub fn available() -> bool {
    Isa::best().is_some()
}

/// The `(registers, squares)` tiles of AVX-512's steps.
#[cfg(target_arch = "x86_64")]
macro_rules! avx512_tiles {
    ($kernel:ident $(, $s:ty)?; $conv:expr, $inp:expr, $out:expr, $geo:expr, $at:expr, $v:expr, $left:expr) => {
        match ($v, $left) {
            (2, l) if l >= 9 => $kernel::<$($s,)? 2, 9>($conv, $inp, $out, $geo, $at),
            (2, l) if l >= 4 => $kernel::<$($s,)? 2, 4>($conv, $inp, $out, $geo, $at),
            (2, _) => $kernel::<$($s,)? 2, 1>($conv, $inp, $out, $geo, $at),
            (_, l) if l >= 9 => $kernel::<$($s,)? 1, 9>($conv, $inp, $out, $geo, $at),
            (_, l) if l >= 4 => $kernel::<$($s,)? 1, 4>($conv, $inp, $out, $geo, $at),
            (_, _) => $kernel::<$($s,)? 1, 1>($conv, $inp, $out, $geo, $at),
        }
    };
}

/// A dense layer `y = W x + b`, its weight stored input-major (`[inputs, outputs]`) so that
/// each input adds a contiguous row to the outputs.
#[derive(Debug, Clone)]
pub struct Dense {
    inputs: usize,
    outputs: usize,
    weight: Vec<f32>,
    bias: Vec<f32>,
}

impl Dense {
    /// From a weight in libtorch's `[outputs, inputs]` order (row-major) and an optional bias.
    pub fn new(
        outputs: usize,
        inputs: usize,
        weight: &[f32],
        bias: Option<&[f32]>,
    ) -> Result<Dense, String> {
        if weight.len() != outputs * inputs {
            return Err(format!(
                "a dense weight of {} values for {outputs} x {inputs}",
                weight.len()
            ));
        }
        let bias = match bias {
            Some(b) if b.len() == outputs => b.to_vec(),
            Some(b) => return Err(format!("a bias of {} values for {outputs}", b.len())),
            None => vec![0.0; outputs],
        };
        let mut t = vec![0.0; outputs * inputs];
        for o in 0..outputs {
            for i in 0..inputs {
                t[i * outputs + o] = weight[o * inputs + i];
            }
        }
        Ok(Dense {
            inputs,
            outputs,
            weight: t,
            bias,
        })
    }

    /// `out = W x + b` (`x` at least `inputs` long, `out` exactly `outputs`). The outputs
    /// are summed a register's width at a time, each in a local array over all inputs: summed
    /// in `out` itself, every input's update waited on the store of the one before, and the
    /// heads' layers took a third of the pass.
    #[inline(always)]
    fn apply(&self, x: &[f32], out: &mut [f32]) {
        let x = &x[..self.inputs];
        let n = self.outputs;
        let mut o = 0;
        while o + DENSE_WIDTH <= n {
            self.sum_into::<DENSE_WIDTH>(x, o, &mut out[o..o + DENSE_WIDTH]);
            o += DENSE_WIDTH;
        }
        while o + 8 <= n {
            self.sum_into::<8>(x, o, &mut out[o..o + 8]);
            o += 8;
        }
        while o < n {
            self.sum_into::<1>(x, o, &mut out[o..o + 1]);
            o += 1;
        }
    }

    /// Outputs `o..o + W` of [`Dense::apply`], the inputs summed in [`PARTIAL_SUMS`]
    /// interleaved sums: with one, each input's multiply-add waited on the one before, and the
    /// policy head's layer alone took a tenth of the AVX2 pass.
    #[inline(always)]
    fn sum_into<const W: usize>(&self, x: &[f32], o: usize, out: &mut [f32]) {
        const P: usize = PARTIAL_SUMS;
        let n = self.outputs;
        let mut acc = [[0.0f32; W]; P];
        acc[0].copy_from_slice(&self.bias[o..o + W]);
        let quads = x.chunks_exact(P);
        let rest = quads.remainder();
        for (k, xs) in quads.enumerate() {
            for (p, (&xi, sums)) in xs.iter().zip(acc.iter_mut()).enumerate() {
                let w = &self.weight[(k * P + p) * n + o..][..W];
                for (a, w) in sums.iter_mut().zip(w) {
                    *a = xi.mul_add(*w, *a);
                }
            }
        }
        let first = x.len() - rest.len();
        for (j, &xi) in rest.iter().enumerate() {
            let w = &self.weight[(first + j) * n + o..][..W];
            for (a, w) in acc[0].iter_mut().zip(w) {
                *a = xi.mul_add(*w, *a);
            }
        }
        for (k, o) in out.iter_mut().enumerate() {
            *o = acc.iter().map(|sums| sums[k]).sum();
        }
    }
}

/// A folded 3x3 convolution, weights laid out `[tap][input channel][output channel]` with the
/// output channels padded to whole registers (the padding's weights and bias are 0).
#[derive(Debug, Clone)]
pub struct Conv3 {
    weight: Vec<f32>,
    /// The same weights rounded to bf16, laid out `[tap][input channel pair][output
    /// channel][2]`: one register holds 16 output channels' weights for two input channels,
    /// as AVX512-BF16's dot product of pairs reads them.
    weight_bf16: Vec<u16>,
    bias: Vec<f32>,
}

impl Conv3 {
    /// From libtorch's `[c, c, 3, 3]` weight and `[c]` bias (folded, fp32), for `cp` padded
    /// channels.
    pub fn new(c: usize, cp: usize, weight: &[f32], bias: &[f32]) -> Result<Conv3, String> {
        if weight.len() != c * c * 9 || bias.len() != c {
            return Err(format!(
                "a 3x3 convolution of {} weights and {} biases for {c} channels",
                weight.len(),
                bias.len()
            ));
        }
        let mut w = vec![0.0; 9 * c * cp];
        for co in 0..c {
            for ci in 0..c {
                for tap in 0..9 {
                    w[(tap * c + ci) * cp + co] = weight[(co * c + ci) * 9 + tap];
                }
            }
        }
        let pairs = c.div_ceil(2);
        let mut wb = vec![0u16; 9 * pairs * cp * 2];
        for co in 0..c {
            for ci in 0..c {
                for tap in 0..9 {
                    wb[((tap * pairs + ci / 2) * cp + co) * 2 + ci % 2] =
                        bf16_bits(weight[(co * c + ci) * 9 + tap]);
                }
            }
        }
        let mut b = vec![0.0; cp];
        b[..c].copy_from_slice(bias);
        Ok(Conv3 {
            weight: w,
            weight_bf16: wb,
            bias: b,
        })
    }
}

/// `x` rounded to the nearest bf16 (ties to even), as its 16 bits.
fn bf16_bits(x: f32) -> u16 {
    let b = x.to_bits();
    if x.is_nan() {
        return ((b >> 16) | 0x40) as u16;
    }
    ((b + 0x7fff + ((b >> 16) & 1)) >> 16) as u16
}

/// One residual block: two convolutions and, every few blocks, a global-pooling bias.
#[derive(Debug, Clone)]
pub struct Block {
    /// The first convolution (then ReLU).
    pub a: Conv3,
    /// The second convolution (then the residual sum and ReLU).
    pub b: Conv3,
    /// The pooled features' bias on the first convolution's output, `2c -> c`.
    pub gpool: Option<Dense>,
}

/// The heads' parameters (the 1x1 convolutions as dense layers over one square's channels).
#[derive(Debug, Clone)]
pub struct Heads {
    /// The value head's folded 1x1 convolution, `c -> value channels`.
    pub value_conv: Dense,
    /// `2 * value channels -> hidden`.
    pub value_fc1: Dense,
    /// `hidden -> 3` (win, draw, loss logits).
    pub value_fc2: Dense,
    /// `hidden -> 1`.
    pub material_fc: Dense,
    /// The policy's per-square embeddings, `c -> 4 * head_dim`.
    pub policy: Dense,
    /// The shot embeddings, `c -> 2 * head_dim` (variants that shoot).
    pub shot: Option<Dense>,
    /// `2c -> head_dim`, from the trunk's pooled features.
    pub drop_context: Dense,
    /// `[kinds, head_dim]`.
    pub drop_embed: Vec<f32>,
    /// `[3, head_dim]`.
    pub promo_embed: Vec<f32>,
    /// The policy embeddings' width.
    pub head_dim: usize,
}

/// The network after its stem, ready to run in loops.
#[derive(Debug, Clone)]
pub struct CpuNet {
    height: usize,
    width: usize,
    channels: usize,
    /// Channels rounded up to whole registers: the activations' stride.
    padded: usize,
    blocks: Vec<Block>,
    heads: Heads,
    /// The convolutions in bf16 (products of bf16 inputs and weights summed in fp32; the
    /// residual stream, the pooling and the heads stay in fp32).
    bf16: bool,
    /// The instructions the convolutions run in.
    isa: Isa,
}

/// One position's working buffers, zero-padded boards of `padded` channels a square.
struct Buffers {
    x: Vec<f32>,
    h: Vec<f32>,
    y: Vec<f32>,
    /// A convolution's input rounded to bf16 (bf16 convolutions only).
    xb: Vec<u16>,
}

impl CpuNet {
    /// The padded channel count for `c` trunk channels: whole registers of the widest
    /// instructions this CPU has (16 floats without any, so that the layout is one).
    pub fn padded_channels(c: usize) -> usize {
        let lanes = Isa::best().map_or(16, Isa::lanes);
        c.div_ceil(lanes) * lanes
    }

    /// A network of `channels` channels on a `height` x `width` board.
    pub fn new(
        height: usize,
        width: usize,
        channels: usize,
        blocks: Vec<Block>,
        heads: Heads,
    ) -> Result<CpuNet, String> {
        let gpool_ok = blocks.iter().all(|b| {
            b.gpool
                .as_ref()
                .is_none_or(|g| g.inputs == 2 * channels && g.outputs == channels)
        });
        let d = heads.head_dim;
        let heads_ok = heads.value_conv.inputs == channels
            && heads.value_fc1.inputs == 2 * heads.value_conv.outputs
            && heads.value_fc2.outputs == 3
            && heads.material_fc.outputs == 1
            && heads.policy.inputs == channels
            && heads.policy.outputs == 4 * d
            && heads.shot.as_ref().is_none_or(|s| s.outputs == 2 * d)
            && heads.drop_context.inputs == 2 * channels
            && heads.drop_context.outputs == d
            && heads.promo_embed.len() == 3 * d;
        if !gpool_ok || !heads_ok || height == 0 || width == 0 {
            return Err("the heads or pooling layers do not fit the trunk".into());
        }
        let padded = CpuNet::padded_channels(channels);
        let fits = blocks
            .iter()
            .flat_map(|b| [&b.a, &b.b])
            .all(|conv| conv.bias.len() == padded && conv.weight.len() == 9 * channels * padded);
        if !fits {
            return Err(format!(
                "the convolutions are not laid out for {padded} padded channels"
            ));
        }
        Ok(CpuNet {
            height,
            width,
            channels,
            padded,
            blocks,
            heads,
            bf16: false,
            isa: Isa::best().unwrap_or(Isa::Avx512),
        })
    }

    /// Runs the convolutions in bf16 (`true`, where [`bf16_available`]) or fp32. Returns
    /// whether they now run in bf16.
    pub fn set_bf16(&mut self, on: bool) -> bool {
        self.bf16 = on && bf16_available() && self.isa == Isa::Avx512;
        self.bf16
    }

    /// Runs the convolutions in `isa` where this CPU can (fp32 only for AVX2), so that a
    /// CPU with AVX-512 can check and time the narrower kernels too. Returns the
    /// instructions now used.
    pub fn set_isa(&mut self, isa: Isa) -> Isa {
        if isa.runs_here() {
            self.isa = isa;
            if isa == Isa::Avx2 {
                self.bf16 = false;
            }
        }
        self.isa
    }

    /// Squares of the board.
    fn squares(&self) -> usize {
        self.height * self.width
    }

    /// The pass from the stem's activations `stem` (`[B, squares, channels]`, after ReLU) to
    /// the move-scoring tables, the win/draw/loss probabilities `[B * 3]` and the material
    /// predictions `[B]`. Callers check [`available`] first; without AVX-512 or AVX2 it
    /// returns `None`.
    pub fn forward(&self, stem: &[f32]) -> Option<(MoveTables, Vec<f32>, Vec<f32>)> {
        let per = self.squares() * self.channels;
        if per == 0 || !stem.len().is_multiple_of(per) || !self.isa.runs_here() {
            return None;
        }
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: `runs_here()` confirmed the ISA's features on this CPU just above, and
            // `bf16` is set only with AVX-512 where `bf16_available()` confirmed AVX512-BF16.
            Some(unsafe {
                match (self.isa, self.bf16) {
                    (Isa::Avx512, true) => self.forward_bf16(stem),
                    (Isa::Avx512, false) => self.forward_fp32(stem),
                    (Isa::Avx2, _) => self.forward_avx2(stem),
                }
            })
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx2,fma")]
    fn forward_fp32(&self, stem: &[f32]) -> (MoveTables, Vec<f32>, Vec<f32>) {
        // SAFETY: the features the body needs are this function's.
        unsafe { self.run::<Avx512, false>(stem) }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bf16,avx2,fma")]
    fn forward_bf16(&self, stem: &[f32]) -> (MoveTables, Vec<f32>, Vec<f32>) {
        // SAFETY: the features the body needs are this function's.
        unsafe { self.run::<Avx512, true>(stem) }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    fn forward_avx2(&self, stem: &[f32]) -> (MoveTables, Vec<f32>, Vec<f32>) {
        // SAFETY: the features the body needs are this function's.
        unsafe { self.run::<Avx2, false>(stem) }
    }

    /// The batch's pass in `S`'s registers, the convolutions in bf16 when `BF16`.
    ///
    /// # Safety
    /// Needs `S`'s features, and AVX-512F with AVX512-BF16 when `BF16`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn run<S: Simd, const BF16: bool>(
        &self,
        stem: &[f32],
    ) -> (MoveTables, Vec<f32>, Vec<f32>) {
        let (c, squares) = (self.channels, self.squares());
        let b = stem.len() / (squares * c);
        let d = self.heads.head_dim;
        let padded_len = (self.height + 2) * (self.width + 2) * self.padded;
        let mut buf = Buffers {
            x: vec![0.0; padded_len],
            h: vec![0.0; padded_len],
            y: vec![0.0; padded_len],
            xb: if BF16 {
                vec![0; padded_len]
            } else {
                Vec::new()
            },
        };
        let mut trunk = vec![0.0f32; squares * c];
        let mut square_embed = Vec::with_capacity(b * squares * 4 * d);
        let mut shot_embed = self
            .heads
            .shot
            .as_ref()
            .map(|_| Vec::with_capacity(b * squares * 2 * d));
        let mut drop_context = Vec::with_capacity(b * d);
        let mut wdl = Vec::with_capacity(3 * b);
        let mut material = Vec::with_capacity(b);
        for rows in stem.chunks_exact(squares * c) {
            // SAFETY: the caller's features.
            unsafe { self.trunk::<S, BF16>(rows, &mut buf, &mut trunk) };
            self.heads_of(
                &trunk,
                &mut square_embed,
                shot_embed.as_mut(),
                &mut drop_context,
                &mut wdl,
                &mut material,
            );
        }
        let tables = MoveTables {
            squares,
            dim: d,
            square_embed,
            shot_embed,
            drop_embed: self.heads.drop_embed.clone(),
            drop_context,
            promo_embed: self.heads.promo_embed.clone(),
        };
        (tables, wdl, material)
    }

    /// The residual blocks of one position: `rows` the stem's activations, `out` the trunk's
    /// output, both `[squares, channels]`.
    ///
    /// # Safety
    /// Needs `S`'s features, and AVX-512F with AVX512-BF16 when `BF16`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn trunk<S: Simd, const BF16: bool>(
        &self,
        rows: &[f32],
        buf: &mut Buffers,
        out: &mut [f32],
    ) {
        let (c, cp, pw) = (self.channels, self.padded, self.width + 2);
        let interior = |sq: usize| ((sq / self.width + 1) * pw + sq % self.width + 1) * cp;
        for (sq, row) in rows.chunks_exact(c).enumerate() {
            buf.x[interior(sq)..][..c].copy_from_slice(row);
        }
        for blk in &self.blocks {
            unsafe { self.conv::<S, BF16>(&blk.a, &buf.x, &mut buf.xb, &mut buf.h) };
            for sq in 0..self.squares() {
                buf.h[interior(sq)..][..cp]
                    .iter_mut()
                    .for_each(|v| *v = v.max(0.0));
            }
            if let Some(g) = &blk.gpool {
                let pooled = self.pool(&buf.h, c, &interior);
                let mut bias = vec![0.0; c];
                g.apply(&pooled, &mut bias);
                for sq in 0..self.squares() {
                    buf.h[interior(sq)..][..c]
                        .iter_mut()
                        .zip(&bias)
                        .for_each(|(v, b)| *v += b);
                }
            }
            unsafe { self.conv::<S, BF16>(&blk.b, &buf.h, &mut buf.xb, &mut buf.y) };
            for sq in 0..self.squares() {
                let at = interior(sq);
                buf.y[at..][..cp]
                    .iter_mut()
                    .zip(&buf.x[at..][..cp])
                    .for_each(|(v, r)| *v = (*v + r).max(0.0));
            }
            std::mem::swap(&mut buf.x, &mut buf.y);
        }
        for (sq, row) in out.chunks_exact_mut(c).enumerate() {
            row.copy_from_slice(&buf.x[interior(sq)..][..c]);
        }
    }

    /// Mean and max over the board of the first `c` channels of each square's row (at
    /// `at(square)`): `[mean(c), max(c)]`, as the network's global pooling.
    #[inline(always)]
    fn pool(&self, data: &[f32], c: usize, at: &dyn Fn(usize) -> usize) -> Vec<f32> {
        let mut out = vec![0.0; 2 * c];
        out[c..].fill(f32::NEG_INFINITY);
        for sq in 0..self.squares() {
            let row = &data[at(sq)..][..c];
            for (i, &v) in row.iter().enumerate() {
                out[i] += v;
                out[c + i] = out[c + i].max(v);
            }
        }
        let n = self.squares() as f32;
        out[..c].iter_mut().for_each(|v| *v /= n);
        out
    }

    /// The heads of one position from its trunk output (`[squares, channels]`), appended to
    /// the batch's tables.
    #[inline(always)]
    fn heads_of(
        &self,
        trunk: &[f32],
        square_embed: &mut Vec<f32>,
        shot_embed: Option<&mut Vec<f32>>,
        drop_context: &mut Vec<f32>,
        wdl: &mut Vec<f32>,
        material: &mut Vec<f32>,
    ) {
        let h = &self.heads;
        let c = self.channels;
        let rows = |sq: usize| sq * c;
        let pooled = self.pool(trunk, c, &rows);
        // Value: a 1x1 convolution, ReLU, pooled, two dense layers.
        let vc = h.value_conv.outputs;
        let mut v = vec![0.0; self.squares() * vc];
        for (sq, out) in v.chunks_exact_mut(vc).enumerate() {
            h.value_conv.apply(&trunk[sq * c..][..c], out);
            out.iter_mut().for_each(|x| *x = x.max(0.0));
        }
        let vpooled = self.pool(&v, vc, &|sq| sq * vc);
        let mut hidden = vec![0.0; h.value_fc1.outputs];
        h.value_fc1.apply(&vpooled, &mut hidden);
        hidden.iter_mut().for_each(|x| *x = x.max(0.0));
        let mut logits = [0.0f32; 3];
        h.value_fc2.apply(&hidden, &mut logits);
        let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let e = logits.map(|l| (l - top).exp());
        let sum: f32 = e.iter().sum();
        wdl.extend(e.iter().map(|x| x / sum));
        let mut m = [0.0f32; 1];
        h.material_fc.apply(&hidden, &mut m);
        material.push(m[0].tanh());
        // Policy: per-square embeddings, and the drop context from the pooled trunk.
        let width = h.policy.outputs;
        let at = square_embed.len();
        square_embed.resize(at + self.squares() * width, 0.0);
        for (sq, out) in square_embed[at..].chunks_exact_mut(width).enumerate() {
            h.policy.apply(&trunk[sq * c..][..c], out);
        }
        if let (Some(shot), Some(embed)) = (&h.shot, shot_embed) {
            let width = shot.outputs;
            let at = embed.len();
            embed.resize(at + self.squares() * width, 0.0);
            for (sq, out) in embed[at..].chunks_exact_mut(width).enumerate() {
                shot.apply(&trunk[sq * c..][..c], out);
            }
        }
        let at = drop_context.len();
        drop_context.resize(at + h.head_dim, 0.0);
        h.drop_context.apply(&pooled, &mut drop_context[at..]);
    }

    /// `out = conv(inp)` on the board's interior (the padding of `out` is left as it is: 0);
    /// in bf16, `inp` is first rounded into `scratch`.
    ///
    /// # Safety
    /// Needs `S`'s features, and AVX-512F with AVX512-BF16 when `BF16`; `inp` and `out` are
    /// padded boards of this network's shape, `scratch` as long as `inp` when `BF16`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn conv<S: Simd, const BF16: bool>(
        &self,
        conv: &Conv3,
        inp: &[f32],
        scratch: &mut [u16],
        out: &mut [f32],
    ) {
        let groups = self.padded / S::LANES;
        let geo = Geometry {
            width: self.width,
            c: self.channels,
            cp: self.padded,
        };
        assert!(inp.len() >= (self.height + 2) * (self.width + 2) * self.padded);
        assert!(out.len() == inp.len());
        assert!(self.padded.is_multiple_of(S::LANES));
        if BF16 {
            assert!(scratch.len() == inp.len() && inp.len().is_multiple_of(16));
            // SAFETY: AVX512-BF16 is the caller's; whole registers of `inp` and `scratch`.
            unsafe {
                for (src, dst) in inp.chunks_exact(16).zip(scratch.chunks_exact_mut(16)) {
                    let v = _mm512_cvtneps_pbh(_mm512_loadu_ps(src.as_ptr()));
                    let bits = std::mem::transmute::<__m256bh, __m256i>(v);
                    _mm256_storeu_si256(dst.as_mut_ptr() as *mut __m256i, bits);
                }
            }
        }
        for y in 0..self.height {
            let mut g = 0;
            while g < groups {
                let v = registers::<S>(groups - g);
                let mut x = 0;
                while x < self.width {
                    let at = Step { y, x, g };
                    let left = self.width - x;
                    // SAFETY: the caller's features; every index stays on the padded board.
                    x += unsafe {
                        if BF16 {
                            avx512_tiles!(conv_run_bf16; conv, scratch, out, geo, at, v, left)
                        } else {
                            step::<S>(conv, inp, out, geo, at, v, left)
                        }
                    };
                }
                g += v;
            }
        }
    }
}

/// One instruction set's registers of floats, as the convolution kernels use them.
///
/// # Safety
/// Every method needs the instruction set's features on the CPU.
#[cfg(target_arch = "x86_64")]
trait Simd {
    /// A register.
    type R: Copy;
    /// Floats in a register.
    const LANES: usize;
    unsafe fn zero() -> Self::R;
    unsafe fn load(p: *const f32) -> Self::R;
    unsafe fn store(p: *mut f32, r: Self::R);
    unsafe fn splat(x: f32) -> Self::R;
    /// `a * b + c`.
    unsafe fn fmadd(a: Self::R, b: Self::R, c: Self::R) -> Self::R;
}

/// [`Simd`] for one instruction set, from its register type, width and intrinsics.
#[cfg(target_arch = "x86_64")]
macro_rules! simd {
    ($isa:ident, $r:ty, $lanes:expr, $zero:ident, $load:ident, $store:ident, $splat:ident, $fmadd:ident) => {
        impl Simd for $isa {
            type R = $r;
            const LANES: usize = $lanes;
            #[inline(always)]
            unsafe fn zero() -> $r {
                unsafe { $zero() }
            }
            #[inline(always)]
            unsafe fn load(p: *const f32) -> $r {
                unsafe { $load(p) }
            }
            #[inline(always)]
            unsafe fn store(p: *mut f32, r: $r) {
                unsafe { $store(p, r) }
            }
            #[inline(always)]
            unsafe fn splat(x: f32) -> $r {
                unsafe { $splat(x) }
            }
            #[inline(always)]
            unsafe fn fmadd(a: $r, b: $r, c: $r) -> $r {
                unsafe { $fmadd(a, b, c) }
            }
        }
    };
}

/// AVX-512: 32 registers of 16 floats. A tile of two registers of output channels by nine
/// squares holds 18 accumulators, two weight registers and a broadcast.
#[cfg(target_arch = "x86_64")]
struct Avx512;

#[cfg(target_arch = "x86_64")]
simd!(
    Avx512,
    __m512,
    16,
    _mm512_setzero_ps,
    _mm512_loadu_ps,
    _mm512_storeu_ps,
    _mm512_set1_ps,
    _mm512_fmadd_ps
);

/// AVX2: 16 registers of 8 floats. Three registers of output channels by three squares (9
/// accumulators, three weights, a broadcast), two by six, or one by eight. Three by four
/// (all 16 registers) left one accumulator spilled to memory in every step of the sum, and
/// ran at about 60% of the FMA units' rate.
#[cfg(target_arch = "x86_64")]
struct Avx2;

#[cfg(target_arch = "x86_64")]
simd!(
    Avx2,
    __m256,
    8,
    _mm256_setzero_ps,
    _mm256_loadu_ps,
    _mm256_storeu_ps,
    _mm256_set1_ps,
    _mm256_fmadd_ps
);

/// How many registers of output channels a step computes when `left` remain: AVX-512's
/// twos; AVX2's threes while they leave no lone register (four as two and two).
#[cfg(target_arch = "x86_64")]
fn registers<S: Simd>(left: usize) -> usize {
    match (S::LANES, left) {
        (16, _) => left.min(2),
        (_, 1 | 2) => left,
        (_, 4) => 2,
        _ => 3,
    }
}

/// One fp32 convolution step of `v` registers of output channels over as many of the `left`
/// squares as fit `S`'s tiles; returns the squares done.
///
/// # Safety
/// As [`conv_run`].
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn step<S: Simd>(
    conv: &Conv3,
    inp: &[f32],
    out: &mut [f32],
    geo: Geometry,
    at: Step,
    v: usize,
    left: usize,
) -> usize {
    unsafe {
        if S::LANES == 16 {
            return avx512_tiles!(conv_run, S; conv, inp, out, geo, at, v, left);
        }
        match (v, left) {
            (3, l) if l >= 3 => conv_run::<S, 3, 3>(conv, inp, out, geo, at),
            (3, _) => conv_run::<S, 3, 1>(conv, inp, out, geo, at),
            (2, l) if l >= 6 => conv_run::<S, 2, 6>(conv, inp, out, geo, at),
            (2, l) if l >= 3 => conv_run::<S, 2, 3>(conv, inp, out, geo, at),
            (2, _) => conv_run::<S, 2, 1>(conv, inp, out, geo, at),
            (_, l) if l >= 8 => conv_run::<S, 1, 8>(conv, inp, out, geo, at),
            (_, l) if l >= 4 => conv_run::<S, 1, 4>(conv, inp, out, geo, at),
            (_, _) => conv_run::<S, 1, 1>(conv, inp, out, geo, at),
        }
    }
}

/// The board's shape as the convolution step reads it.
#[derive(Clone, Copy)]
struct Geometry {
    width: usize,
    /// Input channels.
    c: usize,
    /// Padded channels (the activations' stride).
    cp: usize,
}

/// Where a convolution step starts: row, first square, first register of output channels.
#[derive(Clone, Copy)]
struct Step {
    y: usize,
    x: usize,
    g: usize,
}

/// A tile of `N` squares by `V` registers of output channels, each square's holding the
/// convolution's bias.
///
/// # Safety
/// Needs `S`'s features; registers `at.g..at.g + V` must lie within the padded channels.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn bias_tile<S: Simd, const V: usize, const N: usize>(
    conv: &Conv3,
    at: Step,
) -> [[S::R; V]; N] {
    let b = conv.bias.as_ptr();
    let mut acc = [[unsafe { S::zero() }; V]; N];
    for row in acc.iter_mut() {
        for (v, sum) in row.iter_mut().enumerate() {
            // SAFETY: the caller's features and bounds.
            *sum = unsafe { S::load(b.add((at.g + v) * S::LANES)) };
        }
    }
    acc
}

/// Writes a tile of sums to its squares of the padded board at `op`.
///
/// # Safety
/// Needs `S`'s features; `at` and `geo` must describe squares and channels inside the board.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn store_tile<S: Simd, const V: usize, const N: usize>(
    acc: &[[S::R; V]; N],
    op: *mut f32,
    geo: Geometry,
    at: Step,
) {
    let pw = geo.width + 2;
    for (n, row) in acc.iter().enumerate() {
        let ob = ((at.y + 1) * pw + at.x + n + 1) * geo.cp + at.g * S::LANES;
        for (v, &sum) in row.iter().enumerate() {
            // SAFETY: the caller's features and bounds.
            unsafe { S::store(op.add(ob + v * S::LANES), sum) };
        }
    }
}

/// `N` squares of row `at.y` from `at.x`, `V` registers of output channels from register
/// `at.g`: bias plus the nine taps' sums, each tap's weights loaded once for all `N` squares.
/// Returns `N`.
///
/// # Safety
/// Needs `S`'s features; `at` and `geo` must describe squares and channels inside `inp` and
/// `out`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
#[allow(clippy::needless_range_loop)] // fixed-size register tiles, unrolled by the compiler
unsafe fn conv_run<S: Simd, const V: usize, const N: usize>(
    conv: &Conv3,
    inp: &[f32],
    out: &mut [f32],
    geo: Geometry,
    at: Step,
) -> usize {
    let pw = geo.width + 2;
    let (ip, wp, op) = (inp.as_ptr(), conv.weight.as_ptr(), out.as_mut_ptr());
    unsafe {
        let mut acc = bias_tile::<S, V, N>(conv, at);
        for dy in 0..3 {
            for dx in 0..3 {
                let wb = (dy * 3 + dx) * geo.c * geo.cp + at.g * S::LANES;
                let ib = ((at.y + dy) * pw + at.x + dx) * geo.cp;
                for ci in 0..geo.c {
                    let mut wv = [S::zero(); V];
                    for v in 0..V {
                        wv[v] = S::load(wp.add(wb + ci * geo.cp + v * S::LANES));
                    }
                    for n in 0..N {
                        let x = S::splat(*ip.add(ib + n * geo.cp + ci));
                        for v in 0..V {
                            acc[n][v] = S::fmadd(x, wv[v], acc[n][v]);
                        }
                    }
                }
            }
        }
        store_tile::<S, V, N>(&acc, op, geo, at);
    }
    N
}

/// [`conv_run`] with bf16 inputs and weights: each instruction multiplies two input channels
/// by 16 output channels' weights and adds both products to fp32 sums.
///
/// # Safety
/// Needs AVX-512F and AVX512-BF16; `at` and `geo` must describe squares and channels inside
/// `inp` and `out`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
#[allow(clippy::needless_range_loop)] // fixed-size register tiles, unrolled by the compiler
unsafe fn conv_run_bf16<const V: usize, const N: usize>(
    conv: &Conv3,
    inp: &[u16],
    out: &mut [f32],
    geo: Geometry,
    at: Step,
) -> usize {
    const LANES: usize = 16;
    let pw = geo.width + 2;
    let pairs = geo.c.div_ceil(2);
    let (ip, wp, op) = (inp.as_ptr(), conv.weight_bf16.as_ptr(), out.as_mut_ptr());
    unsafe {
        let mut acc = bias_tile::<Avx512, V, N>(conv, at);
        for dy in 0..3 {
            for dx in 0..3 {
                let wb = ((dy * 3 + dx) * pairs * geo.cp + at.g * LANES) * 2;
                let ib = ((at.y + dy) * pw + at.x + dx) * geo.cp;
                for k in 0..pairs {
                    let mut wv =
                        [std::mem::transmute::<__m512i, __m512bh>(_mm512_setzero_si512()); V];
                    for v in 0..V {
                        let w = _mm512_loadu_si512(
                            wp.add(wb + (k * geo.cp + v * LANES) * 2) as *const __m512i
                        );
                        wv[v] = std::mem::transmute::<__m512i, __m512bh>(w);
                    }
                    for n in 0..N {
                        let pair = (ip.add(ib + n * geo.cp + 2 * k) as *const i32).read_unaligned();
                        let x = std::mem::transmute::<__m512i, __m512bh>(_mm512_set1_epi32(pair));
                        for v in 0..V {
                            acc[n][v] = _mm512_dpbf16_ps(acc[n][v], x, wv[v]);
                        }
                    }
                }
            }
        }
        store_tile::<Avx512, V, N>(&acc, op, geo, at);
    }
    N
}
