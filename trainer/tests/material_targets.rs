//! Material targets look the configured number of plies ahead, for the side to move of each
//! sample, and stop at the end of the game; value targets blend the result with the root
//! value, and a decisive result fades with the distance from the end of its game.

use koma_rules::{load_variant, Color, PieceValues, Position, Variant};
use koma_store::{sorted_legal, GameRecord, GameResult, SearchRecord};
use koma_trainer::replay::{samples_of, TargetRule};
use std::sync::Arc;

/// Black drops a lance below White's gold, White's king steps aside, the lance takes the
/// gold: the game record (every move fully searched, root values 0, `result`) and the final
/// position.
fn lance_takes_gold(v: &Arc<Variant>, result: GameResult) -> (GameRecord, Position) {
    let mut pos = Position::from_text(v, START).unwrap();
    let mut moves = Vec::new();
    for text in ["L@e2", "e9d9", "e2e5"] {
        let legal = sorted_legal(&mut pos);
        let i = legal.iter().position(|m| pos.move_text(m) == text).unwrap();
        moves.push(i as u16);
        pos.make_move(legal[i]);
    }
    let record = GameRecord {
        variant: v.id.clone(),
        start: Some(START.into()),
        moves,
        searches: vec![
            Some(SearchRecord {
                policy: vec![(0, 1.0)],
                value: 0.0,
            });
            3
        ],
        result,
        reason: "test".into(),
        resigned: result != GameResult::Draw,
        model_step: 0,
    };
    (record, pos)
}

const START: &str = "4k4/9/9/9/4g4/9/9/9/4K4 b L";

#[test]
fn targets_are_the_balance_some_plies_later_for_the_side_to_move() {
    let v = load_variant("hand-shogi").unwrap();
    let values = PieceValues::new(&v);
    let (record, pos) = lance_takes_gold(&v, GameResult::Draw);
    let after = values.balance(&pos, Color::Black);
    assert!(after > 0.3, "black is a gold up: {after}");
    let before = values.balance(&Position::from_text(&v, START).unwrap(), Color::Black);
    let rule = |horizon, q_share| TargetRule {
        values: values.clone(),
        horizon,
        q_share,
        half_life: 0.0,
    };
    let s = samples_of(&record, &v, &rule(3, 0.0)).unwrap();
    assert_eq!(s.len(), 3);
    // Ply 0 (Black) sees the capture three plies on; ply 1 (White) and ply 2 (Black) reach the
    // end of the game first and take the final balance, each from its own side.
    assert!((s[0].material - after).abs() < 1e-6);
    assert!((s[1].material + after).abs() < 1e-6);
    assert!((s[2].material - after).abs() < 1e-6);
    // With a horizon of one ply, nothing has been captured yet at the first two samples.
    let s = samples_of(&record, &v, &rule(1, 0.0)).unwrap();
    assert!((s[0].material - before).abs() < 1e-6);
    assert!((s[1].material + before).abs() < 1e-6);
    assert!(
        before < 0.0,
        "white's gold outweighs black's lance: {before}"
    );
    // The game was drawn; half of the target comes from root values of 0.5 (for each side to
    // move), read as a 75% win and a 25% loss.
    for r in record.searches.iter().flatten() {
        assert_eq!(r.value, 0.0);
    }
    let mut record = record;
    for r in record.searches.iter_mut().flatten() {
        r.value = 0.5;
    }
    let s = samples_of(&record, &v, &rule(3, 0.5)).unwrap();
    for x in &s {
        let expect = [0.375, 0.5, 0.125];
        for (got, want) in x.wdl.iter().zip(expect) {
            assert!((got - want).abs() < 1e-6, "{:?}", x.wdl);
        }
    }
}

/// A decisive result weighs less the further a position is from the end: with a half-life of
/// two plies, the last position of a won game keeps 0.5^(1/2) of its win, the first 0.5^(3/2),
/// the rest moving to the draw; a drawn game is untouched.
#[test]
fn decisive_results_fade_with_distance_from_the_end() {
    let v = load_variant("hand-shogi").unwrap();
    let (mut record, _) = lance_takes_gold(&v, GameResult::BlackWin);
    let rule = |half_life| TargetRule {
        values: PieceValues::new(&v),
        horizon: 2,
        q_share: 0.0,
        half_life,
    };
    let s = samples_of(&record, &v, &rule(2.0)).unwrap();
    for (i, x) in s.iter().enumerate() {
        let keep = 0.5f32.powf((3 - i) as f32 / 2.0);
        // Black moves at plies 0 and 2, White at ply 1.
        let want = if i % 2 == 0 {
            [keep, 1.0 - keep, 0.0]
        } else {
            [0.0, 1.0 - keep, keep]
        };
        for (got, w) in x.wdl.iter().zip(want) {
            assert!(
                (got - w).abs() < 1e-6,
                "sample {i}: {:?} != {want:?}",
                x.wdl
            );
        }
    }
    assert!(s[2].wdl[0] > s[0].wdl[0], "nearer the win is worth more");
    // No half-life: the whole result.
    let s = samples_of(&record, &v, &rule(0.0)).unwrap();
    assert_eq!(s[0].wdl, [1.0, 0.0, 0.0]);
    assert_eq!(s[1].wdl, [0.0, 0.0, 1.0]);
    // A draw stays a draw at any distance.
    record.result = GameResult::Draw;
    for x in samples_of(&record, &v, &rule(2.0)).unwrap() {
        assert_eq!(x.wdl, [0.0, 1.0, 0.0]);
    }
}
