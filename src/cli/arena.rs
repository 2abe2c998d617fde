//! `koma arena`: a match between two players, with the results table and Elo.

use anyhow::Context;
use clap::Args;
use koma_arena::record_file::{game_line, game_text, header, read_record};
use koma_arena::{
    resume_match, run_hand_matches, run_match, ArenaError, GameRecord, MatchConfig, MatchReport,
    PlayerSpec,
};
use koma_rules::load_variant;
use std::io::Write;
use std::path::Path;

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
    /// model:PATH[:sims=N][:gumbel][:material=W][:relative=on|off][:mopup=M][:draw=D][:refute=R]
    /// [:cpuct=C][:fpu=F][:tactics=N]
    /// (PATH: checkpoint stem or its .json/.safetensors file; sims default 400; relative:
    /// material counted from the root's own lead, so a side far ahead still plays to win
    /// more; M: far ahead, each piece brought near the enemy royal counts up to M times its
    /// value; D what a draw is worth to the player, -1 to 1, below 0 it avoids draws; R the
    /// nodes of the check of the move chosen for a forced mate by the opponent, 20000 by
    /// default, 0 off; C PUCT's exploration constant, 1.25 by default; F the first-play
    /// urgency's reduction, 0.2 by default; N the plies of the tactics check of the move chosen,
    /// an alpha-beta search on material that replaces a move scoring more than a mean piece
    /// value below its best, 0 off and by default), or an external
    /// engine: uci:CMD, usi:CMD or xboard:CMD, then settings
    /// after ';': go=LIMITS
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
    /// Number format of model players' networks: auto (fp16 on CUDA; bf16 on a CPU with
    /// native bf16 where it measures faster than fp32, else fp32), fp32, bf16 or fp16.
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
    /// Write every game to this file as it ends: a header line naming the match, then one
    /// line per game (with --matches: the match, its winner and the hand, written at the end):
    /// index, A's colour, result, then the moves from the start position (the opening first),
    /// so that games can be replayed with `koma moves --moves ...` or read. An existing file
    /// is started over unless --resume is given.
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,
    /// Take up the match in the --record file where it was cut off: its finished games are
    /// kept and counted, only the others are played. The file must have been written by the
    /// same match (variant, players, games, openings, seed, length limit); a missing file
    /// starts the match afresh.
    #[arg(long, requires = "record", conflicts_with = "matches")]
    pub resume: bool,
}

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

/// Plays the match and prints the results table.
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
    if let Some(matches) = a.matches {
        return play_hand_matches(&cfg, matches, a.max_hands, a.record.as_deref());
    }
    let report = match &a.record {
        Some(path) => play_recorded(&cfg, path, a.resume)?,
        None => run_match(&cfg)?,
    };
    println!("{report}");
    Ok(())
}

/// Plays matches as Hand Shogi's rules define them and writes every hand to `record` at the
/// end.
fn play_hand_matches(
    cfg: &MatchConfig,
    matches: usize,
    max_hands: usize,
    record: Option<&Path>,
) -> anyhow::Result<()> {
    let report = run_hand_matches(cfg, matches, max_hands)?;
    println!("{report}");
    let Some(path) = record else {
        return Ok(());
    };
    let mut text = String::new();
    for (m, result) in report.matches.iter().enumerate() {
        let winner = match result.winner {
            Some(0) => "A",
            Some(_) => "B",
            None => "none",
        };
        for (h, g) in result.hands.iter().enumerate() {
            text.push_str(&format!("match {m} winner={winner} hand {h} "));
            text.push_str(&game_text(g));
        }
    }
    std::fs::write(path, text).with_context(|| format!("writing the games to {}", path.display()))
}

/// Plays the match with every game written to `path` as it ends, after the games already
/// there when resuming; at the end the file is rewritten in game order. The file is first
/// touched when the first game ends, so a match that fails to start leaves it as it was.
fn play_recorded(cfg: &MatchConfig, path: &Path, resume: bool) -> anyhow::Result<MatchReport> {
    let done = if resume {
        read_kept(cfg, path)?
    } else {
        Vec::new()
    };
    let kept = done.clone();
    let mut file: Option<std::fs::File> = None;
    let report = resume_match(cfg, done, &mut |g| {
        let record_error = |e: &dyn std::fmt::Display| ArenaError::Record(format!("{e:#}"));
        let mut f = match file.take() {
            Some(f) => f,
            None => {
                // The games kept, rewritten whole (a torn last line dropped), then each new
                // one appended.
                write_games(path, cfg, &kept).map_err(|e| record_error(&e))?;
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(path)
                    .map_err(|e| record_error(&format!("{}: {e}", path.display())))?
            }
        };
        let written = f
            .write_all(game_line(g).as_bytes())
            .and_then(|()| f.flush());
        file = Some(f);
        written.map_err(|e| record_error(&format!("{}: {e}", path.display())))
    })?;
    drop(file);
    write_games(path, cfg, &report.games)?;
    Ok(report)
}

/// The games of the match's record at `path` (none if there is no such file yet).
fn read_kept(cfg: &MatchConfig, path: &Path) -> anyhow::Result<Vec<GameRecord>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let recorded = read_record(&text, cfg)
        .with_context(|| format!("resuming the match in {}", path.display()))?;
    if recorded.torn {
        tracing::warn!(
            file = %path.display(),
            "the record's last line was cut off while being written; that game is played again"
        );
    }
    Ok(recorded.games)
}

/// Writes the record file of `games` whole: to a file beside it, then renamed over it, so
/// that a stop in the middle leaves the old file.
fn write_games(path: &Path, cfg: &MatchConfig, games: &[GameRecord]) -> anyhow::Result<()> {
    let mut text = header(cfg);
    for g in games {
        text.push_str(&game_line(g));
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".part");
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", Path::new(&tmp).display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
}
