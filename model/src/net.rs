//! The network: a size-agnostic residual trunk with global-pooling bias blocks, a WDL value
//! head and a material head (the balance a few plies ahead) from global pooling, and a policy
//! head that scores each legal move from per-square
//! embeddings of its origin, first and last kill squares and destination (plus learned drop and
//! promotion terms, and for variants that shoot, the square a shot is fired from and its
//! target), so its cost follows the number of legal moves, not the board area squared.

use crate::arch::Arch;
use crate::cpu_net::{Block as CpuBlock, Conv3, CpuNet, Dense, Heads};
use crate::error::ModelError;
use crate::move_scoring::MoveTables;
use crate::sparse_stem_training::{stem_convolution, StemIndices, StemTape};
use tch::nn::{self, Module, ModuleT};
use tch::{Kind, TchError, Tensor};

#[derive(Debug)]
struct ConvBn {
    conv: nn::Conv2D,
    bn: nn::BatchNorm,
    /// The convolution with the batch normalisation folded in, for inference
    /// ([`Net::fold`]).
    folded: Option<Folded>,
}

/// A convolution whose batch normalisation is folded into its weights and bias (at inference
/// the normalisation is a fixed affine map per channel), stored in the inference number
/// format and, for 3x3 kernels, in the channels-last layout that oneDNN's fast kernels want.
#[derive(Debug)]
struct Folded {
    weight: Tensor,
    bias: Tensor,
    padding: i64,
}

/// A tensor with the same values in the channels-last layout (NHWC in memory): libtorch picks
/// its layout from the strides, so a permuted copy is enough.
fn channels_last(t: &Tensor) -> Tensor {
    t.permute([0, 2, 3, 1]).contiguous().permute([0, 3, 1, 2])
}

impl ConvBn {
    fn new(p: nn::Path, cin: i64, cout: i64, k: i64) -> ConvBn {
        let cfg = nn::ConvConfig {
            padding: k / 2,
            bias: false,
            ..Default::default()
        };
        ConvBn {
            conv: nn::conv2d(&p / "conv", cin, cout, k, cfg),
            bn: nn::batch_norm2d(&p / "bn", cout, Default::default()),
            folded: None,
        }
    }

    /// `train_kind` is the convolution's number format in a training pass: in bf16 the
    /// weights and input are cast for the convolution alone (autograd carries the gradient
    /// back through the casts to the fp32 weights), and the normalisation runs in fp32.
    fn forward(&self, x: &Tensor, train: bool, train_kind: Kind) -> Tensor {
        match (&self.folded, train) {
            (Some(f), false) => x.conv2d(
                &f.weight,
                Some(&f.bias),
                [1, 1],
                [f.padding, f.padding],
                [1, 1],
                1,
            ),
            _ if train && train_kind != Kind::Float => {
                let pad = self.conv.ws.size()[2] / 2;
                let y = x.to_kind(train_kind).conv2d(
                    &self.conv.ws.to_kind(train_kind),
                    None::<Tensor>,
                    [1, 1],
                    [pad, pad],
                    [1, 1],
                    1,
                );
                self.bn.forward_t(&y.to_kind(Kind::Float), train)
            }
            _ => self.bn.forward_t(&self.conv.forward(x), train),
        }
    }

    /// The batch normalisation alone, on a convolution's output `y` computed elsewhere.
    fn normalise(&self, y: &Tensor, train: bool) -> Tensor {
        self.bn.forward_t(y, train)
    }

    /// A folded 1x1 convolution as a matrix `[out, in]` and its bias, for inputs taken one
    /// row per square.
    fn folded_matrix(&self) -> Result<(Tensor, Tensor), TchError> {
        let f = self
            .folded
            .as_ref()
            .ok_or_else(|| TchError::Kind("the convolution is not folded".into()))?;
        let s = f.weight.size();
        Ok((
            f.weight.to_kind(Kind::Float).contiguous().view([s[0], -1]),
            f.bias.to_kind(Kind::Float),
        ))
    }

    /// Folds the batch normalisation (its running statistics) into the convolution, in
    /// `kind`: y = gamma (conv(x) - mean) / sqrt(var + eps) + beta.
    fn fold(&mut self, kind: Kind, layout_last: bool) {
        let (weight, bias) = self.folded_fp32();
        let weight = weight.to_kind(kind);
        self.folded = Some(Folded {
            weight: if layout_last {
                channels_last(&weight)
            } else {
                weight
            },
            bias: bias.to_kind(kind),
            padding: self.conv.ws.size()[2] / 2,
        });
    }

    /// The folded weight (in the convolution's own layout) and bias, in fp32.
    fn folded_fp32(&self) -> (Tensor, Tensor) {
        tch::no_grad(|| {
            let eps = nn::BatchNormConfig::default().eps;
            let bn = &self.bn;
            let gamma = bn
                .ws
                .as_ref()
                .map_or_else(|| bn.running_var.ones_like(), |w| w.shallow_clone());
            let beta = bn
                .bs
                .as_ref()
                .map_or_else(|| bn.running_mean.zeros_like(), |b| b.shallow_clone());
            let scale = &gamma / (&bn.running_var + eps).sqrt();
            let weight = &self.conv.ws * scale.view([-1, 1, 1, 1]);
            let mut bias = &beta - &bn.running_mean * &scale;
            if let Some(b) = &self.conv.bs {
                bias += b * &scale;
            }
            (weight, bias)
        })
    }
}

#[derive(Debug)]
struct Block {
    a: ConvBn,
    b: ConvBn,
    gpool: Option<nn::Linear>,
}

/// Mean and max over the board, concatenated: [B, C, H, W] -> [B, 2C].
fn global_pool(x: &Tensor) -> Tensor {
    let mean = x.mean_dim([2i64, 3].as_slice(), false, Kind::Float);
    let max = x.amax([2i64, 3].as_slice(), false).to_kind(Kind::Float);
    Tensor::cat(&[mean, max], 1)
}

impl Block {
    /// The block in a training pass (batch statistics, autograd), its convolutions in
    /// `train_kind`.
    fn train(&self, x: &Tensor, train_kind: Kind) -> Tensor {
        let h = self.a.forward(x, true, train_kind).relu();
        // Not `+=`: an in-place add would overwrite a tensor autograd still needs.
        let h = match &self.gpool {
            Some(g) => {
                // The pooling bias in fp32 (a small linear layer), added in the trunk's format.
                let pooled = global_pool(&h).to_kind(Kind::Float);
                let bias = g.forward(&pooled).to_kind(h.kind());
                h + bias.unsqueeze(-1).unsqueeze(-1)
            }
            None => h,
        };
        (x + self.b.forward(&h, true, train_kind)).relu()
    }

    /// The same block at inference: no autograd, so the activations and the residual sum are
    /// done in place, sparing the trunk's largest tensors an allocation each. The residual
    /// stream `x` stays in fp32 and only the convolutions run in `kind`: summed in bf16 over
    /// every block, the stream's rounding would move the policy's preferred move.
    fn infer(&self, x: &Tensor, kind: Kind) -> Tensor {
        let mut h = self.a.forward(&x.to_kind(kind), false, Kind::Float);
        let _ = h.relu_();
        if let Some(g) = &self.gpool {
            let pooled = global_pool(&h).to_kind(Kind::Float);
            let bias = g.forward(&pooled).to_kind(h.kind());
            h += bias.unsqueeze(-1).unsqueeze(-1);
        }
        let mut y = self.b.forward(&h, false, Kind::Float).to_kind(Kind::Float);
        y += x;
        let _ = y.relu_();
        y
    }
}

/// Raw outputs of a forward pass.
#[derive(Debug)]
pub struct Outputs {
    /// One logit per move, in the order of the move index rows.
    pub move_logits: Tensor,
    /// Win/draw/loss logits per position, [B, 3].
    pub wdl_logits: Tensor,
    /// Predicted material balance per position, in (-1, 1), [B].
    pub material: Tensor,
    /// Where the stem ran from sparse features: what its weight's gradient still needs
    /// after the backward pass ([`Net::finish_backward`]).
    pub stem_tape: Option<StemTape>,
}

/// The network's modules.
#[derive(Debug)]
pub struct Net {
    stem: ConvBn,
    blocks: Vec<Block>,
    policy: nn::Conv2D,
    /// Embeddings of a shot's firing square and target (variants with shots only).
    shot: Option<nn::Conv2D>,
    drop_embed: Tensor,
    promo_embed: Tensor,
    drop_context: nn::Linear,
    value_conv: ConvBn,
    value_fc1: nn::Linear,
    value_fc2: nn::Linear,
    material_fc: nn::Linear,
    head_dim: i64,
    /// The trunk's number format and layout at inference, once [`Net::fold`] has run.
    inference: Option<(Kind, bool)>,
    /// The convolutions' number format in training passes ([`Net::set_training_kind`]).
    train_kind: Kind,
}

impl Net {
    /// Builds the modules under `p` for inputs of `planes` planes and `hand_kinds` droppable
    /// kinds; `shots` adds the policy's shot term.
    pub fn new(p: &nn::Path, arch: &Arch, planes: i64, hand_kinds: i64, shots: bool) -> Net {
        let c = arch.channels;
        let d = arch.head_dim;
        let blocks = (0..arch.blocks)
            .map(|i| {
                let bp = p / "blocks" / i;
                let gpool = (arch.gpool_every > 0 && (i + 1) % arch.gpool_every == 0)
                    .then(|| nn::linear(&bp / "gpool", 2 * c, c, Default::default()));
                Block {
                    a: ConvBn::new(&bp / "a", c, c, 3),
                    b: ConvBn::new(&bp / "b", c, c, 3),
                    gpool,
                }
            })
            .collect();
        let init = nn::Init::Randn {
            mean: 0.0,
            stdev: 0.1,
        };
        Net {
            stem: ConvBn::new(p / "stem", planes, c, 3),
            blocks,
            policy: nn::conv2d(p / "policy", c, 4 * d, 1, Default::default()),
            shot: shots.then(|| nn::conv2d(p / "shot", c, 2 * d, 1, Default::default())),
            drop_embed: p.var("drop_embed", &[hand_kinds.max(1), d], init),
            promo_embed: p.var("promo_embed", &[3, d], init),
            drop_context: nn::linear(p / "drop_context", 2 * c, d, Default::default()),
            value_conv: ConvBn::new(p / "value_conv", c, arch.value_channels, 1),
            value_fc1: nn::linear(
                p / "value_fc1",
                2 * arch.value_channels,
                arch.value_hidden,
                Default::default(),
            ),
            value_fc2: nn::linear(p / "value_fc2", arch.value_hidden, 3, Default::default()),
            material_fc: nn::linear(p / "material_fc", arch.value_hidden, 1, Default::default()),
            head_dim: d,
            inference: None,
            train_kind: Kind::Float,
        }
    }

    /// Prepares the network for inference only: every batch normalisation folded into its
    /// convolution, the trunk's weights in `kind` (bf16 or fp16 run the trunk at several times
    /// the speed of fp32 where the hardware has them) and, with `layout_last`, in the
    /// channels-last layout. The heads stay in fp32. A network that trains must not be folded:
    /// training reads the batch-norm layers themselves, and later changes to the weights would
    /// not reach the folded copies.
    pub fn fold(&mut self, kind: Kind, layout_last: bool) {
        self.stem.fold(kind, layout_last);
        for b in &mut self.blocks {
            b.a.fold(kind, layout_last);
            b.b.fold(kind, layout_last);
        }
        // The value head's 1x1 convolution runs in fp32 with the heads.
        self.value_conv.fold(Kind::Float, false);
        self.inference = Some((kind, layout_last));
    }

    /// Runs the convolutions of training passes in `kind` (fp32 by default). The weights,
    /// their gradients, the normalisations and the heads stay in fp32: only the products of
    /// the convolutions are rounded, as mixed-precision training does. The stem summed from
    /// sparse inputs ([`Net::forward_sparse`], CPU training) stays in fp32.
    pub fn set_training_kind(&mut self, kind: Kind) {
        self.train_kind = kind;
    }

    /// The stem's folded weight and bias in fp32, for the CPU inference pass's
    /// [`crate::sparse_stem::SparseStem`].
    pub fn stem_folded(&self) -> (Tensor, Tensor) {
        self.stem.folded_fp32()
    }

    /// The trunk's output in fp32, contiguous, for [`Net::forward`]: a training pass, or
    /// inference through tensors (CUDA, and the unfolded fp32 reference), where the input is
    /// first put in the folded trunk's format and layout.
    fn trunk(&self, x: &Tensor, train: bool) -> Tensor {
        let x = match (self.inference, train) {
            (Some((kind, last)), false) => {
                let x = x.to_kind(kind);
                if last {
                    channels_last(&x)
                } else {
                    x
                }
            }
            _ => x.shallow_clone(),
        };
        let h = self
            .stem
            .forward(&x, train, self.train_kind)
            .relu()
            .to_kind(Kind::Float);
        self.blocks(h, train).contiguous()
    }

    /// The residual blocks from the stem's activations `h`: a training pass, or inference.
    fn blocks(&self, h: Tensor, train: bool) -> Tensor {
        if train {
            self.blocks
                .iter()
                .fold(h, |h, blk| blk.train(&h, self.train_kind))
        } else {
            self.blocks_at_inference(h)
        }
    }

    /// The residual blocks at inference, from the stem's activations `h` (fp32) to the
    /// trunk's output (fp32), in the layout `h` has.
    pub fn blocks_at_inference(&self, h: Tensor) -> Tensor {
        let kind = self.inference.map_or(Kind::Float, |(kind, _)| kind);
        self.blocks
            .iter()
            .fold(h, |h, blk| blk.infer(&h, kind))
            .to_kind(Kind::Float)
    }

    /// Forward pass. `x`: [B, planes, H, W]; `moves`: [M, 9] rows of (position in batch,
    /// origin, destination, kill, promotion, drop kind, last kill, shot from, shot at) as
    /// built by the batch code.
    pub fn forward(&self, x: &Tensor, moves: &Tensor, train: bool) -> Outputs {
        let h = self.trunk(x, train);
        self.heads(&h, moves, train)
    }

    /// A pass from the requests' sparse features (CPU training): the stem's convolution
    /// from [`StemIndices`] (in fp32 whatever the training format), then the rest as
    /// [`Net::forward`] computes it. The outputs hold a [`StemTape`] that must be given the
    /// stem weight's gradient once the loss has been back-propagated
    /// ([`Net::finish_backward`]).
    pub fn forward_sparse(&self, input: &StemIndices, moves: &Tensor, train: bool) -> Outputs {
        let (conv, tape) = stem_convolution(&self.stem.conv.ws, input);
        let h = self.blocks(self.stem.normalise(&conv, train).relu(), train);
        let mut out = self.heads(&h.contiguous(), moves, train);
        out.stem_tape = Some(tape);
        out
    }

    /// Adds the sparse stem's kernel gradient (see [`Net::forward_sparse`]).
    pub fn finish_backward(&self, tape: &StemTape) -> Result<(), ModelError> {
        tape.accumulate(&self.stem.conv.ws)
    }

    /// The value, material and policy heads on the trunk's output `h` (fp32, contiguous).
    fn heads(&self, h: &Tensor, moves: &Tensor, train: bool) -> Outputs {
        let b = h.size()[0];
        let hw = h.size()[2] * h.size()[3];
        let pooled = global_pool(h);

        // Value: pooled features of a 1x1 convolution.
        let v = self.value_conv.forward(h, train, Kind::Float).relu();
        let v = self.value_fc1.forward(&global_pool(&v)).relu();
        let wdl_logits = self.value_fc2.forward(&v);
        let material = self.material_fc.forward(&v).squeeze_dim(1).tanh();

        // Policy: per-square embeddings q, k, u, w, gathered per move.
        let d = self.head_dim;
        let e = self
            .policy
            .forward(h)
            .reshape([b, 4 * d, hw])
            .permute([0, 2, 1])
            .reshape([b * hw, 4 * d]);
        let cols = |i: i64| moves.select(1, i);
        let (bi, origin, dest, kill, promo, dropk) =
            (cols(0), cols(1), cols(2), cols(3), cols(4), cols(5));
        let base = &bi * hw;
        let row = |sq: &Tensor| (&base + sq.clamp_min(0)).to_kind(Kind::Int64);
        let part = |t: &Tensor, i: i64| t.narrow(1, i * d, d);
        let q_board = part(&e, 0).index_select(0, &row(&origin));
        let k_dest = part(&e, 1).index_select(0, &row(&dest));
        let u_origin = part(&e, 2).index_select(0, &row(&origin));
        let w_kill = part(&e, 3).index_select(0, &row(&kill));
        let ctx = self.drop_context.forward(&pooled).index_select(0, &bi);
        let q_drop = self.drop_embed.index_select(0, &dropk.clamp_min(0)) + ctx;
        let is_drop = origin.lt(0).to_kind(Kind::Float).unsqueeze(1);
        let q = &q_board * (1.0 - &is_drop) + &q_drop * &is_drop;
        let has_kill = kill.ge(0).to_kind(Kind::Float);
        let scale = 1.0 / (d as f64).sqrt();
        let p_vec = self.promo_embed.index_select(0, &promo);
        let dot = |a: &Tensor, b: &Tensor| (a * b).sum_dim_intlist(1, false, Kind::Float);
        let mut terms = vec![
            dot(&(&q + &p_vec), &k_dest) * scale,
            dot(&u_origin, &w_kill) * has_kill * scale,
        ];
        // A move with several kills: its last kill scores like the first, with the same
        // embeddings, so variants without such moves keep their parameters.
        let last = cols(6);
        let has_last = last.ge(0).to_kind(Kind::Float);
        let w_last = part(&e, 3).index_select(0, &row(&last));
        terms.push(dot(&u_origin, &w_last) * has_last * scale);
        if let Some(shot) = &self.shot {
            let s = shot
                .forward(h)
                .reshape([b, 2 * d, hw])
                .permute([0, 2, 1])
                .reshape([b * hw, 2 * d]);
            let (from, at) = (cols(7), cols(8));
            let has_shot = from.ge(0).to_kind(Kind::Float);
            let s_from = s.narrow(1, 0, d).index_select(0, &row(&from));
            let s_at = s.narrow(1, d, d).index_select(0, &row(&at));
            terms.push(dot(&s_from, &s_at) * has_shot * scale);
        }
        // Summed out of place: autograd still needs every term.
        let logits = terms.into_iter().reduce(|a, b| a + b).expect("two terms");
        Outputs {
            move_logits: logits,
            wdl_logits,
            material,
            stem_tape: None,
        }
    }
}

impl Net {
    /// The inference pass for the CPU: the trunk and the value head as in [`Net::forward`],
    /// the policy's per-square embeddings copied out for [`MoveTables`] to score each move in
    /// plain loops. Returns the tables, the win/draw/loss probabilities `[B * 3]` and the
    /// material predictions `[B]`.
    ///
    /// `stem` is the stem's activations, `[B, C, H, W]` in the channels-last layout
    /// ([`crate::sparse_stem::SparseStem::forward`]). The heads' 1x1 convolutions run as
    /// matrix products over the trunk's output taken one row per square (`[B * H * W, C]`,
    /// the layout the trunk computes in), which gives the embeddings in the order the move
    /// scoring reads them, without a transposed copy.
    pub fn infer_tables(
        &self,
        stem: &Tensor,
    ) -> Result<(MoveTables, Vec<f32>, Vec<f32>), TchError> {
        let (b, height, width) = (stem.size()[0], stem.size()[2], stem.size()[3]);
        let trunk = self.blocks_at_inference(stem.shallow_clone());
        let c = trunk.size()[1];
        let h = trunk.permute([0, 2, 3, 1]).contiguous().view([-1, c]);
        // Rows back as a [B, C, H, W] view (no copy) for `global_pool`.
        let pool =
            |rows: &Tensor| global_pool(&rows.view([b, height, width, -1]).permute([0, 3, 1, 2]));
        let pooled = pool(&h);
        let (vw, vb) = self.value_conv.folded_matrix()?;
        let v = vb.addmm(&h, &vw.tr()).relu();
        let v = self.value_fc1.forward(&pool(&v)).relu();
        let wdl = flat(&self.value_fc2.forward(&v).softmax(1, Kind::Float))?;
        let material = flat(&self.material_fc.forward(&v).tanh())?;
        // A 1x1 convolution over the rows: [B * H * W, C] x [C, out].
        let rows_through = |conv: &nn::Conv2D| {
            let w = conv.ws.view([-1, c]).tr();
            match &conv.bs {
                Some(bias) => bias.addmm(&h, &w),
                None => h.mm(&w),
            }
        };
        let tables = MoveTables {
            squares: (height * width) as usize,
            dim: self.head_dim as usize,
            square_embed: flat(&rows_through(&self.policy))?,
            shot_embed: match &self.shot {
                Some(shot) => Some(flat(&rows_through(shot))?),
                None => None,
            },
            drop_embed: flat(&self.drop_embed)?,
            drop_context: flat(&self.drop_context.forward(&pooled))?,
            promo_embed: flat(&self.promo_embed)?,
        };
        Ok((tables, wdl, material))
    }
}

/// A tensor's values in memory order, as fp32 on the CPU.
fn flat(t: &Tensor) -> Result<Vec<f32>, TchError> {
    Vec::<f32>::try_from(
        t.to_device(tch::Device::Cpu)
            .to_kind(Kind::Float)
            .contiguous()
            .reshape([-1]),
    )
}

/// Log-softmax of move logits within each position: `seg` gives each move's position in the
/// batch, `slot` its index within that position, `width` the largest move count.
pub fn segment_log_softmax(
    logits: &Tensor,
    seg: &Tensor,
    slot: &Tensor,
    batch: i64,
    width: i64,
) -> Tensor {
    let flat = seg * width + slot;
    let padded = Tensor::full(
        [batch * width],
        f64::NEG_INFINITY,
        (Kind::Float, logits.device()),
    )
    .index_put(&[Some(flat.shallow_clone())], logits, false)
    .reshape([batch, width])
    .log_softmax(1, Kind::Float)
    .reshape([batch * width]);
    padded.index_select(0, &flat)
}

impl Net {
    /// The folded network after its stem as [`CpuNet`] loops, for a `height` x `width` board
    /// (call [`Net::fold`] first).
    pub fn cpu_net(&self, height: usize, width: usize) -> Result<CpuNet, String> {
        let e = |err: TchError| err.to_string();
        let c = self.stem.conv.ws.size()[0] as usize;
        let cp = CpuNet::padded_channels(c);
        let conv3 = |cb: &ConvBn| -> Result<Conv3, String> {
            let (w, b) = cb.folded_fp32();
            Conv3::new(c, cp, &flat(&w).map_err(e)?, &flat(&b).map_err(e)?)
        };
        let linear = |l: &nn::Linear| -> Result<Dense, String> {
            let s = l.ws.size();
            let bias = l.bs.as_ref().map(flat).transpose().map_err(e)?;
            Dense::new(
                s[0] as usize,
                s[1] as usize,
                &flat(&l.ws).map_err(e)?,
                bias.as_deref(),
            )
        };
        let one_by_one = |ws: &Tensor, bs: Option<&Tensor>| -> Result<Dense, String> {
            let s = ws.size();
            let bias = bs.map(flat).transpose().map_err(e)?;
            Dense::new(
                s[0] as usize,
                s[1] as usize,
                &flat(ws).map_err(e)?,
                bias.as_deref(),
            )
        };
        let blocks = self
            .blocks
            .iter()
            .map(|b| {
                Ok(CpuBlock {
                    a: conv3(&b.a)?,
                    b: conv3(&b.b)?,
                    gpool: b.gpool.as_ref().map(linear).transpose()?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let (vw, vb) = self.value_conv.folded_fp32();
        let heads = Heads {
            value_conv: one_by_one(&vw, Some(&vb))?,
            value_fc1: linear(&self.value_fc1)?,
            value_fc2: linear(&self.value_fc2)?,
            material_fc: linear(&self.material_fc)?,
            policy: one_by_one(&self.policy.ws, self.policy.bs.as_ref())?,
            shot: self
                .shot
                .as_ref()
                .map(|s| one_by_one(&s.ws, s.bs.as_ref()))
                .transpose()?,
            drop_context: linear(&self.drop_context)?,
            drop_embed: flat(&self.drop_embed).map_err(e)?,
            promo_embed: flat(&self.promo_embed).map_err(e)?,
            head_dim: self.head_dim as usize,
        };
        CpuNet::new(height, width, c, blocks, heads)
    }
}
