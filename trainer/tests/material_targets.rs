//! Material targets look the configured number of plies ahead, for the side to move of each
//! sample, and stop at the end of the game; value targets blend the result with the root
//! value.

use koma_rules::{load_variant, Color, PieceValues, Position};
use koma_selfplay::{sorted_legal, GameRecord, GameResult, SearchRecord};
use koma_trainer::replay::{samples_of, TargetRule};

#[test]
fn targets_are_the_balance_some_plies_later_for_the_side_to_move() {
    let v = load_variant("hand-shogi").unwrap();
    let values = PieceValues::new(&v);
    // Black drops a lance below White's gold, White's king steps aside, the lance takes the
    // gold.
    let start = "4k4/9/9/9/4g4/9/9/9/4K4 b L";
    let mut pos = Position::from_text(&v, start).unwrap();
    let mut moves = Vec::new();
    for text in ["L@e2", "e9d9", "e2e5"] {
        let legal = sorted_legal(&mut pos);
        let i = legal.iter().position(|m| pos.move_text(m) == text).unwrap();
        moves.push(i as u16);
        pos.make_move(legal[i]);
    }
    let after = values.balance(&pos, Color::Black);
    assert!(after > 0.3, "black is a gold up: {after}");
    let record = GameRecord {
        variant: v.id.clone(),
        start: Some(start.into()),
        moves,
        searches: vec![
            Some(SearchRecord {
                policy: vec![(0, 1.0)],
                value: 0.0,
            });
            3
        ],
        result: GameResult::Draw,
        reason: "test".into(),
        resigned: false,
        model_step: 0,
    };
    let before = values.balance(&Position::from_text(&v, start).unwrap(), Color::Black);
    let rule = |horizon, q_share| TargetRule {
        values: values.clone(),
        horizon,
        q_share,
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
