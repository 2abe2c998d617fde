//! `koma arena`: a match between two players, with the results table and Elo.

use anyhow::Context;
use clap::Args;
use koma_arena::{run_hand_matches, run_match, GameRecord, MatchConfig, PlayerSpec};
use koma_rules::load_variant;

/// Options of `koma arena`.
#[derive(Debug, Args)]
pub struct ArenaArgs {
    /// Built-in variant id (e.g. hand-shogi) or path to a variant TOML file (default: the
    /// variant of the first model player's checkpoint, else hand-shogi).
    #[arg(long)]
    pub variant: Option<String>,
    /// Player A (scores and Elo are A's): random, greedy,
    /// alphabeta:depth=N[:millis=T][:contempt=C] (the classical baseline; C what a draw costs
    /// it, in mean piece values, so that above 0 it plays on instead of repeating),
    /// model:PATH[:sims=N][:gumbel][:material=W][:draw=D] (PATH:
    /// checkpoint stem or its .json/.safetensors file; sims default 400; D what a draw is
    /// worth to the player, -1 to 1, below 0 it avoids draws), or an external engine: uci:CMD,
    /// usi:CMD or xboard:CMD, then settings after ';': go=LIMITS
    /// (e.g. "depth 3", "nodes 1000", "movetime 200"; XBoard: "st 1"), option:NAME=VALUE,
    /// variant=NAME, searchmoves=0, timeout=SECONDS.
    #[arg(long = "a", value_name = "PLAYER")]
    pub a: PlayerSpec,
    /// Player B, in the same form as player A.
    #[arg(long = "b", value_name = "PLAYER")]
    pub b: PlayerSpec,
    /// Games to play: an even number (pairs of one opening played with each colour).
    #[arg(long, required_unless_present = "matches", conflicts_with = "matches")]
    pub games: Option<usize>,
    /// Play this many matches as Hand Shogi's rules define them instead of single games: a
    /// match is won by the first player to win two hands (games) in a row, the first move
    /// alternating between hands; A moves first in the first hand of even-numbered matches.
    #[arg(long)]
    pub matches: Option<usize>,
    /// With --matches: a match still undecided after this many hands is drawn.
    #[arg(long, default_value_t = 10, requires = "matches")]
    pub max_hands: usize,
    /// Random plies from the start position that make each pair's opening.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: u32,
    /// Seed of the openings, the baseline players and the searches.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// CPU threads for the network. One is fastest for small networks and on busy machines
    /// (idle threads of libtorch spin); raise it for large networks on an idle machine.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Number format of model players' networks: auto (bf16 on a CPU with native bf16, fp16
    /// on CUDA, else fp32), fp32, bf16 or fp16.
    #[arg(long, default_value = "auto")]
    pub precision: koma_model::PrecisionChoice,
    /// Position text to start from instead of the variant's start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Adjudicate a draw at this many plies, before the variant's own limit.
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// Most games in flight at once (default: all); fewer means smaller batches but less
    /// memory for search trees.
    #[arg(long)]
    pub concurrent: Option<usize>,
    /// Write every game to this file, one line each: index (with --matches: the match, its
    /// winner and the hand), A's colour, result, then the moves from the start position (the
    /// opening first), so that games can be replayed with `koma moves --moves ...` or read.
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,
}

/// Plays the match and prints the results table.
/// The variant of the first model player's checkpoint, as `koma play` and `koma-engine` take
/// theirs from the model.
fn model_variant(players: &[&PlayerSpec]) -> anyhow::Result<Option<String>> {
    for p in players {
        if let PlayerSpec::Model(m) = p {
            let meta = koma_model::Model::read_meta(&m.stem)
                .with_context(|| format!("model player {}", m.stem.display()))?;
            return Ok(Some(meta.variant));
        }
    }
    Ok(None)
}

pub fn run(a: ArenaArgs) -> anyhow::Result<()> {
    super::signals::stop_engines_on_signal()?;
    let variant = load_variant(&match &a.variant {
        Some(v) => v.clone(),
        None => model_variant(&[&a.a, &a.b])?.unwrap_or_else(|| "hand-shogi".into()),
    })?;
    let mut cfg = MatchConfig::new(variant, a.a, a.b, a.games.unwrap_or(0));
    cfg.opening_plies = a.opening_plies;
    cfg.seed = a.seed;
    cfg.threads = Some(a.threads);
    cfg.precision = a.precision;
    cfg.start = a.fen;
    cfg.max_plies = a.max_plies;
    cfg.concurrency = a.concurrent;
    let mut text = String::new();
    if let Some(matches) = a.matches {
        let report = run_hand_matches(&cfg, matches, a.max_hands)?;
        println!("{report}");
        for (m, result) in report.matches.iter().enumerate() {
            let winner = match result.winner {
                Some(0) => "A",
                Some(_) => "B",
                None => "none",
            };
            for (h, g) in result.hands.iter().enumerate() {
                text.push_str(&format!("match {m} winner={winner} hand {h} "));
                text.push_str(&game_line(g));
            }
        }
    } else {
        let report = run_match(&cfg)?;
        println!("{report}");
        for g in &report.games {
            text.push_str(&format!("game {} ", g.index));
            text.push_str(&game_line(g));
        }
    }
    if let Some(path) = &a.record {
        std::fs::write(path, text)
            .with_context(|| format!("writing the games to {}", path.display()))?;
    }
    Ok(())
}

/// One game of the record file: A's colour, the result, then every move.
fn game_line(g: &GameRecord) -> String {
    let forfeit = g
        .forfeit
        .as_ref()
        .map(|f| format!(" forfeit=\"{f}\""))
        .unwrap_or_default();
    format!(
        "a={:?} result=\"{}\"{forfeit} moves: {}\n",
        g.a_color,
        g.outcome,
        g.moves.join(" ")
    )
}
