//! Tests of the search tree's selection and compaction, apart from the tree so that they can
//! run searches (the search drives the tree).

use crate::config::SearchConfig;
use crate::evaluator::{Evaluation, Evaluator};
use crate::node::{Edge, EdgeStats, State, NONE};
use crate::search::search;
use crate::tree::{Gathered, Tree};
use koma_rules::{Move, Position};

/// Priors from the move's text, on a few levels so that many moves tie: what a network's
/// policy looks like to the search, without one.
struct LevelledPriors;

impl Evaluator for LevelledPriors {
    type Request = Vec<f32>;

    fn prepare(&self, _pos: &Position, moves: &[Move]) -> Vec<f32> {
        moves
            .iter()
            .map(|m| {
                let h = format!("{m:?}")
                    .bytes()
                    .fold(7u32, |h, b| h.wrapping_mul(31) ^ b as u32);
                1.0 + (h % 4) as f32
            })
            .collect()
    }

    fn evaluate(&self, batch: Vec<Vec<f32>>) -> Vec<Evaluation> {
        batch
            .into_iter()
            .enumerate()
            .map(|(i, priors)| Evaluation {
                priors,
                wdl: [
                    0.2 + 0.05 * (i % 5) as f32,
                    0.3,
                    0.5 - 0.05 * (i % 5) as f32,
                ],
                material: 0.0,
            })
            .collect()
    }
}

/// PUCT as it was before the early stop: every edge read.
fn select_reading_every_edge(tree: &Tree, node: u32, draw: f32) -> usize {
    let (a, b) = tree.edge_range(node);
    let nd = &tree.nodes[node as usize];
    let cfg = &tree.cfg;
    let stats: Vec<EdgeStats> = (a..b).map(|j| tree.stat(node, j)).collect();
    let visited = |e: &EdgeStats| e.n + e.inflight > 0;
    let parent_n = stats.iter().map(|e| e.n + e.inflight).sum::<u32>().max(1) as f32;
    let visited_mass: f32 = (a..b)
        .filter(|&j| visited(&stats[j - a]))
        .map(|j| tree.edges[j].prior)
        .sum();
    let c = cfg.c_puct
        + if cfg.c_puct_base > 0.0 {
            ((parent_n + cfg.c_puct_base + 1.0) / cfg.c_puct_base).ln()
        } else {
            0.0
        };
    let explore = c * parent_n.sqrt();
    let fpu = nd.net_utility(draw) - cfg.fpu_reduction * visited_mass.sqrt();
    let mut best = (a, f32::NEG_INFINITY);
    for (i, e) in stats.iter().enumerate() {
        let n = e.n + e.inflight;
        let prior = tree.edges[a + i].prior;
        let score = match e.proven {
            1 => return a + i,
            -1 => f32::MIN,
            _ if n == 0 => fpu + explore * prior,
            _ => {
                (e.w + draw * e.d - cfg.virtual_loss * e.inflight as f32) / n as f32
                    + explore * prior / (1.0 + n as f32)
            }
        };
        if score > best.1 {
            best = (a + i, score);
        }
    }
    best.0
}

/// The subtree below `node`: each edge's move and statistics, then its child's subtree.
fn subtree(tree: &Tree, node: u32, out: &mut Vec<String>) {
    let n = &tree.nodes[node as usize];
    out.push(format!(
        "node {} {:?} {} {}",
        n.n, n.state, n.n_edges, n.tried
    ));
    let (a, b) = tree.edge_range(node);
    for j in a..b {
        let e = tree.stat(node, j);
        out.push(format!(
            "{:?} {} {} {} {} {}",
            tree.edges[j].mv, e.n, e.w, tree.edges[j].prior, e.raw_prior, e.proven
        ));
        if e.child != NONE {
            subtree(tree, e.child, out);
        }
    }
}

/// Compaction keeps the new root's subtree exactly (every edge's move and statistics, in
/// order), drops everything else, and keeps the arenas' memory; a search goes on from the
/// compacted tree as from the one before.
#[test]
fn compaction_keeps_the_subtree_and_the_memory() {
    let v = koma_rules::load_variant("hand-shogi").unwrap();
    let mut pos = Position::start(&v);
    let mut tree = Tree::new(SearchConfig::default(), 5);
    search(&mut tree, &mut pos, &LevelledPriors, 800, 4, false).unwrap();
    let (a, b) = tree.edge_range(tree.root);
    let j = (a..b).max_by_key(|&j| tree.stat(tree.root, j).n).unwrap();
    let (mv, child) = (tree.edges[j].mv, tree.stat(tree.root, j).child);
    let mut before = Vec::new();
    subtree(&tree, child, &mut before);
    let capacity = (tree.edges.capacity(), tree.stats.capacity());
    let mut copy = Tree::new(SearchConfig::default(), 5);
    copy.nodes = tree.nodes.clone();
    copy.edges = tree.edges.clone();
    copy.stats = tree.stats.clone();
    copy.root = child;
    tree.root = child;
    tree.compact();
    let mut after = Vec::new();
    subtree(&tree, tree.root, &mut after);
    assert_eq!(before, after);
    let nodes = after.iter().filter(|l| l.starts_with("node ")).count();
    assert_eq!(tree.nodes.len(), nodes);
    assert_eq!(tree.edges.len(), after.len() - nodes);
    assert!(tree.nodes.len() < copy.nodes.len() / 2);
    let live_stats: u32 = tree.nodes.iter().map(|n| n.n_stats).sum();
    assert_eq!(tree.stats.len(), live_stats as usize);
    assert!(tree.stats.len() < copy.stats.len() / 2);
    assert_eq!((tree.edges.capacity(), tree.stats.capacity()), capacity);
    // Searching on gives the same tree as searching on without compacting.
    pos.make_move(mv);
    for t in [&mut tree, &mut copy] {
        search(t, &mut pos, &LevelledPriors, 300, 4, false).unwrap();
    }
    let (mut x, mut y) = (Vec::new(), Vec::new());
    subtree(&tree, tree.root, &mut x);
    subtree(&copy, copy.root, &mut y);
    assert_eq!(x, y);
}

/// Selection reads the edges only up to the first untried one. After searches of Hand and
/// Ko Shogi (batches of one and of eight, so virtual losses are under way too), every
/// expanded node, the root too, has its edges sorted by prior, no visit beyond the tried
/// ones, and selects the same edge as reading every edge. It fails with the stop one edge
/// short, or without the sort.
#[test]
fn selection_stops_at_the_first_untried_edge() {
    for (id, batch) in [("hand-shogi", 1), ("ko-shogi", 8)] {
        let v = koma_rules::load_variant(id).unwrap();
        let mut pos = Position::start(&v);
        let mut tree = Tree::new(SearchConfig::default(), 3);
        search(&mut tree, &mut pos, &LevelledPriors, 600, batch, false).unwrap();
        let mut compared = 0;
        let mut wide = 0;
        for node in 0..tree.nodes.len() as u32 {
            let nd = &tree.nodes[node as usize];
            if nd.state != State::Expanded {
                continue;
            }
            let (a, b) = tree.edge_range(node);
            let edges = &tree.edges[a..b];
            assert!(Edge::sorted_by_prior(edges), "{id}");
            let tried = nd.tried as usize;
            // Every edge selection chose has its statistics; the edges beyond are unvisited.
            assert!(
                nd.n_stats as usize >= tried && nd.n_stats <= nd.n_edges,
                "{id}"
            );
            assert!((a + tried.min(edges.len())..b).all(|j| {
                let e = tree.stat(node, j);
                e.n + e.inflight == 0 && e.child == NONE
            }));
            for draw in [0.0, -0.3] {
                assert_eq!(
                    tree.select_puct(node, draw),
                    select_reading_every_edge(&tree, node, draw),
                    "{id}: node {node}"
                );
                compared += 1;
            }
            wide += (tried + 1 < edges.len()) as usize;
        }
        assert!(compared > 100 && wide > 50, "{id}: {compared} {wide}");
    }
}

/// Statistics made as selection reaches further into a node, and moved when they grow, keep
/// every visit: after searches of Hand and Ko Shogi in batches of eight (walks under way
/// while a node's statistics move), each evaluated node's visits are its own evaluation plus
/// its edges' visits, each walked edge has as many visits as the node it leads to, and no
/// visit is left under way. A walk that found a moved edge's statistics at their old place
/// would break the counts; the moves did happen (checked by the arena holding more
/// statistics than the nodes use).
#[test]
fn moved_statistics_keep_every_visit() {
    for id in ["hand-shogi", "ko-shogi"] {
        let v = koma_rules::load_variant(id).unwrap();
        let mut pos = Position::start(&v);
        let mut tree = Tree::new(SearchConfig::default(), 9);
        search(&mut tree, &mut pos, &LevelledPriors, 1500, 8, false).unwrap();
        let used: u32 = tree.nodes.iter().map(|n| n.n_stats).sum();
        assert!(
            tree.stats.len() > used as usize,
            "{id}: no statistics moved"
        );
        let mut checked = 0;
        for (node, nd) in tree.nodes.iter().enumerate() {
            let (s, t) = tree.stat_range(node as u32);
            let stats = &tree.stats[s..t];
            assert!(stats.iter().all(|e| e.inflight == 0), "{id}: node {node}");
            for e in stats.iter().filter(|e| e.child != NONE) {
                assert_eq!(e.n, tree.nodes[e.child as usize].n, "{id}: node {node}");
            }
            if nd.state == State::Expanded {
                let below: u32 = stats.iter().map(|e| e.n).sum();
                assert_eq!(nd.n, 1 + below, "{id}: node {node}");
                checked += 1;
            }
        }
        assert!(checked > 100, "{id}: {checked}");
    }
}

/// A root move proven lost before its first visit (a refutation marks it so) does not stop
/// selection at the root: the unvisited moves after it are still read, and selection chooses
/// as reading every edge does. It fails where the stop treats the lost move as the first
/// untried one.
#[test]
fn selection_passes_over_a_root_move_lost_before_its_first_visit() {
    let v = koma_rules::load_variant("hand-shogi").unwrap();
    let mut passed_over = 0;
    for sims in [1, 2, 3, 5, 8, 13, 21, 34, 55] {
        let mut pos = Position::start(&v);
        let mut tree = Tree::new(SearchConfig::default(), 4);
        search(&mut tree, &mut pos, &LevelledPriors, sims, 1, false).unwrap();
        let root = tree.root;
        let (a, b) = tree.edge_range(root);
        let lost = a + tree.nodes[root as usize].tried as usize;
        if lost + 1 >= b {
            continue;
        }
        tree.mark_root_move_lost(lost);
        for draw in [0.0, -0.3] {
            let chosen = tree.select_puct(root, draw);
            assert_eq!(
                chosen,
                select_reading_every_edge(&tree, root, draw),
                "{sims}"
            );
            passed_over += (chosen > lost) as usize;
        }
    }
    assert!(passed_over > 0);
}

/// A root whose evaluation is still out has its moves but no statistics yet: reading the
/// search's result then (a front end reporting while the first batch is in the network)
/// gives its moves with no visits, as before the statistics were made apart.
#[test]
fn a_root_waiting_for_its_evaluation_reads_as_unvisited() {
    let v = koma_rules::load_variant("hand-shogi").unwrap();
    let mut pos = Position::start(&v);
    let mut tree = Tree::new(SearchConfig::default(), 6);
    tree.begin(10, false);
    let Gathered::Leaf(ticket, request) = tree.gather(&mut pos, &LevelledPriors) else {
        panic!("the root is the first leaf");
    };
    let result = tree.result().expect("the root's moves are known");
    assert_eq!(result.visits.len(), pos.legal_moves().len());
    assert!(result.visits.iter().all(|&(_, n)| n == 0));
    assert_eq!(tree.principal_variation(5), Vec::new());
    let eval = LevelledPriors.evaluate(vec![request]).pop().unwrap();
    tree.apply(ticket, eval);
    assert_eq!(tree.root_visits(), 1);
}
