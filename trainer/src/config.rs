//! Training settings and the whole-run configuration file.

use koma_model::Arch;
use koma_model::PrecisionChoice;
use koma_selfplay::SelfplayConfig;
use serde::{Deserialize, Serialize};

/// How the trainer samples, optimises, publishes and checkpoints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrainerConfig {
    /// Positions per training step.
    pub batch_size: usize,
    /// Learning rate after warm-up.
    pub learning_rate: f64,
    /// Steps of linear warm-up.
    pub warmup_steps: u64,
    /// Share of a limited run (by its minutes, or its steps where a step limit ends it) over
    /// whose last part the learning rate falls, along a half cosine, to `anneal_final` of
    /// itself; 0 keeps it constant to the end. The limits are this invocation's `--minutes`
    /// and `--steps`; a run with neither (or only `--games`) never falls. Off in every preset:
    /// in 25-minute Hand Shogi runs a fall over the last 30% lost Elo against a constant rate
    /// (docs/experiments.md).
    pub anneal_fraction: f64,
    /// The learning rate at the end of a limited run, as a share of `learning_rate`.
    pub anneal_final: f64,
    /// SGD momentum (Nesterov).
    pub momentum: f64,
    /// Decoupled weight decay of the weights (not of biases and norms).
    pub weight_decay: f64,
    /// Weight of the value loss.
    pub value_weight: f64,
    /// Share of the search's root value in the value target, the rest being the game result:
    /// the root value is a far less noisy target than one game's result (Leela Chess Zero's
    /// q-ratio), and it carries what the search knows about material from the first games.
    pub value_target_q: f64,
    /// Half-life in plies of a decisive result in the value target: a position `d` plies
    /// before the end of a won (lost) game gets `0.5^(d / half_life)` of a win (loss), the
    /// rest as a draw; 0 keeps the whole result. The value then rises as a win comes nearer
    /// (what a moves-left head gives Leela Chess Zero's search), so the search prefers moves
    /// that bring the end closer over moves that only keep the advantage, and a won game ends
    /// in a win rather than at the length limit. Left out, it is a fifth of the variant's
    /// maximum game length (80 plies in Hand Shogi, 400 in Ko Shogi), so that the first
    /// positions of a game that runs long still see a share of its result.
    pub value_half_life: Option<f64>,
    /// Weight of the material loss (squared error of the predicted balance).
    pub material_weight: f64,
    /// Plies ahead of a position at which its material target is taken: far enough to count
    /// the exchanges under way, near enough to follow from the position.
    pub material_horizon: usize,
    /// The replay window: most recent positions sampled from.
    pub window_positions: usize,
    /// Training starts when the window holds this many positions.
    pub min_positions: usize,
    /// Samples trained per new self-play position; the trainer waits for data above it.
    pub target_ratio: f64,
    /// Publish a model every this many steps.
    pub publish_every: u64,
    /// Save a full checkpoint every this many steps.
    pub checkpoint_every: u64,
    /// Remove chunks from the store once they have left the replay window (each worker's
    /// newest chunk is kept: workers continue their numbering from it).
    pub delete_old_chunks: bool,
    /// Number format of the training passes' convolutions: `fp32` (the reference), `bf16`
    /// (mixed precision: the convolutions' products are rounded to bfloat16, while weights,
    /// gradients, normalisations, heads and the optimiser stay in fp32; on the CPU the stem
    /// is summed from sparse inputs in fp32), `fp16`, or `auto` (fp16 on CUDA; bf16 on a CPU
    /// with native bf16 where it measures faster than fp32, else fp32).
    pub precision: String,
    /// Share of each batch drawn from the games of `koma teach` (chunks whose worker id
    /// begins with `teacher_prefix`), which are then held in a pool of their own instead of
    /// the replay window, so that self-play never pushes them out: a supervised start stays
    /// in every batch while self-play goes on from it. 0 (every preset) takes teacher games
    /// into the window like any worker's.
    pub teacher_share: f64,
    /// The worker-id prefix that marks teacher chunks (`koma teach --worker-id`'s default).
    pub teacher_prefix: String,
    /// Positions the teacher pool holds (the newest kept) when `teacher_share` is above 0.
    pub teacher_positions: usize,
}

impl TrainerConfig {
    /// Whether `worker`'s chunks belong to the teacher pool rather than the replay window.
    pub fn is_teacher_worker(&self, worker: &str) -> bool {
        self.teacher_share > 0.0 && worker.starts_with(&self.teacher_prefix)
    }

    /// The half-life of decisive results in the value targets of `variant`'s games
    /// ([`TrainerConfig::value_half_life`], or its default).
    pub fn value_half_life_for(&self, variant: &koma_rules::Variant) -> f64 {
        self.value_half_life
            .unwrap_or(variant.rules.max_plies as f64 / 5.0)
    }
}

impl Default for TrainerConfig {
    fn default() -> Self {
        TrainerConfig {
            batch_size: 128,
            learning_rate: 0.02,
            warmup_steps: 50,
            anneal_fraction: 0.0,
            anneal_final: 0.1,
            momentum: 0.9,
            weight_decay: 1e-4,
            value_weight: 1.0,
            value_target_q: 0.5,
            value_half_life: None,
            material_weight: 1.0,
            material_horizon: 8,
            window_positions: 50_000,
            min_positions: 1_000,
            target_ratio: 4.0,
            publish_every: 100,
            checkpoint_every: 100,
            delete_old_chunks: false,
            precision: "fp32".into(),
            teacher_share: 0.0,
            teacher_prefix: koma_store::TEACHER_WORKER_PREFIX.into(),
            teacher_positions: 200_000,
        }
    }
}

/// A whole training run's configuration: `configs/train/*.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// Variant id (or variant file) this preset is for.
    pub variant: String,
    /// `auto`, `cpu` or `cuda[:N]`.
    #[serde(default = "default_device")]
    pub device: String,
    /// libtorch threads per process (0: half the cores, at least 1).
    #[serde(default)]
    pub torch_threads: usize,
    /// Number format of self-play's network: `auto` (fp16 on CUDA; on a CPU the fastest of
    /// libtorch, in bf16 where the CPU has native bf16 and it measures faster than fp32, and,
    /// with AVX-512, koma's own loops in fp32 or bf16, timed on the model at its first load),
    /// `fp32`, `bf16` or `fp16` (on a CPU with AVX-512, fp32 and bf16 run in the loops).
    /// Training has its own setting, `[trainer] precision`.
    #[serde(default = "default_precision")]
    pub precision: String,
    /// Network.
    pub model: Arch,
    /// Self-play.
    #[serde(default)]
    pub selfplay: SelfplayConfig,
    /// Trainer.
    #[serde(default)]
    pub trainer: TrainerConfig,
}

fn default_device() -> String {
    "auto".into()
}

fn default_precision() -> String {
    "auto".into()
}

/// Built-in presets, embedded so `koma train` needs no file.
const PRESETS: &[(&str, &str)] = &[
    (
        "hand-shogi-cpu",
        include_str!("../../configs/train/hand-shogi-cpu.toml"),
    ),
    (
        "hand-shogi-gpu",
        include_str!("../../configs/train/hand-shogi-gpu.toml"),
    ),
    (
        "shoko-shogi-cpu",
        include_str!("../../configs/train/shoko-shogi-cpu.toml"),
    ),
    (
        "shoko-shogi-gpu",
        include_str!("../../configs/train/shoko-shogi-gpu.toml"),
    ),
    (
        "gyaku-sama-shogi-cpu",
        include_str!("../../configs/train/gyaku-sama-shogi-cpu.toml"),
    ),
    (
        "gyaku-sama-shogi-gpu",
        include_str!("../../configs/train/gyaku-sama-shogi-gpu.toml"),
    ),
    (
        "hook-shogi-cpu",
        include_str!("../../configs/train/hook-shogi-cpu.toml"),
    ),
    (
        "hook-shogi-gpu",
        include_str!("../../configs/train/hook-shogi-gpu.toml"),
    ),
    (
        "ko-shogi-cpu",
        include_str!("../../configs/train/ko-shogi-cpu.toml"),
    ),
    (
        "ko-shogi-gpu",
        include_str!("../../configs/train/ko-shogi-gpu.toml"),
    ),
    (
        "chu-shogi-cpu",
        include_str!("../../configs/train/chu-shogi-cpu.toml"),
    ),
    (
        "chu-shogi-gpu",
        include_str!("../../configs/train/chu-shogi-gpu.toml"),
    ),
    (
        "dai-shogi-cpu",
        include_str!("../../configs/train/dai-shogi-cpu.toml"),
    ),
    (
        "dai-shogi-gpu",
        include_str!("../../configs/train/dai-shogi-gpu.toml"),
    ),
    (
        "tenjiku-shogi-cpu",
        include_str!("../../configs/train/tenjiku-shogi-cpu.toml"),
    ),
    (
        "tenjiku-shogi-gpu",
        include_str!("../../configs/train/tenjiku-shogi-gpu.toml"),
    ),
];

impl RunConfig {
    /// Parses a configuration; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> anyhow::Result<RunConfig> {
        let cfg: RunConfig = toml::from_str(text).map_err(|e| {
            let at = e.span().map_or(0, |s| s.start).min(text.len());
            let line = text[..at].matches('\n').count() + 1;
            // The line itself, so that a wrong value is shown with the key it was given to.
            match text.lines().nth(line - 1).map(str::trim) {
                Some(src) if !src.is_empty() => {
                    anyhow::anyhow!("{file}:{line}: {} (in `{src}`)", e.message())
                }
                _ => anyhow::anyhow!("{file}:{line}: {}", e.message()),
            }
        })?;
        cfg.precision_choice()
            .map_err(|e| anyhow::anyhow!("{file}: {e}"))?;
        cfg.training_precision_choice()
            .map_err(|e| anyhow::anyhow!("{file}: [trainer] {e}"))?;
        let draw = cfg.selfplay.search.draw_score;
        if !(-1.0..=1.0).contains(&draw) {
            anyhow::bail!(
                "{file}: [selfplay.search] draw_score = {draw} is outside [-1, 1] (what a draw \
                 is worth to the searching side, between a loss and a win)"
            );
        }
        let mop_up = cfg.selfplay.search.mop_up;
        if !(0.0..=10.0).contains(&mop_up) {
            anyhow::bail!(
                "{file}: [selfplay.search] mop_up = {mop_up} is outside [0, 10] (what bringing a \
                 piece to the enemy royal is worth when far ahead, in shares of its value)"
            );
        }
        let tactics = cfg.selfplay.search.tactics_depth;
        if tactics > koma_mcts::MAX_TACTICS_DEPTH {
            anyhow::bail!(
                "{file}: [selfplay.search] tactics_depth = {tactics} is outside 0 to {} (plies of \
                 the tactics check; 0, off, is what self-play is meant to run)",
                koma_mcts::MAX_TACTICS_DEPTH
            );
        }
        let t = &cfg.trainer;
        for (key, value, what) in [
            (
                "anneal_fraction",
                t.anneal_fraction,
                "the share of the run over which the learning rate falls",
            ),
            (
                "anneal_final",
                t.anneal_final,
                "the share of the learning rate left at the run's end",
            ),
            (
                "teacher_share",
                t.teacher_share,
                "the share of each batch drawn from teacher games",
            ),
        ] {
            if !(0.0..=1.0).contains(&value) {
                anyhow::bail!("{file}: [trainer] {key} = {value} is outside [0, 1] ({what})");
            }
        }
        if t.teacher_share > 0.0 && t.teacher_prefix.is_empty() {
            anyhow::bail!(
                "{file}: [trainer] teacher_prefix is empty: with teacher_share above 0 it would \
                 take every worker's games for teacher games"
            );
        }
        Ok(cfg)
    }

    /// The self-play network's number format as configured.
    pub fn precision_choice(&self) -> Result<PrecisionChoice, koma_model::precision::BadPrecision> {
        self.precision.parse()
    }

    /// The training passes' number format as configured (`[trainer] precision`).
    pub fn training_precision_choice(
        &self,
    ) -> Result<PrecisionChoice, koma_model::precision::BadPrecision> {
        self.trainer.precision.parse()
    }

    /// The embedded preset for a variant and device class (`cpu` or `gpu`).
    pub fn preset(variant: &str, class: &str) -> Option<RunConfig> {
        let name = format!("{variant}-{class}");
        PRESETS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(n, t)| RunConfig::parse(t, n).expect("embedded presets parse"))
    }

    /// Names of the embedded presets.
    pub fn preset_names() -> Vec<&'static str> {
        PRESETS.iter().map(|(n, _)| *n).collect()
    }

    /// The libtorch thread count to use.
    pub fn threads(&self) -> i32 {
        if self.torch_threads > 0 {
            self.torch_threads as i32
        } else {
            let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
            (cores / 2).max(1) as i32
        }
    }
}
