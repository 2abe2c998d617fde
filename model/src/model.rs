//! A network bound to a variant and a device: batched evaluation and checkpoints.

use crate::arch::Arch;
use crate::cpu_net::{CpuNet, Isa};
use crate::encoding::{Encoder, Features, Request, MOVE_FIELDS};
use crate::error::ModelError;
use crate::move_scoring::MoveTables;
use crate::net::{segment_log_softmax, Net, Outputs};
use crate::precision::{Inference, Precision, PrecisionChoice};
use crate::sparse_stem::SparseStem;
use crate::sparse_stem_training::StemIndices;
use crate::stem_reach::Reach;
use koma_mcts::{Evaluation, Evaluator};
use koma_rules::{Move, Position, Variant};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tch::{nn, Device, Kind, Tensor};

/// Version of the checkpoint layout.
pub const FORMAT: u32 = 2;

/// Metadata stored beside the weights of every checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelMeta {
    /// Checkpoint layout version.
    pub format: u32,
    /// Variant id.
    pub variant: String,
    /// Architecture.
    pub arch: Arch,
    /// Input planes (derived from the variant; checked on load).
    pub planes: usize,
    /// Training steps behind these weights.
    pub step: u64,
    /// Self-play games seen by the trainer when these weights were saved.
    pub games: u64,
}

/// A batch as tensors.
#[derive(Debug)]
pub struct Batch {
    /// The positions' inputs.
    pub input: BatchInput,
    /// [M, 1 + MOVE_FIELDS]: position in batch, then the move index fields.
    pub moves: Tensor,
    /// Position in batch of each move, [M].
    pub seg: Tensor,
    /// Index of each move within its position, [M].
    pub slot: Tensor,
    /// Moves per position.
    pub counts: Vec<usize>,
    /// Largest move count.
    pub width: i64,
}

/// A batch's network inputs.
#[derive(Debug)]
pub enum BatchInput {
    /// The dense planes, `[B, planes, H, W]`.
    Planes(Tensor),
    /// The sparse features laid out for the stem ([`Model::training_batch`] on the CPU).
    Features(StemIndices),
}

/// A network for one variant on one device.
#[derive(Debug)]
pub struct Model {
    vs: nn::VarStore,
    net: Net,
    encoder: Encoder,
    /// Metadata (step and games are updated by the trainer).
    pub meta: ModelMeta,
    /// Set once the model is prepared for inference.
    precision: Option<Precision>,
    /// The pass after the stem in plain loops, where chosen ([`Model::prepare_to_play`]).
    cpu_net: Option<CpuNet>,
    /// The stem read from sparse inputs, once the model is prepared for inference on the CPU.
    sparse_stem: Option<SparseStem>,
    /// Where the stem's taps land on this board, for training batches' sparse inputs.
    stem_reach: Reach,
}

impl Model {
    /// A freshly initialised network.
    pub fn new(variant: &Arc<Variant>, arch: &Arch, device: Device) -> Model {
        let encoder = Encoder::new(variant);
        let vs = nn::VarStore::new(device);
        let net = Net::new(
            &vs.root(),
            arch,
            encoder.planes() as i64,
            encoder.hand_kinds() as i64,
            encoder.has_shots(),
        );
        Model {
            meta: ModelMeta {
                format: FORMAT,
                variant: variant.id.clone(),
                arch: arch.clone(),
                planes: encoder.planes(),
                step: 0,
                games: 0,
            },
            vs,
            net,
            precision: None,
            cpu_net: None,
            sparse_stem: None,
            stem_reach: {
                let (h, w) = encoder.shape();
                Reach::new(h as usize, w as usize)
            },
            encoder,
        }
    }

    /// Prepares the model to play, not to train: batch normalisation folded into the
    /// convolutions, the trunk in `precision` (and on the CPU in the channels-last layout).
    /// The weights of the variable store are left as they are, so the model still saves the
    /// same checkpoint; it must not be trained any more.
    ///
    /// On the CPU the first convolution is then computed from the requests' sparse features
    /// ([`SparseStem`]), in fp32 whatever the trunk's format; on a CPU with AVX-512 or AVX2
    /// (AVX512-BF16 for bf16) the rest of the pass runs in koma's loops ([`CpuNet`]), which
    /// compute the same sums faster than libtorch at every batch size measured on the AMD
    /// host with AVX-512.
    pub fn optimize_for_inference(&mut self, precision: Precision) {
        let loops = self.loops_possible(precision);
        self.prepare_inference(precision, loops);
    }

    /// Prepares the model to play with the format `choice` asks for: a fixed format as
    /// [`Model::optimize_for_inference`]; `auto` on a CPU with AVX-512 or AVX2 times this network
    /// through libtorch (in the format its own probe picks) and through koma's loops in
    /// fp32 and, where the CPU has AVX512-BF16, bf16 ([`crate::loops_probe`]), and keeps the
    /// fastest, since which wins depends on the board, the batch and the CPU. Returns how
    /// the model now runs. The probe times a batch of 16 positions, between play's batches
    /// and self-play's; a caller that knows its batches uses [`Model::prepare_to_play_at`].
    pub fn prepare_to_play(&mut self, choice: PrecisionChoice) -> Inference {
        self.prepare_to_play_at(choice, crate::loops_probe::DEFAULT_BATCH)
    }

    /// [`Model::prepare_to_play`] for a model that will evaluate batches of about `batch`
    /// positions (a self-play evaluator's), the batch `auto` then times.
    pub fn prepare_to_play_at(&mut self, choice: PrecisionChoice, batch: usize) -> Inference {
        let device = self.device();
        let precision = choice.resolve(device);
        if choice == PrecisionChoice::Auto && self.loops_possible(Precision::Fp32) {
            let key = format!("{} {:?}", self.meta.variant, self.meta.arch);
            let bf16_loops = self.loops_possible(Precision::Bf16);
            let batch = crate::loops_probe::probe_batch(batch);
            let requests = self.probe_requests(batch);
            let refs: Vec<&Request> = requests.iter().collect();
            let (p, loops) =
                crate::loops_probe::fastest(key, batch, precision, bf16_loops, |p, loops| {
                    self.prepare_inference(p, loops);
                    self.fastest_pass_us(&refs)
                });
            self.prepare_inference(p, loops);
        } else {
            self.optimize_for_inference(precision);
        }
        self.inference().unwrap_or(Inference::Tensors(precision))
    }

    /// The fastest of several evaluations of `requests`, in microseconds, after two to warm
    /// up: what [`crate::loops_probe`] compares.
    fn fastest_pass_us(&self, requests: &[&Request]) -> f64 {
        crate::bf16_probe::fastest_us(2, 6, || {
            std::hint::black_box(self.evaluate_requests(requests));
        })
    }

    /// `n` positions a few moves into the game (a different legal move each time), so that a
    /// timed batch holds different boards.
    fn probe_requests(&self, n: usize) -> Vec<Request> {
        let mut pos = Position::start(self.encoder.variant());
        (0..n)
            .map(|i| {
                let moves = pos.legal_moves();
                let request = self.prepare(&pos, &moves);
                if let Some(&mv) = moves.get(i * 7 % moves.len().max(1)) {
                    if pos.outcome().is_none() {
                        pos.make_move(mv);
                    }
                }
                request
            })
            .collect()
    }

    /// How the model runs its inference pass, once prepared.
    pub fn inference(&self) -> Option<Inference> {
        self.precision.map(|p| {
            if self.cpu_net.is_some() {
                Inference::Loops(p)
            } else {
                Inference::Tensors(p)
            }
        })
    }

    /// Whether the loops can run this model in `precision`: on the CPU, with AVX-512 or AVX2
    /// (AVX512-BF16 for bf16).
    pub(crate) fn loops_possible(&self, precision: Precision) -> bool {
        self.device() == Device::Cpu
            && match precision {
                Precision::Fp32 => crate::cpu_net::available(),
                Precision::Bf16 => crate::cpu_net::bf16_available(),
                Precision::Fp16 => false,
            }
    }

    /// Folds the network for `precision`, builds the sparse stem on the CPU and, with
    /// `loops` (where the CPU can run them in `precision`), the loops after it. For
    /// benchmarks and tests that compare the ways; [`Model::prepare_to_play`] chooses.
    pub fn prepare_inference(&mut self, precision: Precision, loops: bool) {
        let cpu = self.device() == Device::Cpu;
        self.net.fold(precision.kind(), cpu);
        self.sparse_stem = None;
        self.cpu_net = None;
        if cpu {
            let (weight, bias) = self.net.stem_folded();
            match SparseStem::new(&weight, &bias, &self.encoder) {
                Ok(stem) => self.sparse_stem = Some(stem),
                // Not reachable with a network built for this encoder; the tensor path
                // still plays.
                Err(e) => tracing::error!("no sparse stem ({e}); the CPU plays through tensors"),
            }
        }
        if loops && self.sparse_stem.is_some() && self.loops_possible(precision) {
            let (h, w) = self.encoder.shape();
            match self.net.cpu_net(h as usize, w as usize) {
                Ok(mut net) => {
                    net.set_bf16(precision == Precision::Bf16);
                    self.cpu_net = Some(net);
                }
                Err(e) => {
                    tracing::error!("no inference loops ({e}); the CPU plays through tensors")
                }
            }
        }
        self.precision = Some(precision);
    }

    /// Runs the loops' convolutions in `isa` where the CPU can (one with AVX-512 runs the
    /// AVX2 kernels too), for the tests and benchmarks that compare them. Returns the
    /// instructions now used, or `None` where the model does not run in the loops.
    pub fn set_loops_isa(&mut self, isa: Isa) -> Option<Isa> {
        self.cpu_net.as_mut().map(|net| net.set_isa(isa))
    }

    /// Runs the convolutions of training passes in `precision` (mixed precision: weights,
    /// gradients and the optimiser stay in fp32). fp32 is the default and the reference.
    pub fn set_training_precision(&mut self, precision: Precision) {
        self.net.set_training_kind(precision.kind());
    }

    /// The precision the model plays in, once prepared for inference.
    pub fn precision(&self) -> Option<Precision> {
        self.precision
    }

    /// The input encoder.
    pub fn encoder(&self) -> &Encoder {
        &self.encoder
    }

    /// The variables, for the optimiser.
    pub fn var_store(&self) -> &nn::VarStore {
        &self.vs
    }

    /// Mutable variables (loading weights into a live model).
    pub fn var_store_mut(&mut self) -> &mut nn::VarStore {
        &mut self.vs
    }

    /// The device the weights live on.
    pub fn device(&self) -> Device {
        self.vs.device()
    }

    /// Encodes a position and its legal moves.
    pub fn prepare(&self, pos: &Position, moves: &[Move]) -> Request {
        self.encoder.request(pos, moves, None)
    }

    /// The requests' input planes stacked into one tensor, `[B, planes, H, W]`, on the CPU.
    pub fn input_tensor(&self, requests: &[&Request]) -> Tensor {
        let (h, w) = self.encoder.shape();
        let b = requests.len();
        let len = self.encoder.input_len();
        let mut input = vec![0.0; b * len];
        for (r, planes) in requests.iter().zip(input.chunks_exact_mut(len)) {
            self.encoder.scatter(&r.features, planes);
        }
        Tensor::from_slice(&input).reshape([b as i64, self.encoder.planes() as i64, h, w])
    }

    /// Stacks requests into tensors on the model's device, the inputs as dense planes.
    pub fn batch(&self, requests: &[&Request]) -> Batch {
        self.batch_with(requests, false)
    }

    /// A batch for training passes: on the CPU the inputs stay sparse and the stem is summed
    /// from them ([`crate::sparse_stem_training`]; give the loss to [`Model::backward`]),
    /// elsewhere as [`Model::batch`].
    pub fn training_batch(&self, requests: &[&Request]) -> Batch {
        self.batch_with(requests, self.device() == Device::Cpu)
    }

    fn batch_with(&self, requests: &[&Request], sparse: bool) -> Batch {
        let b = requests.len();
        let mut rows = Vec::new();
        let mut seg = Vec::new();
        let mut slot = Vec::new();
        let mut counts = Vec::with_capacity(b);
        for (i, r) in requests.iter().enumerate() {
            for (j, m) in r.moves.iter().enumerate() {
                rows.push(i as i64);
                rows.extend_from_slice(m);
                seg.push(i as i64);
                slot.push(j as i64);
            }
            counts.push(r.moves.len());
        }
        let dev = self.device();
        let m = seg.len() as i64;
        // The uniform planes' part of the sparse stem is also what gives its weight a
        // gradient to add the sparse part to; every encoder has them (the constant plane).
        let input = if sparse && !self.encoder.uniform_planes().is_empty() {
            let features: Vec<&Features> = requests.iter().map(|r| &r.features).collect();
            BatchInput::Features(StemIndices::new(&features, &self.stem_reach, &self.encoder))
        } else {
            BatchInput::Planes(self.input_tensor(requests).to_device(dev))
        };
        Batch {
            input,
            moves: Tensor::from_slice(&rows)
                .reshape([m, 1 + MOVE_FIELDS as i64])
                .to_device(dev),
            seg: Tensor::from_slice(&seg).to_device(dev),
            slot: Tensor::from_slice(&slot).to_device(dev),
            width: counts.iter().copied().max().unwrap_or(1).max(1) as i64,
            counts,
        }
    }

    /// Forward pass on a batch (training mode updates batch-norm statistics).
    pub fn forward(&self, batch: &Batch, train: bool) -> Outputs {
        match &batch.input {
            BatchInput::Planes(x) => self.net.forward(x, &batch.moves, train),
            BatchInput::Features(f) => self.net.forward_sparse(f, &batch.moves, train),
        }
    }

    /// Back-propagates `loss`, computed from the training pass `out`: autograd, then the
    /// stem's kernel gradient where the pass read sparse inputs. Every training step must
    /// come through here rather than `loss.backward()` alone.
    pub fn backward(&self, loss: &Tensor, out: &Outputs) -> Result<(), ModelError> {
        loss.f_backward()?;
        if let Some(tape) = &out.stem_tape {
            self.net.finish_backward(tape)?;
        }
        Ok(())
    }

    /// The stem's activations of a batch at CPU inference, computed from the requests'
    /// sparse features (`None` for a model not prepared to play on the CPU): what `koma bench
    /// --profile` times as the network's input stage.
    pub fn stem_activations(&self, requests: &[&Request]) -> Option<Tensor> {
        let features: Vec<_> = requests.iter().map(|r| &r.features).collect();
        self.sparse_stem.as_ref().map(|s| s.forward(&features))
    }

    /// The residual blocks at inference from the stem's activations, without the heads: what
    /// `koma bench --profile` times as the trunk.
    pub fn trunk_features(&self, stem: &Tensor) -> Tensor {
        tch::no_grad(|| self.net.blocks_at_inference(stem.shallow_clone()))
    }

    /// Move log-probabilities (flat, per move) of a forward pass.
    pub fn move_log_probs(&self, out: &Outputs, batch: &Batch) -> Tensor {
        segment_log_softmax(
            &out.move_logits,
            &batch.seg,
            &batch.slot,
            batch.counts.len() as i64,
            batch.width,
        )
    }

    /// Evaluates prepared positions in one forward pass.
    pub fn evaluate_requests(&self, requests: &[&Request]) -> Vec<Evaluation> {
        if requests.is_empty() {
            return Vec::new();
        }
        if let (Some(net), Some(stem)) = (&self.cpu_net, &self.sparse_stem) {
            let features: Vec<_> = requests.iter().map(|r| &r.features).collect();
            let out = net
                .forward(&stem.rows(&features))
                .ok_or_else(|| "the loops did not run".to_string());
            return self.evaluations_from_tables(requests, out);
        }
        if let Some(stem) = self.stem_activations(requests) {
            return self.evaluate_on_cpu(requests, &stem);
        }
        tch::no_grad(|| {
            let batch = self.batch(requests);
            let out = self.forward(&batch, false);
            let probs: Vec<f32> = self
                .move_log_probs(&out, &batch)
                .exp()
                .to_device(Device::Cpu)
                .try_into()
                .unwrap_or_default();
            let wdl: Vec<f32> = out
                .wdl_logits
                .softmax(1, Kind::Float)
                .to_device(Device::Cpu)
                .reshape([-1])
                .try_into()
                .unwrap_or_default();
            let material: Vec<f32> = out
                .material
                .to_device(Device::Cpu)
                .reshape([-1])
                .try_into()
                .unwrap_or_default();
            let moves: usize = batch.counts.iter().sum();
            if probs.len() != moves
                || wdl.len() != 3 * batch.counts.len()
                || material.len() != batch.counts.len()
            {
                // A failed conversion: fall back to uniform priors and an even value rather
                // than stopping the search (the search normalises empty priors).
                tracing::error!("network output of unexpected size; using uniform evaluations");
                return batch.counts.iter().map(|_| Evaluation::neutral()).collect();
            }
            let mut at = 0;
            batch
                .counts
                .iter()
                .enumerate()
                .map(|(i, &n)| {
                    let priors = probs
                        .get(at..at + n)
                        .map(|s| s.to_vec())
                        .unwrap_or_default();
                    at += n;
                    Evaluation {
                        priors,
                        wdl: [wdl[3 * i], wdl[3 * i + 1], wdl[3 * i + 2]],
                        material: material[i],
                    }
                })
                .collect()
        })
    }

    /// The inference pass of a model prepared to play on the CPU, from the stem's activations
    /// ([`SparseStem`]): the network's tensors up to the per-square move embeddings, then
    /// each move's score and the softmax in plain loops ([`MoveTables`]), with no per-move
    /// tensors.
    fn evaluate_on_cpu(&self, requests: &[&Request], stem: &Tensor) -> Vec<Evaluation> {
        let tables = tch::no_grad(|| self.net.infer_tables(stem)).map_err(|e| e.to_string());
        self.evaluations_from_tables(requests, tables)
    }

    /// Each request's evaluation from the move-scoring tables and values of its batch.
    fn evaluations_from_tables(
        &self,
        requests: &[&Request],
        tables: Result<(MoveTables, Vec<f32>, Vec<f32>), String>,
    ) -> Vec<Evaluation> {
        let b = requests.len();
        let evaluations = tables.and_then(|(tables, wdl, material)| {
            if wdl.len() != 3 * b || material.len() != b {
                return Err(format!("{} values for {b} positions", material.len()));
            }
            requests
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    Ok(Evaluation {
                        priors: tables
                            .priors(i, &r.moves)
                            .map_err(|_| format!("a move of position {i} outside the tables"))?,
                        wdl: [wdl[3 * i], wdl[3 * i + 1], wdl[3 * i + 2]],
                        material: material[i],
                    })
                })
                .collect::<Result<Vec<_>, String>>()
        });
        evaluations.unwrap_or_else(|e| {
            // As in the tensor path: uniform priors and an even value rather than a stopped
            // search (the search normalises empty priors).
            tracing::error!("network output unusable ({e}); using uniform evaluations");
            requests.iter().map(|_| Evaluation::neutral()).collect()
        })
    }

    /// Paths of the two files of checkpoint `stem`: weights and metadata. The stem may also be
    /// given as either file's path; other dots in the name are kept (`step-1.5`).
    pub fn files(stem: &Path) -> (PathBuf, PathBuf) {
        let s = stem.to_string_lossy();
        let base = s
            .strip_suffix(".safetensors")
            .or_else(|| s.strip_suffix(".json"))
            .unwrap_or(&s);
        (
            PathBuf::from(format!("{base}.safetensors")),
            PathBuf::from(format!("{base}.json")),
        )
    }

    /// Writes the weights (safetensors) and metadata (JSON) to `stem`.safetensors / .json.
    pub fn save(&self, stem: &Path) -> Result<(), ModelError> {
        let (weights, meta) = Model::files(stem);
        self.vs.save(&weights)?;
        let json = serde_json::to_string_pretty(&self.meta).expect("metadata serialises");
        std::fs::write(&meta, json).map_err(|source| ModelError::Io {
            file: meta.display().to_string(),
            source,
        })
    }

    /// Reads a checkpoint's metadata.
    pub fn read_meta(stem: &Path) -> Result<ModelMeta, ModelError> {
        let (_, meta) = Model::files(stem);
        let file = meta.display().to_string();
        let text = std::fs::read_to_string(&meta).map_err(|source| ModelError::Io {
            file: file.clone(),
            source,
        })?;
        serde_json::from_str(&text).map_err(|e| ModelError::Corrupt {
            file,
            reason: e.to_string(),
        })
    }

    /// Loads checkpoint `stem` for `variant`, optionally insisting on an architecture.
    pub fn load(
        stem: &Path,
        variant: &Arc<Variant>,
        expected_arch: Option<&Arch>,
        device: Device,
    ) -> Result<Model, ModelError> {
        let (weights, meta_file) = Model::files(stem);
        let meta = Model::read_meta(stem)?;
        let file = meta_file.display().to_string();
        if meta.variant != variant.id {
            return Err(ModelError::WrongVariant {
                file,
                expected: variant.id.clone(),
                found: meta.variant,
            });
        }
        if meta.format != FORMAT {
            // Layouts differ in heads and inputs: such weights cannot be loaded, only retrained.
            return Err(ModelError::WrongArchitecture {
                file,
                expected: format!("checkpoint format {FORMAT}"),
                found: format!("checkpoint format {}", meta.format),
            });
        }
        if let Some(a) = expected_arch {
            if *a != meta.arch {
                return Err(ModelError::WrongArchitecture {
                    file,
                    expected: format!("{a:?}"),
                    found: format!("{:?}", meta.arch),
                });
            }
        }
        let mut model = Model::new(variant, &meta.arch, device);
        if meta.planes != model.encoder.planes() {
            return Err(ModelError::WrongArchitecture {
                file,
                expected: format!("{} input planes", model.encoder.planes()),
                found: format!("{} input planes", meta.planes),
            });
        }
        model.load_weights(&weights)?;
        model.meta = meta;
        Ok(model)
    }

    /// Replaces the weights with those of a safetensors file of the same architecture.
    pub fn load_weights(&mut self, weights: &Path) -> Result<(), ModelError> {
        self.vs.load(weights).map_err(|e| ModelError::Corrupt {
            file: weights.display().to_string(),
            reason: e.to_string(),
        })?;
        // A model prepared for inference plays with the new weights too, the same way.
        if let Some(p) = self.precision {
            self.prepare_inference(p, self.cpu_net.is_some());
        }
        Ok(())
    }
}

impl Evaluator for Model {
    type Request = Request;

    fn prepare(&self, pos: &Position, moves: &[Move]) -> Request {
        Model::prepare(self, pos, moves)
    }

    fn evaluate(&self, batch: Vec<Request>) -> Vec<Evaluation> {
        let refs: Vec<&Request> = batch.iter().collect();
        self.evaluate_requests(&refs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_positions::{random_positions, seeded_torch};
    use koma_rules::load_variant;
    use koma_rules::variant::builtin_ids;

    /// The loss of one training pass over `requests` and the gradient of every variable,
    /// from the dense planes (`sparse` false) or the sparse features.
    fn pass(model: &Model, requests: &[Request], sparse: bool) -> (Tensor, Vec<Tensor>) {
        let refs: Vec<&Request> = requests.iter().collect();
        let batch = if sparse {
            model.training_batch(&refs)
        } else {
            model.batch(&refs)
        };
        assert_eq!(matches!(batch.input, BatchInput::Features(_)), sparse);
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
        let _generator = seeded_torch(11);
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
