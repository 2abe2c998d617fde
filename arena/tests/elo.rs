//! The Elo arithmetic of match reports.

use koma_arena::{elo_from_score, EloEstimate};

fn series(wins: usize, draws: usize, losses: usize) -> Vec<f64> {
    let mut v = vec![1.0; wins];
    v.extend(std::iter::repeat_n(0.5, draws));
    v.extend(std::iter::repeat_n(0.0, losses));
    v
}

#[test]
fn known_scores_give_known_differences() {
    assert_eq!(elo_from_score(0.5), 0.0);
    assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
    assert!((elo_from_score(0.25) + 190.85).abs() < 0.01);
    assert!((elo_from_score(10.0 / 11.0) - 400.0).abs() < 1e-9);
    assert_eq!(elo_from_score(1.0), f64::INFINITY);
    assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
}

#[test]
fn an_even_match_is_centred_on_zero() {
    let e = EloEstimate::from_scores(&series(30, 40, 30));
    assert_eq!(e.score, 0.5);
    assert_eq!(e.elo, 0.0);
    assert!((e.lower + e.upper).abs() < 1e-9, "symmetric: {e:?}");
    assert!(e.lower < -20.0 && e.upper > 20.0, "{e:?}");
}

#[test]
fn three_quarters_is_about_plus_191() {
    let e = EloEstimate::from_scores(&series(75, 0, 25));
    assert!((e.elo - 190.85).abs() < 0.01, "{e:?}");
    assert!(e.lower < e.elo && e.elo < e.upper);
    // Normal approximation: s = 0.75, sd = 0.4352 (sample), se = 0.04352, +-1.96 se.
    assert!(
        (e.lower - elo_from_score(0.75 - 1.96 * 0.04352)).abs() < 1.0,
        "{e:?}"
    );
    assert!(e.to_string().starts_with("+191 ["), "{e}");
}

#[test]
fn the_interval_shrinks_with_more_games() {
    let mut last = f64::INFINITY;
    for k in [1, 4, 16, 64] {
        let e = EloEstimate::from_scores(&series(6 * k, 2 * k, 2 * k));
        assert!((e.score - 0.7).abs() < 1e-12);
        assert!(e.width().is_finite(), "{e:?}");
        assert!(e.width() < last, "{k}: {} !< {last}", e.width());
        last = e.width();
    }
    assert!(last < 100.0, "640 games pin the difference down: {last}");
}

#[test]
fn draws_narrow_the_interval() {
    let decisive = EloEstimate::from_scores(&series(60, 0, 40));
    let drawish = EloEstimate::from_scores(&series(30, 60, 10));
    assert!((decisive.score - drawish.score).abs() < 1e-12);
    assert!(drawish.width() < decisive.width());
}

#[test]
fn clean_sweeps_give_a_bound() {
    let won = EloEstimate::from_scores(&series(100, 0, 0));
    assert_eq!(won.elo, f64::INFINITY);
    assert_eq!(won.upper, f64::INFINITY);
    // Clopper-Pearson: 0.025^(1/100) = 0.9638 -> about +570.
    assert!((won.lower - 570.0).abs() < 5.0, "{won:?}");
    assert!(won.to_string().starts_with(">= +5"), "{won}");
    let more = EloEstimate::from_scores(&series(400, 0, 0));
    assert!(more.lower > won.lower, "more games, a higher bound");

    let lost = EloEstimate::from_scores(&series(0, 0, 100));
    assert_eq!(lost.elo, f64::NEG_INFINITY);
    assert!((lost.upper + won.lower).abs() < 1e-9);
    assert!(lost.to_string().starts_with("<= -5"), "{lost}");
}

#[test]
fn near_sweeps_have_an_open_upper_end() {
    let e = EloEstimate::from_scores(&series(19, 0, 1));
    assert!(e.elo.is_finite() && e.lower.is_finite());
    assert_eq!(e.upper, f64::INFINITY);
    assert!(e.to_string().contains("+inf"), "{e}");
}

#[test]
fn no_games_means_unknown() {
    let e = EloEstimate::from_scores(&[]);
    assert_eq!(e.games, 0);
    assert_eq!(e.to_string(), "unknown (no games)");
}

#[test]
fn all_drawn_games_give_an_interval_of_some_width() {
    let e = EloEstimate::from_scores(&series(0, 2, 0));
    assert_eq!(e.elo, 0.0);
    assert!(e.lower < -100.0 && e.upper > 100.0, "{e:?}");
    assert!(e.to_string().starts_with("0 ["), "{e}");
    assert!(!e.to_string().contains("-0"), "{e}");
    // Many draws narrow it, as they should.
    let many = EloEstimate::from_scores(&series(0, 200, 0));
    assert!(many.width() < 60.0 && many.width() > 0.0, "{many:?}");
}
