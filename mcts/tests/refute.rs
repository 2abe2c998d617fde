//! The refutation search of the root's preferred move (`SearchConfig::refute_nodes`): a move
//! after which the opponent mates by force is marked lost and not played.

mod favour;

use favour::Favour;
use koma_mcts::{search, simulate_shared, SearchConfig, SearchResult, SearchRun, Tree};
use koma_rules::mate::MateAnswer;
use koma_rules::{load_variant, Move, Position};

/// A Hand Shogi position from a game `koma-engine` lost at one second a move: its drop
/// `S@d9` lets the opponent mate by force in nine plies, which the leaf search (mates in
/// three) does not see; 39 of the 199 moves here leave no mate the solver finds.
const POSITION: &str = "2g1k1g2/2(so)1(pd)1(so)2/3(so)(so)(so)3/7lT/2(SH)6/5(SO)3/\
                        3(SO)(SO)1s2/2(SO)1(PD)1G2/2G1K4 b 2S3N3LOHsnt(sh)oh(so) 10";
const BLUNDER: &str = "S@d9";

/// Play's leaf mate search, no root mate search (the side to move has no mate to find),
/// and the refutation search at `refute_nodes`.
fn config(refute_nodes: u64) -> SearchConfig {
    SearchConfig {
        mate_plies: 3,
        mate_budget: 256,
        root_mate_nodes: 0,
        refute_nodes,
        ..SearchConfig::default()
    }
}

fn position() -> (Position, Move) {
    let v = load_variant("hand-shogi").unwrap();
    let mut pos = Position::from_text(&v, POSITION).unwrap();
    let blunder = pos.parse_move(BLUNDER).unwrap();
    (pos, blunder)
}

/// Whether the opponent has a forced mate the solver finds after `mv`.
fn opponent_mates_after(pos: &mut Position, mv: Move) -> bool {
    pos.make_move(mv);
    let mates = matches!(pos.solve_mate(20_000, 21), MateAnswer::Mate(_));
    pos.unmake_move();
    mates
}

fn check_refuted(tree: &Tree, r: &SearchResult, pos: &mut Position, blunder: Move) {
    assert_ne!(r.best, blunder, "the refuted move was played");
    assert_eq!(tree.proven_value(blunder), Some(-1.0));
    assert!(
        !opponent_mates_after(pos, r.best),
        "{} lets the opponent mate too",
        pos.move_text(&r.best)
    );
}

#[test]
fn a_preferred_move_the_opponent_mates_after_is_refuted_and_not_played() {
    let (mut pos, blunder) = position();
    assert!(opponent_mates_after(&mut pos, blunder));
    // Without the refutation search the search plays the favoured move: the mate is too
    // long for the leaf search.
    let mut tree = Tree::new(config(0), 1);
    let r = search(&mut tree, &mut pos, &Favour(blunder), 400, 8, false).unwrap();
    assert_eq!(r.best, blunder);
    assert_eq!(tree.proven_value(blunder), None);
    // With it, the move is proven lost once it leads, and another is played.
    let mut tree = Tree::new(config(20_000), 1);
    let r = search(&mut tree, &mut pos, &Favour(blunder), 400, 8, false).unwrap();
    check_refuted(&tree, &r, &mut pos, blunder);
    // Most of the search went to the other moves.
    let blunder_visits = r.visits.iter().find(|v| v.0 == blunder).unwrap().1;
    assert!(blunder_visits < 100, "{blunder_visits} visits of 400");
}

#[test]
fn threads_sharing_a_tree_refute_the_move_too() {
    for threads in [1, 2] {
        let (mut pos, blunder) = position();
        let mut tree = Tree::new(config(20_000), 2);
        let mut run = SearchRun::begin(&mut tree, &mut pos, 400, false);
        assert!(simulate_shared(
            &mut tree,
            &pos,
            &Favour(blunder),
            4,
            threads,
            &mut run,
            |_| true
        ));
        let r = tree.result().unwrap();
        check_refuted(&tree, &r, &mut pos, blunder);
        if threads == 1 {
            // Refuted while the search ran, not only at the end. (With two threads the
            // other one goes on simulating while the check runs outside the lock, so how
            // many visits the move had by then depends on timing.)
            let blunder_visits = r.visits.iter().find(|v| v.0 == blunder).unwrap().1;
            assert!(blunder_visits < 100, "{blunder_visits} visits of 400");
        }
    }
}

#[test]
fn a_gumbel_root_refutes_the_move_it_would_play() {
    let (mut pos, blunder) = position();
    let cfg = SearchConfig {
        gumbel: true,
        ..config(20_000)
    };
    let mut tree = Tree::new(cfg, 5);
    let r = search(&mut tree, &mut pos, &Favour(blunder), 400, 8, false).unwrap();
    check_refuted(&tree, &r, &mut pos, blunder);
}

#[test]
fn a_root_whose_every_move_is_refuted_is_a_proven_loss() {
    // From another lost game: each of the five moves here lets the opponent mate by force,
    // too far ahead for the leaf search.
    let v = load_variant("hand-shogi").unwrap();
    let mut pos = Position::from_text(
        &v,
        "6s2/4S(so)3/1S2(so)(so)3/1k1(so)5/1L3l3/9/2l(SO)(SO)(SO)3/2(SO)1(PD)1(SO)2/2G1K1G2 \
         w GS2NOH(SO)g2nl2t2(sh)oh(pd) 43",
    )
    .unwrap();
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 5);
    let mut tree = Tree::new(config(0), 6);
    let r = search(&mut tree, &mut pos, &Favour(moves[0]), 200, 8, false).unwrap();
    assert!(!tree.is_decided(), "the leaf search alone decides it");
    assert!(r.value > -1.0);
    let mut tree = Tree::new(config(20_000), 6);
    let r = search(&mut tree, &mut pos, &Favour(moves[0]), 200, 8, false).unwrap();
    for &m in &moves {
        assert_eq!(tree.proven_value(m), Some(-1.0), "{}", pos.move_text(&m));
    }
    assert!(tree.is_decided());
    assert_eq!(r.value, -1.0);
}

#[test]
fn a_short_search_checks_its_final_choice() {
    // Fewer simulations than the check during the search waits for: the final check alone
    // refutes the move.
    let (mut pos, blunder) = position();
    let mut tree = Tree::new(config(20_000), 3);
    let r = search(&mut tree, &mut pos, &Favour(blunder), 12, 4, false).unwrap();
    check_refuted(&tree, &r, &mut pos, blunder);
}
