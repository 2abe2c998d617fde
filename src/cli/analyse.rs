//! `koma analyse`: what a model and its search think of one position: the value, the material
//! prediction and, for the moves searched most, visits, prior and mean value.

use crate::cli::position_args::PositionArgs;
use clap::Args;
use koma_engine::search::PlayOptions;
use koma_mcts::{search, Tree};

/// Options of `koma analyse`.
#[derive(Debug, Args)]
pub struct AnalyseArgs {
    /// The position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// The model and its search.
    #[command(flatten)]
    pub play: PlayOptions,
    /// Moves listed.
    #[arg(long, default_value_t = 12)]
    pub top: usize,
}

/// Searches the position and prints the root's statistics.
pub fn run(a: AnalyseArgs) -> anyhow::Result<()> {
    a.play.validate()?;
    let loaded = a.play.load()?;
    let model = loaded.model;
    let mut pos = a.position.position_of(&loaded.variant)?;
    let moves = pos.legal_moves();
    anyhow::ensure!(!moves.is_empty(), "the position has no legal move");
    let eval = &model.evaluate_requests(&[&model.prepare(&pos, &moves)])[0];
    println!(
        "network: value {:+.3} (win {:.3} draw {:.3} loss {:.3}), material {:+.3}",
        eval.value(),
        eval.wdl[0],
        eval.wdl[1],
        eval.wdl[2],
        eval.material
    );
    let opts = a.play.searcher(&loaded.variant);
    let mut tree = Tree::new(opts.config, opts.seed);
    let r = search(&mut tree, &mut pos, &model, a.play.sims, opts.batch, false)
        .ok_or_else(|| anyhow::anyhow!("the search found no move"))?;
    println!(
        "search: best {} value {:+.3} after {} simulations",
        pos.move_text(&r.best),
        r.value,
        r.simulations
    );
    let mut children = tree.root_children();
    children.sort_by(|x, y| y.1.cmp(&x.1).then(y.2.total_cmp(&x.2)));
    println!("{:>10} {:>7} {:>8} {:>8}", "move", "visits", "prior", "q");
    for (m, n, p, q) in children.iter().take(a.top) {
        println!("{:>10} {n:>7} {p:>8.4} {q:>+8.3}", pos.move_text(m));
    }
    Ok(())
}
