//! Material adjudication of drawn self-play games.
//!
//! In the large variants most self-play draws end with one side well ahead in material
//! (`koma games`, column `draws =/+/++`: 79 to 87% of the last stretch's draws of 60-minute
//! Hook, Gyaku-sama and Chu Shogi runs ended with one side a mean piece value or more ahead).
//! Recorded as draws, those games teach the value head that being ahead is a draw, and a
//! search that believes it is less keen to convert: the next games repeat or run to the
//! length limit from won positions, and the share of draws grows. Whether this option turns
//! that round is what `docs/experiments.md` has yet to measure. Recording such a game as a win for the side ahead breaks that loop. Only the
//! training record changes; the rules, the arena and the engine still score it a draw.

use koma_rules::{Color, Outcome, Position};
use koma_store::{GameResult, MaterialScale};

/// The result and end reason to record for a self-play game that ended with `outcome` in
/// `end`: a draw where one side is ahead by at least `threshold` mean piece values becomes
/// that side's win ("black wins (MaterialAdjudication)"); anything else is recorded as it
/// ended. A `threshold` of 0 or below keeps every draw.
pub fn recorded_result(
    outcome: &Outcome,
    end: &Position,
    scale: &MaterialScale,
    threshold: f64,
) -> (GameResult, String) {
    if matches!(outcome, Outcome::Draw(_)) && threshold > 0.0 {
        let margin = scale.margin(end);
        if margin.abs() >= threshold {
            let (winner, result) = if margin > 0.0 {
                (Color::Black, GameResult::BlackWin)
            } else {
                (Color::White, GameResult::WhiteWin)
            };
            return (result, format!("{winner} wins (MaterialAdjudication)"));
        }
    }
    (GameResult::from_outcome(outcome), outcome.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::{load_variant, DrawReason, WinReason};

    const ROWS: &str =
        "2g1k1g2/2(so)1(pd)1(so)2/3(so)(so)(so)3/9/9/9/3(SO)(SO)(SO)3/2(SO)1(PD)1(SO)2/2G1K1G2";

    fn position(rows: &str, hands: &str) -> Position {
        let v = load_variant("hand-shogi").unwrap();
        Position::from_text(&v, &format!("{rows} b {hands} 0")).unwrap()
    }

    #[test]
    fn a_draw_with_one_side_far_ahead_is_recorded_as_its_win() {
        let v = load_variant("hand-shogi").unwrap();
        let scale = MaterialScale::new(&v);
        let rep = Outcome::Draw(DrawReason::Repetition);
        // White has lost its whole hand: Black is far ahead.
        let black_ahead = position(ROWS, "2S2N2LT(SH)OH");
        assert!(scale.margin(&black_ahead) >= 3.0);
        let (r, why) = recorded_result(&rep, &black_ahead, &scale, 3.0);
        assert_eq!(r, GameResult::BlackWin);
        assert_eq!(why, "black wins (MaterialAdjudication)");
        // The same for White.
        let white_ahead = position(ROWS, "2s2n2lt(sh)oh");
        let (r, _) = recorded_result(
            &Outcome::Draw(DrawReason::MaxLength),
            &white_ahead,
            &scale,
            3.0,
        );
        assert_eq!(r, GameResult::WhiteWin);
        // Below the threshold, level, or switched off: the draw stands.
        let one_gold = position(
            &ROWS.replacen("2g1k1g2", "4k1g2", 1),
            "2S2N2LT(SH)OH2s2n2lt(sh)oh",
        );
        let gold = scale.margin(&one_gold);
        assert!(gold > 0.0 && gold < 3.0, "{gold}");
        assert_eq!(
            recorded_result(&rep, &one_gold, &scale, 3.0).0,
            GameResult::Draw
        );
        assert_eq!(
            recorded_result(&rep, &one_gold, &scale, gold).0,
            GameResult::BlackWin,
            "the threshold itself is enough"
        );
        let start = Position::start(&v);
        assert_eq!(
            recorded_result(&rep, &start, &scale, 0.5).0,
            GameResult::Draw
        );
        let (r, why) = recorded_result(&rep, &black_ahead, &scale, 0.0);
        assert_eq!((r, why.as_str()), (GameResult::Draw, "draw (Repetition)"));
        // A decisive game keeps its result, whatever the material.
        let won = Outcome::Win {
            winner: Color::White,
            reason: WinReason::RoyalCaptured,
        };
        let (r, why) = recorded_result(&won, &black_ahead, &scale, 3.0);
        assert_eq!(r, GameResult::WhiteWin);
        assert_eq!(why, won.to_string());
    }
}
