//! The tactics check of the finished search's choice (`SearchConfig::tactics_depth`): a
//! choice that a short alpha-beta search scores more than the margin (a mean piece value)
//! below its best move is replaced by one that is not; a choice within the margin is kept.

mod favour;

use favour::Favour;
use koma_mcts::alphabeta::AlphaBeta;
use koma_mcts::{search, SearchConfig, Tree};
use koma_rules::{load_variant, Position};

/// Black's lance on e2 faces White's gold on e5 (kings on e1 and e9, nothing in hand):
/// `e2e5` takes the gold, `e2e4` puts the lance where the gold takes it.
const POSITION: &str = "4k4/9/9/9/4g4/9/9/4L4/4K4 b -";

/// A search on the network's value alone (so only the check sees material), with the check
/// at `depth` plies (0: none).
fn config(depth: u32, gumbel: bool) -> SearchConfig {
    SearchConfig {
        material_weight: 0.0,
        root_mate_nodes: 0,
        tactics_depth: depth,
        gumbel,
        ..SearchConfig::default()
    }
}

fn played(favoured: &str, depth: u32, gumbel: bool) -> (String, Position) {
    let v = load_variant("hand-shogi").unwrap();
    let mut pos = Position::from_text(&v, POSITION).unwrap();
    let mv = pos.parse_move(favoured).unwrap();
    let mut tree = Tree::new(config(depth, gumbel), 3);
    let r = search(&mut tree, &mut pos, &Favour(mv), 64, 8, false).unwrap();
    (pos.move_text(&r.best), pos)
}

#[test]
fn a_choice_that_hangs_a_piece_is_replaced() {
    for gumbel in [false, true] {
        // Without the check the search plays the move its network favours.
        assert_eq!(played("e2e4", 0, gumbel).0, "e2e4");
        // With it, a move that keeps the lance is played, and it scores as well as the
        // check's best move.
        let (best, mut pos) = played("e2e4", 2, gumbel);
        assert_ne!(best, "e2e4", "gumbel {gumbel}");
        let mut ab = AlphaBeta::new(pos.variant());
        let (_, top) = ab.score_root(&mut pos, 2, None).unwrap();
        let mv = pos.parse_move(&best).unwrap();
        let score = ab.score_move(&mut pos, mv, 2, None).unwrap();
        assert!(
            score as f32 >= top as f32 - ab.mean_value(),
            "{best} scores {score} against the best {top}"
        );
    }
}

#[test]
fn a_choice_within_the_margin_is_kept() {
    // Taking the gold is the check's own best move.
    assert_eq!(played("e2e5", 2, false).0, "e2e5");
    // A king step that leaves the gold where it is forgoes it; with the margin as wide as
    // the gold's value, the check lets the search's choice stand.
    let v = load_variant("hand-shogi").unwrap();
    let mut pos = Position::from_text(&v, POSITION).unwrap();
    let step = pos.parse_move("e1d1").unwrap();
    let cfg = SearchConfig {
        tactics_margin: 1000.0,
        ..config(2, false)
    };
    let mut tree = Tree::new(cfg, 3);
    let r = search(&mut tree, &mut pos, &Favour(step), 64, 8, false).unwrap();
    assert_eq!(pos.move_text(&r.best), "e1d1");
}

#[test]
fn the_scores_see_the_piece_the_move_hangs() {
    let v = load_variant("hand-shogi").unwrap();
    let mut pos = Position::from_text(&v, POSITION).unwrap();
    let mut ab = AlphaBeta::new(&v);
    let (best, top) = ab.score_root(&mut pos, 2, None).unwrap();
    assert_eq!(pos.move_text(&best), "e2e5");
    let hang = pos.parse_move("e2e4").unwrap();
    let lost = ab.score_move(&mut pos, hang, 2, None).unwrap();
    assert!(top > 0 && lost < 0, "best {top}, hanging {lost}");
    // The root's score is the best move's, searched the same way.
    assert_eq!(ab.score_move(&mut pos, best, 2, None), Some(top));
    // A clock already past stops the search with no score.
    let past = Some(std::time::Instant::now());
    assert_eq!(ab.score_move(&mut pos, hang, 4, past), None);
}
