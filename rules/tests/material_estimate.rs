//! The search's material term without a move generation (`quick_balance`) against the two-ply
//! capture search it replaces (`resolved_balance`), on positions of random games in every
//! variant.

mod common;

use common::{play_random_moves, variant};
use koma_rules::{PieceValues, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[test]
fn the_quick_estimate_agrees_with_the_capture_search() {
    for id in [
        "hand-shogi",
        "shoko-shogi",
        "gyaku-sama-shogi",
        "hook-shogi",
        "ko-shogi",
    ] {
        let v = variant(id);
        let values = PieceValues::new(&v);
        let mut rng = StdRng::seed_from_u64(3);
        let (mut same, mut close, mut total, mut captures) = (0, 0, 0, 0);
        while total < 300 {
            let mut pos = Position::start(&v);
            let plies = rng.gen_range(10..200);
            play_random_moves(&mut pos, &mut rng, plies);
            if pos.outcome().is_some() {
                continue;
            }
            let legal = pos.legal_moves();
            // A capture of the last royal piece wins: the search takes it before any material
            // term (and the two-ply search, which counts royals at no value, misjudged it).
            if pos.winning_capture(&legal).is_some() {
                continue;
            }
            total += 1;
            captures += usize::from(legal.iter().any(|m| values.capture_value(&pos, m) > 0));
            let slow = values.resolved_balance(&mut pos, 2);
            let quick = values.quick_balance(&mut pos, &legal);
            let d = (slow - quick).abs();
            same += usize::from(d < 1e-6);
            close += usize::from(d < 0.1);
            if d >= 0.1 && std::env::var_os("KOMA_SHOW").is_some() {
                eprintln!("{id} {} slow {slow:.3} quick {quick:.3}", pos.to_text());
            }
        }
        eprintln!(
            "{id}: {same}/{total} equal, {close} within 0.1 ({captures} with a capture at hand)"
        );
        assert!(
            captures > 100,
            "{id}: only {captures} positions with a capture"
        );
        // Where they differ, the opponent's best answer takes two pieces, or is a capture the
        // two-ply search allowed and the rules forbid (counters, protected royals): rare, and
        // a fraction of a piece either way. In Ko Shogi also an answer that removes a piece
        // no attack test shows (a shot, a burn). Ko Shogi's answers are played, as its rule
        // module generates them: they often promote or take several pieces, and counting the
        // victim alone had put only 154 of 300 equal and 215 within 0.1 (278 and 291 now).
        assert!(
            same * 100 >= total * 70,
            "{id}: only {same} of {total} equal"
        );
        assert!(
            close * 100 >= total * 95,
            "{id}: only {close} of {total} within 0.1"
        );
    }
}
