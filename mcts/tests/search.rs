//! Search behaviour with the uniform evaluator on Hand Shogi positions.

use koma_mcts::{search, SearchConfig, Tree, UniformEvaluator};
use koma_rules::{load_variant, Position};

/// Black to move mates with G@h8 (the shogun on h5 protects it); every other move lets the game
/// go on.
const MATE_IN_ONE: &str = "8k/9/9/9/7(SH)1/9/9/9/K8 b G";

fn mate_position() -> Position {
    let v = load_variant("hand-shogi").unwrap();
    Position::from_text(&v, MATE_IN_ONE).unwrap()
}

#[test]
fn puct_finds_the_mate_in_one() {
    let mut pos = mate_position();
    let before = pos.to_text();
    let mut tree = Tree::new(SearchConfig::default(), 1);
    let r = search(&mut tree, &mut pos, &UniformEvaluator, 3000, 1, false).unwrap();
    assert_eq!(pos.move_text(&r.best), "G@h8");
    assert!(r.value > 0.5, "value {}", r.value);
    assert_eq!(
        pos.to_text(),
        before,
        "search leaves the position as it was"
    );
}

#[test]
fn gumbel_finds_the_mate_in_one_and_its_policy_prefers_it() {
    let mut pos = mate_position();
    let cfg = SearchConfig {
        gumbel: true,
        gumbel_considered: 200,
        ..SearchConfig::default()
    };
    let mut tree = Tree::new(cfg, 2);
    let r = search(&mut tree, &mut pos, &UniformEvaluator, 800, 1, true).unwrap();
    assert_eq!(pos.move_text(&r.best), "G@h8");
    let (best_policy_move, _) = r.policy.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
    assert_eq!(pos.move_text(best_policy_move), "G@h8");
    let total: f32 = r.policy.iter().map(|p| p.1).sum();
    assert!((total - 1.0).abs() < 1e-4);
}

#[test]
fn visits_add_up_with_batched_leaves() {
    let v = load_variant("hand-shogi").unwrap();
    let mut pos = Position::start(&v);
    for (gumbel, batch) in [(false, 1), (false, 8), (true, 1), (true, 8)] {
        let cfg = SearchConfig {
            gumbel,
            ..SearchConfig::default()
        };
        let mut tree = Tree::new(cfg, 3);
        let r = search(&mut tree, &mut pos, &UniformEvaluator, 256, batch, true).unwrap();
        let child_visits: u32 = r.visits.iter().map(|v| v.1).sum();
        assert!(r.simulations >= 256, "{gumbel} {batch}: {}", r.simulations);
        assert_eq!(
            child_visits + 1,
            r.simulations,
            "root evaluation plus child visits"
        );
        assert_eq!(r.visits.len(), 319);
    }
}

#[test]
fn tree_reuse_keeps_the_chosen_subtree() {
    let v = load_variant("hand-shogi").unwrap();
    let mut pos = Position::start(&v);
    let mut tree = Tree::new(SearchConfig::default(), 4);
    let r = search(&mut tree, &mut pos, &UniformEvaluator, 2000, 1, false).unwrap();
    let (mv, n) = *r.visits.iter().max_by_key(|v| v.1).unwrap();
    assert!(n > 1);
    tree.advance(mv);
    pos.make_move(mv);
    assert_eq!(tree.root_visits(), n, "the child's visits carry over");
    let r2 = search(&mut tree, &mut pos, &UniformEvaluator, 100, 1, false).unwrap();
    assert!(r2.simulations >= n + 100);
}

#[test]
fn no_result_when_the_game_is_over() {
    let v = load_variant("hand-shogi").unwrap();
    let mut pos = Position::from_text(&v, "8k/7G1/9/9/7(SH)1/9/9/9/K8 w -").unwrap();
    let mut tree = Tree::new(SearchConfig::default(), 5);
    assert!(search(&mut tree, &mut pos, &UniformEvaluator, 10, 1, false).is_none());
}

#[test]
fn gumbel_with_tree_reuse_spreads_the_new_visits_by_its_schedule() {
    let v = load_variant("hand-shogi").unwrap();
    let mut pos = Position::start(&v);
    let cfg = SearchConfig {
        gumbel: true,
        gumbel_considered: 8,
        ..SearchConfig::default()
    };
    let mut tree = Tree::new(cfg, 9);
    let r = search(&mut tree, &mut pos, &UniformEvaluator, 64, 1, true).unwrap();
    tree.advance(r.best);
    pos.make_move(r.best);
    let before: Vec<u32> = tree.root_children().iter().map(|c| c.1).collect();
    let r2 = search(&mut tree, &mut pos, &UniformEvaluator, 64, 1, true).unwrap();
    let new_visits: Vec<u32> = r2
        .visits
        .iter()
        .zip(&before)
        .map(|(v, b)| v.1 - b)
        .collect();
    // Sequential halving over 8 considered moves: at least 8 different moves get new visits.
    assert!(
        new_visits.iter().filter(|&&n| n > 0).count() >= 8,
        "{new_visits:?}"
    );
}

#[test]
fn mate_check_sees_the_opponents_mate_in_one_with_few_simulations() {
    let mut mate = mate_position();
    let cfg = SearchConfig {
        gumbel: true,
        ..SearchConfig::default()
    };
    // At the root the mate is played at once, whatever the budget.
    let mut tree = Tree::new(cfg.clone(), 1);
    let r = search(&mut tree, &mut mate, &UniformEvaluator, 4, 1, false).unwrap();
    assert_eq!(mate.move_text(&r.best), "G@h8");
    let p: f32 = r
        .policy
        .iter()
        .filter(|(m, _)| mate.move_text(m) == "G@h8")
        .map(|x| x.1)
        .sum();
    assert_eq!(p, 1.0);
    // Without the mate check, four simulations over hundreds of moves miss it.
    let mut plain = Tree::new(
        SearchConfig {
            mate_check: false,
            root_mate_nodes: 0,
            ..cfg
        },
        1,
    );
    let r = search(&mut plain, &mut mate, &UniformEvaluator, 4, 1, false).unwrap();
    assert_ne!(mate.move_text(&r.best), "G@h8");
}

#[test]
fn a_child_where_the_opponent_mates_is_a_proven_loss() {
    // White threatens G@b2 mate (the gold attacks a1, a2 and b1; the shogun on b4 guards it).
    // With the mate check, a node where White can mate is a proven loss for Black, so the
    // search picks a move that does not allow it.
    let v = load_variant("hand-shogi").unwrap();
    let mut pos = Position::from_text(&v, "8k/9/9/9/9/1(sh)7/9/9/K8 b g").unwrap();
    let mut tree = Tree::new(SearchConfig::default(), 3);
    let r = search(&mut tree, &mut pos, &UniformEvaluator, 400, 1, false).unwrap();
    let mut after = pos.clone();
    after.make_move(r.best);
    let replies = after.legal_moves();
    assert!(
        after
            .forced_win(&replies, 1, &mut koma_rules::mate::Budget::new(100_000))
            .is_none(),
        "{} lets White mate",
        pos.move_text(&r.best)
    );
}

/// Black's lance on e2 can take White's loose gold on e5.
const LOOSE_GOLD: &str = "4k4/9/9/9/4g4/9/9/4L4/4K4 b S";
/// Black can only drop its silver or move its king; the gold covers d4, e4, f4, d5, f5, e6.
const SILVER_TO_PLACE: &str = "4k4/9/9/9/4g4/9/9/9/4K4 b S";

#[test]
fn the_material_term_takes_loose_pieces_and_keeps_its_own() {
    let v = load_variant("hand-shogi").unwrap();
    let best = |text: &str, cfg: SearchConfig| {
        let mut pos = Position::from_text(&v, text).unwrap();
        let mut tree = Tree::new(cfg, 5);
        let r = search(&mut tree, &mut pos, &UniformEvaluator, 400, 1, false).unwrap();
        (pos.move_text(&r.best), r.value)
    };
    for gumbel in [false, true] {
        let cfg = SearchConfig {
            gumbel,
            gumbel_considered: 400,
            ..SearchConfig::default()
        };
        assert_eq!(best(LOOSE_GOLD, cfg.clone()).0, "e2e5", "gumbel {gumbel}");
        let (m, _) = best(SILVER_TO_PLACE, cfg);
        assert!(
            !["S@d4", "S@e4", "S@f4", "S@d5", "S@f5", "S@e6"].contains(&m.as_str()),
            "gumbel {gumbel}: {m} puts the silver en prise"
        );
    }
    // Without the term, the uniform evaluator sees no difference between the moves.
    let cfg = SearchConfig {
        material_weight: 0.0,
        ..SearchConfig::default()
    };
    let (_, value) = best(LOOSE_GOLD, cfg);
    assert!(value.abs() < 1e-6, "value {value}");
}

/// Black far ahead (nine pieces in hand), with White's gold loose to the lance on e2 as in
/// [`LOOSE_GOLD`].
const FAR_AHEAD_LOOSE_GOLD: &str = "4k4/9/9/9/4g4/9/9/4L4/4K4 b GGGSSSLLL";

/// Far ahead, material counted from level hardly tells a gold won from a quiet move (the
/// term is a tanh of the difference, nearly flat there), so the search spreads its visits;
/// counted from the root's own lead, the capture is worth what it is worth in a level game and
/// the search takes it.
#[test]
fn relative_material_keeps_a_side_far_ahead_taking_material() {
    let v = load_variant("hand-shogi").unwrap();
    let share = |relative_material: bool| {
        let mut pos = Position::from_text(&v, FAR_AHEAD_LOOSE_GOLD).unwrap();
        let cfg = SearchConfig {
            relative_material,
            ..SearchConfig::default()
        };
        let mut tree = Tree::new(cfg, 6);
        let r = search(&mut tree, &mut pos, &UniformEvaluator, 400, 1, false).unwrap();
        let capture = r
            .visits
            .iter()
            .find(|(m, _)| pos.move_text(m) == "e2e5")
            .map_or(0, |v| v.1);
        let total: u32 = r.visits.iter().map(|v| v.1).sum();
        (pos.move_text(&r.best), capture as f32 / total as f32)
    };
    let (best, relative) = share(true);
    let (_, from_level) = share(false);
    assert_eq!(best, "e2e5");
    assert!(relative > 0.5, "share of the capture {relative}");
    assert!(
        relative > 3.0 * from_level,
        "{relative} against {from_level} counted from level"
    );
    // From a level root (the start position) the two counts are the same.
    let relative = SearchConfig {
        relative_material: true,
        ..SearchConfig::default()
    };
    assert_eq!(
        start_visits(relative, 7),
        start_visits(SearchConfig::default(), 7)
    );
}

/// The visits of a 200-simulation search of Hand Shogi's start position (level material).
fn start_visits(cfg: SearchConfig, seed: u64) -> Vec<(koma_rules::Move, u32)> {
    let v = load_variant("hand-shogi").unwrap();
    let mut pos = Position::start(&v);
    let mut tree = Tree::new(cfg, seed);
    search(&mut tree, &mut pos, &UniformEvaluator, 200, 1, false)
        .unwrap()
        .visits
}

/// Black far ahead on the board (four Golds and two Silvers against a bare King), its pieces
/// on its first ranks and nothing to take: to the material term every quiet move looks alike.
const FAR_AHEAD_QUIET: &str = "4k4/9/9/9/9/9/9/1SGG1GGS1/4K4 b -";

/// Ko Shogi's counterpart: Black's general and five millenaries (queens) against White's lone
/// general, the commander whose removal wins, on j19.
const KO_FAR_AHEAD_QUIET: &str =
    "9(g)9/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/4(MI)14/(MI)(MI)(MI)(MI)5(G)9 b -";

/// The share of a search's visits that went to `forward`, when the root of `text` is
/// restricted to `forward` and `sideways` (offered in that order or the other) and searched
/// with the mop-up term at `weight`.
fn forward_share(
    variant: &str,
    text: &str,
    forward: &str,
    sideways: &str,
    weight: f32,
    forward_first: bool,
) -> f32 {
    let v = load_variant(variant).unwrap();
    let mut pos = Position::from_text(&v, text).unwrap();
    let mut allowed: Vec<_> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| [forward, sideways].contains(&pos.move_text(m).as_str()))
        .collect();
    assert_eq!(allowed.len(), 2, "{variant}: {forward} and {sideways}");
    allowed.sort_by_key(|m| (pos.move_text(m) == forward) != forward_first);
    let cfg = SearchConfig {
        mop_up: weight,
        ..SearchConfig::default()
    };
    let mut tree = Tree::new(cfg, 8);
    tree.restrict_root(Some(allowed));
    let r = search(&mut tree, &mut pos, &UniformEvaluator, 400, 1, false).unwrap();
    let total: u32 = r.visits.iter().map(|v| v.1).sum();
    let ahead = r
        .visits
        .iter()
        .find(|(m, _)| pos.move_text(m) == forward)
        .map_or(0, |v| v.1);
    ahead as f32 / total as f32
}

/// With the mop-up term a side far ahead brings its pieces to the enemy King: offered a
/// Gold's step towards the King (d2d3) and one along its rank that comes no nearer (d2e2), the
/// search spends most of its visits on the step forward whichever it is offered first, where
/// without the term the two are alike to it. In Ko Shogi, which has no royal piece, the same
/// holds for a millenary's step towards the enemy general, one square of a 19x19 board. From
/// a level root the term is off and nothing changes.
#[test]
fn mop_up_brings_a_far_ahead_sides_pieces_to_the_enemy_royal() {
    let cases = [
        ("hand-shogi", FAR_AHEAD_QUIET, "d2d3", "d2e2", 4.0),
        ("ko-shogi", KO_FAR_AHEAD_QUIET, "e2e3", "e2f2", 2.0),
    ];
    for (variant, text, forward, sideways, weight) in cases {
        for first in [true, false] {
            let on = forward_share(variant, text, forward, sideways, weight, first);
            let off = forward_share(variant, text, forward, sideways, 0.0, first);
            assert!(
                on > 0.65 && on > off + 0.15,
                "{variant}: the step forward had {on} of the visits with the term and {off} \
                 without"
            );
        }
    }
    let mop_up = SearchConfig {
        mop_up: 4.0,
        ..SearchConfig::default()
    };
    assert_eq!(
        start_visits(mop_up, 9),
        start_visits(SearchConfig::default(), 9)
    );
}

/// A restricted root searches only the allowed moves, under PUCT and Gumbel, fresh and reused;
/// the mate it is not allowed to play is not played. The restriction ends with the root.
#[test]
fn a_restricted_root_chooses_only_among_its_moves() {
    for gumbel in [false, true] {
        let mut pos = mate_position();
        let allowed: Vec<_> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| {
                let t = pos.move_text(m);
                t == "a1a2" || t == "a1b1"
            })
            .collect();
        assert_eq!(allowed.len(), 2);
        let cfg = SearchConfig {
            gumbel,
            ..SearchConfig::default()
        };
        let mut tree = Tree::new(cfg, 7);
        tree.restrict_root(Some(allowed.clone()));
        let r = search(&mut tree, &mut pos, &UniformEvaluator, 200, 4, false).unwrap();
        assert!(
            allowed.contains(&r.best),
            "{gumbel}: {}",
            pos.move_text(&r.best)
        );
        assert_eq!(r.visits.len(), 2);
        assert!(r.visits.iter().all(|(m, _)| allowed.contains(m)));
        let total: f32 = r.policy.iter().map(|p| p.1).sum();
        assert!((total - 1.0).abs() < 1e-4);
        // A second search of the same root keeps the restriction on the reused root.
        let r = search(&mut tree, &mut pos, &UniformEvaluator, 100, 1, false).unwrap();
        assert_eq!(r.visits.len(), 2);
        // Without a restriction, a fresh tree finds the mate.
        let mut free = Tree::new(SearchConfig::default(), 7);
        free.restrict_root(None);
        let r = search(&mut free, &mut pos, &UniformEvaluator, 200, 1, false).unwrap();
        assert_eq!(pos.move_text(&r.best), "G@h8");
        // Moves none of which is legal leave the root its moves.
        let mut odd = Tree::new(SearchConfig::default(), 7);
        let mut start = Position::start(&load_variant("hand-shogi").unwrap());
        let not_here = start.parse_move("e3e4").unwrap();
        assert!(!pos.legal_moves().contains(&not_here));
        odd.restrict_root(Some(vec![not_here]));
        let r = search(&mut odd, &mut pos, &UniformEvaluator, 50, 1, false).unwrap();
        assert!(r.visits.len() > 2);
    }
}

#[test]
fn the_root_mate_search_plays_a_mate_the_tree_cannot_see() {
    // Found by the exhaustive checks of the rules' mate tests: a forced win deeper than the
    // leaf search, with one simulation.
    let v = load_variant("gyaku-sama-shogi").unwrap();
    let mut rng_positions = 0;
    let mut found = 0;
    // Random sparse positions: wherever the proof-number search proves a win, the search
    // plays a move of it (checked by the solver again) and values the root as won.
    use koma_rules::mate::{MateAnswer, MateSolver};
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    while rng_positions < 400 && found < 3 {
        let mut pos = Position::start(&v);
        for _ in 0..rng.gen_range(40..160) {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            pos.make_move(moves[rng.gen_range(0..moves.len())]);
        }
        if pos.outcome().is_some() {
            continue;
        }
        rng_positions += 1;
        let mut solver = MateSolver::new(2_000, 15);
        let MateAnswer::Mate(_) = solver.solve(&mut pos) else {
            continue;
        };
        found += 1;
        let cfg = SearchConfig {
            root_mate_nodes: 2_000,
            ..SearchConfig::default()
        };
        let mut tree = Tree::new(cfg, 5);
        let r = search(&mut tree, &mut pos, &UniformEvaluator, 2, 1, false).unwrap();
        assert_eq!(r.value, 1.0);
        pos.make_move(r.best);
        let mut replies = pos.legal_moves();
        // Every reply still loses: the opponent is mated or the win goes on.
        for reply in replies.drain(..) {
            pos.make_move(reply);
            let over = pos.outcome();
            if over.is_none() {
                let mut s = MateSolver::new(20_000, 15);
                assert!(
                    matches!(s.solve(&mut pos), MateAnswer::Mate(_)),
                    "{}",
                    pos.to_text()
                );
            }
            pos.unmake_move();
        }
        pos.unmake_move();
    }
    assert!(
        found >= 1,
        "no forced win in {rng_positions} random positions"
    );
}

#[test]
fn the_solver_never_chooses_a_proven_loss_while_something_else_is_open() {
    // Random middle games of Gyaku-sama Shogi (royal capture: decided lines are short).
    use rand::{Rng, SeedableRng};
    let v = load_variant("gyaku-sama-shogi").unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(12);
    let (mut decided_children, mut searched) = (0, 0);
    while searched < 60 {
        let mut pos = Position::start(&v);
        for _ in 0..rng.gen_range(30..120) {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            pos.make_move(moves[rng.gen_range(0..moves.len())]);
        }
        if pos.outcome().is_some() {
            continue;
        }
        searched += 1;
        let cfg = SearchConfig {
            root_mate_nodes: 0,
            ..SearchConfig::default()
        };
        let mut tree = Tree::new(cfg, 3);
        let r = search(&mut tree, &mut pos, &UniformEvaluator, 300, 1, false).unwrap();
        let children = tree.root_children();
        let proven: Vec<Option<f32>> = children.iter().map(|c| tree.proven_value(c.0)).collect();
        decided_children += proven.iter().flatten().count();
        let open = proven.iter().any(|p| p.is_none_or(|v| v > -1.0));
        if open {
            assert_ne!(
                tree.proven_value(r.best),
                Some(-1.0),
                "{} is lost by force in {}",
                pos.move_text(&r.best),
                pos.to_text()
            );
        } else {
            assert!(tree.is_decided());
            assert_eq!(r.value, -1.0);
        }
        if let Some(w) = tree.proven_win() {
            assert_eq!(r.best, w);
            assert_eq!(r.value, 1.0);
        }
    }
    assert!(
        decided_children > 20,
        "only {decided_children} decided moves seen"
    );
}

#[test]
fn threads_share_one_tree() {
    use koma_mcts::{simulate_shared, SearchRun};
    let v = load_variant("hand-shogi").unwrap();
    let pos = Position::start(&v);
    for threads in [1, 2, 4] {
        let mut tree = Tree::new(SearchConfig::default(), 3);
        let mut p = pos.clone();
        let mut run = SearchRun::begin(&mut tree, &mut p, 600, false);
        assert!(simulate_shared(
            &mut tree,
            &pos,
            &UniformEvaluator,
            4,
            threads,
            &mut run,
            |_| true
        ));
        let r = tree.result().unwrap();
        let child: u32 = r.visits.iter().map(|v| v.1).sum();
        // The budget holds however many threads share it (leaves in flight count as spent).
        assert!(
            (600..=601).contains(&r.simulations),
            "{threads}: {}",
            r.simulations
        );
        assert!(
            child + 1 >= r.simulations,
            "{threads}: {child} of {}",
            r.simulations
        );
    }
    // A mate in one is found with several threads too.
    let mut mate = mate_position();
    let mut tree = Tree::new(SearchConfig::default(), 4);
    let mut run = SearchRun::begin(&mut tree, &mut mate, 200, false);
    assert!(simulate_shared(
        &mut tree,
        &mate.clone(),
        &UniformEvaluator,
        4,
        2,
        &mut run,
        |_| true
    ));
    assert_eq!(mate.move_text(&tree.result().unwrap().best), "G@h8");
}

/// Each side has its king on the board and a gold in hand.
const GOLD_IN_HAND: &str = "8k/9/9/9/9/9/9/9/K8 b Gg";

/// Judges a position drawn for sure while both golds are in hand, and an even game with no
/// draw in it once either is on the board; priors uniform.
struct DrawnWhileHeld;

impl koma_mcts::Evaluator for DrawnWhileHeld {
    type Request = (usize, bool);

    fn prepare(&self, pos: &Position, moves: &[koma_rules::Move]) -> (usize, bool) {
        let text = pos.to_text();
        let hand = text.split(' ').nth(2).unwrap_or("");
        (moves.len(), hand.contains('G') && hand.contains('g'))
    }

    fn evaluate(&self, batch: Vec<(usize, bool)>) -> Vec<koma_mcts::Evaluation> {
        batch
            .into_iter()
            .map(|(n, drawn)| koma_mcts::Evaluation {
                priors: vec![1.0 / n.max(1) as f32; n],
                wdl: if drawn {
                    [0.0, 1.0, 0.0]
                } else {
                    [0.5, 0.0, 0.5]
                },
                material: 0.0,
            })
            .collect()
    }
}

/// The draw score steers the search toward or away from drawn lines for the root's side,
/// counts the other way for its opponent (also in a tree reused after a move), and leaves the
/// reported value (a self-play target) a plain expected result.
#[test]
fn the_draw_score_steers_the_root_side_and_not_the_recorded_value() {
    let v = load_variant("hand-shogi").unwrap();
    // The material term takes its share of the draw probability as of the value.
    for (gumbel, material_weight) in [(false, 0.0), (true, 0.0), (false, 0.5)] {
        let exact = material_weight == 0.0;
        let run = |draw_score: f32| {
            let mut pos = Position::from_text(&v, GOLD_IN_HAND).unwrap();
            let cfg = SearchConfig {
                gumbel,
                gumbel_considered: 400,
                material_weight,
                draw_score,
                ..SearchConfig::default()
            };
            let mut tree = Tree::new(cfg, 11);
            let r = search(&mut tree, &mut pos, &DrawnWhileHeld, 600, 1, false).unwrap();
            (pos, tree, r)
        };
        // Draws welcome: a king move, which keeps the gold in hand.
        let (mut pos, mut tree, r) = run(0.5);
        assert!(
            !pos.move_text(&r.best).contains('@'),
            "gumbel {gumbel}: {}",
            pos.move_text(&r.best)
        );
        assert!(
            !exact || r.value.abs() < 1e-6,
            "gumbel {gumbel}: value {}",
            r.value
        );
        // Below it White, Black's opponent, found draws unwelcome and dropped its gold
        // rather than move its king.
        let n = r.visits.iter().find(|v| v.0 == r.best).unwrap().1;
        tree.advance(r.best);
        pos.make_move(r.best);
        assert_eq!(tree.root_visits(), n);
        let replies = tree.root_children();
        let visits = |drop: bool| -> u32 {
            replies
                .iter()
                .filter(|c| pos.move_text(&c.0).contains('@') == drop)
                .map(|c| c.1)
                .sum()
        };
        assert!(
            4 * visits(false) < visits(true),
            "gumbel {gumbel}: White's king moves {} visits, drops {}",
            visits(false),
            visits(true)
        );
        // White is now the root of the reused tree: the same drawn lines count for it.
        for c in replies.iter().filter(|c| c.1 > 0) {
            let want = if pos.move_text(&c.0).contains('@') {
                if !exact {
                    continue;
                }
                0.0
            } else {
                0.5 * (1.0 - material_weight)
            };
            assert!(
                (c.3 - want).abs() < 1e-5,
                "gumbel {gumbel}: {} worth {}",
                pos.move_text(&c.0),
                c.3
            );
        }
        // Draws unwelcome: a drop, and the king moves are worth less than the drops.
        let (pos, tree, r) = run(-0.5);
        let best = pos.move_text(&r.best);
        assert!(best.starts_with("G@"), "gumbel {gumbel}: {best}");
        assert!(
            !exact || r.value.abs() < 1e-6,
            "gumbel {gumbel}: value {}",
            r.value
        );
        let children = tree.root_children();
        let king_move = children
            .iter()
            .filter(|c| c.1 > 0 && !pos.move_text(&c.0).contains('@'))
            .max_by_key(|c| c.1)
            .expect("a king move was searched");
        assert!(
            king_move.3 < -0.1,
            "gumbel {gumbel}: king move worth {}",
            king_move.3
        );
        for c in children
            .iter()
            .filter(|c| exact && c.1 > 0 && pos.move_text(&c.0).starts_with("G@"))
        {
            assert!(c.3.abs() < 1e-6, "gumbel {gumbel}: a drop worth {}", c.3);
        }
    }
}

/// Games that end in a draw whatever is played (the next ply reaches the length limit): each
/// move is worth the draw score to the root's side, while the reported value stays a draw.
#[test]
fn a_drawn_ending_is_worth_the_draw_score() {
    let v = load_variant("hand-shogi").unwrap();
    let last = v.rules.max_plies - 1;
    for draw_score in [-0.4f32, 0.25] {
        let mut pos = Position::from_text(&v, &format!("{GOLD_IN_HAND} {last}")).unwrap();
        let cfg = SearchConfig {
            draw_score,
            ..SearchConfig::default()
        };
        let mut tree = Tree::new(cfg, 12);
        let r = search(&mut tree, &mut pos, &UniformEvaluator, 200, 1, false).unwrap();
        assert_eq!(r.value, 0.0, "a forced draw");
        let searched: Vec<f32> = tree
            .root_children()
            .iter()
            .filter(|c| c.1 > 0)
            .map(|c| c.3)
            .collect();
        assert!(!searched.is_empty());
        for q in searched {
            assert!((q - draw_score).abs() < 1e-6, "{draw_score}: {q}");
        }
    }
}
