//! Command-line interface: one subcommand per job.

mod analyse;
mod arena;
mod bench;
mod bench_ingest;
mod bench_profile;
mod bench_store;
mod games;
mod ladder;
mod lift_check;
mod moves;
mod new_model;
mod perft;
mod play;
mod position_args;
mod signals;
mod status;
mod store_args;
mod teach;
mod train;

use clap::{Parser, Subcommand};

/// koma: AlphaZero-style self-play training for large shogi variants.
#[derive(Debug, Parser)]
#[command(name = "koma", version, about)]
pub struct Cli {
    /// More log output (-v: debug, -vv: trace).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    #[command(subcommand)]
    pub command: Command,
}

/// The jobs koma can run.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaf nodes of the legal-move tree (move generator test and benchmark).
    Perft(perft::PerftArgs),
    /// List the legal moves of a position, one per line, in the canonical notation.
    Moves(moves::MovesArgs),
    /// Self-play and training together: turns compute into a stronger player.
    Train(train::LoopArgs),
    /// Self-play workers only, on a run's store (local or S3), following its published models.
    Selfplay(train::LoopArgs),
    /// The trainer only, on a run's store (local or S3).
    Trainer(train::LoopArgs),
    /// The classical baseline's games as training targets in a run's store: a supervised
    /// start (`koma teach`, then `koma trainer --steps N`, then `koma train`).
    Teach(teach::TeachArgs),
    /// A run's store at a glance: workers and their rates, newest model, trainer progress.
    Status(status::StatusArgs),
    /// A run's self-play games per stretch of training: lengths, results, how they ended.
    Games(games::GamesArgs),
    /// Play a match between two players (paired openings) and report results and Elo.
    Arena(arena::ArenaArgs),
    /// Rate a run's published models on one Elo scale (random = 0): CSV, PNG plot, TensorBoard.
    Ladder(ladder::LadderArgs),
    /// Play a trained model in the browser (any variant, any board size).
    Play(play::PlayArgs),
    /// Write an untrained network for a variant (controls, trying the front ends).
    NewModel(new_model::NewModelArgs),
    /// Search one position with a model and show its value and the moves it weighs.
    Analyse(analyse::AnalyseArgs),
    /// Measure search, network and self-play throughput (and memory over time).
    Bench(bench::BenchArgs),
    /// Compare koma's legal moves with an XBoard engine's own (HaChu: `lift`/`highlight`), in
    /// the start position and along games the engine plays against itself.
    LiftCheck(lift_check::LiftCheckArgs),
    /// Describe the build: built-in variants and the libtorch runtime.
    Info,
}

/// Sets up `tracing` output on stderr.
pub fn init_logging(verbose: u8) {
    let default = match verbose {
        0 => "info",
        1 => "debug",
        _ => "trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
}

/// Runs the chosen subcommand.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Perft(a) => perft::run(a),
        Command::Moves(a) => moves::run(a),
        Command::Train(a) => train::train(a),
        Command::Bench(a) => bench::run(a),
        Command::Arena(a) => arena::run(a),
        Command::Ladder(a) => ladder::run(a),
        Command::Analyse(a) => analyse::run(a),
        Command::Play(a) => play::run(a),
        Command::NewModel(a) => new_model::run(a),
        Command::Selfplay(a) => train::selfplay(a),
        Command::Trainer(a) => train::trainer(a),
        Command::Teach(a) => teach::run(a),
        Command::Status(a) => status::run(a),
        Command::Games(a) => games::run(a),
        Command::LiftCheck(a) => lift_check::run(a),
        Command::Info => {
            println!(
                "variants: {}",
                koma_rules::variant::builtin_ids().join(", ")
            );
            println!("{}", koma_model::device::runtime_summary());
            Ok(())
        }
    }
}
